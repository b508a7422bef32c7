//! Step mode: what a person decides about each action the agent proposes, and the record of what
//! really happened to it (an edited action is the one performed, a skip is a skip, a take-over is
//! the person's own work on the page).

use aca_core::EventSummary;
use aca_core::action::{Action, ActionOutcome};
use serde::{Deserialize, Serialize};

/// The person's answer to a proposed action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Run it on the page.
    Approve,
    /// Do not run it; the agent chooses again from the same page.
    Skip,
    /// Replace it with another action, which then waits for approval in turn.
    Edit { action: Action, reason: String },
    /// The person acts on the page themselves; nothing is run until they hand the page back.
    TakeOver,
}

/// An action the agent proposes, waiting for a [`Decision`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Proposed {
    pub action: Action,
    /// The Thought's next goal, or where the run stands when the agent gave none.
    pub reason: String,
}

/// One decided proposal of the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepRecord {
    pub action: Action,
    pub reason: String,
    pub decision: Decided,
}

/// What became of a proposal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "decided", rename_all = "snake_case")]
pub enum Decided {
    /// Approved and run on the page, with the page side's typed outcome.
    Ran {
        outcome: ActionOutcome,
    },
    /// Approved, but the episode handles control actions itself: nothing ran on the page.
    Recorded,
    Skipped,
    /// Replaced by the person's action, recorded next.
    Edited,
    /// The person acted on the page instead: where the page stood before and after, and what the
    /// audit log recorded meanwhile (known once the reward service has read it).
    TakenOver {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        before: Option<PageAt>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        after: Option<PageAt>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        events: Vec<EventSummary>,
    },
    /// Approved, but the page side could not be reached.
    Failed {
        message: String,
    },
}

/// Where the console tab stood at one moment: enough to tell a writer what a person changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageAt {
    pub url: String,
    pub title: String,
    /// The turn of the trajectory this moment precedes.
    pub turn: usize,
}
