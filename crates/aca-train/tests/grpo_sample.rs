//! In-process sampling from a trainable model with Qwen3's real tokenizer: the sampler's logprobs are the
//! trainer's recomputation (no train/sample mismatch), greedy decoding repeats itself and matches the
//! inference model's, stop ids end a completion, and requests that cannot fit are refused.

use std::path::{Path, PathBuf};
use std::time::Instant;

use aca_model::random::RandomShape;
use aca_model::{Device, Qwen3Model};
use aca_train::TrainError;
use aca_train::grpo::logprobs::{LogprobSettings, RolloutTokens, completion_logprobs};
use aca_train::grpo::sample::{PolicySampler, SampleSettings};
use aca_train::model::{TextFiles, TrainableQwen3};

fn tokenizer_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../aca-model/tests/fixtures/text/qwen3")
}

fn settings(temperature: f32, max_tokens: usize) -> SampleSettings {
    SampleSettings {
        temperature,
        top_p: 0.95,
        max_tokens,
        seed: 17,
        extra_stop_ids: Vec::new(),
    }
}

const PROMPTS: [&[u32]; 3] = [
    &[151_644, 872, 198, 9707],
    &[151_644, 77091, 198],
    &[40, 1079, 264, 1273, 13],
];

#[test]
fn sampled_logprobs_are_the_trainers_and_greedy_sampling_repeats_itself() {
    let device = Device::flex();
    let model = TrainableQwen3::random(&RandomShape::small(), 4, &device).unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let sampler = PolicySampler::new(&model, &TextFiles::read(&tokenizer_dir()).unwrap(), scratch.path(), 4).unwrap();

    let started = Instant::now();
    let sampled = sampler.sample_many(&PROMPTS, &settings(1.0, 12)).unwrap();
    let tokens: usize = sampled.iter().map(|c| c.ids.len()).sum();
    eprintln!(
        "sampling: {tokens} tokens in {:.2}s ({:.0} tokens/s)",
        started.elapsed().as_secs_f64(),
        tokens as f64 / started.elapsed().as_secs_f64()
    );
    // Seeds differ per prompt; the completions are full length (a random model rarely stops).
    for completion in &sampled {
        assert_eq!(completion.ids.len(), completion.logprobs.len());
        assert!(!completion.ids.is_empty());
        assert!(completion.finished || completion.ids.len() == 12);
    }
    let rollouts: Vec<RolloutTokens<'_>> = PROMPTS
        .iter()
        .zip(&sampled)
        .map(|(prompt, completion)| RolloutTokens {
            prompt,
            completion: &completion.ids,
        })
        .collect();
    let recomputed = completion_logprobs(
        &model,
        &rollouts,
        &LogprobSettings {
            temperature: 1.0,
            valid_vocab: sampler.valid_vocab(),
        },
    )
    .unwrap();
    let [_, width] = recomputed.values.dims();
    let values = recomputed.values.into_data().try_into_vec::<f32>().unwrap();
    let mut largest = 0.0f32;
    for (row, completion) in sampled.iter().enumerate() {
        for (t, sampler_logprob) in completion.logprobs.iter().enumerate() {
            largest = largest.max((values[row * width + t] - sampler_logprob).abs());
        }
    }
    assert!(largest < 1e-4, "sampler and trainer logprobs differ by {largest}");

    let greedy = sampler.sample(PROMPTS[0], &settings(0.0, 6)).unwrap();
    let again = sampler.sample(PROMPTS[0], &settings(0.0, 6)).unwrap();
    assert_eq!(greedy, again);
    let inference = Qwen3Model::load(scratch.path(), &device).unwrap();
    let expected = inference.generate_greedy(PROMPTS[0], 6, &[]).unwrap();
    assert_eq!(greedy.ids, expected);
    assert!(!greedy.finished);

    // A stop id ends the completion at its first occurrence and stays in it.
    let stop_id = expected[2];
    let end = expected.iter().position(|&id| id == stop_id).unwrap();
    let stop = SampleSettings {
        extra_stop_ids: vec![stop_id],
        ..settings(0.0, 6)
    };
    let stopped = sampler.sample(PROMPTS[0], &stop).unwrap();
    assert_eq!(stopped.ids, expected[..=end].to_vec(), "greedy {expected:?}");
    assert!(stopped.finished);
}

#[test]
fn a_prompt_over_the_context_is_refused_not_a_panic() {
    let device = Device::flex();
    let shape = RandomShape {
        max_position_embeddings: 16,
        ..RandomShape::small()
    };
    let model = TrainableQwen3::random(&shape, 4, &device).unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let sampler = PolicySampler::new(&model, &TextFiles::read(&tokenizer_dir()).unwrap(), scratch.path(), 2).unwrap();
    let prompt = vec![40u32; 14];
    match sampler.sample(&prompt, &settings(1.0, 4)) {
        Err(TrainError::Sampling(message)) => assert!(message.contains("context"), "{message}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert!(matches!(
        sampler.sample(&[], &settings(1.0, 4)),
        Err(TrainError::Sampling(_))
    ));
}
