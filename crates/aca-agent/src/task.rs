//! What one episode is asked to do: a [`Task`] of a procedure, an optional resource report and the
//! [`Limits`] that end runaway episodes.

use std::collections::BTreeMap;

use aca_core::{Procedure, Step};
use serde::{Deserialize, Serialize};

/// One verification task as the episode sees it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Task {
    pub procedure: Procedure,
    /// What was provisioned before the episode started, if anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_report: Option<ResourceReport>,
    /// Run-time values the page's `${name}` placeholders stand for (the run's unique suffix, …).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub bindings: BTreeMap<String, String>,
    #[serde(default)]
    pub limits: Limits,
}

/// A structured report of provisioned resources, injected into the prompt and used to find rows.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ResourceReport {
    /// What exists, as the provisioner describes it (ids, names, key attributes).
    pub text: String,
    /// Names and ids of the resources, as their table rows show them.
    #[serde(default)]
    pub names: Vec<String>,
    /// Secrets the run made for the resources, by placeholder (their values stay with the driver).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secrets: Vec<aca_core::SecretRef>,
}

/// Bounds on one episode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Limits {
    /// GUI and control actions together.
    pub max_turns: u32,
    /// Malformed model replies in a row before the episode gives up.
    pub max_parse_retries: u32,
    /// The same action on the same element with no page change this many times ends the episode.
    pub max_repeats: u32,
    /// Failed attempts on one documented step, all its targets together, before the episode ends
    /// as an agent failure: a hard stop above the policy's own bound.
    pub max_step_attempts: u32,
    /// Failed attempts on one target of a step (each a different strategy) before the scripted
    /// policy gives the target up.
    pub max_target_attempts: u32,
    /// Recent turns shown to the model.
    pub history_turns: usize,
    /// How long the page side may wait for an element and for the page to settle, per action.
    pub action_timeout_ms: u32,
    /// Wall-clock bound on the whole episode, measured on the clock the runtime hands in
    /// ([`crate::Episode::clock`]); `None`: no bound.
    pub max_duration_ms: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_turns: 40,
            max_parse_retries: 3,
            max_repeats: 3,
            max_step_attempts: 10,
            max_target_attempts: 4,
            history_turns: 8,
            action_timeout_ms: 5_000,
            max_duration_ms: None,
        }
    }
}

impl Task {
    pub fn new(procedure: Procedure) -> Task {
        Task {
            procedure,
            ..Task::default()
        }
    }

    /// Every documented step and sub-step, in page order.
    pub fn steps(&self) -> Vec<&Step> {
        self.procedure.steps.iter().flat_map(Step::flatten).collect()
    }

    /// `text` with each `${name}` replaced by its binding (unknown names stay as written).
    pub fn substitute(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for (name, value) in &self.bindings {
            out = out.replace(&format!("${{{name}}}"), value);
        }
        out
    }
}
