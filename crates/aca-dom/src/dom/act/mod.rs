//! Executing an [`ActRequest`]: each GUI action finds its element (again, when the index went
//! stale), waits until a person could act on it, produces the events a person's input would, and
//! answers with a typed [`ActionOutcome`], including the page navigating away.

mod keyboard;
mod pointer;
mod scroll;
mod select;
mod target;

use aca_core::{ActRequest, ActionOutcome, Aim, GuiAction};

use super::{js, settle};

fn current_url() -> String {
    js::top_document().ok().and_then(|d| d.url().ok()).unwrap_or_default()
}

fn without_fragment(url: &str) -> &str {
    url.split('#').next().unwrap_or(url)
}

/// Runs one request given as JSON; never fails: problems are outcomes.
pub async fn act(request_json: &str) -> ActionOutcome {
    let request: ActRequest = match serde_json::from_str(request_json) {
        Ok(request) => request,
        Err(e) => {
            return ActionOutcome::Failed {
                message: format!("the action request is not valid: {e}"),
            };
        }
    };
    settle::install();
    let started = settle::now();
    let before = current_url();
    let wanted = request.fingerprint.as_ref();
    let timeout = request.timeout_ms;
    let outcome = match &request.action {
        GuiAction::Click { index } => pointer::click(*index, wanted, timeout).await,
        GuiAction::Hover { index } => pointer::hover(*index, wanted, timeout).await,
        GuiAction::Type { index, text, submit } => keyboard::type_text(*index, text, *submit, wanted, timeout).await,
        GuiAction::Select { index, option } => select::select(*index, option, wanted, timeout).await,
        GuiAction::Press { key, index } => keyboard::press(key, *index, wanted, timeout).await,
        GuiAction::Scroll { direction, index } => scroll::scroll(*direction, *index, wanted, timeout).await,
        GuiAction::Goto { url } => goto(url),
        GuiAction::Wait { ms } => wait(ms.unwrap_or(timeout)).await,
    };
    let may_navigate = matches!(
        request.action,
        GuiAction::Click { .. } | GuiAction::Type { .. } | GuiAction::Select { .. } | GuiAction::Press { .. }
    );
    if may_navigate && matches!(outcome, ActionOutcome::Done { .. }) {
        // Give a navigation the action started a moment to show itself.
        settle::sleep(50).await;
        let now = current_url();
        if settle::unloading_since(started) || without_fragment(&now) != without_fragment(&before) {
            return ActionOutcome::Navigated { url: now };
        }
    }
    outcome
}

/// For a click or hover given as JSON: where a runtime's real pointer should go (see
/// [`Aim`]). Other actions are refused: they run through [`act`].
pub async fn aim(request_json: &str) -> Aim {
    let request: ActRequest = match serde_json::from_str(request_json) {
        Ok(request) => request,
        Err(e) => {
            return Aim::Refused {
                because: ActionOutcome::Failed {
                    message: format!("the action request is not valid: {e}"),
                },
            };
        }
    };
    let wanted = request.fingerprint.as_ref();
    match &request.action {
        GuiAction::Click { index } => pointer::aim_at(*index, wanted, false, request.timeout_ms).await,
        GuiAction::Hover { index } => pointer::aim_at(*index, wanted, true, request.timeout_ms).await,
        other => Aim::Refused {
            because: ActionOutcome::Failed {
                message: format!(
                    "only click and hover are aimed; {} runs through act",
                    other.call_syntax()
                ),
            },
        },
    }
}

fn goto(url: &str) -> ActionOutcome {
    let location = match js::top_window() {
        Ok(window) => window.location(),
        Err(message) => return ActionOutcome::Failed { message },
    };
    let base = location.href().unwrap_or_default();
    let resolved = match web_sys::Url::new_with_base(url, &base) {
        Ok(resolved) => resolved.href(),
        Err(_) => {
            return ActionOutcome::Failed {
                message: format!("not a URL: {url:?}"),
            };
        }
    };
    match location.assign(&resolved) {
        Ok(()) => ActionOutcome::Navigated { url: resolved },
        Err(e) => ActionOutcome::Failed {
            message: format!("the page refused to navigate to {resolved}: {e:?}"),
        },
    }
}

async fn wait(ms: u32) -> ActionOutcome {
    if settle::settle(ms).await {
        ActionOutcome::Done { reresolved: false }
    } else {
        ActionOutcome::Timeout {
            waited_ms: ms,
            waiting_for: "the page to settle (the DOM kept changing or requests were pending)".into(),
        }
    }
}
