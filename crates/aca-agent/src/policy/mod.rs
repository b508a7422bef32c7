//! Policies choose the next action; the episode asks one through the [`Policy`] trait and records
//! what it decided.
//!
//! The [`scripted::ScriptedPolicy`] grounds documented steps without a model (the embedded default);
//! the [`llm::LlmPolicy`] asks a chat model and reads its reply with the tolerant parser;
//! [`recording::Recording`] wraps either and records the messages each turn's model prompt holds.

pub mod llm;
pub mod recording;
pub mod scripted;

use aca_core::{Action, ActionOutcome, DefectKind, Observation, Step, Thought, Trajectory};
use serde::{Deserialize, Serialize};

use crate::model::{ModelCall, ModelRequest, Usage};
use crate::parse::ParseError;
use crate::task::Task;

/// Everything a policy may read when it decides.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    pub task: &'a Task,
    /// The documented steps and sub-steps, in page order (what step indices refer to).
    pub steps: &'a [Step],
    pub observation: &'a Observation,
    pub trajectory: &'a Trajectory,
    /// The documented step the episode works on, as an index into `steps`.
    pub current_step: Option<usize>,
    /// Failed attempts per step (parallel to `steps`).
    pub attempts: &'a [u32],
    /// Unix time in milliseconds, where the runtime gives it ([`crate::episode::Episode::wall_clock`]):
    /// what a code from an authenticator app is computed for.
    pub unix_ms: Option<u64>,
}

impl Context<'_> {
    pub fn attempts_on(&self, step: usize) -> u32 {
        self.attempts.get(step).copied().unwrap_or(0)
    }

    /// The outcome of the last GUI action, if the last turn was one.
    pub fn last_outcome(&self) -> Option<&ActionOutcome> {
        self.trajectory.turns.last().and_then(|t| t.outcome.as_ref())
    }
}

/// What a policy wants next.
#[derive(Debug, Clone, PartialEq)]
pub enum Proposal {
    Act(Box<Decision>),
    /// Ask a chat model; its reply comes back through [`Policy::reply`].
    AskModel(ModelRequest),
}

/// One decided action and what the policy knows about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub thought: Thought,
    pub action: Action,
    /// The documented step the action works on.
    pub step: Option<usize>,
    /// How the step's target was found on the page, when the policy grounded it.
    pub grounding: Option<Grounding>,
    /// Set when the step could not be done as written and this action is another strategy: the
    /// episode counts it as a failed attempt on the step.
    pub failed_attempt: Option<String>,
    /// Steps this decision closes (done, skipped, failed) before acting.
    pub events: Vec<StepEvent>,
    /// The model's raw reply, when a model decided.
    pub reply: Option<String>,
}

impl Decision {
    pub fn new(thought: Thought, action: Action, step: Option<usize>) -> Decision {
        Decision {
            thought,
            action,
            step,
            grounding: None,
            failed_attempt: None,
            events: Vec::new(),
            reply: None,
        }
    }
}

/// How a documented target was found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Grounding {
    /// `false`: found through an alternative path (another label, a More menu, another place).
    pub as_written: bool,
    /// What differs from the page, when something does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finding: Option<Finding>,
}

/// A difference between the documented step and the console, before grading types it as a defect.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    pub kind: FindingKind,
    pub documented: String,
    pub observed: String,
    /// Observation lines the finding rests on.
    pub evidence: Vec<String>,
}

/// What a policy saw; grading turns it into a [`DefectKind`] once it knows how the run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// Another label of the same role in the same place did the job.
    Renamed,
    /// The label exists, but in another place (a More menu, another pane, another page).
    Moved,
    /// The console required something no step documents (a required field).
    Undocumented,
    /// The documented control is nowhere: obsolete if the flow succeeds without it, removed if not.
    Absent,
    /// A documented value or option is not offered; another was used.
    ChangedValue,
}

impl FindingKind {
    /// The defect this finding is when the run ended `succeeded` (or not).
    pub fn defect_kind(self, succeeded: bool) -> DefectKind {
        match self {
            FindingKind::Renamed => DefectKind::RenamedLabel,
            FindingKind::Moved => DefectKind::MovedControl,
            FindingKind::Undocumented => DefectKind::MissingStep,
            FindingKind::Absent if succeeded => DefectKind::ObsoleteStep,
            FindingKind::Absent => DefectKind::RemovedFeature,
            FindingKind::ChangedValue => DefectKind::ChangedValue,
        }
    }
}

/// A change of a documented step's state, announced by a policy.
#[derive(Debug, Clone, PartialEq)]
pub enum StepEvent {
    /// Done (as written unless a grounding said otherwise); `note` says how when no action was needed.
    Done { step: usize, note: Option<String> },
    /// Passed over: the step names nothing the policy could find or act on, so it is not verified.
    Unverified { step: usize, reason: String },
    /// Left out because its target is nowhere and the flow can go on without it.
    Skipped { step: usize, finding: Finding },
    /// Part of the step was left out (its target is nowhere); the rest of it goes on.
    PartlySkipped { step: usize, finding: Finding },
    /// Given up on after every strategy.
    Failed {
        step: usize,
        reason: String,
        finding: Option<Finding>,
    },
}

/// Chooses actions. The episode calls [`Policy::propose`] once per observation.
pub trait Policy {
    /// The next action, or a model request.
    fn propose(&mut self, ctx: &Context<'_>) -> Proposal;

    /// The reply to the last [`Proposal::AskModel`].
    fn reply(&mut self, ctx: &Context<'_>, text: &str, usage: Usage) -> Result<Decision, ParseError> {
        let _ = (ctx, text, usage);
        Err(ParseError::NoAction)
    }

    /// A request asking the model to answer again after `error`.
    fn retry(&mut self, ctx: &Context<'_>, error: &ParseError) -> Option<ModelRequest> {
        let _ = (ctx, error);
        None
    }

    /// A resource arrived (or will not): the policy may change course.
    fn resource_reported(&mut self, available: bool) {
        let _ = available;
    }

    /// Every model call so far, with its usage and cost.
    fn model_calls(&self) -> Vec<ModelCall> {
        Vec::new()
    }
}

/// What `policy` first proposes for a one-page procedure whose console shows `elements`, working
/// on the first step.
#[cfg(test)]
pub(crate) fn first_proposal(policy: &mut dyn Policy, page: &str, elements: Vec<aca_core::Element>) -> Proposal {
    let procedure = aca_docs::parse_markdown(page).expect("the page parses");
    let steps: Vec<Step> = procedure.steps.clone();
    let task = Task::new(procedure);
    let observation = Observation {
        title: "Console".into(),
        elements,
        ..Observation::default()
    };
    let trajectory = Trajectory::default();
    let attempts = vec![0; steps.len()];
    policy.propose(&Context {
        task: &task,
        steps: &steps,
        observation: &observation,
        trajectory: &trajectory,
        current_step: Some(0),
        attempts: &attempts,
        unix_ms: None,
    })
}
