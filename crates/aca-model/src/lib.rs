//! The private model: Qwen3 checkpoints on burn, their tokenizer and chat template, and generation.
//!
//! Load a checkpoint directory with [`Qwen3Model::load`], give each sequence a [`KvCache`] from
//! [`Qwen3Model::new_cache`], and run any set of sequences together through [`Qwen3Model::forward`]
//! (a prompt prefills, one token decodes): it returns each sequence's last-position logits.
//!
//! # Images (Qwen3-VL)
//!
//! [`Qwen3VlModel::load`] reads a Qwen3-VL checkpoint (`model.visual.*`, `model.language_model.*`,
//! `lm_head.*`, plus `preprocessor_config.json`). Turn PNG or JPEG images into [`ProcessedImage`]s with
//! its [`Qwen3VlModel::processor`], expand each `<|image_pad|>` of the templated prompt with
//! [`Qwen3VlModel::expand_image_placeholders`], then [`Qwen3VlModel::prefill`] the tokens and images into a
//! fresh [`KvCache`]. Decode with [`Qwen3VlModel::forward`], which batches like [`Qwen3Model::forward`]
//! (sequences with and without images together): the cache remembers where images shifted the
//! multimodal rotary positions. Text-only prompts may skip `prefill` and go straight to `forward`.
//!
//! The [`engine`] runs either kind ([`engine::EngineModel::load`] chooses by `config.json`): a
//! [`engine::GenerationRequest`] carries its processed images next to its expanded prompt.
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
pub mod dtype;
pub mod engine;
pub mod error;
mod gated;
mod generate;
mod host;
pub mod layout;
pub mod memory;
pub mod model;
mod norm;
mod packed;
pub mod quantization;
pub mod random;
mod rope;
pub mod sample;
pub mod text;
pub mod vl;
mod weights;

pub use burn::tensor::{DType, Device};
pub use cache::KvCache;
pub use config::Qwen3Config;
pub use device::{DeviceChoice, DeviceError};
pub use dtype::WeightDtype;
pub use quantization::{Precision, Quantization};
pub use error::ModelError;
pub use generate::argmax;
pub use model::{Qwen3Model, SequenceStep};
/// The decoder's building blocks, shared with the trainer so both compute the same math.
pub use norm::rms_norm;
pub use rope::RotaryTables;
pub use vl::{ImageGrid, ImageProcessor, ProcessedImage, Qwen3VlConfig, Qwen3VlModel};
