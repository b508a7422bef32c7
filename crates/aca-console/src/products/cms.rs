//! CloudMonitor (API 2019-01-01): threshold alert rules on resource metrics, alert contacts and contact groups.
//!
//! CloudMonitor is global: rules, contacts and contact groups are keyed by the rule id and the names
//! the caller chooses, and `Put*` operations create or replace. Every response carries the `Code`
//! ("200"), `Message` and `Success` fields the real API returns.

use axum::http::StatusCode;
use serde_json::{Map, Value, json};

use crate::catalog::{OpCtx, Operation, Product};
use crate::error::ApiError;
use crate::model::Resource;
use crate::params::Params;

pub static PRODUCT: Product = Product {
    code: "cms",
    name: "CloudMonitor",
    service_name: "Cms",
    version: "2019-01-01",
    endpoint: "metrics.aliyuncs.com",
    console_agent: "cms.console.aliyun.com",
    operations: &[
        Operation::write("PutResourceMetricRule", put_resource_metric_rule),
        Operation::read("DescribeMetricRuleList", describe_metric_rule_list),
        Operation::write("EnableMetricRules", enable_metric_rules),
        Operation::write("DisableMetricRules", disable_metric_rules),
        Operation::write("DeleteMetricRules", delete_metric_rules),
        Operation::write("PutContact", put_contact),
        Operation::read("DescribeContactList", describe_contact_list),
        Operation::write("DeleteContact", delete_contact),
        Operation::write("PutContactGroup", put_contact_group),
        Operation::read("DescribeContactGroupList", describe_contact_group_list),
        Operation::write("DeleteContactGroup", delete_contact_group),
    ],
};

pub const RULE: &str = "cms.alarm_rule";
pub const CONTACT: &str = "cms.contact";
pub const CONTACT_GROUP: &str = "cms.contact_group";

const GLOBAL: &str = "global";
const LEVELS: [&str; 3] = ["Critical", "Warn", "Info"];
const STATISTICS: &[&str] = &["Average", "Maximum", "Minimum", "Value", "Sum", "Availability", "Count"];
const COMPARISON_OPERATORS: &[&str] = &[
    "GreaterThanOrEqualToThreshold",
    "GreaterThanThreshold",
    "LessThanOrEqualToThreshold",
    "LessThanThreshold",
    "NotEqualToThreshold",
    "EqualToThreshold",
    "GreaterThanYesterday",
    "LessThanYesterday",
    "GreaterThanLastWeek",
    "LessThanLastWeek",
    "GreaterThanLastPeriod",
    "LessThanLastPeriod",
];
const CHANNELS: [&str; 4] = ["Mail", "SMS", "AliIM", "DingWebHook"];

/// A successful CloudMonitor response with its status fields.
fn success(mut body: Value) -> Value {
    body["Code"] = json!("200");
    body["Message"] = json!("");
    body["Success"] = json!(true);
    body
}

fn resource_not_found(what: &str, name: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "ResourceNotFound",
        format!("The specified resource is not found: {what} \"{name}\" does not exist."),
    )
}

/// Ids and names are stored under a per-kind prefix, so a caller's choice never collides with other ids.
fn rule_key(rule_id: &str) -> String {
    format!("cms-rule:{rule_id}")
}

fn contact_key(name: &str) -> String {
    format!("cms-contact:{name}")
}

fn contact_group_key(name: &str) -> String {
    format!("cms-contact-group:{name}")
}

fn find(ctx: &OpCtx<'_>, kind: &str, key: &str, what: &str, name: &str) -> Result<Resource, ApiError> {
    ctx.get(key)
        .filter(|r| r.kind == kind)
        .ok_or_else(|| resource_not_found(what, name))
}

/// A page with the given page-number parameter (`Page` for rules, `PageNumber` elsewhere).
fn page<T>(items: Vec<T>, p: &Params, number_param: &str, default_size: i64) -> Result<Vec<T>, ApiError> {
    let number = p.int_in(number_param, 1..=i64::from(u32::MAX), 1)?;
    let size = p.int_in("PageSize", 1..=10_000, default_size)?;
    let start = usize::try_from((number - 1).saturating_mul(size)).unwrap_or(usize::MAX);
    Ok(items.into_iter().skip(start).take(size as usize).collect())
}

// ---------------------------------------------------------------------------------------------
// Alert rules.

/// The alert levels a request sets: each level given at all must be given in full.
fn escalations(p: &Params) -> Result<Map<String, Value>, ApiError> {
    let mut levels = Map::new();
    for level in LEVELS {
        let field = |name: &str| format!("Escalations.{level}.{name}");
        let given = ["Statistics", "ComparisonOperator", "Threshold", "Times"]
            .iter()
            .any(|f| p.get(&field(f)).is_some());
        if !given {
            continue;
        }
        let statistics = p.required(&field("Statistics"))?;
        p.one_of(&field("Statistics"), STATISTICS)?;
        let operator = p.required(&field("ComparisonOperator"))?;
        p.one_of(&field("ComparisonOperator"), COMPARISON_OPERATORS)?;
        let threshold = p.required(&field("Threshold"))?;
        if threshold.parse::<f64>().is_err() {
            return Err(ApiError::invalid_parameter(
                &field("Threshold"),
                format!("{threshold:?} is not a number"),
            ));
        }
        p.required(&field("Times"))?;
        let times = p.int_in(&field("Times"), 1..=100, 3)?;
        levels.insert(
            level.to_owned(),
            json!({ "Statistics": statistics, "ComparisonOperator": operator, "Threshold": threshold, "Times": times }),
        );
    }
    if levels.is_empty() {
        return Err(ApiError::invalid_parameter(
            "Escalations",
            "set Statistics, ComparisonOperator, Threshold and Times for at least one of Critical, Warn and Info",
        ));
    }
    Ok(levels)
}

/// `Resources`: a JSON array of dimension objects such as `[{"instanceId":"i-bp1…"}]`.
fn resources(p: &Params) -> Result<Value, ApiError> {
    let raw = p.required("Resources")?;
    let parsed: Value = serde_json::from_str(raw)
        .map_err(|e| ApiError::invalid_parameter("Resources", format!("not a JSON array of objects: {e}")))?;
    match parsed.as_array() {
        Some(items) if !items.is_empty() && items.iter().all(Value::is_object) => Ok(parsed),
        _ => Err(ApiError::invalid_parameter(
            "Resources",
            "expected a non-empty JSON array such as [{\"instanceId\":\"i-…\"}]",
        )),
    }
}

/// `HH:MM-HH:MM`, the form of `EffectiveInterval` and `NoEffectiveInterval`.
fn check_interval(p: &Params, name: &str) -> Result<(), ApiError> {
    let Some(value) = p.get(name) else { return Ok(()) };
    let clock = |s: &str| {
        s.split_once(':').is_some_and(|(h, m)| {
            h.parse::<u8>().is_ok_and(|h| h < 24) && m.len() == 2 && m.parse::<u8>().is_ok_and(|m| m < 60)
        })
    };
    match value.split_once('-') {
        Some((from, to)) if clock(from) && clock(to) => Ok(()),
        _ => Err(ApiError::invalid_parameter(
            name,
            format!("{value:?} is not a time range such as 00:00-23:59"),
        )),
    }
}

fn put_resource_metric_rule(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let rule_id = p.required("RuleId")?;
    let rule_name = p.required("RuleName")?;
    let namespace = p.required("Namespace")?;
    let metric_name = p.required("MetricName")?;
    let resources = resources(p)?;
    let contact_groups = p.required("ContactGroups")?;
    let escalations = escalations(p)?;
    check_interval(p, "EffectiveInterval")?;
    check_interval(p, "NoEffectiveInterval")?;
    let period = p.int_in("Period", 60..=86_400, 60)?;
    let silence_time = p.int_in("SilenceTime", 60..=86_400, 86_400)?;
    let no_data_policy = p
        .one_of("NoDataPolicy", &["KEEP_LAST_STATE", "INSUFFICIENT_DATA", "OK"])?
        .unwrap_or("KEEP_LAST_STATE");
    let key = rule_key(rule_id);
    // Putting an existing rule replaces its settings and keeps its state.
    let (created_ms, enabled, alert_state) = match ctx.get(&key).filter(|r| r.kind == RULE) {
        Some(existing) => (
            existing.created_ms,
            existing.status == "Enabled",
            existing.attr_str("AlertState").to_owned(),
        ),
        None => (ctx.now_ms, true, "INSUFFICIENT_DATA".to_owned()),
    };
    let mut rule = Resource::new(
        RULE,
        key,
        GLOBAL,
        rule_name,
        if enabled { "Enabled" } else { "Disabled" },
        created_ms,
    )
    .with("RuleId", rule_id)
    .with("Namespace", namespace)
    .with("MetricName", metric_name)
    .with("Resources", resources.to_string())
    .with("ContactGroups", contact_groups)
    .with("Escalations", Value::Object(escalations))
    .with("Period", period.to_string())
    .with("SilenceTime", silence_time)
    .with("EffectiveInterval", p.string_or("EffectiveInterval", "00:00-23:59"))
    .with("NoEffectiveInterval", p.string_or("NoEffectiveInterval", ""))
    .with("Webhook", p.string_or("Webhook", ""))
    .with("MailSubject", p.string_or("EmailSubject", ""))
    .with("NoDataPolicy", no_data_policy)
    .with("AlertState", alert_state);
    rule.set("UpdatedMs", ctx.now_ms);
    ctx.put(rule);
    Ok(success(json!({})))
}

fn rule_json(rule: &Resource) -> Value {
    let mut escalations = json!({ "Critical": {}, "Warn": {}, "Info": {} });
    if let Some(Value::Object(levels)) = rule.attrs.get("Escalations") {
        for (level, settings) in levels {
            escalations[level] = settings.clone();
        }
    }
    json!({
        "RuleId": rule.attr_str("RuleId"),
        "RuleName": rule.name,
        "Namespace": rule.attr_str("Namespace"),
        "MetricName": rule.attr_str("MetricName"),
        "Resources": rule.attr_str("Resources"),
        "Dimensions": rule.attr_str("Resources"),
        "ContactGroups": rule.attr_str("ContactGroups"),
        "Period": rule.attr_str("Period"),
        "SilenceTime": rule.attr_i64("SilenceTime"),
        "EffectiveInterval": rule.attr_str("EffectiveInterval"),
        "NoEffectiveInterval": rule.attr_str("NoEffectiveInterval"),
        "Webhook": rule.attr_str("Webhook"),
        "MailSubject": rule.attr_str("MailSubject"),
        "NoDataPolicy": rule.attr_str("NoDataPolicy"),
        "EnableState": rule.status == "Enabled",
        "AlertState": rule.attr_str("AlertState"),
        "GroupId": "",
        "GroupName": "",
        "SourceType": "METRIC",
        "Escalations": escalations,
    })
}

fn describe_metric_rule_list(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let rule_name = p.get("RuleName");
    let namespace = p.get("Namespace");
    let metric_name = p.get("MetricName");
    let rule_ids = p.list("RuleIds")?;
    let enable_state = p.bool("EnableState")?;
    let alert_state = p.one_of("AlertState", &["OK", "ALARM", "INSUFFICIENT_DATA"])?;
    let dimensions = p.get("Dimensions");
    let rules: Vec<Resource> = ctx
        .list_all(RULE)
        .into_iter()
        .filter(|r| rule_name.is_none_or(|n| r.name.contains(n)))
        .filter(|r| namespace.is_none_or(|n| r.attr_str("Namespace") == n))
        .filter(|r| metric_name.is_none_or(|m| r.attr_str("MetricName") == m))
        .filter(|r| rule_ids.is_empty() || rule_ids.iter().any(|id| id == r.attr_str("RuleId")))
        .filter(|r| enable_state.is_none_or(|e| (r.status == "Enabled") == e))
        .filter(|r| alert_state.is_none_or(|a| r.attr_str("AlertState") == a))
        .filter(|r| dimensions.is_none_or(|d| covers_dimensions(r, d)))
        .collect();
    let total = rules.len();
    let alarms: Vec<Value> = page(rules, p, "Page", 10)?.iter().map(rule_json).collect();
    Ok(success(
        json!({ "Total": total.to_string(), "Alarms": { "Alarm": alarms } }),
    ))
}

/// Whether a rule monitors the resource the `Dimensions` filter names (`{"instanceId":"i-…"}`).
fn covers_dimensions(rule: &Resource, dimensions: &str) -> bool {
    let Ok(Value::Object(wanted)) = serde_json::from_str::<Value>(dimensions) else {
        return false;
    };
    let Ok(Value::Array(monitored)) = serde_json::from_str::<Value>(rule.attr_str("Resources")) else {
        return false;
    };
    monitored.iter().any(|m| {
        m.get("resource").and_then(Value::as_str) == Some("_ALL") || wanted.iter().all(|(k, v)| m.get(k) == Some(v))
    })
}

/// The rules a request names in `RuleId.N` (or `Id.N` for deletion); every one must exist.
fn named_rules(ctx: &OpCtx<'_>, p: &Params, param: &str) -> Result<Vec<Resource>, ApiError> {
    let ids = p.list(param)?;
    if ids.is_empty() {
        return Err(ApiError::missing_parameter(&format!("{param}.1")));
    }
    ids.iter()
        .map(|id| find(ctx, RULE, &rule_key(id), "alert rule", id))
        .collect()
}

fn set_rules_enabled(ctx: &mut OpCtx<'_>, p: &Params, enabled: bool) -> Result<Value, ApiError> {
    for mut rule in named_rules(ctx, p, "RuleId")? {
        rule.status = if enabled { "Enabled" } else { "Disabled" }.to_owned();
        ctx.put(rule);
    }
    Ok(success(json!({})))
}

fn enable_metric_rules(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    set_rules_enabled(ctx, p, true)
}

fn disable_metric_rules(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    set_rules_enabled(ctx, p, false)
}

fn delete_metric_rules(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    for rule in named_rules(ctx, p, "Id")? {
        ctx.delete(&rule.id);
    }
    Ok(success(json!({})))
}

// ---------------------------------------------------------------------------------------------
// Alert contacts and contact groups.

fn check_channel(name: &str, value: &str) -> Result<(), ApiError> {
    let param = format!("Channels.{name}");
    let valid = match name {
        "Mail" => value
            .split_once('@')
            .is_some_and(|(local, domain)| !local.is_empty() && domain.contains('.')),
        "SMS" => (5..=20).contains(&value.len()) && value.chars().all(|c| c.is_ascii_digit() || c == '-' || c == '+'),
        "DingWebHook" => value.starts_with("https://"),
        _ => true,
    };
    if valid {
        Ok(())
    } else {
        Err(ApiError::invalid_parameter(
            &param,
            format!("{value:?} is not a valid {name} address"),
        ))
    }
}

fn put_contact(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("ContactName")?;
    if name.chars().count() > 40 {
        return Err(ApiError::invalid_parameter(
            "ContactName",
            "the name is at most 40 characters long",
        ));
    }
    let describe = p.required("Describe")?;
    let mut channels = Map::new();
    for channel in CHANNELS {
        if let Some(value) = p.get(&format!("Channels.{channel}")) {
            check_channel(channel, value)?;
            channels.insert(channel.to_owned(), json!(value));
        }
    }
    let key = contact_key(name);
    let created_ms = ctx
        .get(&key)
        .filter(|c| c.kind == CONTACT)
        .map_or(ctx.now_ms, |c| c.created_ms);
    let mut contact = Resource::new(CONTACT, key, GLOBAL, name, "Active", created_ms)
        .with("Describe", describe)
        .with("Lang", p.one_of("Lang", &["zh-cn", "en"])?.unwrap_or("zh-cn"))
        .with("Channels", Value::Object(channels));
    contact.set("UpdatedMs", ctx.now_ms);
    ctx.put(contact);
    Ok(success(json!({})))
}

fn groups_of_contact(ctx: &OpCtx<'_>, name: &str) -> Vec<String> {
    ctx.list_all(CONTACT_GROUP)
        .into_iter()
        .filter(|g| group_members(g).iter().any(|m| m == name))
        .map(|g| g.name)
        .collect()
}

fn group_members(group: &Resource) -> Vec<String> {
    group
        .attrs
        .get("Contacts")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default()
}

fn describe_contact_list(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.get("ContactName");
    let channel_type = p.one_of("ChanelType", &CHANNELS)?;
    let channel_value = p.get("ChanelValue");
    let contacts: Vec<Resource> = ctx
        .list_all(CONTACT)
        .into_iter()
        .filter(|c| name.is_none_or(|n| c.name.contains(n)))
        .filter(|c| {
            let channels = c.attrs.get("Channels");
            let value_of = |t: &str| {
                channels
                    .and_then(|ch| ch.get(t))
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            };
            match (channel_type, channel_value) {
                (Some(t), Some(v)) => value_of(t).as_deref() == Some(v),
                (Some(t), None) => value_of(t).is_some(),
                (None, Some(v)) => CHANNELS.iter().any(|t| value_of(t).as_deref() == Some(v)),
                (None, None) => true,
            }
        })
        .collect();
    let total = contacts.len();
    let items: Vec<Value> = page(contacts, p, "PageNumber", 100)?
        .iter()
        .map(|c| {
            let channels = c.attrs.get("Channels").cloned().unwrap_or_else(|| json!({}));
            let states: Map<String, Value> = channels
                .as_object()
                .map(|ch| ch.keys().map(|k| (k.clone(), json!("OK"))).collect())
                .unwrap_or_default();
            json!({
                "Name": c.name,
                "Desc": c.attr_str("Describe"),
                "Lang": c.attr_str("Lang"),
                "CreateTime": c.created_ms,
                "UpdateTime": c.attr_i64("UpdatedMs"),
                "Channels": channels,
                "ChannelsState": states,
                "ContactGroups": { "ContactGroup": groups_of_contact(ctx, &c.name) },
            })
        })
        .collect();
    Ok(success(json!({ "Total": total, "Contacts": { "Contact": items } })))
}

fn delete_contact(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("ContactName")?;
    let contact = find(ctx, CONTACT, &contact_key(name), "contact", name)?;
    // The contact leaves every group it was in.
    for mut group in ctx.list_all(CONTACT_GROUP) {
        let members = group_members(&group);
        if members.iter().any(|m| m == name) {
            let rest: Vec<String> = members.into_iter().filter(|m| m != name).collect();
            group.set("Contacts", json!(rest));
            ctx.put(group);
        }
    }
    ctx.delete(&contact.id);
    Ok(success(json!({})))
}

fn put_contact_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("ContactGroupName")?;
    let members = p.list("ContactNames")?;
    for member in &members {
        find(ctx, CONTACT, &contact_key(member), "contact", member)?;
    }
    let key = contact_group_key(name);
    let created_ms = ctx
        .get(&key)
        .filter(|g| g.kind == CONTACT_GROUP)
        .map_or(ctx.now_ms, |g| g.created_ms);
    let mut group = Resource::new(CONTACT_GROUP, key, GLOBAL, name, "Active", created_ms)
        .with("Describe", p.string_or("Describe", ""))
        .with("EnableSubscribed", p.bool("EnableSubscribed")?.unwrap_or(false))
        .with("Contacts", json!(members));
    group.set("UpdatedMs", ctx.now_ms);
    ctx.put(group);
    Ok(success(json!({})))
}

fn describe_contact_group_list(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let groups = ctx.list_all(CONTACT_GROUP);
    let total = groups.len();
    let names: Vec<&str> = groups.iter().map(|g| g.name.as_str()).collect();
    let details: Vec<Value> = page(groups.clone(), p, "PageNumber", 100)?
        .iter()
        .map(|g| {
            json!({
                "Name": g.name,
                "Describe": g.attr_str("Describe"),
                "CreateTime": g.created_ms,
                "UpdateTime": g.attr_i64("UpdatedMs"),
                "EnableSubscribed": g.attrs.get("EnableSubscribed").and_then(Value::as_bool).unwrap_or(false),
                "EnabledWeeklyReport": false,
                "Contacts": { "Contact": group_members(g) },
            })
        })
        .collect();
    Ok(success(json!({
        "Total": total,
        "ContactGroups": { "ContactGroup": names },
        "ContactGroupList": { "ContactGroup": details },
    })))
}

fn delete_contact_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("ContactGroupName")?;
    let group = find(ctx, CONTACT_GROUP, &contact_group_key(name), "contact group", name)?;
    ctx.delete(&group.id);
    Ok(success(json!({})))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::products::ram::harness::Harness;

    const RULE_ID: &str = "a151cd6023eacee2f0978e03863cc1697c8950812345";

    fn cpu_rule<'a>(rule_id: &'a str, extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
        let mut pairs = vec![
            ("RuleId", rule_id),
            ("RuleName", "ecs-cpu-high"),
            ("Namespace", "acs_ecs_dashboard"),
            ("MetricName", "CPUUtilization"),
            ("Resources", r#"[{"instanceId":"i-bp1abcdefghijklmnop"}]"#),
            ("ContactGroups", "ECS_Group"),
            ("Escalations.Critical.Statistics", "Average"),
            (
                "Escalations.Critical.ComparisonOperator",
                "GreaterThanOrEqualToThreshold",
            ),
            ("Escalations.Critical.Threshold", "90"),
            ("Escalations.Critical.Times", "3"),
        ];
        pairs.extend_from_slice(extra);
        pairs
    }

    fn rules(h: &Harness, filters: &[(&str, &str)]) -> Vec<Value> {
        let body = h.ok(&PRODUCT, "DescribeMetricRuleList", filters);
        assert_eq!(
            (body["Code"].as_str(), body["Success"].as_bool()),
            (Some("200"), Some(true))
        );
        body["Alarms"]["Alarm"].as_array().unwrap().clone()
    }

    #[test]
    fn a_rule_is_put_described_and_audited() {
        let h = Harness::new();
        let body = h.ok(&PRODUCT, "PutResourceMetricRule", &cpu_rule(RULE_ID, &[]));
        assert_eq!(
            (body["Code"].as_str(), body["Success"].as_bool()),
            (Some("200"), Some(true))
        );
        let event = h.last_event("PutResourceMetricRule");
        assert_eq!(
            (event.service_name.as_str(), event.event_source.as_str()),
            ("Cms", "metrics.aliyuncs.com")
        );
        let listed = rules(&h, &[]);
        assert_eq!(listed.len(), 1);
        let rule = &listed[0];
        assert_eq!(rule["RuleId"], RULE_ID);
        assert_eq!(rule["EnableState"], true);
        assert_eq!(rule["Escalations"]["Critical"]["Threshold"], "90");
        assert_eq!(rule["Escalations"]["Critical"]["Times"], 3);
        assert_eq!(rule["Escalations"]["Warn"], json!({}));
        let covered = rules(&h, &[("Dimensions", r#"{"instanceId":"i-bp1abcdefghijklmnop"}"#)]);
        assert_eq!(covered.len(), 1);
        assert!(rules(&h, &[("Dimensions", r#"{"instanceId":"i-other"}"#)]).is_empty());

        // Putting the same id again replaces the rule.
        h.ok(
            &PRODUCT,
            "PutResourceMetricRule",
            &cpu_rule(RULE_ID, &[("Escalations.Critical.Threshold", "80")]),
        );
        let listed = rules(&h, &[]);
        assert_eq!(
            (listed.len(), listed[0]["Escalations"]["Critical"]["Threshold"].as_str()),
            (1, Some("80"))
        );
    }

    #[test]
    fn rule_parameters_are_checked_and_named() {
        let h = Harness::new();
        let mut missing = cpu_rule(RULE_ID, &[]);
        missing.retain(|(k, _)| *k != "MetricName");
        let e = h.err(&PRODUCT, "PutResourceMetricRule", &missing);
        assert_eq!(e.code, "MissingParameter");
        assert!(e.message.contains("\"MetricName\""));
        let e = h.err(
            &PRODUCT,
            "PutResourceMetricRule",
            &cpu_rule(RULE_ID, &[("Resources", "i-bp1")]),
        );
        assert!(e.message.contains("\"Resources\""));
        let e = h.err(
            &PRODUCT,
            "PutResourceMetricRule",
            &cpu_rule(RULE_ID, &[("Escalations.Critical.ComparisonOperator", "Above")]),
        );
        assert!(e.message.contains("\"Escalations.Critical.ComparisonOperator\""));
        let e = h.err(
            &PRODUCT,
            "PutResourceMetricRule",
            &cpu_rule(RULE_ID, &[("Escalations.Warn.Threshold", "70")]),
        );
        assert!(e.message.contains("\"Escalations.Warn.Statistics\""), "{}", e.message);
        let mut no_levels = cpu_rule(RULE_ID, &[]);
        no_levels.retain(|(k, _)| !k.starts_with("Escalations."));
        let e = h.err(&PRODUCT, "PutResourceMetricRule", &no_levels);
        assert!(e.message.contains("\"Escalations\""));
        assert!(rules(&h, &[]).is_empty());
    }

    #[test]
    fn rules_are_disabled_enabled_and_deleted() {
        let h = Harness::new();
        h.ok(&PRODUCT, "PutResourceMetricRule", &cpu_rule(RULE_ID, &[]));
        h.ok(&PRODUCT, "PutResourceMetricRule", &cpu_rule("rule-2", &[]));
        h.ok(&PRODUCT, "DisableMetricRules", &[("RuleId.1", RULE_ID)]);
        let disabled = rules(&h, &[("EnableState", "false")]);
        assert_eq!(disabled.len(), 1);
        assert_eq!(disabled[0]["RuleId"], RULE_ID);
        // A rule put again while disabled stays disabled.
        h.ok(&PRODUCT, "PutResourceMetricRule", &cpu_rule(RULE_ID, &[]));
        assert_eq!(rules(&h, &[("RuleIds", RULE_ID)])[0]["EnableState"], false);
        h.ok(&PRODUCT, "EnableMetricRules", &[("RuleId.1", RULE_ID)]);
        assert_eq!(rules(&h, &[("EnableState", "true")]).len(), 2);

        let e = h.err(&PRODUCT, "EnableMetricRules", &[("RuleId.1", "no-such-rule")]);
        assert_eq!((e.code.as_str(), e.status.as_u16()), ("ResourceNotFound", 404));
        assert!(
            h.err(&PRODUCT, "DisableMetricRules", &[])
                .message
                .contains("\"RuleId.1\"")
        );
        h.ok(&PRODUCT, "DeleteMetricRules", &[("Id.1", RULE_ID), ("Id.2", "rule-2")]);
        assert!(rules(&h, &[]).is_empty());
    }

    #[test]
    fn contacts_and_groups() {
        let h = Harness::new();
        let e = h.err(
            &PRODUCT,
            "PutContact",
            &[("ContactName", "alice"), ("Describe", "ops"), ("Channels.Mail", "nope")],
        );
        assert!(e.message.contains("\"Channels.Mail\""));
        h.ok(
            &PRODUCT,
            "PutContact",
            &[
                ("ContactName", "alice"),
                ("Describe", "ops"),
                ("Channels.Mail", "alice@example.com"),
            ],
        );
        let e = h.err(
            &PRODUCT,
            "PutContactGroup",
            &[("ContactGroupName", "ECS_Group"), ("ContactNames.1", "bob")],
        );
        assert_eq!(e.code, "ResourceNotFound");
        h.ok(
            &PRODUCT,
            "PutContactGroup",
            &[
                ("ContactGroupName", "ECS_Group"),
                ("Describe", "ECS alerts"),
                ("ContactNames.1", "alice"),
            ],
        );

        let contacts = h.ok(
            &PRODUCT,
            "DescribeContactList",
            &[("ChanelType", "Mail"), ("ChanelValue", "alice@example.com")],
        );
        assert_eq!(contacts["Total"], 1);
        let contact = &contacts["Contacts"]["Contact"][0];
        assert_eq!(contact["Channels"]["Mail"], "alice@example.com");
        assert_eq!(contact["ContactGroups"]["ContactGroup"], json!(["ECS_Group"]));
        let groups = h.ok(&PRODUCT, "DescribeContactGroupList", &[]);
        assert_eq!(groups["ContactGroups"]["ContactGroup"], json!(["ECS_Group"]));
        assert_eq!(
            groups["ContactGroupList"]["ContactGroup"][0]["Contacts"]["Contact"],
            json!(["alice"])
        );

        h.ok(&PRODUCT, "DeleteContact", &[("ContactName", "alice")]);
        let groups = h.ok(&PRODUCT, "DescribeContactGroupList", &[]);
        assert_eq!(
            groups["ContactGroupList"]["ContactGroup"][0]["Contacts"]["Contact"],
            json!([])
        );
        h.ok(&PRODUCT, "DeleteContactGroup", &[("ContactGroupName", "ECS_Group")]);
        assert_eq!(
            h.err(&PRODUCT, "DeleteContactGroup", &[("ContactGroupName", "ECS_Group")])
                .code,
            "ResourceNotFound"
        );
        assert_eq!(h.ok(&PRODUCT, "DescribeContactGroupList", &[])["Total"], 0);
    }

    #[test]
    fn rules_stay_in_their_account() {
        let h = Harness::new();
        h.ok(&PRODUCT, "PutResourceMetricRule", &cpu_rule(RULE_ID, &[]));
        let other = h.another_account("other");
        let listed = h.call_as(&other, &PRODUCT, "DescribeMetricRuleList", &[]).unwrap();
        assert_eq!(listed["Total"], "0");
        let e = h
            .call_as(&other, &PRODUCT, "DisableMetricRules", &[("RuleId.1", RULE_ID)])
            .unwrap_err();
        assert_eq!(e.code, "ResourceNotFound");
        assert_eq!(rules(&h, &[])[0]["EnableState"], true);
    }
}
