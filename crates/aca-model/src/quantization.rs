//! Weight-only quantisation, chosen at load time: the decoder layers' projections (q/k/v, o,
//! gate/up, down) held as int8 with one scale per output column, computed with activations in the
//! model's dtype. Embeddings, norms, the output head and the vision encoder keep the model's dtype,
//! as `transformers`' int8 loading keeps `lm_head`.
//!
//! On the CPU the projections are this crate's packed int8 matrices (a decoding step reads a byte per
//! weight); on other devices they are burn's quantised tensors (symmetric int8 in blocks of
//! [`BURN_BLOCK`] values, each block its own f32 scale), which the backend's matmul takes.

use std::fmt;
use std::str::FromStr;

use burn::tensor::DType;

use crate::dtype::{WeightDtype, bytes_per_value};
use crate::packed::TILE;

/// Values per scale in burn's quantised tensors (devices other than the CPU).
pub const BURN_BLOCK: u8 = 32;

/// How the decoder layers' projection weights are held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Quantization {
    /// In the model's dtype.
    #[default]
    None,
    /// int8 with f32 scales: about half of bf16's bytes, a quarter of f32's.
    Int8,
}

impl Quantization {
    pub const ALL: [Quantization; 2] = [Quantization::None, Quantization::Int8];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Quantization::None => "none",
            Quantization::Int8 => "int8",
        }
    }

    /// Bytes a `[inputs, outputs]` projection takes quantised, values and scales, or `None` when it
    /// keeps the model's dtype. On the CPU the columns are padded to whole tiles of 64, each with a
    /// scale; elsewhere every block of [`BURN_BLOCK`] values along a row has one.
    pub fn projection_bytes(self, inputs: u64, outputs: u64, on_cpu: bool) -> Option<u64> {
        match self {
            Quantization::None => None,
            Quantization::Int8 if on_cpu => {
                let columns = outputs.div_ceil(TILE as u64) * TILE as u64;
                Some(columns * (inputs + 4))
            }
            Quantization::Int8 => Some(inputs * outputs + 4 * inputs * outputs.div_ceil(u64::from(BURN_BLOCK))),
        }
    }

    /// Bytes a `[inputs, outputs]` projection takes as a model in `dtype` holds it: quantised as
    /// this says, else in the dtype, which on the CPU packs bf16 by whole tiles of columns (see
    /// `crate::packed`).
    pub fn held_bytes(self, [inputs, outputs]: [usize; 2], dtype: DType, on_cpu: bool) -> u64 {
        let (inputs, outputs) = (inputs as u64, outputs as u64);
        self.projection_bytes(inputs, outputs, on_cpu).unwrap_or_else(|| {
            let columns = if on_cpu && dtype == DType::BF16 {
                outputs.next_multiple_of(TILE as u64)
            } else {
                outputs
            };
            columns * inputs * bytes_per_value(dtype)
        })
    }
}

impl fmt::Display for Quantization {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Quantization {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Quantization::ALL
            .into_iter()
            .find(|choice| choice.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| format!("unknown quantisation {text:?}: expected none or int8"))
    }
}

/// How a checkpoint is loaded: the dtype of weights, activations and KV cache, and whether the
/// projections are quantised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Precision {
    pub dtype: WeightDtype,
    pub quantization: Quantization,
}

impl Precision {
    pub fn new(dtype: WeightDtype, quantization: Quantization) -> Self {
        Self { dtype, quantization }
    }
}

impl From<WeightDtype> for Precision {
    fn from(dtype: WeightDtype) -> Self {
        Self::new(dtype, Quantization::None)
    }
}

impl fmt::Display for Precision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.quantization {
            Quantization::None => write!(f, "{}", self.dtype),
            quantized => write!(f, "{} with {quantized} projections", self.dtype),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_int8_counts_its_scales() {
        for choice in Quantization::ALL {
            assert_eq!(choice.name().parse::<Quantization>(), Ok(choice));
        }
        assert!("int4".parse::<Quantization>().is_err());
        assert_eq!(Quantization::None.projection_bytes(4, 8, true), None);
        assert_eq!(Quantization::Int8.projection_bytes(4, 8, true), Some(64 * (4 + 4)));
        assert_eq!(Quantization::Int8.projection_bytes(4, 128, true), Some(128 * (4 + 4)));
        assert_eq!(Quantization::Int8.projection_bytes(4, 64, false), Some(4 * 64 + 4 * 4 * 2));
        assert_eq!(Quantization::Int8.held_bytes([4, 8], DType::BF16, true), 64 * (4 + 4));
        assert_eq!(Quantization::None.held_bytes([4, 8], DType::BF16, true), 64 * 4 * 2);
        assert_eq!(Quantization::None.held_bytes([4, 8], DType::BF16, false), 8 * 4 * 2);
        assert_eq!(Quantization::None.held_bytes([4, 8], DType::F32, true), 8 * 4 * 4);
        assert_eq!(Precision::from(WeightDtype::Bf16).to_string(), "bf16");
        assert_eq!(
            Precision::new(WeightDtype::Bf16, Quantization::Int8).to_string(),
            "bf16 with int8 projections"
        );
    }
}
