//! Elastic Compute Service (API 2014-05-26): instances, block storage, snapshots and automatic snapshot
//! policies, security groups, key pairs, the account's quotas, and the catalogs a buy page reads (regions, zones, instance
//! types, public images).

use axum::http::StatusCode;
use base64::Engine;
use rand::Rng;
use serde_json::{Map, Value, json};
use sha2::Digest;

use crate::catalog::{OpCtx, Operation, Product, paginate};
use crate::clock::{Millis, iso8601, iso8601_minutes};
use crate::error::ApiError;
use crate::model::Resource;
use crate::params::Params;
use crate::products::regions::{REGIONS, check_zone, parse_cidr, region};
use crate::products::tags::tags;
use crate::products::vpc;

mod catalog;
mod disks;
mod instances;
mod key_pairs;
mod quotas;
mod security_groups;
mod snapshots;

use self::catalog::*;
pub use self::catalog::{INSTANCE_TYPES, InstanceTypeSpec, PUBLIC_IMAGES, PublicImage, find_image, find_instance_type};
use self::disks::*;
use self::instances::*;
use self::key_pairs::*;
use self::quotas::*;
use self::security_groups::*;
use self::snapshots::*;

pub static PRODUCT: Product = Product {
    code: "ecs",
    name: "Elastic Compute Service",
    service_name: "Ecs",
    version: "2014-05-26",
    endpoint: "ecs.aliyuncs.com",
    console_agent: "ecs.console.aliyun.com",
    operations: &[
        Operation::write("RunInstances", run_instances),
        Operation::write("CreateInstance", create_instance),
        Operation::read("DescribeInstances", describe_instances),
        Operation::read("DescribeInstanceStatus", describe_instance_status),
        Operation::write("StartInstance", start_instance),
        Operation::write("StopInstance", stop_instance),
        Operation::write("RebootInstance", reboot_instance),
        Operation::write("DeleteInstance", delete_instance),
        Operation::write("ModifyInstanceAttribute", modify_instance_attribute),
        Operation::write("CreateDisk", create_disk),
        Operation::read("DescribeDisks", describe_disks),
        Operation::write("AttachDisk", attach_disk),
        Operation::write("DetachDisk", detach_disk),
        Operation::write("ResizeDisk", resize_disk),
        Operation::write("DeleteDisk", delete_disk),
        Operation::write("CreateSnapshot", create_snapshot),
        Operation::read("DescribeSnapshots", describe_snapshots),
        Operation::write("DeleteSnapshot", delete_snapshot),
        Operation::write("CreateAutoSnapshotPolicy", create_auto_snapshot_policy),
        Operation::read("DescribeAutoSnapshotPolicyEx", describe_auto_snapshot_policy_ex),
        Operation::write("ApplyAutoSnapshotPolicy", apply_auto_snapshot_policy),
        Operation::write("CancelAutoSnapshotPolicy", cancel_auto_snapshot_policy),
        Operation::write("DeleteAutoSnapshotPolicy", delete_auto_snapshot_policy),
        Operation::write("CreateSecurityGroup", create_security_group),
        Operation::read("DescribeSecurityGroups", describe_security_groups),
        Operation::read("DescribeSecurityGroupAttribute", describe_security_group_attribute),
        Operation::write("AuthorizeSecurityGroup", authorize_security_group),
        Operation::write("AuthorizeSecurityGroupEgress", authorize_security_group_egress),
        Operation::write("RevokeSecurityGroup", revoke_security_group),
        Operation::write("RevokeSecurityGroupEgress", revoke_security_group_egress),
        Operation::write("DeleteSecurityGroup", delete_security_group),
        Operation::write("CreateKeyPair", create_key_pair),
        Operation::write("ImportKeyPair", import_key_pair),
        Operation::read("DescribeKeyPairs", describe_key_pairs),
        Operation::write("DeleteKeyPairs", delete_key_pairs),
        Operation::read("DescribeRegions", describe_regions),
        Operation::read("DescribeAccountAttributes", describe_account_attributes),
        Operation::read("DescribeZones", describe_zones),
        Operation::read("DescribeInstanceTypes", describe_instance_types),
        Operation::read("DescribeImages", describe_images),
    ],
};

pub const INSTANCE: &str = "ecs.instance";
pub const DISK: &str = "ecs.disk";
pub const SNAPSHOT: &str = "ecs.snapshot";
pub const SECURITY_GROUP: &str = "ecs.securitygroup";
pub const KEY_PAIR: &str = "ecs.keypair";
pub const AUTO_SNAPSHOT_POLICY: &str = "ecs.autosnapshotpolicy";

const INSTANCE_REF: &str = "ACS::ECS::Instance";
const DISK_REF: &str = "ACS::ECS::Disk";
const SNAPSHOT_REF: &str = "ACS::ECS::Snapshot";
const SECURITY_GROUP_REF: &str = "ACS::ECS::SecurityGroup";
const KEY_PAIR_REF: &str = "ACS::ECS::KeyPair";
const AUTO_SNAPSHOT_POLICY_REF: &str = "ACS::ECS::AutoSnapshotPolicy";

/// What `ExpiredTime` shows for pay-as-you-go instances.
const NEVER_EXPIRES: &str = "2099-12-31T15:59Z";
/// Data disks one instance can hold.
const MAX_DATA_DISKS: usize = 16;
/// Rules one security group can hold.
const MAX_RULES: usize = 200;

// ---------------------------------------------------------------------------------------------------
// Shared checks

fn error(status: StatusCode, code: &str, message: impl Into<String>) -> ApiError {
    ApiError::new(status, code, message)
}

fn incorrect_instance_status() -> ApiError {
    ApiError::incorrect_status(
        "IncorrectInstanceStatus",
        "The current status of the resource does not support this operation.",
    )
}

fn incorrect_disk_status() -> ApiError {
    ApiError::incorrect_status("IncorrectDiskStatus", "The operation is not supported in this status.")
}

/// An ECS resource of the request's region (ECS ids are regional: another region's id is not found).
fn here(ctx: &OpCtx<'_>, kind: &str, id: &str, what: &str) -> Result<Resource, ApiError> {
    vpc::find_in_region(ctx, kind, id, what)
}

/// The instance, provided its status is one of `allowed`.
fn instance_in(ctx: &OpCtx<'_>, id: &str, allowed: &[&str]) -> Result<Resource, ApiError> {
    let instance = here(ctx, INSTANCE, id, "InstanceId")?;
    if allowed.contains(&instance.status.as_str()) {
        Ok(instance)
    } else {
        Err(incorrect_instance_status())
    }
}

/// ECS names: 2–128 characters, starting with a letter, then letters, digits, `.`, `_`, `:` and `-`.
/// The error code names the field: `InvalidInstanceName.Malformed`, and `InvalidDiskName.Malformed`
/// for `SystemDisk.DiskName`.
fn check_name(param: &str, name: &str) -> Result<(), ApiError> {
    let count = name.chars().count();
    let ok = (2..=128).contains(&count)
        && name.chars().next().is_some_and(char::is_alphabetic)
        && name.chars().all(|c| c.is_alphanumeric() || ".:_-".contains(c));
    if ok {
        return Ok(());
    }
    let field = param.rsplit('.').next().unwrap_or(param);
    let mut chars = field.chars();
    let subject: String = chars
        .next()
        .map(|c| c.to_ascii_uppercase())
        .into_iter()
        .chain(chars)
        .collect();
    Err(error(
        StatusCode::BAD_REQUEST,
        &format!("Invalid{subject}.Malformed"),
        format!("The specified parameter \"{param}\" is not valid."),
    ))
}

/// An optional name; empty or absent names are allowed.
fn optional_name(p: &Params, param: &str) -> Result<String, ApiError> {
    match p.get(param) {
        Some(name) => check_name(param, name).map(|()| name.to_owned()),
        None => Ok(String::new()),
    }
}

/// Descriptions: 2–256 characters, not starting with `http://` or `https://`.
fn checked_description(p: &Params, param: &str) -> Result<String, ApiError> {
    let Some(text) = p.get(param) else {
        return Ok(String::new());
    };
    let ok = (2..=256).contains(&text.chars().count()) && !text.starts_with("http://") && !text.starts_with("https://");
    if ok {
        Ok(text.to_owned())
    } else {
        Err(error(
            StatusCode::BAD_REQUEST,
            "InvalidDescription.Malformed",
            format!("The specified parameter \"{param}\" is not valid."),
        ))
    }
}

/// `DryRun=true`: validate only, answering with the real API's `DryRunOperation`.
fn dry_run(p: &Params) -> Result<(), ApiError> {
    if p.bool("DryRun")?.unwrap_or(false) {
        return Err(error(
            StatusCode::BAD_REQUEST,
            "DryRunOperation",
            "Request validation has been passed with DryRun flag set.",
        ));
    }
    Ok(())
}

/// Logon passwords: 8–30 characters with at least three of upper case, lower case, digits and symbols.
fn check_password(password: &str) -> Result<(), ApiError> {
    const SYMBOLS: &str = "()`~!@#$%^&*-_+=|{}[]:;'<>,.?/";
    let classes = [
        password.chars().any(|c| c.is_ascii_uppercase()),
        password.chars().any(|c| c.is_ascii_lowercase()),
        password.chars().any(|c| c.is_ascii_digit()),
        password.chars().any(|c| SYMBOLS.contains(c)),
    ];
    let allowed = password
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || SYMBOLS.contains(c));
    let ok = (8..=30).contains(&password.len()) && allowed && classes.iter().filter(|&&x| x).count() >= 3;
    if ok {
        Ok(())
    } else {
        Err(error(
            StatusCode::BAD_REQUEST,
            "InvalidPassword.Malformed",
            "The specified parameter \"Password\" is not valid.",
        ))
    }
}

fn attr_strings(resource: &Resource, key: &str) -> Vec<String> {
    resource
        .attrs
        .get(key)
        .and_then(Value::as_array)
        .map(|items| items.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default()
}

fn attr_bool(resource: &Resource, key: &str) -> bool {
    resource.attrs.get(key).and_then(Value::as_bool).unwrap_or(false)
}

fn attr_array(resource: &Resource, key: &str) -> Value {
    resource
        .attrs
        .get(key)
        .filter(|v| v.is_array())
        .cloned()
        .unwrap_or_else(|| json!([]))
}

/// `*` matches any run of characters (the console's fuzzy name search); no `*` means an exact match.
fn glob_match(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || !text[first.len()..].ends_with(last) || text.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for middle in &parts[1..parts.len() - 1] {
        match rest.find(middle) {
            Some(at) => rest = &rest[at + middle.len()..],
            None => return false,
        }
    }
    true
}

/// Lower-camel-case operations (the automatic snapshot policy family) name the region `regionId`.
fn use_lower_case_region(ctx: &mut OpCtx<'_>, p: &Params) -> Result<(), ApiError> {
    if let (None, Some(region_id)) = (p.get("RegionId"), p.get("regionId")) {
        ctx.region = region_id.to_owned();
    }
    region(&ctx.region).map(|_| ())
}

#[cfg(test)]
mod tests;
