//! VPCs: creating, describing, renaming and deleting virtual private clouds.

use super::*;

pub(super) fn create_vpc(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let cidr = p.get("CidrBlock").unwrap_or("172.16.0.0/12");
    parse_cidr("CidrBlock", cidr)?;
    let name = p.get("VpcName").unwrap_or("");
    check_name("VpcName", name)?;
    let id = ctx.new_id("vpc");
    let mut vpc = Resource::new(VPC, id.clone(), &ctx.region.clone(), name, "Pending", ctx.now_ms)
        .with("CidrBlock", cidr)
        .with("Description", p.get("Description").unwrap_or(""))
        .with("VRouterId", ctx.new_id("vrt"))
        .with("RouteTableId", ctx.new_id("vtb"))
        .with("ResourceGroupId", p.get("ResourceGroupId").unwrap_or("rg-default"));
    ctx.begin_transition(&mut vpc, "Pending", "Available");
    let response = json!({
        "VpcId": id,
        "VRouterId": vpc.attr_str("VRouterId"),
        "RouteTableId": vpc.attr_str("RouteTableId"),
        "ResourceGroupId": vpc.attr_str("ResourceGroupId"),
    });
    ctx.reference(VPC_TYPE, &id);
    ctx.put(vpc);
    Ok(response)
}

pub(super) fn vpc_json(ctx: &OpCtx<'_>, vpc: &Resource) -> Value {
    let vswitches: Vec<String> = ctx.children(VSWITCH, &vpc.id).into_iter().map(|v| v.id).collect();
    json!({
        "VpcId": vpc.id,
        "RegionId": vpc.region,
        "Status": vpc.status,
        "VpcName": vpc.name,
        "CreationTime": iso8601(vpc.created_ms),
        "CidrBlock": vpc.attr_str("CidrBlock"),
        "VRouterId": vpc.attr_str("VRouterId"),
        "Description": vpc.attr_str("Description"),
        "IsDefault": false,
        "ResourceGroupId": vpc.attr_str("ResourceGroupId"),
        "VSwitchIds": { "VSwitchId": vswitches },
    })
}

pub(super) fn describe_vpcs(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let ids = p.list("VpcId")?;
    let name = p.get("VpcName");
    let vpcs: Vec<Resource> = ctx
        .list(VPC)
        .into_iter()
        .filter(|v| ids.is_empty() || ids.contains(&v.id))
        .filter(|v| name.is_none_or(|n| v.name == n))
        .collect();
    let (page, number, size, total) = paginate(vpcs, p, 50)?;
    let items: Vec<Value> = page.iter().map(|v| vpc_json(ctx, v)).collect();
    Ok(json!({ "TotalCount": total, "PageNumber": number, "PageSize": size, "Vpcs": { "Vpc": items } }))
}

pub(super) fn modify_vpc_attribute(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("VpcId")?;
    let mut vpc = ctx.find(VPC, id, "VpcId")?;
    if let Some(name) = p.get("VpcName") {
        check_name("VpcName", name)?;
        vpc.name = name.to_owned();
    }
    if let Some(description) = p.get("Description") {
        vpc.set("Description", description);
    }
    ctx.reference(VPC_TYPE, id);
    ctx.put(vpc);
    Ok(json!({}))
}

pub(super) fn delete_vpc(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("VpcId")?;
    let vpc = ctx.find(VPC, id, "VpcId")?;
    if !ctx.children(VSWITCH, &vpc.id).is_empty() {
        return Err(ApiError::dependency_violation(
            "DependencyViolation.VSwitch",
            "The specified VPC has vSwitches. Delete the vSwitches first.",
        ));
    }
    if ctx
        .children(ecs::SECURITY_GROUP, &vpc.id)
        .iter()
        .any(|sg| sg.region == vpc.region)
    {
        return Err(ApiError::dependency_violation(
            "DependencyViolation.SecurityGroup",
            "Specified object has dependent resources SecurityGroup.",
        ));
    }
    if vpc.status != "Available" {
        return Err(ApiError::incorrect_status(
            "IncorrectVpcStatus",
            "The current status of the VPC does not support this operation.",
        ));
    }
    ctx.reference(VPC_TYPE, id);
    ctx.delete(id);
    Ok(json!({}))
}
