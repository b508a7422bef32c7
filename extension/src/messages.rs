//! The message protocol between the extension's three parts: the side panel and the options page ask
//! the service worker ([`Request`] → [`Reply`]), the service worker tells open pages what changed
//! ([`Event`]), and the service worker calls `aca-dom` in the console tab ([`ContentCall`]).
//!
//! Every message is a plain JSON object (`{"kind": "observe"}`), so the parts exchange them through
//! `chrome.runtime` messaging unchanged and a test can send one from any extension page.

use aca_core::action::{Action, ClickedControl};
use aca_core::observation::Observation;
use aca_core::procedure::Procedure;
use serde::{Deserialize, Serialize};

pub use aca_run::step_mode::{Decided, Decision, StepRecord};

use crate::settings::Settings;

/// What an extension page asks the service worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Request {
    /// Is the service worker running? Answered with [`Reply::Pong`].
    Ping,
    /// The run as the service worker holds it.
    State,
    /// The open tabs a person can pick the documentation or the console tab from.
    Tabs,
    /// Makes `tab_id` the console tab the run observes and acts on.
    SetConsoleTab {
        tab_id: i32,
    },
    /// Observes the console tab now (aca-dom's `observe` in its top frame).
    Observe,
    /// Reads the documentation page in `tab_id`: its title and HTML, parsed into a procedure.
    Capture {
        tab_id: i32,
    },
    /// Verifies the documentation page in `tab_id`: captures it, leases an account on the companion
    /// server, opens the console in a new tab (which becomes the console tab), runs the procedure's
    /// episode there and judges it by the audit log. Answered once the run has started; its progress
    /// and report arrive as [`Event::RunChanged`]. With `step_mode`, every action the agent proposes
    /// waits for a [`Decision`].
    Verify {
        tab_id: i32,
        #[serde(default)]
        step_mode: bool,
    },
    /// Stops the running verification; its report says it was stopped.
    Stop,
    /// Step mode: the person who took over hands the page back; the run observes it and goes on.
    HandBack,
    /// Step mode: proposes `action` with its `reason`; it is highlighted on the page and waits.
    Propose {
        action: Action,
        reason: String,
    },
    /// Step mode: the person's answer to the pending proposal.
    Decide {
        decision: Decision,
    },
    /// Shows or hides the set-of-marks overlay on the console tab.
    Mark {
        show: bool,
    },
    /// Step mode's Edit: the person's next click on the console tab chooses an element (the click
    /// is kept from the page); answered with [`Reply::Picked`].
    Pick,
    SaveSettings {
        settings: Settings,
    },
    LoadSettings,
    /// Calls the companion server with the saved settings to check the URL and token.
    CheckServer,
    /// A content script: whether the person's clicks in its tab are told (they have taken it
    /// over); answered with [`Reply::Recording`].
    Recording,
    /// A content script: the person clicked `control` in its tab; answered with
    /// [`Reply::Recording`], saying whether it was kept.
    Clicked {
        control: ClickedControl,
    },
}

/// The service worker's answer to a [`Request`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reply {
    Pong {
        version: String,
    },
    State {
        run: Box<RunView>,
    },
    Tabs {
        tabs: Vec<TabInfo>,
    },
    Observed {
        observed: Box<Observed>,
    },
    Captured {
        page: Box<CapturedPage>,
    },
    /// The element the person clicked (`None`: none of the observation's, or no click in time),
    /// described as the last observation shows it.
    Picked {
        index: Option<u32>,
        target: Option<String>,
    },
    Settings {
        settings: Settings,
    },
    /// The companion server answered: what it said, in words, and the host patterns of the
    /// assigned accounts' consoles the extension may not use yet.
    Server {
        summary: String,
        #[serde(default)]
        consoles_to_allow: Vec<String>,
    },
    /// Whether the person's clicks in the asking tab are told (or, for one told, were kept).
    Recording {
        recording: bool,
    },
    /// A request that did not succeed, and why, in words a person can act on.
    Error {
        message: String,
    },
}

/// A notice the service worker broadcasts to open extension pages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The run changed (a new observation, a proposal, a decision, a new console tab).
    RunChanged { run: Box<RunView> },
}

/// The run as the panel shows it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunView {
    pub console_tab: Option<i32>,
    pub captured: Option<CapturedPage>,
    pub account: Option<ConsoleAccount>,
    pub observed: Option<Observed>,
    pub pending: Option<Proposal>,
    /// Every decided proposal, oldest first: the recorded run.
    pub log: Vec<StepRecord>,
    /// The last thing that went wrong in the background (a tab update that could not be observed).
    pub problem: Option<String>,
    /// The verification running or last run from **Verify this page**.
    #[serde(default)]
    pub verification: Option<Verification>,
}

/// A verification as the panel shows it: where it stands while it runs, and its report at the end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verification {
    pub phase: Phase,
    pub step_mode: bool,
    /// The success rule the run is judged by, known before the run starts.
    pub rule: Option<aca_core::SuccessRule>,
    /// For an inferred rule: what it rests on. `None` for a rule the writer wrote.
    pub rule_explanation: Option<String>,
    /// Why no rule applies, when none does.
    pub no_rule: Option<String>,
    pub progress: aca_run::Progress,
    /// When the run started (Unix milliseconds), for the elapsed time.
    #[serde(default)]
    pub started_ms: i64,
    /// The last few things the run did, oldest first.
    pub activity: Vec<String>,
    /// The report, once the run has ended.
    pub report: Option<Box<aca_core::Report>>,
    /// The marked screenshots the report's defects show, by the report's paths (taken only when the
    /// person allowed the extension to capture tabs).
    #[serde(default)]
    pub shots: Vec<KeptShot>,
}

/// A marked screenshot of the console tab, kept for the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptShot {
    /// The path `report.screenshots` names it by.
    pub path: String,
    /// A PNG `data:` URL.
    pub image: String,
}

/// Where a verification stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Logging on and opening the product's console.
    Preparing,
    /// The episode runs.
    Running,
    /// Step mode: the person took over the page and has not handed it back yet.
    TakenOver,
    /// Reading ActionTrail for the run's events.
    Auditing,
    Finished,
}

impl Verification {
    /// How many activity lines are kept.
    pub const ACTIVITY_LINES: usize = 12;

    /// Adds one line to the activity, dropping the oldest past [`Self::ACTIVITY_LINES`].
    pub fn note(&mut self, line: impl Into<String>) {
        self.activity.push(line.into());
        let excess = self.activity.len().saturating_sub(Self::ACTIVITY_LINES);
        self.activity.drain(..excess);
    }

    pub fn is_running(&self) -> bool {
        self.phase != Phase::Finished
    }
}

/// One observation of the console tab and its text tree, as the agent reads it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observed {
    pub tab_id: i32,
    pub observation: Observation,
    /// `observation.to_text()`.
    pub text: String,
}

impl Observed {
    pub fn new(tab_id: i32, observation: Observation) -> Self {
        let text = observation.to_text();
        Self {
            tab_id,
            observation,
            text,
        }
    }
}

/// A documentation page as captured from its tab.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CapturedPage {
    pub tab_id: i32,
    pub url: String,
    pub title: String,
    /// The length of the captured HTML, in characters.
    pub html_chars: usize,
    /// The page read as a procedure, or why it could not be.
    pub procedure: Result<Procedure, String>,
}

/// The account a verification runs in: the one the console tab is signed in to, as the companion
/// server assigns it (no password, no key).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConsoleAccount {
    pub account_id: String,
    pub login: String,
    /// The console's home page.
    pub console_url: String,
}

/// A proposed action waiting for the person's decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Proposal {
    pub action: Action,
    pub reason: String,
    /// The target element as the last observation describes it (`[12] button "Create VPC"`).
    pub target: Option<String>,
    /// The action as a person says it: `Click the button “Create VPC”`.
    #[serde(default)]
    pub in_words: String,
}

impl Proposal {
    /// `action` proposed for `reason`, described with what `observation` shows of its element.
    pub fn of(action: Action, reason: String, observation: Option<&Observation>) -> Self {
        let element = match &action {
            Action::Gui(gui) => gui.index().and_then(|i| observation.and_then(|o| o.element(i))),
            Action::Control(_) => None,
        };
        Proposal {
            in_words: action.in_words(element),
            target: describe_target(&action, observation),
            action,
            reason,
        }
    }
}

/// `[12] button "Create VPC"`: the element an action targets, as the last observation shows it;
/// `None` for actions without a target element.
pub fn describe_target(action: &Action, observation: Option<&Observation>) -> Option<String> {
    let Action::Gui(gui) = action else {
        return None;
    };
    let index = gui.index()?;
    Some(match observation.and_then(|o| o.element(index)) {
        Some(element) => format!("[{index}] {} {:?}", element.role.as_str(), element.name),
        None => format!("[{index}] is not in the last observation"),
    })
}

/// An open tab.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TabInfo {
    pub id: i32,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub url: String,
    #[serde(default)]
    pub active: bool,
}

/// A call of one `aca-dom` export in a content script: `{"aca_dom": "observe", "arg": "{}"}`.
///
/// `content.js` answers `{"ok": true, "result": …}` or `{"ok": false, "error": "…"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContentCall {
    pub aca_dom: ContentOp,
    pub arg: serde_json::Value,
}

/// The aca-dom exports a content script answers for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContentOp {
    /// `observe(options_json) -> Observation JSON`.
    Observe,
    /// `observe_text(options_json) -> text tree`.
    ObserveText,
    /// `act(request_json) -> ActionOutcome JSON`.
    Act,
    /// `mark(show)`.
    Mark,
    /// `outline(index)`: the mark of one element.
    Outline,
    /// `pick(max_ms) -> index or null`.
    Pick,
    /// `settle(max_ms) -> bool`.
    Settle,
    /// `record(on)`: the content script's own switch, telling the person's clicks or not.
    Record,
}

impl ContentOp {
    /// The export's name, as aca-dom spells it.
    pub fn name(self) -> &'static str {
        match self {
            ContentOp::Observe => "observe",
            ContentOp::ObserveText => "observe_text",
            ContentOp::Act => "act",
            ContentOp::Mark => "mark",
            ContentOp::Outline => "outline",
            ContentOp::Pick => "pick",
            ContentOp::Settle => "settle",
            ContentOp::Record => "record",
        }
    }
}

/// A content script's answer to a [`ContentCall`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContentReply {
    pub ok: bool,
    #[serde(default)]
    pub result: serde_json::Value,
    #[serde(default)]
    pub error: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use aca_core::action::{ControlAction, GuiAction};
    use aca_core::observation::{Element, Role};

    #[test]
    fn requests_are_plain_json_objects_tagged_by_kind() {
        let ping: Request = serde_json::from_str(r#"{"kind":"ping"}"#).unwrap();
        assert_eq!(ping, Request::Ping);
        let propose: Request = serde_json::from_str(
            r#"{"kind":"propose","action":{"action":"click","index":3},"reason":"Open the form"}"#,
        )
        .unwrap();
        assert_eq!(
            propose,
            Request::Propose {
                action: Action::Gui(GuiAction::Click { index: 3 }),
                reason: "Open the form".into()
            }
        );
        let edit = Request::Decide {
            decision: Decision::Edit {
                action: Action::Gui(GuiAction::Hover { index: 1 }),
                reason: String::new(),
            },
        };
        let json = serde_json::to_string(&edit).unwrap();
        assert_eq!(serde_json::from_str::<Request>(&json).unwrap(), edit);
        assert!(serde_json::from_str::<Request>(r#"{"kind":"launch"}"#).is_err());
    }

    #[test]
    fn verify_asks_for_step_mode_only_when_told() {
        let plain: Request = serde_json::from_str(r#"{"kind":"verify","tab_id":4}"#).unwrap();
        assert_eq!(
            plain,
            Request::Verify {
                tab_id: 4,
                step_mode: false
            }
        );
        let stepped: Request = serde_json::from_str(r#"{"kind":"verify","tab_id":4,"step_mode":true}"#).unwrap();
        assert_eq!(
            stepped,
            Request::Verify {
                tab_id: 4,
                step_mode: true
            }
        );
        assert_eq!(
            serde_json::from_str::<Request>(r#"{"kind":"stop"}"#).unwrap(),
            Request::Stop
        );
    }

    #[test]
    fn the_activity_keeps_its_latest_lines() {
        let mut verification = Verification {
            phase: Phase::Running,
            step_mode: false,
            rule: None,
            rule_explanation: None,
            no_rule: None,
            progress: Default::default(),
            started_ms: 0,
            activity: Vec::new(),
            report: None,
            shots: Vec::new(),
        };
        for i in 0..20 {
            verification.note(format!("line {i}"));
        }
        assert_eq!(verification.activity.len(), Verification::ACTIVITY_LINES);
        assert_eq!(verification.activity.last().map(String::as_str), Some("line 19"));
        assert!(verification.is_running());
    }

    #[test]
    fn content_calls_name_the_aca_dom_export() {
        let call = ContentCall {
            aca_dom: ContentOp::ObserveText,
            arg: serde_json::json!("{}"),
        };
        assert_eq!(
            serde_json::to_value(&call).unwrap(),
            serde_json::json!({"aca_dom": "observe_text", "arg": "{}"})
        );
        assert_eq!(call.aca_dom.name(), "observe_text");
        let failed: ContentReply = serde_json::from_str(r#"{"ok":false,"error":"no such element"}"#).unwrap();
        assert!(!failed.ok);
        assert_eq!(failed.error.as_deref(), Some("no such element"));
    }

    #[test]
    fn an_observation_carries_its_text_tree() {
        let observed = Observed::new(
            7,
            Observation {
                url: "http://127.0.0.1/console/vpc/vpcs".into(),
                title: "VPCs".into(),
                ..Observation::default()
            },
        );
        assert_eq!(observed.text, observed.observation.to_text());
    }

    #[test]
    fn the_target_is_described_from_the_last_observation() {
        let observation = Observation {
            elements: vec![Element::new(4, Role::Button, "Create VPC", vec![])],
            ..Observation::default()
        };
        let click = |index| Action::Gui(GuiAction::Click { index });
        assert_eq!(
            describe_target(&click(4), Some(&observation)).as_deref(),
            Some("[4] button \"Create VPC\"")
        );
        assert_eq!(
            describe_target(&click(9), Some(&observation)).as_deref(),
            Some("[9] is not in the last observation")
        );
        let done = Action::Control(ControlAction::TaskComplete { summary: String::new() });
        assert_eq!(describe_target(&done, Some(&observation)), None);
    }
}
