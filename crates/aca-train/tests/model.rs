//! The trainable Qwen3 against aca-model's inference model: same logits on the committed fixtures and on
//! seeded random checkpoints, and a saved checkpoint that the inference loader reads back unchanged.

use std::path::{Path, PathBuf};

use aca_model::random::{RandomShape, write_random_checkpoint};
use aca_model::{Device, Qwen3Model, SequenceStep};
use aca_train::model::{TextFiles, TrainableQwen3, pad_batch};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../aca-model/tests/fixtures")
        .join(name)
}

/// Two sequences of different lengths, so one of them is padded.
const SEQUENCES: [&[u32]; 2] = [&[3, 17, 42, 5, 99, 7, 1, 180], &[11, 2, 64, 200, 8]];

/// Largest absolute difference between the trainable model's logits for `SEQUENCES` (batched, padded)
/// and the inference model's (each sequence alone, all positions).
fn largest_difference(trainable: &TrainableQwen3, reference: &Qwen3Model) -> f32 {
    let device = Device::flex();
    let logits = trainable.forward(pad_batch(&SEQUENCES, 0, &device));
    let [_, length, vocab] = logits.dims();
    let values = logits.into_data().try_into_vec::<f32>().unwrap();
    let mut largest = 0.0f32;
    for (index, sequence) in SEQUENCES.iter().enumerate() {
        let mut cache = reference.new_cache();
        let expected = reference
            .forward_all_positions(&mut [SequenceStep {
                tokens: sequence,
                cache: &mut cache,
            }])
            .unwrap()
            .remove(0);
        for (position, row) in expected.iter().enumerate() {
            let start = (index * length + position) * vocab;
            for (got, want) in values[start..start + vocab].iter().zip(row) {
                largest = largest.max((got - want).abs());
            }
        }
    }
    largest
}

#[test]
fn logits_match_the_inference_model_on_every_fixture() {
    let device = Device::flex();
    for name in ["tied_gqa", "mha_bias", "bf16_untied", "untied_sharded"] {
        let directory = fixture(name);
        let trainable = TrainableQwen3::from_checkpoint(&directory, &device).unwrap();
        let reference = Qwen3Model::load(&directory, &device).unwrap();
        let difference = largest_difference(&trainable, &reference);
        assert!(difference < 1e-4, "{name}: logits differ by {difference}");
    }
}

fn tiny_shape() -> RandomShape {
    RandomShape {
        vocab_size: 320,
        max_position_embeddings: 64,
        eos_token_ids: vec![2],
        ..RandomShape::small()
    }
}

#[test]
fn a_seeded_model_is_the_random_checkpoint_of_that_seed() {
    let device = Device::flex();
    let directory = tempfile::tempdir().unwrap();
    write_random_checkpoint(directory.path(), &tiny_shape(), 7).unwrap();
    let reference = Qwen3Model::load(directory.path(), &device).unwrap();
    let same = TrainableQwen3::random(&tiny_shape(), 7, &device).unwrap();
    assert!(largest_difference(&same, &reference) < 1e-5);
    let other = TrainableQwen3::random(&tiny_shape(), 8, &device).unwrap();
    assert!(largest_difference(&other, &reference) > 1e-3);
}

#[test]
fn a_saved_checkpoint_loads_in_the_inference_model_with_the_same_logits() {
    let device = Device::flex();
    let source = fixture("mha_bias");
    let trainable = TrainableQwen3::from_checkpoint(&source, &device).unwrap();
    let text = fixture("text/qwen3");
    let saved = tempfile::tempdir().unwrap();
    trainable.save(saved.path(), Some(&TextFiles::read(&text).unwrap())).unwrap();
    let reloaded = Qwen3Model::load(saved.path(), &device).unwrap();
    // Two forward passes written apart (the trainable one and the inference one, which on the CPU
    // splits decoding products by columns and fuses the SiLU) agree to f32 rounding, within the
    // f32 parity bound both keep against transformers; a tensor saved wrongly differs by far more.
    let difference = largest_difference(&trainable, &reloaded);
    assert!(difference < 1e-4, "logits differ by {difference}");
    let source_config = aca_model::Qwen3Config::from_file(&source.join("config.json")).unwrap();
    assert_eq!(reloaded.config(), &source_config);
    assert!(saved.path().join("tokenizer.json.gz").is_file());
    assert!(saved.path().join("tokenizer_config.json").is_file());
}
