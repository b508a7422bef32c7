//! The HTTP client: one configured endpoint and model, retries with exponential backoff.

use std::time::{Duration, Instant};

use crate::error::ChatError;
use crate::wire::{ChatReply, ChatRequest, Usage, WireError, WireModels, WireReply, WireRequest};

/// Price of a model in US dollars per million tokens.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Price {
    pub input_per_mtok: f64,
    pub output_per_mtok: f64,
}

#[derive(Clone)]
pub struct ChatConfig {
    /// The API base, e.g. `http://127.0.0.1:8000/v1`; `/chat/completions` is appended.
    pub base_url: String,
    pub model: String,
    pub api_key: Option<String>,
    /// Limit for one HTTP attempt.
    pub timeout: Duration,
    /// Attempts after the first one, for transient failures only.
    pub max_retries: u32,
    /// The first backoff; each further one doubles, capped at 30 s. A `Retry-After` header wins.
    pub backoff: Duration,
    pub price: Option<Price>,
}

/// Shows everything but the key, so a configuration in a log or an error never carries it.
impl std::fmt::Debug for ChatConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChatConfig")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("timeout", &self.timeout)
            .field("max_retries", &self.max_retries)
            .field("backoff", &self.backoff)
            .field("price", &self.price)
            .finish()
    }
}

impl ChatConfig {
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into(),
            model: model.into(),
            api_key: None,
            timeout: Duration::from_secs(120),
            max_retries: 3,
            backoff: Duration::from_millis(500),
            price: None,
        }
    }
}

#[derive(Debug, Clone)]
pub struct ChatClient {
    config: ChatConfig,
    http: reqwest::Client,
    url: String,
}

const MAX_BACKOFF: Duration = Duration::from_secs(30);

impl ChatClient {
    pub fn new(config: ChatConfig) -> Result<Self, ChatError> {
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .build()
            .map_err(|e| ChatError::Unreachable {
                url: config.base_url.clone(),
                reason: format!("cannot build the HTTP client: {e}"),
            })?;
        let url = format!("{}/chat/completions", config.base_url.trim_end_matches('/'));
        Ok(Self { config, http, url })
    }

    pub fn config(&self) -> &ChatConfig {
        &self.config
    }

    /// The inputs the configured model takes (`text`, `image`), as the endpoint's `GET /models` lists
    /// them; `None` when the endpoint does not say (many list models without their inputs).
    pub async fn input_modalities(&self) -> Result<Option<Vec<String>>, ChatError> {
        let url = format!("{}/models", self.config.base_url.trim_end_matches('/'));
        let mut http = self.http.get(&url);
        if let Some(key) = &self.config.api_key {
            http = http.bearer_auth(key);
        }
        let response = http.send().await.map_err(|e| self.transport_error(&url, e))?;
        let status = response.status().as_u16();
        if !(200..300).contains(&status) {
            return Ok(None);
        }
        let text = response.text().await.map_err(|e| self.transport_error(&url, e))?;
        let models: WireModels = serde_json::from_str(&text).map_err(|e| ChatError::BadReply(e.to_string()))?;
        Ok(models
            .data
            .into_iter()
            .find(|m| m.id == self.config.model)
            .and_then(|m| m.input_modalities))
    }

    /// Sends the request, retrying transient failures with backoff.
    pub async fn complete(&self, request: &ChatRequest) -> Result<ChatReply, ChatError> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            let started = Instant::now();
            match self.attempt(request).await {
                Ok(mut reply) => {
                    reply.attempts = attempt;
                    reply.latency_ms = started.elapsed().as_millis() as u64;
                    return Ok(reply);
                }
                Err((error, retry_after)) => {
                    if !error.is_transient() {
                        return Err(error);
                    }
                    if attempt > self.config.max_retries {
                        return Err(if attempt == 1 {
                            error
                        } else {
                            ChatError::RetriesExhausted {
                                attempts: attempt,
                                last: Box::new(error),
                            }
                        });
                    }
                    let backoff = retry_after.unwrap_or_else(|| {
                        self.config
                            .backoff
                            .saturating_mul(1 << (attempt - 1).min(16))
                            .min(MAX_BACKOFF)
                    });
                    tracing::warn!(%error, attempt, ?backoff, "model call failed; retrying");
                    tokio::time::sleep(backoff.min(MAX_BACKOFF)).await;
                }
            }
        }
    }

    async fn attempt(&self, request: &ChatRequest) -> Result<ChatReply, (ChatError, Option<Duration>)> {
        let body = WireRequest {
            model: &self.config.model,
            request,
            stream: false,
        };
        let mut http = self.http.post(&self.url).json(&body);
        if let Some(key) = &self.config.api_key {
            http = http.bearer_auth(key);
        }
        let response = http
            .send()
            .await
            .map_err(|e| (self.transport_error(&self.url, e), None))?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let text = response
            .text()
            .await
            .map_err(|e| (self.transport_error(&self.url, e), None))?;
        if !(200..300).contains(&status) {
            let message = serde_json::from_str::<WireError>(&text)
                .map(|e| e.error.message)
                .unwrap_or_else(|_| text.chars().take(300).collect());
            let error = if status == 401 || status == 403 {
                ChatError::Auth {
                    url: self.url.clone(),
                    status,
                    message,
                }
            } else {
                ChatError::Http {
                    url: self.url.clone(),
                    status,
                    message,
                }
            };
            return Err((error, retry_after));
        }
        let wire: WireReply = serde_json::from_str(&text).map_err(|e| (ChatError::BadReply(e.to_string()), None))?;
        let choice = wire
            .choices
            .into_iter()
            .next()
            .ok_or_else(|| (ChatError::BadReply("no choices".into()), None))?;
        let usage: Usage = wire.usage.unwrap_or_default().into();
        let cost_usd = self.config.price.map(|p| {
            (usage.prompt_tokens as f64 * p.input_per_mtok + usage.completion_tokens as f64 * p.output_per_mtok) / 1e6
        });
        Ok(ChatReply {
            text: choice.message.content.unwrap_or_default(),
            finish_reason: choice.finish_reason,
            usage,
            cost_usd,
            attempts: 1,
            latency_ms: 0,
        })
    }

    fn transport_error(&self, url: &str, error: reqwest::Error) -> ChatError {
        if error.is_timeout() {
            ChatError::Timeout {
                url: url.to_owned(),
                waited: self.config.timeout,
            }
        } else {
            ChatError::Unreachable {
                url: url.to_owned(),
                reason: error.to_string(),
            }
        }
    }
}
