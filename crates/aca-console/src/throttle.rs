//! Per-account rate limits (ActionTrail allows about 2 `LookupEvents` calls per second).

use std::collections::HashMap;

use parking_lot::Mutex;

use crate::clock::Millis;

/// A token bucket per (account, operation), refilled at `qps` tokens a second, holding at most `qps`.
#[derive(Debug, Default)]
pub struct Limiter {
    buckets: Mutex<HashMap<(String, &'static str), Bucket>>,
}

/// Tokens left, and when they were counted.
type Bucket = (f64, Millis);

impl Limiter {
    /// Takes one token; `false` means the call must be refused.
    pub fn admit(&self, account_id: &str, operation: &'static str, now_ms: Millis, qps: f64) -> bool {
        let capacity = qps.max(1.0);
        let mut buckets = self.buckets.lock();
        let (tokens, last) = buckets
            .entry((account_id.to_owned(), operation))
            .or_insert((capacity, now_ms));
        let elapsed_s = (now_ms - *last).max(0) as f64 / 1000.0;
        *tokens = (*tokens + elapsed_s * qps).min(capacity);
        *last = now_ms;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allows_the_rate_and_refuses_bursts_above_it() {
        let limiter = Limiter::default();
        assert!(limiter.admit("a", "LookupEvents", 0, 2.0));
        assert!(limiter.admit("a", "LookupEvents", 0, 2.0));
        assert!(!limiter.admit("a", "LookupEvents", 0, 2.0));
        assert!(
            limiter.admit("b", "LookupEvents", 0, 2.0),
            "accounts are limited separately"
        );
        assert!(
            limiter.admit("a", "LookupEvents", 500, 2.0),
            "half a second refills one token"
        );
        assert!(!limiter.admit("a", "LookupEvents", 500, 2.0));
    }
}
