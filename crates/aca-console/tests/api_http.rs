//! The emulator's OpenAPI over real HTTP: requests signed here exactly as Alibaba Cloud documents
//! (RPC signature 1.0 and V3 `ACS3-HMAC-SHA256`), sent to a live 127.0.0.1 port, and checked for the
//! real response and error shapes, the audit trail, account isolation, concurrency and persistence.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use aca_console::clock::iso8601;
use aca_console::state::StoredEvent;
use aca_console::{Console, ConsoleConfig, Credentials, ManualClock, Store, SystemClock};
use aca_openapi::sign::{percent_encode, rpc_signature, rpc_string_to_sign};
use hmac::{Hmac, Mac};
use serde_json::Value;
use sha2::Digest;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

const VPC_VERSION: &str = "2016-04-28";

/// A console served on a real loopback port, with an HTTP client for it.
struct Emulator {
    console: Arc<Console>,
    base: String,
    addr: SocketAddr,
    http: reqwest::Client,
    shutdown: Option<oneshot::Sender<()>>,
    server: Option<JoinHandle<()>>,
}

#[derive(Debug, Clone, Copy)]
enum Via {
    /// Every parameter in the query string.
    Get,
    /// Every parameter in an `application/x-www-form-urlencoded` body.
    FormPost,
}

/// A response: HTTP status and raw body.
#[derive(Debug)]
struct Reply {
    status: u16,
    body: String,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

impl Emulator {
    async fn start(console: Console) -> Self {
        let console = Arc::new(console);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let app = aca_console::app(console.clone());
        let (shutdown, stop) = oneshot::channel::<()>();
        let server = tokio::spawn(async move {
            axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
                .with_graceful_shutdown(async move {
                    let _ = stop.await;
                })
                .await
                .unwrap();
        });
        Self {
            console,
            base: format!("http://{addr}"),
            addr,
            http: reqwest::Client::new(),
            shutdown: Some(shutdown),
            server: Some(server),
        }
    }

    async fn in_memory() -> Self {
        Self::start(Console::in_memory(ConsoleConfig::for_tests())).await
    }

    /// Stops serving, closes every connection and hands back the console, proving nothing else holds it.
    async fn stop(mut self) -> Console {
        drop(std::mem::replace(&mut self.http, reqwest::Client::new()));
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(server) = self.server.take() {
            tokio::time::timeout(Duration::from_secs(10), server)
                .await
                .expect("server stops")
                .unwrap();
        }
        let mut console = self.console.clone();
        drop(self);
        for _ in 0..100 {
            match Arc::try_unwrap(console) {
                Ok(owned) => return owned,
                Err(shared) => console = shared,
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("the console is still referenced after the server stopped");
    }

    fn account(&self, name: &str) -> Credentials {
        self.console.create_account(name, None).unwrap()
    }

    fn events(&self, creds: &Credentials) -> Vec<StoredEvent> {
        self.console
            .store
            .account(&creds.account_id)
            .unwrap()
            .lock()
            .events
            .clone()
    }

    /// The protocol parameters every RPC 1.0 request carries, plus the operation's own.
    fn rpc_params(&self, creds: &Credentials, action: &str, extra: &[(&str, &str)]) -> BTreeMap<String, String> {
        let mut params: BTreeMap<String, String> = [
            ("Action", action),
            ("Version", VPC_VERSION),
            ("Format", "JSON"),
            ("AccessKeyId", creds.access_key_id.as_str()),
            ("SignatureMethod", "HMAC-SHA1"),
            ("SignatureVersion", "1.0"),
            ("RegionId", "cn-hangzhou"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        params.insert("SignatureNonce".into(), uuid::Uuid::new_v4().to_string());
        params.insert("Timestamp".into(), iso8601(self.console.clock.now_ms()));
        for (k, v) in extra {
            params.insert((*k).to_owned(), (*v).to_owned());
        }
        params
    }

    /// Adds `Signature` per RPC signature 1.0 for the given HTTP method.
    fn sign(method: &str, secret: &str, params: &mut BTreeMap<String, String>) {
        params.remove("Signature");
        let string_to_sign = rpc_string_to_sign(method, params.iter());
        params.insert("Signature".into(), rpc_signature(secret, &string_to_sign));
    }

    async fn send(&self, via: Via, params: &BTreeMap<String, String>) -> Reply {
        let encoded = encode(params);
        let request = match via {
            Via::Get => self.http.get(format!("{}/?{encoded}", self.base)),
            Via::FormPost => self
                .http
                .post(format!("{}/", self.base))
                .header("content-type", "application/x-www-form-urlencoded")
                .body(encoded),
        };
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        Reply {
            status,
            body: response.text().await.unwrap(),
        }
    }

    /// A correctly signed call.
    async fn call_via(&self, via: Via, creds: &Credentials, action: &str, extra: &[(&str, &str)]) -> Reply {
        let mut params = self.rpc_params(creds, action, extra);
        let method = match via {
            Via::Get => "GET",
            Via::FormPost => "POST",
        };
        Self::sign(method, &creds.access_key_secret, &mut params);
        self.send(via, &params).await
    }

    async fn call(&self, creds: &Credentials, action: &str, extra: &[(&str, &str)]) -> Reply {
        self.call_via(Via::Get, creds, action, extra).await
    }

    /// A call that must succeed; returns its JSON body.
    async fn ok(&self, creds: &Credentials, action: &str, extra: &[(&str, &str)]) -> Value {
        let reply = self.call(creds, action, extra).await;
        assert_eq!(reply.status, 200, "{action} failed: {}", reply.body);
        reply.json()
    }

    async fn create_vpc(&self, creds: &Credentials, name: &str) -> String {
        let body = self
            .ok(creds, "CreateVpc", &[("VpcName", name), ("CidrBlock", "172.16.0.0/12")])
            .await;
        body["VpcId"].as_str().unwrap().to_owned()
    }
}

fn encode(params: &BTreeMap<String, String>) -> String {
    params
        .iter()
        .map(|(k, v)| format!("{}={}", percent_encode(k), percent_encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// Checks the error body every Alibaba Cloud RPC API returns, and returns it.
fn assert_error_shape(reply: &Reply, status: u16, code: &str) -> Value {
    assert_eq!(reply.status, status, "{}", reply.body);
    let body = reply.json();
    assert_eq!(body["Code"], code, "{body}");
    for field in ["RequestId", "HostId", "Message", "Recommend"] {
        assert!(
            body[field].as_str().is_some_and(|s| !s.is_empty()),
            "error body lacks {field}: {body}"
        );
    }
    let request_id = body["RequestId"].as_str().unwrap();
    assert!(
        uuid::Uuid::parse_str(request_id).is_ok() && request_id == request_id.to_uppercase(),
        "{request_id}"
    );
    let recommend = body["Recommend"].as_str().unwrap();
    assert!(
        recommend.starts_with(&format!("https://api.aliyun.com/troubleshoot?q={code}")),
        "{recommend}"
    );
    body
}

/// The error of a request that reached a product: `HostId` is the product's endpoint and `Recommend`
/// names the product and the request, as the real endpoints answer.
fn assert_product_error(reply: &Reply, status: u16, code: &str, endpoint: &str, product: &str) -> Value {
    let body = assert_error_shape(reply, status, code);
    assert_eq!(body["HostId"], endpoint, "{body}");
    let request_id = body["RequestId"].as_str().unwrap();
    let recommend = format!("https://api.aliyun.com/troubleshoot?q={code}&product={product}&requestId={request_id}");
    assert_eq!(body["Recommend"], recommend.as_str(), "{body}");
    body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn creates_and_describes_vpcs_and_vswitches_over_signed_get_and_form_post() {
    let emu = Emulator::in_memory().await;
    let alice = emu.account("alice");

    let created = emu
        .call_via(
            Via::Get,
            &alice,
            "CreateVpc",
            &[("VpcName", "web-vpc"), ("CidrBlock", "10.0.0.0/8")],
        )
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    let vpc_id = created.json()["VpcId"].as_str().unwrap().to_owned();
    assert!(vpc_id.starts_with("vpc-"), "{vpc_id}");
    assert!(created.json()["RequestId"].is_string());

    let posted = emu
        .call_via(
            Via::FormPost,
            &alice,
            "CreateVSwitch",
            &[
                ("VpcId", &vpc_id),
                ("ZoneId", "cn-hangzhou-h"),
                ("CidrBlock", "10.1.0.0/16"),
                ("VSwitchName", "web a"),
            ],
        )
        .await;
    assert_eq!(posted.status, 200, "{}", posted.body);
    let vswitch_id = posted.json()["VSwitchId"].as_str().unwrap().to_owned();
    assert!(vswitch_id.starts_with("vsw-"), "{vswitch_id}");

    for via in [Via::Get, Via::FormPost] {
        let listed = emu.call_via(via, &alice, "DescribeVpcs", &[("VpcId", &vpc_id)]).await;
        assert_eq!(listed.status, 200, "{via:?}: {}", listed.body);
        let body = listed.json();
        assert_eq!(body["TotalCount"], 1);
        let vpc = &body["Vpcs"]["Vpc"][0];
        assert_eq!(vpc["VpcId"], vpc_id.as_str());
        assert_eq!(vpc["VpcName"], "web-vpc");
        assert_eq!(vpc["CidrBlock"], "10.0.0.0/8");
        assert_eq!(vpc["VSwitchIds"]["VSwitchId"], serde_json::json!([vswitch_id]));
    }

    let vswitches = emu.ok(&alice, "DescribeVSwitches", &[("VpcId", &vpc_id)]).await;
    assert_eq!(vswitches["TotalCount"], 1);
    let vsw = &vswitches["VSwitches"]["VSwitch"][0];
    assert_eq!(
        (vsw["VSwitchName"].as_str(), vsw["ZoneId"].as_str()),
        (Some("web a"), Some("cn-hangzhou-h"))
    );

    let events = emu.events(&alice);
    let names: Vec<&str> = events.iter().map(|e| e.event.event_name.as_str()).collect();
    assert_eq!(
        names,
        [
            "CreateVpc",
            "CreateVSwitch",
            "DescribeVpcs",
            "DescribeVpcs",
            "DescribeVSwitches"
        ]
    );
    let create = &events[0].event;
    assert_eq!(create.user_identity.access_key_id, alice.access_key_id);
    assert_eq!(create.source_ip_address, "127.0.0.1");
    assert_eq!(create.request_parameters["VpcName"], "web-vpc");
    assert!(
        !create.request_parameters.contains_key("Signature"),
        "protocol parameters stay out of events"
    );
    assert!(events.iter().all(|e| e.event.error_code.is_none()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_signature_is_refused_with_the_real_error_body_and_audited() {
    let emu = Emulator::in_memory().await;
    let alice = emu.account("alice");
    let mut params = emu.rpc_params(&alice, "CreateVpc", &[("VpcName", "nope")]);
    Emulator::sign("GET", "not-the-secret", &mut params);

    let reply = emu.send(Via::Get, &params).await;
    let body = assert_product_error(&reply, 400, "SignatureDoesNotMatch", "vpc.aliyuncs.com", "Vpc");
    let message = body["Message"].as_str().unwrap();
    assert!(
        message.contains("server string to sign is:GET&%2F&AccessKeyId%3D"),
        "{message}"
    );

    // Signed for GET but sent as a form POST: the method is part of what is signed.
    let mut posted = emu.rpc_params(&alice, "CreateVpc", &[]);
    Emulator::sign("GET", &alice.access_key_secret, &mut posted);
    assert_error_shape(&emu.send(Via::FormPost, &posted).await, 400, "SignatureDoesNotMatch");

    let events = emu.events(&alice);
    assert_eq!(events.len(), 2, "both refusals are audited");
    let event = &events[0].event;
    assert_eq!(event.event_name, "CreateVpc");
    assert_eq!(event.error_code.as_deref(), Some("SignatureDoesNotMatch"));
    assert_eq!(
        event.request_id,
        body["RequestId"].as_str().unwrap(),
        "the event carries the response's RequestId"
    );
    assert!(event.response_elements.is_null());
    let vpcs = emu.ok(&alice, "DescribeVpcs", &[]).await;
    assert_eq!(vpcs["TotalCount"], 0, "nothing was created");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_access_key_is_not_found() {
    let emu = Emulator::in_memory().await;
    let alice = emu.account("alice");
    let stranger = Credentials {
        access_key_id: "LTAI00000000000000000000".into(),
        ..alice.clone()
    };
    let reply = emu.call(&stranger, "DescribeVpcs", &[]).await;
    let body = assert_error_shape(&reply, 404, "InvalidAccessKeyId.NotFound");
    assert_eq!(body["Message"], "Specified access key is not found.");
    assert!(emu.events(&alice).is_empty(), "a key nobody owns is audited nowhere");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_action_is_not_found_and_audited_as_failed() {
    let emu = Emulator::in_memory().await;
    let alice = emu.account("alice");
    let reply = emu.call(&alice, "CreateVpcs", &[("VpcName", "typo")]).await;
    let body = assert_product_error(&reply, 404, "InvalidAction.NotFound", "vpc.aliyuncs.com", "Vpc");
    assert!(body["Message"].as_str().unwrap().contains("\"CreateVpcs\""), "{body}");
    let events = emu.events(&alice);
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].event.event_name, "CreateVpcs");
    assert_eq!(events[0].event.error_code.as_deref(), Some("InvalidAction.NotFound"));
    assert_eq!(events[0].event.event_source, "vpc.aliyuncs.com");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_parameter_is_named() {
    let emu = Emulator::in_memory().await;
    let alice = emu.account("alice");
    let vpc_id = emu.create_vpc(&alice, "vpc-a").await;
    let reply = emu
        .call(
            &alice,
            "CreateVSwitch",
            &[("VpcId", &vpc_id), ("CidrBlock", "172.16.1.0/24")],
        )
        .await;
    let body = assert_error_shape(&reply, 400, "MissingParameter");
    assert!(body["Message"].as_str().unwrap().contains("\"ZoneId\""), "{body}");
    let last = emu.events(&alice).pop().unwrap().event;
    assert_eq!(
        (last.event_name.as_str(), last.error_code.as_deref()),
        ("CreateVSwitch", Some("MissingParameter"))
    );

    let mut unsigned = emu.rpc_params(&alice, "DescribeVpcs", &[]);
    unsigned.remove("Signature");
    let body = assert_error_shape(&emu.send(Via::Get, &unsigned).await, 400, "MissingParameter");
    assert!(body["Message"].as_str().unwrap().contains("\"Signature\""), "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_version_is_refused() {
    let emu = Emulator::in_memory().await;
    let alice = emu.account("alice");
    let reply = emu.call(&alice, "DescribeVpcs", &[("Version", "2099-01-01")]).await;
    let body = assert_error_shape(&reply, 404, "InvalidVersion");
    assert_eq!(body["HostId"], "aliyuncs.com", "no product answered: {body}");
    assert!(body["Message"].as_str().unwrap().contains("2099-01-01"), "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_timestamp_is_refused() {
    let emu = Emulator::in_memory().await;
    let alice = emu.account("alice");
    let twenty_minutes_ago = iso8601(emu.console.clock.now_ms() - 20 * 60 * 1000);
    let reply = emu
        .call(&alice, "DescribeVpcs", &[("Timestamp", &twenty_minutes_ago)])
        .await;
    let body = assert_error_shape(&reply, 400, "InvalidTimeStamp.Expired");
    assert!(
        body["Message"].as_str().unwrap().contains(&twenty_minutes_ago),
        "{body}"
    );
    let events = emu.events(&alice);
    assert_eq!(
        events.last().unwrap().event.error_code.as_deref(),
        Some("InvalidTimeStamp.Expired")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replayed_request_is_refused_by_its_nonce() {
    let emu = Emulator::in_memory().await;
    let alice = emu.account("alice");
    let mut params = emu.rpc_params(&alice, "CreateVpc", &[("VpcName", "once"), ("CidrBlock", "10.0.0.0/8")]);
    Emulator::sign("GET", &alice.access_key_secret, &mut params);
    assert_eq!(emu.send(Via::Get, &params).await.status, 200);
    let replay = emu.send(Via::Get, &params).await;
    assert_error_shape(&replay, 400, "SignatureNonceUsed");
    let vpcs = emu.ok(&alice, "DescribeVpcs", &[]).await;
    assert_eq!(vpcs["TotalCount"], 1, "the replay created nothing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn format_xml_returns_xml() {
    let emu = Emulator::in_memory().await;
    let alice = emu.account("alice");
    let vpc_id = emu.create_vpc(&alice, "xml-vpc").await;

    let reply = emu.call(&alice, "DescribeVpcs", &[("Format", "XML")]).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let xml = &reply.body;
    assert!(xml.starts_with("<?xml"), "{xml}");
    assert!(
        xml.contains("<DescribeVpcsResponse>") && xml.ends_with("</DescribeVpcsResponse>"),
        "{xml}"
    );
    assert!(xml.contains("<TotalCount>1</TotalCount>"), "{xml}");
    assert!(xml.contains(&format!("<Vpcs><Vpc><VpcId>{vpc_id}</VpcId>")), "{xml}");
    assert!(xml.contains("<RequestId>"), "{xml}");

    let failed = emu
        .call(&alice, "DeleteVpc", &[("Format", "XML"), ("VpcId", "vpc-missing")])
        .await;
    assert_eq!(failed.status, 404);
    assert!(
        failed.body.contains("<Error>") && failed.body.contains("<Code>InvalidVpcId.NotFound</Code>"),
        "{}",
        failed.body
    );
    assert!(
        failed.body.contains("<HostId>") && failed.body.contains("<Recommend>"),
        "{}",
        failed.body
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_cannot_see_or_delete_each_others_resources() {
    let emu = Emulator::in_memory().await;
    let alice = emu.account("alice");
    let bob = emu.account("bob");
    let vpc_id = emu.create_vpc(&alice, "private").await;

    let seen = emu.ok(&bob, "DescribeVpcs", &[]).await;
    assert_eq!(seen["TotalCount"], 0);
    let by_id = emu.ok(&bob, "DescribeVpcs", &[("VpcId", &vpc_id)]).await;
    assert_eq!(by_id["TotalCount"], 0);

    let deleted = emu.call(&bob, "DeleteVpc", &[("VpcId", &vpc_id)]).await;
    assert_product_error(&deleted, 404, "InvalidVpcId.NotFound", "vpc.aliyuncs.com", "Vpc");
    let bob_events = emu.events(&bob);
    assert_eq!(
        bob_events.last().unwrap().event.error_code.as_deref(),
        Some("InvalidVpcId.NotFound")
    );
    assert!(
        emu.events(&alice)
            .iter()
            .all(|e| e.event.user_identity.account_id == alice.account_id)
    );

    let still = emu.ok(&alice, "DescribeVpcs", &[("VpcId", &vpc_id)]).await;
    assert_eq!(still["TotalCount"], 1, "alice's VPC survived bob's attempt");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_writes_to_one_account_are_all_applied_once() {
    let emu = Arc::new(Emulator::in_memory().await);
    let alice = emu.account("alice");
    let vpc_id = emu.create_vpc(&alice, "busy").await;

    let creates = (0..50).map(|i| {
        let (emu, alice, vpc_id) = (emu.clone(), alice.clone(), vpc_id.clone());
        tokio::spawn(async move {
            let cidr = format!("172.16.{i}.0/24");
            let name = format!("vsw-{i}");
            let extra = [
                ("VpcId", vpc_id.as_str()),
                ("ZoneId", "cn-hangzhou-i"),
                ("CidrBlock", &cidr),
                ("VSwitchName", &name),
            ];
            emu.call(&alice, "CreateVSwitch", &extra).await
        })
    });
    let replies: Vec<Reply> = join_in_order(creates).await;
    for reply in &replies {
        assert_eq!(reply.status, 200, "{}", reply.body);
    }
    let mut ids: Vec<String> = replies
        .iter()
        .map(|r| r.json()["VSwitchId"].as_str().unwrap().to_owned())
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 50, "every create made its own vSwitch");
    let listed = emu
        .ok(&alice, "DescribeVSwitches", &[("VpcId", &vpc_id), ("PageSize", "50")])
        .await;
    assert_eq!(listed["TotalCount"], 50);
    assert_eq!(listed["VSwitches"]["VSwitch"].as_array().unwrap().len(), 50);

    let target = ids[0].clone();
    let deletes = (0..20).map(|_| {
        let (emu, alice, target) = (emu.clone(), alice.clone(), target.clone());
        tokio::spawn(async move { emu.call(&alice, "DeleteVSwitch", &[("VSwitchId", &target)]).await })
    });
    let replies: Vec<Reply> = join_in_order(deletes).await;
    let successes = replies.iter().filter(|r| r.status == 200).count();
    assert_eq!(successes, 1, "exactly one delete wins");
    for reply in replies.iter().filter(|r| r.status != 200) {
        assert_error_shape(reply, 404, "InvalidVSwitchId.NotFound");
    }
    let listed = emu.ok(&alice, "DescribeVSwitches", &[("VpcId", &vpc_id)]).await;
    assert_eq!(listed["TotalCount"], 49);

    let events = emu.events(&alice);
    let count = |name: &str, ok: bool| {
        events
            .iter()
            .filter(|e| e.event.event_name == name && e.event.error_code.is_none() == ok)
            .count()
    };
    assert_eq!(
        (
            count("CreateVSwitch", true),
            count("DeleteVSwitch", true),
            count("DeleteVSwitch", false)
        ),
        (50, 1, 19)
    );
}

/// Awaits spawned tasks in order.
async fn join_in_order<T: Send + 'static>(tasks: impl Iterator<Item = JoinHandle<T>>) -> Vec<T> {
    let handles: Vec<JoinHandle<T>> = tasks.collect();
    let mut out = Vec::with_capacity(handles.len());
    for handle in handles {
        out.push(handle.await.unwrap());
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resources_survive_a_restart_on_the_same_database() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("console.db");

    let emu = Emulator::start(Console::new(
        ConsoleConfig::for_tests(),
        Store::open(&path).unwrap(),
        Arc::new(SystemClock),
    ))
    .await;
    let alice = emu.account("alice");
    let vpc_id = emu.create_vpc(&alice, "durable").await;
    drop(emu.stop().await);

    let emu = Emulator::start(Console::new(
        ConsoleConfig::for_tests(),
        Store::open(&path).unwrap(),
        Arc::new(SystemClock),
    ))
    .await;
    let listed = emu.ok(&alice, "DescribeVpcs", &[]).await;
    assert_eq!(listed["TotalCount"], 1, "{listed}");
    assert_eq!(listed["Vpcs"]["Vpc"][0]["VpcId"], vpc_id.as_str());
    assert_eq!(listed["Vpcs"]["Vpc"][0]["VpcName"], "durable");
    let names: Vec<String> = emu.events(&alice).iter().map(|e| e.event.event_name.clone()).collect();
    assert_eq!(names, ["CreateVpc", "DescribeVpcs"], "the audit trail survived too");
}

// ----- V3 signature (ACS3-HMAC-SHA256), written from Alibaba Cloud's "Request syntax and signature method V3" -----

/// A V3 request: method, query, body and the `x-acs-*` headers, signed with the caller's secret.
struct V3Request {
    method: &'static str,
    query: BTreeMap<String, String>,
    body: Vec<u8>,
    content_type: Option<&'static str>,
    headers: BTreeMap<String, String>,
}

impl V3Request {
    fn new(emu: &Emulator, action: &str, query: &[(&str, &str)]) -> Self {
        let mut headers = BTreeMap::new();
        headers.insert("host".to_owned(), emu.addr.to_string());
        headers.insert("x-acs-action".to_owned(), action.to_owned());
        headers.insert("x-acs-version".to_owned(), VPC_VERSION.to_owned());
        headers.insert("x-acs-date".to_owned(), iso8601(emu.console.clock.now_ms()));
        headers.insert(
            "x-acs-signature-nonce".to_owned(),
            uuid::Uuid::new_v4().simple().to_string(),
        );
        Self {
            method: "POST",
            query: query.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect(),
            body: Vec::new(),
            content_type: None,
            headers,
        }
    }

    fn with_form_body(mut self, form: &[(&str, &str)]) -> Self {
        let pairs: BTreeMap<String, String> = form.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        self.body = encode(&pairs).into_bytes();
        self.content_type = Some("application/x-www-form-urlencoded");
        self
    }

    /// Adds `x-acs-content-sha256` and returns the `Authorization` header value, signing every header.
    fn sign(&mut self, access_key_id: &str, secret: &str) -> String {
        self.sign_headers(access_key_id, secret, None)
    }

    /// Like [`V3Request::sign`], but signs only the named headers when `only` is given.
    fn sign_headers(&mut self, access_key_id: &str, secret: &str, only: Option<&[&str]>) -> String {
        let hashed_payload = hex::encode(sha2::Sha256::digest(&self.body));
        self.headers
            .insert("x-acs-content-sha256".to_owned(), hashed_payload.clone());
        // CanonicalQueryString: names sorted, names and values RFC 3986-encoded, `=` even for empty values.
        let canonical_query = self
            .query
            .iter()
            .map(|(k, v)| format!("{}={}", percent_encode(k), percent_encode(v)))
            .collect::<Vec<_>>()
            .join("&");
        // CanonicalHeaders: `host`, `content-type` and every `x-acs-*` header, lower-case, sorted, trimmed.
        let mut signed: BTreeMap<String, String> = self.headers.clone();
        if let Some(ct) = self.content_type {
            signed.insert("content-type".to_owned(), ct.to_owned());
        }
        if let Some(only) = only {
            signed.retain(|name, _| only.contains(&name.as_str()));
        }
        let canonical_headers: String = signed.iter().map(|(k, v)| format!("{k}:{}\n", v.trim())).collect();
        let signed_headers = signed.keys().cloned().collect::<Vec<_>>().join(";");
        let canonical_request = format!(
            "{}\n/\n{canonical_query}\n{canonical_headers}\n{signed_headers}\n{hashed_payload}",
            self.method
        );
        let string_to_sign = format!(
            "ACS3-HMAC-SHA256\n{}",
            hex::encode(sha2::Sha256::digest(canonical_request.as_bytes()))
        );
        let mut mac = Hmac::<sha2::Sha256>::new_from_slice(secret.as_bytes()).unwrap();
        mac.update(string_to_sign.as_bytes());
        let signature = hex::encode(mac.finalize().into_bytes());
        format!("ACS3-HMAC-SHA256 Credential={access_key_id},SignedHeaders={signed_headers},Signature={signature}")
    }

    async fn send(&self, emu: &Emulator, authorization: &str) -> Reply {
        let url = if self.query.is_empty() {
            format!("{}/", emu.base)
        } else {
            format!("{}/?{}", emu.base, encode(&self.query))
        };
        let method = reqwest::Method::from_bytes(self.method.as_bytes()).unwrap();
        let mut request = emu
            .http
            .request(method, url)
            .header("authorization", authorization)
            .body(self.body.clone());
        for (name, value) in self.headers.iter().filter(|(name, _)| name.as_str() != "host") {
            request = request.header(name, value);
        }
        if let Some(ct) = self.content_type {
            request = request.header("content-type", ct);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        Reply {
            status,
            body: response.text().await.unwrap(),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn v3_signed_requests_are_accepted_and_tampered_ones_refused() {
    let emu = Emulator::in_memory().await;
    let alice = emu.account("alice");

    let mut create = V3Request::new(
        &emu,
        "CreateVpc",
        &[
            ("RegionId", "cn-hangzhou"),
            ("VpcName", "v3 vpc"),
            ("CidrBlock", "192.168.0.0/16"),
        ],
    );
    let authorization = create.sign(&alice.access_key_id, &alice.access_key_secret);
    let reply = create.send(&emu, &authorization).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let vpc_id = reply.json()["VpcId"].as_str().unwrap().to_owned();

    // Parameters in a form body (how the Tea SDKs send `formData` operations) are signed through the payload hash.
    let mut vsw = V3Request::new(&emu, "CreateVSwitch", &[("RegionId", "cn-hangzhou")]).with_form_body(&[
        ("VpcId", &vpc_id),
        ("ZoneId", "cn-hangzhou-k"),
        ("CidrBlock", "192.168.3.0/24"),
    ]);
    let authorization = vsw.sign(&alice.access_key_id, &alice.access_key_secret);
    let reply = vsw.send(&emu, &authorization).await;
    assert_eq!(reply.status, 200, "{}", reply.body);

    let mut describe = V3Request::new(&emu, "DescribeVpcs", &[("RegionId", "cn-hangzhou"), ("VpcId", &vpc_id)]);
    describe.method = "GET";
    let authorization = describe.sign(&alice.access_key_id, &alice.access_key_secret);
    let reply = describe.send(&emu, &authorization).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.json()["Vpcs"]["Vpc"][0]["VpcName"], "v3 vpc");

    // Tampering with a signed query parameter after signing.
    let mut tampered = V3Request::new(&emu, "CreateVpc", &[("RegionId", "cn-hangzhou"), ("VpcName", "honest")]);
    let authorization = tampered.sign(&alice.access_key_id, &alice.access_key_secret);
    tampered.query.insert("VpcName".into(), "forged".into());
    assert_error_shape(&tampered.send(&emu, &authorization).await, 400, "SignatureDoesNotMatch");

    // Tampering with a signed header (the action) after signing.
    let mut tampered = V3Request::new(&emu, "DescribeVpcs", &[("RegionId", "cn-hangzhou")]);
    let authorization = tampered.sign(&alice.access_key_id, &alice.access_key_secret);
    tampered.headers.insert("x-acs-action".into(), "DeleteVpc".into());
    assert_error_shape(&tampered.send(&emu, &authorization).await, 400, "SignatureDoesNotMatch");

    // A signature that leaves out a common header: that header could be changed in flight, so it is refused.
    let mut partial = V3Request::new(&emu, "DescribeVpcs", &[("RegionId", "cn-hangzhou")]);
    let authorization = partial.sign_headers(
        &alice.access_key_id,
        &alice.access_key_secret,
        Some(&[
            "host",
            "x-acs-content-sha256",
            "x-acs-date",
            "x-acs-signature-nonce",
            "x-acs-version",
        ]),
    );
    partial.headers.insert("x-acs-action".into(), "DeleteVpc".into());
    let body = assert_error_shape(&partial.send(&emu, &authorization).await, 400, "SignatureDoesNotMatch");
    assert!(body["Message"].as_str().unwrap().contains("\"x-acs-action\""), "{body}");

    // The wrong secret.
    let mut wrong = V3Request::new(&emu, "DescribeVpcs", &[("RegionId", "cn-hangzhou")]);
    let authorization = wrong.sign(&alice.access_key_id, "guessed-secret");
    assert_error_shape(&wrong.send(&emu, &authorization).await, 400, "SignatureDoesNotMatch");

    let events = emu.events(&alice);
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
            ("CreateVpc", Some("SignatureDoesNotMatch")),
            ("DeleteVpc", Some("SignatureDoesNotMatch")),
            ("DeleteVpc", Some("SignatureDoesNotMatch")),
            ("DescribeVpcs", Some("SignatureDoesNotMatch")),
        ]
    );
    assert_eq!(
        events[1].event.request_parameters["CidrBlock"], "192.168.3.0/24",
        "form-body parameters reach the event"
    );
}

// ----- ActionTrail LookupEvents (API 2020-07-06) over signed HTTP -----

const ACTIONTRAIL_VERSION: &str = "2020-07-06";
/// 2026-11-30T10:00:00Z: a fixed start for hand-moved clocks.
const T0: i64 = 1_796_032_800_000;

async fn with_manual_clock(config: ConsoleConfig) -> (Emulator, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new(T0));
    let emu = Emulator::start(Console::new(config, Store::in_memory(), clock.clone())).await;
    (emu, clock)
}

impl Emulator {
    async fn lookup(&self, creds: &Credentials, extra: &[(&str, &str)]) -> Reply {
        let mut all = vec![("Version", ACTIONTRAIL_VERSION)];
        all.extend_from_slice(extra);
        self.call(creds, "LookupEvents", &all).await
    }

    /// A LookupEvents call that must succeed: (events, NextToken).
    async fn lookup_ok(&self, creds: &Credentials, extra: &[(&str, &str)]) -> (Vec<Value>, String) {
        let reply = self.lookup(creds, extra).await;
        assert_eq!(reply.status, 200, "LookupEvents failed: {}", reply.body);
        let body = reply.json();
        assert!(
            body["RequestId"].is_string() && body["StartTime"].is_string() && body["EndTime"].is_string(),
            "{body}"
        );
        let events = body["Events"]
            .as_array()
            .unwrap_or_else(|| panic!("no Events: {body}"))
            .clone();
        (events, body["NextToken"].as_str().unwrap_or("").to_owned())
    }
}

fn names(events: &[Value]) -> Vec<&str> {
    events.iter().map(|e| e["eventName"].as_str().unwrap_or("?")).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lookup_events_filters_by_time_window_and_event_name() {
    let (emu, clock) = with_manual_clock(ConsoleConfig::for_tests()).await;
    let alice = emu.account("alice");
    let bob = emu.account("bob");
    // One call a minute from T0: CreateVpc, DescribeVpcs, CreateVpc, a failed DeleteVpc, CreateVpc.
    let first = emu.create_vpc(&alice, "first").await;
    clock.advance(60_000);
    emu.ok(&alice, "DescribeVpcs", &[]).await;
    clock.advance(60_000);
    let second = emu.create_vpc(&alice, "second").await;
    clock.advance(60_000);
    assert_eq!(
        emu.call(&alice, "DeleteVpc", &[("VpcId", "vpc-missing")]).await.status,
        404
    );
    clock.advance(60_000);
    let third = emu.create_vpc(&alice, "third").await;
    emu.create_vpc(&bob, "bobs").await;
    clock.advance(60_000);

    let (all, token) = emu.lookup_ok(&alice, &[]).await;
    assert_eq!(
        names(&all),
        ["CreateVpc", "DeleteVpc", "CreateVpc", "DescribeVpcs", "CreateVpc"],
        "newest first"
    );
    assert!(token.is_empty());

    let window = [("StartTime", iso8601(T0 + 60_000)), ("EndTime", iso8601(T0 + 180_000))];
    let window: Vec<(&str, &str)> = window.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (inside, _) = emu.lookup_ok(&alice, &window).await;
    assert_eq!(
        names(&inside),
        ["DeleteVpc", "CreateVpc", "DescribeVpcs"],
        "StartTime and EndTime are inclusive"
    );
    assert_eq!(inside[1]["responseElements"]["VpcId"], second.as_str());

    let by_name = [
        ("LookupAttribute.1.Key", "EventName"),
        ("LookupAttribute.1.Value", "CreateVpc"),
    ];
    let (created, _) = emu.lookup_ok(&alice, &by_name).await;
    let ids: Vec<&str> = created
        .iter()
        .map(|e| e["responseElements"]["VpcId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [third.as_str(), second.as_str(), first.as_str()]);

    let mut both = window.clone();
    both.extend(by_name);
    let (narrow, _) = emu.lookup_ok(&alice, &both).await;
    assert_eq!(narrow.len(), 1, "the window and the filter together");

    // The real event shape, as ActionTrail returns it.
    let failed = &all[1];
    assert_eq!(failed["errorCode"], "InvalidVpcId.NotFound");
    assert_eq!(failed["eventTime"], iso8601(T0 + 180_000));
    let e = &all[0];
    for (field, expected) in [
        ("eventType", "ApiCall"),
        ("eventRW", "Write"),
        ("eventSource", "vpc.aliyuncs.com"),
        ("serviceName", "Vpc"),
        ("acsRegion", "cn-hangzhou"),
        ("sourceIpAddress", "127.0.0.1"),
    ] {
        assert_eq!(e[field], expected, "{field}: {e}");
    }
    assert_eq!(e["userIdentity"]["accountId"], alice.account_id.as_str());
    assert_eq!(e["userIdentity"]["accessKeyId"], alice.access_key_id.as_str());
    assert_eq!(e["userIdentity"]["userName"], "root");
    assert_eq!(
        e["userIdentity"]["principalId"],
        alice.account_id.as_str(),
        "the root identity's principal is the account"
    );
    assert_eq!(e["requestParameters"]["VpcName"], "third");
    assert!(e["eventId"].as_str().is_some_and(|id| !id.is_empty()));
    assert!(
        all.iter()
            .all(|e| e["userIdentity"]["accountId"] == alice.account_id.as_str()),
        "bob's event stays his"
    );

    let bad_key = emu
        .lookup(
            &alice,
            &[("LookupAttribute.1.Key", "Colour"), ("LookupAttribute.1.Value", "red")],
        )
        .await;
    assert_error_shape(&bad_key, 400, "InvalidParameter");
    let backwards = emu
        .lookup(
            &alice,
            &[("StartTime", &iso8601(T0 + 60_000)), ("EndTime", &iso8601(T0))],
        )
        .await;
    assert_error_shape(&backwards, 400, "InvalidParameter");
    assert!(
        emu.events(&alice).iter().all(|e| e.event.event_name != "LookupEvents"),
        "looking up events does not add events"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lookup_events_pages_120_events_with_next_token() {
    let (emu, clock) = with_manual_clock(ConsoleConfig::for_tests()).await;
    let alice = emu.account("alice");
    let mut made = Vec::new();
    for i in 0..120 {
        made.push(emu.create_vpc(&alice, &format!("vpc{i}")).await);
        clock.advance(1_000);
    }
    made.reverse(); // newest first, as LookupEvents returns them

    let too_many = emu.lookup(&alice, &[("MaxResults", "51")]).await;
    let body = assert_error_shape(&too_many, 400, "InvalidParameter");
    assert!(body["Message"].as_str().unwrap().contains("MaxResults"), "{body}");

    let mut pages = Vec::new();
    let mut token = String::new();
    loop {
        let mut extra = vec![("MaxResults", "50")];
        if !token.is_empty() {
            extra.push(("NextToken", token.as_str()));
        }
        let (events, next) = emu.lookup_ok(&alice, &extra).await;
        pages.push(events);
        if next.is_empty() {
            break;
        }
        assert!(pages.len() < 5, "paging does not end");
        token = next;
    }
    assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), [50, 50, 20]);
    let seen: Vec<&str> = pages
        .iter()
        .flatten()
        .map(|e| e["responseElements"]["VpcId"].as_str().unwrap())
        .collect();
    assert_eq!(
        seen,
        made.iter().map(String::as_str).collect::<Vec<_>>(),
        "every event once, newest first"
    );
    let mut ids: Vec<&str> = pages.iter().flatten().map(|e| e["eventId"].as_str().unwrap()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 120);

    let (default_page, _) = emu.lookup_ok(&alice, &[]).await;
    assert_eq!(default_page.len(), 20, "MaxResults defaults to 20");
    let bad_token = emu.lookup(&alice, &[("NextToken", "not-a-token")]).await;
    assert_error_shape(&bad_token, 400, "InvalidNextToken");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lookup_events_shows_an_event_only_after_the_delivery_delay() {
    let delay = 5 * 60 * 1000;
    let (emu, clock) = with_manual_clock(ConsoleConfig {
        delivery_delay_ms: delay,
        ..ConsoleConfig::for_tests()
    })
    .await;
    let alice = emu.account("alice");
    let vpc_id = emu.create_vpc(&alice, "delayed").await;

    let (events, _) = emu.lookup_ok(&alice, &[]).await;
    assert!(events.is_empty(), "not delivered yet: {events:?}");
    clock.advance(delay - 1_000);
    let (events, _) = emu.lookup_ok(&alice, &[]).await;
    assert!(events.is_empty(), "one second before delivery: {events:?}");
    clock.advance(1_000);
    let (events, _) = emu.lookup_ok(&alice, &[]).await;
    assert_eq!(names(&events), ["CreateVpc"]);
    assert_eq!(events[0]["responseElements"]["VpcId"], vpc_id.as_str());
    assert_eq!(
        events[0]["eventTime"],
        iso8601(T0),
        "the event keeps the time of the call, not of delivery"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lookup_events_faster_than_the_qps_limit_is_throttled() {
    let (emu, clock) = with_manual_clock(ConsoleConfig {
        lookup_qps: 2.0,
        ..ConsoleConfig::for_tests()
    })
    .await;
    let alice = emu.account("alice");
    let bob = emu.account("bob");

    assert_eq!(emu.lookup(&alice, &[]).await.status, 200);
    assert_eq!(emu.lookup(&alice, &[]).await.status, 200);
    let refused = emu.lookup(&alice, &[]).await;
    let body = assert_product_error(
        &refused,
        400,
        "Throttling.User",
        "actiontrail.aliyuncs.com",
        "Actiontrail",
    );
    assert_eq!(body["Message"], "Request was denied due to user flow control.");
    assert_eq!(emu.lookup(&bob, &[]).await.status, 200, "the limit is per account");
    assert_eq!(
        emu.ok(&alice, "DescribeVpcs", &[]).await["TotalCount"],
        0,
        "other operations are not limited"
    );

    clock.advance(500);
    assert_eq!(
        emu.lookup(&alice, &[]).await.status,
        200,
        "half a second refills one call"
    );
    assert_error_shape(&emu.lookup(&alice, &[]).await, 400, "Throttling.User");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lookup_events_in_a_burst_on_the_wall_clock_is_throttled() {
    let emu = Emulator::start(Console::in_memory(ConsoleConfig {
        lookup_qps: 2.0,
        ..ConsoleConfig::for_tests()
    }))
    .await;
    let alice = emu.account("alice");
    let started = std::time::Instant::now();
    let mut statuses = Vec::new();
    for _ in 0..10 {
        let reply = emu.lookup(&alice, &[]).await;
        if reply.status != 200 {
            assert_error_shape(&reply, 400, "Throttling.User");
        }
        statuses.push(reply.status);
    }
    let allowed = 2.0 + 2.0 * started.elapsed().as_secs_f64();
    let admitted = statuses.iter().filter(|s| **s == 200).count();
    assert!(
        admitted >= 2 && (admitted as f64) <= allowed + 1.0,
        "{admitted} admitted in a burst: {statuses:?}"
    );
    assert!(statuses.contains(&400), "{statuses:?}");
}
