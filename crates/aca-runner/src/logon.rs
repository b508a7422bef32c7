//! Logging on through a console's RAM user logon form (Logon Name, Password, Log On) by role and
//! name, as a person would, before observing a page that needs a session.

use std::time::Duration;

use aca_core::{ActRequest, ActionOutcome, GuiAction, Role};

use crate::error::RunnerError;
use crate::find;
use crate::options::ObserveOptions;
use crate::session::Session;

/// Opens `login_url` in `session`, fills in the form and submits it; succeeds once the browser has
/// left the logon page.
pub async fn log_on(session: &mut Session, login_url: &str, login: &str, password: &str) -> Result<(), RunnerError> {
    session.goto(login_url).await?;
    let observation = session.observe(&ObserveOptions::default()).await?;
    let field = |name: &str| {
        find::by_name(&observation, Role::Textbox, name)
            .map(|e| e.index)
            .ok_or_else(|| RunnerError::Step {
                step: format!("find the {name} field"),
                message: format!("no textbox \"{name}\" on {}", observation.url),
            })
    };
    let (login_field, password_field) = (field("Logon Name")?, field("Password")?);
    let submit = find::by_name(&observation, Role::Button, "Log On")
        .map(|e| e.index)
        .ok_or_else(|| RunnerError::Step {
            step: "find the Log On button".into(),
            message: format!("no button \"Log On\" on {}", observation.url),
        })?;
    for (index, text, what) in [
        (login_field, login, "type the logon name"),
        (password_field, password, "type the password"),
    ] {
        let outcome = session
            .act(request(GuiAction::Type {
                index,
                text: text.to_owned(),
                submit: false,
            }))
            .await;
        if !outcome.succeeded() {
            return Err(step_failed(what, &outcome));
        }
    }
    let outcome = session.act(request(GuiAction::Click { index: submit })).await;
    match outcome {
        ActionOutcome::Navigated { url } if !url.contains("/login") => Ok(()),
        ActionOutcome::Navigated { url } => Err(RunnerError::Step {
            step: "log on".into(),
            message: format!("still on the logon page ({url}): wrong logon name or password?"),
        }),
        other => Err(step_failed("click Log On", &other)),
    }
}

fn request(action: GuiAction) -> ActRequest {
    ActRequest {
        action,
        fingerprint: None,
        timeout_ms: Duration::from_secs(10).as_millis() as u32,
    }
}

fn step_failed(step: &str, outcome: &ActionOutcome) -> RunnerError {
    RunnerError::Step {
        step: step.to_owned(),
        message: serde_json::to_string(outcome).unwrap_or_else(|_| format!("{outcome:?}")),
    }
}
