//! Which success rule a run is judged by, where it came from, and how the report states what the
//! audit log said about it.

use aca_core::{Procedure, RuleReport, SuccessRule};

use crate::infer::infer_rule;
use crate::rule::{MatcherHit, RuleMatch};

/// The success rule a run is judged by, and how it was found.
#[derive(Debug, Clone, PartialEq)]
pub struct ChosenRule {
    pub rule: SuccessRule,
    /// For inferred rules: what the inference rests on, for the writer to confirm or correct.
    /// `None` for rules a person wrote or confirmed.
    pub explanation: Option<String>,
}

impl ChosenRule {
    /// A rule the writer saved beside the page wins over the page's written task rule, which wins
    /// over inference from the procedure through the operation catalog. `Err` says why no rule
    /// applies.
    pub fn choose(
        saved: Option<&SuccessRule>,
        written: Option<&SuccessRule>,
        procedure: &Procedure,
    ) -> Result<Self, String> {
        if let Some(rule) = saved.or(written) {
            return Ok(Self {
                rule: rule.clone(),
                explanation: None,
            });
        }
        let inference = infer_rule(procedure);
        match inference.rule {
            Some(rule) => Ok(Self {
                rule,
                explanation: Some(inference.explanation),
            }),
            None => Err(inference.explanation),
        }
    }

    /// The report's rule section: what the audit log showed (`Ok`), or why it could not be read.
    pub fn report(&self, found: Result<&RuleMatch, &str>, waited_ms: u64) -> RuleReport {
        let mut report = RuleReport {
            rule: self.rule.clone(),
            explanation: self.explanation.clone(),
            matched: None,
            matched_events: Vec::new(),
            near_misses: Vec::new(),
            error: None,
            waited_ms,
        };
        match found {
            Ok(found) => {
                report.matched = Some(found.matched);
                report.matched_events = found.matches.iter().map(MatcherHit::summary).collect();
                report.near_misses = found.near_misses.iter().map(|m| m.summary.clone()).collect();
            }
            Err(error) => report.error = Some(error.to_owned()),
        }
        report
    }
}
