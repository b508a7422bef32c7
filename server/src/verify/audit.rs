//! The rule channel of one run: which success rule applies, and what ActionTrail says about it.

use std::time::Duration;

use aca_core::RuleReport;
use aca_openapi::client::{AccessKeyPair, RpcClient};
pub use aca_reward::ChosenRule;
use aca_reward::lookup::{LookupConfig, LookupScope, Poller};
use aca_reward::rule::{Bindings, RuleMatch};

use super::page::PageInput;

/// A rule the writer saved beside the page wins over the page's task sidecar, which wins over
/// inference from the procedure. `Err` explains why no rule applies.
pub fn choose(page: &PageInput) -> Result<ChosenRule, String> {
    ChosenRule::choose(
        page.saved_rule.as_ref(),
        page.task.as_ref().map(|t| &t.rule),
        &page.procedure,
    )
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
    /// The provisioner's calls, which never meet the rule.
    pub provisioner: aca_reward::ProvisionerCalls,
}

/// Polls `LookupEvents` until the rule matches or the deadline passes.
pub async fn check(chosen: &ChosenRule, bindings: &Bindings, since_ms: i64, access: &AuditAccess<'_>) -> RuleReport {
    let client = match RpcClient::new(
        access.endpoint,
        AccessKeyPair::new(access.access_key_id, access.access_key_secret),
    ) {
        Ok(c) => c,
        Err(e) => return chosen.report(Err(&format!("cannot reach ActionTrail: {e}")), 0),
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
        Err(e) => return chosen.report(Err(&e.to_string()), 0),
    };
    let mut scope = LookupScope::since(since_ms).excluding(access.provisioner.clone());
    if let Some(account) = access.account_id.filter(|a| !a.is_empty()) {
        scope = scope.for_account(account);
    }
    match poller.wait_for_rule(&chosen.rule, bindings, &scope).await {
        Ok(outcome) => {
            let found = RuleMatch {
                matched: outcome.matched,
                matches: outcome.matches,
                near_misses: outcome.near_misses,
            };
            let mut report = chosen.report(Ok(&found), outcome.waited_ms);
            if outcome.only_provisioner_matched {
                report.near_misses.insert(0, access.provisioner.only_they_matched());
            }
            report
        }
        Err(e) => chosen.report(Err(&e.to_string()), 0),
    }
}
