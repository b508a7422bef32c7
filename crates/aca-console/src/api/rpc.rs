//! The RPC-style OpenAPI endpoint: one address for every product, routed by the request's API
//! version (`Version` parameter or `x-acs-version` header), authenticated by AccessKey signature.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;

use aca_core::EventType;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use crate::Console;
use crate::catalog::Product;
use crate::clock::parse_iso8601;
use crate::dispatch::Caller;
use crate::error::ApiError;
use crate::model::request_id;
use crate::params::Params;
use crate::products;
use aca_openapi::sign::{self as signature, Acs3Authorization};

/// How the caller wants the body: the real default is XML, SDKs ask for JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Json,
    Xml,
}

struct Request {
    method: Method,
    path: String,
    query: Vec<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
    params: Params,
    source_ip: String,
}

/// `GET|POST /` with an `Action`: the handler behind every RPC product.
pub async fn handle(
    State(console): State<Arc<Console>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let query: Vec<(String, String)> = form_pairs(uri.query().unwrap_or("").as_bytes());
    let mut map: BTreeMap<String, String> = query.iter().cloned().collect();
    let is_form = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/x-www-form-urlencoded"));
    if is_form {
        map.extend(form_pairs(&body));
    }
    let params = Params::new(map);
    // RPC 1.0 answers XML unless the caller asks for JSON; V3 (`x-acs-action`) answers JSON.
    let v3 = headers.contains_key("x-acs-action");
    let format = match params.get("Format") {
        Some(f) if f.eq_ignore_ascii_case("XML") => Format::Xml,
        Some(_) => Format::Json,
        None if v3 => Format::Json,
        None => Format::Xml,
    };
    let request = Request {
        method,
        path: uri.path().to_owned(),
        query,
        headers,
        body,
        params,
        source_ip: peer.ip().to_string(),
    };
    let console = console.clone();
    // Signature checks and SQLite commits are synchronous work: keep them off the async workers.
    let result = tokio::task::spawn_blocking(move || serve(&console, request)).await;
    match result {
        Ok(Served {
            action,
            request_id,
            result: Ok(body),
            ..
        }) => respond_ok(&action, &request_id, body, format),
        Ok(Served {
            request_id,
            product,
            result: Err(e),
            ..
        }) => respond_err(&e, &request_id, product, format),
        Err(join) => respond_err(&ApiError::internal(join.to_string()), &request_id(), None, format),
    }
}

/// What [`serve`] did with one request.
struct Served {
    action: String,
    request_id: String,
    /// The product the request's version routed to, once known: its endpoint is the error's `HostId`.
    product: Option<&'static Product>,
    result: Result<Value, ApiError>,
}

fn form_pairs(bytes: &[u8]) -> Vec<(String, String)> {
    form_urlencoded::parse(bytes).into_owned().collect()
}

/// Authenticates and runs one request.
fn serve(console: &Console, req: Request) -> Served {
    let acs3 = req
        .headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .filter(|v| v.starts_with(signature::ACS3))
        .map(str::to_owned);
    let header = |name: &str| req.headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let action = header("x-acs-action")
        .or_else(|| req.params.get("Action").map(str::to_owned))
        .unwrap_or_default();
    let version = header("x-acs-version")
        .or_else(|| req.params.get("Version").map(str::to_owned))
        .unwrap_or_default();
    let fail = |e: ApiError, product: Option<&'static Product>| Served {
        action: action.clone(),
        request_id: request_id(),
        product,
        result: Err(e),
    };
    if action.is_empty() {
        return fail(ApiError::missing_parameter("Action"), None);
    }
    if version.is_empty() {
        return fail(ApiError::missing_parameter("Version"), None);
    }
    let Some(product) = products::by_version(&version) else {
        return fail(ApiError::version_not_found(&version), None);
    };

    let auth = match &acs3 {
        Some(h) => verify_acs3(console, &req, h),
        None => verify_rpc(console, &req),
    };
    let (account_id, key_user) = match auth {
        Ok(found) => found,
        Err(failure) => {
            let AuthFailure { error, account } = *failure;
            if let Some((account_id, access_key_id, user_name)) = account {
                let caller = Caller {
                    account_id,
                    access_key_id,
                    user_name,
                    user_agent: header("user-agent").unwrap_or_default(),
                    source_ip: req.source_ip.clone(),
                    event_type: EventType::ApiCall,
                    event_name: None,
                };
                let request_id = console.record_failure(product, &action, &req.params, &caller, &error);
                return Served {
                    action,
                    request_id,
                    product: Some(product),
                    result: Err(error),
                };
            }
            return fail(error, Some(product));
        }
    };
    let caller = Caller {
        account_id,
        access_key_id: key_user.0,
        user_name: key_user.1,
        user_agent: header("user-agent").unwrap_or_default(),
        source_ip: req.source_ip.clone(),
        event_type: EventType::ApiCall,
        event_name: None,
    };
    let outcome = console.call(product, &action, &req.params, &caller);
    Served {
        action,
        request_id: outcome.request_id,
        product: Some(product),
        result: outcome.result,
    }
}

struct AuthFailure {
    error: ApiError,
    /// (account id, AccessKey id, RAM user) when the key was known: the failure is then audited.
    account: Option<(String, String, Option<String>)>,
}

type Authenticated = (String, (String, Option<String>));

fn key_of(console: &Console, access_key_id: &str) -> Result<(String, crate::model::AccessKey), Box<AuthFailure>> {
    let not_found = || {
        Box::new(AuthFailure {
            error: ApiError::access_key_not_found(),
            account: None,
        })
    };
    let account_id = console.store.account_of_key(access_key_id).ok_or_else(not_found)?;
    let shared = console.store.account(&account_id).ok_or_else(not_found)?;
    let key = shared
        .lock()
        .access_keys
        .get(access_key_id)
        .cloned()
        .ok_or_else(not_found)?;
    if !key.active {
        return Err(Box::new(AuthFailure {
            error: ApiError::access_key_disabled(),
            account: None,
        }));
    }
    Ok((account_id, key))
}

fn verify_rpc(console: &Console, req: &Request) -> Result<Authenticated, Box<AuthFailure>> {
    let bare = |error| Box::new(AuthFailure { error, account: None });
    let access_key_id = req
        .params
        .get("AccessKeyId")
        .ok_or_else(|| bare(ApiError::missing_parameter("AccessKeyId")))?;
    let given = req
        .params
        .get("Signature")
        .ok_or_else(|| bare(ApiError::missing_parameter("Signature")))?;
    let (account_id, key) = key_of(console, access_key_id)?;
    let audited = |error| {
        Box::new(AuthFailure {
            error,
            account: Some((account_id.clone(), key.id.clone(), key.user_name.clone())),
        })
    };
    if let Some(method) = req.params.get("SignatureMethod")
        && method != "HMAC-SHA1"
    {
        return Err(audited(ApiError::invalid_parameter(
            "SignatureMethod",
            format!("{method:?} is not supported; use HMAC-SHA1"),
        )));
    }
    check_timestamp(console, "Timestamp", req.params.get("Timestamp")).map_err(audited)?;
    let string_to_sign = signature::rpc_string_to_sign(req.method.as_str(), req.params.as_map());
    let expected = signature::rpc_signature(&key.secret, &string_to_sign);
    if !signature::signatures_match(&expected, given) {
        return Err(audited(ApiError::signature_mismatch(&string_to_sign)));
    }
    check_nonce(console, &key.id, req.params.get("SignatureNonce")).map_err(audited)?;
    Ok((account_id, (key.id, key.user_name)))
}

/// The V3 common request headers (all but `Authorization`); each one present must be in `SignedHeaders`.
const ACS3_COMMON_HEADERS: &[&str] = &[
    "host",
    "x-acs-action",
    "x-acs-version",
    "x-acs-date",
    "x-acs-signature-nonce",
    "x-acs-content-sha256",
    "x-acs-security-token",
];

fn verify_acs3(console: &Console, req: &Request, authorization: &str) -> Result<Authenticated, Box<AuthFailure>> {
    let bare = |error| Box::new(AuthFailure { error, account: None });
    let auth = Acs3Authorization::parse(authorization).ok_or_else(|| {
        bare(ApiError::invalid_parameter(
            "Authorization",
            "expected ACS3-HMAC-SHA256 Credential=…,SignedHeaders=…,Signature=…",
        ))
    })?;
    let (account_id, key) = key_of(console, &auth.access_key_id)?;
    let audited = |error| {
        Box::new(AuthFailure {
            error,
            account: Some((account_id.clone(), key.id.clone(), key.user_name.clone())),
        })
    };
    let header = |name: &str| {
        req.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned()
    };
    check_timestamp(
        console,
        "x-acs-date",
        Some(&header("x-acs-date"))
            .filter(|d| !d.is_empty())
            .map(String::as_str),
    )
    .map_err(audited)?;
    let hashed_payload = {
        let declared = header("x-acs-content-sha256");
        if declared.is_empty() {
            signature::sha256_hex(&req.body)
        } else {
            declared
        }
    };
    if hashed_payload != signature::sha256_hex(&req.body) {
        return Err(audited(ApiError::new(
            StatusCode::BAD_REQUEST,
            "InvalidContentSha256",
            "x-acs-content-sha256 does not match the body.",
        )));
    }
    // Every common request header the request carries must be signed, or it could be changed in flight.
    let unsigned = ACS3_COMMON_HEADERS
        .iter()
        .find(|name| req.headers.contains_key(**name) && !auth.signed_headers.iter().any(|signed| signed == *name));
    if let Some(name) = unsigned {
        return Err(audited(ApiError::new(
            StatusCode::BAD_REQUEST,
            "SignatureDoesNotMatch",
            format!("The request header \"{name}\" is not in SignedHeaders; every common request header is signed."),
        )));
    }
    let headers: Vec<(String, String)> = req
        .headers
        .iter()
        .map(|(n, v)| (n.as_str().to_ascii_lowercase(), v.to_str().unwrap_or("").to_owned()))
        .collect();
    let string_to_sign = signature::acs3_string_to_sign(
        req.method.as_str(),
        &req.path,
        &req.query,
        &headers,
        &auth.signed_headers,
        &hashed_payload,
    );
    let expected = signature::acs3_signature(&key.secret, &string_to_sign);
    if !signature::signatures_match(&expected, &auth.signature) {
        return Err(audited(ApiError::signature_mismatch(&string_to_sign)));
    }
    let nonce = header("x-acs-signature-nonce");
    check_nonce(console, &key.id, Some(nonce.as_str()).filter(|n| !n.is_empty())).map_err(audited)?;
    Ok((account_id, (key.id, key.user_name)))
}

/// Refuses a reused nonce (checked after the signature, so nobody can burn another caller's nonces).
fn check_nonce(console: &Console, access_key_id: &str, nonce: Option<&str>) -> Result<(), ApiError> {
    let Some(nonce) = nonce else { return Ok(()) };
    let window = 2 * console.config.max_clock_skew_ms;
    if console
        .nonces
        .first_use(access_key_id, nonce, console.clock.now_ms(), window)
    {
        Ok(())
    } else {
        Err(ApiError::nonce_used())
    }
}

/// `name` is where the time came from: the `Timestamp` parameter or the `x-acs-date` header.
fn check_timestamp(console: &Console, name: &str, timestamp: Option<&str>) -> Result<(), ApiError> {
    let Some(ts) = timestamp else {
        return Err(ApiError::missing_parameter(name));
    };
    let at = parse_iso8601(ts)
        .ok_or_else(|| ApiError::invalid_parameter(name, format!("{ts:?} is not an ISO 8601 UTC time")))?;
    if (console.clock.now_ms() - at).abs() > console.config.max_clock_skew_ms {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "InvalidTimeStamp.Expired",
            format!("Specified time stamp or date value is expired: {ts}."),
        ));
    }
    Ok(())
}

fn respond_ok(action: &str, _request_id: &str, body: Value, format: Format) -> Response {
    match format {
        Format::Json => (StatusCode::OK, axum::Json(body)).into_response(),
        Format::Xml => xml_response(StatusCode::OK, &format!("{action}Response"), &body),
    }
}

/// The error body as the product's endpoint returns it: `HostId` is that endpoint, and `Recommend`
/// links the diagnosis page for this code, product and request.
pub(crate) fn error_body(e: &ApiError, request_id: &str, product: Option<&Product>) -> Value {
    let (host_id, recommend) = match product {
        Some(p) => {
            let recommend = format!(
                "https://api.aliyun.com/troubleshoot?q={}&product={}&requestId={request_id}",
                e.code, p.service_name
            );
            (p.endpoint, recommend)
        }
        None => (
            "aliyuncs.com",
            format!("https://api.aliyun.com/troubleshoot?q={}", e.code),
        ),
    };
    serde_json::json!({
        "RequestId": request_id,
        "HostId": host_id,
        "Code": e.code,
        "Message": e.message,
        "Recommend": recommend,
    })
}

fn respond_err(e: &ApiError, request_id: &str, product: Option<&Product>, format: Format) -> Response {
    let body = error_body(e, request_id, product);
    match format {
        Format::Json => (e.status, axum::Json(body)).into_response(),
        Format::Xml => xml_response(e.status, "Error", &body),
    }
}

fn xml_response(status: StatusCode, root: &str, body: &Value) -> Response {
    let mut out = String::from("<?xml version='1.0' encoding='UTF-8'?>");
    write_xml(&mut out, root, body);
    (status, [(header::CONTENT_TYPE, "text/xml;charset=utf-8")], out).into_response()
}

fn write_xml(out: &mut String, name: &str, value: &Value) {
    match value {
        Value::Array(items) => items.iter().for_each(|item| write_xml(out, name, item)),
        Value::Object(map) => {
            out.push_str(&format!("<{name}>"));
            for (k, v) in map {
                write_xml(out, k, v);
            }
            out.push_str(&format!("</{name}>"));
        }
        Value::Null => out.push_str(&format!("<{name}/>")),
        Value::String(s) => out.push_str(&format!("<{name}>{}</{name}>", xml_escape(s))),
        other => out.push_str(&format!("<{name}>{other}</{name}>")),
    }
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
