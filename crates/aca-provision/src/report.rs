//! What provisioning tells the agent and the success rules: bindings (`vpc_id`, `vpc_name`,
//! `suffix`, …) and the structured resource report, with its short text rendering for the prompt.

use std::collections::BTreeMap;

use aca_core::KeyAttribute;
use serde::{Deserialize, Serialize};

use crate::state::{Done, ProvisionState, ResourceRecord};

/// The attribute names that hold a resource's name, in order of preference, across types.
const NAME_ATTRIBUTES: &[&str] = &[
    "vpc_name",
    "vswitch_name",
    "security_group_name",
    "instance_name",
    "bucket",
    "user_name",
    "group_name",
    "role_name",
    "policy_name",
    "load_balancer_name",
    "db_instance_name",
    "account_name",
    "key_pair_name",
    "disk_name",
    "address_name",
    "nat_gateway_name",
    "domain_name",
    "project_name",
    "logstore_name",
    "trail_name",
    "alarm_contact_name",
    "alarm_contact_group_name",
    "alias_name",
    "name",
];

/// The name of a resource, whatever its type calls the argument: the type's own name arguments
/// first, then the names other types use.
pub fn resource_name(record: &ResourceRecord) -> Option<String> {
    let own = crate::emulator::types::resource_type(&record.kind)
        .map(|t| t.name_arguments())
        .unwrap_or_default();
    own.iter()
        .chain(NAME_ATTRIBUTES)
        .find_map(|name| record.attribute(name).filter(|v| !v.is_empty()))
}

/// One resource as the agent's prompt and the report show it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportEntry {
    pub address: String,
    pub kind: String,
    pub product: String,
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub region: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// The META's key attributes of this resource, with the values they have.
    pub key_attributes: BTreeMap<String, String>,
    pub done: Done,
}

/// The structured resource report of one provisioning.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResourceReport {
    pub description: String,
    pub region: String,
    pub suffix: String,
    pub resources: Vec<ReportEntry>,
}

impl ResourceReport {
    pub fn new(description: &str, state: &ProvisionState, key_attributes: &[KeyAttribute]) -> Self {
        let resources = state
            .created()
            .map(|record| {
                let key_attributes = key_attributes
                    .iter()
                    .filter(|k| k.resource == record.address || k.resource == record.block_address())
                    .map(|k| {
                        (
                            k.attribute.clone(),
                            record.attribute(&k.attribute).unwrap_or_else(|| k.value.clone()),
                        )
                    })
                    .collect();
                ReportEntry {
                    address: record.address.clone(),
                    kind: record.kind.clone(),
                    product: record.product.clone(),
                    id: record.id.clone(),
                    name: resource_name(record),
                    region: record.region.clone(),
                    zone: ["zone_id", "availability_zone", "master_zone_id"]
                        .iter()
                        .find_map(|z| record.attribute(z).filter(|v| !v.is_empty())),
                    key_attributes,
                    done: record.done,
                }
            })
            .collect();
        Self {
            description: description.to_owned(),
            region: state.region.clone(),
            suffix: state.suffix.clone(),
            resources,
        }
    }

    /// The short text block the agent's prompt carries.
    pub fn to_text(&self) -> String {
        let mut out = String::from("Provisioned resources");
        if !self.description.is_empty() {
            out.push_str(&format!(" ({})", self.description.trim_end_matches('.')));
        }
        out.push_str(&format!(":\nregion {}, name suffix {}\n", self.region, self.suffix));
        for entry in &self.resources {
            out.push_str(&format!("- {} {}: id {}", entry.product, entry.kind, entry.id));
            if let Some(name) = &entry.name {
                out.push_str(&format!(", name {name}"));
            }
            if let Some(zone) = &entry.zone {
                out.push_str(&format!(", zone {zone}"));
            }
            for (attribute, value) in &entry.key_attributes {
                out.push_str(&format!(", {attribute} {value}"));
            }
            out.push_str(match entry.done {
                Done::Created => " (created for this task)",
                Done::Read => " (existing)",
            });
            out.push('\n');
        }
        out
    }
}

/// Bindings for the agent and the success rules: `NAME_id` and `NAME_name` of every created
/// resource (`NAME_INDEX_id` too for counted blocks), `suffix`, `region`, and the outputs.
pub fn bindings(state: &ProvisionState) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    out.insert("suffix".to_owned(), state.suffix.clone());
    out.insert("region".to_owned(), state.region.clone());
    for record in state.created() {
        let prefixes: Vec<String> = match record.index {
            None => vec![record.name.clone()],
            Some(0) => vec![record.name.clone(), format!("{}_0", record.name)],
            Some(i) => vec![format!("{}_{i}", record.name)],
        };
        for prefix in prefixes {
            out.insert(format!("{prefix}_id"), record.id.clone());
            if let Some(name) = resource_name(record) {
                out.insert(format!("{prefix}_name"), name);
            }
        }
    }
    for (name, value) in &state.outputs {
        let text = match value {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        out.entry(name.clone()).or_insert(text);
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn record(kind: &str, name: &str, id: &str, attributes: serde_json::Value) -> ResourceRecord {
        ResourceRecord {
            address: format!("{kind}.{name}"),
            kind: kind.into(),
            name: name.into(),
            index: None,
            id: id.into(),
            region: "cn-hangzhou".into(),
            product: "VPC".into(),
            attributes: attributes.as_object().cloned().unwrap_or_default(),
            done: Done::Created,
        }
    }

    fn state() -> ProvisionState {
        ProvisionState {
            applier: "emulator".into(),
            source: "t.tf".into(),
            endpoint: String::new(),
            region: "cn-hangzhou".into(),
            suffix: "q7x2k9".into(),
            resources: vec![
                record("alicloud_vpc", "main", "vpc-1", json!({ "vpc_name": "doc-q7x2k9" })),
                record(
                    "alicloud_oss_bucket",
                    "logs",
                    "logs-q7x2k9",
                    json!({ "bucket": "logs-q7x2k9", "acl": "private" }),
                ),
                record(
                    "alicloud_vswitch",
                    "a",
                    "vsw-1",
                    json!({ "vswitch_name": "", "zone_id": "cn-hangzhou-h" }),
                ),
            ],
            outputs: serde_json::Map::new(),
            workdir: None,
        }
    }

    #[test]
    fn bindings_name_every_resource_whatever_its_name_argument() {
        let b = bindings(&state());
        assert_eq!(b["main_id"], "vpc-1");
        assert_eq!(b["main_name"], "doc-q7x2k9");
        assert_eq!(b["logs_name"], "logs-q7x2k9");
        assert_eq!(b["a_id"], "vsw-1");
        assert!(!b.contains_key("a_name"), "an empty name is no name");
        assert_eq!(b["suffix"], "q7x2k9");
    }

    #[test]
    fn the_report_shows_ids_names_zones_and_key_attributes() {
        let keys = [KeyAttribute {
            resource: "alicloud_oss_bucket.logs".into(),
            attribute: "acl".into(),
            value: "private".into(),
        }];
        let report = ResourceReport::new("A bucket.", &state(), &keys);
        let text = report.to_text();
        assert!(text.starts_with("Provisioned resources (A bucket):\nregion cn-hangzhou, name suffix q7x2k9\n"));
        assert!(
            text.contains("alicloud_oss_bucket: id logs-q7x2k9, name logs-q7x2k9, acl private"),
            "{text}"
        );
        assert!(
            text.contains("alicloud_vswitch: id vsw-1, zone cn-hangzhou-h"),
            "{text}"
        );
    }
}
