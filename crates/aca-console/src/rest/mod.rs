//! The REST protocols of OSS and Simple Log Service, served on the same address as the RPC OpenAPI.
//!
//! Routing (see [`root`] and [`fallback`]): a request whose `Authorization` header starts with `OSS `
//! (signature V1) or `OSS4-HMAC-SHA256` goes to OSS, one with `Authorization: LOG <ak>:<sig>` goes to
//! Simple Log Service, and any other request to a path other than `/` is a path-style OSS request
//! (`/<bucket>[/<key>]`). Everything else on `/` (an `Action` parameter or `x-acs-action` header) is RPC.
//!
//! What is supported:
//! - OSS: path-style addressing only (what the `oss2` SDK uses for an IP endpoint such as
//!   `http://127.0.0.1:PORT`), signature V1 in the `Authorization` header or in a presigned URL
//!   (`OSSAccessKeyId`, `Expires`, `Signature`). V4 signatures and anonymous access are refused with
//!   `AccessDenied`. Object bodies are kept in the account's resource store (base64), so objects are
//!   limited to [`oss::MAX_OBJECT_BYTES`] (`EntityTooLarge` beyond); `Content-MD5` is checked. A `Range`
//!   header is ignored (the whole object comes back, as HTTP allows); multipart uploads, copies and
//!   the other bucket sub-resources answer `NotImplemented`.
//! - Simple Log Service: the project comes from the `Host` header (`<project>.<endpoint>`, where the
//!   endpoint is an IP address, `localhost` or a `*.log.aliyuncs.com` name), or, for clients that cannot
//!   set the `Host` header, from an `x-log-project` header. Projects and logstores only (no log data).
//!   The SLS SDKs also put the project in the host name they connect to, which does not resolve for an
//!   `IP:port` endpoint; running them with the emulator as their HTTP proxy (`HTTP_PROXY`) delivers
//!   the request with its `Host` header intact. `x-log-date` stands in for a missing `Date`.
//! - Both: the `Date` header must be within the configured clock skew; the bucket's or project's
//!   region (or, for a new one, the region its `Host` names, else the default region) becomes the
//!   operation's `RegionId` and so the event's `acsRegion` and regional `eventSource`.
//!
//! Every request runs as a normal [`crate::catalog::Operation`] of [`oss::PRODUCT`] or [`sls::PRODUCT`]
//! through [`Console::call`], so it becomes an ActionTrail event (a failed one on error). Bucket and
//! project names are global across accounts, as on the real cloud.

use std::cell::RefCell;
use std::net::SocketAddr;
use std::sync::Arc;

use aca_core::EventType;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, Method, Uri, header};
use axum::response::Response;

use crate::Console;
use crate::catalog::Product;
use crate::dispatch::Caller;
use crate::model::{AccessKey, Resource};

pub mod oss;
pub mod sls;
pub mod xml;

/// The REST products, for the console UI and ActionTrail (they are not routed by API version).
pub fn rest_products() -> [&'static Product; 2] {
    [&oss::PRODUCT, &sls::PRODUCT]
}

/// Which protocol a request speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Protocol {
    Rpc,
    Oss,
    Sls,
}

fn protocol(path: &str, headers: &HeaderMap) -> Protocol {
    let authorization = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if authorization.starts_with("OSS ") || authorization.starts_with(oss::V4_SCHEME) {
        Protocol::Oss
    } else if authorization.starts_with("LOG ") {
        Protocol::Sls
    } else if path == "/" {
        Protocol::Rpc
    } else {
        Protocol::Oss
    }
}

/// One HTTP request, as the REST handlers see it.
#[derive(Debug)]
pub(crate) struct RestRequest {
    pub method: Method,
    pub uri: Uri,
    pub headers: HeaderMap,
    pub body: Bytes,
    pub source_ip: String,
}

impl RestRequest {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The decoded query pairs, in request order.
    pub fn query(&self) -> Vec<(String, String)> {
        form_urlencoded::parse(self.uri.query().unwrap_or("").as_bytes())
            .into_owned()
            .collect()
    }
}

/// `/`: RPC unless the `Authorization` header names OSS or Simple Log Service.
pub async fn root(
    state: State<Arc<Console>>,
    peer: ConnectInfo<SocketAddr>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    match protocol(uri.path(), &headers) {
        Protocol::Rpc => crate::api::rpc::handle(state, peer, method, uri, headers, body).await,
        _ => fallback(state, peer, method, uri, headers, body).await,
    }
}

/// Every path no other route claims: OSS buckets and objects, Simple Log Service logstores.
pub async fn fallback(
    State(console): State<Arc<Console>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let protocol = protocol(uri.path(), &headers);
    let request = RestRequest {
        method,
        uri,
        headers,
        body,
        source_ip: peer.ip().to_string(),
    };
    // Signature checks and SQLite commits are synchronous work: keep them off the async workers.
    let served = tokio::task::spawn_blocking(move || match protocol {
        Protocol::Sls => sls::serve(&console, &request),
        _ => oss::serve(&console, &request),
    })
    .await;
    match served {
        Ok(response) => response,
        Err(join) => match protocol {
            Protocol::Sls => sls::internal_error(&join.to_string()),
            _ => oss::internal_error(&join.to_string()),
        },
    }
}

/// The active AccessKey with this id, if any (inactive keys come back too, for their own error).
pub(crate) fn access_key(console: &Console, access_key_id: &str) -> Option<AccessKey> {
    let account_id = console.store.account_of_key(access_key_id)?;
    let shared = console.store.account(&account_id)?;
    shared.lock().access_keys.get(access_key_id).cloned()
}

/// The caller an authenticated key stands for.
pub(crate) fn caller_of(key: &AccessKey, request: &RestRequest) -> Caller {
    Caller {
        account_id: key.account_id.clone(),
        access_key_id: key.id.clone(),
        user_name: key.user_name.clone(),
        user_agent: request.header("user-agent").unwrap_or("").to_owned(),
        source_ip: request.source_ip.clone(),
        event_type: EventType::ApiCall,
        event_name: None,
    }
}

/// The account holding the resource whose id `id_in(account_id)` gives, looking at one account at a
/// time (never two account locks at once).
pub(crate) fn owner_of(console: &Console, id_in: impl Fn(&str) -> String) -> Option<(String, Resource)> {
    console.store.account_ids().into_iter().find_map(|account_id| {
        let shared = console.store.account(&account_id)?;
        let found = shared.lock().resources().get(&id_in(&account_id)).cloned();
        found.map(|resource| (account_id, resource))
    })
}

/// Serialises "is this global name free?" checks with the creations that follow them, so two
/// accounts cannot both create the same bucket or project name.
pub(crate) static GLOBAL_NAMES: parking_lot::Mutex<()> = parking_lot::Mutex::new(());

/// Parses an RFC 1123 `Date` header (`Mon, 30 Nov 2026 14:01:05 GMT`) into epoch milliseconds.
pub(crate) fn parse_http_date(value: &str) -> Option<i64> {
    let format = time::macros::format_description!(
        "[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT"
    );
    let parsed = time::PrimitiveDateTime::parse(value.trim(), &format).ok()?;
    Some(parsed.assume_utc().unix_timestamp() * 1000)
}

/// The body a REST operation reads (`PutObject`) and the raw body it answers with (`GetObject`).
///
/// Object bodies travel beside the operation's parameters rather than inside them, so they never
/// land in an ActionTrail event's `requestParameters` or `responseElements`.
#[derive(Debug, Default)]
struct Exchange {
    /// Whether a REST request is being served on this thread (outside one, response bodies are dropped).
    active: bool,
    request: Bytes,
    response: Option<Vec<u8>>,
}

thread_local! {
    static EXCHANGE: RefCell<Exchange> = RefCell::new(Exchange::default());
}

/// Runs `call` with `body` as the request body; returns its result and the raw response body it set.
pub(crate) fn with_body<R>(body: Bytes, call: impl FnOnce() -> R) -> (R, Option<Vec<u8>>) {
    EXCHANGE.with(|e| {
        *e.borrow_mut() = Exchange {
            active: true,
            request: body,
            response: None,
        }
    });
    let result = call();
    let response = EXCHANGE.with(|e| std::mem::take(&mut *e.borrow_mut()).response);
    (result, response)
}

/// The raw body of the request being served (empty outside [`with_body`]).
pub(crate) fn request_body() -> Bytes {
    EXCHANGE.with(|e| e.borrow().request.clone())
}

/// Sets the raw body of the response (an object's content), when a REST request is being served.
pub(crate) fn set_response_body(bytes: Vec<u8>) {
    EXCHANGE.with(|e| {
        let mut exchange = e.borrow_mut();
        if exchange.active {
            exchange.response = Some(bytes);
        }
    });
}

/// A REST request as the handlers receive it, for unit tests.
#[cfg(test)]
pub(crate) fn test_request(method: axum::http::Method, uri: &str, headers: &[(&str, &str)]) -> RestRequest {
    use axum::http::{HeaderName, HeaderValue};
    let mut map = HeaderMap::new();
    for (n, v) in headers {
        map.insert(
            HeaderName::from_bytes(n.as_bytes()).unwrap(),
            HeaderValue::from_str(v).unwrap(),
        );
    }
    RestRequest {
        method,
        uri: uri.parse().unwrap(),
        headers: map,
        body: axum::body::Bytes::new(),
        source_ip: "127.0.0.1".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_by_authorization_and_path() {
        let mut h = HeaderMap::new();
        assert_eq!(protocol("/", &h), Protocol::Rpc);
        assert_eq!(protocol("/bucket/key", &h), Protocol::Oss);
        h.insert(header::AUTHORIZATION, "OSS LTAI:abc=".parse().unwrap());
        assert_eq!(protocol("/", &h), Protocol::Oss);
        h.insert(header::AUTHORIZATION, "LOG LTAI:abc=".parse().unwrap());
        assert_eq!(protocol("/logstores", &h), Protocol::Sls);
        h.insert(header::AUTHORIZATION, "ACS3-HMAC-SHA256 Credential=x".parse().unwrap());
        assert_eq!(protocol("/", &h), Protocol::Rpc);
    }

    #[test]
    fn parses_http_dates() {
        assert_eq!(parse_http_date("Thu, 01 Jan 1970 00:00:10 GMT"), Some(10_000));
        assert_eq!(parse_http_date("yesterday"), None);
    }

    #[test]
    fn bodies_travel_beside_the_call() {
        let (seen, response) = with_body(Bytes::from_static(b"abc"), || {
            set_response_body(b"xyz".to_vec());
            request_body()
        });
        assert_eq!((&seen[..], response.as_deref()), (&b"abc"[..], Some(&b"xyz"[..])));
        assert!(request_body().is_empty(), "the body does not outlive its call");
        set_response_body(b"dropped".to_vec());
        let ((), response) = with_body(Bytes::new(), || ());
        assert_eq!(response, None, "bodies set outside a request are not kept");
    }
}
