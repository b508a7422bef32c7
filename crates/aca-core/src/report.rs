//! The verification report: what a writer reads (HTML) and machines store (JSON).

use serde::{Deserialize, Serialize};

use crate::episode::Turn;
use crate::rule::SuccessRule;
use crate::verdict::{Defect, StepGrade, Verdict};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The page's path or URL.
    pub page: String,
    pub title: String,
    /// The UI profile the page says it was written for, when it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub written_for: Option<String>,
    pub console: ConsoleRun,
    /// `scripted`, or `llm:<model>`.
    pub policy: String,
    pub verdict: Verdict,
    /// One sentence a writer reads first.
    pub summary: String,
    pub steps: Vec<StepReport>,
    #[serde(default)]
    pub defects: Vec<Defect>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<RuleReport>,
    /// The judge channel's answers, when the task has no audit event to decide it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judges: Option<crate::JudgesReport>,
    /// What was provisioned for the run, as the agent was told.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<String>,
    #[serde(default)]
    pub turns: Vec<Turn>,
    /// Step mode: what the person decided about each proposed action and what became of it (the
    /// action performed, a skip, a take-over with what the audit log recorded meanwhile), oldest
    /// first; empty for a run nobody stepped through.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decisions: Vec<crate::step_mode::StepRecord>,
    /// Screenshots with marks, relative to the report's folder.
    #[serde(default)]
    pub screenshots: Vec<Screenshot>,
    #[serde(default)]
    pub usage: ModelUsage,
    /// RFC 3339.
    pub started_at: String,
    pub duration_ms: u64,
    /// Why the run ended early (environment or agent failure), in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
}

impl Report {
    /// The marked screenshot that shows `defect`: its own, else the page its turn (1-based) acted
    /// on, which is the screenshot taken after the turn before it, else the turn's own.
    pub fn screenshot_of<'a>(&'a self, defect: &'a crate::Defect) -> Option<&'a str> {
        if let Some(own) = defect.evidence.screenshot.as_deref() {
            return Some(own);
        }
        let turn = defect.evidence.turn? as usize;
        let shot = |index: usize| {
            self.screenshots
                .iter()
                .find(|s| s.turn == index)
                .map(|s| s.path.as_str())
        };
        turn.checked_sub(2)
            .and_then(shot)
            .or_else(|| turn.checked_sub(1).and_then(shot))
    }

    /// Adds a cause to the report's failure, after the one already there.
    pub fn add_failure(&mut self, note: impl Into<String>) {
        let note = note.into();
        self.failure = Some(match self.failure.take() {
            Some(f) => format!("{f}; {note}"),
            None => note,
        });
    }

    /// The reward could not be decided because the environment failed (`why`: the audit log could
    /// not be read, a judge did not answer): nothing the reward decides stands, so a verdict that
    /// rested on it becomes the environment's failure. Defects found in the console stay.
    pub fn reward_unread(&mut self, why: &str) {
        if matches!(
            self.verdict,
            Verdict::Pass | Verdict::Unverified | Verdict::AgentFailure
        ) {
            self.verdict = Verdict::EnvironmentFailure;
        }
        self.add_failure(why);
    }

    /// The sentence of a passing run: the operation happened, and whether every step was verified
    /// on the way (a step passed over with nothing acted on proves nothing about the page).
    pub fn pass_summary(&self) -> String {
        let unverified: Vec<&str> = self
            .steps
            .iter()
            .filter(|s| !s.grade.verified)
            .map(|s| s.grade.step.as_str())
            .collect();
        let evidence = match (&self.rule, &self.judges) {
            (None, Some(_)) => "both judges say the operation was done",
            _ => "the audit log shows the operation",
        };
        if unverified.is_empty() {
            format!("The procedure ran as written and {evidence}.")
        } else {
            let mut sentence = format!(
                "{evidence}, but the page was not fully verified: nothing in step(s) {} could be found or acted on.",
                unverified.join(", ")
            );
            sentence[..1].make_ascii_uppercase();
            sentence
        }
    }
}

/// Where the run happened.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ConsoleRun {
    pub url: String,
    /// The console's UI profile when it is the bundled emulator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
    pub region: String,
}

/// A documented step with its grade.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepReport {
    /// The step's sentence as the page writes it.
    pub text: String,
    pub grade: StepGrade,
    /// What the model calls that decided for this step cost, when a model decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelUsage>,
}

/// The rule channel's part of the verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuleReport {
    pub rule: SuccessRule,
    /// How an inferred rule was found, so the writer can confirm or correct it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
    /// `None` when the audit log could not be read.
    pub matched: Option<bool>,
    #[serde(default)]
    pub matched_events: Vec<EventSummary>,
    /// Events that came close, and why they did not match.
    #[serde(default)]
    pub near_misses: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub waited_ms: u64,
}

/// The fields of an audit event a report shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventSummary {
    pub event_id: String,
    pub event_name: String,
    pub service_name: String,
    pub event_type: String,
    pub event_time: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Screenshot {
    /// The turn (0-based) after whose action it was taken.
    pub turn: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
    pub path: String,
}

/// What the model cost over the run (or over one step).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelUsage {
    pub calls: u32,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// The screenshots' share of `prompt_tokens`, where the endpoint counts it apart.
    #[serde(default)]
    pub image_tokens: u64,
    /// Screenshots sent to the model.
    #[serde(default)]
    pub images: u32,
    /// `None` when the model's price is unknown (or no model was used).
    pub cost_usd: Option<f64>,
}
