//! RDS instances: creation, description, restart, release and auto-renewal.

use super::*;

pub(super) fn create_db_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let engine_name = p.required("Engine")?;
    let engine = engine(engine_name).ok_or_else(|| {
        ApiError::invalid_parameter(
            "Engine",
            format!("{engine_name:?} is not one of MySQL, PostgreSQL, SQLServer, MariaDB"),
        )
    })?;
    let version = p.required("EngineVersion")?;
    if !engine.versions.contains(&version) {
        return Err(ApiError::invalid_parameter(
            "EngineVersion",
            format!(
                "{version:?} is not a {} version ({})",
                engine.name,
                engine.versions.join(", ")
            ),
        ));
    }
    let class = p.required("DBInstanceClass")?;
    if !engine.class_prefixes.iter().any(|prefix| class.starts_with(prefix)) || class.split('.').count() < 3 {
        return Err(ApiError::invalid_parameter(
            "DBInstanceClass",
            format!(
                "{class:?} is not a {} instance class such as {}n2.medium.1",
                engine.name, engine.class_prefixes[0]
            ),
        ));
    }
    p.required("DBInstanceStorage")?;
    let storage = p.int_in("DBInstanceStorage", 20..=64_000, 20)?;
    let storage_type = p
        .one_of("DBInstanceStorageType", STORAGE_TYPES)?
        .unwrap_or("cloud_essd");
    let net_type = p
        .one_of("DBInstanceNetType", &["Internet", "Intranet"])?
        .ok_or_else(|| ApiError::missing_parameter("DBInstanceNetType"))?;
    let pay_type = p
        .one_of("PayType", &["Postpaid", "Prepaid"])?
        .ok_or_else(|| ApiError::missing_parameter("PayType"))?;
    let category = p.one_of("Category", CATEGORIES)?.unwrap_or("HighAvailability");
    let security_ips = parse_security_ips("SecurityIPList", p.required("SecurityIPList")?)?;
    let description = p.get("DBInstanceDescription").unwrap_or("");
    if !description.is_empty() {
        check_description("DBInstanceDescription", description)?;
    }

    let network_type = p.one_of("InstanceNetworkType", &["VPC", "Classic"])?;
    let (network_type, placement) = match (network_type, p.get("VPCId"), p.get("VSwitchId")) {
        (Some("Classic"), _, _) => ("Classic", None),
        (_, Some(vpc_id), Some(vswitch_id)) => {
            let zone = p.get("ZoneId").map(|z| ("ZoneId", z));
            (
                "VPC",
                Some(place_in_vswitch(
                    ctx,
                    ("VPCId", vpc_id),
                    ("VSwitchId", vswitch_id),
                    zone,
                )?),
            )
        }
        (_, Some(_), None) => return Err(ApiError::missing_parameter("VSwitchId")),
        (_, None, Some(_)) => return Err(ApiError::missing_parameter("VPCId")),
        (Some(_), None, None) => return Err(ApiError::missing_parameter("VPCId")),
        (None, None, None) => ("Classic", None),
    };
    let zone = match (&placement, p.get("ZoneId")) {
        (Some(placed), _) => placed.zone_id.clone(),
        (None, Some(zone)) => {
            check_zone(&ctx.region, zone)?;
            zone.to_owned()
        }
        (None, None) => region(&ctx.region)?.zones[0].to_owned(),
    };

    let expire_ms = if pay_type == "Prepaid" {
        let period = p
            .one_of("Period", &["Year", "Month"])?
            .ok_or_else(|| ApiError::missing_parameter("Period"))?;
        p.required("UsedTime")?;
        let months = if period == "Year" {
            p.int_in("UsedTime", 1..=5, 1)? * 12
        } else {
            p.int_in("UsedTime", 1..=9, 1)?
        };
        Some(add_months(ctx.now_ms, months))
    } else {
        None
    };

    let id = ctx.new_id("rm");
    let connection_string = format!("{id}.{}.rds.aliyuncs.com", engine.domain);
    let (cores, memory_mb) = class_size(class);
    let whitelist = vec![WhitelistGroup {
        name: "default".into(),
        attribute: String::new(),
        ips: security_ips,
    }];
    let mut instance = Resource::new(
        INSTANCE,
        id.clone(),
        &ctx.region.clone(),
        description,
        "Creating",
        ctx.now_ms,
    )
    .with("Engine", engine.name)
    .with("EngineVersion", version)
    .with("DBInstanceClass", class)
    .with("DBInstanceStorage", storage)
    .with("DBInstanceStorageType", storage_type)
    .with("DBInstanceCPU", cores.to_string())
    .with("DBInstanceMemory", memory_mb)
    .with("Category", category)
    .with("PayType", pay_type)
    .with("DBInstanceNetType", net_type)
    .with("InstanceNetworkType", network_type)
    .with("ZoneId", zone)
    .with("ConnectionString", connection_string.clone())
    .with("Port", engine.port.to_string())
    .with("ResourceGroupId", p.get("ResourceGroupId").unwrap_or("rg-default"))
    .with("AutoRenew", false)
    .with("RenewDuration", 0);
    if let Some(placed) = &placement {
        instance.set("VpcId", placed.vpc_id.clone());
        instance.set("VSwitchId", placed.vswitch_id.clone());
        instance.set("IPAddress", placed.random_host()?);
    }
    if let Some(expire) = expire_ms {
        instance.set("ExpireTime", expire);
    }
    store_groups(&mut instance, WHITELIST_ATTR, &whitelist)?;
    ctx.begin_transition(&mut instance, "Creating", "Running");
    ctx.reference(INSTANCE_TYPE, &id);
    ctx.put(instance);
    Ok(json!({
        "DBInstanceId": id,
        "OrderId": order_id(),
        "ConnectionString": connection_string,
        "Port": engine.port.to_string(),
    }))
}

pub(super) fn expire_time(instance: &Resource) -> String {
    instance.attr_i64("ExpireTime").map(iso8601).unwrap_or_default()
}

pub(super) fn instance_summary(instance: &Resource) -> Value {
    json!({
        "DBInstanceId": instance.id,
        "DBInstanceDescription": instance.name,
        "RegionId": instance.region,
        "ZoneId": instance.attr_str("ZoneId"),
        "Engine": instance.attr_str("Engine"),
        "EngineVersion": instance.attr_str("EngineVersion"),
        "DBInstanceClass": instance.attr_str("DBInstanceClass"),
        "DBInstanceStatus": instance.status,
        "DBInstanceType": "Primary",
        "DBInstanceNetType": instance.attr_str("DBInstanceNetType"),
        "InstanceNetworkType": instance.attr_str("InstanceNetworkType"),
        "DBInstanceStorageType": instance.attr_str("DBInstanceStorageType"),
        "Category": instance.attr_str("Category"),
        "VpcId": instance.attr_str("VpcId"),
        "VSwitchId": instance.attr_str("VSwitchId"),
        "PayType": instance.attr_str("PayType"),
        "CreateTime": iso8601(instance.created_ms),
        "ExpireTime": expire_time(instance),
        "LockMode": "Unlock",
        "LockReason": "",
        "ConnectionMode": "Standard",
        "ConnectionString": instance.attr_str("ConnectionString"),
        "ResourceGroupId": instance.attr_str("ResourceGroupId"),
        "MutriORsignle": false,
    })
}

pub(super) fn describe_db_instances(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let ids = p.list("DBInstanceId")?;
    let engine = p.get("Engine");
    let status = p.get("DBInstanceStatus");
    let vpc_id = p.get("VpcId");
    let vswitch_id = p.get("VSwitchId");
    let pay_type = p.get("PayType");
    let search = p.get("SearchKey");
    let instances: Vec<Resource> = ctx
        .list(INSTANCE)
        .into_iter()
        .filter(|i| ids.is_empty() || ids.contains(&i.id))
        .filter(|i| engine.is_none_or(|e| i.attr_str("Engine") == e))
        .filter(|i| status.is_none_or(|s| i.status == s))
        .filter(|i| vpc_id.is_none_or(|v| i.attr_str("VpcId") == v))
        .filter(|i| vswitch_id.is_none_or(|v| i.attr_str("VSwitchId") == v))
        .filter(|i| pay_type.is_none_or(|t| i.attr_str("PayType") == t))
        .filter(|i| search.is_none_or(|s| i.id.contains(s) || i.name.contains(s)))
        .collect();
    let (page, page_number, total) = page_of(instances, p)?;
    let items: Vec<Value> = page.iter().map(instance_summary).collect();
    Ok(json!({
        "TotalRecordCount": total,
        "PageNumber": page_number,
        "PageRecordCount": items.len(),
        "Items": { "DBInstance": items },
    }))
}

pub(super) fn find_instance(ctx: &OpCtx<'_>, p: &Params) -> Result<Resource, ApiError> {
    let id = p.required("DBInstanceId")?;
    ctx.find(INSTANCE, id, "DBInstanceId")
}

pub(super) fn describe_db_instance_attribute(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let groups = load_groups(&instance, WHITELIST_ATTR)?;
    let default_ips = groups
        .iter()
        .find(|g| g.name == "default")
        .map(|g| g.ips.join(","))
        .unwrap_or_default();
    let mut attribute = instance_summary(&instance);
    if let Value::Object(map) = &mut attribute {
        let (cores, _) = class_size(instance.attr_str("DBInstanceClass"));
        let extra = json!({
            "Port": instance.attr_str("Port"),
            "DBInstanceStorage": instance.attr_i64("DBInstanceStorage"),
            "DBInstanceCPU": instance.attr_str("DBInstanceCPU"),
            "DBInstanceMemory": instance.attr_i64("DBInstanceMemory"),
            "MaxConnections": cores * 1000,
            "MaxIOPS": cores * 3000,
            "SecurityIPList": default_ips,
            "SecurityIPMode": "normal",
            "IPAddress": instance.attr_str("IPAddress"),
            "AccountMaxQuantity": 500,
            "DBMaxQuantity": 500,
            "AccountType": "Mix",
            "MaintainTime": "18:00Z-22:00Z",
            "AvailabilityValue": "100.0%",
            "AutoUpgradeMinorVersion": "Auto",
            "ReadOnlyDBInstanceIds": { "ReadOnlyDBInstanceId": [] },
        });
        if let Value::Object(extra) = extra {
            map.extend(extra);
        }
    }
    ctx.reference(INSTANCE_TYPE, &instance.id);
    Ok(json!({ "Items": { "DBInstanceAttribute": [attribute] } }))
}

pub(super) fn modify_db_instance_description(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut instance = find_instance(ctx, p)?;
    let description = p.required("DBInstanceDescription")?;
    check_description("DBInstanceDescription", description)?;
    instance.name = description.to_owned();
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.put(instance);
    Ok(json!({}))
}

pub(super) fn restart_db_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut instance = find_instance(ctx, p)?;
    require_running(&instance)?;
    ctx.begin_transition(&mut instance, "Rebooting", "Running");
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.put(instance);
    Ok(json!({}))
}

pub(super) fn delete_db_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    if instance.status == "Creating" {
        return Err(incorrect_state());
    }
    if instance.attr_str("PayType") == "Prepaid" {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "OperationDenied",
            "Subscription instances cannot be released by DeleteDBInstance; they are released when they expire.",
        ));
    }
    for child in ctx
        .children(DATABASE, &instance.id)
        .into_iter()
        .chain(ctx.children(ACCOUNT, &instance.id))
    {
        ctx.delete(&child.id);
    }
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.delete(&instance.id);
    Ok(json!({ "RegionId": instance.region }))
}

// ---- auto-renewal ----------------------------------------------------------------------------

pub(super) fn modify_instance_auto_renewal_attribute(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut instance = find_instance(ctx, p)?;
    let auto_renew = match p.get("AutoRenew") {
        None => return Err(ApiError::missing_parameter("AutoRenew")),
        Some(v) if v.eq_ignore_ascii_case("true") => true,
        Some(v) if v.eq_ignore_ascii_case("false") => false,
        Some(v) => {
            return Err(ApiError::invalid_parameter(
                "AutoRenew",
                format!("{v:?} is not True or False"),
            ));
        }
    };
    let duration = if auto_renew {
        p.required("Duration")?;
        p.int_in("Duration", 1..=12, 1)?
    } else {
        0
    };
    if instance.attr_str("PayType") != "Prepaid" {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "OperationDenied",
            "Auto-renewal applies only to subscription (Prepaid) instances.",
        ));
    }
    instance.set("AutoRenew", auto_renew);
    instance.set("RenewDuration", duration);
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.put(instance);
    Ok(json!({}))
}

pub(super) fn describe_instance_auto_renewal_attribute(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let id = p.get("DBInstanceId");
    if let Some(id) = id {
        ctx.find(INSTANCE, id, "DBInstanceId")?;
    }
    let instances: Vec<Resource> = ctx
        .list(INSTANCE)
        .into_iter()
        .filter(|i| i.attr_str("PayType") == "Prepaid")
        .filter(|i| id.is_none_or(|id| i.id == id))
        .collect();
    let (page, page_number, total) = page_of(instances, p)?;
    let items: Vec<Value> = page
        .iter()
        .map(|i| {
            let auto_renew = i.attrs.get("AutoRenew").and_then(Value::as_bool).unwrap_or(false);
            json!({
                "DBInstanceId": i.id,
                "RegionId": i.region,
                "Duration": i.attr_i64("RenewDuration").unwrap_or(0),
                "Status": "Normal",
                "AutoRenew": if auto_renew { "True" } else { "False" },
            })
        })
        .collect();
    Ok(json!({
        "PageNumber": page_number,
        "TotalRecordCount": total,
        "PageRecordCount": items.len(),
        "ItemsNumber": items.len(),
        "Items": { "Item": items },
    }))
}
