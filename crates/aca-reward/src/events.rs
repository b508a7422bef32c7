//! ActionTrail's event and time formats as the rule channel reads and writes them: pure, so the
//! native poller and the extension's service worker read `LookupEvents` answers the same way.

use aca_core::{SuccessRule, TrailEvent};
use serde_json::Value;

/// An event as `LookupEvents` returns it. Events of the real service may leave out fields that
/// matching does not use; those get the values the service means by leaving them out: version 1,
/// the caller's account as the owner, empty strings for the request id and source address, and
/// `Write` for a console operation (purchases, renewals, releases). Anything else missing is an error.
pub fn read_event(raw: &Value) -> Result<TrailEvent, serde_json::Error> {
    let Some(object) = raw.as_object() else {
        return serde_json::from_value(raw.clone());
    };
    let mut event = object.clone();
    let mut default = |key: &str, value: Value| {
        event.entry(key.to_owned()).or_insert(value);
    };
    default("eventVersion", Value::from(1));
    default("requestId", Value::from(""));
    default("sourceIpAddress", Value::from(""));
    if let Some(owner) = raw.pointer("/userIdentity/accountId").cloned() {
        default("recipientAccountId", owner);
    }
    if raw.get("eventType").and_then(Value::as_str) == Some("ConsoleOperation") {
        default("eventRW", Value::from("Write"));
    }
    if let Some(Value::Object(identity)) = event.get_mut("userIdentity") {
        identity.entry("principalId").or_insert_with(|| Value::from(""));
    }
    serde_json::from_value(Value::Object(event))
}

/// The one event name every matcher shares, by which the lookup can be narrowed.
pub fn single_event_name(rule: &SuccessRule) -> Option<&str> {
    let first = rule.events.first()?.event_name.as_str();
    rule.events
        .iter()
        .all(|m| m.event_name == first && m.or_event_names.is_empty())
        .then_some(first)
}

/// `2026-11-30T14:01:05Z`, as `StartTime` and `EndTime` are written (whole seconds, rounded down).
pub fn iso8601(ms: i64) -> String {
    let seconds = ms.div_euclid(1000);
    match time::OffsetDateTime::from_unix_timestamp(seconds) {
        Ok(t) => format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
            t.year(),
            u8::from(t.month()),
            t.day(),
            t.hour(),
            t.minute(),
            t.second()
        ),
        // Out of the representable range: the epoch, which the service answers with a clear error.
        Err(_) => "1970-01-01T00:00:00Z".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_written_as_actiontrail_writes_them() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(1_796_047_265_999), "2026-11-30T14:01:05Z");
        assert_eq!(iso8601(951_782_400_000), "2000-02-29T00:00:00Z");
        assert_eq!(iso8601(-1_000), "1969-12-31T23:59:59Z");
    }

    /// The purchase event of Alibaba Cloud's "Purchase a resource" sample: no eventRW, eventVersion,
    /// sourceIpAddress or recipientAccountId.
    #[test]
    fn reads_a_real_purchase_event_that_leaves_fields_out() {
        let raw = serde_json::json!({
            "requestId": "2546c4b7-6b56-403e-97d3-500d8d29339a",
            "eventType": "ConsoleOperation",
            "userIdentity": {"accountId": "1512666876910000", "principalId": "1512666876910000",
                "type": "root-account", "userName": "root"},
            "acsRegion": "cn-hangzhou",
            "eventName": "Create",
            "requestParameters": {},
            "eventSource": "ecs.aliyuncs.com",
            "serviceName": "Ecs",
            "eventTime": "2021-08-02T06:30:17Z",
            "referencedResources": {"ACS::ECS::Instance": ["i-bp67acfmxazb4p0000"]},
            "userAgent": "AliyunConsole",
            "eventId": "2546c4b7-6b56-403e-97d3-500d8d290000",
            "additionalEventData": {"orderIds": "2105464000"}
        });
        let event = read_event(&raw).unwrap();
        assert_eq!(event.event_rw, aca_core::EventRw::Write);
        assert_eq!(event.recipient_account_id, "1512666876910000");
        let mut api_call = raw.clone();
        api_call["eventType"] = "ApiCall".into();
        assert!(
            read_event(&api_call).is_err(),
            "an API call's read/write kind is not guessed"
        );
    }

    #[test]
    fn the_lookup_narrows_only_to_a_shared_event_name() {
        let rule: SuccessRule =
            serde_json::from_str(r#"{"events":[{"event_name":"CreateVpc"},{"event_name":"CreateVSwitch"}]}"#).unwrap();
        assert_eq!(single_event_name(&rule), None);
        let rule: SuccessRule = serde_json::from_str(r#"{"events":[{"event_name":"CreateVpc"}]}"#).unwrap();
        assert_eq!(single_event_name(&rule), Some("CreateVpc"));
    }
}
