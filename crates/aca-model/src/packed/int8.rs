//! int8 weights with one f32 scale per output column (symmetric: a column's scale is its largest
//! magnitude / 127, each weight the nearest multiple of it), packed by tiles of [`TILE`] columns: within
//! a tile, input row `i` is [`TILE`] consecutive bytes, one per column, so a decoding step reads one
//! 64-byte line per input and widens it to f32 in registers. The scales apply once per output.

use rayon::prelude::*;

use super::{PackedMatrix, TILE};

/// Largest quantised magnitude: the range is symmetric, −127 to 127.
const LEVELS: f32 = 127.0;

/// An int8 `[in, out]` matrix in the tiled layout above.
#[derive(Debug)]
pub(crate) struct PackedInt8 {
    inputs: usize,
    outputs: usize,
    values: Vec<i8>,
    /// One per column, padded with zeros to whole tiles.
    scales: Vec<f32>,
}

impl PackedInt8 {
    /// Quantises a row-major `[inputs, outputs]` f32 matrix.
    pub fn quantize(weights: &[f32], inputs: usize, outputs: usize) -> Self {
        assert_eq!(weights.len(), inputs * outputs, "a [{inputs}, {outputs}] matrix");
        let tiles = outputs.div_ceil(TILE);
        let mut scales = vec![0f32; tiles * TILE];
        for row in weights.chunks_exact(outputs.max(1)) {
            for (scale, &weight) in scales.iter_mut().zip(row) {
                *scale = scale.max(weight.abs());
            }
        }
        for scale in &mut scales {
            *scale /= LEVELS;
        }
        let mut values = vec![0i8; tiles * inputs * TILE];
        values
            .par_chunks_mut((inputs * TILE).max(1))
            .enumerate()
            .for_each(|(tile, packed)| {
                let first = tile * TILE;
                let width = TILE.min(outputs - first);
                let scales = &scales[first..first + width];
                for (i, out) in packed.chunks_exact_mut(TILE).enumerate() {
                    let row = &weights[i * outputs + first..][..width];
                    for ((value, &weight), &scale) in out.iter_mut().zip(row).zip(scales) {
                        *value = quantized(weight, scale);
                    }
                }
            });
        Self {
            inputs,
            outputs,
            values,
            scales,
        }
    }
}

fn quantized(weight: f32, scale: f32) -> i8 {
    if scale == 0.0 {
        return 0;
    }
    (weight / scale).round().clamp(-LEVELS, LEVELS) as i8
}

impl PackedMatrix for PackedInt8 {
    fn dims(&self) -> [usize; 2] {
        [self.inputs, self.outputs]
    }

    #[inline(always)]
    fn tile_product(&self, tile: usize, input: &[f32], rows: usize, out: &mut [f32]) {
        let values = &self.values[tile * self.inputs * TILE..][..self.inputs * TILE];
        let scales: &[f32; TILE] = self.scales[tile * TILE..][..TILE].try_into().expect("a tile of scales");
        if rows == 1 {
            // A decoding step: the tile's sums stay in registers.
            let mut acc = [0f32; TILE];
            for (values, &x) in values.chunks_exact(TILE).zip(input) {
                accumulate(&mut acc, x, values);
            }
            for ((out, sum), scale) in out.iter_mut().zip(acc).zip(scales) {
                *out = sum * scale;
            }
            return;
        }
        out.fill(0.0);
        for (i, values) in values.chunks_exact(TILE).enumerate() {
            for (row, acc) in out.chunks_exact_mut(TILE).enumerate() {
                accumulate(acc, input[row * self.inputs + i], values);
            }
        }
        for acc in out.chunks_exact_mut(TILE) {
            for (sum, scale) in acc.iter_mut().zip(scales) {
                *sum *= scale;
            }
        }
    }

    fn bytes(&self) -> usize {
        self.values.len() + 4 * self.scales.len()
    }

    fn widened_row(&self, i: usize, row: &mut [f32]) {
        for (tile, columns) in row.chunks_mut(TILE).enumerate() {
            let values = &self.values[(tile * self.inputs + i) * TILE..][..columns.len()];
            let scales = &self.scales[tile * TILE..];
            for ((column, &value), scale) in columns.iter_mut().zip(values).zip(scales) {
                *column = f32::from(value) * scale;
            }
        }
    }
}

/// `acc += x · w` for one input row of a tile.
#[inline(always)]
fn accumulate(acc: &mut [f32], x: f32, values: &[i8]) {
    for (sum, &value) in acc.iter_mut().zip(values) {
        *sum += x * f32::from(value);
    }
}

#[cfg(test)]
mod tests {
    use super::super::check::{products_match, random};
    use super::super::widened;
    use super::*;

    #[test]
    fn each_weight_is_within_half_a_step_of_its_column_scale() {
        for (inputs, outputs) in [(3, 1), (4, 64), (5, 97), (2, 130)] {
            let weights = random(inputs * outputs, 1.0, 11);
            let packed = PackedInt8::quantize(&weights, inputs, outputs);
            let restored = widened(&packed);
            for o in 0..outputs {
                let largest = (0..inputs).map(|i| weights[i * outputs + o].abs()).fold(0f32, f32::max);
                let step = largest / LEVELS;
                for i in 0..inputs {
                    let (weight, back) = (weights[i * outputs + o], restored[i * outputs + o]);
                    assert!((weight - back).abs() <= step / 2.0 + 1e-7, "{weight} came back as {back}");
                }
                // The largest magnitude of a column is represented exactly (up to rounding of the scale).
                let extreme = (0..inputs).map(|i| restored[i * outputs + o].abs()).fold(0f32, f32::max);
                assert!((extreme - largest).abs() <= 1e-6 * largest.max(1.0));
            }
            assert_eq!(packed.bytes(), outputs.div_ceil(TILE) * TILE * (inputs + 4));
        }
    }

    #[test]
    fn a_zero_column_stays_zero() {
        let weights = vec![0.0, 2.0, 0.0, -2.0];
        let packed = PackedInt8::quantize(&weights, 2, 2);
        assert_eq!(widened(&packed), vec![0.0, 2.0, 0.0, -2.0]);
    }

    #[test]
    fn products_match_the_dequantised_product_for_any_width_and_row_count() {
        products_match(|inputs, outputs, seed| {
            PackedInt8::quantize(&random(inputs * outputs, 1.0, seed), inputs, outputs)
        });
    }
}
