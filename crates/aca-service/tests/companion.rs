//! The companion API over HTTP against the real emulator on a real port: users and their tokens,
//! a run in an assigned account decided by the reward service, other users kept out, and an audit
//! log that cannot be reached said plainly, without a signature in sight.

use std::sync::Arc;

use aca_console::{Console, ConsoleConfig, Credentials, Serving};
use aca_openapi::Endpoints;
use aca_openapi::client::{AccessKeyPair, RpcClient};
use aca_service::{AccountAccess, AccountKeys, Companion};
use serde_json::{Value, json};

const PAGE: &str = "# Virtual Private Cloud:Create a VPC\n\nLast Updated: Sep 30, 2026\n\n## Procedure\n\n\
1. Log on to the **VPC console**.\n2. In the left-side navigation pane, click **VPCs**.\n\
3. On the **VPCs** page, click **Create VPC**.\n4. In the **Create VPC** panel, enter `corp-net` in the **Name** field and click **OK**.\n";

struct Served {
    url: String,
    console: Arc<Console>,
    companion: Arc<Companion>,
    _serving: Serving,
}

/// The emulator as `aca console` serves it.
async fn serve_emulator() -> Served {
    let console = Arc::new(Console::in_memory(ConsoleConfig::for_tests()));
    let (serving, companion) = aca_service::emulator::serve(console.clone(), local()).await.unwrap();
    Served {
        url: serving.url.clone(),
        console,
        companion,
        _serving: serving,
    }
}

fn local() -> std::net::SocketAddr {
    std::net::SocketAddr::from(([127, 0, 0, 1], 0))
}

async fn call(method: reqwest::Method, url: &str, token: &str, body: Option<Value>) -> (u16, Value) {
    let mut request = reqwest::Client::new().request(method, url).bearer_auth(token);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn create_vpc(served: &Served, account: &Credentials, name: &str) {
    let client = RpcClient::new(
        &served.url,
        AccessKeyPair::new(&account.access_key_id, &account.access_key_secret),
    )
    .unwrap();
    let params = [
        ("RegionId", "cn-hangzhou"),
        ("VpcName", name),
        ("CidrBlock", "192.168.0.0/16"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect();
    client.call("2016-04-28", "CreateVpc", &params).await.unwrap();
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

#[tokio::test]
async fn a_user_runs_in_their_account_and_the_server_decides_the_reward() {
    let served = serve_emulator().await;
    let base = &served.url;
    let mine = served.console.create_account("writer", None).unwrap();
    let theirs = served.console.create_account("other", None).unwrap();
    let alice = served
        .companion
        .create_user("alice", vec![mine.account_id.clone()])
        .unwrap();
    let (status, created) = call(
        reqwest::Method::POST,
        &format!("{base}/admin/users"),
        "test-admin",
        Some(json!({"name": "bob", "accounts": [theirs.account_id]})),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let bob = created["token"].as_str().unwrap().to_owned();

    // Who am I: ids and logon names, never a key.
    let (status, me) = call(reqwest::Method::GET, &format!("{base}/v1/me"), &alice, None).await;
    assert_eq!(status, 200, "{me}");
    assert_eq!(me["user"], "alice");
    assert_eq!(me["accounts"][0]["account_id"], json!(mine.account_id));
    assert_eq!(me["accounts"][0]["login"], json!(mine.login));
    let shown = me.to_string();
    assert!(
        !shown.contains(&mine.access_key_id)
            && !shown.contains(&mine.access_key_secret)
            && !shown.contains(&mine.password)
    );

    // A run in alice's account: the window opens now; the procedure's own VPC meets the inferred rule.
    let procedure = aca_docs::parse_markdown(PAGE).unwrap();
    let (status, run) = call(
        reqwest::Method::POST,
        &format!("{base}/v1/runs"),
        &alice,
        Some(json!({"procedure": procedure, "source": "create-vpc"})),
    )
    .await;
    assert_eq!(status, 201, "{run}");
    assert_eq!(run["account_id"], json!(mine.account_id));
    // Creating a VPC needs nothing beforehand: no provisioner's RAM user is made for it.
    assert!(run["provisioner"].is_null(), "{run}");
    assert!(
        served
            .console
            .snapshot_account(&mine.account_id)
            .unwrap()
            .resources
            .iter()
            .all(|r| r.kind != "ram.user"),
        "the account holds no RAM user"
    );
    let id = run["id"].as_str().unwrap().to_owned();
    let reward_url = format!("{base}/v1/runs/{id}/reward");
    let body = json!({"procedure": procedure, "deadline_ms": 300});
    let (_, before) = call(reqwest::Method::POST, &reward_url, &alice, Some(body.clone())).await;
    assert_eq!(before["outcome"], "not_met", "{before}");
    assert_eq!(before["reward"], 0.0);
    let by_hand = now_ms();
    create_vpc(&served, &mine, "corp-net").await;
    let handed_back = now_ms();
    let (status, after) = call(reqwest::Method::POST, &reward_url, &alice, Some(body.clone())).await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(
        (after["version"].clone(), after["channel"].clone()),
        (json!(1), json!("rule"))
    );
    assert_eq!(after["outcome"], "met", "{after}");
    assert_eq!(after["reward"], 1.0);
    assert_eq!(after["rule"]["matched_events"][0]["event_name"], "CreateVpc");
    assert!(
        after.get("attributed").is_none(),
        "nothing was asked to be listed apart: {after}"
    );

    // A person's take-over: the answer lists the events of its stretch of the run; a stretch
    // before the run lists nothing, whatever the account did then.
    let mut asked = body.clone();
    asked["attribute"] = json!([
        {"start_ms": by_hand, "end_ms": handed_back},
        {"start_ms": by_hand - 600_000, "end_ms": by_hand - 300_000},
    ]);
    let (status, listed) = call(reqwest::Method::POST, &reward_url, &alice, Some(asked)).await;
    assert_eq!(status, 200, "{listed}");
    let names = |list: &Value| -> Vec<String> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|e| e["event_name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(names(&listed["attributed"][0]), ["CreateVpc"], "{listed}");
    assert!(names(&listed["attributed"][1]).is_empty(), "{listed}");
    let mut too_many = body.clone();
    too_many["attribute"] = json!(vec![json!({"start_ms": by_hand, "end_ms": handed_back}); 17]);
    let (_, refused) = call(reqwest::Method::POST, &reward_url, &alice, Some(too_many)).await;
    assert_eq!(refused["failure"]["kind"], "bad_request", "{refused}");

    // Bob sees neither alice's run nor her account; a user token is no admin token.
    let (status, _) = call(reqwest::Method::POST, &reward_url, &bob, Some(body.clone())).await;
    assert_eq!(status, 404);
    let window = run["window"].clone();
    let (status, refused) = call(
        reqwest::Method::POST,
        &format!("{base}/v1/reward"),
        &bob,
        Some(json!({"account_id": mine.account_id, "window": window, "procedure": procedure})),
    )
    .await;
    assert_eq!(status, 403, "{refused}");
    let (status, _) = call(reqwest::Method::GET, &format!("{base}/admin/users"), &alice, None).await;
    assert_eq!(status, 403);
    // A wrong token is refused before a malformed body is read.
    let response = reqwest::Client::new()
        .post(format!("{base}/admin/users"))
        .bearer_auth("aca_u_wrong")
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 401);

    // The admin may ask about any window of any account.
    let (_, any) = call(
        reqwest::Method::POST,
        &format!("{base}/v1/reward"),
        "test-admin",
        Some(json!({"account_id": mine.account_id, "window": window, "procedure": procedure, "deadline_ms": 300})),
    )
    .await;
    assert_eq!(any["outcome"], "met", "{any}");

    let (status, ended) = call(reqwest::Method::DELETE, &format!("{base}/v1/runs/{id}"), &alice, None).await;
    assert_eq!((status, ended["left"].clone()), (200, json!([])), "{ended}");
    let (status, _) = call(reqwest::Method::POST, &reward_url, &alice, Some(body)).await;
    assert_eq!(status, 404, "an ended run is gone");
}

/// Keys whose ActionTrail lives at a closed port.
struct Unreachable {
    key: AccessKeyPair,
    port: u16,
}

impl AccountKeys for Unreachable {
    fn access(&self, account_id: &str) -> Option<AccountAccess> {
        Some(AccountAccess {
            account_id: account_id.to_owned(),
            login: "writer@example".into(),
            console_url: "http://127.0.0.1:1".into(),
            endpoints: Endpoints::pointed_at(&format!("http://127.0.0.1:{}", self.port)).unwrap(),
            key: self.key.clone(),
            emulator: false,
        })
    }
}

#[tokio::test]
async fn an_audit_log_that_cannot_be_reached_is_the_environments_fault_and_leaks_no_key() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let keys = Arc::new(Unreachable {
        key: AccessKeyPair::new("LTAI5tLeakCheckId", "leak-check-secret"),
        port,
    });
    let companion = Companion::new(keys, Some("test-admin"));
    let console = Arc::new(Console::in_memory(ConsoleConfig::for_tests()));
    let routes = aca_service::routes(companion.clone());
    let serving = Serving::start_with(console, local(), move |_| routes).await.unwrap();
    let token = companion.create_user("alice", vec!["1234567890123456".into()]).unwrap();
    let rule = json!({"events": [{"event_name": "CreateVpc"}]});
    let (status, answer) = call(
        reqwest::Method::POST,
        &format!("{}/v1/reward", serving.url),
        &token,
        Some(json!({"account_id": "1234567890123456", "window": {"start_ms": 1_700_000_000_000_i64}, "rule": rule, "deadline_ms": 500})),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["outcome"], "undecided", "{answer}");
    assert_eq!(answer["failure"]["kind"], "audit_log", "{answer}");
    assert!(answer["reward"].is_null());
    let text = answer.to_string();
    assert!(
        text.contains(&format!("127.0.0.1:{port}")),
        "the failure names what failed: {text}"
    );
    for leak in ["LTAI5tLeakCheckId", "leak-check-secret", "Signature="] {
        assert!(!text.contains(leak), "{leak} in {text}");
    }
}

#[tokio::test]
async fn the_description_names_every_route_and_is_served_without_a_token() {
    let served = serve_emulator().await;
    let document: Value = reqwest::get(format!("{}/v1/openapi.json", served.url))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(document["openapi"], "3.1.0");
    let paths = document["paths"].as_object().unwrap();
    assert_eq!(paths.len(), 8, "{:?}", paths.keys());
    for (path, operations) in paths {
        for method in operations.as_object().unwrap().keys() {
            let url = format!("{}{}", served.url, path.replace("{id}", "some-run"));
            let method: reqwest::Method = method.to_uppercase().parse().unwrap();
            let status = reqwest::Client::new()
                .request(method.clone(), &url)
                .send()
                .await
                .unwrap()
                .status();
            let expected = if path == "/v1/openapi.json" { 200 } else { 401 };
            assert_eq!(
                status.as_u16(),
                expected,
                "{method} {path}: the router does not serve what the description names"
            );
        }
    }
}

#[tokio::test]
async fn a_run_provisions_what_the_page_needs_answers_requests_and_tears_it_all_down() {
    let served = serve_emulator().await;
    let base = &served.url;
    let account = served.console.create_account("writer", None).unwrap();
    let token = served
        .companion
        .create_user("writer", vec![account.account_id.clone()])
        .unwrap();
    let page = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/corpus/vpc/delete-vswitch.md"
    ))
    .unwrap();
    let procedure = aca_docs::parse_markdown(&page).unwrap();
    let body = json!({"procedure": procedure, "product": "vpc", "source": "delete-vswitch.md"});
    let (status, started) = call(reqwest::Method::POST, &format!("{base}/v1/runs"), &token, Some(body)).await;
    assert_eq!(status, 201, "{started}");
    let id = started["id"].as_str().unwrap().to_owned();
    let user = started["provisioner"].as_str().unwrap().to_owned();
    assert!(user.starts_with("aca-provisioner-"), "{started}");
    let users: Vec<String> = served
        .console
        .snapshot_account(&account.account_id)
        .unwrap()
        .resources
        .into_iter()
        .filter(|r| r.kind == "ram.user")
        .map(|r| r.name)
        .collect();
    assert_eq!(users, vec![user]);
    assert!(
        started["told"]["text"].as_str().unwrap().contains("alicloud_vswitch"),
        "{started}"
    );
    assert_eq!(
        started["told"]["names"][0], started["bindings"]["vswitch_id"],
        "the acted-on resource comes first"
    );

    let request = format!("{base}/v1/runs/{id}/requests");
    let asked = json!({"description": "a security group in the VPC"});
    let (status, answered) = call(reqwest::Method::POST, &request, &token, Some(asked)).await;
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
        &token,
        Some(json!({"description": "a unicorn"})),
    )
    .await;
    assert_eq!(
        (status, unknown["Code"].clone()),
        (422, json!("ResourceUnavailable")),
        "{unknown}"
    );

    let finish = format!("{base}/v1/runs/{id}");
    let (status, _) = call(reqwest::Method::DELETE, &finish, "aca_u_not-a-token", None).await;
    assert_eq!(status, 401, "only its owner ends a run");
    let (status, finished) = call(reqwest::Method::DELETE, &finish, &token, None).await;
    assert_eq!((status, finished["left"].clone()), (200, json!([])), "{finished}");
    let left = served.console.snapshot_account(&account.account_id).unwrap().resources;
    assert!(
        left.is_empty(),
        "everything the run made is gone, its user too: {left:?}"
    );

    // A run in an account the user was not given is refused before anything is made.
    let other = served.console.create_account("other", None).unwrap();
    let (status, refused) = call(
        reqwest::Method::POST,
        &format!("{base}/v1/runs"),
        &token,
        Some(json!({"account_id": other.account_id, "procedure": procedure})),
    )
    .await;
    assert_eq!(
        (status, refused["Code"].clone()),
        (403, json!("AccountNotAssigned")),
        "{refused}"
    );
    assert!(
        served
            .console
            .snapshot_account(&other.account_id)
            .unwrap()
            .resources
            .is_empty()
    );
}
