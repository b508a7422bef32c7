//! Whether a checkpoint fits a device before it is loaded: the bytes its weights take in the dtype the
//! model holds them in (its layers' projections quantised where asked), plus the KV cache (in that dtype)
//! of a full batch at full context, against the memory the device has.

use std::fmt;
use std::path::Path;

use burn::tensor::DType;

use crate::checkpoint::CheckpointFiles;
use crate::config::Qwen3Config;
use crate::dtype::{WeightDtype, bytes_per_value, dtype_name};
use crate::quantization::{Precision, Quantization};
use crate::engine::is_multimodal_checkpoint;
use crate::error::ModelError;
use crate::layout::{LM_HEAD, TensorLayout};
use crate::vl::Qwen3VlConfig;
use crate::vl::vision_weights::expected_vision_tensors;

/// What serving a checkpoint needs, in bytes.
///
/// Only what stays held is counted: loading also holds one weight file's bytes and, briefly, one
/// tensor's f32 copy, and every forward call its activations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryNeed {
    /// Every weight tensor, as held (in `dtype`; with tied embeddings the output head is a second,
    /// transposed copy of the embedding).
    pub weights: u64,
    /// Keys and values of every layer for `max_batch` sequences of `max_context` tokens, in `dtype`.
    pub kv_cache: u64,
    /// The dtype weights and KV cache are held in.
    pub dtype: DType,
    /// How the layers' projections are held.
    pub quantization: Quantization,
    pub max_batch: usize,
    pub max_context: usize,
}

impl MemoryNeed {
    /// The need of `config` held in `dtype` as a GPU holds it (every weight its stored bytes), serving
    /// `max_batch` sequences of up to `max_context` tokens each.
    pub fn for_config(config: &Qwen3Config, dtype: DType, max_batch: usize, max_context: usize) -> Self {
        Self::for_config_quantized(config, dtype, Quantization::None, false, max_batch, max_context)
    }

    /// Like [`Self::for_config`], with the layers' projections held as `quantization` says, in the
    /// layouts of the CPU (`on_cpu`: bf16 and int8 projections padded to whole tiles of columns) or of
    /// burn's tensors.
    pub fn for_config_quantized(
        config: &Qwen3Config,
        dtype: DType,
        quantization: Quantization,
        on_cpu: bool,
        max_batch: usize,
        max_context: usize,
    ) -> Self {
        let layout = TensorLayout::for_config(config);
        let bytes = bytes_per_value(dtype);
        let values = |dims: &[usize]| dims.iter().map(|&d| d as u64).product::<u64>();
        let others: u64 = layout
            .expected(config)
            .iter()
            .filter(|(name, _)| !layout.is_layer_projection(name) && name.as_str() != LM_HEAD)
            .map(|(_, dims)| values(dims) * bytes)
            .sum();
        let per_layer: u64 = TensorLayout::fused_projections(config)
            .into_iter()
            .map(|shape| quantization.held_bytes(shape, dtype, on_cpu))
            .sum();
        // The output head, `[hidden, vocab]`: with tied embeddings a transposed copy of the embedding.
        let head = Quantization::None.held_bytes([config.hidden_size, config.vocab_size], dtype, on_cpu);
        let weights = others + per_layer * config.num_hidden_layers as u64 + head;
        let per_token =
            2 * config.num_hidden_layers as u64 * config.num_key_value_heads as u64 * config.head_dim as u64;
        MemoryNeed {
            weights,
            kv_cache: per_token * max_batch as u64 * max_context as u64 * bytes,
            dtype,
            quantization,
            max_batch,
            max_context,
        }
    }

    /// The need of the checkpoint in `directory` loaded as `dtype` (its `config.json` is read, and for
    /// `auto` its weight files' headers); a Qwen3-VL checkpoint's vision encoder counts with its text decoder.
    pub fn for_checkpoint(
        directory: &Path,
        precision: impl Into<Precision>,
        on_cpu: bool,
        max_batch: usize,
        max_context: usize,
    ) -> Result<Self, ModelError> {
        let Precision { dtype, quantization } = precision.into();
        let path = directory.join("config.json");
        let config = Qwen3Config::from_file(&path)?;
        let max_context = max_context.min(config.max_position_embeddings);
        let dtype = match dtype {
            WeightDtype::Auto => dtype.resolve_for(&CheckpointFiles::open(directory)?),
            chosen => chosen.resolve([]),
        };
        let mut need = Self::for_config_quantized(&config, dtype, quantization, on_cpu, max_batch, max_context);
        if is_multimodal_checkpoint(directory)? {
            let vision = Qwen3VlConfig::from_file(&path)?.vision;
            let values: u64 = expected_vision_tensors(&vision)
                .values()
                .map(|dims| dims.iter().map(|&d| d as u64).product::<u64>())
                .sum();
            need.weights += values * bytes_per_value(dtype);
        }
        Ok(need)
    }

    /// The largest batch of `max_context`-token sequences that fits `available` bytes beside the weights
    /// (0 when the weights alone do not fit).
    pub fn max_batch_within(&self, available: u64) -> usize {
        let per_sequence = self.kv_cache / (self.max_batch as u64).max(1);
        match available.checked_sub(self.weights) {
            Some(room) if per_sequence > 0 => usize::try_from(room / per_sequence).unwrap_or(usize::MAX),
            Some(_) => usize::MAX,
            None => 0,
        }
    }

    /// `, the layers' projections in int8` where they are quantised, else nothing: for messages.
    pub fn quantization_note(&self) -> String {
        match self.quantization {
            Quantization::None => String::new(),
            quantized => format!(", the layers' projections in {quantized}"),
        }
    }

    pub fn total(&self) -> u64 {
        self.weights.saturating_add(self.kv_cache)
    }

    /// Refuses when the need exceeds `available` bytes of the device named `device`.
    pub fn check_fits(&self, device: &str, available: u64) -> Result<(), DoesNotFit> {
        if self.total() > available {
            return Err(DoesNotFit {
                need: *self,
                device: device.to_string(),
                available,
            });
        }
        Ok(())
    }
}

/// The checkpoint needs more memory than the device has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the checkpoint does not fit the {device}: it needs {} ({} of weights + {} of KV cache for {} sequences × {} tokens, both in {}{}) but {} are available; lower --max-batch or --max-context, hold the weights in a smaller dtype or quantise them, or use a device with more memory",
    Bytes(need.total()), Bytes(need.weights), Bytes(need.kv_cache), need.max_batch, need.max_context, dtype_name(need.dtype), need.quantization_note(), Bytes(*available)
)]
pub struct DoesNotFit {
    pub need: MemoryNeed,
    pub device: String,
    pub available: u64,
}

/// The host's available RAM (`MemAvailable` of `/proc/meminfo`), where the system reports it.
pub fn available_host_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_meminfo_available(&text)
}

fn parse_meminfo_available(text: &str) -> Option<u64> {
    let line = text.lines().find(|line| line.starts_with("MemAvailable:"))?;
    let mut fields = line.split_whitespace().skip(1);
    let value: u64 = fields.next()?.parse().ok()?;
    match fields.next() {
        Some("kB") => value.checked_mul(1024),
        None => Some(value),
        Some(_) => None,
    }
}

/// A byte count written for people: `1.5 GiB` (exact bytes in parentheses below 1 KiB are plain).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bytes(pub u64);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
        if self.0 < 1024 {
            return write!(f, "{} B", self.0);
        }
        let mut value = self.0 as f64 / 1024.0;
        let mut unit = 0;
        while value >= 1024.0 && unit + 1 < UNITS.len() {
            value /= 1024.0;
            unit += 1;
        }
        write!(f, "{value:.1} {}", UNITS[unit])
    }
}

/// Parses a byte count: plain bytes (`1048576`) or a number with a unit (`512MiB`, `24GiB`, `8 GB`,
/// `1.5G`); binary and decimal units are both understood, as they are written.
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a byte count (e.g. 17179869184, 16GiB or 512MB)"))?;
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" => 1 << 10,
        "m" | "mib" => 1 << 20,
        "g" | "gib" => 1 << 30,
        "t" | "tib" => 1 << 40,
        "kb" => 1_000,
        "mb" => 1_000_000,
        "gb" => 1_000_000_000,
        "tb" => 1_000_000_000_000,
        other => {
            return Err(format!(
                "unknown unit {other:?} in {text:?}: use B, KiB, MiB, GiB, TiB, KB, MB, GB or TB"
            ));
        }
    };
    let bytes = number * scale as f64;
    if !bytes.is_finite() || bytes < 0.0 || bytes > u64::MAX as f64 {
        return Err(format!("{text:?} is out of range"));
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_counts_parse_in_both_unit_systems() {
        assert_eq!(parse_bytes("1048576"), Ok(1 << 20));
        assert_eq!(parse_bytes("512MiB"), Ok(512 << 20));
        assert_eq!(parse_bytes("16 GiB"), Ok(16 << 30));
        assert_eq!(parse_bytes("1.5G"), Ok(3 << 29));
        assert_eq!(parse_bytes("8GB"), Ok(8_000_000_000));
        assert!(parse_bytes("lots").is_err());
        assert!(parse_bytes("3 parsecs").is_err());
        assert_eq!(Bytes(3 << 29).to_string(), "1.5 GiB");
        assert_eq!(Bytes(100).to_string(), "100 B");
    }

    #[test]
    fn meminfo_gives_the_available_bytes() {
        let text = "MemTotal:       16314532 kB\nMemFree:         1000000 kB\nMemAvailable:    8000000 kB\n";
        assert_eq!(parse_meminfo_available(text), Some(8_000_000 * 1024));
        assert_eq!(parse_meminfo_available("MemTotal: 5 kB\n"), None);
    }

    #[test]
    fn a_vision_language_checkpoint_counts_both_towers() {
        // The tiny Qwen3-VL fixture is stored in f32: its tensors' bytes are exactly what a GPU holds.
        let directory = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/vl_tiny");
        let file = std::fs::read(directory.join("model.safetensors")).unwrap();
        let header = u64::from_le_bytes(file[..8].try_into().unwrap());
        let stored = file.len() as u64 - 8 - header;
        let need = MemoryNeed::for_checkpoint(&directory, WeightDtype::F32, false, 1, 16).unwrap();
        assert_eq!(need.weights, stored);
        let auto = MemoryNeed::for_checkpoint(&directory, WeightDtype::Auto, false, 1, 16).unwrap();
        assert_eq!(auto, need);
        let halved = MemoryNeed::for_checkpoint(&directory, WeightDtype::Bf16, false, 1, 16).unwrap();
        assert_eq!((halved.weights, halved.kv_cache), (stored / 2, need.kv_cache / 2));
    }

    #[test]
    fn the_need_counts_every_weight_and_a_full_batch_of_cache() {
        let config = Qwen3Config::from_json_str(
            r#"{"model_type": "qwen3", "vocab_size": 100, "hidden_size": 8, "intermediate_size": 16,
                "num_hidden_layers": 2, "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 4,
                "tie_word_embeddings": true, "rope_theta": 10000.0, "rms_norm_eps": 1e-6,
                "max_position_embeddings": 64, "eos_token_id": 1}"#,
        )
        .unwrap();
        let need = MemoryNeed::for_config(&config, DType::F32, 3, 10);
        // Embeddings 100×8 and their transposed copy as the tied output head, final norm 8; per layer
        // q 8×8, k 4×8, v 4×8, o 8×8, q/k norms 4+4, gate/up 16×8 each, down 8×16, two norms 8+8.
        let per_layer = 64 + 32 + 32 + 64 + 4 + 4 + 128 * 3 + 16;
        assert_eq!(need.weights, (2 * 800 + 8 + 2 * per_layer) * 4);
        // 2 (k, v) × 2 layers × 1 kv head × 4 dims × 3 sequences × 10 tokens × 4 bytes.
        assert_eq!(need.kv_cache, 2 * 2 * 4 * 3 * 10 * 4);
        let bf16 = MemoryNeed::for_config(&config, DType::BF16, 3, 10);
        assert_eq!((bf16.weights, bf16.kv_cache), (need.weights / 2, need.kv_cache / 2));
        // 2 (k, v) × 2 layers × 4 dims × 4 bytes per token: 640 bytes per 10-token sequence.
        assert_eq!(need.max_batch_within(need.weights + 640 * 7 + 639), 7);
        assert_eq!(need.max_batch_within(need.weights - 1), 0);
        let refusal = need.check_fits("cpu", 100).unwrap_err().to_string();
        assert!(refusal.contains("100 B are available"), "{refusal}");
        assert!(refusal.contains("3 sequences × 10 tokens, both in f32"), "{refusal}");
        assert!(need.check_fits("cpu", need.total()).is_ok());
    }
}
