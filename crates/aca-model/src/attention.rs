//! Grouped-query causal attention of one sequence's new tokens over its cached keys and values.

use burn::tensor::activation::softmax;
use burn::tensor::{Tensor, TensorData};

/// Attends `queries` (`[new, heads, head_dim]`, at positions `start..start + new`) over `keys` and
/// `values` (`[start + new, kv_heads, head_dim]`); returns `[new, heads · head_dim]`.
///
/// Query head `h` reads key/value head `h / (heads / kv_heads)`, as `transformers`' `repeat_kv` does; a
/// query at position `p` sees keys `0..=p`.
pub(crate) fn causal_attention(queries: Tensor<3>, keys: Tensor<3>, values: Tensor<3>, start: usize) -> Tensor<2> {
    let [new, heads, head_dim] = queries.dims();
    let [total, kv_heads, _] = keys.dims();
    let groups = heads / kv_heads;
    let scale = (head_dim as f64).powf(-0.5);
    // [new, heads, d] → [heads, new, d] → [kv_heads, groups·new, d]: the heads sharing one kv head side by side.
    let queries = queries.swap_dims(0, 1).reshape([kv_heads, groups * new, head_dim]);
    // [total, kv_heads, d] → [kv_heads, d, total] and [kv_heads, total, d].
    let keys = keys.permute([1, 2, 0]);
    let values = values.swap_dims(0, 1);
    let scores = queries.matmul(keys).mul_scalar(scale);
    let scores = if new > 1 {
        let mask = causal_bias(new, total, start, &scores.device());
        let grouped = scores.reshape([kv_heads, groups, new, total]) + mask.unsqueeze::<4>();
        grouped.reshape([kv_heads, groups * new, total])
    } else {
        scores
    };
    let weights = softmax(scores, 2);
    // [kv_heads, groups·new, d] → [heads, new, d] → [new, heads, d] → [new, heads·d].
    weights
        .matmul(values)
        .reshape([heads, new, head_dim])
        .swap_dims(0, 1)
        .reshape([new, heads * head_dim])
}

/// `[new, total]`: 0 where query `i` (position `start + i`) may see key `j`, −∞ where `j` lies in its future.
fn causal_bias(new: usize, total: usize, start: usize, device: &burn::tensor::Device) -> Tensor<2> {
    let mut bias = Vec::with_capacity(new * total);
    for query in 0..new {
        let position = start + query;
        bias.extend((0..total).map(|key| if key <= position { 0.0f32 } else { f32::NEG_INFINITY }));
    }
    Tensor::from_data(TensorData::new(bias, [new, total]), device)
}
