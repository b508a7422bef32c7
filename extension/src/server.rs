//! The companion `aca` server, called from the service worker with the saved URL and the user's own
//! token: who the user is and which accounts the server assigns them (`/v1/me`, the connection
//! check), and one run in such an account (`/v1/runs`): the server creates what the page needs (as
//! the provisioner's own RAM user), answers the agent's requests for more, decides the reward from
//! the account's audit log with credentials only it holds, and destroys everything after the run.
//!
//! Every failure is a [`ServerError`] that says which URL failed and what the server answered.

use js_sys::Promise;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::chrome::describe;
use crate::settings::{Settings, SettingsError};

#[wasm_bindgen]
extern "C" {
    /// The global `fetch`, present in pages and in the service worker alike.
    #[wasm_bindgen(js_name = fetch)]
    fn global_fetch(request: &web_sys::Request) -> Promise;
}

/// Why a call to the companion server failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ServerError {
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error("cannot reach the aca server at {url}: {message} (is `aca` running there?)")]
    Unreachable { url: String, message: String },
    #[error("the aca server refused {url}: HTTP {status} {code}: {message}")]
    Refused {
        url: String,
        status: u16,
        code: String,
        message: String,
    },
    #[error("the aca server answered {url} with something unexpected: {message}")]
    Unexpected { url: String, message: String },
}

/// The error body of the server's APIs (`{"Code": "...", "Message": "..."}`).
#[derive(Debug, Deserialize)]
struct ErrorBody {
    #[serde(rename = "Code", default)]
    code: String,
    #[serde(rename = "Message", default)]
    message: String,
}

/// An account the server assigns to this user: its id and the logon name its console shows, never
/// a key or a password.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
pub struct Assigned {
    pub account_id: String,
    pub login: String,
    /// The console's home page (`https://home.console.aliyun.com`, or the emulator's).
    pub console_url: String,
}

/// `GET /v1/me`: who the token belongs to and the accounts they may run in.
#[derive(Debug, Clone, Deserialize)]
pub struct Me {
    pub user: String,
    #[serde(default)]
    pub admin: bool,
    #[serde(default)]
    pub accounts: Vec<Assigned>,
}

pub async fn me(settings: &Settings) -> Result<Me, ServerError> {
    call(settings, "GET", "/v1/me", None).await
}

/// A run the server started (`POST /v1/runs`): what the page needs exists in the account, and the
/// run's audit window is open.
#[derive(Debug, Clone, Deserialize)]
pub struct StartedRun {
    pub id: String,
    pub account_id: String,
    pub login: String,
    pub console_url: String,
    pub region: String,
    /// The RAM user the provisioner acts as; its calls never meet the success rule.
    #[serde(default)]
    pub provisioner: Option<String>,
    /// What the agent is told exists; `None` when the page needs nothing.
    pub told: Option<aca_agent::ResourceReport>,
    /// `${vpc_id}`, … for the success rule.
    #[serde(default)]
    pub bindings: std::collections::BTreeMap<String, String>,
}

/// What a request during the run provisioned (`POST /v1/runs/{id}/requests`).
#[derive(Debug, Clone, Deserialize)]
pub struct Provided {
    pub told: aca_agent::ResourceReport,
    #[serde(default)]
    pub bindings: std::collections::BTreeMap<String, String>,
}

/// What the teardown could not destroy (`DELETE /v1/runs/{id}`).
#[derive(Debug, Clone, Deserialize)]
pub struct TornDown {
    #[serde(default)]
    pub left: Vec<String>,
}

/// Starts a run in `account_id` (one the server assigns to this user) for the procedure.
pub async fn start_run(
    settings: &Settings,
    account_id: &str,
    procedure: &aca_core::Procedure,
    region: &str,
) -> Result<StartedRun, ServerError> {
    let body = serde_json::json!({
        "account_id": account_id,
        "procedure": procedure,
        "region": region,
        "source": procedure.title,
    })
    .to_string();
    call(settings, "POST", "/v1/runs", Some(&body)).await
}

/// Asks the server for a resource the agent requested during the run.
pub async fn request_resource(settings: &Settings, run: &str, description: &str) -> Result<Provided, ServerError> {
    let body = serde_json::json!({ "description": description }).to_string();
    call(settings, "POST", &format!("/v1/runs/{run}/requests"), Some(&body)).await
}

/// The reward service's decision on the run: the server reads the account's audit log over the
/// run's own window, with the rule the run asks about.
pub async fn reward(
    settings: &Settings,
    run: &str,
    request: &aca_reward::service::RewardRequest,
) -> Result<aca_reward::service::RewardResponse, ServerError> {
    let body = serde_json::json!({
        "rule": request.rule,
        "procedure": request.procedure,
        "deadline_ms": request.deadline_ms,
        "judge_case": request.judge_case,
        "attribute": request.attribute,
    })
    .to_string();
    call(settings, "POST", &format!("/v1/runs/{run}/reward"), Some(&body)).await
}

/// Ends the run: everything provisioned for it is destroyed.
pub async fn finish_run(settings: &Settings, run: &str) -> Result<TornDown, ServerError> {
    call(settings, "DELETE", &format!("/v1/runs/{run}"), None).await
}

async fn call<T: DeserializeOwned>(
    settings: &Settings,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> Result<T, ServerError> {
    let settings = settings.normalized()?;
    let url = settings.endpoint(path);
    let unexpected = |message: String| ServerError::Unexpected {
        url: url.clone(),
        message,
    };
    let init = web_sys::RequestInit::new();
    init.set_method(method);
    let headers = web_sys::Headers::new().map_err(|e| unexpected(describe(&e)))?;
    headers
        .set("Authorization", &format!("Bearer {}", settings.token))
        .map_err(|e| unexpected(describe(&e)))?;
    if let Some(body) = body {
        headers
            .set("Content-Type", "application/json")
            .map_err(|e| unexpected(describe(&e)))?;
        init.set_body(&JsValue::from_str(body));
    }
    init.set_headers(&headers);
    let request = web_sys::Request::new_with_str_and_init(&url, &init).map_err(|e| unexpected(describe(&e)))?;
    let response = JsFuture::from(global_fetch(&request))
        .await
        .map_err(|e| ServerError::Unreachable {
            url: url.clone(),
            message: describe(&e),
        })?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| unexpected("not a response".into()))?;
    let text = match response.text() {
        Ok(promise) => JsFuture::from(promise)
            .await
            .map_err(|e| unexpected(describe(&e)))?
            .as_string()
            .unwrap_or_default(),
        Err(e) => return Err(unexpected(describe(&e))),
    };
    if !response.ok() {
        let (code, message) = match serde_json::from_str::<ErrorBody>(&text) {
            Ok(body) => (body.code, body.message),
            Err(_) => (response.status_text(), text.chars().take(200).collect()),
        };
        return Err(ServerError::Refused {
            url,
            status: response.status(),
            code,
            message,
        });
    }
    serde_json::from_str(&text)
        .map_err(|e| unexpected(format!("{e} in {}", text.chars().take(200).collect::<String>())))
}
