//! The LLM policy's exchange with an OpenAI-compatible chat endpoint, without I/O: the request body
//! of `POST <base>/chat/completions` and the reading of its answer into the reply's text and token
//! usage (`sw::model` sends it).

use aca_agent::{ModelRequest, Usage};
use serde::Deserialize;

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
    #[serde(default)]
    prompt_tokens_details: Option<PromptDetails>,
}

#[derive(Deserialize)]
struct PromptDetails {
    #[serde(default)]
    image_tokens: Option<u64>,
}

/// The episode's request as the endpoint's JSON body, for the model the options name, with the
/// console tab's screenshot (a `data:` URL) where the request has a place for it.
pub fn request_body(request: &ModelRequest, model: &str, screenshot: Option<&str>) -> String {
    let mut body = request.to_json_with_image(screenshot);
    body["model"] = serde_json::Value::from(model);
    body.to_string()
}

/// The reply's text and usage from a chat completion; `Err` says what the answer lacks.
pub fn read_completion(text: &str) -> Result<(String, Usage), String> {
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
        image_tokens: u
            .prompt_tokens_details
            .and_then(|d| d.image_tokens)
            .unwrap_or(0)
            .min(u64::from(u32::MAX)) as u32,
        images: 0,
    });
    Ok((content, usage))
}

#[cfg(test)]
mod tests {
    use super::*;
    use aca_agent::ChatMessage;

    #[test]
    fn the_body_names_the_configured_model() {
        let request = ModelRequest {
            model: "qwen3".into(),
            messages: vec![ChatMessage::user("Observe")],
            temperature: 0.0,
            max_tokens: 256,
            screenshot: None,
        };
        let body: serde_json::Value = serde_json::from_str(&request_body(&request, "served-model", None)).unwrap();
        assert_eq!(body["model"], "served-model");
        assert_eq!(body["messages"][0]["content"], "Observe");
        assert_eq!(body["max_tokens"], 256);
    }

    #[test]
    fn a_completion_gives_its_text_and_usage() {
        let answer = r#"{"choices":[{"message":{"role":"assistant","content":"Action: click(3)"}}],
            "usage":{"prompt_tokens":120,"completion_tokens":9}}"#;
        let (text, usage) = read_completion(answer).unwrap();
        assert_eq!(text, "Action: click(3)");
        assert_eq!((usage.prompt_tokens, usage.completion_tokens), (120, 9));
        let no_usage = r#"{"choices":[{"message":{"content":"x"}}]}"#;
        assert_eq!(read_completion(no_usage).unwrap().1, Usage::default());
        assert!(read_completion(r#"{"choices":[]}"#).unwrap_err().contains("no choice"));
        assert!(read_completion("<html>").unwrap_err().contains("no chat completion"));
    }
}
