//! ApsaraDB RDS (API 2014-08-15): instances, databases, database accounts, IP whitelists and auto-renewal.

use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::catalog::{OpCtx, Operation, Product};
use crate::clock::iso8601;
use crate::error::ApiError;
use crate::model::Resource;
use crate::params::Params;
use crate::products::provisioning::{add_months, order_id, place_in_vswitch};
use crate::products::regions::{check_zone, region};
use crate::products::whitelist::{
    WhitelistChange, WhitelistGroup, WhitelistParams, load_groups, parse_security_ips, store_groups,
};

mod accounts;
mod databases;
mod instances;
mod whitelist;

pub(crate) use self::accounts::check_password;
use self::accounts::*;
use self::databases::*;
use self::instances::*;
use self::whitelist::*;

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

/// One page of a list as RDS pages it: `PageNumber` from 1 and `PageSize` 1 to 100 (default 30).
/// Returns the page, its number and the size of the whole list.
fn page_of<T>(items: Vec<T>, p: &Params) -> Result<(Vec<T>, i64, usize), ApiError> {
    let page_number = p.int_in("PageNumber", 1..=i64::from(u32::MAX), 1)?;
    let page_size = p.int_in("PageSize", 1..=100, 30)?;
    let total = items.len();
    let page = items
        .into_iter()
        .skip(((page_number - 1) * page_size) as usize)
        .take(page_size as usize)
        .collect();
    Ok((page, page_number, total))
}

#[cfg(test)]
mod tests;
