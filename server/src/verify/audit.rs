//! The rule channel of one run: which success rule applies, and what ActionTrail says about it.

use std::time::Duration;

use aca_core::{RuleReport, SuccessRule};
use aca_openapi::client::{AccessKeyPair, RpcClient};
use aca_reward::lookup::{LookupConfig, LookupScope, Poller};
use aca_reward::rule::{Bindings, MatcherHit};

use super::page::PageInput;

/// The rule a run is judged by, and where it came from.
#[derive(Debug, Clone)]
pub struct ChosenRule {
    pub rule: SuccessRule,
    /// For inferred rules: how they were found. `None` for written or confirmed rules.
    pub explanation: Option<String>,
}

/// A rule the writer saved beside the page wins over the page's task sidecar, which wins over
/// inference from the procedure. `Err` explains why no rule applies.
pub fn choose(page: &PageInput) -> Result<ChosenRule, String> {
    if let Some(rule) = &page.saved_rule {
        return Ok(ChosenRule {
            rule: rule.clone(),
            explanation: None,
        });
    }
    if let Some(task) = &page.task {
        return Ok(ChosenRule {
            rule: task.rule.clone(),
            explanation: None,
        });
    }
    let inference = aca_reward::infer::infer_rule(&page.procedure);
    match inference.rule {
        Some(rule) => Ok(ChosenRule {
            rule,
            explanation: Some(inference.explanation),
        }),
        None => Err(inference.explanation),
    }
}

/// Where and as whom to read the audit log.
pub struct AuditAccess<'a> {
    pub endpoint: &'a str,
    pub access_key_id: &'a str,
    pub access_key_secret: &'a str,
    pub account_id: Option<&'a str>,
    /// Bundled emulator: short deadline; real cloud: wait out delivery (minutes).
    pub bundled: bool,
    pub deadline: Option<Duration>,
}

/// Polls `LookupEvents` until the rule matches or the deadline passes.
pub async fn check(chosen: &ChosenRule, bindings: &Bindings, since_ms: i64, access: &AuditAccess<'_>) -> RuleReport {
    let mut report = RuleReport {
        rule: chosen.rule.clone(),
        explanation: chosen.explanation.clone(),
        matched: None,
        matched_events: Vec::new(),
        near_misses: Vec::new(),
        error: None,
        waited_ms: 0,
    };
    let client = match RpcClient::new(
        access.endpoint,
        AccessKeyPair::new(access.access_key_id, access.access_key_secret),
    ) {
        Ok(c) => c,
        Err(e) => {
            report.error = Some(format!("cannot reach ActionTrail: {e}"));
            return report;
        }
    };
    let mut config = if access.bundled {
        LookupConfig::emulator()
    } else {
        LookupConfig::real_cloud()
    };
    if let Some(deadline) = access.deadline {
        config.deadline = deadline;
    }
    let poller = match Poller::new(client, config) {
        Ok(p) => p,
        Err(e) => {
            report.error = Some(e.to_string());
            return report;
        }
    };
    let mut scope = LookupScope::since(since_ms);
    if let Some(account) = access.account_id.filter(|a| !a.is_empty()) {
        scope = scope.for_account(account);
    }
    match poller.wait_for_rule(&chosen.rule, bindings, &scope).await {
        Ok(outcome) => {
            report.matched = Some(outcome.matched);
            report.waited_ms = outcome.waited_ms;
            report.matched_events = outcome.matches.iter().map(MatcherHit::summary).collect();
            report.near_misses = outcome.near_misses.iter().map(|m| m.summary.clone()).collect();
        }
        Err(e) => report.error = Some(e.to_string()),
    }
    report
}
