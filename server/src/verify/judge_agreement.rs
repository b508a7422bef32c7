//! How far the judge channel can be trusted: on runs the rule channel decided, how often each judge
//! and the pair said what the audit log showed. Pure: the pairs of answers go in, the figures come
//! out, each ratio with its counts.

use aca_core::{JudgesDecision, JudgesReport};
use serde::{Deserialize, Serialize};

/// One run both channels could decide: what the audit log showed and what the judges answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgedRun {
    pub task: String,
    pub policy: String,
    /// The rule channel's decision: the documented operation is in the audit log.
    pub rule_met: bool,
    pub judges: JudgesReport,
}

/// One judge against the rule channel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeFigures {
    pub model: String,
    /// Runs where this judge answered.
    pub answered: usize,
    /// Of those, runs where its answer was the rule channel's.
    pub agreed: usize,
    pub agreement: Option<f64>,
}

/// Both judges, as the reward uses them, against the rule channel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Agreement {
    /// Runs the rule channel decided and the judges were asked about.
    pub runs: usize,
    pub judges: Vec<JudgeFigures>,
    /// Runs where the pair decided (both answered alike: reward 1 or 0).
    pub pair_decided: usize,
    /// Of those, runs where the pair's decision was the rule channel's.
    pub pair_agreed: usize,
    pub pair_agreement: Option<f64>,
    /// Runs the pair left invalid (−1: the judges disagreed).
    pub pair_disagreed: usize,
    /// Runs where a judge gave no usable answer.
    pub unanswered: usize,
}

pub fn agreement(runs: &[JudgedRun]) -> Agreement {
    let ratio = |part: usize, whole: usize| (whole > 0).then(|| part as f64 / whole as f64);
    let mut judges: Vec<JudgeFigures> = Vec::new();
    let (mut pair_decided, mut pair_agreed, mut pair_disagreed, mut unanswered) = (0, 0, 0, 0);
    for run in runs {
        for (i, answer) in run.judges.answers.iter().enumerate() {
            if judges.len() <= i {
                judges.push(JudgeFigures {
                    model: answer.model.clone(),
                    answered: 0,
                    agreed: 0,
                    agreement: None,
                });
            }
            if let Some(success) = answer.success {
                judges[i].answered += 1;
                judges[i].agreed += usize::from(success == run.rule_met);
            }
        }
        match run.judges.decision() {
            JudgesDecision::Success | JudgesDecision::Failure => {
                pair_decided += 1;
                pair_agreed += usize::from((run.judges.decision() == JudgesDecision::Success) == run.rule_met);
            }
            JudgesDecision::Disagreed => pair_disagreed += 1,
            JudgesDecision::Unanswered => unanswered += 1,
        }
    }
    for judge in &mut judges {
        judge.agreement = ratio(judge.agreed, judge.answered);
    }
    Agreement {
        runs: runs.len(),
        judges,
        pair_decided,
        pair_agreed,
        pair_agreement: ratio(pair_agreed, pair_decided),
        pair_disagreed,
        unanswered,
    }
}

/// The figures as a person reads them.
pub fn render(agreement: &Agreement) -> String {
    let percent = |r: Option<f64>| r.map_or("n/a".to_owned(), |r| format!("{:.1}%", r * 100.0));
    let mut out = format!(
        "judge agreement with the rule channel ({} runs both channels decided)\n",
        agreement.runs
    );
    for judge in &agreement.judges {
        out.push_str(&format!(
            "  judge {:<24} {} ({}/{} answered runs)\n",
            judge.model,
            percent(judge.agreement),
            judge.agreed,
            judge.answered
        ));
    }
    out.push_str(&format!(
        "  the pair                 {} ({}/{} runs the pair decided); invalid (disagreed) {}, unanswered {}\n",
        percent(agreement.pair_agreement),
        agreement.pair_agreed,
        agreement.pair_decided,
        agreement.pair_disagreed,
        agreement.unanswered
    ));
    out
}

#[cfg(test)]
mod tests {
    use aca_core::JudgeAnswer;

    use super::*;

    fn run(rule_met: bool, a: Option<bool>, b: Option<bool>) -> JudgedRun {
        let answer = |model: &str, success: Option<bool>| JudgeAnswer {
            model: model.into(),
            endpoint: "http://127.0.0.1:1/v1".into(),
            success,
            reason: String::new(),
            error: None,
            prompt_tokens: 0,
            completion_tokens: 0,
            cost_usd: None,
        };
        JudgedRun {
            task: "t".into(),
            policy: "scripted".into(),
            rule_met,
            judges: JudgesReport {
                why_judges: String::new(),
                answers: vec![answer("a", a), answer("b", b)],
            },
        }
    }

    #[test]
    fn each_judge_and_the_pair_are_measured_against_the_audit_log() {
        let figures = agreement(&[
            run(true, Some(true), Some(true)),    // pair right
            run(false, Some(false), Some(true)),  // a right, b wrong: invalid
            run(false, Some(true), Some(true)),   // pair wrong
            run(true, Some(true), None),          // b silent
        ]);
        assert_eq!(figures.runs, 4);
        assert_eq!((figures.judges[0].agreed, figures.judges[0].answered), (3, 4));
        assert_eq!((figures.judges[1].agreed, figures.judges[1].answered), (1, 3));
        assert_eq!((figures.pair_agreed, figures.pair_decided), (1, 2));
        assert_eq!(figures.pair_agreement, Some(0.5));
        assert_eq!((figures.pair_disagreed, figures.unanswered), (1, 1));
        let text = render(&figures);
        assert!(text.contains("75.0% (3/4 answered runs)"), "{text}");
        assert!(text.contains("50.0% (1/2 runs the pair decided)"), "{text}");
        assert_eq!(agreement(&[]).pair_agreement, None);
    }
}
