//! Classic Load Balancer (CLB, formerly Server Load Balancer; API 2014-05-15): instances, TCP/UDP/HTTP
//! listeners, backend ECS servers and their health.

use axum::http::StatusCode;
use rand::Rng;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::catalog::{OpCtx, Operation, Product, paginate};
use crate::clock::iso8601;
use crate::error::ApiError;
use crate::model::Resource;
use crate::params::Params;
use crate::products::rds::{add_months, order_id, place_in_vswitch};
use crate::products::regions::{check_zone, region};

pub static PRODUCT: Product = Product {
    code: "slb",
    name: "Classic Load Balancer",
    service_name: "Slb",
    version: "2014-05-15",
    endpoint: "slb.aliyuncs.com",
    console_agent: "slb.console.aliyun.com",
    operations: &[
        Operation::write("CreateLoadBalancer", create_load_balancer),
        Operation::read("DescribeLoadBalancers", describe_load_balancers),
        Operation::read("DescribeLoadBalancerAttribute", describe_load_balancer_attribute),
        Operation::write("SetLoadBalancerName", set_load_balancer_name),
        Operation::write("SetLoadBalancerStatus", set_load_balancer_status),
        Operation::write("SetLoadBalancerDeleteProtection", set_load_balancer_delete_protection),
        Operation::write("DeleteLoadBalancer", delete_load_balancer),
        Operation::write("CreateLoadBalancerTCPListener", create_tcp_listener),
        Operation::write("CreateLoadBalancerUDPListener", create_udp_listener),
        Operation::write("CreateLoadBalancerHTTPListener", create_http_listener),
        Operation::write("StartLoadBalancerListener", start_listener),
        Operation::write("StopLoadBalancerListener", stop_listener),
        Operation::read("DescribeLoadBalancerListeners", describe_listeners),
        Operation::write("DeleteLoadBalancerListener", delete_listener),
        Operation::write("AddBackendServers", add_backend_servers),
        Operation::write("RemoveBackendServers", remove_backend_servers),
        Operation::read("DescribeHealthStatus", describe_health_status),
    ],
};

pub const LOAD_BALANCER: &str = "slb.loadbalancer";
pub const LISTENER: &str = "slb.listener";
/// Backend servers are ECS instances; the kind belongs to the ECS product.
const ECS_INSTANCE: &str = "ecs.instance";
const LOAD_BALANCER_TYPE: &str = "ACS::SLB::LoadBalancer";
const ECS_INSTANCE_TYPE: &str = "ACS::ECS::Instance";

const SPECS: &[&str] = &[
    "slb.s1.small",
    "slb.s2.small",
    "slb.s2.medium",
    "slb.s3.small",
    "slb.s3.medium",
    "slb.s3.large",
    "slb.s4.large",
];
const SCHEDULERS: &[&str] = &["wrr", "wlc", "rr", "sch", "tch", "qch"];
const MAX_BACKENDS_PER_CALL: usize = 20;

/// Names as CLB enforces them: 1–80 characters, starting with a letter (or a Chinese character), then
/// letters, digits, periods, underscores and hyphens.
fn check_load_balancer_name(name: &str) -> Result<(), ApiError> {
    let starts_ok = name.chars().next().is_some_and(char::is_alphabetic);
    let chars_ok = name
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if starts_ok && chars_ok && name.chars().count() <= 80 {
        Ok(())
    } else {
        Err(ApiError::invalid_parameter(
            "LoadBalancerName",
            "the name must be 1 to 80 characters, start with a letter, and contain only letters, digits, \
             periods (.), underscores (_) and hyphens (-)",
        ))
    }
}

fn on_off(p: &Params, name: &str, default: &'static str) -> Result<String, ApiError> {
    Ok(p.one_of(name, &["on", "off"])?.unwrap_or(default).to_owned())
}

fn required_on_off(p: &Params, name: &str) -> Result<String, ApiError> {
    p.one_of(name, &["on", "off"])?
        .map(str::to_owned)
        .ok_or_else(|| ApiError::missing_parameter(name))
}

fn required_int(p: &Params, name: &str, range: std::ops::RangeInclusive<i64>) -> Result<i64, ApiError> {
    p.required(name)?;
    p.int_in(name, range.clone(), *range.start())
}

/// A public address of the region's CLB pool (47.96.0.0/11 in the emulator).
fn public_address() -> String {
    let mut rng = rand::rng();
    format!(
        "47.{}.{}.{}",
        rng.random_range(96..128),
        rng.random_range(0..256),
        rng.random_range(1..255)
    )
}

/// A classic-network private address (10.0.0.0/8).
fn classic_address() -> String {
    let mut rng = rand::rng();
    format!(
        "10.{}.{}.{}",
        rng.random_range(0..256),
        rng.random_range(0..256),
        rng.random_range(1..255)
    )
}

fn create_load_balancer(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let region_info = region(&ctx.region)?;
    let name = p.get("LoadBalancerName").unwrap_or("auto_named_slb");
    check_load_balancer_name(name)?;
    let address_type = p
        .one_of("AddressType", &["internet", "intranet"])?
        .unwrap_or("internet");
    let charge_type = p
        .one_of("InternetChargeType", &["paybytraffic", "paybybandwidth"])?
        .unwrap_or("paybytraffic")
        .to_owned();
    if address_type == "intranet" && charge_type == "paybybandwidth" {
        return Err(ApiError::invalid_parameter(
            "InternetChargeType",
            "intranet instances are billed by traffic; paybybandwidth applies only to internet instances",
        ));
    }
    let bandwidth = if charge_type == "paybybandwidth" {
        required_int(p, "Bandwidth", 1..=5120)?
    } else {
        p.int_in("Bandwidth", 1..=5120, 5120)?
    };
    let spec = p.one_of("LoadBalancerSpec", SPECS)?.unwrap_or("");
    let pay_type = p
        .one_of("PayType", &["PayOnDemand", "PrePay"])?
        .unwrap_or("PayOnDemand");
    let delete_protection = on_off(p, "DeleteProtection", "off")?;
    let ip_version = p.one_of("AddressIPVersion", &["ipv4", "ipv6"])?.unwrap_or("ipv4");

    let master_zone = p.get("MasterZoneId");
    let placement = match (address_type, p.get("VpcId"), p.get("VSwitchId")) {
        ("intranet", Some(vpc_id), Some(vswitch_id)) => {
            let zone = master_zone.map(|z| ("MasterZoneId", z));
            Some(place_in_vswitch(
                ctx,
                ("VpcId", vpc_id),
                ("VSwitchId", vswitch_id),
                zone,
            )?)
        }
        ("intranet", None, Some(_)) => return Err(ApiError::missing_parameter("VpcId")),
        ("intranet", Some(_), None) => return Err(ApiError::missing_parameter("VSwitchId")),
        _ => None,
    };
    let master_zone = match (&placement, master_zone) {
        (Some(placed), _) => placed.zone_id.clone(),
        (None, Some(zone)) => {
            check_zone(&ctx.region, zone)?;
            zone.to_owned()
        }
        (None, None) => region_info.zones[0].to_owned(),
    };
    let slave_zone = match p.get("SlaveZoneId") {
        Some(zone) => {
            check_zone(&ctx.region, zone)?;
            if zone == master_zone {
                return Err(ApiError::invalid_parameter(
                    "SlaveZoneId",
                    "the secondary zone must differ from the primary zone",
                ));
            }
            zone.to_owned()
        }
        None => region_info
            .zones
            .iter()
            .find(|z| **z != master_zone)
            .copied()
            .unwrap_or("")
            .to_owned(),
    };
    let (network_type, address) = match (&placement, address_type) {
        (Some(placed), _) => ("vpc", placed.random_host()?),
        (None, "intranet") => ("classic", classic_address()),
        (None, _) => ("classic", public_address()),
    };
    let end_ms = if pay_type == "PrePay" {
        let cycle = p
            .one_of("PricingCycle", &["month", "year"])?
            .ok_or_else(|| ApiError::missing_parameter("PricingCycle"))?;
        let months = if cycle == "year" {
            required_int(p, "Duration", 1..=3)? * 12
        } else {
            required_int(p, "Duration", 1..=9)?
        };
        Some(add_months(ctx.now_ms, months))
    } else {
        None
    };

    let id = ctx.new_id("lb");
    let mut lb = Resource::new(
        LOAD_BALANCER,
        id.clone(),
        &ctx.region.clone(),
        name,
        "active",
        ctx.now_ms,
    )
    .with("Address", address.clone())
    .with("AddressType", address_type)
    .with("AddressIPVersion", ip_version)
    .with("NetworkType", network_type)
    .with("InternetChargeType", charge_type)
    .with("Bandwidth", bandwidth)
    .with("LoadBalancerSpec", spec)
    .with("PayType", pay_type)
    .with("DeleteProtection", delete_protection)
    .with("MasterZoneId", master_zone)
    .with("SlaveZoneId", slave_zone)
    .with("ResourceGroupId", p.get("ResourceGroupId").unwrap_or("rg-default"));
    if let Some(placed) = &placement {
        lb.set("VpcId", placed.vpc_id.clone());
        lb.set("VSwitchId", placed.vswitch_id.clone());
    }
    if let Some(end) = end_ms {
        lb.set("EndTime", end);
    }
    set_backends(&mut lb, &[])?;
    let mut response = json!({
        "LoadBalancerId": id,
        "LoadBalancerName": name,
        "Address": address,
        "AddressIPVersion": ip_version,
        "NetworkType": network_type,
        "VpcId": lb.attr_str("VpcId"),
        "VSwitchId": lb.attr_str("VSwitchId"),
        "ResourceGroupId": lb.attr_str("ResourceGroupId"),
    });
    if end_ms.is_some() {
        response["OrderId"] = json!(order_id().parse::<i64>().unwrap_or_default());
    }
    ctx.reference(LOAD_BALANCER_TYPE, &id);
    ctx.put(lb);
    Ok(response)
}

fn load_balancer_json(lb: &Resource) -> Value {
    let end = lb.attr_i64("EndTime");
    json!({
        "LoadBalancerId": lb.id,
        "LoadBalancerName": lb.name,
        "LoadBalancerStatus": lb.status,
        "Address": lb.attr_str("Address"),
        "AddressType": lb.attr_str("AddressType"),
        "AddressIPVersion": lb.attr_str("AddressIPVersion"),
        "RegionId": lb.region,
        "RegionIdAlias": lb.region,
        "NetworkType": lb.attr_str("NetworkType"),
        "VpcId": lb.attr_str("VpcId"),
        "VSwitchId": lb.attr_str("VSwitchId"),
        "MasterZoneId": lb.attr_str("MasterZoneId"),
        "SlaveZoneId": lb.attr_str("SlaveZoneId"),
        "InternetChargeType": lb.attr_str("InternetChargeType"),
        "Bandwidth": lb.attr_i64("Bandwidth"),
        "LoadBalancerSpec": lb.attr_str("LoadBalancerSpec"),
        "PayType": lb.attr_str("PayType"),
        "DeleteProtection": lb.attr_str("DeleteProtection"),
        "ResourceGroupId": lb.attr_str("ResourceGroupId"),
        "CreateTime": iso8601(lb.created_ms),
        "CreateTimeStamp": lb.created_ms,
        "EndTime": end.map(iso8601).unwrap_or_default(),
        "EndTimeStamp": end.unwrap_or(0),
        "BusinessStatus": "Normal",
    })
}

fn describe_load_balancers(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let ids = p.list("LoadBalancerId")?;
    let name = p.get("LoadBalancerName");
    let address_type = p.get("AddressType");
    let network_type = p.get("NetworkType");
    let vpc_id = p.get("VpcId");
    let vswitch_id = p.get("VSwitchId");
    let address = p.get("Address");
    let status = p.get("LoadBalancerStatus");
    let server_id = p.get("ServerId");
    let mut selected = Vec::new();
    for lb in ctx.list(LOAD_BALANCER) {
        let keep = (ids.is_empty() || ids.contains(&lb.id))
            && name.is_none_or(|n| lb.name == n)
            && address_type.is_none_or(|t| lb.attr_str("AddressType") == t)
            && network_type.is_none_or(|t| lb.attr_str("NetworkType") == t)
            && vpc_id.is_none_or(|v| lb.attr_str("VpcId") == v)
            && vswitch_id.is_none_or(|v| lb.attr_str("VSwitchId") == v)
            && address.is_none_or(|a| lb.attr_str("Address") == a)
            && status.is_none_or(|s| lb.status == s);
        if keep && (server_id.is_none() || backends(&lb)?.iter().any(|b| Some(b.server_id.as_str()) == server_id)) {
            selected.push(lb);
        }
    }
    let (page, number, size, total) = paginate(selected, p, 100)?;
    let items: Vec<Value> = page.iter().map(load_balancer_json).collect();
    Ok(json!({
        "TotalCount": total,
        "PageNumber": number,
        "PageSize": size,
        "LoadBalancers": { "LoadBalancer": items },
    }))
}

fn find_load_balancer(ctx: &OpCtx<'_>, p: &Params) -> Result<Resource, ApiError> {
    let id = p.required("LoadBalancerId")?;
    ctx.find(LOAD_BALANCER, id, "LoadBalancerId")
}

fn describe_load_balancer_attribute(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let lb = find_load_balancer(ctx, p)?;
    let listeners = ctx.children(LISTENER, &lb.id);
    let ports: Vec<i64> = listeners.iter().filter_map(|l| l.attr_i64("ListenerPort")).collect();
    let legacy: Vec<Value> = listeners
        .iter()
        .map(|l| {
            json!({
                "ListenerPort": l.attr_i64("ListenerPort"),
                "ListenerProtocal": l.attr_str("ListenerProtocol"),
            })
        })
        .collect();
    let with_protocol: Vec<Value> = listeners
        .iter()
        .map(|l| {
            json!({
                "ListenerPort": l.attr_i64("ListenerPort"),
                "ListenerProtocol": l.attr_str("ListenerProtocol"),
                "Description": l.attr_str("Description"),
                "ListenerForward": "off",
                "ForwardPort": 0,
            })
        })
        .collect();
    let servers: Vec<Value> = backends(&lb)?
        .iter()
        .map(|b| {
            let ip = ctx
                .get(&b.server_id)
                .map(|ecs| ecs_private_ip(&ecs))
                .unwrap_or_default();
            json!({
                "ServerId": b.server_id,
                "Weight": b.weight,
                "Type": b.kind,
                "Description": b.description,
                "ServerIp": ip,
            })
        })
        .collect();
    let mut body = load_balancer_json(&lb);
    let extra = json!({
        "ListenerPorts": { "ListenerPort": ports },
        "ListenerPortsAndProtocal": { "ListenerPortAndProtocal": legacy },
        "ListenerPortsAndProtocol": { "ListenerPortAndProtocol": with_protocol },
        "BackendServers": { "BackendServer": servers },
        "AutoReleaseTime": 0,
        "RenewalStatus": "Normal",
        "HasReservedInfo": "false",
    });
    if let (Value::Object(body), Value::Object(extra)) = (&mut body, extra) {
        body.extend(extra);
    }
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    Ok(body)
}

fn set_load_balancer_name(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut lb = find_load_balancer(ctx, p)?;
    let name = p.required("LoadBalancerName")?;
    check_load_balancer_name(name)?;
    lb.name = name.to_owned();
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.put(lb);
    Ok(json!({}))
}

fn set_load_balancer_status(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut lb = find_load_balancer(ctx, p)?;
    let status = p
        .one_of("LoadBalancerStatus", &["active", "inactive"])?
        .ok_or_else(|| ApiError::missing_parameter("LoadBalancerStatus"))?;
    if lb.status == "locked" {
        return Err(ApiError::incorrect_status(
            "OperationFailed.LoadBalancerLocked",
            "The load balancer is locked.",
        ));
    }
    lb.status = status.to_owned();
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.put(lb);
    Ok(json!({}))
}

fn set_load_balancer_delete_protection(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut lb = find_load_balancer(ctx, p)?;
    let protection = required_on_off(p, "DeleteProtection")?;
    lb.set("DeleteProtection", protection);
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.put(lb);
    Ok(json!({}))
}

fn delete_load_balancer(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let lb = find_load_balancer(ctx, p)?;
    if lb.attr_str("DeleteProtection") == "on" {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "OperationDenied.DeleteProtectionIsOn",
            "The loadbalancer can't be deleted due to DeleteProtection is enabled.",
        ));
    }
    for listener in ctx.children(LISTENER, &lb.id) {
        ctx.delete(&listener.id);
    }
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.delete(&lb.id);
    Ok(json!({}))
}

// ---- listeners -------------------------------------------------------------------------------

fn listener_id(lb_id: &str, protocol: &str, port: i64) -> String {
    format!("{lb_id}/listener/{protocol}/{port}")
}

/// TCP, HTTP and HTTPS listeners share one port space; UDP has its own.
fn same_port_space(a: &str, b: &str) -> bool {
    (a == "udp") == (b == "udp")
}

/// The health-check settings every protocol shares, with the real defaults.
fn health_check_common(p: &Params, config: &mut Map<String, Value>, timeout_param: &str) -> Result<(), ApiError> {
    if let Some(port) = p.int("HealthCheckConnectPort")? {
        config.insert(
            "HealthCheckConnectPort".into(),
            json!(p.int_in("HealthCheckConnectPort", 1..=65535, port)?),
        );
    }
    config.insert(
        "HealthyThreshold".into(),
        json!(p.int_in("HealthyThreshold", 2..=10, 3)?),
    );
    config.insert(
        "UnhealthyThreshold".into(),
        json!(p.int_in("UnhealthyThreshold", 2..=10, 3)?),
    );
    config.insert(timeout_param.into(), json!(p.int_in(timeout_param, 1..=300, 5)?));
    config.insert(
        "HealthCheckInterval".into(),
        json!(p.int_in("HealthCheckInterval", 1..=50, 2)?),
    );
    Ok(())
}

fn health_check_uri(p: &Params, default: &str) -> Result<String, ApiError> {
    let uri = p.get("HealthCheckURI").unwrap_or(default);
    if !uri.is_empty() && (!uri.starts_with('/') || uri.len() > 80) {
        return Err(ApiError::invalid_parameter(
            "HealthCheckURI",
            "the path must start with / and be at most 80 characters",
        ));
    }
    Ok(uri.to_owned())
}

fn health_check_http_code(p: &Params) -> Result<String, ApiError> {
    let codes = p.get("HealthCheckHttpCode").unwrap_or("http_2xx,http_3xx");
    let valid = ["http_2xx", "http_3xx", "http_4xx", "http_5xx"];
    if codes.split(',').all(|c| valid.contains(&c)) {
        Ok(codes.to_owned())
    } else {
        Err(ApiError::invalid_parameter(
            "HealthCheckHttpCode",
            format!("{codes:?} is not a list of {}", valid.join(", ")),
        ))
    }
}

fn tcp_config(p: &Params) -> Result<Map<String, Value>, ApiError> {
    let mut config = Map::new();
    config.insert("HealthCheck".into(), json!(on_off(p, "HealthCheckSwitch", "on")?));
    let check_type = p.one_of("HealthCheckType", &["tcp", "http"])?.unwrap_or("tcp");
    config.insert("HealthCheckType".into(), json!(check_type));
    health_check_common(p, &mut config, "HealthCheckConnectTimeout")?;
    if check_type == "http" {
        config.insert("HealthCheckURI".into(), json!(health_check_uri(p, "/")?));
        config.insert(
            "HealthCheckDomain".into(),
            json!(p.get("HealthCheckDomain").unwrap_or("")),
        );
        config.insert("HealthCheckHttpCode".into(), json!(health_check_http_code(p)?));
    }
    config.insert(
        "PersistenceTimeout".into(),
        json!(p.int_in("PersistenceTimeout", 0..=3600, 0)?),
    );
    config.insert(
        "EstablishedTimeout".into(),
        json!(p.int_in("EstablishedTimeout", 10..=900, 900)?),
    );
    Ok(config)
}

fn udp_config(p: &Params) -> Result<Map<String, Value>, ApiError> {
    let mut config = Map::new();
    config.insert("HealthCheck".into(), json!(on_off(p, "HealthCheckSwitch", "on")?));
    health_check_common(p, &mut config, "HealthCheckConnectTimeout")?;
    // The real API spells these two with a lower-case first letter.
    config.insert("HealthCheckReq".into(), json!(p.get("healthCheckReq").unwrap_or("")));
    config.insert("HealthCheckExp".into(), json!(p.get("healthCheckExp").unwrap_or("")));
    config.insert(
        "PersistenceTimeout".into(),
        json!(p.int_in("PersistenceTimeout", 0..=3600, 0)?),
    );
    Ok(config)
}

fn http_config(p: &Params) -> Result<Map<String, Value>, ApiError> {
    let mut config = Map::new();
    let sticky = required_on_off(p, "StickySession")?;
    let health_check = required_on_off(p, "HealthCheck")?;
    if sticky == "on" {
        let kind = p
            .one_of("StickySessionType", &["insert", "server"])?
            .ok_or_else(|| ApiError::missing_parameter("StickySessionType"))?;
        config.insert("StickySessionType".into(), json!(kind));
        if kind == "insert" {
            config.insert(
                "CookieTimeout".into(),
                json!(required_int(p, "CookieTimeout", 1..=86400)?),
            );
        } else {
            config.insert("Cookie".into(), json!(p.required("Cookie")?));
        }
    }
    config.insert("StickySession".into(), json!(sticky));
    config.insert("HealthCheck".into(), json!(health_check));
    if health_check == "on" {
        config.insert("HealthCheckURI".into(), json!(health_check_uri(p, "/")?));
        config.insert(
            "HealthCheckDomain".into(),
            json!(p.get("HealthCheckDomain").unwrap_or("")),
        );
        config.insert("HealthCheckHttpCode".into(), json!(health_check_http_code(p)?));
        config.insert(
            "HealthCheckMethod".into(),
            json!(p.one_of("HealthCheckMethod", &["head", "get"])?.unwrap_or("head")),
        );
        health_check_common(p, &mut config, "HealthCheckTimeout")?;
    }
    config.insert("XForwardedFor".into(), json!(on_off(p, "XForwardedFor", "on")?));
    config.insert("Gzip".into(), json!(on_off(p, "Gzip", "on")?));
    config.insert("IdleTimeout".into(), json!(p.int_in("IdleTimeout", 1..=60, 15)?));
    config.insert("RequestTimeout".into(), json!(p.int_in("RequestTimeout", 1..=180, 60)?));
    Ok(config)
}

fn create_listener(ctx: &mut OpCtx<'_>, p: &Params, protocol: &str) -> Result<Value, ApiError> {
    let lb = find_load_balancer(ctx, p)?;
    let port = required_int(p, "ListenerPort", 1..=65535)?;
    let backend_port = required_int(p, "BackendServerPort", 1..=65535)?;
    let bandwidth = p
        .required("Bandwidth")
        .and_then(|_| p.int_in("Bandwidth", -1..=5120, -1))?;
    if bandwidth == 0 {
        return Err(ApiError::invalid_parameter(
            "Bandwidth",
            "use -1 for no limit or 1 to 5120 Mbit/s",
        ));
    }
    let scheduler = p.one_of("Scheduler", SCHEDULERS)?.unwrap_or("wrr");
    let description = p.get("Description").unwrap_or("");
    if description.chars().count() > 80 {
        return Err(ApiError::invalid_parameter("Description", "at most 80 characters"));
    }
    let config = match protocol {
        "tcp" => tcp_config(p)?,
        "udp" => udp_config(p)?,
        _ => http_config(p)?,
    };
    let taken = ctx
        .children(LISTENER, &lb.id)
        .into_iter()
        .any(|l| l.attr_i64("ListenerPort") == Some(port) && same_port_space(l.attr_str("ListenerProtocol"), protocol));
    if taken {
        return Err(ApiError::already_exists(
            "ListenerAlreadyExists",
            format!(
                "The specified listener port {port} already exists on load balancer {}.",
                lb.id
            ),
        ));
    }
    let id = listener_id(&lb.id, protocol, port);
    let mut listener = Resource::new(LISTENER, id, &lb.region, description, "stopped", ctx.now_ms)
        .with("ListenerPort", port)
        .with("ListenerProtocol", protocol)
        .with("BackendServerPort", backend_port)
        .with("Bandwidth", bandwidth)
        .with("Scheduler", scheduler)
        .with("Description", description)
        .with("Config", Value::Object(config));
    listener.parent = Some(lb.id.clone());
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.put(listener);
    Ok(json!({}))
}

fn create_tcp_listener(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    create_listener(ctx, p, "tcp")
}

fn create_udp_listener(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    create_listener(ctx, p, "udp")
}

fn create_http_listener(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    create_listener(ctx, p, "http")
}

/// The listener a request names by `ListenerPort` (and `ListenerProtocol` where TCP and UDP share a port).
fn find_listener(ctx: &OpCtx<'_>, lb: &Resource, p: &Params) -> Result<Resource, ApiError> {
    let port_text = p.required("ListenerPort")?;
    let port = p.int_in("ListenerPort", 1..=65535, 1)?;
    let protocol = p.one_of("ListenerProtocol", &["tcp", "udp", "http", "https"])?;
    let mut matches: Vec<Resource> = ctx
        .children(LISTENER, &lb.id)
        .into_iter()
        .filter(|l| l.attr_i64("ListenerPort") == Some(port))
        .filter(|l| protocol.is_none_or(|proto| l.attr_str("ListenerProtocol") == proto))
        .collect();
    match matches.len() {
        0 => Err(ApiError::not_found("ListenerPort", port_text)),
        1 => Ok(matches.remove(0)),
        _ => Err(ApiError::invalid_parameter(
            "ListenerProtocol",
            format!("port {port} has both a TCP and a UDP listener; say which one"),
        )),
    }
}

fn start_listener(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let lb = find_load_balancer(ctx, p)?;
    let mut listener = find_listener(ctx, &lb, p)?;
    match listener.status.as_str() {
        "running" | "starting" => {}
        "stopped" => ctx.begin_transition(&mut listener, "starting", "running"),
        _ => {
            return Err(ApiError::incorrect_status(
                "OperationFailed.ListenerStatusNotSupport",
                "The current status of the listener does not support this operation.",
            ));
        }
    }
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.put(listener);
    Ok(json!({}))
}

fn stop_listener(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let lb = find_load_balancer(ctx, p)?;
    let mut listener = find_listener(ctx, &lb, p)?;
    match listener.status.as_str() {
        "stopped" | "stopping" => {}
        "running" => ctx.begin_transition(&mut listener, "stopping", "stopped"),
        _ => {
            return Err(ApiError::incorrect_status(
                "OperationFailed.ListenerStatusNotSupport",
                "The current status of the listener does not support this operation.",
            ));
        }
    }
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.put(listener);
    Ok(json!({}))
}

fn listener_json(listener: &Resource) -> Value {
    let protocol = listener.attr_str("ListenerProtocol");
    let config = listener.attrs.get("Config").cloned().unwrap_or_else(|| json!({}));
    let mut body = json!({
        "LoadBalancerId": listener.parent,
        "ListenerPort": listener.attr_i64("ListenerPort"),
        "ListenerProtocol": protocol,
        "Status": listener.status,
        "BackendServerPort": listener.attr_i64("BackendServerPort"),
        "Bandwidth": listener.attr_i64("Bandwidth"),
        "Scheduler": listener.attr_str("Scheduler"),
        "Description": listener.attr_str("Description"),
        "AclStatus": "off",
        "VServerGroupId": "",
    });
    body[format!("{}ListenerConfig", protocol.to_ascii_uppercase())] = config;
    body
}

fn describe_listeners(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let lb_ids = p.list("LoadBalancerId")?;
    let protocol = p.one_of("ListenerProtocol", &["tcp", "udp", "http", "https"])?;
    let port = p.int("ListenerPort")?;
    let max_results = p.int_in("MaxResults", 1..=100, 20)?;
    let start = match p.get("NextToken") {
        None => 0,
        Some(token) => token
            .parse::<usize>()
            .map_err(|_| ApiError::invalid_parameter("NextToken", "not a token this API returned"))?,
    };
    for id in &lb_ids {
        ctx.find(LOAD_BALANCER, id, "LoadBalancerId")?;
    }
    let listeners: Vec<Resource> = ctx
        .list(LISTENER)
        .into_iter()
        .filter(|l| lb_ids.is_empty() || l.parent.as_ref().is_some_and(|parent| lb_ids.contains(parent)))
        .filter(|l| protocol.is_none_or(|proto| l.attr_str("ListenerProtocol") == proto))
        .filter(|l| port.is_none_or(|port| l.attr_i64("ListenerPort") == Some(port)))
        .collect();
    let total = listeners.len();
    let page: Vec<Value> = listeners
        .iter()
        .skip(start)
        .take(max_results as usize)
        .map(listener_json)
        .collect();
    let next = start + page.len();
    let next_token = if next < total { next.to_string() } else { String::new() };
    Ok(json!({ "Listeners": page, "TotalCount": total, "MaxResults": max_results, "NextToken": next_token }))
}

fn delete_listener(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let lb = find_load_balancer(ctx, p)?;
    let listener = find_listener(ctx, &lb, p)?;
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.delete(&listener.id);
    Ok(json!({}))
}

// ---- backend servers -------------------------------------------------------------------------

/// One backend server of a load balancer's default server group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Backend {
    server_id: String,
    weight: i64,
    kind: String,
    description: String,
}

fn backends(lb: &Resource) -> Result<Vec<Backend>, ApiError> {
    match lb.attrs.get("BackendServers") {
        None => Ok(Vec::new()),
        Some(v) => {
            serde_json::from_value(v.clone()).map_err(|e| ApiError::internal(format!("corrupt backend list: {e}")))
        }
    }
}

fn set_backends(lb: &mut Resource, list: &[Backend]) -> Result<(), ApiError> {
    let value = serde_json::to_value(list).map_err(|e| ApiError::internal(e.to_string()))?;
    lb.set("BackendServers", value);
    Ok(())
}

/// The `BackendServers` JSON array: objects with `ServerId`, `Weight` (0–100, default 100), `Type`
/// (`ecs`) and `Description`; plain id strings are accepted where only ids matter.
fn parse_backend_servers(p: &Params) -> Result<Vec<Backend>, ApiError> {
    const PARAM: &str = "BackendServers";
    let raw = p.required(PARAM)?;
    let items: Vec<Value> = serde_json::from_str(raw)
        .map_err(|e| ApiError::invalid_parameter(PARAM, format!("not a JSON array of servers: {e}")))?;
    let mut out: Vec<Backend> = Vec::new();
    for item in items {
        let field = |name: &str| -> Option<String> {
            match item.get(name)? {
                Value::String(s) => Some(s.clone()),
                Value::Number(n) => Some(n.to_string()),
                _ => None,
            }
        };
        let server_id = match &item {
            Value::String(id) => id.clone(),
            _ => {
                field("ServerId").ok_or_else(|| ApiError::invalid_parameter(PARAM, "every server needs a ServerId"))?
            }
        };
        let weight = match field("Weight") {
            None => 100,
            Some(w) => w.parse::<i64>().ok().filter(|w| (0..=100).contains(w)).ok_or_else(|| {
                ApiError::invalid_parameter(PARAM, format!("Weight {w:?} of {server_id} is not 0 to 100"))
            })?,
        };
        let kind = field("Type").unwrap_or_else(|| "ecs".to_owned());
        if kind != "ecs" {
            return Err(ApiError::invalid_parameter(
                PARAM,
                format!("Type {kind:?} is not supported; use ecs"),
            ));
        }
        let description = field("Description").unwrap_or_default();
        if description.chars().count() > 80 {
            return Err(ApiError::invalid_parameter(
                PARAM,
                "a Description is at most 80 characters",
            ));
        }
        // Repeats of one server in a request: only the first counts.
        if !out.iter().any(|b| b.server_id == server_id) {
            out.push(Backend {
                server_id,
                weight,
                kind,
                description,
            });
        }
    }
    if out.is_empty() {
        return Err(ApiError::missing_parameter(PARAM));
    }
    if out.len() > MAX_BACKENDS_PER_CALL {
        return Err(ApiError::invalid_parameter(
            PARAM,
            format!("at most {MAX_BACKENDS_PER_CALL} servers per request"),
        ));
    }
    Ok(out)
}

/// The primary private address of an ECS instance (a string, or the first of a list).
fn ecs_private_ip(ecs: &Resource) -> String {
    match ecs.attrs.get("PrivateIpAddress") {
        Some(Value::String(ip)) => ip.clone(),
        Some(Value::Array(ips)) => ips.first().and_then(Value::as_str).unwrap_or("").to_owned(),
        _ => String::new(),
    }
}

fn backends_json(list: &[Backend]) -> Value {
    let servers: Vec<Value> = list
        .iter()
        .map(|b| {
            json!({
                "ServerId": b.server_id,
                "Weight": b.weight.to_string(),
                "Type": b.kind,
                "Description": b.description,
            })
        })
        .collect();
    json!({ "BackendServer": servers })
}

fn add_backend_servers(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut lb = find_load_balancer(ctx, p)?;
    let requested = parse_backend_servers(p)?;
    let mut current = backends(&lb)?;
    for backend in &requested {
        let ecs = ctx
            .get(&backend.server_id)
            .filter(|r| r.kind == ECS_INSTANCE && r.region == lb.region)
            .ok_or_else(|| ApiError::not_found("BackendServers", &backend.server_id))?;
        if ecs.status != "Running" {
            return Err(ApiError::incorrect_status(
                "IncorrectInstanceStatus",
                format!(
                    "ECS instance {} is {}; only running instances can be added as backend servers.",
                    ecs.id, ecs.status
                ),
            ));
        }
        let lb_vpc = lb.attr_str("VpcId");
        let ecs_vpc = ecs.attr_str("VpcId");
        if !lb_vpc.is_empty() && !ecs_vpc.is_empty() && lb_vpc != ecs_vpc {
            return Err(ApiError::invalid_parameter(
                "BackendServers",
                format!(
                    "ECS instance {} is in VPC {ecs_vpc}, not in the load balancer's VPC {lb_vpc}",
                    ecs.id
                ),
            ));
        }
        if current.iter().any(|b| b.server_id == backend.server_id) {
            return Err(ApiError::invalid_parameter(
                "BackendServers",
                format!("{} is already a backend server of {}", backend.server_id, lb.id),
            ));
        }
        current.push(backend.clone());
        ctx.reference(ECS_INSTANCE_TYPE, &ecs.id);
    }
    set_backends(&mut lb, &current)?;
    let response = json!({ "LoadBalancerId": lb.id, "BackendServers": backends_json(&current) });
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.put(lb);
    Ok(response)
}

fn remove_backend_servers(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut lb = find_load_balancer(ctx, p)?;
    let requested = parse_backend_servers(p)?;
    let mut current = backends(&lb)?;
    for backend in &requested {
        let Some(position) = current.iter().position(|b| b.server_id == backend.server_id) else {
            return Err(ApiError::invalid_parameter(
                "BackendServers",
                format!("{} is not a backend server of {}", backend.server_id, lb.id),
            ));
        };
        current.remove(position);
        ctx.reference(ECS_INSTANCE_TYPE, &backend.server_id);
    }
    set_backends(&mut lb, &current)?;
    let response = json!({ "LoadBalancerId": lb.id, "BackendServers": backends_json(&current) });
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.put(lb);
    Ok(response)
}

/// Health as CLB reports it: `unavailable` while the listener is not running or has health checks off,
/// otherwise `normal` for a running ECS instance and `abnormal` for anything else (stopped, released).
fn server_health(ctx: &OpCtx<'_>, listener: &Resource, server_id: &str) -> &'static str {
    let checks_on = listener
        .attrs
        .get("Config")
        .and_then(|c| c.get("HealthCheck"))
        .and_then(Value::as_str)
        == Some("on");
    if listener.status != "running" || !checks_on {
        return "unavailable";
    }
    match ctx.get(server_id) {
        Some(ecs) if ecs.kind == ECS_INSTANCE && ecs.status == "Running" => "normal",
        _ => "abnormal",
    }
}

fn describe_health_status(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let lb = find_load_balancer(ctx, p)?;
    let listeners = if p.get("ListenerPort").is_some() {
        vec![find_listener(ctx, &lb, p)?]
    } else {
        let protocol = p.one_of("ListenerProtocol", &["tcp", "udp", "http", "https"])?;
        ctx.children(LISTENER, &lb.id)
            .into_iter()
            .filter(|l| protocol.is_none_or(|proto| l.attr_str("ListenerProtocol") == proto))
            .collect()
    };
    let servers = backends(&lb)?;
    let mut items = Vec::new();
    for listener in &listeners {
        for backend in &servers {
            let ip = ctx
                .get(&backend.server_id)
                .map(|ecs| ecs_private_ip(&ecs))
                .unwrap_or_default();
            items.push(json!({
                "ServerId": backend.server_id,
                "ServerIp": ip,
                "Port": listener.attr_i64("BackendServerPort"),
                "ListenerPort": listener.attr_i64("ListenerPort"),
                "Protocol": listener.attr_str("ListenerProtocol"),
                "ServerHealthStatus": server_health(ctx, listener, &backend.server_id),
            }));
        }
    }
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    Ok(json!({ "BackendServers": { "BackendServer": items } }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::products::rds::harness::Harness;

    fn create_intranet(h: &Harness) -> String {
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
    fn ecs_instance(h: &Harness, id: &str, status: &str) {
        let ecs = Resource::new(ECS_INSTANCE, id.to_owned(), "cn-hangzhou", "web-1", status, 0)
            .with("PrivateIpAddress", "192.168.1.20");
        h.insert(ecs);
    }

    fn tcp_listener(h: &Harness, lb: &str, port: &str) -> Result<Value, ApiError> {
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
        let h = Harness::new();
        let body = h.ok(
            &PRODUCT,
            "CreateLoadBalancer",
            &[("LoadBalancerName", "public-lb"), ("AddressType", "internet")],
        );
        let public_id = body["LoadBalancerId"].as_str().unwrap().to_owned();
        assert!(public_id.starts_with("lb-bp1"), "{public_id}");
        assert!(body["Address"].as_str().unwrap().starts_with("47."));
        assert_eq!(body["NetworkType"], "classic");
        let event = h.last_event();
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
        let h = Harness::new();
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
        let h = Harness::with_delay(1_000);
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
        let status = |h: &Harness| {
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
        let h = Harness::new();
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
        let h = Harness::new();
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
            h.last_event().referenced_resources["ACS::ECS::Instance"],
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
        let health = |h: &Harness| {
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
    fn accounts_are_isolated() {
        let h = Harness::new();
        let lb = create_intranet(&h);
        let other = h.other_account();
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
        shared.lock().resources.insert(
            "i-bp1foreign00000001".into(),
            Resource::new(
                ECS_INSTANCE,
                "i-bp1foreign00000001".into(),
                "cn-hangzhou",
                "x",
                "Running",
                0,
            ),
        );
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
}
