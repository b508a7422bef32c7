//! The OpenAI chat-completions wire format as `aca serve` reads and writes it: requests (tolerant of
//! the shapes official clients send, images as `image_url` parts), replies, streamed chunks and the
//! token-level `/v1/generate`.

use aca_model::text::ChatMessage;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `POST /v1/chat/completions`. Fields the server does not use (`user`, `metadata`, …) are ignored.
#[derive(Debug, Clone, Deserialize)]
pub struct ChatCompletionRequest {
    #[serde(default)]
    pub model: Option<String>,
    pub messages: Vec<ChatMessage>,
    #[serde(default)]
    pub stream: bool,
    #[serde(default)]
    pub stream_options: Option<StreamOptions>,
    #[serde(flatten)]
    pub sampling: SamplingFields,
    #[serde(default)]
    pub n: Option<u32>,
    #[serde(default)]
    pub stop: Option<Stop>,
    #[serde(default)]
    pub max_tokens: Option<u32>,
    #[serde(default)]
    pub max_completion_tokens: Option<u32>,
    #[serde(default)]
    pub logprobs: Option<bool>,
    #[serde(default)]
    pub top_logprobs: Option<u8>,
    #[serde(default)]
    /// `{"type": "text" | "json_object" | "json_schema", …}`, read by the JSON constraint.
    pub response_format: Option<Value>,
    #[serde(default)]
    pub tools: Vec<Tool>,
    #[serde(default)]
    pub tool_choice: Option<ToolChoice>,
    /// With `tool_choice: "required"`, `false` forces exactly one call (OpenAI's default is true).
    #[serde(default)]
    pub parallel_tool_calls: Option<bool>,
    /// Qwen3's thinking switch, as its chat template names it (vLLM's `chat_template_kwargs`).
    #[serde(default)]
    pub chat_template_kwargs: Option<serde_json::Map<String, Value>>,
}

/// How tokens are drawn; the same fields in chat and token-level requests.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
pub struct SamplingFields {
    #[serde(default)]
    pub temperature: Option<f32>,
    #[serde(default)]
    pub top_p: Option<f32>,
    /// Not in OpenAI's API; vLLM and SGLang accept it and so do we.
    #[serde(default)]
    pub top_k: Option<u32>,
    #[serde(default)]
    pub seed: Option<u64>,
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
pub struct StreamOptions {
    #[serde(default)]
    pub include_usage: bool,
}

/// `stop`: one string or a list.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Stop {
    One(String),
    Many(Vec<String>),
}

impl Stop {
    pub fn into_vec(self) -> Vec<String> {
        match self {
            Stop::One(s) => vec![s],
            Stop::Many(v) => v,
        }
    }
}

/// A tool the model may call (only `function` tools exist).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Tool {
    #[serde(rename = "type")]
    pub kind: String,
    pub function: FunctionDefinition,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FunctionDefinition {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Value>,
    /// Objects in `parameters` admit no properties beyond those they list (enforced when the call is forced).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strict: Option<bool>,
}

/// `"none" | "auto" | "required" | {"type": "function", "function": {"name": …}}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum ToolChoice {
    Mode(String),
    Named { function: NamedFunction },
}

#[derive(Debug, Clone, Deserialize)]
pub struct NamedFunction {
    pub name: String,
}

/// A tool call, in a request's assistant message and in a reply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub function: FunctionCall,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionCall {
    pub name: String,
    /// JSON text, as OpenAI sends it.
    pub arguments: String,
}

/// `{"object": "chat.completion", …}`.
#[derive(Debug, Clone, Serialize)]
pub struct ChatCompletion {
    pub id: String,
    pub object: &'static str,
    pub created: u64,
    pub model: String,
    pub choices: Vec<Choice>,
    pub usage: Usage,
}

#[derive(Debug, Clone, Serialize)]
pub struct Choice {
    pub index: u32,
    pub message: ReplyMessage,
    pub logprobs: Option<ChoiceLogprobs>,
    pub finish_reason: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct ReplyMessage {
    pub role: &'static str,
    pub content: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_content: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
}

/// Tokens of a request. `prompt_tokens` counts every prompt token, image placeholders included; a
/// model that reads images also says how many of them the images fill
/// (`prompt_tokens_details.image_tokens`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub total_tokens: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_tokens_details: Option<PromptTokensDetails>,
}

/// What the prompt's tokens were made of.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct PromptTokensDetails {
    /// Placeholder tokens that carry the images' features (one per merged 2×2 patch group); the
    /// `<|vision_start|>`/`<|vision_end|>` markers around each image are text tokens.
    pub image_tokens: u64,
}

impl Usage {
    pub fn new(prompt_tokens: u64, completion_tokens: u64) -> Self {
        Usage {
            prompt_tokens,
            completion_tokens,
            total_tokens: prompt_tokens + completion_tokens,
            prompt_tokens_details: None,
        }
    }

    /// With the image tokens of the prompt, for a model that reads images (`None`: text only).
    pub fn with_image_tokens(self, image_tokens: Option<u64>) -> Self {
        Usage {
            prompt_tokens_details: image_tokens.map(|image_tokens| PromptTokensDetails { image_tokens }),
            ..self
        }
    }
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct ChoiceLogprobs {
    pub content: Vec<TokenLogprob>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TokenLogprob {
    pub token: String,
    pub logprob: f32,
    pub bytes: Vec<u8>,
    pub top_logprobs: Vec<TopLogprob>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TopLogprob {
    pub token: String,
    pub logprob: f32,
    pub bytes: Vec<u8>,
}

/// `{"object": "chat.completion.chunk", …}`, one `data:` event of a stream.
#[derive(Debug, Clone, Serialize)]
pub struct ChatCompletionChunk {
    pub id: String,
    pub object: &'static str,
    pub created: u64,
    pub model: String,
    pub choices: Vec<ChunkChoice>,
    /// Present (as null until the last chunk) when the client asked `include_usage`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<Option<Usage>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ChunkChoice {
    pub index: u32,
    pub delta: Delta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub logprobs: Option<ChoiceLogprobs>,
    pub finish_reason: Option<&'static str>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Delta {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_content: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCallDelta>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ToolCallDelta {
    pub index: u32,
    pub id: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub function: FunctionCall,
}

/// `POST /v1/generate`: token ids in, sampled ids and their logprobs out (RL rollouts train on
/// exactly what was sampled).
#[derive(Debug, Clone, Deserialize)]
pub struct GenerateRequest {
    /// The prompt. Each image's place is a run of `<|image_pad|>` ids: one (as the chat template writes
    /// it; the server expands it) or exactly the image's token count.
    pub input_ids: Vec<u32>,
    /// The prompt's images in order, as image URLs (base64 `data:` URLs; http(s) when the server allows).
    #[serde(default)]
    pub images: Vec<String>,
    #[serde(default)]
    pub max_tokens: Option<u32>,
    #[serde(flatten)]
    pub sampling: SamplingFields,
    #[serde(default)]
    pub stop_token_ids: Vec<u32>,
}

#[derive(Debug, Clone, Serialize)]
pub struct GenerateReply {
    /// The prompt as the model read it: `input_ids` with each image's placeholder expanded; only when
    /// the request held images.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_ids: Option<Vec<u32>>,
    pub output_ids: Vec<u32>,
    /// The log-probability of each sampled id under the distribution it was sampled from.
    pub logprobs: Vec<f32>,
    pub finish_reason: &'static str,
    pub usage: Usage,
}

/// `GET /v1/models`.
#[derive(Debug, Clone, Serialize)]
pub struct ModelList {
    pub object: &'static str,
    pub data: Vec<ModelCard>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ModelCard {
    pub id: String,
    pub object: &'static str,
    pub created: u64,
    pub owned_by: &'static str,
    pub max_model_len: usize,
    /// What the model reads: `["text"]`, or `["text", "image"]` for a vision-language model.
    pub input_modalities: Vec<&'static str>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_from_official_clients_parse_in_every_shape_they_take() {
        let request: ChatCompletionRequest = serde_json::from_value(serde_json::json!({
            "model": "qwen3",
            "messages": [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": [{"type": "text", "text": "Create a VPC"}]},
                {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": "create_vpc", "arguments": "{\"name\":\"a\"}"}}
                ]},
                {"role": "tool", "tool_call_id": "call_1", "content": "vpc-123"}
            ],
            "stream": true,
            "stream_options": {"include_usage": true},
            "stop": "\n\n",
            "max_completion_tokens": 12,
            "response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": {"type": "object"}}},
            "tools": [{"type": "function", "function": {"name": "create_vpc", "parameters": {"type": "object"}}}],
            "tool_choice": {"type": "function", "function": {"name": "create_vpc"}},
            "user": "someone",
            "metadata": {"ignored": true}
        }))
        .unwrap();
        assert_eq!(request.messages.len(), 4);
        assert_eq!(request.messages[2].tool_calls[0].function.name, "create_vpc");
        assert_eq!(request.stop.unwrap().into_vec(), vec!["\n\n".to_owned()]);
        assert!(request.stream_options.unwrap().include_usage);
        assert!(
            matches!(request.tool_choice, Some(ToolChoice::Named { ref function }) if function.name == "create_vpc")
        );
        let mode: ChatCompletionRequest =
            serde_json::from_str(r#"{"messages": [], "tool_choice": "required", "stop": ["a", "b"]}"#).unwrap();
        assert!(matches!(mode.tool_choice, Some(ToolChoice::Mode(ref m)) if m == "required"));
        let wizard = r#"{"messages": [{"role": "wizard", "content": "x"}]}"#;
        assert!(serde_json::from_str::<ChatCompletionRequest>(wizard).is_err());
    }

    #[test]
    fn a_chunk_carries_a_null_usage_until_the_last_when_usage_was_asked() {
        let mut chunk = ChatCompletionChunk {
            id: "c".into(),
            object: "chat.completion.chunk",
            created: 1,
            model: "m".into(),
            choices: vec![],
            usage: Some(None),
        };
        assert_eq!(serde_json::to_value(&chunk).unwrap()["usage"], Value::Null);
        chunk.usage = None;
        assert!(serde_json::to_value(&chunk).unwrap().get("usage").is_none());
    }
}
