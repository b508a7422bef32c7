//! Grouped-query causal attention of one sequence's new tokens over its cached keys and values.

use burn::tensor::activation::softmax;
use burn::tensor::module::attention;
use burn::tensor::ops::AttentionModuleOptions;
use burn::tensor::{DType, Device, Tensor, TensorData};
use rayon::prelude::*;

use crate::host::{self, PARALLEL_VALUES, rounded};

/// The attention kernels the model's device offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AttentionKernels {
    /// burn's fused kernel takes grouped key/value heads on this backend (the CPU's).
    fused: bool,
}

impl AttentionKernels {
    pub fn for_device(device: &Device) -> Self {
        AttentionKernels {
            fused: *device == Device::flex(),
        }
    }

    /// The kernel for `new` query tokens: on the CPU the fused one for a prompt and the host pass
    /// for a single query (a decode step); elsewhere the composed one.
    pub fn for_queries(self, new: usize) -> AttentionKernel {
        match (self.fused, new) {
            (true, 1) => AttentionKernel::Host,
            (true, _) => AttentionKernel::Fused,
            (false, _) => AttentionKernel::Composed,
        }
    }
}

/// How attention is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AttentionKernel {
    /// burn's fused attention, one pass per query head with grouped key/value heads and the causal
    /// offset built in: the CPU backend's kernel (bf16 and f16 inputs are computed in f32).
    Fused,
    /// Scores, causal bias, softmax and the value product as separate tensor operations, the heads
    /// sharing a key/value head batched together: what every backend runs (the GPU backends' fused
    /// kernels do not take fewer key/value heads than query heads). The scores are masked and softmaxed
    /// in f32 and rounded back to the inputs' dtype, as `transformers`' eager attention does.
    Composed,
    /// One query on the CPU: one pass over the cached keys and values on the host, rounded as the
    /// composed kernel rounds (scores and probabilities in the inputs' dtype, softmax in f32),
    /// instead of the composed kernel's ten or so small operations and its copy of the keys.
    Host,
}

impl AttentionKernel {
    /// Attends `queries` (`[new, heads, head_dim]`, at positions `start..start + new`) over `keys` and
    /// `values` (`[start + new, kv_heads, head_dim]`); returns `[new, heads · head_dim]`.
    ///
    /// Query head `h` reads key/value head `h / (heads / kv_heads)`, as `transformers`' `repeat_kv`
    /// does; a query at position `p` sees keys `0..=p`.
    pub fn attend(self, queries: Tensor<3>, keys: Tensor<3>, values: Tensor<3>, start: usize) -> Tensor<2> {
        match self {
            AttentionKernel::Fused => fused(queries, keys, values),
            AttentionKernel::Composed => composed(queries, keys, values, start),
            AttentionKernel::Host => host_attention(queries, keys, values, start),
        }
    }
}

fn fused(queries: Tensor<3>, keys: Tensor<3>, values: Tensor<3>) -> Tensor<2> {
    let [new, heads, head_dim] = queries.dims();
    // [tokens, heads, d] → [1, heads, tokens, d]. The causal mask is aligned at the last query and
    // the last key, so the new tokens see every cached position before them.
    let heads_first = |tensor: Tensor<3>| tensor.swap_dims(0, 1).unsqueeze::<4>();
    let options = AttentionModuleOptions {
        is_causal: true,
        ..AttentionModuleOptions::default()
    };
    attention(
        heads_first(queries),
        heads_first(keys),
        heads_first(values),
        None,
        None,
        options,
    )
    .squeeze_dim::<3>(0)
    .swap_dims(0, 1)
    .reshape([new, heads * head_dim])
}

fn composed(queries: Tensor<3>, keys: Tensor<3>, values: Tensor<3>, start: usize) -> Tensor<2> {
    let [new, heads, head_dim] = queries.dims();
    let [total, kv_heads, _] = keys.dims();
    let groups = heads / kv_heads;
    let scale = (head_dim as f64).powf(-0.5);
    // [new, heads, d] → [heads, new, d] → [kv_heads, groups·new, d]: the heads sharing one kv head side by side.
    let queries = queries.swap_dims(0, 1).reshape([kv_heads, groups * new, head_dim]);
    // [total, kv_heads, d] → [kv_heads, d, total] and [kv_heads, total, d].
    let keys = keys.permute([1, 2, 0]);
    let values = values.swap_dims(0, 1);
    let dtype = queries.dtype();
    let scores = queries.matmul(keys).mul_scalar(scale).cast(DType::F32);
    let scores = if new > 1 {
        let mask = causal_bias(new, total, start, &scores.device());
        let grouped = scores.reshape([kv_heads, groups, new, total]) + mask.unsqueeze::<4>();
        grouped.reshape([kv_heads, groups * new, total])
    } else {
        scores
    };
    let weights = softmax(scores, 2).cast(dtype);
    // [kv_heads, groups·new, d] → [heads, new, d] → [new, heads, d] → [new, heads·d].
    weights
        .matmul(values)
        .reshape([heads, new, head_dim])
        .swap_dims(0, 1)
        .reshape([new, heads * head_dim])
}

/// [`AttentionKernel::Host`]: a single query over every cached position (all of them precede it).
fn host_attention(queries: Tensor<3>, keys: Tensor<3>, values: Tensor<3>, start: usize) -> Tensor<2> {
    let (device, dtype) = (queries.device(), queries.dtype());
    let [new, heads, head_dim] = queries.dims();
    let [total, kv_heads, _] = keys.dims();
    if new != 1 || !host::on_host(&device, &[dtype, keys.dtype(), values.dtype()]) {
        return composed(queries, keys, values, start);
    }
    let (Some(q), Some(k), Some(v)) = (
        host::widened(queries.clone()),
        host::widened(keys.clone()),
        host::widened(values.clone()),
    ) else {
        return composed(queries, keys, values, start);
    };
    let groups = heads / kv_heads;
    let scale = rounded((head_dim as f64).powf(-0.5) as f32, dtype);
    let head = |(h, out): (usize, &mut [f32])| {
        let kv = h / groups;
        let query = &q[h * head_dim..][..head_dim];
        let at = |t: usize| (t * kv_heads + kv) * head_dim;
        let mut scores: Vec<f32> = (0..total)
            .map(|t| {
                let dot: f32 = query.iter().zip(&k[at(t)..][..head_dim]).map(|(a, b)| a * b).sum();
                rounded(rounded(dot, dtype) * scale, dtype)
            })
            .collect();
        let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let mut sum = 0f32;
        for score in &mut scores {
            *score = (*score - max).exp();
            sum += *score;
        }
        out.fill(0.0);
        for (t, score) in scores.iter().enumerate() {
            let p = rounded(score / sum, dtype);
            for (o, value) in out.iter_mut().zip(&v[at(t)..][..head_dim]) {
                *o += p * value;
            }
        }
        for o in out.iter_mut() {
            *o = rounded(*o, dtype);
        }
    };
    let mut out = vec![0f32; heads * head_dim];
    if total * heads * head_dim >= PARALLEL_VALUES {
        out.par_chunks_mut(head_dim).enumerate().for_each(head);
    } else {
        out.chunks_mut(head_dim).enumerate().for_each(head);
    }
    host::tensor(out, [1, heads * head_dim], &device, dtype)
}

/// `[new, total]`: 0 where query `i` (position `start + i`) may see key `j`, −∞ where `j` lies in its future.
fn causal_bias(new: usize, total: usize, start: usize, device: &Device) -> Tensor<2> {
    let mut bias = Vec::with_capacity(new * total);
    for query in 0..new {
        let position = start + query;
        bias.extend((0..total).map(|key| if key <= position { 0.0f32 } else { f32::NEG_INFINITY }));
    }
    Tensor::from_data(TensorData::new(bias, [new, total]), device)
}

#[cfg(test)]
mod tests {
    use burn::tensor::Distribution;

    use super::*;

    fn random(shape: [usize; 3], device: &Device) -> Tensor<3> {
        Tensor::random(shape, Distribution::Normal(0.0, 1.0), device)
    }

    /// Both kernels on the CPU, over a cache holding earlier positions, with two query heads per
    /// key/value head: the fused kernel must see exactly what the composed one does.
    #[test]
    fn fused_and_composed_attention_agree() {
        let device = Device::flex();
        for (start, new) in [(0, 7), (5, 3), (9, 1)] {
            let total = start + new;
            let queries = random([new, 4, 16], &device);
            let keys = random([total, 2, 16], &device);
            let values = random([total, 2, 16], &device);
            let fused = AttentionKernel::Fused.attend(queries.clone(), keys.clone(), values.clone(), start);
            let composed = AttentionKernel::Composed.attend(queries, keys, values, start);
            assert_eq!(fused.dims(), [new, 64]);
            let difference: f32 = (fused - composed).abs().max().into_scalar();
            assert!(
                difference < 1e-5,
                "start {start}, {new} new tokens: the kernels differ by {difference}"
            );
        }
    }

    #[test]
    fn the_cpu_prefills_with_the_fused_kernel_and_decodes_on_the_host() {
        let cpu = AttentionKernels::for_device(&Device::flex());
        assert_eq!(cpu.for_queries(12), AttentionKernel::Fused);
        assert_eq!(cpu.for_queries(1), AttentionKernel::Host);
    }

    /// A decode step over a short and a long cache (the pass shared among the threads), in f32 and
    /// bf16, two query heads per key/value head: what the composed kernel computes.
    #[test]
    fn the_host_pass_attends_as_the_composed_kernel_does() {
        let device = Device::flex();
        for total in [9, 700] {
            let queries = random([1, 8, 64], &device);
            let keys = random([total, 4, 64], &device);
            let values = random([total, 4, 64], &device);
            let start = total - 1;
            let host = AttentionKernel::Host.attend(queries.clone(), keys.clone(), values.clone(), start);
            let composed = AttentionKernel::Composed.attend(queries.clone(), keys.clone(), values.clone(), start);
            assert_eq!(host.dims(), [1, 512]);
            let difference: f32 = (host - composed).abs().max().into_scalar();
            assert!(difference < 1e-5, "{total} positions: f32 differs by {difference}");

            let bf16 = |t: Tensor<3>| t.cast(DType::BF16);
            let host = AttentionKernel::Host.attend(bf16(queries.clone()), bf16(keys.clone()), bf16(values.clone()), start);
            let composed = AttentionKernel::Composed.attend(bf16(queries), bf16(keys), bf16(values), start);
            assert_eq!(host.dtype(), DType::BF16);
            let difference: f32 = (host.cast(DType::F32) - composed.cast(DType::F32)).abs().max().into_scalar();
            assert!(difference < 2e-2, "{total} positions: bf16 differs by {difference}");
        }
    }
}
