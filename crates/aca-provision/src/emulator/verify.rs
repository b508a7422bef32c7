//! C_verify: every created resource is read back through the API and every key attribute
//! compared; all failures are collected, each naming resource, attribute, expected and found.

use std::collections::BTreeMap;

use serde_json::Value;

use super::EmulatorApplier;
use super::types::{Attrs, resource_type, scalar};
use crate::applier::{Meta, VerifyReport};
use crate::error::{ProvisionError, Result, VerifyFailure};
use crate::state::{ProvisionState, ResourceRecord};

/// A key attribute's value as text; lists hold the value when one element equals it.
fn holds(found: &Value, expected: &str) -> bool {
    match found {
        Value::Array(items) => items.iter().any(|item| holds(item, expected)),
        other => scalar(other).is_some_and(|text| text == expected),
    }
}

fn shown(value: &Value) -> String {
    scalar(value).unwrap_or_else(|| value.to_string())
}

impl EmulatorApplier {
    /// Each created resource read back; those the API no longer knows.
    pub(super) async fn gone_from(&self, state: &ProvisionState) -> Result<Vec<String>> {
        let mut gone = Vec::new();
        for record in state.created() {
            let Some(kind) = resource_type(&record.kind) else {
                continue;
            };
            let read = kind.read(self.cx(&record.region), &record.id, &record.attributes).await;
            if read
                .map_err(|e| ProvisionError::Verify {
                    failures: vec![VerifyFailure::ReadFailed {
                        resource: record.address.clone(),
                        error: e.to_string(),
                    }],
                })?
                .is_none()
            {
                gone.push(record.address.clone());
            }
        }
        Ok(gone)
    }

    pub(super) async fn verify_state(&self, meta: &Meta, state: &ProvisionState) -> Result<VerifyReport> {
        let mut failures = Vec::new();
        let mut live: BTreeMap<String, Attrs> = BTreeMap::new();
        let mut resources = Vec::new();
        for record in state.created() {
            let Some(kind) = resource_type(&record.kind) else {
                failures.push(VerifyFailure::ReadFailed {
                    resource: record.address.clone(),
                    error: format!("unknown resource type {}", record.kind),
                });
                continue;
            };
            match kind.read(self.cx(&record.region), &record.id, &record.attributes).await {
                Ok(Some(attrs)) => {
                    resources.push(record.address.clone());
                    live.insert(record.address.clone(), attrs);
                }
                Ok(None) => failures.push(VerifyFailure::Missing {
                    resource: record.address.clone(),
                    id: record.id.clone(),
                }),
                Err(e) => failures.push(VerifyFailure::ReadFailed {
                    resource: record.address.clone(),
                    error: e.to_string(),
                }),
            }
        }
        let mut checked = Vec::new();
        for key in &meta.key_attributes {
            let records: Vec<&ResourceRecord> = state
                .created()
                .filter(|r| r.address == key.resource || r.block_address() == key.resource)
                .collect();
            if records.is_empty() {
                failures.push(VerifyFailure::NotInConfiguration {
                    resource: key.resource.clone(),
                });
            }
            for record in records {
                let Some(attrs) = live.get(&record.address) else {
                    continue;
                };
                let found = attrs
                    .get(&key.attribute)
                    .or_else(|| record.attributes.get(&key.attribute));
                match found {
                    None | Some(Value::Null) => failures.push(VerifyFailure::NoSuchAttribute {
                        resource: record.address.clone(),
                        attribute: key.attribute.clone(),
                        expected: key.value.clone(),
                    }),
                    Some(value) if holds(value, &key.value) => {
                        checked.push((record.address.clone(), key.attribute.clone(), key.value.clone()));
                    }
                    Some(value) => failures.push(VerifyFailure::Mismatch {
                        resource: record.address.clone(),
                        attribute: key.attribute.clone(),
                        expected: key.value.clone(),
                        found: shown(value),
                    }),
                }
            }
        }
        if failures.is_empty() {
            Ok(VerifyReport { resources, checked })
        } else {
            Err(ProvisionError::Verify { failures })
        }
    }
}
