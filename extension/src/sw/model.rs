//! The LLM policy's chat endpoint, called from the service worker: the episode's request as an
//! OpenAI-compatible `POST <base>/chat/completions`, retried with backoff when the endpoint is
//! unreachable or busy, and the reply's text and token usage handed back to the episode.

use aca_agent::{ModelRequest, Usage};
use serde::Deserialize;

use crate::chrome::sleep;
use crate::http;
use crate::settings::ModelEndpoint;

/// Tries of one request (the first included) before the run stops with the endpoint's error.
const TRIES: u32 = 3;
const FIRST_BACKOFF_MS: i32 = 1_000;

#[derive(Deserialize)]
struct Completion {
    choices: Vec<Choice>,
    #[serde(default)]
    usage: Option<CompletionUsage>,
}

#[derive(Deserialize)]
struct Choice {
    message: ChoiceMessage,
}

#[derive(Deserialize)]
struct ChoiceMessage {
    #[serde(default)]
    content: Option<String>,
}

#[derive(Deserialize)]
struct CompletionUsage {
    #[serde(default)]
    prompt_tokens: u64,
    #[serde(default)]
    completion_tokens: u64,
}

/// Asks the model; the reply's text and usage, or why there is none.
pub async fn complete(endpoint: &ModelEndpoint, request: &ModelRequest) -> Result<(String, Usage), String> {
    let mut body = request.to_json();
    body["model"] = serde_json::Value::from(endpoint.model.clone());
    let body = body.to_string();
    let bearer = endpoint.key.as_ref().map(|k| format!("Bearer {k}"));
    let mut headers = vec![("Content-Type", "application/json")];
    if let Some(bearer) = &bearer {
        headers.push(("Authorization", bearer));
    }
    let mut backoff = FIRST_BACKOFF_MS;
    let mut last_error = String::new();
    for attempt in 1..=TRIES {
        match http::fetch("POST", &endpoint.completions_url, &headers, Some(&body)).await {
            Ok(answer) if answer.status == 429 || answer.status >= 500 => {
                last_error = format!(
                    "HTTP {}: {}",
                    answer.status,
                    answer.text.chars().take(200).collect::<String>()
                );
            }
            Ok(answer) if answer.status >= 400 => {
                return Err(format!(
                    "the model endpoint {} refused the request: HTTP {}: {}",
                    endpoint.completions_url,
                    answer.status,
                    answer.text.chars().take(300).collect::<String>()
                ));
            }
            Ok(answer) => return read_completion(&answer.text),
            Err(e) => last_error = e,
        }
        if attempt < TRIES {
            sleep(backoff).await;
            backoff *= 2;
        }
    }
    Err(format!(
        "the model endpoint {} failed {TRIES} times; last: {last_error}",
        endpoint.completions_url
    ))
}

fn read_completion(text: &str) -> Result<(String, Usage), String> {
    let completion: Completion = serde_json::from_str(text).map_err(|e| {
        format!(
            "the model endpoint answered something that is no chat completion ({e}): {}",
            text.chars().take(200).collect::<String>()
        )
    })?;
    let content = completion
        .choices
        .into_iter()
        .next()
        .and_then(|c| c.message.content)
        .ok_or_else(|| "the model endpoint answered with no choice".to_owned())?;
    let usage = completion.usage.map_or(Usage::default(), |u| Usage {
        prompt_tokens: u.prompt_tokens.min(u64::from(u32::MAX)) as u32,
        completion_tokens: u.completion_tokens.min(u64::from(u32::MAX)) as u32,
    });
    Ok((content, usage))
}
