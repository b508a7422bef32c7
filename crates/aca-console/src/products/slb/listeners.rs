//! TCP, UDP, HTTP and HTTPS listeners of a load balancer and their health checks.

use super::*;

pub(super) fn listener_id(lb_id: &str, protocol: &str, port: i64) -> String {
    format!("{lb_id}/listener/{protocol}/{port}")
}

/// TCP, HTTP and HTTPS listeners share one port space; UDP has its own.
pub(super) fn same_port_space(a: &str, b: &str) -> bool {
    (a == "udp") == (b == "udp")
}

/// The health-check settings every protocol shares, with the real defaults.
pub(super) fn health_check_common(
    p: &Params,
    config: &mut Map<String, Value>,
    timeout_param: &str,
) -> Result<(), ApiError> {
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

pub(super) fn health_check_uri(p: &Params, default: &str) -> Result<String, ApiError> {
    let uri = p.get("HealthCheckURI").unwrap_or(default);
    if !uri.is_empty() && (!uri.starts_with('/') || uri.len() > 80) {
        return Err(ApiError::invalid_parameter(
            "HealthCheckURI",
            "the path must start with / and be at most 80 characters",
        ));
    }
    Ok(uri.to_owned())
}

pub(super) fn health_check_http_code(p: &Params) -> Result<String, ApiError> {
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

/// The HTTP probe of a health check: `HealthCheckURI`, `HealthCheckDomain` and `HealthCheckHttpCode`.
fn http_health_check(p: &Params, config: &mut Map<String, Value>) -> Result<(), ApiError> {
    config.insert("HealthCheckURI".into(), json!(health_check_uri(p, "/")?));
    config.insert(
        "HealthCheckDomain".into(),
        json!(p.get("HealthCheckDomain").unwrap_or("")),
    );
    config.insert("HealthCheckHttpCode".into(), json!(health_check_http_code(p)?));
    Ok(())
}

pub(super) fn tcp_config(p: &Params) -> Result<Map<String, Value>, ApiError> {
    let mut config = Map::new();
    config.insert("HealthCheck".into(), json!(on_off(p, "HealthCheckSwitch", "on")?));
    let check_type = p.one_of("HealthCheckType", &["tcp", "http"])?.unwrap_or("tcp");
    config.insert("HealthCheckType".into(), json!(check_type));
    health_check_common(p, &mut config, "HealthCheckConnectTimeout")?;
    if check_type == "http" {
        http_health_check(p, &mut config)?;
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

pub(super) fn udp_config(p: &Params) -> Result<Map<String, Value>, ApiError> {
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

pub(super) fn http_config(p: &Params) -> Result<Map<String, Value>, ApiError> {
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
        http_health_check(p, &mut config)?;
        config.insert(
            "HealthCheckMethod".into(),
            json!(p.one_of("HealthCheckMethod", &["head", "get"])?.unwrap_or("head")),
        );
        health_check_common(p, &mut config, "HealthCheckTimeout")?;
    }
    // Redirection to an HTTPS listener, which must exist on the port it names.
    let forward = on_off(p, "ListenerForward", "off")?;
    if forward == "on" {
        config.insert("ForwardPort".into(), json!(required_int(p, "ForwardPort", 1..=65535)?));
    }
    config.insert("ListenerForward".into(), json!(forward));
    config.insert("XForwardedFor".into(), json!(on_off(p, "XForwardedFor", "on")?));
    config.insert("Gzip".into(), json!(on_off(p, "Gzip", "on")?));
    config.insert("IdleTimeout".into(), json!(p.int_in("IdleTimeout", 1..=60, 15)?));
    config.insert("RequestTimeout".into(), json!(p.int_in("RequestTimeout", 1..=180, 60)?));
    Ok(config)
}

pub(super) fn create_listener(ctx: &mut OpCtx<'_>, p: &Params, protocol: &str) -> Result<Value, ApiError> {
    let lb = find_load_balancer(ctx, p)?;
    let port = required_int(p, "ListenerPort", 1..=65535)?;
    // A listener forwards to a vServer group of its load balancer, on the group's own ports, or
    // to the default server group on BackendServerPort, then required.
    let vserver_group = match p.get("VServerGroupId").filter(|id| !id.is_empty()) {
        Some(id) => {
            let group = ctx.find(VSERVER_GROUP, id, "VServerGroupId")?;
            if group.parent.as_deref() != Some(lb.id.as_str()) {
                return Err(ApiError::invalid_parameter(
                    "VServerGroupId",
                    format!("vServer group {id} belongs to another load balancer"),
                ));
            }
            Some(group.id)
        }
        None => None,
    };
    let backend_port = match vserver_group {
        Some(_) if p.get("BackendServerPort").is_none() => 0,
        _ => required_int(p, "BackendServerPort", 1..=65535)?,
    };
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
    if description.chars().count() > 256 {
        return Err(ApiError::invalid_parameter("Description", "at most 256 characters"));
    }
    let tags = crate::products::tags::tags(p)?;
    let config = match protocol {
        "tcp" => tcp_config(p)?,
        "udp" => udp_config(p)?,
        _ => http_config(p)?,
    };
    // An HTTPS listener terminates TLS with a server certificate of the listener's region.
    let certificate = if protocol == "https" {
        Some(find_certificate(ctx, p)?.id)
    } else {
        None
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
        .with("Tags", tags)
        .with("Config", Value::Object(config));
    if let Some(certificate) = certificate {
        listener.set("ServerCertificateId", certificate);
    }
    if let Some(group) = vserver_group {
        listener.set("VServerGroupId", group);
    }
    listener.parent = Some(lb.id.clone());
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.put(listener);
    Ok(json!({}))
}

pub(super) fn create_tcp_listener(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    create_listener(ctx, p, "tcp")
}

pub(super) fn create_udp_listener(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    create_listener(ctx, p, "udp")
}

pub(super) fn create_http_listener(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    create_listener(ctx, p, "http")
}

pub(super) fn create_https_listener(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    create_listener(ctx, p, "https")
}

/// The listener a request names by `ListenerPort` (and `ListenerProtocol` where TCP and UDP share a port).
pub(super) fn find_listener(ctx: &OpCtx<'_>, lb: &Resource, p: &Params) -> Result<Resource, ApiError> {
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

pub(super) fn start_listener(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    switch_listener(ctx, p, "stopped", "starting", "running")
}

pub(super) fn stop_listener(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    switch_listener(ctx, p, "running", "stopping", "stopped")
}

/// Moves a listener from `from` through `via` to `to`; one already there or on its way is left alone.
fn switch_listener(ctx: &mut OpCtx<'_>, p: &Params, from: &str, via: &str, to: &str) -> Result<Value, ApiError> {
    let lb = find_load_balancer(ctx, p)?;
    let mut listener = find_listener(ctx, &lb, p)?;
    let status = listener.status.as_str();
    if status == from {
        ctx.begin_transition(&mut listener, via, to);
    } else if status != to && status != via {
        return Err(ApiError::incorrect_status(
            "OperationFailed.ListenerStatusNotSupport",
            "The current status of the listener does not support this operation.",
        ));
    }
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.put(listener);
    Ok(json!({}))
}

pub(super) fn listener_json(listener: &Resource) -> Value {
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
        "VServerGroupId": listener.attr_str("VServerGroupId"),
        "Tags": listener.attrs.get("Tags").cloned().unwrap_or_else(|| json!([])),
    });
    body[format!("{}ListenerConfig", protocol.to_ascii_uppercase())] = config;
    if protocol == "https" {
        body["HTTPSListenerConfig"]["ServerCertificateId"] = json!(listener.attr_str("ServerCertificateId"));
    }
    body
}

pub(super) fn describe_listeners(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

pub(super) fn delete_listener(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let lb = find_load_balancer(ctx, p)?;
    let listener = find_listener(ctx, &lb, p)?;
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.delete(&listener.id);
    Ok(json!({}))
}
