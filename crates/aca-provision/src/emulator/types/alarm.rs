//! `alicloud_cms_alarm`: a CloudMonitor alert rule (`PutResourceMetricRule`,
//! `DescribeMetricRuleList`, `DisableMetricRules`, `DeleteMetricRules`). The provider names the rule
//! with an id of its own making, as the API expects.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::{Arg, Attrs, Cx, Fut, ResourceType, arg, local, required, scalar};
use crate::emulator::client::CallError;

#[derive(Debug)]
pub struct CmsAlarm;

pub static TYPES: &[&dyn ResourceType] = &[&CmsAlarm];

const ARGS: &[Arg] = &[
    required("name", "RuleName"),
    required("project", "Namespace"),
    required("metric", "MetricName"),
    required("contact_groups", "ContactGroups"),
    arg("period", "Period"),
    arg("silence_time", "SilenceTime"),
    arg("effective_interval", "EffectiveInterval"),
    arg("webhook", "Webhook"),
    arg("metric_dimensions", "Resources"),
    arg("dimensions", "Resources"),
    arg("escalations_critical", ""),
    arg("escalations_warn", ""),
    arg("escalations_info", ""),
    local("enabled"),
    local("start_time"),
    local("end_time"),
    local("tags"),
];

/// The provider's comparison operators and the API's.
const OPERATORS: &[(&str, &str)] = &[
    (">", "GreaterThanThreshold"),
    (">=", "GreaterThanOrEqualToThreshold"),
    ("<", "LessThanThreshold"),
    ("<=", "LessThanOrEqualToThreshold"),
    ("!=", "NotEqualToThreshold"),
    ("==", "EqualToThreshold"),
];

fn cms() -> Result<&'static str, CallError> {
    aca_console::products::by_code("cms")
        .map(|p| p.version)
        .ok_or_else(|| CallError::Protocol {
            action: "PutResourceMetricRule".into(),
            message: "the emulator serves no cms product".into(),
        })
}

fn text(args: &Attrs, name: &str) -> Option<String> {
    args.get(name).and_then(scalar)
}

/// `Resources`: `metric_dimensions` as given (a JSON array), `dimensions` (a map) as one object,
/// or every resource of the namespace.
fn resources(args: &Attrs) -> String {
    if let Some(given) = text(args, "metric_dimensions") {
        return given;
    }
    match args.get("dimensions") {
        Some(Value::Object(map)) => json!([map]).to_string(),
        _ => json!([{ "resource": "_ALL" }]).to_string(),
    }
}

fn parameters(id: &str, args: &Attrs) -> BTreeMap<String, String> {
    let mut params = BTreeMap::new();
    params.insert("RuleId".to_owned(), id.to_owned());
    for (name, param) in [
        ("name", "RuleName"),
        ("project", "Namespace"),
        ("metric", "MetricName"),
        ("period", "Period"),
        ("silence_time", "SilenceTime"),
        ("effective_interval", "EffectiveInterval"),
        ("webhook", "Webhook"),
    ] {
        if let Some(value) = text(args, name) {
            params.insert(param.to_owned(), value);
        }
    }
    let groups: Vec<String> = match args.get("contact_groups") {
        Some(Value::Array(items)) => items.iter().filter_map(scalar).collect(),
        Some(other) => scalar(other).into_iter().collect(),
        None => Vec::new(),
    };
    params.insert("ContactGroups".to_owned(), groups.join(","));
    params.insert("Resources".to_owned(), resources(args));
    for (block, level) in [
        ("escalations_critical", "Critical"),
        ("escalations_warn", "Warn"),
        ("escalations_info", "Info"),
    ] {
        // A nested block evaluates to a list of objects; an object is accepted too.
        let settings = match args.get(block) {
            Some(Value::Array(items)) => items.first().cloned(),
            Some(object @ Value::Object(_)) => Some(object.clone()),
            _ => None,
        };
        let Some(settings) = settings else { continue };
        for (field, param) in [
            ("statistics", "Statistics"),
            ("comparison_operator", "ComparisonOperator"),
            ("threshold", "Threshold"),
            ("times", "Times"),
        ] {
            let Some(mut value) = settings.get(field).and_then(scalar) else {
                continue;
            };
            if field == "comparison_operator"
                && let Some((_, api)) = OPERATORS.iter().find(|(tf, _)| *tf == value)
            {
                value = (*api).to_owned();
            }
            params.insert(format!("Escalations.{level}.{param}"), value);
        }
    }
    params
}

impl ResourceType for CmsAlarm {
    fn name(&self) -> &'static str {
        "alicloud_cms_alarm"
    }

    fn product(&self) -> &'static str {
        "CloudMonitor"
    }

    fn operation(&self) -> &'static str {
        "PutResourceMetricRule"
    }

    fn arguments(&self) -> &'static [Arg] {
        ARGS
    }

    fn name_arguments(&self) -> &'static [&'static str] {
        &["name"]
    }

    fn computed(&self) -> Vec<&'static str> {
        vec!["status", "enabled"]
    }

    fn ready(&self, _args: &Attrs) -> Option<(String, Vec<String>)> {
        None
    }

    fn create<'a>(&'a self, cx: Cx<'a>, args: &'a Attrs) -> Fut<'a, String> {
        Box::pin(async move {
            let id = uuid::Uuid::new_v4().to_string();
            let params = parameters(&id, args);
            cx.client
                .rpc(cms()?, "PutResourceMetricRule", cx.region, &params)
                .await?;
            Ok(id)
        })
    }

    fn settle<'a>(&'a self, cx: Cx<'a>, id: &'a str, args: &'a Attrs) -> Fut<'a, Option<(String, Vec<String>)>> {
        Box::pin(async move {
            if args.get("enabled").and_then(Value::as_bool) == Some(false) {
                let params = BTreeMap::from([("RuleId.1".to_owned(), id.to_owned())]);
                cx.client.rpc(cms()?, "DisableMetricRules", cx.region, &params).await?;
            }
            Ok(None)
        })
    }

    fn read<'a>(&'a self, cx: Cx<'a>, id: &'a str, _attrs: &'a Attrs) -> Fut<'a, Option<Attrs>> {
        Box::pin(async move {
            let params = BTreeMap::from([("RuleIds".to_owned(), id.to_owned())]);
            let body = cx
                .client
                .rpc(cms()?, "DescribeMetricRuleList", cx.region, &params)
                .await?;
            let found = body
                .pointer("/Alarms/Alarm")
                .and_then(Value::as_array)
                .and_then(|alarms| {
                    alarms
                        .iter()
                        .find(|a| a.get("RuleId").and_then(Value::as_str) == Some(id))
                        .cloned()
                });
            Ok(found.map(|alarm| {
                let field = |k: &str| alarm.get(k).cloned().unwrap_or(Value::Null);
                let enabled = alarm.get("EnableState").and_then(Value::as_bool).unwrap_or(false);
                let mut out = Attrs::new();
                out.insert("name".into(), field("RuleName"));
                out.insert("project".into(), field("Namespace"));
                out.insert("metric".into(), field("MetricName"));
                out.insert("period".into(), field("Period"));
                out.insert("silence_time".into(), field("SilenceTime"));
                out.insert("enabled".into(), Value::Bool(enabled));
                out.insert(
                    "status".into(),
                    Value::String(if enabled { "Enabled" } else { "Disabled" }.into()),
                );
                out.insert("alert_state".into(), field("AlertState"));
                out
            }))
        })
    }

    fn delete<'a>(&'a self, cx: Cx<'a>, id: &'a str, _attrs: &'a Attrs) -> Fut<'a, ()> {
        Box::pin(async move {
            let params = BTreeMap::from([("Id.1".to_owned(), id.to_owned())]);
            cx.client.rpc(cms()?, "DeleteMetricRules", cx.region, &params).await?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escalation_blocks_and_operators_become_api_parameters() {
        let args = json!({
            "name": "cpu-high",
            "project": "acs_ecs_dashboard",
            "metric": "CPUUtilization",
            "contact_groups": ["ops", "dba"],
            "escalations_critical": [{ "statistics": "Average", "comparison_operator": ">", "threshold": "90", "times": 3 }],
        });
        let params = parameters("rule-1", args.as_object().unwrap());
        assert_eq!(params["ContactGroups"], "ops,dba");
        assert_eq!(
            params["Escalations.Critical.ComparisonOperator"],
            "GreaterThanThreshold"
        );
        assert_eq!(params["Escalations.Critical.Times"], "3");
        assert_eq!(params["Resources"], r#"[{"resource":"_ALL"}]"#);
        assert_eq!(params["RuleName"], "cpu-high");
    }
}
