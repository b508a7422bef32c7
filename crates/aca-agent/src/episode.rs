//! The episode state machine: the runtime hands in observations, model replies, action outcomes and
//! resource reports; the episode answers with the next thing to do ([`Next`]).
//!
//! Driving it (the whole protocol):
//!
//! 1. Observe the page and call [`Episode::next`].
//! 2. Perform what comes back, then feed its answer:
//!    - [`Next::Act`]: run the action on the page, call [`Episode::outcome`];
//!    - [`Next::AskModel`]: send the request to the chat endpoint, call [`Episode::model_reply`];
//!    - [`Next::Provision`]: provision, call [`Episode::resource_report`] or
//!      [`Episode::resource_unavailable`];
//!    - [`Next::Observe`]: go back to 1;
//!    - [`Next::Finished`]: stop; grade with [`crate::grade::grade`].
//!
//! The episode reads no clock and performs no I/O; calling an input the episode is not waiting for
//! is an [`EpisodeError`] and changes nothing.

use aca_core::{ActRequest, Action, ActionOutcome, ControlAction, GuiAction, Observation, Step, Trajectory, Turn};
use serde::{Deserialize, Serialize};

use crate::authenticator::MASK;
use crate::model::{ModelRequest, Usage};
use crate::policy::{Context, Decision, Finding, Policy, Proposal, StepEvent};
use crate::task::{ResourceReport, Task};

/// What the runtime must do next.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// Run this action on the page, then call [`Episode::outcome`].
    Act(ActRequest),
    /// Send this request to the chat endpoint, then call [`Episode::model_reply`].
    AskModel(ModelRequest),
    /// Provision what the description asks for, then call [`Episode::resource_report`] or
    /// [`Episode::resource_unavailable`].
    Provision(String),
    /// Observe the page and call [`Episode::next`].
    Observe,
    Finished(EpisodeEnd),
}

/// How an episode ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EpisodeEnd {
    pub reason: EndReason,
    /// Turns taken (actions chosen, control actions included).
    pub turns: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "end", rename_all = "snake_case")]
pub enum EndReason {
    /// The policy called `task_complete`.
    Completed {
        summary: String,
    },
    /// The policy called `task_unachievable`.
    Unachievable {
        reason: String,
    },
    /// Something outside the page stopped the run (a resource could not be provisioned).
    Environment {
        reason: String,
    },
    Agent {
        failure: AgentFailure,
    },
}

/// Why the agent itself could not go on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum AgentFailure {
    TurnLimit {
        turns: u32,
    },
    /// The run took longer than its time limit, on the runtime's clock.
    TimeLimit {
        elapsed_ms: u64,
    },
    /// The same action on the same element, with no page change in between.
    RepeatedAction {
        action: String,
        times: u32,
    },
    /// The model's replies could not be read, retry after retry.
    UnreadableReplies {
        last_error: String,
        tries: u32,
    },
    /// Every strategy failed on one step.
    StepAttemptsExhausted {
        step: String,
        attempts: u32,
    },
    /// The policy could not produce a model request to retry with.
    NoRetry {
        error: String,
    },
    /// The model endpoint refused the request itself, as one whose prompt and `max_tokens` exceed
    /// the model's context: what the model can take is part of the agent.
    ModelRefused {
        reason: String,
    },
}

/// An input the episode was not waiting for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EpisodeError {
    #[error("{input} arrived while the episode waits for {waiting_for}")]
    Unexpected {
        input: &'static str,
        waiting_for: &'static str,
    },
}

/// Where a documented step stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepState {
    NotReached,
    Working,
    Done,
    /// Passed over with nothing acted on: not verified.
    Unverified,
    Skipped,
    Failed,
}

/// What happened to one documented step: the input of grading.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepRecord {
    /// The step's number as the page writes it.
    pub number: String,
    pub state: StepState,
    /// Failed attempts: strategies that did not find or do the step as written.
    pub attempts: u32,
    /// Why each failed attempt failed.
    pub failures: Vec<String>,
    /// Actions taken for the step, in call syntax.
    pub actions: Vec<String>,
    /// `false` once any of its targets was found through an alternative path.
    pub as_written: bool,
    pub findings: Vec<Finding>,
    pub note: Option<String>,
    /// A policy said how the step's targets were found (the scripted policy does; a model and a
    /// person do not): the trajectory grader then takes its findings as hints.
    pub grounded: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    NeedObservation,
    AwaitingModel,
    AwaitingOutcome,
    AwaitingResource,
    Finished,
}

impl State {
    fn describe(self) -> &'static str {
        match self {
            State::NeedObservation => "an observation",
            State::AwaitingModel => "a model reply",
            State::AwaitingOutcome => "an action outcome",
            State::AwaitingResource => "a resource report",
            State::Finished => "nothing (it has finished)",
        }
    }
}

/// One ReAct episode.
pub struct Episode {
    task: Task,
    steps: Vec<Step>,
    policy: Box<dyn Policy>,
    trajectory: Trajectory,
    records: Vec<StepRecord>,
    attempts: Vec<u32>,
    current_step: Option<usize>,
    state: State,
    observation: Observation,
    observation_text: String,
    /// The last GUI action's call syntax, target fingerprint and page text, and how often in a row.
    last_action: Option<(String, String, String)>,
    repeats: u32,
    parse_failures: u32,
    usage: Vec<Usage>,
    /// The runtime's clock: when the episode first heard it, and the latest reading.
    started_ms: Option<u64>,
    now_ms: Option<u64>,
    /// Unix time, where the runtime gives it: for codes an authenticator app would show.
    unix_ms: Option<u64>,
    /// A virtual MFA device's setup key the page has shown: masked in everything recorded.
    setup_key: Option<String>,
    end: Option<EpisodeEnd>,
}

impl std::fmt::Debug for Episode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Episode")
            .field("task", &self.task.procedure.title)
            .field("state", &self.state)
            .field("current_step", &self.current_step)
            .field("turns", &self.trajectory.turns.len())
            .finish()
    }
}

impl Episode {
    pub fn new(task: Task, policy: Box<dyn Policy>) -> Episode {
        let steps: Vec<Step> = task.steps().into_iter().cloned().collect();
        let records = steps
            .iter()
            .map(|s| StepRecord {
                number: s.number.clone(),
                state: StepState::NotReached,
                attempts: 0,
                failures: Vec::new(),
                actions: Vec::new(),
                as_written: true,
                findings: Vec::new(),
                note: None,
                grounded: false,
            })
            .collect();
        Episode {
            trajectory: Trajectory {
                task: task.procedure.title.clone(),
                turns: Vec::new(),
            },
            attempts: vec![0; steps.len()],
            steps,
            task,
            policy,
            records,
            current_step: None,
            state: State::NeedObservation,
            observation: Observation::default(),
            observation_text: String::new(),
            last_action: None,
            repeats: 0,
            parse_failures: 0,
            usage: Vec::new(),
            started_ms: None,
            now_ms: None,
            unix_ms: None,
            setup_key: None,
            end: None,
        }
    }

    pub fn task(&self) -> &Task {
        &self.task
    }
    /// The documented steps and sub-steps in page order; step indices refer to this list.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }
    pub fn trajectory(&self) -> &Trajectory {
        &self.trajectory
    }
    pub fn records(&self) -> &[StepRecord] {
        &self.records
    }
    /// The documented step being worked on.
    pub fn current_step(&self) -> Option<&Step> {
        self.current_step.and_then(|i| self.steps.get(i))
    }
    pub fn end(&self) -> Option<&EpisodeEnd> {
        self.end.as_ref()
    }
    /// Token usage of every model call, in order.
    pub fn usage(&self) -> &[Usage] {
        &self.usage
    }
    /// Every model call with its usage and cost (empty for policies without a model).
    pub fn model_calls(&self) -> Vec<crate::model::ModelCall> {
        self.policy.model_calls()
    }
    /// The last observation handed in.
    pub fn observation(&self) -> &Observation {
        &self.observation
    }

    fn expect(&self, state: State, input: &'static str) -> Result<(), EpisodeError> {
        if self.state == state {
            Ok(())
        } else {
            Err(EpisodeError::Unexpected {
                input,
                waiting_for: self.state.describe(),
            })
        }
    }

    /// The runtime's clock reading, in milliseconds from any fixed origin. The episode reads no
    /// clock itself: a runtime that wants [`crate::Limits::max_duration_ms`] enforced calls this
    /// before each [`Episode::next`]; the first reading starts the episode's time.
    pub fn clock(&mut self, now_ms: u64) {
        self.started_ms.get_or_insert(now_ms);
        self.now_ms = Some(now_ms);
    }

    /// A fresh observation of the page.
    /// Unix time in milliseconds: the runtime that gives it lets the policy act as an
    /// authenticator app (codes of a setup key the page shows).
    pub fn wall_clock(&mut self, unix_ms: u64) {
        self.unix_ms = Some(unix_ms);
    }

    pub fn next(&mut self, observation: Observation) -> Result<Next, EpisodeError> {
        self.expect(State::NeedObservation, "an observation")?;
        if let Some(key) = crate::authenticator::setup_key(&observation) {
            self.setup_key = Some(key);
        }
        self.observation_text = self.masked(&observation.to_text());
        self.observation = observation;
        let turns = self.trajectory.turns.len() as u32;
        if turns >= self.task.limits.max_turns {
            return Ok(self.finish(EndReason::Agent {
                failure: AgentFailure::TurnLimit { turns },
            }));
        }
        if let (Some(limit), Some(start), Some(now)) = (self.task.limits.max_duration_ms, self.started_ms, self.now_ms)
        {
            let elapsed_ms = now.saturating_sub(start);
            if elapsed_ms > limit {
                return Ok(self.finish(EndReason::Agent {
                    failure: AgentFailure::TimeLimit { elapsed_ms },
                }));
            }
        }
        let context = Context {
            task: &self.task,
            steps: &self.steps,
            observation: &self.observation,
            trajectory: &self.trajectory,
            current_step: self.current_step,
            attempts: &self.attempts,
            unix_ms: self.unix_ms,
        };
        match self.policy.propose(&context) {
            Proposal::AskModel(request) => {
                self.state = State::AwaitingModel;
                Ok(Next::AskModel(request))
            }
            Proposal::Act(decision) => Ok(self.decide(*decision)),
        }
    }

    /// The model endpoint refused the request it was sent ([`crate::ModelFailure::Refused`]).
    pub fn model_refused(&mut self, reason: &str) -> Result<Next, EpisodeError> {
        self.expect(State::AwaitingModel, "a refused model request")?;
        Ok(self.finish(EndReason::Agent {
            failure: AgentFailure::ModelRefused {
                reason: reason.to_owned(),
            },
        }))
    }

    /// The chat endpoint's reply to the last [`Next::AskModel`].
    pub fn model_reply(&mut self, text: &str, usage: Usage) -> Result<Next, EpisodeError> {
        self.expect(State::AwaitingModel, "a model reply")?;
        self.usage.push(usage);
        let context = Context {
            task: &self.task,
            steps: &self.steps,
            observation: &self.observation,
            trajectory: &self.trajectory,
            current_step: self.current_step,
            attempts: &self.attempts,
            unix_ms: self.unix_ms,
        };
        match self.policy.reply(&context, text, usage) {
            Ok(mut decision) => {
                self.parse_failures = 0;
                decision.reply = Some(text.to_owned());
                Ok(self.decide(decision))
            }
            Err(error) => {
                self.parse_failures += 1;
                if self.parse_failures > self.task.limits.max_parse_retries {
                    return Ok(self.finish(EndReason::Agent {
                        failure: AgentFailure::UnreadableReplies {
                            last_error: error.to_string(),
                            tries: self.parse_failures,
                        },
                    }));
                }
                match self.policy.retry(&context, &error) {
                    Some(request) => Ok(Next::AskModel(request)),
                    None => Ok(self.finish(EndReason::Agent {
                        failure: AgentFailure::NoRetry {
                            error: error.to_string(),
                        },
                    })),
                }
            }
        }
    }

    /// What happened when the last [`Next::Act`] ran.
    pub fn outcome(&mut self, outcome: ActionOutcome) -> Result<Next, EpisodeError> {
        self.expect(State::AwaitingOutcome, "an action outcome")?;
        let succeeded = outcome.succeeded();
        let failure = match (self.trajectory.turns.last(), self.current_step) {
            (Some(turn), Some(step)) if !succeeded && !outcome.decided_by_person() => Some((
                step,
                format!("{} failed: {}", turn.action.call_syntax(), describe_outcome(&outcome)),
            )),
            _ => None,
        };
        if let Some((step, reason)) = failure {
            self.count_attempt(step, reason);
        }
        if outcome.decided_by_person() {
            // Proposing again what a person passed over or did by hand is no loop of the agent's.
            self.last_action = None;
            self.repeats = 0;
        }
        if let Some(turn) = self.trajectory.turns.last_mut() {
            turn.outcome = Some(outcome);
        }
        self.state = State::NeedObservation;
        Ok(Next::Observe)
    }

    /// Step mode: the person replaced the action of the last [`Next::Act`] with `action`, which is
    /// the one performed and recorded.
    pub fn edit_action(&mut self, action: GuiAction) -> Result<(), EpisodeError> {
        self.expect(State::AwaitingOutcome, "an edited action")?;
        // The trajectory keeps what the person typed into a password box masked, as it keeps the
        // agent's own typing.
        let recorded = self.masked_action(&Action::Gui(action));
        if let Some(turn) = self.trajectory.turns.last_mut() {
            turn.action = recorded;
        }
        Ok(())
    }

    /// The resource asked for by the last [`Next::Provision`] exists now.
    pub fn resource_report(&mut self, report: ResourceReport) -> Result<Next, EpisodeError> {
        self.expect(State::AwaitingResource, "a resource report")?;
        self.task.resource_report = Some(report);
        self.policy.resource_reported(true);
        self.state = State::NeedObservation;
        Ok(Next::Observe)
    }

    /// The resource asked for cannot be provisioned: the run ends as an environment failure.
    pub fn resource_unavailable(&mut self, reason: &str) -> Result<Next, EpisodeError> {
        self.expect(State::AwaitingResource, "a resource report")?;
        self.policy.resource_reported(false);
        Ok(self.finish(EndReason::Environment {
            reason: reason.to_owned(),
        }))
    }

    fn count_attempt(&mut self, step: usize, reason: String) {
        if let (Some(count), Some(record)) = (self.attempts.get_mut(step), self.records.get_mut(step)) {
            *count += 1;
            record.attempts = *count;
            record.failures.push(reason);
        }
    }

    fn apply_event(&mut self, event: StepEvent) {
        let step = match &event {
            StepEvent::Done { step, .. }
            | StepEvent::Unverified { step, .. }
            | StepEvent::Skipped { step, .. }
            | StepEvent::PartlySkipped { step, .. }
            | StepEvent::Failed { step, .. } => *step,
        };
        if let Some(record) = self.records.get_mut(step) {
            record.grounded = true;
        }
        match event {
            StepEvent::Done { step, note } => {
                // A step found unverified stays so, whatever was done after (a form the page
                // leaves implicit, submitted at its end).
                if let Some(record) = self.records.get_mut(step).filter(|r| r.state != StepState::Unverified) {
                    record.state = StepState::Done;
                    if note.is_some() {
                        record.note = note;
                    }
                }
            }
            StepEvent::Unverified { step, reason } => {
                if let Some(record) = self.records.get_mut(step) {
                    record.state = StepState::Unverified;
                    record.note = Some(reason);
                }
            }
            StepEvent::Skipped { step, finding } => {
                if let Some(record) = self.records.get_mut(step) {
                    record.state = StepState::Skipped;
                    record.as_written = false;
                    record.findings.push(finding);
                }
            }
            StepEvent::PartlySkipped { step, finding } => {
                if let Some(record) = self.records.get_mut(step) {
                    record.as_written = false;
                    record.findings.push(finding);
                }
            }
            StepEvent::Failed { step, reason, finding } => {
                if let Some(record) = self.records.get_mut(step) {
                    record.state = StepState::Failed;
                    record.note = Some(reason);
                    record.findings.extend(finding);
                }
            }
        }
    }

    /// Moves the current step to `step`. Steps before it that were worked on are done; one passed
    /// over is done when it asks for nothing on the page (a model that moves on from "Log on to
    /// the console" or a navigation already made), and not verified when it asks for a click, a
    /// value or a confirmation that nobody made: its controls may not be there at all.
    fn enter_step(&mut self, step: usize) {
        if self.current_step == Some(step) {
            return;
        }
        for (record, documented) in self.records.iter_mut().zip(&self.steps).take(step) {
            match record.state {
                StepState::Working => record.state = StepState::Done,
                StepState::NotReached if asks_for_page_work(documented) => {
                    record.state = StepState::Unverified;
                    record.note = Some("passed over: nothing the step asks for was acted on".into());
                }
                StepState::NotReached => {
                    record.state = StepState::Done;
                    record.note.get_or_insert_with(|| "no action of its own".into());
                }
                StepState::Done | StepState::Unverified | StepState::Skipped | StepState::Failed => {}
            }
        }
        if let Some(record) = self.records.get_mut(step)
            && record.state == StepState::NotReached
        {
            record.state = StepState::Working;
        }
        self.current_step = Some(step);
    }

    fn decide(&mut self, decision: Decision) -> Next {
        for event in decision.events.clone() {
            self.apply_event(event);
        }
        let recorded = self.recorded(&decision);
        if let Some(step) = decision.step {
            self.enter_step(step);
            if let Some(reason) = &decision.failed_attempt {
                self.count_attempt(step, reason.clone());
                let attempts = self.attempts.get(step).copied().unwrap_or(0);
                if attempts > self.task.limits.max_step_attempts {
                    let number = self.steps.get(step).map(|s| s.number.clone()).unwrap_or_default();
                    self.push_turn(&recorded);
                    return self.finish(EndReason::Agent {
                        failure: AgentFailure::StepAttemptsExhausted { step: number, attempts },
                    });
                }
            }
            if let Some(record) = self.records.get_mut(step) {
                if let Some(grounding) = &decision.grounding {
                    record.grounded = true;
                    record.as_written &= grounding.as_written;
                    if let Some(finding) = &grounding.finding
                        && !record.findings.contains(finding)
                    {
                        record.findings.push(finding.clone());
                    }
                }
                if matches!(decision.action, Action::Gui(_)) {
                    record.actions.push(recorded.action.call_syntax());
                }
            }
        }
        match &decision.action {
            Action::Gui(gui) => {
                let fingerprint = gui
                    .index()
                    .and_then(|i| self.observation.element(i))
                    .map(|e| e.fingerprint.clone());
                let key = (
                    decision.action.call_syntax(),
                    fingerprint.as_ref().map(|f| format!("{f:?}")).unwrap_or_default(),
                    self.observation_text.clone(),
                );
                if self.last_action.as_ref() == Some(&key) {
                    self.repeats += 1;
                } else {
                    self.repeats = 1;
                    self.last_action = Some(key);
                }
                self.push_turn(&recorded);
                if self.repeats >= self.task.limits.max_repeats {
                    return self.finish(EndReason::Agent {
                        failure: AgentFailure::RepeatedAction {
                            action: decision.action.call_syntax(),
                            times: self.repeats,
                        },
                    });
                }
                self.state = State::AwaitingOutcome;
                Next::Act(ActRequest {
                    action: gui.clone(),
                    fingerprint,
                    timeout_ms: self.task.limits.action_timeout_ms,
                })
            }
            Action::Control(control) => {
                self.push_turn(&recorded);
                match control {
                    ControlAction::RequestResource { description } => {
                        self.state = State::AwaitingResource;
                        Next::Provision(description.clone())
                    }
                    ControlAction::TaskComplete { summary } => {
                        if let Some(record) = self.current_step.and_then(|s| self.records.get_mut(s))
                            && record.state == StepState::Working
                        {
                            record.state = StepState::Done;
                        }
                        self.finish(EndReason::Completed {
                            summary: summary.clone(),
                        })
                    }
                    ControlAction::TaskUnachievable { reason } => {
                        self.finish(EndReason::Unachievable { reason: reason.clone() })
                    }
                }
            }
        }
    }

    /// Text with the setup key the page showed masked.
    fn masked(&self, text: &str) -> String {
        match &self.setup_key {
            Some(key) => crate::authenticator::masked(text, key),
            None => text.to_owned(),
        }
    }

    /// The decision as the record keeps it: text typed into a password box is masked in the
    /// action, the thought and the model's reply (the action carried out keeps it); a setup key
    /// the page showed is masked in the thought and the reply.
    fn recorded(&self, decision: &Decision) -> Decision {
        let mut recorded = decision.clone();
        let thought = &mut recorded.thought;
        for part in [&mut thought.progress, &mut thought.observation, &mut thought.next_goal] {
            *part = self.masked(part);
        }
        if let Some(reply) = &mut recorded.reply {
            *reply = self.masked(reply);
        }
        let Some(secret) = self.typed_secret(&decision.action) else {
            return recorded;
        };
        recorded.action = self.masked_action(&decision.action);
        let thought = &mut recorded.thought;
        for part in [&mut thought.progress, &mut thought.observation, &mut thought.next_goal] {
            *part = part.replace(secret, MASK);
        }
        if let Some(reply) = &mut recorded.reply {
            *reply = reply.replace(secret, MASK);
        }
        recorded
    }

    /// The text `action` types into a password box of the current page, if it does.
    fn typed_secret<'a>(&self, action: &'a Action) -> Option<&'a str> {
        match action {
            Action::Gui(GuiAction::Type { index, text, .. })
                if !text.is_empty() && self.observation.element(*index).is_some_and(|e| e.state.secret) =>
            {
                Some(text)
            }
            _ => None,
        }
    }

    /// `action` and the words about it (`about`, a proposal's reason) as a record keeps them: text
    /// typed into a password box of the current page masked.
    pub fn masked_for_record(&self, action: &Action, about: &str) -> (Action, String) {
        let Some(secret) = self.typed_secret(action) else {
            return (action.clone(), self.masked(about));
        };
        (self.masked_action(action), self.masked(&about.replace(secret, MASK)))
    }

    fn masked_action(&self, action: &Action) -> Action {
        let mut masked = action.clone();
        if let Action::Gui(GuiAction::Type { text, .. }) = &mut masked
            && self.typed_secret(action).is_some()
        {
            *text = MASK.to_owned();
        }
        masked
    }

    /// Records a decision already passed through [`Episode::recorded`].
    fn push_turn(&mut self, decision: &Decision) {
        self.trajectory.turns.push(Turn {
            step: decision
                .step
                .or(self.current_step)
                .and_then(|s| self.steps.get(s))
                .map(|s| s.number.clone()),
            observation: self.observation_text.clone(),
            thought: decision.thought.clone(),
            action: decision.action.clone(),
            outcome: None,
            reply: decision.reply.clone(),
        });
    }

    fn finish(&mut self, reason: EndReason) -> Next {
        let end = EpisodeEnd {
            reason,
            turns: self.trajectory.turns.len() as u32,
        };
        self.state = State::Finished;
        self.end = Some(end.clone());
        Next::Finished(end)
    }
}

/// An outcome in a few words, for failure notes and the history the model reads.
pub fn describe_outcome(outcome: &ActionOutcome) -> String {
    use aca_core::NotActionable;
    match outcome {
        ActionOutcome::Done { reresolved: false } => "done".into(),
        ActionOutcome::Done { reresolved: true } => "done (element found again after a re-render)".into(),
        ActionOutcome::Navigated { url } => format!("navigated to {url}"),
        ActionOutcome::ElementNotFound { index } => format!("element [{index}] not found"),
        ActionOutcome::NotActionable { index, reason } => {
            let why = match reason {
                NotActionable::Disabled { reason: Some(r) } => {
                    format!("disabled ({})", aca_core::observation::quote(r))
                }
                NotActionable::Disabled { reason: None } => "disabled".into(),
                NotActionable::Hidden => "hidden".into(),
                NotActionable::Covered { by } => format!("covered by {}", aca_core::observation::quote(by)),
                NotActionable::Readonly => "read-only".into(),
                NotActionable::WrongKind { expected } => format!("not a {expected}"),
                NotActionable::NoSuchOption { option, available } => {
                    let options: Vec<String> = available.iter().map(|o| aca_core::observation::quote(o)).collect();
                    format!(
                        "no option {}; options: {}",
                        aca_core::observation::quote(option),
                        options.join(", ")
                    )
                }
            };
            format!("element [{index}] {why}")
        }
        ActionOutcome::Timeout { waited_ms, waiting_for } => {
            format!("timed out after {waited_ms} ms waiting for {waiting_for}")
        }
        ActionOutcome::Failed { message } => format!("failed: {message}"),
        ActionOutcome::Skipped => "skipped by the person".into(),
        ActionOutcome::TakenOver { .. } => "the person acted on the page instead".into(),
    }
}
/// Whether a step asks for something done on the page (a click, a value, a choice, a
/// confirmation) itself, as opposed to opening the console, navigating, finding or choosing a
/// region, which the page may already show, or leaving the work to its substeps.
fn asks_for_page_work(step: &Step) -> bool {
    use aca_core::StepAction;
    step.opens_console.is_none()
        && !step.optional
        && step.substeps.is_empty()
        && (!step.values.is_empty()
            || step.actions.iter().any(|a| {
                matches!(
                    a,
                    StepAction::Click
                        | StepAction::Enter
                        | StepAction::Select
                        | StepAction::Configure
                        | StepAction::Confirm
                )
            }))
}
