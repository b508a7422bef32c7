//! Tests of the Expenses and Costs console's Renewal page: reached from the top bar's Billing
//! menu, its tabs split the subscription instances by renewal status, and its actions set them.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::Value;

use super::tests::{console, logged_on, page, send};

async fn call(app: &axum::Router, cookie: &str, console: &str, action: &str, body: &str) -> Value {
    let request = Request::post(format!("/console/api/{console}/{action}"))
        .header("cookie", cookie)
        .header("content-type", "application/json")
        .body(Body::from(body.to_owned()))
        .unwrap();
    let (status, _, text) = send(app, request).await;
    assert_eq!(status, StatusCode::OK, "{action}: {text}");
    serde_json::from_str(&text).unwrap()
}

#[tokio::test]
async fn the_renewal_page_lists_subscription_instances_by_tab_and_sets_their_renewal() {
    let console = console();
    let creds = console.create_account("renewer", None).unwrap();
    let app = crate::app(console.clone());
    let cookie = logged_on(&app, &creds.login, &creds.password).await;

    // Every console's top bar holds Billing > Renewals, which opens the Renewal page.
    let tair = page(&app, &cookie, "/console/tair/instances?region=cn-hangzhou").await;
    assert!(tair.contains(">Billing<"), "the top bar's Billing menu");
    assert!(tair.contains(r#"href="/console/usercenter2/renewal?region=cn-hangzhou">Renewals<"#));

    let vpc = call(&app, &cookie, "vpc", "CreateVpc", r#"{"RegionId":"cn-hangzhou","CidrBlock":"192.168.0.0/16"}"#).await;
    let vpc_id = vpc["VpcId"].as_str().unwrap();
    let body = format!(
        r#"{{"RegionId":"cn-hangzhou","VpcId":"{vpc_id}","ZoneId":"cn-hangzhou-h","CidrBlock":"192.168.1.0/24"}}"#
    );
    let vsw = call(&app, &cookie, "vpc", "CreateVSwitch", &body).await;
    let vsw_id = vsw["VSwitchId"].as_str().unwrap();
    let body = format!(
        r#"{{"RegionId":"cn-hangzhou","InstanceClass":"redis.master.small.default","VpcId":"{vpc_id}","VSwitchId":"{vsw_id}","ChargeType":"PrePaid","Period":"1"}}"#
    );
    let made = call(&app, &cookie, "tair", "CreateInstance", &body).await;
    let id = made["InstanceId"].as_str().unwrap().to_owned();

    let manual = page(&app, &cookie, "/console/usercenter2/renewal?region=cn-hangzhou").await;
    for label in ["Renewal", "Manual", "Auto", "Nonrenewal", "Instance ID", "Enable Auto Renewal", "Edit Auto Renewal", "Enable Manual Renewal"] {
        assert!(manual.contains(&format!(">{label}<")), "{label}");
    }
    assert!(manual.contains(&id), "a manually renewed instance is on the Manual tab");
    assert!(manual.contains("Auto Renew") && manual.contains("Unified Auto Renewal Cycle"));
    let auto = page(&app, &cookie, "/console/usercenter2/renewal?region=cn-hangzhou&tab=1").await;
    assert!(!auto.contains(&format!(r#"data-row-id="{id}""#)), "not on the Auto tab yet");

    let body = format!(
        r#"{{"InstanceIDs":"{id}","ProductCode":"redisa","RenewalStatus":"AutoRenewal","RenewalPeriod":"3","RenewalPeriodUnit":"M"}}"#
    );
    call(&app, &cookie, "usercenter2", "SetRenewal", &body).await;
    let auto = page(&app, &cookie, "/console/usercenter2/renewal?region=cn-hangzhou&tab=1").await;
    assert!(auto.contains(&format!(r#"data-row-id="{id}""#)), "on the Auto tab once renewed automatically");
    let searched = page(&app, &cookie, &format!("/console/usercenter2/renewal?region=cn-hangzhou&tab=1&key=0&q={id}")).await;
    assert!(searched.contains(&format!(r#"data-row-id="{id}""#)));
    assert!(searched.contains(r#"name="tab" value="1""#), "a search stays on its tab");
    let manual = page(&app, &cookie, "/console/usercenter2/renewal?region=cn-hangzhou").await;
    assert!(!manual.contains(&format!(r#"data-row-id="{id}""#)));
    // The Instances drop-down list narrows the list to one product's instances.
    assert!(auto.contains(r#"data-ui-field="Instances""#), "the product filter");
    let tair_only = page(&app, &cookie, "/console/usercenter2/renewal?region=cn-hangzhou&tab=1&filter=redisa").await;
    assert!(tair_only.contains(&format!(r#"data-row-id="{id}""#)), "a Tair instance under redisa");
    let rds_only = page(&app, &cookie, "/console/usercenter2/renewal?region=cn-hangzhou&tab=1&filter=rds").await;
    assert!(!rds_only.contains(&format!(r#"data-row-id="{id}""#)), "no Tair instance under rds");

    let account = console.store.account(&creds.account_id).unwrap();
    let state = account.lock();
    let set = state
        .events
        .iter()
        .map(|e| &e.event)
        .find(|e| e.event_name == "SetRenewal" && e.error_code.is_none())
        .unwrap();
    assert_eq!(set.user_agent, "usercenter2.console.aliyun.com");
    assert_eq!(set.service_name, "BssOpenApi");
}
