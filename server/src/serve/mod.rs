//! `aca serve`: the private model behind an OpenAI-compatible HTTP API (chat completions with
//! streaming, tools and JSON output; token-level generation for RL; models, health and metrics).
//!
//! `protocol` is the wire format, `backend` what the HTTP side needs from the model, `chat` and
//! `generate` the two generating routes, `reply` splits generated text into reasoning, content and
//! tool calls, `routes` assembles the router with auth and limits.

pub mod backend;
mod chat;
pub mod error;
mod generate;
mod metrics;
pub mod protocol;
mod reply;
mod routes;

use std::sync::Arc;
use std::time::SystemTime;

pub use self::backend::Backend;
use self::metrics::Metrics;
pub use self::routes::router;

/// What every request handler shares.
pub struct App {
    pub backend: Arc<dyn Backend>,
    /// Bearer token the API routes require, when set.
    pub token: Option<String>,
    pub max_request_bytes: usize,
    metrics: Metrics,
    started: SystemTime,
}

impl App {
    pub fn new(backend: Arc<dyn Backend>, token: Option<String>, max_request_bytes: usize) -> Arc<Self> {
        Arc::new(App {
            backend,
            token,
            max_request_bytes,
            metrics: Metrics::new(),
            started: SystemTime::now(),
        })
    }
}
