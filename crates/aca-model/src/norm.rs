//! RMSNorm over the last dimension, computed in f32: `x / sqrt(mean(x²) + eps) · weight`.

use burn::tensor::{DType, Tensor};

use crate::host::{self, rounded};

/// Normalises every vector along the last dimension of `input` and scales it by `weight` (`[last]`).
///
/// As in `transformers`, a bf16 or f16 input is normalised in f32, rounded back to its dtype, then
/// scaled by the weight (of the input's dtype) in that dtype; an f32 input is not cast at all.
pub fn rms_norm<const D: usize>(input: Tensor<D>, weight: &Tensor<1>, eps: f64) -> Tensor<D> {
    let dtype = input.dtype();
    let input = input.cast(DType::F32);
    let mean_square = input.clone().square().mean_dim(D - 1);
    let inverse_root = mean_square.add_scalar(eps).sqrt().recip();
    (input * inverse_root).cast(dtype) * weight.clone().unsqueeze::<D>()
}

/// [`rms_norm`] for inference: on the CPU one pass over the values, rounded as [`rms_norm`] rounds
/// them, instead of burn's seven operations; elsewhere [`rms_norm`] itself. Not differentiable: the
/// trainer keeps [`rms_norm`].
pub(crate) fn rms_norm_inference<const D: usize>(input: Tensor<D>, weight: &Tensor<1>, eps: f64) -> Tensor<D> {
    let (device, dtype) = (input.device(), input.dtype());
    if !host::on_host(&device, &[dtype, weight.dtype()]) {
        return rms_norm(input, weight, eps);
    }
    let dims = input.dims();
    let width = dims[D - 1];
    let Some(scale) = host::widened(weight.clone()) else {
        return rms_norm(input, weight, eps);
    };
    let mut values = match host::values_of(input) {
        Ok(values) => values,
        Err(input) => return rms_norm(input, weight, eps),
    };
    let work = values.len();
    host::each_row(&mut values, width, work, |_, row| {
        let mean_square = row.iter().map(|v| v * v).sum::<f32>() / width as f32;
        let inverse_root = 1.0 / (mean_square + eps as f32).sqrt();
        for (value, &w) in row.iter_mut().zip(&scale) {
            *value = rounded(rounded(*value * inverse_root, dtype) * w, dtype);
        }
    });
    host::tensor(values, dims, &device, dtype)
}

#[cfg(test)]
mod tests {
    use burn::tensor::{Device, Distribution, Tolerance};

    use super::*;

    #[test]
    fn the_cpu_pass_normalises_as_burns_operations_do() {
        let device = Device::flex();
        // One decoding row and a prompt's worth of rows (the parallel pass), in f32 and in bf16.
        for rows in [1, 300] {
            let input: Tensor<2> = Tensor::random([rows, 128], Distribution::Normal(0.0, 3.0), &device);
            let weight: Tensor<1> = Tensor::random([128], Distribution::Normal(1.0, 0.3), &device);
            let expected = rms_norm(input.clone(), &weight, 1e-6);
            let got = rms_norm_inference(input.clone(), &weight, 1e-6);
            got.into_data()
                .assert_approx_eq::<f32>(&expected.into_data(), Tolerance::rel_abs(1e-5, 1e-6));

            let (input, weight) = (input.cast(DType::BF16), weight.cast(DType::BF16));
            let expected = rms_norm(input.clone(), &weight, 1e-6);
            let got = rms_norm_inference(input, &weight, 1e-6);
            assert_eq!(got.dtype(), DType::BF16);
            // The sums' order differs: where it moves the normalised value across a rounding
            // boundary, the two values are one bf16 step apart, and the weight's product may
            // round that to two (2⁻⁷ relative at most each).
            got.cast(DType::F32)
                .into_data()
                .assert_approx_eq::<f32>(&expected.cast(DType::F32).into_data(), Tolerance::rel_abs(1.6e-2, 1e-3));
        }
        // Three dimensions (per-head norms).
        let heads: Tensor<3> = Tensor::random([2, 4, 16], Distribution::Normal(0.0, 1.0), &device);
        let weight: Tensor<1> = Tensor::random([16], Distribution::Normal(1.0, 0.3), &device);
        rms_norm_inference(heads.clone(), &weight, 1e-6)
            .into_data()
            .assert_approx_eq::<f32>(&rms_norm(heads, &weight, 1e-6).into_data(), Tolerance::rel_abs(1e-5, 1e-6));
    }
}
