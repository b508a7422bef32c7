//! The account's subscription instances as Expenses and Costs renews them: listed with their
//! renewal status (`QueryAvailableInstances`) and set to auto, manual or no renewal (`SetRenewal`),
//! over the same renewal settings the products' own consoles change.

use serde_json::{Value, json};

use crate::catalog::OpCtx;
use crate::clock::iso8601;
use crate::error::ApiError;
use crate::model::Resource;
use crate::params::Params;

/// How one product keeps its subscription instances: the resource kind, the billing attribute and
/// its subscription value, the expiry attribute, the auto-renewal attributes (on/off and months),
/// and the names Billing and ActionTrail give it.
struct Source {
    kind: &'static str,
    product_code: &'static str,
    charge_attr: &'static str,
    prepaid: &'static str,
    end_attr: &'static str,
    duration_attr: &'static str,
    resource_type: &'static str,
}

/// The products whose subscription instances the emulator sells: Tair (`redisa` on the
/// international site) and RDS.
const SOURCES: &[Source] = &[
    Source {
        kind: crate::products::kvstore::INSTANCE,
        product_code: "redisa",
        charge_attr: "ChargeType",
        prepaid: "PrePaid",
        end_attr: "EndTime",
        duration_attr: "AutoRenewDuration",
        resource_type: "ACS::KVSTORE::Instance",
    },
    Source {
        kind: crate::products::rds::INSTANCE,
        product_code: "rds",
        charge_attr: "PayType",
        prepaid: "Prepaid",
        end_attr: "ExpireTime",
        duration_attr: "RenewDuration",
        resource_type: "ACS::RDS::DBInstance",
    },
];

/// The renewal statuses of the API (`AutoRenewal`, `ManualRenewal`, `NotRenewal`).
const STATUSES: &[&str] = &["AutoRenewal", "ManualRenewal", "NotRenewal"];
/// Auto-renewal periods `SetRenewal` takes, by unit: months, years.
const MONTHS: &[i64] = &[1, 2, 3, 6, 12];
const YEARS: &[i64] = &[1, 2, 3];

/// Where the renewal status is kept beside the product's own `AutoRenew` flag: only "no renewal"
/// needs it, since the flag tells auto from manual.
const NOT_RENEWAL: &str = "RenewalStatusBss";

fn renew_status(r: &Resource) -> &'static str {
    if r.attrs.get("AutoRenew").and_then(Value::as_bool).unwrap_or(false) {
        "AutoRenewal"
    } else if r.attr_str(NOT_RENEWAL) == "NotRenewal" {
        "NotRenewal"
    } else {
        "ManualRenewal"
    }
}

/// Every subscription instance of the account, in every region, with its source.
fn subscriptions(ctx: &OpCtx<'_>) -> Vec<(&'static Source, Resource)> {
    SOURCES
        .iter()
        .flat_map(|source| {
            ctx.list_all(source.kind)
                .into_iter()
                .filter(|r| r.attr_str(source.charge_attr) == source.prepaid)
                .map(move |r| (source, r))
        })
        .collect()
}

fn row(source: &Source, r: &Resource) -> Value {
    let months = r.attr_i64(source.duration_attr).unwrap_or(0);
    let (duration, unit) = if months > 0 && months % 12 == 0 {
        (months / 12, "Y")
    } else {
        (months, "M")
    };
    json!({
        "InstanceID": r.id,
        "ProductCode": source.product_code,
        "ProductType": "",
        "Region": r.region,
        "SubscriptionType": "Subscription",
        "Status": "Normal",
        "RenewStatus": renew_status(r),
        "RenewalDuration": duration,
        "RenewalDurationUnit": unit,
        "CreateTime": iso8601(r.created_ms),
        "EndTime": r.attr_i64(source.end_attr).map(iso8601).unwrap_or_default(),
    })
}

/// Lists the subscription instances, narrowed by product, region, renewal status and ids, a page
/// (`PageNum`, `PageSize` up to 300) at a time.
pub(super) fn query_available_instances(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let ids = p.id_list("InstanceIDs", 100)?;
    let status = p.one_of("RenewStatus", STATUSES)?;
    let product = p.get("ProductCode");
    let region = p.get("Region");
    let page_num = p.int_in("PageNum", 1..=i64::from(u32::MAX), 1)?;
    let page_size = p.int_in("PageSize", 1..=300, 20)?;
    let items: Vec<Value> = subscriptions(ctx)
        .into_iter()
        .filter(|(source, _)| product.is_none_or(|c| c == source.product_code))
        .filter(|(_, r)| region.is_none_or(|g| g == r.region))
        .filter(|(_, r)| ids.as_ref().is_none_or(|ids| ids.contains(&r.id)))
        .filter(|(_, r)| status.is_none_or(|s| s == renew_status(r)))
        .map(|(source, r)| row(source, &r))
        .collect();
    let total = items.len() as i64;
    let start = ((page_num - 1) * page_size).min(total) as usize;
    let page: Vec<Value> = items.into_iter().skip(start).take(page_size as usize).collect();
    Ok(json!({
        "Code": "Success",
        "Message": "Successful!",
        "Success": true,
        "Data": {
            "PageNum": page_num,
            "PageSize": page_size,
            "TotalCount": total,
            "InstanceList": page,
        },
    }))
}

/// Sets up to 100 subscription instances of one product to auto renewal (with `RenewalPeriod` and
/// `RenewalPeriodUnit`), manual renewal or no renewal.
pub(super) fn set_renewal(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let product = p.required("ProductCode")?;
    let status = p
        .one_of("RenewalStatus", STATUSES)?
        .ok_or_else(|| ApiError::missing_parameter("RenewalStatus"))?;
    let ids = p.id_list("InstanceIDs", 100)?.ok_or_else(|| ApiError::missing_parameter("InstanceIDs"))?;
    if ids.is_empty() {
        return Err(ApiError::missing_parameter("InstanceIDs"));
    }
    let months = if status == "AutoRenewal" {
        let period = p
            .int("RenewalPeriod")?
            .ok_or_else(|| ApiError::missing_parameter("RenewalPeriod"))?;
        let unit = p
            .one_of("RenewalPeriodUnit", &["M", "Y"])?
            .ok_or_else(|| ApiError::missing_parameter("RenewalPeriodUnit"))?;
        let (allowed, factor) = if unit == "Y" { (YEARS, 12) } else { (MONTHS, 1) };
        if !allowed.contains(&period) {
            return Err(ApiError::invalid_parameter(
                "RenewalPeriod",
                "valid values: 1, 2, 3, 6 and 12 months, or 1 to 3 years",
            ));
        }
        period * factor
    } else {
        0
    };
    let source = SOURCES
        .iter()
        .find(|s| s.product_code == product)
        .ok_or_else(|| ApiError::invalid_parameter("ProductCode", format!("no subscription product {product}")))?;
    for id in &ids {
        let mut instance = ctx
            .get(id)
            .filter(|r| r.kind == source.kind && r.attr_str(source.charge_attr) == source.prepaid)
            .ok_or_else(|| ApiError::not_found("InstanceIDs", id))?;
        instance.set("AutoRenew", status == "AutoRenewal");
        instance.set(source.duration_attr, months);
        if status == "NotRenewal" {
            instance.set(NOT_RENEWAL, "NotRenewal");
        } else {
            instance.attrs.remove(NOT_RENEWAL);
        }
        ctx.reference(source.resource_type, &instance.id);
        ctx.put(instance);
    }
    Ok(json!({ "Code": "Success", "Message": "Successful!", "Success": true }))
}

#[cfg(test)]
mod tests {
    use super::super::PRODUCT;
    use crate::products::kvstore::PRODUCT as KVSTORE;
    use crate::products::testkit::TestConsole;

    fn tair(h: &TestConsole, charge: &[(&str, &str)]) -> String {
        let (vpc_id, vsw_id) = h.network();
        let base = [
            ("InstanceClass", "redis.master.small.default"),
            ("VpcId", vpc_id.as_str()),
            ("VSwitchId", vsw_id.as_str()),
        ];
        let made = h.ok(&KVSTORE, "CreateInstance", &[&base[..], charge].concat());
        made["InstanceId"].as_str().unwrap().to_owned()
    }

    #[test]
    fn subscription_instances_are_listed_and_set_to_auto_manual_or_no_renewal() {
        let h = TestConsole::new();
        let prepaid = tair(&h, &[("ChargeType", "PrePaid"), ("Period", "1")]);
        tair(&h, &[]);

        let all = h.ok(&PRODUCT, "QueryAvailableInstances", &[]);
        assert_eq!(all["Data"]["TotalCount"], 1, "{all}");
        let item = &all["Data"]["InstanceList"][0];
        assert_eq!(item["InstanceID"], prepaid.as_str());
        assert_eq!(item["ProductCode"], "redisa");
        assert_eq!(item["RenewStatus"], "ManualRenewal");

        // Turned on in the Tair console, auto renewal shows here.
        h.ok(
            &KVSTORE,
            "ModifyInstanceAutoRenewalAttribute",
            &[("DBInstanceId", &prepaid), ("AutoRenew", "true"), ("Duration", "3")],
        );
        let auto = h.ok(&PRODUCT, "QueryAvailableInstances", &[("RenewStatus", "AutoRenewal")]);
        assert_eq!(auto["Data"]["InstanceList"][0]["RenewalDuration"], 3, "{auto}");

        let set = |status: &str, extra: &[(&str, &str)]| {
            let base = [("ProductCode", "redisa"), ("InstanceIDs", prepaid.as_str()), ("RenewalStatus", status)];
            h.ok(&PRODUCT, "SetRenewal", &[&base[..], extra].concat())
        };
        set("AutoRenewal", &[("RenewalPeriod", "1"), ("RenewalPeriodUnit", "Y")]);
        let event = h.last_event("SetRenewal");
        assert_eq!(event.referenced_resources["ACS::KVSTORE::Instance"], [prepaid.as_str()]);
        let found = h.ok(&PRODUCT, "QueryAvailableInstances", &[("InstanceIDs", &prepaid)]);
        assert_eq!(found["Data"]["InstanceList"][0]["RenewalDuration"], 1);
        assert_eq!(found["Data"]["InstanceList"][0]["RenewalDurationUnit"], "Y");
        let own = h.ok(&KVSTORE, "DescribeInstanceAutoRenewalAttribute", &[("DBInstanceId", &prepaid)]);
        assert_eq!(own["Items"]["Item"][0]["Duration"], 12, "{own}");

        set("NotRenewal", &[]);
        let none = h.ok(&PRODUCT, "QueryAvailableInstances", &[("RenewStatus", "NotRenewal")]);
        assert_eq!(none["Data"]["TotalCount"], 1);
        set("ManualRenewal", &[]);
        let manual = h.ok(&PRODUCT, "QueryAvailableInstances", &[("RenewStatus", "ManualRenewal")]);
        assert_eq!(manual["Data"]["TotalCount"], 1);
        let own = h.ok(&KVSTORE, "DescribeInstanceAutoRenewalAttribute", &[("DBInstanceId", &prepaid)]);
        assert_eq!(own["Items"]["Item"][0]["AutoRenew"], "false");
    }

    #[test]
    fn bad_renewal_settings_are_refused() {
        let h = TestConsole::new();
        let prepaid = tair(&h, &[("ChargeType", "PrePaid"), ("Period", "1")]);
        let postpaid = tair(&h, &[]);
        let auto = |id: &str, extra: &[(&str, &str)]| {
            let base = [("ProductCode", "redisa"), ("RenewalStatus", "AutoRenewal"), ("InstanceIDs", id)];
            h.err(&PRODUCT, "SetRenewal", &[&base[..], extra].concat())
        };
        assert_eq!(auto(&prepaid, &[]).code, "MissingParameter");
        let e = auto(&prepaid, &[("RenewalPeriod", "5"), ("RenewalPeriodUnit", "M")]);
        assert!(e.message.contains("RenewalPeriod"), "{e}");
        let e = auto(&postpaid, &[("RenewalPeriod", "1"), ("RenewalPeriodUnit", "M")]);
        assert!(e.message.contains(postpaid.as_str()), "{e}");
        let e = h.err(
            &PRODUCT,
            "SetRenewal",
            &[("ProductCode", "redisa"), ("RenewalStatus", "Sometimes"), ("InstanceIDs", &prepaid)],
        );
        assert!(e.message.contains("RenewalStatus"), "{e}");
        let e = h.err(&PRODUCT, "QueryAvailableInstances", &[("PageSize", "301")]);
        assert!(e.message.contains("PageSize"), "{e}");
    }
}
