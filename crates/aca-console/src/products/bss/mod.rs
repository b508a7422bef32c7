//! Billing (BssOpenApi, API 2017-12-14): the purchase of instances that their product's own API
//! cannot create, and the renewal of subscription instances ([`renewal`]). The emulator sells one
//! such product, Key Management Service instances (`ProductCode=kms`), which the alicloud
//! provider's `alicloud_kms_instance` buys with `CreateInstance` before it enables them with KMS's
//! `ConnectKmsInstance`.

mod renewal;

use serde_json::{Value, json};

use crate::catalog::{OpCtx, Operation, Product};
use crate::error::ApiError;
use crate::model::Resource;
use crate::params::Params;
use crate::products::kms::{INSTANCE, instance_arn};
use crate::products::provisioning::order_id;
use crate::products::regions::region;

pub static PRODUCT: Product = Product {
    code: "bssopenapi",
    name: "Expenses and Costs",
    service_name: "BssOpenApi",
    version: "2017-12-14",
    endpoint: "business.aliyuncs.com",
    console_agent: "usercenter2.console.aliyun.com",
    operations: &[
        Operation::write("CreateInstance", create_instance),
        Operation::read("QueryAvailableInstances", renewal::query_available_instances),
        Operation::write("SetRenewal", renewal::set_renewal),
    ],
};

const INSTANCE_TYPE: &str = "ACS::KMS::Instance";

/// A KMS instance id: `kst-` and 24 lower-case letters and digits.
fn kms_instance_id() -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::rng();
    let tail: String = (0..24)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect();
    format!("kst-{tail}")
}

fn create_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let product = p.required("ProductCode")?;
    if product != "kms" {
        return Err(ApiError::invalid_parameter(
            "ProductCode",
            format!("the product {product} cannot be bought through CreateInstance here"),
        ));
    }
    let charge = p.one_of("SubscriptionType", &["Subscription", "PayAsYouGo"])?;
    let charge = charge.ok_or_else(|| ApiError::missing_parameter("SubscriptionType"))?;
    let parameters: Vec<(String, String)> = p
        .object_list("Parameter")
        .into_iter()
        .filter_map(|item| Some((item.get("Code")?.clone(), item.get("Value").cloned().unwrap_or_default())))
        .collect();
    let parameter = |code: &str| parameters.iter().find(|(c, _)| c == code).map(|(_, v)| v.clone());
    let region_id = parameter("Region").unwrap_or_else(|| ctx.region.clone());
    region(&region_id)?;
    let number = |code: &str, default: i64| -> Result<i64, ApiError> {
        match parameter(code) {
            None => Ok(default),
            Some(v) => v
                .parse::<i64>()
                .map_err(|_| ApiError::invalid_parameter("Parameter", format!("{code} must be a number"))),
        }
    };
    let id = kms_instance_id();
    let instance = Resource::new(INSTANCE, id.clone(), &region_id, &id, "Uninitialized", ctx.now_ms)
        .with("Arn", instance_arn(&ctx.account().id, &region_id, &id))
        .with("ChargeType", charge)
        .with("ProductVersion", parameter("ProductVersion").unwrap_or_else(|| "3".to_owned()))
        .with("Spec", number("Spec", 1000)?)
        .with("KeyNum", number("KeyNum", 1000)?)
        .with("SecretNum", number("SecretNum", 100)?)
        .with("VpcNum", number("VpcNum", 1)?);
    ctx.reference(INSTANCE_TYPE, &id);
    ctx.put(instance);
    Ok(json!({
        "Code": "Success",
        "Message": "Successful!",
        "Success": true,
        "Data": { "OrderId": order_id(), "InstanceId": id },
    }))
}
