//! ALB server groups: the backends a listener forwards to, of ECS instances (`Instance`), IP
//! addresses (`Ip`) or functions (`Fc`), with their health check settings.

use super::*;
use crate::products::vpc::VPC;

const TYPES: &[&str] = &["Instance", "Ip", "Fc"];
const PROTOCOLS: &[&str] = &["HTTP", "HTTPS", "gRPC"];
const SCHEDULERS: &[&str] = &["Wrr", "Wlc", "Sch"];

/// `HealthCheckConfig.*`, checked and completed with ALB's defaults.
fn health_check(p: &Params, backend_protocol: &str) -> Result<Value, ApiError> {
    let enabled = p
        .bool("HealthCheckConfig.HealthCheckEnabled")?
        .ok_or_else(|| ApiError::missing_parameter("HealthCheckConfig.HealthCheckEnabled"))?;
    let protocol = p
        .one_of(
            "HealthCheckConfig.HealthCheckProtocol",
            &["HTTP", "HTTPS", "TCP", "gRPC"],
        )?
        .unwrap_or(if backend_protocol == "gRPC" { "gRPC" } else { "HTTP" });
    let path = p.get("HealthCheckConfig.HealthCheckPath").unwrap_or("/");
    if !path.starts_with('/') || path.len() > 80 {
        return Err(ApiError::invalid_parameter(
            "HealthCheckConfig.HealthCheckPath",
            "the path must start with a forward slash (/) and be 1 to 80 characters long",
        ));
    }
    let mut codes = p.list("HealthCheckConfig.HealthCheckCodes")?;
    if codes.is_empty() {
        codes = vec!["http_2xx".into(), "http_3xx".into()];
    }
    Ok(json!({
        "HealthCheckEnabled": enabled,
        "HealthCheckProtocol": protocol,
        "HealthCheckPath": path,
        "HealthCheckMethod": p.one_of("HealthCheckConfig.HealthCheckMethod", &["GET", "HEAD", "POST"])?.unwrap_or("HEAD"),
        "HealthCheckConnectPort": p.int_in("HealthCheckConfig.HealthCheckConnectPort", 0..=65535, 0)?,
        "HealthCheckInterval": p.int_in("HealthCheckConfig.HealthCheckInterval", 1..=50, 2)?,
        "HealthCheckTimeout": p.int_in("HealthCheckConfig.HealthCheckTimeout", 1..=300, 5)?,
        "HealthyThreshold": p.int_in("HealthCheckConfig.HealthyThreshold", 2..=10, 3)?,
        "UnhealthyThreshold": p.int_in("HealthCheckConfig.UnhealthyThreshold", 2..=10, 3)?,
        "HealthCheckCodes": codes,
    }))
}

pub(super) fn create_server_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    crate::products::regions::region(&ctx.region)?;
    let name = p.required("ServerGroupName")?;
    check_name("ServerGroupName", name)?;
    let kind = p.one_of("ServerGroupType", TYPES)?.unwrap_or("Instance");
    let protocol = p.one_of("Protocol", PROTOCOLS)?.unwrap_or("HTTP");
    let scheduler = p.one_of("Scheduler", SCHEDULERS)?.unwrap_or("Wrr");
    // Function Compute backends live outside any VPC; the other types take the VPC's servers.
    let vpc_id = match (kind, p.get("VpcId")) {
        ("Fc", _) => String::new(),
        (_, None) => return Err(ApiError::missing_parameter("VpcId")),
        (_, Some(id)) => {
            ctx.get(id)
                .filter(|v| v.kind == VPC && v.region == ctx.region)
                .ok_or_else(|| not_found("Vpc", id))?
                .id
        }
    };
    let health = health_check(p, protocol)?;
    let sticky = p.bool("StickySessionConfig.StickySessionEnabled")?.unwrap_or(false);
    let tags = tags_of(p)?;
    dry_run(p)?;

    let id = ctx.new_id("sgp");
    let mut group = Resource::new(
        SERVER_GROUP,
        id.clone(),
        &ctx.region.clone(),
        name,
        "Available",
        ctx.now_ms,
    )
    .with("ServerGroupType", kind)
    .with("Protocol", protocol)
    .with("Scheduler", scheduler)
    .with("VpcId", vpc_id)
    .with("HealthCheckConfig", health)
    .with("StickySessionEnabled", sticky)
    .with("ResourceGroupId", p.get("ResourceGroupId").unwrap_or("rg-default"))
    .with("Tags", tags);
    ctx.begin_transition(&mut group, "Creating", "Available");
    ctx.reference(SERVER_GROUP_TYPE, &id);
    ctx.put(group);
    Ok(json!({ "ServerGroupId": id, "JobId": job_id() }))
}

/// The listeners forwarding to a server group.
fn users(ctx: &OpCtx<'_>, group_id: &str) -> Vec<Resource> {
    ctx.list_all(LISTENER)
        .into_iter()
        .filter(|l| forwards_to(l).iter().any(|g| g == group_id))
        .collect()
}

fn server_group_json(ctx: &OpCtx<'_>, group: &Resource) -> Value {
    let mut related: Vec<String> = users(ctx, &group.id).iter().filter_map(|l| l.parent.clone()).collect();
    related.sort();
    related.dedup();
    json!({
        "ServerGroupId": group.id,
        "ServerGroupName": group.name,
        "ServerGroupStatus": group.status,
        "ServerGroupType": group.attr_str("ServerGroupType"),
        "Protocol": group.attr_str("Protocol"),
        "Scheduler": group.attr_str("Scheduler"),
        "VpcId": group.attr_str("VpcId"),
        "HealthCheckConfig": group.attrs.get("HealthCheckConfig").cloned().unwrap_or_else(|| json!({})),
        "StickySessionConfig": { "StickySessionEnabled": group.attrs.get("StickySessionEnabled").cloned().unwrap_or(json!(false)) },
        "RelatedLoadBalancerIds": related,
        "ServerCount": 0,
        "ResourceGroupId": group.attr_str("ResourceGroupId"),
        "CreateTime": created(group),
        "Tags": group.attrs.get("Tags").cloned().unwrap_or_else(|| json!([])),
    })
}

pub(super) fn list_server_groups(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    crate::products::regions::region(&ctx.region)?;
    let ids = p.list("ServerGroupIds")?;
    let names = p.list("ServerGroupNames")?;
    let vpc = p.get("VpcId");
    let kind = p.get("ServerGroupType");
    let group = p.get("ResourceGroupId");
    let items: Vec<Value> = ctx
        .list(SERVER_GROUP)
        .iter()
        .filter(|g| {
            (ids.is_empty() || ids.contains(&g.id))
                && (names.is_empty() || names.contains(&g.name))
                && vpc.is_none_or(|v| g.attr_str("VpcId") == v)
                && kind.is_none_or(|k| g.attr_str("ServerGroupType") == k)
                && group.is_none_or(|r| g.attr_str("ResourceGroupId") == r)
        })
        .map(|g| server_group_json(ctx, g))
        .collect();
    let (page, max, next, total) = token_page(items, p)?;
    Ok(json!({
        "ServerGroups": page,
        "TotalCount": total,
        "MaxResults": max,
        "NextToken": next,
    }))
}

pub(super) fn delete_server_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("ServerGroupId")?;
    let group = find(ctx, SERVER_GROUP, id, "ServerGroup")?;
    if !users(ctx, &group.id).is_empty() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "ResourceInUse.ServerGroup",
            format!("The specified resource {} is in use.", group.id),
        ));
    }
    dry_run(p)?;
    ctx.reference(SERVER_GROUP_TYPE, &group.id);
    ctx.delete(&group.id);
    Ok(json!({ "JobId": job_id() }))
}
