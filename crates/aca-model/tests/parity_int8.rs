//! int8 projections against the same checkpoint with its projections replaced by their dequantised
//! values (each row of a stored `[out, in]` weight rounded to the nearest multiple of its largest
//! magnitude / 127), loaded in f32. That copy is the model int8 stands for, so the int8 model's logits
//! must be that model's within the f32 tolerance: the packed kernel, the scales and the plumbing are
//! all checked by it. How far quantising moves logits from the float64 reference is the copy's own
//! distance to it, printed, and held to a budget in the manner of `parity_bf16.rs`: a logit's path
//! crosses 4 projections per layer (q/k/v, o, gate/up, down), each weight off by at most 1/254 of its
//! row's largest, so 8/254 of the largest logit in these 2-layer fixtures (measured: about a third of
//! that). In bf16 the activations round too, and the bf16 bound of
//! `parity_bf16.rs` (28 roundings of 2^-9 of the largest logit) applies to the difference.
//!
//! Also checked: the memory-fit estimate is the bytes the quantised model really holds.

mod common;

use std::path::Path;

use aca_model::memory::MemoryNeed;
use aca_model::{Device, Precision, Quantization, Qwen3Model, WeightDtype};
use common::{TOLERANCE, fixture_dir, logits_at_every_position, max_abs_diff, reference};
use safetensors::{Dtype, SafeTensors};

/// f32 fixtures: one with tied embeddings and grouped queries, one with attention biases.
const FIXTURES: &[&str] = &["tied_gqa", "mha_bias"];

fn int8(dtype: WeightDtype) -> Precision {
    Precision::new(dtype, Quantization::Int8)
}

fn load(directory: &Path, precision: Precision) -> Qwen3Model {
    Qwen3Model::load_as(directory, &Device::flex(), precision).unwrap_or_else(|error| panic!("{error}"))
}

/// A copy of fixture `name` whose layer projections hold their dequantised int8 values.
fn dequantised_copy(name: &str) -> tempfile::TempDir {
    let source = fixture_dir(name);
    let copy = tempfile::tempdir().unwrap();
    std::fs::copy(source.join("config.json"), copy.path().join("config.json")).unwrap();
    let bytes = std::fs::read(source.join("model.safetensors")).unwrap();
    let tensors = SafeTensors::deserialize(&bytes).unwrap();
    let mut rewritten: Vec<(String, Vec<usize>, Vec<u8>)> = Vec::new();
    for (tensor_name, view) in tensors.tensors() {
        assert_eq!(view.dtype(), Dtype::F32, "{name}: {tensor_name} is not f32");
        let shape = view.shape().to_vec();
        let mut values: Vec<f32> = view
            .data()
            .chunks_exact(4)
            .map(|bytes| f32::from_le_bytes(bytes.try_into().unwrap()))
            .collect();
        if tensor_name.contains(".layers.") && tensor_name.ends_with("_proj.weight") {
            for row in values.chunks_exact_mut(shape[1]) {
                dequantise_row(row);
            }
        }
        let data = values.iter().flat_map(|value| value.to_le_bytes()).collect();
        rewritten.push((tensor_name, shape, data));
    }
    let views: Vec<(String, safetensors::tensor::TensorView<'_>)> = rewritten
        .iter()
        .map(|(name, shape, data)| {
            let view = safetensors::tensor::TensorView::new(Dtype::F32, shape.clone(), data).unwrap();
            (name.clone(), view)
        })
        .collect();
    let file = safetensors::serialize(views, None).unwrap();
    std::fs::write(copy.path().join("model.safetensors"), file).unwrap();
    copy
}

/// One output channel rounded to int8 steps of its largest magnitude / 127.
fn dequantise_row(row: &mut [f32]) {
    let scale = row.iter().fold(0f32, |largest, value| largest.max(value.abs())) / 127.0;
    if scale == 0.0 {
        return;
    }
    for value in row {
        *value = (*value / scale).round().clamp(-127.0, 127.0) * scale;
    }
}

/// Every position's logits of the first reference prompt's full continuation.
fn all_logits(model: &Qwen3Model, name: &str) -> Vec<Vec<f32>> {
    logits_at_every_position(model, &reference(name).full.ids)
}

fn largest_diff(actual: &[Vec<f32>], expected: &[Vec<f32>]) -> f32 {
    actual
        .iter()
        .zip(expected)
        .map(|(a, e)| max_abs_diff(a, e))
        .fold(0.0, f32::max)
}

#[test]
fn int8_logits_are_the_dequantised_models_at_every_position() {
    for name in FIXTURES {
        let copy = dequantised_copy(name);
        let dequantised = all_logits(&load(copy.path(), WeightDtype::F32.into()), name);
        let quantised = all_logits(&load(&fixture_dir(name), int8(WeightDtype::F32)), name);
        let diff = largest_diff(&quantised, &dequantised);
        assert!(diff <= TOLERANCE, "{name}: int8 against its dequantised model: {diff:e}");
        let expected = reference(name).full.logits;
        let moved = largest_diff(&dequantised, &expected);
        let largest = expected.iter().flatten().fold(0f32, |m, v| m.max(v.abs()));
        let budget = 4.0 * 2.0 / 254.0 * largest;
        println!("{name}: int8 logits within {diff:e} of the dequantised model; quantising moved them {moved:.4} from the reference (budget {budget:.4})");
        assert!(moved <= budget, "{name}: quantising moved logits by {moved}, beyond {budget}");
    }
}

#[test]
fn int8_decoding_through_the_cache_gives_the_prompts_logits() {
    for name in FIXTURES {
        let model = load(&fixture_dir(name), int8(WeightDtype::F32));
        let ids = &reference(name).full.ids;
        let whole = logits_at_every_position(&model, ids);
        let mut cache = model.new_cache();
        let mut logits = model.forward_one(&ids[..3], &mut cache).unwrap();
        for (position, expected) in whole.iter().enumerate().skip(2) {
            let diff = max_abs_diff(&logits, expected);
            assert!(diff <= TOLERANCE, "{name} position {position}: {diff:e}");
            if let Some(&next) = ids.get(position + 1) {
                logits = model.forward_one(&[next], &mut cache).unwrap();
            }
        }
    }
}

#[test]
fn int8_with_bf16_activations_stays_within_the_bf16_bound_of_the_dequantised_model() {
    for name in FIXTURES {
        let copy = dequantised_copy(name);
        let dequantised = all_logits(&load(copy.path(), WeightDtype::F32.into()), name);
        let largest = dequantised.iter().flatten().fold(0f32, |m, v| m.max(v.abs()));
        let bound = 28.0 * 2f32.powi(-9) * largest;
        let quantised = all_logits(&load(&fixture_dir(name), int8(WeightDtype::Bf16)), name);
        let diff = largest_diff(&quantised, &dequantised);
        println!("{name}: bf16 with int8 projections within {diff:.4} of the dequantised model (bound {bound:.4})");
        assert!(diff <= bound, "{name}: {diff} > {bound}");
    }
}

#[test]
fn the_memory_estimate_is_what_the_model_holds() {
    for name in FIXTURES {
        let directory = fixture_dir(name);
        for precision in [WeightDtype::F32.into(), int8(WeightDtype::F32), int8(WeightDtype::Bf16)] {
            let held = load(&directory, precision).weight_bytes();
            let need = MemoryNeed::for_checkpoint(&directory, precision, true, 1, 1).unwrap();
            assert_eq!(need.weights, held, "{name} in {precision}");
        }
        let f32_bytes = load(&directory, WeightDtype::F32.into()).weight_bytes();
        let int8_bytes = load(&directory, int8(WeightDtype::F32)).weight_bytes();
        assert!(int8_bytes < f32_bytes, "{name}: int8 holds {int8_bytes} bytes, f32 {f32_bytes}");
    }
}
