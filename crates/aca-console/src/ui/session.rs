//! Console logon sessions: a random token in a cookie, mapped in memory to the account it belongs to.

use std::collections::HashMap;
use std::sync::OnceLock;

use axum::http::HeaderMap;
use axum::http::header::COOKIE;
use parking_lot::RwLock;
use rand::Rng;

/// The session cookie's name.
pub const COOKIE_NAME: &str = "aca_console_session";

fn sessions() -> &'static RwLock<HashMap<String, String>> {
    static SESSIONS: OnceLock<RwLock<HashMap<String, String>>> = OnceLock::new();
    SESSIONS.get_or_init(Default::default)
}

/// Starts a session for the account; returns its token.
pub fn start(account_id: &str) -> String {
    let mut rng = rand::rng();
    let token: String = (0..32).map(|_| format!("{:02x}", rng.random::<u8>())).collect();
    sessions().write().insert(token.clone(), account_id.to_owned());
    token
}

pub fn end(token: &str) {
    sessions().write().remove(token);
}

/// The account id of the request's session, if it has a live one.
pub fn account_of(headers: &HeaderMap) -> Option<String> {
    let token = cookie(headers, COOKIE_NAME)?;
    sessions().read().get(&token).cloned()
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
    fn sessions_map_tokens_to_accounts() {
        let token = start("1234567890123456");
        let mut headers = HeaderMap::new();
        headers.insert(COOKIE, format!("other=1; {COOKIE_NAME}={token}").parse().unwrap());
        assert_eq!(account_of(&headers).as_deref(), Some("1234567890123456"));
        end(&token);
        assert_eq!(account_of(&headers), None);
    }
}
