//! What the agent does: GUI [`GuiAction`]s the page side executes, control actions the episode
//! handles, and the typed [`ActionOutcome`] every GUI action returns.
//!
//! The JSON form (`{"action": "click", "index": 12}`) is what the runtimes pass to `aca-dom` and what
//! trajectories store; [`Action::call_syntax`] is the `click(12)` form the model reads and writes.

use serde::{Deserialize, Serialize};

use crate::observation::{Element, Fingerprint, Role, ScrollDirection};

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
    TakenOver {
        /// The controls they clicked meanwhile, in order, where the runtime could see them.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        clicked: Vec<ClickedControl>,
    },
}

/// A control a person clicked by hand, named as an observation names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClickedControl {
    pub role: Role,
    pub name: String,
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
        matches!(self, ActionOutcome::Skipped | ActionOutcome::TakenOver { .. })
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

    /// The action as a person says it, naming its element as `target` (the observation's element at
    /// its index) shows it: `Click the button “Create VPC”`, `Type “web-vpc” into the textbox “Name”`.
    pub fn in_words(&self, target: Option<&Element>) -> String {
        self.in_words_of(target.map(|e| (e.role.as_str(), e.name.as_str())))
    }

    /// [`Action::in_words`] with its element given as (role, name), as a text tree shows it.
    pub fn in_words_of(&self, target: Option<(&str, &str)>) -> String {
        let gui = match self {
            Action::Gui(gui) => gui,
            Action::Control(ControlAction::RequestResource { description }) => {
                return format!("Ask for a resource the step needs: {description}");
            }
            Action::Control(ControlAction::TaskComplete { summary }) if summary.is_empty() => {
                return "Say that every step is done".into();
            }
            Action::Control(ControlAction::TaskComplete { summary }) => {
                return format!("Say that every step is done: {summary}");
            }
            Action::Control(ControlAction::TaskUnachievable { reason }) => {
                return format!("Give up: {reason}");
            }
        };
        let element = || match (target, gui.index()) {
            (Some((role, name)), _) if !name.is_empty() => format!("the {role} “{name}”"),
            (Some((role, _)), Some(index)) => format!("the {role} [{index}]"),
            (_, Some(index)) => format!("element [{index}]"),
            (_, None) => "the page".to_owned(),
        };
        let direction = |d: &ScrollDirection| match d {
            ScrollDirection::Up => "up",
            ScrollDirection::Down => "down",
            ScrollDirection::Left => "left",
            ScrollDirection::Right => "right",
        };
        match gui {
            GuiAction::Click { .. } => format!("Click {}", element()),
            GuiAction::Type { text, submit, .. } => format!(
                "Type “{text}” into {}{}",
                element(),
                if *submit { ", then press Enter" } else { "" }
            ),
            GuiAction::Select { option, .. } => format!("Choose “{option}” in {}", element()),
            GuiAction::Hover { .. } => format!("Point at {}", element()),
            GuiAction::Press { key, index: Some(_) } => format!("Press {key} on {}", element()),
            GuiAction::Press { key, index: None } => format!("Press {key}"),
            GuiAction::Scroll { direction: d, index: Some(_) } => format!("Scroll {} in {}", direction(d), element()),
            GuiAction::Scroll { direction: d, index: None } => format!("Scroll the page {}", direction(d)),
            GuiAction::Goto { url } => format!("Open {url}"),
            GuiAction::Wait { .. } => "Wait for the page to settle".into(),
        }
    }
}

impl GuiAction {
    /// The same action on element `index` instead (an action without an element is unchanged).
    pub fn retargeted(&self, index: u32) -> GuiAction {
        let mut action = self.clone();
        match &mut action {
            GuiAction::Click { index: i }
            | GuiAction::Type { index: i, .. }
            | GuiAction::Select { index: i, .. }
            | GuiAction::Hover { index: i } => *i = index,
            GuiAction::Press { index: i, .. } | GuiAction::Scroll { index: i, .. } => *i = Some(index),
            GuiAction::Goto { .. } | GuiAction::Wait { .. } => {}
        }
        action
    }

    /// The text it types or the option it chooses.
    pub fn text(&self) -> Option<&str> {
        match self {
            GuiAction::Type { text, .. } => Some(text),
            GuiAction::Select { option, .. } => Some(option),
            _ => None,
        }
    }

    /// The same action typing or choosing `text` instead (others are unchanged).
    pub fn with_text(&self, new: &str) -> GuiAction {
        let mut action = self.clone();
        match &mut action {
            GuiAction::Type { text, .. } => *text = new.to_owned(),
            GuiAction::Select { option, .. } => *option = new.to_owned(),
            _ => {}
        }
        action
    }

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
    fn an_action_in_words_names_its_element_as_the_page_shows_it() {
        let field = Element::new(17, crate::observation::Role::Textbox, "Name", Vec::new());
        let typed = Action::Gui(GuiAction::Type {
            index: 17,
            text: "web-vpc".into(),
            submit: true,
        });
        assert_eq!(typed.in_words(Some(&field)), "Type “web-vpc” into the textbox “Name”, then press Enter");
        assert_eq!(
            Action::Gui(GuiAction::Click { index: 9 }).in_words(None),
            "Click element [9]"
        );
        assert_eq!(
            Action::Gui(GuiAction::Scroll {
                direction: ScrollDirection::Down,
                index: None
            })
            .in_words(None),
            "Scroll the page down"
        );
        assert_eq!(
            Action::Control(ControlAction::TaskUnachievable { reason: "no quota".into() }).in_words(None),
            "Give up: no quota"
        );
        let GuiAction::Type { index, text, submit } = GuiAction::Type {
            index: 17,
            text: "web-vpc".into(),
            submit: true,
        }
        .retargeted(24)
        .with_text("web-vsw") else {
            panic!("an edit changed the kind of action");
        };
        assert_eq!((index, text.as_str(), submit), (24, "web-vsw", true));
        assert_eq!(GuiAction::Click { index: 3 }.with_text("x").text(), None);
    }

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
