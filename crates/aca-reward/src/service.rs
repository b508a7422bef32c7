//! The reward service's contract (version 1): what a driver asks about one run and what it is told,
//! the one audit-window rule, and (feature `lookup`) the decision itself, read from ActionTrail with
//! credentials only the server holds.
//!
//! Every caller (the extension, `aca verify`, the benchmark, RL rollouts) asks in this shape and gets
//! this answer, so a reward means the same thing wherever it is used. The channel that decided is
//! named in the answer. Routing: the rule channel whenever the task has an ActionTrail-verifiable
//! event (its rule written or inferred), the two judges otherwise, given the run's [`JudgeCase`].

use std::collections::BTreeMap;

use aca_core::{EventSummary, JudgesDecision, JudgesReport, Procedure, RuleReport, SuccessRule};
use serde::{Deserialize, Serialize};

use crate::chosen::ChosenRule;
use crate::judge::JudgeCase;

/// The version of the request and response shapes below.
pub const API_VERSION: u32 = 1;

/// The most stretches one request may ask to have listed apart: each is one more scan of the
/// account's audit log, which ActionTrail rate-limits per account.
pub const MAX_ATTRIBUTE_WINDOWS: usize = 16;

/// How far before a run's recorded start its audit window opens: the console's clock and the
/// driver's may differ by this much.
pub const WINDOW_SLACK_MS: i64 = 1_000;

/// The part of the audit log a run is judged on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditWindow {
    /// Unix milliseconds; earlier events are not the run's.
    pub start_ms: i64,
    /// Unix milliseconds; `None` reads up to the moment of each lookup.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_ms: Option<i64>,
}

impl AuditWindow {
    /// The window of a run that started at `started_ms` (the one rule every driver uses).
    pub fn of_run(started_ms: i64) -> Self {
        Self {
            start_ms: started_ms - WINDOW_SLACK_MS,
            end_ms: None,
        }
    }

    /// Why the window cannot be read at `now_ms`: it ends before it starts, or starts later than
    /// now (the audit log holds nothing there yet, and ActionTrail refuses such a lookup).
    pub fn problem(&self, now_ms: i64) -> Option<String> {
        if let Some(end) = self.end_ms
            && end < self.start_ms
        {
            return Some(format!("the window ends ({end}) before it starts ({})", self.start_ms));
        }
        (self.start_ms > now_ms).then(|| {
            format!(
                "the window starts {} s from now: nothing in the audit log can be there yet",
                (self.start_ms - now_ms + 999) / 1000
            )
        })
    }
}

/// `POST /v1/reward`: decide one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RewardRequest {
    /// The account whose audit log decides; the server holds its credentials.
    pub account_id: String,
    #[serde(default = "default_region")]
    pub region: String,
    pub window: AuditWindow,
    /// The success rule; without one the rule is inferred from `procedure`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<SuccessRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub procedure: Option<Procedure>,
    /// Values of the rule's `${name}` placeholders (`vpc_id`, `suffix`, …).
    #[serde(default)]
    pub bindings: BTreeMap<String, String>,
    /// RAM users the provisioner acted as: their calls never meet the rule.
    #[serde(default)]
    pub exclude_users: Vec<String>,
    /// How long to wait for the audit log's delivery; the server's default for the console when
    /// absent (seconds for the emulator, about twelve minutes for the real cloud).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline_ms: Option<u64>,
    /// What the judges are shown when no rule applies (the run's trajectory and final page).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge_case: Option<JudgeCase>,
    /// Stretches of the run whose events the answer lists apart (a person's take-overs in step
    /// mode): what the person did is recorded as the audit log recorded it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attribute: Vec<AuditWindow>,
}

fn default_region() -> String {
    "cn-hangzhou".to_owned()
}

/// Which channel decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    /// ActionTrail events matched against a success rule.
    Rule,
    /// Two independent LLM judges, for a task with no audit event to decide it.
    Judges,
}

/// What the channel concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The documented operation happened: reward 1.
    Met,
    /// It did not happen in the window: reward 0.
    NotMet,
    /// The two judges disagreed: reward −1, the run is invalid (shown, never used for training).
    Invalid,
    /// Nothing could decide: no rule applies, or the audit log could not be read.
    Undecided,
}

/// Why nothing decided, typed so a driver can tell the environment's fault from the page's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// No success rule was given and none can be inferred from the procedure.
    NoRule,
    /// ActionTrail (or the server's credentials for the account) failed: the environment's fault.
    AuditLog,
    /// A judge's endpoint failed or gave no usable answer: the environment's fault.
    Judges,
    /// The request itself is wrong (unknown account, neither rule nor procedure, …).
    BadRequest,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RewardFailure {
    pub kind: FailureKind,
    pub message: String,
}

/// The answer to a [`RewardRequest`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RewardResponse {
    pub version: u32,
    pub channel: Channel,
    pub outcome: Outcome,
    /// 1 met, 0 not met, −1 invalid (the judges disagreed); `None` when undecided.
    #[serde(default)]
    pub reward: Option<f64>,
    /// One sentence: which channel decided and why.
    pub reason: String,
    /// The rule and the evidence: matched events, near misses, how long delivery was waited for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<RuleReport>,
    /// Each judge's answer, when the judges decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judges: Option<JudgesReport>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<RewardFailure>,
    /// For each of the request's `attribute` windows, the events the audit log held for it when
    /// the reward was decided, the provisioner's left out; empty when none were asked for or the
    /// audit log was not read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attributed: Vec<Vec<EventSummary>>,
}

impl RewardResponse {
    /// The rule channel's answer from its report section.
    pub fn of_rule(report: RuleReport) -> Self {
        let events = |r: &RuleReport| {
            r.matched_events
                .iter()
                .map(|e| e.event_name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let (outcome, reward, reason, failure) = match (report.matched, &report.error) {
            (Some(true), _) => (
                Outcome::Met,
                Some(1.0),
                format!("the rule channel decided: the audit log shows {}", events(&report)),
                None,
            ),
            (Some(false), _) => (
                Outcome::NotMet,
                Some(0.0),
                format!(
                    "the rule channel decided: no event in the run's window meets the rule{}",
                    report
                        .near_misses
                        .first()
                        .map(|m| format!(" (closest: {m})"))
                        .unwrap_or_default()
                ),
                None,
            ),
            (None, error) => {
                let message = error.clone().unwrap_or_else(|| "the audit log was not read".to_owned());
                (
                    Outcome::Undecided,
                    None,
                    format!("the audit log could not be read: {message}"),
                    Some(RewardFailure {
                        kind: FailureKind::AuditLog,
                        message,
                    }),
                )
            }
        };
        Self {
            version: API_VERSION,
            channel: Channel::Rule,
            outcome,
            reward,
            reason,
            rule: Some(report),
            judges: None,
            failure,
            attributed: Vec::new(),
        }
    }

    /// The judge channel's answer from the judges' report.
    pub fn of_judges(report: JudgesReport) -> Self {
        let (outcome, failure) = match report.decision() {
            JudgesDecision::Success => (Outcome::Met, None),
            JudgesDecision::Failure => (Outcome::NotMet, None),
            JudgesDecision::Disagreed => (Outcome::Invalid, None),
            JudgesDecision::Unanswered => (
                Outcome::Undecided,
                Some(RewardFailure {
                    kind: FailureKind::Judges,
                    message: report.unanswered().unwrap_or_default(),
                }),
            ),
        };
        Self {
            version: API_VERSION,
            channel: Channel::Judges,
            outcome,
            reward: report.reward(),
            reason: format!(
                "the judge channel decided, because {}: {}",
                report.why_judges,
                report.sentence()
            ),
            rule: None,
            judges: Some(report),
            failure,
            attributed: Vec::new(),
        }
    }

    /// Nothing could decide, for `kind`.
    pub fn failed(kind: FailureKind, message: impl Into<String>) -> Self {
        let message = message.into();
        Self {
            version: API_VERSION,
            channel: Channel::Rule,
            outcome: Outcome::Undecided,
            reward: None,
            reason: match kind {
                FailureKind::NoRule => format!("no channel can decide: {message}"),
                FailureKind::AuditLog => format!("the audit log could not be read: {message}"),
                FailureKind::Judges => format!("the judges could not decide: {message}"),
                FailureKind::BadRequest => format!("the request cannot be decided: {message}"),
            },
            rule: None,
            judges: None,
            failure: Some(RewardFailure { kind, message }),
            attributed: Vec::new(),
        }
    }

    /// When the environment kept the run from being decided, what failed (for the report's
    /// `environment_failure`): the audit log or a judge's endpoint.
    pub fn environment_fault(&self) -> Option<&str> {
        self.failure
            .as_ref()
            .filter(|f| matches!(f.kind, FailureKind::AuditLog | FailureKind::Judges))
            .map(|f| f.message.as_str())
    }
}

impl RewardRequest {
    /// The rule the run is judged by: the request's own, else one inferred from its procedure.
    pub fn chosen_rule(&self) -> Result<ChosenRule, Box<RewardResponse>> {
        match (&self.rule, &self.procedure) {
            (Some(rule), _) => Ok(ChosenRule {
                rule: rule.clone(),
                explanation: None,
            }),
            (None, Some(procedure)) => ChosenRule::choose(None, None, procedure)
                .map_err(|why| Box::new(RewardResponse::failed(FailureKind::NoRule, why))),
            (None, None) => Err(Box::new(RewardResponse::failed(
                FailureKind::BadRequest,
                "give the success rule or the procedure to infer it from",
            ))),
        }
    }
}

#[cfg(feature = "judges")]
pub use decide::{AuditAccess, decide, decide_with, judge};

#[cfg(feature = "judges")]
mod decide {
    use aca_openapi::client::{AccessKeyPair, RpcClient};

    use super::*;
    use crate::Judges;
    use crate::attribution::ProvisionerCalls;
    use crate::lookup::{LookupConfig, LookupScope, Poller};
    use crate::rule::RuleMatch;

    /// Where and as whom the server reads an account's audit log.
    #[derive(Debug, Clone)]
    pub struct AuditAccess {
        /// The ActionTrail endpoint of the request's region (`https://actiontrail.cn-hangzhou.aliyuncs.com`,
        /// or the emulator's address).
        pub endpoint: String,
        pub key: AccessKeyPair,
        /// How patiently to wait for delivery; the request's `deadline_ms` overrides its deadline.
        pub lookup: LookupConfig,
    }

    /// Decides `request`: by reading ActionTrail through `access` when a rule applies, else by
    /// asking `judges` about the request's case.
    pub async fn decide(request: &RewardRequest, access: &AuditAccess, judges: Option<&Judges>) -> RewardResponse {
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        if let Some(why) = request.window.problem(now_ms) {
            return RewardResponse::failed(FailureKind::BadRequest, why);
        }
        match request.chosen_rule() {
            Ok(chosen) => decide_with(&chosen, request, access).await,
            Err(refusal) => judge(request, *refusal, judges).await,
        }
    }

    /// The judge channel, for a request no rule applies to; `refusal` is the rule channel's answer.
    pub async fn judge(request: &RewardRequest, refusal: RewardResponse, judges: Option<&Judges>) -> RewardResponse {
        let no_rule = match &refusal.failure {
            Some(failure) if failure.kind == FailureKind::NoRule => failure.message.clone(),
            _ => return refusal,
        };
        match (judges, &request.judge_case) {
            (Some(judges), Some(case)) => {
                let why = format!("the task has no ActionTrail-verifiable event ({no_rule})");
                RewardResponse::of_judges(judges.judge(case, &why).await)
            }
            (None, _) => RewardResponse::failed(
                FailureKind::NoRule,
                format!("{no_rule}; this server has no judges configured to decide instead"),
            ),
            (Some(_), None) => RewardResponse::failed(
                FailureKind::NoRule,
                format!("{no_rule}; the request carries no trajectory for the judges"),
            ),
        }
    }

    /// The events of each of `windows` within `scope` (its account, the provisioner left out). A
    /// window that cannot be read lists nothing: the reward stands without it.
    async fn attributed(poller: &Poller, windows: &[AuditWindow], scope: &LookupScope) -> Vec<Vec<EventSummary>> {
        let mut lists = Vec::with_capacity(windows.len());
        for window in windows {
            let mut within = scope.clone();
            within.start_ms = (window.start_ms - WINDOW_SLACK_MS).max(scope.start_ms);
            within.end_ms = window.end_ms.map(|end| end + WINDOW_SLACK_MS);
            if within.end_ms.is_some_and(|end| end < within.start_ms) {
                lists.push(Vec::new());
                continue;
            }
            let events = match poller.lookup_events(None, &within).await {
                Ok(events) => events,
                Err(e) => {
                    tracing::warn!(error = %e, "the events of a take-over could not be read");
                    Vec::new()
                }
            };
            let mut listed: Vec<EventSummary> = events
                .iter()
                .filter(|e| !scope.excluded.made(e))
                .map(aca_core::TrailEvent::summary)
                .collect();
            listed.sort_by(|a, b| a.event_time.cmp(&b.event_time));
            lists.push(listed);
        }
        lists
    }

    /// [`decide`] with the rule already chosen (a driver that shows the rule before the run).
    pub async fn decide_with(chosen: &ChosenRule, request: &RewardRequest, access: &AuditAccess) -> RewardResponse {
        if request.attribute.len() > MAX_ATTRIBUTE_WINDOWS {
            return RewardResponse::failed(
                FailureKind::BadRequest,
                format!(
                    "{} stretches asked to be listed apart; at most {MAX_ATTRIBUTE_WINDOWS} are read",
                    request.attribute.len()
                ),
            );
        }
        let audit_failed = |message: String| RewardResponse::of_rule(chosen.report(Err(&message), 0));
        let client = match RpcClient::new(&access.endpoint, access.key.clone()) {
            Ok(c) => c,
            Err(e) => return audit_failed(format!("cannot reach ActionTrail: {e}")),
        };
        let mut config = access.lookup.clone();
        if let Some(ms) = request.deadline_ms {
            config.deadline = std::time::Duration::from_millis(ms);
        }
        let poller = match Poller::new(client, config) {
            Ok(p) => p,
            Err(e) => return RewardResponse::failed(FailureKind::BadRequest, e.to_string()),
        };
        let mut excluded = ProvisionerCalls::none();
        for user in &request.exclude_users {
            excluded.add_user(user);
        }
        let mut scope = LookupScope::since(request.window.start_ms).excluding(excluded.clone());
        scope.end_ms = request.window.end_ms;
        if !request.account_id.is_empty() {
            scope = scope.for_account(&request.account_id);
        }
        match poller.wait_for_rule(&chosen.rule, &request.bindings, &scope).await {
            Ok(outcome) => {
                let found = RuleMatch {
                    matched: outcome.matched,
                    matches: outcome.matches,
                    near_misses: outcome.near_misses,
                };
                let mut report = chosen.report(Ok(&found), outcome.waited_ms);
                if outcome.only_provisioner_matched {
                    report.near_misses.insert(0, excluded.only_they_matched());
                }
                let mut response = RewardResponse::of_rule(report);
                response.attributed = attributed(&poller, &request.attribute, &scope).await;
                response
            }
            Err(crate::lookup::LookupError::Rule(e)) => RewardResponse::failed(FailureKind::BadRequest, e.to_string()),
            Err(e) => audit_failed(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aca_core::EventSummary;

    fn report(matched: Option<bool>, error: Option<&str>) -> RuleReport {
        RuleReport {
            rule: SuccessRule::default(),
            explanation: None,
            matched,
            matched_events: vec![EventSummary {
                event_id: "e1".into(),
                event_name: "CreateVpc".into(),
                service_name: "Vpc".into(),
                event_type: "ApiCall".into(),
                event_time: "2026-12-01T00:00:00Z".into(),
            }],
            near_misses: vec!["CreateVpc found but VpcName was \"a\" not \"b\"".into()],
            error: error.map(str::to_owned),
            waited_ms: 5,
        }
    }

    #[test]
    fn the_rule_channel_rewards_met_not_met_and_undecided() {
        let met = RewardResponse::of_rule(report(Some(true), None));
        assert_eq!((met.outcome, met.reward), (Outcome::Met, Some(1.0)));
        assert!(met.reason.contains("CreateVpc"), "{}", met.reason);
        let not = RewardResponse::of_rule(report(Some(false), None));
        assert_eq!((not.outcome, not.reward), (Outcome::NotMet, Some(0.0)));
        assert!(not.reason.contains("VpcName"), "{}", not.reason);
        assert_eq!(not.environment_fault(), None);
        let unread = RewardResponse::of_rule(report(None, Some("ActionTrail at http://x could not be reached")));
        assert_eq!((unread.outcome, unread.reward), (Outcome::Undecided, None));
        assert_eq!(
            unread.environment_fault(),
            Some("ActionTrail at http://x could not be reached")
        );
    }

    #[test]
    fn a_request_without_rule_or_procedure_is_refused_and_no_rule_is_not_the_environment() {
        let request = RewardRequest {
            account_id: "1".into(),
            region: "cn-hangzhou".into(),
            window: AuditWindow::of_run(10_000),
            rule: None,
            procedure: None,
            bindings: BTreeMap::new(),
            exclude_users: vec![],
            deadline_ms: None,
            judge_case: None,
            attribute: Vec::new(),
        };
        let refused = request.chosen_rule().unwrap_err();
        assert_eq!(refused.failure.as_ref().unwrap().kind, FailureKind::BadRequest);
        let no_rule = RewardResponse::failed(FailureKind::NoRule, "nothing to infer");
        assert_eq!(no_rule.environment_fault(), None);
        assert_eq!(request.window.start_ms, 10_000 - WINDOW_SLACK_MS);
    }

    #[test]
    fn requests_and_answers_keep_their_wire_shape() {
        let text = r#"{"account_id":"1","window":{"start_ms":5},"exclude_users":["aca-provisioner-x"]}"#;
        let request: RewardRequest = serde_json::from_str(text).unwrap();
        assert_eq!(request.region, "cn-hangzhou");
        assert_eq!(request.window.end_ms, None);
        let answer = serde_json::to_value(RewardResponse::of_rule(report(Some(true), None))).unwrap();
        assert_eq!(answer["version"], 1);
        assert_eq!(answer["channel"], "rule");
        assert_eq!(answer["outcome"], "met");
        assert_eq!(answer["reward"], 1.0);
    }
}
