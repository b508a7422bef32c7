//! Backend ECS servers of a load balancer (its default server group and its vServer groups) and
//! their health as listeners see it.

use super::*;

/// One backend server of a load balancer's default server group, or of a vServer group (which
/// names the port each server listens on).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct Backend {
    pub(super) server_id: String,
    pub(super) weight: i64,
    pub(super) kind: String,
    pub(super) description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) port: Option<i64>,
}

pub(super) fn backends(lb: &Resource) -> Result<Vec<Backend>, ApiError> {
    match lb.attrs.get("BackendServers") {
        None => Ok(Vec::new()),
        Some(v) => {
            serde_json::from_value(v.clone()).map_err(|e| ApiError::internal(format!("corrupt backend list: {e}")))
        }
    }
}

pub(super) fn set_backends(lb: &mut Resource, list: &[Backend]) -> Result<(), ApiError> {
    let value = serde_json::to_value(list).map_err(|e| ApiError::internal(e.to_string()))?;
    lb.set("BackendServers", value);
    Ok(())
}

/// Whether the servers of a `BackendServers` list name their ports: a vServer group's do, the
/// default server group's do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ports {
    Required,
    Absent,
}

/// The `BackendServers` JSON array: objects with `ServerId`, `Weight` (0–100, default 100), `Type`
/// (`ecs`), `Description` and, for a vServer group, `Port` (1–65535); plain id strings are accepted
/// where only ids matter.
pub(super) fn parse_backend_servers(p: &Params, ports: Ports) -> Result<Vec<Backend>, ApiError> {
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
        let port = match (ports, field("Port")) {
            (Ports::Absent, _) => None,
            (Ports::Required, None) => {
                return Err(ApiError::invalid_parameter(PARAM, format!("the Port of {server_id} is required")));
            }
            (Ports::Required, Some(port)) => Some(
                port.parse::<i64>()
                    .ok()
                    .filter(|p| (1..=65535).contains(p))
                    .ok_or_else(|| ApiError::invalid_parameter(PARAM, format!("Port {port:?} of {server_id} is not 1 to 65535")))?,
            ),
        };
        let description = field("Description").unwrap_or_default();
        if description.chars().count() > 80 {
            return Err(ApiError::invalid_parameter(
                PARAM,
                "a Description is at most 80 characters",
            ));
        }
        // Repeats of one server (on one port) in a request: only the first counts.
        if !out.iter().any(|b| b.server_id == server_id && b.port == port) {
            out.push(Backend {
                server_id,
                weight,
                kind,
                description,
                port,
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
pub(super) fn ecs_private_ip(ecs: &Resource) -> String {
    match ecs.attrs.get("PrivateIpAddress") {
        Some(Value::String(ip)) => ip.clone(),
        Some(Value::Array(ips)) => ips.first().and_then(Value::as_str).unwrap_or("").to_owned(),
        _ => String::new(),
    }
}

/// The backend servers as a load balancer's or vServer group's attribute call lists them: each with
/// the private IP address of its ECS instance, and its port where it has one.
pub(super) fn described_backends(ctx: &OpCtx<'_>, list: &[Backend]) -> Vec<Value> {
    list.iter()
        .map(|b| {
            let ip = ctx.get(&b.server_id).map(|ecs| ecs_private_ip(&ecs)).unwrap_or_default();
            let mut server = json!({
                "ServerId": b.server_id,
                "Weight": b.weight,
                "Type": b.kind,
                "Description": b.description,
                "ServerIp": ip,
            });
            if let Some(port) = b.port {
                server["Port"] = json!(port);
            }
            server
        })
        .collect()
}

pub(super) fn backends_json(list: &[Backend]) -> Value {
    let servers: Vec<Value> = list
        .iter()
        .map(|b| {
            let mut server = json!({
                "ServerId": b.server_id,
                "Weight": b.weight.to_string(),
                "Type": b.kind,
                "Description": b.description,
            });
            if let Some(port) = b.port {
                server["Port"] = json!(port);
            }
            server
        })
        .collect();
    json!({ "BackendServer": servers })
}

/// The ECS instance a backend server names, if it can serve `lb`: in its region, running, and in
/// its VPC where both have one.
pub(super) fn backend_instance(ctx: &OpCtx<'_>, lb: &Resource, backend: &Backend) -> Result<Resource, ApiError> {
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
    Ok(ecs)
}

pub(super) fn add_backend_servers(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut lb = find_load_balancer(ctx, p)?;
    let requested = parse_backend_servers(p, Ports::Absent)?;
    let mut current = backends(&lb)?;
    for backend in &requested {
        let ecs = backend_instance(ctx, &lb, backend)?;
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

pub(super) fn remove_backend_servers(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut lb = find_load_balancer(ctx, p)?;
    let requested = parse_backend_servers(p, Ports::Absent)?;
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
pub(super) fn server_health(ctx: &OpCtx<'_>, listener: &Resource, server_id: &str) -> &'static str {
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

pub(super) fn describe_health_status(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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
