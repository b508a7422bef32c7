//! `aca serve`: the private model behind an OpenAI-compatible HTTP API (chat completions with
//! streaming, tools, JSON output and images; token-level generation for RL; models, health and metrics).
//!
//! `model` loads what is served, `protocol` is the wire format, `chat` and `generate` the two
//! generating routes, `images` turns the images requests carry into model input, `routes` assembles
//! the router with auth and limits, `metrics` counts.

mod chat;
pub mod error;
mod generate;
pub mod images;
mod metrics;
pub mod model;
pub mod protocol;
mod routes;

use std::sync::Arc;
use std::time::SystemTime;

use self::images::ImageInputs;
use self::metrics::Metrics;
pub use self::model::ServedModel;
pub use self::routes::router;

/// What every request handler shares.
pub struct App {
    pub model: ServedModel,
    /// Bearer token the API routes require, when set.
    pub token: Option<String>,
    pub max_request_bytes: usize,
    /// How request images are read, and the limits on them.
    pub images: ImageInputs,
    /// Every non-streamed chat completion's exact tokens, when something records them (GRPO's
    /// rollouts, whose client does not stream).
    pub generations: Option<GenerationLog>,
    metrics: Metrics,
    started: SystemTime,
}

/// One choice of a chat completion as the sampler produced it: what GRPO trains on.
#[derive(Debug, Clone, PartialEq)]
pub struct Generation {
    /// The templated prompt's ids.
    pub prompt_ids: Vec<u32>,
    /// The sampled ids, the end-of-turn id included when the reply ended there.
    pub completion_ids: Vec<u32>,
    /// The sampler's log-probability of each sampled id.
    pub logprobs: Vec<f32>,
    /// The reply ended by itself (a stop id or string), not at the length limit.
    pub finished: bool,
}

/// The generations of a served model, in completion order, shared with whoever reads them.
#[derive(Debug, Clone, Default)]
pub struct GenerationLog(Arc<std::sync::Mutex<Vec<Generation>>>);

impl GenerationLog {
    /// The generations so far; the log is left empty.
    #[cfg(feature = "train")]
    pub fn take(&self) -> Vec<Generation> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
    }

    fn push(&self, generation: Generation) {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(generation);
    }
}

impl App {
    pub fn new(model: ServedModel, token: Option<String>, max_request_bytes: usize, images: ImageInputs) -> Arc<Self> {
        Arc::new(Self::unshared(model, token, max_request_bytes, images))
    }

    /// An app whose chat completions are also recorded into `log`.
    #[cfg(feature = "train")]
    pub fn recording(
        model: ServedModel,
        token: Option<String>,
        max_request_bytes: usize,
        images: ImageInputs,
        log: GenerationLog,
    ) -> Arc<Self> {
        Arc::new(App {
            generations: Some(log),
            ..Self::unshared(model, token, max_request_bytes, images)
        })
    }

    fn unshared(model: ServedModel, token: Option<String>, max_request_bytes: usize, images: ImageInputs) -> Self {
        App {
            model,
            token,
            max_request_bytes,
            images,
            generations: None,
            metrics: Metrics::new(),
            started: SystemTime::now(),
        }
    }
}
