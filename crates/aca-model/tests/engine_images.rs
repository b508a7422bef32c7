//! The continuous-batching engine on the tiny Qwen3-VL checkpoint: prompts with images decode the
//! reference's greedy tokens, alone and together in one batch with a text prompt; the checkpoint is
//! recognised by its configuration; a text model refuses images with a typed error.

mod vl_support;

use std::path::PathBuf;
use std::sync::Arc;

use aca_model::engine::{Engine, EngineConfig, EngineModel, GenerationEvent, GenerationRequest, SubmitError};
use aca_model::random::{RandomShape, write_random_checkpoint};
use aca_model::sample::{SamplingParams, StopConditions};
use aca_model::text::TextTokenizer;
use aca_model::{Device, ProcessedImage};
use tokio::sync::mpsc::UnboundedReceiver;
use vl_support::{Case, fixture_dir, model_reference};

/// Qwen3's tokenizer: the tiny checkpoint's 256 ids are among its byte tokens, which is all the engine
/// needs to detokenise.
fn tokenizer() -> Arc<TextTokenizer> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/text/qwen3/tokenizer.json.gz");
    Arc::new(TextTokenizer::from_file(&path).unwrap())
}

fn config(max_batch: usize) -> EngineConfig {
    EngineConfig {
        max_batch,
        max_waiting: 16,
        max_context: 256,
    }
}

fn images(model: &EngineModel, case: &Case) -> Vec<ProcessedImage> {
    let processor = model.vision().expect("a vision model").processor();
    case.images
        .iter()
        .map(|file| processor.process_file(&fixture_dir("vl_tiny").join(file)).unwrap())
        .collect()
}

fn greedy(case: &Case, images: Vec<ProcessedImage>) -> GenerationRequest {
    GenerationRequest {
        prompt: case.prompt_ids.clone(),
        images,
        sampling: SamplingParams::greedy(),
        stop: StopConditions {
            stop_token_ids: Vec::new(),
            stop_strings: Vec::new(),
            max_tokens: Some(case.greedy.len()),
        },
        constraint: None,
    }
}

fn tokens(mut events: UnboundedReceiver<GenerationEvent>) -> Vec<u32> {
    let mut ids = Vec::new();
    loop {
        match events.blocking_recv().expect("the sequence finishes") {
            GenerationEvent::Token { token, .. } => ids.push(token.id),
            GenerationEvent::Finished { prompt_tokens, .. } => {
                assert!(prompt_tokens > 0);
                return ids;
            }
            GenerationEvent::Failed(message) => panic!("generation failed: {message}"),
        }
    }
}

#[test]
fn prompts_with_images_decode_the_reference_tokens_alone_and_batched_with_text() {
    let model = EngineModel::load(&fixture_dir("vl_tiny"), &Device::flex()).unwrap();
    assert!(matches!(model, EngineModel::Vision(_)), "chosen by vision_config");
    let cases = model_reference().cases;
    let requests: Vec<GenerationRequest> = cases.iter().map(|case| greedy(case, images(&model, case))).collect();

    let alone = Engine::start(model.clone(), tokenizer(), Vec::new(), config(1)).unwrap();
    assert!(alone.takes_images());
    for (case, request) in cases.iter().zip(&requests) {
        assert_eq!(
            tokens(alone.submit(request.clone()).unwrap()),
            case.greedy,
            "{} alone",
            case.name
        );
    }

    // All three at once, twice over: two prompts with images prefill in calls of their own while the
    // text prompt and then every decode step share the batch.
    let batched = Engine::start(model, tokenizer(), Vec::new(), config(6)).unwrap();
    let receivers: Vec<_> = requests
        .iter()
        .chain(&requests)
        .map(|request| batched.submit(request.clone()).unwrap())
        .collect();
    for (case, events) in cases.iter().chain(&cases).zip(receivers) {
        assert_eq!(tokens(events), case.greedy, "{} batched", case.name);
    }
}

#[test]
fn a_prompt_whose_images_do_not_fit_fails_alone() {
    let model = EngineModel::load(&fixture_dir("vl_tiny"), &Device::flex()).unwrap();
    let cases = model_reference().cases;
    let (one_image, text) = (&cases[0], &cases[2]);
    let engine = Engine::start(model.clone(), tokenizer(), Vec::new(), config(4)).unwrap();
    // The image of the second case takes 8 placeholders; the first case's prompt has a run of 6.
    let wrong = greedy(one_image, images(&model, &cases[1])[..1].to_vec());
    let mut failed = engine.submit(wrong).unwrap();
    let good = engine.submit(greedy(text, Vec::new())).unwrap();
    match failed.blocking_recv() {
        Some(GenerationEvent::Failed(message)) => assert!(message.contains("placeholder"), "{message}"),
        other => panic!("expected a failure, got {other:?}"),
    }
    assert_eq!(tokens(good), text.greedy, "the text sequence beside it is unaffected");
}

#[test]
fn a_text_model_refuses_images() {
    let dir = tempfile::tempdir().unwrap();
    write_random_checkpoint(dir.path(), &RandomShape::small(), 3).unwrap();
    let model = EngineModel::load(dir.path(), &Device::flex()).unwrap();
    assert!(matches!(model, EngineModel::Text(_)));
    let vision = EngineModel::load(&fixture_dir("vl_tiny"), &Device::flex()).unwrap();
    let case = &model_reference().cases[0];
    let engine = Engine::start(model, tokenizer(), Vec::new(), config(1)).unwrap();
    assert!(!engine.takes_images());
    assert_eq!(
        engine.submit(greedy(case, images(&vision, case))).unwrap_err(),
        SubmitError::TextOnly(1)
    );
}
