//! The service worker: holds the run and relays between the side panel and the console tab; runs
//! **Verify this page** (`run`: the episode against the console tab, `signed_in`: which tab and
//! whose account, `model`: the LLM policy's endpoint).
//!
//! `sw.js` registers the browser's listeners synchronously when the worker starts (MV3 requires it)
//! and hands every message and tab update to the exports here once the wasm is instantiated. The
//! worker answers each [`Request`] with one [`Reply`]; a request that fails answers
//! [`Reply::Error`] with a message saying what went wrong.

mod model;
mod page;
mod run;
mod screenshot;
mod signed_in;
mod state;
mod step;

use wasm_bindgen::prelude::*;

use crate::chrome::{self, Storage, from_js, to_js};
use crate::messages::{Observed, Reply, Request, RunView, TabInfo};
use crate::origins;
use crate::server;
use crate::settings::Settings;

/// Called once when the worker starts, after the wasm is instantiated.
#[wasm_bindgen]
pub async fn sw_start() {
    if let Err(e) = chrome::open_panel_on_action_click().await {
        state::update(|run| run.problem = Some(e.to_string())).await;
    }
    sw_origins_changed().await;
    // A verification's episode lives in the worker's memory: one the browser stopped the worker
    // during is lost, and the panel says so rather than showing it as running.
    let run = state::current().await;
    if run.verification.as_ref().is_some_and(|v| v.is_running()) && !run::is_running() {
        state::update(|run| {
            if let Some(v) = run.verification.as_mut() {
                v.phase = crate::messages::Phase::Finished;
                v.note("the browser stopped the extension's service worker: the run was lost");
            }
            run.pending = None;
            run.problem =
                Some("the run was lost when the browser stopped the service worker: verify the page again".into());
        })
        .await;
    }
}

/// `chrome.permissions.onAdded` / `onRemoved`: the content script follows the origins the person
/// allowed after install (the manifest covers the ones granted at install).
#[wasm_bindgen]
pub async fn sw_origins_changed() {
    let registered = match chrome::granted_origins().await {
        Ok(granted) => {
            chrome::register_content_script(origins::GRANTED_SCRIPT_ID, &origins::granted_later(&granted)).await
        }
        Err(e) => Err(e),
    };
    if let Err(e) = registered {
        state::update(|run| run.problem = Some(format!("the content script cannot follow the allowed sites: {e}")))
            .await;
    }
}

/// Answers one message from an extension page or a content script (`chrome.runtime.onMessage`).
#[wasm_bindgen]
pub async fn sw_handle(message: JsValue, sender_tab: Option<i32>) -> JsValue {
    let reply = match from_js::<Request>(message) {
        Ok(request) => handle(request, sender_tab)
            .await
            .unwrap_or_else(|message| Reply::Error { message }),
        Err(e) => Reply::Error {
            message: format!("not a request the service worker understands: {e}"),
        },
    };
    to_js(&reply).unwrap_or(JsValue::NULL)
}

/// `chrome.tabs.onUpdated`: the console tab finished loading a page, so it is observed again.
#[wasm_bindgen]
pub async fn sw_tab_updated(tab_id: i32, status: Option<String>) {
    let run = state::current().await;
    if run.console_tab != Some(tab_id) {
        return;
    }
    if status.as_deref() == Some("loading") {
        run::navigation_started();
    }
    // A running verification observes the tab itself, when its episode asks.
    if status.as_deref() != Some("complete") || run::is_running() {
        return;
    }
    match page::observe(tab_id).await {
        Ok(observation) => {
            state::update(|run| {
                run.observed = Some(Observed::new(tab_id, observation));
                run.problem = None;
            })
            .await;
        }
        Err(e) => {
            state::update(|run| run.problem = Some(e)).await;
        }
    }
}

/// `chrome.tabs.onRemoved`: a closed console tab ends the link to it.
#[wasm_bindgen]
pub async fn sw_tab_removed(tab_id: i32) {
    if state::current().await.console_tab == Some(tab_id) {
        state::update(|run| {
            run.console_tab = None;
            run.observed = None;
            run.pending = None;
            run.problem = Some(format!("the console tab {tab_id} was closed"));
        })
        .await;
    }
}

/// One request; `sender_tab` is the tab of the content script that sent it, if one did.
async fn handle(request: Request, sender_tab: Option<i32>) -> Result<Reply, String> {
    Ok(match request {
        Request::Recording => Reply::Recording {
            recording: run::records_clicks_in(sender_tab),
        },
        Request::Clicked { control } => Reply::Recording {
            recording: run::person_clicked(sender_tab, control),
        },
        Request::Ping => Reply::Pong {
            version: env!("CARGO_PKG_VERSION").to_owned(),
        },
        Request::State => run_reply(state::current().await),
        Request::Tabs => Reply::Tabs {
            tabs: chrome::query_tabs::<Vec<TabInfo>>(&serde_json::json!({}))
                .await
                .map_err(|e| e.to_string())?,
        },
        Request::SetConsoleTab { tab_id } => {
            state::update(|run| {
                if run.console_tab != Some(tab_id) {
                    run.observed = None;
                    run.pending = None;
                }
                run.console_tab = Some(tab_id);
            })
            .await;
            Reply::Observed {
                observed: Box::new(observe_console().await?),
            }
        }
        Request::Observe => Reply::Observed {
            observed: Box::new(observe_console().await?),
        },
        Request::Capture { tab_id } => {
            let page = page::capture(tab_id).await?;
            state::update(|run| run.captured = Some(page.clone())).await;
            Reply::Captured { page: Box::new(page) }
        }
        Request::Verify { tab_id, step_mode } => {
            run_reply(run::start(tab_id, step_mode, load_settings().await?).await?)
        }
        Request::Stop => {
            run::stop()?;
            run_reply(state::current().await)
        }
        Request::HandBack => run_reply(run::hand_back().await?),
        Request::Propose { action, reason } => {
            if run::is_running() {
                return Err(
                    "a verification is running: its actions come from the agent (stop it to propose your own)".into(),
                );
            }
            run_reply(step::propose(action, reason).await?)
        }
        Request::Decide { decision } => run_reply(step::decide(decision).await?),
        Request::Mark { show } => {
            page::mark(console_tab().await?, show).await?;
            run_reply(state::current().await)
        }
        Request::Pick => {
            let index = page::pick(console_tab().await?).await?;
            let observed = state::current().await.observed;
            let target = index.and_then(|index| {
                let click = aca_core::Action::Gui(aca_core::GuiAction::Click { index });
                crate::messages::describe_target(&click, observed.as_ref().map(|o| &o.observation))
            });
            Reply::Picked { index, target }
        }
        Request::SaveSettings { settings } => {
            let settings = settings.normalized().map_err(|e| e.to_string())?;
            chrome::store(Storage::Local, Settings::STORAGE_KEY, &settings)
                .await
                .map_err(|e| e.to_string())?;
            Reply::Settings { settings }
        }
        Request::LoadSettings => Reply::Settings {
            settings: load_settings().await?,
        },
        Request::CheckServer => {
            let settings = load_settings().await?;
            let me = server::me(&settings).await.map_err(|e| e.to_string())?;
            let accounts: Vec<String> = me
                .accounts
                .iter()
                .map(|a| format!("{} ({})", a.account_id, a.login))
                .collect();
            let granted = chrome::granted_origins().await.unwrap_or_default();
            let consoles_to_allow = origins::to_ask_for(me.accounts.iter().map(|a| a.console_url.as_str()))
                .into_iter()
                .filter(|pattern| !granted.contains(pattern))
                .collect();
            Reply::Server {
                consoles_to_allow,
                summary: if accounts.is_empty() {
                    format!(
                        "connected to {} as {}: the server assigns you no account yet",
                        settings.server_url, me.user
                    )
                } else {
                    format!(
                        "connected to {} as {}: you verify in account {}",
                        settings.server_url,
                        me.user,
                        accounts.join(", ")
                    )
                },
            }
        }
    })
}

fn run_reply(run: RunView) -> Reply {
    Reply::State { run: Box::new(run) }
}

async fn load_settings() -> Result<Settings, String> {
    chrome::load::<Settings>(Storage::Local, Settings::STORAGE_KEY)
        .await
        .map(Option::unwrap_or_default)
        .map_err(|e| e.to_string())
}

/// The console tab, or a message saying how to choose one.
pub(crate) async fn console_tab() -> Result<i32, String> {
    state::current()
        .await
        .console_tab
        .ok_or_else(|| "no console tab yet: choose the tab that shows the console".to_owned())
}

/// Observes the console tab and keeps the observation as the run's last.
pub(crate) async fn observe_console() -> Result<Observed, String> {
    let tab_id = console_tab().await?;
    let observed = Observed::new(tab_id, page::observe(tab_id).await?);
    state::update(|run| {
        run.observed = Some(observed.clone());
        run.problem = None;
    })
    .await;
    Ok(observed)
}
