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
    /// How hard the task is for an agent, for the benchmark's results by difficulty.
    #[serde(default, skip_serializing_if = "Difficulty::is_standard")]
    pub difficulty: Difficulty,
}

/// A task's difficulty as its sidecar states it: `hard` for long procedures (in the corpus, seven or
/// more numbered steps and sub-steps: wizards, details pages reached through a list, dialogs within
/// dialogs), `standard` otherwise.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Difficulty {
    #[default]
    Standard,
    Hard,
}

impl Difficulty {
    pub fn name(self) -> &'static str {
        match self {
            Self::Standard => "standard",
            Self::Hard => "hard",
        }
    }

    fn is_standard(&self) -> bool {
        *self == Self::Standard
    }
}

fn default_region() -> String {
    "cn-hangzhou".into()
}
