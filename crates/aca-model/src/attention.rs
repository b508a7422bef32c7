//! Grouped-query causal attention of one sequence's new tokens over its cached keys and values.

use burn::tensor::activation::softmax;
use burn::tensor::module::attention;
use burn::tensor::ops::AttentionModuleOptions;
use burn::tensor::{DType, Device, Tensor, TensorData};
use pulp::Arch;

use crate::cache::{CachedLayer, HostRows};
use crate::host::{self, Widen, rounded};

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
    /// Attends `queries` (`[new, heads, head_dim]`, at positions `start..start + new`) over the cached
    /// keys and values (`[start + new, kv_heads, head_dim]`); returns `[new, heads · head_dim]`.
    ///
    /// Query head `h` reads key/value head `h / (heads / kv_heads)`, as `transformers`' `repeat_kv`
    /// does; a query at position `p` sees keys `0..=p`.
    pub fn attend(self, queries: Tensor<3>, cached: CachedLayer<'_>, start: usize) -> Tensor<2> {
        match self {
            AttentionKernel::Host => host_attention(queries, cached, start),
            AttentionKernel::Fused => {
                let (keys, values) = cached.into_tensors();
                fused(queries, keys, values)
            }
            AttentionKernel::Composed => {
                let (keys, values) = cached.into_tensors();
                composed(queries, keys, values, start)
            }
        }
    }
}

/// Query blocks a prompt's fused attention is cut into: block `j` reads only the keys up to its
/// last query, so the scores the causal mask would discard are mostly never computed (with 4
/// blocks, 5/8 of the full score matrix instead of all of it).
const CAUSAL_BLOCKS: usize = 4;

/// Prompts shorter than this attend in one block.
const BLOCKED_FROM: usize = 64;

fn fused(queries: Tensor<3>, keys: Tensor<3>, values: Tensor<3>) -> Tensor<2> {
    let [new, _, _] = queries.dims();
    let [total, _, _] = keys.dims();
    if new < BLOCKED_FROM {
        return fused_block(queries, keys, values);
    }
    let start = total - new;
    let width = new.div_ceil(CAUSAL_BLOCKS);
    let blocks: Vec<Tensor<2>> = (0..new)
        .step_by(width)
        .map(|first| {
            let end = (first + width).min(new);
            let seen = start + end;
            fused_block(
                queries.clone().slice_dim(0, first..end),
                keys.clone().slice_dim(0, 0..seen),
                values.clone().slice_dim(0, 0..seen),
            )
        })
        .collect();
    Tensor::cat(blocks, 0)
}

fn fused_block(queries: Tensor<3>, keys: Tensor<3>, values: Tensor<3>) -> Tensor<2> {
    // The causal mask is aligned at the last query and the last key, so the new tokens see every
    // cached position before them.
    burns_attention(queries, keys, values, true)
}

/// burn's attention kernel over `[tokens, heads, head_dim]` queries, keys and values (one key/value
/// head per query head on backends other than the CPU's); returns `[queries, heads · head_dim]`.
pub(crate) fn burns_attention(queries: Tensor<3>, keys: Tensor<3>, values: Tensor<3>, causal: bool) -> Tensor<2> {
    let [new, heads, head_dim] = queries.dims();
    // [tokens, heads, d] → [1, heads, tokens, d]
    let heads_first = |tensor: Tensor<3>| tensor.swap_dims(0, 1).unsqueeze::<4>();
    let options = AttentionModuleOptions {
        is_causal: causal,
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

/// [`AttentionKernel::Host`]: a single query over every cached position (all of them precede it), read
/// where the host cache holds them.
fn host_attention(queries: Tensor<3>, cached: CachedLayer<'_>, start: usize) -> Tensor<2> {
    let (device, dtype) = (queries.device(), queries.dtype());
    let [new, heads, head_dim] = queries.dims();
    let [total, kv_heads, _] = cached.dims();
    let query = (new == 1 && host::on_host(&device, &[dtype]))
        .then(|| host::widened(queries.clone()))
        .flatten();
    let (Some(query), CachedLayer::Host { keys, values, .. }) = (query, &cached) else {
        let (keys, values) = cached.into_tensors();
        return composed(queries, keys, values, start);
    };
    let shape = QueryShape {
        heads,
        kv_heads,
        head_dim,
        total,
        scale: rounded((head_dim as f64).powf(-0.5) as f32, dtype),
        dtype,
    };
    let out = match (keys, values) {
        (HostRows::F32(keys), HostRows::F32(values)) => attend_rows(&query, keys, values, &shape),
        (HostRows::Bf16(keys), HostRows::Bf16(values)) => attend_rows(&query, keys, values, &shape),
        _ => {
            let (keys, values) = cached.into_tensors();
            return composed(queries, keys, values, start);
        }
    };
    host::tensor(out, [1, heads * head_dim], &device, dtype)
}

/// The sizes of a single query's attention over the cache.
struct QueryShape {
    heads: usize,
    kv_heads: usize,
    head_dim: usize,
    total: usize,
    scale: f32,
    dtype: DType,
}

/// Every query head over the cached rows, the heads shared out among the threads for a long cache.
fn attend_rows<T: Widen>(query: &[f32], keys: &[T], values: &[T], shape: &QueryShape) -> Vec<f32> {
    let QueryShape {
        heads,
        kv_heads,
        head_dim,
        total,
        ..
    } = *shape;
    let groups = heads / kv_heads;
    let arch = Arch::new();
    let mut out = vec![0f32; heads * head_dim];
    host::each_row(&mut out, head_dim, total * heads * head_dim, |h, out| {
        let rows = CachedHead {
            keys,
            values,
            first: h / groups * head_dim,
            stride: kv_heads * head_dim,
            head_dim,
        };
        arch.dispatch(|| attend_one_head(&query[h * head_dim..][..head_dim], &rows, shape, out));
    });
    out
}

/// One key/value head's rows in the token-major cache: row `t` starts at `first + t · stride`.
struct CachedHead<'a, T> {
    keys: &'a [T],
    values: &'a [T],
    first: usize,
    stride: usize,
    head_dim: usize,
}

impl<T> CachedHead<'_, T> {
    #[inline(always)]
    fn key(&self, t: usize) -> &[T] {
        &self.keys[self.first + t * self.stride..][..self.head_dim]
    }

    #[inline(always)]
    fn value(&self, t: usize) -> &[T] {
        &self.values[self.first + t * self.stride..][..self.head_dim]
    }
}

/// One query head over the cached positions into `out`: scores and probabilities rounded to the
/// dtype, the softmax in f32. Inlined into the caller's SIMD dispatch, so the sums use the CPU's
/// vector width.
#[inline(always)]
fn attend_one_head<T: Widen>(query: &[f32], head: &CachedHead<'_, T>, shape: &QueryShape, out: &mut [f32]) {
    let (scale, dtype) = (shape.scale, shape.dtype);
    let mut scores: Vec<f32> = (0..shape.total)
        .map(|t| rounded(rounded(dot(query, head.key(t)), dtype) * scale, dtype))
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
        for (o, value) in out.iter_mut().zip(head.value(t)) {
            *o += p * value.widen();
        }
    }
    for o in out.iter_mut() {
        *o = rounded(*o, dtype);
    }
}

/// `a · b` summed in eight interleaved lanes, which the compiler keeps in one vector register.
#[inline(always)]
fn dot<T: Widen>(a: &[f32], b: &[T]) -> f32 {
    const LANES: usize = 8;
    let mut lanes = [0f32; LANES];
    let (a_chunks, b_chunks) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let rest: f32 = a_chunks
        .remainder()
        .iter()
        .zip(b_chunks.remainder())
        .map(|(x, y)| x * y.widen())
        .sum();
    for (x, y) in a_chunks.zip(b_chunks) {
        for lane in 0..LANES {
            lanes[lane] += x[lane] * y[lane].widen();
        }
    }
    lanes.iter().sum::<f32>() + rest
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
    use crate::cache::LayerCache;

    fn tensors(keys: &Tensor<3>, values: &Tensor<3>) -> CachedLayer<'static> {
        CachedLayer::Tensors {
            keys: keys.clone(),
            values: values.clone(),
        }
    }

    fn random(shape: [usize; 3], device: &Device) -> Tensor<3> {
        Tensor::random(shape, Distribution::Normal(0.0, 1.0), device)
    }

    /// Both kernels on the CPU, over a cache holding earlier positions, with two query heads per
    /// key/value head: the fused kernel must see exactly what the composed one does, in one block
    /// and in causal blocks of queries (an uneven last block among them).
    #[test]
    fn fused_and_composed_attention_agree() {
        let device = Device::flex();
        for (start, new) in [(0, 7), (5, 3), (9, 1), (0, BLOCKED_FROM), (0, 130), (21, 99)] {
            let total = start + new;
            let queries = random([new, 4, 16], &device);
            let keys = random([total, 2, 16], &device);
            let values = random([total, 2, 16], &device);
            let fused = AttentionKernel::Fused.attend(queries.clone(), tensors(&keys, &values), start);
            let composed = AttentionKernel::Composed.attend(queries, tensors(&keys, &values), start);
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
            let mut cache = LayerCache::new();
            let host = AttentionKernel::Host.attend(queries.clone(), cache.append(keys.clone(), values.clone(), None), start);
            let composed = AttentionKernel::Composed.attend(queries.clone(), tensors(&keys, &values), start);
            assert_eq!(host.dims(), [1, 512]);
            let difference: f32 = (host - composed).abs().max().into_scalar();
            assert!(difference < 1e-5, "{total} positions: f32 differs by {difference}");

            let bf16 = |t: Tensor<3>| t.cast(DType::BF16);
            let (keys, values) = (bf16(keys), bf16(values));
            let mut cache = LayerCache::new();
            let cached = cache.append(keys.clone(), values.clone(), None);
            assert!(matches!(cached, CachedLayer::Host { keys: HostRows::Bf16(_), .. }));
            let host = AttentionKernel::Host.attend(bf16(queries.clone()), cached, start);
            let composed = AttentionKernel::Composed.attend(bf16(queries), tensors(&keys, &values), start);
            assert_eq!(host.dtype(), DType::BF16);
            let difference: f32 = (host.cast(DType::F32) - composed.cast(DType::F32)).abs().max().into_scalar();
            assert!(difference < 2e-2, "{total} positions: bf16 differs by {difference}");
        }
    }
}
