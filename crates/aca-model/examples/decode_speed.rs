//! Times prefill and decode on a random Qwen3 checkpoint written to a temporary directory, or on a
//! checkpoint directory given as the first argument.
//!
//! ```text
//! cargo run -p aca-model --example decode_speed -- [CHECKPOINT_DIR]
//! ```
//! Without a directory the checkpoint has 8 layers, hidden 512, 8 heads (2 kv heads) of 64, vocab 8192.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use aca_model::{Device, KvCache, Qwen3Model, SequenceStep};
use safetensors::{Dtype, tensor::TensorView};

const PROMPT_TOKENS: usize = 128;
const DECODE_STEPS: usize = 32;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let temporary = tempfile::tempdir()?;
    let directory = match std::env::args().nth(1) {
        Some(directory) => directory.into(),
        None => {
            write_random_checkpoint(temporary.path())?;
            temporary.path().to_path_buf()
        }
    };
    let started = Instant::now();
    let model = Qwen3Model::load(&directory, &Device::flex())?;
    let config = model.config();
    println!(
        "loaded {} layers, hidden {}, heads {}/{} of {}, vocab {} in {:.2?}",
        config.num_hidden_layers,
        config.hidden_size,
        config.num_attention_heads,
        config.num_key_value_heads,
        config.head_dim,
        config.vocab_size,
        started.elapsed()
    );
    let vocab = config.vocab_size as u32;
    for batch_size in [1usize, 4, 16] {
        let prompts: Vec<Vec<u32>> = (0..batch_size)
            .map(|sequence| {
                (0..PROMPT_TOKENS)
                    .map(|index| ((index * 31 + sequence * 7) as u32) % vocab)
                    .collect()
            })
            .collect();
        let mut caches: Vec<KvCache> = prompts.iter().map(|_| model.new_cache()).collect();
        let started = Instant::now();
        let mut steps: Vec<SequenceStep<'_>> = prompts
            .iter()
            .zip(caches.iter_mut())
            .map(|(tokens, cache)| SequenceStep { tokens, cache })
            .collect();
        let mut logits = model.forward(&mut steps)?;
        let prefill = started.elapsed();
        let started = Instant::now();
        for _ in 0..DECODE_STEPS {
            let next: Vec<[u32; 1]> = logits.iter().map(|row| [aca_model::argmax(row).unwrap_or(0)]).collect();
            let mut steps: Vec<SequenceStep<'_>> = next
                .iter()
                .zip(caches.iter_mut())
                .map(|(token, cache)| SequenceStep { tokens: token, cache })
                .collect();
            logits = model.forward(&mut steps)?;
        }
        let decode = started.elapsed();
        println!(
            "batch {batch_size:>2}: prefill {:>8.1} tokens/s ({PROMPT_TOKENS} tokens each), decode {:>7.1} tokens/s ({:.2} ms per step)",
            (batch_size * PROMPT_TOKENS) as f64 / prefill.as_secs_f64(),
            (batch_size * DECODE_STEPS) as f64 / decode.as_secs_f64(),
            decode.as_secs_f64() * 1000.0 / DECODE_STEPS as f64,
        );
    }
    Ok(())
}

/// A Qwen3 checkpoint with random f32 weights (8 layers, hidden 512).
fn write_random_checkpoint(directory: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let (vocab, hidden, inter, layers, heads, kv_heads, head_dim) = (8192, 512, 1536, 8, 8, 2, 64);
    let config = serde_json::json!({
        "model_type": "qwen3", "vocab_size": vocab, "hidden_size": hidden, "intermediate_size": inter,
        "num_hidden_layers": layers, "num_attention_heads": heads, "num_key_value_heads": kv_heads,
        "head_dim": head_dim, "rope_theta": 1000000.0, "rms_norm_eps": 1e-6, "tie_word_embeddings": true,
        "max_position_embeddings": 4096, "hidden_act": "silu"
    });
    std::fs::write(directory.join("config.json"), config.to_string())?;
    let mut shapes: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    shapes.insert("model.embed_tokens.weight".into(), vec![vocab, hidden]);
    shapes.insert("model.norm.weight".into(), vec![hidden]);
    for layer in 0..layers {
        let name = |suffix: &str| format!("model.layers.{layer}.{suffix}");
        shapes.insert(name("input_layernorm.weight"), vec![hidden]);
        shapes.insert(name("post_attention_layernorm.weight"), vec![hidden]);
        shapes.insert(name("self_attn.q_proj.weight"), vec![heads * head_dim, hidden]);
        shapes.insert(name("self_attn.k_proj.weight"), vec![kv_heads * head_dim, hidden]);
        shapes.insert(name("self_attn.v_proj.weight"), vec![kv_heads * head_dim, hidden]);
        shapes.insert(name("self_attn.o_proj.weight"), vec![hidden, heads * head_dim]);
        shapes.insert(name("self_attn.q_norm.weight"), vec![head_dim]);
        shapes.insert(name("self_attn.k_norm.weight"), vec![head_dim]);
        shapes.insert(name("mlp.gate_proj.weight"), vec![inter, hidden]);
        shapes.insert(name("mlp.up_proj.weight"), vec![inter, hidden]);
        shapes.insert(name("mlp.down_proj.weight"), vec![hidden, inter]);
    }
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let bytes: BTreeMap<String, Vec<u8>> = shapes
        .iter()
        .map(|(name, shape)| {
            let count: usize = shape.iter().product();
            let scale = shape.get(1).map_or(0.0, |&fan_in| 1.7 / (fan_in as f32).sqrt());
            let data = (0..count)
                .flat_map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let uniform = (state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0;
                    // Norm weights are 1; matrices are uniform, scaled by their fan-in.
                    let value = if shape.len() == 1 { 1.0 } else { scale * uniform };
                    value.to_le_bytes()
                })
                .collect();
            (name.clone(), data)
        })
        .collect();
    let views = shapes
        .iter()
        .map(|(name, shape)| Ok((name.clone(), TensorView::new(Dtype::F32, shape.clone(), &bytes[name])?)))
        .collect::<Result<Vec<_>, safetensors::SafeTensorError>>()?;
    safetensors::serialize_to_file(views, None, &directory.join("model.safetensors"))?;
    Ok(())
}
