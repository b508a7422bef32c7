//! The verdict: pass, doc_defect, environment_failure, agent_failure or unverified, from the grades,
//! the defects, how the episode ended and the rule channel's result.

use aca_core::{Defect, StepGrade, Verdict};

use crate::episode::EndReason;
use crate::grade::RuleResult;

/// Decides one run.
///
/// - A run stopped by its environment (nothing to act on) is an environment failure, whatever else.
/// - A run the agent could not finish (turn limit, repeats, unreadable replies) is an agent failure.
/// - Defects make a doc defect: the page drifted, however the run ended otherwise.
/// - Without defects: a completed run is a pass when the rule matched, unverified when no rule
///   applies, and an agent failure when the rule did not match or the agent gave up.
pub fn decide(grades: &[StepGrade], defects: &[Defect], end: &EndReason, rule: &RuleResult) -> Verdict {
    let _ = grades;
    match end {
        EndReason::Environment { .. } => Verdict::EnvironmentFailure,
        EndReason::Agent { .. } => Verdict::AgentFailure,
        _ if !defects.is_empty() => Verdict::DocDefect,
        EndReason::Unachievable { .. } => Verdict::AgentFailure,
        EndReason::Completed { .. } => match rule.matched {
            Some(true) => Verdict::Pass,
            None => Verdict::Unverified,
            Some(false) => Verdict::AgentFailure,
        },
    }
}
