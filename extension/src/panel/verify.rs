//! **Verify this page**: captures the documentation tab, shows what was read from it (title, the
//! procedure's steps, or why it is no procedure) and the account leased for the run, then follows
//! the run (step N of M, the current Thought, what it did last, a Stop button, Hand back after a
//! take-over in step mode) and shows its report.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::{refresh_tabs, tab_label, web_tabs};
use crate::chrome;
use crate::messages::{CapturedPage, Phase, Reply, Request, RunView, TabInfo, Verification};
use crate::origins;
use crate::rpc::ask;

#[component]
pub fn VerifySection(run: RwSignal<RunView>, tabs: RwSignal<Vec<TabInfo>>) -> impl IntoView {
    let chosen = RwSignal::new(None::<i32>);
    let step_mode = RwSignal::new(false);
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
        // A documentation page outside the sites granted at install is asked for in the click
        // itself: the browser asks the person only during a gesture.
        let page_url = doc_tab()
            .and_then(|id| tabs.get_untracked().into_iter().find(|t| t.id == id))
            .map(|t| t.url)
            .unwrap_or_default();
        let patterns = origins::to_ask_for([page_url.as_str()]);
        let asked = (!patterns.is_empty()).then(|| chrome::request_origins(&patterns));
        spawn_local(async move {
            if let Some(asked) = asked
                && !matches!(asked.await, Ok(true))
            {
                error.set(Some(format!(
                    "the extension may not read {page_url} until you allow it: click Verify this page again and allow the access"
                )));
                busy.set(false);
                return;
            }
            // The person may have switched tabs since the list was read.
            refresh_tabs(tabs).await;
            let Some(tab_id) = chosen.get_untracked().or_else(|| default_tab(&tabs.get_untracked())) else {
                error.set(Some(
                    "no documentation tab: open the procedure page in a tab first".into(),
                ));
                busy.set(false);
                return;
            };
            let step_mode = step_mode.get_untracked();
            match ask(&Request::Verify { tab_id, step_mode }).await {
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
            <label>
                <input
                    type="checkbox"
                    id="step-mode"
                    prop:checked=move || step_mode.get()
                    on:change=move |ev| step_mode.set(event_target_checked(&ev))
                />
                " Step mode: approve each action the agent proposes"
            </label>
            <button id="verify" on:click=verify disabled=move || busy.get() || running(&run.get())>
                "Verify this page"
            </button>
            <Show when=move || error.get().is_some()>
                <p class="error" id="verify-error">{move || error.get().unwrap_or_default()}</p>
            </Show>
            {move || run.get().captured.map(captured_view)}
            <super::steps::Elapsed run />
            <super::steps::StepList run />
            {move || {
                run.get()
                    .account
                    .map(|account| {
                        view! {
                            <p id="account">
                                "Account " <code>{account.account_id}</code> " (" <code>{account.login}</code>
                                "), signed in at " <code>{account.console_url}</code>
                            </p>
                        }
                    })
            }}
            {move || run.get().verification.map(|v| verification_view(v, error))}
        </section>
    }
}

fn running(run: &RunView) -> bool {
    run.verification.as_ref().is_some_and(Verification::is_running)
}

/// Sends a control request of the running verification; its failure is shown with Verify's errors.
fn control(request: Request, error: RwSignal<Option<String>>) {
    spawn_local(async move {
        if let Err(e) = ask(&request).await {
            error.set(Some(e));
        }
    });
}

fn verification_view(verification: Verification, error: RwSignal<Option<String>>) -> impl IntoView {
    let phase = match verification.phase {
        Phase::Preparing => "Preparing: logging on and opening the console",
        Phase::Running => "Running",
        Phase::TakenOver => "Taken over: act on the console tab, then hand it back",
        Phase::Auditing => "Reading the audit log (ActionTrail)",
        Phase::Finished => "Finished",
    };
    let phase_name = serde_json::to_value(verification.phase)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    let rule = match (&verification.rule, &verification.no_rule) {
        (Some(rule), _) => {
            let origin = if verification.rule_explanation.is_some() {
                "inferred from the page"
            } else {
                "written for the page"
            };
            let matchers = rule
                .events
                .iter()
                .map(aca_run::report::describe_matcher)
                .collect::<Vec<_>>()
                .join("; ");
            view! {
                <p id="rule">
                    "Success rule (" <span id="rule-inferred">{origin}</span> "): " {matchers}
                </p>
            }
            .into_any()
        }
        (None, Some(why)) => view! { <p id="rule" class="error">{format!("No success rule: {why}")}</p> }.into_any(),
        (None, None) => ().into_any(),
    };
    let running = verification.is_running();
    let taken_over = verification.phase == Phase::TakenOver;
    let progress = verification.progress.clone();
    let thought = progress.thought.clone().map(|t| {
        view! {
            <p id="thought">
                <b>"Thought: "</b> {t.progress} " " <i>{t.observation}</i> " Next: " {t.next_goal}
            </p>
        }
    });
    let step_text = progress
        .step_text
        .clone()
        .map(|t| view! { <p id="progress-text" class="muted">{t}</p> });
    let action = progress
        .action
        .clone()
        .map(|a| view! { <p>"Last action: " <code id="progress-action">{a}</code></p> });
    let activity = verification
        .activity
        .iter()
        .map(|line| view! { <li>{line.clone()}</li> })
        .collect_view();
    view! {
        <div id="verification" data-phase=phase_name>
            <h3>"Verification"</h3>
            {rule}
            <p id="phase">{phase}</p>
            {running
                .then(|| {
                    view! {
                        <p id="progress-step">{progress.headline()}</p>
                        {step_text}
                        {thought}
                        {action}
                        <button id="stop" on:click=move |_| control(Request::Stop, error)>"Stop"</button>
                    }
                })}
            {taken_over
                .then(|| {
                    view! {
                        <button id="hand-back" on:click=move |_| control(Request::HandBack, error)>"Hand back"</button>
                    }
                })}
            <ol id="activity" class="muted">{activity}</ol>
            {verification.report.map(|report| super::report::report_view(*report, verification.shots))}
        </div>
    }
}

fn captured_view(page: CapturedPage) -> impl IntoView {
    let summary = format!("{} characters of HTML from {}", page.html_chars, page.url);
    let procedure = match page.procedure {
        Ok(procedure) => {
            let steps: Vec<_> = procedure.steps.iter().flat_map(|s| s.flatten()).cloned().collect();
            let count = format!("{} step(s) in the procedure", steps.len());
            view! { <p id="step-count">{count}</p> }.into_any()
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
