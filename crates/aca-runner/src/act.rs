//! [`Session::act`]: running one GUI action, by the page side or by trusted CDP input, and turning
//! what happened into the outcome the agent sees (a navigation, a crash, a page that never settles).

use std::time::{Duration, Instant};

use aca_core::{ActRequest, ActionOutcome, Aim, GuiAction, PlaceKind};
use chromiumoxide::cdp::browser_protocol::page::FrameId;
use serde_json::Value;

use crate::error::RunnerError;
use crate::frames::{self, Route};
use crate::input;
use crate::session::Session;

/// How long to wait after a page-side call for the page to start navigating, when it does.
const NAVIGATION_GRACE: Duration = Duration::from_millis(120);

/// How long after a click to look whether the page changed its URL without navigating.
const SAME_DOCUMENT_GRACE: Duration = Duration::from_millis(50);

/// Marks a page-side failure whose document went away, until the runtime knows whether it navigated.
const NAVIGATED_MARK: &str = "\u{1}context gone: ";

impl Session {
    /// Runs one GUI action and says what happened; never fails on bad input (a vanished element, a
    /// disabled button, a crashed tab, a page that never settles are outcomes).
    pub async fn act(&mut self, request: ActRequest) -> ActionOutcome {
        if self.watch.crashed() {
            return self.crashed_outcome();
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
                    () = self.watch.crashed_signal() => return self.crashed_outcome(),
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
        let route = request.action.index().and_then(|i| self.routes.get(&i));
        if route.is_none()
            && let Some(outcome) = self.pointer(request).await
        {
            return outcome;
        }
        if let Some(element) = &element
            && let Some(outcome) = self.trusted_typing(request, element).await
        {
            return outcome;
        }
        let (channel, frame, request) = match route {
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

    /// Clicks and hovers in the top frame's document (and the same-origin frames it walks) move and
    /// press the real pointer: the page side finds the element, waits until it can take the pointer
    /// and picks a point a hit test reaches; CDP then sends trusted input there, so handlers that
    /// check `isTrusted` and CSS `:hover` work. Returns `None` for other actions.
    async fn pointer(&self, request: &ActRequest) -> Option<ActionOutcome> {
        let hover = match request.action {
            GuiAction::Click { .. } => false,
            GuiAction::Hover { .. } => true,
            _ => return None,
        };
        let json = match serde_json::to_string(request) {
            Ok(json) => json,
            Err(e) => return Some(ActionOutcome::Failed { message: e.to_string() }),
        };
        let aim = match self
            .call(&self.main(), &self.watch.main_frame(), "aim", &[Value::String(json)])
            .await
        {
            Ok(Value::String(text)) => serde_json::from_str::<Aim>(&text).map_err(|e| ActionOutcome::Failed {
                message: format!("the page side answered aim with something unreadable: {e}"),
            }),
            Ok(other) => Err(ActionOutcome::Failed {
                message: format!("the page side answered aim with {other}"),
            }),
            Err(RunnerError::Injection { message, .. }) => Err(ActionOutcome::Failed {
                message: format!("{NAVIGATED_MARK}{message}"),
            }),
            Err(e) => Err(ActionOutcome::Failed { message: e.to_string() }),
        };
        let (point, reresolved) = match aim {
            Ok(Aim::At { x, y, reresolved }) => ((x, y), reresolved),
            Ok(Aim::Refused { because }) => return Some(because),
            Err(outcome) => return Some(outcome),
        };
        if hover {
            return Some(match input::move_to(&self.page, point).await {
                Ok(()) => ActionOutcome::Done { reresolved },
                Err(e) => ActionOutcome::Failed { message: e.to_string() },
            });
        }
        let before = self.url().await.unwrap_or_default();
        if let Err(e) = input::click_at(&self.page, point).await {
            return Some(ActionOutcome::Failed { message: e.to_string() });
        }
        // A history.pushState route change is no frame navigation; the URL shows it.
        tokio::time::sleep(SAME_DOCUMENT_GRACE).await;
        Some(match self.url().await {
            Ok(now) if without_fragment(&now) != without_fragment(&before) => ActionOutcome::Navigated { url: now },
            _ => ActionOutcome::Done { reresolved },
        })
    }

    /// Typing into a shadow root goes through CDP input: a web component's inner input may ignore
    /// synthetic key events. Returns `None` to leave the action to the page side (which also reports
    /// disabled or hidden elements).
    async fn trusted_typing(&self, request: &ActRequest, element: &aca_core::Element) -> Option<ActionOutcome> {
        let GuiAction::Type { text, submit, .. } = &request.action else {
            return None;
        };
        let rect = element.rect.filter(|r| r.width > 0.0 && r.height > 0.0)?;
        let in_shadow = element.places.iter().any(|p| p.kind == PlaceKind::Shadow);
        if !in_shadow || element.state.disabled || element.state.readonly || !element.state.in_viewport {
            return None;
        }
        let point = input::centre(&rect);
        let typed = async {
            input::click_at(&self.page, point).await?;
            input::replace_text(&self.page, text).await?;
            if *submit {
                input::press_enter(&self.page).await?;
            }
            Ok::<(), RunnerError>(())
        };
        Some(match typed.await {
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
            return self.crashed_outcome();
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
            return self.crashed_outcome();
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

fn without_fragment(url: &str) -> &str {
    url.split('#').next().unwrap_or(url)
}
