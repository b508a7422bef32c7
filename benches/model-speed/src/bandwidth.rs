//! The memory-bandwidth bound of batch-1 decoding: every weight is read once per token, so a token cannot
//! take less than the weight bytes divided by the memory bandwidth. On the CPU the bandwidth is measured.

use std::time::Instant;

use aca_model::layout::TensorLayout;
use aca_model::{DType, Quantization, Qwen3Config};

/// Bytes of weights one decoded token reads as aca-model holds them in `dtype` (the projections as
/// held on the CPU or elsewhere, the layers' quantised as `quantization` says): every layer, the final
/// norm, the output head, and one embedding row.
pub fn weight_bytes_per_token(config: &Qwen3Config, dtype: DType, quantization: Quantization, on_cpu: bool) -> u64 {
    let bytes_per_value = dtype.size() as u64;
    let hidden = config.hidden_size as u64;
    let head_dim = config.head_dim as u64;
    let q_width = config.num_attention_heads as u64 * head_dim;
    let kv_width = config.num_key_value_heads as u64 * head_dim;
    let projections: u64 = TensorLayout::fused_projections(config)
        .into_iter()
        .map(|shape| quantization.held_bytes(shape, dtype, on_cpu))
        .sum();
    let biases = if config.attention_bias {
        q_width + 2 * kv_width + hidden
    } else {
        0
    };
    let norms = 2 * hidden + 2 * head_dim;
    let per_layer = projections + (biases + norms) * bytes_per_value;
    let rest = hidden + config.vocab_size as u64 * hidden + hidden;
    config.num_hidden_layers as u64 * per_layer + rest * bytes_per_value
}

/// The host memory's read bandwidth in GB/s: `threads` threads summing their part of a buffer far larger
/// than the caches, best of `repeats` passes.
pub fn measured_read_gbps(threads: usize, repeats: usize) -> f64 {
    const BYTES: usize = 512 << 20;
    let buffer: Vec<f32> = (0..BYTES / 4).map(|i| (i % 7) as f32).collect();
    let part = buffer.len().div_ceil(threads.max(1));
    let mut best = f64::INFINITY;
    let mut checksum = 0.0f32;
    for _ in 0..repeats.max(1) {
        let started = Instant::now();
        let sums: Vec<f32> = std::thread::scope(|scope| {
            let workers: Vec<_> = buffer
                .chunks(part)
                .map(|chunk| scope.spawn(move || lane_sum(chunk)))
                .collect();
            workers.into_iter().map(|w| w.join().unwrap_or(0.0)).collect()
        });
        best = best.min(started.elapsed().as_secs_f64());
        checksum += sums.iter().sum::<f32>();
    }
    std::hint::black_box(checksum);
    BYTES as f64 / best / 1e9
}

/// A sum the compiler can vectorise: sixteen independent lanes.
fn lane_sum(values: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 16];
    let chunks = values.chunks_exact(16);
    let rest: f32 = chunks.remainder().iter().sum();
    for chunk in chunks {
        for (lane, value) in lanes.iter_mut().zip(chunk) {
            *lane += value;
        }
    }
    lanes.iter().sum::<f32>() + rest
}

/// Effective weight-read rate in GB/s (1e9 bytes) of a decode that took `seconds_per_token`.
pub fn effective_gbps(bytes_per_token: u64, seconds_per_token: f64) -> f64 {
    bytes_per_token as f64 / seconds_per_token / 1e9
}

#[cfg(test)]
mod tests {
    use super::*;
    use aca_model::random::RandomShape;

    #[test]
    fn the_bench_shape_reads_its_layers_and_the_output_head() {
        let directory = tempfile::tempdir().unwrap();
        let shape = RandomShape {
            vocab_size: 1000,
            ..RandomShape::bench()
        };
        aca_model::random::write_random_checkpoint(directory.path(), &shape, 7).unwrap();
        let config = aca_model::Qwen3Config::from_file(&directory.path().join("config.json")).unwrap();
        // Per layer: qkv 512·(512+2·256), o 512·512, mlp 3·512·1536, norms 2·512 + 2·64.
        let per_layer = 512 * 1024 + 512 * 512 + 3 * 512 * 1536 + 2 * 512 + 2 * 64;
        let expected = (8 * per_layer + 512 + 1000 * 512 + 512) * 4;
        assert_eq!(weight_bytes_per_token(&config, DType::F32, Quantization::None, true), expected);
        assert_eq!(weight_bytes_per_token(&config, DType::BF16, Quantization::None, true), expected / 2);
        // int8 projections: a byte per weight, plus a scale per output column (all widths are whole tiles).
        let projections = 512 * 1024 + 512 * 512 + 3 * 512 * 1536;
        let scales = 1024 + 512 + 3072 + 512;
        let int8 = weight_bytes_per_token(&config, DType::BF16, Quantization::Int8, true);
        assert_eq!(int8, expected / 2 - 8 * 2 * projections + 8 * (projections + 4 * scales));
        assert!((effective_gbps(2_000_000_000, 0.5) - 4.0).abs() < 1e-9);
    }
}
