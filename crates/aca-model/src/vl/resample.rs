//! Antialiased bicubic resizing of 8-bit RGB images with the integer arithmetic of torch's uint8
//! `interpolate(mode="bicubic", antialias=True)`, which the reference image processor runs: Keys
//! cubic (a = −0.5) weights stretched by the downscaling factor, quantised to 16-bit fixed point,
//! horizontal pass first with an 8-bit intermediate, each pass skipped when its side keeps its size.
//!
//! The `image` crate's bicubic filter uses the same kernel in f32 but runs the vertical pass first
//! without the 8-bit intermediate; its output then differs from the reference by several levels near
//! edges, so the resampling is written out here for pixel-exact parity.

use image::RgbImage;

/// The Keys cubic convolution kernel with a = −0.5.
fn cubic(x: f64) -> f64 {
    const A: f64 = -0.5;
    let x = x.abs();
    if x < 1.0 {
        ((A + 2.0) * x - (A + 3.0)) * x * x + 1.0
    } else if x < 2.0 {
        ((A * x - 5.0 * A) * x + 8.0 * A) * x - 4.0 * A
    } else {
        0.0
    }
}

/// For each output index along one axis: the first input index, and fixed-point weights of the inputs
/// from there on.
struct AxisWeights {
    taps: Vec<(usize, Vec<i32>)>,
    precision: u32,
}

impl AxisWeights {
    fn new(input: usize, output: usize) -> Self {
        let scale = input as f64 / output as f64;
        let (support, inverse_scale) = if scale >= 1.0 {
            (2.0 * scale, 1.0 / scale)
        } else {
            (2.0, 1.0)
        };
        let mut largest = 0.0f64;
        let float_taps: Vec<(usize, Vec<f64>)> = (0..output)
            .map(|index| {
                let center = scale * (index as f64 + 0.5);
                // Truncation towards zero, as the reference's integer casts.
                let first = ((center - support + 0.5) as i64).max(0) as usize;
                let end = ((center + support + 0.5) as i64).clamp(0, input as i64) as usize;
                let mut weights: Vec<f64> = (first..end.max(first))
                    .map(|source| cubic((source as f64 - center + 0.5) * inverse_scale))
                    .collect();
                let total: f64 = weights.iter().sum();
                if total != 0.0 {
                    for weight in &mut weights {
                        *weight /= total;
                        largest = largest.max(*weight);
                    }
                }
                (first, weights)
            })
            .collect();
        // The most fractional bits that keep the largest weight, doubled, within 16 bits.
        let mut precision = 0;
        while precision < 22 && ((0.5 + largest * f64::from(1u32 << (precision + 1))) as i32) < (1 << 15) {
            precision += 1;
        }
        let unit = f64::from(1u32 << precision);
        let taps = float_taps
            .into_iter()
            .map(|(first, weights)| {
                let fixed = weights
                    .iter()
                    .map(|weight| {
                        let value = weight * unit;
                        i32::from((if value < 0.0 { value - 0.5 } else { value + 0.5 }) as i16)
                    })
                    .collect();
                (first, fixed)
            })
            .collect();
        Self { taps, precision }
    }

    /// One output value from inputs `at(first + k)`.
    fn sample(&self, output: usize, at: impl Fn(usize) -> u8) -> u8 {
        let (first, weights) = &self.taps[output];
        let rounding = if self.precision > 0 {
            1 << (self.precision - 1)
        } else {
            0
        };
        let total = weights.iter().enumerate().fold(rounding, |sum, (offset, weight)| {
            sum + i32::from(at(first + offset)) * weight
        });
        (total >> self.precision).clamp(0, 255) as u8
    }
}

/// `image` resized to `width × height` as the reference resizes it.
pub(crate) fn resize_bicubic(image: &RgbImage, width: u32, height: u32) -> RgbImage {
    let horizontal = if image.width() != width {
        let weights = AxisWeights::new(image.width() as usize, width as usize);
        RgbImage::from_fn(width, image.height(), |x, y| {
            image::Rgb(std::array::from_fn(|channel| {
                weights.sample(x as usize, |source| image.get_pixel(source as u32, y).0[channel])
            }))
        })
    } else {
        image.clone()
    };
    if horizontal.height() == height {
        return horizontal;
    }
    let weights = AxisWeights::new(horizontal.height() as usize, height as usize);
    RgbImage::from_fn(width, height, |x, y| {
        image::Rgb(std::array::from_fn(|channel| {
            weights.sample(y as usize, |source| horizontal.get_pixel(x, source as u32).0[channel])
        }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flat_image_stays_flat_and_weights_sum_to_one() {
        let flat = RgbImage::from_pixel(30, 20, image::Rgb([200, 7, 0]));
        let resized = resize_bicubic(&flat, 96, 64);
        assert!(resized.pixels().all(|pixel| pixel.0 == [200, 7, 0]));
        let shrunk = resize_bicubic(&flat, 7, 5);
        assert!(shrunk.pixels().all(|pixel| pixel.0 == [200, 7, 0]));
        for (input, output) in [(20, 64), (300, 128), (77, 64)] {
            let weights = AxisWeights::new(input, output);
            let unit = 1i32 << weights.precision;
            for (_, taps) in &weights.taps {
                let sum: i32 = taps.iter().sum();
                assert!(
                    (sum - unit).abs() <= taps.len() as i32,
                    "{input}→{output}: {sum} vs {unit}"
                );
            }
        }
    }
}
