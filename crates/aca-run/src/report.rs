//! The one report of a verification run, in aca-core's [`Report`] format (`report.json` of `aca verify`,
//! the side panel's report): the episode graded against what the rule channel found, a verdict, and
//! the sentence a writer reads first.

use aca_agent::episode::describe_outcome;
use aca_agent::{EndReason, Episode, ModelCall, RuleResult, Usage};
use aca_core::{
    Confidence, ConsoleRun, JudgesDecision, JudgesReport, ModelUsage, Report, RuleReport, Step, StepReport, Turn,
    Verdict,
};
use aca_reward::{JudgeCase, JudgedTurn};

/// What the run knows beside the episode.
#[derive(Debug, Clone, PartialEq)]
pub struct RunFacts {
    /// The documentation page's URL.
    pub page: String,
    pub title: String,
    /// The console release the page was written for, when its sidecar says.
    pub written_for: Option<String>,
    pub console: ConsoleRun,
    /// `scripted`, or `llm:<model>`.
    pub policy: String,
    /// RFC 3339.
    pub started_at: String,
    pub duration_ms: u64,
}

/// Why the episode did not run to its own end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Interruption {
    /// The person pressed Stop.
    Stopped { at_turn: usize },
    /// The console, the browser, the page side or the model server failed: the message says how.
    Failed(String),
}

/// Grades `episode` against the rule channel's result (`Err`: why no rule applies; then `judges`
/// decide, when they answered) and writes the report. `reward_fault` is what kept the reward from
/// being decided (the audit log unread, a judge silent): the environment failed, so a verdict that
/// rested on the reward becomes an environment failure.
pub fn build(
    episode: &Episode,
    rule: Result<RuleReport, String>,
    judges: Option<JudgesReport>,
    reward_fault: Option<&str>,
    interruption: Option<Interruption>,
    facts: RunFacts,
) -> Report {
    let mut failure = None;
    let (rule_report, rule_result) = match rule {
        Ok(report) => {
            let result = RuleResult {
                matched: report.matched,
                events: report.matched_events.iter().map(|e| e.event_id.clone()).collect(),
            };
            (Some(report), result)
        }
        // The judges decide what no audit event can; a disagreement or no answer decides nothing.
        Err(why) => match judges.as_ref().map(JudgesReport::decision) {
            Some(JudgesDecision::Success) => (None, RuleResult { matched: Some(true), events: vec![] }),
            Some(JudgesDecision::Failure) => (None, RuleResult { matched: Some(false), events: vec![] }),
            Some(JudgesDecision::Disagreed) => {
                failure = judges.as_ref().map(JudgesReport::sentence);
                (None, RuleResult::default())
            }
            Some(JudgesDecision::Unanswered) | None => {
                failure = Some(format!("no success rule: {why}"));
                (None, RuleResult::default())
            }
        },
    };
    let graded = aca_agent::Report::of(episode, &rule_result);
    let texts: Vec<String> = episode.steps().iter().map(Step::documented_text).collect();
    let mut verdict = graded.verdict;
    match interruption {
        Some(Interruption::Stopped { at_turn }) => {
            failure = Some(format!("stopped by the person after {at_turn} action(s)"));
            verdict = Verdict::Unverified;
        }
        // A console, browser or model that failed mid-episode is the environment's fault: what
        // the page asks for was never all tried, so nothing can be said against it.
        Some(Interruption::Failed(why)) => {
            failure = Some(why);
            verdict = Verdict::EnvironmentFailure;
        }
        None => match graded.end.as_ref().map(|e| &e.reason) {
            Some(EndReason::Environment { reason }) => failure = Some(reason.clone()),
            Some(EndReason::Agent { failure: why }) => failure = Some(serde_json::to_string(why).unwrap_or_default()),
            Some(EndReason::Unachievable { reason }) => failure = Some(format!("unachievable: {reason}")),
            Some(EndReason::Completed { .. }) | None => {}
        },
    }
    let mut report = Report {
        page: facts.page,
        title: facts.title,
        written_for: facts.written_for,
        console: facts.console,
        policy: facts.policy,
        verdict,
        summary: String::new(),
        steps: graded
            .grades
            .iter()
            .enumerate()
            .map(|(i, grade)| {
                let calls: Vec<&ModelCall> = graded.model_calls.iter().filter(|c| c.step == Some(i)).collect();
                StepReport {
                    text: texts.get(i).cloned().unwrap_or_default(),
                    grade: grade.clone(),
                    model: (!calls.is_empty()).then(|| model_usage(&calls)),
                }
            })
            .collect(),
        defects: graded.defects.clone(),
        rule: rule_report,
        judges,
        resources: None,
        turns: episode.trajectory().turns.clone(),
        decisions: Vec::new(),
        screenshots: Vec::new(),
        usage: model_usage(&graded.model_calls.iter().collect::<Vec<_>>()),
        started_at: facts.started_at,
        duration_ms: facts.duration_ms,
        failure,
    };
    if let Some(fault) = reward_fault {
        report.reward_unread(fault);
    }
    report.summary = summary(&report);
    report
}

/// What `calls` used and cost, summed; no cost when no call was made.
fn model_usage(calls: &[&ModelCall]) -> ModelUsage {
    let sum = |part: fn(&Usage) -> u32| calls.iter().map(|c| u64::from(part(&c.usage))).sum::<u64>();
    ModelUsage {
        calls: calls.len() as u32,
        prompt_tokens: sum(|u| u.prompt_tokens),
        completion_tokens: sum(|u| u.completion_tokens),
        image_tokens: sum(|u| u.image_tokens),
        images: sum(|u| u.images) as u32,
        cost_usd: (!calls.is_empty()).then(|| calls.iter().map(|c| c.cost).sum()),
    }
}

/// A run that could not start its episode (no page, no account, no console): the report says why.
pub fn not_run(procedure_title: &str, why: String, facts: RunFacts) -> Report {
    let mut report = Report {
        page: facts.page,
        title: if facts.title.is_empty() {
            procedure_title.to_owned()
        } else {
            facts.title
        },
        written_for: facts.written_for,
        console: facts.console,
        policy: facts.policy,
        verdict: Verdict::EnvironmentFailure,
        summary: String::new(),
        steps: Vec::new(),
        defects: Vec::new(),
        rule: None,
        judges: None,
        resources: None,
        turns: Vec::new(),
        decisions: Vec::new(),
        screenshots: Vec::new(),
        usage: ModelUsage::default(),
        started_at: facts.started_at,
        duration_ms: facts.duration_ms,
        failure: Some(why),
    };
    report.summary = summary(&report);
    report
}

/// What the judges are shown about the episode: the task, the documented steps, every action in
/// words with its Thought and outcome, how it ended and the last page seen.
pub fn judge_case(episode: &Episode) -> JudgeCase {
    let procedure = &episode.task().procedure;
    let ended = match episode.end().map(|e| &e.reason) {
        Some(EndReason::Completed { summary }) => format!("the agent said the task is complete: {summary}"),
        Some(EndReason::Unachievable { reason }) => format!("the agent said the task cannot be done: {reason}"),
        Some(EndReason::Environment { reason }) => format!("the environment failed: {reason}"),
        Some(EndReason::Agent { failure }) => {
            format!("the agent gave up: {}", serde_json::to_string(failure).unwrap_or_default())
        }
        None => "the episode did not end by itself".into(),
    };
    JudgeCase {
        expected_result: procedure.expected_result.clone(),
        ..judged(
            &procedure.title,
            episode.steps().iter().map(Step::documented_text).collect(),
            &episode.trajectory().turns,
            ended,
        )
    }
}

/// The same case from a finished run's report (for judging runs the rule channel decided, to
/// measure the judges against it).
pub fn judge_case_of_report(report: &Report) -> JudgeCase {
    let ended = match (report.turns.last(), &report.failure) {
        (Some(last), None) => format!("the agent's last action: {}", last.action_in_words()),
        (Some(last), Some(why)) => format!("the agent's last action: {}; the run ended: {why}", last.action_in_words()),
        (None, why) => why.clone().unwrap_or_else(|| "the agent took no action".into()),
    };
    judged(
        &report.title,
        report.steps.iter().map(|s| s.text.clone()).collect(),
        &report.turns,
        ended,
    )
}

fn judged(title: &str, steps: Vec<String>, turns: &[Turn], ended: String) -> JudgeCase {
    JudgeCase {
        task: title.to_owned(),
        steps,
        expected_result: None,
        turns: turns
            .iter()
            .map(|turn| JudgedTurn {
                step: turn.step.clone(),
                thought: turn.thought.next_goal.clone(),
                action: turn.action_in_words(),
                outcome: turn
                    .outcome
                    .as_ref()
                    .map(describe_outcome)
                    .unwrap_or_else(|| "not performed".into()),
            })
            .collect(),
        ended,
        final_page: turns.last().map(|t| t.observation.clone()).unwrap_or_default(),
        final_screenshot: None,
    }
}

/// What confirmed a defect: the audit log, or the judges where no audit event decides the task.
fn confirmed_by(report: &Report) -> &'static str {
    match (&report.rule, &report.judges) {
        (None, Some(_)) => "the judges",
        _ => "the audit log",
    }
}

/// A text in one pair of quotes (defect texts may come quoted already).
pub fn quoted(text: &str) -> String {
    format!("\"{}\"", text.trim_matches('"'))
}

/// The sentence a writer reads first (the sentences `aca verify` writes).
pub fn summary(report: &Report) -> String {
    match report.verdict {
        Verdict::Pass => report.pass_summary(),
        Verdict::DocDefect => {
            let confirmed = report
                .defects
                .iter()
                .filter(|d| d.confidence == Confidence::Confirmed)
                .count();
            // A confirmed defect leads: the one a writer can act on without a second look.
            let lead = report
                .defects
                .iter()
                .find(|d| d.confidence == Confidence::Confirmed)
                .or(report.defects.first());
            match lead {
                Some(d) => {
                    let count = match confirmed {
                        n if n == report.defects.len() => format!("{n} defect(s), confirmed by {}", confirmed_by(report)),
                        0 => format!(
                            "{} suspected defect(s) (the operation never ran, so a control may be where the agent did not look)",
                            report.defects.len()
                        ),
                        n => format!(
                            "{} defect(s), {n} confirmed by {}",
                            report.defects.len(),
                            confirmed_by(report)
                        ),
                    };
                    format!(
                        "{count}; {} at step {}: the page says {}, the console shows {}.",
                        if confirmed > 0 && confirmed < report.defects.len() {
                            "first confirmed"
                        } else {
                            "first"
                        },
                        d.step,
                        quoted(&d.documented),
                        if d.observed.is_empty() {
                            "nothing in its place".to_owned()
                        } else {
                            quoted(&d.observed)
                        }
                    )
                }
                None => "The page no longer matches the console.".into(),
            }
        }
        Verdict::EnvironmentFailure => format!(
            "The run could not be carried out: {}",
            report.failure.as_deref().unwrap_or("the environment failed")
        ),
        Verdict::AgentFailure => format!(
            "The agent could not complete the procedure: {}",
            report.failure.as_deref().unwrap_or("no further detail")
        ),
        Verdict::Unverified => match &report.failure {
            Some(why) if why.starts_with("stopped by the person") => {
                format!("Nothing was verified: the run was {why}.")
            }
            _ if report.judges.as_ref().map(JudgesReport::decision) == Some(JudgesDecision::Disagreed) => format!(
                "Nothing was verified: no audit event decides this page, and {}.",
                report.judges.as_ref().map(JudgesReport::sentence).unwrap_or_default()
            ),
            _ => "Nothing in the audit log can prove or disprove this page.".into(),
        },
    }
}

/// One matcher of a rule in words: `CreateVpc on Vpc (ApiCall) where VpcName = "web-vpc"`.
pub fn describe_matcher(matcher: &aca_core::EventMatcher) -> String {
    use aca_core::ParameterTest;
    let mut text = matcher.event_names().collect::<Vec<_>>().join(" or ");
    if let Some(service) = &matcher.service_name {
        text.push_str(&format!(" on {service}"));
    }
    if let Some(kind) = &matcher.event_type {
        text.push_str(&format!(" ({kind:?})"));
    }
    if !matcher.succeeded {
        text.push_str(", failed");
    }
    if let Some(resource) = &matcher.resource_type {
        text.push_str(&format!(" referencing a {resource}"));
    }
    let conditions: Vec<String> = matcher
        .parameters
        .iter()
        .map(|c| match &c.test {
            ParameterTest::Equals(serde_json::Value::String(v)) => format!("{} = {v:?}", c.name),
            ParameterTest::Equals(v) => format!("{} = {v}", c.name),
            ParameterTest::Contains(v) => format!("{} contains {v:?}", c.name),
            ParameterTest::StartsWith(v) => format!("{} starts with {v:?}", c.name),
            ParameterTest::Exists(true) => format!("{} is given", c.name),
            ParameterTest::Exists(false) => format!("{} is not given", c.name),
        })
        .collect();
    if !conditions.is_empty() {
        text.push_str(&format!(" where {}", conditions.join(" and ")));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use aca_agent::{Limits, ScriptedPolicy, Task};
    use aca_core::{Confidence, Defect, DefectKind, Observation, StepStatus};

    const PAGE: &str = "# Virtual Private Cloud:Create a VPC\n\n## Procedure\n\n\
        1. Log on to the **VPC console**.\n\
        2. On the **VPCs** page, click **Create VPC**.\n\
        3. Click **OK**.\n";

    fn facts() -> RunFacts {
        RunFacts {
            page: "http://help.example/vpc/create-vpc.html".into(),
            title: "Virtual Private Cloud:Create a VPC".into(),
            written_for: None,
            console: ConsoleRun {
                url: "http://127.0.0.1:8080".into(),
                profile: None,
                account: Some("verify@1234.onaliyun.com".into()),
                region: "cn-hangzhou".into(),
            },
            policy: "scripted".into(),
            started_at: "2026-11-30T14:01:05Z".into(),
            duration_ms: 1_250,
        }
    }

    /// An episode that ends at its first observation: no turn is allowed.
    fn ended_episode() -> Episode {
        let mut task = Task::new(aca_docs::parse_markdown(PAGE).unwrap());
        task.limits = Limits {
            max_turns: 0,
            ..Limits::default()
        };
        let mut episode = Episode::new(task, Box::new(ScriptedPolicy::new()));
        let next = episode.next(Observation::default()).unwrap();
        assert!(matches!(next, aca_agent::Next::Finished(_)), "{next:?}");
        episode
    }

    #[test]
    fn every_step_is_graded_and_the_rule_is_carried() {
        let episode = ended_episode();
        let rule: aca_core::SuccessRule = serde_json::from_str(r#"{"events":[{"event_name":"CreateVpc"}]}"#).unwrap();
        let rule_report = RuleReport {
            rule,
            explanation: Some("the title".into()),
            matched: Some(false),
            matched_events: Vec::new(),
            near_misses: vec!["no CreateVpc event among 0 events seen".into()],
            error: None,
            waited_ms: 15_000,
        };
        let report = build(&episode, Ok(rule_report.clone()), None, None, None, facts());
        assert_eq!(report.steps.len(), 3);
        assert_eq!(report.steps[1].text, "On the VPCs page, click Create VPC.");
        assert!(report.steps.iter().all(|s| s.grade.status != StepStatus::Pass));
        assert_eq!(report.verdict, Verdict::AgentFailure);
        assert!(report.failure.as_deref().unwrap().contains("turn_limit"), "{report:?}");
        assert_eq!(report.rule, Some(rule_report));
        assert_eq!(report.duration_ms, 1_250);
        assert!(report.summary.starts_with("The agent could not complete the procedure"));
        let json = serde_json::to_string(&report).unwrap();
        assert_eq!(
            serde_json::from_str::<Report>(&json).unwrap(),
            report,
            "report.json reads back"
        );
    }

    #[test]
    fn a_stopped_run_verifies_nothing_and_a_missing_rule_is_said() {
        let episode = ended_episode();
        let stopped = build(
            &episode,
            Err("the page names no operation".into()),
            None,
            None,
            Some(Interruption::Stopped { at_turn: 2 }),
            facts(),
        );
        assert_eq!(stopped.verdict, Verdict::Unverified);
        assert_eq!(
            stopped.summary,
            "Nothing was verified: the run was stopped by the person after 2 action(s)."
        );
        let unruled = build(&episode, Err("the page names no operation".into()), None, None, None, facts());
        assert_eq!(unruled.rule, None);
        let unread = build(
            &episode,
            Err("the page names no operation".into()),
            None,
            Some("the audit log could not be read: ActionTrail at http://127.0.0.1:9 could not be reached"),
            None,
            facts(),
        );
        assert_eq!(unread.verdict, Verdict::EnvironmentFailure);
        assert!(
            unread
                .failure
                .as_deref()
                .unwrap()
                .ends_with("the audit log could not be read: ActionTrail at http://127.0.0.1:9 could not be reached"),
            "{:?}",
            unread.failure
        );
        let failed = not_run("t", "the console tab was closed".into(), facts());
        assert_eq!(failed.verdict, Verdict::EnvironmentFailure);
        assert_eq!(
            failed.summary,
            "The run could not be carried out: the console tab was closed"
        );
    }

    #[test]
    fn a_defect_summary_names_the_step_and_both_texts() {
        let mut report = not_run("t", String::new(), facts());
        report.verdict = Verdict::DocDefect;
        report.defects.push(Defect {
            kind: DefectKind::RenamedLabel,
            step: "7".into(),
            documented: "OK".into(),
            observed: "Confirm".into(),
            confidence: aca_core::Confidence::Confirmed,
            evidence: Default::default(),
        });
        assert_eq!(
            summary(&report),
            "1 defect(s), confirmed by the audit log; first at step 7: the page says \"OK\", the console shows \"Confirm\"."
        );
        report.defects[0].documented = "\"Create Network\"".into();
        report.defects[0].observed = String::new();
        report.defects[0].confidence = Confidence::Suspected;
        assert_eq!(
            summary(&report),
            "1 suspected defect(s) (the operation never ran, so a control may be where the agent did not look); \
             first at step 7: the page says \"Create Network\", the console shows nothing in its place."
        );
        let mut later = report.defects[0].clone();
        later.step = "9".into();
        later.confidence = Confidence::Confirmed;
        report.defects.push(later);
        assert!(
            summary(&report).starts_with("2 defect(s), 1 confirmed by the audit log; first confirmed at step 9:"),
            "{}",
            summary(&report)
        );
    }

    #[test]
    fn a_matcher_reads_as_a_sentence() {
        let rule: aca_core::SuccessRule = serde_json::from_str(
            r#"{"events":[{"event_name":"CreateVpc","service_name":"Vpc","event_type":"ApiCall",
                "parameters":[{"name":"VpcName","equals":"web-vpc"},{"name":"Description","exists":false}]}]}"#,
        )
        .unwrap();
        assert_eq!(
            describe_matcher(&rule.events[0]),
            "CreateVpc on Vpc (ApiCall) where VpcName = \"web-vpc\" and Description is not given"
        );
    }
}
