//! Resource META ⟨D, K, C_create, C_verify, C_destroy⟩: what must exist before a procedure can run.
//!
//! C_create and C_destroy are one Terraform configuration for the `alicloud` provider (applied and
//! destroyed); C_verify checks that every resource it declares exists with its key attributes.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ResourceMeta {
    /// D: what must exist, in a sentence a person reads in the report.
    pub description: String,
    /// K: attributes that must hold for the procedure to make sense.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub key_attributes: Vec<KeyAttribute>,
    /// C_create / C_destroy: HCL for the `alicloud` provider. Names use `${var.suffix}` so that each
    /// run's resources are unique.
    pub terraform: String,
}

/// One key attribute: `alicloud_instance.web` `status` = `Running`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyAttribute {
    /// The Terraform address of the resource, e.g. `alicloud_instance.web`.
    pub resource: String,
    pub attribute: String,
    pub value: String,
}
