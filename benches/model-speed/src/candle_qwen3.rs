//! The same checkpoint through `candle-transformers`' Qwen3 on candle's CPU device, f32, timed by the
//! shared protocol.

use std::path::Path;
use std::time::{Duration, Instant};

use aca_model::Qwen3Config;
use anyhow::{Context, Result};
use candle_core::{DType, Device, Tensor};
use candle_nn::{Activation, VarBuilder};
use candle_transformers::models::qwen3::{Config, ModelForCausalLM};

use crate::protocol::RunOnce;

/// Loads `model.safetensors` of `directory` into candle's Qwen3 with the configuration aca-model read.
pub fn load(directory: &Path, config: &Qwen3Config) -> Result<ModelForCausalLM> {
    let device = Device::Cpu;
    let weights_path = directory.join("model.safetensors");
    let tensors = candle_core::safetensors::load(&weights_path, &device)
        .with_context(|| format!("candle cannot read {}", weights_path.display()))?;
    let builder = VarBuilder::from_tensors(tensors, DType::F32, &device);
    ModelForCausalLM::new(&candle_config(config), builder).context("candle cannot build its Qwen3 model")
}

fn candle_config(config: &Qwen3Config) -> Config {
    Config {
        vocab_size: config.vocab_size,
        hidden_size: config.hidden_size,
        intermediate_size: config.intermediate_size,
        num_hidden_layers: config.num_hidden_layers,
        num_attention_heads: config.num_attention_heads,
        head_dim: config.head_dim,
        attention_bias: config.attention_bias,
        num_key_value_heads: config.num_key_value_heads,
        max_position_embeddings: config.max_position_embeddings,
        sliding_window: None,
        max_window_layers: config.num_hidden_layers,
        tie_word_embeddings: config.tie_word_embeddings,
        rope_theta: config.rope_theta,
        rms_norm_eps: config.rms_norm_eps,
        use_sliding_window: false,
        hidden_act: Activation::Silu,
    }
}

/// candle as a contender of the shared protocol; each run starts by clearing candle's cache.
pub fn contender(mut model: ModelForCausalLM) -> RunOnce<'static> {
    Box::new(move |prompt, steps| run_once(&mut model, prompt, steps))
}

fn run_once(
    model: &mut ModelForCausalLM,
    prompt: &[u32],
    decode_steps: usize,
) -> Result<(Duration, Duration, Vec<u32>)> {
    model.clear_kv_cache();
    let started = Instant::now();
    let mut token = next_token(model, prompt, 0)?;
    let prefill = started.elapsed();
    let mut greedy = vec![token];
    let started = Instant::now();
    for step in 0..decode_steps {
        token = next_token(model, &[token], prompt.len() + step)?;
        greedy.push(token);
    }
    Ok((prefill, started.elapsed(), greedy))
}

/// Feeds `tokens` at position `offset` and returns the argmax of the last position's logits.
fn next_token(model: &mut ModelForCausalLM, tokens: &[u32], offset: usize) -> Result<u32> {
    let input = Tensor::new(tokens, &Device::Cpu)?.unsqueeze(0)?;
    let logits: Vec<f32> = model.forward(&input, offset)?.flatten_all()?.to_vec1()?;
    aca_model::argmax(&logits).context("candle returned empty logits")
}
