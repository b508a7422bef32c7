//! The platform API from the page that `aca server` serves: same origin, JSON. The page never keeps a
//! token: a user signs in once (`POST /v1/session`) and the server answers with a session cookie
//! the page's scripts cannot read; every request says it comes from the dashboard, which the server
//! asks of requests its cookie signs.

use js_sys::Promise;
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = fetch)]
    fn global_fetch(request: &web_sys::Request) -> Promise;
}

fn describe(value: &JsValue) -> String {
    value
        .as_string()
        .or_else(|| js_sys::JSON::stringify(value).ok().and_then(|s| s.as_string()))
        .unwrap_or_else(|| "an error the browser did not describe".into())
}

async fn send(method: &str, path: &str, body: Option<&str>) -> Result<String, String> {
    let init = web_sys::RequestInit::new();
    init.set_method(method);
    init.set_credentials(web_sys::RequestCredentials::SameOrigin);
    let headers = web_sys::Headers::new().map_err(|e| describe(&e))?;
    headers
        .set("X-Requested-With", "aca-dashboard")
        .map_err(|e| describe(&e))?;
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

/// `DELETE path`; the answer's text.
pub async fn delete(path: &str) -> Result<String, String> {
    send("DELETE", path, None).await
}

#[derive(serde::Deserialize)]
struct SessionAnswer {
    user: String,
}

/// Who is signed in, if anyone.
pub async fn signed_in() -> Option<String> {
    get::<SessionAnswer>("/v1/session").await.ok().map(|s| s.user)
}

/// Shows a user's token to the server once; the user it signs in.
pub async fn sign_in(token: &str) -> Result<String, String> {
    let text = post("/v1/session", &serde_json::json!({ "token": token })).await?;
    serde_json::from_str::<SessionAnswer>(&text)
        .map(|s| s.user)
        .map_err(|e| format!("the sign-in answered something unexpected: {e}"))
}
