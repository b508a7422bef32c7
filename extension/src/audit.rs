//! The rule channel as the extension runs it, without I/O: the signed ActionTrail `LookupEvents`
//! request for the leased account's time window (aca-openapi's pure RPC signature) and the reading
//! of each answer page. Which rule applies and the report of what matching found are aca-reward's
//! (`ChosenRule`), as on the server. The service worker fetches and polls (`sw::audit`).
//!
//! The same request reaches the bundled console and the real cloud's ActionTrail endpoint, as
//! aca-reward's native poller does, and each event is read by the same `aca_reward::events`.

use std::collections::BTreeMap;

use aca_core::TrailEvent;
use aca_openapi::sign::{RpcRequest, percent_encode, sign_rpc};
use aca_reward::events::{iso8601, read_event};
use serde_json::Value;

/// ActionTrail's API version.
pub const ACTIONTRAIL_VERSION: &str = "2020-07-06";

/// How patiently the audit log is read, and how fast it may be called.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AuditTiming {
    /// How long to keep looking for the rule's events (ActionTrail delivers with a delay).
    pub deadline_ms: u64,
    /// The first wait between two scans; it grows by half each time up to `max_poll_interval_ms`.
    pub poll_interval_ms: u64,
    pub max_poll_interval_ms: u64,
    /// The least time between two `LookupEvents` calls (ActionTrail allows about 2 a second).
    pub min_call_gap_ms: u64,
    /// The first wait after a `Throttling` answer; it doubles while the service keeps refusing.
    pub throttle_backoff_ms: u64,
    /// `MaxResults` of each page (1 to 50).
    pub page_size: u32,
    /// A scan reads at most this many pages.
    pub max_pages: usize,
}

impl AuditTiming {
    /// The bundled console delivers its events at once.
    pub fn emulator() -> Self {
        Self {
            deadline_ms: 15_000,
            poll_interval_ms: 200,
            max_poll_interval_ms: 1_000,
            min_call_gap_ms: 500,
            throttle_backoff_ms: 500,
            page_size: 50,
            max_pages: 200,
        }
    }

    /// The real cloud's events take up to about ten minutes to become queryable.
    pub fn real_cloud() -> Self {
        Self {
            deadline_ms: 12 * 60 * 1_000,
            poll_interval_ms: 5_000,
            max_poll_interval_ms: 60_000,
            ..Self::emulator()
        }
    }

    /// The wait after `interval`, grown by half and capped.
    pub fn next_interval(&self, interval_ms: u64) -> u64 {
        (interval_ms + interval_ms / 2).min(self.max_poll_interval_ms)
    }
}

/// Whose events, from when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LookupWindow {
    /// Events of other accounts are ignored.
    pub account_id: Option<String>,
    /// Unix milliseconds: the run's start (less a second for clock skew).
    pub start_ms: i64,
}

/// The leased account's AccessKey.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessKey {
    pub id: String,
    pub secret: String,
}

/// One signed `LookupEvents` call: the URL of a GET to the RPC endpoint.
#[derive(Debug, Clone, Copy)]
pub struct LookupCall<'a> {
    /// `http://127.0.0.1:8080` for the bundled console, `https://actiontrail.cn-hangzhou.aliyuncs.com`.
    pub endpoint: &'a str,
    pub key: &'a AccessKey,
    pub window: &'a LookupWindow,
    /// Narrows the lookup to one event name when every matcher wants the same one.
    pub event_name: Option<&'a str>,
    pub page_size: u32,
    pub next_token: Option<&'a str>,
    /// Unix milliseconds, the request's `Timestamp`.
    pub now_ms: i64,
    /// Unique per request.
    pub nonce: &'a str,
}

impl LookupCall<'_> {
    /// The signed request URL (RPC signature 1.0, HMAC-SHA1, JSON answers).
    pub fn url(&self) -> String {
        let mut params = BTreeMap::from([
            ("StartTime".to_owned(), iso8601(self.window.start_ms)),
            ("MaxResults".to_owned(), self.page_size.to_string()),
        ]);
        if let Some(name) = self.event_name {
            params.insert("LookupAttribute.1.Key".to_owned(), "EventName".to_owned());
            params.insert("LookupAttribute.1.Value".to_owned(), name.to_owned());
        }
        if let Some(token) = self.next_token {
            params.insert("NextToken".to_owned(), token.to_owned());
        }
        let timestamp = iso8601(self.now_ms);
        sign_rpc(
            RpcRequest {
                method: "GET",
                action: "LookupEvents",
                version: ACTIONTRAIL_VERSION,
                access_key_id: &self.key.id,
                access_key_secret: &self.key.secret,
                timestamp: &timestamp,
                nonce: self.nonce,
            },
            &mut params,
        );
        let query: Vec<String> = params
            .iter()
            .map(|(k, v)| format!("{}={}", percent_encode(k), percent_encode(v)))
            .collect();
        format!("{}/?{}", self.endpoint.trim_end_matches('/'), query.join("&"))
    }
}

/// One page of `LookupEvents`.
#[derive(Debug, Clone, PartialEq)]
pub struct EventPage {
    /// The window's account's events, as ActionTrail documents them.
    pub events: Vec<TrailEvent>,
    pub next_token: Option<String>,
    /// Events that are not documented ActionTrail events (skipped).
    pub unreadable: usize,
}

/// Why a `LookupEvents` call gave no page.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LookupFailure {
    /// The service refused the call for its rate limit: wait and call again.
    #[error("LookupEvents was throttled: {0}")]
    Throttled(String),
    /// The AccessKey is unknown, disabled or not allowed to read ActionTrail.
    #[error("ActionTrail refused the leased account's AccessKey: {0}")]
    Auth(String),
    #[error("LookupEvents failed: {0}")]
    Api(String),
    #[error("LookupEvents answered in an unexpected shape: {0}")]
    Invalid(String),
}

/// Reads one answer of `LookupEvents` (HTTP `status`, body `text`), keeping the events of
/// `account_id` when one is given.
pub fn read_page(status: u16, text: &str, account_id: Option<&str>) -> Result<EventPage, LookupFailure> {
    let short = || text.chars().take(200).collect::<String>();
    let body: Value =
        serde_json::from_str(text).map_err(|e| LookupFailure::Invalid(format!("HTTP {status}, {e}: {}", short())))?;
    if status >= 400 {
        let field = |k: &str| body.get(k).and_then(Value::as_str).unwrap_or_default().to_owned();
        let (code, message) = (field("Code"), field("Message"));
        let described = format!("{code} (HTTP {status}): {message}");
        return Err(
            if code == "Throttling" || code.starts_with("Throttling.") || status == 429 {
                LookupFailure::Throttled(described)
            } else if status == 401
                || [
                    "InvalidAccessKeyId",
                    "SignatureDoesNotMatch",
                    "IncompleteSignature",
                    "Forbidden.RAM",
                    "Forbidden.AccessKeyDisabled",
                    "NoPermission",
                ]
                .iter()
                .any(|c| code == *c || code.starts_with(&format!("{c}.")))
            {
                LookupFailure::Auth(described)
            } else {
                LookupFailure::Api(described)
            },
        );
    }
    let raw = body
        .get("Events")
        .and_then(Value::as_array)
        .ok_or_else(|| LookupFailure::Invalid(format!("no Events list in {}", short())))?;
    let mut page = EventPage {
        events: Vec::new(),
        next_token: body
            .get("NextToken")
            .and_then(Value::as_str)
            .filter(|t| !t.is_empty())
            .map(str::to_owned),
        unreadable: 0,
    };
    for event in raw {
        match read_event(event) {
            Ok(event) if account_id.is_none_or(|a| a == event.recipient_account_id) => page.events.push(event),
            Ok(_) => {}
            Err(_) => page.unreadable += 1,
        }
    }
    Ok(page)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lookup_url_is_signed_as_the_native_client_signs_it() {
        let key = AccessKey {
            id: "LTAIexample".into(),
            secret: "secret".into(),
        };
        let window = LookupWindow {
            account_id: Some("1234".into()),
            start_ms: 1_796_047_265_000,
        };
        let call = LookupCall {
            endpoint: "http://127.0.0.1:8080/",
            key: &key,
            window: &window,
            event_name: Some("CreateVpc"),
            page_size: 50,
            next_token: Some("t/2"),
            now_ms: 1_796_047_300_000,
            nonce: "n-1",
        };
        let url = call.url();
        let query = url.strip_prefix("http://127.0.0.1:8080/?").unwrap();
        let params: BTreeMap<String, String> = query
            .split('&')
            .map(|pair| {
                let (k, v) = pair.split_once('=').unwrap();
                let decode = |s: &str| {
                    percent_encoding::percent_decode_str(s)
                        .decode_utf8()
                        .unwrap()
                        .into_owned()
                };
                (decode(k), decode(v))
            })
            .collect();
        assert_eq!(params["Action"], "LookupEvents");
        assert_eq!(params["StartTime"], "2026-11-30T14:01:05Z");
        assert_eq!(params["Timestamp"], "2026-11-30T14:01:40Z");
        assert_eq!(params["LookupAttribute.1.Value"], "CreateVpc");
        assert_eq!(params["NextToken"], "t/2");
        let expected =
            aca_openapi::sign::rpc_signature("secret", &aca_openapi::sign::rpc_string_to_sign("GET", &params));
        assert_eq!(params["Signature"], expected, "the verifier's recomputation agrees");
    }

    fn event(id: &str, account: &str) -> Value {
        serde_json::json!({
            "eventId": id, "eventVersion": 1, "eventName": "CreateVpc", "eventType": "ApiCall",
            "eventRW": "Write", "eventSource": "vpc.aliyuncs.com", "serviceName": "Vpc",
            "acsRegion": "cn-hangzhou", "eventTime": "2026-11-30T14:01:06Z", "requestId": "r",
            "sourceIpAddress": "127.0.0.1", "userAgent": "vpc.console.aliyun.com",
            "recipientAccountId": account,
            "userIdentity": {"type": "root-account", "accountId": account, "accessKeyId": "k",
                "principalId": account, "userName": "root"},
            "requestParameters": {"VpcName": "web-vpc"}, "responseElements": {},
            "referencedResources": {}
        })
    }

    #[test]
    fn a_page_keeps_the_accounts_events_and_its_next_token() {
        let body = serde_json::json!({
            "Events": [event("e1", "1234"), event("e2", "9999"), {"eventId": "broken"}],
            "NextToken": "next",
        });
        let page = read_page(200, &body.to_string(), Some("1234")).unwrap();
        assert_eq!(
            page.events.iter().map(|e| e.event_id.as_str()).collect::<Vec<_>>(),
            ["e1"]
        );
        assert_eq!(page.next_token.as_deref(), Some("next"));
        assert_eq!(page.unreadable, 1);
        let last = read_page(200, r#"{"Events": [], "NextToken": ""}"#, None).unwrap();
        assert_eq!(last.next_token, None);
    }

    #[test]
    fn refusals_are_told_apart() {
        let answer = |code: &str| format!(r#"{{"Code": "{code}", "Message": "m", "RequestId": "r"}}"#);
        assert!(matches!(
            read_page(400, &answer("Throttling.User"), None),
            Err(LookupFailure::Throttled(_))
        ));
        assert!(matches!(
            read_page(400, &answer("SignatureDoesNotMatch"), None),
            Err(LookupFailure::Auth(_))
        ));
        assert!(matches!(
            read_page(400, &answer("InvalidParameter"), None),
            Err(LookupFailure::Api(_))
        ));
        assert!(matches!(read_page(200, "<html>", None), Err(LookupFailure::Invalid(_))));
        assert!(matches!(read_page(200, "{}", None), Err(LookupFailure::Invalid(_))));
    }
}
