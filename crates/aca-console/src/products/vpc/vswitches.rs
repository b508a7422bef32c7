//! vSwitches: the zonal subnets of a VPC.

use super::*;

pub(super) fn create_vswitch(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let vpc_id = p.required("VpcId")?;
    let zone = p.required("ZoneId")?;
    let cidr = p.required("CidrBlock")?;
    let vpc = ctx.find(VPC, vpc_id, "VpcId")?;
    check_zone(&vpc.region, zone)?;
    let block = parse_cidr("CidrBlock", cidr)?;
    if !cidr_contains(parse_cidr("CidrBlock", vpc.attr_str("CidrBlock"))?, block) {
        return Err(ApiError::invalid_parameter(
            "CidrBlock",
            format!(
                "{cidr} is not inside the VPC's CIDR block {}",
                vpc.attr_str("CidrBlock")
            ),
        ));
    }
    for sibling in ctx.children(VSWITCH, vpc_id) {
        let other = parse_cidr("CidrBlock", sibling.attr_str("CidrBlock"))?;
        if cidr_contains(other, block) || cidr_contains(block, other) {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "InvalidCidrBlock.Overlapped",
                format!("The specified CIDR block {cidr} overlaps with vSwitch {}.", sibling.id),
            ));
        }
    }
    let name = p.get("VSwitchName").unwrap_or("");
    check_name("VSwitchName", name)?;
    let id = ctx.new_id("vsw");
    let mut vsw = Resource::new(VSWITCH, id.clone(), &vpc.region, name, "Pending", ctx.now_ms)
        .with("CidrBlock", cidr)
        .with("ZoneId", zone)
        .with("Description", p.get("Description").unwrap_or(""))
        .with(
            "AvailableIpAddressCount",
            (1i64 << (32 - i64::from(block.1))).saturating_sub(4).max(0),
        );
    vsw.parent = Some(vpc_id.to_owned());
    ctx.begin_transition(&mut vsw, "Pending", "Available");
    ctx.reference(VSWITCH_TYPE, &id);
    ctx.reference(VPC_TYPE, vpc_id);
    ctx.put(vsw);
    Ok(json!({ "VSwitchId": id }))
}

pub(super) fn describe_vswitches(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let vpc_id = p.get("VpcId");
    let ids = p.list("VSwitchId")?;
    let zone = p.get("ZoneId");
    let vswitches: Vec<Resource> = ctx
        .list(VSWITCH)
        .into_iter()
        .filter(|v| vpc_id.is_none_or(|id| v.parent.as_deref() == Some(id)))
        .filter(|v| ids.is_empty() || ids.contains(&v.id))
        .filter(|v| zone.is_none_or(|z| v.attr_str("ZoneId") == z))
        .collect();
    let (page, number, size, total) = paginate(vswitches, p, 50)?;
    let items: Vec<Value> = page
        .iter()
        .map(|v| {
            json!({
                "VSwitchId": v.id,
                "VpcId": v.parent,
                "Status": v.status,
                "CidrBlock": v.attr_str("CidrBlock"),
                "ZoneId": v.attr_str("ZoneId"),
                "AvailableIpAddressCount": v.attr_i64("AvailableIpAddressCount").map(|free| {
                    free.saturating_sub(used_private_ips(ctx, &v.id).len() as i64).max(0)
                }),
                "Description": v.attr_str("Description"),
                "VSwitchName": v.name,
                "CreationTime": iso8601(v.created_ms),
                "IsDefault": false,
            })
        })
        .collect();
    Ok(json!({ "TotalCount": total, "PageNumber": number, "PageSize": size, "VSwitches": { "VSwitch": items } }))
}

pub(super) fn delete_vswitch(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("VSwitchId")?;
    let vsw = ctx.find(VSWITCH, id, "VSwitchId")?;
    let in_use = VSWITCH_TENANTS
        .iter()
        .any(|kind| ctx.list_all(kind).iter().any(|r| r.attr_str("VSwitchId") == vsw.id));
    if in_use {
        return Err(ApiError::dependency_violation(
            "DependencyViolation",
            "The specified vSwitch has dependent resources. Release them first.",
        ));
    }
    ctx.reference(VSWITCH_TYPE, id);
    if let Some(vpc) = &vsw.parent {
        ctx.reference(VPC_TYPE, vpc);
    }
    ctx.delete(id);
    Ok(json!({}))
}
