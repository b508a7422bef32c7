//! One HTTP exchange through the browser's `fetch`, from the service worker: the audit log's
//! `LookupEvents` and the chat endpoint of the LLM policy. The extension's host permissions let the
//! service worker call any origin.

use js_sys::Promise;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::chrome::describe;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = fetch)]
    fn global_fetch(request: &web_sys::Request) -> Promise;
}

/// An answer: its HTTP status and body text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub status: u16,
    pub text: String,
}

/// Sends `method url` with `headers` and an optional body; `Err` when no answer came (unreachable,
/// refused by the browser), with the browser's words.
pub async fn fetch(method: &str, url: &str, headers: &[(&str, &str)], body: Option<&str>) -> Result<Answer, String> {
    let init = web_sys::RequestInit::new();
    init.set_method(method);
    let header_map = web_sys::Headers::new().map_err(|e| describe(&e))?;
    for (name, value) in headers {
        header_map.set(name, value).map_err(|e| describe(&e))?;
    }
    init.set_headers(&header_map);
    if let Some(body) = body {
        init.set_body(&JsValue::from_str(body));
    }
    let request = web_sys::Request::new_with_str_and_init(url, &init).map_err(|e| describe(&e))?;
    let response = JsFuture::from(global_fetch(&request))
        .await
        .map_err(|e| format!("cannot reach {}: {}", origin(url), describe(&e)))?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "fetch gave no response".to_owned())?;
    let text = JsFuture::from(response.text().map_err(|e| describe(&e))?)
        .await
        .map_err(|e| format!("reading the answer of {}: {}", origin(url), describe(&e)))?
        .as_string()
        .unwrap_or_default();
    Ok(Answer {
        status: response.status(),
        text,
    })
}

/// `scheme://host:port` of a URL, so that errors do not repeat signed queries or keys.
fn origin(url: &str) -> &str {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    match url[after_scheme..].find(['/', '?']) {
        Some(end) => &url[..after_scheme + end],
        None => url,
    }
}
