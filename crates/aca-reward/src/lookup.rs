//! The ActionTrail poller: `LookupEvents` for the task's account and time window, page after page,
//! polled again with backoff until the success rule holds or the delivery deadline passes.
//!
//! ActionTrail shows an event only after a delivery delay (up to about ten minutes on the real cloud)
//! and allows about two `LookupEvents` calls a second, so the poller keeps a client-side rate limit
//! and backs off when the service still answers `Throttling.User`.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use aca_core::{SuccessRule, TrailEvent};
use aca_openapi::{ApiFailure, ClientError, RpcClient};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::time::Instant;

use crate::attribution::ProvisionerCalls;
use crate::events::{iso8601, read_event, single_event_name};
use crate::rule::{self, Bindings, MatcherHit, NearMiss, RuleError};

/// ActionTrail's API version.
pub const ACTIONTRAIL_VERSION: &str = "2020-07-06";
/// The most events one `LookupEvents` page may hold.
pub const MAX_PAGE_SIZE: u32 = 50;
/// The longest deadline or wait a configuration may ask for (ActionTrail delivers within minutes).
pub const MAX_WAIT: Duration = Duration::from_secs(24 * 3600);

/// How patiently the poller waits, and how fast it may call.
#[derive(Debug, Clone, PartialEq)]
pub struct LookupConfig {
    /// How long to keep looking for the rule's events before answering that they are not there.
    pub deadline: Duration,
    /// The first wait between two scans of the window; it grows by half each time.
    pub poll_interval: Duration,
    /// The longest wait between two scans.
    pub max_poll_interval: Duration,
    /// The client-side limit on `LookupEvents` calls (ActionTrail allows about 2 a second).
    pub max_calls_per_second: f64,
    /// The first wait after a `Throttling` answer; it doubles while the service keeps refusing.
    pub throttle_backoff: Duration,
    /// `MaxResults` of each page, 1 to 50.
    pub page_size: u32,
    /// A scan reads at most this many pages (a guard against a window with an endless log).
    pub max_pages: usize,
}

impl LookupConfig {
    /// For the real cloud: events take up to about ten minutes to be queryable.
    pub fn real_cloud() -> Self {
        Self {
            deadline: Duration::from_secs(12 * 60),
            poll_interval: Duration::from_secs(5),
            max_poll_interval: Duration::from_secs(60),
            max_calls_per_second: 2.0,
            throttle_backoff: Duration::from_secs(1),
            page_size: MAX_PAGE_SIZE,
            max_pages: 200,
        }
    }

    /// For the bundled emulator, whose delivery delay is configured (none by default).
    pub fn emulator() -> Self {
        Self {
            deadline: Duration::from_secs(15),
            poll_interval: Duration::from_millis(100),
            max_poll_interval: Duration::from_secs(1),
            throttle_backoff: Duration::from_millis(250),
            ..Self::real_cloud()
        }
    }

    fn validate(&self) -> Result<(), LookupError> {
        let problem = if !(1..=MAX_PAGE_SIZE).contains(&self.page_size) {
            Some(format!(
                "page_size {} is not between 1 and {MAX_PAGE_SIZE}",
                self.page_size
            ))
        } else if !(self.max_calls_per_second.is_finite() && self.max_calls_per_second > 0.0) {
            Some(format!(
                "max_calls_per_second {} must be a positive number",
                self.max_calls_per_second
            ))
        } else if self.max_pages == 0 {
            Some("max_pages must be at least 1".to_owned())
        } else if self.poll_interval.is_zero() || self.throttle_backoff.is_zero() {
            Some("poll_interval and throttle_backoff must be longer than zero".to_owned())
        } else if [
            self.deadline,
            self.poll_interval,
            self.max_poll_interval,
            self.throttle_backoff,
        ]
        .iter()
        .any(|d| *d > MAX_WAIT)
        {
            Some(format!("no wait may exceed {MAX_WAIT:?}"))
        } else {
            None
        };
        problem.map_or(Ok(()), |p| Err(LookupError::Config(p)))
    }
}

impl Default for LookupConfig {
    fn default() -> Self {
        Self::real_cloud()
    }
}

/// Whose events, and from when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LookupScope {
    /// Events of other accounts are ignored (a trail may deliver an organisation's events).
    /// `None` trusts the AccessKey's own account.
    pub account_id: Option<String>,
    /// Unix milliseconds; events before it are not looked at.
    pub start_ms: i64,
    /// Unix milliseconds; `None` looks up to the moment of each call.
    pub end_ms: Option<i64>,
    /// Calls that are the provisioner's, not the procedure's: they never meet the rule.
    pub excluded: ProvisionerCalls,
}

impl LookupScope {
    pub fn since(start_ms: i64) -> Self {
        Self {
            account_id: None,
            start_ms,
            end_ms: None,
            excluded: ProvisionerCalls::none(),
        }
    }

    pub fn for_account(mut self, account_id: impl Into<String>) -> Self {
        self.account_id = Some(account_id.into());
        self
    }

    /// Leaves the provisioner's calls out.
    pub fn excluding(mut self, calls: ProvisionerCalls) -> Self {
        self.excluded = calls;
        self
    }
}

/// What polling found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuleOutcome {
    pub matched: bool,
    pub matches: Vec<MatcherHit>,
    pub near_misses: Vec<NearMiss>,
    /// Distinct events of the scope read over all scans.
    pub events_seen: usize,
    /// `LookupEvents` calls made, throttled ones included.
    pub calls_made: u32,
    /// Calls the service refused for its rate limit.
    pub throttled: u32,
    /// Events the service returned that are not ActionTrail events as documented (skipped).
    pub unreadable_events: usize,
    /// From the first call to the answer.
    pub waited_ms: u64,
    /// The rule does not hold, but would with the provisioner's calls (see [`LookupScope::excluded`]).
    #[serde(default)]
    pub only_provisioner_matched: bool,
}

/// Why no outcome could be given.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LookupError {
    #[error(transparent)]
    Rule(#[from] RuleError),
    #[error("the lookup is misconfigured: {0}")]
    Config(String),
    /// The AccessKey is unknown, disabled or not allowed to read ActionTrail.
    #[error("ActionTrail refused the AccessKey {access_key_id}: {failure}")]
    Auth { access_key_id: String, failure: ApiFailure },
    #[error("ActionTrail at {endpoint} could not be reached: {detail}")]
    Unreachable { endpoint: String, detail: String },
    #[error("LookupEvents failed: {0}")]
    Api(ApiFailure),
    #[error("LookupEvents answered in an unexpected shape: {0}")]
    InvalidResponse(String),
    /// The deadline passed before one complete scan of the window (the service kept throttling).
    #[error("no complete LookupEvents scan within {deadline:?} ({calls_made} calls, {throttled} throttled)")]
    Deadline {
        deadline: Duration,
        calls_made: u32,
        throttled: u32,
    },
    #[error(transparent)]
    Client(ClientError),
}

/// Spaces calls out to at most `per_second` a second. Share one (`Arc`) between the pollers of
/// one account: the service's limit is per account.
#[derive(Debug)]
pub struct RateLimiter {
    gap: Duration,
    next: tokio::sync::Mutex<Option<Instant>>,
}

impl RateLimiter {
    /// At most `per_second` calls a second; at least one call a day.
    pub fn new(per_second: f64) -> Result<Self, LookupError> {
        let gap = Duration::try_from_secs_f64(1.0 / per_second)
            .ok()
            .filter(|gap| per_second > 0.0 && *gap <= MAX_WAIT)
            .ok_or_else(|| LookupError::Config(format!("{per_second} calls a second is not a usable rate")))?;
        Ok(Self {
            gap,
            next: tokio::sync::Mutex::new(None),
        })
    }

    /// Waits for the next free slot and takes it.
    pub async fn acquire(&self) {
        let mut next = self.next.lock().await;
        let now = Instant::now();
        let slot = next.map_or(now, |n| n.max(now));
        if slot > now {
            tokio::time::sleep_until(slot).await;
        }
        *next = Some(slot + self.gap);
    }
}

/// Counters of one poll.
#[derive(Debug, Default)]
struct Tally {
    calls_made: u32,
    throttled: u32,
    unreadable_events: usize,
}

/// Why a scan stopped before its last page.
enum Stop {
    Deadline,
    Failed(LookupError),
}

/// Polls one ActionTrail endpoint with one AccessKey.
#[derive(Debug, Clone)]
pub struct Poller {
    client: RpcClient,
    config: LookupConfig,
    limiter: Arc<RateLimiter>,
}

impl Poller {
    pub fn new(client: RpcClient, config: LookupConfig) -> Result<Self, LookupError> {
        config.validate()?;
        let limiter = Arc::new(RateLimiter::new(config.max_calls_per_second)?);
        Ok(Self {
            client,
            config,
            limiter,
        })
    }

    /// Shares a rate limiter with other pollers of the same account.
    pub fn with_limiter(mut self, limiter: Arc<RateLimiter>) -> Self {
        self.limiter = limiter;
        self
    }

    pub fn config(&self) -> &LookupConfig {
        &self.config
    }

    /// Polls until `rule` holds in `scope` or the deadline passes; an unmatched outcome carries the
    /// near misses of the last scan.
    pub async fn wait_for_rule(
        &self,
        rule: &SuccessRule,
        bindings: &Bindings,
        scope: &LookupScope,
    ) -> Result<RuleOutcome, LookupError> {
        let resolved = rule::resolve(rule, bindings)?;
        let narrowing = single_event_name(&resolved);
        let started = Instant::now();
        let deadline = started + self.config.deadline;
        let mut tally = Tally::default();
        let mut seen: Vec<TrailEvent> = Vec::new();
        let mut provisioners: Vec<TrailEvent> = Vec::new();
        let mut seen_ids: HashSet<String> = HashSet::new();
        let mut interval = self.config.poll_interval;
        let mut scanned = false;
        loop {
            match self.scan(narrowing, scope, deadline, &mut tally).await {
                Ok(events) => {
                    scanned = true;
                    for event in events {
                        if !seen_ids.insert(event.event_id.clone()) {
                            continue;
                        }
                        if scope.excluded.made(&event) {
                            provisioners.push(event);
                        } else {
                            seen.push(event);
                        }
                    }
                }
                Err(Stop::Failed(error)) => return Err(error),
                Err(Stop::Deadline) if !scanned => {
                    return Err(LookupError::Deadline {
                        deadline: self.config.deadline,
                        calls_made: tally.calls_made,
                        throttled: tally.throttled,
                    });
                }
                Err(Stop::Deadline) => {}
            }
            let found = rule::match_resolved(&resolved, &seen);
            let now = Instant::now();
            if found.matched || now >= deadline {
                let only_provisioner_matched =
                    !found.matched && ProvisionerCalls::only_they_meet(&resolved, &seen, &provisioners);
                return Ok(RuleOutcome {
                    only_provisioner_matched,
                    matched: found.matched,
                    matches: found.matches,
                    near_misses: found.near_misses,
                    events_seen: seen.len(),
                    calls_made: tally.calls_made,
                    throttled: tally.throttled,
                    unreadable_events: tally.unreadable_events,
                    waited_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
                });
            }
            tracing::debug!(
                events = seen.len(),
                wait_ms = interval.as_millis() as u64,
                "the rule does not hold yet; polling again"
            );
            tokio::time::sleep(interval.min(deadline - now)).await;
            interval = interval.mul_f64(1.5).min(self.config.max_poll_interval);
        }
    }

    /// One scan of the window: every page, newest events first.
    pub async fn lookup_events(
        &self,
        event_name: Option<&str>,
        scope: &LookupScope,
    ) -> Result<Vec<TrailEvent>, LookupError> {
        let deadline = Instant::now() + self.config.deadline;
        let mut tally = Tally::default();
        match self.scan(event_name, scope, deadline, &mut tally).await {
            Ok(events) => Ok(events),
            Err(Stop::Failed(e)) => Err(e),
            Err(Stop::Deadline) => Err(LookupError::Deadline {
                deadline: self.config.deadline,
                calls_made: tally.calls_made,
                throttled: tally.throttled,
            }),
        }
    }

    async fn scan(
        &self,
        event_name: Option<&str>,
        scope: &LookupScope,
        deadline: Instant,
        tally: &mut Tally,
    ) -> Result<Vec<TrailEvent>, Stop> {
        let mut params = BTreeMap::from([
            ("StartTime".to_owned(), iso8601(scope.start_ms)),
            ("MaxResults".to_owned(), self.config.page_size.to_string()),
        ]);
        if let Some(end) = scope.end_ms {
            params.insert("EndTime".to_owned(), iso8601(end));
        }
        if let Some(name) = event_name {
            params.insert("LookupAttribute.1.Key".to_owned(), "EventName".to_owned());
            params.insert("LookupAttribute.1.Value".to_owned(), name.to_owned());
        }
        let mut events = Vec::new();
        for _ in 0..self.config.max_pages {
            let body = self.call(&params, deadline, tally).await?;
            let page = body
                .get("Events")
                .and_then(Value::as_array)
                .ok_or_else(|| Stop::Failed(LookupError::InvalidResponse(format!("no Events list in {body}"))))?;
            for raw in page {
                match read_event(raw) {
                    Ok(event)
                        if scope
                            .account_id
                            .as_ref()
                            .is_none_or(|a| *a == event.recipient_account_id) =>
                    {
                        events.push(event)
                    }
                    Ok(_) => {}
                    Err(e) => {
                        tracing::warn!(error = %e, "skipping an event that is not a documented ActionTrail event");
                        tally.unreadable_events += 1;
                    }
                }
            }
            match body.get("NextToken").and_then(Value::as_str).filter(|t| !t.is_empty()) {
                Some(token) => {
                    params.insert("NextToken".to_owned(), token.to_owned());
                }
                None => return Ok(events),
            }
        }
        tracing::warn!(pages = self.config.max_pages, "the scan stopped at its page limit");
        Ok(events)
    }

    /// One `LookupEvents` call within the rate limit, retried while the service throttles.
    async fn call(
        &self,
        params: &BTreeMap<String, String>,
        deadline: Instant,
        tally: &mut Tally,
    ) -> Result<Value, Stop> {
        let mut backoff = self.config.throttle_backoff;
        loop {
            if Instant::now() >= deadline {
                return Err(Stop::Deadline);
            }
            self.limiter.acquire().await;
            tally.calls_made += 1;
            let failure = match self.client.call(ACTIONTRAIL_VERSION, "LookupEvents", params).await {
                Ok(body) => return Ok(body),
                Err(ClientError::Api(failure)) => failure,
                Err(ClientError::Unreachable { endpoint, detail, .. }) => {
                    return Err(Stop::Failed(LookupError::Unreachable { endpoint, detail }));
                }
                Err(ClientError::TimedOut { endpoint, timeout, .. }) => {
                    return Err(Stop::Failed(LookupError::Unreachable {
                        endpoint,
                        detail: format!("no answer within {timeout:?}"),
                    }));
                }
                Err(other) => return Err(Stop::Failed(LookupError::Client(other))),
            };
            if failure.is_auth_failure() {
                return Err(Stop::Failed(LookupError::Auth {
                    access_key_id: self.client.access_key_id().to_owned(),
                    failure,
                }));
            }
            if !failure.is_throttling() {
                return Err(Stop::Failed(LookupError::Api(failure)));
            }
            tally.throttled += 1;
            tracing::debug!(
                backoff_ms = backoff.as_millis() as u64,
                "LookupEvents throttled; backing off"
            );
            if Instant::now() + backoff >= deadline {
                return Err(Stop::Deadline);
            }
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(Duration::from_secs(30));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_a_page_size_the_api_refuses() {
        let config = LookupConfig {
            page_size: 51,
            ..LookupConfig::emulator()
        };
        let client = RpcClient::new("http://127.0.0.1:1", aca_openapi::AccessKeyPair::new("id", "s")).unwrap();
        assert!(matches!(Poller::new(client, config), Err(LookupError::Config(_))));
    }

    #[tokio::test(start_paused = true)]
    async fn the_rate_limiter_spaces_calls() {
        let limiter = RateLimiter::new(2.0).unwrap();
        assert!(RateLimiter::new(0.0).is_err() && RateLimiter::new(f64::NAN).is_err());
        let start = Instant::now();
        for _ in 0..5 {
            limiter.acquire().await;
        }
        assert_eq!(
            start.elapsed(),
            Duration::from_millis(2000),
            "five calls at 2/s take two seconds"
        );
    }

    #[test]
    fn narrows_only_when_every_matcher_wants_the_same_event() {
        let rule: SuccessRule =
            serde_json::from_str(r#"{"events":[{"event_name":"CreateVSwitch"},{"event_name":"CreateVSwitch"}]}"#)
                .unwrap();
        assert_eq!(single_event_name(&rule), Some("CreateVSwitch"));
        let mixed: SuccessRule =
            serde_json::from_str(r#"{"events":[{"event_name":"CreateVpc"},{"event_name":"CreateVSwitch"}]}"#).unwrap();
        assert_eq!(single_event_name(&mixed), None);
    }
}
