//! The private model: Qwen3 checkpoints on burn, their tokenizer and chat template, and generation.

pub mod constrain;
pub mod text;
