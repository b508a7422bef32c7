//! The few `chrome.*` extension APIs the extension uses, bound for Rust: each returns a promise
//! (MV3), awaited here and converted to and from serde types.

use js_sys::Promise;
use serde::Serialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["chrome", "runtime"], js_name = sendMessage, catch)]
    fn runtime_send_message(message: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "runtime", "onMessage"], js_name = addListener)]
    pub fn on_runtime_message(listener: &Closure<dyn FnMut(JsValue, JsValue, JsValue) -> JsValue>);
    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = sendMessage, catch)]
    fn tabs_send_message(tab_id: i32, message: &JsValue, options: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = query, catch)]
    fn tabs_query(query: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = get, catch)]
    fn tabs_get(tab_id: i32) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = captureVisibleTab, catch)]
    fn tabs_capture_visible_tab(window_id: i32, options: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = create, catch)]
    fn tabs_create(properties: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "tabs"], js_name = update, catch)]
    fn tabs_update(tab_id: i32, properties: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "runtime"], js_name = getPlatformInfo, catch)]
    fn runtime_get_platform_info() -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_namespace = crypto, js_name = randomUUID)]
    fn crypto_random_uuid() -> String;
    #[wasm_bindgen(js_namespace = ["chrome", "scripting"], js_name = executeScript, catch)]
    fn scripting_execute_script(injection: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "storage", "local"], js_name = get, catch)]
    fn storage_local_get(key: &str) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "storage", "local"], js_name = set, catch)]
    fn storage_local_set(items: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "storage", "session"], js_name = get, catch)]
    fn storage_session_get(key: &str) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "storage", "session"], js_name = set, catch)]
    fn storage_session_set(items: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "sidePanel"], js_name = setPanelBehavior, catch)]
    fn side_panel_set_behavior(behavior: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "permissions"], js_name = request, catch)]
    fn permissions_request(permissions: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "permissions"], js_name = getAll, catch)]
    fn permissions_get_all() -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "scripting"], js_name = registerContentScripts, catch)]
    fn scripting_register_content_scripts(scripts: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["chrome", "scripting"], js_name = unregisterContentScripts, catch)]
    fn scripting_unregister_content_scripts(filter: &JsValue) -> Result<Promise, JsValue>;
}

/// A failed extension API call, with the browser's message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{api}: {message}")]
pub struct ChromeError {
    pub api: &'static str,
    pub message: String,
}

impl ChromeError {
    fn new(api: &'static str, value: &JsValue) -> Self {
        Self {
            api,
            message: describe(value),
        }
    }
}

/// The message of a thrown JS value (an `Error`'s message, a string, or its JSON form).
pub fn describe(value: &JsValue) -> String {
    if let Some(error) = value.dyn_ref::<js_sys::Error>() {
        return String::from(error.message());
    }
    if let Some(text) = value.as_string() {
        return text;
    }
    js_sys::JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| "unknown error".to_owned())
}

/// A serde value as a plain JS object (maps become objects, not `Map`s).
pub fn to_js<T: Serialize>(value: &T) -> Result<JsValue, String> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| e.to_string())
}

pub fn from_js<T: DeserializeOwned>(value: JsValue) -> Result<T, String> {
    serde_wasm_bindgen::from_value(value).map_err(|e| e.to_string())
}

async fn settle(api: &'static str, call: Result<Promise, JsValue>) -> Result<JsValue, ChromeError> {
    let promise = call.map_err(|e| ChromeError::new(api, &e))?;
    JsFuture::from(promise).await.map_err(|e| ChromeError::new(api, &e))
}

fn encode<T: Serialize>(api: &'static str, value: &T) -> Result<JsValue, ChromeError> {
    to_js(value).map_err(|message| ChromeError { api, message })
}

fn decode<T: DeserializeOwned>(api: &'static str, value: JsValue) -> Result<T, ChromeError> {
    from_js(value).map_err(|message| ChromeError {
        api,
        message: format!("unexpected answer: {message}"),
    })
}

/// `chrome.runtime.sendMessage`: a message to the service worker (or every extension page).
pub async fn send_to_runtime<M: Serialize, R: DeserializeOwned>(message: &M) -> Result<R, ChromeError> {
    const API: &str = "chrome.runtime.sendMessage";
    let message = encode(API, message)?;
    decode(API, settle(API, runtime_send_message(&message)).await?)
}

/// `chrome.runtime.sendMessage` whose answer does not matter (a broadcast nobody may listen to).
pub async fn broadcast<M: Serialize>(message: &M) {
    if let Ok(message) = encode("chrome.runtime.sendMessage", message) {
        let _ = settle("chrome.runtime.sendMessage", runtime_send_message(&message)).await;
    }
}

/// `chrome.tabs.sendMessage` to the top frame of `tab_id`.
pub async fn send_to_tab<M: Serialize, R: DeserializeOwned>(tab_id: i32, message: &M) -> Result<R, ChromeError> {
    const API: &str = "chrome.tabs.sendMessage";
    let message = encode(API, message)?;
    let options = encode(API, &serde_json::json!({ "frameId": 0 }))?;
    decode(API, settle(API, tabs_send_message(tab_id, &message, &options)).await?)
}

/// `chrome.tabs.query`.
pub async fn query_tabs<R: DeserializeOwned>(query: &serde_json::Value) -> Result<R, ChromeError> {
    const API: &str = "chrome.tabs.query";
    let query = encode(API, query)?;
    decode(API, settle(API, tabs_query(&query)).await?)
}

/// The URL a tab shows or is loading (`chrome.tabs.get`).
pub async fn tab_url(tab_id: i32) -> Result<String, ChromeError> {
    const API: &str = "chrome.tabs.get";
    #[derive(serde::Deserialize)]
    struct Tab {
        #[serde(default)]
        url: String,
        #[serde(default, rename = "pendingUrl")]
        pending_url: Option<String>,
    }
    let tab: Tab = decode(API, settle(API, tabs_get(tab_id)).await?)?;
    Ok(tab.pending_url.unwrap_or(tab.url))
}

/// Where a tab is shown: its window, and whether it is that window's active tab.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
pub struct TabPlace {
    #[serde(rename = "windowId")]
    pub window_id: i32,
    pub active: bool,
}

/// `chrome.tabs.get`: the tab's window and whether it is shown there.
pub async fn tab_place(tab_id: i32) -> Result<TabPlace, ChromeError> {
    const API: &str = "chrome.tabs.get";
    decode(API, settle(API, tabs_get(tab_id)).await?)
}

/// `chrome.tabs.captureVisibleTab`: a PNG `data:` URL of what `window_id` shows of its active tab.
pub async fn capture_visible_tab(window_id: i32) -> Result<String, ChromeError> {
    const API: &str = "chrome.tabs.captureVisibleTab";
    let options = encode(API, &serde_json::json!({ "format": "png" }))?;
    decode(API, settle(API, tabs_capture_visible_tab(window_id, &options)).await?)
}

/// A tab's loading status (`loading` or `complete`) and the URL it shows or is loading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TabStatus {
    pub complete: bool,
    pub url: String,
}

/// `chrome.tabs.get`: whether the tab has finished loading, and its URL.
pub async fn tab_status(tab_id: i32) -> Result<TabStatus, ChromeError> {
    const API: &str = "chrome.tabs.get";
    #[derive(serde::Deserialize)]
    struct Tab {
        #[serde(default)]
        url: String,
        #[serde(default, rename = "pendingUrl")]
        pending_url: Option<String>,
        #[serde(default)]
        status: Option<String>,
    }
    let tab: Tab = decode(API, settle(API, tabs_get(tab_id)).await?)?;
    Ok(TabStatus {
        complete: tab.status.as_deref() == Some("complete") && tab.pending_url.is_none(),
        url: tab.pending_url.unwrap_or(tab.url),
    })
}

/// `chrome.tabs.update` to load `url` in `tab_id`.
pub async fn navigate_tab(tab_id: i32, url: &str) -> Result<(), ChromeError> {
    const API: &str = "chrome.tabs.update";
    let properties = encode(API, &serde_json::json!({ "url": url }))?;
    settle(API, tabs_update(tab_id, &properties)).await.map(|_| ())
}

/// Calls a cheap extension API: the browser keeps a service worker that calls its APIs running,
/// so a run waiting for a person's decision is not stopped as idle.
pub async fn keep_alive() {
    let _ = settle("chrome.runtime.getPlatformInfo", runtime_get_platform_info()).await;
}

/// Milliseconds since the Unix epoch, by the browser's clock.
pub fn now_ms() -> i64 {
    js_sys::Date::now() as i64
}

/// The current time in RFC 3339 (`2026-11-30T14:01:05.123Z`).
pub fn now_rfc3339() -> String {
    String::from(js_sys::Date::new_0().to_iso_string())
}

/// A random UUID (`crypto.randomUUID`), unique per signed request.
pub fn random_uuid() -> String {
    crypto_random_uuid()
}

/// `chrome.tabs.create`; returns the new tab's id.
pub async fn create_tab(url: &str, active: bool) -> Result<i32, ChromeError> {
    const API: &str = "chrome.tabs.create";
    #[derive(serde::Deserialize)]
    struct Created {
        id: i32,
    }
    let properties = encode(API, &serde_json::json!({ "url": url, "active": active }))?;
    let created: Created = decode(API, settle(API, tabs_create(&properties)).await?)?;
    Ok(created.id)
}

/// Where an injected script runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum World {
    /// The extension's isolated world: the page's DOM, none of its scripts' globals.
    Isolated,
    /// The page's own world, where its globals live (never given the extension's data).
    Main,
}

/// `chrome.scripting.executeScript` of an extension file in the top frame of `tab_id`; returns the
/// value of the script's last expression.
pub async fn run_file_in_tab<R: DeserializeOwned>(tab_id: i32, file: &str, world: World) -> Result<R, ChromeError> {
    const API: &str = "chrome.scripting.executeScript";
    #[derive(serde::Deserialize)]
    struct InjectionResult<R> {
        result: R,
    }
    let injection = encode(
        API,
        &serde_json::json!({
            "target": { "tabId": tab_id },
            "files": [file],
            "world": if world == World::Main { "MAIN" } else { "ISOLATED" },
        }),
    )?;
    let results: Vec<InjectionResult<R>> = decode(API, settle(API, scripting_execute_script(&injection)).await?)?;
    results.into_iter().next().map(|r| r.result).ok_or_else(|| ChromeError {
        api: API,
        message: format!("{file} returned nothing in tab {tab_id}"),
    })
}

/// Where a value is stored.
#[derive(Debug, Clone, Copy)]
pub enum Storage {
    /// `chrome.storage.local`: kept across browser restarts.
    Local,
    /// `chrome.storage.session`: kept while the browser runs, across service-worker restarts.
    Session,
}

/// Reads `key`; `None` when nothing is stored under it.
pub async fn load<T: DeserializeOwned>(storage: Storage, key: &str) -> Result<Option<T>, ChromeError> {
    let (api, call) = match storage {
        Storage::Local => ("chrome.storage.local.get", storage_local_get(key)),
        Storage::Session => ("chrome.storage.session.get", storage_session_get(key)),
    };
    let items = settle(api, call).await?;
    let value = js_sys::Reflect::get(&items, &JsValue::from_str(key)).map_err(|e| ChromeError::new(api, &e))?;
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    decode(api, value).map(Some)
}

pub async fn store<T: Serialize>(storage: Storage, key: &str, value: &T) -> Result<(), ChromeError> {
    let api = match storage {
        Storage::Local => "chrome.storage.local.set",
        Storage::Session => "chrome.storage.session.set",
    };
    let items = js_sys::Object::new();
    js_sys::Reflect::set(&items, &JsValue::from_str(key), &encode(api, value)?)
        .map_err(|e| ChromeError::new(api, &e))?;
    let call = match storage {
        Storage::Local => storage_local_set(&items),
        Storage::Session => storage_session_set(&items),
    };
    settle(api, call).await.map(|_| ())
}

/// Makes a click on the toolbar button open the side panel.
pub async fn open_panel_on_action_click() -> Result<(), ChromeError> {
    const API: &str = "chrome.sidePanel.setPanelBehavior";
    let behavior = encode(API, &serde_json::json!({ "openPanelOnActionClick": true }))?;
    settle(API, side_panel_set_behavior(&behavior)).await.map(|_| ())
}

#[wasm_bindgen]
extern "C" {
    /// The global `setTimeout`, present in pages and in the service worker alike.
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(callback: &js_sys::Function, ms: i32) -> JsValue;
}

/// Waits `ms` milliseconds.
pub async fn sleep(ms: i32) {
    let promise = Promise::new(&mut |resolve, _reject| {
        set_timeout(&resolve, ms);
    });
    let _ = JsFuture::from(promise).await;
}

/// `chrome.permissions.request` for host `patterns`: whether the person allowed them. The browser
/// asks only during a user gesture, so the request is made when this is called (in a click
/// handler), before anything is awaited.
pub fn request_origins(patterns: &[String]) -> impl std::future::Future<Output = Result<bool, ChromeError>> + use<> {
    const API: &str = "chrome.permissions.request";
    let call = encode(API, &serde_json::json!({ "origins": patterns })).map(|p| permissions_request(&p));
    async move {
        let answer = settle(API, call?).await?;
        Ok(answer.as_bool().unwrap_or(false))
    }
}

/// The host patterns the extension holds now (`chrome.permissions.getAll`).
pub async fn granted_origins() -> Result<Vec<String>, ChromeError> {
    const API: &str = "chrome.permissions.getAll";
    #[derive(serde::Deserialize)]
    struct All {
        #[serde(default)]
        origins: Vec<String>,
    }
    let all: All = decode(API, settle(API, permissions_get_all()).await?)?;
    Ok(all.origins)
}

/// Injects the content script (aca-dom and its loader, in every frame) into pages of `matches` from
/// now on, under `id`, replacing what was registered under it; nowhere when `matches` is empty.
pub async fn register_content_script(id: &str, matches: &[String]) -> Result<(), ChromeError> {
    const API: &str = "chrome.scripting.registerContentScripts";
    // Nothing registered under the id is the usual case: that refusal is no failure.
    let filter = encode(API, &serde_json::json!({ "ids": [id] }))?;
    let _ = settle(API, scripting_unregister_content_scripts(&filter)).await;
    if matches.is_empty() {
        return Ok(());
    }
    let scripts = encode(
        API,
        &serde_json::json!([{
            "id": id,
            "matches": matches,
            "js": ["aca-dom/aca_dom.js", "content.js"],
            "runAt": "document_idle",
            "allFrames": true,
            "matchOriginAsFallback": true,
        }]),
    )?;
    settle(API, scripting_register_content_scripts(&scripts)).await.map(|_| ())
}
