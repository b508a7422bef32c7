//! The trainable parameters of Qwen3 as burn modules, one struct per block, named as in Hugging Face
//! checkpoints; projections are stored `[in, out]` (burn's convention, which LoRA adapts).

use burn::module::{Module, Param, ParamId};
use burn::tensor::Tensor;

/// A linear map `x · W + b`.
#[derive(Module, Debug)]
pub struct Projection {
    /// `[in, out]`.
    pub weight: Param<Tensor<2>>,
    /// `[out]`, when the configuration has attention biases.
    pub bias: Option<Param<Tensor<1>>>,
}

impl Projection {
    /// `[rows, in]` → `[rows, out]`.
    pub fn forward(&self, input: Tensor<2>) -> Tensor<2> {
        let output = input.matmul(self.weight.val());
        match &self.bias {
            Some(bias) => output + bias.val().unsqueeze::<2>(),
            None => output,
        }
    }
}

/// Grouped-query self-attention with per-head q/k RMSNorm.
#[derive(Module, Debug)]
pub struct SelfAttention {
    pub q_proj: Projection,
    pub k_proj: Projection,
    pub v_proj: Projection,
    pub o_proj: Projection,
    /// `[head_dim]`.
    pub q_norm: Param<Tensor<1>>,
    /// `[head_dim]`.
    pub k_norm: Param<Tensor<1>>,
}

/// The SiLU-gated MLP.
#[derive(Module, Debug)]
pub struct Mlp {
    pub gate_proj: Projection,
    pub up_proj: Projection,
    pub down_proj: Projection,
}

/// One decoder layer.
#[derive(Module, Debug)]
pub struct DecoderLayer {
    pub input_layernorm: Param<Tensor<1>>,
    pub self_attn: SelfAttention,
    pub post_attention_layernorm: Param<Tensor<1>>,
    pub mlp: Mlp,
}

/// Every trainable tensor of the text decoder.
#[derive(Module, Debug)]
pub struct Qwen3Params {
    /// `[vocab, hidden]`.
    pub embed_tokens: Param<Tensor<2>>,
    pub layers: Vec<DecoderLayer>,
    /// The final norm, `[hidden]`.
    pub norm: Param<Tensor<1>>,
    /// `[hidden, vocab]`; `None` when tied to the embedding.
    pub lm_head: Option<Param<Tensor<2>>>,
}

/// Hands out parameter ids in construction order, so the same architecture always gets the same ids
/// and an optimizer state saved by one run lines up with the model of the next.
#[derive(Debug, Default)]
pub(crate) struct ParamIds {
    next: u64,
}

impl ParamIds {
    pub fn param<const D: usize>(&mut self, value: Tensor<D>) -> Param<Tensor<D>> {
        self.next += 1;
        Param::initialized(ParamId::from(self.next), value).set_require_grad(true)
    }
}

impl Qwen3Params {
    /// The ids of the projection weights (`*_proj.weight`), the matrices LoRA adapts.
    pub fn projection_ids(&self) -> Vec<ParamId> {
        let mut ids = Vec::new();
        for layer in &self.layers {
            let attention = &layer.self_attn;
            let mlp = &layer.mlp;
            for projection in [
                &attention.q_proj,
                &attention.k_proj,
                &attention.v_proj,
                &attention.o_proj,
                &mlp.gate_proj,
                &mlp.up_proj,
                &mlp.down_proj,
            ] {
                ids.push(projection.weight.id);
            }
        }
        ids
    }
}
