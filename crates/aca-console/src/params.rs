//! The parameters of one API request, with the typed getters every operation uses.
//!
//! RPC requests carry flat string parameters. Lists come either as repeat lists (`InstanceId.1`,
//! `InstanceId.2`), as JSON arrays (`InstanceIds=["i-1","i-2"]`), or, for object lists, as
//! `Tag.1.Key` / `Tag.1.Value`. Errors name the parameter the way the real API does.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::error::ApiError;

/// Parameters that belong to the protocol, not to the operation; they never reach an event.
pub const PROTOCOL_PARAMS: &[&str] = &[
    "Action",
    "Version",
    "Format",
    "AccessKeyId",
    "Signature",
    "SignatureMethod",
    "SignatureVersion",
    "SignatureNonce",
    "SignatureType",
    "Timestamp",
    "SecurityToken",
];

/// Parameters that carry a private key: CLB's `PrivateKey`, Certificate Management Service's
/// `Key`, `EncryptPrivateKey` and `SignPrivateKey`.
const PRIVATE_KEY_PARAMS: &[&str] = &["Key"];

/// Whether a request parameter's or a response field's value is a secret no event may show:
/// passwords, private keys, a KMS secret's value, a new AccessKey's secret, a virtual MFA device's
/// setup key and the QR code that holds it.
pub(crate) fn is_secret(name: &str) -> bool {
    ["Password", "PrivateKey", "Secret", "SecretData", "StringSeed", "QRCodePNG"]
        .iter()
        .any(|suffix| name.ends_with(suffix))
        || PRIVATE_KEY_PARAMS.contains(&name)
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Params(BTreeMap<String, String>);

impl Params {
    pub fn new(map: BTreeMap<String, String>) -> Self {
        Self(map)
    }

    pub fn from_pairs<K: Into<String>, V: Into<String>>(pairs: impl IntoIterator<Item = (K, V)>) -> Self {
        Self(pairs.into_iter().map(|(k, v)| (k.into(), v.into())).collect())
    }

    pub fn insert(&mut self, key: impl Into<String>, value: impl Into<String>) {
        self.0.insert(key.into(), value.into());
    }

    pub fn as_map(&self) -> &BTreeMap<String, String> {
        &self.0
    }

    /// The operation's own parameters, as an event's `requestParameters`. Passwords and private
    /// keys are masked: an audit log is read by more people than the account's owner.
    pub fn operation_params(&self) -> BTreeMap<String, Value> {
        self.0
            .iter()
            .filter(|(k, _)| !PROTOCOL_PARAMS.contains(&k.as_str()))
            .map(|(k, v)| {
                let value = if is_secret(k) { "******" } else { v.as_str() };
                (k.clone(), Value::String(value.to_owned()))
            })
            .collect()
    }

    /// A present, non-empty value.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str).filter(|v| !v.is_empty())
    }

    pub fn required(&self, name: &str) -> Result<&str, ApiError> {
        self.get(name).ok_or_else(|| ApiError::missing_parameter(name))
    }

    pub fn string_or(&self, name: &str, default: &str) -> String {
        self.get(name).unwrap_or(default).to_owned()
    }

    pub fn int(&self, name: &str) -> Result<Option<i64>, ApiError> {
        match self.get(name) {
            None => Ok(None),
            Some(v) => v
                .parse()
                .map(Some)
                .map_err(|_| ApiError::invalid_parameter(name, format!("{v:?} is not an integer"))),
        }
    }

    pub fn int_or(&self, name: &str, default: i64) -> Result<i64, ApiError> {
        Ok(self.int(name)?.unwrap_or(default))
    }

    /// An integer within `range`, or the default when absent.
    pub fn int_in(&self, name: &str, range: std::ops::RangeInclusive<i64>, default: i64) -> Result<i64, ApiError> {
        let v = self.int_or(name, default)?;
        if range.contains(&v) {
            Ok(v)
        } else {
            Err(ApiError::invalid_parameter(
                name,
                format!("{v} is outside {}..={}", range.start(), range.end()),
            ))
        }
    }

    pub fn bool(&self, name: &str) -> Result<Option<bool>, ApiError> {
        match self.get(name) {
            None => Ok(None),
            Some(v) if v.eq_ignore_ascii_case("true") => Ok(Some(true)),
            Some(v) if v.eq_ignore_ascii_case("false") => Ok(Some(false)),
            Some(v) => Err(ApiError::invalid_parameter(name, format!("{v:?} is not true or false"))),
        }
    }

    /// One of the allowed values (case-sensitive, as the real API is).
    pub fn one_of<'a>(&'a self, name: &str, allowed: &[&str]) -> Result<Option<&'a str>, ApiError> {
        match self.get(name) {
            None => Ok(None),
            Some(v) if allowed.contains(&v) => Ok(Some(v)),
            Some(v) => Err(ApiError::invalid_parameter(
                name,
                format!("{v:?} is not one of {}", allowed.join(", ")),
            )),
        }
    }

    /// A list given as `Name.1`, `Name.2`, … or as a JSON array in `Name` (or `Names`).
    pub fn list(&self, name: &str) -> Result<Vec<String>, ApiError> {
        let mut numbered: Vec<(u32, String)> = self
            .0
            .iter()
            .filter_map(|(k, v)| {
                let n = k.strip_prefix(name)?.strip_prefix('.')?.parse::<u32>().ok()?;
                Some((n, v.clone()))
            })
            .collect();
        if !numbered.is_empty() {
            numbered.sort_by_key(|(n, _)| *n);
            return Ok(numbered.into_iter().map(|(_, v)| v).collect());
        }
        for key in [name.to_owned(), format!("{name}s")] {
            if let Some(raw) = self.get(&key) {
                if raw.trim_start().starts_with('[') {
                    let values: Vec<Value> = serde_json::from_str(raw)
                        .map_err(|e| ApiError::invalid_parameter(&key, format!("not a JSON array: {e}")))?;
                    return Ok(values
                        .into_iter()
                        .map(|v| match v {
                            Value::String(s) => s,
                            other => other.to_string(),
                        })
                        .collect());
                }
                return Ok(raw
                    .split(',')
                    .map(|s| s.trim().to_owned())
                    .filter(|s| !s.is_empty())
                    .collect());
            }
        }
        Ok(Vec::new())
    }

    /// Ids given comma-separated in one parameter (`DBInstanceId`, `InstanceIDs`), at most `max`
    /// of them; none when the parameter is absent.
    pub fn id_list(&self, name: &str, max: usize) -> Result<Option<Vec<String>>, ApiError> {
        let Some(raw) = self.get(name) else {
            return Ok(None);
        };
        let ids: Vec<String> = raw
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        if ids.len() > max {
            return Err(ApiError::invalid_parameter(name, format!("at most {max} instance IDs")));
        }
        Ok(Some(ids))
    }

    /// Object lists given as `Name.1.Field` (for example `Tag.1.Key`, `Tag.1.Value`).
    pub fn object_list(&self, name: &str) -> Vec<BTreeMap<String, String>> {
        let mut items: BTreeMap<u32, BTreeMap<String, String>> = BTreeMap::new();
        for (k, v) in &self.0 {
            let Some(rest) = k.strip_prefix(name).and_then(|r| r.strip_prefix('.')) else {
                continue;
            };
            let Some((n, field)) = rest.split_once('.') else {
                continue;
            };
            let Ok(n) = n.parse::<u32>() else { continue };
            items.entry(n).or_default().insert(field.to_owned(), v.clone());
        }
        items.into_values().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_come_in_three_shapes() {
        let p = Params::from_pairs([("InstanceId.2", "i-b"), ("InstanceId.1", "i-a")]);
        assert_eq!(p.list("InstanceId").unwrap(), ["i-a", "i-b"]);
        let p = Params::from_pairs([("InstanceIds", r#"["i-a","i-b"]"#)]);
        assert_eq!(p.list("InstanceId").unwrap(), ["i-a", "i-b"]);
        let p = Params::from_pairs([("SecurityIps", "10.0.0.1,10.0.0.2")]);
        assert_eq!(p.list("SecurityIps").unwrap(), ["10.0.0.1", "10.0.0.2"]);
        let p = Params::from_pairs([("InstanceIds", "[oops")]);
        let e = p.list("InstanceId").unwrap_err();
        assert_eq!(e.code, "InvalidParameter");
        assert!(e.message.contains("\"InstanceIds\""));
    }

    #[test]
    fn an_event_shows_no_password_nor_private_key() {
        let p = Params::from_pairs([
            ("Password", "Secret#1"),
            ("PrivateKey", "-----BEGIN PRIVATE KEY-----"),
            ("Key", "-----BEGIN RSA PRIVATE KEY-----"),
            ("SecretData", "db-password-value"),
            ("Tag.1.Key", "env"),
            ("Name", "web"),
            ("SecretName", "db-credentials"),
        ]);
        let shown = p.operation_params();
        for secret in ["Password", "PrivateKey", "Key", "SecretData"] {
            assert_eq!(shown[secret], "******", "{secret}");
        }
        assert_eq!(shown["Tag.1.Key"], "env");
        assert_eq!(shown["Name"], "web");
        assert_eq!(shown["SecretName"], "db-credentials");
    }

    #[test]
    fn errors_name_the_parameter() {
        let p = Params::from_pairs([("Bandwidth", "fast")]);
        let e = p.required("VpcId").unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.message.contains("\"VpcId\"")),
            ("MissingParameter", true)
        );
        assert!(p.int("Bandwidth").unwrap_err().message.contains("\"Bandwidth\""));
        let p = Params::from_pairs([("Tag.1.Key", "env"), ("Tag.1.Value", "prod")]);
        assert_eq!(p.object_list("Tag")[0]["Value"], "prod");
    }

    #[test]
    fn an_events_parameters_never_hold_a_password() {
        let p = Params::from_pairs([
            ("InstanceId", "i-a"),
            ("Password", "Secret#2026"),
            ("AccountPassword", "x"),
        ]);
        let logged = p.operation_params();
        assert_eq!(logged["InstanceId"], "i-a");
        assert_eq!(
            (logged["Password"].as_str(), logged["AccountPassword"].as_str()),
            (Some("******"), Some("******"))
        );
    }
}
