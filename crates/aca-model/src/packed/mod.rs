//! Projection weights packed for the CPU's decoding steps: the matrix is cut into tiles of [`TILE`]
//! output columns, each tile's weights one contiguous run, so that a step reads every weight once and
//! widens it to f32 in registers. Two formats: bf16 ([`PackedBf16`]) and int8 with a scale per output
//! column ([`PackedInt8`]). burn's CPU backend widens a narrow matrix into a new f32 matrix on every
//! product (and dequantises a quantised one likewise), which moves several times the weight's bytes;
//! no maintained crate offers these matrix-vector products, hence this module.

mod bf16;
mod int8;

use pulp::{Arch, Simd, WithSimd};
use rayon::prelude::*;

pub(crate) use bf16::PackedBf16;
pub(crate) use int8::PackedInt8;

/// Output columns per tile.
pub(crate) const TILE: usize = 64;

/// A packed `[in, out]` matrix.
pub(crate) trait PackedMatrix: Sync {
    /// `[in, out]`.
    fn dims(&self) -> [usize; 2];

    /// Tile `tile`'s part of `x · W`: `out` is `[rows, TILE]` row-major (columns past the matrix's
    /// last are computed from zero weights), `input` row-major `[rows, in]`. Inlined into the
    /// function a SIMD dispatch compiles for the CPU (implement it `#[inline(always)]`), so plain
    /// loops over fixed-width arrays are vectorised for that CPU.
    fn tile_product(&self, tile: usize, input: &[f32], rows: usize, out: &mut [f32]);

    /// Row `i` of the matrix in f32: `row` holds the `out` values.
    fn widened_row(&self, i: usize, row: &mut [f32]);

    /// The bytes held, padding and scales included.
    fn bytes(&self) -> usize;
}

/// `x · W` for `rows` input rows (row-major `[rows, in]` f32), as row-major `[rows, out]` f32, the
/// tiles shared out among the CPU's threads.
pub(crate) fn product<M: PackedMatrix>(matrix: &M, input: &[f32], rows: usize) -> Vec<f32> {
    let [inputs, outputs] = matrix.dims();
    assert_eq!(input.len(), rows * inputs, "{rows} rows of {inputs} values");
    let tiles = outputs.div_ceil(TILE);
    let mut tiled = vec![0f32; tiles * rows * TILE];
    let arch = Arch::new();
    tiled.par_chunks_mut(rows * TILE).enumerate().for_each(|(tile, out)| {
        arch.dispatch(TileProduct {
            matrix,
            tile,
            input,
            rows,
            out,
        })
    });
    let mut output = vec![0f32; rows * outputs];
    for (tile, values) in tiled.chunks(rows * TILE).enumerate() {
        let first = tile * TILE;
        let width = TILE.min(outputs - first);
        for (row, values) in values.chunks(TILE).enumerate() {
            let start = row * outputs + first;
            output[start..start + width].copy_from_slice(&values[..width]);
        }
    }
    output
}

/// The whole matrix widened to row-major `[in, out]` f32 (a prompt's product runs on it).
pub(crate) fn widened<M: PackedMatrix>(matrix: &M) -> Vec<f32> {
    let [inputs, outputs] = matrix.dims();
    let mut output = vec![0f32; inputs * outputs];
    if outputs > 0 {
        output
            .par_chunks_mut(outputs)
            .enumerate()
            .for_each(|(i, row)| matrix.widened_row(i, row));
    }
    output
}

struct TileProduct<'a, M> {
    matrix: &'a M,
    tile: usize,
    input: &'a [f32],
    rows: usize,
    out: &'a mut [f32],
}

impl<M: PackedMatrix> WithSimd for TileProduct<'_, M> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: Simd>(self, _simd: S) {
        self.matrix.tile_product(self.tile, self.input, self.rows, self.out);
    }
}

/// What both formats' tests check: products against a plain f64 product of the widened weights.
#[cfg(test)]
mod check {
    use rand::{Rng, SeedableRng};

    use super::{PackedMatrix, product, widened};

    /// Widths below, at and across tile boundaries; one and several rows: `(inputs, outputs, rows)`.
    pub(super) const SHAPES: [(usize, usize, usize); 5] = [(5, 1, 1), (7, 64, 1), (16, 65, 3), (33, 200, 16), (3, 130, 2)];

    /// Uniform values in `[-scale, scale)`, the same for a seed.
    pub(super) fn random(len: usize, scale: f32, seed: u64) -> Vec<f32> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        (0..len).map(|_| rng.random_range(-scale..scale)).collect()
    }

    /// `matrix`'s product with random inputs of every shape of [`SHAPES`] against the plain product
    /// of its widened weights, `make(inputs, outputs, seed)` packing each matrix.
    pub(super) fn products_match<M: PackedMatrix>(make: impl Fn(usize, usize, u64) -> M) {
        for (inputs, outputs, rows) in SHAPES {
            let matrix = make(inputs, outputs, (inputs * outputs) as u64);
            let input = random(rows * inputs, 2.0, rows as u64);
            let weights = widened(&matrix);
            let mut want = vec![0f64; rows * outputs];
            for r in 0..rows {
                for i in 0..inputs {
                    for o in 0..outputs {
                        want[r * outputs + o] += f64::from(input[r * inputs + i]) * f64::from(weights[i * outputs + o]);
                    }
                }
            }
            let got = product(&matrix, &input, rows);
            assert_eq!(got.len(), want.len());
            for (g, w) in got.iter().zip(&want) {
                let w = *w as f32;
                assert!((g - w).abs() <= 1e-4 * (1.0 + w.abs()), "{g} vs {w} ({inputs}x{outputs}, {rows} rows)");
            }
        }
    }
}
