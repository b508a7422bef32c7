//! The tensor names and shapes a Qwen3 checkpoint must hold for its configuration, and the check that it
//! holds exactly those.

use std::collections::BTreeMap;

use crate::checkpoint::{CheckpointFiles, SUPPORTED_DTYPES};
use crate::config::Qwen3Config;
use crate::error::ModelError;

/// Where the text decoder's tensors live in a checkpoint.
#[derive(Debug, Clone)]
pub struct TensorLayout {
    /// Prefix of the decoder tensors: `model.` (Qwen3) or `model.language_model.` (Qwen3-VL).
    pub decoder_prefix: &'static str,
    /// Prefixes of tensors that belong to other towers (the vision encoder), left for their own loader.
    pub other_towers: &'static [&'static str],
}

/// The output head's tensor name, outside the decoder prefix in every layout.
pub const LM_HEAD: &str = "lm_head.weight";

impl TensorLayout {
    pub fn for_config(config: &Qwen3Config) -> Self {
        if config.nested_text_config {
            Self {
                decoder_prefix: "model.language_model.",
                other_towers: &["model.visual."],
            }
        } else {
            Self {
                decoder_prefix: "model.",
                other_towers: &[],
            }
        }
    }

    pub fn embed_tokens(&self) -> String {
        format!("{}embed_tokens.weight", self.decoder_prefix)
    }

    pub fn final_norm(&self) -> String {
        format!("{}norm.weight", self.decoder_prefix)
    }

    /// Name of a tensor of decoder layer `layer`, e.g. `self_attn.q_proj.weight`.
    pub fn layer_tensor(&self, layer: usize, suffix: &str) -> String {
        format!("{}layers.{layer}.{suffix}", self.decoder_prefix)
    }

    /// Every tensor the configuration requires, with its shape as stored (`[out, in]` for projections).
    pub fn expected(&self, config: &Qwen3Config) -> BTreeMap<String, Vec<usize>> {
        let hidden = config.hidden_size;
        let head_dim = config.head_dim;
        let q_width = config.num_attention_heads * head_dim;
        let kv_width = config.num_key_value_heads * head_dim;
        let inter = config.intermediate_size;
        let mut expected = BTreeMap::new();
        expected.insert(self.embed_tokens(), vec![config.vocab_size, hidden]);
        expected.insert(self.final_norm(), vec![hidden]);
        if !config.tie_word_embeddings {
            expected.insert(LM_HEAD.to_string(), vec![config.vocab_size, hidden]);
        }
        for layer in 0..config.num_hidden_layers {
            let mut add = |suffix: &str, shape: Vec<usize>| {
                expected.insert(self.layer_tensor(layer, suffix), shape);
            };
            add("input_layernorm.weight", vec![hidden]);
            add("post_attention_layernorm.weight", vec![hidden]);
            add("self_attn.q_proj.weight", vec![q_width, hidden]);
            add("self_attn.k_proj.weight", vec![kv_width, hidden]);
            add("self_attn.v_proj.weight", vec![kv_width, hidden]);
            add("self_attn.o_proj.weight", vec![hidden, q_width]);
            if config.attention_bias {
                add("self_attn.q_proj.bias", vec![q_width]);
                add("self_attn.k_proj.bias", vec![kv_width]);
                add("self_attn.v_proj.bias", vec![kv_width]);
                add("self_attn.o_proj.bias", vec![hidden]);
            }
            add("self_attn.q_norm.weight", vec![head_dim]);
            add("self_attn.k_norm.weight", vec![head_dim]);
            add("mlp.gate_proj.weight", vec![inter, hidden]);
            add("mlp.up_proj.weight", vec![inter, hidden]);
            add("mlp.down_proj.weight", vec![hidden, inter]);
        }
        expected
    }

    /// The `[in, out]` shapes of the projections a decoder layer holds once loaded: q/k/v fused, the
    /// output, gate/up fused, down.
    pub fn fused_projections(config: &Qwen3Config) -> [[usize; 2]; 4] {
        let hidden = config.hidden_size;
        let q_width = config.num_attention_heads * config.head_dim;
        let kv_width = config.num_key_value_heads * config.head_dim;
        let inter = config.intermediate_size;
        [
            [hidden, q_width + 2 * kv_width],
            [q_width, hidden],
            [hidden, 2 * inter],
            [inter, hidden],
        ]
    }

    /// Whether `name` is a decoder layer's projection weight (q/k/v, o, gate, up or down).
    pub fn is_layer_projection(&self, name: &str) -> bool {
        name.strip_prefix(self.decoder_prefix)
            .is_some_and(|rest| rest.starts_with("layers.") && rest.ends_with("_proj.weight"))
    }

    /// Whether a tensor is read by the text decoder loader (tensors of other towers are not).
    pub fn is_decoder_tensor(&self, config: &Qwen3Config, name: &str) -> bool {
        !self.belongs_to_other_tower(name) && (name != LM_HEAD || !config.tie_word_embeddings)
    }

    fn belongs_to_other_tower(&self, name: &str) -> bool {
        self.other_towers.iter().any(|prefix| name.starts_with(prefix))
    }

    /// Checks that the checkpoint holds exactly the expected tensors, in the expected shapes and supported
    /// dtypes, and reports every difference at once.
    ///
    /// With tied embeddings an `lm_head.weight` of the right shape is tolerated (and ignored), as
    /// `transformers` does.
    pub fn validate(&self, config: &Qwen3Config, files: &CheckpointFiles) -> Result<(), ModelError> {
        let expected = self.expected(config);
        let mut problems = Vec::new();
        for (name, shape) in &expected {
            match files.tensors.get(name) {
                None => problems.push(format!("missing tensor `{name}` (expected shape {shape:?})")),
                Some(entry) if &entry.shape != shape => problems.push(format!(
                    "tensor `{name}` has shape {:?}, expected {shape:?}",
                    entry.shape
                )),
                Some(entry) if !SUPPORTED_DTYPES.contains(&entry.dtype.as_str()) => problems.push(format!(
                    "tensor `{name}` has dtype {}, supported: {}",
                    entry.dtype,
                    SUPPORTED_DTYPES.join(", ")
                )),
                Some(_) => {}
            }
        }
        for (name, entry) in &files.tensors {
            if expected.contains_key(name) || self.belongs_to_other_tower(name) {
                continue;
            }
            let tolerated_tied_head =
                name == LM_HEAD && config.tie_word_embeddings && entry.shape == [config.vocab_size, config.hidden_size];
            if !tolerated_tied_head {
                problems.push(format!(
                    "unexpected tensor `{name}` (shape {:?}) in {}",
                    entry.shape,
                    entry.file.display()
                ));
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(ModelError::Checkpoint { problems })
        }
    }
}
