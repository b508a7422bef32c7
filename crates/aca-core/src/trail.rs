//! ActionTrail management events, field for field as the real service writes them.
//!
//! Field names follow ActionTrail's event structure (`eventId`, `eventName`, `eventType`, …) so that
//! events from the bundled console emulator and from the real cloud deserialise into the same type.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Resource type (for example `ACS::ECS::Instance`) → the ids the event touched.
pub type ReferencedResources = BTreeMap<String, Vec<String>>;

/// One audit event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrailEvent {
    pub event_id: String,
    pub event_version: u32,
    /// The API operation (`CreateVpc`) or, for buy-page purchases, the console operation (`Create`).
    pub event_name: String,
    pub event_type: EventType,
    #[serde(rename = "eventRW")]
    pub event_rw: EventRw,
    /// The endpoint that received the request, e.g. `vpc.aliyuncs.com`.
    pub event_source: String,
    /// The service as ActionTrail names it: `Ecs`, `Vpc`, `Oss`, `Ims` (RAM users), …
    pub service_name: String,
    pub acs_region: String,
    /// UTC, RFC 3339 with second precision: `2026-11-30T14:01:05Z`.
    pub event_time: String,
    pub request_id: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(default)]
    pub request_parameters: BTreeMap<String, Value>,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub response_elements: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_message: Option<String>,
    pub user_identity: UserIdentity,
    pub user_agent: String,
    pub source_ip_address: String,
    #[serde(default)]
    pub referenced_resources: ReferencedResources,
    /// The account the event belongs to (the resource owner).
    pub recipient_account_id: String,
}

impl TrailEvent {
    /// The event as a report lists it.
    pub fn summary(&self) -> crate::EventSummary {
        crate::EventSummary {
            event_id: self.event_id.clone(),
            event_name: self.event_name.clone(),
            service_name: self.service_name.clone(),
            event_type: self.event_type.as_str().to_owned(),
            event_time: self.event_time.clone(),
        }
    }

    /// The names of every resource the event references, whatever their type.
    pub fn resource_names(&self) -> impl Iterator<Item = &str> {
        self.referenced_resources.values().flatten().map(String::as_str)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EventType {
    /// A call of a product API, from an SDK, the CLI or the console's own front end.
    ApiCall,
    /// A console action with no single API behind it, such as a buy-page purchase.
    ConsoleOperation,
    /// An action Alibaba Cloud took on the account's behalf.
    AliyunServiceEvent,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EventRw {
    Read,
    Write,
}

impl EventRw {
    pub fn as_str(self) -> &'static str {
        match self {
            EventRw::Read => "Read",
            EventRw::Write => "Write",
        }
    }
}

impl EventType {
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::ApiCall => "ApiCall",
            EventType::ConsoleOperation => "ConsoleOperation",
            EventType::AliyunServiceEvent => "AliyunServiceEvent",
        }
    }
}

/// Who made the request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UserIdentity {
    #[serde(rename = "type")]
    pub kind: IdentityType,
    pub account_id: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub access_key_id: String,
    pub principal_id: String,
    #[serde(default)]
    pub user_name: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum IdentityType {
    /// The Alibaba Cloud account itself (the root identity).
    #[serde(rename = "root-account")]
    Root,
    /// A RAM user of the account.
    RamUser,
    /// A RAM role assumed through STS.
    AssumedRole,
    System,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_event_json_round_trips() {
        let real = serde_json::json!({
            "eventId": "92b33345-0cef-47be-821f-fb9914d3aaaa",
            "eventVersion": 1,
            "eventName": "DeleteDisk",
            "eventType": "ApiCall",
            "eventRW": "Write",
            "eventSource": "ecs.aliyuncs.com",
            "serviceName": "Ecs",
            "acsRegion": "cn-hangzhou",
            "eventTime": "2022-10-22T21:52:00Z",
            "requestId": "32B7EB75-62EE-511E-9449-E19EBF67C2ED",
            "apiVersion": "2014-05-26",
            "requestParameters": {"DiskId": "d-8vbf8rpv2nn0l1zm0000"},
            "userIdentity": {"type": "ram-user", "accountId": "1968132276290000",
                "accessKeyId": "LTAI0000", "principalId": "2000", "userName": "alice"},
            "userAgent": "AlibabaCloud (Linux) Python/3.11",
            "sourceIpAddress": "127.0.0.1",
            "referencedResources": {"ACS::ECS::Disk": ["d-8vbf8rpv2nn0l1zm0000"]},
            "recipientAccountId": "1968132276290000"
        });
        let event: TrailEvent = serde_json::from_value(real.clone()).unwrap();
        assert_eq!(event.event_rw, EventRw::Write);
        assert_eq!(event.user_identity.kind, IdentityType::RamUser);
        assert_eq!(event.resource_names().collect::<Vec<_>>(), ["d-8vbf8rpv2nn0l1zm0000"]);
        assert_eq!(serde_json::to_value(&event).unwrap(), real);
        assert_eq!(serde_json::to_value(IdentityType::Root).unwrap(), "root-account");
    }
}
