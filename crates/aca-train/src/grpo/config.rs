//! The settings of a GRPO run, serialisable so a checkpoint records what produced it.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::error::TrainError;
use crate::grpo::objective::ObjectiveConfig;
use crate::sft::LrSchedule;

/// What a GRPO run does; every field has a default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GrpoConfig {
    /// Rollouts compared with each other per task.
    pub group_size: usize,
    /// Rollouts sampled per group are `group_size × oversampling` (rounded up), so that a group keeps
    /// about `group_size` scored rollouts after invalid and environment-failed ones are dropped.
    pub oversampling: f64,
    /// The surrogate's clipping range ε.
    pub clip_epsilon: f64,
    /// Weight β of the KL penalty to the starting model.
    pub kl_beta: f64,
    /// The peak learning rate.
    pub learning_rate: f64,
    /// The rate the cosine decay ends at.
    pub min_learning_rate: f64,
    /// Steps of linear warm-up.
    pub warmup_steps: usize,
    /// Steps of the whole run (the cosine reaches its floor at the last one).
    pub total_steps: usize,
    pub weight_decay: f32,
    pub beta_1: f32,
    pub beta_2: f32,
    pub epsilon: f32,
    /// Limit on the global gradient norm; `None` measures it without clipping.
    pub max_grad_norm: Option<f32>,
    /// Rollouts per forward pass; their gradients add up to the whole batch's.
    pub micro_batch_rollouts: usize,
    /// The longest completion a rollout may have (the sampler's `max_tokens`).
    pub max_completion_tokens: usize,
    /// Sampling temperature (0 greedy); the trainer reads log-probabilities at the same temperature.
    pub temperature: f32,
    /// Nucleus sampling (1 keeps the whole vocabulary).
    pub top_p: f32,
    /// Seeds the sampling: the same seed, the same rollouts from the same weights.
    pub seed: u64,
    /// Steps between validations (the driver runs them; the report says when one is due); 0 never.
    pub validate_every: usize,
    /// Steps between checkpoints (and one at the last step); 0 only at the last step.
    pub save_every: usize,
    /// Where `checkpoint-STEP` directories are written; `None` writes none.
    pub output_dir: Option<PathBuf>,
}

impl Default for GrpoConfig {
    fn default() -> Self {
        let objective = ObjectiveConfig::default();
        Self {
            group_size: 16,
            oversampling: 1.25,
            clip_epsilon: objective.clip_epsilon,
            kl_beta: objective.kl_beta,
            learning_rate: 1e-6,
            min_learning_rate: 0.0,
            warmup_steps: 10,
            total_steps: 500,
            weight_decay: 0.0,
            beta_1: 0.9,
            beta_2: 0.999,
            epsilon: 1e-8,
            max_grad_norm: Some(1.0),
            micro_batch_rollouts: 4,
            max_completion_tokens: 512,
            temperature: 1.0,
            top_p: 1.0,
            seed: 0,
            validate_every: 50,
            save_every: 100,
            output_dir: None,
        }
    }
}

impl GrpoConfig {
    /// Refuses settings no run can use, naming each.
    pub fn validate(&self) -> Result<(), TrainError> {
        let mut problems = Vec::new();
        if self.group_size < 2 {
            problems.push(format!("group_size must be at least 2, not {}", self.group_size));
        }
        if !(self.oversampling >= 1.0 && self.oversampling.is_finite()) {
            problems.push(format!("oversampling must be at least 1, not {}", self.oversampling));
        }
        if !(self.clip_epsilon > 0.0 && self.clip_epsilon < 1.0) {
            problems.push(format!("clip_epsilon must lie in (0, 1), not {}", self.clip_epsilon));
        }
        if !(self.kl_beta >= 0.0 && self.kl_beta.is_finite()) {
            problems.push(format!("kl_beta must be a finite number ≥ 0, not {}", self.kl_beta));
        }
        if !(self.learning_rate > 0.0 && self.learning_rate.is_finite()) {
            problems.push(format!("learning_rate must be positive, not {}", self.learning_rate));
        }
        if !(self.min_learning_rate >= 0.0 && self.min_learning_rate <= self.learning_rate) {
            problems.push("min_learning_rate must lie between 0 and learning_rate".to_string());
        }
        if self.total_steps == 0 {
            problems.push("total_steps must be positive".to_string());
        }
        if self.weight_decay < 0.0 || self.weight_decay.is_nan() {
            problems.push(format!("weight_decay must be ≥ 0, not {}", self.weight_decay));
        }
        if let Some(limit) = self.max_grad_norm
            && (limit.is_nan() || limit <= 0.0)
        {
            problems.push(format!("max_grad_norm must be positive, not {limit}"));
        }
        if self.micro_batch_rollouts == 0 {
            problems.push("micro_batch_rollouts must be at least 1".to_string());
        }
        if self.max_completion_tokens == 0 {
            problems.push("max_completion_tokens must be at least 1".to_string());
        }
        if !(self.temperature >= 0.0 && self.temperature.is_finite()) {
            problems.push(format!(
                "temperature must be a finite number ≥ 0, not {}",
                self.temperature
            ));
        }
        if !(self.top_p > 0.0 && self.top_p <= 1.0) {
            problems.push(format!("top_p must lie in (0, 1], not {}", self.top_p));
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(TrainError::Config(problems.join("; ")))
        }
    }

    /// Rollouts to sample for one group: `group_size × oversampling`, rounded up.
    pub fn rollouts_per_group(&self) -> usize {
        (self.group_size as f64 * self.oversampling).ceil() as usize
    }

    pub fn objective(&self) -> ObjectiveConfig {
        ObjectiveConfig {
            clip_epsilon: self.clip_epsilon,
            kl_beta: self.kl_beta,
        }
    }

    pub fn schedule(&self) -> LrSchedule {
        LrSchedule {
            peak: self.learning_rate,
            floor: self.min_learning_rate,
            warmup_steps: self.warmup_steps,
            total_steps: self.total_steps,
        }
    }

    /// Whether a resumed run with these settings is the run that saved `saved`: everything that moves the
    /// weights must match (validation, saving, the output directory and the micro-batch size may differ).
    pub(crate) fn check_same_run(&self, saved: &GrpoConfig) -> Result<(), TrainError> {
        let comparable = GrpoConfig {
            validate_every: saved.validate_every,
            save_every: saved.save_every,
            output_dir: saved.output_dir.clone(),
            micro_batch_rollouts: saved.micro_batch_rollouts,
            ..self.clone()
        };
        crate::run_state::same_run(&comparable, saved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_validate_and_oversample_a_group_of_sixteen_to_twenty() {
        let config = GrpoConfig::default();
        config.validate().unwrap();
        assert_eq!(config.rollouts_per_group(), 20);
        assert_eq!(config.objective(), ObjectiveConfig::default());
    }

    #[test]
    fn every_unusable_setting_is_named() {
        let config = GrpoConfig {
            group_size: 1,
            clip_epsilon: 0.0,
            top_p: 0.0,
            max_grad_norm: Some(f32::NAN),
            ..GrpoConfig::default()
        };
        let Err(TrainError::Config(message)) = config.validate() else {
            panic!("expected a configuration error");
        };
        for name in ["group_size", "clip_epsilon", "top_p", "max_grad_norm"] {
            assert!(message.contains(name), "{message}");
        }
    }

    #[test]
    fn a_resumed_run_may_change_saving_but_not_the_learning_rate() {
        let saved = GrpoConfig::default();
        let saving = GrpoConfig {
            save_every: 7,
            output_dir: Some("elsewhere".into()),
            ..saved.clone()
        };
        saving.check_same_run(&saved).unwrap();
        let faster = GrpoConfig {
            learning_rate: 1e-5,
            ..saved.clone()
        };
        assert!(faster.check_same_run(&saved).is_err());
    }
}
