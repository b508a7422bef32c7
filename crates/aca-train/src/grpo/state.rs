//! `grpo_state.json`: where a GRPO run stood when it saved a checkpoint, and where its frozen reference
//! model lives, so the run resumes from there.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::TrainError;
use crate::grpo::config::GrpoConfig;

/// The state file's name inside a checkpoint directory.
pub const GRPO_STATE_FILE: &str = "grpo_state.json";

/// A run's position at a checkpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GrpoState {
    /// Steps done.
    pub step: usize,
    pub seed: u64,
    /// The checkpoint the run started from: the reference model of the KL penalty.
    pub reference: PathBuf,
    pub config: GrpoConfig,
}

impl GrpoState {
    pub fn write(&self, directory: &Path) -> Result<(), TrainError> {
        crate::run_state::write_json(&directory.join(GRPO_STATE_FILE), self)
    }

    pub fn read(directory: &Path) -> Result<Self, TrainError> {
        crate::run_state::read_json(&directory.join(GRPO_STATE_FILE))
    }
}
