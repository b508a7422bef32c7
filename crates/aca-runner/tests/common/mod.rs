//! Shared by the runner's tests: launching with the built page side, serving fixture pages on two
//! origins (so that one page's frame is cross-origin), and acting by role and name.

#![allow(dead_code)]

use std::time::Duration;

use aca_core::{ActRequest, ActionOutcome, Element, GuiAction, Observation, Role};
use aca_runner::{ObserveOptions, Runner, RunnerConfig, Session, find};
use axum::Router;

pub async fn runner() -> Runner {
    Runner::launch(RunnerConfig::default())
        .await
        .unwrap_or_else(|e| panic!("{e} (the tests need Chromium and the built page side)"))
}

/// Serves `app` on 127.0.0.1; returns its base URL.
pub async fn serve(app: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    url
}

pub async fn observe(session: &mut Session) -> Observation {
    session.observe(&ObserveOptions::default()).await.unwrap()
}

/// The element with this role and name, or a failure that prints what the page shows.
pub fn element<'a>(observation: &'a Observation, role: Role, name: &str) -> &'a Element {
    find::by_name(observation, role, name)
        .unwrap_or_else(|| panic!("no {} {name:?} in:\n{}", role.as_str(), observation.to_text()))
}

pub fn request(action: GuiAction) -> ActRequest {
    ActRequest {
        action,
        fingerprint: None,
        timeout_ms: 5_000,
    }
}

pub async fn click(session: &mut Session, role: Role, name: &str) -> ActionOutcome {
    let observation = observe(session).await;
    let target = element(&observation, role, name);
    let mut request = request(GuiAction::Click { index: target.index });
    request.fingerprint = Some(target.fingerprint.clone());
    session.act(request).await
}

pub async fn type_into(session: &mut Session, name: &str, text: &str) -> ActionOutcome {
    let observation = observe(session).await;
    let index = element(&observation, Role::Textbox, name).index;
    session
        .act(request(GuiAction::Type {
            index,
            text: text.to_owned(),
            submit: false,
        }))
        .await
}

/// Polls the page's main world until `js` is true, for at most 10 s.
pub async fn wait_true(session: &Session, js: &str) {
    for _ in 0..100 {
        if session.evaluate(js).await.ok() == Some(serde_json::Value::Bool(true)) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("timed out waiting for {js}");
}
