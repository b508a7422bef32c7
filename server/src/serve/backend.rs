//! What the HTTP layer needs from a loaded model: its chat template, and sequences generated one
//! token event at a time (the model side batches concurrent sequences; the HTTP side only reads).

use serde_json::Value;
use tokio::sync::mpsc;

/// A conversation to render through the checkpoint's chat template.
#[derive(Debug, Clone, Default)]
pub struct ChatPrompt {
    pub messages: Vec<ChatMessage>,
    /// Tool definitions (`{"type": "function", "function": {…}}`) as the template expects them.
    pub tools: Vec<Value>,
    /// Extra template variables (`enable_thinking`, …).
    pub template_kwargs: serde_json::Map<String, Value>,
}

#[derive(Debug, Clone, Default)]
pub struct ChatMessage {
    pub role: String,
    pub content: String,
    pub reasoning_content: Option<String>,
    /// `{"name", "arguments"}` objects, arguments parsed from JSON text.
    pub tool_calls: Vec<Value>,
    pub tool_call_id: Option<String>,
    pub name: Option<String>,
}

/// How one sequence samples.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sampling {
    /// 0 is greedy.
    pub temperature: f32,
    pub top_p: f32,
    pub top_k: Option<u32>,
    pub seed: Option<u64>,
}

/// Output the decoder must keep to: any JSON object, or one matching a schema.
#[derive(Debug, Clone, PartialEq)]
pub enum JsonConstraint {
    Object,
    Schema(Value),
}

/// One sequence to generate.
#[derive(Debug, Clone)]
pub struct Job {
    pub prompt: Vec<u32>,
    pub sampling: Sampling,
    pub max_tokens: u32,
    /// Text that ends the sequence; it is not part of the output.
    pub stop_strings: Vec<String>,
    /// Token ids that end the sequence, besides the model's own end-of-turn tokens.
    pub stop_token_ids: Vec<u32>,
    /// `Some(n)`: report the chosen token's logprob and the `n` most likely alternatives.
    pub logprobs: Option<u8>,
    pub json: Option<JsonConstraint>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FinishReason {
    /// An end-of-turn token, a stop token or a stop string.
    Stop,
    /// `max_tokens`, or the context ran out.
    Length,
}

impl FinishReason {
    pub fn as_str(self) -> &'static str {
        match self {
            FinishReason::Stop => "stop",
            FinishReason::Length => "length",
        }
    }
}

/// A sampled token as the client sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Sampled {
    pub id: u32,
    /// The text this token completed (empty while a multi-byte character is still partial, and
    /// for the part of a stop string that is held back).
    pub text: String,
    pub logprob: f32,
    /// The most likely alternatives (id, logprob), best first, when logprobs were asked.
    pub top: Vec<(u32, f32)>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    Token(Sampled),
    Done {
        reason: FinishReason,
        prompt_tokens: u64,
        completion_tokens: u64,
    },
    Failed(String),
}

/// Why a job was not taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The prompt plus `max_tokens` exceed the context.
    TooLong {
        prompt: usize,
        max_tokens: u32,
        context: usize,
    },
    /// The queue is full; the client should retry later.
    Busy,
    /// A setting this model cannot honour (say which).
    Unsupported(String),
}

/// A loaded model the server generates with.
pub trait Backend: Send + Sync + 'static {
    fn model_id(&self) -> &str;
    fn max_context(&self) -> usize;
    /// The conversation rendered by the checkpoint's template (with the generation prompt), as ids.
    fn render_chat(&self, prompt: &ChatPrompt) -> Result<Vec<u32>, String>;
    /// The text of one token (for logprobs); byte-level pieces that are not valid UTF-8 alone come
    /// back with replacement characters, their bytes from [`Backend::token_bytes`].
    fn token_text(&self, id: u32) -> String;
    fn token_bytes(&self, id: u32) -> Vec<u8>;
    /// Queues a sequence; its events arrive in order and end with `Done` or `Failed`. Dropping the
    /// receiver cancels it.
    fn submit(&self, job: Job) -> Result<mpsc::Receiver<Event>, Refusal>;
}
