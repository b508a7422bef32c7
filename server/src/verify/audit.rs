//! The reward of one headless run: which success rule applies, and the reward service's decision on
//! the run's request (aca-reward's `service`, the same code `/v1/reward` runs), read from
//! ActionTrail with the account's own key, or asked of the judges when no rule applies.

use aca_openapi::client::AccessKeyPair;
pub use aca_reward::ChosenRule;
use aca_reward::Judges;
use aca_reward::lookup::LookupConfig;
use aca_reward::service::{self, RewardRequest, RewardResponse};

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
    /// Bundled emulator: events are delivered at once; real cloud: wait out delivery (minutes).
    pub bundled: bool,
}

/// Polls `LookupEvents` for the run's request until the rule matches or the deadline passes; a
/// request no rule applies to goes to `judges`. A request the service cannot take is answered as
/// the service answers it.
pub async fn check(request: &RewardRequest, access: &AuditAccess<'_>, judges: Option<&Judges>) -> RewardResponse {
    let chosen = match request.chosen_rule() {
        Ok(chosen) => chosen,
        Err(refused) => return service::judge(request, *refused, judges).await,
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
    service::decide_with(&chosen, request, &server_side).await
}
