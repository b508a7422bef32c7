//! The vision encoder's attention on the CPU: every patch of an image over every patch, one block of
//! queries of one head at a time, with both products as matrix products over the rows where they lie
//! and the softmax's exponentials in vector instructions.
//!
//! burn's CPU attention is built for causal text: it walks the keys in tiles of 64 with an online
//! softmax whose inner loop tests for masks and takes one scalar exponential per score, which on a
//! screenshot's 3,520 patches is most of the encoder's time. No mask here, so a block of queries
//! takes all its scores at once.

use burn::tensor::{DType, Device, Tensor};
use ndarray::linalg::general_mat_mul;
use ndarray::{Array2, ArrayView2, ArrayViewMut2, ShapeBuilder};
use pulp::{Arch, Simd, WithSimd};
use rayon::prelude::*;

use crate::host::{self, rounded};

/// Queries per block: enough rows that each block's product with the keys amortises their packing,
/// few enough that a block's scores (`rows × patches` f32) stay in the last-level cache.
const QUERY_BLOCK: usize = 256;

/// `queries`, `keys`, `values`: `[patches, heads, head_dim]` on the CPU in f32 or bf16; returns
/// `[patches, heads · head_dim]` in their dtype, or `None` where they are not CPU tensors of one
/// such dtype (the caller then uses burn's kernel). bf16 is computed in f32 and rounded once, as
/// burn's kernel does.
pub(crate) fn attend_patches(queries: &Tensor<3>, keys: &Tensor<3>, values: &Tensor<3>) -> Option<Tensor<2>> {
    let (device, dtype): (Device, DType) = (queries.device(), queries.dtype());
    if !host::on_host(&device, &[dtype, keys.dtype(), values.dtype()]) {
        return None;
    }
    let [patches, heads, head_dim] = queries.dims();
    let shape = Shape {
        patches,
        heads,
        head_dim,
    };
    let out = attend(
        &host::widened(queries.clone())?,
        &host::widened(keys.clone())?,
        &host::widened(values.clone())?,
        shape,
    );
    let out = out.into_iter().map(|value| rounded(value, dtype)).collect();
    Some(host::tensor(out, [patches, heads * head_dim], &device, dtype))
}

#[derive(Debug, Clone, Copy)]
struct Shape {
    patches: usize,
    heads: usize,
    head_dim: usize,
}

/// Softmax(Q·Kᵀ/√d)·V per head over row-major `[patches, heads, head_dim]` values.
fn attend<'a>(queries: &'a [f32], keys: &'a [f32], values: &'a [f32], shape: Shape) -> Vec<f32> {
    let Shape {
        patches,
        heads,
        head_dim,
    } = shape;
    let row = heads * head_dim;
    assert!(queries.len() == patches * row && keys.len() == patches * row && values.len() == patches * row);
    let scale = (head_dim as f32).powf(-0.5);
    let blocks: Vec<(usize, usize)> = (0..heads)
        .flat_map(|head| (0..patches).step_by(QUERY_BLOCK).map(move |first| (head, first)))
        .collect();
    let attended: Vec<(usize, usize, Vec<f32>)> = blocks
        .into_par_iter()
        .map_init(Vec::new, |scores: &mut Vec<f32>, (head, first)| {
            let rows = QUERY_BLOCK.min(patches - first);
            scores.resize(rows * patches, 0.0);
            let column = head * head_dim;
            // Each head's rows are `head_dim` values `row` apart in the `[patches, heads, head_dim]` layout.
            let rows_of = |values: &'a [f32], from: usize, count: usize| {
                ArrayView2::from_shape((count, head_dim).strides((row, 1)), &values[from * row + column..])
                    .expect("a head's rows lie inside the values")
            };
            let mut block = ArrayViewMut2::from_shape((rows, patches), &mut scores[..]).expect("rows × patches scores");
            // scores[rows, patches] = scale · Q[first.., head] · K[.., head]ᵀ
            general_mat_mul(scale, &rows_of(queries, first, rows), &rows_of(keys, 0, patches).t(), 0.0, &mut block);
            let sums: Vec<f32> = scores.chunks_exact_mut(patches).map(exponentiate).collect();
            let probabilities = ArrayView2::from_shape((rows, patches), &scores[..]).expect("rows × patches scores");
            let mut out = Array2::<f32>::zeros((rows, head_dim));
            // out[rows, head_dim] = P[rows, patches] · V[.., head]
            general_mat_mul(1.0, &probabilities, &rows_of(values, 0, patches), 0.0, &mut out);
            let mut out = out.into_raw_vec_and_offset().0;
            for (out_row, sum) in out.chunks_exact_mut(head_dim).zip(sums) {
                let inverse = 1.0 / sum;
                out_row.iter_mut().for_each(|value| *value *= inverse);
            }
            (head, first, out)
        })
        .collect();
    let mut result = vec![0.0; patches * row];
    for (head, first, out) in attended {
        for (index, out_row) in out.chunks_exact(head_dim).enumerate() {
            let at = (first + index) * row + head * head_dim;
            result[at..at + head_dim].copy_from_slice(out_row);
        }
    }
    result
}

/// Lanes of the softmax's passes: independent maxima and sums the compiler keeps in one vector.
const LANES: usize = 16;

/// Replaces a row of scores by `exp(score - max)` and returns their sum, under the best SIMD level
/// the CPU has.
fn exponentiate(scores: &mut [f32]) -> f32 {
    Arch::new().dispatch(Exponentiate(scores))
}

struct Exponentiate<'a>(&'a mut [f32]);

impl WithSimd for Exponentiate<'_> {
    type Output = f32;

    #[inline(always)]
    fn with_simd<S: Simd>(self, _simd: S) -> f32 {
        exponentiate_lanes(self.0)
    }
}

#[inline(always)]
fn exponentiate_lanes(scores: &mut [f32]) -> f32 {
    let mut maxima = [f32::NEG_INFINITY; LANES];
    let mut chunks = scores.chunks_exact(LANES);
    for chunk in &mut chunks {
        for (max, &score) in maxima.iter_mut().zip(chunk) {
            *max = if score > *max { score } else { *max };
        }
    }
    let max = chunks.remainder().iter().chain(&maxima).copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sums = [0.0f32; LANES];
    let mut chunks = scores.chunks_exact_mut(LANES);
    for chunk in &mut chunks {
        for (sum, score) in sums.iter_mut().zip(chunk) {
            *score = exp_of_shifted(*score - max);
            *sum += *score;
        }
    }
    let mut sum: f32 = sums.iter().sum();
    for score in chunks.into_remainder() {
        *score = exp_of_shifted(*score - max);
        sum += *score;
    }
    sum
}

/// `e^x` for a score less its row's maximum (`x ≤ 0`), within about one unit in the last place, in
/// operations the compiler turns into vector instructions: `x = n·ln 2 + r` with `|r| ≤ ln 2 / 2`,
/// `e^r` by its Taylor series to `r⁶`, `2^n` written into the exponent's bits. Below `-87` (where
/// `e^x` < 2⁻¹²⁵, nothing beside the row's largest term `e^0 = 1`) it returns `e^-87`, which keeps
/// `2^n` a normal number. `std`'s `exp` is a call per value; a vector exponential the CPU chooses
/// at run time is not in any maintained crate (`wide`'s picks its instructions at compile time,
/// which for this target's baseline is SSE2).
#[inline(always)]
fn exp_of_shifted(x: f32) -> f32 {
    const LN2_HIGH: f32 = 0.693_359_4;
    const LN2_LOW: f32 = -2.121_944_4e-4;
    // Adding and taking away 1.5·2²³ rounds to the nearest integer without a rounding instruction.
    const ROUND: f32 = 12_582_912.0;
    let x = x.max(-87.0);
    let n = (x * std::f32::consts::LOG2_E + ROUND) - ROUND;
    let r = x - n * LN2_HIGH - n * LN2_LOW;
    let series = 1.0 / 720.0;
    let series = series * r + 1.0 / 120.0;
    let series = series * r + 1.0 / 24.0;
    let series = series * r + 1.0 / 6.0;
    let series = series * r + 0.5;
    let series = series * r + 1.0;
    let series = series * r + 1.0;
    series * f32::from_bits(((n as i32 + 127) as u32) << 23)
}

#[cfg(test)]
mod tests {
    use burn::tensor::{Distribution, Tolerance};

    use super::*;

    fn burns(queries: Tensor<3>, keys: Tensor<3>, values: Tensor<3>) -> Tensor<2> {
        crate::attention::burns_attention(queries, keys, values, false)
    }

    #[test]
    fn every_patch_attends_as_burns_kernel_does() {
        let device = Device::flex();
        // One block, a block and a remainder, and rows whose width is no multiple of eight.
        for (patches, heads, head_dim) in [(16, 2, 8), (QUERY_BLOCK + 37, 3, 16), (21, 1, 12)] {
            let random = || Tensor::<3>::random([patches, heads, head_dim], Distribution::Normal(0.0, 2.0), &device);
            let (queries, keys, values) = (random(), random(), random());
            let ours = attend_patches(&queries, &keys, &values).expect("f32 on the CPU");
            ours.into_data()
                .assert_approx_eq::<f32>(&burns(queries, keys, values).into_data(), Tolerance::rel_abs(1e-4, 1e-5));
        }
    }

    #[test]
    fn bf16_is_computed_in_f32_and_rounded_once() {
        let device = Device::flex();
        let random = || Tensor::<3>::random([40, 2, 16], Distribution::Normal(0.0, 1.0), &device).cast(DType::BF16);
        let (queries, keys, values) = (random(), random(), random());
        let ours = attend_patches(&queries, &keys, &values).expect("bf16 on the CPU");
        assert_eq!(ours.dtype(), DType::BF16);
        let widened = |t: &Tensor<3>| t.clone().cast(DType::F32);
        let expected = burns(widened(&queries), widened(&keys), widened(&values)).cast(DType::BF16);
        ours.cast(DType::F32)
            .into_data()
            .assert_approx_eq::<f32>(&expected.cast(DType::F32).into_data(), Tolerance::rel_abs(8e-3, 1e-3));
    }

    #[test]
    fn exponentials_match_the_scalar_ones() {
        // 37 scores: two chunks of lanes and a remainder; the largest is not in the first lane.
        let mut scores: Vec<f32> = (0..37).map(|i| ((i * 7) % 37) as f32 * 0.9 - 20.0).collect();
        let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let expected: Vec<f64> = scores.iter().map(|s| f64::from(s - max).exp()).collect();
        let sum = exponentiate(&mut scores);
        for (got, want) in scores.iter().zip(&expected) {
            assert!((f64::from(*got) - want).abs() <= 4e-7 * want, "{got} vs {want}");
        }
        assert!((f64::from(sum) - expected.iter().sum::<f64>()).abs() < 1e-5);
        // Far below the maximum: no overflow into the sign or a negative exponent, just a tiny value.
        for x in [-87.0f32, -100.0, -1e4, -0.0] {
            let e = exp_of_shifted(x);
            assert!(e.is_finite() && e >= 0.0 && (e - x.exp()).abs() <= 1e-37 + 4e-7 * x.exp(), "{x}: {e}");
        }
    }
}
