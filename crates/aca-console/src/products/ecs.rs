//! Elastic Compute Service (API 2014-05-26): instances, block storage, snapshots and automatic snapshot
//! policies, security groups, key pairs, and the catalogs a buy page reads (regions, zones, instance
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
use crate::products::vpc;

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
// Catalogs

/// One instance type as `DescribeInstanceTypes` reports it.
#[derive(Debug)]
pub struct InstanceTypeSpec {
    pub id: &'static str,
    pub family: &'static str,
    pub cpu: i64,
    pub memory_gib: f64,
    /// `EnterpriseLevel`, `EntryLevel`, or `CreditEntryLevel` for burstable types.
    pub level: &'static str,
    pub eni_quantity: i64,
    /// Baseline bandwidth, Kbit/s.
    pub bandwidth_kbps: i64,
    /// Packet forwarding rate, packets/s.
    pub pps: i64,
}

#[allow(clippy::too_many_arguments)]
const fn instance_type(
    id: &'static str,
    family: &'static str,
    cpu: i64,
    memory_gib: f64,
    level: &'static str,
    eni_quantity: i64,
    bandwidth_kbps: i64,
    pps: i64,
) -> InstanceTypeSpec {
    InstanceTypeSpec {
        id,
        family,
        cpu,
        memory_gib,
        level,
        eni_quantity,
        bandwidth_kbps,
        pps,
    }
}

pub const INSTANCE_TYPES: &[InstanceTypeSpec] = &[
    instance_type(
        "ecs.g7.large",
        "ecs.g7",
        2,
        8.0,
        "EnterpriseLevel",
        3,
        2_000_000,
        900_000,
    ),
    instance_type(
        "ecs.g7.xlarge",
        "ecs.g7",
        4,
        16.0,
        "EnterpriseLevel",
        4,
        3_000_000,
        1_000_000,
    ),
    instance_type(
        "ecs.g7.2xlarge",
        "ecs.g7",
        8,
        32.0,
        "EnterpriseLevel",
        4,
        5_000_000,
        1_600_000,
    ),
    instance_type(
        "ecs.c7.large",
        "ecs.c7",
        2,
        4.0,
        "EnterpriseLevel",
        3,
        2_000_000,
        900_000,
    ),
    instance_type(
        "ecs.c7.xlarge",
        "ecs.c7",
        4,
        8.0,
        "EnterpriseLevel",
        4,
        3_000_000,
        1_000_000,
    ),
    instance_type(
        "ecs.r7.large",
        "ecs.r7",
        2,
        16.0,
        "EnterpriseLevel",
        3,
        2_000_000,
        900_000,
    ),
    instance_type(
        "ecs.g6.large",
        "ecs.g6",
        2,
        8.0,
        "EnterpriseLevel",
        2,
        1_000_000,
        300_000,
    ),
    instance_type(
        "ecs.u1-c1m2.large",
        "ecs.u1",
        2,
        4.0,
        "EnterpriseLevel",
        2,
        1_000_000,
        300_000,
    ),
    instance_type("ecs.e-c1m2.large", "ecs.e", 2, 4.0, "EntryLevel", 2, 500_000, 100_000),
    instance_type(
        "ecs.t6-c1m1.large",
        "ecs.t6",
        2,
        2.0,
        "CreditEntryLevel",
        2,
        100_000,
        60_000,
    ),
    instance_type(
        "ecs.t6-c1m2.large",
        "ecs.t6",
        2,
        4.0,
        "CreditEntryLevel",
        2,
        100_000,
        60_000,
    ),
    instance_type(
        "ecs.t6-c2m1.large",
        "ecs.t6",
        2,
        1.0,
        "CreditEntryLevel",
        1,
        100_000,
        60_000,
    ),
];

pub fn find_instance_type(id: &str) -> Option<&'static InstanceTypeSpec> {
    INSTANCE_TYPES.iter().find(|t| t.id == id)
}

/// One public (system) image.
#[derive(Debug)]
pub struct PublicImage {
    pub id: &'static str,
    /// The Chinese-locale OS name, as the API returns it in `OSName`.
    pub os_name: &'static str,
    pub os_name_en: &'static str,
    pub platform: &'static str,
    /// `linux` or `windows`.
    pub os_type: &'static str,
    pub family: &'static str,
    /// The smallest system disk the image fits on, GiB.
    pub size_gib: i64,
    pub created: &'static str,
}

pub const PUBLIC_IMAGES: &[PublicImage] = &[
    PublicImage {
        id: "aliyun_3_x64_20G_alibase_20240528.vhd",
        os_name: "Alibaba Cloud Linux  3.2104 LTS 64位",
        os_name_en: "Alibaba Cloud Linux  3.2104 LTS 64 bit",
        platform: "Aliyun",
        os_type: "linux",
        family: "acs:alibaba_cloud_linux_3_2104_lts_x64",
        size_gib: 20,
        created: "2024-05-28T08:11:37Z",
    },
    PublicImage {
        id: "ubuntu_22_04_x64_20G_alibase_20240508.vhd",
        os_name: "Ubuntu  22.04 64位",
        os_name_en: "Ubuntu  22.04 64 bit",
        platform: "Ubuntu",
        os_type: "linux",
        family: "acs:ubuntu_22_04_x64",
        size_gib: 20,
        created: "2024-05-08T10:02:15Z",
    },
    PublicImage {
        id: "centos_7_9_x64_20G_alibase_20240403.vhd",
        os_name: "CentOS  7.9 64位",
        os_name_en: "CentOS  7.9 64 bit",
        platform: "CentOS",
        os_type: "linux",
        family: "acs:centos_7_9_x64",
        size_gib: 20,
        created: "2024-04-03T06:45:20Z",
    },
    PublicImage {
        id: "debian_12_5_x64_20G_alibase_20240424.vhd",
        os_name: "Debian  12.5 64位",
        os_name_en: "Debian  12.5 64 bit",
        platform: "Debian",
        os_type: "linux",
        family: "acs:debian_12_x64",
        size_gib: 20,
        created: "2024-04-24T03:30:52Z",
    },
    PublicImage {
        id: "win2022_21H2_x64_dtc_en-us_40G_alibase_20240515.vhd",
        os_name: "Windows Server  2022 数据中心版 64位英文版",
        os_name_en: "Windows Server  2022 Data Center Edition 64bit English Edition",
        platform: "Windows Server 2022",
        os_type: "windows",
        family: "acs:windows_server_2022_datacenter_en",
        size_gib: 40,
        created: "2024-05-15T09:18:44Z",
    },
];

pub fn find_image(id: &str) -> Option<&'static PublicImage> {
    PUBLIC_IMAGES.iter().find(|i| i.id == id)
}

/// Disk categories with their size limits (GiB) for data disks.
const DISK_CATEGORIES: &[(&str, i64, i64)] = &[
    ("cloud", 5, 2000),
    ("cloud_efficiency", 20, 32768),
    ("cloud_ssd", 20, 32768),
    ("cloud_essd", 20, 65536),
    ("cloud_auto", 1, 65536),
    ("cloud_essd_entry", 10, 32768),
];
/// The largest system disk, GiB.
const MAX_SYSTEM_DISK_GIB: i64 = 2048;

fn category_limits(category: &str) -> Option<(i64, i64)> {
    DISK_CATEGORIES
        .iter()
        .find(|(c, _, _)| *c == category)
        .map(|(_, min, max)| (*min, *max))
}

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

/// `Tag.N.Key` / `Tag.N.Value`, as the `Tags.Tag[]` entries responses carry.
fn tags(p: &Params) -> Result<Vec<Value>, ApiError> {
    let list = p.object_list("Tag");
    if list.len() > 20 {
        return Err(ApiError::invalid_parameter("Tag", "at most 20 tags"));
    }
    list.iter()
        .map(|tag| {
            let key = tag.get("Key").map(String::as_str).unwrap_or("");
            if key.is_empty() || key.len() > 128 || key.starts_with("aliyun") || key.starts_with("acs:") {
                return Err(error(
                    StatusCode::BAD_REQUEST,
                    "InvalidTagKey.Malformed",
                    "The specified Tag.n.Key is not valid.",
                ));
            }
            Ok(json!({ "TagKey": key, "TagValue": tag.get("Value").map(String::as_str).unwrap_or("") }))
        })
        .collect()
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

// ---------------------------------------------------------------------------------------------------
// Instances

/// One disk to create with an instance.
#[derive(Debug, Clone)]
struct DiskSpec {
    category: String,
    size: i64,
    name: String,
    description: String,
    performance_level: String,
    delete_with_instance: bool,
}

/// A validated `RunInstances` / `CreateInstance` request.
struct Launch {
    instance_type: &'static InstanceTypeSpec,
    image: &'static PublicImage,
    vswitch: Resource,
    security_group_ids: Vec<String>,
    name: String,
    description: String,
    host_name: String,
    charge_type: String,
    /// Subscription length in days, for `ExpiredTime`.
    period_days: Option<i64>,
    internet_charge_type: String,
    bandwidth_out: i64,
    bandwidth_in: i64,
    key_pair: String,
    system_disk: DiskSpec,
    data_disks: Vec<DiskSpec>,
    deletion_protection: bool,
    resource_group: String,
    tags: Vec<Value>,
}

fn performance_level(category: &str, given: Option<&str>, param: &str) -> Result<String, ApiError> {
    if category != "cloud_essd" {
        return Ok(String::new());
    }
    match given {
        None => Ok("PL1".to_owned()),
        Some(level @ ("PL0" | "PL1" | "PL2" | "PL3")) => Ok(level.to_owned()),
        Some(other) => Err(ApiError::invalid_parameter(
            param,
            format!("{other:?} is not one of PL0, PL1, PL2, PL3"),
        )),
    }
}

fn parse_launch(ctx: &OpCtx<'_>, p: &Params) -> Result<Launch, ApiError> {
    region(&ctx.region)?;
    let type_id = p.required("InstanceType")?;
    let instance_type = find_instance_type(type_id).ok_or_else(|| {
        error(
            StatusCode::BAD_REQUEST,
            "InvalidInstanceType.ValueNotSupported",
            "The specified InstanceType does not exist or beyond the permitted range.",
        )
    })?;
    let image_id = p.required("ImageId")?;
    let image = find_image(image_id).ok_or_else(|| {
        error(
            StatusCode::NOT_FOUND,
            "InvalidImageId.NotFound",
            "The specified ImageId does not exist.",
        )
    })?;

    let vswitch_id = p.required("VSwitchId")?;
    let vswitch = vpc::find_in_region(ctx, vpc::VSWITCH, vswitch_id, "VSwitchId")?;
    if vswitch.status != "Available" {
        return Err(error(
            StatusCode::BAD_REQUEST,
            "IncorrectVSwitchStatus",
            "The current status of virtual switch does not support this operation.",
        ));
    }
    if let Some(zone) = p.get("ZoneId") {
        check_zone(&ctx.region, zone)?;
        if zone != vswitch.attr_str("ZoneId") {
            return Err(error(
                StatusCode::BAD_REQUEST,
                "InvalidParameter.Mismatch",
                "Specified virtual switch is not in the specified zone.",
            ));
        }
    }
    let vpc_id = vswitch.parent.clone().unwrap_or_default();
    let mut security_group_ids = p.list("SecurityGroupIds")?;
    if let Some(single) = p.get("SecurityGroupId") {
        security_group_ids.insert(0, single.to_owned());
    }
    let mut seen = Vec::new();
    security_group_ids.retain(|id| {
        let first = !seen.contains(id);
        seen.push(id.clone());
        first
    });
    if security_group_ids.is_empty() {
        return Err(ApiError::missing_parameter("SecurityGroupId"));
    }
    if security_group_ids.len() > 5 {
        return Err(ApiError::invalid_parameter(
            "SecurityGroupIds",
            "an instance joins at most 5 security groups",
        ));
    }
    for sg_id in &security_group_ids {
        let sg = here(ctx, SECURITY_GROUP, sg_id, "SecurityGroupId")?;
        if sg.attr_str("VpcId") != vpc_id {
            return Err(error(
                StatusCode::BAD_REQUEST,
                "InvalidParameter.Mismatch",
                "Specified security group and virtual switch are not in the same VPC.",
            ));
        }
    }

    let name = match p.get("InstanceName") {
        Some(name) => {
            check_name("InstanceName", name)?;
            name.to_owned()
        }
        None => String::new(),
    };
    let description = checked_description(p, "Description")?;
    let host_name = p.get("HostName").unwrap_or("").to_owned();
    let host_ok = host_name.is_empty()
        || ((2..=64).contains(&host_name.len())
            && host_name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
            && !host_name.starts_with(['.', '-'])
            && !host_name.ends_with(['.', '-']));
    if !host_ok {
        return Err(error(
            StatusCode::BAD_REQUEST,
            "InvalidHostName.Malformed",
            "The specified parameter \"HostName\" is not valid.",
        ));
    }
    if let Some(password) = p.get("Password") {
        check_password(password)?;
    }
    let key_pair = p.get("KeyPairName").unwrap_or("").to_owned();
    if !key_pair.is_empty() {
        if image.os_type == "windows" {
            return Err(error(
                StatusCode::FORBIDDEN,
                "DependencyViolation.WindowsInstance",
                "The instance creating is window, cannot use ssh key pair to login.",
            ));
        }
        key_pair_named(ctx, &key_pair)?;
    }

    let charge_type = p
        .one_of("InstanceChargeType", &["PostPaid", "PrePaid"])?
        .unwrap_or("PostPaid")
        .to_owned();
    let period_days = if charge_type == "PrePaid" {
        let unit = p.one_of("PeriodUnit", &["Month", "Week"])?.unwrap_or("Month");
        let period = p.int("Period")?.ok_or_else(|| ApiError::missing_parameter("Period"))?;
        let valid = match unit {
            "Week" => (1..=4).contains(&period),
            _ => (1..=9).contains(&period) || [12, 24, 36, 48, 60].contains(&period),
        };
        if !valid {
            return Err(error(
                StatusCode::BAD_REQUEST,
                "InvalidPeriod",
                "The specified period is not valid.",
            ));
        }
        Some(if unit == "Week" { period * 7 } else { period * 30 })
    } else {
        None
    };
    let internet_charge_type = p
        .one_of("InternetChargeType", &["PayByTraffic", "PayByBandwidth"])?
        .unwrap_or("PayByTraffic")
        .to_owned();
    let bandwidth_out = p.int_in("InternetMaxBandwidthOut", 0..=100, 0)?;
    let bandwidth_in = p.int_in("InternetMaxBandwidthIn", 1..=200, 100)?;

    let system_category = p.get("SystemDisk.Category").unwrap_or("cloud_essd");
    if category_limits(system_category).is_none() || system_category == "cloud" {
        return Err(error(
            StatusCode::BAD_REQUEST,
            "InvalidSystemDiskCategory.ValueNotSupported",
            "The specified parameter \"SystemDisk.Category\" is not valid.",
        ));
    }
    let system_size = p.int_or("SystemDisk.Size", image.size_gib.max(40))?;
    if system_size < 20 {
        return Err(error(
            StatusCode::NOT_FOUND,
            "InvalidSystemDiskSize.LessThanMinSize",
            "The specified parameter SystemDisk.Size is less than the min size.",
        ));
    }
    if system_size < image.size_gib {
        return Err(error(
            StatusCode::NOT_FOUND,
            "InvalidSystemDiskSize.LessThanImageSize",
            "The specified parameter SystemDisk.Size is less than the image size.",
        ));
    }
    if system_size > MAX_SYSTEM_DISK_GIB {
        return Err(error(
            StatusCode::NOT_FOUND,
            "InvalidSystemDiskSize.MoreThanMaxSize",
            "The specified SystemDisk.Size parameter exceeds the maximum size.",
        ));
    }
    let system_disk = DiskSpec {
        category: system_category.to_owned(),
        size: system_size,
        name: optional_name(p, "SystemDisk.DiskName")?,
        description: checked_description(p, "SystemDisk.Description")?,
        performance_level: performance_level(
            system_category,
            p.get("SystemDisk.PerformanceLevel"),
            "SystemDisk.PerformanceLevel",
        )?,
        delete_with_instance: true,
    };

    let mut data_disks = Vec::new();
    for (index, fields) in p.object_list("DataDisk").iter().enumerate() {
        let n = index + 1;
        let field = |name: &str| fields.get(name).map(String::as_str).filter(|v| !v.is_empty());
        let category = field("Category").unwrap_or("cloud_efficiency");
        let Some((min, max)) = category_limits(category) else {
            return Err(error(
                StatusCode::BAD_REQUEST,
                "InvalidDataDiskCategory.ValueNotSupported",
                format!("The specified parameter \"DataDisk.{n}.Category\" is not valid."),
            ));
        };
        let size_param = format!("DataDisk.{n}.Size");
        let size_text = field("Size").ok_or_else(|| ApiError::missing_parameter(&size_param))?;
        let size: i64 = size_text
            .parse()
            .map_err(|_| ApiError::invalid_parameter(&size_param, format!("{size_text:?} is not an integer")))?;
        if !(min..=max).contains(&size) {
            return Err(error(
                StatusCode::BAD_REQUEST,
                "InvalidDataDiskSize.ValueNotSupported",
                format!("The specified {size_param} beyond the permitted range ({min}-{max} GiB for {category})."),
            ));
        }
        let name = field("DiskName").unwrap_or("");
        if !name.is_empty() {
            check_name("DiskName", name)?;
        }
        let delete_with_instance = match field("DeleteWithInstance") {
            None => true,
            Some(v) => v.eq_ignore_ascii_case("true"),
        };
        data_disks.push(DiskSpec {
            category: category.to_owned(),
            size,
            name: name.to_owned(),
            description: field("Description").unwrap_or("").to_owned(),
            performance_level: performance_level(
                category,
                field("PerformanceLevel"),
                &format!("DataDisk.{n}.PerformanceLevel"),
            )?,
            delete_with_instance,
        });
    }
    if data_disks.len() > MAX_DATA_DISKS {
        return Err(error(
            StatusCode::BAD_REQUEST,
            "InstanceDiskNumber.LimitExceed",
            "The total number of specified disk in an instance exceeds.",
        ));
    }

    Ok(Launch {
        instance_type,
        image,
        vswitch,
        security_group_ids,
        name,
        description,
        host_name,
        charge_type,
        period_days,
        internet_charge_type,
        bandwidth_out,
        bandwidth_in,
        key_pair,
        system_disk,
        data_disks,
        deletion_protection: p.bool("DeletionProtection")?.unwrap_or(false),
        resource_group: p.get("ResourceGroupId").unwrap_or("rg-default").to_owned(),
        tags: tags(p)?,
    })
}

/// Alibaba Cloud's MAC prefix, `00:16:3e`, and three random octets.
fn mac_address() -> String {
    let mut rng = rand::rng();
    format!(
        "00:16:3e:{:02x}:{:02x}:{:02x}",
        rng.random::<u8>(),
        rng.random::<u8>(),
        rng.random::<u8>()
    )
}

/// `/dev/xvdb`, `/dev/xvdc`, …: the first device name no disk of the instance uses.
fn free_device(ctx: &OpCtx<'_>, instance_id: &str) -> Option<String> {
    let used: Vec<String> = disks_of(ctx, instance_id)
        .iter()
        .map(|d| d.attr_str("Device").to_owned())
        .collect();
    ('b'..='z')
        .map(|letter| format!("/dev/xvd{letter}"))
        .find(|device| !used.contains(device))
}

fn disks_of(ctx: &OpCtx<'_>, instance_id: &str) -> Vec<Resource> {
    ctx.list_all(DISK)
        .into_iter()
        .filter(|d| d.attr_str("InstanceId") == instance_id)
        .collect()
}

/// A disk record; `instance` attaches it (`In_use`) at `device`.
fn new_disk(
    ctx: &OpCtx<'_>,
    spec: &DiskSpec,
    zone: &str,
    kind: &str,
    charge_type: &str,
    resource_group: &str,
) -> Resource {
    Resource::new(DISK, ctx.new_id("d"), &ctx.region, &spec.name, "Available", ctx.now_ms)
        .with("ZoneId", zone)
        .with("Category", spec.category.clone())
        .with("Size", spec.size)
        .with("Type", kind)
        .with("Description", spec.description.clone())
        .with("PerformanceLevel", spec.performance_level.clone())
        .with("DeleteWithInstance", spec.delete_with_instance)
        .with("Portable", kind == "data" && charge_type == "PostPaid")
        .with("DiskChargeType", charge_type)
        .with("Encrypted", false)
        .with("InstanceId", "")
        .with("Device", "")
        .with("ImageId", "")
        .with("SourceSnapshotId", "")
        .with("AutoSnapshotPolicyId", "")
        .with("EnableAutoSnapshot", false)
        .with("ResourceGroupId", resource_group)
}

fn attach(disk: &mut Resource, instance_id: &str, device: &str, now_ms: Millis) {
    disk.set("InstanceId", instance_id);
    disk.set("Device", device);
    disk.set("AttachedTime", iso8601(now_ms));
}

/// Creates one instance with its disks, showing `via` until it settles on `to`. Returns its id.
fn launch(
    ctx: &mut OpCtx<'_>,
    spec: &Launch,
    name: &str,
    via: &str,
    to: &str,
    public_ip: bool,
) -> Result<String, ApiError> {
    let id = ctx.new_id("i");
    let private_ip = vpc::allocate_private_ip(ctx, &spec.vswitch)?;
    let public_address = if public_ip && spec.bandwidth_out > 0 {
        vpc::allocate_public_ip(ctx)
    } else {
        String::new()
    };
    let zone = spec.vswitch.attr_str("ZoneId").to_owned();
    let host_name = if spec.host_name.is_empty() {
        format!("iZ{}Z", &id[2..])
    } else {
        spec.host_name.clone()
    };
    let name = if name.is_empty() { id.clone() } else { name.to_owned() };
    let expires = spec
        .period_days
        .map(|days| iso8601_minutes(ctx.now_ms + days * 86_400_000));

    let mut system_disk = new_disk(
        ctx,
        &spec.system_disk,
        &zone,
        "system",
        &spec.charge_type,
        &spec.resource_group,
    );
    system_disk.status = "In_use".to_owned();
    system_disk.set("ImageId", spec.image.id);
    attach(&mut system_disk, &id, "/dev/xvda", ctx.now_ms);
    let system_disk_id = system_disk.id.clone();
    ctx.reference(DISK_REF, &system_disk.id);
    ctx.put(system_disk);
    for disk_spec in &spec.data_disks {
        let mut disk = new_disk(ctx, disk_spec, &zone, "data", &spec.charge_type, &spec.resource_group);
        let device = free_device(ctx, &id).unwrap_or_default();
        disk.status = "In_use".to_owned();
        attach(&mut disk, &id, &device, ctx.now_ms);
        ctx.reference(DISK_REF, &disk.id);
        ctx.put(disk);
    }

    let mut instance = Resource::new(INSTANCE, id.clone(), &ctx.region, &name, via, ctx.now_ms)
        .with("InstanceType", spec.instance_type.id)
        .with("InstanceTypeFamily", spec.instance_type.family)
        .with("Cpu", spec.instance_type.cpu)
        .with("Memory", (spec.instance_type.memory_gib * 1024.0) as i64)
        .with("ImageId", spec.image.id)
        .with("OSName", spec.image.os_name)
        .with("OSNameEn", spec.image.os_name_en)
        .with("OSType", spec.image.os_type)
        .with("ZoneId", zone)
        .with("VpcId", spec.vswitch.parent.clone().unwrap_or_default())
        .with("VSwitchId", spec.vswitch.id.clone())
        .with("PrivateIpAddress", private_ip.clone())
        .with("PublicIpAddress", public_address)
        .with("SecurityGroupIds", spec.security_group_ids.clone())
        .with("Description", spec.description.clone())
        .with("HostName", host_name)
        .with("InstanceChargeType", spec.charge_type.clone())
        .with("ExpiredTime", expires.unwrap_or_else(|| NEVER_EXPIRES.to_owned()))
        .with("InternetChargeType", spec.internet_charge_type.clone())
        .with("InternetMaxBandwidthOut", spec.bandwidth_out)
        .with("InternetMaxBandwidthIn", spec.bandwidth_in)
        .with("KeyPairName", spec.key_pair.clone())
        .with("DeletionProtection", spec.deletion_protection)
        .with("ResourceGroupId", spec.resource_group.clone())
        .with("Tags", spec.tags.clone())
        .with("SystemDiskId", system_disk_id)
        .with("SerialNumber", uuid::Uuid::new_v4().to_string())
        .with("NetworkInterfaceId", ctx.new_id("eni"))
        .with("MacAddress", mac_address())
        .with(
            "StartTime",
            if to == "Running" {
                iso8601_minutes(ctx.now_ms)
            } else {
                String::new()
            },
        );
    ctx.begin_transition(&mut instance, via, to);
    ctx.reference(INSTANCE_REF, &id);
    for sg in &spec.security_group_ids {
        ctx.reference(SECURITY_GROUP_REF, sg);
    }
    ctx.put(instance);
    Ok(id)
}

fn run_instances(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let spec = parse_launch(ctx, p)?;
    let amount = p.int_in("Amount", 1..=100, 1)?;
    p.int_in("MinAmount", 1..=amount, amount)?;
    let unique_suffix = p.bool("UniqueSuffix")?.unwrap_or(false);
    dry_run(p)?;
    let mut ids = Vec::new();
    for n in 1..=amount {
        let name = if unique_suffix && !spec.name.is_empty() {
            format!("{}{n:03}", spec.name)
        } else {
            spec.name.clone()
        };
        ids.push(launch(ctx, &spec, &name, "Starting", "Running", true)?);
    }
    let mut response = json!({ "InstanceIdSets": { "InstanceIdSet": ids } });
    if spec.charge_type == "PrePaid" {
        response["OrderId"] = json!(
            rand::rng()
                .random_range(200_000_000_000_000u64..300_000_000_000_000)
                .to_string()
        );
    }
    Ok(response)
}

fn create_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let spec = parse_launch(ctx, p)?;
    dry_run(p)?;
    // CreateInstance assigns no public address: AllocatePublicIpAddress or an EIP gives one later.
    let id = launch(ctx, &spec, &spec.name, "Pending", "Stopped", false)?;
    Ok(json!({ "InstanceId": id }))
}

fn instance_json(ctx: &OpCtx<'_>, instance: &Resource) -> Value {
    let eip = vpc::eips_of(ctx, &instance.id).into_iter().next();
    let public_ips: Vec<&str> = Some(instance.attr_str("PublicIpAddress"))
        .filter(|ip| !ip.is_empty())
        .into_iter()
        .collect();
    let type_family = instance.attr_str("InstanceTypeFamily");
    let basics = json!({
        "InstanceId": instance.id,
        "InstanceName": instance.name,
        "Description": instance.attr_str("Description"),
        "HostName": instance.attr_str("HostName"),
        "ImageId": instance.attr_str("ImageId"),
        "InstanceType": instance.attr_str("InstanceType"),
        "InstanceTypeFamily": type_family,
        "Cpu": instance.attr_i64("Cpu"),
        "Memory": instance.attr_i64("Memory"),
        "GPUAmount": 0,
        "GPUSpec": "",
        "OSName": instance.attr_str("OSName"),
        "OSNameEn": instance.attr_str("OSNameEn"),
        "OSType": instance.attr_str("OSType"),
        "Status": instance.status,
        "RegionId": instance.region,
        "ZoneId": instance.attr_str("ZoneId"),
        "InstanceChargeType": instance.attr_str("InstanceChargeType"),
        "InternetChargeType": instance.attr_str("InternetChargeType"),
        "InternetMaxBandwidthOut": instance.attr_i64("InternetMaxBandwidthOut"),
        "InternetMaxBandwidthIn": instance.attr_i64("InternetMaxBandwidthIn"),
        "CreationTime": iso8601_minutes(instance.created_ms),
        "StartTime": instance.attr_str("StartTime"),
        "ExpiredTime": instance.attr_str("ExpiredTime"),
        "StoppedMode": if instance.status == "Stopped" { "KeepCharging" } else { "Not-applicable" },
    });
    let network = json!({
        "InstanceNetworkType": "vpc",
        "IoOptimized": true,
        "VpcAttributes": {
            "VpcId": instance.attr_str("VpcId"),
            "VSwitchId": instance.attr_str("VSwitchId"),
            "PrivateIpAddress": { "IpAddress": [instance.attr_str("PrivateIpAddress")] },
            "NatIpAddress": "",
        },
        "PublicIpAddress": { "IpAddress": public_ips },
        "InnerIpAddress": { "IpAddress": [] },
        "EipAddress": {
            "AllocationId": eip.as_ref().map_or("", |e| e.id.as_str()),
            "IpAddress": eip.as_ref().map_or("", |e| e.attr_str("IpAddress")),
            "Bandwidth": eip.as_ref().and_then(|e| e.attr_i64("Bandwidth")).unwrap_or(0),
            "InternetChargeType": eip.as_ref().map_or("", |e| e.attr_str("InternetChargeType")),
            "IsSupportUnassociate": true,
        },
        "SecurityGroupIds": { "SecurityGroupId": attr_strings(instance, "SecurityGroupIds") },
        "NetworkInterfaces": { "NetworkInterface": [{
            "NetworkInterfaceId": instance.attr_str("NetworkInterfaceId"),
            "Type": "Primary",
            "MacAddress": instance.attr_str("MacAddress"),
            "PrimaryIpAddress": instance.attr_str("PrivateIpAddress"),
        }] },
    });
    let settings = json!({
        "KeyPairName": instance.attr_str("KeyPairName"),
        "DeletionProtection": attr_bool(instance, "DeletionProtection"),
        "SerialNumber": instance.attr_str("SerialNumber"),
        "ResourceGroupId": instance.attr_str("ResourceGroupId"),
        "Tags": { "Tag": attr_array(instance, "Tags") },
        "CreditSpecification": if type_family == "ecs.t6" { "Standard" } else { "" },
        "SpotStrategy": "NoSpot",
        "DeviceAvailable": true,
        "Recyclable": false,
    });
    // Built in three parts: one literal this large exceeds the json! macro's recursion limit.
    let mut fields = match basics {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    for part in [network, settings] {
        if let Value::Object(map) = part {
            fields.extend(map);
        }
    }
    Value::Object(fields)
}

fn describe_instances(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let ids = p.list("InstanceId")?;
    if ids.len() > 100 {
        return Err(ApiError::invalid_parameter("InstanceIds", "at most 100 instance ids"));
    }
    let status = p.one_of("Status", &["Pending", "Running", "Starting", "Stopping", "Stopped"])?;
    let name = p.get("InstanceName");
    let vpc_id = p.get("VpcId");
    let vswitch_id = p.get("VSwitchId");
    let zone = p.get("ZoneId");
    let instance_type = p.get("InstanceType");
    let family = p.get("InstanceTypeFamily");
    let security_group = p.get("SecurityGroupId");
    let charge_type = p.one_of("InstanceChargeType", &["PostPaid", "PrePaid"])?;
    let private_ips = p.list("PrivateIpAddresses")?;
    let key_pair = p.get("KeyPairName");
    let wanted_tags = p.object_list("Tag");
    let instances: Vec<Resource> = ctx
        .list(INSTANCE)
        .into_iter()
        .filter(|i| ids.is_empty() || ids.contains(&i.id))
        .filter(|i| status.is_none_or(|s| i.status == s))
        .filter(|i| name.is_none_or(|n| glob_match(n, &i.name)))
        .filter(|i| vpc_id.is_none_or(|v| i.attr_str("VpcId") == v))
        .filter(|i| vswitch_id.is_none_or(|v| i.attr_str("VSwitchId") == v))
        .filter(|i| zone.is_none_or(|z| i.attr_str("ZoneId") == z))
        .filter(|i| instance_type.is_none_or(|t| i.attr_str("InstanceType") == t))
        .filter(|i| family.is_none_or(|f| i.attr_str("InstanceTypeFamily") == f))
        .filter(|i| security_group.is_none_or(|sg| attr_strings(i, "SecurityGroupIds").iter().any(|x| x == sg)))
        .filter(|i| charge_type.is_none_or(|c| i.attr_str("InstanceChargeType") == c))
        .filter(|i| private_ips.is_empty() || private_ips.iter().any(|ip| ip == i.attr_str("PrivateIpAddress")))
        .filter(|i| key_pair.is_none_or(|k| i.attr_str("KeyPairName") == k))
        .filter(|i| {
            let have = attr_array(i, "Tags");
            wanted_tags.iter().all(|want| {
                have.as_array().into_iter().flatten().any(|tag| {
                    want.get("Key").is_none_or(|k| tag["TagKey"] == json!(k))
                        && want.get("Value").is_none_or(|v| tag["TagValue"] == json!(v))
                })
            })
        })
        .collect();
    let (page, number, size, total) = paginate(instances, p, 100)?;
    let items: Vec<Value> = page.iter().map(|i| instance_json(ctx, i)).collect();
    Ok(json!({
        "TotalCount": total,
        "PageNumber": number,
        "PageSize": size,
        "NextToken": "",
        "Instances": { "Instance": items },
    }))
}

fn describe_instance_status(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let ids = p.list("InstanceId")?;
    let zone = p.get("ZoneId");
    let instances: Vec<Resource> = ctx
        .list(INSTANCE)
        .into_iter()
        .filter(|i| ids.is_empty() || ids.contains(&i.id))
        .filter(|i| zone.is_none_or(|z| i.attr_str("ZoneId") == z))
        .collect();
    let (page, number, size, total) = paginate(instances, p, 50)?;
    let items: Vec<Value> = page
        .iter()
        .map(|i| json!({ "InstanceId": i.id, "Status": i.status }))
        .collect();
    Ok(json!({
        "TotalCount": total,
        "PageNumber": number,
        "PageSize": size,
        "InstanceStatuses": { "InstanceStatus": items },
    }))
}

fn start_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("InstanceId")?;
    let mut instance = instance_in(ctx, id, &["Stopped"])?;
    dry_run(p)?;
    instance.set("StartTime", iso8601_minutes(ctx.now_ms));
    ctx.begin_transition(&mut instance, "Starting", "Running");
    ctx.reference(INSTANCE_REF, id);
    ctx.put(instance);
    Ok(json!({}))
}

fn stop_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("InstanceId")?;
    p.bool("ForceStop")?;
    p.one_of("StoppedMode", &["KeepCharging", "StopCharging"])?;
    let mut instance = instance_in(ctx, id, &["Running"])?;
    dry_run(p)?;
    ctx.begin_transition(&mut instance, "Stopping", "Stopped");
    ctx.reference(INSTANCE_REF, id);
    ctx.put(instance);
    Ok(json!({}))
}

fn reboot_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("InstanceId")?;
    p.bool("ForceStop")?;
    let mut instance = instance_in(ctx, id, &["Running"])?;
    dry_run(p)?;
    instance.set("StartTime", iso8601_minutes(ctx.now_ms));
    ctx.begin_transition(&mut instance, "Starting", "Running");
    ctx.reference(INSTANCE_REF, id);
    ctx.put(instance);
    Ok(json!({}))
}

fn delete_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("InstanceId")?;
    let force = p.bool("Force")?.unwrap_or(false);
    let allowed: &[&str] = if force { &["Running", "Stopped"] } else { &["Stopped"] };
    let instance = instance_in(ctx, id, allowed)?;
    if instance.attr_str("InstanceChargeType") == "PrePaid" {
        return Err(ApiError::incorrect_status(
            "ChargeTypeViolation",
            "The operation is not permitted due to charge type of the instance.",
        ));
    }
    if attr_bool(&instance, "DeletionProtection") {
        return Err(ApiError::incorrect_status(
            "InvalidOperation.DeletionProtection",
            "The instance is protected from release. Disable release protection first.",
        ));
    }
    dry_run(p)?;
    for mut disk in disks_of(ctx, id) {
        ctx.reference(DISK_REF, &disk.id);
        if attr_bool(&disk, "DeleteWithInstance") {
            ctx.delete(&disk.id);
        } else {
            disk.set("InstanceId", "");
            disk.set("Device", "");
            disk.set("DetachedTime", iso8601(ctx.now_ms));
            disk.status = "Available".to_owned();
            ctx.put(disk);
        }
    }
    // Releasing an instance disassociates its EIP, which stays in the account.
    for mut eip in vpc::eips_of(ctx, id) {
        vpc::detach_eip(&mut eip);
        ctx.put(eip);
    }
    ctx.reference(INSTANCE_REF, id);
    ctx.delete(id);
    Ok(json!({}))
}

fn modify_instance_attribute(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("InstanceId")?;
    let mut instance = here(ctx, INSTANCE, id, "InstanceId")?;
    if let Some(name) = p.get("InstanceName") {
        check_name("InstanceName", name)?;
        instance.name = name.to_owned();
    }
    if p.get("Description").is_some() {
        instance.set("Description", checked_description(p, "Description")?);
    }
    if let Some(host_name) = p.get("HostName") {
        if !(2..=64).contains(&host_name.len())
            || !host_name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
        {
            return Err(error(
                StatusCode::BAD_REQUEST,
                "InvalidHostName.Malformed",
                "The specified parameter \"HostName\" is not valid.",
            ));
        }
        instance.set("HostName", host_name);
    }
    if let Some(password) = p.get("Password") {
        check_password(password)?;
    }
    if let Some(protection) = p.bool("DeletionProtection")? {
        instance.set("DeletionProtection", protection);
    }
    let groups = p.list("SecurityGroupIds")?;
    if !groups.is_empty() {
        for sg_id in &groups {
            let sg = here(ctx, SECURITY_GROUP, sg_id, "SecurityGroupId")?;
            if sg.attr_str("VpcId") != instance.attr_str("VpcId") {
                return Err(error(
                    StatusCode::BAD_REQUEST,
                    "InvalidParameter.Mismatch",
                    "Specified security group and virtual switch are not in the same VPC.",
                ));
            }
            ctx.reference(SECURITY_GROUP_REF, sg_id);
        }
        instance.set("SecurityGroupIds", groups);
    }
    ctx.reference(INSTANCE_REF, id);
    ctx.put(instance);
    Ok(json!({}))
}

// ---------------------------------------------------------------------------------------------------
// Disks

fn disk_json(disk: &Resource) -> Value {
    json!({
        "DiskId": disk.id,
        "DiskName": disk.name,
        "Description": disk.attr_str("Description"),
        "RegionId": disk.region,
        "ZoneId": disk.attr_str("ZoneId"),
        "Category": disk.attr_str("Category"),
        "Size": disk.attr_i64("Size"),
        "Type": disk.attr_str("Type"),
        "Status": disk.status,
        "InstanceId": disk.attr_str("InstanceId"),
        "Device": disk.attr_str("Device"),
        "PerformanceLevel": disk.attr_str("PerformanceLevel"),
        "DeleteWithInstance": attr_bool(disk, "DeleteWithInstance"),
        "DeleteAutoSnapshot": true,
        "Portable": attr_bool(disk, "Portable"),
        "Encrypted": attr_bool(disk, "Encrypted"),
        "DiskChargeType": disk.attr_str("DiskChargeType"),
        "ImageId": disk.attr_str("ImageId"),
        "SourceSnapshotId": disk.attr_str("SourceSnapshotId"),
        "AutoSnapshotPolicyId": disk.attr_str("AutoSnapshotPolicyId"),
        "EnableAutoSnapshot": attr_bool(disk, "EnableAutoSnapshot"),
        "CreationTime": iso8601(disk.created_ms),
        "AttachedTime": disk.attr_str("AttachedTime"),
        "DetachedTime": disk.attr_str("DetachedTime"),
        "ResourceGroupId": disk.attr_str("ResourceGroupId"),
        "Tags": { "Tag": attr_array(disk, "Tags") },
    })
}

fn create_disk(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let instance = match p.get("InstanceId") {
        Some(id) => Some(instance_in(ctx, id, &["Running", "Stopped"])?),
        None => None,
    };
    let zone = match (&instance, p.get("ZoneId")) {
        (Some(instance), _) => instance.attr_str("ZoneId").to_owned(),
        (None, Some(zone)) => {
            check_zone(&ctx.region, zone)?;
            zone.to_owned()
        }
        (None, None) => return Err(ApiError::missing_parameter("ZoneId")),
    };
    let category = p.get("DiskCategory").unwrap_or("cloud");
    let (min, max) = category_limits(category).ok_or_else(|| {
        error(
            StatusCode::BAD_REQUEST,
            "InvalidDiskCategory.ValueNotSupported",
            "The specified parameter \"DiskCategory\" is not valid.",
        )
    })?;
    let snapshot = match p.get("SnapshotId") {
        Some(id) => {
            let snapshot = here(ctx, SNAPSHOT, id, "SnapshotId")?;
            if snapshot.status != "accomplished" {
                return Err(ApiError::incorrect_status(
                    "InvalidSnapshotId.NotReady",
                    "The specified snapshot has not completed yet.",
                ));
            }
            Some(snapshot)
        }
        None => None,
    };
    let size = match (p.int("Size")?, &snapshot) {
        (Some(size), _) => size,
        (None, Some(snapshot)) => snapshot.attr_i64("SourceDiskSize").unwrap_or(min),
        (None, None) => return Err(ApiError::missing_parameter("Size")),
    };
    if !(min..=max).contains(&size) {
        return Err(error(
            StatusCode::BAD_REQUEST,
            "InvalidDataDiskSize.ValueNotSupported",
            format!("The specified parameter \"Size\" beyond the permitted range ({min}-{max} GiB for {category})."),
        ));
    }
    if let Some(snapshot) = &snapshot
        && size < snapshot.attr_i64("SourceDiskSize").unwrap_or(0)
    {
        return Err(ApiError::incorrect_status(
            "InvalidDiskSize.TooSmall",
            "Specified disk size is less than the size of snapshot",
        ));
    }
    let spec = DiskSpec {
        category: category.to_owned(),
        size,
        name: optional_name(p, "DiskName")?,
        description: checked_description(p, "Description")?,
        performance_level: performance_level(category, p.get("PerformanceLevel"), "PerformanceLevel")?,
        delete_with_instance: false,
    };
    let charge_type = instance
        .as_ref()
        .map_or("PostPaid", |i| i.attr_str("InstanceChargeType"));
    let resource_group = p.get("ResourceGroupId").unwrap_or("rg-default");
    let mut disk = new_disk(ctx, &spec, &zone, "data", charge_type, resource_group)
        .with("Encrypted", p.bool("Encrypted")?.unwrap_or(false))
        .with("SourceSnapshotId", snapshot.as_ref().map_or("", |s| s.id.as_str()))
        .with("Tags", tags(p)?);
    let id = disk.id.clone();
    match &instance {
        Some(instance) => {
            if disks_of(ctx, &instance.id)
                .iter()
                .filter(|d| d.attr_str("Type") == "data")
                .count()
                >= MAX_DATA_DISKS
            {
                return Err(error(
                    StatusCode::BAD_REQUEST,
                    "InstanceDiskNumber.LimitExceed",
                    "The total number of specified disk in an instance exceeds.",
                ));
            }
            let device = free_device(ctx, &instance.id).unwrap_or_default();
            attach(&mut disk, &instance.id, &device, ctx.now_ms);
            ctx.begin_transition(&mut disk, "Creating", "In_use");
            ctx.reference(INSTANCE_REF, &instance.id);
        }
        None => ctx.begin_transition(&mut disk, "Creating", "Available"),
    }
    ctx.reference(DISK_REF, &id);
    ctx.put(disk);
    Ok(json!({ "DiskId": id }))
}

fn describe_disks(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let ids = p.list("DiskId")?;
    let instance_id = p.get("InstanceId");
    let zone = p.get("ZoneId");
    let disk_type = p
        .one_of("DiskType", &["all", "system", "data"])?
        .filter(|t| *t != "all");
    let category = p.get("Category");
    let status = p
        .one_of(
            "Status",
            &[
                "In_use",
                "Available",
                "Attaching",
                "Detaching",
                "Creating",
                "ReIniting",
                "All",
            ],
        )?
        .filter(|s| *s != "All");
    let name = p.get("DiskName");
    let snapshot = p.get("SnapshotId");
    let policy = p.get("AutoSnapshotPolicyId");
    let portable = p.bool("Portable")?;
    let disks: Vec<Resource> = ctx
        .list(DISK)
        .into_iter()
        .filter(|d| ids.is_empty() || ids.contains(&d.id))
        .filter(|d| instance_id.is_none_or(|i| d.attr_str("InstanceId") == i))
        .filter(|d| zone.is_none_or(|z| d.attr_str("ZoneId") == z))
        .filter(|d| disk_type.is_none_or(|t| d.attr_str("Type") == t))
        .filter(|d| category.is_none_or(|c| d.attr_str("Category") == c))
        .filter(|d| status.is_none_or(|s| d.status == s))
        .filter(|d| name.is_none_or(|n| glob_match(n, &d.name)))
        .filter(|d| snapshot.is_none_or(|s| d.attr_str("SourceSnapshotId") == s))
        .filter(|d| policy.is_none_or(|s| d.attr_str("AutoSnapshotPolicyId") == s))
        .filter(|d| portable.is_none_or(|want| attr_bool(d, "Portable") == want))
        .collect();
    let (page, number, size, total) = paginate(disks, p, 100)?;
    let items: Vec<Value> = page.iter().map(disk_json).collect();
    Ok(json!({
        "TotalCount": total,
        "PageNumber": number,
        "PageSize": size,
        "NextToken": "",
        "Disks": { "Disk": items },
    }))
}

fn attach_disk(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance_id = p.required("InstanceId")?;
    let disk_id = p.required("DiskId")?;
    let instance = instance_in(ctx, instance_id, &["Running", "Stopped"])?;
    let mut disk = here(ctx, DISK, disk_id, "DiskId")?;
    if disk.status != "Available" {
        return Err(incorrect_disk_status());
    }
    if disk.attr_str("ZoneId") != instance.attr_str("ZoneId") {
        return Err(error(
            StatusCode::FORBIDDEN,
            "InvalidParameter.Mismatch",
            "The specified disk and instance are not in the same zone.",
        ));
    }
    let is_system = disk.attr_str("Type") == "system";
    if is_system && (instance.status != "Stopped" || !instance.attr_str("SystemDiskId").is_empty()) {
        return Err(incorrect_instance_status());
    }
    if !is_system
        && disks_of(ctx, instance_id)
            .iter()
            .filter(|d| d.attr_str("Type") == "data")
            .count()
            >= MAX_DATA_DISKS
    {
        return Err(error(
            StatusCode::BAD_REQUEST,
            "InstanceDiskNumber.LimitExceed",
            "The total number of specified disk in an instance exceeds.",
        ));
    }
    let device = if is_system {
        "/dev/xvda".to_owned()
    } else {
        free_device(ctx, instance_id).unwrap_or_default()
    };
    if let Some(delete_with_instance) = p.bool("DeleteWithInstance")? {
        disk.set("DeleteWithInstance", delete_with_instance);
    }
    attach(&mut disk, instance_id, &device, ctx.now_ms);
    ctx.begin_transition(&mut disk, "Attaching", "In_use");
    if is_system {
        let mut instance = instance;
        instance.set("SystemDiskId", disk_id);
        ctx.put(instance);
    }
    ctx.reference(DISK_REF, disk_id);
    ctx.reference(INSTANCE_REF, instance_id);
    ctx.put(disk);
    Ok(json!({}))
}

fn detach_disk(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance_id = p.required("InstanceId")?;
    let disk_id = p.required("DiskId")?;
    let mut instance = here(ctx, INSTANCE, instance_id, "InstanceId")?;
    let mut disk = here(ctx, DISK, disk_id, "DiskId")?;
    if disk.status != "In_use" || disk.attr_str("InstanceId") != instance_id {
        return Err(incorrect_disk_status());
    }
    if disk.attr_str("Type") == "system" {
        // A system disk leaves only a stopped instance, and only if it is portable (pay-as-you-go).
        if disk.attr_str("DiskChargeType") != "PostPaid" {
            return Err(ApiError::incorrect_status(
                "DiskNotPortable",
                "The specified disk is not a portable disk.",
            ));
        }
        if instance.status != "Stopped" {
            return Err(incorrect_instance_status());
        }
        instance.set("SystemDiskId", "");
        ctx.put(instance);
    } else if !["Running", "Stopped"].contains(&instance.status.as_str()) {
        return Err(incorrect_instance_status());
    }
    if let Some(delete_with_instance) = p.bool("DeleteWithInstance")? {
        disk.set("DeleteWithInstance", delete_with_instance);
    }
    disk.set("InstanceId", "");
    disk.set("Device", "");
    disk.set("DetachedTime", iso8601(ctx.now_ms));
    ctx.begin_transition(&mut disk, "Detaching", "Available");
    ctx.reference(DISK_REF, disk_id);
    ctx.reference(INSTANCE_REF, instance_id);
    ctx.put(disk);
    Ok(json!({}))
}

fn resize_disk(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let disk_id = p.required("DiskId")?;
    let new_size = p
        .int("NewSize")?
        .ok_or_else(|| ApiError::missing_parameter("NewSize"))?;
    let resize_type = p.one_of("Type", &["offline", "online"])?.unwrap_or("offline");
    let mut disk = here(ctx, DISK, disk_id, "DiskId")?;
    if !["In_use", "Available"].contains(&disk.status.as_str()) {
        return Err(incorrect_disk_status());
    }
    let current = disk.attr_i64("Size").unwrap_or(0);
    let max = if disk.attr_str("Type") == "system" {
        MAX_SYSTEM_DISK_GIB
    } else {
        category_limits(disk.attr_str("Category")).map_or(current, |(_, max)| max)
    };
    if new_size <= current || new_size > max {
        return Err(ApiError::invalid_parameter(
            "NewSize",
            format!("must be larger than the current {current} GiB and at most {max} GiB"),
        ));
    }
    // Online resizing needs the instance running; offline resizing takes effect at its next start,
    // but the API reports the new size at once.
    let instance_id = disk.attr_str("InstanceId").to_owned();
    if !instance_id.is_empty() {
        if resize_type == "online" {
            instance_in(ctx, &instance_id, &["Running"])?;
        }
        ctx.reference(INSTANCE_REF, &instance_id);
    }
    disk.set("Size", new_size);
    ctx.reference(DISK_REF, disk_id);
    ctx.put(disk);
    Ok(json!({}))
}

fn delete_disk(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let disk_id = p.required("DiskId")?;
    let disk = here(ctx, DISK, disk_id, "DiskId")?;
    if disk.status != "Available" {
        return Err(incorrect_disk_status());
    }
    ctx.reference(DISK_REF, disk_id);
    ctx.delete(disk_id);
    Ok(json!({}))
}

// ---------------------------------------------------------------------------------------------------
// Snapshots and automatic snapshot policies

/// How far a snapshot has got: `100%` once accomplished, otherwise the share of its creation time elapsed.
fn snapshot_progress(ctx: &OpCtx<'_>, snapshot: &Resource) -> String {
    match &snapshot.transition {
        Some(t) if snapshot.status == "progressing" && t.at_ms > snapshot.created_ms => {
            let elapsed = (ctx.now_ms - snapshot.created_ms).max(0);
            format!("{}%", (elapsed * 100 / (t.at_ms - snapshot.created_ms)).min(99))
        }
        _ if snapshot.status == "accomplished" => "100%".to_owned(),
        _ => "0%".to_owned(),
    }
}

fn create_snapshot(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let disk_id = p.required("DiskId")?;
    let disk = here(ctx, DISK, disk_id, "DiskId")?;
    if !["In_use", "Available"].contains(&disk.status.as_str()) {
        return Err(incorrect_disk_status());
    }
    if ctx
        .list(SNAPSHOT)
        .iter()
        .any(|s| s.attr_str("SourceDiskId") == disk_id && s.status == "progressing")
    {
        return Err(ApiError::incorrect_status(
            "IncorrectDiskStatus.CreatingSnapshot",
            "A previous snapshot creation is in process.",
        ));
    }
    let name = optional_name(p, "SnapshotName")?;
    if name.starts_with("auto") {
        return Err(error(
            StatusCode::BAD_REQUEST,
            "InvalidSnapshotName.Malformed",
            "The specified parameter \"SnapshotName\" is not valid: names starting with auto are reserved.",
        ));
    }
    let retention = p.int("RetentionDays")?;
    if let Some(days) = retention
        && !(1..=65536).contains(&days)
    {
        return Err(ApiError::invalid_parameter(
            "RetentionDays",
            format!("{days} is outside 1..=65536"),
        ));
    }
    let id = ctx.new_id("s");
    let source_type = if disk.attr_str("Type") == "system" {
        "System"
    } else {
        "Data"
    };
    let mut snapshot = Resource::new(SNAPSHOT, id.clone(), &disk.region, &name, "progressing", ctx.now_ms)
        .with("SourceDiskId", disk_id)
        .with("SourceDiskSize", disk.attr_i64("Size").unwrap_or(0))
        .with("SourceDiskType", source_type)
        .with("SourceStorageType", "disk")
        .with("Description", checked_description(p, "Description")?)
        .with("RetentionDays", retention.map_or(Value::Null, Value::from))
        .with("SnapshotType", "user")
        .with(
            "Category",
            p.one_of("Category", &["standard", "flash"])?.unwrap_or("standard"),
        )
        .with("InstantAccess", p.bool("InstantAccess")?.unwrap_or(false))
        .with("Encrypted", attr_bool(&disk, "Encrypted"))
        .with(
            "SnapshotSN",
            format!("64{:018}", rand::rng().random_range(0..1_000_000_000_000_000_000u64)),
        )
        .with("ResourceGroupId", p.get("ResourceGroupId").unwrap_or("rg-default"))
        .with("Tags", tags(p)?);
    ctx.begin_transition(&mut snapshot, "progressing", "accomplished");
    ctx.reference(SNAPSHOT_REF, &id);
    ctx.reference(DISK_REF, disk_id);
    ctx.put(snapshot);
    Ok(json!({ "SnapshotId": id }))
}

fn describe_snapshots(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let ids = p.list("SnapshotId")?;
    let disk_id = p.get("DiskId");
    let instance_disks: Option<Vec<String>> = p
        .get("InstanceId")
        .map(|instance_id| disks_of(ctx, instance_id).into_iter().map(|d| d.id).collect());
    let name = p.get("SnapshotName");
    let status = p
        .one_of("Status", &["progressing", "accomplished", "failed", "all"])?
        .filter(|s| *s != "all");
    let snapshot_type = p
        .one_of("SnapshotType", &["auto", "user", "all"])?
        .filter(|t| *t != "all");
    let source_type = p.get("SourceDiskType").map(str::to_ascii_lowercase);
    let snapshots: Vec<Resource> = ctx
        .list(SNAPSHOT)
        .into_iter()
        .filter(|s| ids.is_empty() || ids.contains(&s.id))
        .filter(|s| disk_id.is_none_or(|d| s.attr_str("SourceDiskId") == d))
        .filter(|s| {
            instance_disks
                .as_ref()
                .is_none_or(|disks| disks.iter().any(|d| d == s.attr_str("SourceDiskId")))
        })
        .filter(|s| name.is_none_or(|n| glob_match(n, &s.name)))
        .filter(|s| status.is_none_or(|x| s.status == x))
        .filter(|s| snapshot_type.is_none_or(|t| s.attr_str("SnapshotType") == t))
        .filter(|s| {
            source_type
                .as_deref()
                .is_none_or(|t| s.attr_str("SourceDiskType").eq_ignore_ascii_case(t))
        })
        .collect();
    let (page, number, size, total) = paginate(snapshots, p, 100)?;
    let items: Vec<Value> = page
        .iter()
        .map(|s| {
            let used_by_disks = ctx.list(DISK).iter().any(|d| d.attr_str("SourceSnapshotId") == s.id);
            json!({
                "SnapshotId": s.id,
                "SnapshotName": s.name,
                "Description": s.attr_str("Description"),
                "Status": s.status,
                "Progress": snapshot_progress(ctx, s),
                "SourceDiskId": s.attr_str("SourceDiskId"),
                "SourceDiskSize": s.attr_i64("SourceDiskSize").unwrap_or(0).to_string(),
                "SourceDiskType": s.attr_str("SourceDiskType"),
                "SourceStorageType": s.attr_str("SourceStorageType"),
                "RetentionDays": s.attr_i64("RetentionDays"),
                "SnapshotType": s.attr_str("SnapshotType"),
                "Category": s.attr_str("Category"),
                "InstantAccess": attr_bool(s, "InstantAccess"),
                "Encrypted": attr_bool(s, "Encrypted"),
                "Usage": if used_by_disks { "disk" } else { "none" },
                "SnapshotSN": s.attr_str("SnapshotSN"),
                "CreationTime": iso8601(s.created_ms),
                "LastModifiedTime": iso8601(s.created_ms),
                "RegionId": s.region,
                "ResourceGroupId": s.attr_str("ResourceGroupId"),
                "Tags": { "Tag": attr_array(s, "Tags") },
            })
        })
        .collect();
    Ok(json!({
        "TotalCount": total,
        "PageNumber": number,
        "PageSize": size,
        "NextToken": "",
        "Snapshots": { "Snapshot": items },
    }))
}

fn delete_snapshot(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("SnapshotId")?;
    let force = p.bool("Force")?.unwrap_or(false);
    here(ctx, SNAPSHOT, id, "SnapshotId")?;
    if !force && ctx.list(DISK).iter().any(|d| d.attr_str("SourceSnapshotId") == id) {
        return Err(ApiError::incorrect_status(
            "SnapshotCreatedDisk",
            "The snapshot has been used to create disks; set Force to delete it anyway.",
        ));
    }
    ctx.reference(SNAPSHOT_REF, id);
    ctx.delete(id);
    Ok(json!({}))
}

/// A JSON array of integers within `range`, such as `timePoints=["0","12"]`.
fn int_array(p: &Params, name: &str, range: std::ops::RangeInclusive<i64>, code: &str) -> Result<Vec<i64>, ApiError> {
    let bad = || {
        error(
            StatusCode::BAD_REQUEST,
            code,
            format!("The specified parameter \"{name}\" is not valid."),
        )
    };
    let values = p.list(name).map_err(|_| bad())?;
    if values.is_empty() {
        return Err(ApiError::missing_parameter(name));
    }
    let mut numbers: Vec<i64> = values
        .iter()
        .map(|v| {
            v.trim()
                .parse::<i64>()
                .ok()
                .filter(|n| range.contains(n))
                .ok_or_else(bad)
        })
        .collect::<Result<_, _>>()?;
    numbers.sort_unstable();
    numbers.dedup();
    Ok(numbers)
}

fn create_auto_snapshot_policy(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    use_lower_case_region(ctx, p)?;
    let time_points = int_array(p, "timePoints", 0..=23, "InvalidTimePoints.Malformed")?;
    let weekdays = int_array(p, "repeatWeekdays", 1..=7, "InvalidRepeatWeekdays.Malformed")?;
    let retention = p
        .int("retentionDays")?
        .ok_or_else(|| ApiError::missing_parameter("retentionDays"))?;
    if retention != -1 && !(1..=65536).contains(&retention) {
        return Err(error(
            StatusCode::BAD_REQUEST,
            "InvalidRetentionDays.Malformed",
            "The specified parameter \"retentionDays\" is not valid.",
        ));
    }
    let name = optional_name(p, "autoSnapshotPolicyName")?;
    let id = ctx.new_id("sp");
    let policy = Resource::new(
        AUTO_SNAPSHOT_POLICY,
        id.clone(),
        &ctx.region,
        &name,
        "Normal",
        ctx.now_ms,
    )
    .with("TimePoints", time_points)
    .with("RepeatWeekdays", weekdays)
    .with("RetentionDays", retention)
    .with("ResourceGroupId", p.get("ResourceGroupId").unwrap_or("rg-default"))
    .with("Tags", tags(p)?);
    ctx.reference(AUTO_SNAPSHOT_POLICY_REF, &id);
    ctx.put(policy);
    Ok(json!({ "AutoSnapshotPolicyId": id }))
}

/// `["0","12"]`: how the policy's integer lists come back, as a string.
fn quoted_list(resource: &Resource, key: &str) -> String {
    let items: Vec<String> = resource
        .attrs
        .get(key)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_i64).map(|n| n.to_string()).collect())
        .unwrap_or_default();
    Value::from(items).to_string()
}

fn describe_auto_snapshot_policy_ex(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let id = p.get("AutoSnapshotPolicyId");
    let name = p.get("AutoSnapshotPolicyName");
    let policies: Vec<Resource> = ctx
        .list(AUTO_SNAPSHOT_POLICY)
        .into_iter()
        .filter(|s| id.is_none_or(|i| s.id == i))
        .filter(|s| name.is_none_or(|n| s.name == n))
        .collect();
    let (page, number, size, total) = paginate(policies, p, 100)?;
    let disks = ctx.list(DISK);
    let items: Vec<Value> = page
        .iter()
        .map(|s| {
            let disk_count = disks
                .iter()
                .filter(|d| d.attr_str("AutoSnapshotPolicyId") == s.id)
                .count();
            json!({
                "AutoSnapshotPolicyId": s.id,
                "AutoSnapshotPolicyName": s.name,
                "RegionId": s.region,
                "TimePoints": quoted_list(s, "TimePoints"),
                "RepeatWeekdays": quoted_list(s, "RepeatWeekdays"),
                "RetentionDays": s.attr_i64("RetentionDays"),
                "DiskNums": disk_count,
                "VolumeNums": 0,
                "Status": s.status,
                "CreationTime": iso8601(s.created_ms),
                "EnableCrossRegionCopy": false,
                "TargetCopyRegions": "",
                "CopiedSnapshotsRetentionDays": -1,
                "ResourceGroupId": s.attr_str("ResourceGroupId"),
                "Tags": { "Tag": attr_array(s, "Tags") },
            })
        })
        .collect();
    Ok(json!({
        "TotalCount": total,
        "PageNumber": number,
        "PageSize": size,
        "AutoSnapshotPolicies": { "AutoSnapshotPolicy": items },
    }))
}

/// The disks named by `diskIds`, all of which must exist in the region.
fn listed_disks(ctx: &OpCtx<'_>, p: &Params) -> Result<Vec<Resource>, ApiError> {
    let ids = p.list("diskIds")?;
    if ids.is_empty() {
        return Err(ApiError::missing_parameter("diskIds"));
    }
    ids.iter().map(|id| here(ctx, DISK, id, "DiskId")).collect()
}

fn apply_auto_snapshot_policy(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    use_lower_case_region(ctx, p)?;
    let policy_id = p.required("autoSnapshotPolicyId")?;
    here(ctx, AUTO_SNAPSHOT_POLICY, policy_id, "AutoSnapshotPolicyId")?;
    for mut disk in listed_disks(ctx, p)? {
        disk.set("AutoSnapshotPolicyId", policy_id);
        disk.set("EnableAutoSnapshot", true);
        ctx.reference(DISK_REF, &disk.id);
        ctx.put(disk);
    }
    ctx.reference(AUTO_SNAPSHOT_POLICY_REF, policy_id);
    Ok(json!({}))
}

fn cancel_auto_snapshot_policy(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    use_lower_case_region(ctx, p)?;
    for mut disk in listed_disks(ctx, p)? {
        if !disk.attr_str("AutoSnapshotPolicyId").is_empty() {
            let policy_id = disk.attr_str("AutoSnapshotPolicyId").to_owned();
            ctx.reference(AUTO_SNAPSHOT_POLICY_REF, &policy_id);
        }
        disk.set("AutoSnapshotPolicyId", "");
        disk.set("EnableAutoSnapshot", false);
        ctx.reference(DISK_REF, &disk.id);
        ctx.put(disk);
    }
    Ok(json!({}))
}

fn delete_auto_snapshot_policy(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    use_lower_case_region(ctx, p)?;
    let policy_id = p.required("autoSnapshotPolicyId")?;
    here(ctx, AUTO_SNAPSHOT_POLICY, policy_id, "AutoSnapshotPolicyId")?;
    // Deleting a policy cancels it on every disk it was applied to.
    for mut disk in ctx
        .list(DISK)
        .into_iter()
        .filter(|d| d.attr_str("AutoSnapshotPolicyId") == policy_id)
    {
        disk.set("AutoSnapshotPolicyId", "");
        disk.set("EnableAutoSnapshot", false);
        ctx.put(disk);
    }
    ctx.reference(AUTO_SNAPSHOT_POLICY_REF, policy_id);
    ctx.delete(policy_id);
    Ok(json!({}))
}

// ---------------------------------------------------------------------------------------------------
// Security groups

fn instances_in_group(ctx: &OpCtx<'_>, sg_id: &str) -> usize {
    ctx.list_all(INSTANCE)
        .iter()
        .filter(|i| attr_strings(i, "SecurityGroupIds").iter().any(|g| g == sg_id))
        .count()
}

fn create_security_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let vpc_id = p.required("VpcId")?;
    let vpc = vpc::find_in_region(ctx, vpc::VPC, vpc_id, "VpcId")?;
    let name = optional_name(p, "SecurityGroupName")?;
    let group_type = p
        .one_of("SecurityGroupType", &["normal", "enterprise"])?
        .unwrap_or("normal");
    let id = ctx.new_id("sg");
    let mut sg = Resource::new(SECURITY_GROUP, id.clone(), &vpc.region, &name, "Available", ctx.now_ms)
        .with("VpcId", vpc_id)
        .with("Description", checked_description(p, "Description")?)
        .with("SecurityGroupType", group_type)
        .with(
            "InnerAccessPolicy",
            if group_type == "normal" { "Accept" } else { "Drop" },
        )
        .with("Permissions", json!([]))
        .with("ResourceGroupId", p.get("ResourceGroupId").unwrap_or("rg-default"))
        .with("Tags", tags(p)?);
    sg.parent = Some(vpc_id.to_owned());
    ctx.reference(SECURITY_GROUP_REF, &id);
    ctx.put(sg);
    Ok(json!({ "SecurityGroupId": id }))
}

fn describe_security_groups(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let ids = p.list("SecurityGroupIds")?;
    let single = p.get("SecurityGroupId");
    let vpc_id = p.get("VpcId");
    let name = p.get("SecurityGroupName");
    let group_type = p.one_of("SecurityGroupType", &["normal", "enterprise"])?;
    let groups: Vec<Resource> = ctx
        .list(SECURITY_GROUP)
        .into_iter()
        .filter(|g| ids.is_empty() || ids.contains(&g.id))
        .filter(|g| single.is_none_or(|s| g.id == s))
        .filter(|g| vpc_id.is_none_or(|v| g.attr_str("VpcId") == v))
        .filter(|g| name.is_none_or(|n| glob_match(n, &g.name)))
        .filter(|g| group_type.is_none_or(|t| g.attr_str("SecurityGroupType") == t))
        .collect();
    let (page, number, size, total) = paginate(groups, p, 50)?;
    let items: Vec<Value> = page
        .iter()
        .map(|g| {
            let members = instances_in_group(ctx, &g.id);
            let capacity: usize = if g.attr_str("SecurityGroupType") == "enterprise" {
                65536
            } else {
                2000
            };
            json!({
                "SecurityGroupId": g.id,
                "SecurityGroupName": g.name,
                "Description": g.attr_str("Description"),
                "VpcId": g.attr_str("VpcId"),
                "SecurityGroupType": g.attr_str("SecurityGroupType"),
                "CreationTime": iso8601(g.created_ms),
                "EcsCount": members,
                "AvailableInstanceAmount": capacity.saturating_sub(members),
                "RuleCount": g.attrs.get("Permissions").and_then(Value::as_array).map_or(0, Vec::len),
                "ServiceManaged": false,
                "ResourceGroupId": g.attr_str("ResourceGroupId"),
                "Tags": { "Tag": attr_array(g, "Tags") },
            })
        })
        .collect();
    Ok(json!({
        "TotalCount": total,
        "PageNumber": number,
        "PageSize": size,
        "RegionId": ctx.region,
        "SecurityGroups": { "SecurityGroup": items },
    }))
}

fn describe_security_group_attribute(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("SecurityGroupId")?;
    let direction = p.one_of("Direction", &["ingress", "egress", "all"])?.unwrap_or("all");
    let sg = here(ctx, SECURITY_GROUP, id, "SecurityGroupId")?;
    let permissions: Vec<Value> = sg
        .attrs
        .get("Permissions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|rule| direction == "all" || rule["Direction"] == json!(direction))
        .cloned()
        .collect();
    Ok(json!({
        "SecurityGroupId": sg.id,
        "SecurityGroupName": sg.name,
        "Description": sg.attr_str("Description"),
        "VpcId": sg.attr_str("VpcId"),
        "RegionId": sg.region,
        "InnerAccessPolicy": sg.attr_str("InnerAccessPolicy"),
        "Permissions": { "Permission": permissions },
    }))
}

/// One rule of a request: from `Permissions.N.*`, or from the flat legacy parameters.
struct RuleInput {
    /// Parameter name prefix for error messages: `""` or `Permissions.1.`.
    prefix: String,
    fields: std::collections::BTreeMap<String, String>,
}

impl RuleInput {
    fn get(&self, field: &str) -> Option<&str> {
        self.fields.get(field).map(String::as_str).filter(|v| !v.is_empty())
    }

    fn param(&self, field: &str) -> String {
        format!("{}{field}", self.prefix)
    }
}

const RULE_FIELDS: &[&str] = &[
    "IpProtocol",
    "PortRange",
    "SourcePortRange",
    "SourceCidrIp",
    "SourceGroupId",
    "DestCidrIp",
    "DestGroupId",
    "Policy",
    "Priority",
    "NicType",
    "Description",
];

fn rule_inputs(p: &Params) -> Vec<RuleInput> {
    let listed = p.object_list("Permissions");
    if !listed.is_empty() {
        return listed
            .into_iter()
            .enumerate()
            .map(|(i, fields)| RuleInput {
                prefix: format!("Permissions.{}.", i + 1),
                fields,
            })
            .collect();
    }
    let fields: std::collections::BTreeMap<String, String> = RULE_FIELDS
        .iter()
        .filter_map(|f| p.get(f).map(|v| ((*f).to_owned(), v.to_owned())))
        .collect();
    if fields.is_empty() {
        Vec::new()
    } else {
        vec![RuleInput {
            prefix: String::new(),
            fields,
        }]
    }
}

/// `TCP`, `UDP`, `ICMP`, `GRE`, `ALL` or `ICMPv6`, given in any case.
fn protocol(input: &RuleInput) -> Result<String, ApiError> {
    let param = input.param("IpProtocol");
    let given = input
        .get("IpProtocol")
        .ok_or_else(|| ApiError::missing_parameter(&param))?;
    ["TCP", "UDP", "ICMP", "GRE", "ALL", "ICMPv6"]
        .iter()
        .find(|known| known.eq_ignore_ascii_case(given))
        .map(|known| (*known).to_owned())
        .ok_or_else(|| {
            error(
                StatusCode::BAD_REQUEST,
                "InvalidIpProtocol.Malformed",
                format!("The specified parameter \"{param}\" is not valid."),
            )
        })
}

/// `22/22` or `1/65535` for TCP and UDP; `-1/-1` for every other protocol.
fn port_range(input: &RuleInput, field: &str, protocol: &str, required: bool) -> Result<String, ApiError> {
    let param = input.param(field);
    let bad = || {
        error(
            StatusCode::BAD_REQUEST,
            "InvalidPortRange.Malformed",
            format!("The specified parameter \"{param}\" is not valid."),
        )
    };
    let Some(given) = input.get(field) else {
        return if required {
            Err(ApiError::missing_parameter(&param))
        } else {
            Ok(String::new())
        };
    };
    let (from, to) = given.split_once('/').ok_or_else(bad)?;
    let (from, to): (i64, i64) = (
        from.trim().parse().map_err(|_| bad())?,
        to.trim().parse().map_err(|_| bad())?,
    );
    let ok = if protocol == "TCP" || protocol == "UDP" {
        (1..=65535).contains(&from) && (from..=65535).contains(&to)
    } else {
        from == -1 && to == -1
    };
    if ok { Ok(format!("{from}/{to}")) } else { Err(bad()) }
}

fn check_cidr(param: &str, value: &str) -> Result<(), ApiError> {
    if value.contains('/') {
        parse_cidr(param, value).map(|_| ())
    } else {
        value
            .parse::<std::net::Ipv4Addr>()
            .map(|_| ())
            .map_err(|_| ApiError::invalid_parameter(param, format!("{value:?} is not an IPv4 address or CIDR block")))
    }
}

/// A validated rule, shaped as `DescribeSecurityGroupAttribute` returns it.
fn parse_rule(
    ctx: &OpCtx<'_>,
    sg: &Resource,
    input: &RuleInput,
    direction: &str,
) -> Result<Map<String, Value>, ApiError> {
    let protocol = protocol(input)?;
    let ports = port_range(input, "PortRange", &protocol, true)?;
    let source_ports = port_range(input, "SourcePortRange", &protocol, false)?;
    let policy = match input.get("Policy") {
        None => "Accept",
        Some(p) if p.eq_ignore_ascii_case("accept") => "Accept",
        Some(p) if p.eq_ignore_ascii_case("drop") => "Drop",
        Some(p) => {
            return Err(ApiError::invalid_parameter(
                &input.param("Policy"),
                format!("{p:?} is not accept or drop"),
            ));
        }
    };
    let priority_param = input.param("Priority");
    let priority = match input.get("Priority") {
        None => 1,
        Some(v) => v.parse::<i64>().ok().filter(|n| (1..=100).contains(n)).ok_or_else(|| {
            error(
                StatusCode::BAD_REQUEST,
                "InvalidPriority.Malformed",
                format!("The specified parameter \"{priority_param}\" is not valid."),
            )
        })?,
    };
    let (cidr_field, group_field) = if direction == "ingress" {
        ("SourceCidrIp", "SourceGroupId")
    } else {
        ("DestCidrIp", "DestGroupId")
    };
    let cidr = input.get(cidr_field).unwrap_or("");
    let group = input.get(group_field).unwrap_or("");
    if cidr.is_empty() && group.is_empty() {
        return Err(ApiError::missing_parameter(&input.param(cidr_field)));
    }
    if !cidr.is_empty() {
        check_cidr(&input.param(cidr_field), cidr)?;
    }
    let group_name = if group.is_empty() {
        String::new()
    } else {
        let other = here(ctx, SECURITY_GROUP, group, "SecurityGroupId")?;
        if other.attr_str("VpcId") != sg.attr_str("VpcId") {
            return Err(error(
                StatusCode::BAD_REQUEST,
                "InvalidParameter.Mismatch",
                "The specified security groups are not in the same VPC.",
            ));
        }
        other.name
    };
    let rule_description = input.get("Description").unwrap_or("");
    if rule_description.chars().count() > 512
        || rule_description.starts_with("http://")
        || rule_description.starts_with("https://")
    {
        return Err(error(
            StatusCode::BAD_REQUEST,
            "InvalidDescription.Malformed",
            "The specified parameter \"Description\" is not valid.",
        ));
    }
    let mut rule = Map::new();
    rule.insert("SecurityGroupRuleId".into(), json!(ctx.new_id("sgr")));
    rule.insert("Direction".into(), json!(direction));
    rule.insert("IpProtocol".into(), json!(protocol));
    rule.insert("PortRange".into(), json!(ports));
    rule.insert("SourcePortRange".into(), json!(source_ports));
    let (source_cidr, source_group, source_name, dest_cidr, dest_group, dest_name) = if direction == "ingress" {
        (cidr, group, group_name.as_str(), "", "", "")
    } else {
        ("", "", "", cidr, group, group_name.as_str())
    };
    rule.insert("SourceCidrIp".into(), json!(source_cidr));
    rule.insert("SourceGroupId".into(), json!(source_group));
    rule.insert("SourceGroupName".into(), json!(source_name));
    rule.insert("DestCidrIp".into(), json!(dest_cidr));
    rule.insert("DestGroupId".into(), json!(dest_group));
    rule.insert("DestGroupName".into(), json!(dest_name));
    rule.insert("Ipv6SourceCidrIp".into(), json!(""));
    rule.insert("Ipv6DestCidrIp".into(), json!(""));
    rule.insert("Policy".into(), json!(policy));
    rule.insert("Priority".into(), json!(priority.to_string()));
    rule.insert("NicType".into(), json!("intranet"));
    rule.insert("Description".into(), json!(rule_description));
    rule.insert("CreateTime".into(), json!(iso8601(ctx.now_ms)));
    Ok(rule)
}

/// Two rules are the same rule when they match the same traffic with the same verdict.
fn same_rule(a: &Value, b: &Map<String, Value>) -> bool {
    [
        "Direction",
        "IpProtocol",
        "PortRange",
        "SourcePortRange",
        "SourceCidrIp",
        "SourceGroupId",
        "DestCidrIp",
        "DestGroupId",
        "Policy",
    ]
    .iter()
    .all(|field| a.get(*field) == b.get(*field))
}

fn rules_of(sg: &Resource) -> Vec<Value> {
    sg.attrs
        .get("Permissions")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

/// Adds rules; a rule identical to an existing one is accepted and not added twice, as the real API does.
fn authorize(ctx: &mut OpCtx<'_>, p: &Params, direction: &str) -> Result<Value, ApiError> {
    let id = p.required("SecurityGroupId")?;
    let mut sg = here(ctx, SECURITY_GROUP, id, "SecurityGroupId")?;
    let inputs = rule_inputs(p);
    if inputs.is_empty() {
        return Err(ApiError::missing_parameter("Permissions.1.IpProtocol"));
    }
    let mut rules = rules_of(&sg);
    for input in &inputs {
        let rule = parse_rule(ctx, &sg, input, direction)?;
        if !rules.iter().any(|existing| same_rule(existing, &rule)) {
            rules.push(Value::Object(rule));
        }
    }
    if rules.len() > MAX_RULES {
        return Err(ApiError::incorrect_status(
            "AuthorizationLimitExceed",
            "The limit of authorization records in the security group reaches.",
        ));
    }
    sg.set("Permissions", rules);
    ctx.reference(SECURITY_GROUP_REF, id);
    ctx.put(sg);
    Ok(json!({}))
}

/// Removes rules named by `SecurityGroupRuleId.N`, or matching the given rule fields. Revoking a rule
/// that matches nothing succeeds without a change, as on the real API.
fn revoke(ctx: &mut OpCtx<'_>, p: &Params, direction: &str) -> Result<Value, ApiError> {
    let id = p.required("SecurityGroupId")?;
    let mut sg = here(ctx, SECURITY_GROUP, id, "SecurityGroupId")?;
    let mut rules = rules_of(&sg);
    let rule_ids = p.list("SecurityGroupRuleId")?;
    if !rule_ids.is_empty() {
        for rule_id in &rule_ids {
            let known = rules
                .iter()
                .any(|r| r["SecurityGroupRuleId"] == json!(rule_id) && r["Direction"] == json!(direction));
            if !known {
                return Err(ApiError::not_found("SecurityGroupRuleId", rule_id));
            }
        }
        rules.retain(|r| {
            !rule_ids
                .iter()
                .any(|rule_id| r["SecurityGroupRuleId"] == json!(rule_id))
        });
    } else {
        let inputs = rule_inputs(p);
        if inputs.is_empty() {
            return Err(ApiError::missing_parameter("SecurityGroupRuleId.1"));
        }
        for input in &inputs {
            let wanted = parse_rule(ctx, &sg, input, direction)?;
            rules.retain(|existing| !same_rule(existing, &wanted));
        }
    }
    sg.set("Permissions", rules);
    ctx.reference(SECURITY_GROUP_REF, id);
    ctx.put(sg);
    Ok(json!({}))
}

fn authorize_security_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    authorize(ctx, p, "ingress")
}

fn authorize_security_group_egress(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    authorize(ctx, p, "egress")
}

fn revoke_security_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    revoke(ctx, p, "ingress")
}

fn revoke_security_group_egress(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    revoke(ctx, p, "egress")
}

fn delete_security_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("SecurityGroupId")?;
    here(ctx, SECURITY_GROUP, id, "SecurityGroupId")?;
    if instances_in_group(ctx, id) > 0 {
        return Err(ApiError::incorrect_status(
            "DependencyViolation",
            "There is still instance(s) in the specified security group.",
        ));
    }
    let referenced = ctx.list_all(SECURITY_GROUP).iter().filter(|g| g.id != id).any(|g| {
        rules_of(g)
            .iter()
            .any(|r| r["SourceGroupId"] == json!(id) || r["DestGroupId"] == json!(id))
    });
    if referenced {
        return Err(ApiError::incorrect_status(
            "DependencyViolation",
            "The specified security group has been authorized in another one.",
        ));
    }
    ctx.reference(SECURITY_GROUP_REF, id);
    ctx.delete(id);
    Ok(json!({}))
}

// ---------------------------------------------------------------------------------------------------
// Key pairs

fn key_pair_named(ctx: &OpCtx<'_>, name: &str) -> Result<Resource, ApiError> {
    ctx.list(KEY_PAIR).into_iter().find(|k| k.name == name).ok_or_else(|| {
        error(
            StatusCode::NOT_FOUND,
            "InvalidKeyPairName.NotFound",
            "The specified parameter \"KeyPairName\" does not exist in our records.",
        )
    })
}

/// Key pair names: 2–128 characters, starting with a letter; letters, digits, `.`, `_`, `-`, `:`.
fn new_key_pair_name<'a>(ctx: &OpCtx<'_>, p: &'a Params) -> Result<&'a str, ApiError> {
    let name = p.required("KeyPairName")?;
    if check_name("KeyPairName", name).is_err() {
        return Err(error(
            StatusCode::BAD_REQUEST,
            "InvalidKeyPairName.Malformed",
            "Specified Key Pair name is not valid.",
        ));
    }
    if key_pair_named(ctx, name).is_ok() {
        return Err(ApiError::already_exists(
            "KeyPair.AlreadyExist",
            "The key pair already exist.",
        ));
    }
    Ok(name)
}

/// `aa:bb:…`: 16 colon-separated bytes of a digest of the public key material, the shape of the
/// fingerprints ECS shows.
fn fingerprint(public_key: &[u8]) -> String {
    let digest = sha2::Sha256::digest(public_key);
    digest[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(":")
}

/// An SSH public key line: `ssh-rsa AAAA… [comment]`. Returns the decoded key blob.
fn parse_public_key(line: &str) -> Result<Vec<u8>, ApiError> {
    let bad = || {
        error(
            StatusCode::BAD_REQUEST,
            "InvalidPublicKeyBody.Malformed",
            "The PublicKeyBody format is not supported.",
        )
    };
    let mut fields = line.split_whitespace();
    let key_type = fields.next().ok_or_else(bad)?;
    let encoded = fields.next().ok_or_else(bad)?;
    const TYPES: &[&str] = &[
        "ssh-rsa",
        "ssh-ed25519",
        "ecdsa-sha2-nistp256",
        "ecdsa-sha2-nistp384",
        "ecdsa-sha2-nistp521",
    ];
    if !TYPES.contains(&key_type) {
        return Err(bad());
    }
    let blob = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .map_err(|_| bad())?;
    // The blob starts with the key type as an SSH string: a 4-byte length, then the name.
    let length = blob
        .get(..4)
        .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize)
        .ok_or_else(bad)?;
    if blob.get(4..4 + length) != Some(key_type.as_bytes()) {
        return Err(bad());
    }
    Ok(blob)
}

fn put_key_pair(ctx: &mut OpCtx<'_>, p: &Params, name: &str, finger_print: &str) -> Result<String, ApiError> {
    let id = ctx.new_id("kp");
    let key_pair = Resource::new(KEY_PAIR, id.clone(), &ctx.region, name, "Available", ctx.now_ms)
        .with("KeyPairFingerPrint", finger_print)
        .with("ResourceGroupId", p.get("ResourceGroupId").unwrap_or("rg-default"))
        .with("Tags", tags(p)?);
    ctx.reference(KEY_PAIR_REF, name);
    ctx.put(key_pair);
    Ok(id)
}

/// Creates a key pair and hands back its private key, which the console never shows again.
fn create_key_pair(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let name = new_key_pair_name(ctx, p)?;
    // The emulator runs no machines, so the key material only has to be unique and PEM-shaped.
    let mut material = vec![0u8; 1190];
    rand::rng().fill(&mut material[..]);
    let encoded = base64::engine::general_purpose::STANDARD.encode(&material);
    let lines: Vec<&str> = encoded
        .as_bytes()
        .chunks(64)
        .map(|chunk| std::str::from_utf8(chunk).unwrap_or_default())
        .collect();
    let private_key = format!(
        "-----BEGIN RSA PRIVATE KEY-----\n{}\n-----END RSA PRIVATE KEY-----",
        lines.join("\n")
    );
    let finger_print = fingerprint(&material);
    let id = put_key_pair(ctx, p, name, &finger_print)?;
    Ok(json!({
        "KeyPairId": id,
        "KeyPairName": name,
        "KeyPairFingerPrint": finger_print,
        "PrivateKeyBody": private_key,
    }))
}

fn import_key_pair(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let name = new_key_pair_name(ctx, p)?;
    let blob = parse_public_key(p.required("PublicKeyBody")?)?;
    let finger_print = fingerprint(&blob);
    put_key_pair(ctx, p, name, &finger_print)?;
    Ok(json!({ "KeyPairName": name, "KeyPairFingerPrint": finger_print }))
}

fn describe_key_pairs(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let name = p.get("KeyPairName");
    let finger_print = p.get("KeyPairFingerPrint");
    let pairs: Vec<Resource> = ctx
        .list(KEY_PAIR)
        .into_iter()
        .filter(|k| name.is_none_or(|n| glob_match(n, &k.name)))
        .filter(|k| finger_print.is_none_or(|f| k.attr_str("KeyPairFingerPrint") == f))
        .collect();
    let (page, number, size, total) = paginate(pairs, p, 50)?;
    let items: Vec<Value> = page
        .iter()
        .map(|k| {
            json!({
                "KeyPairName": k.name,
                "KeyPairFingerPrint": k.attr_str("KeyPairFingerPrint"),
                "CreationTime": iso8601(k.created_ms),
                "ResourceGroupId": k.attr_str("ResourceGroupId"),
                "Tags": { "Tag": attr_array(k, "Tags") },
            })
        })
        .collect();
    Ok(json!({ "TotalCount": total, "PageNumber": number, "PageSize": size, "KeyPairs": { "KeyPair": items } }))
}

fn delete_key_pairs(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let names = p.list("KeyPairNames")?;
    if names.is_empty() {
        return Err(ApiError::missing_parameter("KeyPairNames"));
    }
    if names.len() > 100 {
        return Err(ApiError::invalid_parameter(
            "KeyPairNames",
            "at most 100 key pair names",
        ));
    }
    let pairs: Vec<Resource> = names
        .iter()
        .map(|name| key_pair_named(ctx, name))
        .collect::<Result<_, _>>()?;
    for pair in pairs {
        ctx.reference(KEY_PAIR_REF, &pair.name);
        ctx.delete(&pair.id);
    }
    Ok(json!({}))
}

// ---------------------------------------------------------------------------------------------------
// Catalogs: regions, zones, instance types, images

fn describe_regions(_ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    p.one_of("AcceptLanguage", &["zh-CN", "en-US", "ja"])?;
    let regions: Vec<Value> = REGIONS
        .iter()
        .map(|r| {
            json!({
                "RegionId": r.id,
                "LocalName": r.local_name,
                "RegionEndpoint": format!("ecs.{}.aliyuncs.com", r.id),
                "Status": "available",
            })
        })
        .collect();
    Ok(json!({ "Regions": { "Region": regions } }))
}

/// `Hangzhou Zone H`: the city in the region's name, and the zone's letter.
fn zone_local_name(region_local_name: &str, zone_id: &str) -> String {
    let city = region_local_name
        .split_once('(')
        .and_then(|(_, rest)| rest.split_once(')'))
        .map_or(region_local_name, |(inside, _)| inside);
    let letter = zone_id.chars().last().map(|c| c.to_ascii_uppercase()).unwrap_or('A');
    format!("{city} Zone {letter}")
}

fn describe_zones(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let region = region(&ctx.region)?;
    let verbose = p.bool("Verbose")?.unwrap_or(true);
    let types: Vec<&str> = INSTANCE_TYPES.iter().map(|t| t.id).collect();
    let disk_categories: Vec<&str> = DISK_CATEGORIES.iter().map(|(c, _, _)| *c).collect();
    let zones: Vec<Value> = region
        .zones
        .iter()
        .map(|zone| {
            let mut entry = json!({
                "ZoneId": zone,
                "LocalName": zone_local_name(region.local_name, zone),
                "ZoneType": "AvailabilityZone",
                "AvailableResourceCreation": {
                    "ResourceTypes": ["VSwitch", "IoOptimized", "Instance", "Disk", "DedicatedHost"],
                },
                "AvailableDiskCategories": { "DiskCategories": disk_categories },
                "AvailableVolumeCategories": { "VolumeCategories": ["cloud_efficiency", "cloud_ssd", "cloud_essd"] },
            });
            if verbose {
                entry["AvailableInstanceTypes"] = json!({ "InstanceTypes": types });
            }
            entry
        })
        .collect();
    Ok(json!({ "Zones": { "Zone": zones } }))
}

fn describe_instance_types(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let wanted = p.list("InstanceTypes")?;
    let family = p.get("InstanceTypeFamily");
    let min_cpu = p.int("MinimumCpuCoreCount")?;
    let max_cpu = p.int("MaximumCpuCoreCount")?;
    let types: Vec<Value> = INSTANCE_TYPES
        .iter()
        .filter(|t| wanted.is_empty() || wanted.iter().any(|w| w == t.id))
        .filter(|t| family.is_none_or(|f| t.family == f))
        .filter(|t| min_cpu.is_none_or(|m| t.cpu >= m) && max_cpu.is_none_or(|m| t.cpu <= m))
        .map(|t| {
            json!({
                "InstanceTypeId": t.id,
                "InstanceTypeFamily": t.family,
                "CpuCoreCount": t.cpu,
                "MemorySize": t.memory_gib,
                "InstanceFamilyLevel": t.level,
                "GPUAmount": 0,
                "GPUSpec": "",
                "EniQuantity": t.eni_quantity,
                "EniPrivateIpAddressQuantity": if t.eni_quantity > 2 { 10 } else { 6 },
                "InstanceBandwidthRx": t.bandwidth_kbps,
                "InstanceBandwidthTx": t.bandwidth_kbps,
                "InstancePpsRx": t.pps,
                "InstancePpsTx": t.pps,
                "CpuArchitecture": "X86",
                "LocalStorageCategory": "",
            })
        })
        .collect();
    Ok(json!({ "NextToken": "", "InstanceTypes": { "InstanceType": types } }))
}

fn describe_images(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let ids = p.list("ImageId")?;
    let name = p.get("ImageName");
    let owner = p.one_of("ImageOwnerAlias", &["system", "self", "others", "marketplace"])?;
    let os_type = p.one_of("OSType", &["linux", "windows"])?;
    let architecture = p.one_of("Architecture", &["i386", "x86_64", "arm64"])?;
    let family = p.get("ImageFamily");
    let images: Vec<&PublicImage> = PUBLIC_IMAGES
        .iter()
        .filter(|_| owner.is_none_or(|o| o == "system"))
        .filter(|i| ids.is_empty() || ids.iter().any(|id| id == i.id))
        .filter(|i| name.is_none_or(|n| glob_match(n, i.id)))
        .filter(|i| os_type.is_none_or(|t| i.os_type == t))
        .filter(|_| architecture.is_none_or(|a| a == "x86_64"))
        .filter(|i| family.is_none_or(|f| i.family == f))
        .collect();
    let (page, number, size, total) = paginate(images, p, 100)?;
    let items: Vec<Value> = page
        .iter()
        .map(|i| {
            json!({
                "ImageId": i.id,
                "ImageName": i.id,
                "ImageOwnerAlias": "system",
                "ImageFamily": i.family,
                "OSName": i.os_name,
                "OSNameEn": i.os_name_en,
                "OSType": i.os_type,
                "Platform": i.platform,
                "Architecture": "x86_64",
                "Size": i.size_gib,
                "Status": "Available",
                "Progress": "100%",
                "Usage": "instance",
                "BootMode": "BIOS",
                "IsSupportCloudinit": true,
                "IsSupportIoOptimized": true,
                "IsSubscribed": false,
                "IsCopied": false,
                "IsSelfShared": "",
                "ProductCode": "",
                "Description": "",
                "CreationTime": i.created,
                "DiskDeviceMappings": { "DiskDeviceMapping": [] },
            })
        })
        .collect();
    Ok(json!({
        "TotalCount": total,
        "PageNumber": number,
        "PageSize": size,
        "RegionId": ctx.region,
        "Images": { "Image": items },
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dispatch::Caller;
    use crate::products::testkit::{TestConsole, items, text};

    const IMAGE: &str = "aliyun_3_x64_20G_alibase_20240528.vhd";

    /// A VPC, a vSwitch in cn-hangzhou-h and a security group: what every instance needs.
    struct Network {
        vpc: String,
        vswitch: String,
        security_group: String,
    }

    fn network(t: &TestConsole, caller: &Caller) -> Network {
        let vpc = t.ok(
            &vpc::PRODUCT,
            "CreateVpc",
            caller,
            &[("CidrBlock", "192.168.0.0/16"), ("VpcName", "prod")],
        );
        let vpc = text(&vpc, "/VpcId").to_owned();
        let vsw = t.ok(
            &vpc::PRODUCT,
            "CreateVSwitch",
            caller,
            &[
                ("VpcId", &vpc),
                ("ZoneId", "cn-hangzhou-h"),
                ("CidrBlock", "192.168.1.0/24"),
            ],
        );
        let vswitch = text(&vsw, "/VSwitchId").to_owned();
        let sg = t.ok(
            &PRODUCT,
            "CreateSecurityGroup",
            caller,
            &[("VpcId", &vpc), ("SecurityGroupName", "web-sg")],
        );
        let security_group = text(&sg, "/SecurityGroupId").to_owned();
        Network {
            vpc,
            vswitch,
            security_group,
        }
    }

    fn run_one(t: &TestConsole, caller: &Caller, net: &Network, extra: &[(&str, &str)]) -> String {
        let mut params = vec![
            ("InstanceType", "ecs.g7.large"),
            ("ImageId", IMAGE),
            ("VSwitchId", net.vswitch.as_str()),
            ("SecurityGroupId", net.security_group.as_str()),
            ("InstanceName", "web-01"),
        ];
        params.extend_from_slice(extra);
        let body = t.ok(&PRODUCT, "RunInstances", caller, &params);
        let ids = items(&body, "/InstanceIdSets/InstanceIdSet");
        assert_eq!(ids.len(), 1, "{body}");
        ids[0].as_str().unwrap_or_default().to_owned()
    }

    fn describe_one(t: &TestConsole, caller: &Caller, id: &str) -> Value {
        let ids = format!("[\"{id}\"]");
        let body = t.ok(&PRODUCT, "DescribeInstances", caller, &[("InstanceIds", ids.as_str())]);
        let found = items(&body, "/Instances/Instance");
        assert_eq!(found.len(), 1, "{body}");
        found[0].clone()
    }

    fn status_of(t: &TestConsole, caller: &Caller, id: &str) -> String {
        text(&describe_one(t, caller, id), "/Status").to_owned()
    }

    #[test]
    fn run_instances_creates_a_running_instance_with_a_system_disk() {
        let t = TestConsole::new();
        let caller = t.account("alice");
        let net = network(&t, &caller);
        let id = run_one(
            &t,
            &caller,
            &net,
            &[("InternetMaxBandwidthOut", "5"), ("SystemDisk.Size", "60")],
        );
        assert!(id.starts_with("i-"), "{id}");

        let instance = describe_one(&t, &caller, &id);
        assert_eq!(text(&instance, "/Status"), "Running");
        assert_eq!(text(&instance, "/InstanceName"), "web-01");
        assert_eq!(text(&instance, "/InstanceType"), "ecs.g7.large");
        assert_eq!(instance["Cpu"], 2);
        assert_eq!(instance["Memory"], 8192);
        assert_eq!(text(&instance, "/ZoneId"), "cn-hangzhou-h");
        assert_eq!(text(&instance, "/InstanceChargeType"), "PostPaid");
        assert_eq!(text(&instance, "/ExpiredTime"), NEVER_EXPIRES);
        assert_eq!(text(&instance, "/VpcAttributes/VpcId"), net.vpc);
        assert_eq!(text(&instance, "/VpcAttributes/VSwitchId"), net.vswitch);
        assert_eq!(
            text(&instance, "/VpcAttributes/PrivateIpAddress/IpAddress/0"),
            "192.168.1.1"
        );
        assert!(text(&instance, "/PublicIpAddress/IpAddress/0").starts_with("47."));
        assert_eq!(
            text(&instance, "/SecurityGroupIds/SecurityGroupId/0"),
            net.security_group
        );
        assert_eq!(text(&instance, "/CreationTime"), "2026-11-30T14:01Z");

        let disks = t.ok(&PRODUCT, "DescribeDisks", &caller, &[("InstanceId", id.as_str())]);
        let disks = items(&disks, "/Disks/Disk");
        assert_eq!(disks.len(), 1);
        assert_eq!(text(&disks[0], "/Type"), "system");
        assert_eq!(text(&disks[0], "/Status"), "In_use");
        assert_eq!(text(&disks[0], "/Category"), "cloud_essd");
        assert_eq!(disks[0]["Size"], 60);
        assert_eq!(text(&disks[0], "/Device"), "/dev/xvda");

        // A second instance takes the next free address of the vSwitch.
        let second = run_one(&t, &caller, &net, &[]);
        let second = describe_one(&t, &caller, &second);
        assert_eq!(
            text(&second, "/VpcAttributes/PrivateIpAddress/IpAddress/0"),
            "192.168.1.2"
        );
        assert_eq!(items(&second, "/PublicIpAddress/IpAddress").len(), 0);
    }

    #[test]
    fn run_instances_launches_several_with_unique_suffixes() {
        let t = TestConsole::new();
        let caller = t.account("alice");
        let net = network(&t, &caller);
        let body = t.ok(
            &PRODUCT,
            "RunInstances",
            &caller,
            &[
                ("InstanceType", "ecs.c7.large"),
                ("ImageId", IMAGE),
                ("VSwitchId", &net.vswitch),
                ("SecurityGroupId", &net.security_group),
                ("InstanceName", "node"),
                ("UniqueSuffix", "true"),
                ("Amount", "3"),
                ("DataDisk.1.Category", "cloud_essd"),
                ("DataDisk.1.Size", "100"),
            ],
        );
        assert_eq!(items(&body, "/InstanceIdSets/InstanceIdSet").len(), 3);
        let list = t.ok(&PRODUCT, "DescribeInstances", &caller, &[("InstanceName", "node*")]);
        let mut names: Vec<&str> = items(&list, "/Instances/Instance")
            .iter()
            .filter_map(|i| i["InstanceName"].as_str())
            .collect();
        names.sort_unstable();
        assert_eq!(names, ["node001", "node002", "node003"]);
        let data = t.ok(&PRODUCT, "DescribeDisks", &caller, &[("DiskType", "data")]);
        assert_eq!(data["TotalCount"], 3);
        assert_eq!(text(&data, "/Disks/Disk/0/Device"), "/dev/xvdb");
    }

    #[test]
    fn stop_and_start_pass_through_transitional_states() {
        let t = TestConsole::with_transition_delay(2_000);
        let caller = t.account("alice");
        let net = network(&t, &caller);
        t.advance(2_000); // the VPC and vSwitch become Available
        let id = run_one(&t, &caller, &net, &[]);
        assert_eq!(status_of(&t, &caller, &id), "Starting");
        let err = t.err(&PRODUCT, "StopInstance", &caller, &[("InstanceId", &id)]);
        assert_eq!(err.code, "IncorrectInstanceStatus");
        t.advance(2_000);
        assert_eq!(status_of(&t, &caller, &id), "Running");

        t.ok(&PRODUCT, "StopInstance", &caller, &[("InstanceId", &id)]);
        assert_eq!(status_of(&t, &caller, &id), "Stopping");
        let err = t.err(&PRODUCT, "StartInstance", &caller, &[("InstanceId", &id)]);
        assert_eq!(
            (err.code.as_str(), err.status.as_u16()),
            ("IncorrectInstanceStatus", 403)
        );
        t.advance(1_999);
        assert_eq!(status_of(&t, &caller, &id), "Stopping");
        t.advance(1);
        assert_eq!(status_of(&t, &caller, &id), "Stopped");
        let status = t.ok(&PRODUCT, "DescribeInstanceStatus", &caller, &[("InstanceId.1", &id)]);
        assert_eq!(text(&status, "/InstanceStatuses/InstanceStatus/0/Status"), "Stopped");

        t.ok(&PRODUCT, "StartInstance", &caller, &[("InstanceId", &id)]);
        assert_eq!(status_of(&t, &caller, &id), "Starting");
        t.advance(2_000);
        assert_eq!(status_of(&t, &caller, &id), "Running");
        let err = t.err(&PRODUCT, "StartInstance", &caller, &[("InstanceId", &id)]);
        assert_eq!(err.code, "IncorrectInstanceStatus");
    }

    #[test]
    fn create_instance_leaves_a_stopped_instance_without_public_address() {
        let t = TestConsole::with_transition_delay(1_000);
        let caller = t.account("alice");
        let net = network(&t, &caller);
        t.advance(1_000);
        let body = t.ok(
            &PRODUCT,
            "CreateInstance",
            &caller,
            &[
                ("InstanceType", "ecs.t6-c1m1.large"),
                ("ImageId", IMAGE),
                ("VSwitchId", &net.vswitch),
                ("SecurityGroupId", &net.security_group),
                ("InternetMaxBandwidthOut", "10"),
            ],
        );
        let id = text(&body, "/InstanceId").to_owned();
        assert_eq!(status_of(&t, &caller, &id), "Pending");
        t.advance(1_000);
        let instance = describe_one(&t, &caller, &id);
        assert_eq!(text(&instance, "/Status"), "Stopped");
        assert_eq!(text(&instance, "/InstanceName"), id);
        assert_eq!(text(&instance, "/CreditSpecification"), "Standard");
        assert_eq!(items(&instance, "/PublicIpAddress/IpAddress").len(), 0);
    }

    #[test]
    fn delete_instance_needs_a_stopped_instance_unless_forced() {
        let t = TestConsole::new();
        let caller = t.account("alice");
        let net = network(&t, &caller);
        let id = run_one(
            &t,
            &caller,
            &net,
            &[("DataDisk.1.Size", "40"), ("DataDisk.1.DeleteWithInstance", "false")],
        );
        let err = t.err(&PRODUCT, "DeleteInstance", &caller, &[("InstanceId", &id)]);
        assert_eq!(err.code, "IncorrectInstanceStatus");
        t.ok(
            &PRODUCT,
            "ModifyInstanceAttribute",
            &caller,
            &[("InstanceId", &id), ("DeletionProtection", "true")],
        );
        let err = t.err(
            &PRODUCT,
            "DeleteInstance",
            &caller,
            &[("InstanceId", &id), ("Force", "true")],
        );
        assert_eq!(err.code, "InvalidOperation.DeletionProtection");
        t.ok(
            &PRODUCT,
            "ModifyInstanceAttribute",
            &caller,
            &[("InstanceId", &id), ("DeletionProtection", "false")],
        );
        t.ok(
            &PRODUCT,
            "DeleteInstance",
            &caller,
            &[("InstanceId", &id), ("Force", "true")],
        );

        let list = t.ok(&PRODUCT, "DescribeInstances", &caller, &[]);
        assert_eq!(list["TotalCount"], 0);
        // The system disk went with the instance; the data disk kept for later is now Available.
        let disks = t.ok(&PRODUCT, "DescribeDisks", &caller, &[]);
        let disks = items(&disks, "/Disks/Disk");
        assert_eq!(disks.len(), 1);
        assert_eq!(
            (text(&disks[0], "/Type"), text(&disks[0], "/Status")),
            ("data", "Available")
        );
        let err = t.err(&PRODUCT, "StopInstance", &caller, &[("InstanceId", &id)]);
        assert_eq!(err.code, "InvalidInstanceId.NotFound");
    }

    #[test]
    fn run_instances_validates_its_parameters_and_references() {
        let t = TestConsole::new();
        let caller = t.account("alice");
        let net = network(&t, &caller);
        let base = [
            ("ImageId", IMAGE),
            ("VSwitchId", net.vswitch.as_str()),
            ("SecurityGroupId", net.security_group.as_str()),
        ];
        let run = |extra: &[(&str, &str)], skip: &str| {
            let mut params: Vec<(&str, &str)> = base.iter().copied().filter(|(k, _)| *k != skip).collect();
            params.extend_from_slice(extra);
            t.err(&PRODUCT, "RunInstances", &caller, &params)
        };

        let e = run(&[], "");
        assert_eq!(e.code, "MissingParameter");
        assert!(e.message.contains("\"InstanceType\""), "{}", e.message);
        assert_eq!(
            run(&[("InstanceType", "ecs.g99.huge")], "").code,
            "InvalidInstanceType.ValueNotSupported"
        );
        assert_eq!(
            run(
                &[("InstanceType", "ecs.g7.large"), ("ImageId", "no_such_image.vhd")],
                "ImageId"
            )
            .code,
            "InvalidImageId.NotFound"
        );
        assert_eq!(
            run(&[("InstanceType", "ecs.g7.large")], "VSwitchId").code,
            "MissingParameter"
        );
        assert_eq!(
            run(
                &[
                    ("InstanceType", "ecs.g7.large"),
                    ("VSwitchId", "vsw-bp1doesnotexist0000")
                ],
                "VSwitchId"
            )
            .code,
            "InvalidVSwitchId.NotFound"
        );
        assert_eq!(
            run(
                &[
                    ("InstanceType", "ecs.g7.large"),
                    ("SecurityGroupId", "sg-bp1doesnotexist00000")
                ],
                "SecurityGroupId"
            )
            .code,
            "InvalidSecurityGroupId.NotFound"
        );
        let e = run(&[("InstanceType", "ecs.g7.large"), ("ZoneId", "cn-hangzhou-i")], "");
        assert_eq!(
            (e.code.as_str(), e.message.as_str()),
            (
                "InvalidParameter.Mismatch",
                "Specified virtual switch is not in the specified zone."
            )
        );
        assert_eq!(
            run(&[("InstanceType", "ecs.g7.large"), ("ZoneId", "cn-beijing-g")], "").code,
            "InvalidZoneId.NotFound"
        );
        assert_eq!(
            run(&[("InstanceType", "ecs.g7.large"), ("InstanceName", "1bad")], "").code,
            "InvalidInstanceName.Malformed"
        );
        assert_eq!(
            run(&[("InstanceType", "ecs.g7.large"), ("Password", "simple")], "").code,
            "InvalidPassword.Malformed"
        );
        assert_eq!(
            run(&[("InstanceType", "ecs.g7.large"), ("SystemDisk.Size", "10")], "").code,
            "InvalidSystemDiskSize.LessThanMinSize"
        );
        assert_eq!(
            run(
                &[("InstanceType", "ecs.g7.large"), ("SystemDisk.Category", "floppy")],
                ""
            )
            .code,
            "InvalidSystemDiskCategory.ValueNotSupported"
        );
        assert_eq!(
            run(
                &[("InstanceType", "ecs.g7.large"), ("InstanceChargeType", "PrePaid")],
                ""
            )
            .code,
            "MissingParameter"
        );
        assert_eq!(
            run(&[("InstanceType", "ecs.g7.large"), ("KeyPairName", "nobody")], "").code,
            "InvalidKeyPairName.NotFound"
        );
        assert_eq!(
            run(&[("InstanceType", "ecs.g7.large"), ("DryRun", "true")], "").code,
            "DryRunOperation"
        );

        // A security group of another VPC cannot guard an instance in this vSwitch.
        let other_vpc = t.ok(&vpc::PRODUCT, "CreateVpc", &caller, &[("CidrBlock", "10.0.0.0/8")]);
        let other_sg = t.ok(
            &PRODUCT,
            "CreateSecurityGroup",
            &caller,
            &[("VpcId", text(&other_vpc, "/VpcId"))],
        );
        let e = run(
            &[
                ("InstanceType", "ecs.g7.large"),
                ("SecurityGroupId", text(&other_sg, "/SecurityGroupId")),
            ],
            "SecurityGroupId",
        );
        assert_eq!(e.code, "InvalidParameter.Mismatch");
        assert_eq!(
            e.message,
            "Specified security group and virtual switch are not in the same VPC."
        );

        // Nothing was created by any of the failed calls.
        assert_eq!(t.ok(&PRODUCT, "DescribeInstances", &caller, &[])["TotalCount"], 0);
        assert_eq!(t.ok(&PRODUCT, "DescribeDisks", &caller, &[])["TotalCount"], 0);
    }

    #[test]
    fn accounts_see_only_their_own_instances() {
        let t = TestConsole::new();
        let alice = t.account("alice");
        let bob = t.account("bob");
        let alice_net = network(&t, &alice);
        let bob_net = network(&t, &bob);
        let alice_instance = run_one(&t, &alice, &alice_net, &[]);
        let bob_instance = run_one(&t, &bob, &bob_net, &[]);

        let seen_by_bob = t.ok(&PRODUCT, "DescribeInstances", &bob, &[]);
        let ids: Vec<&str> = items(&seen_by_bob, "/Instances/Instance")
            .iter()
            .filter_map(|i| i["InstanceId"].as_str())
            .collect();
        assert_eq!(ids, [bob_instance.as_str()]);
        let asked = format!("[\"{alice_instance}\"]");
        assert_eq!(
            t.ok(&PRODUCT, "DescribeInstances", &bob, &[("InstanceIds", &asked)])["TotalCount"],
            0
        );
        assert_eq!(
            t.err(&PRODUCT, "StopInstance", &bob, &[("InstanceId", &alice_instance)])
                .code,
            "InvalidInstanceId.NotFound"
        );
        // Bob cannot launch into Alice's network either.
        let e = t.err(
            &PRODUCT,
            "RunInstances",
            &bob,
            &[
                ("InstanceType", "ecs.g7.large"),
                ("ImageId", IMAGE),
                ("VSwitchId", &alice_net.vswitch),
                ("SecurityGroupId", &bob_net.security_group),
            ],
        );
        assert_eq!(e.code, "InvalidVSwitchId.NotFound");
        assert_eq!(status_of(&t, &alice, &alice_instance), "Running");
    }

    #[test]
    fn instances_are_regional() {
        let t = TestConsole::new();
        let caller = t.account("alice");
        let net = network(&t, &caller);
        let id = run_one(&t, &caller, &net, &[]);
        let elsewhere = t.ok(&PRODUCT, "DescribeInstances", &caller, &[("RegionId", "cn-beijing")]);
        assert_eq!(elsewhere["TotalCount"], 0);
        let e = t.err(
            &PRODUCT,
            "StopInstance",
            &caller,
            &[("RegionId", "cn-beijing"), ("InstanceId", &id)],
        );
        assert_eq!(e.code, "InvalidInstanceId.NotFound");
    }

    #[test]
    fn events_name_the_instance_and_record_failures() {
        let t = TestConsole::new();
        let caller = t.account("alice");
        let net = network(&t, &caller);
        let id = run_one(&t, &caller, &net, &[]);

        let event = t.last_event(&caller, "RunInstances");
        assert_eq!(event.service_name, "Ecs");
        assert_eq!(event.event_source, "ecs.aliyuncs.com");
        assert_eq!(event.api_version, "2014-05-26");
        assert_eq!(event.acs_region, "cn-hangzhou");
        assert_eq!(event.error_code, None);
        assert_eq!(event.referenced_resources.get(INSTANCE_REF), Some(&vec![id.clone()]));
        assert_eq!(
            event.referenced_resources.get(SECURITY_GROUP_REF),
            Some(&vec![net.security_group.clone()])
        );
        assert_eq!(event.referenced_resources.get(DISK_REF).map(Vec::len), Some(1));
        assert_eq!(
            event.request_parameters.get("InstanceType"),
            Some(&json!("ecs.g7.large"))
        );
        assert_eq!(
            event.response_elements.pointer("/InstanceIdSets/InstanceIdSet/0"),
            Some(&json!(id))
        );

        t.ok(&PRODUCT, "StopInstance", &caller, &[("InstanceId", &id)]);
        let stop = t.last_event(&caller, "StopInstance");
        assert_eq!(stop.referenced_resources.get(INSTANCE_REF), Some(&vec![id.clone()]));

        t.err(&PRODUCT, "StopInstance", &caller, &[("InstanceId", &id)]);
        let failed = t.last_event(&caller, "StopInstance");
        assert_eq!(failed.error_code.as_deref(), Some("IncorrectInstanceStatus"));
        assert!(failed.referenced_resources.is_empty());
    }

    #[test]
    fn disks_attach_detach_resize_and_delete() {
        let t = TestConsole::new();
        let caller = t.account("alice");
        let net = network(&t, &caller);
        let instance = run_one(&t, &caller, &net, &[]);

        let e = t.err(
            &PRODUCT,
            "CreateDisk",
            &caller,
            &[("ZoneId", "cn-hangzhou-h"), ("DiskCategory", "cloud_essd")],
        );
        assert_eq!(
            (e.code.as_str(), e.message.contains("\"Size\"")),
            ("MissingParameter", true)
        );
        let e = t.err(
            &PRODUCT,
            "CreateDisk",
            &caller,
            &[
                ("ZoneId", "cn-hangzhou-h"),
                ("DiskCategory", "cloud_essd"),
                ("Size", "5"),
            ],
        );
        assert_eq!(e.code, "InvalidDataDiskSize.ValueNotSupported");
        let disk = t.ok(
            &PRODUCT,
            "CreateDisk",
            &caller,
            &[
                ("ZoneId", "cn-hangzhou-h"),
                ("DiskCategory", "cloud_essd"),
                ("Size", "100"),
                ("DiskName", "data-1"),
            ],
        );
        let disk = text(&disk, "/DiskId").to_owned();
        let far = t.ok(
            &PRODUCT,
            "CreateDisk",
            &caller,
            &[("ZoneId", "cn-hangzhou-i"), ("Size", "20")],
        );
        let far = text(&far, "/DiskId").to_owned();

        let e = t.err(
            &PRODUCT,
            "AttachDisk",
            &caller,
            &[("InstanceId", &instance), ("DiskId", &far)],
        );
        assert_eq!(e.code, "InvalidParameter.Mismatch");
        t.ok(
            &PRODUCT,
            "AttachDisk",
            &caller,
            &[("InstanceId", &instance), ("DiskId", &disk)],
        );
        let described = t.ok(
            &PRODUCT,
            "DescribeDisks",
            &caller,
            &[("DiskIds", &format!("[\"{disk}\"]"))],
        );
        assert_eq!(text(&described, "/Disks/Disk/0/Status"), "In_use");
        assert_eq!(text(&described, "/Disks/Disk/0/InstanceId"), instance);
        assert_eq!(text(&described, "/Disks/Disk/0/Device"), "/dev/xvdb");

        let e = t.err(&PRODUCT, "DeleteDisk", &caller, &[("DiskId", &disk)]);
        assert_eq!((e.code.as_str(), e.status.as_u16()), ("IncorrectDiskStatus", 403));
        let e = t.err(
            &PRODUCT,
            "AttachDisk",
            &caller,
            &[("InstanceId", &instance), ("DiskId", &disk)],
        );
        assert_eq!(e.code, "IncorrectDiskStatus");

        let e = t.err(&PRODUCT, "ResizeDisk", &caller, &[("DiskId", &disk), ("NewSize", "50")]);
        assert_eq!(e.code, "InvalidParameter");
        t.ok(
            &PRODUCT,
            "ResizeDisk",
            &caller,
            &[("DiskId", &disk), ("NewSize", "200"), ("Type", "online")],
        );

        let system_disk = t.ok(
            &PRODUCT,
            "DescribeDisks",
            &caller,
            &[("InstanceId", &instance), ("DiskType", "system")],
        );
        let system_disk = text(&system_disk, "/Disks/Disk/0/DiskId").to_owned();
        let e = t.err(
            &PRODUCT,
            "DetachDisk",
            &caller,
            &[("InstanceId", &instance), ("DiskId", &system_disk)],
        );
        assert_eq!(e.code, "IncorrectInstanceStatus");

        t.ok(
            &PRODUCT,
            "DetachDisk",
            &caller,
            &[("InstanceId", &instance), ("DiskId", &disk)],
        );
        let described = t.ok(
            &PRODUCT,
            "DescribeDisks",
            &caller,
            &[("DiskIds", &format!("[\"{disk}\"]"))],
        );
        assert_eq!(text(&described, "/Disks/Disk/0/Status"), "Available");
        assert_eq!(described["Disks"]["Disk"][0]["Size"], 200);
        t.ok(&PRODUCT, "DeleteDisk", &caller, &[("DiskId", &disk)]);
        assert_eq!(
            t.last_event(&caller, "DeleteDisk").referenced_resources.get(DISK_REF),
            Some(&vec![disk.clone()])
        );
        assert_eq!(
            t.err(&PRODUCT, "DeleteDisk", &caller, &[("DiskId", &disk)]).code,
            "InvalidDiskId.NotFound"
        );
    }

    #[test]
    fn snapshots_progress_then_accomplish() {
        let t = TestConsole::with_transition_delay(4_000);
        let caller = t.account("alice");
        let disk = t.ok(
            &PRODUCT,
            "CreateDisk",
            &caller,
            &[("ZoneId", "cn-hangzhou-h"), ("Size", "40")],
        );
        let disk = text(&disk, "/DiskId").to_owned();
        assert_eq!(
            t.err(&PRODUCT, "CreateSnapshot", &caller, &[("DiskId", &disk)]).code,
            "IncorrectDiskStatus"
        );
        t.advance(4_000);

        let snapshot = t.ok(
            &PRODUCT,
            "CreateSnapshot",
            &caller,
            &[("DiskId", &disk), ("SnapshotName", "before-upgrade")],
        );
        let snapshot = text(&snapshot, "/SnapshotId").to_owned();
        assert!(snapshot.starts_with("s-"));
        let e = t.err(&PRODUCT, "CreateSnapshot", &caller, &[("DiskId", &disk)]);
        assert_eq!(e.code, "IncorrectDiskStatus.CreatingSnapshot");
        t.advance(1_000);
        let listed = t.ok(&PRODUCT, "DescribeSnapshots", &caller, &[("DiskId", &disk)]);
        assert_eq!(text(&listed, "/Snapshots/Snapshot/0/Status"), "progressing");
        assert_eq!(text(&listed, "/Snapshots/Snapshot/0/Progress"), "25%");
        let e = t.err(
            &PRODUCT,
            "CreateDisk",
            &caller,
            &[("ZoneId", "cn-hangzhou-h"), ("SnapshotId", &snapshot)],
        );
        assert_eq!(e.code, "InvalidSnapshotId.NotReady");
        t.advance(3_000);
        let listed = t.ok(
            &PRODUCT,
            "DescribeSnapshots",
            &caller,
            &[("SnapshotIds", &format!("[\"{snapshot}\"]"))],
        );
        assert_eq!(text(&listed, "/Snapshots/Snapshot/0/Status"), "accomplished");
        assert_eq!(text(&listed, "/Snapshots/Snapshot/0/Progress"), "100%");
        assert_eq!(text(&listed, "/Snapshots/Snapshot/0/SourceDiskSize"), "40");
        assert_eq!(text(&listed, "/Snapshots/Snapshot/0/SourceDiskType"), "Data");

        let restored = t.ok(
            &PRODUCT,
            "CreateDisk",
            &caller,
            &[("ZoneId", "cn-hangzhou-h"), ("SnapshotId", &snapshot)],
        );
        assert!(text(&restored, "/DiskId").starts_with("d-"));
        assert_eq!(
            t.err(&PRODUCT, "DeleteSnapshot", &caller, &[("SnapshotId", &snapshot)])
                .code,
            "SnapshotCreatedDisk"
        );
        t.ok(
            &PRODUCT,
            "DeleteSnapshot",
            &caller,
            &[("SnapshotId", &snapshot), ("Force", "true")],
        );
        assert_eq!(t.ok(&PRODUCT, "DescribeSnapshots", &caller, &[])["TotalCount"], 0);
    }

    #[test]
    fn automatic_snapshot_policies_apply_to_disks() {
        let t = TestConsole::new();
        let caller = t.account("alice");
        let disk = t.ok(
            &PRODUCT,
            "CreateDisk",
            &caller,
            &[("ZoneId", "cn-hangzhou-h"), ("Size", "40")],
        );
        let disk = text(&disk, "/DiskId").to_owned();
        let e = t.err(
            &PRODUCT,
            "CreateAutoSnapshotPolicy",
            &caller,
            &[
                ("regionId", "cn-hangzhou"),
                ("timePoints", "[\"25\"]"),
                ("repeatWeekdays", "[\"1\"]"),
                ("retentionDays", "7"),
            ],
        );
        assert_eq!(e.code, "InvalidTimePoints.Malformed");
        let policy = t.ok(
            &PRODUCT,
            "CreateAutoSnapshotPolicy",
            &caller,
            &[
                ("regionId", "cn-hangzhou"),
                ("autoSnapshotPolicyName", "nightly"),
                ("timePoints", "[\"2\",\"14\"]"),
                ("repeatWeekdays", "[\"1\",\"7\"]"),
                ("retentionDays", "7"),
            ],
        );
        let policy = text(&policy, "/AutoSnapshotPolicyId").to_owned();
        assert!(policy.starts_with("sp-"));
        let disk_ids = format!("[\"{disk}\"]");
        t.ok(
            &PRODUCT,
            "ApplyAutoSnapshotPolicy",
            &caller,
            &[
                ("regionId", "cn-hangzhou"),
                ("autoSnapshotPolicyId", &policy),
                ("diskIds", &disk_ids),
            ],
        );
        let listed = t.ok(
            &PRODUCT,
            "DescribeAutoSnapshotPolicyEx",
            &caller,
            &[("AutoSnapshotPolicyId", &policy)],
        );
        let entry = &items(&listed, "/AutoSnapshotPolicies/AutoSnapshotPolicy")[0];
        assert_eq!(
            (text(entry, "/TimePoints"), text(entry, "/RepeatWeekdays")),
            ("[\"2\",\"14\"]", "[\"1\",\"7\"]")
        );
        assert_eq!(entry["DiskNums"], 1);
        let described = t.ok(&PRODUCT, "DescribeDisks", &caller, &[("AutoSnapshotPolicyId", &policy)]);
        assert_eq!(described["Disks"]["Disk"][0]["EnableAutoSnapshot"], true);

        t.ok(
            &PRODUCT,
            "CancelAutoSnapshotPolicy",
            &caller,
            &[("regionId", "cn-hangzhou"), ("diskIds", &disk_ids)],
        );
        assert_eq!(
            t.ok(&PRODUCT, "DescribeDisks", &caller, &[("AutoSnapshotPolicyId", &policy)])["TotalCount"],
            0
        );
        t.ok(
            &PRODUCT,
            "DeleteAutoSnapshotPolicy",
            &caller,
            &[("regionId", "cn-hangzhou"), ("autoSnapshotPolicyId", &policy)],
        );
        assert_eq!(
            t.ok(&PRODUCT, "DescribeAutoSnapshotPolicyEx", &caller, &[])["TotalCount"],
            0
        );
        let e = t.err(
            &PRODUCT,
            "ApplyAutoSnapshotPolicy",
            &caller,
            &[
                ("regionId", "cn-hangzhou"),
                ("autoSnapshotPolicyId", &policy),
                ("diskIds", &disk_ids),
            ],
        );
        assert_eq!(e.code, "InvalidAutoSnapshotPolicyId.NotFound");
    }

    #[test]
    fn security_group_rules_are_authorized_listed_and_revoked() {
        let t = TestConsole::new();
        let caller = t.account("alice");
        let net = network(&t, &caller);
        let sg = net.security_group.as_str();
        let ssh = [
            ("SecurityGroupId", sg),
            ("IpProtocol", "tcp"),
            ("PortRange", "22/22"),
            ("SourceCidrIp", "0.0.0.0/0"),
        ];
        t.ok(&PRODUCT, "AuthorizeSecurityGroup", &caller, &ssh);
        t.ok(&PRODUCT, "AuthorizeSecurityGroup", &caller, &ssh); // the same rule again adds nothing
        t.ok(
            &PRODUCT,
            "AuthorizeSecurityGroup",
            &caller,
            &[
                ("SecurityGroupId", sg),
                ("Permissions.1.IpProtocol", "TCP"),
                ("Permissions.1.PortRange", "80/80"),
                ("Permissions.1.SourceCidrIp", "10.0.0.0/8"),
                ("Permissions.1.Priority", "10"),
                ("Permissions.2.IpProtocol", "ICMP"),
                ("Permissions.2.PortRange", "-1/-1"),
                ("Permissions.2.SourceCidrIp", "192.168.0.0/16"),
                ("Permissions.2.Policy", "drop"),
            ],
        );
        t.ok(
            &PRODUCT,
            "AuthorizeSecurityGroupEgress",
            &caller,
            &[
                ("SecurityGroupId", sg),
                ("IpProtocol", "ALL"),
                ("PortRange", "-1/-1"),
                ("DestCidrIp", "0.0.0.0/0"),
            ],
        );
        let bad_port = t.err(
            &PRODUCT,
            "AuthorizeSecurityGroup",
            &caller,
            &[
                ("SecurityGroupId", sg),
                ("IpProtocol", "tcp"),
                ("PortRange", "0/70000"),
                ("SourceCidrIp", "0.0.0.0/0"),
            ],
        );
        assert_eq!(bad_port.code, "InvalidPortRange.Malformed");
        let bad_protocol = t.err(
            &PRODUCT,
            "AuthorizeSecurityGroup",
            &caller,
            &[
                ("SecurityGroupId", sg),
                ("IpProtocol", "sctp"),
                ("PortRange", "1/2"),
                ("SourceCidrIp", "0.0.0.0/0"),
            ],
        );
        assert_eq!(bad_protocol.code, "InvalidIpProtocol.Malformed");

        let ingress = t.ok(
            &PRODUCT,
            "DescribeSecurityGroupAttribute",
            &caller,
            &[("SecurityGroupId", sg), ("Direction", "ingress")],
        );
        let rules = items(&ingress, "/Permissions/Permission");
        assert_eq!(rules.len(), 3);
        assert_eq!(
            (text(&rules[0], "/IpProtocol"), text(&rules[0], "/PortRange")),
            ("TCP", "22/22")
        );
        assert_eq!(text(&rules[1], "/Priority"), "10");
        assert_eq!(text(&rules[2], "/Policy"), "Drop");
        let all = t.ok(
            &PRODUCT,
            "DescribeSecurityGroupAttribute",
            &caller,
            &[("SecurityGroupId", sg)],
        );
        assert_eq!(items(&all, "/Permissions/Permission").len(), 4);

        t.ok(&PRODUCT, "RevokeSecurityGroup", &caller, &ssh);
        let rule_id = text(&rules[1], "/SecurityGroupRuleId").to_owned();
        t.ok(
            &PRODUCT,
            "RevokeSecurityGroup",
            &caller,
            &[("SecurityGroupId", sg), ("SecurityGroupRuleId.1", &rule_id)],
        );
        let e = t.err(
            &PRODUCT,
            "RevokeSecurityGroup",
            &caller,
            &[("SecurityGroupId", sg), ("SecurityGroupRuleId.1", &rule_id)],
        );
        assert_eq!(e.code, "InvalidSecurityGroupRuleId.NotFound");
        let ingress = t.ok(
            &PRODUCT,
            "DescribeSecurityGroupAttribute",
            &caller,
            &[("SecurityGroupId", sg), ("Direction", "ingress")],
        );
        assert_eq!(items(&ingress, "/Permissions/Permission").len(), 1);
        let groups = t.ok(&PRODUCT, "DescribeSecurityGroups", &caller, &[("VpcId", &net.vpc)]);
        assert_eq!(groups["SecurityGroups"]["SecurityGroup"][0]["RuleCount"], 2);
    }

    #[test]
    fn security_groups_in_use_cannot_be_deleted() {
        let t = TestConsole::new();
        let caller = t.account("alice");
        let net = network(&t, &caller);
        let id = run_one(&t, &caller, &net, &[]);
        let groups = t.ok(&PRODUCT, "DescribeSecurityGroups", &caller, &[]);
        assert_eq!(groups["SecurityGroups"]["SecurityGroup"][0]["EcsCount"], 1);
        let e = t.err(
            &PRODUCT,
            "DeleteSecurityGroup",
            &caller,
            &[("SecurityGroupId", &net.security_group)],
        );
        assert_eq!(
            (e.code.as_str(), e.message.as_str()),
            (
                "DependencyViolation",
                "There is still instance(s) in the specified security group."
            )
        );
        // The VPC cannot go while it still holds the security group.
        t.ok(
            &PRODUCT,
            "DeleteInstance",
            &caller,
            &[("InstanceId", &id), ("Force", "true")],
        );
        t.ok(&vpc::PRODUCT, "DeleteVSwitch", &caller, &[("VSwitchId", &net.vswitch)]);
        let e = t.err(&vpc::PRODUCT, "DeleteVpc", &caller, &[("VpcId", &net.vpc)]);
        assert_eq!(e.code, "DependencyViolation.SecurityGroup");
        t.ok(
            &PRODUCT,
            "DeleteSecurityGroup",
            &caller,
            &[("SecurityGroupId", &net.security_group)],
        );
        t.ok(&vpc::PRODUCT, "DeleteVpc", &caller, &[("VpcId", &net.vpc)]);
    }

    #[test]
    fn key_pairs_are_created_imported_and_used() {
        let t = TestConsole::new();
        let caller = t.account("alice");
        let created = t.ok(&PRODUCT, "CreateKeyPair", &caller, &[("KeyPairName", "deploy")]);
        assert!(text(&created, "/PrivateKeyBody").starts_with("-----BEGIN RSA PRIVATE KEY-----\n"));
        let finger_print = text(&created, "/KeyPairFingerPrint").to_owned();
        assert_eq!(finger_print.split(':').count(), 16);
        assert_eq!(
            t.err(&PRODUCT, "CreateKeyPair", &caller, &[("KeyPairName", "deploy")])
                .code,
            "KeyPair.AlreadyExist"
        );
        assert_eq!(
            t.err(&PRODUCT, "CreateKeyPair", &caller, &[("KeyPairName", "-x")]).code,
            "InvalidKeyPairName.Malformed"
        );

        // An SSH key blob starts with its type as a length-prefixed string.
        let mut blob = 11u32.to_be_bytes().to_vec();
        blob.extend_from_slice(b"ssh-ed25519");
        blob.extend_from_slice(&32u32.to_be_bytes());
        blob.extend_from_slice(&[7u8; 32]);
        let public_key = format!(
            "ssh-ed25519 {} me@laptop",
            base64::engine::general_purpose::STANDARD.encode(&blob)
        );
        let imported = t.ok(
            &PRODUCT,
            "ImportKeyPair",
            &caller,
            &[("KeyPairName", "laptop"), ("PublicKeyBody", &public_key)],
        );
        assert_eq!(text(&imported, "/KeyPairFingerPrint"), fingerprint(&blob));
        let e = t.err(
            &PRODUCT,
            "ImportKeyPair",
            &caller,
            &[("KeyPairName", "broken"), ("PublicKeyBody", "ssh-rsa not-base64!")],
        );
        assert_eq!(e.code, "InvalidPublicKeyBody.Malformed");

        let listed = t.ok(&PRODUCT, "DescribeKeyPairs", &caller, &[("KeyPairName", "dep*")]);
        assert_eq!(listed["TotalCount"], 1);
        assert_eq!(text(&listed, "/KeyPairs/KeyPair/0/KeyPairFingerPrint"), finger_print);

        let net = network(&t, &caller);
        let id = run_one(&t, &caller, &net, &[("KeyPairName", "deploy")]);
        assert_eq!(text(&describe_one(&t, &caller, &id), "/KeyPairName"), "deploy");
        let e = t.err(
            &PRODUCT,
            "RunInstances",
            &caller,
            &[
                ("InstanceType", "ecs.g7.large"),
                ("ImageId", "win2022_21H2_x64_dtc_en-us_40G_alibase_20240515.vhd"),
                ("VSwitchId", &net.vswitch),
                ("SecurityGroupId", &net.security_group),
                ("KeyPairName", "deploy"),
            ],
        );
        assert_eq!(e.code, "DependencyViolation.WindowsInstance");

        t.ok(
            &PRODUCT,
            "DeleteKeyPairs",
            &caller,
            &[("KeyPairNames", "[\"deploy\",\"laptop\"]")],
        );
        assert_eq!(t.ok(&PRODUCT, "DescribeKeyPairs", &caller, &[])["TotalCount"], 0);
        let e = t.err(&PRODUCT, "DeleteKeyPairs", &caller, &[("KeyPairNames", "[\"deploy\"]")]);
        assert_eq!(e.code, "InvalidKeyPairName.NotFound");
    }

    #[test]
    fn catalogs_list_regions_zones_types_and_images() {
        let t = TestConsole::new();
        let caller = t.account("alice");
        let regions = t.ok(&PRODUCT, "DescribeRegions", &caller, &[]);
        assert_eq!(items(&regions, "/Regions/Region").len(), REGIONS.len());
        assert_eq!(
            text(&regions, "/Regions/Region/0/RegionEndpoint"),
            "ecs.cn-hangzhou.aliyuncs.com"
        );

        let zones = t.ok(&PRODUCT, "DescribeZones", &caller, &[("RegionId", "cn-shanghai")]);
        let zones = items(&zones, "/Zones/Zone");
        assert_eq!(zones.len(), 3);
        assert_eq!(
            (text(&zones[0], "/ZoneId"), text(&zones[0], "/LocalName")),
            ("cn-shanghai-e", "Shanghai Zone E")
        );
        assert_eq!(
            t.err(&PRODUCT, "DescribeZones", &caller, &[("RegionId", "mars-1")])
                .code,
            "InvalidRegionId.NotFound"
        );

        let types = t.ok(
            &PRODUCT,
            "DescribeInstanceTypes",
            &caller,
            &[("InstanceTypeFamily", "ecs.t6")],
        );
        let types = items(&types, "/InstanceTypes/InstanceType");
        assert_eq!(types.len(), 3);
        assert!(types.iter().all(|t| t["InstanceFamilyLevel"] == "CreditEntryLevel"));
        let one = t.ok(
            &PRODUCT,
            "DescribeInstanceTypes",
            &caller,
            &[("InstanceTypes.1", "ecs.g7.large")],
        );
        assert_eq!(one["InstanceTypes"]["InstanceType"][0]["MemorySize"], 8.0);

        let images = t.ok(
            &PRODUCT,
            "DescribeImages",
            &caller,
            &[("ImageId", "ubuntu_22_04_x64_20G_alibase_20240508.vhd")],
        );
        assert_eq!(images["TotalCount"], 1);
        assert_eq!(text(&images, "/Images/Image/0/Platform"), "Ubuntu");
        let windows = t.ok(&PRODUCT, "DescribeImages", &caller, &[("OSType", "windows")]);
        assert_eq!(windows["TotalCount"], 1);
        assert_eq!(
            t.ok(&PRODUCT, "DescribeImages", &caller, &[("ImageOwnerAlias", "self")])["TotalCount"],
            0
        );
    }

    #[test]
    fn name_errors_name_the_field() {
        assert_eq!(
            check_name("InstanceName", "-bad").unwrap_err().code,
            "InvalidInstanceName.Malformed"
        );
        assert_eq!(
            check_name("SystemDisk.DiskName", "x").unwrap_err().code,
            "InvalidDiskName.Malformed"
        );
        let e = check_name("autoSnapshotPolicyName", "9lives").unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.message.contains("\"autoSnapshotPolicyName\"")),
            ("InvalidAutoSnapshotPolicyName.Malformed", true)
        );
        assert!(check_name("InstanceName", "web-01:blue_v1.2").is_ok());
    }

    #[test]
    fn name_patterns_match_like_the_console_search() {
        assert!(glob_match("web*", "web-01"));
        assert!(glob_match("*01", "web-01"));
        assert!(glob_match("w*-*1", "web-01"));
        assert!(!glob_match("web*", "api-01"));
        assert!(!glob_match("web", "web-01"));
        assert!(!glob_match("ab*ba", "aba"));
    }
}
