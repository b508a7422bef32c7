//! The full-sequence causal forward pass over a batch of right-padded sequences, with the math of
//! `aca_model::Qwen3Model` (RMSNorm in f32, q/k norm, rotate-half RoPE, grouped-query attention, SiLU MLP).

use aca_model::{Qwen3Config, RotaryTables, rms_norm};
use burn::tensor::activation::{silu, softmax};
use burn::tensor::{Device, Int, Tensor, TensorData};

use crate::model::params::{DecoderLayer, Qwen3Params};

impl Qwen3Params {
    /// `ids` `[batch, length]` → logits `[batch, length, vocab]`. Position `t` sees positions `0..=t`
    /// of its own sequence, so padding after a sequence never changes its logits.
    pub fn forward(&self, config: &Qwen3Config, ids: Tensor<2, Int>) -> Tensor<3> {
        let [batch, length] = ids.dims();
        self.logits(self.hidden(config, ids))
            .reshape([batch, length, config.vocab_size])
    }

    /// `ids` `[batch, length]` → the final-normed hidden states `[batch·length, hidden]`.
    pub fn hidden(&self, config: &Qwen3Config, ids: Tensor<2, Int>) -> Tensor<2> {
        let [batch, length] = ids.dims();
        let device = ids.device();
        let flat = ids.reshape([batch * length]);
        // [batch·length, hidden]
        let mut hidden = self.embed_tokens.val().select(0, flat);
        let positions: Vec<usize> = (0..batch).flat_map(|_| 0..length).collect();
        let rotary = RotaryTables::new(&positions, config.head_dim, config.rope_theta, &device);
        let bias = causal_bias(length, &device);
        for layer in &self.layers {
            hidden = layer.forward(config, hidden, &rotary, &bias, batch);
        }
        rms_norm(hidden, &self.norm.val(), config.rms_norm_eps)
    }

    /// Normed hidden states `[rows, hidden]` → logits `[rows, vocab]`.
    pub fn logits(&self, hidden: Tensor<2>) -> Tensor<2> {
        let head = match &self.lm_head {
            Some(head) => head.val(),
            None => self.embed_tokens.val().transpose(),
        };
        hidden.matmul(head)
    }
}

impl DecoderLayer {
    /// `[batch·length, hidden]` → the same shape, for `batch` sequences of equal (padded) length.
    fn forward(
        &self,
        config: &Qwen3Config,
        hidden: Tensor<2>,
        rotary: &RotaryTables,
        bias: &Tensor<4>,
        batch: usize,
    ) -> Tensor<2> {
        let eps = config.rms_norm_eps;
        let [rows, _] = hidden.dims();
        let length = rows / batch;
        let (heads, kv_heads, head_dim) = (config.num_attention_heads, config.num_key_value_heads, config.head_dim);
        let groups = heads / kv_heads;
        let attention = &self.self_attn;

        let normed = rms_norm(hidden.clone(), &self.input_layernorm.val(), eps);
        // [rows, heads, head_dim], normed per head and rotated.
        let queries = attention
            .q_proj
            .forward(normed.clone())
            .reshape([rows, heads, head_dim]);
        let keys = attention
            .k_proj
            .forward(normed.clone())
            .reshape([rows, kv_heads, head_dim]);
        let values = attention.v_proj.forward(normed).reshape([rows, kv_heads, head_dim]);
        let queries = rotary.apply(rms_norm(queries, &attention.q_norm.val(), eps));
        let keys = rotary.apply(rms_norm(keys, &attention.k_norm.val(), eps));

        // [batch, heads, length, d] → [batch, kv_heads, groups·length, d]: query head h reads kv head h / groups.
        let queries = queries
            .reshape([batch, length, heads, head_dim])
            .swap_dims(1, 2)
            .reshape([batch, kv_heads, groups * length, head_dim]);
        // [batch, kv_heads, d, length] and [batch, kv_heads, length, d].
        let keys = keys.reshape([batch, length, kv_heads, head_dim]).permute([0, 2, 3, 1]);
        let values = values.reshape([batch, length, kv_heads, head_dim]).swap_dims(1, 2);
        let scale = (head_dim as f64).powf(-0.5);
        // [batch·kv_heads, groups, length, length] + the causal bias, then back.
        let scores = queries
            .matmul(keys)
            .mul_scalar(scale)
            .reshape([batch * kv_heads, groups, length, length])
            + bias.clone();
        let weights = softmax(scores.reshape([batch, kv_heads, groups * length, length]), 3);
        // [batch, kv_heads, groups·length, d] → [batch, heads, length, d] → [rows, heads·d].
        let attended = weights
            .matmul(values)
            .reshape([batch, heads, length, head_dim])
            .swap_dims(1, 2)
            .reshape([rows, heads * head_dim]);
        let hidden = hidden + attention.o_proj.forward(attended);

        let normed = rms_norm(hidden.clone(), &self.post_attention_layernorm.val(), eps);
        let gate = self.mlp.gate_proj.forward(normed.clone());
        let up = self.mlp.up_proj.forward(normed);
        hidden + self.mlp.down_proj.forward(silu(gate) * up)
    }
}

/// `[1, 1, length, length]`: 0 where a query may see a key, −∞ where the key lies in its future.
fn causal_bias(length: usize, device: &Device) -> Tensor<4> {
    let mut bias = Vec::with_capacity(length * length);
    for query in 0..length {
        bias.extend((0..length).map(|key| if key <= query { 0.0f32 } else { f32::NEG_INFINITY }));
    }
    Tensor::from_data(TensorData::new(bias, [1, 1, length, length]), device)
}

/// Right-pads `sequences` with `pad` to the longest one: `[batch, length]` ids on `device`.
pub fn pad_batch(sequences: &[&[u32]], pad: u32, device: &Device) -> Tensor<2, Int> {
    let length = sequences.iter().map(|sequence| sequence.len()).max().unwrap_or(0);
    let mut ids = Vec::with_capacity(sequences.len() * length);
    for sequence in sequences {
        ids.extend(sequence.iter().map(|&id| i64::from(id)));
        ids.extend(std::iter::repeat_n(i64::from(pad), length - sequence.len()));
    }
    Tensor::from_data(TensorData::new(ids, [sequences.len(), length]), device)
}
