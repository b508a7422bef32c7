import init, { start_side_panel } from './pkg/aca_extension.js';

await init();
start_side_panel();
