//! The tiny Qwen3-VL checkpoint (stored in f32) loaded in bf16: both towers run in bf16 with images and
//! stay near the `transformers` float64 reference of the f32 weights.
//!
//! The bound counts roundings as `parity_bf16` does, with one more per layer or block for its weights
//! (rounded from f32 to bf16 on load): 13 per text layer and 4 after the last (3 layers: 43), 12 per
//! vision block and 5 for the merger (3 blocks: 41), 84 in all, each at most `u = 2^-9` relative, times
//! the reference's largest logit.

mod vl_support;

use aca_model::{Device, Qwen3VlModel, WeightDtype};
use burn::tensor::DType;
use vl_support::{ReferenceTensors, fixture_dir, logits_against_reference, max_abs_diff, model_reference};

const ROUNDINGS: f32 = 84.0;

#[test]
fn a_vision_language_checkpoint_runs_in_bf16_near_the_reference() {
    let model = Qwen3VlModel::load_as(&fixture_dir("vl_tiny"), &Device::flex(), WeightDtype::Bf16).unwrap();
    assert_eq!(model.text_model().dtype(), DType::BF16);
    let tensors = ReferenceTensors::open("vl_tiny");
    let (mut worst, mut widest_bound) = (0.0f32, 0.0f32);
    for case in model_reference().cases {
        let (rows, expected) = logits_against_reference(&model, &case, &tensors);
        let largest = expected
            .iter()
            .flatten()
            .fold(0.0f32, |largest, logit| largest.max(logit.abs()));
        let bound = ROUNDINGS * 2f32.powi(-9) * largest;
        widest_bound = widest_bound.max(bound);
        for (position, (row, expected)) in rows.iter().zip(&expected).enumerate() {
            let difference = max_abs_diff(row, expected);
            assert!(
                difference <= bound,
                "{} position {position}: max abs logit error {difference:e} > {bound:e}",
                case.name
            );
            worst = worst.max(difference);
        }
    }
    eprintln!("max abs logit difference in bf16 over all positions: {worst:e} (bound up to {widest_bound:e})");
}
