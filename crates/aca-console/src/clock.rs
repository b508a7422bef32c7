//! Time as the emulator sees it: wall-clock in service, a hand-moved clock in tests.

use std::sync::atomic::{AtomicI64, Ordering};

/// Milliseconds since the Unix epoch.
pub type Millis = i64;

pub trait Clock: Send + Sync + std::fmt::Debug {
    fn now_ms(&self) -> Millis;
}

#[derive(Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> Millis {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        now.as_millis() as Millis
    }
}

/// A clock that only moves when told to: delivery delays and state transitions become exact in tests.
#[derive(Debug)]
pub struct ManualClock(AtomicI64);

impl ManualClock {
    pub fn new(start_ms: Millis) -> Self {
        Self(AtomicI64::new(start_ms))
    }

    pub fn advance(&self, ms: Millis) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> Millis {
        self.0.load(Ordering::SeqCst)
    }
}

/// `2026-11-30T14:01:05Z`: the ActionTrail and OpenAPI timestamp format.
pub fn iso8601(ms: Millis) -> String {
    let t = time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000)).unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    let fmt = time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]Z");
    t.format(&fmt).unwrap_or_default()
}

/// `2026-11-30T14:01Z`, the minute-precision form ECS uses for `CreationTime`.
pub fn iso8601_minutes(ms: Millis) -> String {
    let t = time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000)).unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    let fmt = time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]Z");
    t.format(&fmt).unwrap_or_default()
}

/// Parses the timestamps callers send (`2026-11-30T14:01:05Z`, with or without seconds, or RFC 3339).
pub fn parse_iso8601(s: &str) -> Option<Millis> {
    use time::format_description::well_known::Rfc3339;
    if let Ok(t) = time::OffsetDateTime::parse(s, &Rfc3339) {
        return Some((t.unix_timestamp_nanos() / 1_000_000) as Millis);
    }
    let with_seconds = format!("{}:00Z", s.trim_end_matches('Z'));
    time::OffsetDateTime::parse(&with_seconds, &Rfc3339)
        .ok()
        .map(|t| (t.unix_timestamp_nanos() / 1_000_000) as Millis)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_and_parses_utc() {
        let ms = 1_796_047_265_000; // 2026-11-30T14:01:05Z
        assert_eq!(iso8601(ms), "2026-11-30T14:01:05Z");
        assert_eq!(parse_iso8601("2026-11-30T14:01:05Z"), Some(ms));
        assert_eq!(parse_iso8601("2026-11-30T14:01Z"), Some(ms - 5_000));
        assert_eq!(parse_iso8601("yesterday"), None);
    }
}
