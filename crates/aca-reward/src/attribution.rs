//! Whose work an audit event records. The provisioner acts in the run's account as its own RAM user;
//! its calls, and the calls that set that user up and take it down, are not the procedure's work and
//! never meet a success rule.

use std::collections::BTreeSet;

use aca_core::{SuccessRule, TrailEvent};

use crate::rule::match_resolved;

/// The RAM users the provisioner acted as during a run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProvisionerCalls {
    users: BTreeSet<String>,
}

impl ProvisionerCalls {
    /// Nothing was provisioned: every event may be the procedure's.
    pub fn none() -> Self {
        Self::default()
    }

    /// The provisioner acted as the RAM user `user_name`.
    pub fn of_user(user_name: impl Into<String>) -> Self {
        Self {
            users: BTreeSet::from([user_name.into()]),
        }
    }

    /// The provisioner also acted as the RAM user `user_name`.
    pub fn add_user(&mut self, user_name: impl Into<String>) {
        self.users.insert(user_name.into());
    }

    pub fn is_empty(&self) -> bool {
        self.users.is_empty()
    }

    pub fn users(&self) -> impl Iterator<Item = &str> {
        self.users.iter().map(String::as_str)
    }

    /// Whether the provisioner made `event`: its user called, or the call concerned its user
    /// (`CreateUser`, `CreateAccessKey`, … with `UserName` = that user).
    pub fn made(&self, event: &TrailEvent) -> bool {
        if self.users.is_empty() {
            return false;
        }
        self.users.contains(&event.user_identity.user_name)
            || event
                .request_parameters
                .get("UserName")
                .and_then(|v| v.as_str())
                .is_some_and(|name| self.users.contains(name))
    }

    /// Whether `resolved` fails on the procedure's events but holds once the provisioner's are added:
    /// only what the provisioner did would have met it.
    pub fn only_they_meet(resolved: &SuccessRule, procedures: &[TrailEvent], provisioners: &[TrailEvent]) -> bool {
        if provisioners.is_empty() || match_resolved(resolved, procedures).matched {
            return false;
        }
        let everything: Vec<TrailEvent> = procedures.iter().chain(provisioners).cloned().collect();
        match_resolved(resolved, &everything).matched
    }

    /// The sentence a report carries when only the provisioner's calls would meet the rule.
    pub fn only_they_matched(&self) -> String {
        let users: Vec<&str> = self.users().collect();
        format!(
            "only the provisioner's own calls (RAM user {}) meet the rule: the resources it created for the run are not the procedure's work",
            users.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn event(user: &str, params: serde_json::Value) -> TrailEvent {
        let mut e: TrailEvent = serde_json::from_value(json!({
            "eventId": "E1", "eventVersion": 1, "eventName": "CreateVpc", "eventType": "ApiCall",
            "eventRW": "Write", "eventSource": "vpc.aliyuncs.com", "serviceName": "Vpc",
            "acsRegion": "cn-hangzhou", "eventTime": "2026-12-01T00:00:00Z", "requestId": "R1",
            "userIdentity": {"type": "ram-user", "accountId": "1", "accessKeyId": "AK",
                             "principalId": "1", "userName": user},
            "userAgent": "ua", "sourceIpAddress": "127.0.0.1", "recipientAccountId": "1"
        }))
        .expect("a valid event");
        e.request_parameters = serde_json::from_value(params).expect("parameters");
        e
    }

    #[test]
    fn the_provisioners_user_and_calls_about_it_are_its_own() {
        let calls = ProvisionerCalls::of_user("aca-provisioner-abc123");
        assert!(calls.made(&event("aca-provisioner-abc123", json!({}))));
        assert!(calls.made(&event("root", json!({"UserName": "aca-provisioner-abc123"}))));
        assert!(!calls.made(&event("root", json!({"UserName": "dev-abc123"}))));
        assert!(!calls.made(&event("root", json!({}))));
    }

    #[test]
    fn without_a_provisioner_every_event_is_the_procedures() {
        assert!(!ProvisionerCalls::none().made(&event("root", json!({"UserName": ""}))));
    }
}
