//! An episode's report as a GRPO reward: 1 when the reward service confirmed the documented
//! operation (the audit log's rule matched, or both judges said so), 0 when it confirmed it did not
//! happen; invalid when the judges disagreed; never a score when the environment failed.

use aca_core::{JudgesDecision, Report, Verdict};
use aca_train::grpo::advantage::RolloutReward;

/// The reward of an episode that ended with `report` (`None`: it errored before its report, with `error`).
pub fn reward_of(report: Option<&Report>, error: Option<&str>) -> RolloutReward {
    let Some(report) = report else {
        return RolloutReward::Environment(error.unwrap_or("the run ended before its report").to_owned());
    };
    if report.verdict == Verdict::EnvironmentFailure {
        return RolloutReward::Environment(
            report
                .failure
                .clone()
                .unwrap_or_else(|| "the environment failed".to_owned()),
        );
    }
    if let Some(matched) = report.rule.as_ref().and_then(|r| r.matched) {
        return RolloutReward::Scored(if matched { 1.0 } else { 0.0 });
    }
    match report.judges.as_ref().map(|j| j.decision()) {
        Some(JudgesDecision::Success) => RolloutReward::Scored(1.0),
        Some(JudgesDecision::Failure) => RolloutReward::Scored(0.0),
        Some(JudgesDecision::Disagreed) => RolloutReward::Invalid,
        Some(JudgesDecision::Unanswered) => RolloutReward::Environment("a judge did not answer".to_owned()),
        // No rule and no judges: the episode's outcome is not known, so it is not scored.
        None => RolloutReward::Environment("neither the audit log nor the judges decided the run".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use aca_core::{ConsoleRun, JudgeAnswer, JudgesReport, RuleReport};

    use super::*;

    fn report(verdict: Verdict) -> Report {
        Report {
            verdict,
            ..aca_run::report::not_run(
                "Create a VPC",
                "not run".into(),
                aca_run::RunFacts {
                    page: "vpc/create-vpc.md".into(),
                    title: "Create a VPC".into(),
                    written_for: None,
                    console: ConsoleRun::default(),
                    policy: "llm:policy".into(),
                    started_at: String::new(),
                    duration_ms: 0,
                },
            )
        }
    }

    fn rule(matched: bool) -> RuleReport {
        RuleReport {
            rule: aca_core::SuccessRule::default(),
            explanation: None,
            matched: Some(matched),
            matched_events: Vec::new(),
            near_misses: Vec::new(),
            error: None,
            waited_ms: 0,
        }
    }

    #[test]
    fn the_rule_scores_the_judges_decide_without_it_and_the_environment_never_scores() {
        assert_eq!(
            reward_of(None, Some("chromium crashed")),
            RolloutReward::Environment("chromium crashed".into())
        );
        let mut failed = report(Verdict::EnvironmentFailure);
        failed.failure = Some("quota".into());
        assert_eq!(
            reward_of(Some(&failed), None),
            RolloutReward::Environment("quota".into())
        );

        let mut matched = report(Verdict::Pass);
        matched.rule = Some(rule(true));
        assert_eq!(reward_of(Some(&matched), None), RolloutReward::Scored(1.0));
        let mut missed = report(Verdict::AgentFailure);
        missed.rule = Some(rule(false));
        assert_eq!(reward_of(Some(&missed), None), RolloutReward::Scored(0.0));

        let judged = |a: bool, b: Option<bool>| {
            let mut r = report(Verdict::Unverified);
            r.judges = Some(JudgesReport {
                why_judges: "no event".into(),
                answers: [Some(a), b]
                    .into_iter()
                    .enumerate()
                    .map(|(i, success)| JudgeAnswer {
                        model: format!("judge-{i}"),
                        endpoint: "http://127.0.0.1:9/v1".into(),
                        success,
                        reason: String::new(),
                        error: None,
                        prompt_tokens: 0,
                        completion_tokens: 0,
                        cost_usd: None,
                    })
                    .collect(),
            });
            reward_of(Some(&r), None)
        };
        assert_eq!(judged(true, Some(true)), RolloutReward::Scored(1.0));
        assert_eq!(judged(false, Some(false)), RolloutReward::Scored(0.0));
        assert_eq!(judged(true, Some(false)), RolloutReward::Invalid);
        assert!(matches!(judged(true, None), RolloutReward::Environment(_)));
        assert!(matches!(
            reward_of(Some(&report(Verdict::Unverified)), None),
            RolloutReward::Environment(_)
        ));
    }
}
