//! The private model: Qwen3 checkpoints on burn, their tokenizer and chat template, and generation.
//!
//! Load a checkpoint directory with [`Qwen3Model::load`], give each sequence a [`KvCache`] from
//! [`Qwen3Model::new_cache`], and run any set of sequences together through [`Qwen3Model::forward`]
//! (a prompt prefills, one token decodes): it returns each sequence's last-position logits.
//!
//! # Speed
//!
//! `cargo run --release -p aca-bench-model --features candle` (crate `benches/model-speed`, outside the
//! default build) prints prefill and decode tokens/s of this crate, candle and `transformers` on one
//! random 8-layer, hidden-512 checkpoint, whether their greedy tokens agree, and the [`engine`]'s total
//! tokens/s at 1, 4 and 16 concurrent requests. The `transformers` row needs `ACA_BENCH_PYTHON` to name an
//! interpreter with torch, transformers and safetensors; `--help` lists the rest.

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
