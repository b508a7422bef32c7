//! A CPU tensor's values on the host and back, for the small passes the inference path makes in one
//! loop on the CPU rather than as several of burn's operations: a decoding step's tensors are small,
//! so there each operation's own cost, not its arithmetic, is what takes the time.

use burn::tensor::{DType, Device, Tensor, TensorData};
use half::bf16;
use rayon::prelude::*;

/// Passes over at least this many values are shared out among the CPU's threads.
const PARALLEL_VALUES: usize = 1 << 15;

/// Runs `pass(index, row)` over the `width`-value rows of `out`, shared out among the CPU's threads
/// when the pass reads or writes at least [`PARALLEL_VALUES`] values (`work`), else in this thread.
pub(crate) fn each_row(out: &mut [f32], width: usize, work: usize, pass: impl Fn(usize, &mut [f32]) + Sync) {
    if work >= PARALLEL_VALUES {
        out.par_chunks_mut(width).enumerate().for_each(|(index, row)| pass(index, row));
    } else {
        out.chunks_mut(width).enumerate().for_each(|(index, row)| pass(index, row));
    }
}

/// Whether a pass over `tensors` can run on the host: all on the CPU, all f32 or all bf16.
pub(crate) fn on_host(device: &Device, dtypes: &[DType]) -> bool {
    *device == Device::flex() && matches!(dtypes.first(), Some(DType::F32 | DType::BF16)) && dtypes.windows(2).all(|pair| pair[0] == pair[1])
}

/// A tensor's values widened to f32, row-major; none for a tensor that cannot be read that way.
/// It takes a clone's values: the tensor is still used by whoever holds it.
pub(crate) fn widened<const D: usize>(tensor: Tensor<D>) -> Option<Vec<f32>> {
    values_of(tensor).ok()
}

/// A tensor's values widened to f32, row-major, or the tensor back where they cannot be read that
/// way. Taking the tensor spares the copy of a tensor someone else still holds.
#[allow(clippy::result_large_err)] // The "error" is the caller's tensor handed back, not a failure.
pub(crate) fn values_of<const D: usize>(tensor: Tensor<D>) -> Result<Vec<f32>, Tensor<D>> {
    let (device, dtype) = (tensor.device(), tensor.dtype());
    let data = tensor.into_data();
    let values = match data.dtype() {
        // burn's conversion widens one value at a time.
        DType::BF16 => data
            .as_slice::<bf16>()
            .ok()
            .map(|values| values.iter().map(|value| value.widen()).collect()),
        DType::F32 => data.as_slice::<f32>().ok().map(<[f32]>::to_vec),
        _ => data.clone().convert::<f32>().try_into_vec::<f32>().ok(),
    };
    values.ok_or_else(|| Tensor::from_data(data, (&device, dtype)))
}

/// A value the host reads as f32: an f32, or a bf16 (the top half of its f32).
pub(crate) trait Widen: Copy + Send + Sync {
    fn widen(self) -> f32;
}

impl Widen for f32 {
    #[inline(always)]
    fn widen(self) -> f32 {
        self
    }
}

impl Widen for bf16 {
    #[inline(always)]
    fn widen(self) -> f32 {
        f32::from_bits(u32::from(self.to_bits()) << 16)
    }
}

/// `value` as `dtype` holds it: rounded to bf16, or as it is in f32.
#[inline(always)]
pub(crate) fn rounded(value: f32, dtype: DType) -> f32 {
    if dtype == DType::BF16 { to_bf16(value) } else { value }
}

/// `value` rounded to the nearest bf16, ties to even, as `half` rounds; NaN stays a quiet NaN.
/// Written out in bit operations, which the compiler vectorises, where `half`'s conversion is a
/// call per value.
#[inline(always)]
fn to_bf16(value: f32) -> f32 {
    const HIGH: u32 = 0xFFFF_0000;
    let bits = value.to_bits();
    let nearest = bits.wrapping_add(0x7FFF + ((bits >> 16) & 1)) & HIGH;
    let quiet_nan = (bits | 0x0040_0000) & HIGH;
    f32::from_bits(if value.is_nan() { quiet_nan } else { nearest })
}

/// A tensor of `dtype` on `device` from values already rounded to it.
pub(crate) fn tensor<const D: usize>(values: Vec<f32>, shape: [usize; D], device: &Device, dtype: DType) -> Tensor<D> {
    let data = if dtype == DType::BF16 {
        // Rounded already, so each value's top half is its bf16.
        let narrowed: Vec<bf16> = values.iter().map(|value| bf16::from_bits((value.to_bits() >> 16) as u16)).collect();
        TensorData::new(narrowed, shape)
    } else {
        TensorData::new(values, shape)
    };
    Tensor::from_data(data, (device, dtype))
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};

    use super::*;

    #[test]
    fn rounding_to_bf16_is_halfs_for_every_kind_of_value() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let special = [0.0, -0.0, 1.0, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, f32::MAX, f32::MIN_POSITIVE, 1e-40];
        let ties = [f32::from_bits(0x3F80_8000), f32::from_bits(0x3F81_8000), f32::from_bits(0x7F7F_FFFF)];
        let random = (0..100_000).map(|_| f32::from_bits(rng.random()));
        for value in special.into_iter().chain(ties).chain(random) {
            let expected = bf16::from_f32(value).to_f32();
            let got = rounded(value, DType::BF16);
            assert!(
                got.to_bits() == expected.to_bits() || (got.is_nan() && expected.is_nan()),
                "{value:e} ({:#010x}): {got:e} vs {expected:e}",
                value.to_bits()
            );
            assert_eq!(rounded(value, DType::F32).to_bits(), value.to_bits());
        }
    }
}
