//! Step mode in the service worker: a proposed action is highlighted on the console tab and waits
//! for the person's decision; an approved GUI action runs through aca-dom and its outcome is logged.
//! While a verification runs in step mode, its episode proposes the actions and the decision is
//! handed to the run, which carries it out the same way.

use aca_core::action::{ActRequest, Action};

use super::{console_tab, observe_console, page, state};
use crate::messages::{Decided, Decision, Proposal, RunView, StepRecord};

/// How long an approved action may wait for its element and for the page to settle.
const ACT_TIMEOUT_MS: u32 = 5_000;

/// Proposes `action`: it waits for a decision, with the page's marks shown.
pub async fn propose(action: Action, reason: String) -> Result<RunView, String> {
    let run = state::current().await;
    if let Some(pending) = &run.pending {
        return Err(format!(
            "{} is still waiting for a decision: approve, skip, edit or take it over first",
            pending.action.call_syntax()
        ));
    }
    let proposal = Proposal::of(action, reason, run.observed.as_ref().map(|o| &o.observation));
    if matches!(proposal.action, Action::Gui(_)) {
        page::outline(console_tab().await?, &proposal.action).await?;
    }
    Ok(state::update(|run| run.pending = Some(proposal)).await)
}

/// Applies the person's decision to the pending proposal.
pub async fn decide(decision: Decision) -> Result<RunView, String> {
    if super::run::awaits_decision() {
        if let Decision::Edit {
            action: Action::Control(_),
            ..
        } = &decision
        {
            return Err(
                "in a verification an edit must be a page action (click, type, select, …): \
                        the agent decides when the task is complete"
                    .into(),
            );
        }
        super::run::deliver(decision);
        return Ok(state::current().await);
    }
    let run = state::current().await;
    let pending = run
        .pending
        .clone()
        .ok_or_else(|| "no proposed action is waiting for a decision".to_owned())?;
    let unmark = async {
        if let Some(tab_id) = run.console_tab {
            // Marks left on a page that has navigated away are gone anyway.
            let _ = page::mark(tab_id, false).await;
        }
    };
    let decided = match decision {
        Decision::Approve => {
            unmark.await;
            approve(&pending.action, &run).await
        }
        Decision::Skip => {
            unmark.await;
            Decided::Skipped
        }
        Decision::TakeOver => {
            unmark.await;
            Decided::TakenOver {
                before: None,
                clicked: Vec::new(),
                after: None,
                events: Vec::new(),
            }
        }
        Decision::Edit { action, reason } => {
            let record = StepRecord {
                action: pending.action,
                reason: pending.reason,
                decision: Decided::Edited,
            };
            state::update(|run| {
                run.log.push(record);
                run.pending = None;
            })
            .await;
            return propose(action, reason).await;
        }
    };
    let ran = matches!(decided, Decided::Ran { .. });
    let record = StepRecord {
        action: pending.action,
        reason: pending.reason,
        decision: decided,
    };
    let run = state::update(|run| {
        run.log.push(record);
        run.pending = None;
    })
    .await;
    if ran {
        // The page changed: the next proposal is chosen from a fresh observation.
        if let Err(e) = observe_console().await {
            return Ok(state::update(|run| run.problem = Some(e)).await);
        }
        return Ok(state::current().await);
    }
    Ok(run)
}

async fn approve(action: &Action, run: &RunView) -> Decided {
    let Action::Gui(gui) = action else {
        return Decided::Recorded;
    };
    let Some(tab_id) = run.console_tab else {
        return Decided::Failed {
            message: "no console tab to run it in".into(),
        };
    };
    let fingerprint = gui
        .index()
        .and_then(|index| run.observed.as_ref()?.observation.element(index))
        .map(|element| element.fingerprint.clone());
    let request = ActRequest {
        action: gui.clone(),
        fingerprint,
        timeout_ms: ACT_TIMEOUT_MS,
    };
    match page::act(tab_id, &request).await {
        Ok(outcome) => Decided::Ran { outcome },
        Err(message) => Decided::Failed { message },
    }
}
