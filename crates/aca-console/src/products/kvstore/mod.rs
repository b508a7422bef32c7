//! Tair (Redis OSS-compatible), formerly ApsaraDB for Redis (API 2015-01-01): instances, specification
//! changes, restarts, IP whitelists and their templates, accounts, renewal, and the recycle bin
//! released instances go to.

mod accounts;
mod recycle;
mod renewal;
mod templates;

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::catalog::{OpCtx, Operation, Product, paginate};
use crate::clock::iso8601;
use crate::error::ApiError;
use crate::model::Resource;
use crate::params::Params;
use crate::products::provisioning::{add_months, order_id, place_in_vswitch, primary_zone};
use crate::products::rds::check_password;
use crate::products::regions::{check_zone, region};
use crate::products::whitelist::{WhitelistChange, WhitelistGroup, WhitelistParams, load_groups, store_groups};

pub static PRODUCT: Product = Product {
    code: "kvstore",
    name: "Tair (Redis OSS-Compatible)",
    service_name: "R-kvstore",
    version: "2015-01-01",
    endpoint: "r-kvstore.aliyuncs.com",
    console_agent: "kvstore.console.aliyun.com",
    operations: &[
        Operation::write("CreateInstance", create_instance),
        Operation::read("DescribeInstances", describe_instances),
        Operation::read("DescribeInstanceAttribute", describe_instance_attribute),
        Operation::write("ModifyInstanceSpec", modify_instance_spec),
        Operation::write("DeleteInstance", delete_instance),
        Operation::write("RestartInstance", restart_instance),
        Operation::write("ModifySecurityIps", modify_security_ips),
        Operation::read("DescribeSecurityIps", describe_security_ips),
        Operation::write("CreateAccount", accounts::create_account),
        Operation::read("DescribeAccounts", accounts::describe_accounts),
        Operation::write("ModifyAccountPassword", accounts::modify_account_password),
        Operation::write("ResetAccountPassword", accounts::reset_account_password),
        Operation::write("DeleteAccount", accounts::delete_account),
        Operation::write("CreateGlobalSecurityIPGroup", templates::create_template),
        Operation::read("DescribeGlobalSecurityIPGroup", templates::describe_templates),
        Operation::write("ModifyGlobalSecurityIPGroup", templates::modify_template),
        Operation::write("DeleteGlobalSecurityIPGroup", templates::delete_template),
        Operation::read("DescribeGlobalSecurityIPGroupRelation", templates::describe_relation),
        Operation::write("ModifyGlobalSecurityIPGroupRelation", templates::modify_relation),
        Operation::write("DestroyInstance", recycle::destroy_instance),
        Operation::write("RenewInstance", renewal::renew_instance),
        Operation::write("ModifyInstanceAutoRenewalAttribute", renewal::modify_auto_renewal),
        Operation::read("DescribeInstanceAutoRenewalAttribute", renewal::describe_auto_renewal),
    ],
};

pub const INSTANCE: &str = "kvstore.instance";
const INSTANCE_TYPE: &str = "ACS::KVSTORE::Instance";
const WHITELIST_ATTR: &str = "SecurityIpGroups";
/// How `ModifySecurityIps` names its whitelist parameters in Tair.
const WHITELIST_PARAMS: WhitelistParams = WhitelistParams {
    ips: "SecurityIps",
    group: "SecurityIpGroupName",
    attribute: "SecurityIpGroupAttribute",
};

/// One instance type: its memory and the limits that come with it.
struct InstanceClass {
    name: &'static str,
    capacity_mb: i64,
    bandwidth_mbps: i64,
    connections: i64,
    qps: i64,
    /// `Community` for Redis Open-Source Edition, `Enterprise` for Tair.
    edition: &'static str,
}

const fn class(name: &'static str, capacity_mb: i64, bandwidth_mbps: i64, edition: &'static str) -> InstanceClass {
    InstanceClass {
        name,
        capacity_mb,
        bandwidth_mbps,
        connections: 10_000,
        qps: 100_000,
        edition,
    }
}

/// Standard (master-replica) instance types the emulator sells.
const CLASSES: &[InstanceClass] = &[
    class("redis.master.micro.default", 256, 10, "Community"),
    class("redis.master.small.default", 1024, 10, "Community"),
    class("redis.master.mid.default", 2048, 16, "Community"),
    class("redis.master.stand.default", 4096, 24, "Community"),
    class("redis.master.large.default", 8192, 24, "Community"),
    class("redis.master.2xlarge.default", 16_384, 32, "Community"),
    class("redis.master.4xlarge.default", 32_768, 48, "Community"),
    class("redis.master.8xlarge.default", 65_536, 48, "Community"),
    class("tair.rdb.1g", 1024, 768, "Enterprise"),
    class("tair.rdb.2g", 2048, 768, "Enterprise"),
    class("tair.rdb.4g", 4096, 768, "Enterprise"),
    class("tair.rdb.8g", 8192, 768, "Enterprise"),
    class("tair.rdb.16g", 16_384, 768, "Enterprise"),
];

fn instance_class(param: &str, name: &str) -> Result<&'static InstanceClass, ApiError> {
    CLASSES.iter().find(|c| c.name == name).ok_or_else(|| {
        ApiError::invalid_parameter(
            param,
            format!("{name:?} is not an instance type such as redis.master.small.default"),
        )
    })
}

const ENGINE_VERSIONS: &[&str] = &["4.0", "5.0", "6.0", "7.0"];
const PERIODS: &[i64] = &[1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 24, 36];

fn incorrect_state() -> ApiError {
    ApiError::incorrect_status(
        "IncorrectDBInstanceState",
        "Current instance state does not support this operation.",
    )
}

fn require_normal(instance: &Resource) -> Result<(), ApiError> {
    if instance.status == "Normal" {
        Ok(())
    } else {
        Err(incorrect_state())
    }
}

/// Instance names: 2–80 characters starting with a letter (or a Chinese character), without spaces or
/// any of `@/:="<>{[]}`.
fn check_instance_name(name: &str) -> Result<(), ApiError> {
    let len = name.chars().count();
    let starts_ok = name.chars().next().is_some_and(char::is_alphabetic);
    let chars_ok = !name.chars().any(|c| c.is_whitespace() || "@/:=\"<>{[]}".contains(c));
    if (2..=80).contains(&len) && starts_ok && chars_ok {
        Ok(())
    } else {
        Err(ApiError::invalid_parameter(
            "InstanceName",
            "the name must be 2 to 80 characters, start with a letter, and contain no spaces or @/:=\"<>{[]}",
        ))
    }
}

fn create_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    // A rebuild from the recycle bin takes what it leaves out from the released instance.
    let p = &recycle::with_source(ctx, p)?;
    let class = instance_class("InstanceClass", p.required("InstanceClass")?)?;
    let name = p.get("InstanceName").unwrap_or("");
    if !name.is_empty() {
        check_instance_name(name)?;
    }
    let engine_version = p.one_of("EngineVersion", ENGINE_VERSIONS)?.unwrap_or("5.0");
    let charge_type = p.one_of("ChargeType", &["PrePaid", "PostPaid"])?.unwrap_or("PostPaid");
    p.one_of("InstanceType", &["Redis"])?;
    let node_type = p
        .one_of("NodeType", &["MASTER_SLAVE", "STAND_ALONE"])?
        .unwrap_or("MASTER_SLAVE");
    let network_type = p.one_of("NetworkType", &["VPC", "CLASSIC"])?.unwrap_or("VPC");
    let port = p.int_in("Port", 1024..=65535, 6379)?;
    if let Some(password) = p.get("Password") {
        check_password("Password", password)?;
    }
    let placement = if network_type == "VPC" {
        let vpc_id = p.required("VpcId")?;
        let vswitch_id = p.required("VSwitchId")?;
        let zone = p.get("ZoneId").map(|z| ("ZoneId", z));
        Some(place_in_vswitch(
            ctx,
            ("VpcId", vpc_id),
            ("VSwitchId", vswitch_id),
            zone,
        )?)
    } else {
        None
    };
    let zone = primary_zone(ctx, placement.as_ref(), p.get("ZoneId"))?;
    let secondary_zone = match p.get("SecondaryZoneId") {
        Some(secondary) => {
            check_zone(&ctx.region, secondary)?;
            if secondary == zone {
                return Err(ApiError::invalid_parameter(
                    "SecondaryZoneId",
                    "the secondary zone must differ from ZoneId",
                ));
            }
            secondary.to_owned()
        }
        None => String::new(),
    };
    let end_ms = if charge_type == "PrePaid" {
        p.required("Period")?;
        let months = p.int("Period")?.unwrap_or_default();
        if !PERIODS.contains(&months) {
            return Err(ApiError::invalid_parameter(
                "Period",
                "valid values: 1 to 9, 12, 24 and 36 (months)",
            ));
        }
        Some(add_months(ctx.now_ms, months))
    } else {
        None
    };

    let id = ctx.new_id("r");
    let domain = format!("{id}.redis.rds.aliyuncs.com");
    let mut instance = Resource::new(INSTANCE, id.clone(), &ctx.region.clone(), name, "Creating", ctx.now_ms)
        .with("InstanceClass", class.name)
        .with("EngineVersion", engine_version)
        .with("ChargeType", charge_type)
        .with("NodeType", node_type)
        .with("NetworkType", network_type)
        .with("ZoneId", zone.clone())
        .with("SecondaryZoneId", secondary_zone)
        .with("Port", port)
        .with("ConnectionDomain", domain.clone())
        .with(
            "VpcAuthMode",
            if p.get("Password").is_some() { "Open" } else { "Close" },
        )
        .with("ResourceGroupId", p.get("ResourceGroupId").unwrap_or("rg-default"));
    if let Some(placed) = &placement {
        instance.set("VpcId", placed.vpc_id.clone());
        instance.set("VSwitchId", placed.vswitch_id.clone());
        instance.set("PrivateIp", placed.random_host()?);
    }
    if let Some(end) = end_ms {
        instance.set("EndTime", end);
    }
    let whitelist = [WhitelistGroup {
        name: "default".into(),
        attribute: String::new(),
        ips: vec!["127.0.0.1".into()],
    }];
    store_groups(&mut instance, WHITELIST_ATTR, &whitelist)?;
    ctx.begin_transition(&mut instance, "Creating", "Normal");
    let default_account = accounts::default_account(&instance, p.get("Password"), ctx.now_ms);
    let response = json!({
        "InstanceId": id,
        "InstanceName": name,
        "ConnectionDomain": domain,
        "Port": port,
        "UserName": id,
        "InstanceStatus": instance.status,
        "RegionId": instance.region,
        "ZoneId": zone,
        "Capacity": class.capacity_mb,
        "QPS": class.qps,
        "Bandwidth": class.bandwidth_mbps,
        "Connections": class.connections,
        "Config": default_config(),
        "ChargeType": charge_type,
        "EndTime": end_ms.map(iso8601).unwrap_or_default(),
        "NodeType": node_type,
        "NetworkType": network_type,
        "VpcId": instance.attr_str("VpcId"),
        "VSwitchId": instance.attr_str("VSwitchId"),
        "PrivateIpAddr": instance.attr_str("PrivateIp"),
        "OrderId": order_id(),
    });
    ctx.reference(INSTANCE_TYPE, &id);
    ctx.put(instance);
    ctx.put(default_account);
    Ok(response)
}

/// The parameter settings a new instance starts with, as the `Config` JSON string.
fn default_config() -> String {
    json!({ "maxmemory-policy": "volatile-lru", "EvictionPolicy": "volatile-lru", "hash-max-ziplist-entries": 512 })
        .to_string()
}

fn instance_json(instance: &Resource) -> Value {
    let class = CLASSES.iter().find(|c| c.name == instance.attr_str("InstanceClass"));
    json!({
        "InstanceId": instance.id,
        "InstanceName": instance.name,
        "InstanceStatus": instance.status,
        "InstanceType": "Redis",
        "InstanceClass": instance.attr_str("InstanceClass"),
        "EngineVersion": instance.attr_str("EngineVersion"),
        "EditionType": class.map_or("Community", |c| c.edition),
        "ArchitectureType": "standard",
        "NodeType": instance.attr_str("NodeType"),
        "Capacity": class.map_or(0, |c| c.capacity_mb),
        "Bandwidth": class.map_or(0, |c| c.bandwidth_mbps),
        "Connections": class.map_or(0, |c| c.connections),
        "QPS": class.map_or(0, |c| c.qps),
        "ConnectionDomain": instance.attr_str("ConnectionDomain"),
        "Port": instance.attr_i64("Port"),
        "UserName": instance.id,
        "RegionId": instance.region,
        "ZoneId": instance.attr_str("ZoneId"),
        "SecondaryZoneId": instance.attr_str("SecondaryZoneId"),
        "ChargeType": instance.attr_str("ChargeType"),
        "NetworkType": instance.attr_str("NetworkType"),
        "VpcId": instance.attr_str("VpcId"),
        "VSwitchId": instance.attr_str("VSwitchId"),
        "PrivateIp": instance.attr_str("PrivateIp"),
        "CreateTime": iso8601(instance.created_ms),
        "EndTime": instance.attr_i64("EndTime").map(iso8601).unwrap_or_default(),
        "ResourceGroupId": instance.attr_str("ResourceGroupId"),
        "ConnectionMode": "Standard",
        "PackageType": "standard",
        "CloudType": "cloud",
        "IsRds": true,
        "HasRenewChangeOrder": false,
        "ShardCount": 1,
    })
}

fn describe_instances(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let ids = p.list("InstanceIds")?;
    let status = p.get("InstanceStatus");
    let charge_type = p.get("ChargeType");
    let class = p.get("InstanceClass");
    let engine_version = p.get("EngineVersion");
    let network_type = p.get("NetworkType");
    let vpc_id = p.get("VpcId");
    let vswitch_id = p.get("VSwitchId");
    let zone = p.get("ZoneId");
    let search = p.get("SearchKey");
    // The recycle bin lists the released instances; other lists never show them.
    let listed = if status == Some("Released") {
        recycle::recycled(ctx)
    } else {
        ctx.list(INSTANCE)
    };
    let instances: Vec<Resource> = listed
        .into_iter()
        .filter(|i| ids.is_empty() || ids.contains(&i.id))
        .filter(|i| status.is_none_or(|s| i.status == s))
        .filter(|i| charge_type.is_none_or(|c| i.attr_str("ChargeType") == c))
        .filter(|i| class.is_none_or(|c| i.attr_str("InstanceClass") == c))
        .filter(|i| engine_version.is_none_or(|v| i.attr_str("EngineVersion") == v))
        .filter(|i| network_type.is_none_or(|t| i.attr_str("NetworkType") == t))
        .filter(|i| vpc_id.is_none_or(|v| i.attr_str("VpcId") == v))
        .filter(|i| vswitch_id.is_none_or(|v| i.attr_str("VSwitchId") == v))
        .filter(|i| zone.is_none_or(|z| i.attr_str("ZoneId") == z))
        .filter(|i| search.is_none_or(|s| i.id.contains(s) || i.name.contains(s)))
        .collect();
    let (page, number, size, total) = paginate(instances, p, 50)?;
    let items: Vec<Value> = page.iter().map(instance_json).collect();
    Ok(json!({
        "PageNumber": number,
        "PageSize": size,
        "TotalCount": total,
        "Instances": { "KVStoreInstance": items },
    }))
}

fn find_instance(ctx: &OpCtx<'_>, p: &Params) -> Result<Resource, ApiError> {
    let id = p.required("InstanceId")?;
    ctx.find(INSTANCE, id, "InstanceId")
}

fn describe_instance_attribute(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let groups = load_groups(&instance, WHITELIST_ATTR)?;
    let default_ips = groups
        .iter()
        .find(|g| g.name == "default")
        .map(|g| g.ips.join(","))
        .unwrap_or_default();
    let mut attribute = instance_json(&instance);
    let extra = json!({
        "PrivateIpAddr": instance.attr_str("PrivateIp"),
        "SecurityIPList": default_ips,
        "VpcAuthMode": instance.attr_str("VpcAuthMode"),
        "MaintainStartTime": "18:00Z",
        "MaintainEndTime": "22:00Z",
        "AvailabilityValue": "100%",
        "ReplicationMode": if instance.attr_str("NodeType") == "STAND_ALONE" { "" } else { "master-slave" },
        "Config": default_config(),
        "IsOrderCompleted": true,
        "InstanceReleaseProtection": false,
    });
    if let (Value::Object(attribute), Value::Object(extra)) = (&mut attribute, extra) {
        attribute.extend(extra);
    }
    ctx.reference(INSTANCE_TYPE, &instance.id);
    Ok(json!({ "Instances": { "DBInstanceAttribute": [attribute] } }))
}

/// Changes the instance type. The emulator applies the change at once (`Changing` → `Normal`), whether
/// `EffectiveTime` is `Immediately` or `MaintainTime`.
fn modify_instance_spec(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut instance = find_instance(ctx, p)?;
    let target = instance_class("InstanceClass", p.required("InstanceClass")?)?;
    p.one_of("EffectiveTime", &["Immediately", "MaintainTime"])?;
    let order_type = p.one_of("OrderType", &["UPGRADE", "DOWNGRADE"])?;
    let current = instance_class("InstanceClass", instance.attr_str("InstanceClass"))?;
    if target.name == current.name {
        return Err(ApiError::invalid_parameter(
            "InstanceClass",
            format!("the instance already is {}", current.name),
        ));
    }
    match order_type {
        Some("UPGRADE") if target.capacity_mb < current.capacity_mb => {
            return Err(ApiError::invalid_parameter(
                "OrderType",
                "UPGRADE needs a larger instance type; use DOWNGRADE",
            ));
        }
        Some("DOWNGRADE") if target.capacity_mb > current.capacity_mb => {
            return Err(ApiError::invalid_parameter(
                "OrderType",
                "DOWNGRADE needs a smaller instance type; use UPGRADE",
            ));
        }
        _ => {}
    }
    require_normal(&instance)?;
    instance.set("InstanceClass", target.name);
    ctx.begin_transition(&mut instance, "Changing", "Normal");
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.put(instance);
    Ok(json!({ "OrderId": order_id() }))
}

/// Restarts now (the instance is `Rebooting`, "Restarting" in the console, until it is back) or
/// in the maintenance window, when the instance goes on serving until then.
fn restart_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut instance = find_instance(ctx, p)?;
    let when = p
        .one_of("EffectiveTime", &["Immediately", "MaintainTime"])?
        .unwrap_or("Immediately");
    p.bool("UpgradeMinorVersion")?;
    require_normal(&instance)?;
    if when == "Immediately" {
        ctx.begin_transition(&mut instance, "Rebooting", "Normal");
    }
    ctx.reference(INSTANCE_TYPE, &instance.id);
    let id = instance.id.clone();
    ctx.put(instance);
    Ok(json!({ "InstanceId": id }))
}

fn delete_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    if instance.status == "Creating" {
        return Err(incorrect_state());
    }
    if instance.attr_str("ChargeType") == "PrePaid" {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "OperationDenied",
            "Subscription (PrePaid) instances cannot be released by DeleteInstance; they are released when they \
             expire.",
        ));
    }
    for account in ctx.children(accounts::ACCOUNT, &instance.id) {
        ctx.delete(&account.id);
    }
    ctx.reference(INSTANCE_TYPE, &instance.id);
    // A released pay-as-you-go instance goes to the recycle bin.
    recycle::release(ctx, instance);
    Ok(json!({}))
}

fn modify_security_ips(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut instance = find_instance(ctx, p)?;
    let change = WhitelistChange::parse(p, &WHITELIST_PARAMS)?;
    require_normal(&instance)?;
    change.apply(&mut instance, WHITELIST_ATTR)?;
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.put(instance);
    Ok(json!({}))
}

fn describe_security_ips(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let groups: Vec<Value> = load_groups(&instance, WHITELIST_ATTR)?
        .into_iter()
        .map(|g| {
            json!({
                "SecurityIpGroupName": g.name,
                "SecurityIpGroupAttribute": g.attribute,
                "SecurityIpList": g.ips.join(","),
            })
        })
        .collect();
    ctx.reference(INSTANCE_TYPE, &instance.id);
    Ok(json!({ "SecurityIpGroups": { "SecurityIpGroup": groups } }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::products::testkit::{ON_THE_HOUR_MS, TestConsole};

    fn create(h: &TestConsole, class: &str) -> String {
        let (vpc_id, vsw_id) = h.network();
        let body = h.ok(
            &PRODUCT,
            "CreateInstance",
            &[
                ("InstanceName", "session-cache"),
                ("InstanceClass", class),
                ("EngineVersion", "7.0"),
                ("ChargeType", "PostPaid"),
                ("VpcId", &vpc_id),
                ("VSwitchId", &vsw_id),
                ("ZoneId", "cn-hangzhou-h"),
                ("Password", "Cache!2026"),
            ],
        );
        body["InstanceId"].as_str().expect("InstanceId").to_owned()
    }

    fn status(h: &TestConsole, id: &str) -> String {
        let body = h.ok(&PRODUCT, "DescribeInstanceAttribute", &[("InstanceId", id)]);
        body["Instances"]["DBInstanceAttribute"][0]["InstanceStatus"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    #[test]
    fn creates_and_describes_an_instance() {
        let h = TestConsole::new();
        let id = create(&h, "redis.master.small.default");
        assert!(id.starts_with("r-bp1"), "{id}");
        let event = h.newest_event();
        assert_eq!(
            (event.service_name.as_str(), event.event_source.as_str()),
            ("R-kvstore", "r-kvstore.aliyuncs.com")
        );
        assert_eq!(event.referenced_resources["ACS::KVSTORE::Instance"], [id.as_str()]);
        assert_eq!(
            event.response_elements["ConnectionDomain"],
            format!("{id}.redis.rds.aliyuncs.com")
        );

        let list = h.ok(&PRODUCT, "DescribeInstances", &[]);
        assert_eq!(list["TotalCount"], 1);
        let item = &list["Instances"]["KVStoreInstance"][0];
        assert_eq!(item["InstanceId"], id);
        assert_eq!(item["InstanceName"], "session-cache");
        assert_eq!(item["InstanceStatus"], "Normal");
        assert_eq!(item["Capacity"], 1024);
        assert_eq!(item["EngineVersion"], "7.0");
        assert_eq!(item["Port"], 6379);
        assert!(item["PrivateIp"].as_str().unwrap().starts_with("192.168.1."));

        let attr = h.ok(&PRODUCT, "DescribeInstanceAttribute", &[("InstanceId", &id)]);
        let attr = &attr["Instances"]["DBInstanceAttribute"][0];
        assert_eq!(attr["VpcAuthMode"], "Open");
        assert_eq!(attr["SecurityIPList"], "127.0.0.1");
        let filtered = h.ok(&PRODUCT, "DescribeInstances", &[("InstanceStatus", "Creating")]);
        assert_eq!(filtered["TotalCount"], 0);
        let by_id = h.ok(&PRODUCT, "DescribeInstances", &[("InstanceIds", &id)]);
        assert_eq!(by_id["TotalCount"], 1);
    }

    #[test]
    fn accounts_start_with_the_default_one_and_passwords_are_checked() {
        let h = TestConsole::new();
        let id = create(&h, "redis.master.small.default");
        let names = |h: &TestConsole| -> Vec<String> {
            let body = h.ok(&PRODUCT, "DescribeAccounts", &[("InstanceId", &id)]);
            body["Accounts"]["Account"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a["AccountName"].as_str().unwrap().to_owned())
                .collect()
        };
        assert_eq!(
            names(&h),
            [id.as_str()],
            "the default account is named after the instance"
        );

        let change = |old: &str| {
            h.call(
                &PRODUCT,
                "ModifyAccountPassword",
                &[
                    ("InstanceId", &id),
                    ("AccountName", &id),
                    ("OldAccountPassword", old),
                    ("NewAccountPassword", "Fresh!2026x"),
                ],
            )
        };
        let wrong = change("Guess!2026").unwrap_err();
        assert_eq!(wrong.code, "InvalidOldAccountPassword");
        change("Cache!2026").expect("the current password changes it");
        assert!(change("Cache!2026").is_err(), "the old password no longer works");
        let event = h.last_event("ModifyAccountPassword");
        assert!(
            !format!("{:?}", event.request_parameters).contains("Fresh!2026x"),
            "{:?}",
            event.request_parameters
        );

        h.ok(
            &PRODUCT,
            "CreateAccount",
            &[
                ("InstanceId", &id),
                ("AccountName", "app_reader"),
                ("AccountPassword", "Reader!2026"),
                ("AccountPrivilege", "RoleReadOnly"),
            ],
        );
        h.ok(
            &PRODUCT,
            "ResetAccountPassword",
            &[
                ("InstanceId", &id),
                ("AccountName", "app_reader"),
                ("AccountPassword", "Another!2026"),
            ],
        );
        let weak = h.err(
            &PRODUCT,
            "ResetAccountPassword",
            &[
                ("InstanceId", &id),
                ("AccountName", "app_reader"),
                ("AccountPassword", "short"),
            ],
        );
        assert_eq!(weak.code, "InvalidParameter");
        assert_eq!(names(&h).len(), 2);
        let default = h.err(&PRODUCT, "DeleteAccount", &[("InstanceId", &id), ("AccountName", &id)]);
        assert_eq!(default.code, "InvalidAccountName.Default");
        h.ok(
            &PRODUCT,
            "DeleteAccount",
            &[("InstanceId", &id), ("AccountName", "app_reader")],
        );
        let gone = h.err(
            &PRODUCT,
            "ResetAccountPassword",
            &[
                ("InstanceId", &id),
                ("AccountName", "app_reader"),
                ("AccountPassword", "Another!2026"),
            ],
        );
        assert_eq!(gone.code, "InvalidAccountName.NotFound");
    }

    #[test]
    fn states_follow_the_clock() {
        let h = TestConsole::with_transition_delay(3_000);
        let (vpc_id, vsw_id) = h.network();
        h.clock.advance(3_000);
        let body = h.ok(
            &PRODUCT,
            "CreateInstance",
            &[
                ("InstanceClass", "redis.master.small.default"),
                ("VpcId", &vpc_id),
                ("VSwitchId", &vsw_id),
            ],
        );
        assert_eq!(body["InstanceStatus"], "Creating");
        let id = body["InstanceId"].as_str().unwrap().to_owned();
        assert_eq!(status(&h, &id), "Creating");
        let e = h.err(
            &PRODUCT,
            "ModifySecurityIps",
            &[("InstanceId", &id), ("SecurityIps", "10.0.0.1")],
        );
        assert_eq!(e.code, "IncorrectDBInstanceState");
        let e = h.err(&PRODUCT, "DeleteInstance", &[("InstanceId", &id)]);
        assert_eq!(e.code, "IncorrectDBInstanceState");
        h.clock.advance(3_000);
        assert_eq!(status(&h, &id), "Normal");

        h.ok(
            &PRODUCT,
            "ModifyInstanceSpec",
            &[("InstanceId", &id), ("InstanceClass", "redis.master.mid.default")],
        );
        assert_eq!(status(&h, &id), "Changing");
        let e = h.err(
            &PRODUCT,
            "ModifyInstanceSpec",
            &[("InstanceId", &id), ("InstanceClass", "redis.master.stand.default")],
        );
        assert_eq!(e.code, "IncorrectDBInstanceState");
        h.clock.advance(3_000);
        assert_eq!(status(&h, &id), "Normal");

        // A restart in the maintenance window leaves the instance serving; a restart now reboots it.
        h.ok(
            &PRODUCT,
            "RestartInstance",
            &[("InstanceId", &id), ("EffectiveTime", "MaintainTime")],
        );
        assert_eq!(status(&h, &id), "Normal");
        h.ok(&PRODUCT, "RestartInstance", &[("InstanceId", &id)]);
        assert_eq!(status(&h, &id), "Rebooting");
        let e = h.err(&PRODUCT, "RestartInstance", &[("InstanceId", &id)]);
        assert_eq!(e.code, "IncorrectDBInstanceState");
        let e = h.err(
            &PRODUCT,
            "RestartInstance",
            &[("InstanceId", &id), ("EffectiveTime", "Later")],
        );
        assert_eq!(e.code, "InvalidParameter");
        h.clock.advance(3_000);
        assert_eq!(status(&h, &id), "Normal");
        let attr = h.ok(&PRODUCT, "DescribeInstanceAttribute", &[("InstanceId", &id)]);
        assert_eq!(attr["Instances"]["DBInstanceAttribute"][0]["Capacity"], 2048);
    }

    #[test]
    fn spec_changes_are_checked() {
        let h = TestConsole::new();
        let id = create(&h, "redis.master.mid.default");
        let e = h.err(
            &PRODUCT,
            "ModifyInstanceSpec",
            &[("InstanceId", &id), ("InstanceClass", "redis.master.mid.default")],
        );
        assert!(e.message.contains("\"InstanceClass\""), "{e}");
        let e = h.err(
            &PRODUCT,
            "ModifyInstanceSpec",
            &[("InstanceId", &id), ("InstanceClass", "redis.huge")],
        );
        assert!(e.message.contains("\"InstanceClass\""), "{e}");
        let e = h.err(
            &PRODUCT,
            "ModifyInstanceSpec",
            &[
                ("InstanceId", &id),
                ("InstanceClass", "redis.master.small.default"),
                ("OrderType", "UPGRADE"),
            ],
        );
        assert!(e.message.contains("\"OrderType\""), "{e}");
        h.ok(
            &PRODUCT,
            "ModifyInstanceSpec",
            &[
                ("InstanceId", &id),
                ("InstanceClass", "redis.master.small.default"),
                ("OrderType", "DOWNGRADE"),
            ],
        );
        let list = h.ok(
            &PRODUCT,
            "DescribeInstances",
            &[("InstanceClass", "redis.master.small.default")],
        );
        assert_eq!(list["TotalCount"], 1);
    }

    #[test]
    fn whitelist_groups_cover_append_delete() {
        let h = TestConsole::new();
        let id = create(&h, "redis.master.small.default");
        let groups = |h: &TestConsole| -> Vec<(String, String)> {
            let body = h.ok(&PRODUCT, "DescribeSecurityIps", &[("InstanceId", &id)]);
            body["SecurityIpGroups"]["SecurityIpGroup"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| {
                    (
                        g["SecurityIpGroupName"].as_str().unwrap().to_owned(),
                        g["SecurityIpList"].as_str().unwrap().to_owned(),
                    )
                })
                .collect()
        };
        assert_eq!(groups(&h), [("default".to_owned(), "127.0.0.1".to_owned())]);
        h.ok(
            &PRODUCT,
            "ModifySecurityIps",
            &[("InstanceId", &id), ("SecurityIps", "10.0.0.0/24,10.0.1.5")],
        );
        assert_eq!(groups(&h), [("default".to_owned(), "10.0.0.0/24,10.0.1.5".to_owned())]);
        h.ok(
            &PRODUCT,
            "ModifySecurityIps",
            &[
                ("InstanceId", &id),
                ("SecurityIps", "10.0.2.0/24"),
                ("SecurityIpGroupName", "app_servers"),
                ("ModifyMode", "Append"),
            ],
        );
        h.ok(
            &PRODUCT,
            "ModifySecurityIps",
            &[
                ("InstanceId", &id),
                ("SecurityIps", "10.0.1.5"),
                ("ModifyMode", "Delete"),
            ],
        );
        assert_eq!(
            groups(&h),
            [
                ("default".to_owned(), "10.0.0.0/24".to_owned()),
                ("app_servers".to_owned(), "10.0.2.0/24".to_owned())
            ]
        );
        let e = h.err(
            &PRODUCT,
            "ModifySecurityIps",
            &[
                ("InstanceId", &id),
                ("SecurityIps", "10.0.0.1"),
                ("SecurityIpGroupName", "Bad Name"),
            ],
        );
        assert!(e.message.contains("\"SecurityIpGroupName\""), "{e}");
        let e = h.err(
            &PRODUCT,
            "ModifySecurityIps",
            &[("InstanceId", &id), ("SecurityIps", "10.0.0.0/33")],
        );
        assert!(e.message.contains("\"SecurityIps\""), "{e}");
        let e = h.err(&PRODUCT, "ModifySecurityIps", &[("InstanceId", &id)]);
        assert_eq!(e.code, "MissingParameter");
    }

    #[test]
    fn bad_parameters_unknown_ids_and_isolation() {
        let h = TestConsole::starting_at(ON_THE_HOUR_MS);
        let (vpc_id, vsw_id) = h.network();
        let base = [
            ("InstanceClass", "redis.master.small.default"),
            ("VpcId", vpc_id.as_str()),
            ("VSwitchId", vsw_id.as_str()),
        ];
        for missing in ["InstanceClass", "VpcId", "VSwitchId"] {
            let without: Vec<(&str, &str)> = base.iter().copied().filter(|(k, _)| *k != missing).collect();
            let e = h.err(&PRODUCT, "CreateInstance", &without);
            assert_eq!(e.code, "MissingParameter");
            assert!(e.message.contains(&format!("\"{missing}\"")), "{e}");
        }
        for (param, value) in [
            ("EngineVersion", "3.2"),
            ("ChargeType", "Monthly"),
            ("Password", "short"),
            ("ZoneId", "cn-hangzhou-k"),
        ] {
            let e = h.err(&PRODUCT, "CreateInstance", &[&base[..], &[(param, value)][..]].concat());
            assert!(e.message.contains(&format!("\"{param}\"")), "{param}: {e}");
        }
        let e = h.err(
            &PRODUCT,
            "CreateInstance",
            &[&base[..], &[("ChargeType", "PrePaid")][..]].concat(),
        );
        assert!(e.message.contains("\"Period\""), "{e}");
        let prepaid = h.ok(
            &PRODUCT,
            "CreateInstance",
            &[&base[..], &[("ChargeType", "PrePaid"), ("Period", "12")][..]].concat(),
        );
        assert_eq!(prepaid["EndTime"], "2027-11-30T14:00:00Z");
        let prepaid = prepaid["InstanceId"].as_str().unwrap().to_owned();
        let e = h.err(&PRODUCT, "DeleteInstance", &[("InstanceId", &prepaid)]);
        assert_eq!(e.code, "OperationDenied");

        let e = h.err(
            &PRODUCT,
            "DescribeInstanceAttribute",
            &[("InstanceId", "r-bp1doesnotexist")],
        );
        assert_eq!(e.code, "InvalidInstanceId.NotFound");
        let other = h.account("other");
        let e = h
            .call_as(
                &other,
                &PRODUCT,
                "DescribeInstanceAttribute",
                &[("InstanceId", &prepaid)],
            )
            .unwrap_err();
        assert_eq!(e.code, "InvalidInstanceId.NotFound");
        assert_eq!(
            h.call_as(&other, &PRODUCT, "DescribeInstances", &[]).unwrap()["TotalCount"],
            0
        );
        let e = h.call_as(&other, &PRODUCT, "CreateInstance", &base).unwrap_err();
        assert_eq!(e.code, "InvalidVpcId.NotFound");

        let postpaid = h.ok(&PRODUCT, "CreateInstance", &base);
        let postpaid = postpaid["InstanceId"].as_str().unwrap().to_owned();
        h.ok(&PRODUCT, "DeleteInstance", &[("InstanceId", &postpaid)]);
        assert_eq!(h.ok(&PRODUCT, "DescribeInstances", &[])["TotalCount"], 1);
    }
}
