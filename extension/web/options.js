import init, { start_options } from './pkg/aca_extension.js';

await init();
start_options();
