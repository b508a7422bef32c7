//! The rule channel's I/O in the service worker: `LookupEvents` for the leased account's window,
//! every page, polled with backoff until the success rule holds or the delivery deadline passes,
//! within ActionTrail's call rate; matching is aca-reward's.

use std::collections::HashSet;

use aca_core::{RuleReport, TrailEvent};
use aca_reward::rule::{self, Bindings};

use crate::audit::{AccessKey, AuditTiming, LookupCall, LookupFailure, LookupWindow};
use crate::chrome::{now_ms, random_uuid, sleep};
use crate::http;
use aca_reward::{ChosenRule, ProvisionerCalls};

/// Where and as whom the audit log is read.
pub struct AuditAccess<'a> {
    /// The RPC endpoint that answers ActionTrail (the bundled console's own URL).
    pub endpoint: &'a str,
    pub key: &'a AccessKey,
    pub window: &'a LookupWindow,
    pub timing: AuditTiming,
    /// `${vpc_id}`, … of what was provisioned for the run.
    pub bindings: &'a Bindings,
    /// The provisioner's calls, which never meet the rule.
    pub provisioner: ProvisionerCalls,
}

/// Spaces `LookupEvents` calls out.
struct Pace {
    gap_ms: i64,
    last_ms: Option<i64>,
}

impl Pace {
    async fn wait(&mut self) {
        if let Some(last) = self.last_ms {
            let left = last + self.gap_ms - now_ms();
            if left > 0 {
                sleep(left as i32).await;
            }
        }
        self.last_ms = Some(now_ms());
    }
}

/// Polls until `chosen` holds or the deadline passes (`stopped` ends the wait early); the report
/// carries the matched events, the near misses of the last scan, or why the log could not be read.
pub async fn check(chosen: &ChosenRule, access: &AuditAccess<'_>, stopped: &dyn Fn() -> bool) -> RuleReport {
    let started = now_ms();
    let waited = || (now_ms() - started).max(0) as u64;
    let resolved = match rule::resolve(&chosen.rule, access.bindings) {
        Ok(r) => r,
        Err(e) => return chosen.report(Err(&e.to_string()), 0),
    };
    let narrowing = aca_reward::events::single_event_name(&resolved).map(str::to_owned);
    let deadline = started + access.timing.deadline_ms as i64;
    let mut pace = Pace {
        gap_ms: access.timing.min_call_gap_ms as i64,
        last_ms: None,
    };
    let mut seen: Vec<TrailEvent> = Vec::new();
    let mut provisioners: Vec<TrailEvent> = Vec::new();
    let mut ids: HashSet<String> = HashSet::new();
    let mut interval = access.timing.poll_interval_ms;
    loop {
        match scan(access, narrowing.as_deref(), deadline, &mut pace).await {
            Ok(events) => {
                for event in events {
                    if !ids.insert(event.event_id.clone()) {
                        continue;
                    }
                    if access.provisioner.made(&event) {
                        provisioners.push(event);
                    } else {
                        seen.push(event);
                    }
                }
            }
            Err(Scan::Deadline) => {}
            Err(Scan::Failed(failure)) => return chosen.report(Err(&failure.to_string()), waited()),
            Err(Scan::Unreachable(why)) => {
                return chosen.report(Err(&format!("ActionTrail could not be reached: {why}")), waited());
            }
        }
        let found = rule::match_resolved(&resolved, &seen);
        let now = now_ms();
        if found.matched || now >= deadline || stopped() {
            let mut report = chosen.report(Ok(&found), waited());
            if !found.matched && ProvisionerCalls::only_they_meet(&resolved, &seen, &provisioners) {
                report.near_misses.insert(0, access.provisioner.only_they_matched());
            }
            return report;
        }
        sleep(interval.min((deadline - now) as u64) as i32).await;
        interval = access.timing.next_interval(interval);
    }
}

enum Scan {
    Deadline,
    Failed(LookupFailure),
    Unreachable(String),
}

/// One scan of the window: every page, each call paced and retried while throttled.
async fn scan(
    access: &AuditAccess<'_>,
    event_name: Option<&str>,
    deadline: i64,
    pace: &mut Pace,
) -> Result<Vec<TrailEvent>, Scan> {
    let mut events = Vec::new();
    let mut next_token: Option<String> = None;
    for _ in 0..access.timing.max_pages {
        let mut backoff = access.timing.throttle_backoff_ms;
        let page = loop {
            if now_ms() >= deadline {
                return Err(Scan::Deadline);
            }
            pace.wait().await;
            let nonce = random_uuid();
            let url = LookupCall {
                endpoint: access.endpoint,
                key: access.key,
                window: access.window,
                event_name,
                page_size: access.timing.page_size,
                next_token: next_token.as_deref(),
                now_ms: now_ms(),
                nonce: &nonce,
            }
            .url();
            let answer = http::fetch("GET", &url, &[], None).await.map_err(Scan::Unreachable)?;
            match crate::audit::read_page(answer.status, &answer.text, access.window.account_id.as_deref()) {
                Ok(page) => break page,
                Err(LookupFailure::Throttled(_)) if now_ms() + (backoff as i64) < deadline => {
                    sleep(backoff as i32).await;
                    backoff = (backoff * 2).min(30_000);
                }
                Err(LookupFailure::Throttled(_)) => return Err(Scan::Deadline),
                Err(other) => return Err(Scan::Failed(other)),
            }
        };
        events.extend(page.events);
        match page.next_token {
            Some(token) => next_token = Some(token),
            None => return Ok(events),
        }
    }
    Ok(events)
}
