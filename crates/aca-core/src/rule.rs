//! A task's success rule: the audit events that prove the documented operation really happened.
//!
//! The rule channel of `aca-reward` matches a [`SuccessRule`] against ActionTrail `LookupEvents`
//! results for the task's account and time window. Rules are written beside example pages
//! (`*.task.toml`) or inferred from a procedure through the operation catalog; an inferred rule says
//! so, so that the report can ask the writer to confirm it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::trail::EventType;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SuccessRule {
    /// Every matcher must be met, each by its own event, in any order.
    pub events: Vec<EventMatcher>,
    /// Inferred from the procedure rather than written or confirmed by a person.
    #[serde(default)]
    pub inferred: bool,
}

/// One event the task must produce.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventMatcher {
    /// `CreateVpc`, or `Create` for a buy-page purchase (a ConsoleOperation event).
    pub event_name: String,
    /// Other event names that meet the matcher as well: a page that lets the reader choose the
    /// operation ("attach the policy to a RAM user, RAM user group, or RAM role") is done by any one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub or_event_names: Vec<String>,
    /// `Vpc`, `Ecs`, `Ims`, … (ActionTrail's `serviceName`); any when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_type: Option<EventType>,
    /// The event must carry no `errorCode` (the default) or must have failed.
    #[serde(default = "yes")]
    pub succeeded: bool,
    /// A `referencedResources` type the event must reference, e.g. `ACS::VPC::VPC`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_type: Option<String>,
    /// Conditions on `requestParameters`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parameters: Vec<ParameterCondition>,
}

impl EventMatcher {
    /// Every event name that meets the matcher, `event_name` first.
    pub fn event_names(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.event_name.as_str()).chain(self.or_event_names.iter().map(String::as_str))
    }

    /// Whether an event of this name can meet the matcher.
    pub fn names(&self, event_name: &str) -> bool {
        self.event_names().any(|n| n == event_name)
    }
}

fn yes() -> bool {
    true
}

/// A condition on one request parameter. Values may name run-time bindings as `${name}`
/// (a provisioned resource's id, the run's unique suffix), substituted before matching.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParameterCondition {
    /// The parameter's name in `requestParameters`, e.g. `VpcName` or `CidrBlock`.
    pub name: String,
    #[serde(flatten)]
    pub test: ParameterTest,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParameterTest {
    /// Equal as JSON, or as text when one side is a string (`"20"` equals `20`).
    Equals(Value),
    Contains(String),
    StartsWith(String),
    /// `true`: the parameter is present; `false`: it is absent.
    Exists(bool),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_read_as_a_name_and_one_test() {
        let rule: SuccessRule = serde_json::from_str(
            r#"{"events":[{"event_name":"CreateVpc","service_name":"Vpc",
                "parameters":[{"name":"VpcName","equals":"vpc-${suffix}"},{"name":"Description","exists":false}]}]}"#,
        )
        .unwrap();
        let matcher = &rule.events[0];
        assert!(matcher.succeeded && !rule.inferred);
        assert_eq!(
            matcher.parameters[0].test,
            ParameterTest::Equals("vpc-${suffix}".into())
        );
        assert_eq!(matcher.parameters[1].test, ParameterTest::Exists(false));
        let back: SuccessRule = serde_json::from_value(serde_json::to_value(&rule).unwrap()).unwrap();
        assert_eq!(back, rule);
    }
}
