//! What the memory-fit check says about Qwen3-32B- and Qwen3-14B-shaped checkpoints on a 141 GB and a
//! 48 GB GPU: the figures the README quotes (`cargo test -p aca-model --test memory_fit -- --nocapture`
//! prints them).

use aca_model::{Quantization, Qwen3Config};
use aca_model::memory::{Bytes, MemoryNeed};
use burn::tensor::DType;

/// The shape of `Qwen/Qwen3-32B`'s `config.json` (untied, 64 layers, 8 KV heads of 128).
const QWEN3_32B: &str = r#"{"model_type": "qwen3", "vocab_size": 151936, "hidden_size": 5120,
    "intermediate_size": 25600, "num_hidden_layers": 64, "num_attention_heads": 64,
    "num_key_value_heads": 8, "head_dim": 128, "tie_word_embeddings": false, "rope_theta": 1000000.0,
    "rms_norm_eps": 1e-6, "max_position_embeddings": 40960, "eos_token_id": 151645}"#;

/// The shape of `Qwen/Qwen3-14B`'s `config.json` (untied, 40 layers, 8 KV heads of 128).
const QWEN3_14B: &str = r#"{"model_type": "qwen3", "vocab_size": 151936, "hidden_size": 5120,
    "intermediate_size": 17408, "num_hidden_layers": 40, "num_attention_heads": 40,
    "num_key_value_heads": 8, "head_dim": 128, "tie_word_embeddings": false, "rope_theta": 1000000.0,
    "rms_norm_eps": 1e-6, "max_position_embeddings": 40960, "eos_token_id": 151645}"#;

/// The H200's 141 GB and a 48 GB card (L40S, RTX 6000 Ada), in decimal bytes as sold.
const GPU_141_GB: u64 = 141_000_000_000;
const GPU_48_GB: u64 = 48_000_000_000;

const CONTEXTS: [usize; 4] = [4096, 8192, 32768, 40960];

fn config(json: &str) -> Qwen3Config {
    Qwen3Config::from_json_str(json).unwrap()
}

/// The largest batch at each context, as `aca serve --check-memory` reports it.
fn largest_batches(config: &Qwen3Config, dtype: DType, available: u64) -> Vec<usize> {
    CONTEXTS
        .iter()
        .map(|&context| MemoryNeed::for_config(config, dtype, 1, context).max_batch_within(available))
        .collect()
}

fn print_table(name: &str, config: &Qwen3Config, dtype: DType) {
    let need = MemoryNeed::for_config(config, dtype, 1, 1);
    println!(
        "{name} {dtype:?}: weights {} ({} bytes), KV cache {} per token",
        Bytes(need.weights),
        need.weights,
        Bytes(need.kv_cache)
    );
    for (label, available) in [("141 GB", GPU_141_GB), ("48 GB", GPU_48_GB)] {
        println!(
            "  {label}: largest --max-batch at --max-context {CONTEXTS:?}: {:?}",
            largest_batches(config, dtype, available)
        );
    }
}

#[test]
fn qwen3_32b_in_bf16_with_its_cache_fits_a_141_gb_gpu() {
    let qwen3_32b = config(QWEN3_32B);
    print_table("Qwen3-32B", &qwen3_32b, DType::BF16);
    print_table("Qwen3-32B", &qwen3_32b, DType::F32);
    // 32.76 billion values, 2 bytes each; 2 (k, v) × 64 layers × 8 heads × 128 × 2 bytes per token.
    let one_token = MemoryNeed::for_config(&qwen3_32b, DType::BF16, 1, 1);
    assert_eq!((one_token.weights, one_token.kv_cache), (65_524_246_528, 262_144));
    // aca serve's defaults (16 sequences of 8192 tokens): 61.0 GiB of weights + 32 GiB of cache.
    let defaults = MemoryNeed::for_config(&qwen3_32b, DType::BF16, 16, 8192);
    assert!(defaults.check_fits("cuda", GPU_141_GB).is_ok());
    assert_eq!(largest_batches(&qwen3_32b, DType::BF16, GPU_141_GB), [70, 35, 8, 7]);
    // Held in f32 the same checkpoint leaves room for 2 sequences of 8192 tokens, none of 32768.
    assert!(
        MemoryNeed::for_config(&qwen3_32b, DType::F32, 16, 8192)
            .check_fits("cuda", GPU_141_GB)
            .is_err()
    );
    assert_eq!(largest_batches(&qwen3_32b, DType::F32, GPU_141_GB), [4, 2, 0, 0]);
}

#[test]
fn on_a_48_gb_gpu_qwen3_32b_does_not_fit_in_bf16_and_qwen3_14b_does() {
    let qwen3_32b = config(QWEN3_32B);
    // 65.5 GB of bf16 weights alone exceed 48 GB: no batch or context fits.
    assert!(
        MemoryNeed::for_config(&qwen3_32b, DType::BF16, 1, 1)
            .check_fits("cuda", GPU_48_GB)
            .is_err()
    );
    assert_eq!(largest_batches(&qwen3_32b, DType::BF16, GPU_48_GB), [0, 0, 0, 0]);
    let qwen3_14b = config(QWEN3_14B);
    print_table("Qwen3-14B", &qwen3_14b, DType::BF16);
    assert_eq!(largest_batches(&qwen3_14b, DType::BF16, GPU_48_GB), [27, 13, 3, 2]);
}

#[test]
fn qwen3_32b_with_int8_projections_fits_a_48_gb_gpu() {
    let qwen3_32b = config(QWEN3_32B);
    let int8 = |context| MemoryNeed::for_config_quantized(&qwen3_32b, DType::BF16, Quantization::Int8, false, 1, context);
    let need = int8(1);
    println!(
        "Qwen3-32B bf16 with int8 projections on a GPU: weights {} ({} bytes)",
        Bytes(need.weights),
        need.weights
    );
    // The projections' 31.2 billion values at a byte each plus an f32 scale per 32, and the embedding
    // and output head (2 × 151936 × 5120) in bf16.
    let embeddings = 2 * 151_936 * 5120 * 2;
    let projections = 64 * (5120 * (8192 + 2 * 1024) + 8192 * 5120 + 3 * 5120 * 25_600) as u64;
    let norms = (5120 + 64 * (2 * 5120 + 2 * 128)) * 2;
    assert_eq!(need.weights, embeddings + projections * 9 / 8 + norms);
    let batches: Vec<usize> = CONTEXTS.iter().map(|&context| int8(context).max_batch_within(GPU_48_GB)).collect();
    println!("  48 GB: largest --max-batch at --max-context {CONTEXTS:?}: {batches:?}");
    assert_eq!(batches, [9, 4, 1, 0]);
    // On the CPU (a scale per output column) it needs less still.
    let on_cpu = MemoryNeed::for_config_quantized(&qwen3_32b, DType::BF16, Quantization::Int8, true, 1, 1);
    assert!(on_cpu.weights < need.weights);
}
