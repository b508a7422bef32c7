//! The recycle bin (manage-instances-in-the-recycle-bin, 2024-11-15): a released pay-as-you-go
//! instance stays there for seven days, no longer in any vSwitch's way, and can be rebuilt into a new
//! instance (`CreateInstance` with `SrcDBInstanceId`), destroyed for good (`DestroyInstance`), or,
//! for a subscription instance, unlocked by renewing it (`RenewInstance`, in `renewal.rs`).

use super::*;

/// An instance in the recycle bin: the released instance's id and settings, status `Released`.
pub(super) const RECYCLED: &str = "kvstore.recycled";
/// How long a released pay-as-you-go instance stays in the recycle bin.
const RETENTION_MS: i64 = 7 * 24 * 3_600_000;

/// Moves a released instance to the recycle bin.
pub(super) fn release(ctx: &mut OpCtx<'_>, mut instance: Resource) {
    instance.kind = RECYCLED.to_owned();
    instance.status = "Released".to_owned();
    instance.transition = None;
    instance.set("ReleasedAt", ctx.now_ms);
    ctx.put(instance);
}

/// The instances in the recycle bin of the request's region, those past their retention left out.
pub(super) fn recycled(ctx: &OpCtx<'_>) -> Vec<Resource> {
    ctx.list(RECYCLED)
        .into_iter()
        .filter(|r| r.attr_i64("ReleasedAt").is_some_and(|at| ctx.now_ms - at < RETENTION_MS))
        .collect()
}

pub(super) fn find_recycled(ctx: &OpCtx<'_>, id: &str, param: &str) -> Result<Resource, ApiError> {
    if let Some(found) = recycled(ctx).into_iter().find(|r| r.id == id) {
        return Ok(found);
    }
    if ctx.get(id).is_some_and(|r| r.kind == INSTANCE) {
        // Only instances in the recycle bin can be destroyed or rebuilt.
        return Err(incorrect_state());
    }
    Err(ApiError::not_found(param, id))
}

/// A rebuild's parameters: what the request leaves out is taken from the released instance
/// `SrcDBInstanceId` names (its type, version, network, zone and port).
pub(super) fn with_source(ctx: &OpCtx<'_>, p: &Params) -> Result<Params, ApiError> {
    let Some(src) = p.get("SrcDBInstanceId") else {
        return Ok(p.clone());
    };
    let source = find_recycled(ctx, src, "InstanceId")?;
    let mut params = p.clone();
    for (param, attr) in [
        ("InstanceClass", "InstanceClass"),
        ("EngineVersion", "EngineVersion"),
        ("NetworkType", "NetworkType"),
        ("VpcId", "VpcId"),
        ("VSwitchId", "VSwitchId"),
        ("ZoneId", "ZoneId"),
        ("NodeType", "NodeType"),
    ] {
        if p.get(param).is_none() && !source.attr_str(attr).is_empty() {
            params.insert(param, source.attr_str(attr));
        }
    }
    if p.get("Port").is_none()
        && let Some(port) = source.attr_i64("Port")
    {
        params.insert("Port", port.to_string());
    }
    Ok(params)
}

/// Deletes an instance in the recycle bin and its backups for good.
pub(super) fn destroy_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_recycled(ctx, p.required("InstanceId")?, "InstanceId")?;
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.delete(&instance.id);
    Ok(json!({}))
}

#[cfg(test)]
mod tests {
    use super::super::PRODUCT;
    use super::RETENTION_MS;
    use crate::products::testkit::TestConsole;

    #[test]
    fn released_instances_wait_in_the_recycle_bin_to_be_rebuilt_or_destroyed() {
        let h = TestConsole::new();
        let (vpc_id, vsw_id) = h.network();
        let body = h.ok(
            &PRODUCT,
            "CreateInstance",
            &[
                ("InstanceName", "session-cache"),
                ("InstanceClass", "redis.master.mid.default"),
                ("VpcId", &vpc_id),
                ("VSwitchId", &vsw_id),
                ("Port", "6380"),
            ],
        );
        let id = body["InstanceId"].as_str().unwrap().to_owned();
        let e = h.err(&PRODUCT, "DestroyInstance", &[("InstanceId", &id)]);
        assert_eq!(e.code, "IncorrectDBInstanceState", "a running instance is not in the recycle bin");
        h.ok(&PRODUCT, "DeleteInstance", &[("InstanceId", &id)]);
        assert_eq!(h.ok(&PRODUCT, "DescribeInstances", &[])["TotalCount"], 0);
        let bin = h.ok(&PRODUCT, "DescribeInstances", &[("InstanceStatus", "Released")]);
        assert_eq!(bin["TotalCount"], 1);
        assert_eq!(bin["Instances"]["KVStoreInstance"][0]["InstanceStatus"], "Released");
        let e = h.err(&PRODUCT, "RenewInstance", &[("InstanceId", &id), ("Period", "1")]);
        assert_eq!(e.code, "OperationDenied", "a pay-as-you-go instance is not renewed");

        let rebuilt = h.ok(
            &PRODUCT,
            "CreateInstance",
            &[("SrcDBInstanceId", &id), ("InstanceName", "session-cache-2")],
        );
        assert_eq!(rebuilt["Port"], 6380, "the port comes from the released instance");
        assert_eq!(rebuilt["Capacity"], 2048);
        h.ok(&PRODUCT, "DestroyInstance", &[("InstanceId", &id)]);
        let event = h.last_event("DestroyInstance");
        assert_eq!(event.referenced_resources["ACS::KVSTORE::Instance"], [id.as_str()]);
        let bin = h.ok(&PRODUCT, "DescribeInstances", &[("InstanceStatus", "Released")]);
        assert_eq!(bin["TotalCount"], 0);
        let e = h.err(&PRODUCT, "DestroyInstance", &[("InstanceId", &id)]);
        assert_eq!(e.code, "InvalidInstanceId.NotFound");

        // The recycle bin forgets an instance after seven days.
        let other = rebuilt["InstanceId"].as_str().unwrap().to_owned();
        h.ok(&PRODUCT, "DeleteInstance", &[("InstanceId", &other)]);
        h.clock.advance(RETENTION_MS);
        let bin = h.ok(&PRODUCT, "DescribeInstances", &[("InstanceStatus", "Released")]);
        assert_eq!(bin["TotalCount"], 0);
    }
}
