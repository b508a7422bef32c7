//! The decoder's weights on a device, laid out for the forward pass: projections as `[in, out]`,
//! q/k/v fused into one matrix and gate/up into another.

use std::collections::HashMap;

use burn::tensor::{DType, Device, Tensor};

use crate::checkpoint::{CheckpointFiles, HostTensor};
use crate::config::Qwen3Config;
use crate::error::ModelError;
use crate::layout::{LM_HEAD, TensorLayout};

/// A linear map `x · W + b` with `W` stored as `[in, out]`.
#[derive(Debug, Clone)]
pub(crate) struct Projection {
    pub weight: Tensor<2>,
    pub bias: Option<Tensor<1>>,
}

impl Projection {
    /// `[rows, in]` → `[rows, out]`.
    pub fn forward(&self, input: Tensor<2>) -> Tensor<2> {
        let output = input.matmul(self.weight.clone());
        match &self.bias {
            Some(bias) => output + bias.clone().unsqueeze::<2>(),
            None => output,
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct AttentionWeights {
    /// q, k and v projections side by side: `[hidden, (heads + 2·kv_heads)·head_dim]`.
    pub qkv: Projection,
    /// `[heads·head_dim, hidden]`.
    pub output: Projection,
    /// Per-head RMSNorm weights, `[head_dim]`.
    pub q_norm: Tensor<1>,
    pub k_norm: Tensor<1>,
}

#[derive(Debug, Clone)]
pub(crate) struct MlpWeights {
    /// gate and up projections side by side: `[hidden, 2·intermediate]`.
    pub gate_up: Tensor<2>,
    /// `[intermediate, hidden]`.
    pub down: Tensor<2>,
}

#[derive(Debug, Clone)]
pub(crate) struct LayerWeights {
    pub input_norm: Tensor<1>,
    pub attention: AttentionWeights,
    pub post_attention_norm: Tensor<1>,
    pub mlp: MlpWeights,
}

#[derive(Debug, Clone)]
pub(crate) struct Qwen3Weights {
    /// `[vocab, hidden]`.
    pub embed_tokens: Tensor<2>,
    pub layers: Vec<LayerWeights>,
    /// `[hidden]`.
    pub final_norm: Tensor<1>,
    /// `[hidden, vocab]` (the transposed embedding when tied).
    pub lm_head: Tensor<2>,
}

impl Qwen3Weights {
    /// Reads a validated checkpoint's decoder tensors onto `device`, each converted to `dtype`.
    pub fn load(
        config: &Qwen3Config,
        layout: &TensorLayout,
        files: &CheckpointFiles,
        device: &Device,
        dtype: DType,
    ) -> Result<Self, ModelError> {
        let mut store = DeviceTensors {
            tied_embedding: config.tie_word_embeddings.then(|| layout.embed_tokens()),
            vectors: HashMap::new(),
            matrices: HashMap::new(),
        };
        files.load(
            |name| layout.is_decoder_tensor(config, name),
            |name, host| {
                store.insert(name, host, device, dtype);
                Ok(())
            },
        )?;
        store.assemble(config, layout)
    }

    /// The dtype the weights are held and computed in.
    pub fn dtype(&self) -> DType {
        self.embed_tokens.dtype()
    }
}

/// Tensors read from the checkpoint, by name, already on the device (projections transposed).
struct DeviceTensors {
    /// With tied embeddings, the embedding's name: it also becomes the (transposed, contiguous) output head.
    tied_embedding: Option<String>,
    vectors: HashMap<String, Tensor<1>>,
    matrices: HashMap<String, Tensor<2>>,
}

impl DeviceTensors {
    fn insert(&mut self, name: &str, host: HostTensor, device: &Device, dtype: DType) {
        let options = (device, dtype);
        match host.shape.clone().as_slice() {
            [length] => {
                let data = host.into_data([*length]);
                self.vectors.insert(name.to_string(), Tensor::from_data(data, options));
            }
            [rows, columns] => {
                if self.tied_embedding.as_deref() == Some(name) {
                    let head = host.transposed(*rows, *columns);
                    self.matrices
                        .insert(LM_HEAD.to_string(), Tensor::from_data(head, options));
                }
                let is_projection = name.ends_with("_proj.weight") || name == LM_HEAD;
                let data = if is_projection {
                    host.transposed(*rows, *columns)
                } else {
                    host.into_data([*rows, *columns])
                };
                self.matrices.insert(name.to_string(), Tensor::from_data(data, options));
            }
            // Validation has already refused tensors of any other rank.
            _ => {}
        }
    }

    fn vector(&mut self, name: &str) -> Result<Tensor<1>, ModelError> {
        self.vectors.remove(name).ok_or_else(|| missing(name))
    }

    fn matrix(&mut self, name: &str) -> Result<Tensor<2>, ModelError> {
        self.matrices.remove(name).ok_or_else(|| missing(name))
    }

    fn projection(&mut self, name: &str, with_bias: bool) -> Result<Projection, ModelError> {
        let weight = self.matrix(&format!("{name}.weight"))?;
        let bias = if with_bias {
            Some(self.vector(&format!("{name}.bias"))?)
        } else {
            None
        };
        Ok(Projection { weight, bias })
    }

    fn assemble(mut self, config: &Qwen3Config, layout: &TensorLayout) -> Result<Qwen3Weights, ModelError> {
        let embed_tokens = self.matrix(&layout.embed_tokens())?;
        let final_norm = self.vector(&layout.final_norm())?;
        let lm_head = self.matrix(LM_HEAD)?;
        let mut layers = Vec::with_capacity(config.num_hidden_layers);
        for layer in 0..config.num_hidden_layers {
            let name = |suffix: &str| layout.layer_tensor(layer, suffix);
            let bias = config.attention_bias;
            let q = self.projection(&name("self_attn.q_proj"), bias)?;
            let k = self.projection(&name("self_attn.k_proj"), bias)?;
            let v = self.projection(&name("self_attn.v_proj"), bias)?;
            let qkv = Projection {
                weight: Tensor::cat(vec![q.weight, k.weight, v.weight], 1),
                bias: match (q.bias, k.bias, v.bias) {
                    (Some(q), Some(k), Some(v)) => Some(Tensor::cat(vec![q, k, v], 0)),
                    _ => None,
                },
            };
            let attention = AttentionWeights {
                qkv,
                output: self.projection(&name("self_attn.o_proj"), bias)?,
                q_norm: self.vector(&name("self_attn.q_norm.weight"))?,
                k_norm: self.vector(&name("self_attn.k_norm.weight"))?,
            };
            let gate = self.matrix(&name("mlp.gate_proj.weight"))?;
            let up = self.matrix(&name("mlp.up_proj.weight"))?;
            let mlp = MlpWeights {
                gate_up: Tensor::cat(vec![gate, up], 1),
                down: self.matrix(&name("mlp.down_proj.weight"))?,
            };
            layers.push(LayerWeights {
                input_norm: self.vector(&name("input_layernorm.weight"))?,
                attention,
                post_attention_norm: self.vector(&name("post_attention_layernorm.weight"))?,
                mlp,
            });
        }
        Ok(Qwen3Weights {
            embed_tokens,
            layers,
            final_norm,
            lm_head,
        })
    }
}

fn missing(name: &str) -> ModelError {
    ModelError::Checkpoint {
        problems: vec![format!("tensor `{name}` was not found while loading")],
    }
}
