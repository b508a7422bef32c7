//! `trainer_state.json`: where a run stood when it saved a checkpoint, so it resumes from there.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::TrainError;
use crate::sft::config::SftConfig;
use crate::sft::schedule::LrSchedule;

/// The state file's name inside a checkpoint directory.
pub const STATE_FILE: &str = "trainer_state.json";
/// The optimizer moments (burnpack), written for full fine-tuning.
pub const OPTIMIZER_FILE: &str = "optimizer.bpk";

/// A run's position at a checkpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainerState {
    /// Optimizer steps done.
    pub step: usize,
    pub total_steps: usize,
    pub schedule: LrSchedule,
    /// The rate of the last step done.
    pub learning_rate: f64,
    pub seed: u64,
    /// Training samples consumed, in the seeded order; with `train_samples`, the data position.
    pub samples_consumed: usize,
    pub train_samples: usize,
    pub config: SftConfig,
}

impl TrainerState {
    pub fn write(&self, directory: &Path) -> Result<(), TrainError> {
        crate::run_state::write_json(&directory.join(STATE_FILE), self)
    }

    pub fn read(directory: &Path) -> Result<Self, TrainError> {
        crate::run_state::read_json(&directory.join(STATE_FILE))
    }
}

/// A resumed run must be the same run: the settings that decide which samples each step sees and how the
/// weights move must match the checkpoint's (evaluation, saving and output settings may differ).
pub(crate) fn check_same_run(config: &SftConfig, saved: &SftConfig) -> Result<(), TrainError> {
    let comparable = SftConfig {
        eval_every: saved.eval_every,
        eval_samples: saved.eval_samples,
        max_new_tokens: saved.max_new_tokens,
        save_every: saved.save_every,
        keep_checkpoints: saved.keep_checkpoints,
        output_dir: saved.output_dir.clone(),
        ..config.clone()
    };
    crate::run_state::same_run(&comparable, saved)
}
