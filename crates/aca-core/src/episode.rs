//! The record of an episode: each turn's [`Thought`], action and outcome, as reports and training
//! data read it.

use serde::{Deserialize, Serialize};

use crate::action::{Action, ActionOutcome};

/// The model's reasoning before one action.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Thought {
    /// How far the procedure has come.
    pub progress: String,
    /// What the page shows now.
    pub observation: String,
    /// The next sub-goal.
    pub next_goal: String,
}

/// One turn: what the agent saw (as text), thought and did, and what happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    /// The documented step the turn worked on.
    pub step: Option<String>,
    pub observation: String,
    pub thought: Thought,
    pub action: Action,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<ActionOutcome>,
    /// The model's raw reply, when a model produced the turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply: Option<String>,
}

/// A whole episode.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Trajectory {
    pub task: String,
    pub turns: Vec<Turn>,
}
