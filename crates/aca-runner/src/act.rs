//! [`Session::act`]: running one GUI action, by the page side or by trusted CDP input, and turning
//! what happened into the outcome the agent sees (a navigation, a crash, a page that never settles).

use std::time::{Duration, Instant};

use aca_core::{ActRequest, ActionOutcome, GuiAction, PlaceKind};
use chromiumoxide::cdp::browser_protocol::page::FrameId;
use serde_json::Value;

use crate::error::RunnerError;
use crate::frames::{self, Route};
use crate::input;
use crate::session::{Session, crashed_outcome};

/// How long to wait after a page-side call for the page to start navigating, when it does.
const NAVIGATION_GRACE: Duration = Duration::from_millis(120);

/// Marks a page-side failure whose document went away, until the runtime knows whether it navigated.
const NAVIGATED_MARK: &str = "\u{1}context gone: ";

impl Session {
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
