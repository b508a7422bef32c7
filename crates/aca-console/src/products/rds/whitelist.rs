//! IP whitelists of an RDS instance.

use super::*;

/// How `ModifySecurityIps` names its whitelist parameters in RDS.
const WHITELIST_PARAMS: WhitelistParams = WhitelistParams {
    ips: "SecurityIps",
    group: "DBInstanceIPArrayName",
    attribute: "DBInstanceIPArrayAttribute",
};

pub(super) fn modify_security_ips(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut instance = find_instance(ctx, p)?;
    let change = WhitelistChange::parse(p, &WHITELIST_PARAMS)?;
    require_running(&instance)?;
    change.apply(&mut instance, WHITELIST_ATTR)?;
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.put(instance);
    Ok(json!({ "TaskId": order_id() }))
}

pub(super) fn describe_db_instance_ip_array_list(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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
