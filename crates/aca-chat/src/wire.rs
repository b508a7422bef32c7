//! The request and reply shapes of `POST /v1/chat/completions`, as far as the agent uses them.

use serde::{Deserialize, Serialize};

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// `system`, `user` or `assistant`.
    pub role: String,
    pub content: String,
}

impl Message {
    pub fn system(content: impl Into<String>) -> Self {
        Self {
            role: "system".into(),
            content: content.into(),
        }
    }
    pub fn user(content: impl Into<String>) -> Self {
        Self {
            role: "user".into(),
            content: content.into(),
        }
    }
    pub fn assistant(content: impl Into<String>) -> Self {
        Self {
            role: "assistant".into(),
            content: content.into(),
        }
    }
}

/// What to ask the model; the model name comes from the client's configuration.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ChatRequest {
    pub messages: Vec<Message>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stop: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The answer's shape the endpoint must enforce (`{"type": "json_schema", …}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_format: Option<serde_json::Value>,
}

/// Tokens a call consumed, as the server reported them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, other: Self) {
        self.prompt_tokens += other.prompt_tokens;
        self.completion_tokens += other.completion_tokens;
    }
}

/// The model's answer to one request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatReply {
    pub text: String,
    /// `stop`, `length`, … as the server said.
    pub finish_reason: Option<String>,
    pub usage: Usage,
    /// In US dollars, when the client knows the model's price.
    pub cost_usd: Option<f64>,
    /// How many HTTP attempts the reply took (1 when the first succeeded).
    pub attempts: u32,
    /// Wall time of the successful attempt.
    pub latency_ms: u64,
}

#[derive(Debug, Serialize)]
pub(crate) struct WireRequest<'a> {
    pub model: &'a str,
    #[serde(flatten)]
    pub request: &'a ChatRequest,
    pub stream: bool,
}

#[derive(Debug, Deserialize)]
pub(crate) struct WireReply {
    pub choices: Vec<WireChoice>,
    #[serde(default)]
    pub usage: Option<Usage>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct WireChoice {
    pub message: WireMessage,
    #[serde(default)]
    pub finish_reason: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct WireMessage {
    #[serde(default)]
    pub content: Option<String>,
}

/// `{"error": {"message": …, "type": …, "code": …}}`
#[derive(Debug, Deserialize)]
pub(crate) struct WireError {
    pub error: WireErrorBody,
}

#[derive(Debug, Deserialize)]
pub(crate) struct WireErrorBody {
    #[serde(default)]
    pub message: String,
}
