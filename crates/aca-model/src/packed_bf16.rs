//! bf16 projection weights on the CPU, packed so that a decoding step reads each weight once and
//! widens it to f32 in registers. burn's CPU backend widens a bf16 matrix into a new f32 matrix on
//! every product, which moves three times the weight's bytes; no maintained crate offers a bf16
//! matrix-vector product (gemm's half-precision kernels are f16 only), hence this one.
//!
//! Layout: the `[in, out]` matrix is cut into tiles of [`TILE`] columns (the last one zero-padded),
//! stored one after the other. Within a tile, input row `i` is [`HALF`] 32-bit words; word `k` holds
//! column `k` in its low 16 bits and column `k + HALF` in its high 16 bits, so that a vector of words
//! widens into two vectors of consecutive columns with one shift and one mask, on any SIMD width.

use half::bf16;
use pulp::{Arch, Simd, WithSimd};
use rayon::prelude::*;

/// Columns per tile.
pub(crate) const TILE: usize = 64;
const HALF: usize = TILE / 2;

/// A bf16 `[in, out]` matrix in the tiled layout above.
#[derive(Debug)]
pub(crate) struct PackedBf16 {
    inputs: usize,
    outputs: usize,
    words: Vec<u32>,
}

impl PackedBf16 {
    /// Packs a row-major `[inputs, outputs]` bf16 matrix.
    pub fn pack(values: &[bf16], inputs: usize, outputs: usize) -> Self {
        assert_eq!(values.len(), inputs * outputs, "a [{inputs}, {outputs}] matrix");
        let tiles = outputs.div_ceil(TILE);
        let mut words = vec![0u32; tiles * inputs * HALF];
        words
            .par_chunks_mut(inputs * HALF)
            .enumerate()
            .for_each(|(tile, packed)| {
                let first = tile * TILE;
                let column = |row: &[bf16], c: usize| u32::from(row.get(first + c).map_or(0, |v| v.to_bits()));
                for (i, out) in packed.chunks_mut(HALF).enumerate() {
                    let row = &values[i * outputs..(i + 1) * outputs];
                    for (k, word) in out.iter_mut().enumerate() {
                        *word = column(row, k) | (column(row, k + HALF) << 16);
                    }
                }
            });
        Self { inputs, outputs, words }
    }

    pub fn dims(&self) -> [usize; 2] {
        [self.inputs, self.outputs]
    }

    /// `x · W` for `rows` input rows (row-major `[rows, in]` f32), as row-major `[rows, out]` f32,
    /// the tiles shared out among the CPU's threads.
    pub fn product(&self, input: &[f32], rows: usize) -> Vec<f32> {
        assert_eq!(input.len(), rows * self.inputs, "{rows} rows of {} values", self.inputs);
        let tile_words = self.inputs * HALF;
        let mut tiled = vec![0f32; self.words.len() / tile_words * rows * TILE];
        let arch = Arch::new();
        tiled
            .par_chunks_mut(rows * TILE)
            .zip(self.words.par_chunks(tile_words))
            .for_each(|(out, tile)| {
                arch.dispatch(TileProduct {
                    tile,
                    input,
                    inputs: self.inputs,
                    out,
                })
            });
        let mut output = vec![0f32; rows * self.outputs];
        for (tile, values) in tiled.chunks(rows * TILE).enumerate() {
            let first = tile * TILE;
            let width = TILE.min(self.outputs - first);
            for (row, values) in values.chunks(TILE).enumerate() {
                let start = row * self.outputs + first;
                output[start..start + width].copy_from_slice(&values[..width]);
            }
        }
        output
    }

    /// The whole matrix widened to row-major `[in, out]` f32.
    pub fn widened(&self) -> Vec<f32> {
        let mut output = vec![0f32; self.inputs * self.outputs];
        output.par_chunks_mut(self.outputs).enumerate().for_each(|(i, row)| {
            for (tile, columns) in row.chunks_mut(TILE).enumerate() {
                let words = &self.words[(tile * self.inputs + i) * HALF..][..HALF];
                let (low_columns, high_columns) = columns.split_at_mut(HALF.min(columns.len()));
                for (value, &word) in low_columns.iter_mut().zip(words) {
                    *value = low(word);
                }
                for (value, &word) in high_columns.iter_mut().zip(words) {
                    *value = high(word);
                }
            }
        });
        output
    }
}

#[inline(always)]
fn low(word: u32) -> f32 {
    f32::from_bits(word << 16)
}

#[inline(always)]
fn high(word: u32) -> f32 {
    f32::from_bits(word & 0xFFFF_0000)
}

/// One tile's `[rows, TILE]` outputs: plain loops over fixed-width arrays, inlined into the function
/// `Arch::dispatch` compiles for the CPU's SIMD level, which the compiler vectorises for that level.
struct TileProduct<'a> {
    tile: &'a [u32],
    input: &'a [f32],
    inputs: usize,
    out: &'a mut [f32],
}

impl WithSimd for TileProduct<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: Simd>(self, _simd: S) {
        tile_product(self.tile, self.input, self.inputs, self.out);
    }
}

#[inline(always)]
fn tile_product(tile: &[u32], input: &[f32], inputs: usize, out: &mut [f32]) {
    if out.len() == TILE {
        // One row (a decoding step): the tile's sums stay in registers.
        let mut acc = [0f32; TILE];
        for (words, &x) in tile.chunks_exact(HALF).zip(input) {
            accumulate(&mut acc, x, words);
        }
        out.copy_from_slice(&acc);
        return;
    }
    out.fill(0.0);
    for (i, words) in tile.chunks_exact(HALF).enumerate() {
        for (row, acc) in out.chunks_exact_mut(TILE).enumerate() {
            accumulate(acc, input[row * inputs + i], words);
        }
    }
}

/// `acc += x · w` for one input row of a tile: word `k` widens into columns `k` and `k + HALF`.
#[inline(always)]
fn accumulate(acc: &mut [f32], x: f32, words: &[u32]) {
    let (low_columns, high_columns) = acc.split_at_mut(HALF);
    for ((low_sum, high_sum), &word) in low_columns.iter_mut().zip(high_columns.iter_mut()).zip(words) {
        *low_sum += x * low(word);
        *high_sum += x * high(word);
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};

    use super::*;

    fn matrix(inputs: usize, outputs: usize, seed: u64) -> Vec<bf16> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        (0..inputs * outputs)
            .map(|_| bf16::from_f32(rng.random_range(-1.0..1.0)))
            .collect()
    }

    fn reference(weights: &[bf16], input: &[f32], rows: usize, inputs: usize, outputs: usize) -> Vec<f32> {
        let mut out = vec![0f64; rows * outputs];
        for r in 0..rows {
            for i in 0..inputs {
                for o in 0..outputs {
                    let w = f64::from(weights[i * outputs + o].to_f32());
                    out[r * outputs + o] += f64::from(input[r * inputs + i]) * w;
                }
            }
        }
        out.into_iter().map(|v| v as f32).collect()
    }

    #[test]
    fn products_match_a_plain_product_for_any_width_and_row_count() {
        // Widths below, at and across tile boundaries; one and several rows.
        for (inputs, outputs, rows) in [(5, 1, 1), (7, 64, 1), (16, 65, 3), (33, 200, 16), (3, 130, 2)] {
            let bits = matrix(inputs, outputs, (inputs * outputs) as u64);
            let mut rng = rand::rngs::StdRng::seed_from_u64(rows as u64);
            let input: Vec<f32> = (0..rows * inputs).map(|_| rng.random_range(-2.0..2.0)).collect();
            let packed = PackedBf16::pack(&bits, inputs, outputs);
            let got = packed.product(&input, rows);
            let want = reference(&bits, &input, rows, inputs, outputs);
            assert_eq!(got.len(), want.len());
            for (g, w) in got.iter().zip(&want) {
                assert!((g - w).abs() <= 1e-4 * (1.0 + w.abs()), "{g} vs {w} ({inputs}x{outputs}, {rows} rows)");
            }
        }
    }

    #[test]
    fn widening_gives_back_every_weight_exactly() {
        for (inputs, outputs) in [(3, 1), (4, 64), (5, 97), (2, 130)] {
            let bits = matrix(inputs, outputs, 7);
            let packed = PackedBf16::pack(&bits, inputs, outputs);
            let widened = packed.widened();
            let expected: Vec<f32> = bits.iter().map(|b| b.to_f32()).collect();
            assert_eq!(widened, expected);
            assert_eq!(packed.dims(), [inputs, outputs]);
            assert_eq!(packed.words.len(), outputs.div_ceil(TILE) * inputs * HALF);
        }
    }
}
