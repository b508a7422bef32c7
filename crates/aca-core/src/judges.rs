//! The judge channel's part of a verdict: what each of the two independent judges answered about a
//! run with no audit event to decide it, and the pair's reward.

use serde::{Deserialize, Serialize};

/// The reward when the two judges disagree: the run is invalid, shown in the report and never used
/// for training.
pub const DISAGREEMENT_REWARD: f64 = -1.0;

/// One judge's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeAnswer {
    /// The judge's model as its endpoint names it.
    pub model: String,
    /// The endpoint's base URL (never its key).
    pub endpoint: String,
    /// `Some(true)` the task succeeded, `Some(false)` it did not; `None` when the judge gave no
    /// usable answer (see `error`).
    pub success: Option<bool>,
    /// The judge's reason, in its words.
    #[serde(default)]
    pub reason: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default)]
    pub prompt_tokens: u64,
    #[serde(default)]
    pub completion_tokens: u64,
    /// US dollars, when the judge's price is configured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
}

/// What the judges decided, and why they were asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgesReport {
    /// Why the rule channel could not decide (no ActionTrail-verifiable event for the task).
    pub why_judges: String,
    pub answers: Vec<JudgeAnswer>,
}

/// The pair's decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JudgesDecision {
    /// Both judges said the task succeeded: reward 1.
    Success,
    /// Both said it failed: reward 0.
    Failure,
    /// They disagreed: reward −1, invalid.
    Disagreed,
    /// A judge could not answer: nothing is decided.
    Unanswered,
}

impl JudgesReport {
    pub fn decision(&self) -> JudgesDecision {
        let said: Vec<Option<bool>> = self.answers.iter().map(|a| a.success).collect();
        match said.as_slice() {
            [Some(true), Some(true)] => JudgesDecision::Success,
            [Some(false), Some(false)] => JudgesDecision::Failure,
            [Some(a), Some(b)] if a != b => JudgesDecision::Disagreed,
            _ => JudgesDecision::Unanswered,
        }
    }

    /// 1 both yes, 0 both no, −1 disagreement, `None` when a judge did not answer.
    pub fn reward(&self) -> Option<f64> {
        match self.decision() {
            JudgesDecision::Success => Some(1.0),
            JudgesDecision::Failure => Some(0.0),
            JudgesDecision::Disagreed => Some(DISAGREEMENT_REWARD),
            JudgesDecision::Unanswered => None,
        }
    }

    /// Why no decision came: the judges that failed and how.
    pub fn unanswered(&self) -> Option<String> {
        let failed: Vec<String> = self
            .answers
            .iter()
            .filter(|a| a.success.is_none())
            .map(|a| {
                format!(
                    "judge {} at {}: {}",
                    a.model,
                    a.endpoint,
                    a.error.as_deref().unwrap_or("no answer")
                )
            })
            .collect();
        match (self.answers.len(), failed.is_empty()) {
            (2, true) => None,
            (n, true) => Some(format!("{n} judge(s) answered where two are needed")),
            _ => Some(failed.join("; ")),
        }
    }

    /// The decision in one sentence, with each judge's reason.
    pub fn sentence(&self) -> String {
        let reasons = self
            .answers
            .iter()
            .map(|a| match a.success {
                Some(true) => format!("{} said it succeeded ({})", a.model, a.reason),
                Some(false) => format!("{} said it failed ({})", a.model, a.reason),
                None => format!("{} gave no answer ({})", a.model, a.error.as_deref().unwrap_or("")),
            })
            .collect::<Vec<_>>()
            .join("; ");
        let head = match self.decision() {
            JudgesDecision::Success => "both judges say the documented operation was done",
            JudgesDecision::Failure => "both judges say the documented operation was not done",
            JudgesDecision::Disagreed => "the judges disagree, so the run is invalid (reward −1)",
            JudgesDecision::Unanswered => "the judges could not decide",
        };
        format!("{head}: {reasons}")
    }

    pub fn cost_usd(&self) -> Option<f64> {
        let costs: Vec<f64> = self.answers.iter().filter_map(|a| a.cost_usd).collect();
        (!costs.is_empty()).then(|| costs.iter().sum())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(success: Option<bool>) -> JudgeAnswer {
        JudgeAnswer {
            model: "judge".into(),
            endpoint: "http://127.0.0.1:1/v1".into(),
            success,
            reason: "the list shows the new VPC".into(),
            error: success.is_none().then(|| "HTTP 503".into()),
            prompt_tokens: 10,
            completion_tokens: 2,
            cost_usd: Some(0.5),
        }
    }

    fn pair(a: Option<bool>, b: Option<bool>) -> JudgesReport {
        JudgesReport {
            why_judges: "no event".into(),
            answers: vec![answer(a), answer(b)],
        }
    }

    #[test]
    fn both_yes_is_one_both_no_is_zero_and_disagreement_is_invalid() {
        assert_eq!(pair(Some(true), Some(true)).reward(), Some(1.0));
        assert_eq!(pair(Some(false), Some(false)).reward(), Some(0.0));
        assert_eq!(pair(Some(true), Some(false)).reward(), Some(-1.0));
        assert_eq!(pair(Some(false), Some(true)).decision(), JudgesDecision::Disagreed);
        assert!(pair(Some(true), Some(false)).sentence().contains("invalid"));
    }

    #[test]
    fn a_judge_that_did_not_answer_decides_nothing_and_is_named() {
        let half = pair(Some(true), None);
        assert_eq!(half.reward(), None);
        assert!(half.unanswered().unwrap().contains("HTTP 503"));
        let one = JudgesReport {
            why_judges: String::new(),
            answers: vec![answer(Some(true))],
        };
        assert_eq!(one.decision(), JudgesDecision::Unanswered);
        assert!(one.unanswered().is_some());
        assert_eq!(pair(Some(true), Some(true)).cost_usd(), Some(1.0));
    }
}
