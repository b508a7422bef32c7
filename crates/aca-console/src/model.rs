//! What the emulator stores: accounts, their AccessKeys, and their resources.
//!
//! Every product keeps its resources in the same generic [`Resource`] record (a kind, an id, a name,
//! a status and product-specific attributes), so storage, isolation and asynchronous states are
//! written once for all twelve products.

use rand::Rng;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::clock::Millis;
use crate::profile::ProfileId;

/// An Alibaba Cloud account: the unit of isolation. No account sees another's resources or events.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Account {
    /// 16 digits, as real account ids.
    pub id: String,
    /// Display name; also the console login name's prefix.
    pub name: String,
    /// Console login: `<name>@<id>.onaliyun.com`.
    pub login: String,
    pub password: String,
    pub profile: ProfileId,
    /// Balance in cents (CNY); buy pages and pay-as-you-go creations check it.
    pub balance_cents: i64,
    pub created_ms: Millis,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AccessKey {
    pub id: String,
    pub secret: String,
    pub account_id: String,
    /// The RAM user owning the key; `None` for the account's own (root) key.
    pub user_name: Option<String>,
    pub active: bool,
    pub created_ms: Millis,
    /// When DeleteAccessKey moved the pair to its owner's recycle bin, from which it can be
    /// restored until it is purged; none for a pair in use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recycled_ms: Option<Millis>,
}

/// A pending asynchronous state change: the resource shows `to` once the clock passes `at_ms`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Transition {
    pub to: String,
    pub at_ms: Millis,
}

/// One resource of any product.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Resource {
    /// `<product>.<type>`, for example `ecs.instance`, `vpc.vswitch`, `ram.user`.
    pub kind: String,
    pub id: String,
    pub region: String,
    pub name: String,
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transition: Option<Transition>,
    /// The id of the resource this one lives in (the VPC of a vSwitch, the instance of a database).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    pub created_ms: Millis,
    #[serde(default)]
    pub attrs: Map<String, Value>,
}

impl Resource {
    pub fn new(kind: &str, id: String, region: &str, name: &str, status: &str, now_ms: Millis) -> Self {
        Self {
            kind: kind.to_owned(),
            id,
            region: region.to_owned(),
            name: name.to_owned(),
            status: status.to_owned(),
            transition: None,
            parent: None,
            created_ms: now_ms,
            attrs: Map::new(),
        }
    }

    /// Applies a transition whose time has come. Returns whether the status changed.
    pub fn settle(&mut self, now_ms: Millis) -> bool {
        match &self.transition {
            Some(t) if t.at_ms <= now_ms => {
                self.status = t.to.clone();
                self.transition = None;
                true
            }
            _ => false,
        }
    }

    pub fn attr_str(&self, key: &str) -> &str {
        self.attrs.get(key).and_then(Value::as_str).unwrap_or("")
    }

    pub fn attr_i64(&self, key: &str) -> Option<i64> {
        self.attrs.get(key).and_then(Value::as_i64)
    }

    pub fn set(&mut self, key: &str, value: impl Into<Value>) {
        self.attrs.insert(key.to_owned(), value.into());
    }

    /// Builder form of [`Resource::set`].
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.set(key, value);
        self
    }
}

const ID_ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";

/// A resource id in the real style: `vpc-bp1` followed by random lowercase letters and digits.
pub fn resource_id(prefix: &str) -> String {
    let mut rng = rand::rng();
    let tail: String = (0..17)
        .map(|_| ID_ALPHABET[rng.random_range(0..ID_ALPHABET.len())] as char)
        .collect();
    if prefix.is_empty() {
        format!("bp1{tail}")
    } else {
        format!("{prefix}-bp1{tail}")
    }
}

/// 16 decimal digits, never starting with 0.
pub fn account_id() -> String {
    let mut rng = rand::rng();
    let mut id = rng.random_range(1..=9u8).to_string();
    id.extend((0..15).map(|_| char::from(b'0' + rng.random_range(0..10u8))));
    id
}

/// `LTAI` + 20 characters, the shape of real AccessKey ids, and a 30-character secret.
pub fn access_key_pair() -> (String, String) {
    const UPPER_ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::rng();
    let mut pick = |n: usize| -> String {
        (0..n)
            .map(|_| UPPER_ALNUM[rng.random_range(0..UPPER_ALNUM.len())] as char)
            .collect()
    };
    (format!("LTAI{}", pick(20)), pick(30))
}

/// A request id in the real upper-case UUID form.
pub fn request_id() -> String {
    uuid::Uuid::new_v4().to_string().to_uppercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transitions_settle_only_when_due() {
        let mut r = Resource::new("ecs.instance", resource_id("i"), "cn-hangzhou", "web", "Starting", 0);
        r.transition = Some(Transition {
            to: "Running".into(),
            at_ms: 100,
        });
        assert!(!r.settle(99));
        assert_eq!(r.status, "Starting");
        assert!(r.settle(100));
        assert_eq!((r.status.as_str(), r.transition.is_none()), ("Running", true));
    }

    #[test]
    fn ids_have_the_real_shapes() {
        let id = resource_id("vpc");
        assert!(id.starts_with("vpc-bp1") && id.len() == 24, "{id}");
        let acct = account_id();
        assert!(acct.len() == 16 && acct.chars().all(|c| c.is_ascii_digit()) && !acct.starts_with('0'));
        let (ak, secret) = access_key_pair();
        assert!(ak.starts_with("LTAI") && ak.len() == 24 && secret.len() == 30);
    }
}
