//! Tests of ALB driven through the console: instances across zones, server groups, listeners, the
//! asynchronous states and the events they leave.

use super::*;
use crate::products::slb;
use crate::products::testkit::{TestConsole, items, text};
use crate::products::vpc;

/// A VPC with vSwitches in zones H and I: (VPC, vSwitch in H, vSwitch in I).
fn two_zones(h: &TestConsole) -> (String, String, String) {
    let (vpc_id, vsw_h) = h.network();
    let vsw_i = h.ok(
        &vpc::PRODUCT,
        "CreateVSwitch",
        &[
            ("VpcId", &vpc_id),
            ("ZoneId", "cn-hangzhou-i"),
            ("CidrBlock", "192.168.2.0/24"),
        ],
    );
    (vpc_id, vsw_h, text(&vsw_i, "/VSwitchId").to_owned())
}

fn create_lb(h: &TestConsole, vpc_id: &str, vsw_h: &str, vsw_i: &str, address_type: &str) -> Result<Value, ApiError> {
    h.call(
        &PRODUCT,
        "CreateLoadBalancer",
        &[
            ("LoadBalancerName", "web-alb"),
            ("VpcId", vpc_id),
            ("AddressType", address_type),
            ("LoadBalancerEdition", "Standard"),
            ("LoadBalancerBillingConfig.PayType", "PostPay"),
            ("ZoneMappings.1.ZoneId", "cn-hangzhou-h"),
            ("ZoneMappings.1.VSwitchId", vsw_h),
            ("ZoneMappings.2.ZoneId", "cn-hangzhou-i"),
            ("ZoneMappings.2.VSwitchId", vsw_i),
        ],
    )
}

fn create_group(h: &TestConsole, vpc_id: &str, protocol: &str) -> String {
    let body = h.ok(
        &PRODUCT,
        "CreateServerGroup",
        &[
            ("ServerGroupName", "web-servers"),
            ("ServerGroupType", "Instance"),
            ("VpcId", vpc_id),
            ("Protocol", protocol),
            ("HealthCheckConfig.HealthCheckEnabled", "true"),
        ],
    );
    text(&body, "/ServerGroupId").to_owned()
}

fn http_listener(h: &TestConsole, lb: &str, port: &str, group: &str) -> Result<Value, ApiError> {
    h.call(
        &PRODUCT,
        "CreateListener",
        &[
            ("LoadBalancerId", lb),
            ("ListenerProtocol", "HTTP"),
            ("ListenerPort", port),
            ("ListenerDescription", "web-80"),
            ("IdleTimeout", "30"),
            ("DefaultActions.1.Type", "ForwardGroup"),
            (
                "DefaultActions.1.ForwardGroupConfig.ServerGroupTuples.1.ServerGroupId",
                group,
            ),
        ],
    )
}

#[test]
fn an_instance_is_provisioned_across_two_zones_and_logged_as_alb() {
    let h = TestConsole::with_transition_delay(60_000);
    let (vpc_id, vsw_h, vsw_i) = two_zones(&h);
    let body = create_lb(&h, &vpc_id, &vsw_h, &vsw_i, "Intranet").unwrap();
    let id = text(&body, "/LoadBalancerId").to_owned();
    assert!(id.starts_with("alb-"), "{id}");
    assert_eq!(text(&body, "/OrderId").len(), 15);

    let event = h.newest_event();
    assert_eq!(event.event_name, "CreateLoadBalancer");
    assert_eq!(
        (event.service_name.as_str(), event.event_source.as_str()),
        ("Alb", "alb.cn-hangzhou.aliyuncs.com")
    );
    assert_eq!(event.referenced_resources["ACS::ALB::LoadBalancer"], [id.as_str()]);

    let attr = h.ok(&PRODUCT, "GetLoadBalancerAttribute", &[("LoadBalancerId", &id)]);
    assert_eq!(attr["LoadBalancerStatus"], "Provisioning");
    assert_eq!(attr["LoadBalancerEdition"], "Standard");
    assert_eq!(attr["LoadBalancerBillingConfig"]["PayType"], "PostPay");
    assert_eq!(attr["DNSName"], format!("{id}.cn-hangzhou.alb.aliyuncs.com"));
    let zones = items(&attr, "/ZoneMappings");
    assert_eq!(zones.len(), 2);
    assert_eq!(zones[1]["VSwitchId"], vsw_i.as_str());
    let private = zones[0]["LoadBalancerAddresses"][0]["IntranetAddress"]
        .as_str()
        .unwrap();
    assert!(private.starts_with("192.168.1."), "{private}");
    assert!(zones[0]["LoadBalancerAddresses"][0].get("Address").is_none());

    h.advance(60_000);
    let listed = h.ok(&PRODUCT, "ListLoadBalancers", &[("LoadBalancerIds.1", &id)]);
    assert_eq!(listed["TotalCount"], 1);
    assert_eq!(listed["LoadBalancers"][0]["LoadBalancerStatus"], "Active");

    // A CLB of the same account is another product's: ALB's list does not show it.
    h.ok(&slb::PRODUCT, "CreateLoadBalancer", &[("LoadBalancerName", "classic")]);
    assert_eq!(h.last_event("CreateLoadBalancer").service_name, "Slb");
    assert_eq!(h.ok(&PRODUCT, "ListLoadBalancers", &[])["TotalCount"], 1);
}

#[test]
fn creation_checks_zones_vswitches_and_the_required_settings() {
    let h = TestConsole::new();
    let (vpc_id, vsw_h, vsw_i) = two_zones(&h);
    let e = h.err(
        &PRODUCT,
        "CreateLoadBalancer",
        &[
            ("VpcId", &vpc_id),
            ("AddressType", "Internet"),
            ("LoadBalancerEdition", "Standard"),
            ("LoadBalancerBillingConfig.PayType", "PostPay"),
            ("ZoneMappings.1.ZoneId", "cn-hangzhou-h"),
            ("ZoneMappings.1.VSwitchId", &vsw_h),
        ],
    );
    assert!(e.message.contains("at least two zones"), "{e}");
    // The vSwitch of zone I given for zone H.
    let e = create_lb(&h, &vpc_id, &vsw_i, &vsw_i, "Internet").unwrap_err();
    assert!(e.message.contains("\"ZoneMappings.1.ZoneId\""), "{e}");
    let e = create_lb(&h, "vpc-bp1nosuchvpc", &vsw_h, &vsw_i, "Internet").unwrap_err();
    assert_eq!(e.code, "ResourceNotFound.Vpc");
    let e = create_lb(&h, &vpc_id, &vsw_h, &vsw_i, "Public").unwrap_err();
    assert!(e.message.contains("\"AddressType\""), "{e}");
    let e = h.err(
        &PRODUCT,
        "CreateLoadBalancer",
        &[
            ("VpcId", &vpc_id),
            ("AddressType", "Internet"),
            ("LoadBalancerEdition", "Basic"),
        ],
    );
    assert_eq!(
        (e.code.as_str(), e.message.contains("LoadBalancerBillingConfig.PayType")),
        ("MissingParameter", true)
    );
    let mut dry = vec![("DryRun", "true")];
    let params = [
        ("VpcId", vpc_id.as_str()),
        ("AddressType", "Internet"),
        ("LoadBalancerEdition", "Basic"),
        ("LoadBalancerBillingConfig.PayType", "PostPay"),
        ("ZoneMappings.1.ZoneId", "cn-hangzhou-h"),
        ("ZoneMappings.1.VSwitchId", vsw_h.as_str()),
        ("ZoneMappings.2.ZoneId", "cn-hangzhou-i"),
        ("ZoneMappings.2.VSwitchId", vsw_i.as_str()),
    ];
    dry.extend(params);
    assert_eq!(h.err(&PRODUCT, "CreateLoadBalancer", &dry).code, "DryRunOperation");
    assert_eq!(h.ok(&PRODUCT, "ListLoadBalancers", &[])["TotalCount"], 0);

    let public = h.ok(&PRODUCT, "CreateLoadBalancer", &params);
    let attr = h.ok(
        &PRODUCT,
        "GetLoadBalancerAttribute",
        &[("LoadBalancerId", text(&public, "/LoadBalancerId"))],
    );
    let address = attr["ZoneMappings"][0]["LoadBalancerAddresses"][0]["Address"]
        .as_str()
        .unwrap();
    assert!(address.starts_with("39."), "{address}");
    assert_eq!(attr["LoadBalancerStatus"], "Active");
}

#[test]
fn a_listener_forwards_to_a_server_group_of_the_instances_vpc() {
    let h = TestConsole::new();
    let (vpc_id, vsw_h, vsw_i) = two_zones(&h);
    let lb = text(
        &create_lb(&h, &vpc_id, &vsw_h, &vsw_i, "Internet").unwrap(),
        "/LoadBalancerId",
    )
    .to_owned();
    let group = create_group(&h, &vpc_id, "HTTP");
    let groups = h.ok(&PRODUCT, "ListServerGroups", &[("ServerGroupIds.1", &group)]);
    let shown = &groups["ServerGroups"][0];
    assert_eq!(
        (shown["ServerGroupStatus"].as_str(), shown["Protocol"].as_str()),
        (Some("Available"), Some("HTTP"))
    );
    assert_eq!(
        shown["HealthCheckConfig"]["HealthCheckCodes"],
        json!(["http_2xx", "http_3xx"])
    );

    let body = http_listener(&h, &lb, "80", &group).unwrap();
    let listener = text(&body, "/ListenerId").to_owned();
    assert!(listener.starts_with("lsn-"), "{listener}");
    let event = h.newest_event();
    assert_eq!(event.event_name, "CreateListener");
    assert_eq!(event.referenced_resources["ACS::ALB::ServerGroup"], [group.as_str()]);

    let listed = h.ok(&PRODUCT, "ListListeners", &[("LoadBalancerIds.1", &lb)]);
    let shown = &listed["Listeners"][0];
    assert_eq!(shown["ListenerStatus"], "Running");
    assert_eq!(shown["IdleTimeout"], 30);
    assert_eq!(shown["ListenerDescription"], "web-80");
    assert_eq!(
        shown["DefaultActions"][0]["ForwardGroupConfig"]["ServerGroupTuples"][0]["ServerGroupId"],
        group.as_str()
    );
    let groups = h.ok(&PRODUCT, "ListServerGroups", &[]);
    assert_eq!(groups["ServerGroups"][0]["RelatedLoadBalancerIds"], json!([lb]));

    assert_eq!(
        http_listener(&h, &lb, "80", &group).unwrap_err().code,
        "ResourceAlreadyExist.Listener"
    );
    assert!(
        http_listener(&h, &lb, "70000", &group)
            .unwrap_err()
            .message
            .contains("\"ListenerPort\"")
    );
    let https_group = create_group(&h, &vpc_id, "HTTPS");
    let e = http_listener(&h, &lb, "81", &https_group).unwrap_err();
    assert!(e.message.contains("only HTTPS listeners"), "{e}");
    let e = h.err(
        &PRODUCT,
        "CreateListener",
        &[
            ("LoadBalancerId", &lb),
            ("ListenerProtocol", "HTTPS"),
            ("ListenerPort", "443"),
            ("DefaultActions.1.Type", "ForwardGroup"),
            (
                "DefaultActions.1.ForwardGroupConfig.ServerGroupTuples.1.ServerGroupId",
                &https_group,
            ),
        ],
    );
    assert_eq!(
        (e.code.as_str(), e.message.contains("Certificates")),
        ("MissingParameter", true)
    );

    // A server group in use stays; once its listener is gone it can be deleted.
    assert_eq!(
        h.err(&PRODUCT, "DeleteServerGroup", &[("ServerGroupId", &group)]).code,
        "ResourceInUse.ServerGroup"
    );
    h.ok(&PRODUCT, "DeleteListener", &[("ListenerId", &listener)]);
    h.ok(&PRODUCT, "DeleteServerGroup", &[("ServerGroupId", &group)]);
    assert_eq!(
        h.err(&PRODUCT, "DeleteServerGroup", &[("ServerGroupId", &group)]).code,
        "ResourceNotFound.ServerGroup"
    );
}

#[test]
fn a_provisioning_instance_takes_no_listener_and_deletion_takes_its_listeners() {
    let h = TestConsole::with_transition_delay(30_000);
    let (vpc_id, vsw_h, vsw_i) = two_zones(&h);
    let lb = text(
        &create_lb(&h, &vpc_id, &vsw_h, &vsw_i, "Intranet").unwrap(),
        "/LoadBalancerId",
    )
    .to_owned();
    h.advance(30_000);
    let group = create_group(&h, &vpc_id, "HTTP");
    let e = http_listener(&h, &lb, "80", &group);
    assert!(e.is_ok(), "the group is still Creating but may be named: {e:?}");

    let other = text(
        &create_lb(&h, &vpc_id, &vsw_h, &vsw_i, "Intranet").unwrap(),
        "/LoadBalancerId",
    )
    .to_owned();
    let e = http_listener(&h, &other, "80", &group).unwrap_err();
    assert_eq!(e.code, "IncorrectStatus.LoadBalancer");
    assert_eq!(
        h.err(&PRODUCT, "DeleteLoadBalancer", &[("LoadBalancerId", &other)])
            .code,
        "IncorrectStatus.LoadBalancer"
    );

    h.ok(&PRODUCT, "DeleteLoadBalancer", &[("LoadBalancerId", &lb)]);
    assert_eq!(h.ok(&PRODUCT, "ListListeners", &[])["TotalCount"], 0);
    assert_eq!(
        h.err(&PRODUCT, "GetLoadBalancerAttribute", &[("LoadBalancerId", &lb)])
            .code,
        "ResourceNotFound.LoadBalancer"
    );
}

#[test]
fn lists_page_with_next_token() {
    let h = TestConsole::new();
    let (vpc_id, _, _) = two_zones(&h);
    for _ in 0..3 {
        create_group(&h, &vpc_id, "HTTP");
    }
    let first = h.ok(&PRODUCT, "ListServerGroups", &[("MaxResults", "2")]);
    assert_eq!(
        (items(&first, "/ServerGroups").len(), first["TotalCount"].as_i64()),
        (2, Some(3))
    );
    let token = text(&first, "/NextToken").to_owned();
    let last = h.ok(
        &PRODUCT,
        "ListServerGroups",
        &[("MaxResults", "2"), ("NextToken", &token)],
    );
    assert_eq!(
        (items(&last, "/ServerGroups").len(), text(&last, "/NextToken")),
        (1, "")
    );
    assert_eq!(
        h.err(&PRODUCT, "ListServerGroups", &[("NextToken", "99")]).code,
        "InvalidParameter"
    );
    let e = h.err(
        &PRODUCT,
        "CreateServerGroup",
        &[
            ("ServerGroupName", "x"),
            ("VpcId", &vpc_id),
            ("HealthCheckConfig.HealthCheckEnabled", "true"),
        ],
    );
    assert!(e.message.contains("\"ServerGroupName\""), "{e}");
    let e = h.err(
        &PRODUCT,
        "CreateServerGroup",
        &[("ServerGroupName", "web"), ("VpcId", &vpc_id)],
    );
    assert!(e.message.contains("HealthCheckConfig.HealthCheckEnabled"), "{e}");
}
