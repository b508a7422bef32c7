//! NAT gateways and the SNAT entries of their SNAT tables.

use super::*;

pub(super) fn create_nat_gateway(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

pub(super) fn nat_json(ctx: &OpCtx<'_>, nat: &Resource) -> Value {
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

pub(super) fn describe_nat_gateways(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

pub(super) fn delete_nat_gateway(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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
pub(super) fn nat_of_snat_table(ctx: &OpCtx<'_>, table_id: &str) -> Result<Resource, ApiError> {
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

pub(super) fn create_snat_entry(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

pub(super) fn describe_snat_table_entries(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

pub(super) fn delete_snat_entry(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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
