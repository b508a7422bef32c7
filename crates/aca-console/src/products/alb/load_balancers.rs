//! ALB instances: creation across at least two zones of a VPC, lists, attributes and deletion.

use rand::Rng;

use super::*;
use crate::products::provisioning::{order_id, place_in_vswitch};
use crate::products::regions::region;
use crate::products::vpc::VPC;

const EDITIONS: &[&str] = &["Basic", "Standard", "StandardWithWaf"];

/// A public address of the region's ALB pool (39.96.0.0/12 in the emulator).
fn public_address() -> String {
    let mut rng = rand::rng();
    format!(
        "39.{}.{}.{}",
        rng.random_range(96..112),
        rng.random_range(0..256),
        rng.random_range(1..255)
    )
}

pub(super) fn create_load_balancer(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let vpc_id = p.required("VpcId")?;
    let vpc = ctx
        .get(vpc_id)
        .filter(|v| v.kind == VPC && v.region == ctx.region)
        .ok_or_else(|| not_found("Vpc", vpc_id))?;
    let address_type = p
        .one_of("AddressType", &["Internet", "Intranet"])?
        .ok_or_else(|| ApiError::missing_parameter("AddressType"))?;
    let edition = p
        .one_of("LoadBalancerEdition", EDITIONS)?
        .ok_or_else(|| ApiError::missing_parameter("LoadBalancerEdition"))?;
    let pay_type = p
        .one_of("LoadBalancerBillingConfig.PayType", &["PostPay"])?
        .ok_or_else(|| ApiError::missing_parameter("LoadBalancerBillingConfig.PayType"))?;
    let ip_version = p.one_of("AddressIpVersion", &["IPv4", "DualStack"])?.unwrap_or("IPv4");
    let allocated_mode = p
        .one_of("AddressAllocatedMode", &["Fixed", "Dynamic"])?
        .unwrap_or("Dynamic");
    let name = p.get("LoadBalancerName").unwrap_or("");
    if !name.is_empty() {
        check_name("LoadBalancerName", name)?;
    }
    let mappings = p.object_list("ZoneMappings");
    if mappings.is_empty() {
        return Err(ApiError::missing_parameter("ZoneMappings"));
    }
    if mappings.len() < 2 {
        return Err(ApiError::invalid_parameter(
            "ZoneMappings",
            "specify at least two zones, each with a vSwitch",
        ));
    }
    if mappings.len() > 10 {
        return Err(ApiError::invalid_parameter("ZoneMappings", "at most 10 zones"));
    }
    let mut zones: Vec<Value> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for (i, mapping) in mappings.iter().enumerate() {
        let n = i + 1;
        let zone_param = format!("ZoneMappings.{n}.ZoneId");
        let vswitch_param = format!("ZoneMappings.{n}.VSwitchId");
        let zone = mapping
            .get("ZoneId")
            .ok_or_else(|| ApiError::missing_parameter(&zone_param))?;
        let vswitch = mapping
            .get("VSwitchId")
            .ok_or_else(|| ApiError::missing_parameter(&vswitch_param))?;
        if seen.contains(zone) {
            return Err(ApiError::invalid_parameter(
                &zone_param,
                format!("the zone {zone} is given twice; each zone takes one vSwitch"),
            ));
        }
        seen.push(zone.clone());
        let placed = place_in_vswitch(
            ctx,
            ("VpcId", &vpc.id),
            (&vswitch_param, vswitch),
            Some((&zone_param, zone)),
        )?;
        let mut address = json!({ "IntranetAddress": placed.random_host()? });
        if address_type == "Internet" {
            address["Address"] = json!(public_address());
        }
        zones.push(json!({
            "ZoneId": placed.zone_id,
            "VSwitchId": placed.vswitch_id,
            "LoadBalancerAddresses": [address],
        }));
    }
    let tags = tags_of(p)?;
    dry_run(p)?;

    let id = ctx.new_id("alb");
    let mut lb = Resource::new(
        LOAD_BALANCER,
        id.clone(),
        &ctx.region.clone(),
        name,
        "Active",
        ctx.now_ms,
    )
    .with("VpcId", vpc.id.clone())
    .with("AddressType", address_type)
    .with("AddressIpVersion", ip_version)
    .with("AddressAllocatedMode", allocated_mode)
    .with("LoadBalancerEdition", edition)
    .with("PayType", pay_type)
    .with("DNSName", format!("{id}.{}.alb.aliyuncs.com", ctx.region))
    .with("ZoneMappings", Value::Array(zones))
    .with("ResourceGroupId", p.get("ResourceGroupId").unwrap_or("rg-default"))
    .with("Tags", tags);
    ctx.begin_transition(&mut lb, "Provisioning", "Active");
    ctx.reference(LOAD_BALANCER_TYPE, &id);
    ctx.put(lb);
    Ok(json!({ "LoadBalancerId": id, "OrderId": order_id() }))
}

/// An instance as ListLoadBalancers and GetLoadBalancerAttribute show it.
pub(super) fn load_balancer_json(lb: &Resource) -> Value {
    json!({
        "LoadBalancerId": lb.id,
        "LoadBalancerName": lb.name,
        "LoadBalancerStatus": lb.status,
        // The API's own spelling.
        "LoadBalancerBussinessStatus": "Normal",
        "AddressType": lb.attr_str("AddressType"),
        "AddressIpVersion": lb.attr_str("AddressIpVersion"),
        "AddressAllocatedMode": lb.attr_str("AddressAllocatedMode"),
        "VpcId": lb.attr_str("VpcId"),
        "DNSName": lb.attr_str("DNSName"),
        "LoadBalancerEdition": lb.attr_str("LoadBalancerEdition"),
        "LoadBalancerBillingConfig": { "PayType": lb.attr_str("PayType") },
        "DeletionProtectionConfig": { "Enabled": false },
        "ResourceGroupId": lb.attr_str("ResourceGroupId"),
        "CreateTime": created(lb),
        "Tags": lb.attrs.get("Tags").cloned().unwrap_or_else(|| json!([])),
    })
}

pub(super) fn list_load_balancers(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let ids = p.list("LoadBalancerIds")?;
    let names = p.list("LoadBalancerNames")?;
    let vpcs = p.list("VpcIds")?;
    let address_type = p.get("AddressType");
    let status = p.get("LoadBalancerStatus");
    let group = p.get("ResourceGroupId");
    let zone = p.get("ZoneId");
    let items: Vec<Value> = ctx
        .list(LOAD_BALANCER)
        .iter()
        .filter(|lb| {
            (ids.is_empty() || ids.contains(&lb.id))
                && (names.is_empty() || names.contains(&lb.name))
                && (vpcs.is_empty() || vpcs.iter().any(|v| v == lb.attr_str("VpcId")))
                && address_type.is_none_or(|t| lb.attr_str("AddressType") == t)
                && status.is_none_or(|s| lb.status == s)
                && group.is_none_or(|g| lb.attr_str("ResourceGroupId") == g)
                && zone.is_none_or(|z| {
                    lb.attrs["ZoneMappings"]
                        .as_array()
                        .is_some_and(|zones| zones.iter().any(|m| m["ZoneId"] == z))
                })
        })
        .map(load_balancer_json)
        .collect();
    let (page, max, next, total) = token_page(items, p)?;
    Ok(json!({
        "LoadBalancers": page,
        "TotalCount": total,
        "MaxResults": max,
        "NextToken": next,
    }))
}

pub(super) fn get_load_balancer_attribute(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("LoadBalancerId")?;
    let lb = find(ctx, LOAD_BALANCER, id, "LoadBalancer")?;
    let mut body = load_balancer_json(&lb);
    body["RegionId"] = json!(lb.region);
    body["ZoneMappings"] = lb.attrs.get("ZoneMappings").cloned().unwrap_or_else(|| json!([]));
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    Ok(body)
}

pub(super) fn delete_load_balancer(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("LoadBalancerId")?;
    let lb = find(ctx, LOAD_BALANCER, id, "LoadBalancer")?;
    if lb.status != "Active" {
        return Err(incorrect_status("LoadBalancer", &lb));
    }
    dry_run(p)?;
    for listener in ctx.children(LISTENER, &lb.id) {
        ctx.delete(&listener.id);
    }
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.delete(&lb.id);
    Ok(json!({ "JobId": job_id() }))
}
