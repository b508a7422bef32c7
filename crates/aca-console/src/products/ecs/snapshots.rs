//! Disk snapshots and the automatic snapshot policies that take them on a schedule.

use super::*;

/// How far a snapshot has got: `100%` once accomplished, otherwise the share of its creation time elapsed.
pub(super) fn snapshot_progress(ctx: &OpCtx<'_>, snapshot: &Resource) -> String {
    match &snapshot.transition {
        Some(t) if snapshot.status == "progressing" && t.at_ms > snapshot.created_ms => {
            let elapsed = (ctx.now_ms - snapshot.created_ms).max(0);
            format!("{}%", (elapsed * 100 / (t.at_ms - snapshot.created_ms)).min(99))
        }
        _ if snapshot.status == "accomplished" => "100%".to_owned(),
        _ => "0%".to_owned(),
    }
}

pub(super) fn create_snapshot(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

pub(super) fn describe_snapshots(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

pub(super) fn delete_snapshot(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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
pub(super) fn int_array(
    p: &Params,
    name: &str,
    range: std::ops::RangeInclusive<i64>,
    code: &str,
) -> Result<Vec<i64>, ApiError> {
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

pub(super) fn create_auto_snapshot_policy(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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
pub(super) fn quoted_list(resource: &Resource, key: &str) -> String {
    let items: Vec<String> = resource
        .attrs
        .get(key)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_i64).map(|n| n.to_string()).collect())
        .unwrap_or_default();
    Value::from(items).to_string()
}

pub(super) fn describe_auto_snapshot_policy_ex(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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
pub(super) fn listed_disks(ctx: &OpCtx<'_>, p: &Params) -> Result<Vec<Resource>, ApiError> {
    let ids = p.list("diskIds")?;
    if ids.is_empty() {
        return Err(ApiError::missing_parameter("diskIds"));
    }
    ids.iter().map(|id| here(ctx, DISK, id, "DiskId")).collect()
}

pub(super) fn apply_auto_snapshot_policy(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

pub(super) fn cancel_auto_snapshot_policy(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

pub(super) fn delete_auto_snapshot_policy(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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
