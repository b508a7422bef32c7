//! RMSNorm over the last dimension, computed in f32: `x / sqrt(mean(x²) + eps) · weight`.

use burn::tensor::{DType, Tensor};

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
