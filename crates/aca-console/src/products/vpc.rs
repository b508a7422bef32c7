//! Virtual Private Cloud (API 2016-04-28): VPCs, vSwitches, EIPs, NAT gateways and SNAT entries.

use axum::http::StatusCode;
use rand::Rng;
use serde_json::{Value, json};

use crate::catalog::{OpCtx, Operation, Product, paginate};
use crate::clock::iso8601;
use crate::error::ApiError;
use crate::model::Resource;
use crate::params::Params;
use crate::products::ecs;
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
        Operation::write("AllocateEipAddress", allocate_eip_address),
        Operation::read("DescribeEipAddresses", describe_eip_addresses),
        Operation::write("AssociateEipAddress", associate_eip_address),
        Operation::write("UnassociateEipAddress", unassociate_eip_address),
        Operation::write("ReleaseEipAddress", release_eip_address),
        Operation::write("CreateNatGateway", create_nat_gateway),
        Operation::read("DescribeNatGateways", describe_nat_gateways),
        Operation::write("DeleteNatGateway", delete_nat_gateway),
        Operation::write("CreateSnatEntry", create_snat_entry),
        Operation::read("DescribeSnatTableEntries", describe_snat_table_entries),
        Operation::write("DeleteSnatEntry", delete_snat_entry),
    ],
};

pub const VPC: &str = "vpc.vpc";
pub const VSWITCH: &str = "vpc.vswitch";
pub const EIP: &str = "vpc.eip";
pub const NAT_GATEWAY: &str = "vpc.natgateway";
pub const SNAT_ENTRY: &str = "vpc.snatentry";
const VPC_TYPE: &str = "ACS::VPC::VPC";
const VSWITCH_TYPE: &str = "ACS::VPC::VSwitch";
const EIP_TYPE: &str = "ACS::VPC::EIP";
const NAT_GATEWAY_TYPE: &str = "ACS::VPC::NatGateway";
const SNAT_ENTRY_TYPE: &str = "ACS::VPC::SnatEntry";

/// Resource kinds that live in a vSwitch (their `VSwitchId` attribute) and block its deletion.
const VSWITCH_TENANTS: &[&str] = &[
    ecs::INSTANCE,
    "rds.instance",
    "slb.loadbalancer",
    NAT_GATEWAY,
    "kvstore.instance",
];
/// Resource kinds that hold a private address of their vSwitch (their `PrivateIpAddress` attribute).
const PRIVATE_IP_HOLDERS: &[&str] = &[ecs::INSTANCE, NAT_GATEWAY];

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

fn create_vswitch(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

fn delete_vswitch(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

/// A resource of the given kind in the request's region, or the real API's not-found error.
pub(crate) fn find_in_region(ctx: &OpCtx<'_>, kind: &str, id: &str, what: &str) -> Result<Resource, ApiError> {
    ctx.get(id)
        .filter(|r| r.kind == kind && r.region == ctx.region)
        .ok_or_else(|| ApiError::not_found(what, id))
}

// Addresses shared with ECS: the private addresses of a vSwitch and the public addresses of an account.

/// The private addresses already taken in a vSwitch.
pub fn used_private_ips(ctx: &OpCtx<'_>, vswitch_id: &str) -> Vec<String> {
    PRIVATE_IP_HOLDERS
        .iter()
        .flat_map(|kind| ctx.list_all(kind))
        .filter(|r| r.attr_str("VSwitchId") == vswitch_id)
        .map(|r| r.attr_str("PrivateIpAddress").to_owned())
        .filter(|ip| !ip.is_empty())
        .collect()
}

/// The lowest free private address of a vSwitch. The first address of the block and the last three
/// are reserved, as on the real cloud.
pub fn allocate_private_ip(ctx: &OpCtx<'_>, vswitch: &Resource) -> Result<String, ApiError> {
    let (address, prefix) = parse_cidr("CidrBlock", vswitch.attr_str("CidrBlock"))?;
    let mask = if prefix == 0 {
        0
    } else {
        u32::MAX << (32 - u32::from(prefix))
    };
    let network = address & mask;
    let size = 1u64 << (32 - u32::from(prefix));
    let used = used_private_ips(ctx, &vswitch.id);
    (1..size.saturating_sub(3))
        .map(|offset| std::net::Ipv4Addr::from(network.wrapping_add(offset as u32)).to_string())
        .find(|ip| !used.contains(ip))
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "QuotaExceeded.PrivateIpAddress",
                "Don't have enough private IPs in this switch",
            )
        })
}

/// A public address that no EIP or instance of the account holds, from 47.96.0.0/11 (an Alibaba Cloud block).
pub fn allocate_public_ip(ctx: &OpCtx<'_>) -> String {
    let mut taken: Vec<String> = ctx
        .list_all(EIP)
        .iter()
        .map(|e| e.attr_str("IpAddress").to_owned())
        .collect();
    taken.extend(
        ctx.list_all(ecs::INSTANCE)
            .iter()
            .map(|i| i.attr_str("PublicIpAddress").to_owned()),
    );
    let mut rng = rand::rng();
    loop {
        let ip = format!(
            "47.{}.{}.{}",
            rng.random_range(96..=127u8),
            rng.random_range(0..=255u8),
            rng.random_range(1..=254u8)
        );
        if !taken.contains(&ip) {
            return ip;
        }
    }
}

fn incorrect_eip_status() -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "IncorrectEipStatus",
        "Current elastic IP status does not support this operation.",
    )
}

/// The EIPs associated with an instance (an ECS instance, a NAT gateway, a load balancer).
pub fn eips_of(ctx: &OpCtx<'_>, instance_id: &str) -> Vec<Resource> {
    ctx.list_all(EIP)
        .into_iter()
        .filter(|e| e.attr_str("InstanceId") == instance_id)
        .collect()
}

/// Makes an EIP available again (its instance was released or force-deleted).
pub(crate) fn detach_eip(eip: &mut Resource) {
    eip.set("InstanceId", "");
    eip.set("InstanceType", "");
    eip.set("PrivateIpAddress", "");
    eip.status = "Available".to_owned();
    eip.transition = None;
}

fn allocate_eip_address(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let internet_charge_type = p
        .one_of("InternetChargeType", &["PayByTraffic", "PayByBandwidth"])?
        .unwrap_or("PayByTraffic");
    let charge_type = p
        .one_of("InstanceChargeType", &["PostPaid", "PrePaid"])?
        .unwrap_or("PostPaid");
    let max_bandwidth = if internet_charge_type == "PayByTraffic" {
        200
    } else {
        500
    };
    let bandwidth = p.int_in("Bandwidth", 1..=max_bandwidth, 5)?;
    if charge_type == "PrePaid" {
        if internet_charge_type != "PayByBandwidth" {
            return Err(ApiError::invalid_parameter(
                "InternetChargeType",
                "subscription EIPs are billed by bandwidth (PayByBandwidth)",
            ));
        }
        let cycle = p.one_of("PricingCycle", &["Month", "Year"])?.unwrap_or("Month");
        let max_period = if cycle == "Month" { 9 } else { 5 };
        if p.get("Period").is_none() {
            return Err(ApiError::missing_parameter("Period"));
        }
        p.int_in("Period", 1..=max_period, 1)?;
    }
    let isp = p.one_of("ISP", &["BGP", "BGP_PRO"])?.unwrap_or("BGP");
    let name = p.get("Name").unwrap_or("");
    check_name("Name", name)?;
    let id = ctx.new_id("eip");
    let ip = allocate_public_ip(ctx);
    let eip = Resource::new(EIP, id.clone(), &ctx.region.clone(), name, "Available", ctx.now_ms)
        .with("IpAddress", ip.clone())
        .with("Bandwidth", bandwidth)
        .with("InternetChargeType", internet_charge_type)
        .with("ChargeType", charge_type)
        .with("ISP", isp)
        .with("Description", p.get("Description").unwrap_or(""))
        .with("ResourceGroupId", p.get("ResourceGroupId").unwrap_or("rg-default"))
        .with("InstanceId", "")
        .with("InstanceType", "")
        .with("PrivateIpAddress", "");
    let mut response = json!({
        "AllocationId": id,
        "EipAddress": ip,
        "ResourceGroupId": eip.attr_str("ResourceGroupId"),
    });
    if charge_type == "PrePaid" {
        response["OrderId"] = json!(rand::rng().random_range(200_000_000_000_000u64..300_000_000_000_000));
    }
    ctx.reference(EIP_TYPE, &id);
    ctx.put(eip);
    Ok(response)
}

fn eip_json(eip: &Resource) -> Value {
    let bound = !eip.attr_str("InstanceId").is_empty();
    json!({
        "AllocationId": eip.id,
        "IpAddress": eip.attr_str("IpAddress"),
        "Status": eip.status,
        "RegionId": eip.region,
        "InstanceId": eip.attr_str("InstanceId"),
        "InstanceType": eip.attr_str("InstanceType"),
        "InstanceRegionId": if bound { eip.region.as_str() } else { "" },
        "PrivateIpAddress": eip.attr_str("PrivateIpAddress"),
        "Bandwidth": eip.attr_i64("Bandwidth").unwrap_or(5).to_string(),
        "InternetChargeType": eip.attr_str("InternetChargeType"),
        "ChargeType": eip.attr_str("ChargeType"),
        "AllocationTime": iso8601(eip.created_ms),
        "ExpiredTime": "",
        "Name": eip.name,
        "Description": eip.attr_str("Description"),
        "ISP": eip.attr_str("ISP"),
        "Netmode": "public",
        "Mode": "NAT",
        "ResourceGroupId": eip.attr_str("ResourceGroupId"),
        "BandwidthPackageId": "",
        "DeletionProtection": false,
        "OperationLocks": { "LockReason": [] },
    })
}

fn describe_eip_addresses(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let ids = p.list("AllocationId")?;
    let addresses = p.list("EipAddress")?;
    let status = p.one_of(
        "Status",
        &["Associating", "Unassociating", "InUse", "Available", "Releasing"],
    )?;
    let instance_type = p.get("AssociatedInstanceType");
    let instance_id = p.get("AssociatedInstanceId");
    let name = p.get("EipName");
    let eips: Vec<Resource> = ctx
        .list(EIP)
        .into_iter()
        .filter(|e| ids.is_empty() || ids.contains(&e.id))
        .filter(|e| addresses.is_empty() || addresses.iter().any(|a| a == e.attr_str("IpAddress")))
        .filter(|e| status.is_none_or(|s| e.status == s))
        .filter(|e| instance_type.is_none_or(|t| e.attr_str("InstanceType") == t))
        .filter(|e| instance_id.is_none_or(|i| e.attr_str("InstanceId") == i))
        .filter(|e| name.is_none_or(|n| e.name == n))
        .collect();
    let (page, number, size, total) = paginate(eips, p, 100)?;
    let items: Vec<Value> = page.iter().map(eip_json).collect();
    Ok(json!({ "TotalCount": total, "PageNumber": number, "PageSize": size, "EipAddresses": { "EipAddress": items } }))
}

fn associate_eip_address(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("AllocationId")?;
    let instance_id = p.required("InstanceId")?;
    let instance_type = p
        .one_of("InstanceType", &["EcsInstance", "Nat", "SlbInstance"])?
        .unwrap_or("EcsInstance");
    let mut eip = find_in_region(ctx, EIP, id, "AllocationId")?;
    if eip.status != "Available" {
        return Err(incorrect_eip_status());
    }
    let (kind, resource_type) = match instance_type {
        "EcsInstance" => (ecs::INSTANCE, "ACS::ECS::Instance"),
        "Nat" => (NAT_GATEWAY, NAT_GATEWAY_TYPE),
        _ => ("slb.loadbalancer", "ACS::SLB::LoadBalancer"),
    };
    let target = ctx.get(instance_id).filter(|r| r.kind == kind).ok_or_else(|| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "InvalidInstanceId.NotFound",
            "Specified instance does not exist.",
        )
    })?;
    if target.region != eip.region {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "InvalidParameter.Mismatch",
            "Specified elastic IP address and ECS instance are not in the same region.",
        ));
    }
    match instance_type {
        "EcsInstance" => {
            if !["Running", "Stopped"].contains(&target.status.as_str()) {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "IncorrectInstanceStatus",
                    "The current status of the resource does not support this operation.",
                ));
            }
            if !target.attr_str("PublicIpAddress").is_empty() || !eips_of(ctx, instance_id).is_empty() {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "InvalidAssociation.Duplicated",
                    "Specified instance already has a public IP address or an associated elastic IP address.",
                ));
            }
        }
        "Nat" => {
            if target.status != "Available" {
                return Err(ApiError::incorrect_status(
                    "IncorrectStatus.NatGateway",
                    "The current status of the NAT gateway does not support this operation.",
                ));
            }
            if target.attr_str("NetworkType") == "intranet" {
                return Err(ApiError::invalid_parameter(
                    "InstanceId",
                    "a VPC NAT gateway (NetworkType intranet) has no EIPs",
                ));
            }
        }
        _ => {}
    }
    eip.set("InstanceId", instance_id);
    eip.set("InstanceType", instance_type);
    eip.set("PrivateIpAddress", target.attr_str("PrivateIpAddress"));
    ctx.begin_transition(&mut eip, "Associating", "InUse");
    ctx.reference(EIP_TYPE, id);
    ctx.reference(resource_type, instance_id);
    ctx.put(eip);
    Ok(json!({}))
}

fn unassociate_eip_address(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("AllocationId")?;
    let instance_id = p.required("InstanceId")?;
    p.one_of("InstanceType", &["EcsInstance", "Nat", "SlbInstance"])?;
    let force = p.bool("Force")?.unwrap_or(false);
    let mut eip = find_in_region(ctx, EIP, id, "AllocationId")?;
    if eip.status != "InUse" || eip.attr_str("InstanceId") != instance_id {
        return Err(incorrect_eip_status());
    }
    let ip = eip.attr_str("IpAddress").to_owned();
    let dependent: Vec<Resource> = ctx
        .children(SNAT_ENTRY, instance_id)
        .into_iter()
        .filter(|entry| entry.attr_str("SnatIp").split(',').any(|snat_ip| snat_ip == ip))
        .collect();
    if !dependent.is_empty() && !force {
        return Err(ApiError::dependency_violation(
            "DependencyViolation.SnatEntry",
            "The specified resource of Snat depends on Eip, so the operation cannot be completed.",
        ));
    }
    // Forced: the address leaves every SNAT entry; entries left without an address go with it.
    for mut entry in dependent {
        let remaining: Vec<&str> = entry
            .attr_str("SnatIp")
            .split(',')
            .filter(|snat_ip| *snat_ip != ip)
            .collect();
        if remaining.is_empty() {
            ctx.delete(&entry.id);
        } else {
            let joined = remaining.join(",");
            entry.set("SnatIp", joined);
            ctx.put(entry);
        }
    }
    eip.set("InstanceId", "");
    eip.set("InstanceType", "");
    eip.set("PrivateIpAddress", "");
    ctx.begin_transition(&mut eip, "Unassociating", "Available");
    ctx.reference(EIP_TYPE, id);
    ctx.put(eip);
    Ok(json!({}))
}

fn release_eip_address(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("AllocationId")?;
    let eip = find_in_region(ctx, EIP, id, "AllocationId")?;
    if eip.status != "Available" {
        return Err(incorrect_eip_status());
    }
    if eip.attr_str("ChargeType") == "PrePaid" {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "Forbidden.ChargeTypeIsPrepaid",
            "It's forbidden to release a prepaid EIP.",
        ));
    }
    ctx.reference(EIP_TYPE, id);
    ctx.delete(id);
    Ok(json!({}))
}

fn create_nat_gateway(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let vpc_id = p.required("VpcId")?;
    let vpc = find_in_region(ctx, VPC, vpc_id, "VpcId")?;
    let vsw_id = p.required("VSwitchId")?;
    let vsw = find_in_region(ctx, VSWITCH, vsw_id, "VSwitchId")?;
    if vsw.parent.as_deref() != Some(vpc_id) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "InvalidParameter.Mismatch",
            "Specified virtual switch is not in the specified VPC.",
        ));
    }
    if vsw.status != "Available" || vpc.status != "Available" {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "IncorrectVSwitchStatus",
            "The current status of virtual switch does not support this operation.",
        ));
    }
    let nat_type = p.one_of("NatType", &["Enhanced"])?.unwrap_or("Enhanced");
    let internet_charge_type = p
        .one_of("InternetChargeType", &["PayByLcu", "PayBySpec"])?
        .unwrap_or("PayByLcu");
    let spec = match internet_charge_type {
        "PayBySpec" => p
            .one_of("Spec", &["Small", "Middle", "Large", "XLarge.1"])?
            .unwrap_or("Small"),
        _ => "",
    };
    let instance_charge_type = p
        .one_of("InstanceChargeType", &["PostPaid", "PrePaid"])?
        .unwrap_or("PostPaid");
    let network_type = p
        .one_of("NetworkType", &["internet", "intranet"])?
        .unwrap_or("internet");
    let name = p.get("Name").unwrap_or("");
    check_name("Name", name)?;
    let deletion_protection = p.bool("DeletionProtection")?.unwrap_or(false);
    let private_ip = allocate_private_ip(ctx, &vsw)?;
    let id = ctx.new_id("ngw");
    let snat_table = ctx.new_id("stb");
    let forward_table = ctx.new_id("ftb");
    let full_nat_table = ctx.new_id("fulltb");
    let mut nat = Resource::new(NAT_GATEWAY, id.clone(), &vpc.region, name, "Creating", ctx.now_ms)
        .with("VpcId", vpc_id)
        .with("VSwitchId", vsw_id)
        .with("ZoneId", vsw.attr_str("ZoneId"))
        .with("NatType", nat_type)
        .with("Spec", spec)
        .with("InternetChargeType", internet_charge_type)
        .with("InstanceChargeType", instance_charge_type)
        .with("NetworkType", network_type)
        .with("SnatTableId", snat_table.clone())
        .with("ForwardTableId", forward_table.clone())
        .with("FullNatTableId", full_nat_table.clone())
        .with("PrivateIpAddress", private_ip)
        .with("EniInstanceId", ctx.new_id("eni"))
        .with("Description", p.get("Description").unwrap_or(""))
        .with("DeletionProtection", deletion_protection)
        .with("ResourceGroupId", p.get("ResourceGroupId").unwrap_or("rg-default"));
    nat.parent = Some(vpc_id.to_owned());
    ctx.begin_transition(&mut nat, "Creating", "Available");
    ctx.reference(NAT_GATEWAY_TYPE, &id);
    ctx.reference(VPC_TYPE, vpc_id);
    ctx.reference(VSWITCH_TYPE, vsw_id);
    ctx.put(nat);
    Ok(json!({
        "NatGatewayId": id,
        "SnatTableIds": { "SnatTableId": [snat_table] },
        "ForwardTableIds": { "ForwardTableId": [forward_table] },
        "FullNatTableIds": { "FullNatTableId": [full_nat_table] },
    }))
}

fn nat_json(ctx: &OpCtx<'_>, nat: &Resource) -> Value {
    let entries = ctx.children(SNAT_ENTRY, &nat.id);
    let ip_list: Vec<Value> = eips_of(ctx, &nat.id)
        .iter()
        .map(|eip| {
            let ip = eip.attr_str("IpAddress");
            let used = entries
                .iter()
                .any(|e| e.attr_str("SnatIp").split(',').any(|snat_ip| snat_ip == ip));
            json!({
                "AllocationId": eip.id,
                "IpAddress": ip,
                "SnatEntryEnabled": used,
                "UsingStatus": if used { "UsedBySnatTable" } else { "Idle" },
                "PrivateIpAddress": nat.attr_str("PrivateIpAddress"),
            })
        })
        .collect();
    json!({
        "NatGatewayId": nat.id,
        "Name": nat.name,
        "Description": nat.attr_str("Description"),
        "RegionId": nat.region,
        "VpcId": nat.attr_str("VpcId"),
        "Status": nat.status,
        "BusinessStatus": "Normal",
        "NatType": nat.attr_str("NatType"),
        "Spec": nat.attr_str("Spec"),
        "InternetChargeType": nat.attr_str("InternetChargeType"),
        "InstanceChargeType": nat.attr_str("InstanceChargeType"),
        "NetworkType": nat.attr_str("NetworkType"),
        "CreationTime": iso8601(nat.created_ms),
        "ExpiredTime": "",
        "DeletionProtection": nat.attrs.get("DeletionProtection").and_then(Value::as_bool).unwrap_or(false),
        "ResourceGroupId": nat.attr_str("ResourceGroupId"),
        "EipBindMode": "MULTI_BINDED",
        "IpLists": { "IpList": ip_list },
        "SnatTableIds": { "SnatTableId": [nat.attr_str("SnatTableId")] },
        "ForwardTableIds": { "ForwardTableId": [nat.attr_str("ForwardTableId")] },
        "FullNatTableIds": { "FullNatTableId": [nat.attr_str("FullNatTableId")] },
        "NatGatewayPrivateInfo": {
            "VswitchId": nat.attr_str("VSwitchId"),
            "ZoneId": nat.attr_str("ZoneId"),
            "IzNo": nat.attr_str("ZoneId"),
            "PrivateIpAddress": nat.attr_str("PrivateIpAddress"),
            "EniInstanceId": nat.attr_str("EniInstanceId"),
            "EniType": "indirect",
            "MaxBandwidth": 5120,
        },
    })
}

fn describe_nat_gateways(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let id = p.get("NatGatewayId");
    let vpc_id = p.get("VpcId");
    let name = p.get("Name");
    let status = p.one_of(
        "Status",
        &["Creating", "Available", "Modifying", "Deleting", "Converting"],
    )?;
    let nat_type = p.get("NatType");
    let network_type = p.one_of("NetworkType", &["internet", "intranet"])?;
    let zone = p.get("ZoneId");
    let nats: Vec<Resource> = ctx
        .list(NAT_GATEWAY)
        .into_iter()
        .filter(|n| id.is_none_or(|i| n.id == i))
        .filter(|n| vpc_id.is_none_or(|v| n.attr_str("VpcId") == v))
        .filter(|n| name.is_none_or(|x| n.name == x))
        .filter(|n| status.is_none_or(|s| n.status == s))
        .filter(|n| nat_type.is_none_or(|t| n.attr_str("NatType") == t))
        .filter(|n| network_type.is_none_or(|t| n.attr_str("NetworkType") == t))
        .filter(|n| zone.is_none_or(|z| n.attr_str("ZoneId") == z))
        .collect();
    let (page, number, size, total) = paginate(nats, p, 50)?;
    let items: Vec<Value> = page.iter().map(|n| nat_json(ctx, n)).collect();
    Ok(json!({ "TotalCount": total, "PageNumber": number, "PageSize": size, "NatGateways": { "NatGateway": items } }))
}

fn delete_nat_gateway(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("NatGatewayId")?;
    let force = p.bool("Force")?.unwrap_or(false);
    let nat = find_in_region(ctx, NAT_GATEWAY, id, "NatGatewayId")?;
    if nat.status != "Available" {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "IncorrectStatus.NatGateway",
            format!("The status of NatGateway [{id}] is incorrect."),
        ));
    }
    if nat
        .attrs
        .get("DeletionProtection")
        .and_then(Value::as_bool)
        .unwrap_or(false)
    {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "InvalidOperation.DeletionProtection",
            "The instance cannot be deleted because deletion protection is enabled.",
        ));
    }
    if nat.attr_str("InstanceChargeType") == "PrePaid" {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "Forbidden.PrePaidNatGateway",
            "The specified NatGateway is PrePaid.",
        ));
    }
    let entries = ctx.children(SNAT_ENTRY, id);
    let eips = eips_of(ctx, id);
    if !force && !entries.is_empty() {
        return Err(ApiError::dependency_violation(
            "DependencyViolation.SnatEntry",
            "The specified resource of NatGateway depends on SnatEntry, so the operation cannot be completed.",
        ));
    }
    if !force && !eips.is_empty() {
        return Err(ApiError::dependency_violation(
            "DependencyViolation.EIPS",
            "There are Eips on specified NatGateway, please unbind it first.",
        ));
    }
    for entry in entries {
        ctx.delete(&entry.id);
    }
    for mut eip in eips {
        detach_eip(&mut eip);
        ctx.reference(EIP_TYPE, &eip.id);
        ctx.put(eip);
    }
    ctx.reference(NAT_GATEWAY_TYPE, id);
    ctx.delete(id);
    Ok(json!({}))
}

/// The NAT gateway that owns an SNAT table.
fn nat_of_snat_table(ctx: &OpCtx<'_>, table_id: &str) -> Result<Resource, ApiError> {
    ctx.list(NAT_GATEWAY)
        .into_iter()
        .find(|n| n.attr_str("SnatTableId") == table_id)
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "InvalidSnatTableId.NotFound",
                "Specified SNAT table does not exist.",
            )
        })
}

fn create_snat_entry(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let table_id = p.required("SnatTableId")?;
    let snat_ip = p.required("SnatIp")?;
    let nat = nat_of_snat_table(ctx, table_id)?;
    let nat_ips: Vec<String> = eips_of(ctx, &nat.id)
        .iter()
        .map(|e| e.attr_str("IpAddress").to_owned())
        .collect();
    let ips: Vec<&str> = snat_ip.split(',').map(str::trim).filter(|ip| !ip.is_empty()).collect();
    for ip in &ips {
        if ip.parse::<std::net::Ipv4Addr>().is_err() {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "InvalidSnatIp.Malformed",
                "The specified SnatIp is not a valid IP address.",
            ));
        }
        if !nat_ips.iter().any(|n| n == ip) {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                "InvalidSnatIp.NotFound",
                "Specified SnatIp does not found on the NAT Gateway",
            ));
        }
    }
    let (source_vswitch, source_cidr) = match (p.get("SourceVSwitchId"), p.get("SourceCIDR")) {
        (None, None) => return Err(ApiError::missing_parameter("SourceVSwitchId")),
        (Some(_), Some(_)) => {
            return Err(ApiError::invalid_parameter(
                "SourceCIDR",
                "specify either SourceVSwitchId or SourceCIDR, not both",
            ));
        }
        (Some(vsw_id), None) => {
            let vsw = ctx
                .get(vsw_id)
                .filter(|v| v.kind == VSWITCH && v.parent.as_deref() == Some(nat.attr_str("VpcId")))
                .ok_or_else(|| {
                    ApiError::new(
                        StatusCode::NOT_FOUND,
                        "InvalidVSwitchId.NotFound",
                        "The specified virtual switch does not exists.",
                    )
                })?;
            (vsw_id.to_owned(), vsw.attr_str("CidrBlock").to_owned())
        }
        (None, Some(cidr)) => {
            parse_cidr("SourceCIDR", cidr)?;
            (String::new(), cidr.to_owned())
        }
    };
    let duplicated = ctx.children(SNAT_ENTRY, &nat.id).iter().any(|e| {
        (!source_vswitch.is_empty() && e.attr_str("SourceVSwitchId") == source_vswitch)
            || e.attr_str("SourceCIDR") == source_cidr
    });
    if duplicated {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "Forbidden.SourceVSwitchId.Duplicated",
            "The specified SourceCIDR is duplicated.",
        ));
    }
    let name = p.get("SnatEntryName").unwrap_or("");
    check_name("SnatEntryName", name)?;
    let eip_affinity = p.int_in("EipAffinity", 0..=1, 0)?;
    let id = ctx.new_id("snat");
    let mut entry = Resource::new(SNAT_ENTRY, id.clone(), &nat.region, name, "Pending", ctx.now_ms)
        .with("SnatTableId", table_id)
        .with("NatGatewayId", nat.id.clone())
        .with("SourceVSwitchId", source_vswitch)
        .with("SourceCIDR", source_cidr)
        .with("SnatIp", ips.join(","))
        .with("EipAffinity", eip_affinity);
    entry.parent = Some(nat.id.clone());
    ctx.begin_transition(&mut entry, "Pending", "Available");
    ctx.reference(SNAT_ENTRY_TYPE, &id);
    ctx.reference(NAT_GATEWAY_TYPE, &nat.id);
    ctx.put(entry);
    Ok(json!({ "SnatEntryId": id }))
}

fn describe_snat_table_entries(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let nat = match (p.get("SnatTableId"), p.get("NatGatewayId")) {
        (Some(table_id), _) => nat_of_snat_table(ctx, table_id)?,
        (None, Some(nat_id)) => find_in_region(ctx, NAT_GATEWAY, nat_id, "NatGatewayId")?,
        (None, None) => return Err(ApiError::missing_parameter("SnatTableId")),
    };
    let entry_id = p.get("SnatEntryId");
    let source_vswitch = p.get("SourceVSwitchId");
    let source_cidr = p.get("SourceCIDR");
    let snat_ip = p.get("SnatIp");
    let name = p.get("SnatEntryName");
    let status = p.one_of("Status", &["Pending", "Available", "Deleting"])?;
    let entries: Vec<Resource> = ctx
        .children(SNAT_ENTRY, &nat.id)
        .into_iter()
        .filter(|e| entry_id.is_none_or(|i| e.id == i))
        .filter(|e| source_vswitch.is_none_or(|v| e.attr_str("SourceVSwitchId") == v))
        .filter(|e| source_cidr.is_none_or(|c| e.attr_str("SourceCIDR") == c))
        .filter(|e| snat_ip.is_none_or(|ip| e.attr_str("SnatIp").split(',').any(|x| x == ip)))
        .filter(|e| name.is_none_or(|n| e.name == n))
        .filter(|e| status.is_none_or(|s| e.status == s))
        .collect();
    let (page, number, size, total) = paginate(entries, p, 50)?;
    let items: Vec<Value> = page
        .iter()
        .map(|e| {
            json!({
                "SnatEntryId": e.id,
                "SnatTableId": e.attr_str("SnatTableId"),
                "NatGatewayId": e.attr_str("NatGatewayId"),
                "SourceVSwitchId": e.attr_str("SourceVSwitchId"),
                "SourceCIDR": e.attr_str("SourceCIDR"),
                "SnatIp": e.attr_str("SnatIp"),
                "SnatEntryName": e.name,
                "Status": e.status,
                "EipAffinity": e.attr_i64("EipAffinity").unwrap_or(0).to_string(),
            })
        })
        .collect();
    Ok(json!({
        "TotalCount": total,
        "PageNumber": number,
        "PageSize": size,
        "SnatTableEntries": { "SnatTableEntry": items },
    }))
}

fn delete_snat_entry(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let table_id = p.required("SnatTableId")?;
    let entry_id = p.required("SnatEntryId")?;
    let nat = nat_of_snat_table(ctx, table_id)?;
    let entries = ctx.children(SNAT_ENTRY, &nat.id);
    if !entries.iter().any(|e| e.id == entry_id) {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "InvalidSnatEntryId.NotFound",
            "Specified SNAT entry does not exist.",
        ));
    }
    if entries.iter().any(|e| e.status == "Pending") {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "IncorretSnatEntryStatus",
            "Some Snat entry status blocked this operation..",
        ));
    }
    ctx.reference(SNAT_ENTRY_TYPE, entry_id);
    ctx.reference(NAT_GATEWAY_TYPE, &nat.id);
    ctx.delete(entry_id);
    Ok(json!({}))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dispatch::Caller;
    use crate::products::testkit::{TestConsole, items, text};

    /// A VPC with one vSwitch (`192.168.1.0/24` in cn-hangzhou-h).
    fn vpc_and_vswitch(t: &TestConsole, caller: &Caller) -> (String, String) {
        let vpc = t.ok(&PRODUCT, "CreateVpc", caller, &[("CidrBlock", "192.168.0.0/16")]);
        let vpc = text(&vpc, "/VpcId").to_owned();
        let vsw = t.ok(
            &PRODUCT,
            "CreateVSwitch",
            caller,
            &[
                ("VpcId", &vpc),
                ("ZoneId", "cn-hangzhou-h"),
                ("CidrBlock", "192.168.1.0/24"),
            ],
        );
        (vpc, text(&vsw, "/VSwitchId").to_owned())
    }

    fn instance_in(t: &TestConsole, caller: &Caller, vpc: &str, vswitch: &str) -> String {
        let sg = t.ok(&ecs::PRODUCT, "CreateSecurityGroup", caller, &[("VpcId", vpc)]);
        let run = t.ok(
            &ecs::PRODUCT,
            "RunInstances",
            caller,
            &[
                ("InstanceType", "ecs.c7.large"),
                ("ImageId", "ubuntu_22_04_x64_20G_alibase_20240508.vhd"),
                ("VSwitchId", vswitch),
                ("SecurityGroupId", text(&sg, "/SecurityGroupId")),
            ],
        );
        text(&run, "/InstanceIdSets/InstanceIdSet/0").to_owned()
    }

    fn allocate(t: &TestConsole, caller: &Caller) -> (String, String) {
        let eip = t.ok(&PRODUCT, "AllocateEipAddress", caller, &[("Bandwidth", "10")]);
        (
            text(&eip, "/AllocationId").to_owned(),
            text(&eip, "/EipAddress").to_owned(),
        )
    }

    fn eip_status(t: &TestConsole, caller: &Caller, id: &str) -> String {
        let listed = t.ok(&PRODUCT, "DescribeEipAddresses", caller, &[("AllocationId", id)]);
        text(&listed, "/EipAddresses/EipAddress/0/Status").to_owned()
    }

    #[test]
    fn vpcs_and_vswitches_still_work() {
        let t = TestConsole::new();
        let caller = t.account("alice");
        let (vpc, vsw) = vpc_and_vswitch(&t, &caller);
        let listed = t.ok(&PRODUCT, "DescribeVpcs", &caller, &[("VpcId", &vpc)]);
        assert_eq!(text(&listed, "/Vpcs/Vpc/0/VSwitchIds/VSwitchId/0"), vsw);
        let e = t.err(
            &PRODUCT,
            "CreateVSwitch",
            &caller,
            &[
                ("VpcId", &vpc),
                ("ZoneId", "cn-hangzhou-i"),
                ("CidrBlock", "192.168.1.128/25"),
            ],
        );
        assert_eq!(e.code, "InvalidCidrBlock.Overlapped");
        let before = t.ok(&PRODUCT, "DescribeVSwitches", &caller, &[("VSwitchId", &vsw)]);
        assert_eq!(before["VSwitches"]["VSwitch"][0]["AvailableIpAddressCount"], 252);

        // An instance takes an address of the vSwitch and keeps the vSwitch from being deleted.
        let instance = instance_in(&t, &caller, &vpc, &vsw);
        let after = t.ok(&PRODUCT, "DescribeVSwitches", &caller, &[("VSwitchId", &vsw)]);
        assert_eq!(after["VSwitches"]["VSwitch"][0]["AvailableIpAddressCount"], 251);
        assert_eq!(
            t.err(&PRODUCT, "DeleteVSwitch", &caller, &[("VSwitchId", &vsw)]).code,
            "DependencyViolation"
        );
        t.ok(
            &ecs::PRODUCT,
            "DeleteInstance",
            &caller,
            &[("InstanceId", &instance), ("Force", "true")],
        );
        t.ok(&PRODUCT, "DeleteVSwitch", &caller, &[("VSwitchId", &vsw)]);
    }

    #[test]
    fn eips_associate_with_an_instance_and_come_back() {
        let t = TestConsole::with_transition_delay(1_000);
        let caller = t.account("alice");
        let (vpc, vsw) = vpc_and_vswitch(&t, &caller);
        t.advance(1_000);
        let instance = instance_in(&t, &caller, &vpc, &vsw);
        let (eip, address) = allocate(&t, &caller);
        assert!(eip.starts_with("eip-") && address.starts_with("47."), "{eip} {address}");
        assert_eq!(eip_status(&t, &caller, &eip), "Available");

        // The instance is still Starting.
        let e = t.err(
            &PRODUCT,
            "AssociateEipAddress",
            &caller,
            &[("AllocationId", &eip), ("InstanceId", &instance)],
        );
        assert_eq!(e.code, "IncorrectInstanceStatus");
        t.advance(1_000);
        let e = t.err(
            &PRODUCT,
            "AssociateEipAddress",
            &caller,
            &[("AllocationId", &eip), ("InstanceId", "i-bp1nothere")],
        );
        assert_eq!(e.code, "InvalidInstanceId.NotFound");
        t.ok(
            &PRODUCT,
            "AssociateEipAddress",
            &caller,
            &[("AllocationId", &eip), ("InstanceId", &instance)],
        );
        assert_eq!(eip_status(&t, &caller, &eip), "Associating");
        t.advance(1_000);
        assert_eq!(eip_status(&t, &caller, &eip), "InUse");
        let event = t.last_event(&caller, "AssociateEipAddress");
        assert_eq!(
            event.referenced_resources.get("ACS::ECS::Instance"),
            Some(&vec![instance.clone()])
        );
        assert_eq!(event.referenced_resources.get(EIP_TYPE), Some(&vec![eip.clone()]));

        let ids = format!("[\"{instance}\"]");
        let described = t.ok(&ecs::PRODUCT, "DescribeInstances", &caller, &[("InstanceIds", &ids)]);
        assert_eq!(text(&described, "/Instances/Instance/0/EipAddress/IpAddress"), address);
        assert_eq!(text(&described, "/Instances/Instance/0/EipAddress/AllocationId"), eip);

        let (second, _) = allocate(&t, &caller);
        let e = t.err(
            &PRODUCT,
            "AssociateEipAddress",
            &caller,
            &[("AllocationId", &second), ("InstanceId", &instance)],
        );
        assert_eq!(e.code, "InvalidAssociation.Duplicated");
        assert_eq!(
            t.err(&PRODUCT, "ReleaseEipAddress", &caller, &[("AllocationId", &eip)])
                .code,
            "IncorrectEipStatus"
        );
        let bound = t.ok(
            &PRODUCT,
            "DescribeEipAddresses",
            &caller,
            &[("AssociatedInstanceId", &instance)],
        );
        assert_eq!(bound["TotalCount"], 1);

        t.ok(
            &PRODUCT,
            "UnassociateEipAddress",
            &caller,
            &[("AllocationId", &eip), ("InstanceId", &instance)],
        );
        assert_eq!(eip_status(&t, &caller, &eip), "Unassociating");
        t.advance(1_000);
        assert_eq!(eip_status(&t, &caller, &eip), "Available");
        t.ok(&PRODUCT, "ReleaseEipAddress", &caller, &[("AllocationId", &eip)]);
        let e = t.err(&PRODUCT, "ReleaseEipAddress", &caller, &[("AllocationId", &eip)]);
        assert_eq!(e.code, "InvalidAllocationId.NotFound");
        assert_eq!(t.ok(&PRODUCT, "DescribeEipAddresses", &caller, &[])["TotalCount"], 1);
    }

    #[test]
    fn releasing_an_instance_frees_its_eip() {
        let t = TestConsole::new();
        let caller = t.account("alice");
        let (vpc, vsw) = vpc_and_vswitch(&t, &caller);
        let instance = instance_in(&t, &caller, &vpc, &vsw);
        let (eip, _) = allocate(&t, &caller);
        t.ok(
            &PRODUCT,
            "AssociateEipAddress",
            &caller,
            &[("AllocationId", &eip), ("InstanceId", &instance)],
        );
        t.ok(
            &ecs::PRODUCT,
            "DeleteInstance",
            &caller,
            &[("InstanceId", &instance), ("Force", "true")],
        );
        let listed = t.ok(&PRODUCT, "DescribeEipAddresses", &caller, &[("AllocationId", &eip)]);
        assert_eq!(text(&listed, "/EipAddresses/EipAddress/0/Status"), "Available");
        assert_eq!(text(&listed, "/EipAddresses/EipAddress/0/InstanceId"), "");
    }

    #[test]
    fn eip_parameters_are_checked() {
        let t = TestConsole::new();
        let caller = t.account("alice");
        let e = t.err(&PRODUCT, "AllocateEipAddress", &caller, &[("Bandwidth", "900")]);
        assert!(
            e.code == "InvalidParameter" && e.message.contains("\"Bandwidth\""),
            "{e}"
        );
        let e = t.err(
            &PRODUCT,
            "AllocateEipAddress",
            &caller,
            &[("InternetChargeType", "PayByMood")],
        );
        assert!(e.message.contains("\"InternetChargeType\""), "{e}");
        let e = t.err(
            &PRODUCT,
            "AssociateEipAddress",
            &caller,
            &[("AllocationId", "eip-bp1nothere")],
        );
        assert_eq!(e.code, "MissingParameter");
        assert_eq!(t.ok(&PRODUCT, "DescribeEipAddresses", &caller, &[])["TotalCount"], 0);
    }

    #[test]
    fn nat_gateways_carry_snat_entries_over_their_eips() {
        let t = TestConsole::new();
        let caller = t.account("alice");
        let (vpc, vsw) = vpc_and_vswitch(&t, &caller);
        let e = t.err(&PRODUCT, "CreateNatGateway", &caller, &[("VpcId", &vpc)]);
        assert!(
            e.code == "MissingParameter" && e.message.contains("\"VSwitchId\""),
            "{e}"
        );
        let e = t.err(
            &PRODUCT,
            "CreateNatGateway",
            &caller,
            &[("VpcId", &vpc), ("VSwitchId", &vsw), ("NatType", "Normal")],
        );
        assert!(e.message.contains("\"NatType\""), "{e}");

        let created = t.ok(
            &PRODUCT,
            "CreateNatGateway",
            &caller,
            &[
                ("VpcId", &vpc),
                ("VSwitchId", &vsw),
                ("NatType", "Enhanced"),
                ("Name", "egress"),
            ],
        );
        let nat = text(&created, "/NatGatewayId").to_owned();
        let table = text(&created, "/SnatTableIds/SnatTableId/0").to_owned();
        assert!(nat.starts_with("ngw-") && table.starts_with("stb-"), "{created}");
        let listed = t.ok(&PRODUCT, "DescribeNatGateways", &caller, &[("VpcId", &vpc)]);
        let gateway = &items(&listed, "/NatGateways/NatGateway")[0];
        assert_eq!(
            (text(gateway, "/Status"), text(gateway, "/NatType")),
            ("Available", "Enhanced")
        );
        assert_eq!(text(gateway, "/InternetChargeType"), "PayByLcu");
        assert_eq!(text(gateway, "/NatGatewayPrivateInfo/VswitchId"), vsw);
        assert_eq!(text(gateway, "/NatGatewayPrivateInfo/PrivateIpAddress"), "192.168.1.1");

        let (eip, address) = allocate(&t, &caller);
        let e = t.err(
            &PRODUCT,
            "CreateSnatEntry",
            &caller,
            &[("SnatTableId", &table), ("SourceVSwitchId", &vsw), ("SnatIp", &address)],
        );
        assert_eq!(e.code, "InvalidSnatIp.NotFound");
        t.ok(
            &PRODUCT,
            "AssociateEipAddress",
            &caller,
            &[("AllocationId", &eip), ("InstanceId", &nat), ("InstanceType", "Nat")],
        );
        let e = t.err(
            &PRODUCT,
            "CreateSnatEntry",
            &caller,
            &[("SnatTableId", "stb-bp1nothere"), ("SnatIp", &address)],
        );
        assert_eq!(e.code, "InvalidSnatTableId.NotFound");
        let e = t.err(
            &PRODUCT,
            "CreateSnatEntry",
            &caller,
            &[("SnatTableId", &table), ("SnatIp", "47.1.2")],
        );
        assert_eq!(e.code, "InvalidSnatIp.Malformed");
        let entry = t.ok(
            &PRODUCT,
            "CreateSnatEntry",
            &caller,
            &[
                ("SnatTableId", &table),
                ("SourceVSwitchId", &vsw),
                ("SnatIp", &address),
                ("SnatEntryName", "web"),
            ],
        );
        let entry = text(&entry, "/SnatEntryId").to_owned();
        let e = t.err(
            &PRODUCT,
            "CreateSnatEntry",
            &caller,
            &[("SnatTableId", &table), ("SourceVSwitchId", &vsw), ("SnatIp", &address)],
        );
        assert_eq!(e.code, "Forbidden.SourceVSwitchId.Duplicated");

        let entries = t.ok(
            &PRODUCT,
            "DescribeSnatTableEntries",
            &caller,
            &[("SnatTableId", &table)],
        );
        let listed = &items(&entries, "/SnatTableEntries/SnatTableEntry")[0];
        assert_eq!(
            (text(listed, "/SnatEntryId"), text(listed, "/SourceCIDR")),
            (entry.as_str(), "192.168.1.0/24")
        );
        assert_eq!(
            (text(listed, "/SnatIp"), text(listed, "/Status")),
            (address.as_str(), "Available")
        );
        let gateways = t.ok(&PRODUCT, "DescribeNatGateways", &caller, &[("NatGatewayId", &nat)]);
        assert_eq!(
            text(&gateways, "/NatGateways/NatGateway/0/IpLists/IpList/0/UsingStatus"),
            "UsedBySnatTable"
        );

        let e = t.err(
            &PRODUCT,
            "UnassociateEipAddress",
            &caller,
            &[("AllocationId", &eip), ("InstanceId", &nat)],
        );
        assert_eq!(e.code, "DependencyViolation.SnatEntry");
        let e = t.err(&PRODUCT, "DeleteNatGateway", &caller, &[("NatGatewayId", &nat)]);
        assert_eq!(e.code, "DependencyViolation.SnatEntry");
        assert_eq!(
            t.err(&PRODUCT, "DeleteVSwitch", &caller, &[("VSwitchId", &vsw)]).code,
            "DependencyViolation"
        );

        t.ok(
            &PRODUCT,
            "DeleteSnatEntry",
            &caller,
            &[("SnatTableId", &table), ("SnatEntryId", &entry)],
        );
        let e = t.err(
            &PRODUCT,
            "DeleteSnatEntry",
            &caller,
            &[("SnatTableId", &table), ("SnatEntryId", &entry)],
        );
        assert_eq!(e.code, "InvalidSnatEntryId.NotFound");
        let e = t.err(&PRODUCT, "DeleteNatGateway", &caller, &[("NatGatewayId", &nat)]);
        assert_eq!(e.code, "DependencyViolation.EIPS");
        t.ok(
            &PRODUCT,
            "DeleteNatGateway",
            &caller,
            &[("NatGatewayId", &nat), ("Force", "true")],
        );
        assert_eq!(eip_status(&t, &caller, &eip), "Available");
        assert_eq!(t.ok(&PRODUCT, "DescribeNatGateways", &caller, &[])["TotalCount"], 0);
        t.ok(&PRODUCT, "DeleteVSwitch", &caller, &[("VSwitchId", &vsw)]);
    }

    #[test]
    fn pending_snat_entries_block_deletion_and_force_cleans_up() {
        let t = TestConsole::with_transition_delay(500);
        let caller = t.account("alice");
        let (vpc, vsw) = vpc_and_vswitch(&t, &caller);
        t.advance(500);
        let created = t.ok(
            &PRODUCT,
            "CreateNatGateway",
            &caller,
            &[("VpcId", &vpc), ("VSwitchId", &vsw)],
        );
        let nat = text(&created, "/NatGatewayId").to_owned();
        let table = text(&created, "/SnatTableIds/SnatTableId/0").to_owned();
        let (eip, address) = allocate(&t, &caller);
        let e = t.err(
            &PRODUCT,
            "AssociateEipAddress",
            &caller,
            &[("AllocationId", &eip), ("InstanceId", &nat), ("InstanceType", "Nat")],
        );
        assert_eq!(e.code, "IncorrectStatus.NatGateway");
        t.advance(500);
        t.ok(
            &PRODUCT,
            "AssociateEipAddress",
            &caller,
            &[("AllocationId", &eip), ("InstanceId", &nat), ("InstanceType", "Nat")],
        );
        t.advance(500);
        let entry = t.ok(
            &PRODUCT,
            "CreateSnatEntry",
            &caller,
            &[
                ("SnatTableId", &table),
                ("SourceCIDR", "192.168.1.0/26"),
                ("SnatIp", &address),
            ],
        );
        let entry = text(&entry, "/SnatEntryId").to_owned();
        let e = t.err(
            &PRODUCT,
            "DeleteSnatEntry",
            &caller,
            &[("SnatTableId", &table), ("SnatEntryId", &entry)],
        );
        assert_eq!(e.code, "IncorretSnatEntryStatus");
        t.advance(500);

        // Forcing the address off the gateway takes the SNAT entry that used only it.
        t.ok(
            &PRODUCT,
            "UnassociateEipAddress",
            &caller,
            &[
                ("AllocationId", &eip),
                ("InstanceId", &nat),
                ("InstanceType", "Nat"),
                ("Force", "true"),
            ],
        );
        let entries = t.ok(&PRODUCT, "DescribeSnatTableEntries", &caller, &[("NatGatewayId", &nat)]);
        assert_eq!(entries["TotalCount"], 0);
    }

    #[test]
    fn other_accounts_cannot_use_an_eip_or_nat_gateway() {
        let t = TestConsole::new();
        let alice = t.account("alice");
        let bob = t.account("bob");
        let (vpc, vsw) = vpc_and_vswitch(&t, &alice);
        let nat = t.ok(
            &PRODUCT,
            "CreateNatGateway",
            &alice,
            &[("VpcId", &vpc), ("VSwitchId", &vsw)],
        );
        let nat = text(&nat, "/NatGatewayId").to_owned();
        let (eip, _) = allocate(&t, &alice);
        assert_eq!(t.ok(&PRODUCT, "DescribeEipAddresses", &bob, &[])["TotalCount"], 0);
        assert_eq!(t.ok(&PRODUCT, "DescribeNatGateways", &bob, &[])["TotalCount"], 0);
        let e = t.err(&PRODUCT, "ReleaseEipAddress", &bob, &[("AllocationId", &eip)]);
        assert_eq!(e.code, "InvalidAllocationId.NotFound");
        let (bobs_eip, _) = allocate(&t, &bob);
        let e = t.err(
            &PRODUCT,
            "AssociateEipAddress",
            &bob,
            &[
                ("AllocationId", &bobs_eip),
                ("InstanceId", &nat),
                ("InstanceType", "Nat"),
            ],
        );
        assert_eq!(e.code, "InvalidInstanceId.NotFound");
        assert_eq!(
            t.err(&PRODUCT, "DeleteNatGateway", &bob, &[("NatGatewayId", &nat)])
                .code,
            "InvalidNatGatewayId.NotFound"
        );
    }
}
