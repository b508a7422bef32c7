//! The judge channel, asked: two independent judges behind OpenAI-compatible endpoints (configured
//! separately: URL, model, key, price), each given the same [`JudgeCase`] at temperature 0 with the
//! answer's JSON schema enforced by the request. They are asked at the same time; a judge that
//! fails is named in the report and decides nothing.

use aca_chat::{ChatClient, ChatConfig, ChatRequest, Message};
use aca_core::{JudgeAnswer, JudgesReport};

use crate::judge::{JudgeCase, parse_answer, response_format, system_prompt, user_message};

/// The longest answer a judge may write: one JSON object with a sentence.
const ANSWER_TOKENS: u32 = 400;

/// The two judges a server is configured with.
#[derive(Debug, Clone)]
pub struct Judges {
    pair: [ChatClient; 2],
}

impl Judges {
    /// Judges at these two endpoints; an endpoint whose client cannot be built is an error naming it.
    pub fn new(first: ChatConfig, second: ChatConfig) -> Result<Self, aca_chat::ChatError> {
        Ok(Self {
            pair: [ChatClient::new(first)?, ChatClient::new(second)?],
        })
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
        let request = ChatRequest {
            messages: vec![Message::system(system_prompt()), Message::user(user_message(case))],
            temperature: Some(0.0),
            max_tokens: Some(ANSWER_TOKENS),
            response_format: Some(response_format()),
            ..Default::default()
        };
        let (first, second) = tokio::join!(ask(&self.pair[0], &request), ask(&self.pair[1], &request));
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
