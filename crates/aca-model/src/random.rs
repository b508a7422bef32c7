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

    /// Qwen3-8B's dimensions (36 layers, hidden 4096, 32 query and 8 key/value heads of 128,
    /// intermediate 12288, untied output head): about 8.2 billion weights, 16 GB in bf16.
    pub fn qwen3_8b() -> Self {
        RandomShape {
            hidden_size: 4_096,
            intermediate_size: 12_288,
            num_hidden_layers: 36,
            num_attention_heads: 32,
            num_key_value_heads: 8,
            head_dim: 128,
            tie_word_embeddings: false,
            max_position_embeddings: 40_960,
            ..Self::bench()
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

/// The dtype a random checkpoint's tensors are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RandomDtype {
    #[default]
    F32,
    /// As Qwen3's releases are: the values drawn in f32, then rounded to bf16.
    Bf16,
}

impl RandomDtype {
    /// `config.json`'s `torch_dtype`.
    fn torch_name(self) -> &'static str {
        match self {
            RandomDtype::F32 => "float32",
            RandomDtype::Bf16 => "bfloat16",
        }
    }

    fn stored(self) -> Dtype {
        match self {
            RandomDtype::F32 => Dtype::F32,
            RandomDtype::Bf16 => Dtype::BF16,
        }
    }
}

/// Writes `config.json` and `model.safetensors` (f32) into `dir`. Projections are drawn uniformly
/// with the standard deviation of Qwen3's initialiser (0.02); norms are ones. Same seed, same bytes.
pub fn write_random_checkpoint(dir: &Path, shape: &RandomShape, seed: u64) -> Result<(), ModelError> {
    write_random_checkpoint_as(dir, shape, seed, RandomDtype::F32)
}

/// [`write_random_checkpoint`] with the tensors (and `config.json`'s `torch_dtype`) in `dtype`.
pub fn write_random_checkpoint_as(dir: &Path, shape: &RandomShape, seed: u64, dtype: RandomDtype) -> Result<(), ModelError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ModelError::Io { path, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let mut config_json = shape.config_json();
    config_json["torch_dtype"] = json!(dtype.torch_name());
    let config_text = serde_json::to_string_pretty(&config_json)
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
        let mut bytes = Vec::with_capacity(count * dtype.stored().bitsize() / 8);
        for _ in 0..count {
            let value = if is_norm { 1.0 } else { rng.random_range(-bound..bound) };
            match dtype {
                RandomDtype::F32 => bytes.extend_from_slice(&f32::to_le_bytes(value)),
                RandomDtype::Bf16 => bytes.extend_from_slice(&half::bf16::from_f32(value).to_le_bytes()),
            }
        }
        buffers.push((name, dims, bytes));
    }
    let views = buffers
        .iter()
        .map(|(name, dims, bytes)| {
            TensorView::new(dtype.stored(), dims.clone(), bytes)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Device, Precision, Quantization, Qwen3Model, WeightDtype};

    #[test]
    fn the_qwen3_8b_shape_has_qwen3_8bs_weights() {
        let config = Qwen3Config::from_json_str(&RandomShape::qwen3_8b().config_json().to_string()).unwrap();
        let weights: usize = TensorLayout::for_config(&config)
            .expected(&config)
            .values()
            .map(|dims| dims.iter().product::<usize>())
            .sum();
        // Qwen3-8B: 8.19 billion parameters, 36 layers of 193 million and two 622-million tables.
        assert_eq!(weights, 36 * 192_946_432 + 2 * 151_936 * 4_096 + 4_096);
    }

    #[test]
    fn a_bf16_checkpoint_says_so_and_loads_in_bf16() {
        let dir = tempfile::tempdir().unwrap();
        write_random_checkpoint_as(dir.path(), &RandomShape::small(), 3, RandomDtype::Bf16).unwrap();
        let config: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join("config.json")).unwrap()).unwrap();
        assert_eq!(config["torch_dtype"], "bfloat16");
        let weights = std::fs::metadata(dir.path().join("model.safetensors")).unwrap().len();
        let f32_dir = tempfile::tempdir().unwrap();
        write_random_checkpoint(f32_dir.path(), &RandomShape::small(), 3).unwrap();
        let f32_weights = std::fs::metadata(f32_dir.path().join("model.safetensors")).unwrap().len();
        assert!(weights * 2 > f32_weights - 4096 && weights * 2 < f32_weights + 4096, "{weights} vs {f32_weights}");
        let model = Qwen3Model::load_as(dir.path(), &Device::flex(), Precision::new(WeightDtype::Auto, Quantization::None)).unwrap();
        assert_eq!(model.dtype(), burn::tensor::DType::BF16);
    }
}
