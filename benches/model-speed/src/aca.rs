//! aca-model's single-sequence prefill and greedy decode, timed by the shared protocol.

use std::path::Path;
use std::time::{Duration, Instant};

use aca_model::{Device, KvCache, Precision, Qwen3Model, argmax};
use anyhow::{Context, Result};

use crate::protocol::RunOnce;

/// Loads the checkpoint with aca-model on `device`, its weights held in `precision`.
pub fn load(directory: &Path, device: &Device, precision: Precision) -> Result<Qwen3Model> {
    Qwen3Model::load_as(directory, device, precision)
        .with_context(|| format!("aca-model cannot load {}", directory.display()))
}

/// aca-model as a contender of the shared protocol.
pub fn contender(model: &Qwen3Model) -> RunOnce<'_> {
    Box::new(move |prompt, steps| run_once(model, prompt, steps))
}

fn run_once(model: &Qwen3Model, prompt: &[u32], decode_steps: usize) -> Result<(Duration, Duration, Vec<u32>)> {
    let mut cache: KvCache = model.new_cache();
    let started = Instant::now();
    let logits = model.forward_one(prompt, &mut cache)?;
    let prefill = started.elapsed();
    let mut token = argmax(&logits).context("aca-model returned empty logits")?;
    let mut greedy = vec![token];
    let started = Instant::now();
    for _ in 0..decode_steps {
        let logits = model.forward_one(&[token], &mut cache)?;
        token = argmax(&logits).context("aca-model returned empty logits")?;
        greedy.push(token);
    }
    Ok((prefill, started.elapsed(), greedy))
}
