//! The bf16 fixture held and computed in bf16 (and in f16) against the `transformers` float64 reference
//! of the same bf16 weights: logits within a bound derived from the dtype's rounding, the same greedy
//! tokens wherever the bound decides them, and decoding through the cache.
//!
//! The bound. Every rounding to a dtype with `m` explicit mantissa bits has a relative error of at most
//! `u = 2^-(m+1)` (bf16: 2^-9, f16: 2^-11). A value on its way from the embedding to a logit is rounded
//! about 12 times per decoder layer (q/k/v projection, q/k norm, rotary, attention output, o projection,
//! residual add, norm, gate/up projection, SiLU, product, down projection, residual add) and 4 times
//! after the last (final norm, its scale, output head, the logit), so 12·layers + 4 = 28 times in this
//! 2-layer fixture. Adding those relative errors in the worst case (first order, the normalised layers
//! taken as unit gain) bounds a logit's error by 28·u·max|logit|: with the reference's largest logit of
//! 4.08, 0.223 in bf16 and 0.056 in f16. Measured on x86-64: 0.106 (bf16) and 0.022 (f16), either
//! prefilling or decoding through the cache; an f32 model is within 5e-6. A wrong layout or a missed
//! norm moves logits by more than 1.

mod common;

use aca_model::memory::MemoryNeed;
use aca_model::{Device, Qwen3Model, WeightDtype};
use burn::tensor::DType;
use common::{Reference, fixture_dir, logits_at_every_position, max_abs_diff, reference};

const FIXTURE: &str = "bf16_untied";

/// Roundings between the embedding and a logit in this 2-layer fixture (see the module comment).
const ROUNDINGS: f32 = 12.0 * 2.0 + 4.0;

/// The largest rounding error relative to the value, per dtype.
fn unit_roundoff(dtype: DType) -> f32 {
    match dtype {
        DType::BF16 => 2f32.powi(-9),
        DType::F16 => 2f32.powi(-11),
        other => panic!("no bound for {other:?}"),
    }
}

/// The largest logit error tolerated for `dtype` against `reference`.
fn bound(dtype: DType, reference: &Reference) -> f32 {
    let largest = reference
        .prompts
        .iter()
        .map(|prompt| &prompt.last_logits)
        .chain(&reference.full.logits)
        .flatten()
        .fold(0.0f32, |largest, logit| largest.max(logit.abs()));
    ROUNDINGS * unit_roundoff(dtype) * largest
}

fn load_as(dtype: WeightDtype) -> Qwen3Model {
    Qwen3Model::load_as(&fixture_dir(FIXTURE), &Device::flex(), dtype).unwrap_or_else(|error| panic!("{error}"))
}

fn assert_within(actual: &[f32], expected: &[f32], bound: f32, what: &str) {
    let diff = max_abs_diff(actual, expected);
    assert!(diff <= bound, "{what}: max abs logit error {diff:e} > {bound:e}");
}

/// The models in reduced precision the tests run, with their dtype.
fn reduced_models() -> [(Qwen3Model, DType); 2] {
    [
        (load_as(WeightDtype::Bf16), DType::BF16),
        (load_as(WeightDtype::F16), DType::F16),
    ]
}

#[test]
fn auto_holds_a_bf16_checkpoint_in_bf16_and_needs_its_stored_bytes() {
    let model = load_as(WeightDtype::Auto);
    assert_eq!(model.dtype(), DType::BF16);
    assert_eq!(load_as(WeightDtype::F16).dtype(), DType::F16);
    let directory = fixture_dir(FIXTURE);
    let file = std::fs::read(directory.join("model.safetensors")).unwrap();
    let header = u64::from_le_bytes(file[..8].try_into().unwrap());
    let need = MemoryNeed::for_checkpoint(&directory, WeightDtype::Auto, false, 1, 16).unwrap();
    assert_eq!(need.dtype, DType::BF16);
    assert_eq!(need.weights, file.len() as u64 - 8 - header);
    // The CPU pads its packed bf16 projections to whole tiles of columns, and counts that.
    let on_cpu = MemoryNeed::for_checkpoint(&directory, WeightDtype::Auto, true, 1, 16).unwrap();
    assert_eq!(on_cpu.weights, model.weight_bytes());
}

#[test]
fn bf16_and_f16_logits_are_within_their_bounds_at_every_position() {
    let reference = reference(FIXTURE);
    for (model, dtype) in reduced_models() {
        let bound = bound(dtype, &reference);
        for (index, prompt) in reference.prompts.iter().enumerate() {
            let logits = model.forward_one(&prompt.ids, &mut model.new_cache()).unwrap();
            assert_within(
                &logits,
                &prompt.last_logits,
                bound,
                &format!("{dtype:?} prompt {index}"),
            );
        }
        let full = &reference.full;
        let rows = logits_at_every_position(&model, &full.ids);
        for (position, (row, expected)) in rows.iter().zip(&full.logits).enumerate() {
            assert_within(row, expected, bound, &format!("{dtype:?} position {position}"));
        }
    }
}

#[test]
fn bf16_and_f16_decoding_through_the_cache_stays_within_the_bounds() {
    let reference = reference(FIXTURE);
    let prompt_len = reference.prompts[0].ids.len();
    let full = &reference.full;
    for (model, dtype) in reduced_models() {
        let bound = bound(dtype, &reference);
        let mut cache = model.new_cache();
        let mut logits = model.forward_one(&full.ids[..prompt_len], &mut cache).unwrap();
        for position in prompt_len - 1..full.ids.len() {
            let what = format!("{dtype:?} decode at position {position}");
            assert_within(&logits, &full.logits[position], bound, &what);
            if let Some(next) = full.ids.get(position + 1) {
                logits = model.forward_one(&[*next], &mut cache).unwrap();
            }
        }
        assert_eq!(cache.len(), full.ids.len());
    }
}

/// Greedy decoding picks the reference's token at every step the bound decides: where the model's own
/// best and second-best logits are more than twice the bound apart, the reference's order is the same
/// (each logit is within the bound of its reference). At a closer step the model may pick the other
/// token, and the continuations part there.
#[test]
fn bf16_and_f16_greedy_tokens_match_the_reference_wherever_the_bound_decides_them() {
    let reference = reference(FIXTURE);
    for (model, dtype) in reduced_models() {
        let bound = bound(dtype, &reference);
        for (index, prompt) in reference.prompts.iter().enumerate() {
            let mut cache = model.new_cache();
            let mut logits = model.forward_one(&prompt.ids, &mut cache).unwrap();
            for (step, &expected) in prompt.greedy.iter().enumerate() {
                let chosen = aca_model::argmax(&logits).unwrap();
                if chosen != expected {
                    let gap = logits[chosen as usize] - logits[expected as usize];
                    assert!(
                        gap <= 2.0 * bound,
                        "{dtype:?} prompt {index} step {step}: picked {chosen} over the reference's {expected} by {gap}, more than twice the bound {bound}"
                    );
                    eprintln!("{dtype:?} prompt {index}: parts from the reference at step {step} (a gap of {gap})");
                    break;
                }
                logits = model.forward_one(&[chosen], &mut cache).unwrap();
            }
        }
    }
}
