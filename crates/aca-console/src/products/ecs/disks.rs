//! Block storage: creating, attaching, detaching, resizing and releasing cloud disks.

use super::*;

/// Fails when the instance already holds its maximum of data disks.
fn check_data_disk_room(ctx: &OpCtx<'_>, instance_id: &str) -> Result<(), ApiError> {
    let data_disks = disks_of(ctx, instance_id)
        .iter()
        .filter(|d| d.attr_str("Type") == "data")
        .count();
    if data_disks >= MAX_DATA_DISKS {
        return Err(error(
            StatusCode::BAD_REQUEST,
            "InstanceDiskNumber.LimitExceed",
            "The total number of specified disk in an instance exceeds.",
        ));
    }
    Ok(())
}

pub(super) fn disk_json(disk: &Resource) -> Value {
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

pub(super) fn create_disk(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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
            check_data_disk_room(ctx, &instance.id)?;
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

pub(super) fn describe_disks(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

pub(super) fn attach_disk(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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
    if !is_system {
        check_data_disk_room(ctx, instance_id)?;
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

pub(super) fn detach_disk(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

pub(super) fn resize_disk(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

pub(super) fn delete_disk(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let disk_id = p.required("DiskId")?;
    let disk = here(ctx, DISK, disk_id, "DiskId")?;
    if disk.status != "Available" {
        return Err(incorrect_disk_status());
    }
    ctx.reference(DISK_REF, disk_id);
    ctx.delete(disk_id);
    Ok(json!({}))
}
