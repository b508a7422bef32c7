//! How a running emulator behaves: delays, limits, defaults.

use crate::profile::ProfileId;

#[derive(Debug, Clone)]
pub struct ConsoleConfig {
    /// How long after an API call its event becomes visible to `LookupEvents` (real: up to ~10 min).
    pub delivery_delay_ms: i64,
    /// `LookupEvents` calls allowed per second per account (real: 2).
    pub lookup_qps: f64,
    /// How long asynchronous states last (`Pending` → `Running`, `Stopping` → `Stopped`).
    pub transition_delay_ms: i64,
    /// The UI profile of accounts created without one.
    pub default_profile: ProfileId,
    /// The region used when a request names none.
    pub default_region: String,
    /// Protects the admin API; `None` disables it.
    pub admin_token: Option<String>,
    /// How far a signed request's `Timestamp` may be from the emulator's clock.
    pub max_clock_skew_ms: i64,
    /// Each account's ECS quotas per region.
    pub ecs_quotas: EcsQuotas,
}

/// ECS quotas per account and region, as `DescribeAccountAttributes` reports them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EcsQuotas {
    /// vCPUs of pay-as-you-go instances (`max-postpaid-instance-vcpu-count`).
    pub postpaid_vcpus: i64,
    /// Security groups (`max-security-groups`).
    pub security_groups: i64,
}

impl Default for EcsQuotas {
    fn default() -> Self {
        Self {
            postpaid_vcpus: 500,
            security_groups: 100,
        }
    }
}

impl Default for ConsoleConfig {
    fn default() -> Self {
        Self {
            delivery_delay_ms: 0,
            lookup_qps: 2.0,
            transition_delay_ms: 2_000,
            default_profile: ProfileId::Y2026,
            default_region: "cn-hangzhou".to_owned(),
            admin_token: None,
            max_clock_skew_ms: 15 * 60 * 1000,
            ecs_quotas: EcsQuotas::default(),
        }
    }
}

impl ConsoleConfig {
    /// Fast, immediate settings for tests: no delivery delay, no throttling, instant transitions.
    pub fn for_tests() -> Self {
        Self {
            lookup_qps: 10_000.0,
            transition_delay_ms: 0,
            admin_token: Some("test-admin".into()),
            ..Self::default()
        }
    }
}
