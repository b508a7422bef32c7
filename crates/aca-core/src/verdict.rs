//! How a verification ends: the [`Verdict`], each documented step's [`StepGrade`], and typed
//! [`Defect`]s that tell a writer where the page drifted from the console.

use serde::{Deserialize, Serialize};

/// The outcome of one verification.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The procedure ran as written and the success rule matched the audit log.
    Pass,
    /// The page no longer matches the console: see the defects.
    DocDefect,
    /// Something outside the page stopped the run: a missing resource, a quota, a console error.
    EnvironmentFailure,
    /// The agent could not carry out a page that is right.
    AgentFailure,
    /// No success rule could be applied: nothing proves or disproves the page.
    Unverified,
}

/// How one documented step went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepStatus {
    /// Done as written.
    Pass,
    /// Done, but not as written (another label, another path): a defect says how.
    Warning,
    Fail,
    /// Not reached.
    Skipped,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepGrade {
    /// The step's number as the page writes it (`3`, `3.2`).
    pub step: String,
    pub status: StepStatus,
    /// Matched through an alternative path (a More menu, a search, another label).
    #[serde(default)]
    pub alternative_path: bool,
    /// What the agent did for this step, in call syntax.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// `false` when nothing the step names was found or acted on: it was passed over, so it proves
    /// nothing about the page (a WARNING, never a PASS).
    #[serde(default = "verified_by_default", skip_serializing_if = "is_verified")]
    pub verified: bool,
}

fn verified_by_default() -> bool {
    true
}

fn is_verified(verified: &bool) -> bool {
    *verified
}

/// The kinds of drift real releases produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DefectKind {
    RenamedLabel,
    MovedControl,
    MissingStep,
    ObsoleteStep,
    ChangedValue,
    UndocumentedPrerequisite,
    RemovedFeature,
    ChangedOutcome,
}

/// One place where the page and the console disagree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Defect {
    pub kind: DefectKind,
    /// The step's number as the page writes it.
    pub step: String,
    /// What the page says (the label, the path, the value).
    pub documented: String,
    /// What the console shows instead; empty when it shows nothing in its place.
    pub observed: String,
    /// How sure the verifier is; reports from before it was recorded read as suspected.
    #[serde(default)]
    pub confidence: Confidence,
    #[serde(default)]
    pub evidence: Evidence,
}

/// How sure the verifier is that the page is wrong at a defect's step.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    /// The audit log shows the documented operation done: the console took another way than the
    /// page's, so the page's way is wrong.
    Confirmed,
    /// The page's way was looked for and not found, but the operation never happened: the control
    /// may still be where the agent did not look.
    #[default]
    Suspected,
}

impl Confidence {
    /// The word a report shows.
    pub fn label(self) -> &'static str {
        match self {
            Self::Confirmed => "confirmed",
            Self::Suspected => "suspected",
        }
    }
}

/// What backs a defect up.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    /// Lines of the observation the decision rests on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub elements: Vec<String>,
    /// A screenshot with marks, relative to the report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screenshot: Option<String>,
    /// `eventId`s of the audit events involved.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<String>,
    /// The turn (1-based) whose page shows the difference; its marked screenshot is the report's
    /// picture of the moment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<u32>,
}
