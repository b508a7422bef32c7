//! The LLM policy: renders the prompt into an OpenAI-compatible [`ModelRequest`] (with a slot for
//! the page's marked screenshot when the model takes images), reads the reply with the tolerant
//! parser, and records each call's token usage and cost. Taking the screenshot and sending the
//! request are the runtime's job.

use serde::{Deserialize, Serialize};

use super::{Context, Decision, Policy, Proposal};
use crate::model::{ChatMessage, ModelCall, ModelRequest, Pricing, ScreenshotSize, ScreenshotSlot, Usage};
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
    /// Shows the model the current page's marked screenshot at most this large, beside its element
    /// tree; `None` for an endpoint that takes text only.
    #[serde(default)]
    pub screenshots: Option<ScreenshotSize>,
}

impl Default for LlmConfig {
    fn default() -> Self {
        LlmConfig {
            model: "qwen3".into(),
            temperature: 0.0,
            max_tokens: 1024,
            pricing: Pricing::default(),
            screenshots: None,
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
    /// Whether the last request showed the page's screenshot.
    last_screenshot: Option<ScreenshotSize>,
    last_reply: String,
}

impl LlmPolicy {
    pub fn new(config: LlmConfig) -> LlmPolicy {
        LlmPolicy {
            config,
            ..LlmPolicy::default()
        }
    }

    /// The request of `messages`, whose first user message (the page as observed) gets the
    /// screenshot's slot; a retry's later messages only correct the reply.
    fn request(&self, messages: Vec<ChatMessage>) -> ModelRequest {
        let screenshot = self.last_screenshot.and_then(|size| {
            let message = messages.iter().position(|m| m.role == "user")?;
            Some(ScreenshotSlot { message, size })
        });
        ModelRequest {
            model: self.config.model.clone(),
            messages,
            temperature: self.config.temperature,
            max_tokens: self.config.max_tokens,
            screenshot,
        }
    }
}

impl Policy for LlmPolicy {
    fn propose(&mut self, ctx: &Context<'_>) -> Proposal {
        self.last_messages = prompt::messages(ctx);
        // A page that may show an authenticator's setup key (as text, or as a QR code beside the
        // fields for its codes) is described in words only: the text is masked, a screenshot could
        // not be.
        self.last_screenshot = self
            .config
            .screenshots
            .filter(|_| !crate::authenticator::may_show_secret(ctx.observation));
        Proposal::AskModel(self.request(self.last_messages.clone()))
    }

    fn reply(&mut self, ctx: &Context<'_>, text: &str, usage: Usage) -> Result<Decision, ParseError> {
        self.calls.push(ModelCall {
            usage,
            cost: self.config.pricing.cost(usage),
            step: ctx.current_step,
        });
        self.last_reply = text.to_owned();
        let parsed = parse_reply(text)?;
        let step = parsed
            .step
            .as_deref()
            .and_then(|n| ctx.steps.iter().position(|s| s.number == n))
            .or(ctx.current_step);
        if let Some(call) = self.calls.last_mut() {
            call.step = step;
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use aca_core::{Element, Role};

    fn slot_for(elements: Vec<Element>) -> Option<ScreenshotSlot> {
        request_for(elements).screenshot
    }

    /// The request the policy makes for a page showing `elements`, screenshots on.
    fn request_for(elements: Vec<Element>) -> ModelRequest {
        let page = "# Enable MFA\n\n## Procedure\n\n1. Click **Enable MFA Device**.\n";
        let mut policy = LlmPolicy::new(LlmConfig {
            screenshots: Some(ScreenshotSize::default()),
            ..LlmConfig::default()
        });
        match crate::policy::first_proposal(&mut policy, page, elements) {
            Proposal::AskModel(request) => request,
            Proposal::Act(_) => panic!("the LLM policy asks its model"),
        }
    }

    #[test]
    fn a_page_showing_a_setup_key_is_never_shown_as_a_screenshot() {
        let plain = vec![Element::new(1, Role::Button, "Enable MFA Device", Vec::new())];
        assert!(slot_for(plain).is_some());
        let request = request_for(vec![]);
        assert!(!request.messages[1].content.contains(prompt::SCREENSHOT_NOTE));
        let shown = request.shown(Some("data:image/png;base64,AAAA"));
        let (text, image) = (&shown[1].1, shown[1].2.as_deref());
        assert!(
            text.ends_with(prompt::SCREENSHOT_NOTE) && image.is_some(),
            "the model is told what the image is, and that it is data, only with the image"
        );
        assert_eq!(request.shown(None)[1].1, request.messages[1].content);
        let key = vec![Element::new(
            1,
            Role::Cell,
            "Key: GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ",
            Vec::new(),
        )];
        assert_eq!(slot_for(key), None, "the QR code and the key would be in the picture");
        // The QR code's tab shown, the key's tab not: the fields for the codes say a QR code is near.
        let scan_tab = vec![
            Element::new(1, Role::Tab, "Scan the code.", Vec::new()),
            Element::new(2, Role::Textbox, "Verification Code 1", Vec::new()),
        ];
        assert_eq!(slot_for(scan_tab), None, "the QR code would be in the picture");
    }
}
