//! How a [`crate::Runner`] launches Chromium: the binary, the window, the page side, the time limits.

use std::path::PathBuf;
use std::time::Duration;

use crate::page_side::PageSide;

/// Launch settings; `RunnerConfig::default()` suits a headless run on this machine.
#[derive(Debug, Clone)]
pub struct RunnerConfig {
    /// The Chromium binary (default `/usr/bin/chromium`, or `CHROMIUM` from the environment).
    pub chromium: PathBuf,
    /// The folder holding `aca_dom.js` and `aca_dom_bg.wasm` (default: [`PageSide::default_dir`]).
    pub page_side: PathBuf,
    /// Window and viewport size in CSS pixels.
    pub width: u32,
    pub height: u32,
    /// How long one CDP command may take.
    pub request_timeout: Duration,
    /// How long to wait for a page to load after `open`, `goto` or a navigating action.
    pub navigation_timeout: Duration,
    /// Extra command-line switches passed to Chromium after the headless ones.
    pub extra_args: Vec<String>,
    /// A browser profile to run in (one a person logged on to the console with once, as Playwright
    /// users save theirs); `None`: a fresh throw-away profile per runner.
    pub user_data_dir: Option<PathBuf>,
}

impl Default for RunnerConfig {
    fn default() -> Self {
        Self {
            chromium: std::env::var_os("CHROMIUM")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium")),
            page_side: PageSide::default_dir(),
            width: 1280,
            height: 800,
            request_timeout: Duration::from_secs(30),
            navigation_timeout: Duration::from_secs(15),
            extra_args: Vec::new(),
            user_data_dir: None,
        }
    }
}

/// The switches every headless run uses (the profile folder is added per launch).
pub(crate) const HEADLESS_ARGS: &[&str] = &[
    "--headless=new",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--mute-audio",
];
