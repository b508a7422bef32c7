//! Replay protection: a signed request's nonce may be used once (`SignatureNonceUsed`).
//!
//! Timestamps older than the allowed clock skew are refused anyway, so a nonce only needs to be
//! remembered for twice that skew; older entries are pruned as new ones arrive.

use std::collections::HashMap;

use parking_lot::Mutex;

use crate::clock::Millis;

#[derive(Debug, Default)]
pub struct NonceCache {
    seen: Mutex<HashMap<(String, String), Millis>>,
}

impl NonceCache {
    /// Records the nonce of `access_key_id`; `false` when it was already used within `window_ms`.
    pub fn first_use(&self, access_key_id: &str, nonce: &str, now_ms: Millis, window_ms: Millis) -> bool {
        let mut seen = self.seen.lock();
        if seen.len() >= 100_000 {
            seen.retain(|_, at| now_ms - *at <= window_ms);
        }
        let key = (access_key_id.to_owned(), nonce.to_owned());
        match seen.get(&key) {
            Some(at) if now_ms - *at <= window_ms => false,
            _ => {
                seen.insert(key, now_ms);
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nonce_is_accepted_once_per_key_within_the_window() {
        let cache = NonceCache::default();
        assert!(cache.first_use("LTAIa", "n1", 0, 1000));
        assert!(!cache.first_use("LTAIa", "n1", 10, 1000));
        assert!(cache.first_use("LTAIb", "n1", 10, 1000), "nonces are per AccessKey");
        assert!(cache.first_use("LTAIa", "n1", 2000, 1000), "forgotten after the window");
    }
}
