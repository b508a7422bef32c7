//! What an apply created, kept as JSON so that a later process can verify and destroy it.

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{ProvisionError, Result};

/// What was done to a resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Done {
    Created,
    /// A data source, read and not owned.
    Read,
}

/// One created resource (or read data source).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResourceRecord {
    /// `alicloud_vpc.main`, or `alicloud_vswitch.zone[1]` for a counted block.
    pub address: String,
    /// `alicloud_vpc`.
    pub kind: String,
    /// The block's name label: `main`.
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    pub id: String,
    pub region: String,
    /// The product, as the console names it.
    pub product: String,
    /// Terraform attributes: the arguments as applied, then what the API reported.
    pub attributes: Map<String, Value>,
    pub done: Done,
}

impl ResourceRecord {
    /// The block address without an index: `alicloud_vswitch.zone`.
    pub fn block_address(&self) -> String {
        format!("{}.{}", self.kind, self.name)
    }

    /// A text attribute.
    pub fn attribute(&self, name: &str) -> Option<String> {
        match self.attributes.get(name)? {
            Value::String(s) => Some(s.clone()),
            Value::Null => None,
            other => Some(other.to_string()),
        }
    }
}

/// Everything one apply produced, in creation order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProvisionState {
    /// `emulator` or `terraform`.
    pub applier: String,
    /// Where the configuration came from.
    pub source: String,
    /// The emulator's (or cloud's) endpoint, for the emulator applier.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub endpoint: String,
    pub region: String,
    pub suffix: String,
    /// Created resources and read data sources, oldest first (so a dependency comes before what
    /// depends on it, and destroy walks the list backwards).
    pub resources: Vec<ResourceRecord>,
    /// Terraform `output` values.
    #[serde(default)]
    pub outputs: Map<String, Value>,
    /// The Terraform applier's working directory, kept for destroy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workdir: Option<String>,
}

impl ProvisionState {
    /// The managed resources (not data sources), oldest first.
    pub fn created(&self) -> impl DoubleEndedIterator<Item = &ResourceRecord> {
        self.resources.iter().filter(|r| r.done == Done::Created)
    }

    pub fn resource(&self, address: &str) -> Option<&ResourceRecord> {
        self.resources.iter().find(|r| r.address == address)
    }

    pub fn save(&self, path: &Path) -> Result<()> {
        let file_error = |message: String| ProvisionError::File {
            path: path.to_owned(),
            message,
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| file_error(e.to_string()))?;
        }
        let text = serde_json::to_string_pretty(self).map_err(|e| file_error(e.to_string()))?;
        // Written beside the target and renamed, so a crash never leaves half a state file.
        let partial = path.with_extension("json.partial");
        std::fs::write(&partial, text + "\n").map_err(|e| file_error(e.to_string()))?;
        std::fs::rename(&partial, path).map_err(|e| file_error(e.to_string()))
    }

    pub fn load(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|e| ProvisionError::File {
            path: path.to_owned(),
            message: e.to_string(),
        })?;
        serde_json::from_str(&text).map_err(|e| ProvisionError::File {
            path: path.to_owned(),
            message: format!("not a provisioning state file: {e}"),
        })
    }
}
