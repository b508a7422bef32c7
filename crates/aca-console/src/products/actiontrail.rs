//! ActionTrail (API 2020-07-06): event queries over the account's audit log, and trails.
//!
//! `LookupEvents` is how the rest of the system decides what really happened: it shows only events
//! whose delivery delay has passed, newest first, at most 50 per page, and is rate-limited per account.

use aca_core::TrailEvent;
use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::catalog::{OpCtx, Operation, Product};
use crate::clock::{iso8601, parse_iso8601};
use crate::error::ApiError;
use crate::model::Resource;
use crate::params::Params;

pub static PRODUCT: Product = Product {
    code: "actiontrail",
    name: "ActionTrail",
    service_name: "Actiontrail",
    version: "2020-07-06",
    endpoint: "actiontrail.aliyuncs.com",
    console_agent: "actiontrail.console.aliyun.com",
    operations: &[
        Operation::read("LookupEvents", lookup_events).unaudited().throttled(),
        Operation::write("CreateTrail", create_trail),
        Operation::read("DescribeTrails", describe_trails),
        Operation::write("UpdateTrail", update_trail),
        Operation::write("DeleteTrail", delete_trail),
        Operation::write("StartLogging", start_logging),
        Operation::write("StopLogging", stop_logging),
        Operation::read("GetTrailStatus", get_trail_status),
    ],
};

pub const TRAIL: &str = "actiontrail.trail";
const TRAIL_TYPE: &str = "ACS::ActionTrail::Trail";
const DEFAULT_WINDOW_MS: i64 = 7 * 24 * 3600 * 1000;
const RETENTION_MS: i64 = 90 * 24 * 3600 * 1000;

/// The attributes `LookupAttribute.N.Key` may name.
const LOOKUP_KEYS: &[&str] = &[
    "EventName",
    "ResourceType",
    "ResourceName",
    "EventRW",
    "EventAccessKeyId",
    "ServiceName",
    "EventId",
    "PrincipalName",
];

/// One `LookupAttribute` filter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    pub key: String,
    pub value: String,
}

impl Filter {
    pub fn matches(&self, e: &TrailEvent) -> bool {
        let v = self.value.as_str();
        match self.key.as_str() {
            "EventName" => e.event_name == v,
            "ResourceType" => e.referenced_resources.contains_key(v),
            "ResourceName" => e.resource_names().any(|name| name == v),
            "EventRW" => e.event_rw.as_str() == v,
            "EventAccessKeyId" => e.user_identity.access_key_id == v,
            "ServiceName" => e.service_name == v,
            "EventId" => e.event_id == v,
            "PrincipalName" => e.user_identity.user_name == v,
            _ => false,
        }
    }
}

fn lookup_events(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let now = ctx.now_ms;
    let end = match p.get("EndTime") {
        Some(t) => parse_iso8601(t)
            .ok_or_else(|| ApiError::invalid_parameter("EndTime", format!("{t:?} is not yyyy-MM-ddTHH:mm:ssZ")))?,
        None => now,
    };
    let start = match p.get("StartTime") {
        Some(t) => parse_iso8601(t)
            .ok_or_else(|| ApiError::invalid_parameter("StartTime", format!("{t:?} is not yyyy-MM-ddTHH:mm:ssZ")))?,
        None => end - DEFAULT_WINDOW_MS,
    };
    if start > end {
        return Err(ApiError::invalid_parameter(
            "StartTime",
            "StartTime is later than EndTime",
        ));
    }
    if start < now - RETENTION_MS {
        return Err(ApiError::invalid_parameter("StartTime", "events are kept for 90 days"));
    }
    let max = p.int_in("MaxResults", 1..=50, 20)? as usize;
    let mut filters: Vec<Filter> = Vec::new();
    for attr in p.object_list("LookupAttribute") {
        let key = attr.get("Key").cloned().unwrap_or_default();
        if !LOOKUP_KEYS.contains(&key.as_str()) {
            return Err(ApiError::invalid_parameter(
                "LookupAttribute.N.Key",
                format!("{key:?} is not one of {}", LOOKUP_KEYS.join(", ")),
            ));
        }
        filters.push(Filter {
            key,
            value: attr.get("Value").cloned().unwrap_or_default(),
        });
    }
    if let Some(rw) = p.one_of("EventRW", &["Read", "Write", "All"])?
        && rw != "All"
    {
        filters.push(Filter {
            key: "EventRW".into(),
            value: rw.into(),
        });
    }
    // The token is the number of events (counting from the newest matching) already returned.
    let skip: usize = match p.get("NextToken") {
        Some(t) => t.parse().map_err(|_| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "InvalidNextToken",
                "The NextToken is not valid.",
            )
        })?,
        None => 0,
    };

    let events = ctx.events();
    // Events are stored in time order: find the window with two binary searches, then walk it backwards.
    let lo = events.partition_point(|e| e.time_ms < start);
    let hi = events.partition_point(|e| e.time_ms <= end);
    let mut matching = events[lo..hi]
        .iter()
        .rev()
        .filter(|e| e.visible_ms <= now)
        .map(|e| &e.event)
        .filter(|e| filters.iter().all(|f| f.matches(e)));
    let page: Vec<&TrailEvent> = matching.by_ref().skip(skip).take(max).collect();
    let more = matching.next().is_some();
    let next_token = if more {
        (skip + page.len()).to_string()
    } else {
        String::new()
    };
    Ok(json!({
        "NextToken": next_token,
        "StartTime": iso8601(start),
        "EndTime": iso8601(end),
        "Events": page,
    }))
}

fn trail_json(t: &Resource) -> Value {
    json!({
        "Name": t.name,
        "HomeRegion": t.region,
        "TrailRegion": t.attr_str("TrailRegion"),
        "EventRW": t.attr_str("EventRW"),
        "OssBucketName": t.attr_str("OssBucketName"),
        "OssKeyPrefix": t.attr_str("OssKeyPrefix"),
        "SlsProjectArn": t.attr_str("SlsProjectArn"),
        "SlsWriteRoleArn": t.attr_str("SlsWriteRoleArn"),
        "Status": t.status,
        "CreateTime": iso8601(t.created_ms),
        "UpdateTime": iso8601(t.attrs.get("UpdatedMs").and_then(Value::as_i64).unwrap_or(t.created_ms)),
    })
}

fn find_trail(ctx: &OpCtx<'_>, name: &str) -> Result<Resource, ApiError> {
    ctx.list_all(TRAIL).into_iter().find(|t| t.name == name).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "TrailNotFoundException",
            format!("The trail {name} does not exist."),
        )
    })
}

fn create_trail(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("Name")?;
    let valid = (6..=36).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if !valid {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "InvalidTrailNameException",
            "The trail name must be 6 to 36 characters long, start with a lowercase letter and contain only lowercase letters, digits, hyphens and underscores.",
        ));
    }
    if ctx.list_all(TRAIL).iter().any(|t| t.name == name) {
        return Err(ApiError::already_exists(
            "TrailAlreadyExistsException",
            format!("The trail {name} already exists."),
        ));
    }
    if ctx.list_all(TRAIL).len() >= 5 {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "MaxTrailsExceededException",
            "An account can have at most 5 trails.",
        ));
    }
    let rw = p.one_of("EventRW", &["Read", "Write", "All"])?.unwrap_or("Write");
    let trail_region = p.get("TrailRegion").unwrap_or("All");
    let mut trail = Resource::new(
        TRAIL,
        format!("trail-{name}"),
        &ctx.region.clone(),
        name,
        "Disable",
        ctx.now_ms,
    )
    .with("EventRW", rw)
    .with("TrailRegion", trail_region);
    for key in ["OssBucketName", "OssKeyPrefix", "SlsProjectArn", "SlsWriteRoleArn"] {
        trail.set(key, p.get(key).unwrap_or(""));
    }
    ctx.reference(TRAIL_TYPE, name);
    let body = trail_json(&trail);
    ctx.put(trail);
    Ok(body)
}

fn describe_trails(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let names = p.list("NameList")?;
    let trails: Vec<Value> = ctx
        .list_all(TRAIL)
        .iter()
        .filter(|t| names.is_empty() || names.contains(&t.name))
        .map(trail_json)
        .collect();
    Ok(json!({ "TrailList": trails }))
}

fn update_trail(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut trail = find_trail(ctx, p.required("Name")?)?;
    if let Some(rw) = p.one_of("EventRW", &["Read", "Write", "All"])? {
        trail.set("EventRW", rw);
    }
    for key in [
        "OssBucketName",
        "OssKeyPrefix",
        "SlsProjectArn",
        "SlsWriteRoleArn",
        "TrailRegion",
    ] {
        if let Some(v) = p.get(key) {
            trail.set(key, v);
        }
    }
    trail.set("UpdatedMs", ctx.now_ms);
    ctx.reference(TRAIL_TYPE, &trail.name.clone());
    let body = trail_json(&trail);
    ctx.put(trail);
    Ok(body)
}

fn delete_trail(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let trail = find_trail(ctx, p.required("Name")?)?;
    ctx.reference(TRAIL_TYPE, &trail.name);
    ctx.delete(&trail.id);
    Ok(json!({}))
}

fn set_logging(ctx: &mut OpCtx<'_>, p: &Params, status: &str) -> Result<Value, ApiError> {
    let mut trail = find_trail(ctx, p.required("Name")?)?;
    if trail.attr_str("OssBucketName").is_empty() && trail.attr_str("SlsProjectArn").is_empty() && status == "Enable" {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "InsufficientBucketPolicyException",
            "The trail has no delivery destination. Configure an OSS bucket or a Simple Log Service project first.",
        ));
    }
    trail.status = status.to_owned();
    trail.set(
        if status == "Enable" {
            "StartLoggingMs"
        } else {
            "StopLoggingMs"
        },
        ctx.now_ms,
    );
    ctx.reference(TRAIL_TYPE, &trail.name.clone());
    ctx.put(trail);
    Ok(json!({}))
}

fn start_logging(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    set_logging(ctx, p, "Enable")
}

fn stop_logging(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    set_logging(ctx, p, "Disable")
}

fn get_trail_status(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let trail = find_trail(ctx, p.required("Name")?)?;
    let at = |key: &str| {
        trail
            .attrs
            .get(key)
            .and_then(Value::as_i64)
            .map(iso8601)
            .unwrap_or_default()
    };
    Ok(json!({
        "IsLogging": trail.status == "Enable",
        "StartLoggingTime": at("StartLoggingMs"),
        "StopLoggingTime": at("StopLoggingMs"),
        "LatestDeliveryTime": "",
        "LatestDeliveryError": "",
    }))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::config::ConsoleConfig;
    use crate::dispatch::Caller;
    use crate::products::testkit::TestConsole;
    use crate::{Clock, Console, ManualClock, products};

    fn setup(config: ConsoleConfig) -> (Console, Arc<ManualClock>, Caller) {
        let TestConsole { console, clock, caller } = TestConsole::with_config(config);
        (console, clock, caller)
    }

    fn lookup(console: &Console, caller: &Caller, pairs: &[(&str, &str)]) -> Result<Value, ApiError> {
        console
            .call(
                &PRODUCT,
                "LookupEvents",
                &Params::from_pairs(pairs.iter().copied()),
                caller,
            )
            .result
    }

    fn create_vpc(console: &Console, caller: &Caller, name: &str) {
        let params = Params::from_pairs([
            ("RegionId", "cn-hangzhou"),
            ("VpcName", name),
            ("CidrBlock", "10.0.0.0/8"),
        ]);
        console
            .call(&products::vpc::PRODUCT, "CreateVpc", &params, caller)
            .result
            .unwrap();
    }

    #[test]
    fn pages_newest_first_with_next_token() {
        let (console, clock, caller) = setup(ConsoleConfig::for_tests());
        for i in 0..7 {
            create_vpc(&console, &caller, &format!("vpc{i}"));
            clock.advance(1000);
        }
        let filter = [
            ("LookupAttribute.1.Key", "EventName"),
            ("LookupAttribute.1.Value", "CreateVpc"),
            ("MaxResults", "3"),
        ];
        let first = lookup(&console, &caller, &filter).unwrap();
        let names: Vec<&str> = first["Events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["requestParameters"]["VpcName"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["vpc6", "vpc5", "vpc4"]);
        let token = first["NextToken"].as_str().unwrap().to_owned();
        let mut with_token = filter.to_vec();
        with_token.push(("NextToken", &token));
        let second = lookup(&console, &caller, &with_token).unwrap();
        assert_eq!(second["Events"][0]["requestParameters"]["VpcName"], "vpc3");
        with_token.pop();
        with_token.push(("NextToken", "6"));
        let last = lookup(&console, &caller, &with_token).unwrap();
        assert_eq!(
            (last["Events"].as_array().unwrap().len(), last["NextToken"].as_str()),
            (1, Some(""))
        );
    }

    #[test]
    fn delivery_delay_hides_fresh_events() {
        let config = ConsoleConfig {
            delivery_delay_ms: 60_000,
            ..ConsoleConfig::for_tests()
        };
        let (console, clock, caller) = setup(config);
        create_vpc(&console, &caller, "late");
        let query = [
            ("LookupAttribute.1.Key", "EventName"),
            ("LookupAttribute.1.Value", "CreateVpc"),
        ];
        assert_eq!(
            lookup(&console, &caller, &query).unwrap()["Events"]
                .as_array()
                .unwrap()
                .len(),
            0
        );
        clock.advance(60_000);
        assert_eq!(
            lookup(&console, &caller, &query).unwrap()["Events"]
                .as_array()
                .unwrap()
                .len(),
            1
        );
    }

    #[test]
    fn throttles_above_the_qps_limit() {
        let config = ConsoleConfig {
            lookup_qps: 2.0,
            ..ConsoleConfig::for_tests()
        };
        let (console, clock, caller) = setup(config);
        assert!(lookup(&console, &caller, &[]).is_ok());
        assert!(lookup(&console, &caller, &[]).is_ok());
        assert_eq!(lookup(&console, &caller, &[]).unwrap_err().code, "Throttling.User");
        clock.advance(500);
        assert!(lookup(&console, &caller, &[]).is_ok());
    }

    #[test]
    fn filters_by_resource_and_time_window_and_rejects_bad_input() {
        let (console, clock, caller) = setup(ConsoleConfig::for_tests());
        create_vpc(&console, &caller, "old");
        clock.advance(3_600_000);
        let from = iso8601(clock.now_ms());
        create_vpc(&console, &caller, "new");
        let events = lookup(
            &console,
            &caller,
            &[
                ("StartTime", &from),
                ("LookupAttribute.1.Key", "ResourceType"),
                ("LookupAttribute.1.Value", "ACS::VPC::VPC"),
            ],
        )
        .unwrap();
        let events = events["Events"].as_array().unwrap();
        assert_eq!(events.len(), 1);
        let id = events[0]["responseElements"]["VpcId"].as_str().unwrap().to_owned();
        let by_name = lookup(
            &console,
            &caller,
            &[
                ("LookupAttribute.1.Key", "ResourceName"),
                ("LookupAttribute.1.Value", &id),
            ],
        )
        .unwrap();
        assert_eq!(by_name["Events"].as_array().unwrap().len(), 1);
        assert_eq!(
            lookup(&console, &caller, &[("MaxResults", "51")]).unwrap_err().code,
            "InvalidParameter"
        );
        assert_eq!(
            lookup(&console, &caller, &[("StartTime", "last week")])
                .unwrap_err()
                .code,
            "InvalidParameter"
        );
        let bad_key = lookup(
            &console,
            &caller,
            &[("LookupAttribute.1.Key", "Colour"), ("LookupAttribute.1.Value", "x")],
        );
        assert!(bad_key.unwrap_err().message.contains("Colour"));
    }

    #[test]
    fn trails_lifecycle() {
        let (console, _clock, caller) = setup(ConsoleConfig::for_tests());
        let call = |action: &str, pairs: &[(&str, &str)]| {
            console
                .call(&PRODUCT, action, &Params::from_pairs(pairs.iter().copied()), &caller)
                .result
        };
        assert_eq!(
            call("CreateTrail", &[("Name", "Bad Name")]).unwrap_err().code,
            "InvalidTrailNameException"
        );
        call("CreateTrail", &[("Name", "audit-trail"), ("EventRW", "All")]).unwrap();
        assert_eq!(
            call("CreateTrail", &[("Name", "audit-trail")]).unwrap_err().code,
            "TrailAlreadyExistsException"
        );
        assert_eq!(
            call("StartLogging", &[("Name", "audit-trail")]).unwrap_err().code,
            "InsufficientBucketPolicyException"
        );
        call(
            "UpdateTrail",
            &[("Name", "audit-trail"), ("OssBucketName", "audit-logs")],
        )
        .unwrap();
        call("StartLogging", &[("Name", "audit-trail")]).unwrap();
        assert_eq!(
            call("GetTrailStatus", &[("Name", "audit-trail")]).unwrap()["IsLogging"],
            true
        );
        assert_eq!(call("DescribeTrails", &[]).unwrap()["TrailList"][0]["EventRW"], "All");
        call("DeleteTrail", &[("Name", "audit-trail")]).unwrap();
        assert_eq!(
            call("GetTrailStatus", &[("Name", "audit-trail")]).unwrap_err().code,
            "TrailNotFoundException"
        );
    }
}
