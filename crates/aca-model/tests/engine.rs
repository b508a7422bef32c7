//! The continuous-batching engine on a small random checkpoint with Qwen3's real tokenizer: sequences
//! that join a running batch decode as they would alone, a dropped listener frees its place, the batch
//! never exceeds `max_batch`, and prompts that cannot fit are refused with a typed error.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use aca_model::engine::{Engine, EngineConfig, GenerationEvent, GenerationRequest, SubmitError};
use aca_model::random::{RandomShape, write_random_checkpoint};
use aca_model::sample::{SamplingParams, StopConditions};
use aca_model::text::TextTokenizer;
use aca_model::{Device, Qwen3Model, WeightDtype};
use tokio::sync::mpsc::UnboundedReceiver;

const CONTEXT: usize = 4096;

fn engine(max_batch: usize) -> (Engine, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let shape = RandomShape {
        max_position_embeddings: CONTEXT,
        ..RandomShape::small()
    };
    write_random_checkpoint(dir.path(), &shape, 5).unwrap();
    let model = Qwen3Model::load(dir.path(), &Device::flex()).unwrap();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/text/qwen3/tokenizer.json.gz");
    let tokenizer = Arc::new(TextTokenizer::from_file(&path).unwrap());
    let config = EngineConfig {
        max_batch,
        max_waiting: 16,
        max_context: CONTEXT,
    };
    // No end-of-turn ids: every greedy sequence runs to its token budget, so lengths are known.
    (Engine::start(model, tokenizer, Vec::new(), config).unwrap(), dir)
}

fn greedy(prompt: &[u32], max_tokens: usize) -> GenerationRequest {
    GenerationRequest {
        prompt: prompt.to_vec(),
        images: Vec::new(),
        sampling: SamplingParams::greedy(),
        stop: StopConditions {
            stop_token_ids: Vec::new(),
            stop_strings: Vec::new(),
            max_tokens: Some(max_tokens),
        },
        constraint: None,
    }
}

/// Every token id of a sequence, once it has finished.
fn tokens(events: UnboundedReceiver<GenerationEvent>) -> Vec<u32> {
    rest(events, Vec::new())
}

/// The token ids of a sequence after those already `received`, once it has finished.
fn rest(mut events: UnboundedReceiver<GenerationEvent>, received: Vec<u32>) -> Vec<u32> {
    let mut ids = received;
    loop {
        match events
            .blocking_recv()
            .expect("the sequence finishes before its channel closes")
        {
            GenerationEvent::Token { token, .. } => ids.push(token.id),
            GenerationEvent::Finished { completion_tokens, .. } => {
                assert_eq!(completion_tokens, ids.len());
                return ids;
            }
            GenerationEvent::Failed(message) => panic!("generation failed: {message}"),
        }
    }
}

fn first_token(events: &mut UnboundedReceiver<GenerationEvent>) -> u32 {
    match events.blocking_recv() {
        Some(GenerationEvent::Token { token, .. }) => token.id,
        other => panic!("expected a first token, got {other:?}"),
    }
}

/// Polls `engine` until `done` holds for its load, or panics after `limit`.
fn wait_for(engine: &Engine, limit: Duration, what: &str, done: impl Fn(usize, usize) -> bool) {
    let deadline = Instant::now() + limit;
    loop {
        let load = engine.load();
        if done(load.active, load.waiting) {
            return;
        }
        assert!(Instant::now() < deadline, "{what}: still {load:?} after {limit:?}");
        std::thread::sleep(Duration::from_millis(2));
    }
}

const PROMPTS: [&[u32]; 3] = [
    &[151_644, 872, 198, 9_707, 11, 1_246, 525, 498, 30],
    &[151_644, 872, 198, 3_838, 374, 279, 6_722, 315, 9_625, 30, 151_645],
    &[785, 3_974, 13_876],
];

#[test]
fn sequences_joining_between_decode_steps_decode_as_each_alone() {
    let (engine, _dir) = engine(4);
    let alone: Vec<Vec<u32>> = PROMPTS
        .iter()
        .map(|prompt| tokens(engine.submit(greedy(prompt, 12)).unwrap()))
        .collect();

    // The first runs; the second joins after its first token, the third after the second's first.
    let mut first = engine.submit(greedy(PROMPTS[0], 12)).unwrap();
    let first_head = first_token(&mut first);
    let mut second = engine.submit(greedy(PROMPTS[1], 12)).unwrap();
    let second_head = first_token(&mut second);
    let third = engine.submit(greedy(PROMPTS[2], 12)).unwrap();
    let together = [
        rest(first, vec![first_head]),
        rest(second, vec![second_head]),
        tokens(third),
    ];
    for (index, (joined, single)) in together.iter().zip(&alone).enumerate() {
        assert_eq!(joined, single, "prompt {index} decoded differently in a batch");
        assert_eq!(joined.len(), 12);
    }
}

#[test]
fn a_dropped_listener_frees_its_place_in_the_batch() {
    let (engine, _dir) = engine(1);
    let mut long = engine.submit(greedy(PROMPTS[0], CONTEXT - PROMPTS[0].len())).unwrap();
    first_token(&mut long);
    assert_eq!(engine.load().active, 1);
    drop(long);
    // Thousands of decode steps were left: only cancellation frees the place this soon.
    wait_for(
        &engine,
        Duration::from_secs(5),
        "the cancelled sequence",
        |active, _| active == 0,
    );
    let short = tokens(engine.submit(greedy(PROMPTS[1], 4)).unwrap());
    assert_eq!(short.len(), 4);
    wait_for(&engine, Duration::from_secs(5), "the finished sequence", |active, _| {
        active == 0
    });
}

#[test]
fn the_batch_never_holds_more_than_max_batch() {
    let (engine, _dir) = engine(2);
    let alone = tokens(engine.submit(greedy(PROMPTS[2], 24)).unwrap());
    let receivers: Vec<_> = (0..5).map(|_| engine.submit(greedy(PROMPTS[2], 24)).unwrap()).collect();
    let watcher = {
        let engine = engine.clone();
        std::thread::spawn(move || {
            let mut most = 0;
            let mut queued_while_full = false;
            let deadline = Instant::now() + Duration::from_secs(60);
            while Instant::now() < deadline {
                let load = engine.load();
                most = most.max(load.active);
                queued_while_full |= load.active == 2 && load.waiting > 0;
                if load.active == 0 && load.waiting == 0 {
                    break;
                }
                std::thread::yield_now();
            }
            (most, queued_while_full)
        })
    };
    for events in receivers {
        assert_eq!(tokens(events), alone, "a queued sequence decodes as it does alone");
    }
    let (most, queued_while_full) = watcher.join().unwrap();
    assert!(most <= 2, "{most} sequences were in a batch of at most 2");
    assert!(
        queued_while_full,
        "five sequences at once never queued behind a full batch of two"
    );
}

#[test]
fn prompts_that_cannot_fit_are_typed_refusals() {
    let (engine, _dir) = engine(2);
    let long = vec![9_707; CONTEXT + 1];
    match engine.submit(greedy(&long, 1)) {
        Err(SubmitError::TooLong { prompt, context, .. }) => {
            assert_eq!((prompt, context), (CONTEXT + 1, CONTEXT));
        }
        other => panic!("expected TooLong, got {:?}", other.map(|_| ())),
    }
    match engine.submit(greedy(PROMPTS[0], CONTEXT)) {
        Err(SubmitError::TooLong { max_tokens, .. }) => assert_eq!(max_tokens, CONTEXT),
        other => panic!("expected TooLong, got {:?}", other.map(|_| ())),
    }
    assert_eq!(engine.submit(greedy(&[], 4)).map(|_| ()), Err(SubmitError::EmptyPrompt));
    // Refusals leave the engine serving.
    assert_eq!(tokens(engine.submit(greedy(PROMPTS[1], 3)).unwrap()).len(), 3);
}

/// A checkpoint held in bf16 runs through the engine as through the model: the same greedy tokens for
/// a prompt and continuation longer than the cache's 64-position growth step, with each sequence's
/// cache capped at the engine's context.
#[test]
fn a_bf16_model_generates_through_the_engine_as_through_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let shape = RandomShape {
        max_position_embeddings: CONTEXT,
        ..RandomShape::small()
    };
    write_random_checkpoint(dir.path(), &shape, 5).unwrap();
    let model = Qwen3Model::load_as(dir.path(), &Device::flex(), WeightDtype::Bf16).unwrap();
    assert_eq!(model.dtype(), burn::tensor::DType::BF16);
    let prompt: Vec<u32> = (0..70).map(|index| (index * 37 + 11) % 1000).collect();
    let expected = model.generate_greedy(&prompt, 30, &[]).unwrap();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/text/qwen3/tokenizer.json.gz");
    let tokenizer = Arc::new(TextTokenizer::from_file(&path).unwrap());
    let config = EngineConfig {
        max_batch: 2,
        max_waiting: 4,
        max_context: 100,
    };
    let engine = Engine::start(model, tokenizer, Vec::new(), config).unwrap();
    assert_eq!(tokens(engine.submit(greedy(&prompt, 30)).unwrap()), expected);
}
