//! The side panel (leptos): **Verify this page**, the live observation of the console tab, and step
//! mode. It holds no run state of its own: it shows the service worker's [`RunView`], refreshed by
//! the worker's [`Event`]s.
//!
//! Opened as a tab (`sidepanel.html?tab=<id>`), it makes tab `<id>` the console tab.

mod console;
mod report;
mod step;
mod steps;
mod verify;

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::prelude::*;

use crate::chrome::{self, from_js};
use crate::messages::{Event, Reply, Request, RunView, TabInfo};
use crate::rpc::ask;

/// Mounts the side panel into `sidepanel.html`.
#[wasm_bindgen]
pub fn start_side_panel() {
    leptos::mount::mount_to_body(Panel);
}

#[component]
fn Panel() -> impl IntoView {
    let run = RwSignal::new(RunView::default());
    let tabs = RwSignal::new(Vec::<TabInfo>::new());
    let error = RwSignal::new(None::<String>);
    follow_run(run);
    spawn_local(async move {
        let requested_tab = console_tab_from_url();
        let first = match requested_tab {
            Some(tab_id) => ask(&Request::SetConsoleTab { tab_id }).await,
            None => ask(&Request::State).await,
        };
        if let Err(e) = first {
            error.set(Some(e));
        }
        // The run as it stands after the first request (whose own reply may be an observation).
        match ask(&Request::State).await {
            Ok(Reply::State { run: current }) => run.set(*current),
            Ok(_) => {}
            Err(e) => error.set(Some(e)),
        }
        refresh_tabs(tabs).await;
    });
    view! {
        <main>
            <h1>"AliyunConsoleAgent"</h1>
            <Show when=move || error.get().is_some()>
                <p class="error" id="panel-error">{move || error.get().unwrap_or_default()}</p>
            </Show>
            <verify::VerifySection run tabs />
            <step::StepSection run />
            <console::ConsoleSection run tabs />
        </main>
    }
}

/// Keeps `run` equal to the service worker's run as it broadcasts changes.
fn follow_run(run: RwSignal<RunView>) {
    let listener = Closure::<dyn FnMut(JsValue, JsValue, JsValue) -> JsValue>::new(
        move |message: JsValue, _sender: JsValue, _respond: JsValue| {
            if let Ok(Event::RunChanged { run: changed }) = from_js::<Event>(message) {
                run.set(*changed);
            }
            // Not answering lets the service worker answer requests other pages send.
            JsValue::UNDEFINED
        },
    );
    chrome::on_runtime_message(&listener);
    // The listener lives as long as the page.
    listener.forget();
}

/// Reloads the list of open tabs.
async fn refresh_tabs(tabs: RwSignal<Vec<TabInfo>>) {
    match ask(&Request::Tabs).await {
        Ok(Reply::Tabs { tabs: open }) => tabs.set(open),
        Ok(_) | Err(_) => tabs.set(Vec::new()),
    }
}

/// The `tab` query parameter of the panel's own URL.
fn console_tab_from_url() -> Option<i32> {
    let search = web_sys::window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    params.get("tab")?.parse().ok()
}

/// Tabs that show a web page (not the browser's or the extension's own pages).
fn web_tabs(tabs: &[TabInfo]) -> Vec<TabInfo> {
    tabs.iter()
        .filter(|t| t.url.starts_with("http://") || t.url.starts_with("https://"))
        .cloned()
        .collect()
}

/// `Tab title (url)`, shortened for a select.
fn tab_label(tab: &TabInfo) -> String {
    let title = if tab.title.is_empty() { &tab.url } else { &tab.title };
    let short: String = title.chars().take(60).collect();
    format!("{short} [{}]", tab.id)
}
