//! `aca server`, the companion server for real accounts, used as a platform team would: an account
//! listed in a file (here an emulator started separately, pointed at with `endpoint_override`, so it
//! is used exactly as a real account would be: no admin API), a user made through the admin API, a
//! run whose resources the provisioner's own user makes, the reward service deciding from that
//! account's audit log, and the users kept across a restart. No key reaches what the server prints
//! or keeps.

mod common;

use std::path::Path;
use std::process::Child;

use common::{RunningConsole, SeparateAccount, aca, show, start_service};
use serde_json::{Value, json};

const ADMIN: &str = "server-admin-token";

struct RunningServer {
    child: Child,
    url: String,
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_server(dir: &Path) -> RunningServer {
    let (child, url) = start_service(
        dir,
        &[
            "server",
            "--listen",
            "127.0.0.1:0",
            "--accounts",
            "accounts.toml",
            "--db",
            "sqlite:state/results.db",
            "--workers",
            "0",
        ],
        &[("ACA_ADMIN_TOKEN", ADMIN)],
        "aca server ready at ",
    );
    RunningServer { child, url }
}

async fn call(method: reqwest::Method, url: &str, token: &str, body: Option<Value>) -> (u16, Value) {
    let mut request = reqwest::Client::new().request(method, url).bearer_auth(token);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("the server answers");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

#[tokio::test]
async fn a_server_of_listed_accounts_decides_rewards_for_its_users_and_keeps_them_across_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let console = RunningConsole::start(dir.path(), &["--admin-token", "setup-only"]);
    let docs_qa = SeparateAccount::make(dir.path(), &console.url, "setup-only", "docs-qa", false);
    let field = |name: &str| docs_qa.field(name);
    let listed = format!(
        "[[account]]\nid = \"{}\"\nlogin = \"{}\"\nconsole = \"{}/console\"\ncredentials = \"ak.json\"\nendpoint_override = \"{}\"\n",
        field("accountId"),
        field("login"),
        console.url,
        console.url
    );
    std::fs::write(dir.path().join("accounts.toml"), listed).unwrap();

    let server = start_server(dir.path());
    let made = aca(
        dir.path(),
        &[
            "server",
            "users",
            "create",
            "--url",
            &server.url,
            "--admin-token",
            ADMIN,
            "--name",
            "alice",
            "--account",
            &field("accountId"),
        ],
    );
    assert!(made.status.success(), "{}", show(&made));
    let token = serde_json::from_slice::<Value>(&made.stdout).unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();

    let (status, me) = call(reqwest::Method::GET, &format!("{}/v1/me", server.url), &token, None).await;
    assert_eq!(status, 200, "{me}");
    assert_eq!(me["user"], "alice");
    assert_eq!(me["accounts"][0]["account_id"], field("accountId").as_str());
    assert_eq!(me["accounts"][0]["console_url"], format!("{}/console", console.url).as_str());

    // A run in the account: its APIs are at one address, so what the agent asks for is made
    // through them, by the provisioner's own RAM user.
    let procedure = aca_docs::parse_markdown(
        "# Create a vSwitch\n\n## Procedure\n\n1. Log on to the **VPC console**.\n2. On the **vSwitches** page, click **Create vSwitch**.\n",
    )
    .unwrap();
    let (status, run) = call(
        reqwest::Method::POST,
        &format!("{}/v1/runs", server.url),
        &token,
        Some(json!({ "procedure": procedure, "product": "vpc" })),
    )
    .await;
    assert_eq!(status, 201, "{run}");
    let provisioner = run["provisioner"].as_str().unwrap_or_default().to_owned();
    assert!(provisioner.starts_with("aca-provisioner-"), "{run}");
    let run_url = format!("{}/v1/runs/{}", server.url, run["id"].as_str().unwrap());
    let (status, provided) = call(
        reqwest::Method::POST,
        &format!("{run_url}/requests"),
        &token,
        Some(json!({ "description": "a VPC to create the vSwitch in" })),
    )
    .await;
    assert_eq!(status, 200, "{provided}");
    assert!(provided["bindings"]["vpc_id"].as_str().is_some(), "{provided}");

    // What the person does in the console is what the reward service finds in the audit log.
    let before = unix_ms();
    let vpc = aca(
        dir.path(),
        &[
            "api",
            "--endpoint",
            &console.url,
            "--credentials",
            "ak.json",
            "vpc",
            "CreateVpc",
            "RegionId=cn-hangzhou",
            "VpcName=docs-qa-vpc",
            "CidrBlock=192.168.0.0/16",
        ],
    );
    assert!(vpc.status.success(), "{}", show(&vpc));
    let rule = json!({"events": [{"event_name": "CreateVpc", "parameters": [{"name": "VpcName", "equals": "docs-qa-vpc"}]}]});
    let (status, decided) = call(
        reqwest::Method::POST,
        &format!("{run_url}/reward"),
        &token,
        Some(json!({ "rule": rule, "deadline_ms": 5000 })),
    )
    .await;
    assert_eq!(status, 200, "{decided}");
    assert_eq!((decided["outcome"].as_str(), decided["reward"].as_f64()), (Some("met"), Some(1.0)), "{decided}");
    let (status, ended) = call(reqwest::Method::DELETE, &run_url, &token, None).await;
    assert_eq!((status, &ended["left"]), (200, &json!([])), "{ended}");

    // Other windows of the same account, as RL rollouts and the benchmark ask: one that closed
    // before the call holds no event; one that starts in the future is no question to ask.
    let reward_url = format!("{}/v1/reward", server.url);
    let window_reward = |window: Value| {
        let body = json!({ "account_id": field("accountId"), "window": window, "rule": rule, "deadline_ms": 500 });
        call(reqwest::Method::POST, &reward_url, &token, Some(body))
    };
    let (status, decided) = window_reward(json!({"start_ms": before - 60_000, "end_ms": before - 1_000})).await;
    assert_eq!((status, decided["outcome"].as_str()), (200, Some("not_met")), "{decided}");
    let (status, decided) = window_reward(json!({"start_ms": unix_ms() + 60_000})).await;
    assert_eq!(status, 200, "{decided}");
    assert_eq!(decided["failure"]["kind"], "bad_request", "{decided}");
    assert!(decided["reason"].as_str().unwrap().contains("s from now"), "{decided}");

    // Restarted, the server still knows alice's token, and the file keeps no secret.
    drop(server);
    let server = start_server(dir.path());
    let (status, me) = call(reqwest::Method::GET, &format!("{}/v1/me", server.url), &token, None).await;
    assert_eq!((status, me["user"].as_str()), (200, Some("alice")), "{me}");
    let (status, _) = call(reqwest::Method::GET, &format!("{}/v1/me", server.url), ADMIN, None).await;
    assert_eq!(status, 200);
    let kept = std::fs::read(dir.path().join("state/results.db")).unwrap();
    for secret in [token.as_str(), ADMIN, &field("accessKeySecret")] {
        assert!(!kept.windows(secret.len()).any(|w| w == secret.as_bytes()), "the results database keeps a secret");
    }
}

#[test]
fn a_key_file_others_may_read_stops_the_server_before_it_serves() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("ak.json"),
        r#"{"accessKeyId": "LTAI5tOpenFile", "accessKeySecret": "open-file-secret"}"#,
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(dir.path().join("ak.json"), std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    std::fs::write(
        dir.path().join("accounts.toml"),
        "[[account]]\nid = \"1001\"\nlogin = \"qa\"\nconsole = \"https://home.console.aliyun.com\"\ncredentials = \"ak.json\"\n",
    )
    .unwrap();
    let output = aca(dir.path(), &["server", "--listen", "127.0.0.1:0", "--accounts", "accounts.toml"]);
    assert_eq!(output.status.code(), Some(2), "{}", show(&output));
    let said = show(&output);
    assert!(said.contains("chmod 600") && !said.contains("open-file-secret"), "{said}");
}

#[tokio::test]
async fn a_console_kept_in_a_file_keeps_its_users_too() {
    let dir = tempfile::tempdir().unwrap();
    let start = || RunningConsole::start(dir.path(), &["--db", "console.db", "--admin-token", "console-admin"]);
    let console = start();
    let account = RunningConsole::credentials(dir.path())["accountId"].as_str().unwrap().to_owned();
    let made = aca(
        dir.path(),
        &[
            "console", "users", "create", "--url", &console.url, "--admin-token", "console-admin", "--name", "bob",
            "--account", &account,
        ],
    );
    assert!(made.status.success(), "{}", show(&made));
    let token = serde_json::from_slice::<Value>(&made.stdout).unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    drop(console);
    let console = start();
    let (status, me) = call(reqwest::Method::GET, &format!("{}/v1/me", console.url), &token, None).await;
    assert_eq!((status, me["user"].as_str()), (200, Some("bob")), "{me}");
    assert_eq!(me["accounts"][0]["account_id"], account.as_str());
}
