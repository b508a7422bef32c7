//! [`Session`]: one tab with the page side injected into every frame; what the agent's driver calls
//! to observe the page, act on it (see `act.rs`), wait for it and take screenshots.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use aca_core::{ActionOutcome, Observation};
use chromiumoxide::Page;
use chromiumoxide::cdp::browser_protocol::page::{CaptureScreenshotFormat, FrameId, Viewport};
use chromiumoxide::page::ScreenshotParams;
use parking_lot::Mutex;
use serde_json::Value;

use crate::child::ChildRouter;
use crate::config::RunnerConfig;
use crate::error::RunnerError;
use crate::frames::{self, Route};
use crate::inject::{self, ChildFrame, MISSING};
use crate::options::ObserveOptions;
use crate::page_side::PageSide;
use crate::runner::Runner;
use crate::watch::Watch;
use crate::world::{Channel, EvalFailure};

/// One tab of a [`Runner`].
pub struct Session {
    pub(crate) page: Page,
    pub(crate) page_side: PageSide,
    pub(crate) config: RunnerConfig,
    pub(crate) watch: Arc<Watch>,
    pub(crate) children: Arc<Mutex<Vec<ChildFrame>>>,
    pub(crate) last: Option<Observation>,
    pub(crate) routes: HashMap<u32, Route>,
    /// The navigation count when the last observation or action ended.
    pub(crate) seen_navigations: u64,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("main_frame", &self.watch.main_frame())
            .finish_non_exhaustive()
    }
}

impl Session {
    /// Opens a new tab on `runner`, prepares the page side for every document it will load, and
    /// loads `url`.
    pub async fn open(runner: &Runner, url: &str) -> Result<Self, RunnerError> {
        let (page, watch, frame_targets, router) = runner
            .until_gone("opening a tab", async {
                let page = runner
                    .browser()?
                    .new_page("about:blank")
                    .await
                    .map_err(|e| RunnerError::protocol("opening a tab", e))?;
                let main_frame = page
                    .mainframe()
                    .await
                    .map_err(|e| RunnerError::protocol("reading the main frame", e))?
                    .ok_or_else(|| RunnerError::protocol("reading the main frame", "the tab has no main frame"))?;
                inject::prepare(&Channel::Page(page.clone()), &runner.page_side, "the tab").await?;
                let (watch, frame_targets) = Watch::start(&page, main_frame)
                    .await
                    .map_err(|e| RunnerError::protocol("listening to the tab's events", e))?;
                let crashes = runner
                    .browser()?
                    .event_listener::<chromiumoxide::cdp::browser_protocol::target::EventTargetCrashed>()
                    .await
                    .map_err(|e| RunnerError::protocol("listening for crashes", e))?;
                watch.follow_browser_crashes(crashes, page.target_id().clone());
                watch.follow_browser_exit(runner.gone());
                // Inspector.targetCrashed is only sent with the Inspector domain on.
                page.execute(chromiumoxide::cdp::browser_protocol::inspector::EnableParams::default())
                    .await
                    .map_err(|e| RunnerError::protocol("listening for crashes", e))?;
                let router = ChildRouter::start(&page)
                    .await
                    .map_err(|e| RunnerError::protocol("listening to frame sessions", e))?;
                Ok((page, watch, frame_targets, router))
            })
            .await?;
        let children: Arc<Mutex<Vec<ChildFrame>>> = Arc::default();
        tokio::spawn(inject::follow_frames(
            router,
            frame_targets,
            children.clone(),
            runner.page_side.clone(),
            Arc::downgrade(&watch),
        ));
        let mut session = Self {
            page,
            page_side: runner.page_side.clone(),
            config: runner.config.clone(),
            watch,
            children,
            last: None,
            routes: HashMap::new(),
            seen_navigations: 0,
        };
        match session.goto(url).await {
            Ok(()) => Ok(session),
            Err(error) => {
                let _ = session.page.close().await;
                Err(error)
            }
        }
    }

    /// Loads `url` in the tab and waits until the page side is ready there.
    pub async fn goto(&mut self, url: &str) -> Result<(), RunnerError> {
        let during = format!("loading {url}");
        self.check_alive(&during)?;
        let waited = self.config.navigation_timeout;
        let loaded = tokio::select! {
            loaded = tokio::time::timeout(waited, self.page.goto(url)) => loaded,
            () = self.watch.crashed_signal() => {
                return Err(RunnerError::protocol(during, self.watch.crash_reason()));
            }
        };
        match loaded {
            Err(_) => {
                return Err(RunnerError::Timeout {
                    waited_ms: waited.as_millis() as u64,
                    waiting_for: format!("{url} to load"),
                });
            }
            Ok(Err(e)) => {
                let message = e.to_string();
                return Err(match message.find("net::ERR_") {
                    Some(at) => RunnerError::Unreachable {
                        url: url.to_owned(),
                        error: message[at + "net::".len()..].trim().to_owned(),
                    },
                    None => RunnerError::protocol(during, message),
                });
            }
            Ok(Ok(_)) => {}
        }
        self.last = None;
        self.ensure_page_side().await
    }

    /// The underlying chromiumoxide page, for what this API does not cover.
    pub fn page(&self) -> &Page {
        &self.page
    }

    /// The observation the last [`Session::observe`] returned.
    pub fn last_observation(&self) -> Option<&Observation> {
        self.last.as_ref()
    }

    /// The top frame's current URL.
    pub async fn url(&self) -> Result<String, RunnerError> {
        let value = self.evaluate("location.href").await?;
        Ok(value.as_str().unwrap_or_default().to_owned())
    }

    /// Evaluates `expression` in the page's own main world (its scripts and globals), awaiting a
    /// promise, and returns its JSON value.
    pub async fn evaluate(&self, expression: &str) -> Result<Value, RunnerError> {
        let during = format!("evaluating {}", short(expression));
        let result = self.guarded(&during, self.page.evaluate_expression(expression)).await?;
        Ok(result.value().cloned().unwrap_or(Value::Null))
    }

    /// Evaluates `expression` in the page side's isolated world of the top frame.
    pub async fn evaluate_isolated(&self, expression: &str) -> Result<Value, RunnerError> {
        self.main()
            .evaluate(&self.watch.main_frame(), expression)
            .await
            .map_err(|e| self.eval_error(format!("evaluating {}", short(expression)), e))
    }

    /// The page as the agent sees it: every frame, shadow root and cross-origin frame walked.
    pub async fn observe(&mut self, options: &ObserveOptions) -> Result<Observation, RunnerError> {
        self.check_alive("observing")?;
        self.check_reached().await?;
        let json = serde_json::to_string(options).map_err(|e| RunnerError::protocol("encoding options", e))?;
        let value = self
            .call(
                &self.main(),
                &self.watch.main_frame(),
                "observe",
                &[Value::String(json.clone())],
            )
            .await?;
        let mut observation = parse_observation(value, "observe")?;
        let children = self.children.lock().clone();
        let mut routes = HashMap::new();
        for child in children {
            let frame = FrameId::new(child.target.inner().clone());
            let Ok(placement) = self
                .guarded("placing a cross-origin frame", frames::placement(&self.page, &frame))
                .await
            else {
                continue;
            };
            let Ok(value) = self
                .call(&child.channel, &frame, "observe", &[Value::String(json.clone())])
                .await
            else {
                continue;
            };
            let Ok(inner) = parse_observation(value, "observe in a cross-origin frame") else {
                continue;
            };
            frames::merge(&mut observation, inner, &child, &placement, &mut routes);
        }
        self.routes = routes;
        self.last = Some(observation.clone());
        self.seen_navigations = self.watch.navigations();
        Ok(observation)
    }

    /// [`Session::observe`] rendered as the text tree the model reads.
    pub async fn observe_text(&mut self, options: &ObserveOptions) -> Result<String, RunnerError> {
        Ok(self.observe(options).await?.to_text())
    }

    /// Waits until no request is in flight and the page side sees no DOM churn, at most `max`.
    /// Returns whether the page settled.
    pub async fn wait_settled(&self, max: Duration) -> Result<bool, RunnerError> {
        let deadline = Instant::now() + max;
        loop {
            self.check_alive("waiting for the page to settle")?;
            let left = deadline.saturating_duration_since(Instant::now());
            if self.watch.network_quiet(150) {
                let slice = left.min(Duration::from_millis(1_000)).as_millis() as u64;
                let quiet = self
                    .call(&self.main(), &self.watch.main_frame(), "settle", &[Value::from(slice)])
                    .await;
                match quiet {
                    Ok(Value::Bool(true)) if self.watch.network_quiet(0) => return Ok(true),
                    Ok(_) => {}
                    // The document changed under us: settle again in the new one.
                    Err(RunnerError::Injection { .. }) | Err(RunnerError::Protocol { .. }) => {}
                    Err(e) => return Err(e),
                }
            } else {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            if Instant::now() >= deadline {
                return Ok(false);
            }
        }
    }

    /// Saves a PNG of the viewport; with `with_marks`, the set-of-marks overlay is drawn for the
    /// capture and removed afterwards.
    pub async fn screenshot(&self, path: &Path, with_marks: bool) -> Result<(), RunnerError> {
        let bytes = self.capture(with_marks, None).await?;
        std::fs::write(path, bytes).map_err(|e| RunnerError::Io {
            path: path.to_owned(),
            message: e.to_string(),
        })
    }

    /// A PNG of the viewport as it is shown, scaled down (never up) to fit `fit` (width, height)
    /// when given; with `with_marks`, the set-of-marks overlay of the last observation is drawn
    /// for the capture and removed afterwards.
    pub async fn capture(&self, with_marks: bool, fit: Option<(u32, u32)>) -> Result<Vec<u8>, RunnerError> {
        self.check_alive("taking a screenshot")?;
        let mut params = ScreenshotParams::builder().format(CaptureScreenshotFormat::Png);
        if let Some((width, height)) = fit {
            let metrics = self.guarded("measuring the viewport", self.page.layout_metrics()).await?;
            let view = metrics.css_visual_viewport;
            let scale = (f64::from(width) / view.client_width)
                .min(f64::from(height) / view.client_height)
                .min(1.0);
            params = params.clip(Viewport {
                x: view.page_x,
                y: view.page_y,
                width: view.client_width,
                height: view.client_height,
                scale,
            });
        }
        if with_marks {
            self.call(&self.main(), &self.watch.main_frame(), "mark", &[Value::Bool(true)])
                .await?;
        }
        let shot = self.guarded("taking a screenshot", self.page.screenshot(params.build())).await;
        if with_marks {
            self.call(&self.main(), &self.watch.main_frame(), "mark", &[Value::Bool(false)])
                .await?;
        }
        shot
    }

    /// Closes the tab.
    pub async fn close(self) -> Result<(), RunnerError> {
        self.check_alive("closing the tab")?;
        self.guarded("closing the tab", self.page.clone().close()).await
    }

    pub(crate) fn main(&self) -> Channel {
        Channel::Page(self.page.clone())
    }

    pub(crate) fn check_alive(&self, during: &str) -> Result<(), RunnerError> {
        if self.watch.crashed() {
            Err(RunnerError::protocol(during, self.watch.crash_reason()))
        } else {
            Ok(())
        }
    }

    /// The outcome of an action on a tab that can no longer be used.
    pub(crate) fn crashed_outcome(&self) -> ActionOutcome {
        ActionOutcome::Failed {
            message: self.watch.crash_reason().to_owned(),
        }
    }

    /// Refuses the browser's error page, which stands in for a page whose server did not answer: it
    /// is no page of the site, and acting on it would blame the site for its outage.
    pub(crate) async fn check_reached(&self) -> Result<(), RunnerError> {
        let Some(url) = self.watch.unreachable() else {
            return Ok(());
        };
        let code = self
            .evaluate("document.querySelector('.error-code')?.textContent ?? ''")
            .await
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .filter(|c| !c.is_empty())
            .unwrap_or_else(|| "the browser shows its error page".into());
        Err(RunnerError::Unreachable { url, error: code })
    }

    /// Makes sure the top frame's page side is loaded (it is, unless the document was there before
    /// the script was registered) and initialised.
    pub(crate) async fn ensure_page_side(&self) -> Result<(), RunnerError> {
        let during = "loading the page side into the tab";
        let (channel, frame) = (self.main(), self.watch.main_frame());
        let loaded = inject::ensure_loaded(&channel, &frame, &self.page_side);
        match self.guarded(during, async { Ok::<_, String>(loaded.await) }).await? {
            Ok(()) => Ok(()),
            Err(failure) => Err(self.eval_error(during, failure)),
        }
    }

    /// Awaits a command to the tab, failing at once when the tab crashes or the browser goes, and
    /// after the configured request timeout at the latest: chromiumoxide times its commands out
    /// only while its connection lives, and a command sent as the browser died could wait forever.
    pub(crate) async fn guarded<T, E: std::fmt::Display>(
        &self,
        during: &str,
        command: impl Future<Output = Result<T, E>>,
    ) -> Result<T, RunnerError> {
        self.check_alive(during)?;
        tokio::select! {
            done = tokio::time::timeout(self.config.request_timeout, command) => match done {
                Ok(result) => result.map_err(|e| RunnerError::protocol(during, e)),
                Err(_) => Err(RunnerError::Timeout {
                    waited_ms: self.config.request_timeout.as_millis() as u64,
                    waiting_for: format!("Chromium's answer while {during}"),
                }),
            },
            () = self.watch.crashed_signal() => Err(RunnerError::protocol(during, self.watch.crash_reason())),
        }
    }

    /// Calls `method(args…)` of the page side in `frame`, injecting it first when it is missing.
    pub(crate) async fn call(
        &self,
        channel: &Channel,
        frame: &FrameId,
        method: &str,
        args: &[Value],
    ) -> Result<Value, RunnerError> {
        let during = format!("calling {method} on the page side");
        self.check_alive(&during)?;
        let called = async {
            let result = inject::call_page_side(channel, frame, method, args).await;
            let result = match result {
                Err(EvalFailure::Exception(message)) if message.contains(MISSING) => {
                    inject::ensure_loaded(channel, frame, &self.page_side)
                        .await
                        .map_err(|e| self.eval_error(&during, e))?;
                    inject::call_page_side(channel, frame, method, args).await
                }
                other => other,
            };
            result.map_err(|e| self.eval_error(&during, e))
        };
        tokio::select! {
            result = called => result,
            () = self.watch.crashed_signal() => Err(RunnerError::protocol(&during, self.watch.crash_reason())),
        }
    }

    pub(crate) fn eval_error(&self, during: impl Into<String>, failure: EvalFailure) -> RunnerError {
        let during = during.into();
        if self.watch.crashed() {
            return RunnerError::protocol(during, self.watch.crash_reason());
        }
        match failure {
            EvalFailure::Exception(message) => RunnerError::PageSide { call: during, message },
            EvalFailure::ContextGone(message) => RunnerError::Injection {
                frame: "the top frame".into(),
                message: format!("{during}: {message}"),
            },
            EvalFailure::Protocol(message) => RunnerError::Protocol { during, message },
        }
    }
}

fn short(expression: &str) -> String {
    let mut cut: String = expression.chars().take(60).collect();
    if cut.len() < expression.len() {
        cut.push('…');
    }
    cut
}

fn parse_observation(value: Value, call: &str) -> Result<Observation, RunnerError> {
    let Value::String(text) = value else {
        return Err(RunnerError::PageSide {
            call: call.into(),
            message: format!("expected a JSON string, got {value}"),
        });
    };
    serde_json::from_str(&text).map_err(|e| RunnerError::PageSide {
        call: call.into(),
        message: format!("not an observation: {e}"),
    })
}
