//! Step mode: a proposed action is shown in words with its Thought and its target, highlighted on
//! the page, and waits for **Approve**, **Skip**, **Edit** (another element picked by clicking it on
//! the page, another text to type) or **Take over**; decided steps form the run's log.

use aca_core::action::{Action, GuiAction};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::messages::{Decided, Decision, Reply, Request, RunView, StepRecord};
use crate::rpc::ask;

#[component]
pub fn StepSection(run: RwSignal<RunView>) -> impl IntoView {
    let action_json = RwSignal::new(String::new());
    let reason = RwSignal::new(String::new());
    // Set while the pending proposal is being edited: submitting replaces it.
    let editing = RwSignal::new(false);
    let busy = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let send = move |request: Request| {
        busy.set(true);
        error.set(None);
        spawn_local(async move {
            match ask(&request).await {
                Ok(Reply::State { run: current }) => run.set(*current),
                Ok(_) => {}
                Err(e) => error.set(Some(e)),
            }
            busy.set(false);
        });
    };
    let submit = move |_| {
        let action = match serde_json::from_str::<Action>(&action_json.get()) {
            Ok(action) => action,
            Err(e) => {
                error.set(Some(format!(
                    "not an action: {e} (e.g. {{\"action\": \"click\", \"index\": 12}})"
                )));
                return;
            }
        };
        let reason = reason.get();
        if editing.get() {
            editing.set(false);
            send(Request::Decide {
                decision: Decision::Edit { action, reason },
            });
        } else {
            send(Request::Propose { action, reason });
        }
    };
    let edit = move |_| {
        if let Some(pending) = run.get().pending {
            action_json.set(serde_json::to_string(&pending.action).unwrap_or_default());
            reason.set(pending.reason);
            editing.set(true);
        }
    };
    let decide = move |decision: Decision| send(Request::Decide { decision });
    // The edited action, changed in place: another element picked on the page, another text.
    let edited_gui = move || match serde_json::from_str::<Action>(&action_json.get()) {
        Ok(Action::Gui(gui)) => Some(gui),
        _ => None,
    };
    let set_gui = move |gui: GuiAction| action_json.set(serde_json::to_string(&Action::Gui(gui)).unwrap_or_default());
    let picked = RwSignal::new(None::<String>);
    let pick = move |_| {
        busy.set(true);
        error.set(None);
        picked.set(Some("Click the element on the console tab (Escape cancels)…".into()));
        spawn_local(async move {
            match ask(&Request::Pick).await {
                Ok(Reply::Picked {
                    index: Some(index),
                    target,
                }) => {
                    if let Some(gui) = edited_gui() {
                        set_gui(gui.retargeted(index));
                    }
                    picked.set(Some(format!("Picked {}", target.unwrap_or_else(|| format!("[{index}]")))));
                }
                Ok(Reply::Picked { index: None, .. }) => {
                    picked.set(Some("Nothing picked: the click was on no element the agent sees".into()))
                }
                Ok(_) => {}
                Err(e) => error.set(Some(e)),
            }
            busy.set(false);
        });
    };
    view! {
        <section id="step-section">
            <h2>"Step mode"</h2>
            <textarea
                id="action-json"
                rows="2"
                placeholder=r#"{"action": "click", "index": 12}"#
                prop:value=move || action_json.get()
                on:input=move |ev| action_json.set(event_target_value(&ev))
            ></textarea>
            <input
                id="reason"
                placeholder="Why this action (the Thought)"
                prop:value=move || reason.get()
                on:input=move |ev| reason.set(event_target_value(&ev))
            />
            <button id="propose" on:click=submit disabled=move || busy.get()>
                {move || if editing.get() { "Replace the proposal" } else { "Propose" }}
            </button>
            <Show when=move || error.get().is_some()>
                <p class="error" id="step-error">{move || error.get().unwrap_or_default()}</p>
            </Show>
            {move || {
                run.get()
                    .pending
                    .map(|pending| {
                        view! {
                            <div id="pending" class="card">
                                <p id="pending-words" class="proposal">{pending.in_words}</p>
                                <p>
                                    <b>"Thought: "</b>
                                    <span id="pending-reason">{pending.reason}</span>
                                </p>
                                <p class="muted">
                                    <code id="pending-action">{pending.action.call_syntax()}</code>
                                    " on "
                                    <span id="pending-target">
                                        {pending.target.unwrap_or_else(|| "the page".into())}
                                    </span>
                                    " (outlined on the console tab)"
                                </p>
                                <button id="approve" on:click=move |_| decide(Decision::Approve) disabled=move || busy.get()>
                                    "Approve"
                                </button>
                                <button id="skip" on:click=move |_| decide(Decision::Skip) disabled=move || busy.get()>
                                    "Skip"
                                </button>
                                <button id="edit" on:click=edit disabled=move || busy.get()>
                                    "Edit"
                                </button>
                                <button id="take-over" on:click=move |_| decide(Decision::TakeOver) disabled=move || busy.get()>
                                    "Take over"
                                </button>
                                <Show when=move || editing.get()>
                                    <div id="edit-form">
                                        <p class="muted">
                                            "Change the action, then " <b>"Replace the proposal"</b> " above."
                                        </p>
                                        <button id="pick" on:click=pick disabled=move || busy.get()>
                                            "Pick another element on the page"
                                        </button>
                                        " "
                                        <span id="picked">{move || picked.get().unwrap_or_default()}</span>
                                        {move || {
                                            edited_gui()
                                                .and_then(|gui| gui.text().map(str::to_owned).map(|text| (gui, text)))
                                                .map(|(gui, text)| {
                                                    view! {
                                                        <label>
                                                            "Text "
                                                            <input
                                                                id="edit-text"
                                                                prop:value=text
                                                                on:change=move |ev| set_gui(gui.with_text(&event_target_value(&ev)))
                                                            />
                                                        </label>
                                                    }
                                                })
                                        }}
                                    </div>
                                </Show>
                            </div>
                        }
                    })
            }}
            <ol id="step-log">{move || run.get().log.into_iter().map(record_view).collect_view()}</ol>
        </section>
    }
}

fn record_view(record: StepRecord) -> impl IntoView {
    let class = match &record.decision {
        Decided::Ran { outcome } if outcome.succeeded() => "ok",
        Decided::Ran { .. } | Decided::Failed { .. } => "error",
        Decided::Recorded | Decided::Skipped | Decided::Edited | Decided::TakenOver { .. } => "muted",
    };
    let what = record.decision.in_words();
    view! {
        <li class=class>
            <code>{record.action.call_syntax()}</code>
            " — "
            {what}
        </li>
    }
}
