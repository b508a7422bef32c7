//! Random Qwen3 checkpoints for tests and benchmarks: a `config.json` and a `model.safetensors` of a
//! chosen shape with seeded weights, laid out exactly as a Hugging Face checkpoint, so the loader,
//! the server and other implementations read them like real ones.

use std::path::Path;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use safetensors::{Dtype, tensor::TensorView};
use serde_json::json;

use crate::config::Qwen3Config;
use crate::error::ModelError;
use crate::layout::TensorLayout;

/// The shape of a random checkpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct RandomShape {
    pub vocab_size: usize,
    pub hidden_size: usize,
    pub intermediate_size: usize,
    pub num_hidden_layers: usize,
    pub num_attention_heads: usize,
    pub num_key_value_heads: usize,
    pub head_dim: usize,
    pub tie_word_embeddings: bool,
    pub rope_theta: f64,
    pub max_position_embeddings: usize,
    pub eos_token_ids: Vec<u32>,
}

impl RandomShape {
    /// The benchmark's "tiny but not trivial" model: 8 layers, hidden 512, Qwen3's real vocabulary.
    pub fn bench() -> Self {
        RandomShape {
            vocab_size: 151_936,
            hidden_size: 512,
            intermediate_size: 1_536,
            num_hidden_layers: 8,
            num_attention_heads: 8,
            num_key_value_heads: 4,
            head_dim: 64,
            tie_word_embeddings: true,
            rope_theta: 1_000_000.0,
            max_position_embeddings: 4_096,
            eos_token_ids: vec![151_645, 151_643],
        }
    }

    /// The tests' small model with Qwen3's real vocabulary (so the real template's special tokens
    /// exist): 2 layers, hidden 64, 4 query and 2 key/value heads of 16.
    pub fn small() -> Self {
        RandomShape {
            hidden_size: 64,
            intermediate_size: 128,
            num_hidden_layers: 2,
            num_attention_heads: 4,
            num_key_value_heads: 2,
            head_dim: 16,
            ..Self::bench()
        }
    }

    /// The `config.json` document of a checkpoint of this shape.
    pub fn config_json(&self) -> serde_json::Value {
        json!({
            "architectures": ["Qwen3ForCausalLM"],
            "model_type": "qwen3",
            "hidden_act": "silu",
            "torch_dtype": "float32",
            "vocab_size": self.vocab_size,
            "hidden_size": self.hidden_size,
            "intermediate_size": self.intermediate_size,
            "num_hidden_layers": self.num_hidden_layers,
            "num_attention_heads": self.num_attention_heads,
            "num_key_value_heads": self.num_key_value_heads,
            "head_dim": self.head_dim,
            "rope_theta": self.rope_theta,
            "rms_norm_eps": 1e-6,
            "tie_word_embeddings": self.tie_word_embeddings,
            "attention_bias": false,
            "max_position_embeddings": self.max_position_embeddings,
            "eos_token_id": self.eos_token_ids,
        })
    }
}

/// Writes `config.json` and `model.safetensors` (f32) into `dir`. Projections are drawn uniformly
/// with the standard deviation of Qwen3's initialiser (0.02); norms are ones. Same seed, same bytes.
pub fn write_random_checkpoint(dir: &Path, shape: &RandomShape, seed: u64) -> Result<(), ModelError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ModelError::Io { path, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let config_text = serde_json::to_string_pretty(&shape.config_json())
        .map_err(|e| ModelError::Compute(format!("cannot encode config.json: {e}")))?;
    let config = Qwen3Config::from_json_str(&config_text)?;
    let config_path = dir.join("config.json");
    std::fs::write(&config_path, config_text).map_err(io(&config_path))?;

    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let bound = 0.02_f32 * 3.0_f32.sqrt();
    let layout = TensorLayout::for_config(&config);
    let mut buffers: Vec<(String, Vec<usize>, Vec<u8>)> = Vec::new();
    for (name, dims) in layout.expected(&config) {
        let count: usize = dims.iter().product();
        let is_norm = name.ends_with("norm.weight");
        let mut bytes = Vec::with_capacity(count * 4);
        for _ in 0..count {
            let value = if is_norm { 1.0 } else { rng.random_range(-bound..bound) };
            bytes.extend_from_slice(&f32::to_le_bytes(value));
        }
        buffers.push((name, dims, bytes));
    }
    let views = buffers
        .iter()
        .map(|(name, dims, bytes)| {
            TensorView::new(Dtype::F32, dims.clone(), bytes)
                .map(|view| (name.clone(), view))
                .map_err(|e| ModelError::Compute(format!("cannot lay out {name}: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let weights_path = dir.join("model.safetensors");
    let metadata = std::collections::HashMap::from([("format".to_owned(), "pt".to_owned())]);
    safetensors::serialize_to_file(views, Some(metadata), &weights_path)
        .map_err(|e| ModelError::Compute(format!("cannot write {}: {e}", weights_path.display())))?;
    Ok(())
}
