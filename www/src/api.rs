//! The platform API from the page that `aca server` serves: same origin, JSON; the admin token (for
//! re-runs and marking defects as known) is kept in the tab's session storage only.

use js_sys::Promise;
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = fetch)]
    fn global_fetch(request: &web_sys::Request) -> Promise;
}

const TOKEN_KEY: &str = "aca-admin-token";

fn describe(value: &JsValue) -> String {
    value
        .as_string()
        .or_else(|| js_sys::JSON::stringify(value).ok().and_then(|s| s.as_string()))
        .unwrap_or_else(|| "an error the browser did not describe".into())
}

async fn send(method: &str, path: &str, body: Option<&str>) -> Result<String, String> {
    let init = web_sys::RequestInit::new();
    init.set_method(method);
    let headers = web_sys::Headers::new().map_err(|e| describe(&e))?;
    if let Some(token) = token() {
        headers
            .set("Authorization", &format!("Bearer {token}"))
            .map_err(|e| describe(&e))?;
    }
    if let Some(body) = body {
        headers
            .set("Content-Type", "application/json")
            .map_err(|e| describe(&e))?;
        init.set_body(&JsValue::from_str(body));
    }
    init.set_headers(&headers);
    let request = web_sys::Request::new_with_str_and_init(path, &init).map_err(|e| describe(&e))?;
    let response = JsFuture::from(global_fetch(&request))
        .await
        .map_err(|e| format!("the server cannot be reached: {}", describe(&e)))?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "fetch gave no response".to_owned())?;
    let text = JsFuture::from(response.text().map_err(|e| describe(&e))?)
        .await
        .map_err(|e| describe(&e))?
        .as_string()
        .unwrap_or_default();
    if !response.ok() {
        let message = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| v["Message"].as_str().map(str::to_owned))
            .unwrap_or(text);
        return Err(format!("HTTP {}: {message}", response.status()));
    }
    Ok(text)
}

/// `GET path`, read as `T`.
pub async fn get<T: DeserializeOwned>(path: &str) -> Result<T, String> {
    let text = send("GET", path, None).await?;
    serde_json::from_str(&text).map_err(|e| format!("{path} answered something unexpected: {e}"))
}

/// `POST path` with a JSON body; the answer's text.
pub async fn post(path: &str, body: &serde_json::Value) -> Result<String, String> {
    send("POST", path, Some(&body.to_string())).await
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

pub fn token() -> Option<String> {
    storage()?.get_item(TOKEN_KEY).ok()?.filter(|t| !t.is_empty())
}

pub fn set_token(token: &str) {
    if let Some(storage) = storage() {
        let _ = storage.set_item(TOKEN_KEY, token);
    }
}
