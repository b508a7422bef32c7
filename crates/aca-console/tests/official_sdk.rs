//! Alibaba Cloud's official Python SDKs, unchanged, against the emulator on a real port: the RPC SDK
//! (`aliyun-python-sdk-core`, signature 1.0) and the V3 SDK (`alibabacloud_vpc20160428`,
//! `ACS3-HMAC-SHA256`). Each VPC script creates and describes a VPC and a vSwitch, and the test then
//! reads the account's audit trail for the calls the SDK made; the ActionTrail script pages through
//! `LookupEvents` with each SDK.
//!
//! The SDKs are Python packages: a machine without them fails these tests with the pip command to run.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use aca_console::dispatch::Caller;
use aca_console::params::Params;
use aca_console::products::vpc;
use aca_console::state::StoredEvent;
use aca_console::{Console, ConsoleConfig, Credentials};
use aca_core::EventType;
use axum::extract::Request;
use axum::middleware::Next;
use parking_lot::Mutex;
use serde_json::Value;

struct Emulator {
    console: Arc<Console>,
    endpoint: String,
    /// How each request reached the emulator, as the SDK sent it.
    seen: Arc<Mutex<Vec<Seen>>>,
}

/// The transport details of one request: proof of which signature scheme the SDK used.
#[derive(Debug, Clone)]
struct Seen {
    method: String,
    /// The `Authorization` header's scheme (`ACS3-HMAC-SHA256`), if any.
    authorization: Option<String>,
    query_signed: bool,
    signed_headers: Vec<String>,
}

async fn start() -> Emulator {
    let console = Arc::new(Console::in_memory(ConsoleConfig::for_tests()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
    let recorder = seen.clone();
    let app =
        aca_console::app(console.clone()).layer(axum::middleware::from_fn(move |request: Request, next: Next| {
            let recorder = recorder.clone();
            async move {
                let authorization = request
                    .headers()
                    .get("authorization")
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_owned);
                let query = request.uri().query().unwrap_or("");
                recorder.lock().push(Seen {
                    method: request.method().to_string(),
                    authorization: authorization
                        .as_deref()
                        .and_then(|a| a.split(' ').next())
                        .map(str::to_owned),
                    query_signed: query.split('&').any(|pair| pair.starts_with("Signature=")),
                    signed_headers: authorization
                        .as_deref()
                        .and_then(|a| a.split("SignedHeaders=").nth(1))
                        .map(|rest| {
                            rest.split(',')
                                .next()
                                .unwrap_or("")
                                .split(';')
                                .map(str::to_owned)
                                .collect()
                        })
                        .unwrap_or_default(),
                });
                next.run(request).await
            }
        }));
    tokio::spawn(async move {
        axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
            .await
            .unwrap();
    });
    Emulator {
        console,
        endpoint: addr.to_string(),
        seen,
    }
}

fn script(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/sdk").join(name)
}

/// Fails with the install command when `python3` or one of the SDK modules is missing.
async fn require_python_modules(modules: &[&str], pip_packages: &str) {
    let import = format!("import {}", modules.join(", "));
    let probe = tokio::process::Command::new("python3")
        .args(["-c", &import])
        .output()
        .await;
    match probe {
        Err(e) => panic!(
            "python3 is needed to run the official SDK tests ({e}); install Python 3, then: pip install {pip_packages}"
        ),
        Ok(out) if !out.status.success() => panic!(
            "the official Alibaba Cloud SDK is not installed ({}); run: pip install {pip_packages}",
            String::from_utf8_lossy(&out.stderr)
                .trim()
                .lines()
                .last()
                .unwrap_or("import failed")
        ),
        Ok(_) => {}
    }
}

/// Runs a script with the endpoint and the account's AccessKey; returns the JSON line it prints.
async fn run_script(name: &str, emu: &Emulator, creds: &Credentials, extra_args: &[&str]) -> Value {
    let out = tokio::process::Command::new("python3")
        .arg(script(name))
        .args([&emu.endpoint, &creds.access_key_id, &creds.access_key_secret])
        .args(extra_args)
        .output()
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{name} failed ({}):\nstdout: {stdout}\nstderr: {stderr}",
        out.status
    );
    let last = stdout.lines().last().unwrap_or("");
    serde_json::from_str(last).unwrap_or_else(|e| panic!("{name} printed no JSON ({e}): {stdout}"))
}

fn events(emu: &Emulator, creds: &Credentials) -> Vec<StoredEvent> {
    emu.console
        .store
        .account(&creds.account_id)
        .unwrap()
        .lock()
        .events
        .clone()
}

/// Checks the trail of one script run: every call audited in order, under the SDK's user agent.
fn assert_trail(events: &[StoredEvent], created: &Value, agent_marks: &[&str]) {
    let summary: Vec<(&str, Option<&str>)> = events
        .iter()
        .map(|e| (e.event.event_name.as_str(), e.event.error_code.as_deref()))
        .collect();
    assert_eq!(
        summary,
        [
            ("CreateVpc", None),
            ("CreateVSwitch", None),
            ("DescribeVpcs", None),
            ("DescribeVSwitches", None),
            ("DeleteVSwitch", Some("InvalidVSwitchId.NotFound")),
        ]
    );
    let vpc_id = created["vpcId"].as_str().unwrap();
    let vswitch_id = created["vSwitchId"].as_str().unwrap();
    assert_eq!(events[0].event.response_elements["VpcId"], vpc_id);
    assert_eq!(events[1].event.response_elements["VSwitchId"], vswitch_id);
    assert_eq!(events[1].event.request_parameters["VpcId"], vpc_id);
    for stored in events {
        let event = &stored.event;
        for mark in agent_marks {
            assert!(
                event.user_agent.contains(mark),
                "{}: user agent {:?} lacks {mark:?}",
                event.event_name,
                event.user_agent
            );
        }
        assert_eq!(event.event_source, "vpc.aliyuncs.com");
        assert_eq!(event.acs_region, "cn-hangzhou");
        assert_eq!(event.api_version, "2016-04-28");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rpc_sdk_works_unchanged() {
    require_python_modules(
        &["aliyunsdkcore", "aliyunsdkvpc"],
        "aliyun-python-sdk-core aliyun-python-sdk-vpc",
    )
    .await;
    let emu = start().await;
    let creds = emu.console.create_account("sdk-core", None).unwrap();
    let created = run_script("vpc_sdk.py", &emu, &creds, &[]).await;
    let trail = events(&emu, &creds);
    assert_trail(&trail, &created, &["AlibabaCloud", "Core/"]);
    let seen = emu.seen.lock().clone();
    assert_eq!(seen.len(), 5, "{seen:?}");
    assert!(
        seen.iter().all(|s| s.authorization.is_none() && s.query_signed),
        "signature 1.0 in the query: {seen:?}"
    );
    assert_eq!(seen[0].method, "POST", "the SDK posts CreateVpc");
    assert_eq!(
        trail[0].event.request_parameters["Description"],
        "created by aliyun-python-sdk-vpc: 专有网络 a+b c*d~e/f=g&h%i"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_v3_sdk_works_unchanged() {
    require_python_modules(
        &["alibabacloud_vpc20160428", "alibabacloud_tea_openapi"],
        "alibabacloud_vpc20160428",
    )
    .await;
    let emu = start().await;
    let creds = emu.console.create_account("sdk-v3", None).unwrap();
    let created = run_script("vpc_sdk_v3.py", &emu, &creds, &[]).await;
    let trail = events(&emu, &creds);
    assert_trail(&trail, &created, &["AlibabaCloud", "TeaDSL/"]);
    let seen = emu.seen.lock().clone();
    assert_eq!(seen.len(), 5, "{seen:?}");
    assert_eq!(seen[0].method, "POST", "the SDK posts CreateVpc");
    for request in &seen {
        assert_eq!(
            request.authorization.as_deref(),
            Some("ACS3-HMAC-SHA256"),
            "{request:?}"
        );
        assert!(!request.query_signed, "{request:?}");
        for header in [
            "host",
            "x-acs-action",
            "x-acs-content-sha256",
            "x-acs-date",
            "x-acs-signature-nonce",
            "x-acs-version",
        ] {
            assert!(
                request.signed_headers.iter().any(|h| h == header),
                "{header} is not signed: {request:?}"
            );
        }
    }
    assert_eq!(
        trail[0].event.request_parameters["Description"],
        "created by the V3 SDK: 专有网络 a+b c*d~e/f=g&h%i"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_v3_sdk_on_its_legacy_rpc_signature_works_unchanged() {
    require_python_modules(
        &["alibabacloud_vpc20160428", "alibabacloud_tea_openapi"],
        "alibabacloud_vpc20160428",
    )
    .await;
    let emu = start().await;
    let creds = emu.console.create_account("sdk-v2", None).unwrap();
    let created = run_script("vpc_sdk_v3.py", &emu, &creds, &["v2"]).await;
    let trail = events(&emu, &creds);
    assert_trail(&trail, &created, &["AlibabaCloud", "TeaDSL/"]);
    assert_eq!(
        trail[0].event.request_parameters["Description"],
        "created by the V3 SDK: 专有网络 a+b c*d~e/f=g&h%i"
    );
    let seen = emu.seen.lock().clone();
    assert_eq!(seen.len(), 5, "{seen:?}");
    assert!(
        seen.iter().all(|s| s.authorization.is_none() && s.query_signed),
        "signature 1.0 in the query: {seen:?}"
    );
}

/// Three VPCs created (and one describe) in the account, then looked up by event name with `flavour`'s SDK.
async fn lookup_created_vpcs_with(flavour: &str) {
    let emu = start().await;
    let creds = emu.console.create_account(&format!("trail-{flavour}"), None).unwrap();
    let caller = Caller {
        account_id: creds.account_id.clone(),
        access_key_id: creds.access_key_id.clone(),
        user_name: None,
        user_agent: "vpc.console.aliyun.com".into(),
        source_ip: "127.0.0.1".into(),
        event_type: EventType::ApiCall,
        event_name: None,
    };
    let mut created = Vec::new();
    for name in ["one", "two", "three"] {
        let outcome = emu.console.call(
            &vpc::PRODUCT,
            "CreateVpc",
            &Params::from_pairs([("VpcName", name)]),
            &caller,
        );
        created.push(outcome.result.unwrap()["VpcId"].as_str().unwrap().to_owned());
        let _ = emu
            .console
            .call(&vpc::PRODUCT, "DescribeVpcs", &Params::default(), &caller);
    }
    created.reverse();

    let found = run_script("actiontrail_sdk.py", &emu, &creds, &[flavour, "CreateVpc"]).await;
    assert_eq!(found["pages"], 2, "three events at two a page: {found}");
    let ids: Vec<&str> = found["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["responseElements"]["VpcId"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(ids, created, "every CreateVpc once, newest first");
    let seen = emu.seen.lock().clone();
    let v3 = seen
        .iter()
        .filter(|s| s.authorization.as_deref() == Some("ACS3-HMAC-SHA256"))
        .count();
    assert_eq!((seen.len(), v3), (2, if flavour == "v3" { 2 } else { 0 }), "{seen:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rpc_actiontrail_sdk_looks_up_events() {
    require_python_modules(
        &["aliyunsdkcore", "aliyunsdkactiontrail"],
        "aliyun-python-sdk-core aliyun-python-sdk-actiontrail",
    )
    .await;
    lookup_created_vpcs_with("rpc").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_v3_actiontrail_sdk_looks_up_events() {
    require_python_modules(
        &["alibabacloud_actiontrail20200706"],
        "alibabacloud_actiontrail20200706",
    )
    .await;
    lookup_created_vpcs_with("v3").await;
}

/// An instance launched, described, stopped and deleted with `flavour`'s ECS SDK.
async fn launch_an_instance_with(flavour: &str) {
    let emu = start().await;
    let creds = emu.console.create_account(&format!("ecs-{flavour}"), None).unwrap();
    let made = run_script("ecs_sdk.py", &emu, &creds, &[flavour]).await;
    let trail = events(&emu, &creds);
    let summary: Vec<(&str, &str, Option<&str>)> = trail
        .iter()
        .map(|e| {
            (
                e.event.event_name.as_str(),
                e.event.event_source.as_str(),
                e.event.error_code.as_deref(),
            )
        })
        .collect();
    let ecs = "ecs.aliyuncs.com";
    assert_eq!(
        summary,
        [
            ("CreateVpc", "vpc.aliyuncs.com", None),
            ("CreateVSwitch", "vpc.aliyuncs.com", None),
            ("CreateSecurityGroup", ecs, None),
            ("AuthorizeSecurityGroup", ecs, None),
            ("RunInstances", ecs, None),
            ("DescribeInstances", ecs, None),
            ("StopInstance", ecs, None),
            ("DescribeInstances", ecs, None),
            ("DeleteInstance", ecs, None),
        ]
    );
    let run = &trail[4].event;
    for (name, value) in [
        ("ImageId", "aliyun_3_x64_20G_alibase_20240528.vhd"),
        ("SystemDisk.Category", "cloud_essd"),
        ("SystemDisk.Size", "40"),
        ("Tag.1.Key", "team"),
        ("Tag.1.Value", "docs"),
        ("SecurityGroupId", made["securityGroupId"].as_str().unwrap()),
    ] {
        assert_eq!(
            run.request_parameters.get(name).and_then(Value::as_str),
            Some(value),
            "{name} in {:?}",
            run.request_parameters
        );
    }
    assert_eq!(
        run.response_elements["InstanceIdSets"]["InstanceIdSet"][0],
        made["instanceId"]
    );
    assert!(trail.iter().all(|e| e.event.user_agent.contains("AlibabaCloud")));
    let shared = emu.console.store.account(&creds.account_id).unwrap();
    let state = shared.lock();
    assert!(
        state.resources().values().all(|r| r.kind != "ecs.instance"),
        "the deleted instance is gone from the account"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rpc_ecs_sdk_launches_and_deletes_an_instance() {
    require_python_modules(
        &["aliyunsdkcore", "aliyunsdkecs", "aliyunsdkvpc"],
        "aliyun-python-sdk-core aliyun-python-sdk-ecs aliyun-python-sdk-vpc",
    )
    .await;
    launch_an_instance_with("rpc").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_v3_ecs_sdk_launches_and_deletes_an_instance() {
    require_python_modules(
        &["alibabacloud_ecs20140526", "alibabacloud_vpc20160428"],
        "alibabacloud_ecs20140526 alibabacloud_vpc20160428",
    )
    .await;
    launch_an_instance_with("v3").await;
}
