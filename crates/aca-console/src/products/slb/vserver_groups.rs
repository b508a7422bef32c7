//! vServer groups of a load balancer: named groups of backend servers, each on a port of its own,
//! that listeners can forward to instead of the default server group.

use super::*;

/// `VServerGroupName`: 1–80 characters of letters, digits, hyphens, forward slashes, periods and
/// underscores.
fn check_group_name(name: &str) -> Result<(), ApiError> {
    let ok = (1..=80).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '/' | '.' | '_'));
    if ok {
        Ok(())
    } else {
        Err(ApiError::invalid_parameter(
            "VServerGroupName",
            "the name must be 1 to 80 characters and contain only letters, digits, hyphens (-), \
             forward slashes (/), periods (.) and underscores (_)",
        ))
    }
}

fn find_group(ctx: &OpCtx<'_>, p: &Params) -> Result<(Resource, Resource), ApiError> {
    let group = ctx.find(VSERVER_GROUP, p.required("VServerGroupId")?, "VServerGroupId")?;
    let lb_id = group.parent.clone().unwrap_or_default();
    let lb = ctx.find(LOAD_BALANCER, &lb_id, "LoadBalancerId")?;
    Ok((group, lb))
}

/// The servers of `requested` that can join `lb`'s group, added to `current`; a server already in
/// the group on the same port is an error, as the real API says.
fn add_servers(ctx: &mut OpCtx<'_>, lb: &Resource, current: &mut Vec<Backend>, requested: &[Backend]) -> Result<(), ApiError> {
    for backend in requested {
        let ecs = backend_instance(ctx, lb, backend)?;
        if current.iter().any(|b| b.server_id == backend.server_id && b.port == backend.port) {
            return Err(ApiError::invalid_parameter(
                "BackendServers",
                format!(
                    "{} is already in the vServer group on port {}",
                    backend.server_id,
                    backend.port.unwrap_or_default()
                ),
            ));
        }
        current.push(backend.clone());
        ctx.reference(ECS_INSTANCE_TYPE, &ecs.id);
    }
    Ok(())
}

fn group_response(group: &Resource, servers: &[Backend]) -> Value {
    json!({ "VServerGroupId": group.id, "BackendServers": backends_json(servers) })
}

pub(super) fn create_vserver_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let lb = find_load_balancer(ctx, p)?;
    let name = p.get("VServerGroupName").unwrap_or("");
    if !name.is_empty() {
        check_group_name(name)?;
    }
    let tags = crate::products::tags::tags(p)?;
    let mut servers = Vec::new();
    if p.get("BackendServers").is_some() {
        add_servers(ctx, &lb, &mut servers, &parse_backend_servers(p, Ports::Required)?)?;
    }
    let id = ctx.new_id("rsp");
    let mut group = Resource::new(VSERVER_GROUP, id, &lb.region, name, "Available", ctx.now_ms)
        .with("VServerGroupName", name)
        .with("Tags", tags);
    group.parent = Some(lb.id.clone());
    set_backends(&mut group, &servers)?;
    let response = group_response(&group, &servers);
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.put(group);
    Ok(response)
}

pub(super) fn describe_vserver_groups(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let lb = find_load_balancer(ctx, p)?;
    let name = p.get("Description");
    let groups: Vec<Value> = ctx
        .children(VSERVER_GROUP, &lb.id)
        .iter()
        .filter(|g| name.is_none_or(|n| g.name.contains(n)))
        .map(|g| {
            let count = backends(g).map(|b| b.len()).unwrap_or_default();
            json!({
                "VServerGroupId": g.id,
                "VServerGroupName": g.name,
                "ServerCount": count,
                "CreateTime": iso8601(g.created_ms),
                "AssociatedObjects": { "Listeners": { "Listener": [] }, "Rules": { "Rule": [] } },
                "Tags": { "Tag": g.attrs.get("Tags").cloned().unwrap_or_else(|| json!([])) },
            })
        })
        .collect();
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    Ok(json!({ "VServerGroups": { "VServerGroup": groups } }))
}

pub(super) fn describe_vserver_group_attribute(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let (group, lb) = find_group(ctx, p)?;
    let servers = described_backends(ctx, &backends(&group)?);
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    Ok(json!({
        "VServerGroupId": group.id,
        "VServerGroupName": group.name,
        "LoadBalancerId": lb.id,
        "CreateTime": iso8601(group.created_ms),
        "BackendServers": { "BackendServer": servers },
        "Tags": { "Tag": group.attrs.get("Tags").cloned().unwrap_or_else(|| json!([])) },
    }))
}

pub(super) fn add_vserver_group_backend_servers(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let (mut group, lb) = find_group(ctx, p)?;
    let requested = parse_backend_servers(p, Ports::Required)?;
    let mut current = backends(&group)?;
    add_servers(ctx, &lb, &mut current, &requested)?;
    set_backends(&mut group, &current)?;
    let response = group_response(&group, &current);
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.put(group);
    Ok(response)
}

pub(super) fn remove_vserver_group_backend_servers(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let (mut group, lb) = find_group(ctx, p)?;
    let requested = parse_backend_servers(p, Ports::Required)?;
    let mut current = backends(&group)?;
    for backend in &requested {
        let Some(position) = current
            .iter()
            .position(|b| b.server_id == backend.server_id && b.port == backend.port)
        else {
            return Err(ApiError::invalid_parameter(
                "BackendServers",
                format!("{} on port {} is not in the vServer group", backend.server_id, backend.port.unwrap_or_default()),
            ));
        };
        current.remove(position);
        ctx.reference(ECS_INSTANCE_TYPE, &backend.server_id);
    }
    set_backends(&mut group, &current)?;
    let response = group_response(&group, &current);
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.put(group);
    Ok(response)
}

pub(super) fn delete_vserver_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let (group, lb) = find_group(ctx, p)?;
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.delete(&group.id);
    Ok(json!({}))
}
