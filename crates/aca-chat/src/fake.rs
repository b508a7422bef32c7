//! A scripted OpenAI-compatible endpoint on a local port, for tests of everything that talks to a
//! model: it answers each request with the next scripted response and records what it was sent;
//! `GET /v1/models` lists its one model with the inputs it takes.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Value, json};

/// One scripted answer.
#[derive(Debug, Clone)]
pub enum FakeResponse {
    /// A completion whose message content is this text.
    Reply(String),
    /// An HTTP error in the OpenAI error shape.
    Error { status: u16, message: String },
    /// Answer only after this long (to provoke client timeouts), then reply with the text.
    Slow(Duration, String),
    /// A 200 whose body is this raw text.
    Raw(String),
}

/// What the fake counts for each image of a request, in `prompt_tokens` and in
/// `prompt_tokens_details.image_tokens`.
pub const FAKE_IMAGE_TOKENS: u64 = 256;

#[derive(Default)]
struct Script {
    responses: VecDeque<FakeResponse>,
    requests: Vec<Value>,
    /// The model `GET /v1/models` lists, and the inputs it says the model takes.
    model: String,
    inputs: Vec<&'static str>,
}

/// The running fake endpoint; stops when dropped.
pub struct FakeModel {
    /// The API base to configure clients with, e.g. `http://127.0.0.1:4321/v1`.
    pub base_url: String,
    script: Arc<Mutex<Script>>,
    server: tokio::task::JoinHandle<()>,
}

impl FakeModel {
    /// A text-only model (listed as `qwen3`).
    pub async fn start(responses: impl IntoIterator<Item = FakeResponse>) -> std::io::Result<Self> {
        Self::start_taking(responses, "qwen3", &["text"]).await
    }

    /// A model named `model` that takes images as well as text.
    pub async fn start_taking_images(
        model: &str,
        responses: impl IntoIterator<Item = FakeResponse>,
    ) -> std::io::Result<Self> {
        Self::start_taking(responses, model, &["text", "image"]).await
    }

    async fn start_taking(
        responses: impl IntoIterator<Item = FakeResponse>,
        model: &str,
        inputs: &[&'static str],
    ) -> std::io::Result<Self> {
        let script = Arc::new(Mutex::new(Script {
            responses: responses.into_iter().collect(),
            requests: Vec::new(),
            model: model.to_owned(),
            inputs: inputs.to_vec(),
        }));
        let app = Router::new()
            .route("/v1/chat/completions", post(complete))
            .route("/v1/models", get(models))
            .with_state(script.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let base_url = format!("http://{}/v1", listener.local_addr()?);
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(Self {
            base_url,
            script,
            server,
        })
    }

    /// The request bodies received so far.
    pub fn requests(&self) -> Vec<Value> {
        self.script.lock().map(|s| s.requests.clone()).unwrap_or_default()
    }

    /// Scripted responses not yet used.
    pub fn remaining(&self) -> usize {
        self.script.lock().map(|s| s.responses.len()).unwrap_or_default()
    }
}

impl Drop for FakeModel {
    fn drop(&mut self) {
        self.server.abort();
    }
}

async fn complete(State(script): State<Arc<Mutex<Script>>>, Json(body): Json<Value>) -> Response {
    let next = {
        let Ok(mut script) = script.lock() else {
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        };
        script.requests.push(body.clone());
        script.responses.pop_front()
    };
    let (text_tokens, images) = prompt_size(&body);
    let image_tokens = images * FAKE_IMAGE_TOKENS;
    let prompt_tokens = text_tokens + image_tokens;
    let reply = |text: String| {
        let completion_tokens = text.split_whitespace().count() as u64;
        Json(json!({
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "model": body["model"],
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                      "total_tokens": prompt_tokens + completion_tokens,
                      "prompt_tokens_details": {"image_tokens": image_tokens}},
        }))
        .into_response()
    };
    match next {
        None => error(
            StatusCode::SERVICE_UNAVAILABLE,
            "the fake model has no scripted response left",
        ),
        Some(FakeResponse::Reply(text)) => reply(text),
        Some(FakeResponse::Slow(delay, text)) => {
            tokio::time::sleep(delay).await;
            reply(text)
        }
        Some(FakeResponse::Error { status, message }) => error(
            StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            &message,
        ),
        Some(FakeResponse::Raw(text)) => (StatusCode::OK, text).into_response(),
    }
}

/// The words of a request's text and the number of its images, whether each message's content is
/// a string or a list of parts.
fn prompt_size(body: &Value) -> (u64, u64) {
    let words = |text: &str| text.split_whitespace().count() as u64;
    let mut text_tokens = 0;
    let mut images = 0;
    for message in body["messages"].as_array().into_iter().flatten() {
        match &message["content"] {
            Value::String(text) => text_tokens += words(text),
            Value::Array(parts) => {
                for part in parts {
                    match part["type"].as_str() {
                        Some("image_url") => images += 1,
                        _ => text_tokens += part["text"].as_str().map_or(0, words),
                    }
                }
            }
            _ => {}
        }
    }
    (text_tokens, images)
}

async fn models(State(script): State<Arc<Mutex<Script>>>) -> Response {
    let Ok((model, inputs)) = script.lock().map(|s| (s.model.clone(), s.inputs.clone())) else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    Json(json!({"object": "list", "data": [{"id": model, "object": "model", "input_modalities": inputs}]}))
        .into_response()
}

fn error(status: StatusCode, message: &str) -> Response {
    (
        status,
        Json(json!({"error": {"message": message, "type": "fake_error", "code": status.as_u16()}})),
    )
        .into_response()
}
