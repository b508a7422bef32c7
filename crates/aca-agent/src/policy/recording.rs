//! A policy wrapper that records, at every decided turn, the messages the LLM policy is given there:
//! what a training sample pairs with the teacher's reply.

use std::sync::{Arc, Mutex};

use super::{Context, Decision, Finding, Policy, Proposal, StepEvent};
use crate::model::{ChatMessage, ModelCall, ModelRequest, Usage};
use crate::parse::ParseError;
use crate::prompt;

/// One decided turn as the recorder saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedTurn {
    /// The turn's index in the trajectory: the turn this decision became.
    pub turn: usize,
    /// `prompt::messages` of the turn's context, before any retry after an unreadable reply.
    pub messages: Vec<ChatMessage>,
    /// Differences from the page the decision reported, with the documented step's number.
    pub findings: Vec<(String, Finding)>,
}

/// The recorded turns of one run, shared between the wrapper (inside the episode) and the runtime.
#[derive(Debug, Clone, Default)]
pub struct Recordings(Arc<Mutex<Vec<RecordedTurn>>>);

impl Recordings {
    /// The turns recorded so far, in order; the store is left empty.
    pub fn take(&self) -> Vec<RecordedTurn> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
    }

    fn push(&self, turn: RecordedTurn) {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .push(turn);
    }
}

/// Wraps a policy and records each of its decisions into [`Recordings`]; it decides nothing itself.
pub struct Recording {
    inner: Box<dyn Policy>,
    recordings: Recordings,
    /// The messages of a model request whose reply has not come yet.
    asked: Option<(usize, Vec<ChatMessage>)>,
}

impl std::fmt::Debug for Recording {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recording")
            .field("asked", &self.asked.is_some())
            .finish()
    }
}

impl Recording {
    pub fn new(inner: Box<dyn Policy>, recordings: Recordings) -> Recording {
        Recording {
            inner,
            recordings,
            asked: None,
        }
    }

    fn record(&self, turn: usize, messages: Vec<ChatMessage>, ctx: &Context<'_>, decision: &Decision) {
        let number = |step: usize| ctx.steps.get(step).map(|s| s.number.clone()).unwrap_or_default();
        let mut findings: Vec<(String, Finding)> = Vec::new();
        for event in &decision.events {
            match event {
                StepEvent::Skipped { step, finding } | StepEvent::PartlySkipped { step, finding } => {
                    findings.push((number(*step), finding.clone()));
                }
                StepEvent::Failed {
                    step,
                    finding: Some(finding),
                    ..
                } => findings.push((number(*step), finding.clone())),
                _ => {}
            }
        }
        if let (Some(step), Some(finding)) = (
            decision.step.or(ctx.current_step),
            decision.grounding.as_ref().and_then(|g| g.finding.as_ref()),
        ) {
            findings.push((number(step), finding.clone()));
        }
        self.recordings.push(RecordedTurn {
            turn,
            messages,
            findings,
        });
    }
}

impl Policy for Recording {
    fn propose(&mut self, ctx: &Context<'_>) -> Proposal {
        let turn = ctx.trajectory.turns.len();
        let messages = prompt::messages(ctx);
        let proposal = self.inner.propose(ctx);
        match &proposal {
            Proposal::Act(decision) => self.record(turn, messages, ctx, decision),
            Proposal::AskModel(_) => self.asked = Some((turn, messages)),
        }
        proposal
    }

    fn reply(&mut self, ctx: &Context<'_>, text: &str, usage: Usage) -> Result<Decision, ParseError> {
        let decision = self.inner.reply(ctx, text, usage)?;
        if let Some((turn, messages)) = self.asked.take() {
            self.record(turn, messages, ctx, &decision);
        }
        Ok(decision)
    }

    fn retry(&mut self, ctx: &Context<'_>, error: &ParseError) -> Option<ModelRequest> {
        self.inner.retry(ctx, error)
    }

    fn resource_reported(&mut self, available: bool) {
        self.inner.resource_reported(available);
    }

    fn model_calls(&self) -> Vec<ModelCall> {
        self.inner.model_calls()
    }
}
