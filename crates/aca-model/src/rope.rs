//! Rotary position embeddings in the rotate-half layout of `transformers`: the first and second halves of
//! each head are the two coordinates of each rotated pair.

use burn::tensor::{Device, Tensor, TensorData};

/// The cosines and sines for a list of token positions, shaped `[tokens, 1, head_dim]` to broadcast over heads.
#[derive(Debug, Clone)]
pub(crate) struct RotaryTables {
    cos: Tensor<3>,
    sin: Tensor<3>,
}

impl RotaryTables {
    /// Tables for `positions` (one per token), computed in f32 as `transformers` does:
    /// `inv_freq[i] = 1 / theta^(2i / head_dim)`, angle = position · inv_freq, both halves alike.
    pub fn new(positions: &[usize], head_dim: usize, theta: f64, device: &Device) -> Self {
        let half = head_dim / 2;
        let inverse_frequencies: Vec<f32> = (0..half)
            .map(|index| {
                let exponent = (2 * index) as f32 / head_dim as f32;
                1.0 / (theta as f32).powf(exponent)
            })
            .collect();
        let mut cos = Vec::with_capacity(positions.len() * head_dim);
        let mut sin = Vec::with_capacity(positions.len() * head_dim);
        for &position in positions {
            for _ in 0..2 {
                for frequency in &inverse_frequencies {
                    let angle = position as f32 * frequency;
                    cos.push(angle.cos());
                    sin.push(angle.sin());
                }
            }
        }
        let shape = [positions.len(), 1, head_dim];
        Self {
            cos: Tensor::from_data(TensorData::new(cos, shape), device),
            sin: Tensor::from_data(TensorData::new(sin, shape), device),
        }
    }

    /// Rotates `input` (`[tokens, heads, head_dim]`): `x·cos + rotate_half(x)·sin`.
    pub fn apply(&self, input: Tensor<3>) -> Tensor<3> {
        let [_, _, head_dim] = input.dims();
        let half = head_dim / 2;
        let first = input.clone().slice_dim(2, 0..half);
        let second = input.clone().slice_dim(2, half..head_dim);
        let rotated = Tensor::cat(vec![second.neg(), first], 2);
        input * self.cos.clone() + rotated * self.sin.clone()
    }
}
