//! A verification task as an example page declares it beside itself (`<page>.task.toml`).

use serde::{Deserialize, Serialize};

use crate::meta::ResourceMeta;
use crate::rule::SuccessRule;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskSpec {
    /// The UI profile the page was written for, e.g. `2026`.
    pub profile: String,
    /// The emulator's product code the page is about, e.g. `vpc`.
    pub product: String,
    /// The region the procedure works in.
    #[serde(default = "default_region")]
    pub region: String,
    pub rule: SuccessRule,
    /// What must exist first; `None` for procedures that start from an empty account.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResourceMeta>,
}

fn default_region() -> String {
    "cn-hangzhou".into()
}
