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
    metrics: Metrics,
    started: SystemTime,
}

impl App {
    pub fn new(model: ServedModel, token: Option<String>, max_request_bytes: usize, images: ImageInputs) -> Arc<Self> {
        Arc::new(App {
            model,
            token,
            max_request_bytes,
            images,
            metrics: Metrics::new(),
            started: SystemTime::now(),
        })
    }
}
