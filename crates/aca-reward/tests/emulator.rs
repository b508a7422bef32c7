//! The poller against the bundled emulator served on a real port: signed calls create resources,
//! ActionTrail `LookupEvents` finds their events through delivery delays, paging and throttling,
//! and credentials or endpoints that do not work give typed errors.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use aca_console::clock::{Clock, SystemClock};
use aca_console::{Console, ConsoleConfig, Credentials, Serving};
use aca_core::{EventMatcher, ParameterCondition, ParameterTest, SuccessRule};
use aca_openapi::{AccessKeyPair, RpcClient};
use aca_reward::{Bindings, LookupConfig, LookupError, LookupScope, Poller, RuleError};
use serde_json::json;

const VPC_VERSION: &str = "2016-04-28";

struct Emulator {
    console: Arc<Console>,
    url: String,
    account: Credentials,
    _serving: Serving,
    started_ms: i64,
}

impl Emulator {
    async fn start(config: ConsoleConfig) -> Self {
        let console = Arc::new(Console::in_memory(config));
        let account = console.create_account("reward", None).unwrap();
        let serving = Serving::local(console.clone()).await.unwrap();
        Self {
            console,
            url: serving.url.clone(),
            account,
            _serving: serving,
            // A second back, as LookupEvents reads whole seconds.
            started_ms: SystemClock.now_ms() - 1000,
        }
    }

    fn keys(&self) -> AccessKeyPair {
        AccessKeyPair::new(&self.account.access_key_id, &self.account.access_key_secret)
    }

    fn client(&self) -> RpcClient {
        RpcClient::new(&self.url, self.keys()).unwrap()
    }

    fn poller(&self, config: LookupConfig) -> Poller {
        Poller::new(self.client(), config).unwrap()
    }

    fn scope(&self) -> LookupScope {
        LookupScope::since(self.started_ms).for_account(&self.account.account_id)
    }

    async fn create_vpc(&self, name: &str) -> String {
        let params = BTreeMap::from([
            ("RegionId".to_owned(), "cn-hangzhou".to_owned()),
            ("VpcName".to_owned(), name.to_owned()),
            ("CidrBlock".to_owned(), "10.0.0.0/8".to_owned()),
        ]);
        let body = self.client().call(VPC_VERSION, "CreateVpc", &params).await.unwrap();
        body["VpcId"].as_str().unwrap().to_owned()
    }

    /// The ids of the account's events named `name`, as the emulator stored them.
    fn event_ids(&self, name: &str) -> Vec<String> {
        let account = self.console.store.account(&self.account.account_id).unwrap();
        let state = account.lock();
        state
            .events
            .iter()
            .filter(|e| e.event.event_name == name)
            .map(|e| e.event.event_id.clone())
            .collect()
    }
}

fn create_vpc_named(value: &str) -> SuccessRule {
    SuccessRule {
        events: vec![EventMatcher {
            event_name: "CreateVpc".into(),
            or_event_names: vec![],
            service_name: Some("Vpc".into()),
            event_type: None,
            succeeded: true,
            resource_type: Some("ACS::VPC::VPC".into()),
            parameters: vec![ParameterCondition {
                name: "VpcName".into(),
                test: ParameterTest::Equals(json!(value)),
            }],
        }],
        inferred: false,
    }
}

fn bindings(pairs: &[(&str, &str)]) -> Bindings {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
}

fn quick(deadline_ms: u64) -> LookupConfig {
    LookupConfig {
        deadline: Duration::from_millis(deadline_ms),
        ..LookupConfig::emulator()
    }
}

#[tokio::test]
async fn finds_the_event_of_a_vpc_created_by_a_signed_call() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await;
    emulator.create_vpc("reward-other").await;
    let vpc_id = emulator.create_vpc("reward-web").await;
    let outcome = emulator
        .poller(quick(5_000))
        .wait_for_rule(
            &create_vpc_named("reward-${app}"),
            &bindings(&[("app", "web")]),
            &emulator.scope(),
        )
        .await
        .unwrap();
    assert!(outcome.matched, "{outcome:?}");
    let events = emulator.event_ids("CreateVpc");
    assert_eq!(events.len(), 2);
    assert_eq!(
        outcome.matches[0].event_id, events[1],
        "the event of {vpc_id}, not the other VPC's"
    );
    assert_eq!((outcome.events_seen, outcome.calls_made), (2, 1));
}

#[tokio::test]
async fn a_rule_with_wrong_parameters_reports_the_near_miss() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await;
    emulator.create_vpc("a").await;
    let outcome = emulator
        .poller(quick(600))
        .wait_for_rule(&create_vpc_named("b"), &Bindings::new(), &emulator.scope())
        .await
        .unwrap();
    assert!(!outcome.matched);
    assert!(
        outcome.waited_ms >= 600,
        "the deadline is waited out: {}",
        outcome.waited_ms
    );
    assert!(outcome.calls_made > 1, "it polled again before giving up");
    let miss = &outcome.near_misses[0];
    assert_eq!(miss.summary, r#"CreateVpc found but VpcName was "a" not "b""#);
    assert_eq!(miss.candidates[0].event_id, emulator.event_ids("CreateVpc")[0]);
}

#[tokio::test]
async fn follows_next_token_past_fifty_events() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await;
    for i in 0..60 {
        emulator.create_vpc(&format!("vpc-{i:02}")).await;
    }
    // LookupEvents is newest first: the oldest VPC is on the second page.
    let outcome = emulator
        .poller(quick(5_000))
        .wait_for_rule(&create_vpc_named("vpc-00"), &Bindings::new(), &emulator.scope())
        .await
        .unwrap();
    assert!(outcome.matched, "{:?}", outcome.near_misses);
    assert_eq!((outcome.events_seen, outcome.calls_made), (60, 2));
}

#[tokio::test]
async fn waits_out_the_delivery_delay() {
    let config = ConsoleConfig {
        delivery_delay_ms: 1_500,
        ..ConsoleConfig::for_tests()
    };
    let emulator = Emulator::start(config).await;
    emulator.create_vpc("late").await;
    let outcome = emulator
        .poller(quick(10_000))
        .wait_for_rule(&create_vpc_named("late"), &Bindings::new(), &emulator.scope())
        .await
        .unwrap();
    assert!(outcome.matched);
    assert!(
        outcome.waited_ms >= 1_000,
        "found only once delivered: {}",
        outcome.waited_ms
    );
    assert!(outcome.calls_made > 1);
}

#[tokio::test]
async fn the_client_side_limit_keeps_under_the_services_qps() {
    let config = ConsoleConfig {
        lookup_qps: 2.0,
        ..ConsoleConfig::for_tests()
    };
    let emulator = Emulator::start(config).await;
    for i in 0..120 {
        emulator.create_vpc(&format!("vpc-{i:03}")).await;
    }
    let started = Instant::now();
    let outcome = emulator
        .poller(LookupConfig {
            max_calls_per_second: 1.5,
            ..quick(10_000)
        })
        .wait_for_rule(&create_vpc_named("vpc-000"), &Bindings::new(), &emulator.scope())
        .await
        .unwrap();
    assert!(outcome.matched);
    assert_eq!((outcome.calls_made, outcome.throttled), (3, 0));
    assert!(
        started.elapsed() >= Duration::from_millis(1_300),
        "three calls at 1.5/s"
    );
}

#[tokio::test]
async fn throttling_by_the_service_is_backed_off_not_failed() {
    let config = ConsoleConfig {
        lookup_qps: 1.0,
        ..ConsoleConfig::for_tests()
    };
    let emulator = Emulator::start(config).await;
    for i in 0..120 {
        emulator.create_vpc(&format!("vpc-{i:03}")).await;
    }
    let outcome = emulator
        .poller(LookupConfig {
            max_calls_per_second: 50.0,
            ..quick(15_000)
        })
        .wait_for_rule(&create_vpc_named("vpc-000"), &Bindings::new(), &emulator.scope())
        .await
        .unwrap();
    assert!(outcome.matched);
    assert!(outcome.throttled >= 1, "the service refused some calls: {outcome:?}");
    assert_eq!(outcome.calls_made, 3 + outcome.throttled);
}

#[tokio::test]
async fn a_bad_access_key_is_an_auth_error() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await;
    let unknown = RpcClient::new(&emulator.url, AccessKeyPair::new("LTAIunknown0000", "secret")).unwrap();
    let error = Poller::new(unknown, quick(5_000))
        .unwrap()
        .wait_for_rule(&create_vpc_named("x"), &Bindings::new(), &emulator.scope())
        .await
        .unwrap_err();
    match &error {
        LookupError::Auth { access_key_id, failure } => {
            assert_eq!(access_key_id, "LTAIunknown0000");
            assert_eq!(failure.code, "InvalidAccessKeyId.NotFound");
        }
        other => panic!("expected an auth error, got {other}"),
    }
    let wrong_secret = RpcClient::new(
        &emulator.url,
        AccessKeyPair::new(&emulator.account.access_key_id, "not-the-secret"),
    )
    .unwrap();
    let error = Poller::new(wrong_secret, quick(5_000))
        .unwrap()
        .lookup_events(None, &emulator.scope())
        .await
        .unwrap_err();
    assert!(
        matches!(&error, LookupError::Auth { failure, .. } if failure.code == "SignatureDoesNotMatch"),
        "{error}"
    );
}

#[tokio::test]
async fn a_dead_endpoint_fails_at_once() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let client = RpcClient::new(&dead, AccessKeyPair::new("LTAIexample", "secret")).unwrap();
    let started = Instant::now();
    let error = Poller::new(client, LookupConfig::real_cloud())
        .unwrap()
        .wait_for_rule(&create_vpc_named("x"), &Bindings::new(), &LookupScope::since(0))
        .await
        .unwrap_err();
    assert!(matches!(error, LookupError::Unreachable { .. }), "{error}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "no waiting on a dead endpoint"
    );
}

#[tokio::test]
async fn an_unbound_name_fails_before_any_call() {
    let client = RpcClient::new("http://127.0.0.1:9", AccessKeyPair::new("LTAIexample", "secret")).unwrap();
    let error = Poller::new(client, LookupConfig::real_cloud())
        .unwrap()
        .wait_for_rule(
            &create_vpc_named("vpc-${suffix}"),
            &Bindings::new(),
            &LookupScope::since(0),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(&error, LookupError::Rule(RuleError::Unbound { name, .. }) if name == "suffix"),
        "{error}"
    );
}

#[tokio::test]
async fn the_provisioners_calls_never_meet_the_rule_and_are_named_when_only_they_would() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await;
    // The provisioner: a RAM user of the account with its own AccessKey.
    const RAM_VERSION: &str = "2015-05-01";
    let root = emulator.client();
    let user = |extra: &[(&str, &str)]| {
        let mut p = BTreeMap::from([("UserName".to_owned(), "aca-provisioner-t1".to_owned())]);
        p.extend(extra.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())));
        p
    };
    root.call(RAM_VERSION, "CreateUser", &user(&[])).await.unwrap();
    root.call(
        RAM_VERSION,
        "AttachPolicyToUser",
        &user(&[("PolicyType", "System"), ("PolicyName", "AdministratorAccess")]),
    )
    .await
    .unwrap();
    let key = root.call(RAM_VERSION, "CreateAccessKey", &user(&[])).await.unwrap();
    let provisioner = RpcClient::new(
        &emulator.url,
        AccessKeyPair::new(
            key["AccessKey"]["AccessKeyId"].as_str().unwrap(),
            key["AccessKey"]["AccessKeySecret"].as_str().unwrap(),
        ),
    )
    .unwrap();
    let params = BTreeMap::from([
        ("RegionId".to_owned(), "cn-hangzhou".to_owned()),
        ("VpcName".to_owned(), "made-for-the-run".to_owned()),
        ("CidrBlock".to_owned(), "10.0.0.0/8".to_owned()),
    ]);
    provisioner.call(VPC_VERSION, "CreateVpc", &params).await.unwrap();

    let poller = emulator.poller(quick(600));
    let rule = create_vpc_named("made-for-the-run");
    let anyone = poller
        .wait_for_rule(&rule, &Bindings::new(), &emulator.scope())
        .await
        .unwrap();
    assert!(anyone.matched, "without exclusion the provisioner's event counts");
    let scope = emulator
        .scope()
        .excluding(aca_reward::ProvisionerCalls::of_user("aca-provisioner-t1"));
    let procedure = poller.wait_for_rule(&rule, &Bindings::new(), &scope).await.unwrap();
    assert!(!procedure.matched);
    assert!(procedure.only_provisioner_matched);
    // The procedure's own call meets it.
    emulator.create_vpc("made-for-the-run").await;
    let procedure = poller.wait_for_rule(&rule, &Bindings::new(), &scope).await.unwrap();
    assert!(procedure.matched && !procedure.only_provisioner_matched);
    // Setting the provisioner up is its own work too: a rule on CreateUser is not met by it.
    let create_user = SuccessRule {
        events: vec![EventMatcher {
            event_name: "CreateUser".into(),
            or_event_names: vec![],
            service_name: None,
            event_type: None,
            succeeded: true,
            resource_type: None,
            parameters: Vec::new(),
        }],
        inferred: false,
    };
    let outcome = poller
        .wait_for_rule(&create_user, &Bindings::new(), &scope)
        .await
        .unwrap();
    assert!(!outcome.matched && outcome.only_provisioner_matched);
}
