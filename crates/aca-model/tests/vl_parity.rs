//! The Qwen3-VL model against the `transformers` float64 reference on a tiny random checkpoint: logits at
//! every position, decoding through the cache after images, greedy tokens, and the whole path from PNG
//! files through the Rust image processor.

mod vl_support;

use aca_model::{ProcessedImage, SequenceStep};
use vl_support::{
    ReferenceTensors, TOLERANCE, fixture_dir, load_model, logits_against_reference, max_abs_diff, model_reference,
    reference_images,
};

fn assert_logits(actual: &[f32], expected: &[f32], what: &str) -> f32 {
    let difference = max_abs_diff(actual, expected);
    assert!(
        difference <= TOLERANCE,
        "{what}: max abs logit error {difference:e} > {TOLERANCE:e}"
    );
    difference
}

#[test]
fn logits_at_every_position_match_the_reference() {
    let model = load_model();
    let tensors = ReferenceTensors::open("vl_tiny");
    let mut worst = 0.0f32;
    for case in model_reference().cases {
        let (rows, expected) = logits_against_reference(&model, &case, &tensors);
        assert_eq!(rows.len(), expected.len());
        for (position, (row, expected)) in rows.iter().zip(&expected).enumerate() {
            worst = worst.max(assert_logits(
                row,
                expected,
                &format!("{} position {position}", case.name),
            ));
        }
    }
    eprintln!("max abs logit difference over all positions: {worst:e}");
}

#[test]
fn rotary_positions_match_the_reference_rope_index() {
    let model = load_model();
    let tensors = ReferenceTensors::open("vl_tiny");
    for case in model_reference().cases {
        let images = reference_images(&case, &tensors);
        let ids = case.full_ids();
        let positions = model.rope_positions(&ids, &images).unwrap();
        let expected = tensors.get(&format!("{}.position_ids", case.name));
        assert_eq!(expected.shape, vec![3, ids.len()]);
        for axis in 0..3 {
            let actual: Vec<i64> = positions.iter().map(|position| position[axis] as i64).collect();
            assert_eq!(
                actual,
                expected.integers[axis * ids.len()..(axis + 1) * ids.len()],
                "{} axis {axis}",
                case.name
            );
        }
        let last = positions.last().unwrap()[0] as i64;
        assert_eq!(last + 1 - ids.len() as i64, case.rope_delta, "{}", case.name);
    }
}

#[test]
fn decoding_after_images_through_the_cache_matches_the_reference() {
    let model = load_model();
    let tensors = ReferenceTensors::open("vl_tiny");
    for case in model_reference().cases {
        let images = reference_images(&case, &tensors);
        let expected = tensors.rows(&format!("{}.logits", case.name));
        let prompt_length = case.prompt_ids.len();
        let mut cache = model.new_cache();
        let mut logits = model.prefill(&case.prompt_ids, &images, &mut cache).unwrap();
        for (step, &token) in case.greedy.iter().enumerate() {
            let position = prompt_length - 1 + step;
            assert_logits(
                &logits,
                &expected[position],
                &format!("{} decode at {position}", case.name),
            );
            assert_eq!(
                aca_model::argmax(&logits),
                Some(token),
                "{} greedy token {step}",
                case.name
            );
            logits = model
                .forward(&mut [SequenceStep {
                    tokens: &[token],
                    cache: &mut cache,
                }])
                .unwrap()
                .remove(0);
        }
        assert_logits(&logits, expected.last().unwrap(), &format!("{} last", case.name));
        assert_eq!(cache.len(), prompt_length + case.greedy.len());
    }
}

#[test]
fn images_processed_from_png_files_give_the_reference_greedy_tokens() {
    let model = load_model();
    let tensors = ReferenceTensors::open("vl_tiny");
    for case in model_reference().cases {
        let images: Vec<ProcessedImage> = case
            .images
            .iter()
            .map(|file| {
                model
                    .processor()
                    .process_file(&fixture_dir("vl_tiny").join(file))
                    .unwrap()
            })
            .collect();
        for (image, expected) in images.iter().zip(reference_images(&case, &tensors)) {
            assert_eq!(image.grid, expected.grid);
            assert!(max_abs_diff(&image.pixel_values, &expected.pixel_values) <= 1e-6);
        }
        let greedy = model
            .generate_greedy(&case.prompt_ids, &images, case.greedy.len(), &[])
            .unwrap();
        assert_eq!(greedy, case.greedy, "{}", case.name);
    }
}

#[test]
fn a_sequence_with_images_decodes_in_a_batch_with_a_text_sequence() {
    let model = load_model();
    let tensors = ReferenceTensors::open("vl_tiny");
    let cases = model_reference().cases;
    let (with_images, text) = (&cases[1], &cases[2]);
    let expected_images = tensors.rows(&format!("{}.logits", with_images.name));
    let expected_text = tensors.rows(&format!("{}.logits", text.name));

    let mut image_cache = model.new_cache();
    model
        .prefill(
            &with_images.prompt_ids,
            &reference_images(with_images, &tensors),
            &mut image_cache,
        )
        .unwrap();
    // The text prompt prefills in the same call as the first decode step of the sequence with images.
    let mut text_cache = model.new_cache();
    let first = [with_images.greedy[0]];
    let logits = model
        .forward(&mut [
            SequenceStep {
                tokens: &first,
                cache: &mut image_cache,
            },
            SequenceStep {
                tokens: &text.prompt_ids,
                cache: &mut text_cache,
            },
        ])
        .unwrap();
    assert_logits(
        &logits[0],
        &expected_images[with_images.prompt_ids.len()],
        "batched image decode",
    );
    assert_logits(
        &logits[1],
        &expected_text[text.prompt_ids.len() - 1],
        "batched text prefill",
    );
}

#[test]
fn a_cache_truncated_after_an_image_replays_the_same_logits() {
    let model = load_model();
    let tensors = ReferenceTensors::open("vl_tiny");
    let case = &model_reference().cases[0];
    let expected = tensors.rows(&format!("{}.logits", case.name));
    let mut cache = model.new_cache();
    model
        .prefill(&case.full_ids(), &reference_images(case, &tensors), &mut cache)
        .unwrap();
    let keep = case.prompt_ids.len() + 2;
    cache.truncate(keep);
    let token = case.full_ids()[keep];
    let logits = model
        .forward(&mut [SequenceStep {
            tokens: &[token],
            cache: &mut cache,
        }])
        .unwrap()
        .remove(0);
    assert_logits(&logits, &expected[keep], "after truncation");
}

#[test]
fn a_text_only_prompt_runs_as_the_text_model_does() {
    let model = load_model();
    let tensors = ReferenceTensors::open("vl_tiny");
    let case = &model_reference().cases[2];
    assert!(case.images.is_empty());
    let expected = tensors.rows(&format!("{}.logits", case.name));
    let logits = model
        .text_model()
        .forward_one(&case.prompt_ids, &mut model.new_cache())
        .unwrap();
    assert_logits(&logits, &expected[case.prompt_ids.len() - 1], "text model");
    let greedy = model
        .text_model()
        .generate_greedy(&case.prompt_ids, case.greedy.len(), &[])
        .unwrap();
    assert_eq!(greedy, case.greedy);
}
