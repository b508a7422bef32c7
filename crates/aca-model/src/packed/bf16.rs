//! bf16 weights packed by tiles of [`TILE`] columns (the last one zero-padded), stored one after the
//! other. Within a tile, input row `i` is [`HALF`] 32-bit words; word `k` holds column `k` in its low
//! 16 bits and column `k + HALF` in its high 16 bits, so that a vector of words widens into two
//! vectors of consecutive columns with one shift and one mask, on any SIMD width.

use half::bf16;
use rayon::prelude::*;

use super::{PackedMatrix, TILE};

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
}

impl PackedMatrix for PackedBf16 {
    fn dims(&self) -> [usize; 2] {
        [self.inputs, self.outputs]
    }

    #[inline(always)]
    fn tile_product(&self, tile: usize, input: &[f32], rows: usize, out: &mut [f32]) {
        let tile_words = self.inputs * HALF;
        let words = &self.words[tile * tile_words..][..tile_words];
        if rows == 1 {
            // A decoding step: the tile's sums stay in registers.
            let mut acc = [0f32; TILE];
            for (words, &x) in words.chunks_exact(HALF).zip(input) {
                accumulate(&mut acc, x, words);
            }
            out.copy_from_slice(&acc);
            return;
        }
        out.fill(0.0);
        for (i, words) in words.chunks_exact(HALF).enumerate() {
            for (row, acc) in out.chunks_exact_mut(TILE).enumerate() {
                accumulate(acc, input[row * self.inputs + i], words);
            }
        }
    }

    fn bytes(&self) -> usize {
        4 * self.words.len()
    }

    fn widened_row(&self, i: usize, row: &mut [f32]) {
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
    use super::super::check::{products_match, random};
    use super::super::widened;
    use super::*;

    fn matrix(inputs: usize, outputs: usize, seed: u64) -> Vec<bf16> {
        random(inputs * outputs, 1.0, seed).into_iter().map(bf16::from_f32).collect()
    }

    #[test]
    fn products_match_a_plain_product_for_any_width_and_row_count() {
        // Widening gives back each bf16 exactly (below), so the plain product is over the weights.
        products_match(|inputs, outputs, seed| PackedBf16::pack(&matrix(inputs, outputs, seed), inputs, outputs));
    }

    #[test]
    fn widening_gives_back_every_weight_exactly() {
        for (inputs, outputs) in [(3, 1), (4, 64), (5, 97), (2, 130)] {
            let bits = matrix(inputs, outputs, 7);
            let packed = PackedBf16::pack(&bits, inputs, outputs);
            let widened = widened(&packed);
            let expected: Vec<f32> = bits.iter().map(|b| b.to_f32()).collect();
            assert_eq!(widened, expected);
            assert_eq!(packed.dims(), [inputs, outputs]);
            assert_eq!(packed.words.len(), outputs.div_ceil(TILE) * inputs * HALF);
        }
    }
}
