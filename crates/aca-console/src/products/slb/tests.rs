//! Tests of CLB driven through the console.

use super::*;
use crate::products::testkit::TestConsole;

fn create_intranet(h: &TestConsole) -> String {
    let (vpc_id, vsw_id) = h.network();
    let body = h.ok(
        &PRODUCT,
        "CreateLoadBalancer",
        &[
            ("LoadBalancerName", "web-lb"),
            ("AddressType", "intranet"),
            ("VpcId", &vpc_id),
            ("VSwitchId", &vsw_id),
            ("LoadBalancerSpec", "slb.s1.small"),
            ("PayType", "PayOnDemand"),
        ],
    );
    body["LoadBalancerId"].as_str().expect("LoadBalancerId").to_owned()
}

/// An ECS instance as the ECS product stores it (kind `ecs.instance`).
fn ecs_instance(h: &TestConsole, id: &str, status: &str) {
    let ecs = Resource::new(ECS_INSTANCE, id.to_owned(), "cn-hangzhou", "web-1", status, 0)
        .with("PrivateIpAddress", "192.168.1.20");
    h.insert(ecs);
}

fn tcp_listener(h: &TestConsole, lb: &str, port: &str) -> Result<Value, ApiError> {
    h.call(
        &PRODUCT,
        "CreateLoadBalancerTCPListener",
        &[
            ("LoadBalancerId", lb),
            ("ListenerPort", port),
            ("BackendServerPort", "8080"),
            ("Bandwidth", "-1"),
        ],
    )
}

#[test]
fn creates_and_describes_load_balancers() {
    let h = TestConsole::new();
    let body = h.ok(
        &PRODUCT,
        "CreateLoadBalancer",
        &[("LoadBalancerName", "public-lb"), ("AddressType", "internet")],
    );
    let public_id = body["LoadBalancerId"].as_str().unwrap().to_owned();
    assert!(public_id.starts_with("lb-bp1"), "{public_id}");
    assert!(body["Address"].as_str().unwrap().starts_with("47."));
    assert_eq!(body["NetworkType"], "classic");
    let event = h.newest_event();
    assert_eq!(
        (event.service_name.as_str(), event.event_source.as_str()),
        ("Slb", "slb.aliyuncs.com")
    );
    assert_eq!(
        event.referenced_resources["ACS::SLB::LoadBalancer"],
        [public_id.as_str()]
    );

    let private_id = create_intranet(&h);
    let attr = h.ok(
        &PRODUCT,
        "DescribeLoadBalancerAttribute",
        &[("LoadBalancerId", &private_id)],
    );
    assert_eq!(attr["NetworkType"], "vpc");
    assert_eq!(attr["LoadBalancerStatus"], "active");
    assert_eq!(attr["MasterZoneId"], "cn-hangzhou-h");
    assert_eq!(attr["LoadBalancerSpec"], "slb.s1.small");
    assert!(
        attr["Address"].as_str().unwrap().starts_with("192.168.1."),
        "{}",
        attr["Address"]
    );

    let all = h.ok(&PRODUCT, "DescribeLoadBalancers", &[]);
    assert_eq!(all["TotalCount"], 2);
    let intranet = h.ok(&PRODUCT, "DescribeLoadBalancers", &[("AddressType", "intranet")]);
    assert_eq!(
        intranet["LoadBalancers"]["LoadBalancer"][0]["LoadBalancerId"],
        private_id
    );

    h.ok(
        &PRODUCT,
        "SetLoadBalancerName",
        &[("LoadBalancerId", &private_id), ("LoadBalancerName", "renamed")],
    );
    h.ok(
        &PRODUCT,
        "SetLoadBalancerStatus",
        &[("LoadBalancerId", &private_id), ("LoadBalancerStatus", "inactive")],
    );
    let attr = h.ok(
        &PRODUCT,
        "DescribeLoadBalancerAttribute",
        &[("LoadBalancerId", &private_id)],
    );
    assert_eq!(
        (attr["LoadBalancerName"].as_str(), attr["LoadBalancerStatus"].as_str()),
        (Some("renamed"), Some("inactive"))
    );
    let e = h.err(
        &PRODUCT,
        "SetLoadBalancerStatus",
        &[("LoadBalancerId", &private_id), ("LoadBalancerStatus", "paused")],
    );
    assert!(e.message.contains("\"LoadBalancerStatus\""), "{e}");
}

#[test]
fn delete_protection_blocks_deletion() {
    let h = TestConsole::new();
    let body = h.ok(&PRODUCT, "CreateLoadBalancer", &[("DeleteProtection", "on")]);
    let id = body["LoadBalancerId"].as_str().unwrap().to_owned();
    let e = h.err(&PRODUCT, "DeleteLoadBalancer", &[("LoadBalancerId", &id)]);
    assert_eq!(e.code, "OperationDenied.DeleteProtectionIsOn");
    h.ok(
        &PRODUCT,
        "SetLoadBalancerDeleteProtection",
        &[("LoadBalancerId", &id), ("DeleteProtection", "off")],
    );
    tcp_listener(&h, &id, "80").unwrap();
    h.ok(&PRODUCT, "DeleteLoadBalancer", &[("LoadBalancerId", &id)]);
    let e = h.err(&PRODUCT, "DescribeLoadBalancerAttribute", &[("LoadBalancerId", &id)]);
    assert_eq!(e.code, "InvalidLoadBalancerId.NotFound");
    let listeners = h.ok(&PRODUCT, "DescribeLoadBalancerListeners", &[]);
    assert_eq!(listeners["TotalCount"], 0);
}

#[test]
fn listeners_share_ports_by_protocol_family() {
    let h = TestConsole::with_transition_delay(1_000);
    let lb = create_intranet(&h);
    tcp_listener(&h, &lb, "80").unwrap();
    let e = tcp_listener(&h, &lb, "80").unwrap_err();
    assert_eq!(e.code, "ListenerAlreadyExists");
    let e = h.err(
        &PRODUCT,
        "CreateLoadBalancerHTTPListener",
        &[
            ("LoadBalancerId", &lb),
            ("ListenerPort", "80"),
            ("BackendServerPort", "8080"),
            ("Bandwidth", "-1"),
            ("StickySession", "off"),
            ("HealthCheck", "on"),
        ],
    );
    assert_eq!(e.code, "ListenerAlreadyExists");
    h.ok(
        &PRODUCT,
        "CreateLoadBalancerUDPListener",
        &[
            ("LoadBalancerId", &lb),
            ("ListenerPort", "80"),
            ("BackendServerPort", "53"),
            ("Bandwidth", "10"),
        ],
    );
    h.ok(
        &PRODUCT,
        "CreateLoadBalancerHTTPListener",
        &[
            ("LoadBalancerId", &lb),
            ("ListenerPort", "8000"),
            ("BackendServerPort", "8080"),
            ("Bandwidth", "-1"),
            ("StickySession", "on"),
            ("StickySessionType", "insert"),
            ("CookieTimeout", "3600"),
            ("HealthCheck", "on"),
            ("HealthCheckURI", "/health"),
        ],
    );
    let listeners = h.ok(&PRODUCT, "DescribeLoadBalancerListeners", &[("LoadBalancerId.1", &lb)]);
    assert_eq!(listeners["TotalCount"], 3);
    let http = listeners["Listeners"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["ListenerProtocol"] == "http")
        .unwrap();
    assert_eq!(http["HTTPListenerConfig"]["HealthCheckURI"], "/health");
    assert_eq!(http["HTTPListenerConfig"]["CookieTimeout"], 3600);
    assert_eq!(http["Status"], "stopped");

    let e = h.err(
        &PRODUCT,
        "StartLoadBalancerListener",
        &[("LoadBalancerId", &lb), ("ListenerPort", "80")],
    );
    assert!(e.message.contains("\"ListenerProtocol\""), "{e}");
    h.ok(
        &PRODUCT,
        "StartLoadBalancerListener",
        &[
            ("LoadBalancerId", &lb),
            ("ListenerPort", "80"),
            ("ListenerProtocol", "tcp"),
        ],
    );
    let status = |h: &TestConsole| {
        let body = h.ok(
            &PRODUCT,
            "DescribeLoadBalancerListeners",
            &[
                ("LoadBalancerId.1", &lb),
                ("ListenerProtocol", "tcp"),
                ("ListenerPort", "80"),
            ],
        );
        body["Listeners"][0]["Status"].as_str().unwrap().to_owned()
    };
    assert_eq!(status(&h), "starting");
    h.clock.advance(1_000);
    assert_eq!(status(&h), "running");
    h.ok(
        &PRODUCT,
        "StopLoadBalancerListener",
        &[
            ("LoadBalancerId", &lb),
            ("ListenerPort", "80"),
            ("ListenerProtocol", "tcp"),
        ],
    );
    assert_eq!(status(&h), "stopping");
    h.clock.advance(1_000);
    assert_eq!(status(&h), "stopped");

    h.ok(
        &PRODUCT,
        "DeleteLoadBalancerListener",
        &[("LoadBalancerId", &lb), ("ListenerPort", "8000")],
    );
    let e = h.err(
        &PRODUCT,
        "DeleteLoadBalancerListener",
        &[("LoadBalancerId", &lb), ("ListenerPort", "8000")],
    );
    assert_eq!(e.code, "InvalidListenerPort.NotFound");
    let attr = h.ok(&PRODUCT, "DescribeLoadBalancerAttribute", &[("LoadBalancerId", &lb)]);
    let mut ports: Vec<i64> = attr["ListenerPorts"]["ListenerPort"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_i64)
        .collect();
    ports.sort();
    assert_eq!(ports, [80, 80]);
}

#[test]
fn listener_parameters_are_checked() {
    let h = TestConsole::new();
    let lb = create_intranet(&h);
    let base = [
        ("LoadBalancerId", lb.as_str()),
        ("ListenerPort", "443"),
        ("BackendServerPort", "8443"),
        ("Bandwidth", "-1"),
    ];
    for missing in ["ListenerPort", "BackendServerPort", "Bandwidth"] {
        let without: Vec<(&str, &str)> = base.iter().copied().filter(|(k, _)| *k != missing).collect();
        let e = h.err(&PRODUCT, "CreateLoadBalancerTCPListener", &without);
        assert_eq!(e.code, "MissingParameter");
        assert!(e.message.contains(&format!("\"{missing}\"")), "{e}");
    }
    let e = h.err(
        &PRODUCT,
        "CreateLoadBalancerTCPListener",
        &[&base[..], &[("ListenerPort", "70000")][..]].concat(),
    );
    assert!(e.message.contains("\"ListenerPort\""), "{e}");
    let e = h.err(
        &PRODUCT,
        "CreateLoadBalancerTCPListener",
        &[&base[..], &[("Scheduler", "random")][..]].concat(),
    );
    assert!(e.message.contains("\"Scheduler\""), "{e}");
    let e = h.err(
        &PRODUCT,
        "CreateLoadBalancerHTTPListener",
        &[&base[..], &[("HealthCheck", "on")][..]].concat(),
    );
    assert!(e.message.contains("\"StickySession\""), "{e}");
    let e = h.err(
        &PRODUCT,
        "CreateLoadBalancerHTTPListener",
        &[
            &base[..],
            &[
                ("HealthCheck", "on"),
                ("StickySession", "on"),
                ("StickySessionType", "insert"),
            ][..],
        ]
        .concat(),
    );
    assert!(e.message.contains("\"CookieTimeout\""), "{e}");
    let e = h.err(
        &PRODUCT,
        "CreateLoadBalancerTCPListener",
        &[("LoadBalancerId", "lb-bp1missing"), ("ListenerPort", "1")],
    );
    assert_eq!(e.code, "InvalidLoadBalancerId.NotFound");
}

#[test]
fn backend_servers_must_be_running_ecs_instances() {
    let h = TestConsole::new();
    let lb = create_intranet(&h);
    ecs_instance(&h, "i-bp1web000000000001", "Running");
    ecs_instance(&h, "i-bp1web000000000002", "Stopped");
    let e = h.err(
        &PRODUCT,
        "AddBackendServers",
        &[
            ("LoadBalancerId", &lb),
            (
                "BackendServers",
                r#"[{"ServerId":"i-bp1nothere","Weight":"100","Type":"ecs"}]"#,
            ),
        ],
    );
    assert_eq!(e.code, "InvalidBackendServers.NotFound");
    let e = h.err(
        &PRODUCT,
        "AddBackendServers",
        &[
            ("LoadBalancerId", &lb),
            ("BackendServers", r#"[{"ServerId":"i-bp1web000000000002"}]"#),
        ],
    );
    assert_eq!(e.code, "IncorrectInstanceStatus");
    let e = h.err(
        &PRODUCT,
        "AddBackendServers",
        &[("LoadBalancerId", &lb), ("BackendServers", "i-bp1web000000000001")],
    );
    assert!(e.message.contains("\"BackendServers\""), "{e}");
    let e = h.err(
        &PRODUCT,
        "AddBackendServers",
        &[
            ("LoadBalancerId", &lb),
            (
                "BackendServers",
                r#"[{"ServerId":"i-bp1web000000000001","Weight":"101"}]"#,
            ),
        ],
    );
    assert!(e.message.contains("Weight"), "{e}");

    let added = h.ok(
        &PRODUCT,
        "AddBackendServers",
        &[
            ("LoadBalancerId", &lb),
            (
                "BackendServers",
                r#"[{"ServerId":"i-bp1web000000000001","Weight":"50","Type":"ecs"}]"#,
            ),
        ],
    );
    assert_eq!(added["BackendServers"]["BackendServer"][0]["Weight"], "50");
    assert_eq!(
        h.newest_event().referenced_resources["ACS::ECS::Instance"],
        ["i-bp1web000000000001"]
    );
    let e = h.err(
        &PRODUCT,
        "AddBackendServers",
        &[
            ("LoadBalancerId", &lb),
            ("BackendServers", r#"[{"ServerId":"i-bp1web000000000001"}]"#),
        ],
    );
    assert!(e.message.contains("already"), "{e}");
    let by_server = h.ok(
        &PRODUCT,
        "DescribeLoadBalancers",
        &[("ServerId", "i-bp1web000000000001")],
    );
    assert_eq!(by_server["TotalCount"], 1);

    tcp_listener(&h, &lb, "80").unwrap();
    let health = |h: &TestConsole| {
        let body = h.ok(&PRODUCT, "DescribeHealthStatus", &[("LoadBalancerId", &lb)]);
        body["BackendServers"]["BackendServer"][0]["ServerHealthStatus"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(health(&h), "unavailable");
    h.ok(
        &PRODUCT,
        "StartLoadBalancerListener",
        &[("LoadBalancerId", &lb), ("ListenerPort", "80")],
    );
    assert_eq!(health(&h), "normal");
    let body = h.ok(
        &PRODUCT,
        "DescribeHealthStatus",
        &[("LoadBalancerId", &lb), ("ListenerPort", "80")],
    );
    let server = &body["BackendServers"]["BackendServer"][0];
    assert_eq!(
        (server["Port"].as_i64(), server["ServerIp"].as_str()),
        (Some(8080), Some("192.168.1.20"))
    );
    ecs_instance(&h, "i-bp1web000000000001", "Stopped");
    assert_eq!(health(&h), "abnormal");

    let removed = h.ok(
        &PRODUCT,
        "RemoveBackendServers",
        &[
            ("LoadBalancerId", &lb),
            ("BackendServers", r#"[{"ServerId":"i-bp1web000000000001"}]"#),
        ],
    );
    assert_eq!(removed["BackendServers"]["BackendServer"], json!([]));
    let e = h.err(
        &PRODUCT,
        "RemoveBackendServers",
        &[
            ("LoadBalancerId", &lb),
            ("BackendServers", r#"["i-bp1web000000000001"]"#),
        ],
    );
    assert!(e.message.contains("\"BackendServers\""), "{e}");
}

#[test]
fn vserver_groups_hold_servers_on_ports() {
    let h = TestConsole::new();
    let lb = create_intranet(&h);
    ecs_instance(&h, "i-web1", "Running");
    ecs_instance(&h, "i-web2", "Stopped");
    // A group's servers name their ports.
    let err = h
        .call(
            &PRODUCT,
            "CreateVServerGroup",
            &[("LoadBalancerId", &lb), ("BackendServers", r#"[{"ServerId":"i-web1","Weight":"100"}]"#)],
        )
        .unwrap_err();
    assert!(err.message.contains("Port"), "{}", err.message);
    let stopped = h
        .call(
            &PRODUCT,
            "CreateVServerGroup",
            &[("LoadBalancerId", &lb), ("BackendServers", r#"[{"ServerId":"i-web2","Port":"80"}]"#)],
        )
        .unwrap_err();
    assert_eq!(stopped.code, "IncorrectInstanceStatus");

    let body = h.ok(
        &PRODUCT,
        "CreateVServerGroup",
        &[
            ("LoadBalancerId", &lb),
            ("VServerGroupName", "web-group"),
            ("BackendServers", r#"[{"ServerId":"i-web1","Port":"80","Weight":"50"}]"#),
            ("Tag.1.Key", "env"),
            ("Tag.1.Value", "test"),
        ],
    );
    let group = body["VServerGroupId"].as_str().unwrap().to_owned();
    assert!(group.starts_with("rsp-"), "{group}");
    assert_eq!(body["BackendServers"]["BackendServer"][0]["Port"], 80);
    let event = h.newest_event();
    assert_eq!(event.event_name, "CreateVServerGroup");
    assert_eq!(event.referenced_resources["ACS::SLB::LoadBalancer"], [lb.as_str()]);
    assert_eq!(event.referenced_resources["ACS::ECS::Instance"], ["i-web1"]);

    let list = h.ok(&PRODUCT, "DescribeVServerGroups", &[("LoadBalancerId", &lb)]);
    let groups = &list["VServerGroups"]["VServerGroup"];
    assert_eq!((groups[0]["VServerGroupName"].as_str(), groups[0]["ServerCount"].as_i64()), (Some("web-group"), Some(1)));

    // The same server on another port is another member.
    h.ok(
        &PRODUCT,
        "AddVServerGroupBackendServers",
        &[("VServerGroupId", &group), ("BackendServers", r#"[{"ServerId":"i-web1","Port":"8080"}]"#)],
    );
    let again = h.call(
        &PRODUCT,
        "AddVServerGroupBackendServers",
        &[("VServerGroupId", &group), ("BackendServers", r#"[{"ServerId":"i-web1","Port":"8080"}]"#)],
    );
    assert!(again.is_err());
    h.ok(
        &PRODUCT,
        "RemoveVServerGroupBackendServers",
        &[("VServerGroupId", &group), ("BackendServers", r#"[{"ServerId":"i-web1","Port":"80"}]"#)],
    );
    let attr = h.ok(&PRODUCT, "DescribeVServerGroupAttribute", &[("VServerGroupId", &group)]);
    assert_eq!(attr["LoadBalancerId"], lb.as_str());
    let servers = attr["BackendServers"]["BackendServer"].as_array().unwrap();
    assert_eq!((servers.len(), &servers[0]["Port"]), (1, &json!(8080)));
    assert_eq!(attr["Tags"]["Tag"][0]["TagKey"], "env");

    // A listener forwarding to the group needs no BackendServerPort; an unknown group is refused.
    let listener = |group: &str| {
        h.call(
            &PRODUCT,
            "CreateLoadBalancerTCPListener",
            &[("LoadBalancerId", lb.as_str()), ("ListenerPort", "81"), ("Bandwidth", "-1"), ("VServerGroupId", group)],
        )
    };
    assert_eq!(listener("rsp-missing").unwrap_err().code, "InvalidVServerGroupId.NotFound");
    listener(&group).unwrap();
    let listeners = h.ok(&PRODUCT, "DescribeLoadBalancerListeners", &[("LoadBalancerId", &lb)]);
    assert_eq!(listeners["Listeners"][0]["VServerGroupId"], group.as_str());
    let bare = h.call(
        &PRODUCT,
        "CreateLoadBalancerTCPListener",
        &[("LoadBalancerId", lb.as_str()), ("ListenerPort", "82"), ("Bandwidth", "-1")],
    );
    assert_eq!(bare.unwrap_err().code, "MissingParameter");

    h.ok(&PRODUCT, "DeleteVServerGroup", &[("VServerGroupId", &group)]);
    let gone = h.call(&PRODUCT, "DescribeVServerGroupAttribute", &[("VServerGroupId", &group)]);
    assert_eq!(gone.unwrap_err().code, "InvalidVServerGroupId.NotFound");
}

const PEM_CERT: &str = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQk\n-----END CERTIFICATE-----";
const PEM_KEY: &str = "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49\n-----END PRIVATE KEY-----";

#[test]
fn https_listeners_need_an_uploaded_server_certificate() {
    let h = TestConsole::new();
    let lb = create_intranet(&h);
    let https = |cert: &str| {
        h.call(
            &PRODUCT,
            "CreateLoadBalancerHTTPSListener",
            &[
                ("LoadBalancerId", lb.as_str()),
                ("ListenerPort", "443"),
                ("BackendServerPort", "80"),
                ("Bandwidth", "-1"),
                ("StickySession", "off"),
                ("HealthCheck", "on"),
                ("ServerCertificateId", cert),
            ],
        )
    };
    assert_eq!(https("1234_ab_5678_-1").unwrap_err().code, "InvalidServerCertificateId.NotFound");
    // A certificate Certificate Management Service does not hold.
    let cas = h.err(&PRODUCT, "UploadServerCertificate", &[("AliCloudCertificateId", "775****")]);
    assert_eq!(cas.code, "InvalidAliCloudCertificateId.NotFound");
    let bad = h.err(
        &PRODUCT,
        "UploadServerCertificate",
        &[("ServerCertificate", "not a certificate"), ("PrivateKey", PEM_KEY)],
    );
    assert!(bad.message.contains("PEM"), "{}", bad.message);

    let body = h.ok(
        &PRODUCT,
        "UploadServerCertificate",
        &[("ServerCertificate", PEM_CERT), ("PrivateKey", PEM_KEY), ("ServerCertificateName", "web-cert")],
    );
    let cert = body["ServerCertificateId"].as_str().unwrap().to_owned();
    assert!(cert.ends_with("_-1"), "{cert}");
    assert_eq!(body["Fingerprint"].as_str().unwrap().split(':').count(), 20);
    let listed = h.ok(&PRODUCT, "DescribeServerCertificates", &[]);
    assert_eq!(listed["ServerCertificates"]["ServerCertificate"][0]["ServerCertificateName"], "web-cert");

    https(&cert).unwrap();
    let listeners = h.ok(&PRODUCT, "DescribeLoadBalancerListeners", &[("LoadBalancerId", &lb)]);
    assert_eq!(listeners["Listeners"][0]["HTTPSListenerConfig"]["ServerCertificateId"], cert.as_str());
    // In use by a listener, it stays.
    let used = h.err(&PRODUCT, "DeleteServerCertificate", &[("ServerCertificateId", &cert)]);
    assert_eq!(used.code, "ServerCertificateInUse");
    h.ok(&PRODUCT, "DeleteLoadBalancerListener", &[("LoadBalancerId", &lb), ("ListenerPort", "443")]);
    h.ok(&PRODUCT, "DeleteServerCertificate", &[("ServerCertificateId", &cert)]);
}

#[test]
fn accounts_are_isolated() {
    let h = TestConsole::new();
    let lb = create_intranet(&h);
    let other = h.account("other");
    let e = h
        .call_as(
            &other,
            &PRODUCT,
            "DescribeLoadBalancerAttribute",
            &[("LoadBalancerId", &lb)],
        )
        .unwrap_err();
    assert_eq!(e.code, "InvalidLoadBalancerId.NotFound");
    let e = h
        .call_as(&other, &PRODUCT, "DeleteLoadBalancer", &[("LoadBalancerId", &lb)])
        .unwrap_err();
    assert_eq!(e.code, "InvalidLoadBalancerId.NotFound");
    assert_eq!(
        h.call_as(&other, &PRODUCT, "DescribeLoadBalancers", &[]).unwrap()["TotalCount"],
        0
    );
    // Another account's ECS instance is not a valid backend either.
    let shared = h.console.store.account(&other.account_id).unwrap();
    shared.lock().insert_resource(Resource::new(
        ECS_INSTANCE,
        "i-bp1foreign00000001".into(),
        "cn-hangzhou",
        "x",
        "Running",
        0,
    ));
    let e = h.err(
        &PRODUCT,
        "AddBackendServers",
        &[
            ("LoadBalancerId", &lb),
            ("BackendServers", r#"["i-bp1foreign00000001"]"#),
        ],
    );
    assert_eq!(e.code, "InvalidBackendServers.NotFound");
}
