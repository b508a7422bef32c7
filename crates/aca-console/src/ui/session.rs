//! Console logon sessions: a random token in a cookie, mapped in memory to the account it belongs to.
//! Sessions belong to one emulator and end after [`SESSION_TTL_MS`] on its clock, or at logout.

use std::collections::HashMap;

use axum::http::HeaderMap;
use axum::http::header::COOKIE;
use parking_lot::RwLock;
use rand::Rng;

use crate::clock::Millis;

/// The session cookie's name.
pub const COOKIE_NAME: &str = "aca_console_session";

/// How long a logon lasts (the real console asks again after a working day).
pub const SESSION_TTL_MS: Millis = 12 * 3600 * 1000;

/// Token → (account id, when the session started).
#[derive(Debug, Default)]
pub struct Sessions {
    live: RwLock<HashMap<String, (String, Millis)>>,
}

impl Sessions {
    /// Starts a session for the account; returns its token.
    pub fn start(&self, account_id: &str, now_ms: Millis) -> String {
        let mut rng = rand::rng();
        let token: String = (0..32).map(|_| format!("{:02x}", rng.random::<u8>())).collect();
        let mut live = self.live.write();
        live.retain(|_, (_, started)| now_ms - *started < SESSION_TTL_MS);
        live.insert(token.clone(), (account_id.to_owned(), now_ms));
        token
    }

    pub fn end(&self, token: &str) {
        self.live.write().remove(token);
    }

    /// The account id of the request's session, if it has a live one.
    pub fn account_of(&self, headers: &HeaderMap, now_ms: Millis) -> Option<String> {
        let token = cookie(headers, COOKIE_NAME)?;
        let live = self.live.read();
        let (account_id, started) = live.get(&token)?;
        (now_ms - started < SESSION_TTL_MS).then(|| account_id.clone())
    }
}

/// A cookie's value from the request's `Cookie` headers.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sessions_map_tokens_to_accounts_until_logout_or_expiry() {
        let sessions = Sessions::default();
        let token = sessions.start("1234567890123456", 0);
        let mut headers = HeaderMap::new();
        headers.insert(COOKIE, format!("other=1; {COOKIE_NAME}={token}").parse().unwrap());
        assert_eq!(sessions.account_of(&headers, 1).as_deref(), Some("1234567890123456"));
        assert_eq!(sessions.account_of(&headers, SESSION_TTL_MS), None, "expired");
        assert_eq!(
            Sessions::default().account_of(&headers, 1),
            None,
            "another emulator's session"
        );
        sessions.end(&token);
        assert_eq!(sessions.account_of(&headers, 1), None);
    }
}
