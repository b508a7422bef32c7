//! The request and reply shapes of `POST /v1/chat/completions`, as far as the agent uses them.

use serde::{Deserialize, Serialize};

/// One chat message: text, and the images shown with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// `system`, `user` or `assistant`.
    pub role: String,
    pub content: String,
    /// Images as `data:` URLs (or URLs the endpoint fetches), after the text.
    pub images: Vec<String>,
}

/// A message without images is `{"role", "content": "text"}`; one with images has content parts
/// (`text`, then each `image_url`), as the OpenAI chat format writes them.
impl Serialize for Message {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Text<'a> {
            role: &'a str,
            content: &'a str,
        }
        #[derive(Serialize)]
        struct Parts<'a> {
            role: &'a str,
            content: Vec<Part<'a>>,
        }
        if self.images.is_empty() {
            return Text {
                role: &self.role,
                content: &self.content,
            }
            .serialize(serializer);
        }
        let mut content = vec![Part::Text { text: &self.content }];
        content.extend(self.images.iter().map(|url| Part::ImageUrl {
            image_url: ImageUrl { url },
        }));
        Parts {
            role: &self.role,
            content,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Message {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Content {
            Text(String),
            Parts(Vec<OwnedPart>),
        }
        #[derive(Deserialize)]
        #[serde(tag = "type", rename_all = "snake_case")]
        enum OwnedPart {
            Text { text: String },
            ImageUrl { image_url: OwnedImageUrl },
        }
        #[derive(Deserialize)]
        struct OwnedImageUrl {
            url: String,
        }
        #[derive(Deserialize)]
        struct Wire {
            role: String,
            content: Content,
        }
        let wire = Wire::deserialize(deserializer)?;
        let (content, images) = match wire.content {
            Content::Text(text) => (text, Vec::new()),
            Content::Parts(parts) => {
                let mut texts = Vec::new();
                let mut images = Vec::new();
                for part in parts {
                    match part {
                        OwnedPart::Text { text } => texts.push(text),
                        OwnedPart::ImageUrl { image_url } => images.push(image_url.url),
                    }
                }
                (texts.join("\n"), images)
            }
        };
        Ok(Message {
            role: wire.role,
            content,
            images,
        })
    }
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Part<'a> {
    Text { text: &'a str },
    ImageUrl { image_url: ImageUrl<'a> },
}

#[derive(Serialize)]
struct ImageUrl<'a> {
    url: &'a str,
}

impl Message {
    pub fn new(role: impl Into<String>, content: impl Into<String>) -> Self {
        Self {
            role: role.into(),
            content: content.into(),
            images: Vec::new(),
        }
    }
    pub fn system(content: impl Into<String>) -> Self {
        Self::new("system", content)
    }
    pub fn user(content: impl Into<String>) -> Self {
        Self::new("user", content)
    }
    pub fn assistant(content: impl Into<String>) -> Self {
        Self::new("assistant", content)
    }
    /// The message with `image` (a `data:` URL) shown after its text.
    pub fn with_image(mut self, image: impl Into<String>) -> Self {
        self.images.push(image.into());
        self
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
    /// The prompt's image tokens (part of `prompt_tokens`), where the server counts them apart.
    #[serde(default)]
    pub image_tokens: u64,
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, other: Self) {
        self.prompt_tokens += other.prompt_tokens;
        self.completion_tokens += other.completion_tokens;
        self.image_tokens += other.image_tokens;
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
    pub usage: Option<WireUsage>,
}

/// `usage`, with the image tokens inside `prompt_tokens_details` as OpenAI-compatible servers
/// report them.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct WireUsage {
    #[serde(default)]
    pub prompt_tokens: u64,
    #[serde(default)]
    pub completion_tokens: u64,
    #[serde(default)]
    pub prompt_tokens_details: Option<WirePromptDetails>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct WirePromptDetails {
    #[serde(default)]
    pub image_tokens: Option<u64>,
}

impl From<WireUsage> for Usage {
    fn from(wire: WireUsage) -> Usage {
        Usage {
            prompt_tokens: wire.prompt_tokens,
            completion_tokens: wire.completion_tokens,
            image_tokens: wire.prompt_tokens_details.and_then(|d| d.image_tokens).unwrap_or(0),
        }
    }
}

/// `GET /models`: the models the endpoint serves, with the inputs each takes where it says so.
#[derive(Debug, Deserialize)]
pub(crate) struct WireModels {
    #[serde(default)]
    pub data: Vec<WireModel>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct WireModel {
    pub id: String,
    #[serde(default)]
    pub input_modalities: Option<Vec<String>>,
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
