//! Virtual Private Cloud (API 2016-04-28): VPCs, vSwitches, EIPs, NAT gateways and SNAT entries.

use serde_json::{Value, json};

use crate::catalog::{OpCtx, Operation, Product, paginate};
use crate::clock::iso8601;
use crate::error::ApiError;
use crate::model::Resource;
use crate::params::Params;
use crate::products::regions::{check_zone, cidr_contains, parse_cidr, region};

pub static PRODUCT: Product = Product {
    code: "vpc",
    name: "Virtual Private Cloud",
    service_name: "Vpc",
    version: "2016-04-28",
    endpoint: "vpc.aliyuncs.com",
    console_agent: "vpc.console.aliyun.com",
    operations: &[
        Operation::write("CreateVpc", create_vpc),
        Operation::read("DescribeVpcs", describe_vpcs),
        Operation::write("ModifyVpcAttribute", modify_vpc_attribute),
        Operation::write("DeleteVpc", delete_vpc),
        Operation::write("CreateVSwitch", create_vswitch),
        Operation::read("DescribeVSwitches", describe_vswitches),
        Operation::write("DeleteVSwitch", delete_vswitch),
    ],
};

pub const VPC: &str = "vpc.vpc";
pub const VSWITCH: &str = "vpc.vswitch";
const VPC_TYPE: &str = "ACS::VPC::VPC";
const VSWITCH_TYPE: &str = "ACS::VPC::VSwitch";

/// Names as the VPC console enforces them: 1–128 characters, starting with a letter, no `http://`.
pub fn check_name(param: &str, name: &str) -> Result<(), ApiError> {
    let starts_ok = name.chars().next().is_some_and(|c| c.is_alphabetic());
    if name.is_empty() {
        return Ok(());
    }
    if !starts_ok || name.chars().count() > 128 || name.starts_with("http://") || name.starts_with("https://") {
        return Err(ApiError::invalid_parameter(
            param,
            "the name must be 1 to 128 characters long, start with a letter and not start with http:// or https://",
        ));
    }
    Ok(())
}

fn create_vpc(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

fn vpc_json(ctx: &OpCtx<'_>, vpc: &Resource) -> Value {
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

fn describe_vpcs(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

fn modify_vpc_attribute(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

fn delete_vpc(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("VpcId")?;
    let vpc = ctx.find(VPC, id, "VpcId")?;
    if !ctx.children(VSWITCH, &vpc.id).is_empty() {
        return Err(ApiError::dependency_violation(
            "DependencyViolation.VSwitch",
            "The specified VPC has vSwitches. Delete the vSwitches first.",
        ));
    }
    if vpc.status != "Available" {
        return Err(ApiError::incorrect_status("IncorrectVpcStatus", "The current status of the VPC does not support this operation."));
    }
    ctx.reference(VPC_TYPE, id);
    ctx.delete(id);
    Ok(json!({}))
}

fn create_vswitch(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let vpc_id = p.required("VpcId")?;
    let zone = p.required("ZoneId")?;
    let cidr = p.required("CidrBlock")?;
    let vpc = ctx.find(VPC, vpc_id, "VpcId")?;
    check_zone(&vpc.region, zone)?;
    let block = parse_cidr("CidrBlock", cidr)?;
    if !cidr_contains(parse_cidr("CidrBlock", vpc.attr_str("CidrBlock"))?, block) {
        return Err(ApiError::invalid_parameter("CidrBlock", format!("{cidr} is not inside the VPC's CIDR block {}", vpc.attr_str("CidrBlock"))));
    }
    for sibling in ctx.children(VSWITCH, vpc_id) {
        let other = parse_cidr("CidrBlock", sibling.attr_str("CidrBlock"))?;
        if cidr_contains(other, block) || cidr_contains(block, other) {
            return Err(ApiError::new(
                axum::http::StatusCode::BAD_REQUEST,
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
        .with("AvailableIpAddressCount", (1i64 << (32 - i64::from(block.1))).saturating_sub(4).max(0));
    vsw.parent = Some(vpc_id.to_owned());
    ctx.begin_transition(&mut vsw, "Pending", "Available");
    ctx.reference(VSWITCH_TYPE, &id);
    ctx.reference(VPC_TYPE, vpc_id);
    ctx.put(vsw);
    Ok(json!({ "VSwitchId": id }))
}

fn describe_vswitches(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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
                "AvailableIpAddressCount": v.attr_i64("AvailableIpAddressCount"),
                "Description": v.attr_str("Description"),
                "VSwitchName": v.name,
                "CreationTime": iso8601(v.created_ms),
                "IsDefault": false,
            })
        })
        .collect();
    Ok(json!({ "TotalCount": total, "PageNumber": number, "PageSize": size, "VSwitches": { "VSwitch": items } }))
}

fn delete_vswitch(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("VSwitchId")?;
    let vsw = ctx.find(VSWITCH, id, "VSwitchId")?;
    let in_use = ["ecs.instance", "rds.instance", "slb.loadbalancer", "vpc.natgateway", "kvstore.instance"]
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
