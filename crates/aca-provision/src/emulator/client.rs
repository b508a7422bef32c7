//! The signed HTTP client the emulator applier calls the OpenAPI with: RPC signature 1.0 for the RPC
//! products, OSS signature V1 for buckets and the LOG signature for Simple Log Service. The only file
//! of this crate that knows how requests are signed.

use std::collections::BTreeMap;
use std::time::Duration;

use aca_console::clock::{Clock, SystemClock, iso8601};
use aca_console::rest::oss;
use aca_openapi::sign::{RpcRequest, rest_signature, sign_rpc};
use reqwest::Method;
use serde_json::Value;

use crate::error::ApiFailure;

/// How many times a throttled call is retried.
const RETRIES: usize = 3;

/// One account's AccessKey pair.
#[derive(Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AccessKey {
    pub access_key_id: String,
    pub access_key_secret: String,
}

/// The id only: a debug print of a lease, an identity or a pool account never shows the secret.
impl std::fmt::Debug for AccessKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AccessKey")
            .field("access_key_id", &self.access_key_id)
            .field("access_key_secret", &"<redacted>")
            .finish()
    }
}

/// Why a call produced no answer to use.
#[derive(Debug, Clone, thiserror::Error)]
pub enum CallError {
    #[error(transparent)]
    Api(ApiFailure),
    #[error("cannot reach {endpoint}: {message}")]
    Transport { endpoint: String, message: String },
    #[error("{action}: unexpected response: {message}")]
    Protocol { action: String, message: String },
}

/// One OSS request: the operation's name (for errors), the bucket and optional object key, a
/// sub-resource such as `acl` or `bucketInfo`, headers (`x-oss-*`, `Content-Type`) and a body.
#[derive(Debug, Clone)]
pub struct OssRequest<'a> {
    pub action: &'a str,
    pub method: Method,
    pub region: &'a str,
    pub bucket: &'a str,
    pub key: Option<&'a str>,
    pub sub_resource: Option<&'a str>,
    pub headers: &'a [(&'a str, &'a str)],
    pub body: Option<String>,
}

impl<'a> OssRequest<'a> {
    pub fn new(action: &'a str, method: Method, region: &'a str, bucket: &'a str) -> Self {
        Self {
            action,
            method,
            region,
            bucket,
            key: None,
            sub_resource: None,
            headers: &[],
            body: None,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Client {
    http: reqwest::Client,
    endpoint: String,
    key: AccessKey,
    user_agent: String,
}

impl Client {
    /// A client for the emulator (or any OpenAPI endpoint) at `endpoint` (`http://127.0.0.1:8080`).
    pub fn new(endpoint: &str, key: AccessKey) -> Result<Self, CallError> {
        let endpoint = endpoint.trim_end_matches('/').to_owned();
        let transport = |message: String| CallError::Transport {
            endpoint: endpoint.clone(),
            message,
        };
        if !endpoint.starts_with("http://") && !endpoint.starts_with("https://") {
            return Err(transport("the endpoint must start with http:// or https://".into()));
        }
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .pool_max_idle_per_host(16)
            .build()
            .map_err(|e| transport(e.to_string()))?;
        Ok(Self {
            http,
            endpoint,
            key,
            user_agent: format!("aca-provision/{} Terraform/alicloud", env!("CARGO_PKG_VERSION")),
        })
    }

    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    fn transport(&self, e: reqwest::Error) -> CallError {
        CallError::Transport {
            endpoint: self.endpoint.clone(),
            message: e.to_string(),
        }
    }

    /// An RPC call: `action` of the product with API `version`, in `region`. Throttled or
    /// unavailable answers are retried up to three times, backing off from 200 ms.
    pub async fn rpc(
        &self,
        version: &str,
        action: &str,
        region: &str,
        params: &BTreeMap<String, String>,
    ) -> Result<Value, CallError> {
        let mut delay = Duration::from_millis(200);
        for _ in 0..RETRIES {
            match self.rpc_once(version, action, region, params).await {
                Err(CallError::Api(e)) if e.code.starts_with("Throttling") || e.status == 503 => {
                    tokio::time::sleep(delay).await;
                    delay *= 2;
                }
                other => return other,
            }
        }
        self.rpc_once(version, action, region, params).await
    }

    async fn rpc_once(
        &self,
        version: &str,
        action: &str,
        region: &str,
        params: &BTreeMap<String, String>,
    ) -> Result<Value, CallError> {
        let mut query = params.clone();
        query.entry("RegionId".to_owned()).or_insert_with(|| region.to_owned());
        let nonce = uuid::Uuid::new_v4().to_string();
        let timestamp = iso8601(SystemClock.now_ms());
        sign_rpc(
            RpcRequest {
                method: "POST",
                action,
                version,
                access_key_id: &self.key.access_key_id,
                access_key_secret: &self.key.access_key_secret,
                timestamp: &timestamp,
                nonce: &nonce,
            },
            &mut query,
        );
        let response = self
            .http
            .post(format!("{}/", self.endpoint))
            .header("User-Agent", &self.user_agent)
            .form(&query)
            .send()
            .await
            .map_err(|e| self.transport(e))?;
        let status = response.status().as_u16();
        let text = response.text().await.map_err(|e| self.transport(e))?;
        let body: Value = serde_json::from_str(&text).map_err(|_| CallError::Protocol {
            action: action.to_owned(),
            message: format!("HTTP {status}, not JSON: {}", clip(&text)),
        })?;
        if status >= 400 {
            let field = |k: &str| body.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
            return Err(CallError::Api(ApiFailure {
                action: action.to_owned(),
                status,
                code: field("Code"),
                message: field("Message"),
            }));
        }
        Ok(body)
    }

    /// An OSS request (path-style), signed with signature V1. Returns the XML (or object) body.
    pub async fn oss(&self, req: OssRequest<'_>) -> Result<String, CallError> {
        let date = oss::http_date(SystemClock.now_ms());
        let mut headers: Vec<(String, String)> = req
            .headers
            .iter()
            .map(|(n, v)| (n.to_ascii_lowercase(), (*v).to_owned()))
            .collect();
        headers.sort();
        let canonical: String = headers
            .iter()
            .filter(|(n, _)| n.starts_with("x-oss-"))
            .map(|(n, v)| format!("{n}:{v}\n"))
            .collect();
        let key = req.key.unwrap_or("");
        let mut resource = format!("/{}/{key}", req.bucket);
        if let Some(sub) = req.sub_resource {
            resource.push('?');
            resource.push_str(sub);
        }
        let content_type = headers
            .iter()
            .find(|(n, _)| n == "content-type")
            .map_or("", |(_, v)| v.as_str());
        let string_to_sign = format!(
            "{}\n\n{content_type}\n{date}\n{canonical}{resource}",
            req.method.as_str()
        );
        let signature = rest_signature(&self.key.access_key_secret, &string_to_sign);
        let encoded_key: String = key
            .split('/')
            .map(|part| percent_encoding::utf8_percent_encode(part, percent_encoding::NON_ALPHANUMERIC).to_string())
            .collect::<Vec<_>>()
            .join("/");
        let mut url = format!("{}/{}/{encoded_key}", self.endpoint, req.bucket);
        if let Some(sub) = req.sub_resource {
            url.push('?');
            url.push_str(sub);
        }
        let mut request = self
            .http
            .request(req.method, url)
            .header("Host", format!("oss-{}.aliyuncs.com", req.region))
            .header("Date", &date)
            .header("User-Agent", &self.user_agent)
            .header("Authorization", format!("OSS {}:{signature}", self.key.access_key_id));
        for (name, value) in &headers {
            request = request.header(name, value);
        }
        if let Some(body) = req.body {
            request = request.body(body);
        }
        let action = req.action;
        let response = request.send().await.map_err(|e| self.transport(e))?;
        let status = response.status().as_u16();
        let text = response.text().await.map_err(|e| self.transport(e))?;
        if status >= 400 {
            return Err(CallError::Api(ApiFailure {
                action: action.to_owned(),
                status,
                code: xml_text(&text, "Code").unwrap_or_default(),
                message: xml_text(&text, "Message").unwrap_or_default(),
            }));
        }
        Ok(text)
    }

    /// A Simple Log Service request on `project` (`path` is `/` or `/logstores[/name]`), signed with
    /// the LOG signature. Returns the JSON body (`null` when empty).
    pub async fn sls(
        &self,
        action: &str,
        method: Method,
        project: &str,
        path: &str,
        region: &str,
        body: Option<&Value>,
    ) -> Result<Value, CallError> {
        let date = oss::http_date(SystemClock.now_ms());
        let payload = body.map(Value::to_string).unwrap_or_default();
        let content_type = if body.is_some() { "application/json" } else { "" };
        let mut log_headers = vec![
            ("x-log-apiversion".to_owned(), "0.6.0".to_owned()),
            ("x-log-bodyrawsize".to_owned(), payload.len().to_string()),
            ("x-log-signaturemethod".to_owned(), "hmac-sha1".to_owned()),
        ];
        log_headers.sort();
        let canonical: String = log_headers.iter().map(|(n, v)| format!("{n}:{v}\n")).collect();
        let string_to_sign = format!("{}\n\n{content_type}\n{date}\n{canonical}{path}", method.as_str());
        let signature = rest_signature(&self.key.access_key_secret, &string_to_sign);
        let mut request = self
            .http
            .request(method, format!("{}{path}", self.endpoint))
            .header("Host", format!("{project}.{region}.log.aliyuncs.com"))
            .header("Date", &date)
            .header("User-Agent", &self.user_agent)
            .header("Authorization", format!("LOG {}:{signature}", self.key.access_key_id));
        for (name, value) in &log_headers {
            request = request.header(name, value);
        }
        if body.is_some() {
            request = request.header("Content-Type", content_type).body(payload);
        }
        let response = request.send().await.map_err(|e| self.transport(e))?;
        let status = response.status().as_u16();
        let text = response.text().await.map_err(|e| self.transport(e))?;
        let parsed: Value = if text.trim().is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).map_err(|_| CallError::Protocol {
                action: action.to_owned(),
                message: format!("HTTP {status}, not JSON: {}", clip(&text)),
            })?
        };
        if status >= 400 {
            let field = |k: &str| parsed.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
            return Err(CallError::Api(ApiFailure {
                action: action.to_owned(),
                status,
                code: field("errorCode"),
                message: field("errorMessage"),
            }));
        }
        Ok(parsed)
    }
}

/// The text of the first `<tag>…</tag>` element of an XML document.
pub fn xml_text(xml: &str, tag: &str) -> Option<String> {
    let open = format!("<{tag}>");
    let start = xml.find(&open)? + open.len();
    let end = xml[start..].find(&format!("</{tag}>"))? + start;
    Some(
        xml[start..end]
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&apos;", "'")
            .replace("&amp;", "&"),
    )
}

/// The texts of every `<tag>…</tag>` element of an XML document, in order.
pub fn xml_texts(xml: &str, tag: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = xml;
    while let Some(found) = xml_text(rest, tag) {
        out.push(found);
        let close = format!("</{tag}>");
        match rest.find(&close) {
            Some(at) => rest = &rest[at + close.len()..],
            None => break,
        }
    }
    out
}

fn clip(text: &str) -> String {
    text.chars().take(200).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_debug_print_never_shows_the_secret() {
        let key = AccessKey {
            access_key_id: "LTAI5tShown".into(),
            access_key_secret: "never-printed".into(),
        };
        let shown = format!("{key:?}");
        assert!(shown.contains("LTAI5tShown") && !shown.contains("never-printed"), "{shown}");
    }

    #[test]
    fn reads_xml_elements() {
        let xml = "<Error><Code>NoSuchBucket</Code><Message>a &amp; b</Message></Error>";
        assert_eq!(xml_text(xml, "Code").as_deref(), Some("NoSuchBucket"));
        assert_eq!(xml_text(xml, "Message").as_deref(), Some("a & b"));
        assert_eq!(xml_text(xml, "HostId"), None);
        let list = "<R><Contents><Key>a.txt</Key></Contents><Contents><Key>b/c.txt</Key></Contents></R>";
        assert_eq!(xml_texts(list, "Key"), ["a.txt", "b/c.txt"]);
    }

    #[test]
    fn refuses_endpoints_without_a_scheme() {
        let key = AccessKey {
            access_key_id: "a".into(),
            access_key_secret: "b".into(),
        };
        assert!(matches!(
            Client::new("127.0.0.1:8080", key),
            Err(CallError::Transport { .. })
        ));
    }
}
