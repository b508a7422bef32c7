//! A trainable Qwen3: parameters in Hugging Face naming as burn modules, loaded from a checkpoint
//! directory or drawn from a seed, a full-sequence causal forward pass, and saving as a checkpoint.

mod forward;
mod load;
mod params;
mod save;

use std::path::Path;

use aca_model::Qwen3Config;
use aca_model::random::RandomShape;
use burn::module::Module;
use burn::tensor::{Device, Int, Tensor};

use crate::error::TrainError;

pub use forward::pad_batch;
pub use params::{DecoderLayer, Mlp, Projection, Qwen3Params, SelfAttention};
pub use save::{TEXT_FILES, TextFiles};

/// The configuration, the document it was read from, and the trainable parameters.
#[derive(Debug)]
pub struct TrainableQwen3 {
    pub config: Qwen3Config,
    /// `config.json` as read (or as a random checkpoint writes it): saved back unchanged.
    config_json: serde_json::Value,
    pub params: Qwen3Params,
}

impl TrainableQwen3 {
    /// Loads the Qwen3 checkpoint in `directory` (what `aca_model::Qwen3Model::load` accepts) onto `device`.
    /// Qwen3-VL checkpoints are refused: only the text decoder is trained here.
    pub fn from_checkpoint(directory: &Path, device: &Device) -> Result<Self, TrainError> {
        let config_path = directory.join(aca_model::model::CONFIG_FILE);
        let text = std::fs::read_to_string(&config_path).map_err(|source| TrainError::Io {
            path: config_path.clone(),
            source,
        })?;
        let config = Qwen3Config::from_file(&config_path)?;
        if config.nested_text_config {
            return Err(TrainError::Checkpoint {
                problem: format!(
                    "{} is a multimodal (Qwen3-VL) checkpoint; only text Qwen3 checkpoints are trained",
                    directory.display()
                ),
            });
        }
        let config_json = serde_json::from_str(&text).map_err(|error| TrainError::Checkpoint {
            problem: format!("{}: {error}", config_path.display()),
        })?;
        let tensors = load::read_checkpoint(directory, &config)?;
        let params = load::assemble(&config, tensors, device)?;
        Ok(Self {
            config,
            config_json,
            params,
        })
    }

    /// A model of `shape` with seeded weights: the same values `aca_model::random::write_random_checkpoint`
    /// writes for that shape and seed.
    pub fn random(shape: &RandomShape, seed: u64, device: &Device) -> Result<Self, TrainError> {
        let config_json = shape.config_json();
        let config = Qwen3Config::from_json_str(&config_json.to_string())?;
        let params = load::assemble(&config, load::random_tensors(&config, seed), device)?;
        Ok(Self {
            config,
            config_json,
            params,
        })
    }

    /// `ids` `[batch, length]` (right-padded) → logits `[batch, length, vocab]`.
    pub fn forward(&self, ids: Tensor<2, Int>) -> Tensor<3> {
        self.params.forward(&self.config, ids)
    }

    /// The logits `[vocab]` after the last of `ids`, on the parameters' device.
    pub fn last_logits(&self, ids: &[u32]) -> Tensor<1> {
        let ids = pad_batch(&[ids], 0, &self.device());
        let hidden = self.params.hidden(&self.config, ids);
        let [rows, width] = hidden.dims();
        let last = hidden.slice([rows - 1..rows, 0..width]);
        self.params.logits(last).reshape([self.config.vocab_size])
    }

    /// The device the parameters live on.
    pub fn device(&self) -> Device {
        self.params.embed_tokens.val().device()
    }

    /// A copy for evaluation: no autodiff, LoRA adapters kept.
    pub fn valid(&self) -> Self {
        Self {
            config: self.config.clone(),
            config_json: self.config_json.clone(),
            params: self.params.valid(),
        }
    }

    /// `config.json` as it will be saved.
    pub fn config_json(&self) -> &serde_json::Value {
        &self.config_json
    }
}
