//! Needs turned into a Resource META: the HCL configuration (parents referenced by address, or by
//! value when they already exist), the key attributes, the description; and the META as the
//! `[meta]` table of a task sidecar.

use aca_core::{BillingMethod, KeyAttribute, ResourceMeta};

use super::catalog::{Template, counted_body, template};
use super::rules::{BILLING_ARGUMENTS, Need};
use crate::secret::SECRET_VARIABLES;
use crate::state::ResourceRecord;

/// Why needs could not be written as a configuration.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    #[error("{block} refers to {reference}, which is neither created here nor provisioned already")]
    Dangling { block: String, reference: String },
    #[error("the existing {address} has no attribute {attribute} to refer to")]
    MissingAttribute { address: String, attribute: String },
}

/// Templates whose `status` is only read (checked as a key attribute), never an argument.
const STATUS_READ_ONLY: &[&str] = &["rds"];

/// Writes the configuration that creates `needs` (skipping what `existing` already holds).
/// `None` when everything needed exists already.
pub fn render(needs: &[Need], existing: &[ResourceRecord], region: &str) -> Result<Option<ResourceMeta>, RenderError> {
    let exists = |t: &Template| existing.iter().find(|r| r.kind == t.kind);
    // A resource billed otherwise than a need asks is not the one it needs.
    let billed_as_needed = |n: &Need, r: &ResourceRecord| {
        n.billing.is_none_or(|b| {
            BILLING_ARGUMENTS
                .iter()
                .any(|a| r.attribute(a).as_deref() == Some(b.charge_type()))
        })
    };
    let to_create: Vec<(&Need, &Template)> = needs
        .iter()
        .filter_map(|n| template(n.key).map(|t| (n, t)))
        .filter(|(n, t)| !existing.iter().any(|r| r.kind == t.kind && billed_as_needed(n, r)))
        .collect();
    if to_create.is_empty() {
        return Ok(None);
    }
    let mut hcl = String::from("variable \"suffix\" {\n  type = string\n}\n");
    let mut key_attributes = Vec::new();
    for (need, t) in &to_create {
        let counted = counted_body(t.key).filter(|_| need.count > 1);
        let mut body = match counted {
            Some((_, body)) => format!("  count        = {}\n{body}", need.count),
            None => t.body.to_owned(),
        };
        while let Some(start) = body.find("@{") {
            let end = body[start..].find('}').map_or(body.len(), |e| start + e + 1);
            let reference = body[start + 2..end - 1].to_owned();
            let (key, attribute) = reference.split_once('.').unwrap_or((&reference, "id"));
            let parent = template(key).ok_or_else(|| RenderError::Dangling {
                block: t.address(),
                reference: reference.clone(),
            })?;
            let replacement = if let Some((parent_need, _)) = to_create.iter().find(|(_, c)| c.key == key) {
                // Several of the parent: the first stands for them.
                let first = if parent_need.count > 1 && counted_body(key).is_some() {
                    "[0]"
                } else {
                    ""
                };
                format!("{}{first}.{attribute}", parent.address())
            } else if let Some(record) = exists(parent) {
                let value = if attribute == "id" {
                    Some(record.id.clone())
                } else {
                    record.attribute(attribute)
                };
                let value = value.ok_or_else(|| RenderError::MissingAttribute {
                    address: record.address.clone(),
                    attribute: attribute.to_owned(),
                })?;
                format!("{value:?}")
            } else {
                return Err(RenderError::Dangling {
                    block: t.address(),
                    reference,
                });
            };
            body.replace_range(start..end, &replacement);
        }
        if let Some(billing) = need.billing {
            let (billed, argument) = with_billing(&body, billing);
            body = billed;
            key_attributes.push(KeyAttribute {
                resource: t.address(),
                attribute: argument,
                value: billing.charge_type().into(),
            });
        }
        hcl.push_str(&format!("\nresource \"{}\" \"{}\" {{\n{body}\n", t.kind, t.block));
        if let Some(status) = need.status {
            if !STATUS_READ_ONLY.contains(&t.key) {
                hcl.push_str(&format!("  status = \"{status}\"\n"));
            }
            key_attributes.push(KeyAttribute {
                resource: t.address(),
                attribute: "status".into(),
                value: status.into(),
            });
        }
        hcl.push_str("}\n");
    }
    // A secret the run makes (`var.password`): never a default, never written out.
    for (name, _) in SECRET_VARIABLES {
        if hcl.contains(&format!("var.{name}")) {
            hcl.push_str(&format!(
                "\nvariable \"{name}\" {{\n  type      = string\n  sensitive = true\n  default   = null\n}}\n"
            ));
        }
    }
    Ok(Some(ResourceMeta {
        description: describe(&to_create, region),
        key_attributes,
        terraform: hcl,
    }))
}

/// A template's body billed by `billing`: its billing argument's value replaced, and a subscription
/// bought for the shortest period (one month). Returns the body and the argument's name.
fn with_billing(body: &str, billing: BillingMethod) -> (String, String) {
    let mut argument = String::new();
    let mut lines: Vec<String> = body
        .lines()
        .map(|line| match line.split_once('=') {
            Some((name, _)) if BILLING_ARGUMENTS.contains(&name.trim()) => {
                argument = name.trim().to_owned();
                format!("{name}= \"{}\"", billing.charge_type())
            }
            _ => line.to_owned(),
        })
        .collect();
    if billing == BillingMethod::Subscription && !lines.iter().any(|l| l.trim_start().starts_with("period ")) {
        lines.push("  period = 1".to_owned());
    }
    (lines.join("\n"), argument)
}

fn describe(created: &[(&Need, &Template)], region: &str) -> String {
    let parts: Vec<String> = created
        .iter()
        .map(|(need, t)| match (t.key, need.status) {
            (key, _) if need.count > 1 && counted_body(key).is_some() => {
                let (words, _) = counted_body(key).unwrap_or_default();
                format!("{} {words}", need.count)
            }
            ("instance", Some("Running")) => "a running ECS instance".to_owned(),
            ("instance", Some("Stopped")) => "a stopped ECS instance".to_owned(),
            ("kms_key", Some("Disabled")) => "a disabled KMS key".to_owned(),
            ("trail", Some("Enable")) => "an ActionTrail trail that is logging".to_owned(),
            ("trail", Some("Disable")) => "an ActionTrail trail that is not logging".to_owned(),
            _ => match need.billing {
                // "a Tair (Redis) instance" → "a subscription Tair (Redis) instance".
                Some(billing) => match t.words.split_once(' ') {
                    Some((_, rest)) => format!("a {} {rest}", billing.words()),
                    None => format!("{} ({})", t.words, billing.words()),
                },
                None => t.words.to_owned(),
            },
        })
        .collect();
    let list = match parts.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    };
    let mut sentence = format!("{list} in {region}.");
    if let Some(first) = sentence.get(..1) {
        sentence.replace_range(..1, &first.to_uppercase());
    }
    sentence
}

/// A TOML string: basic, with escapes.
fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_owned()).to_string()
}

/// The META as the `[meta]` table of a `<page>.task.toml`, in the sidecars' own layout (the
/// configuration as a literal multi-line string).
pub fn meta_table(meta: &ResourceMeta) -> String {
    let mut out = format!("[meta]\ndescription = {}\n", toml_string(&meta.description));
    if !meta.key_attributes.is_empty() {
        out.push_str("key_attributes = [\n");
        for k in &meta.key_attributes {
            out.push_str(&format!(
                "  {{ resource = {}, attribute = {}, value = {} }},\n",
                toml_string(&k.resource),
                toml_string(&k.attribute),
                toml_string(&k.value)
            ));
        }
        out.push_str("]\n");
    }
    if meta.terraform.contains("'''") {
        out.push_str(&format!("terraform = {}\n", toml_string(&meta.terraform)));
    } else {
        out.push_str(&format!("terraform = '''\n{}'''\n", meta.terraform));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn need(key: &'static str, status: Option<&'static str>) -> Need {
        Need {
            key,
            status,
            count: 1,
            billing: None,
        }
    }

    #[test]
    fn a_need_for_a_subscription_is_billed_so_and_not_met_by_a_pay_as_you_go_resource() {
        let tair = Need {
            billing: Some(BillingMethod::Subscription),
            ..need("tair", None)
        };
        let meta = render(&[need("vpc", None), need("vswitch", None), tair.clone()], &[], "cn-hangzhou")
            .unwrap()
            .unwrap();
        assert!(meta.terraform.contains("payment_type     = \"PrePaid\""), "{}", meta.terraform);
        assert!(meta.terraform.contains("period = 1"), "{}", meta.terraform);
        assert_eq!(meta.key_attributes[0].attribute, "payment_type");
        assert_eq!(meta.key_attributes[0].value, "PrePaid");
        assert_eq!(meta.description, "A VPC, a vSwitch and a subscription Tair (Redis) instance in cn-hangzhou.");

        let record = |kind: &str, id: &str, payment: &str| ResourceRecord {
            address: format!("{kind}.x"),
            kind: kind.into(),
            name: "x".into(),
            index: None,
            id: id.into(),
            region: "cn-hangzhou".into(),
            product: String::new(),
            attributes: serde_json::json!({ "payment_type": payment }).as_object().cloned().unwrap(),
            done: crate::state::Done::Created,
        };
        let postpaid = [
            record("alicloud_vswitch", "vsw-1", ""),
            record("alicloud_kvstore_instance", "r-1", "PostPaid"),
        ];
        let meta = render(std::slice::from_ref(&tair), &postpaid, "cn-hangzhou").unwrap().unwrap();
        assert!(meta.terraform.contains("vswitch_id       = \"vsw-1\""), "{}", meta.terraform);
        let prepaid = [record("alicloud_kvstore_instance", "r-2", "PrePaid")];
        assert_eq!(render(&[tair], &prepaid, "cn-hangzhou").unwrap(), None);
    }

    #[test]
    fn several_of_a_kind_are_one_counted_block_whose_names_and_ranges_differ() {
        let needs = [
            need("vpc", None),
            Need {
                key: "vswitch",
                status: None,
                count: 2,
                billing: None,
            },
        ];
        let meta = render(&needs, &[], "cn-hangzhou").unwrap().unwrap();
        assert!(meta.terraform.contains("count        = 2\n"), "{}", meta.terraform);
        assert!(
            meta.terraform.contains("${count.index}-${var.suffix}"),
            "{}",
            meta.terraform
        );
        assert_eq!(meta.description, "A VPC and 2 vSwitches in cn-hangzhou.");
    }

    #[test]
    fn parents_created_here_are_referenced_and_existing_ones_are_given_by_value() {
        let needs = [
            need("vpc", None),
            need("vswitch", None),
            need("security_group", None),
            need("instance", Some("Stopped")),
        ];
        let all = render(&needs, &[], "cn-hangzhou").unwrap().unwrap();
        assert!(
            all.terraform
                .contains("vswitch_id           = alicloud_vswitch.vswitch.id")
        );
        assert!(
            all.terraform
                .contains("security_groups      = [alicloud_security_group.security_group.id]")
        );
        assert!(all.terraform.contains("status = \"Stopped\""));
        assert_eq!(all.key_attributes.len(), 1);
        assert_eq!(
            all.description,
            "A VPC, a vSwitch, a security group and a stopped ECS instance in cn-hangzhou."
        );

        let vpc = ResourceRecord {
            address: "alicloud_vpc.vpc".into(),
            kind: "alicloud_vpc".into(),
            name: "vpc".into(),
            index: None,
            id: "vpc-123".into(),
            region: "cn-hangzhou".into(),
            product: "VPC".into(),
            attributes: serde_json::Map::new(),
            done: crate::state::Done::Created,
        };
        let some = render(&needs[..2], std::slice::from_ref(&vpc), "cn-hangzhou")
            .unwrap()
            .unwrap();
        assert!(
            some.terraform.contains("vpc_id       = \"vpc-123\""),
            "{}",
            some.terraform
        );
        assert!(!some.terraform.contains("resource \"alicloud_vpc\""));
        assert_eq!(render(&needs[..1], &[vpc], "cn-hangzhou").unwrap(), None);
    }

    #[test]
    fn the_meta_table_reads_back_as_the_same_meta() {
        let meta = render(&[need("kms_key", Some("Disabled"))], &[], "cn-hangzhou")
            .unwrap()
            .unwrap();
        #[derive(serde::Deserialize)]
        struct Sidecar {
            meta: ResourceMeta,
        }
        let back: Sidecar = toml::from_str(&meta_table(&meta)).unwrap();
        assert_eq!(back.meta, meta);
    }
}
