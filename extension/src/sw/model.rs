//! The LLM policy's chat endpoint, called from the service worker: the episode's request as an
//! OpenAI-compatible `POST <base>/chat/completions`, retried with backoff when the endpoint is
//! unreachable or busy, and the reply's text and token usage handed back to the episode.

use crate::chat::{read_completion, request_body};
use crate::chrome::sleep;
use crate::http;
use crate::settings::ModelEndpoint;
use aca_agent::{ModelFailure, ModelRequest, Usage};

/// Tries of one request (the first included) before the run stops with the endpoint's error.
const TRIES: u32 = 3;
const FIRST_BACKOFF_MS: i32 = 1_000;

/// Asks the model, showing it `screenshot` where the request has a place for one; the reply's text
/// and usage, or why there is none.
pub async fn complete(
    endpoint: &ModelEndpoint,
    request: &ModelRequest,
    screenshot: Option<&str>,
) -> Result<(String, Usage), ModelFailure> {
    let screenshot = screenshot.filter(|_| request.screenshot.is_some());
    let body = request_body(request, &endpoint.model, screenshot);
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
                let message = format!(
                    "the model endpoint {} refused the request: HTTP {}: {}",
                    endpoint.completions_url,
                    answer.status,
                    answer.text.chars().take(300).collect::<String>()
                );
                return Err(ModelFailure::of_status(answer.status, message));
            }
            Ok(answer) => {
                return read_completion(&answer.text)
                    .map(|(text, usage)| {
                        let images = u32::from(screenshot.is_some());
                        (text, Usage { images, ..usage })
                    })
                    .map_err(ModelFailure::Unavailable);
            }
            Err(e) => last_error = e,
        }
        if attempt < TRIES {
            sleep(backoff).await;
            backoff *= 2;
        }
    }
    Err(ModelFailure::Unavailable(format!(
        "the model endpoint {} failed {TRIES} times; last: {last_error}",
        endpoint.completions_url
    )))
}
