//! Rotary position embeddings in the rotate-half layout of `transformers`: the first and second halves of
//! each head are the two coordinates of each rotated pair. Text tokens rotate by one position; Qwen3-VL's
//! tokens by three interleaved ones (M-RoPE), and its vision patches by a row and a column.

use burn::tensor::{DType, Device, Tensor, TensorData};

use crate::host::{self, rounded};

/// The cosines and sines for a list of tokens, shaped `[tokens, 1, head_dim]` to broadcast over heads.
#[derive(Debug, Clone)]
pub struct RotaryTables {
    cos: Tensor<3>,
    sin: Tensor<3>,
}

/// `inv_freq[i] = 1 / theta^(2i / dim)` for `i < count`, in f32 as `transformers` computes it.
pub(crate) fn inverse_frequencies(count: usize, dim: usize, theta: f64) -> Vec<f32> {
    (0..count)
        .map(|index| {
            let exponent = (2 * index) as f32 / dim as f32;
            1.0 / (theta as f32).powf(exponent)
        })
        .collect()
}

/// Which of the temporal (0), height (1) and width (2) positions drives each rotary frequency under
/// interleaved M-RoPE: height takes frequencies 1, 4, 7, … below `3 · section[1]`, width 2, 5, 8, …
/// below `3 · section[2]`, and time the rest.
pub(crate) fn mrope_axes(half: usize, section: [usize; 3]) -> Vec<usize> {
    (0..half)
        .map(|index| match index % 3 {
            1 if index < 3 * section[1] => 1,
            2 if index < 3 * section[2] => 2,
            _ => 0,
        })
        .collect()
}

impl RotaryTables {
    /// Tables for text `positions` (one per token): angle = position · inv_freq, both halves alike.
    pub fn new(positions: &[usize], head_dim: usize, theta: f64, device: &Device) -> Self {
        let half = head_dim / 2;
        let frequencies = inverse_frequencies(half, head_dim, theta);
        let mut angles = Vec::with_capacity(positions.len() * half);
        for &position in positions {
            angles.extend(frequencies.iter().map(|frequency| position as f32 * frequency));
        }
        Self::from_half_angles(&angles, positions.len(), head_dim, device)
    }

    /// Tables for tokens with (temporal, height, width) positions under interleaved M-RoPE.
    pub fn multimodal(
        positions: &[[usize; 3]],
        head_dim: usize,
        theta: f64,
        section: [usize; 3],
        device: &Device,
    ) -> Self {
        let half = head_dim / 2;
        let frequencies = inverse_frequencies(half, head_dim, theta);
        let axes = mrope_axes(half, section);
        let mut angles = Vec::with_capacity(positions.len() * half);
        for position in positions {
            angles.extend(
                frequencies
                    .iter()
                    .zip(&axes)
                    .map(|(frequency, &axis)| position[axis] as f32 * frequency),
            );
        }
        Self::from_half_angles(&angles, positions.len(), head_dim, device)
    }

    /// Tables from `tokens × head_dim/2` angles, each row used for both halves of the head.
    pub fn from_half_angles(angles: &[f32], tokens: usize, head_dim: usize, device: &Device) -> Self {
        let half = head_dim / 2;
        let mut cos = Vec::with_capacity(tokens * head_dim);
        let mut sin = Vec::with_capacity(tokens * head_dim);
        for row in angles.chunks_exact(half) {
            for _ in 0..2 {
                cos.extend(row.iter().map(|angle| angle.cos()));
                sin.extend(row.iter().map(|angle| angle.sin()));
            }
        }
        let shape = [tokens, 1, head_dim];
        Self {
            cos: Tensor::from_data(TensorData::new(cos, shape), device),
            sin: Tensor::from_data(TensorData::new(sin, shape), device),
        }
    }

    /// The tables rounded to `dtype` (computed in f32, then cast to the activations' dtype as
    /// `transformers` does).
    pub fn cast(self, dtype: DType) -> Self {
        Self {
            cos: self.cos.cast(dtype),
            sin: self.sin.cast(dtype),
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

    /// [`Self::apply`] for inference: on the CPU one pass over the values, each product and sum
    /// rounded as [`Self::apply`] rounds them, instead of burn's seven operations; elsewhere
    /// [`Self::apply`] itself. Not differentiable: the trainer keeps [`Self::apply`].
    pub(crate) fn apply_inference(&self, input: Tensor<3>) -> Tensor<3> {
        let (device, dtype) = (input.device(), input.dtype());
        if !host::on_host(&device, &[dtype, self.cos.dtype(), self.sin.dtype()]) {
            return self.apply(input);
        }
        let dims @ [tokens, heads, head_dim] = input.dims();
        let (Some(cos), Some(sin)) = (host::widened(self.cos.clone()), host::widened(self.sin.clone())) else {
            return self.apply(input);
        };
        if cos.len() != tokens * head_dim {
            return self.apply(input);
        }
        let mut values = match host::values_of(input) {
            Ok(values) => values,
            Err(input) => return self.apply(input),
        };
        let half = head_dim / 2;
        let work = values.len();
        host::each_row(&mut values, heads * head_dim, work, |token, rows| {
            let (cos, sin) = (&cos[token * head_dim..][..head_dim], &sin[token * head_dim..][..head_dim]);
            for row in rows.chunks_exact_mut(head_dim) {
                let (first, second) = row.split_at_mut(half);
                for i in 0..half {
                    let (x, y) = (first[i], second[i]);
                    first[i] = rounded(rounded(x * cos[i], dtype) - rounded(y * sin[i], dtype), dtype);
                    second[i] = rounded(rounded(y * cos[half + i], dtype) + rounded(x * sin[half + i], dtype), dtype);
                }
            }
        });
        host::tensor(values, dims, &device, dtype)
    }
}

#[cfg(test)]
mod tests {
    use burn::tensor::{Distribution, Tolerance};

    use super::*;

    #[test]
    fn the_cpu_pass_rotates_as_burns_operations_do() {
        let device = Device::flex();
        for tokens in [1, 600] {
            let positions: Vec<usize> = (0..tokens).map(|t| 3 * t + 1).collect();
            let tables = RotaryTables::new(&positions, 64, 1e6, &device);
            let input: Tensor<3> = Tensor::random([tokens, 4, 64], Distribution::Normal(0.0, 2.0), &device);
            tables
                .apply_inference(input.clone())
                .into_data()
                .assert_approx_eq::<f32>(&tables.apply(input.clone()).into_data(), Tolerance::rel_abs(1e-6, 1e-6));
            // bf16 rounds each product and each sum as burn's bf16 operations do.
            let (tables, input) = (tables.cast(DType::BF16), input.cast(DType::BF16));
            let got = tables.apply_inference(input.clone());
            assert_eq!(got.dtype(), DType::BF16);
            got.cast(DType::F32)
                .into_data()
                .assert_approx_eq::<f32>(&tables.apply(input).cast(DType::F32).into_data(), Tolerance::rel_abs(1e-6, 1e-6));
        }
    }

    #[test]
    fn interleaved_sections_assign_axes_as_the_reference() {
        assert_eq!(mrope_axes(8, [4, 2, 2]), vec![0, 1, 2, 0, 1, 2, 0, 0]);
        let released = mrope_axes(64, [24, 20, 20]);
        assert_eq!(released.iter().filter(|&&axis| axis == 1).count(), 20);
        assert_eq!(released.iter().filter(|&&axis| axis == 2).count(), 20);
        assert_eq!(&released[57..], &[0, 1, 2, 0, 0, 0, 0]);
    }

    #[test]
    fn equal_positions_on_every_axis_are_plain_rope() {
        let device = Device::flex();
        let plain = RotaryTables::new(&[0, 3, 17], 16, 1e4, &device);
        let multimodal = RotaryTables::multimodal(&[[0; 3], [3; 3], [17; 3]], 16, 1e4, [4, 2, 2], &device);
        let difference: f32 = (plain.cos - multimodal.cos).abs().max().into_scalar();
        assert_eq!(difference, 0.0);
        let difference: f32 = (plain.sin - multimodal.sin).abs().max().into_scalar();
        assert_eq!(difference, 0.0);
    }
}
