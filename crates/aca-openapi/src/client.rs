//! A small signed OpenAPI client (RPC signature 1.0), for the emulator and the real cloud alike.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;

use crate::sign::{RpcRequest, sign_rpc};

/// AccessKey credentials, in the same JSON shape `aca console --credentials` writes. Its `Debug`
/// shows the id only: the secret never reaches a log or an error.
#[derive(Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AccessKeyPair {
    pub access_key_id: String,
    pub access_key_secret: String,
}

impl AccessKeyPair {
    pub fn new(access_key_id: impl Into<String>, access_key_secret: impl Into<String>) -> Self {
        Self {
            access_key_id: access_key_id.into(),
            access_key_secret: access_key_secret.into(),
        }
    }

    /// Reads a credentials JSON file (`{"accessKeyId": …, "accessKeySecret": …}`).
    pub fn from_file(path: &Path) -> Result<Self, ClientError> {
        let credentials_error = |detail: String| ClientError::Credentials {
            path: path.to_owned(),
            detail,
        };
        let text = std::fs::read_to_string(path).map_err(|e| credentials_error(e.to_string()))?;
        serde_json::from_str(&text).map_err(|e| credentials_error(format!("not a credentials JSON file: {e}")))
    }
}

impl std::fmt::Debug for AccessKeyPair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AccessKeyPair")
            .field("access_key_id", &self.access_key_id)
            .field("access_key_secret", &"<redacted>")
            .finish()
    }
}

/// An error the API returned (its body is Alibaba Cloud's error shape).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiFailure {
    pub status: u16,
    pub code: String,
    pub message: String,
    pub request_id: String,
}

impl ApiFailure {
    /// The API refused the call for its rate limit (`Throttling`, `Throttling.User`, …): retry later.
    pub fn is_throttling(&self) -> bool {
        self.code == "Throttling" || self.code.starts_with("Throttling.") || self.status == 429
    }

    /// The AccessKey is unknown, disabled, lacks permission, or the signature does not verify.
    pub fn is_auth_failure(&self) -> bool {
        const AUTH_CODES: &[&str] = &[
            "InvalidAccessKeyId",
            "SignatureDoesNotMatch",
            "IncompleteSignature",
            "InvalidSecurityToken",
            "Forbidden.RAM",
            "Forbidden.AccessKeyDisabled",
            "NoPermission",
        ];
        self.status == 401
            || AUTH_CODES
                .iter()
                .any(|code| self.code == *code || self.code.starts_with(&format!("{code}.")))
    }
}

impl std::fmt::Display for ApiFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} (HTTP {}): {} [RequestId {}]",
            self.code, self.status, self.message, self.request_id
        )
    }
}

impl std::error::Error for ApiFailure {}

/// Why a call gave no answer body.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    #[error("endpoint {0:?} must start with http:// or https://")]
    InvalidEndpoint(String),
    #[error("reading credentials {path}: {detail}")]
    Credentials { path: PathBuf, detail: String },
    #[error("the HTTP client could not be built: {0}")]
    Setup(String),
    /// No connection could be made (refused, unknown host, TLS failure) or it broke off.
    #[error("calling {action} at {endpoint}: the endpoint is unreachable: {detail}")]
    Unreachable {
        endpoint: String,
        action: String,
        detail: String,
    },
    #[error("calling {action} at {endpoint}: no answer within {timeout:?}")]
    TimedOut {
        endpoint: String,
        action: String,
        timeout: Duration,
    },
    #[error("{action}: the response (HTTP {status}) is not Alibaba Cloud JSON: {detail}")]
    InvalidResponse {
        action: String,
        status: u16,
        detail: String,
    },
    /// The API answered with an error.
    #[error(transparent)]
    Api(#[from] ApiFailure),
}

impl ClientError {
    /// The API's error, when the API answered with one.
    pub fn api_failure(&self) -> Option<&ApiFailure> {
        match self {
            ClientError::Api(failure) => Some(failure),
            _ => None,
        }
    }
}

/// How long a call may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// Making the TCP (and TLS) connection.
    pub connect: Duration,
    /// The whole request, answer included.
    pub request: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Self {
            connect: Duration::from_secs(10),
            request: Duration::from_secs(30),
        }
    }
}

/// Signs every call with an AccessKey (RPC signature 1.0) and sends it to one endpoint.
#[derive(Debug, Clone)]
pub struct RpcClient {
    http: reqwest::Client,
    /// `http://127.0.0.1:8080` for the emulator, `https://vpc.aliyuncs.com` for the cloud.
    endpoint: String,
    keys: AccessKeyPair,
    user_agent: String,
    timeouts: Timeouts,
}

impl RpcClient {
    pub fn new(endpoint: &str, keys: AccessKeyPair) -> Result<Self, ClientError> {
        Self::with_timeouts(endpoint, keys, Timeouts::default())
    }

    pub fn with_timeouts(endpoint: &str, keys: AccessKeyPair, timeouts: Timeouts) -> Result<Self, ClientError> {
        let endpoint = endpoint.trim_end_matches('/').to_owned();
        if !endpoint.starts_with("http://") && !endpoint.starts_with("https://") {
            return Err(ClientError::InvalidEndpoint(endpoint));
        }
        let http = reqwest::Client::builder()
            .connect_timeout(timeouts.connect)
            .timeout(timeouts.request)
            .build()
            .map_err(|e| ClientError::Setup(e.to_string()))?;
        Ok(Self {
            http,
            endpoint,
            keys,
            user_agent: format!("aca/{}", env!("CARGO_PKG_VERSION")),
            timeouts,
        })
    }

    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    pub fn access_key_id(&self) -> &str {
        &self.keys.access_key_id
    }

    /// Calls `action` of the product with API `version`; returns the JSON body or the API's error.
    pub async fn call(
        &self,
        version: &str,
        action: &str,
        params: &BTreeMap<String, String>,
    ) -> Result<Value, ClientError> {
        let mut query = params.clone();
        let request = RpcRequest {
            method: "GET",
            action,
            version,
            access_key_id: &self.keys.access_key_id,
            access_key_secret: &self.keys.access_key_secret,
            timestamp: &utc_timestamp(),
            nonce: &uuid::Uuid::new_v4().to_string(),
        };
        sign_rpc(request, &mut query);
        let response = self
            .http
            .get(format!("{}/", self.endpoint))
            .header("User-Agent", &self.user_agent)
            .query(&query)
            .send()
            .await
            .map_err(|e| self.transport_error(action, e))?;
        let status = response.status().as_u16();
        let text = response.text().await.map_err(|e| self.transport_error(action, e))?;
        let body: Value = serde_json::from_str(&text).map_err(|e| ClientError::InvalidResponse {
            action: action.to_owned(),
            status,
            detail: format!("{e}: {}", text.chars().take(200).collect::<String>()),
        })?;
        if status >= 400 {
            let field = |k: &str| body.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
            return Err(ApiFailure {
                status,
                code: field("Code"),
                message: field("Message"),
                request_id: field("RequestId"),
            }
            .into());
        }
        Ok(body)
    }

    /// The error of a call that got no answer. Its text never carries the request's URL: the query
    /// holds the AccessKey id and the signature.
    fn transport_error(&self, action: &str, e: reqwest::Error) -> ClientError {
        let e = e.without_url();
        if e.is_timeout() {
            return ClientError::TimedOut {
                endpoint: self.endpoint.clone(),
                action: action.to_owned(),
                timeout: if e.is_connect() {
                    self.timeouts.connect
                } else {
                    self.timeouts.request
                },
            };
        }
        let mut detail = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(cause) = source {
            detail.push_str(": ");
            detail.push_str(&cause.to_string());
            source = cause.source();
        }
        ClientError::Unreachable {
            endpoint: self.endpoint.clone(),
            action: action.to_owned(),
            detail,
        }
    }
}

/// Now, as signed requests carry it: `2026-11-30T14:01:05Z`.
fn utc_timestamp() -> String {
    let now = time::OffsetDateTime::now_utc();
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        now.year(),
        u8::from(now.month()),
        now.day(),
        now.hour(),
        now.minute(),
        now.second()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_an_endpoint_without_a_scheme() {
        let keys = AccessKeyPair::new("id", "secret");
        assert!(matches!(
            RpcClient::new("vpc.aliyuncs.com", keys),
            Err(ClientError::InvalidEndpoint(_))
        ));
    }

    #[test]
    fn timestamps_look_like_the_signature_documentation() {
        let stamp = utc_timestamp();
        assert_eq!(stamp.len(), "2026-11-30T14:01:05Z".len());
        assert!(stamp.ends_with('Z') && stamp.as_bytes()[10] == b'T');
    }

    #[test]
    fn classifies_api_failures() {
        let failure = |status, code: &str| ApiFailure {
            status,
            code: code.into(),
            message: String::new(),
            request_id: String::new(),
        };
        assert!(failure(400, "Throttling.User").is_throttling());
        assert!(!failure(400, "InvalidParameter").is_throttling());
        assert!(failure(404, "InvalidAccessKeyId.NotFound").is_auth_failure());
        assert!(failure(400, "SignatureDoesNotMatch").is_auth_failure());
        assert!(!failure(404, "InvalidVpcId.NotFound").is_auth_failure());
    }

    #[tokio::test]
    async fn a_closed_port_is_unreachable_at_once() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        drop(listener);
        let client = RpcClient::new(&format!("http://127.0.0.1:{port}"), AccessKeyPair::new("id", "s")).unwrap();
        let started = std::time::Instant::now();
        let error = client
            .call("2016-04-28", "DescribeVpcs", &BTreeMap::new())
            .await
            .unwrap_err();
        assert!(matches!(error, ClientError::Unreachable { .. }), "{error}");
        assert!(started.elapsed() < Duration::from_secs(5));
        let text = format!("{error} {error:?}");
        for leak in ["Signature", "AccessKeyId", "SignatureNonce"] {
            assert!(!text.contains(leak), "the error carries the signed URL: {text}");
        }
    }

    #[test]
    fn debug_output_never_shows_the_secret() {
        let keys = AccessKeyPair::new("LTAI-id", "the-secret");
        let client = RpcClient::new("http://127.0.0.1:1", keys.clone()).unwrap();
        let shown = format!("{keys:?} {client:?}");
        assert!(shown.contains("LTAI-id") && !shown.contains("the-secret"), "{shown}");
    }
}
