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

impl Turn {
    /// The turn's action as a person says it, naming its element as the turn's observation showed it.
    pub fn action_in_words(&self) -> String {
        let target = match &self.action {
            Action::Gui(gui) => gui
                .index()
                .and_then(|index| crate::observation::named_in_text(&self.observation, index)),
            Action::Control(_) => None,
        };
        self.action
            .in_words_of(target.as_ref().map(|(role, name)| (role.as_str(), name.as_str())))
    }
}

/// A whole episode.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Trajectory {
    pub task: String,
    pub turns: Vec<Turn>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::GuiAction;

    #[test]
    fn a_turn_says_its_action_with_the_element_its_observation_named() {
        let turn = |action| Turn {
            step: Some("4".into()),
            observation: "URL: https://c/vpcs\n<table>\n  <row \"vpc-1\">\n    *[23] button \"Say \\\"hi\\\"\" (disabled)\n    [24] link \"Manage\"\n".into(),
            thought: Thought::default(),
            action: Action::Gui(action),
            outcome: None,
            reply: None,
        };
        assert_eq!(turn(GuiAction::Click { index: 24 }).action_in_words(), "Click the link “Manage”");
        assert_eq!(turn(GuiAction::Hover { index: 23 }).action_in_words(), "Point at the button “Say \"hi\"”");
        assert_eq!(turn(GuiAction::Click { index: 99 }).action_in_words(), "Click element [99]");
    }
}
