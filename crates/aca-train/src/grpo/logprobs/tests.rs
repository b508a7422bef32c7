//! Log-probabilities against aca-model's inference model fed one token at a time through its KV cache.

use aca_model::random::{RandomShape, write_random_checkpoint};
use aca_model::{Device, Qwen3Model, SequenceStep};

use super::*;

fn tiny_shape() -> RandomShape {
    RandomShape {
        vocab_size: 320,
        max_position_embeddings: 32,
        eos_token_ids: vec![2],
        ..RandomShape::small()
    }
}

/// log_softmax(logits[..valid] / divisor)[id] in f64.
fn reference_logprob(row: &[f32], valid: usize, divisor: f64, id: u32) -> f64 {
    let row: Vec<f64> = row[..valid].iter().map(|&v| f64::from(v) / divisor).collect();
    let max = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let normaliser = row.iter().map(|v| (v - max).exp()).sum::<f64>().ln() + max;
    row[id as usize] - normaliser
}

/// The inference model's log-probabilities of `completion` after `prompt`: prefill, then one token a step.
fn stepwise(model: &Qwen3Model, prompt: &[u32], completion: &[u32], valid: usize, divisor: f64) -> Vec<f64> {
    let mut cache = model.new_cache();
    let mut input = prompt.to_vec();
    let mut out = Vec::new();
    for &id in completion {
        let row = model
            .forward(&mut [SequenceStep {
                tokens: &input,
                cache: &mut cache,
            }])
            .unwrap()
            .remove(0);
        out.push(reference_logprob(&row, valid, divisor, id));
        input = vec![id];
    }
    out
}

fn rows(tensor: Tensor<2>) -> Vec<Vec<f32>> {
    let [_, columns] = tensor.dims();
    let values = tensor.into_data().try_into_vec::<f32>().unwrap();
    values.chunks(columns).map(<[f32]>::to_vec).collect()
}

#[test]
fn logprobs_equal_the_inference_models_step_by_step_and_padding_is_masked() {
    let device = Device::flex();
    let directory = tempfile::tempdir().unwrap();
    write_random_checkpoint(directory.path(), &tiny_shape(), 3).unwrap();
    let trainable = TrainableQwen3::from_checkpoint(directory.path(), &device).unwrap();
    let inference = Qwen3Model::load(directory.path(), &device).unwrap();
    let rollouts = [
        RolloutTokens {
            prompt: &[5, 9, 17, 250],
            completion: &[40, 41, 2],
        },
        RolloutTokens {
            prompt: &[7],
            completion: &[300, 12, 13, 14, 15, 2],
        },
        RolloutTokens {
            prompt: &[8, 8, 8, 8, 8, 8, 8],
            completion: &[],
        },
    ];
    // Untempered over the whole vocabulary, then tempered over a bound below it (a padded vocabulary).
    for settings in [
        LogprobSettings {
            temperature: 0.0,
            valid_vocab: 320,
        },
        LogprobSettings {
            temperature: 0.7,
            valid_vocab: 310,
        },
    ] {
        let divisor = if settings.temperature > 0.0 {
            f64::from(settings.temperature)
        } else {
            1.0
        };
        let result = completion_logprobs(&trainable, &rollouts, &settings).unwrap();
        assert_eq!(result.values.dims(), [3, 6]);
        assert_eq!((result.tokens, result.sequence_tokens), (9, 7 + 7 + 7));
        let (values, mask) = (rows(result.values), rows(result.mask));
        for (index, rollout) in rollouts.iter().enumerate() {
            let expected = stepwise(
                &inference,
                rollout.prompt,
                rollout.completion,
                settings.valid_vocab,
                divisor,
            );
            for t in 0..6 {
                if t < expected.len() {
                    assert_eq!(mask[index][t], 1.0);
                    let gap = (f64::from(values[index][t]) - expected[t]).abs();
                    assert!(gap < 1e-4, "rollout {index} token {t}: off by {gap}");
                } else {
                    assert_eq!(
                        (mask[index][t], values[index][t]),
                        (0.0, 0.0),
                        "rollout {index} pad {t}"
                    );
                }
            }
        }
    }
}

#[test]
fn rollouts_the_model_cannot_score_are_refused_by_index() {
    let device = Device::flex();
    let model = TrainableQwen3::random(&tiny_shape(), 1, &device).unwrap();
    let settings = LogprobSettings {
        temperature: 1.0,
        valid_vocab: 300,
    };
    let long = vec![4u32; 30];
    let cases: [(&[u32], &[u32], &str); 4] = [
        (&[], &[1], "prompt is empty"),
        (&long, &[1, 2, 3], "context of 32"),
        (&[1], &[299, 300], "bound 300"),
        (&[320], &[1], "vocabulary of 320"),
    ];
    for (prompt, completion, words) in cases {
        let fine = RolloutTokens {
            prompt: &[1, 2],
            completion: &[3],
        };
        let bad = RolloutTokens { prompt, completion };
        match completion_logprobs(&model, &[fine, bad], &settings) {
            Err(TrainError::Tokenize { index: 1, problem }) => assert!(problem.contains(words), "{problem}"),
            other => panic!("expected a refusal naming rollout 1, got {other:?}"),
        }
    }
    let empty = RolloutTokens {
        prompt: &[1],
        completion: &[],
    };
    assert!(matches!(
        completion_logprobs(&model, &[empty], &settings),
        Err(TrainError::Config(_))
    ));
    assert!(matches!(
        completion_logprobs(&model, &[], &settings),
        Err(TrainError::Config(_))
    ));
}
