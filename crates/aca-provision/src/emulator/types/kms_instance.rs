//! `alicloud_kms_instance`: a KMS instance, bought as the provider buys it (BssOpenApi
//! `CreateInstance` with `ProductCode=kms`), enabled in its VPC with KMS's `ConnectKmsInstance`, read
//! with `GetKmsInstance` and, pay-as-you-go, released with `ReleaseKmsInstance`.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{Arg, Attrs, Cx, Fut, ResourceType, arg, as_list, joined, local, required, scalar};
use crate::emulator::client::CallError;

pub static TYPES: &[&dyn ResourceType] = &[&KmsInstance];

pub struct KmsInstance;

const ARGS: &[Arg] = &[
    arg("product_version", "ProductVersion"),
    required("vpc_id", "VpcId"),
    joined("zone_ids", "ZoneIds"),
    joined("vswitch_ids", "VSwitchIds"),
    arg("vpc_num", "VpcNum"),
    arg("key_num", "KeyNum"),
    arg("secret_num", "SecretNum"),
    arg("spec", "Spec"),
    arg("payment_type", "SubscriptionType"),
    local("period"),
    local("renew_status"),
    local("renew_period"),
    local("log"),
    local("log_storage"),
    local("force_delete_without_backup"),
];

fn version(code: &str, action: &str) -> Result<&'static str, CallError> {
    aca_console::products::by_code(code)
        .map(|p| p.version)
        .ok_or_else(|| CallError::Protocol {
            action: action.into(),
            message: format!("the emulator serves no {code} product"),
        })
}

fn text(args: &Attrs, name: &str) -> Option<String> {
    args.get(name).and_then(scalar)
}

impl ResourceType for KmsInstance {
    fn name(&self) -> &'static str {
        "alicloud_kms_instance"
    }

    fn product(&self) -> &'static str {
        "KMS"
    }

    fn operation(&self) -> &'static str {
        "CreateInstance"
    }

    fn arguments(&self) -> &'static [Arg] {
        ARGS
    }

    fn name_arguments(&self) -> &'static [&'static str] {
        &[]
    }

    fn computed(&self) -> Vec<&'static str> {
        vec!["status", "instance_name", "create_time"]
    }

    fn ready(&self, _args: &Attrs) -> Option<(String, Vec<String>)> {
        Some(("status".into(), vec!["Connected".into()]))
    }

    fn create<'a>(&'a self, cx: Cx<'a>, args: &'a Attrs) -> Fut<'a, String> {
        Box::pin(async move {
            let payment = text(args, "payment_type").unwrap_or_else(|| "Subscription".into());
            let product_type = if payment == "PayAsYouGo" {
                "kms_ppi_public_cn"
            } else {
                "kms_ddi_public_cn"
            };
            let mut params = BTreeMap::from([
                ("ProductCode".to_owned(), "kms".to_owned()),
                ("ProductType".to_owned(), product_type.to_owned()),
                ("SubscriptionType".to_owned(), payment),
            ]);
            let mut n = 0;
            let mut parameter = |code: &str, value: String| {
                n += 1;
                params.insert(format!("Parameter.{n}.Code"), code.to_owned());
                params.insert(format!("Parameter.{n}.Value"), value);
            };
            parameter("Region", cx.region.to_owned());
            for (name, code) in [
                ("product_version", "ProductVersion"),
                ("spec", "Spec"),
                ("key_num", "KeyNum"),
                ("secret_num", "SecretNum"),
                ("vpc_num", "VpcNum"),
            ] {
                if let Some(value) = text(args, name) {
                    parameter(code, value);
                }
            }
            let body = cx
                .client
                .rpc(version("bssopenapi", "CreateInstance")?, "CreateInstance", cx.region, &params)
                .await?;
            let id = body
                .pointer("/Data/InstanceId")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| CallError::Protocol {
                    action: "CreateInstance".into(),
                    message: "the response holds no Data.InstanceId".into(),
                })?;
            let list = |name: &str| args.get(name).map(|v| as_list(v).join(",")).unwrap_or_default();
            let connect = BTreeMap::from([
                ("KmsInstanceId".to_owned(), id.clone()),
                ("VpcId".to_owned(), text(args, "vpc_id").unwrap_or_default()),
                ("ZoneIds".to_owned(), list("zone_ids")),
                ("VSwitchIds".to_owned(), list("vswitch_ids")),
                ("KMProvider".to_owned(), "Aliyun".to_owned()),
            ]);
            cx.client
                .rpc(version("kms", "ConnectKmsInstance")?, "ConnectKmsInstance", cx.region, &connect)
                .await?;
            Ok(id)
        })
    }

    fn read<'a>(&'a self, cx: Cx<'a>, id: &'a str, _attrs: &'a Attrs) -> Fut<'a, Option<Attrs>> {
        Box::pin(async move {
            let params = BTreeMap::from([("KmsInstanceId".to_owned(), id.to_owned())]);
            let body = match cx
                .client
                .rpc(version("kms", "GetKmsInstance")?, "GetKmsInstance", cx.region, &params)
                .await
            {
                Ok(body) => body,
                Err(CallError::Api(e)) if e.is_not_found() => return Ok(None),
                Err(e) => return Err(e),
            };
            let instance = body.get("KmsInstance").cloned().unwrap_or(Value::Null);
            let field = |k: &str| instance.get(k).cloned().unwrap_or(Value::Null);
            let mut out = Attrs::new();
            out.insert("status".into(), field("Status"));
            out.insert("instance_name".into(), field("InstanceName"));
            out.insert("create_time".into(), field("CreateTime"));
            out.insert("vpc_id".into(), field("VpcId"));
            out.insert("product_version".into(), field("ProductVersion"));
            out.insert("payment_type".into(), field("ChargeType"));
            out.insert("spec".into(), field("Spec"));
            out.insert("key_num".into(), field("KeyNum"));
            out.insert("secret_num".into(), field("SecretNum"));
            out.insert("vpc_num".into(), field("VpcNum"));
            Ok(Some(out))
        })
    }

    fn delete<'a>(&'a self, cx: Cx<'a>, id: &'a str, _attrs: &'a Attrs) -> Fut<'a, ()> {
        Box::pin(async move {
            let params = BTreeMap::from([
                ("KmsInstanceId".to_owned(), id.to_owned()),
                ("ForceDeleteWithoutBackup".to_owned(), "true".to_owned()),
            ]);
            cx.client
                .rpc(version("kms", "ReleaseKmsInstance")?, "ReleaseKmsInstance", cx.region, &params)
                .await?;
            Ok(())
        })
    }
}
