//! Elastic IP addresses: allocation, association with instances and NAT gateways, and release.

use super::*;

pub(super) fn incorrect_eip_status() -> ApiError {
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

pub(super) fn allocate_eip_address(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

pub(super) fn eip_json(eip: &Resource) -> Value {
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

pub(super) fn describe_eip_addresses(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

pub(super) fn associate_eip_address(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

pub(super) fn unassociate_eip_address(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

pub(super) fn release_eip_address(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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
