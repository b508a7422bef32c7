//! The private model: Qwen3 checkpoints on burn, their tokenizer and chat template, and generation.
//!
//! Load a checkpoint directory with [`Qwen3Model::load`], give each sequence a [`KvCache`] from
//! [`Qwen3Model::new_cache`], and run any set of sequences together through [`Qwen3Model::forward`]
//! (a prompt prefills, one token decodes): it returns each sequence's last-position logits.

mod attention;
pub mod cache;
pub mod checkpoint;
pub mod config;
pub mod constrain;
pub mod device;
pub mod engine;
pub mod error;
mod generate;
pub mod layout;
pub mod memory;
pub mod model;
mod norm;
pub mod random;
mod rope;
pub mod sample;
pub mod text;
mod weights;

pub use burn::tensor::Device;
pub use cache::KvCache;
pub use config::Qwen3Config;
pub use device::{DeviceChoice, DeviceError};
pub use error::ModelError;
pub use generate::argmax;
pub use model::{Qwen3Model, SequenceStep};
