//! Instances: launching, describing, the start/stop/reboot life cycle, attributes and release.

use super::*;

/// One disk to create with an instance.
#[derive(Debug, Clone)]
pub(super) struct DiskSpec {
    pub(super) category: String,
    pub(super) size: i64,
    pub(super) name: String,
    pub(super) description: String,
    pub(super) performance_level: String,
    pub(super) delete_with_instance: bool,
}

/// A validated `RunInstances` / `CreateInstance` request.
pub(super) struct Launch {
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

pub(super) fn performance_level(category: &str, given: Option<&str>, param: &str) -> Result<String, ApiError> {
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

pub(super) fn parse_launch(ctx: &OpCtx<'_>, p: &Params) -> Result<Launch, ApiError> {
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
pub(super) fn mac_address() -> String {
    let mut rng = rand::rng();
    format!(
        "00:16:3e:{:02x}:{:02x}:{:02x}",
        rng.random::<u8>(),
        rng.random::<u8>(),
        rng.random::<u8>()
    )
}

/// `/dev/xvdb`, `/dev/xvdc`, …: the first device name no disk of the instance uses.
pub(super) fn free_device(ctx: &OpCtx<'_>, instance_id: &str) -> Option<String> {
    let used: Vec<String> = disks_of(ctx, instance_id)
        .iter()
        .map(|d| d.attr_str("Device").to_owned())
        .collect();
    ('b'..='z')
        .map(|letter| format!("/dev/xvd{letter}"))
        .find(|device| !used.contains(device))
}

pub(super) fn disks_of(ctx: &OpCtx<'_>, instance_id: &str) -> Vec<Resource> {
    ctx.list_all(DISK)
        .into_iter()
        .filter(|d| d.attr_str("InstanceId") == instance_id)
        .collect()
}

/// A disk record; `instance` attaches it (`In_use`) at `device`.
pub(super) fn new_disk(
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

pub(super) fn attach(disk: &mut Resource, instance_id: &str, device: &str, now_ms: Millis) {
    disk.set("InstanceId", instance_id);
    disk.set("Device", device);
    disk.set("AttachedTime", iso8601(now_ms));
}

/// Creates one instance with its disks, showing `via` until it settles on `to`. Returns its id.
pub(super) fn launch(
    ctx: &mut OpCtx<'_>,
    spec: &Launch,
    name: &str,
    via: &str,
    to: &str,
    public_ip: bool,
) -> Result<String, ApiError> {
    allocate_postpaid_vcpus(ctx, &spec.charge_type, spec.instance_type.cpu)?;
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

pub(super) fn run_instances(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

pub(super) fn create_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let spec = parse_launch(ctx, p)?;
    dry_run(p)?;
    // CreateInstance assigns no public address: AllocatePublicIpAddress or an EIP gives one later.
    let id = launch(ctx, &spec, &spec.name, "Pending", "Stopped", false)?;
    Ok(json!({ "InstanceId": id }))
}

pub(super) fn instance_json(ctx: &OpCtx<'_>, instance: &Resource) -> Value {
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

pub(super) fn describe_instances(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

pub(super) fn describe_instance_status(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

pub(super) fn start_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("InstanceId")?;
    let mut instance = instance_in(ctx, id, &["Stopped"])?;
    dry_run(p)?;
    instance.set("StartTime", iso8601_minutes(ctx.now_ms));
    ctx.begin_transition(&mut instance, "Starting", "Running");
    ctx.reference(INSTANCE_REF, id);
    ctx.put(instance);
    Ok(json!({}))
}

pub(super) fn stop_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

pub(super) fn reboot_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

pub(super) fn delete_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

pub(super) fn modify_instance_attribute(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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
