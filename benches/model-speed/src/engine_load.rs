//! Throughput of the continuous-batching engine (`aca_model::engine`, the one `aca serve` runs) when
//! several requests arrive together: total generated tokens per second and each request's latency.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use aca_model::Qwen3Model;
use aca_model::engine::{Engine, EngineConfig, GenerationEvent, GenerationRequest};
use aca_model::sample::{SamplingParams, StopConditions};
use aca_model::text::TextTokenizer;
use anyhow::{Context, Result, bail};

use crate::protocol::spread_ids;

/// The Qwen3 tokenizer the repository ships with aca-model's tests; the engine detokenises with it.
pub const DEFAULT_TOKENIZER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../crates/aca-model/tests/fixtures/text/qwen3/tokenizer.json.gz"
);

/// What every request of a load level asks for.
#[derive(Debug, Clone, Copy)]
pub struct LoadShape {
    pub prompt_tokens: usize,
    pub generated_tokens: usize,
}

/// The figures of one load level.
#[derive(Debug, Clone)]
pub struct LoadResult {
    pub concurrency: usize,
    /// From the first submission to the last request's end.
    pub wall: Duration,
    pub generated_tokens: usize,
    /// Submission to end, per request.
    pub latencies: Vec<Duration>,
    /// Submission to first token, per request.
    pub first_tokens: Vec<Duration>,
}

impl LoadResult {
    pub fn tokens_per_second(&self) -> f64 {
        self.generated_tokens as f64 / self.wall.as_secs_f64()
    }

    pub fn mean_latency(&self) -> Duration {
        mean(&self.latencies)
    }

    pub fn max_latency(&self) -> Duration {
        self.latencies.iter().copied().max().unwrap_or_default()
    }

    pub fn mean_first_token(&self) -> Duration {
        mean(&self.first_tokens)
    }
}

fn mean(values: &[Duration]) -> Duration {
    if values.is_empty() {
        return Duration::ZERO;
    }
    values.iter().sum::<Duration>() / values.len() as u32
}

pub fn load_tokenizer(path: &Path) -> Result<Arc<TextTokenizer>> {
    let tokenizer =
        TextTokenizer::from_file(path).with_context(|| format!("cannot read the tokenizer {}", path.display()))?;
    Ok(Arc::new(tokenizer))
}

/// Starts one engine (batch up to the largest level) and runs each level in turn on it: all requests
/// of a level are submitted at once, greedy, with no stop id, so each generates exactly `generated_tokens`.
pub fn measure(
    model: &Qwen3Model,
    tokenizer: Arc<TextTokenizer>,
    levels: &[usize],
    shape: LoadShape,
) -> Result<Vec<LoadResult>> {
    let largest = levels.iter().copied().max().unwrap_or(1);
    let config = EngineConfig {
        max_batch: largest,
        max_waiting: largest * 2,
        max_context: shape.prompt_tokens + shape.generated_tokens,
    };
    let engine = Engine::start(model.clone(), tokenizer, Vec::new(), config)
        .map_err(|message| anyhow::anyhow!("the engine did not start: {message}"))?;
    // Untimed warm-up through the engine itself.
    run_level(
        &engine,
        model.config().vocab_size,
        1,
        LoadShape {
            prompt_tokens: 8,
            generated_tokens: 2,
        },
    )?;
    levels
        .iter()
        .map(|&concurrency| run_level(&engine, model.config().vocab_size, concurrency, shape))
        .collect()
}

fn run_level(engine: &Engine, vocab: usize, concurrency: usize, shape: LoadShape) -> Result<LoadResult> {
    let started = Instant::now();
    let mut receivers = Vec::with_capacity(concurrency);
    for request in 0..concurrency {
        let generation = GenerationRequest {
            prompt: spread_ids(shape.prompt_tokens, vocab, 1 + request as u64),
            images: Vec::new(),
            sampling: SamplingParams::greedy(),
            stop: StopConditions {
                stop_token_ids: Vec::new(),
                stop_strings: Vec::new(),
                max_tokens: Some(shape.generated_tokens),
            },
            constraint: None,
        };
        receivers.push(engine.submit(generation).context("the engine refused a request")?);
    }
    let listeners: Vec<_> = receivers
        .into_iter()
        .map(|mut events| {
            std::thread::spawn(move || -> Result<(Duration, Duration, usize)> {
                let mut first_token = None;
                while let Some(event) = events.blocking_recv() {
                    match event {
                        GenerationEvent::Token { .. } => {
                            first_token.get_or_insert_with(|| started.elapsed());
                        }
                        GenerationEvent::Finished { completion_tokens, .. } => {
                            let end = started.elapsed();
                            return Ok((end, first_token.unwrap_or(end), completion_tokens));
                        }
                        GenerationEvent::Failed(message) => bail!("a request failed: {message}"),
                    }
                }
                bail!("the engine stopped before the request finished")
            })
        })
        .collect();
    let mut result = LoadResult {
        concurrency,
        wall: Duration::ZERO,
        generated_tokens: 0,
        latencies: Vec::with_capacity(concurrency),
        first_tokens: Vec::with_capacity(concurrency),
    };
    for listener in listeners {
        let joined = listener
            .join()
            .map_err(|_| anyhow::anyhow!("a listener thread panicked"))?;
        let (end, first_token, tokens) = joined?;
        result.wall = result.wall.max(end);
        result.latencies.push(end);
        result.first_tokens.push(first_token);
        result.generated_tokens += tokens;
    }
    Ok(result)
}
