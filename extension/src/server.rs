//! The companion `aca` server, called from the service worker with the saved URL and bearer token:
//! its account API lists accounts (the connection check) and leases one per verification, and its
//! provisioning API creates the resources a page needs in the leased account (as the provisioner's
//! own RAM user), answers the agent's requests for more, and destroys them all after the run.
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

/// An account's console logon, its id and its AccessKey, as the server's account API returns them.
/// The AccessKey reads the account's audit log (ActionTrail `LookupEvents`) after a run.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AccountCredentials {
    pub account_id: String,
    pub login: String,
    pub password: String,
    #[serde(default)]
    pub access_key_id: String,
    #[serde(default)]
    pub access_key_secret: String,
    /// The UI profile the bundled console shows the account (`2026`, `2024`).
    #[serde(default)]
    pub profile: Option<String>,
}

/// The account summaries of `GET /admin/accounts`; only their number matters here.
pub async fn list_accounts(settings: &Settings) -> Result<Vec<serde_json::Value>, ServerError> {
    call(settings, "GET", "/admin/accounts", None).await
}

/// The resources provisioned for one run (`POST /admin/accounts/{id}/provisions`).
#[derive(Debug, Clone, Deserialize)]
pub struct Provisioning {
    pub id: String,
    /// The RAM user the provisioner acts as: its calls never meet the success rule.
    pub user_name: String,
    /// What the agent is told exists; `None` when the page needs nothing.
    pub told: Option<aca_agent::ResourceReport>,
    /// `${vpc_id}`, … for the success rule.
    #[serde(default)]
    pub bindings: std::collections::BTreeMap<String, String>,
}

/// What a request during the run provisioned (`POST /admin/provisions/{id}/requests`).
#[derive(Debug, Clone, Deserialize)]
pub struct Provided {
    pub told: aca_agent::ResourceReport,
    #[serde(default)]
    pub bindings: std::collections::BTreeMap<String, String>,
}

/// What the teardown could not destroy (`DELETE /admin/provisions/{id}`).
#[derive(Debug, Clone, Deserialize)]
pub struct TornDown {
    #[serde(default)]
    pub left: Vec<String>,
}

/// Has the server write and create what the procedure needs in the leased account.
pub async fn start_provisioning(
    settings: &Settings,
    account_id: &str,
    procedure: &aca_core::Procedure,
    region: &str,
) -> Result<Provisioning, ServerError> {
    let body = serde_json::json!({
        "procedure": procedure,
        "region": region,
        "source": procedure.title,
    })
    .to_string();
    call(
        settings,
        "POST",
        &format!("/admin/accounts/{account_id}/provisions"),
        Some(&body),
    )
    .await
}

/// Asks the server for a resource the agent requested during the run.
pub async fn request_resource(
    settings: &Settings,
    provisioning: &str,
    description: &str,
) -> Result<Provided, ServerError> {
    let body = serde_json::json!({ "description": description }).to_string();
    call(
        settings,
        "POST",
        &format!("/admin/provisions/{provisioning}/requests"),
        Some(&body),
    )
    .await
}

/// Destroys everything provisioned for the run.
pub async fn finish_provisioning(settings: &Settings, provisioning: &str) -> Result<TornDown, ServerError> {
    call(settings, "DELETE", &format!("/admin/provisions/{provisioning}"), None).await
}

/// Creates a fresh account for one verification (`POST /admin/accounts`).
pub async fn lease_account(settings: &Settings, name: &str) -> Result<AccountCredentials, ServerError> {
    let body = serde_json::json!({ "name": name }).to_string();
    call(settings, "POST", "/admin/accounts", Some(&body)).await
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
