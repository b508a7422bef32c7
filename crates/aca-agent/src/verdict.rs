//! The verdict: pass, doc_defect, environment_failure, agent_failure or unverified, from the grades,
//! the defects, how the episode ended and the rule channel's result.

use aca_core::{Defect, StepGrade, StepStatus, Verdict};

use crate::episode::EndReason;
use crate::grade::RuleResult;

/// Decides one run.
///
/// - A run stopped by its environment (nothing to act on) is an environment failure, whatever else.
/// - A run the agent could not finish (turn limit, repeats, unreadable replies) is an agent failure.
/// - Defects make a doc defect: the page drifted, however the run ended otherwise.
/// - Without defects: a completed run is a pass when the rule matched, unverified when no rule
///   applies, and an agent failure when the rule did not match, the agent gave up, or it called the
///   task complete with a step it failed.
pub fn decide(grades: &[StepGrade], defects: &[Defect], end: &EndReason, rule: &RuleResult) -> Verdict {
    match end {
        EndReason::Environment { .. } => Verdict::EnvironmentFailure,
        EndReason::Agent { .. } => Verdict::AgentFailure,
        _ if !defects.is_empty() => Verdict::DocDefect,
        EndReason::Unachievable { .. } => Verdict::AgentFailure,
        EndReason::Completed { .. } if grades.iter().any(|g| g.status == StepStatus::Fail) => Verdict::AgentFailure,
        EndReason::Completed { .. } => match rule.matched {
            Some(true) => Verdict::Pass,
            None => Verdict::Unverified,
            Some(false) => Verdict::AgentFailure,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::episode::AgentFailure;
    use aca_core::{DefectKind, Evidence};

    fn grade(status: StepStatus) -> StepGrade {
        StepGrade {
            verified: true,
            step: "1".into(),
            status,
            alternative_path: false,
            actions: vec![],
            note: None,
        }
    }

    fn defect() -> Defect {
        Defect {
            kind: DefectKind::RenamedLabel,
            step: "1".into(),
            documented: "OK".into(),
            observed: "Confirm".into(),
            confidence: aca_core::Confidence::Confirmed,
            evidence: Evidence::default(),
        }
    }

    fn rule(matched: Option<bool>) -> RuleResult {
        RuleResult {
            matched,
            events: vec![],
        }
    }

    #[test]
    fn every_ending_has_its_verdict() {
        let completed = EndReason::Completed { summary: String::new() };
        let pass = [grade(StepStatus::Pass)];
        assert_eq!(decide(&pass, &[], &completed, &rule(Some(true))), Verdict::Pass);
        assert_eq!(decide(&pass, &[], &completed, &rule(None)), Verdict::Unverified);
        assert_eq!(
            decide(&pass, &[], &completed, &rule(Some(false))),
            Verdict::AgentFailure
        );
        assert_eq!(
            decide(&pass, &[defect()], &completed, &rule(Some(true))),
            Verdict::DocDefect
        );
        assert_eq!(decide(&pass, &[defect()], &completed, &rule(None)), Verdict::DocDefect);
        assert_eq!(
            decide(&[grade(StepStatus::Fail)], &[], &completed, &rule(Some(true))),
            Verdict::AgentFailure
        );
        let unachievable = EndReason::Unachievable { reason: "x".into() };
        assert_eq!(
            decide(&pass, &[defect()], &unachievable, &rule(None)),
            Verdict::DocDefect
        );
        assert_eq!(decide(&pass, &[], &unachievable, &rule(None)), Verdict::AgentFailure);
        let environment = EndReason::Environment { reason: "x".into() };
        assert_eq!(
            decide(&pass, &[defect()], &environment, &rule(None)),
            Verdict::EnvironmentFailure
        );
        let agent = EndReason::Agent {
            failure: AgentFailure::TurnLimit { turns: 40 },
        };
        assert_eq!(
            decide(&pass, &[defect()], &agent, &rule(Some(true))),
            Verdict::AgentFailure
        );
    }
}
