//! The rule channel of one run: which success rule applies, and what the reward service's decision
//! (aca-reward's `service::decide_with`, the same code `/v1/reward` runs) says about it.

use std::time::Duration;

use aca_openapi::client::AccessKeyPair;
pub use aca_reward::ChosenRule;
use aca_reward::lookup::LookupConfig;
use aca_reward::rule::Bindings;
use aca_reward::service::{self, AuditWindow, RewardRequest, RewardResponse};

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
    /// The ActionTrail endpoint of the run's region.
    pub endpoint: &'a str,
    pub access_key_id: &'a str,
    pub access_key_secret: &'a str,
    pub account_id: Option<&'a str>,
    pub region: &'a str,
    /// Bundled emulator: short deadline; real cloud: wait out delivery (minutes).
    pub bundled: bool,
    pub deadline: Option<Duration>,
    /// The provisioner's calls, which never meet the rule.
    pub provisioner: aca_reward::ProvisionerCalls,
}

/// Polls `LookupEvents` for the run that started at `started_ms` until the rule matches or the
/// deadline passes.
pub async fn check(
    chosen: &ChosenRule,
    bindings: &Bindings,
    started_ms: i64,
    access: &AuditAccess<'_>,
) -> RewardResponse {
    let request = RewardRequest {
        account_id: access.account_id.unwrap_or_default().to_owned(),
        region: access.region.to_owned(),
        window: AuditWindow::of_run(started_ms),
        rule: Some(chosen.rule.clone()),
        procedure: None,
        bindings: bindings.clone(),
        exclude_users: access.provisioner.users().map(str::to_owned).collect(),
        deadline_ms: access.deadline.map(|d| d.as_millis() as u64),
    };
    let server_side = service::AuditAccess {
        endpoint: access.endpoint.to_owned(),
        key: AccessKeyPair::new(access.access_key_id, access.access_key_secret),
        lookup: if access.bundled {
            LookupConfig::emulator()
        } else {
            LookupConfig::real_cloud()
        },
    };
    service::decide_with(chosen, &request, &server_side).await
}
