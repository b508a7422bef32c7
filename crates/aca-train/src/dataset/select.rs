//! Choosing training samples from one recorded run: the run as a whole when the reward service
//! confirmed it, then each turn that moved the task forward.
//!
//! A turn is left out when its action failed on the page, when it typed a secret (the record only
//! holds the mask), or when it was a detour: the page after it, or after a later turn of the same
//! documented step, is the page it started from, so nothing it did lasted (a click that changed
//! nothing, a menu opened and closed, a repeated attempt). What a run with an unreadable model reply retried is never a sample: the
//! recorder keeps the turn's first messages and the reply that was read.

use std::collections::BTreeMap;

use aca_agent::authenticator::MASK;
use aca_agent::review::doc_check_line;
use aca_agent::{RecordedTurn, prompt};
use aca_core::{Action, Turn};
use serde::{Deserialize, Serialize};

use super::{Confirmed, Sample, SampleMeta};

/// Who decided the run's actions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Teacher {
    /// The scripted policy: its decisions are rendered as replies in the prompt's format.
    Scripted,
    /// A chat model (distillation): its own replies, as the run recorded them.
    Model(String),
}

impl Teacher {
    pub fn name(&self) -> String {
        match self {
            Teacher::Scripted => "scripted".to_owned(),
            Teacher::Model(model) => format!("model:{model}"),
        }
    }
}

/// One recorded run and what is known about it.
#[derive(Debug, Clone)]
pub struct RecordedRun {
    /// `PAGE@RELEASE`.
    pub task: String,
    pub page: String,
    pub product: String,
    pub release: String,
    pub run: u32,
    pub teacher: Teacher,
    /// How the reward service decided the run, or why it is not confirmed.
    pub outcome: Result<Confirmed, String>,
    /// The run's trajectory as its report holds it (secrets masked).
    pub turns: Vec<Turn>,
    /// What the recorder kept at each decided turn.
    pub recorded: Vec<RecordedTurn>,
}

/// Why a run or a turn is not a sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dropped {
    /// The run's outcome was not confirmed by the reward service (all its turns).
    Unconfirmed,
    /// The action failed on the page.
    Failed,
    /// The action typed a secret, which the record holds only masked.
    Secret,
    /// The page after the turn was the page before it.
    NoEffect,
    /// A later turn brought the page back to where this one started.
    Detour,
    /// The recorder holds no messages for the turn.
    Unrecorded,
}

impl Dropped {
    pub fn describe(self) -> &'static str {
        match self {
            Dropped::Unconfirmed => "the run's outcome was not confirmed by the reward service",
            Dropped::Failed => "the action failed on the page",
            Dropped::Secret => "the action typed a secret (recorded masked)",
            Dropped::NoEffect => "the page after the action was the page before it",
            Dropped::Detour => "a later action brought the page back to where this one started",
            Dropped::Unrecorded => "no prompt was recorded for the turn",
        }
    }
}

/// The samples of a run and the turns left out, by reason.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Selection {
    pub samples: Vec<Sample>,
    pub dropped: BTreeMap<Dropped, usize>,
}

/// The samples `run` gives, in turn order.
pub fn select(run: &RecordedRun) -> Selection {
    let mut selection = Selection::default();
    let outcome = match &run.outcome {
        Ok(outcome) => *outcome,
        Err(_) => {
            if !run.turns.is_empty() {
                selection.dropped.insert(Dropped::Unconfirmed, run.turns.len());
            }
            return selection;
        }
    };
    let kept = turn_filter(&run.turns);
    for (index, turn) in run.turns.iter().enumerate() {
        if let Err(reason) = kept[index] {
            *selection.dropped.entry(reason).or_default() += 1;
            continue;
        }
        let Some(recorded) = run.recorded.iter().find(|r| r.turn == index) else {
            *selection.dropped.entry(Dropped::Unrecorded).or_default() += 1;
            continue;
        };
        selection.samples.push(Sample {
            id: format!("{}#{}/{}", run.task, run.run, index),
            messages: recorded.messages.clone(),
            reply: reply(run, turn, recorded),
            meta: SampleMeta {
                task: run.task.clone(),
                page: run.page.clone(),
                product: run.product.clone(),
                release: run.release.clone(),
                teacher: run.teacher.name(),
                outcome,
                run: run.run,
                turn: index,
                step: turn.step.clone(),
                action: turn.action.call_syntax(),
            },
        });
    }
    selection
}

/// The teacher's reply for a turn: a model's own words, or the scripted decision in the prompt's format.
fn reply(run: &RecordedRun, turn: &Turn, recorded: &RecordedTurn) -> String {
    match (&run.teacher, &turn.reply) {
        (Teacher::Model(_), Some(reply)) => reply.clone(),
        _ => {
            let checks: Vec<String> = recorded
                .findings
                .iter()
                .map(|(step, finding)| doc_check_line(step, finding))
                .collect();
            prompt::reply_text(&turn.thought, &checks, &turn.action)
        }
    }
}

/// For each turn, kept or why not.
fn turn_filter(turns: &[Turn]) -> Vec<Result<(), Dropped>> {
    let before: Vec<String> = turns.iter().map(|t| page_key(&t.observation)).collect();
    // The page after turn i is the page turn i+1 saw; the last turn's is unknown.
    let after = |i: usize| before.get(i + 1);
    let mut kept: Vec<Result<(), Dropped>> = turns.iter().map(|_| Ok(())).collect();
    for (i, turn) in turns.iter().enumerate() {
        if turn
            .outcome
            .as_ref()
            .is_some_and(|o| !o.succeeded() && !o.decided_by_person())
        {
            kept[i] = Err(Dropped::Failed);
        } else if turn.action.call_syntax().contains(MASK) {
            kept[i] = Err(Dropped::Secret);
        }
    }
    let mut i = 0;
    while i < turns.len() {
        let is_gui = matches!(turns[i].action, Action::Gui(_));
        // The furthest later turn of the same documented step after which the page is again the one
        // turn i started from. Across steps a page may look the same while the console changed (a
        // list whose rows show nothing of what was done): that is progress, not a detour.
        let same_step = turns[i..].iter().take_while(|t| t.step == turns[i].step).count();
        let back = (i..i + same_step).rev().find(|&j| after(j) == Some(&before[i]));
        match back {
            Some(j) if is_gui => {
                for (k, slot) in kept.iter_mut().enumerate().take(j + 1).skip(i) {
                    if slot.is_ok() {
                        *slot = Err(if k == i && j == i {
                            Dropped::NoEffect
                        } else {
                            Dropped::Detour
                        });
                    }
                }
                i = j + 1;
            }
            _ => i += 1,
        }
    }
    kept
}

/// A page's text without the marks of elements new since the turn before, which differ between two
/// sights of the same page.
fn page_key(observation: &str) -> String {
    observation
        .lines()
        .map(|line| {
            let indent = line.len() - line.trim_start().len();
            match line[indent..].strip_prefix('*') {
                Some(rest) => format!("{}{rest}", &line[..indent]),
                None => line.to_owned(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests;
