//! The console tab and its live observation: the text tree the agent reads, refreshed on demand
//! and whenever the service worker observes the tab after a page load.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::{refresh_tabs, tab_label, web_tabs};
use crate::messages::{Reply, Request, RunView, TabInfo};
use crate::rpc::ask;

#[component]
pub fn ConsoleSection(run: RwSignal<RunView>, tabs: RwSignal<Vec<TabInfo>>) -> impl IntoView {
    let busy = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let send = move |request: Request| {
        busy.set(true);
        error.set(None);
        spawn_local(async move {
            match ask(&request).await {
                Ok(Reply::Observed { observed }) => run.update(|r| {
                    r.console_tab = Some(observed.tab_id);
                    r.observed = Some(*observed);
                }),
                Ok(_) => {}
                Err(e) => error.set(Some(e)),
            }
            busy.set(false);
        });
    };
    let choose = move |ev| {
        if let Ok(tab_id) = event_target_value(&ev).parse() {
            send(Request::SetConsoleTab { tab_id });
        }
    };
    view! {
        <section id="console-section">
            <h2>"Console"</h2>
            <label>
                "Console tab: "
                <select id="console-tab" on:change=choose on:focus=move |_| spawn_local(refresh_tabs(tabs))>
                    <option value="" prop:selected=move || run.get().console_tab.is_none()>
                        "(choose a tab)"
                    </option>
                    {move || {
                        let current = run.get().console_tab;
                        web_tabs(&tabs.get())
                            .into_iter()
                            .map(|tab| {
                                let selected = Some(tab.id) == current;
                                view! {
                                    <option value=tab.id.to_string() prop:selected=selected>
                                        {tab_label(&tab)}
                                    </option>
                                }
                            })
                            .collect_view()
                    }}
                </select>
            </label>
            <button id="refresh" on:click=move |_| send(Request::Observe) disabled=move || busy.get()>
                "Refresh"
            </button>
            <Show when=move || error.get().is_some()>
                <p class="error" id="console-error">{move || error.get().unwrap_or_default()}</p>
            </Show>
            <Show when=move || run.get().problem.is_some()>
                <p class="error" id="run-problem">{move || run.get().problem.unwrap_or_default()}</p>
            </Show>
            <p class="muted" id="observation-summary">
                {move || match run.get().observed {
                    Some(o) => {
                        format!(
                            "{} element(s) on {} ({})",
                            o.observation.elements.len(),
                            o.observation.title,
                            o.observation.url,
                        )
                    }
                    None => "Not observed yet.".to_owned(),
                }}
            </p>
            <Show when=move || run.get().observed.is_some()>
                <pre id="observation">{move || run.get().observed.map(|o| o.text).unwrap_or_default()}</pre>
            </Show>
        </section>
    }
}
