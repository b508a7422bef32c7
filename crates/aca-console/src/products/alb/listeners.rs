//! ALB listeners: HTTP, HTTPS and QUIC ports of an instance, each forwarding by default to server
//! groups (`DefaultActions.N.Type = ForwardGroup`).

use super::*;

/// The server groups a listener's default actions forward to.
pub(super) fn forwards_to(listener: &Resource) -> Vec<String> {
    listener
        .attrs
        .get("ServerGroupIds")
        .and_then(Value::as_array)
        .map(|ids| ids.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

/// Listener descriptions: 2 to 256 characters of letters, digits, hyphens, forward slashes, periods
/// and underscores.
fn check_description(text: &str) -> Result<(), ApiError> {
    let len = text.chars().count();
    let chars_ok = text
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '-' | '/' | '.' | '_'));
    if (2..=256).contains(&len) && chars_ok {
        Ok(())
    } else {
        Err(ApiError::invalid_parameter(
            "ListenerDescription",
            "the description must be 2 to 256 characters long and contain only letters, digits, hyphens (-), \
             forward slashes (/), periods (.) and underscores (_)",
        ))
    }
}

/// `DefaultActions.N`: one `ForwardGroup` action whose `ForwardGroupConfig.ServerGroupTuples.N`
/// name server groups of the instance's VPC that the listener's protocol can reach.
fn default_actions(
    ctx: &OpCtx<'_>,
    p: &Params,
    lb: &Resource,
    protocol: &str,
) -> Result<(Value, Vec<String>), ApiError> {
    let actions = p.object_list("DefaultActions");
    if actions.is_empty() {
        return Err(ApiError::missing_parameter("DefaultActions"));
    }
    let mut shown = Vec::new();
    let mut groups: Vec<String> = Vec::new();
    for (i, action) in actions.iter().enumerate() {
        let n = i + 1;
        let action = Params::new(action.clone());
        let kind = action
            .one_of("Type", &["ForwardGroup"])
            .map_err(|_| {
                ApiError::invalid_parameter(
                    &format!("DefaultActions.{n}.Type"),
                    "the default action must be ForwardGroup",
                )
            })?
            .ok_or_else(|| ApiError::missing_parameter(&format!("DefaultActions.{n}.Type")))?;
        let tuples = action.object_list("ForwardGroupConfig.ServerGroupTuples");
        if tuples.is_empty() {
            return Err(ApiError::missing_parameter(&format!(
                "DefaultActions.{n}.ForwardGroupConfig.ServerGroupTuples"
            )));
        }
        let mut shown_tuples = Vec::new();
        for (j, tuple) in tuples.iter().enumerate() {
            let param = format!(
                "DefaultActions.{n}.ForwardGroupConfig.ServerGroupTuples.{}.ServerGroupId",
                j + 1
            );
            let id = tuple
                .get("ServerGroupId")
                .ok_or_else(|| ApiError::missing_parameter(&param))?;
            let group = find(ctx, SERVER_GROUP, id, "ServerGroup")?;
            let group_vpc = group.attr_str("VpcId");
            if !group_vpc.is_empty() && group_vpc != lb.attr_str("VpcId") {
                return Err(ApiError::invalid_parameter(
                    &param,
                    format!(
                        "the server group {id} is in {group_vpc}, not in the instance's VPC {}",
                        lb.attr_str("VpcId")
                    ),
                ));
            }
            // HTTPS backends serve HTTPS listeners only.
            if group.attr_str("Protocol") == "HTTPS" && protocol != "HTTPS" {
                return Err(ApiError::invalid_parameter(
                    &param,
                    format!("the server group {id} uses HTTPS, which only HTTPS listeners can forward to"),
                ));
            }
            shown_tuples.push(json!({ "ServerGroupId": group.id }));
            groups.push(group.id);
        }
        shown.push(json!({
            "Type": kind,
            "ForwardGroupConfig": { "ServerGroupTuples": shown_tuples },
        }));
    }
    Ok((Value::Array(shown), groups))
}

pub(super) fn create_listener(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let lb_id = p.required("LoadBalancerId")?;
    let lb = find(ctx, LOAD_BALANCER, lb_id, "LoadBalancer")?;
    let protocol = p
        .one_of("ListenerProtocol", &["HTTP", "HTTPS", "QUIC"])?
        .ok_or_else(|| ApiError::missing_parameter("ListenerProtocol"))?;
    p.required("ListenerPort")?;
    let port = p.int_in("ListenerPort", 1..=65535, 80)?;
    let description = p.get("ListenerDescription").unwrap_or("");
    if !description.is_empty() {
        check_description(description)?;
    }
    let idle = p.int_in("IdleTimeout", 1..=600, 15)?;
    let request = p.int_in("RequestTimeout", 1..=600, 60)?;
    let gzip = p.bool("GzipEnabled")?.unwrap_or(true);
    let http2 = p.bool("Http2Enabled")?.unwrap_or(true);
    let certificates = p.object_list("Certificates");
    if protocol != "HTTP" && certificates.is_empty() {
        return Err(ApiError::missing_parameter("Certificates"));
    }
    let (actions, groups) = default_actions(ctx, p, &lb, protocol)?;
    let tags = tags_of(p)?;
    if lb.status != "Active" {
        return Err(incorrect_status("LoadBalancer", &lb));
    }
    // QUIC runs over UDP: it may share a port number with a TCP-based listener, not with another QUIC one.
    let udp = |proto: &str| proto == "QUIC";
    if let Some(taken) = ctx
        .children(LISTENER, &lb.id)
        .into_iter()
        .find(|l| l.attr_i64("ListenerPort") == Some(port) && udp(l.attr_str("ListenerProtocol")) == udp(protocol))
    {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "ResourceAlreadyExist.Listener",
            format!("The specified resource {} already exists on port {port}.", taken.id),
        ));
    }
    dry_run(p)?;

    let id = ctx.new_id("lsn");
    let mut listener = Resource::new(
        LISTENER,
        id.clone(),
        &ctx.region.clone(),
        description,
        "Running",
        ctx.now_ms,
    )
    .with("LoadBalancerId", lb.id.clone())
    .with("ListenerProtocol", protocol)
    .with("ListenerPort", port)
    .with("IdleTimeout", idle)
    .with("RequestTimeout", request)
    .with("GzipEnabled", gzip)
    .with("Http2Enabled", http2)
    .with("DefaultActions", actions)
    .with("ServerGroupIds", json!(groups))
    .with("Tags", tags);
    listener.parent = Some(lb.id.clone());
    ctx.begin_transition(&mut listener, "Provisioning", "Running");
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.reference(LISTENER_TYPE, &id);
    for group in &groups {
        ctx.reference(SERVER_GROUP_TYPE, group);
    }
    ctx.put(listener);
    Ok(json!({ "ListenerId": id, "JobId": job_id() }))
}

fn listener_json(l: &Resource) -> Value {
    json!({
        "ListenerId": l.id,
        "LoadBalancerId": l.attr_str("LoadBalancerId"),
        "ListenerProtocol": l.attr_str("ListenerProtocol"),
        "ListenerPort": l.attr_i64("ListenerPort"),
        "ListenerDescription": l.name,
        "ListenerStatus": l.status,
        "IdleTimeout": l.attr_i64("IdleTimeout"),
        "RequestTimeout": l.attr_i64("RequestTimeout"),
        "GzipEnabled": l.attrs.get("GzipEnabled").cloned().unwrap_or(json!(true)),
        "Http2Enabled": l.attrs.get("Http2Enabled").cloned().unwrap_or(json!(true)),
        "DefaultActions": l.attrs.get("DefaultActions").cloned().unwrap_or_else(|| json!([])),
        "Tags": l.attrs.get("Tags").cloned().unwrap_or_else(|| json!([])),
    })
}

pub(super) fn list_listeners(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    crate::products::regions::region(&ctx.region)?;
    let lbs = p.list("LoadBalancerIds")?;
    let ids = p.list("ListenerIds")?;
    let protocol = p.one_of("ListenerProtocol", &["HTTP", "HTTPS", "QUIC"])?;
    let items: Vec<Value> = ctx
        .list(LISTENER)
        .iter()
        .filter(|l| {
            (lbs.is_empty() || lbs.iter().any(|lb| lb == l.attr_str("LoadBalancerId")))
                && (ids.is_empty() || ids.contains(&l.id))
                && protocol.is_none_or(|proto| l.attr_str("ListenerProtocol") == proto)
        })
        .map(listener_json)
        .collect();
    let (page, max, next, total) = token_page(items, p)?;
    Ok(json!({
        "Listeners": page,
        "TotalCount": total,
        "MaxResults": max,
        "NextToken": next,
    }))
}

pub(super) fn delete_listener(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("ListenerId")?;
    let listener = find(ctx, LISTENER, id, "Listener")?;
    dry_run(p)?;
    ctx.reference(LISTENER_TYPE, &listener.id);
    ctx.reference(LOAD_BALANCER_TYPE, listener.attr_str("LoadBalancerId"));
    ctx.delete(&listener.id);
    Ok(json!({ "JobId": job_id() }))
}
