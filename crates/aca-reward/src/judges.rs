//! The judge channel, asked: two independent judges behind OpenAI-compatible endpoints (configured
//! separately: URL, model, key, price), each given the same [`JudgeCase`] at temperature 0 with the
//! answer's JSON schema enforced by the request. A judge configured as taking images is also shown
//! the final page's marked screenshot. They are asked at the same time; a judge that fails is named
//! in the report and decides nothing.

use aca_chat::{ChatClient, ChatConfig, ChatRequest, Message};
use aca_core::{JudgeAnswer, JudgesReport};

use crate::judge::{JudgeCase, SCREENSHOT_NOTE, parse_answer, response_format, system_prompt, user_message};

/// The longest answer a judge may write: one JSON object with a sentence.
const ANSWER_TOKENS: u32 = 400;

/// The two judges a server is configured with.
#[derive(Debug, Clone)]
pub struct Judges {
    pair: [ChatClient; 2],
    /// Which of the two take images.
    images: [bool; 2],
}

impl Judges {
    /// Judges at these two endpoints; an endpoint whose client cannot be built is an error naming it.
    pub fn new(first: ChatConfig, second: ChatConfig) -> Result<Self, aca_chat::ChatError> {
        Ok(Self {
            pair: [ChatClient::new(first)?, ChatClient::new(second)?],
            images: [false; 2],
        })
    }

    /// Whether either judge is shown the final page's screenshot (else none need be taken).
    pub fn take_images(&self) -> bool {
        self.images.contains(&true)
    }

    /// The same judges, the first and the second shown the final page's screenshot as they say.
    pub fn with_images(mut self, first: bool, second: bool) -> Self {
        self.images = [first, second];
        self
    }

    /// `model at URL` of each judge, for logs and `--help`-style listings (never a key).
    pub fn describe(&self) -> String {
        self.pair
            .iter()
            .map(|c| format!("{} at {}", c.config().model, c.config().base_url))
            .collect::<Vec<_>>()
            .join(" and ")
    }

    /// Asks both judges about `case`; `why_judges` says why the rule channel could not decide.
    pub async fn judge(&self, case: &JudgeCase, why_judges: &str) -> JudgesReport {
        let request = |takes_images: bool| {
            let text = user_message(case);
            let user = match case.final_screenshot.as_deref().filter(|_| takes_images) {
                Some(image) => Message::user(format!("{text}\n{SCREENSHOT_NOTE}")).with_image(image),
                None => Message::user(text),
            };
            ChatRequest {
                messages: vec![Message::system(system_prompt()), user],
                temperature: Some(0.0),
                max_tokens: Some(ANSWER_TOKENS),
                response_format: Some(response_format()),
                ..Default::default()
            }
        };
        let (first, second) = (request(self.images[0]), request(self.images[1]));
        let (first, second) = tokio::join!(ask(&self.pair[0], &first), ask(&self.pair[1], &second));
        JudgesReport {
            why_judges: why_judges.to_owned(),
            answers: vec![first, second],
        }
    }
}

async fn ask(client: &ChatClient, request: &ChatRequest) -> JudgeAnswer {
    let config = client.config();
    let mut answer = JudgeAnswer {
        model: config.model.clone(),
        endpoint: config.base_url.clone(),
        success: None,
        reason: String::new(),
        error: None,
        prompt_tokens: 0,
        completion_tokens: 0,
        cost_usd: None,
    };
    match client.complete(request).await {
        Ok(reply) => {
            answer.prompt_tokens = reply.usage.prompt_tokens;
            answer.completion_tokens = reply.usage.completion_tokens;
            answer.cost_usd = reply.cost_usd;
            match parse_answer(&reply.text) {
                Ok(said) => {
                    answer.success = Some(said.success);
                    answer.reason = said.reason;
                }
                Err(why) => answer.error = Some(why),
            }
        }
        Err(e) => answer.error = Some(e.to_string()),
    }
    answer
}
