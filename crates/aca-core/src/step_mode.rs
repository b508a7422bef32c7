//! Step mode: what a person decides about each action the agent proposes, and the record of what
//! really happened to it (an edited action is the one performed, a skip is a skip, a take-over is
//! the person's own work on the page).

use crate::action::{Action, ActionOutcome, ClickedControl};
use crate::report::EventSummary;
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
    /// The person acted on the page instead: where the page stood before and after, the controls
    /// they clicked, and what the audit log recorded meanwhile (known once the reward service has
    /// read it).
    TakenOver {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        before: Option<PageAt>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        clicked: Vec<ClickedControl>,
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

impl Decided {
    /// What became of the proposal, in words for the person who decided it.
    pub fn in_words(&self) -> String {
        match self {
            Decided::Ran { outcome } => serde_json::to_string(outcome).unwrap_or_default(),
            Decided::Recorded => "recorded (the episode handles it)".to_owned(),
            Decided::Skipped => "skipped".to_owned(),
            Decided::Edited => "edited".to_owned(),
            Decided::TakenOver {
                before,
                clicked,
                after,
                events,
            } => {
                let mut words = "taken over by hand".to_owned();
                if !clicked.is_empty() {
                    let controls: Vec<String> = clicked
                        .iter()
                        .map(|c| format!("{} \"{}\"", c.role.as_str(), c.name))
                        .collect();
                    words.push_str(&format!(": clicked {}", controls.join(", then ")));
                }
                if let (Some(before), Some(after)) = (before, after)
                    && before.url != after.url
                {
                    let joint = if clicked.is_empty() { ":" } else { ";" };
                    words.push_str(&format!("{joint} from {} to {}", before.url, after.url));
                }
                if !events.is_empty() {
                    let names: Vec<&str> = events.iter().map(|e| e.event_name.as_str()).collect();
                    words.push_str(&format!("; the audit log recorded {}", names.join(", ")));
                }
                words
            }
            Decided::Failed { message } => format!("failed: {message}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_take_over_says_where_the_page_went_and_what_the_audit_log_recorded() {
        let at = |url: &str, turn| PageAt {
            url: url.into(),
            title: String::new(),
            turn,
        };
        let taken = Decided::TakenOver {
            before: Some(at("https://vpc.console/vpcs", 2)),
            clicked: Vec::new(),
            after: Some(at("https://vpc.console/vpcs/vpc-1", 2)),
            events: vec![EventSummary {
                event_id: "e-1".into(),
                event_name: "CreateVpc".into(),
                service_name: "Vpc".into(),
                event_type: "ApiCall".into(),
                event_time: "2026-12-06T10:00:30Z".into(),
            }],
        };
        assert_eq!(
            taken.in_words(),
            "taken over by hand: from https://vpc.console/vpcs to https://vpc.console/vpcs/vpc-1; \
             the audit log recorded CreateVpc"
        );
        let clicked = Decided::TakenOver {
            before: Some(at("https://vpc.console/vpcs", 2)),
            clicked: vec![
                ClickedControl {
                    role: crate::Role::Button,
                    name: "More".into(),
                },
                ClickedControl {
                    role: crate::Role::Menuitem,
                    name: "Release Instance".into(),
                },
            ],
            after: Some(at("https://vpc.console/vpcs", 3)),
            events: Vec::new(),
        };
        assert_eq!(
            clicked.in_words(),
            "taken over by hand: clicked button \"More\", then menuitem \"Release Instance\""
        );
        assert_eq!(Decided::Skipped.in_words(), "skipped");
    }
}
