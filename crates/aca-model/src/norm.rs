//! RMSNorm over the last dimension, computed in f32: `x / sqrt(mean(x²) + eps) · weight`.

use burn::tensor::Tensor;

/// Normalises every vector along the last dimension of `input` and scales it by `weight` (`[last]`).
pub fn rms_norm<const D: usize>(input: Tensor<D>, weight: &Tensor<1>, eps: f64) -> Tensor<D> {
    let mean_square = input.clone().square().mean_dim(D - 1);
    let inverse_root = mean_square.add_scalar(eps).sqrt().recip();
    input * inverse_root * weight.clone().unsqueeze::<D>()
}
