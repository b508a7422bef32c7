//! The provisioning API beside the emulator's admin API, as the browser extension calls it: a run's
//! resources are written from the page and created by the provisioner's own RAM user, the agent's
//! request is answered, and the teardown leaves the account as it was.

mod common;

use std::path::Path;

use common::Setup;
use serde_json::{Value, json};

const TOKEN: &str = "test-admin";

fn page(slug: &str) -> aca_docs::corpus::CorpusPage {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus");
    aca_docs::corpus::load_corpus(&dir)
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .find(|p| p.slug() == slug)
        .unwrap()
}

async fn call(method: reqwest::Method, url: &str, token: Option<&str>, body: Option<Value>) -> (u16, Value) {
    let mut request = reqwest::Client::new().request(method, url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

fn users(setup: &Setup, account: &str) -> Vec<String> {
    setup
        .emulator
        .console
        .snapshot_account(account)
        .unwrap()
        .resources
        .into_iter()
        .filter(|r| r.kind == "ram.user")
        .map(|r| r.name)
        .collect()
}

#[tokio::test]
async fn a_run_is_provisioned_answered_and_torn_down_over_http() {
    let setup = Setup::new().await;
    let account = setup.account();
    let page = page("delete-vswitch");
    let start = format!(
        "{}/admin/accounts/{}/provisions",
        setup.emulator.url, account.account_id
    );
    let body =
        json!({"procedure": page.procedure, "product": "vpc", "region": "cn-hangzhou", "source": "delete-vswitch.md"});

    let (status, refused) = call(reqwest::Method::POST, &start, None, Some(body.clone())).await;
    assert_eq!(status, 401, "{refused}");
    // The token is checked before the body is read: a caller without it learns nothing of its shape.
    let malformed = json!({"procedure": 1});
    let (status, refused) = call(reqwest::Method::POST, &start, Some("wrong"), Some(malformed)).await;
    assert_eq!(status, 401, "{refused}");

    let (status, started) = call(reqwest::Method::POST, &start, Some(TOKEN), Some(body)).await;
    assert_eq!(status, 201, "{started}");
    let id = started["id"].as_str().unwrap().to_owned();
    let user = started["user_name"].as_str().unwrap().to_owned();
    assert!(user.starts_with("aca-provisioner-"), "{started}");
    assert_eq!(users(&setup, &account.account_id), std::slice::from_ref(&user));
    let text = started["told"]["text"].as_str().unwrap();
    assert!(text.contains("alicloud_vswitch"), "{text}");
    let vswitch = started["bindings"]["vswitch_id"].as_str().unwrap();
    assert_eq!(
        started["told"]["names"][0], vswitch,
        "the acted-on resource comes first"
    );

    let request = format!("{}/admin/provisions/{id}/requests", setup.emulator.url);
    let (status, answered) = call(
        reqwest::Method::POST,
        &request,
        Some(TOKEN),
        Some(json!({"description": "a security group in the VPC"})),
    )
    .await;
    assert_eq!(status, 200, "{answered}");
    assert!(
        answered["told"]["text"]
            .as_str()
            .unwrap()
            .contains("alicloud_security_group"),
        "{answered}"
    );
    assert!(answered["bindings"]["security_group_id"].is_string(), "{answered}");
    let (status, unknown) = call(
        reqwest::Method::POST,
        &request,
        Some(TOKEN),
        Some(json!({"description": "a unicorn"})),
    )
    .await;
    assert_eq!(status, 422, "{unknown}");
    assert_eq!(unknown["Code"], "ResourceUnavailable");

    let finish = format!("{}/admin/provisions/{id}", setup.emulator.url);
    let (status, _) = call(reqwest::Method::DELETE, &finish, None, None).await;
    assert_eq!(status, 401, "only the token's holder tears a run down");
    let (status, finished) = call(reqwest::Method::DELETE, &finish, Some(TOKEN), None).await;
    assert_eq!(status, 200, "{finished}");
    assert_eq!(finished["left"], json!([]));
    assert_eq!(setup.resources(&account), 0, "everything it made is gone, its user too");
    let (status, _) = call(reqwest::Method::DELETE, &finish, Some(TOKEN), None).await;
    assert_eq!(status, 404);

    let (status, missing) = call(
        reqwest::Method::POST,
        &format!("{}/admin/accounts/nobody/provisions", setup.emulator.url),
        Some(TOKEN),
        Some(json!({"procedure": page.procedure})),
    )
    .await;
    assert_eq!(status, 404, "{missing}");
}
