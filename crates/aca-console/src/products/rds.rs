//! ApsaraDB RDS (API 2014-08-15): instances, databases, database accounts, IP whitelists and auto-renewal.
//!
//! The whitelist and vSwitch-placement helpers at the end are shared with the other database and
//! networking products (Tair, CLB), which follow the same rules.

use axum::http::StatusCode;
use rand::Rng;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::catalog::{OpCtx, Operation, Product};
use crate::clock::{Millis, iso8601};
use crate::error::ApiError;
use crate::model::Resource;
use crate::params::Params;
use crate::products::regions::{check_zone, parse_cidr, region};
use crate::products::vpc::{VPC, VSWITCH};

pub static PRODUCT: Product = Product {
    code: "rds",
    name: "ApsaraDB RDS",
    service_name: "Rds",
    version: "2014-08-15",
    endpoint: "rds.aliyuncs.com",
    console_agent: "rds.console.aliyun.com",
    operations: &[
        Operation::write("CreateDBInstance", create_db_instance),
        Operation::read("DescribeDBInstances", describe_db_instances),
        Operation::read("DescribeDBInstanceAttribute", describe_db_instance_attribute),
        Operation::write("ModifyDBInstanceDescription", modify_db_instance_description),
        Operation::write("RestartDBInstance", restart_db_instance),
        Operation::write("DeleteDBInstance", delete_db_instance),
        Operation::write("CreateDatabase", create_database),
        Operation::read("DescribeDatabases", describe_databases),
        Operation::write("DeleteDatabase", delete_database),
        Operation::write("CreateAccount", create_account),
        Operation::read("DescribeAccounts", describe_accounts),
        Operation::write("DeleteAccount", delete_account),
        Operation::write("GrantAccountPrivilege", grant_account_privilege),
        Operation::write("ModifySecurityIps", modify_security_ips),
        Operation::read("DescribeDBInstanceIPArrayList", describe_db_instance_ip_array_list),
        Operation::write(
            "ModifyInstanceAutoRenewalAttribute",
            modify_instance_auto_renewal_attribute,
        ),
        Operation::read(
            "DescribeInstanceAutoRenewalAttribute",
            describe_instance_auto_renewal_attribute,
        ),
    ],
};

pub const INSTANCE: &str = "rds.instance";
pub const DATABASE: &str = "rds.database";
pub const ACCOUNT: &str = "rds.account";
const INSTANCE_TYPE: &str = "ACS::RDS::DBInstance";
const WHITELIST_ATTR: &str = "SecurityIPArrays";

/// The engines RDS sells, with their versions, instance-class prefixes, ports and endpoint labels.
struct Engine {
    name: &'static str,
    versions: &'static [&'static str],
    class_prefixes: &'static [&'static str],
    port: u16,
    /// The engine's label in connection strings: `rm-….mysql.rds.aliyuncs.com`.
    domain: &'static str,
    /// Valid `AccountPrivilege` values for this engine.
    privileges: &'static [&'static str],
}

const ENGINES: &[Engine] = &[
    Engine {
        name: "MySQL",
        versions: &["5.6", "5.7", "8.0"],
        class_prefixes: &["mysql.", "rds.mysql."],
        port: 3306,
        domain: "mysql",
        privileges: &["ReadWrite", "ReadOnly", "DDLOnly", "DMLOnly"],
    },
    Engine {
        name: "PostgreSQL",
        versions: &["10.0", "11.0", "12.0", "13.0", "14.0", "15.0", "16.0", "17.0"],
        class_prefixes: &["pg.", "rds.pg."],
        port: 5432,
        domain: "pg",
        privileges: &["DBOwner"],
    },
    Engine {
        name: "SQLServer",
        versions: &[
            "2012_std_ha",
            "2016_std_ha",
            "2017_std_ha",
            "2019_std_ha",
            "2022_std_ha",
            "2019_web",
            "2022_web",
        ],
        class_prefixes: &["mssql.", "rds.mssql."],
        port: 1433,
        domain: "sqlserver",
        privileges: &["ReadWrite", "ReadOnly", "DBOwner"],
    },
    Engine {
        name: "MariaDB",
        versions: &["10.3"],
        class_prefixes: &["mariadb."],
        port: 3306,
        domain: "mariadb",
        privileges: &["ReadWrite", "ReadOnly", "DDLOnly", "DMLOnly"],
    },
];

fn engine(name: &str) -> Option<&'static Engine> {
    ENGINES.iter().find(|e| e.name == name)
}

const STORAGE_TYPES: &[&str] = &[
    "local_ssd",
    "cloud_ssd",
    "cloud_essd",
    "cloud_essd2",
    "cloud_essd3",
    "general_essd",
];
const CATEGORIES: &[&str] = &["Basic", "HighAvailability", "AlwaysOn", "Finance", "cluster"];

fn incorrect_state() -> ApiError {
    ApiError::incorrect_status(
        "IncorrectDBInstanceState",
        "Current DB instance state does not support this operation.",
    )
}

fn require_running(instance: &Resource) -> Result<(), ApiError> {
    if instance.status == "Running" {
        Ok(())
    } else {
        Err(incorrect_state())
    }
}

/// Descriptions as RDS enforces them: 2–256 characters, not starting with `http://` or `https://`.
fn check_description(param: &str, text: &str) -> Result<(), ApiError> {
    let len = text.chars().count();
    if !(2..=256).contains(&len) || text.starts_with("http://") || text.starts_with("https://") {
        return Err(ApiError::invalid_parameter(
            param,
            "the description must be 2 to 256 characters long and not start with http:// or https://",
        ));
    }
    Ok(())
}

/// CPU cores and memory (MB) of an instance class such as `mysql.n2.medium.1` (2 cores, 4 GB).
fn class_size(class: &str) -> (i64, i64) {
    let parts: Vec<&str> = class.split('.').collect();
    let cores = parts
        .iter()
        .find_map(|p| match *p {
            "micro" | "small" => Some(1),
            "medium" => Some(2),
            "large" => Some(4),
            "xlarge" => Some(8),
            "2xlarge" => Some(16),
            "4xlarge" => Some(32),
            "8xlarge" => Some(64),
            _ => None,
        })
        .unwrap_or(2);
    let ratio = parts
        .iter()
        .find_map(|p| match *p {
            "n4" | "x4" => Some(4),
            "n8" | "x8" => Some(8),
            _ => None,
        })
        .unwrap_or(2);
    (cores, cores * ratio * 1024)
}

/// `ms` moved `months` calendar months on (the day clamped to the target month's length).
pub(crate) fn add_months(ms: Millis, months: i64) -> Millis {
    let Ok(t) = time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000)) else {
        return ms;
    };
    let total = i64::from(t.year()) * 12 + i64::from(u8::from(t.month())) - 1 + months;
    let (year, month0) = (total.div_euclid(12), total.rem_euclid(12));
    let Ok(month) = time::Month::try_from(month0 as u8 + 1) else {
        return ms;
    };
    let Ok(year) = i32::try_from(year) else { return ms };
    let day = t.day().min(month.length(year));
    match time::Date::from_calendar_date(year, month, day) {
        Ok(date) => t.replace_date(date).unix_timestamp() * 1000 + ms.rem_euclid(1000),
        Err(_) => ms,
    }
}

/// A 15-digit order (or task) id, as buy operations return.
pub(crate) fn order_id() -> String {
    let mut rng = rand::rng();
    format!("2{:014}", rng.random_range(0..100_000_000_000_000u64))
}

fn create_db_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

fn expire_time(instance: &Resource) -> String {
    instance.attr_i64("ExpireTime").map(iso8601).unwrap_or_default()
}

fn instance_summary(instance: &Resource) -> Value {
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

fn describe_db_instances(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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
    let page_number = p.int_in("PageNumber", 1..=i64::from(u32::MAX), 1)?;
    let page_size = p.int_in("PageSize", 1..=100, 30)?;
    let total = instances.len();
    let items: Vec<Value> = instances
        .iter()
        .skip(((page_number - 1) * page_size) as usize)
        .take(page_size as usize)
        .map(instance_summary)
        .collect();
    Ok(json!({
        "TotalRecordCount": total,
        "PageNumber": page_number,
        "PageRecordCount": items.len(),
        "Items": { "DBInstance": items },
    }))
}

fn find_instance(ctx: &OpCtx<'_>, p: &Params) -> Result<Resource, ApiError> {
    let id = p.required("DBInstanceId")?;
    ctx.find(INSTANCE, id, "DBInstanceId")
}

fn describe_db_instance_attribute(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

fn modify_db_instance_description(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut instance = find_instance(ctx, p)?;
    let description = p.required("DBInstanceDescription")?;
    check_description("DBInstanceDescription", description)?;
    instance.name = description.to_owned();
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.put(instance);
    Ok(json!({}))
}

fn restart_db_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut instance = find_instance(ctx, p)?;
    require_running(&instance)?;
    ctx.begin_transition(&mut instance, "Rebooting", "Running");
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.put(instance);
    Ok(json!({}))
}

fn delete_db_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

// ---- databases -------------------------------------------------------------------------------

fn database_id(instance_id: &str, name: &str) -> String {
    format!("{instance_id}/database/{name}")
}

fn account_id(instance_id: &str, name: &str) -> String {
    format!("{instance_id}/account/{name}")
}

/// Database names: 2–64 characters of lowercase letters, digits, `_` and `-`, starting with a letter
/// and ending with a letter or digit.
fn check_db_name(name: &str) -> Result<(), ApiError> {
    let ok = (2..=64).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.ends_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
    if ok {
        Ok(())
    } else {
        Err(ApiError::invalid_parameter(
            "DBName",
            "the name must be 2 to 64 lowercase letters, digits, underscores or hyphens, start with a letter \
             and end with a letter or digit",
        ))
    }
}

fn check_character_set(engine: &str, charset: &str) -> Result<(), ApiError> {
    let ok = match engine {
        "SQLServer" => [
            "Chinese_PRC_CI_AS",
            "Chinese_PRC_CS_AS",
            "SQL_Latin1_General_CP1_CI_AS",
            "SQL_Latin1_General_CP1_CS_AS",
            "Chinese_PRC_BIN",
        ]
        .contains(&charset),
        // `UTF8` or `UTF8,C,en_US.utf8`: the character set, then optional collate and ctype.
        "PostgreSQL" => charset.split(',').next().is_some_and(|set| {
            !set.is_empty()
                && set
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        }),
        _ => ["utf8", "gbk", "latin1", "utf8mb4"].contains(&charset),
    };
    if ok {
        Ok(())
    } else {
        Err(ApiError::invalid_parameter(
            "CharacterSetName",
            format!("{charset:?} is not a character set of {engine}"),
        ))
    }
}

fn create_database(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let name = p.required("DBName")?;
    let charset = p.required("CharacterSetName")?;
    check_db_name(name)?;
    check_character_set(instance.attr_str("Engine"), charset)?;
    require_running(&instance)?;
    let id = database_id(&instance.id, name);
    if ctx.get(&id).is_some() {
        return Err(ApiError::already_exists(
            "InvalidDBName.Duplicate",
            "Specified DB name already exists in this instance.",
        ));
    }
    let description = p.get("DBDescription").unwrap_or("");
    if !description.is_empty() {
        check_description("DBDescription", description)?;
    }
    let mut database = Resource::new(DATABASE, id, &instance.region, name, "Creating", ctx.now_ms)
        .with("CharacterSetName", charset)
        .with("DBDescription", description);
    database.parent = Some(instance.id.clone());
    ctx.begin_transition(&mut database, "Creating", "Running");
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.put(database);
    Ok(json!({}))
}

/// One account's privilege on one database, as stored on the account.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Privilege {
    db_name: String,
    privilege: String,
}

fn privileges_of(account: &Resource) -> Result<Vec<Privilege>, ApiError> {
    match account.attrs.get("DatabasePrivileges") {
        None => Ok(Vec::new()),
        Some(v) => {
            serde_json::from_value(v.clone()).map_err(|e| ApiError::internal(format!("corrupt privileges: {e}")))
        }
    }
}

fn set_privileges(account: &mut Resource, privileges: &[Privilege]) -> Result<(), ApiError> {
    let value = serde_json::to_value(privileges).map_err(|e| ApiError::internal(e.to_string()))?;
    account.set("DatabasePrivileges", value);
    Ok(())
}

/// What a privilege name grants on MySQL, as DescribeAccounts reports it in `AccountPrivilegeDetail`.
fn privilege_detail(privilege: &str) -> &'static str {
    match privilege {
        "ReadWrite" => {
            "SELECT,INSERT,UPDATE,DELETE,CREATE,DROP,REFERENCES,INDEX,ALTER,CREATE TEMPORARY TABLES,LOCK TABLES,\
             EXECUTE,CREATE VIEW,SHOW VIEW,CREATE ROUTINE,ALTER ROUTINE,EVENT,TRIGGER"
        }
        "ReadOnly" => "SELECT,LOCK TABLES,SHOW VIEW",
        "DDLOnly" => {
            "CREATE,DROP,INDEX,ALTER,CREATE TEMPORARY TABLES,LOCK TABLES,CREATE VIEW,SHOW VIEW,\
             CREATE ROUTINE,ALTER ROUTINE"
        }
        "DMLOnly" => "SELECT,INSERT,UPDATE,DELETE,CREATE TEMPORARY TABLES,LOCK TABLES,EXECUTE,SHOW VIEW,EVENT,TRIGGER",
        _ => "",
    }
}

fn describe_databases(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let name = p.get("DBName");
    let status = p.get("DBStatus");
    let accounts = ctx.children(ACCOUNT, &instance.id);
    let mut items = Vec::new();
    for db in ctx.children(DATABASE, &instance.id) {
        if name.is_some_and(|n| db.name != n) || status.is_some_and(|s| db.status != s) {
            continue;
        }
        let mut grants = Vec::new();
        for account in &accounts {
            for privilege in privileges_of(account)?.into_iter().filter(|g| g.db_name == db.name) {
                grants.push(json!({
                    "Account": account.name,
                    "AccountPrivilege": privilege.privilege,
                    "AccountPrivilegeDetail": privilege_detail(&privilege.privilege),
                }));
            }
        }
        items.push(json!({
            "DBName": db.name,
            "DBInstanceId": instance.id,
            "Engine": instance.attr_str("Engine"),
            "DBStatus": db.status,
            "CharacterSetName": db.attr_str("CharacterSetName"),
            "DBDescription": db.attr_str("DBDescription"),
            "Accounts": { "AccountPrivilegeInfo": grants },
        }));
    }
    ctx.reference(INSTANCE_TYPE, &instance.id);
    Ok(json!({ "Databases": { "Database": items } }))
}

fn db_not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "InvalidDBName.NotFound",
        "Specified one or more DB name does not exist or DB status does not support.",
    )
}

fn delete_database(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let name = p.required("DBName")?;
    require_running(&instance)?;
    let id = database_id(&instance.id, name);
    ctx.find(DATABASE, &id, "DBName").map_err(|_| db_not_found())?;
    for mut account in ctx.children(ACCOUNT, &instance.id) {
        let privileges = privileges_of(&account)?;
        if privileges.iter().any(|g| g.db_name == name) {
            let kept: Vec<Privilege> = privileges.into_iter().filter(|g| g.db_name != name).collect();
            set_privileges(&mut account, &kept)?;
            ctx.put(account);
        }
    }
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.delete(&id);
    Ok(json!({}))
}

// ---- accounts --------------------------------------------------------------------------------

const RESERVED_ACCOUNT_NAMES: &[&str] = &[
    "root",
    "admin",
    "eagleye",
    "master",
    "aurora",
    "sa",
    "sysadmin",
    "administrator",
    "mssqld",
    "public",
    "system",
    "postgres",
];

/// Account names: 2–32 characters of letters, digits and `_`, starting with a letter and ending with a
/// letter or digit, not a reserved name.
fn check_account_name(name: &str) -> Result<(), ApiError> {
    let ok = (2..=32).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !ok {
        return Err(ApiError::invalid_parameter(
            "AccountName",
            "the name must be 2 to 32 letters, digits or underscores, start with a letter and end with a \
             letter or digit",
        ));
    }
    if RESERVED_ACCOUNT_NAMES.contains(&name.to_ascii_lowercase().as_str()) {
        return Err(ApiError::invalid_parameter(
            "AccountName",
            format!("{name:?} is a reserved account name"),
        ));
    }
    Ok(())
}

/// Passwords as RDS and Tair require them: 8–32 characters from at least three of uppercase letters,
/// lowercase letters, digits and the special characters `!@#$%^&*()_+-=`.
pub(crate) fn check_password(param: &str, password: &str) -> Result<(), ApiError> {
    const SPECIAL: &str = "!@#$%^&*()_+-=";
    let classes = [
        password.chars().any(|c| c.is_ascii_uppercase()),
        password.chars().any(|c| c.is_ascii_lowercase()),
        password.chars().any(|c| c.is_ascii_digit()),
        password.chars().any(|c| SPECIAL.contains(c)),
    ];
    let allowed = password
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || SPECIAL.contains(c));
    if (8..=32).contains(&password.len()) && allowed && classes.iter().filter(|&&b| b).count() >= 3 {
        Ok(())
    } else {
        Err(ApiError::invalid_parameter(
            param,
            "the password must be 8 to 32 characters long and contain at least three of: uppercase letters, \
             lowercase letters, digits, special characters (!@#$%^&*()_+-=)",
        ))
    }
}

fn create_account(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let name = p.required("AccountName")?;
    let password = p.required("AccountPassword")?;
    check_account_name(name)?;
    check_password("AccountPassword", password)?;
    let account_type = p
        .one_of("AccountType", &["Normal", "Super", "Sysadmin"])?
        .unwrap_or("Normal");
    let description = p.get("AccountDescription").unwrap_or("");
    if !description.is_empty() {
        check_description("AccountDescription", description)?;
    }
    require_running(&instance)?;
    let id = account_id(&instance.id, name);
    let clash = ctx
        .children(ACCOUNT, &instance.id)
        .into_iter()
        .any(|a| a.name.eq_ignore_ascii_case(name));
    if ctx.get(&id).is_some() || clash {
        return Err(ApiError::already_exists(
            "InvalidAccountName.Duplicate",
            "Specified account name already exists in this instance.",
        ));
    }
    let mut account = Resource::new(ACCOUNT, id, &instance.region, name, "Unavailable", ctx.now_ms)
        .with("AccountType", account_type)
        .with("AccountDescription", description);
    account.parent = Some(instance.id.clone());
    set_privileges(&mut account, &[])?;
    ctx.begin_transition(&mut account, "Unavailable", "Available");
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.put(account);
    Ok(json!({}))
}

fn account_not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "InvalidAccountName.NotFound",
        "Specified account does not exist.",
    )
}

fn describe_accounts(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let name = p.get("AccountName");
    let mut items = Vec::new();
    for account in ctx.children(ACCOUNT, &instance.id) {
        if name.is_some_and(|n| account.name != n) {
            continue;
        }
        let privileges: Vec<Value> = privileges_of(&account)?
            .into_iter()
            .map(|g| {
                json!({
                    "DBName": g.db_name,
                    "AccountPrivilege": g.privilege,
                    "AccountPrivilegeDetail": privilege_detail(&g.privilege),
                })
            })
            .collect();
        items.push(json!({
            "DBInstanceId": instance.id,
            "AccountName": account.name,
            "AccountStatus": account.status,
            "AccountType": account.attr_str("AccountType"),
            "AccountDescription": account.attr_str("AccountDescription"),
            "PrivExceeded": "0",
            "DatabasePrivileges": { "DatabasePrivilege": privileges },
        }));
    }
    ctx.reference(INSTANCE_TYPE, &instance.id);
    Ok(json!({ "Accounts": { "DBInstanceAccount": items } }))
}

fn delete_account(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let name = p.required("AccountName")?;
    let id = account_id(&instance.id, name);
    ctx.find(ACCOUNT, &id, "AccountName").map_err(|_| account_not_found())?;
    require_running(&instance)?;
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.delete(&id);
    Ok(json!({}))
}

fn grant_account_privilege(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let name = p.required("AccountName")?;
    let db_names = p.list("DBName")?;
    if db_names.is_empty() {
        return Err(ApiError::missing_parameter("DBName"));
    }
    let privileges = p.list("AccountPrivilege")?;
    if privileges.is_empty() {
        return Err(ApiError::missing_parameter("AccountPrivilege"));
    }
    if privileges.len() != db_names.len() {
        return Err(ApiError::invalid_parameter(
            "AccountPrivilege",
            format!(
                "{} privileges were given for {} databases; give one per database, in order",
                privileges.len(),
                db_names.len()
            ),
        ));
    }
    let engine_name = instance.attr_str("Engine").to_owned();
    let allowed = engine(&engine_name).map_or(&[][..], |e| e.privileges);
    if let Some(bad) = privileges.iter().find(|g| !allowed.contains(&g.as_str())) {
        return Err(ApiError::invalid_parameter(
            "AccountPrivilege",
            format!("{bad:?} is not a {engine_name} privilege ({})", allowed.join(", ")),
        ));
    }
    let mut account = ctx
        .find(ACCOUNT, &account_id(&instance.id, name), "AccountName")
        .map_err(|_| account_not_found())?;
    require_running(&instance)?;
    let mut granted = privileges_of(&account)?;
    for (db_name, privilege) in db_names.iter().zip(&privileges) {
        ctx.find(DATABASE, &database_id(&instance.id, db_name), "DBName")
            .map_err(|_| db_not_found())?;
        granted.retain(|g| &g.db_name != db_name);
        granted.push(Privilege {
            db_name: db_name.clone(),
            privilege: privilege.clone(),
        });
    }
    set_privileges(&mut account, &granted)?;
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.put(account);
    Ok(json!({}))
}

// ---- IP whitelists ---------------------------------------------------------------------------

fn modify_security_ips(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut instance = find_instance(ctx, p)?;
    let ips = parse_security_ips("SecurityIps", p.required("SecurityIps")?)?;
    let group = whitelist_group_name("DBInstanceIPArrayName", p.get("DBInstanceIPArrayName"))?;
    let mode = ModifyMode::from_param(p)?;
    let attribute = p.one_of("DBInstanceIPArrayAttribute", &["hidden"])?.unwrap_or("");
    require_running(&instance)?;
    let mut groups = load_groups(&instance, WHITELIST_ATTR)?;
    apply_whitelist_change(&mut groups, &group, attribute, &ips, mode)?;
    store_groups(&mut instance, WHITELIST_ATTR, &groups)?;
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.put(instance);
    Ok(json!({ "TaskId": order_id() }))
}

fn describe_db_instance_ip_array_list(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let items: Vec<Value> = load_groups(&instance, WHITELIST_ATTR)?
        .into_iter()
        .map(|g| {
            json!({
                "DBInstanceIPArrayName": g.name,
                "DBInstanceIPArrayAttribute": g.attribute,
                "SecurityIPType": "IPv4",
                "SecurityIPList": g.ips.join(","),
                "WhitelistNetworkType": "MIX",
            })
        })
        .collect();
    ctx.reference(INSTANCE_TYPE, &instance.id);
    Ok(json!({ "Items": { "DBInstanceIPArray": items } }))
}

// ---- auto-renewal ----------------------------------------------------------------------------

fn modify_instance_auto_renewal_attribute(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

fn describe_instance_auto_renewal_attribute(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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
    let page_number = p.int_in("PageNumber", 1..=i64::from(u32::MAX), 1)?;
    let page_size = p.int_in("PageSize", 1..=100, 30)?;
    let total = instances.len();
    let items: Vec<Value> = instances
        .iter()
        .skip(((page_number - 1) * page_size) as usize)
        .take(page_size as usize)
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

// ---- shared with Tair and CLB: whitelists and vSwitch placement ------------------------------

/// One named IP whitelist of a database instance (`default`, or a group the user added).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct WhitelistGroup {
    pub name: String,
    /// Empty, or `hidden` for groups that services create and the console does not show.
    pub attribute: String,
    pub ips: Vec<String>,
}

/// How `ModifySecurityIps` changes a whitelist: replace it, add entries, or remove entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ModifyMode {
    Cover,
    Append,
    Delete,
}

impl ModifyMode {
    /// `ModifyMode` (default `Cover`).
    pub(crate) fn from_param(p: &Params) -> Result<Self, ApiError> {
        Ok(match p.one_of("ModifyMode", &["Cover", "Append", "Delete"])? {
            None | Some("Cover") => Self::Cover,
            Some("Append") => Self::Append,
            _ => Self::Delete,
        })
    }
}

const MAX_WHITELIST_ENTRIES: usize = 1000;

/// A comma-separated whitelist: IPv4 addresses and CIDR blocks (`10.23.12.0/24`), each kept once.
pub(crate) fn parse_security_ips(param: &str, raw: &str) -> Result<Vec<String>, ApiError> {
    let mut out: Vec<String> = Vec::new();
    for entry in raw.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let valid = match entry.split_once('/') {
            None => entry.parse::<std::net::Ipv4Addr>().is_ok(),
            Some(("0.0.0.0", "0")) => true,
            Some((addr, len)) => {
                addr.parse::<std::net::Ipv4Addr>().is_ok() && len.parse::<u8>().is_ok_and(|l| (1..=32).contains(&l))
            }
        };
        if !valid {
            return Err(ApiError::invalid_parameter(
                param,
                format!("{entry:?} is neither an IPv4 address (10.23.12.24) nor a CIDR block (10.23.12.0/24)"),
            ));
        }
        if !out.iter().any(|e| e == entry) {
            out.push(entry.to_owned());
        }
    }
    if out.is_empty() {
        return Err(ApiError::missing_parameter(param));
    }
    if out.len() > MAX_WHITELIST_ENTRIES {
        return Err(ApiError::invalid_parameter(
            param,
            format!("at most {MAX_WHITELIST_ENTRIES} entries are allowed"),
        ));
    }
    Ok(out)
}

/// A whitelist group name (default `default`): 2–120 lowercase letters, digits and underscores,
/// starting with a letter.
pub(crate) fn whitelist_group_name(param: &str, name: Option<&str>) -> Result<String, ApiError> {
    let name = match name {
        None => return Ok("default".to_owned()),
        Some(n) if n.eq_ignore_ascii_case("default") => return Ok("default".to_owned()),
        Some(n) => n,
    };
    let ok = (2..=120).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if ok {
        Ok(name.to_owned())
    } else {
        Err(ApiError::invalid_parameter(
            param,
            "the name must be 2 to 120 lowercase letters, digits or underscores and start with a letter",
        ))
    }
}

/// Applies one `ModifySecurityIps` call to an instance's whitelist groups.
///
/// `Cover` replaces the group's entries (creating the group), `Append` adds the new entries,
/// `Delete` removes them. A group left empty is removed, except `default`, which falls back to
/// `127.0.0.1` (no access), the value new instances start with. Hidden groups belong to services and
/// cannot be changed.
pub(crate) fn apply_whitelist_change(
    groups: &mut Vec<WhitelistGroup>,
    name: &str,
    attribute: &str,
    ips: &[String],
    mode: ModifyMode,
) -> Result<(), ApiError> {
    let position = groups.iter().position(|g| g.name == name);
    if let Some(i) = position
        && groups[i].attribute == "hidden"
    {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "OperationDenied",
            format!("The whitelist group {name:?} is managed by a service and cannot be modified."),
        ));
    }
    let mut current = position.map(|i| groups[i].ips.clone()).unwrap_or_default();
    match mode {
        ModifyMode::Cover => current = ips.to_vec(),
        ModifyMode::Append => {
            for ip in ips {
                if !current.contains(ip) {
                    current.push(ip.clone());
                }
            }
        }
        ModifyMode::Delete => {
            if position.is_none() {
                return Err(ApiError::invalid_parameter(
                    "SecurityIps",
                    format!("the whitelist group {name:?} does not exist"),
                ));
            }
            current.retain(|ip| !ips.contains(ip));
        }
    }
    if current.len() > MAX_WHITELIST_ENTRIES {
        return Err(ApiError::invalid_parameter(
            "SecurityIps",
            format!("at most {MAX_WHITELIST_ENTRIES} entries are allowed"),
        ));
    }
    if current.is_empty() && name == "default" {
        current.push("127.0.0.1".to_owned());
    }
    match (position, current.is_empty()) {
        (Some(i), true) => {
            groups.remove(i);
        }
        (Some(i), false) => groups[i].ips = current,
        (None, _) => groups.push(WhitelistGroup {
            name: name.to_owned(),
            attribute: attribute.to_owned(),
            ips: current,
        }),
    }
    Ok(())
}

pub(crate) fn load_groups(resource: &Resource, key: &str) -> Result<Vec<WhitelistGroup>, ApiError> {
    match resource.attrs.get(key) {
        None => Ok(Vec::new()),
        Some(v) => serde_json::from_value(v.clone()).map_err(|e| ApiError::internal(format!("corrupt whitelist: {e}"))),
    }
}

pub(crate) fn store_groups(resource: &mut Resource, key: &str, groups: &[WhitelistGroup]) -> Result<(), ApiError> {
    let value = serde_json::to_value(groups).map_err(|e| ApiError::internal(e.to_string()))?;
    resource.set(key, value);
    Ok(())
}

/// Where a VPC-connected instance lives: its VPC, vSwitch, zone and the vSwitch's CIDR block.
#[derive(Debug, Clone)]
pub(crate) struct Placement {
    pub vpc_id: String,
    pub vswitch_id: String,
    pub zone_id: String,
    pub cidr: String,
}

impl Placement {
    /// A private address inside the vSwitch (skipping the network's first addresses and its broadcast).
    pub(crate) fn random_host(&self) -> Result<String, ApiError> {
        let (address, len) = parse_cidr("VSwitchId", &self.cidr)?;
        let host_bits = 32 - u32::from(len);
        let size = 1u64 << host_bits;
        let network = u64::from(address) >> host_bits << host_bits;
        // vSwitches are /29 or larger; the smallest blocks just take their first host.
        let offset = if size > 8 {
            rand::rng().random_range(3..size - 1)
        } else {
            1.min(size - 1)
        };
        let host = network + offset;
        Ok(std::net::Ipv4Addr::from(host as u32).to_string())
    }
}

/// Checks a `(parameter, id)` pair of VPC and vSwitch (and optionally a zone) the way the database and
/// load-balancer APIs do: both must exist in the request's region, the vSwitch must belong to the VPC,
/// and a given zone must be the vSwitch's.
pub(crate) fn place_in_vswitch(
    ctx: &OpCtx<'_>,
    vpc: (&str, &str),
    vswitch: (&str, &str),
    zone: Option<(&str, &str)>,
) -> Result<Placement, ApiError> {
    let vpc_resource = ctx.find(VPC, vpc.1, vpc.0)?;
    let vsw = ctx.find(VSWITCH, vswitch.1, vswitch.0)?;
    if vpc_resource.region != ctx.region {
        return Err(ApiError::not_found(vpc.0, vpc.1));
    }
    if vsw.region != ctx.region {
        return Err(ApiError::not_found(vswitch.0, vswitch.1));
    }
    if vsw.parent.as_deref() != Some(vpc.1) {
        return Err(ApiError::invalid_parameter(
            vswitch.0,
            format!("vSwitch {} does not belong to VPC {}", vswitch.1, vpc.1),
        ));
    }
    let vsw_zone = vsw.attr_str("ZoneId").to_owned();
    if let Some((param, zone)) = zone
        && zone != vsw_zone
    {
        return Err(ApiError::invalid_parameter(
            param,
            format!("{zone} is not the zone of vSwitch {} ({vsw_zone})", vswitch.1),
        ));
    }
    Ok(Placement {
        vpc_id: vpc.1.to_owned(),
        vswitch_id: vswitch.1.to_owned(),
        zone_id: vsw_zone,
        cidr: vsw.attr_str("CidrBlock").to_owned(),
    })
}

#[cfg(test)]
pub(crate) mod harness {
    //! A console with one account and a hand-moved clock, for driving products through `Console::call`.

    use std::sync::Arc;

    use serde_json::Value;

    use crate::catalog::Product;
    use crate::dispatch::Caller;
    use crate::error::ApiError;
    use crate::model::Resource;
    use crate::params::Params;
    use crate::products::vpc;
    use crate::{Console, ConsoleConfig, ManualClock, Store};

    pub(crate) struct Harness {
        pub console: Console,
        pub clock: Arc<ManualClock>,
        pub caller: Caller,
    }

    /// 2026-11-30T14:00:00Z
    const START_MS: i64 = 1_796_047_200_000;

    impl Harness {
        /// Asynchronous states settle at once.
        pub(crate) fn new() -> Self {
            Self::with_delay(0)
        }

        /// Asynchronous states last `delay_ms` of the manual clock.
        pub(crate) fn with_delay(delay_ms: i64) -> Self {
            let clock = Arc::new(ManualClock::new(START_MS));
            let config = ConsoleConfig {
                transition_delay_ms: delay_ms,
                ..ConsoleConfig::for_tests()
            };
            let console = Console::new(config, Store::in_memory(), clock.clone());
            let caller = Self::new_caller(&console);
            Self { console, clock, caller }
        }

        fn new_caller(console: &Console) -> Caller {
            let credentials = console.create_account("tester", None).expect("account");
            Caller {
                account_id: credentials.account_id,
                access_key_id: credentials.access_key_id,
                user_name: None,
                user_agent: "AlibabaCloud-Rust-Tests".into(),
                source_ip: "192.0.2.10".into(),
                event_type: aca_core::EventType::ApiCall,
                event_name: None,
            }
        }

        /// A second account of the same console.
        pub(crate) fn other_account(&self) -> Caller {
            Self::new_caller(&self.console)
        }

        pub(crate) fn call(
            &self,
            product: &'static Product,
            action: &str,
            pairs: &[(&str, &str)],
        ) -> Result<Value, ApiError> {
            self.call_as(&self.caller, product, action, pairs)
        }

        pub(crate) fn call_as(
            &self,
            caller: &Caller,
            product: &'static Product,
            action: &str,
            pairs: &[(&str, &str)],
        ) -> Result<Value, ApiError> {
            let params = Params::from_pairs(pairs.iter().copied());
            self.console.call(product, action, &params, caller).result
        }

        /// Calls that must succeed.
        pub(crate) fn ok(&self, product: &'static Product, action: &str, pairs: &[(&str, &str)]) -> Value {
            match self.call(product, action, pairs) {
                Ok(v) => v,
                Err(e) => panic!("{action} failed: {e}"),
            }
        }

        /// Calls that must fail; returns the error.
        pub(crate) fn err(&self, product: &'static Product, action: &str, pairs: &[(&str, &str)]) -> ApiError {
            match self.call(product, action, pairs) {
                Ok(v) => panic!("{action} unexpectedly succeeded: {v}"),
                Err(e) => e,
            }
        }

        /// A VPC with one vSwitch `192.168.1.0/24` in `cn-hangzhou-h`: returns (VpcId, VSwitchId).
        pub(crate) fn network(&self) -> (String, String) {
            let vpc = self.ok(
                &vpc::PRODUCT,
                "CreateVpc",
                &[("CidrBlock", "192.168.0.0/16"), ("VpcName", "test")],
            );
            let vpc_id = vpc["VpcId"].as_str().expect("VpcId").to_owned();
            let vsw = self.ok(
                &vpc::PRODUCT,
                "CreateVSwitch",
                &[
                    ("VpcId", &vpc_id),
                    ("ZoneId", "cn-hangzhou-h"),
                    ("CidrBlock", "192.168.1.0/24"),
                ],
            );
            (vpc_id, vsw["VSwitchId"].as_str().expect("VSwitchId").to_owned())
        }

        /// Puts a resource straight into the account (for resources of products written elsewhere).
        pub(crate) fn insert(&self, resource: Resource) {
            let shared = self.console.store.account(&self.caller.account_id).expect("account");
            shared.lock().resources.insert(resource.id.clone(), resource);
        }

        /// The last ActionTrail event of the account.
        pub(crate) fn last_event(&self) -> aca_core::TrailEvent {
            let shared = self.console.store.account(&self.caller.account_id).expect("account");
            let state = shared.lock();
            state.events.last().expect("an event").event.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::harness::Harness;
    use super::*;

    fn create_mysql(h: &Harness, vpc_id: &str, vswitch_id: &str) -> String {
        let body = h.ok(
            &PRODUCT,
            "CreateDBInstance",
            &[
                ("Engine", "MySQL"),
                ("EngineVersion", "8.0"),
                ("DBInstanceClass", "mysql.n2.medium.1"),
                ("DBInstanceStorage", "100"),
                ("DBInstanceStorageType", "cloud_essd"),
                ("PayType", "Postpaid"),
                ("SecurityIPList", "10.0.0.0/8"),
                ("DBInstanceNetType", "Intranet"),
                ("VPCId", vpc_id),
                ("VSwitchId", vswitch_id),
                ("ZoneId", "cn-hangzhou-h"),
                ("DBInstanceDescription", "orders-db"),
            ],
        );
        body["DBInstanceId"].as_str().expect("DBInstanceId").to_owned()
    }

    #[test]
    fn creates_and_describes_an_instance() {
        let h = Harness::new();
        let (vpc_id, vsw_id) = h.network();
        let body = h.ok(
            &PRODUCT,
            "CreateDBInstance",
            &[
                ("Engine", "MySQL"),
                ("EngineVersion", "8.0"),
                ("DBInstanceClass", "mysql.n2.medium.1"),
                ("DBInstanceStorage", "100"),
                ("PayType", "Postpaid"),
                ("SecurityIPList", "10.0.0.0/8,192.168.1.5"),
                ("DBInstanceNetType", "Intranet"),
                ("VPCId", &vpc_id),
                ("VSwitchId", &vsw_id),
            ],
        );
        let id = body["DBInstanceId"].as_str().unwrap();
        assert!(id.starts_with("rm-bp1"), "{id}");
        assert_eq!(body["ConnectionString"], format!("{id}.mysql.rds.aliyuncs.com"));
        assert_eq!(body["Port"], "3306");
        let event = h.last_event();
        assert_eq!(
            (event.service_name.as_str(), event.event_name.as_str()),
            ("Rds", "CreateDBInstance")
        );
        assert_eq!(event.referenced_resources["ACS::RDS::DBInstance"], [id.to_owned()]);

        let list = h.ok(&PRODUCT, "DescribeDBInstances", &[]);
        assert_eq!(list["TotalRecordCount"], 1);
        let item = &list["Items"]["DBInstance"][0];
        assert_eq!(item["DBInstanceId"], id);
        assert_eq!(item["DBInstanceStatus"], "Running");
        assert_eq!(item["ZoneId"], "cn-hangzhou-h");
        assert_eq!(item["InstanceNetworkType"], "VPC");
        assert_eq!(item["DBInstanceStorageType"], "cloud_essd");

        let attr = h.ok(&PRODUCT, "DescribeDBInstanceAttribute", &[("DBInstanceId", id)]);
        let attr = &attr["Items"]["DBInstanceAttribute"][0];
        assert_eq!(attr["DBInstanceStorage"], 100);
        assert_eq!(attr["DBInstanceCPU"], "2");
        assert_eq!(attr["DBInstanceMemory"], 4096);
        assert_eq!(attr["SecurityIPList"], "10.0.0.0/8,192.168.1.5");
        assert!(attr["IPAddress"].as_str().unwrap().starts_with("192.168.1."));

        let none = h.ok(&PRODUCT, "DescribeDBInstances", &[("Engine", "PostgreSQL")]);
        assert_eq!(none["TotalRecordCount"], 0);
    }

    #[test]
    fn instance_states_follow_the_clock() {
        let h = Harness::with_delay(5_000);
        let (vpc_id, vsw_id) = h.network();
        h.clock.advance(5_000);
        let id = create_mysql(&h, &vpc_id, &vsw_id);
        let status = |h: &Harness| {
            let body = h.ok(&PRODUCT, "DescribeDBInstanceAttribute", &[("DBInstanceId", &id)]);
            body["Items"]["DBInstanceAttribute"][0]["DBInstanceStatus"]
                .as_str()
                .unwrap()
                .to_owned()
        };
        assert_eq!(status(&h), "Creating");
        let e = h.err(&PRODUCT, "RestartDBInstance", &[("DBInstanceId", &id)]);
        assert_eq!(e.code, "IncorrectDBInstanceState");
        let e = h.err(
            &PRODUCT,
            "CreateDatabase",
            &[
                ("DBInstanceId", &id),
                ("DBName", "shop"),
                ("CharacterSetName", "utf8mb4"),
            ],
        );
        assert_eq!(e.code, "IncorrectDBInstanceState");
        h.clock.advance(4_999);
        assert_eq!(status(&h), "Creating");
        h.clock.advance(1);
        assert_eq!(status(&h), "Running");
        h.ok(&PRODUCT, "RestartDBInstance", &[("DBInstanceId", &id)]);
        assert_eq!(status(&h), "Rebooting");
        h.clock.advance(5_000);
        assert_eq!(status(&h), "Running");
    }

    #[test]
    fn databases_accounts_and_privileges() {
        let h = Harness::new();
        let (vpc_id, vsw_id) = h.network();
        let id = create_mysql(&h, &vpc_id, &vsw_id);
        h.ok(
            &PRODUCT,
            "CreateDatabase",
            &[
                ("DBInstanceId", &id),
                ("DBName", "shop"),
                ("CharacterSetName", "utf8mb4"),
            ],
        );
        let e = h.err(
            &PRODUCT,
            "CreateDatabase",
            &[("DBInstanceId", &id), ("DBName", "shop"), ("CharacterSetName", "utf8")],
        );
        assert_eq!(e.code, "InvalidDBName.Duplicate");
        let e = h.err(
            &PRODUCT,
            "CreateDatabase",
            &[("DBInstanceId", &id), ("DBName", "Shop"), ("CharacterSetName", "utf8")],
        );
        assert!(e.message.contains("\"DBName\""), "{e}");
        let e = h.err(
            &PRODUCT,
            "CreateDatabase",
            &[
                ("DBInstanceId", &id),
                ("DBName", "blog"),
                ("CharacterSetName", "ebcdic"),
            ],
        );
        assert!(e.message.contains("\"CharacterSetName\""), "{e}");
        let e = h.err(&PRODUCT, "CreateDatabase", &[("DBInstanceId", &id), ("DBName", "blog")]);
        assert_eq!(e.code, "MissingParameter");
        assert!(e.message.contains("\"CharacterSetName\""));

        let e = h.err(
            &PRODUCT,
            "CreateAccount",
            &[
                ("DBInstanceId", &id),
                ("AccountName", "app"),
                ("AccountPassword", "password"),
            ],
        );
        assert!(e.message.contains("\"AccountPassword\""), "{e}");
        h.ok(
            &PRODUCT,
            "CreateAccount",
            &[
                ("DBInstanceId", &id),
                ("AccountName", "app"),
                ("AccountPassword", "Str0ng!Pass"),
                ("AccountType", "Normal"),
            ],
        );
        let e = h.err(
            &PRODUCT,
            "CreateAccount",
            &[
                ("DBInstanceId", &id),
                ("AccountName", "app"),
                ("AccountPassword", "Str0ng!Pass"),
            ],
        );
        assert_eq!(e.code, "InvalidAccountName.Duplicate");

        let e = h.err(
            &PRODUCT,
            "GrantAccountPrivilege",
            &[
                ("DBInstanceId", &id),
                ("AccountName", "app"),
                ("DBName", "missing"),
                ("AccountPrivilege", "ReadWrite"),
            ],
        );
        assert_eq!(e.code, "InvalidDBName.NotFound");
        let e = h.err(
            &PRODUCT,
            "GrantAccountPrivilege",
            &[
                ("DBInstanceId", &id),
                ("AccountName", "app"),
                ("DBName", "shop"),
                ("AccountPrivilege", "DBOwner"),
            ],
        );
        assert!(e.message.contains("\"AccountPrivilege\""), "{e}");
        h.ok(
            &PRODUCT,
            "GrantAccountPrivilege",
            &[
                ("DBInstanceId", &id),
                ("AccountName", "app"),
                ("DBName", "shop"),
                ("AccountPrivilege", "ReadOnly"),
            ],
        );

        let accounts = h.ok(&PRODUCT, "DescribeAccounts", &[("DBInstanceId", &id)]);
        let account = &accounts["Accounts"]["DBInstanceAccount"][0];
        assert_eq!(account["AccountName"], "app");
        assert_eq!(account["AccountStatus"], "Available");
        assert_eq!(account["AccountType"], "Normal");
        assert_eq!(
            account["DatabasePrivileges"]["DatabasePrivilege"][0]["AccountPrivilege"],
            "ReadOnly"
        );

        let dbs = h.ok(&PRODUCT, "DescribeDatabases", &[("DBInstanceId", &id)]);
        let db = &dbs["Databases"]["Database"][0];
        assert_eq!(
            (db["DBName"].as_str(), db["DBStatus"].as_str()),
            (Some("shop"), Some("Running"))
        );
        assert_eq!(db["Accounts"]["AccountPrivilegeInfo"][0]["Account"], "app");

        h.ok(&PRODUCT, "DeleteDatabase", &[("DBInstanceId", &id), ("DBName", "shop")]);
        let accounts = h.ok(&PRODUCT, "DescribeAccounts", &[("DBInstanceId", &id)]);
        assert_eq!(
            accounts["Accounts"]["DBInstanceAccount"][0]["DatabasePrivileges"]["DatabasePrivilege"],
            json!([])
        );
        let e = h.err(&PRODUCT, "DeleteDatabase", &[("DBInstanceId", &id), ("DBName", "shop")]);
        assert_eq!(e.code, "InvalidDBName.NotFound");
        h.ok(
            &PRODUCT,
            "DeleteAccount",
            &[("DBInstanceId", &id), ("AccountName", "app")],
        );
        let e = h.err(
            &PRODUCT,
            "DeleteAccount",
            &[("DBInstanceId", &id), ("AccountName", "app")],
        );
        assert_eq!(e.code, "InvalidAccountName.NotFound");
    }

    #[test]
    fn whitelist_cover_append_delete() {
        let h = Harness::new();
        let (vpc_id, vsw_id) = h.network();
        let id = create_mysql(&h, &vpc_id, &vsw_id);
        let lists = |h: &Harness| -> Vec<(String, String)> {
            let body = h.ok(&PRODUCT, "DescribeDBInstanceIPArrayList", &[("DBInstanceId", &id)]);
            body["Items"]["DBInstanceIPArray"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| {
                    (
                        g["DBInstanceIPArrayName"].as_str().unwrap().to_owned(),
                        g["SecurityIPList"].as_str().unwrap().to_owned(),
                    )
                })
                .collect()
        };
        assert_eq!(lists(&h), [("default".to_owned(), "10.0.0.0/8".to_owned())]);

        h.ok(
            &PRODUCT,
            "ModifySecurityIps",
            &[("DBInstanceId", &id), ("SecurityIps", "192.168.1.10")],
        );
        assert_eq!(lists(&h), [("default".to_owned(), "192.168.1.10".to_owned())]);
        h.ok(
            &PRODUCT,
            "ModifySecurityIps",
            &[
                ("DBInstanceId", &id),
                ("SecurityIps", "192.168.1.11,192.168.1.10"),
                ("ModifyMode", "Append"),
            ],
        );
        assert_eq!(
            lists(&h),
            [("default".to_owned(), "192.168.1.10,192.168.1.11".to_owned())]
        );
        h.ok(
            &PRODUCT,
            "ModifySecurityIps",
            &[
                ("DBInstanceId", &id),
                ("SecurityIps", "192.168.1.10"),
                ("ModifyMode", "Delete"),
            ],
        );
        assert_eq!(lists(&h), [("default".to_owned(), "192.168.1.11".to_owned())]);
        h.ok(
            &PRODUCT,
            "ModifySecurityIps",
            &[
                ("DBInstanceId", &id),
                ("SecurityIps", "192.168.1.11"),
                ("ModifyMode", "Delete"),
            ],
        );
        assert_eq!(lists(&h), [("default".to_owned(), "127.0.0.1".to_owned())]);

        h.ok(
            &PRODUCT,
            "ModifySecurityIps",
            &[
                ("DBInstanceId", &id),
                ("SecurityIps", "172.16.0.0/12"),
                ("DBInstanceIPArrayName", "office"),
            ],
        );
        assert_eq!(lists(&h).len(), 2);
        h.ok(
            &PRODUCT,
            "ModifySecurityIps",
            &[
                ("DBInstanceId", &id),
                ("SecurityIps", "172.16.0.0/12"),
                ("DBInstanceIPArrayName", "office"),
                ("ModifyMode", "Delete"),
            ],
        );
        assert_eq!(lists(&h), [("default".to_owned(), "127.0.0.1".to_owned())]);

        let e = h.err(
            &PRODUCT,
            "ModifySecurityIps",
            &[("DBInstanceId", &id), ("SecurityIps", "10.0.0.300")],
        );
        assert!(e.message.contains("\"SecurityIps\""), "{e}");
        let e = h.err(
            &PRODUCT,
            "ModifySecurityIps",
            &[
                ("DBInstanceId", &id),
                ("SecurityIps", "10.0.0.1"),
                ("ModifyMode", "Merge"),
            ],
        );
        assert!(e.message.contains("\"ModifyMode\""), "{e}");
    }

    #[test]
    fn auto_renewal_only_for_subscriptions() {
        let h = Harness::new();
        let base = [
            ("Engine", "PostgreSQL"),
            ("EngineVersion", "16.0"),
            ("DBInstanceClass", "pg.n2.small.1"),
            ("DBInstanceStorage", "50"),
            ("SecurityIPList", "127.0.0.1"),
            ("DBInstanceNetType", "Intranet"),
        ];
        let e = h.err(
            &PRODUCT,
            "CreateDBInstance",
            &[&base[..], &[("PayType", "Prepaid")][..]].concat(),
        );
        assert!(e.message.contains("\"Period\""), "{e}");
        let prepaid = h.ok(
            &PRODUCT,
            "CreateDBInstance",
            &[
                &base[..],
                &[("PayType", "Prepaid"), ("Period", "Month"), ("UsedTime", "3")][..],
            ]
            .concat(),
        );
        let prepaid = prepaid["DBInstanceId"].as_str().unwrap().to_owned();
        let postpaid = h.ok(
            &PRODUCT,
            "CreateDBInstance",
            &[&base[..], &[("PayType", "Postpaid")][..]].concat(),
        );
        let postpaid = postpaid["DBInstanceId"].as_str().unwrap().to_owned();
        assert_eq!(
            h.ok(&PRODUCT, "DescribeDBInstanceAttribute", &[("DBInstanceId", &prepaid)])["Items"]["DBInstanceAttribute"]
                [0]["ExpireTime"],
            "2027-02-28T14:00:00Z"
        );

        let e = h.err(
            &PRODUCT,
            "ModifyInstanceAutoRenewalAttribute",
            &[("DBInstanceId", &prepaid), ("AutoRenew", "True")],
        );
        assert!(e.message.contains("\"Duration\""), "{e}");
        let e = h.err(
            &PRODUCT,
            "ModifyInstanceAutoRenewalAttribute",
            &[("DBInstanceId", &postpaid), ("AutoRenew", "True"), ("Duration", "1")],
        );
        assert_eq!(e.code, "OperationDenied");
        h.ok(
            &PRODUCT,
            "ModifyInstanceAutoRenewalAttribute",
            &[("DBInstanceId", &prepaid), ("AutoRenew", "True"), ("Duration", "6")],
        );
        let body = h.ok(&PRODUCT, "DescribeInstanceAutoRenewalAttribute", &[]);
        assert_eq!(body["TotalRecordCount"], 1);
        let item = &body["Items"]["Item"][0];
        assert_eq!(
            (
                item["DBInstanceId"].as_str(),
                item["AutoRenew"].as_str(),
                item["Duration"].as_i64()
            ),
            (Some(prepaid.as_str()), Some("True"), Some(6))
        );

        let e = h.err(&PRODUCT, "DeleteDBInstance", &[("DBInstanceId", &prepaid)]);
        assert_eq!(e.code, "OperationDenied");
        h.ok(&PRODUCT, "DeleteDBInstance", &[("DBInstanceId", &postpaid)]);
        assert_eq!(h.ok(&PRODUCT, "DescribeDBInstances", &[])["TotalRecordCount"], 1);
    }

    #[test]
    fn bad_parameters_and_unknown_ids() {
        let h = Harness::new();
        let e = h.err(
            &PRODUCT,
            "DescribeDBInstanceAttribute",
            &[("DBInstanceId", "rm-bp1doesnotexist")],
        );
        assert_eq!(e.code, "InvalidDBInstanceId.NotFound");
        let e = h.err(&PRODUCT, "RestartDBInstance", &[]);
        assert_eq!(e.code, "MissingParameter");
        assert!(e.message.contains("\"DBInstanceId\""));
        let full = [
            ("Engine", "MySQL"),
            ("EngineVersion", "8.0"),
            ("DBInstanceClass", "mysql.n2.medium.1"),
            ("DBInstanceStorage", "100"),
            ("PayType", "Postpaid"),
            ("SecurityIPList", "127.0.0.1"),
            ("DBInstanceNetType", "Intranet"),
        ];
        for (name, _) in full {
            let without: Vec<(&str, &str)> = full.iter().copied().filter(|(k, _)| *k != name).collect();
            let e = h.err(&PRODUCT, "CreateDBInstance", &without);
            assert_eq!(e.code, "MissingParameter", "{name}");
            assert!(e.message.contains(&format!("\"{name}\"")), "{e}");
        }
        let with = |k: &'static str, v: &'static str| -> Vec<(&'static str, &'static str)> {
            full.iter()
                .copied()
                .map(|(a, b)| if a == k { (a, v) } else { (a, b) })
                .collect()
        };
        for (name, value) in [
            ("Engine", "Oracle"),
            ("EngineVersion", "9.9"),
            ("DBInstanceClass", "pg.n2.medium.1"),
            ("DBInstanceStorage", "5"),
            ("PayType", "Monthly"),
            ("SecurityIPList", "everyone"),
        ] {
            let e = h.err(&PRODUCT, "CreateDBInstance", &with(name, value));
            assert_eq!(e.code, "InvalidParameter", "{name}");
            assert!(e.message.contains(&format!("\"{name}\"")), "{e}");
        }
        let e = h.err(
            &PRODUCT,
            "CreateDBInstance",
            &[&full[..], &[("VPCId", "vpc-bp1nope"), ("VSwitchId", "vsw-bp1nope")][..]].concat(),
        );
        assert_eq!(e.code, "InvalidVPCId.NotFound");
        let (vpc_id, vsw_id) = h.network();
        let e = h.err(
            &PRODUCT,
            "CreateDBInstance",
            &[
                &full[..],
                &[
                    ("VPCId", vpc_id.as_str()),
                    ("VSwitchId", vsw_id.as_str()),
                    ("ZoneId", "cn-hangzhou-i"),
                ][..],
            ]
            .concat(),
        );
        assert!(e.message.contains("\"ZoneId\""), "{e}");
    }

    #[test]
    fn routes_by_unique_api_version() {
        use crate::products::{PRODUCTS, by_version};
        for (version, code) in [("2014-08-15", "rds"), ("2014-05-15", "slb"), ("2015-01-01", "kvstore")] {
            assert_eq!(by_version(version).map(|p| p.code), Some(code));
        }
        let mut versions: Vec<&str> = PRODUCTS.iter().map(|p| p.version).collect();
        versions.sort_unstable();
        versions.dedup();
        assert_eq!(versions.len(), PRODUCTS.len(), "two products share an API version");
    }

    #[test]
    fn accounts_are_isolated() {
        let h = Harness::new();
        let (vpc_id, vsw_id) = h.network();
        let id = create_mysql(&h, &vpc_id, &vsw_id);
        let other = h.other_account();
        let e = h
            .call_as(
                &other,
                &PRODUCT,
                "DescribeDBInstanceAttribute",
                &[("DBInstanceId", &id)],
            )
            .unwrap_err();
        assert_eq!(e.code, "InvalidDBInstanceId.NotFound");
        let list = h.call_as(&other, &PRODUCT, "DescribeDBInstances", &[]).unwrap();
        assert_eq!(list["TotalRecordCount"], 0);
        let e = h
            .call_as(&other, &PRODUCT, "DeleteDBInstance", &[("DBInstanceId", &id)])
            .unwrap_err();
        assert_eq!(e.code, "InvalidDBInstanceId.NotFound");
        h.ok(
            &PRODUCT,
            "ModifyDBInstanceDescription",
            &[("DBInstanceId", &id), ("DBInstanceDescription", "orders-primary")],
        );
        assert_eq!(
            h.ok(&PRODUCT, "DescribeDBInstances", &[])["Items"]["DBInstance"][0]["DBInstanceDescription"],
            "orders-primary"
        );
    }
}
