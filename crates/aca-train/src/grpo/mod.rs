//! GRPO against the reward service.
//!
//! - [`advantage`]: group-relative advantages of scored rollouts, in two tiers.
//! - [`logprobs`]: the completions' per-token log-probabilities under the trained model.
//! - [`sample`]: in-process sampling from the current weights through `aca serve`'s engine, with the
//!   sampler's own logprobs.
//! - [`objective`]: the clipped, KL-penalised token-level objective.
//! - [`GrpoTrainer`]: groups of rollouts in, one AdamW update out; checkpoints with `grpo_state.json`.
//!
//! Collecting rollouts (episodes in the console, scored by the reward service) stays with the driver.

pub mod advantage;
mod batch;
mod config;
pub mod logprobs;
pub mod objective;
pub mod sample;
mod state;
mod trainer;

pub use config::GrpoConfig;
pub use state::{GRPO_STATE_FILE, GrpoState};
pub use trainer::{Group, GrpoTrainer, Rollout, StepReport, Turn};
