//! [`Runner`]: one headless Chromium with a fresh profile, the page side loaded and ready to inject,
//! closed on every exit path (`close`, drop, a panic unwinding through its owner).

use std::time::Duration;

use chromiumoxide::browser::{Browser, BrowserConfig};
use chromiumoxide::handler::viewport::Viewport;
use futures::StreamExt as _;
use tempfile::TempDir;

use crate::config::{HEADLESS_ARGS, RunnerConfig};
use crate::error::RunnerError;
use crate::page_side::PageSide;
use crate::process;
use crate::watch::BROWSER_GONE;

/// A launched browser. Open pages on it with [`crate::Session::open`].
pub struct Runner {
    browser: Option<Browser>,
    handler: tokio::task::JoinHandle<()>,
    /// Turns true once the browser's connection is gone.
    gone: tokio::sync::watch::Receiver<bool>,
    root_pid: Option<u32>,
    pub(crate) page_side: PageSide,
    pub(crate) config: RunnerConfig,
    /// Declared last: removed after the processes writing into it are gone.
    profile: Option<TempDir>,
}

impl std::fmt::Debug for Runner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runner")
            .field("pid", &self.root_pid)
            .field("page_side", &self.page_side)
            .finish_non_exhaustive()
    }
}

impl Runner {
    /// Checks the binary and the page side, then starts Chromium headless in a fresh profile folder.
    pub async fn launch(config: RunnerConfig) -> Result<Self, RunnerError> {
        if !config.chromium.is_file() {
            return Err(RunnerError::ChromiumMissing {
                path: config.chromium.clone(),
            });
        }
        let page_side = PageSide::load(&config.page_side)?;
        let launch_error = |message: String| RunnerError::Launch {
            path: config.chromium.clone(),
            message,
        };
        // A saved profile (the person logged on to the console in it once) is used as it is and
        // kept; otherwise a fresh one is made and removed with the runner.
        let (profile, profile_dir) = match &config.user_data_dir {
            Some(saved) => (None, saved.clone()),
            None => {
                let fresh = tempfile::Builder::new()
                    .prefix("aca-runner-profile-")
                    .tempdir()
                    .map_err(|e| launch_error(format!("cannot create a profile folder: {e}")))?;
                let dir = fresh.path().to_owned();
                (Some(fresh), dir)
            }
        };
        let browser_config = BrowserConfig::builder()
            .chrome_executable(&config.chromium)
            .new_headless_mode()
            .no_sandbox()
            .user_data_dir(&profile_dir)
            .window_size(config.width, config.height)
            .viewport(Viewport {
                width: config.width,
                height: config.height,
                device_scale_factor: Some(1.0),
                emulating_mobile: false,
                is_landscape: config.width >= config.height,
                has_touch: false,
            })
            .request_timeout(config.request_timeout)
            .args(HEADLESS_ARGS.iter().copied().filter(|a| !a.starts_with("--headless")))
            .args(config.extra_args.iter().map(String::as_str))
            .build()
            .map_err(launch_error)?;
        let (mut browser, mut events) = Browser::launch(browser_config)
            .await
            .map_err(|e| launch_error(e.to_string()))?;
        let root_pid = browser.get_mut_child().and_then(|child| child.as_mut_inner().id());
        let (gone_tx, gone) = tokio::sync::watch::channel(false);
        // The handler is polled to its end even after the connection broke, so that the commands
        // in flight are answered (by their timeout); the sessions learn at once that it broke.
        let handler = tokio::spawn(async move {
            while let Some(event) = events.next().await {
                if let Err(error) = event {
                    tracing::debug!(%error, "CDP handler");
                    if matches!(error, chromiumoxide::error::CdpError::Ws(_)) {
                        gone_tx.send_replace(true);
                    }
                }
            }
            gone_tx.send_replace(true);
        });
        Ok(Self {
            browser: Some(browser),
            handler,
            gone,
            root_pid,
            page_side,
            config,
            profile,
        })
    }

    pub(crate) fn browser(&self) -> Result<&Browser, RunnerError> {
        self.browser
            .as_ref()
            .ok_or_else(|| RunnerError::protocol("using the browser", "the browser was closed"))
    }

    /// Turns true once the browser's connection is gone (it crashed, or was killed).
    pub(crate) fn gone(&self) -> tokio::sync::watch::Receiver<bool> {
        self.gone.clone()
    }

    /// Runs `work` on the browser, failing at once when the browser goes and after the configured
    /// request timeout at the latest (chromiumoxide times its commands out only while its connection
    /// lives).
    pub(crate) async fn until_gone<T>(
        &self,
        during: &str,
        work: impl Future<Output = Result<T, RunnerError>>,
    ) -> Result<T, RunnerError> {
        let mut gone = self.gone();
        tokio::select! {
            done = tokio::time::timeout(self.config.request_timeout, work) => done.unwrap_or_else(|_| {
                Err(RunnerError::Timeout {
                    waited_ms: self.config.request_timeout.as_millis() as u64,
                    waiting_for: format!("Chromium while {during}"),
                })
            }),
            _ = gone.wait_for(|gone| *gone) => Err(RunnerError::protocol(during, BROWSER_GONE)),
        }
    }

    /// The browser's process and all its descendants (renderers, GPU and utility processes), root first.
    pub fn process_ids(&self) -> Vec<u32> {
        self.root_pid.map(process::tree).unwrap_or_default()
    }

    /// The fresh profile folder of this run (removed when the runner closes); `None` with a saved one.
    pub fn profile_dir(&self) -> Option<&std::path::Path> {
        self.profile.as_ref().map(TempDir::path)
    }

    pub fn config(&self) -> &RunnerConfig {
        &self.config
    }

    /// Asks Chromium to quit, waits up to five seconds, then kills whatever is left and removes the
    /// profile folder.
    pub async fn close(mut self) {
        let pids = self.process_ids();
        if let Some(mut browser) = self.browser.take() {
            let _ = tokio::time::timeout(Duration::from_secs(5), async {
                let _ = browser.close().await;
                let _ = browser.wait().await;
            })
            .await;
            process::kill_all(&pids);
            let _ = tokio::time::timeout(Duration::from_secs(2), browser.wait()).await;
        }
        self.shut_down(&pids);
    }

    fn shut_down(&mut self, pids: &[u32]) {
        process::kill_all(pids);
        self.handler.abort();
        self.browser = None;
        if let Some(profile) = self.profile.take() {
            let path = profile.path().to_owned();
            if let Err(error) = profile.close() {
                tracing::debug!(%error, path = %path.display(), "removing the profile folder");
            }
        }
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        let pids = self.process_ids();
        self.shut_down(&pids);
    }
}
