//! The floating-point type a model holds its weights and KV cache in and computes with: f32, bf16 or
//! f16, chosen at load time (`auto` takes the checkpoint's own).
//!
//! In bf16 or f16 the model follows `transformers` loading a checkpoint in that dtype: weights, hidden
//! states, rotary tables and cache are in it, matmuls accumulate in f32 and round their output to it, and
//! RMSNorm, the attention softmax and burn's fused attention compute in f32. Logits come back as the f32
//! values of the dtype's logits.

use std::fmt;
use std::str::FromStr;

use burn::tensor::{DType, Device};

use crate::checkpoint::CheckpointFiles;
use crate::error::ModelError;

/// The dtype asked for when loading a checkpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum WeightDtype {
    /// The checkpoint's own dtype (the widest, where its tensors differ).
    Auto,
    /// Every weight converted to f32, computed in f32: the closest to a float64 reference.
    #[default]
    F32,
    Bf16,
    F16,
}

impl WeightDtype {
    pub const ALL: [WeightDtype; 4] = [WeightDtype::Auto, WeightDtype::F32, WeightDtype::Bf16, WeightDtype::F16];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            WeightDtype::Auto => "auto",
            WeightDtype::F32 => "f32",
            WeightDtype::Bf16 => "bf16",
            WeightDtype::F16 => "f16",
        }
    }

    /// The dtype held for a checkpoint whose tensors are stored in `stored` (safetensors names:
    /// `BF16`, `F16`, `F32`); `auto` takes the widest of them, f32 when there are none.
    pub fn resolve<'a>(self, stored: impl IntoIterator<Item = &'a str>) -> DType {
        match self {
            WeightDtype::F32 => DType::F32,
            WeightDtype::Bf16 => DType::BF16,
            WeightDtype::F16 => DType::F16,
            WeightDtype::Auto => {
                let mut widest: Option<DType> = None;
                for name in stored {
                    let dtype = match name {
                        "BF16" => DType::BF16,
                        "F16" => DType::F16,
                        _ => DType::F32,
                    };
                    widest = Some(match widest {
                        None => dtype,
                        Some(known) if known == dtype => known,
                        // bf16 and f16 together, or either with f32: only f32 holds both exactly.
                        Some(_) => DType::F32,
                    });
                }
                widest.unwrap_or(DType::F32)
            }
        }
    }

    /// The dtype held for the checkpoint whose headers are `files`.
    pub fn resolve_for(self, files: &CheckpointFiles) -> DType {
        self.resolve(files.tensors.values().map(|entry| entry.dtype.as_str()))
    }
}

/// Bytes one value of `dtype` takes.
pub fn bytes_per_value(dtype: DType) -> u64 {
    dtype.size() as u64
}

/// The dtype's short name (`f32`, `bf16`, `f16`).
pub fn dtype_name(dtype: DType) -> &'static str {
    match dtype {
        DType::BF16 => "bf16",
        DType::F16 => "f16",
        DType::F64 => "f64",
        _ => "f32",
    }
}

/// Refuses a dtype the device cannot compute in (bf16 on most Vulkan devices, for example), rather
/// than let it compute garbage.
pub(crate) fn check_device_computes(device: &Device, dtype: DType) -> Result<(), ModelError> {
    if device.supports_dtype(dtype) {
        Ok(())
    } else {
        Err(ModelError::UnsupportedDtype(dtype_name(dtype)))
    }
}

impl fmt::Display for WeightDtype {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for WeightDtype {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        WeightDtype::ALL
            .into_iter()
            .find(|choice| choice.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| format!("unknown weight dtype {text:?}: expected auto, f32, bf16 or f16"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_takes_the_checkpoint_dtype_and_the_widest_when_mixed() {
        assert_eq!(WeightDtype::Auto.resolve(["BF16", "BF16"]), DType::BF16);
        assert_eq!(WeightDtype::Auto.resolve(["F16"]), DType::F16);
        assert_eq!(WeightDtype::Auto.resolve(["BF16", "F32"]), DType::F32);
        assert_eq!(WeightDtype::Auto.resolve(["BF16", "F16"]), DType::F32);
        assert_eq!(WeightDtype::Auto.resolve([]), DType::F32);
        assert_eq!(WeightDtype::Bf16.resolve(["F32"]), DType::BF16);
        assert_eq!(WeightDtype::F32.resolve(["BF16"]), DType::F32);
    }

    #[test]
    fn names_parse_back_and_sizes_are_real() {
        for choice in WeightDtype::ALL {
            assert_eq!(choice.name().parse::<WeightDtype>(), Ok(choice));
        }
        assert!("f8".parse::<WeightDtype>().is_err());
        assert_eq!(bytes_per_value(DType::F32), 4);
        assert_eq!(bytes_per_value(DType::BF16), 2);
        assert_eq!(bytes_per_value(DType::F16), 2);
        assert!(Device::flex().supports_dtype(DType::BF16));
        assert!(Device::flex().supports_dtype(DType::F16));
    }
}
