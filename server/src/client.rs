//! A small signed OpenAPI client (RPC signature 1.0), for the emulator and the real cloud alike.

use std::collections::BTreeMap;
use std::time::Duration;

use aca_console::api::signature::{RpcRequest, sign_rpc};
use aca_console::clock::{Clock, SystemClock, iso8601};
use anyhow::{Context, bail};
use serde::Deserialize;
use serde_json::Value;

/// AccessKey credentials, in the same JSON shape `aca console --credentials` writes.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AccessKeyPair {
    pub access_key_id: String,
    pub access_key_secret: String,
}

impl AccessKeyPair {
    pub fn from_file(path: &std::path::Path) -> anyhow::Result<Self> {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading credentials {}", path.display()))?;
        serde_json::from_str(&text).with_context(|| format!("{} is not a credentials JSON file", path.display()))
    }
}

/// An error the API returned (its body is Alibaba Cloud's error shape).
#[derive(Debug)]
pub struct ApiFailure {
    pub status: u16,
    pub code: String,
    pub message: String,
    pub request_id: String,
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

#[derive(Debug, Clone)]
pub struct RpcClient {
    http: reqwest::Client,
    /// `http://127.0.0.1:8080` for the emulator, `https://vpc.aliyuncs.com` for the cloud.
    endpoint: String,
    keys: AccessKeyPair,
    user_agent: String,
}

impl RpcClient {
    pub fn new(endpoint: &str, keys: AccessKeyPair) -> anyhow::Result<Self> {
        let http = reqwest::Client::builder().timeout(Duration::from_secs(30)).build()?;
        let endpoint = endpoint.trim_end_matches('/').to_owned();
        if !endpoint.starts_with("http://") && !endpoint.starts_with("https://") {
            bail!("endpoint {endpoint:?} must start with http:// or https://");
        }
        Ok(Self {
            http,
            endpoint,
            keys,
            user_agent: format!("aca/{}", env!("CARGO_PKG_VERSION")),
        })
    }

    /// Calls `action` of the product with API `version`; returns the JSON body or the API's error.
    pub async fn call(&self, version: &str, action: &str, params: &BTreeMap<String, String>) -> anyhow::Result<Value> {
        let mut query = params.clone();
        let request = RpcRequest {
            method: "GET",
            action,
            version,
            access_key_id: &self.keys.access_key_id,
            access_key_secret: &self.keys.access_key_secret,
            timestamp: &iso8601(SystemClock.now_ms()),
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
            .with_context(|| format!("calling {action} at {}", self.endpoint))?;
        let status = response.status().as_u16();
        let body: Value = response
            .json()
            .await
            .with_context(|| format!("{action}: the response is not JSON"))?;
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
}
