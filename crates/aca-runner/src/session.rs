//! [`Session`]: one tab with the page side injected into every frame; what the agent's driver calls
//! to observe the page, act on it, wait for it and take screenshots.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use aca_core::{ActRequest, ActionOutcome, GuiAction, Observation, PlaceKind};
use chromiumoxide::Page;
use chromiumoxide::cdp::browser_protocol::page::{
    AddScriptToEvaluateOnNewDocumentParams, CaptureScreenshotFormat, FrameId, SetBypassCspParams,
};
use chromiumoxide::cdp::browser_protocol::target::TargetId;
use chromiumoxide::page::ScreenshotParams;
use parking_lot::Mutex;
use serde_json::Value;
use tokio::sync::mpsc;

use crate::child::{ChildRouter, ChildSession};
use crate::config::RunnerConfig;
use crate::error::RunnerError;
use crate::frames::{self, Route};
use crate::input;
use crate::options::ObserveOptions;
use crate::page_side::{PageSide, WORLD_NAME};
use crate::runner::Runner;
use crate::watch::{FrameTarget, Watch};
use crate::world::{Channel, EvalFailure};

/// A cross-origin frame with the page side injected.
#[derive(Clone)]
pub(crate) struct ChildFrame {
    pub(crate) target: TargetId,
    pub(crate) url: String,
    pub(crate) channel: Channel,
}

/// One tab of a [`Runner`].
pub struct Session {
    page: Page,
    page_side: PageSide,
    config: RunnerConfig,
    watch: Arc<Watch>,
    children: Arc<Mutex<Vec<ChildFrame>>>,
    last: Option<Observation>,
    routes: HashMap<u32, Route>,
    /// The navigation count when the last observation or action ended.
    seen_navigations: u64,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("main_frame", &self.watch.main_frame())
            .finish_non_exhaustive()
    }
}

/// How long to wait after a page-side call for the page to start navigating, when it does.
const NAVIGATION_GRACE: Duration = Duration::from_millis(120);

impl Session {
    /// Opens a new tab on `runner`, prepares the page side for every document it will load, and
    /// loads `url`.
    pub async fn open(runner: &Runner, url: &str) -> Result<Self, RunnerError> {
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
        prepare(&Channel::Page(page.clone()), &runner.page_side, "the tab").await?;
        let (watch, frame_targets) = Watch::start(&page, main_frame)
            .await
            .map_err(|e| RunnerError::protocol("listening to the tab's events", e))?;
        let crashes = runner
            .browser()?
            .event_listener::<chromiumoxide::cdp::browser_protocol::target::EventTargetCrashed>()
            .await
            .map_err(|e| RunnerError::protocol("listening for crashes", e))?;
        watch.follow_browser_crashes(crashes, page.target_id().clone());
        // Inspector.targetCrashed is only sent with the Inspector domain on.
        page.execute(chromiumoxide::cdp::browser_protocol::inspector::EnableParams::default())
            .await
            .map_err(|e| RunnerError::protocol("listening for crashes", e))?;
        let router = ChildRouter::start(&page)
            .await
            .map_err(|e| RunnerError::protocol("listening to frame sessions", e))?;
        let children: Arc<Mutex<Vec<ChildFrame>>> = Arc::default();
        tokio::spawn(follow_frames(
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
        session.goto(url).await?;
        Ok(session)
    }

    /// Loads `url` in the tab and waits until the page side is ready there.
    pub async fn goto(&mut self, url: &str) -> Result<(), RunnerError> {
        let waited = self.config.navigation_timeout;
        match tokio::time::timeout(waited, self.page.goto(url)).await {
            Err(_) => {
                return Err(RunnerError::Timeout {
                    waited_ms: waited.as_millis() as u64,
                    waiting_for: format!("{url} to load"),
                });
            }
            Ok(Err(e)) => return Err(RunnerError::protocol(format!("loading {url}"), e)),
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
        let result = self
            .page
            .evaluate_expression(expression)
            .await
            .map_err(|e| RunnerError::protocol(format!("evaluating {}", short(expression)), e))?;
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
            let Ok(placement) = frames::placement(&self.page, &frame).await else {
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

    /// Runs one GUI action and says what happened; never fails on bad input (a vanished element, a
    /// disabled button, a crashed tab, a page that never settles are outcomes).
    pub async fn act(&mut self, request: ActRequest) -> ActionOutcome {
        if self.watch.crashed() {
            return crashed_outcome();
        }
        let started = Instant::now();
        // A wait also reports a navigation that happened since the agent last looked (a console that
        // returns to the list a moment after its success message).
        let navigations = match request.action {
            GuiAction::Wait { .. } => self.seen_navigations,
            _ => self.watch.navigations(),
        };
        let timeout = Duration::from_millis(u64::from(request.timeout_ms));
        let outcome = match &request.action {
            GuiAction::Goto { url } => match self.goto(url).await {
                Ok(()) => return ActionOutcome::Done { reresolved: false },
                Err(RunnerError::Timeout { waited_ms, waiting_for }) => {
                    return ActionOutcome::Timeout {
                        waited_ms: waited_ms as u32,
                        waiting_for,
                    };
                }
                Err(e) => return ActionOutcome::Failed { message: e.to_string() },
            },
            _ => {
                let attempt = tokio::time::timeout(timeout + Duration::from_secs(2), self.dispatch(&request));
                tokio::select! {
                    attempt = attempt => match attempt {
                        Ok(outcome) => outcome,
                        Err(_) => ActionOutcome::Timeout {
                            waited_ms: started.elapsed().as_millis() as u32,
                            waiting_for: format!("the page side to finish {}", request.action.call_syntax()),
                        },
                    },
                    () = self.watch.crashed_signal() => return crashed_outcome(),
                }
            }
        };
        let outcome = self.after_action(outcome, navigations, started, timeout).await;
        self.seen_navigations = self.watch.navigations();
        outcome
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
        self.check_alive("taking a screenshot")?;
        if with_marks {
            self.call(&self.main(), &self.watch.main_frame(), "mark", &[Value::Bool(true)])
                .await?;
        }
        let shot = self
            .page
            .screenshot(ScreenshotParams::builder().format(CaptureScreenshotFormat::Png).build())
            .await;
        if with_marks {
            self.call(&self.main(), &self.watch.main_frame(), "mark", &[Value::Bool(false)])
                .await?;
        }
        let bytes = shot.map_err(|e| RunnerError::protocol("taking a screenshot", e))?;
        std::fs::write(path, bytes).map_err(|e| RunnerError::Io {
            path: path.to_owned(),
            message: e.to_string(),
        })
    }

    /// Closes the tab.
    pub async fn close(self) -> Result<(), RunnerError> {
        self.page
            .close()
            .await
            .map_err(|e| RunnerError::protocol("closing the tab", e))
    }

    fn main(&self) -> Channel {
        Channel::Page(self.page.clone())
    }

    fn check_alive(&self, during: &str) -> Result<(), RunnerError> {
        if self.watch.crashed() {
            Err(RunnerError::protocol(during, CRASHED))
        } else {
            Ok(())
        }
    }

    /// Makes sure the top frame's page side is loaded (it is, unless the document was there before
    /// the script was registered) and initialised.
    async fn ensure_page_side(&self) -> Result<(), RunnerError> {
        ensure_loaded(&self.main(), &self.watch.main_frame(), &self.page_side)
            .await
            .map_err(|e| self.eval_error("loading the page side into the tab", e))
    }

    /// Calls `method(args…)` of the page side in `frame`, injecting it first when it is missing.
    async fn call(
        &self,
        channel: &Channel,
        frame: &FrameId,
        method: &str,
        args: &[Value],
    ) -> Result<Value, RunnerError> {
        let during = format!("calling {method} on the page side");
        let result = call_page_side(channel, frame, method, args).await;
        let result = match result {
            Err(EvalFailure::Exception(message)) if message.contains(MISSING) => {
                ensure_loaded(channel, frame, &self.page_side)
                    .await
                    .map_err(|e| self.eval_error(&during, e))?;
                call_page_side(channel, frame, method, args).await
            }
            other => other,
        };
        result.map_err(|e| self.eval_error(&during, e))
    }

    fn eval_error(&self, during: impl Into<String>, failure: EvalFailure) -> RunnerError {
        let during = during.into();
        if self.watch.crashed() {
            return RunnerError::protocol(during, CRASHED);
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

    /// Sends the action to the page side of the frame that holds its element, or performs it with
    /// trusted input where synthetic events would not do.
    async fn dispatch(&self, request: &ActRequest) -> ActionOutcome {
        let element = request
            .action
            .index()
            .and_then(|i| self.last.as_ref()?.element(i).cloned());
        if let Some(element) = &element
            && let Some(outcome) = self.trusted(request, element).await
        {
            return outcome;
        }
        let (channel, frame, request) = match request.action.index().and_then(|i| self.routes.get(&i)) {
            Some(Route::Child { target, index }) => {
                let child = self.children.lock().iter().find(|c| c.target == *target).cloned();
                let Some(child) = child else {
                    return ActionOutcome::ElementNotFound {
                        index: request.action.index().unwrap_or_default(),
                    };
                };
                let mut local = request.clone();
                frames::set_index(&mut local.action, *index);
                (child.channel, FrameId::new(target.inner().clone()), local)
            }
            None => (self.main(), self.watch.main_frame(), request.clone()),
        };
        let json = match serde_json::to_string(&request) {
            Ok(json) => json,
            Err(e) => return ActionOutcome::Failed { message: e.to_string() },
        };
        match self.call(&channel, &frame, "act", &[Value::String(json)]).await {
            Ok(Value::String(text)) => serde_json::from_str(&text).unwrap_or_else(|e| ActionOutcome::Failed {
                message: format!("the page side answered act with something unreadable: {e}"),
            }),
            Ok(other) => ActionOutcome::Failed {
                message: format!("the page side answered act with {other}"),
            },
            Err(RunnerError::Injection { message, .. }) => ActionOutcome::Failed {
                message: format!("{NAVIGATED_MARK}{message}"),
            },
            Err(e) => ActionOutcome::Failed { message: e.to_string() },
        }
    }

    /// Hover always, and typing into a shadow root, go through CDP input: only trusted pointer events
    /// set CSS `:hover`, and a web component's inner input may ignore synthetic key events. Returns
    /// `None` to leave the action to the page side (which also reports disabled or hidden elements).
    async fn trusted(&self, request: &ActRequest, element: &aca_core::Element) -> Option<ActionOutcome> {
        let rect = element.rect.filter(|r| r.width > 0.0 && r.height > 0.0)?;
        if element.state.disabled || !element.state.in_viewport {
            return None;
        }
        let in_shadow = element.places.iter().any(|p| p.kind == PlaceKind::Shadow);
        let point = input::centre(&rect);
        let result = match &request.action {
            GuiAction::Hover { .. } => input::move_to(&self.page, point).await,
            GuiAction::Type { text, submit, .. } if in_shadow => {
                if element.state.readonly {
                    return None;
                }
                let typed = async {
                    input::click_at(&self.page, point).await?;
                    input::replace_text(&self.page, text).await?;
                    if *submit {
                        input::press_enter(&self.page).await?;
                    }
                    Ok(())
                };
                typed.await
            }
            _ => return None,
        };
        Some(match result {
            Ok(()) => ActionOutcome::Done { reresolved: false },
            Err(e) => ActionOutcome::Failed { message: e.to_string() },
        })
    }

    /// Turns the raw outcome into the one the agent sees: a navigation the action caused is reported
    /// as `Navigated` once the new page has loaded and has its page side; a page that does not settle
    /// in time is a `Timeout`; a crashed tab is `Failed`.
    async fn after_action(
        &mut self,
        outcome: ActionOutcome,
        navigations: u64,
        started: Instant,
        timeout: Duration,
    ) -> ActionOutcome {
        if self.watch.crashed() {
            return crashed_outcome();
        }
        let context_gone = matches!(&outcome, ActionOutcome::Failed { message } if message.starts_with(NAVIGATED_MARK));
        if !context_gone && !outcome.succeeded() && !matches!(outcome, ActionOutcome::Timeout { .. }) {
            return outcome;
        }
        tokio::time::sleep(NAVIGATION_GRACE).await;
        let left = timeout
            .saturating_sub(started.elapsed())
            .max(Duration::from_millis(500));
        let settled = self.wait_settled(left).await;
        if self.watch.crashed() {
            return crashed_outcome();
        }
        if self.watch.navigations() != navigations {
            self.last = None;
            if let Err(e) = self.ensure_page_side().await {
                return ActionOutcome::Failed {
                    message: format!("the page navigated but {e}"),
                };
            }
            return match self.url().await {
                Ok(url) => ActionOutcome::Navigated { url },
                Err(e) => ActionOutcome::Failed { message: e.to_string() },
            };
        }
        if let ActionOutcome::Failed { message } = &outcome
            && let Some(message) = message.strip_prefix(NAVIGATED_MARK)
        {
            return ActionOutcome::Failed {
                message: message.to_owned(),
            };
        }
        match settled {
            Ok(true) => outcome,
            Ok(false) if outcome.succeeded() => ActionOutcome::Timeout {
                waited_ms: started.elapsed().as_millis() as u32,
                waiting_for: format!(
                    "the page to settle ({} requests in flight or the page still changing)",
                    self.watch.requests_in_flight()
                ),
            },
            Ok(false) => outcome,
            Err(e) => ActionOutcome::Failed { message: e.to_string() },
        }
    }
}

/// Marks a page-side failure whose document went away, until the runtime knows whether it navigated.
const NAVIGATED_MARK: &str = "\u{1}context gone: ";
const CRASHED: &str = "the tab crashed (its renderer process is gone); open the page again";
/// Thrown by the call wrapper when the world has no page side yet.
const MISSING: &str = "aca-dom page side missing";

fn crashed_outcome() -> ActionOutcome {
    ActionOutcome::Failed {
        message: CRASHED.to_owned(),
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

/// Registers the page side for every new document of the target behind `channel` (its world, CSP
/// bypassed so that the inlined module compiles whatever the page's policy).
async fn prepare(channel: &Channel, page_side: &PageSide, what: &str) -> Result<(), RunnerError> {
    let failed = |e: EvalFailure| RunnerError::Injection {
        frame: what.to_owned(),
        message: e.to_string(),
    };
    channel.execute(SetBypassCspParams::new(true)).await.map_err(failed)?;
    let mut script = AddScriptToEvaluateOnNewDocumentParams::new(page_side.script());
    script.world_name = Some(WORLD_NAME.to_owned());
    script.run_immediately = Some(true);
    channel.execute(script).await.map_err(failed)?;
    Ok(())
}

/// Loads the page side into `frame`'s world when it is not there, then waits for it to initialise.
async fn ensure_loaded(channel: &Channel, frame: &FrameId, page_side: &PageSide) -> Result<(), EvalFailure> {
    let present = channel.evaluate(frame, "!!globalThis.__acaDom").await?;
    if present != Value::Bool(true) {
        channel.evaluate(frame, page_side.script()).await?;
    }
    channel
        .evaluate(frame, "globalThis.__acaDom.then(() => true)")
        .await
        .map(|_| ())
}

async fn call_page_side(
    channel: &Channel,
    frame: &FrameId,
    method: &str,
    args: &[Value],
) -> Result<Value, EvalFailure> {
    let args: Vec<String> = args.iter().map(Value::to_string).collect();
    let expression = format!(
        "(async () => {{ const side = globalThis.__acaDom; \
         if (!side) throw new Error('{MISSING}'); \
         const exports = await side; return await exports.{method}({}); }})()",
        args.join(", ")
    );
    channel.evaluate(frame, &expression).await
}

/// Attaches to each cross-origin frame as it appears and injects the page side into it.
async fn follow_frames(
    router: ChildRouter,
    mut targets: mpsc::UnboundedReceiver<FrameTarget>,
    children: Arc<Mutex<Vec<ChildFrame>>>,
    page_side: PageSide,
    watch: std::sync::Weak<Watch>,
) {
    while let Some(event) = targets.recv().await {
        match event {
            FrameTarget::Attached { target, url } => {
                let session: ChildSession = match router.attach(target.clone()).await {
                    Ok(session) => session,
                    Err(error) => {
                        tracing::warn!(%error, %url, "cannot attach to a cross-origin frame");
                        if let Some(watch) = watch.upgrade() {
                            watch.frame_done();
                        }
                        continue;
                    }
                };
                let channel = Channel::Child(session);
                let frame = FrameId::new(target.inner().clone());
                let injected = async {
                    prepare(&channel, &page_side, &url).await?;
                    ensure_loaded(&channel, &frame, &page_side)
                        .await
                        .map_err(|e| RunnerError::Injection {
                            frame: url.clone(),
                            message: e.to_string(),
                        })
                };
                if let Err(error) = injected.await {
                    tracing::warn!(%error, "cannot inject the page side into a cross-origin frame");
                }
                {
                    let mut children = children.lock();
                    children.retain(|c| c.target != target);
                    children.push(ChildFrame { target, url, channel });
                }
                if let Some(watch) = watch.upgrade() {
                    watch.frame_done();
                }
            }
            FrameTarget::Detached { target } => children.lock().retain(|c| c.target != target),
        }
    }
}
