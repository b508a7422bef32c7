//! What the agent does: GUI [`GuiAction`]s the page side executes, control actions the episode
//! handles, and the typed [`ActionOutcome`] every GUI action returns.
//!
//! The JSON form (`{"action": "click", "index": 12}`) is what the runtimes pass to `aca-dom` and what
//! trajectories store; [`Action::call_syntax`] is the `click(12)` form the model reads and writes.

use serde::{Deserialize, Serialize};

use crate::observation::{Fingerprint, ScrollDirection};

/// Anything the agent may do in one turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Action {
    Gui(GuiAction),
    Control(ControlAction),
}

/// An action on the page, executed by `aca-dom` (in the extension or the headless runtime).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum GuiAction {
    Click {
        index: u32,
    },
    /// Clears the field, then types as a person would (key and input events per character).
    Type {
        index: u32,
        text: String,
        /// Press Enter afterwards.
        #[serde(default)]
        submit: bool,
    },
    /// Chooses an option of a native or div-based select by its visible text.
    Select {
        index: u32,
        option: String,
    },
    Hover {
        index: u32,
    },
    /// A key or chord (`Enter`, `Escape`, `Control+A`), on an element or the focused one.
    Press {
        key: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        index: Option<u32>,
    },
    /// Scrolls the page, or the scrollable container of `index`, by about one viewport.
    Scroll {
        direction: ScrollDirection,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        index: Option<u32>,
    },
    Goto {
        url: String,
    },
    /// Waits until the page settles (no pending requests, no DOM churn), at most `ms`.
    Wait {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ms: Option<u32>,
    },
}

/// An action the episode handles itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum ControlAction {
    /// Pause, provision what is missing, and continue with a resource report.
    RequestResource {
        description: String,
    },
    TaskComplete {
        #[serde(default)]
        summary: String,
    },
    TaskUnachievable {
        reason: String,
    },
}

/// A GUI action as handed to the page side, with what is needed to find its element again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ActRequest {
    pub action: GuiAction,
    /// The fingerprint of the element in the observation the action was chosen from; the page side
    /// uses it when the index went stale (the page re-rendered).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<Fingerprint>,
    /// How long to wait for the element to become actionable and for the page to settle.
    #[serde(default = "default_timeout_ms")]
    pub timeout_ms: u32,
}

fn default_timeout_ms() -> u32 {
    5_000
}

/// What happened when a GUI action ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum ActionOutcome {
    Done {
        /// The element was found again by fingerprint because its index went stale.
        #[serde(default, skip_serializing_if = "is_false")]
        reresolved: bool,
    },
    /// The page navigated (to `url`) while or because the action ran.
    Navigated {
        url: String,
    },
    ElementNotFound {
        index: u32,
    },
    NotActionable {
        index: u32,
        reason: NotActionable,
    },
    /// The element or the page did not become ready in time.
    Timeout {
        waited_ms: u32,
        waiting_for: String,
    },
    /// The page side failed (a crashed tab, a script error): the message says what.
    Failed {
        message: String,
    },
    /// Step mode: the person passed this action over; nothing ran, and it is no failed attempt.
    Skipped,
    /// Step mode: the person acted on the page instead of the action; the next observation shows
    /// what they left.
    TakenOver,
}

/// The page side's answer when a runtime with a real pointer asks where to click or hover: the
/// element was found (again, by fingerprint, if its index went stale), it can take the pointer now,
/// and a hit test at this point (top-frame CSS pixels) reaches it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "aim", rename_all = "snake_case")]
pub enum Aim {
    At {
        x: f64,
        y: f64,
        #[serde(default, skip_serializing_if = "is_false")]
        reresolved: bool,
    },
    /// The element cannot be aimed at; `because` is the outcome the action ends with.
    Refused { because: ActionOutcome },
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Why an element could not take the action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum NotActionable {
    Disabled {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    Hidden,
    /// Covered by another element (a dialog mask, a toast): its description.
    Covered {
        by: String,
    },
    Readonly,
    /// `type` on something that takes no text, `select` on something that is no select.
    WrongKind {
        expected: String,
    },
    /// The select has no option with that text.
    NoSuchOption {
        option: String,
        available: Vec<String>,
    },
}

impl ActionOutcome {
    pub fn succeeded(&self) -> bool {
        matches!(self, ActionOutcome::Done { .. } | ActionOutcome::Navigated { .. })
    }

    /// A person decided instead of the agent: the action neither succeeded nor failed.
    pub fn decided_by_person(&self) -> bool {
        matches!(self, ActionOutcome::Skipped | ActionOutcome::TakenOver)
    }
}

impl Action {
    /// The call form the model reads and writes: `click(12)`, `type(3, "vpc-prod")`.
    pub fn call_syntax(&self) -> String {
        match self {
            Action::Gui(gui) => gui.call_syntax(),
            Action::Control(ControlAction::RequestResource { description }) => {
                format!("request_resource({})", literal(description))
            }
            Action::Control(ControlAction::TaskComplete { summary }) => format!("task_complete({})", literal(summary)),
            Action::Control(ControlAction::TaskUnachievable { reason }) => {
                format!("task_unachievable({})", literal(reason))
            }
        }
    }
}

impl GuiAction {
    /// The element the action targets, if any.
    pub fn index(&self) -> Option<u32> {
        match self {
            GuiAction::Click { index }
            | GuiAction::Type { index, .. }
            | GuiAction::Select { index, .. }
            | GuiAction::Hover { index } => Some(*index),
            GuiAction::Press { index, .. } | GuiAction::Scroll { index, .. } => *index,
            GuiAction::Goto { .. } | GuiAction::Wait { .. } => None,
        }
    }

    pub fn call_syntax(&self) -> String {
        match self {
            GuiAction::Click { index } => format!("click({index})"),
            GuiAction::Type { index, text, submit } => {
                if *submit {
                    format!("type({index}, {}, submit=true)", literal(text))
                } else {
                    format!("type({index}, {})", literal(text))
                }
            }
            GuiAction::Select { index, option } => format!("select({index}, {})", literal(option)),
            GuiAction::Hover { index } => format!("hover({index})"),
            GuiAction::Press { key, index: Some(i) } => format!("press({i}, {})", literal(key)),
            GuiAction::Press { key, index: None } => format!("press({})", literal(key)),
            GuiAction::Scroll { direction, index } => {
                let d = match direction {
                    ScrollDirection::Up => "up",
                    ScrollDirection::Down => "down",
                    ScrollDirection::Left => "left",
                    ScrollDirection::Right => "right",
                };
                match index {
                    Some(i) => format!("scroll({i}, \"{d}\")"),
                    None => format!("scroll(\"{d}\")"),
                }
            }
            GuiAction::Goto { url } => format!("goto({})", literal(url)),
            GuiAction::Wait { ms: Some(ms) } => format!("wait({ms})"),
            GuiAction::Wait { ms: None } => "wait()".into(),
        }
    }
}

/// A string literal in the call syntax (JSON string escaping).
fn literal(text: &str) -> String {
    serde_json::Value::String(text.to_owned()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gui_and_control_actions_share_one_json_shape() {
        let click: Action = serde_json::from_str(r#"{"action":"click","index":12}"#).unwrap();
        assert_eq!(click, Action::Gui(GuiAction::Click { index: 12 }));
        let done: Action = serde_json::from_str(r#"{"action":"task_complete"}"#).unwrap();
        assert_eq!(
            done,
            Action::Control(ControlAction::TaskComplete { summary: String::new() })
        );
        assert!(serde_json::from_str::<Action>(r#"{"action":"fly","index":1}"#).is_err());
        let typed = Action::Gui(GuiAction::Type {
            index: 3,
            text: "a \"b\"".into(),
            submit: false,
        });
        assert_eq!(typed.call_syntax(), r#"type(3, "a \"b\"")"#);
        let json = serde_json::to_string(&typed).unwrap();
        assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), typed);
    }

    #[test]
    fn outcomes_say_why_an_element_could_not_act() {
        let outcome = ActionOutcome::NotActionable {
            index: 4,
            reason: NotActionable::Covered { by: "div.mask".into() },
        };
        let json = serde_json::to_value(&outcome).unwrap();
        assert_eq!(json["outcome"], "not_actionable");
        assert_eq!(json["reason"]["why"], "covered");
        assert!(!outcome.succeeded());
        let request: ActRequest = serde_json::from_str(r#"{"action":{"action":"hover","index":2}}"#).unwrap();
        assert_eq!(request.timeout_ms, 5_000);
    }
}
