//! The LLM policy: renders the prompt into an OpenAI-compatible [`ModelRequest`], reads the reply
//! with the tolerant parser, and records each call's token usage and cost. Sending the request is
//! the runtime's job.

use serde::{Deserialize, Serialize};

use super::{Context, Decision, Policy, Proposal};
use crate::model::{ChatMessage, ModelCall, ModelRequest, Pricing, Usage};
use crate::parse::{ParseError, parse_reply};
use crate::prompt;

/// Which model to ask and how.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmConfig {
    pub model: String,
    pub temperature: f32,
    pub max_tokens: u32,
    #[serde(default)]
    pub pricing: Pricing,
}

impl Default for LlmConfig {
    fn default() -> Self {
        LlmConfig {
            model: "qwen3".into(),
            temperature: 0.0,
            max_tokens: 1024,
            pricing: Pricing::default(),
        }
    }
}

/// Asks a chat model for every action.
#[derive(Debug, Default)]
pub struct LlmPolicy {
    config: LlmConfig,
    calls: Vec<ModelCall>,
    /// The messages of the last request and the reply to it, for a retry.
    last_messages: Vec<ChatMessage>,
    last_reply: String,
}

impl LlmPolicy {
    pub fn new(config: LlmConfig) -> LlmPolicy {
        LlmPolicy {
            config,
            ..LlmPolicy::default()
        }
    }

    fn request(&self, messages: Vec<ChatMessage>) -> ModelRequest {
        ModelRequest {
            model: self.config.model.clone(),
            messages,
            temperature: self.config.temperature,
            max_tokens: self.config.max_tokens,
        }
    }
}

impl Policy for LlmPolicy {
    fn propose(&mut self, ctx: &Context<'_>) -> Proposal {
        self.last_messages = prompt::messages(ctx);
        Proposal::AskModel(self.request(self.last_messages.clone()))
    }

    fn reply(&mut self, ctx: &Context<'_>, text: &str, usage: Usage) -> Result<Decision, ParseError> {
        self.calls.push(ModelCall {
            usage,
            cost: self.config.pricing.cost(usage),
        });
        self.last_reply = text.to_owned();
        let parsed = parse_reply(text)?;
        let step = parsed
            .step
            .as_deref()
            .and_then(|n| ctx.steps.iter().position(|s| s.number == n))
            .or(ctx.current_step);
        Ok(Decision::new(parsed.thought, parsed.action, step))
    }

    fn retry(&mut self, _ctx: &Context<'_>, error: &ParseError) -> Option<ModelRequest> {
        let mut messages = self.last_messages.clone();
        messages.push(ChatMessage::assistant(self.last_reply.clone()));
        messages.push(ChatMessage::user(error.retry_message()));
        self.last_messages = messages.clone();
        Some(self.request(messages))
    }

    fn model_calls(&self) -> Vec<ModelCall> {
        self.calls.clone()
    }
}
