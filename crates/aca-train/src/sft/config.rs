//! The settings of an SFT run, serialisable so a checkpoint records what produced it.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::error::TrainError;

/// LoRA adapters on every projection matrix, merged into the weights when a checkpoint is saved.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LoraOptions {
    pub rank: usize,
    /// The adapters' contribution is scaled by `alpha / rank`.
    pub alpha: f64,
}

/// What an SFT run does; every field has a default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SftConfig {
    /// The peak learning rate.
    pub learning_rate: f64,
    /// The rate the cosine decay ends at.
    pub min_learning_rate: f64,
    /// Optimizer steps of linear warm-up.
    pub warmup_steps: usize,
    pub weight_decay: f32,
    pub beta_1: f32,
    pub beta_2: f32,
    pub epsilon: f32,
    /// Limit on the global gradient norm; `None` measures it without clipping.
    pub max_grad_norm: Option<f32>,
    /// Samples per forward pass.
    pub micro_batch_size: usize,
    /// Micro-batches per optimizer step.
    pub gradient_accumulation: usize,
    /// Passes over the training set (ignored when `max_steps` is set).
    pub epochs: usize,
    pub max_steps: Option<usize>,
    /// Tokens per sample; longer samples are cut (and counted).
    pub max_length: usize,
    pub lora: Option<LoraOptions>,
    /// Seeds the sample order and the LoRA initialisation: the same seed, the same run.
    pub seed: u64,
    /// Qwen3's thinking switch for rendering prompts; `None` leaves it to the template, as `aca serve` does.
    pub enable_thinking: Option<bool>,
    /// Evaluate on the held-out samples every this many steps (and at the end); 0 never.
    pub eval_every: usize,
    /// At most this many held-out samples are evaluated.
    pub eval_samples: usize,
    /// The reply length limit of greedy decoding for next-action accuracy.
    pub max_new_tokens: usize,
    /// Save a checkpoint every this many steps (and at the end); 0 only at the end.
    pub save_every: usize,
    /// Keep only this many of the newest checkpoints, deleting older ones as new ones are saved;
    /// 0 keeps all.
    pub keep_checkpoints: usize,
    /// Where `checkpoint-STEP` directories are written; `None` writes none.
    pub output_dir: Option<PathBuf>,
}

impl Default for SftConfig {
    fn default() -> Self {
        Self {
            learning_rate: 2e-5,
            min_learning_rate: 0.0,
            warmup_steps: 10,
            weight_decay: 0.0,
            beta_1: 0.9,
            beta_2: 0.999,
            epsilon: 1e-8,
            max_grad_norm: Some(1.0),
            micro_batch_size: 1,
            gradient_accumulation: 8,
            epochs: 1,
            max_steps: None,
            max_length: 4096,
            lora: None,
            seed: 0,
            enable_thinking: None,
            eval_every: 100,
            eval_samples: 64,
            max_new_tokens: 256,
            save_every: 0,
            keep_checkpoints: 0,
            output_dir: None,
        }
    }
}

impl SftConfig {
    /// Refuses settings no run can use, naming each.
    pub fn validate(&self) -> Result<(), TrainError> {
        let mut problems = Vec::new();
        if !(self.learning_rate > 0.0 && self.learning_rate.is_finite()) {
            problems.push(format!("learning_rate must be positive, not {}", self.learning_rate));
        }
        if self.min_learning_rate < 0.0 || self.min_learning_rate > self.learning_rate {
            problems.push("min_learning_rate must lie between 0 and learning_rate".to_string());
        }
        if self.micro_batch_size == 0 || self.gradient_accumulation == 0 {
            problems.push("micro_batch_size and gradient_accumulation must be at least 1".to_string());
        }
        if self.max_length < 2 {
            problems.push("max_length must be at least 2 tokens".to_string());
        }
        if self.max_steps.is_none() && self.epochs == 0 {
            problems.push("either epochs or max_steps must be positive".to_string());
        }
        if let Some(limit) = self.max_grad_norm
            && (limit.is_nan() || limit <= 0.0)
        {
            problems.push(format!("max_grad_norm must be positive, not {limit}"));
        }
        if let Some(lora) = self.lora
            && lora.rank == 0
        {
            problems.push("lora.rank must be at least 1".to_string());
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(TrainError::Config(problems.join("; ")))
        }
    }

    /// Samples consumed by one optimizer step.
    pub fn samples_per_step(&self) -> usize {
        self.micro_batch_size * self.gradient_accumulation
    }

    /// Optimizer steps of a run over `train_samples` samples.
    pub fn total_steps(&self, train_samples: usize) -> usize {
        self.max_steps
            .unwrap_or_else(|| self.epochs * train_samples.div_ceil(self.samples_per_step().max(1)))
    }
}
