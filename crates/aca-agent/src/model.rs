//! What the episode asks of a chat model: an OpenAI-compatible [`ModelRequest`] (with the place of
//! the page's screenshot, which the runtime takes), the [`Usage`] the runtime reports back, and what a
//! call cost under configurable [`Pricing`].

use serde::{Deserialize, Serialize};

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    /// `system`, `user` or `assistant`.
    pub role: String,
    pub content: String,
}

impl ChatMessage {
    pub fn system(content: impl Into<String>) -> Self {
        ChatMessage {
            role: "system".into(),
            content: content.into(),
        }
    }
    pub fn user(content: impl Into<String>) -> Self {
        ChatMessage {
            role: "user".into(),
            content: content.into(),
        }
    }
    pub fn assistant(content: impl Into<String>) -> Self {
        ChatMessage {
            role: "assistant".into(),
            content: content.into(),
        }
    }
}

/// A chat completion request, serialised as the body of `POST /v1/chat/completions`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelRequest {
    pub model: String,
    pub messages: Vec<ChatMessage>,
    pub temperature: f32,
    pub max_tokens: u32,
    /// Where the current page's marked screenshot belongs, when the policy shows the model one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screenshot: Option<ScreenshotSlot>,
}

impl ModelRequest {
    /// The request body in the OpenAI chat format, text only.
    pub fn to_json(&self) -> serde_json::Value {
        self.to_json_with_image(None)
    }

    /// Each message as it is sent: role, text, and `image` (a `data:` URL) in the slot's message,
    /// whose text then ends with what the image is ([`crate::prompt::SCREENSHOT_NOTE`]). Without an
    /// image or a slot, the messages as they are.
    pub fn shown(&self, image: Option<&str>) -> Vec<(String, String, Option<String>)> {
        let slot = self.screenshot.map(|s| s.message);
        self.messages
            .iter()
            .enumerate()
            .map(|(i, m)| match image.filter(|_| slot == Some(i)) {
                Some(url) => (
                    m.role.clone(),
                    format!("{}\n{}", m.content, crate::prompt::SCREENSHOT_NOTE),
                    Some(url.to_owned()),
                ),
                None => (m.role.clone(), m.content.clone(), None),
            })
            .collect()
    }

    /// The request body with `image` in the slot's message (see [`Self::shown`]), in the OpenAI
    /// content-parts form.
    pub fn to_json_with_image(&self, image: Option<&str>) -> serde_json::Value {
        let messages: Vec<serde_json::Value> = self
            .shown(image)
            .into_iter()
            .map(|(role, text, image)| match image {
                Some(url) => serde_json::json!({
                    "role": role,
                    "content": [
                        {"type": "text", "text": text},
                        {"type": "image_url", "image_url": {"url": url}},
                    ],
                }),
                None => serde_json::json!({"role": role, "content": text}),
            })
            .collect();
        serde_json::json!({
            "model": self.model,
            "messages": messages,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        })
    }
}

/// The largest screenshot the model is shown, in pixels; a larger viewport is scaled down to fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScreenshotSize {
    pub max_width: u32,
    pub max_height: u32,
}

impl Default for ScreenshotSize {
    /// 1280×720: a laptop's console view, about 900 image tokens for Qwen3-VL (32-pixel cells).
    fn default() -> Self {
        ScreenshotSize {
            max_width: 1280,
            max_height: 720,
        }
    }
}

impl std::str::FromStr for ScreenshotSize {
    type Err = String;

    /// `WIDTHxHEIGHT`, e.g. `1280x720`.
    fn from_str(text: &str) -> Result<Self, String> {
        let bad = || format!("`{text}` is no screenshot size: give WIDTHxHEIGHT, e.g. 1280x720");
        let (width, height) = text.split_once(['x', 'X']).ok_or_else(bad)?;
        let max_width: u32 = width.trim().parse().map_err(|_| bad())?;
        let max_height: u32 = height.trim().parse().map_err(|_| bad())?;
        if max_width < 64 || max_height < 64 {
            return Err(format!(
                "a screenshot of {text} shows the model nothing: give at least 64x64"
            ));
        }
        Ok(ScreenshotSize { max_width, max_height })
    }
}

/// The message a request's screenshot goes into (an index into its messages; only the latest page
/// is ever shown), and how large it may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScreenshotSlot {
    pub message: usize,
    pub size: ScreenshotSize,
}

/// What one call used: tokens as the endpoint's `usage` object reports them, and the images the
/// runtime sent with it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub prompt_tokens: u32,
    pub completion_tokens: u32,
    /// The prompt's image tokens, where the endpoint counts them apart
    /// (`usage.prompt_tokens_details.image_tokens`); they are part of `prompt_tokens`.
    #[serde(default)]
    pub image_tokens: u32,
    /// Screenshots the request carried.
    #[serde(default)]
    pub images: u32,
}

/// Prices per million tokens, in whatever currency the deployment reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Pricing {
    pub input_per_million: f64,
    pub output_per_million: f64,
}

impl Pricing {
    pub fn cost(&self, usage: Usage) -> f64 {
        (f64::from(usage.prompt_tokens) * self.input_per_million
            + f64::from(usage.completion_tokens) * self.output_per_million)
            / 1_000_000.0
    }
}

/// One model call as reports count it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ModelCall {
    pub usage: Usage,
    pub cost: f64,
    /// The documented step the call decided for (an index into the task's steps).
    #[serde(default)]
    pub step: Option<usize>,
}

/// Why a model call gave no reply, which decides whose failure the run is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelFailure {
    /// The endpoint could not be reached, timed out, refused the key, was rate-limited or failed
    /// itself: the environment's fault, and nothing is said about the page or the agent.
    #[error("{0}")]
    Unavailable(String),
    /// The endpoint answered that the request itself is one it does not take (HTTP 4xx: a prompt
    /// beyond the model's context, an unknown model name): the agent's failure.
    #[error("{0}")]
    Refused(String),
}

impl ModelFailure {
    /// Sorts an HTTP error answer; `message` is already in words.
    pub fn of_status(status: u16, message: String) -> Self {
        match status {
            400..=499 if !matches!(status, 401 | 403 | 408 | 429) => ModelFailure::Refused(message),
            _ => ModelFailure::Unavailable(message),
        }
    }
}
