//! The service worker's side of the console and documentation tabs: calls of `aca-dom` through the
//! content script of a tab's top frame, and the capture of a documentation page.

use aca_core::action::{ActRequest, ActionOutcome};
use aca_core::observation::Observation;
use serde::Deserialize;

use crate::chrome;
use crate::messages::{CapturedPage, ContentCall, ContentOp, ContentReply};

/// How long a freshly loaded tab may take to register its content script.
const CONTENT_SCRIPT_WAIT_MS: i32 = 5_000;
const RETRY_MS: i32 = 100;

/// Calls one aca-dom export in the top frame of `tab_id`; the error says what failed, in words.
pub async fn call(tab_id: i32, op: ContentOp, arg: serde_json::Value) -> Result<serde_json::Value, String> {
    let message = ContentCall { aca_dom: op, arg };
    let mut waited = 0;
    loop {
        match chrome::send_to_tab::<_, Option<ContentReply>>(tab_id, &message).await {
            Ok(Some(reply)) if reply.ok => return Ok(reply.result),
            Ok(Some(reply)) => {
                return Err(format!(
                    "aca-dom {} failed in tab {tab_id}: {}",
                    op.name(),
                    reply.error.unwrap_or_else(|| "no reason given".into())
                ));
            }
            Ok(None) => {
                return Err(format!(
                    "the content script of tab {tab_id} gave no answer to {}",
                    op.name()
                ));
            }
            // The tab is still loading, or was open before the extension started: no content script yet.
            Err(e) if e.message.contains("Receiving end does not exist") && waited < CONTENT_SCRIPT_WAIT_MS => {
                chrome::sleep(RETRY_MS).await;
                waited += RETRY_MS;
            }
            Err(e) => {
                return Err(format!(
                    "cannot reach the content script of tab {tab_id} ({e}); reload that tab so the extension can see it"
                ));
            }
        }
    }
}

/// An aca-dom result that is a JSON string of `T`.
fn parse_json_string<T: for<'de> Deserialize<'de>>(value: serde_json::Value, what: &str) -> Result<T, String> {
    let text = value
        .as_str()
        .ok_or_else(|| format!("aca-dom returned {what} that is no JSON string: {value}"))?;
    serde_json::from_str(text).map_err(|e| format!("aca-dom returned an unreadable {what}: {e}"))
}

/// Observes the page in `tab_id`.
pub async fn observe(tab_id: i32) -> Result<Observation, String> {
    let result = call(tab_id, ContentOp::Observe, serde_json::Value::String("{}".into())).await?;
    parse_json_string(result, "observation")
}

/// Runs one GUI action in `tab_id` and returns its typed outcome.
///
/// A click that leaves the page unloads the content script before it can answer; the browser then
/// reports the closed message channel, and the outcome is the navigation to the tab's new URL.
pub async fn act(tab_id: i32, request: &ActRequest) -> Result<ActionOutcome, String> {
    let request = serde_json::to_string(request).map_err(|e| e.to_string())?;
    let message = ContentCall {
        aca_dom: ContentOp::Act,
        arg: serde_json::Value::String(request),
    };
    match chrome::send_to_tab::<_, Option<ContentReply>>(tab_id, &message).await {
        Ok(Some(reply)) if reply.ok => parse_json_string(reply.result, "action outcome"),
        Ok(Some(reply)) => Err(format!(
            "aca-dom could not run the action in tab {tab_id}: {}",
            reply.error.unwrap_or_else(|| "no reason given".into())
        )),
        Ok(None) => Err(format!(
            "the content script of tab {tab_id} gave no answer to the action"
        )),
        Err(e) if e.message.contains("message channel closed") || e.message.contains("message port closed") => {
            let url = chrome::tab_url(tab_id).await.map_err(|e| e.to_string())?;
            Ok(ActionOutcome::Navigated { url })
        }
        Err(e) => Err(format!("cannot reach the content script of tab {tab_id}: {e}")),
    }
}

/// Shows or hides the set-of-marks overlay in `tab_id`.
pub async fn mark(tab_id: i32, show: bool) -> Result<(), String> {
    call(tab_id, ContentOp::Mark, serde_json::Value::Bool(show))
        .await
        .map(|_| ())
}

/// Marks what `action` acts on in `tab_id`: its element alone, or every element for an action
/// without one; `mark(tab, false)` removes it.
pub async fn outline(tab_id: i32, action: &aca_core::Action) -> Result<(), String> {
    match action {
        aca_core::Action::Gui(gui) => match gui.index() {
            Some(index) => call(tab_id, ContentOp::Outline, serde_json::Value::from(index))
                .await
                .map(|_| ()),
            None => mark(tab_id, true).await,
        },
        aca_core::Action::Control(_) => Ok(()),
    }
}

/// Starts (or stops) telling the person's own clicks in every frame of `tab_id`: a take-over.
pub async fn record_clicks(tab_id: i32, on: bool) -> Result<(), String> {
    call(tab_id, ContentOp::Record, serde_json::Value::Bool(on))
        .await
        .map(|_| ())
}

/// How long a pick waits for the person's click.
const PICK_MS: u32 = 60_000;

/// Waits for the person to click an element of the last observation in `tab_id`; its index.
pub async fn pick(tab_id: i32) -> Result<Option<u32>, String> {
    let value = call(tab_id, ContentOp::Pick, serde_json::Value::from(PICK_MS)).await?;
    Ok(value.as_u64().and_then(|i| u32::try_from(i).ok()))
}

/// What `capture.js` returns from a documentation tab.
#[derive(Debug, Deserialize)]
struct PageSource {
    url: String,
    title: String,
    html: String,
}

/// Reads the documentation page in `tab_id` and parses it into a procedure.
pub async fn capture(tab_id: i32) -> Result<CapturedPage, String> {
    let source: PageSource = chrome::run_file_in_tab(tab_id, "capture.js", chrome::World::Isolated)
        .await
        .map_err(|e| format!("cannot read the page in tab {tab_id}: {e}"))?;
    let procedure = aca_docs::parse_html(&source.html).map_err(|e| e.to_string());
    Ok(CapturedPage {
        tab_id,
        url: source.url,
        title: source.title,
        html_chars: source.html.chars().count(),
        procedure,
    })
}
