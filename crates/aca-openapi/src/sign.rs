//! Alibaba Cloud's request signatures: RPC signature version 1.0 (HMAC-SHA1 over the canonicalised
//! query, used by `aliyun-python-sdk-core`, `@alicloud/pop-core` and the CLI) and V3
//! (`ACS3-HMAC-SHA256` in the `Authorization` header, used by the `alibabacloud-*` SDKs).
//!
//! Pure functions only (no clock, no randomness, no I/O): a client passes its timestamp and nonce
//! in, a server recomputes the same strings to verify. Builds for wasm32 as well as native.

use base64::Engine as _;
use hmac::{Hmac, Mac};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use sha2::Digest;

/// Everything but RFC 3986's unreserved characters is encoded (`~` stays, space becomes `%20`).
const RFC3986: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'.').remove(b'~');

/// RFC 3986 percent-encoding, as both signature versions canonicalise keys and values.
pub fn percent_encode(s: &str) -> String {
    utf8_percent_encode(s, RFC3986).to_string()
}

/// The RPC 1.0 string to sign: `METHOD&%2F&` + the encoded, sorted `key=value` list (without `Signature`).
pub fn rpc_string_to_sign<'a>(method: &str, params: impl IntoIterator<Item = (&'a String, &'a String)>) -> String {
    let mut pairs: Vec<(String, String)> = params
        .into_iter()
        .filter(|(k, _)| k.as_str() != "Signature")
        .map(|(k, v)| (percent_encode(k), percent_encode(v)))
        .collect();
    pairs.sort();
    let canonical = pairs
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&");
    format!(
        "{}&{}&{}",
        method.to_ascii_uppercase(),
        percent_encode("/"),
        percent_encode(&canonical)
    )
}

/// Base64 of HMAC-SHA1 keyed with `secret&`.
pub fn rpc_signature(secret: &str, string_to_sign: &str) -> String {
    let mut mac =
        Hmac::<sha1::Sha1>::new_from_slice(format!("{secret}&").as_bytes()).expect("HMAC takes any key length");
    mac.update(string_to_sign.as_bytes());
    base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())
}

/// The header signature of OSS and SLS REST requests: base64 of HMAC-SHA1 keyed with the secret
/// itself (RPC appends `&`), over the product's own string to sign.
pub fn rest_signature(secret: &str, string_to_sign: &str) -> String {
    let mut mac = Hmac::<sha1::Sha1>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    mac.update(string_to_sign.as_bytes());
    base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())
}

/// What a client needs to sign an RPC 1.0 request.
#[derive(Debug, Clone, Copy)]
pub struct RpcRequest<'a> {
    pub method: &'a str,
    pub action: &'a str,
    pub version: &'a str,
    pub access_key_id: &'a str,
    pub access_key_secret: &'a str,
    /// `2026-11-30T14:01:05Z`.
    pub timestamp: &'a str,
    /// Unique per request (replays are refused).
    pub nonce: &'a str,
}

/// Adds the RPC 1.0 protocol parameters (JSON answers, HMAC-SHA1) and the `Signature` to `params`.
pub fn sign_rpc(request: RpcRequest<'_>, params: &mut std::collections::BTreeMap<String, String>) {
    for (k, v) in [
        ("Action", request.action),
        ("Version", request.version),
        ("Format", "JSON"),
        ("AccessKeyId", request.access_key_id),
        ("SignatureMethod", "HMAC-SHA1"),
        ("SignatureVersion", "1.0"),
        ("SignatureNonce", request.nonce),
        ("Timestamp", request.timestamp),
    ] {
        params.insert(k.to_owned(), v.to_owned());
    }
    params.remove("Signature");
    let signature = rpc_signature(
        request.access_key_secret,
        &rpc_string_to_sign(request.method, params.iter()),
    );
    params.insert("Signature".to_owned(), signature);
}

/// The parts of an `Authorization: ACS3-HMAC-SHA256 Credential=…,SignedHeaders=…,Signature=…` header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Acs3Authorization {
    pub access_key_id: String,
    pub signed_headers: Vec<String>,
    pub signature: String,
}

/// The V3 signature algorithm's name, the scheme of its `Authorization` header.
pub const ACS3: &str = "ACS3-HMAC-SHA256";

impl Acs3Authorization {
    /// Reads an `Authorization` header; `None` when it is not a complete V3 authorization.
    pub fn parse(header: &str) -> Option<Self> {
        let rest = header.strip_prefix(ACS3)?.trim();
        let mut credential = None;
        let mut signed = None;
        let mut signature = None;
        for part in rest.split(',') {
            let (k, v) = part.trim().split_once('=')?;
            match k {
                "Credential" => credential = Some(v.to_owned()),
                "SignedHeaders" => signed = Some(v.split(';').map(str::to_owned).collect()),
                "Signature" => signature = Some(v.to_owned()),
                _ => {}
            }
        }
        Some(Self {
            access_key_id: credential?,
            signed_headers: signed?,
            signature: signature?,
        })
    }
}

impl std::fmt::Display for Acs3Authorization {
    /// The header value, as a client sends it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{ACS3} Credential={},SignedHeaders={},Signature={}",
            self.access_key_id,
            self.signed_headers.join(";"),
            self.signature
        )
    }
}

/// The V3 canonical request and string to sign.
///
/// `headers` are (lower-case name, value) pairs of the request; only the signed ones are used.
pub fn acs3_string_to_sign(
    method: &str,
    path: &str,
    query: &[(String, String)],
    headers: &[(String, String)],
    signed_headers: &[String],
    hashed_payload: &str,
) -> String {
    let mut q: Vec<(String, String)> = query
        .iter()
        .map(|(k, v)| (percent_encode(k), percent_encode(v)))
        .collect();
    q.sort();
    let canonical_query = q.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("&");
    let mut canonical_headers = String::new();
    for name in signed_headers {
        let value = headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.trim())
            .unwrap_or("");
        canonical_headers.push_str(&format!("{name}:{value}\n"));
    }
    let canonical_path = if path.is_empty() { "/" } else { path };
    let canonical_request = format!(
        "{}\n{}\n{}\n{}\n{}\n{}",
        method.to_ascii_uppercase(),
        canonical_path,
        canonical_query,
        canonical_headers,
        signed_headers.join(";"),
        hashed_payload
    );
    format!(
        "{ACS3}\n{}",
        hex::encode(sha2::Sha256::digest(canonical_request.as_bytes()))
    )
}

/// Hex of HMAC-SHA256 keyed with the AccessKey secret.
pub fn acs3_signature(secret: &str, string_to_sign: &str) -> String {
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    mac.update(string_to_sign.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// Hex of SHA-256: the V3 `x-acs-content-sha256` of a body.
pub fn sha256_hex(body: &[u8]) -> String {
    hex::encode(sha2::Sha256::digest(body))
}

/// Constant-time comparison of two signatures.
pub fn signatures_match(expected: &str, given: &str) -> bool {
    expected.len() == given.len()
        && expected
            .bytes()
            .zip(given.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    /// The worked example of Alibaba Cloud's RPC signature documentation (DescribeRegions, secret `testsecret`).
    #[test]
    fn rpc_signature_matches_the_documented_example() {
        let params: BTreeMap<String, String> = [
            ("Timestamp", "2016-02-23T12:46:24Z"),
            ("Format", "XML"),
            ("AccessKeyId", "testid"),
            ("Action", "DescribeRegions"),
            ("SignatureMethod", "HMAC-SHA1"),
            ("SignatureNonce", "3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf"),
            ("Version", "2014-05-26"),
            ("SignatureVersion", "1.0"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        let sts = rpc_string_to_sign("GET", &params);
        assert_eq!(
            sts,
            "GET&%2F&AccessKeyId%3Dtestid%26Action%3DDescribeRegions%26Format%3DXML%26SignatureMethod%3DHMAC-SHA1%26SignatureNonce%3D3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf%26SignatureVersion%3D1.0%26Timestamp%3D2016-02-23T12%253A46%253A24Z%26Version%3D2014-05-26"
        );
        assert_eq!(rpc_signature("testsecret", &sts), "OLeaidS1JvxuMvnyHOwuJ+uX5qY=");
    }

    #[test]
    fn encodes_like_rfc3986() {
        assert_eq!(percent_encode("a b*c~d/e"), "a%20b%2Ac~d%2Fe");
    }

    #[test]
    fn parses_acs3_authorization() {
        let a = Acs3Authorization::parse(
            "ACS3-HMAC-SHA256 Credential=LTAIxx,SignedHeaders=host;x-acs-action;x-acs-date,Signature=abc123",
        )
        .unwrap();
        assert_eq!(a.access_key_id, "LTAIxx");
        assert_eq!(a.signed_headers, ["host", "x-acs-action", "x-acs-date"]);
        assert_eq!(a.signature, "abc123");
        assert!(Acs3Authorization::parse("Bearer x").is_none());
        assert_eq!(
            Acs3Authorization::parse(&a.to_string()),
            Some(a),
            "a formatted header reads back"
        );
    }

    #[test]
    fn sign_rpc_adds_the_protocol_parameters_and_a_verifiable_signature() {
        let mut params: BTreeMap<String, String> = [("RegionId".to_owned(), "cn-hangzhou".to_owned())].into();
        let request = RpcRequest {
            method: "GET",
            action: "DescribeVpcs",
            version: "2016-04-28",
            access_key_id: "LTAIexample",
            access_key_secret: "secret",
            timestamp: "2026-11-30T14:01:05Z",
            nonce: "n-1",
        };
        sign_rpc(request, &mut params);
        assert_eq!(params["SignatureMethod"], "HMAC-SHA1");
        assert_eq!(params["Action"], "DescribeVpcs");
        let expected = rpc_signature("secret", &rpc_string_to_sign("GET", &params));
        assert!(signatures_match(&expected, &params["Signature"]));
        assert!(!signatures_match(&expected, "forged"));
    }
}
