//! The one error type of the headless runtime: each variant names what failed and what to do.

use std::path::PathBuf;

/// Why the runtime could not start a browser, reach the page side or talk to Chromium.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunnerError {
    #[error("Chromium is not installed at {path}: install it (apt-get install chromium) or configure its path")]
    ChromiumMissing { path: PathBuf },
    #[error("cannot launch Chromium at {path}: {message}")]
    Launch { path: PathBuf, message: String },
    #[error(
        "the aca-dom page side is not built (looked in {path}): run scripts/build-wasm, or set ACA_DOM_PKG to its folder"
    )]
    PageSideMissing { path: PathBuf },
    #[error("cannot inject the page side into {frame}: {message}")]
    Injection { frame: String, message: String },
    #[error("Chromium protocol error during {during}: {message}")]
    Protocol { during: String, message: String },
    /// The top frame shows the browser's own error page: the server did not answer.
    #[error("{url} could not be reached ({error})")]
    Unreachable { url: String, error: String },
    #[error("timed out after {waited_ms} ms waiting for {waiting_for}")]
    Timeout { waited_ms: u64, waiting_for: String },
    #[error("the page side returned something unexpected from {call}: {message}")]
    PageSide { call: String, message: String },
    #[error("step \"{step}\" failed: {message}")]
    Step { step: String, message: String },
    #[error("cannot write {path}: {message}")]
    Io { path: PathBuf, message: String },
}

impl RunnerError {
    pub(crate) fn protocol(during: impl Into<String>, error: impl std::fmt::Display) -> Self {
        RunnerError::Protocol {
            during: during.into(),
            message: error.to_string(),
        }
    }
}
