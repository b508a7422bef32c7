//! Renewal of subscription instances (renewal, 2026-03-28): renewing now (`RenewInstance`, which
//! also unlocks an expired instance in the recycle bin) and automatic renewal
//! (`ModifyInstanceAutoRenewalAttribute`, `DescribeInstanceAutoRenewalAttribute`).

use super::recycle::{RECYCLED, recycled};
use super::*;

/// Instance ids as `DBInstanceId` lists them: comma-separated, at most 30.
fn instance_ids(p: &Params) -> Result<Vec<String>, ApiError> {
    p.id_list("DBInstanceId", 30)?
        .ok_or_else(|| ApiError::missing_parameter("DBInstanceId"))
}

fn not_subscription() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "OperationDenied",
        "Only subscription (PrePaid) instances can be renewed.",
    )
}

fn subscription(ctx: &OpCtx<'_>, id: &str) -> Result<Resource, ApiError> {
    let instance = ctx.find(INSTANCE, id, "InstanceId")?;
    if instance.attr_str("ChargeType") != "PrePaid" {
        return Err(not_subscription());
    }
    Ok(instance)
}

/// Renews a subscription instance by `Period` months; one in the recycle bin (expired, locked) is
/// unlocked and runs again.
pub(super) fn renew_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("InstanceId")?;
    let months = p.int("Period")?.ok_or_else(|| ApiError::missing_parameter("Period"))?;
    if !PERIODS.contains(&months) {
        return Err(ApiError::invalid_parameter(
            "Period",
            "valid values: 1 to 9, 12, 24 and 36 (months)",
        ));
    }
    let mut instance = match ctx.get(id).filter(|r| r.region == ctx.region) {
        Some(r) if r.kind == INSTANCE => r,
        Some(r) if r.kind == RECYCLED && recycled(ctx).iter().any(|x| x.id == r.id) => r,
        _ => return Err(ApiError::not_found("InstanceId", id)),
    };
    if instance.attr_str("ChargeType") != "PrePaid" {
        return Err(not_subscription());
    }
    let from = instance.attr_i64("EndTime").unwrap_or(ctx.now_ms).max(ctx.now_ms);
    let end = add_months(from, months);
    instance.set("EndTime", end);
    if instance.kind == RECYCLED {
        instance.kind = INSTANCE.to_owned();
        instance.status = "Normal".to_owned();
        instance.attrs.remove("ReleasedAt");
    }
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.put(instance);
    Ok(json!({ "EndTime": iso8601(end), "OrderId": order_id() }))
}

/// Turns automatic renewal on for `Duration` months (1 to 12) or off, for up to 30 subscription
/// instances at once.
pub(super) fn modify_auto_renewal(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let ids = instance_ids(p)?;
    let on = p.bool("AutoRenew")?.unwrap_or(false);
    let duration = if on {
        let months = p.int("Duration")?.ok_or_else(|| ApiError::missing_parameter("Duration"))?;
        if !(1..=12).contains(&months) {
            return Err(ApiError::invalid_parameter("Duration", "valid values: 1 to 12 (months)"));
        }
        months
    } else {
        0
    };
    for id in &ids {
        let mut instance = subscription(ctx, id)?;
        instance.set("AutoRenew", on);
        instance.set("AutoRenewDuration", duration);
        ctx.reference(INSTANCE_TYPE, &instance.id);
        ctx.put(instance);
    }
    Ok(json!({}))
}

pub(super) fn describe_auto_renewal(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let ids = match p.get("DBInstanceId") {
        Some(_) => Some(instance_ids(p)?),
        None => None,
    };
    let items: Vec<Value> = ctx
        .list(INSTANCE)
        .into_iter()
        .filter(|i| i.attr_str("ChargeType") == "PrePaid")
        .filter(|i| ids.as_ref().is_none_or(|ids| ids.contains(&i.id)))
        .map(|i| {
            let on = i.attrs.get("AutoRenew").and_then(Value::as_bool).unwrap_or(false);
            json!({
                "DBInstanceId": i.id,
                "RegionId": i.region,
                "AutoRenew": on.to_string(),
                "Duration": i.attr_i64("AutoRenewDuration").unwrap_or(0),
            })
        })
        .collect();
    let (page, number, size, total) = paginate(items, p, 100)?;
    Ok(json!({
        "PageNumber": number,
        "PageRecordCount": page.len(),
        "TotalRecordCount": total,
        "PageSize": size,
        "Items": { "Item": page },
    }))
}

#[cfg(test)]
mod tests {
    use super::super::PRODUCT;
    use crate::products::testkit::TestConsole;

    #[test]
    fn subscription_instances_renew_now_or_automatically() {
        let h = TestConsole::new();
        let (vpc_id, vsw_id) = h.network();
        let base = [
            ("InstanceClass", "redis.master.small.default"),
            ("VpcId", vpc_id.as_str()),
            ("VSwitchId", vsw_id.as_str()),
        ];
        let prepaid = h.ok(
            &PRODUCT,
            "CreateInstance",
            &[&base[..], &[("ChargeType", "PrePaid"), ("Period", "1")][..]].concat(),
        );
        let prepaid = prepaid["InstanceId"].as_str().unwrap().to_owned();
        let postpaid = h.ok(&PRODUCT, "CreateInstance", &base);
        let postpaid = postpaid["InstanceId"].as_str().unwrap().to_owned();

        let e = h.err(
            &PRODUCT,
            "ModifyInstanceAutoRenewalAttribute",
            &[("DBInstanceId", &prepaid), ("AutoRenew", "true")],
        );
        assert_eq!(e.code, "MissingParameter");
        let e = h.err(
            &PRODUCT,
            "ModifyInstanceAutoRenewalAttribute",
            &[("DBInstanceId", &prepaid), ("AutoRenew", "true"), ("Duration", "13")],
        );
        assert!(e.message.contains("\"Duration\""), "{e}");
        let e = h.err(
            &PRODUCT,
            "ModifyInstanceAutoRenewalAttribute",
            &[("DBInstanceId", &postpaid), ("AutoRenew", "true"), ("Duration", "3")],
        );
        assert_eq!(e.code, "OperationDenied");
        h.ok(
            &PRODUCT,
            "ModifyInstanceAutoRenewalAttribute",
            &[("DBInstanceId", &prepaid), ("AutoRenew", "true"), ("Duration", "3")],
        );
        let event = h.last_event("ModifyInstanceAutoRenewalAttribute");
        assert_eq!(event.referenced_resources["ACS::KVSTORE::Instance"], [prepaid.as_str()]);
        let items = h.ok(&PRODUCT, "DescribeInstanceAutoRenewalAttribute", &[]);
        assert_eq!(items["Items"]["Item"][0]["AutoRenew"], "true");
        assert_eq!(items["Items"]["Item"][0]["Duration"], 3);
        h.ok(
            &PRODUCT,
            "ModifyInstanceAutoRenewalAttribute",
            &[("DBInstanceId", &prepaid), ("AutoRenew", "false")],
        );
        let items = h.ok(&PRODUCT, "DescribeInstanceAutoRenewalAttribute", &[("DBInstanceId", &prepaid)]);
        assert_eq!(items["Items"]["Item"][0]["AutoRenew"], "false");

        let renewed = h.ok(&PRODUCT, "RenewInstance", &[("InstanceId", &prepaid), ("Period", "2")]);
        assert!(renewed["EndTime"].as_str().is_some_and(|t| t.ends_with('Z')), "{renewed}");
        let e = h.err(&PRODUCT, "RenewInstance", &[("InstanceId", &prepaid), ("Period", "10")]);
        assert!(e.message.contains("\"Period\""), "{e}");
    }
}
