//! Classic load balancer instances: creation, attributes, status, protection and release.

use super::*;

pub(super) fn create_load_balancer(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let region_info = region(&ctx.region)?;
    let name = p.get("LoadBalancerName").unwrap_or("auto_named_slb");
    check_load_balancer_name(name)?;
    let address_type = p
        .one_of("AddressType", &["internet", "intranet"])?
        .unwrap_or("internet");
    let charge_type = p
        .one_of("InternetChargeType", &["paybytraffic", "paybybandwidth"])?
        .unwrap_or("paybytraffic")
        .to_owned();
    if address_type == "intranet" && charge_type == "paybybandwidth" {
        return Err(ApiError::invalid_parameter(
            "InternetChargeType",
            "intranet instances are billed by traffic; paybybandwidth applies only to internet instances",
        ));
    }
    let bandwidth = if charge_type == "paybybandwidth" {
        required_int(p, "Bandwidth", 1..=5120)?
    } else {
        p.int_in("Bandwidth", 1..=5120, 5120)?
    };
    let spec = p.one_of("LoadBalancerSpec", SPECS)?.unwrap_or("");
    let pay_type = p
        .one_of("PayType", &["PayOnDemand", "PrePay"])?
        .unwrap_or("PayOnDemand");
    let delete_protection = on_off(p, "DeleteProtection", "off")?;
    let ip_version = p.one_of("AddressIPVersion", &["ipv4", "ipv6"])?.unwrap_or("ipv4");

    let master_zone = p.get("MasterZoneId");
    let placement = match (address_type, p.get("VpcId"), p.get("VSwitchId")) {
        ("intranet", Some(vpc_id), Some(vswitch_id)) => {
            let zone = master_zone.map(|z| ("MasterZoneId", z));
            Some(place_in_vswitch(
                ctx,
                ("VpcId", vpc_id),
                ("VSwitchId", vswitch_id),
                zone,
            )?)
        }
        ("intranet", None, Some(_)) => return Err(ApiError::missing_parameter("VpcId")),
        ("intranet", Some(_), None) => return Err(ApiError::missing_parameter("VSwitchId")),
        _ => None,
    };
    let master_zone = primary_zone(ctx, placement.as_ref(), master_zone)?;
    let slave_zone = match p.get("SlaveZoneId") {
        Some(zone) => {
            check_zone(&ctx.region, zone)?;
            if zone == master_zone {
                return Err(ApiError::invalid_parameter(
                    "SlaveZoneId",
                    "the secondary zone must differ from the primary zone",
                ));
            }
            zone.to_owned()
        }
        None => region_info
            .zones
            .iter()
            .find(|z| **z != master_zone)
            .copied()
            .unwrap_or("")
            .to_owned(),
    };
    let (network_type, address) = match (&placement, address_type) {
        (Some(placed), _) => ("vpc", placed.random_host()?),
        (None, "intranet") => ("classic", classic_address()),
        (None, _) => ("classic", public_address()),
    };
    let end_ms = if pay_type == "PrePay" {
        let cycle = p
            .one_of("PricingCycle", &["month", "year"])?
            .ok_or_else(|| ApiError::missing_parameter("PricingCycle"))?;
        let months = if cycle == "year" {
            required_int(p, "Duration", 1..=3)? * 12
        } else {
            required_int(p, "Duration", 1..=9)?
        };
        Some(add_months(ctx.now_ms, months))
    } else {
        None
    };

    let id = ctx.new_id("lb");
    let mut lb = Resource::new(
        LOAD_BALANCER,
        id.clone(),
        &ctx.region.clone(),
        name,
        "active",
        ctx.now_ms,
    )
    .with("Address", address.clone())
    .with("AddressType", address_type)
    .with("AddressIPVersion", ip_version)
    .with("NetworkType", network_type)
    .with("InternetChargeType", charge_type)
    .with("Bandwidth", bandwidth)
    .with("LoadBalancerSpec", spec)
    .with("PayType", pay_type)
    .with("DeleteProtection", delete_protection)
    .with("MasterZoneId", master_zone)
    .with("SlaveZoneId", slave_zone)
    .with("ResourceGroupId", p.get("ResourceGroupId").unwrap_or("rg-default"));
    if let Some(placed) = &placement {
        lb.set("VpcId", placed.vpc_id.clone());
        lb.set("VSwitchId", placed.vswitch_id.clone());
    }
    if let Some(end) = end_ms {
        lb.set("EndTime", end);
    }
    set_backends(&mut lb, &[])?;
    let mut response = json!({
        "LoadBalancerId": id,
        "LoadBalancerName": name,
        "Address": address,
        "AddressIPVersion": ip_version,
        "NetworkType": network_type,
        "VpcId": lb.attr_str("VpcId"),
        "VSwitchId": lb.attr_str("VSwitchId"),
        "ResourceGroupId": lb.attr_str("ResourceGroupId"),
    });
    if end_ms.is_some() {
        response["OrderId"] = json!(order_id().parse::<i64>().unwrap_or_default());
    }
    ctx.reference(LOAD_BALANCER_TYPE, &id);
    ctx.put(lb);
    Ok(response)
}

pub(super) fn load_balancer_json(lb: &Resource) -> Value {
    let end = lb.attr_i64("EndTime");
    json!({
        "LoadBalancerId": lb.id,
        "LoadBalancerName": lb.name,
        "LoadBalancerStatus": lb.status,
        "Address": lb.attr_str("Address"),
        "AddressType": lb.attr_str("AddressType"),
        "AddressIPVersion": lb.attr_str("AddressIPVersion"),
        "RegionId": lb.region,
        "RegionIdAlias": lb.region,
        "NetworkType": lb.attr_str("NetworkType"),
        "VpcId": lb.attr_str("VpcId"),
        "VSwitchId": lb.attr_str("VSwitchId"),
        "MasterZoneId": lb.attr_str("MasterZoneId"),
        "SlaveZoneId": lb.attr_str("SlaveZoneId"),
        "InternetChargeType": lb.attr_str("InternetChargeType"),
        "Bandwidth": lb.attr_i64("Bandwidth"),
        "LoadBalancerSpec": lb.attr_str("LoadBalancerSpec"),
        "PayType": lb.attr_str("PayType"),
        "DeleteProtection": lb.attr_str("DeleteProtection"),
        "ResourceGroupId": lb.attr_str("ResourceGroupId"),
        "CreateTime": iso8601(lb.created_ms),
        "CreateTimeStamp": lb.created_ms,
        "EndTime": end.map(iso8601).unwrap_or_default(),
        "EndTimeStamp": end.unwrap_or(0),
        "BusinessStatus": "Normal",
    })
}

pub(super) fn describe_load_balancers(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let ids = p.list("LoadBalancerId")?;
    let name = p.get("LoadBalancerName");
    let address_type = p.get("AddressType");
    let network_type = p.get("NetworkType");
    let vpc_id = p.get("VpcId");
    let vswitch_id = p.get("VSwitchId");
    let address = p.get("Address");
    let status = p.get("LoadBalancerStatus");
    let server_id = p.get("ServerId");
    let pay_type = p.one_of("PayType", &["PayOnDemand", "PrePay"])?;
    let mut selected = Vec::new();
    for lb in ctx.list(LOAD_BALANCER) {
        let keep = (ids.is_empty() || ids.contains(&lb.id))
            && name.is_none_or(|n| lb.name == n)
            && address_type.is_none_or(|t| lb.attr_str("AddressType") == t)
            && network_type.is_none_or(|t| lb.attr_str("NetworkType") == t)
            && vpc_id.is_none_or(|v| lb.attr_str("VpcId") == v)
            && vswitch_id.is_none_or(|v| lb.attr_str("VSwitchId") == v)
            && address.is_none_or(|a| lb.attr_str("Address") == a)
            && status.is_none_or(|s| lb.status == s)
            && pay_type.is_none_or(|t| lb.attr_str("PayType") == t);
        if keep && (server_id.is_none() || backends(&lb)?.iter().any(|b| Some(b.server_id.as_str()) == server_id)) {
            selected.push(lb);
        }
    }
    let (page, number, size, total) = paginate(selected, p, 100)?;
    let items: Vec<Value> = page.iter().map(load_balancer_json).collect();
    Ok(json!({
        "TotalCount": total,
        "PageNumber": number,
        "PageSize": size,
        "LoadBalancers": { "LoadBalancer": items },
    }))
}

pub(super) fn find_load_balancer(ctx: &OpCtx<'_>, p: &Params) -> Result<Resource, ApiError> {
    let id = p.required("LoadBalancerId")?;
    ctx.find(LOAD_BALANCER, id, "LoadBalancerId")
}

pub(super) fn describe_load_balancer_attribute(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let lb = find_load_balancer(ctx, p)?;
    let listeners = ctx.children(LISTENER, &lb.id);
    let ports: Vec<i64> = listeners.iter().filter_map(|l| l.attr_i64("ListenerPort")).collect();
    let legacy: Vec<Value> = listeners
        .iter()
        .map(|l| {
            json!({
                "ListenerPort": l.attr_i64("ListenerPort"),
                "ListenerProtocal": l.attr_str("ListenerProtocol"),
            })
        })
        .collect();
    let with_protocol: Vec<Value> = listeners
        .iter()
        .map(|l| {
            json!({
                "ListenerPort": l.attr_i64("ListenerPort"),
                "ListenerProtocol": l.attr_str("ListenerProtocol"),
                "Description": l.attr_str("Description"),
                "ListenerForward": "off",
                "ForwardPort": 0,
            })
        })
        .collect();
    let servers = described_backends(ctx, &backends(&lb)?);
    let mut body = load_balancer_json(&lb);
    let extra = json!({
        "ListenerPorts": { "ListenerPort": ports },
        "ListenerPortsAndProtocal": { "ListenerPortAndProtocal": legacy },
        "ListenerPortsAndProtocol": { "ListenerPortAndProtocol": with_protocol },
        "BackendServers": { "BackendServer": servers },
        "AutoReleaseTime": 0,
        "RenewalStatus": "Normal",
        "HasReservedInfo": "false",
    });
    if let (Value::Object(body), Value::Object(extra)) = (&mut body, extra) {
        body.extend(extra);
    }
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    Ok(body)
}

pub(super) fn set_load_balancer_name(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut lb = find_load_balancer(ctx, p)?;
    let name = p.required("LoadBalancerName")?;
    check_load_balancer_name(name)?;
    lb.name = name.to_owned();
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.put(lb);
    Ok(json!({}))
}

pub(super) fn set_load_balancer_status(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut lb = find_load_balancer(ctx, p)?;
    let status = p
        .one_of("LoadBalancerStatus", &["active", "inactive"])?
        .ok_or_else(|| ApiError::missing_parameter("LoadBalancerStatus"))?;
    if lb.status == "locked" {
        return Err(ApiError::incorrect_status(
            "OperationFailed.LoadBalancerLocked",
            "The load balancer is locked.",
        ));
    }
    lb.status = status.to_owned();
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.put(lb);
    Ok(json!({}))
}

pub(super) fn set_load_balancer_delete_protection(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut lb = find_load_balancer(ctx, p)?;
    let protection = required_on_off(p, "DeleteProtection")?;
    lb.set("DeleteProtection", protection);
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.put(lb);
    Ok(json!({}))
}

pub(super) fn delete_load_balancer(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let lb = find_load_balancer(ctx, p)?;
    if lb.attr_str("DeleteProtection") == "on" {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "OperationDenied.DeleteProtectionIsOn",
            "The loadbalancer can't be deleted due to DeleteProtection is enabled.",
        ));
    }
    for child in ctx
        .children(LISTENER, &lb.id)
        .into_iter()
        .chain(ctx.children(VSERVER_GROUP, &lb.id))
    {
        ctx.delete(&child.id);
    }
    ctx.reference(LOAD_BALANCER_TYPE, &lb.id);
    ctx.delete(&lb.id);
    Ok(json!({}))
}
