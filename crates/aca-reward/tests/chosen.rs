//! A run is judged by the writer's saved rule first, then the page's written rule, then one inferred
//! from the procedure (and only that one carries an explanation); the report's rule section shows
//! the events that met the rule, the near misses that did not, or why the log could not be read.

use aca_core::{SuccessRule, TrailEvent};
use aca_docs::parse_markdown;
use aca_reward::ChosenRule;
use serde_json::json;

fn rule(vpc_name: &str) -> SuccessRule {
    serde_json::from_value(json!({
        "events": [{"event_name": "CreateVpc", "parameters": [{"name": "VpcName", "equals": vpc_name}]}]
    }))
    .unwrap()
}

fn create_vpc_page() -> aca_core::Procedure {
    parse_markdown(
        "# Create a VPC\n\n## Procedure\n\n1. Log on to the VPC console.\n2. On the **VPCs** page, click **Create VPC**.\n3. Click **OK**.\n",
    )
    .unwrap()
}

#[test]
fn a_saved_rule_wins_over_a_written_one_which_wins_over_inference() {
    let page = create_vpc_page();
    let saved = rule("saved");
    let written = rule("written");
    let chosen = ChosenRule::choose(Some(&saved), Some(&written), &page).unwrap();
    assert_eq!((chosen.rule, chosen.explanation), (saved, None));
    let chosen = ChosenRule::choose(None, Some(&written), &page).unwrap();
    assert_eq!((chosen.rule, chosen.explanation), (written, None));
    let inferred = ChosenRule::choose(None, None, &page).unwrap();
    assert_eq!(inferred.rule.events[0].event_name, "CreateVpc");
    assert!(inferred.rule.inferred);
    assert!(inferred.explanation.is_some_and(|e| !e.is_empty()));
}

#[test]
fn a_page_with_no_known_operation_gets_no_rule_and_the_reason() {
    let page =
        parse_markdown("# Things to know\n\n## Procedure\n\n1. Read the overview.\n2. Think about it.\n").unwrap();
    let why = ChosenRule::choose(None, None, &page).unwrap_err();
    assert!(!why.is_empty());
}

#[test]
fn matched_events_and_near_misses_reach_the_report() {
    let event: TrailEvent = serde_json::from_value(json!({
        "eventId": "e1", "eventVersion": 1, "eventName": "CreateVpc", "eventType": "ApiCall",
        "eventRW": "Write", "eventSource": "vpc.aliyuncs.com", "serviceName": "Vpc",
        "acsRegion": "cn-hangzhou", "eventTime": "2026-11-30T14:01:06Z", "requestId": "r",
        "sourceIpAddress": "127.0.0.1", "userAgent": "vpc.console.aliyun.com",
        "recipientAccountId": "1234",
        "userIdentity": {"type": "root-account", "accountId": "1234", "accessKeyId": "k",
            "principalId": "1234", "userName": "root"},
        "requestParameters": {"VpcName": "web-vpc"}, "responseElements": {},
        "referencedResources": {}
    }))
    .unwrap();
    let events = vec![event];
    let chosen = ChosenRule {
        rule: rule("web-vpc"),
        explanation: Some("the title's task".into()),
    };
    let found = aca_reward::match_rule(&chosen.rule, &events, &Default::default()).unwrap();
    let report = chosen.report(Ok(&found), 300);
    assert_eq!(report.matched, Some(true));
    assert_eq!(report.matched_events[0].event_id, "e1");
    assert_eq!(report.matched_events[0].service_name, "Vpc");
    assert_eq!(report.explanation.as_deref(), Some("the title's task"));
    assert_eq!(report.waited_ms, 300);

    let other = ChosenRule {
        rule: rule("db-vpc"),
        explanation: None,
    };
    let missed = aca_reward::match_rule(&other.rule, &events, &Default::default()).unwrap();
    let report = other.report(Ok(&missed), 300);
    assert_eq!(report.matched, Some(false));
    assert!(report.near_misses[0].contains("web-vpc"), "{:?}", report.near_misses);
    let failed = other.report(Err("unreachable"), 0);
    assert_eq!((failed.matched, failed.error.as_deref()), (None, Some("unreachable")));
}
