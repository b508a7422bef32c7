//! The shared vocabulary of AliyunConsoleAgent.
//!
//! Every other crate speaks in these types: documentation pages become a [`Procedure`] of
//! [`Step`]s; the console emulator records [`TrailEvent`]s, the reward channel matches them, reports
//! quote both. The crate holds data and its (de)serialisation only; it
//! performs no I/O so that it builds for the browser extension (wasm32) as well as for the server.

pub mod action;
pub mod billing;
pub mod console;
pub mod episode;
pub mod fence;
pub mod judges;
pub mod meta;
pub mod observation;
pub mod procedure;
pub mod report;
pub mod results;
pub mod rule;
pub mod secret;
pub mod step_mode;
pub mod task;
pub mod trail;
pub mod verdict;

pub use billing::BillingMethod;
pub use action::{ActRequest, Action, ActionOutcome, Aim, ClickedControl, ControlAction, GuiAction, NotActionable};
pub use console::{ConsoleSite, ProductConsole};
pub use episode::{Thought, Trajectory, Turn};
pub use judges::{JudgeAnswer, JudgesDecision, JudgesReport};
pub use meta::{KeyAttribute, ResourceMeta};
pub use observation::{
    Element, ElementState, Fingerprint, Observation, OffscreenSummary, Place, PlaceKind, Rect, Role, ScrollDirection,
    ScrollExtent,
};
pub use procedure::{
    Callout, CalloutKind, Container, ContainerKind, FieldValue, Parameter, ParameterTable, Procedure, Step, StepAction,
};
pub use report::{ConsoleRun, EventSummary, ModelUsage, Report, RuleReport, Screenshot, StepReport};
pub use secret::{SecretKind, SecretRef};
pub use rule::{EventMatcher, ParameterCondition, ParameterTest, SuccessRule};
pub use task::{Difficulty, TaskSpec};
pub use trail::{EventRw, EventType, IdentityType, ReferencedResources, TrailEvent, UserIdentity};
pub use verdict::{Confidence, Defect, DefectKind, Evidence, StepGrade, StepStatus, Verdict};
