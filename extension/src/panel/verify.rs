//! **Verify this page**: captures the documentation tab, shows what was read from it (title, the
//! procedure's steps, or why it is no procedure), and the account leased for the run.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::{refresh_tabs, tab_label, web_tabs};
use crate::messages::{CapturedPage, Reply, Request, RunView, TabInfo};
use crate::rpc::ask;

#[component]
pub fn VerifySection(run: RwSignal<RunView>, tabs: RwSignal<Vec<TabInfo>>) -> impl IntoView {
    let chosen = RwSignal::new(None::<i32>);
    let busy = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    // The documentation tab: the one chosen, else the active web tab, else the first web tab.
    let default_tab = move |open: &[TabInfo]| {
        let open = web_tabs(open);
        open.iter().find(|t| t.active).or_else(|| open.first()).map(|t| t.id)
    };
    let doc_tab = move || chosen.get().or_else(|| default_tab(&tabs.get()));
    let verify = move |_| {
        busy.set(true);
        error.set(None);
        spawn_local(async move {
            // The person may have switched tabs since the list was read.
            refresh_tabs(tabs).await;
            let Some(tab_id) = chosen.get_untracked().or_else(|| default_tab(&tabs.get_untracked())) else {
                error.set(Some(
                    "no documentation tab: open the procedure page in a tab first".into(),
                ));
                busy.set(false);
                return;
            };
            match ask(&Request::Verify { tab_id }).await {
                Ok(Reply::State { run: current }) => run.set(*current),
                Ok(_) => {}
                Err(e) => error.set(Some(e)),
            }
            // The console tab Verify opened joins the lists.
            refresh_tabs(tabs).await;
            busy.set(false);
        });
    };
    view! {
        <section id="verify-section">
            <h2>"Documentation"</h2>
            <label>
                "Page: "
                <select
                    id="doc-tab"
                    on:change=move |ev| chosen.set(event_target_value(&ev).parse().ok())
                    on:focus=move |_| spawn_local(refresh_tabs(tabs))
                >
                    {move || {
                        let current = doc_tab();
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
            <button id="verify" on:click=verify disabled=move || busy.get()>
                "Verify this page"
            </button>
            <Show when=move || error.get().is_some()>
                <p class="error" id="verify-error">{move || error.get().unwrap_or_default()}</p>
            </Show>
            {move || run.get().captured.map(captured_view)}
            {move || {
                run.get()
                    .account
                    .map(|account| {
                        view! {
                            <p id="account">
                                "Console account " <code>{account.login}</code> " (password "
                                <code>{account.password}</code> ") at " <code>{account.console_url}</code>
                            </p>
                        }
                    })
            }}
        </section>
    }
}

fn captured_view(page: CapturedPage) -> impl IntoView {
    let summary = format!("{} characters of HTML from {}", page.html_chars, page.url);
    let procedure = match page.procedure {
        Ok(procedure) => {
            let steps: Vec<_> = procedure.steps.iter().flat_map(|s| s.flatten()).cloned().collect();
            let count = format!("{} step(s) in the procedure", steps.len());
            view! {
                <p id="step-count">{count}</p>
                <ul id="doc-steps" class="steps">
                    {steps
                        .into_iter()
                        .map(|step| view! { <li><b>{step.number}</b>" "{step.text}</li> })
                        .collect_view()}
                </ul>
            }
            .into_any()
        }
        Err(why) => {
            view! { <p class="error" id="doc-error">{format!("Not read as a procedure: {why}")}</p> }.into_any()
        }
    };
    view! {
        <div id="captured">
            <h3 id="captured-title">{page.title}</h3>
            <p class="muted">{summary}</p>
            {procedure}
        </div>
    }
}
