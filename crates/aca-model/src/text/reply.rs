//! Generated assistant text split the way Qwen3 writes it: `<think>…</think>` reasoning, the visible
//! content, and `<tool_call>{"name": …, "arguments": {…}}</tool_call>` blocks as tool calls.

use serde_json::{Map, Value};

use crate::text::TextError;

pub(crate) const THINK_START: &str = "<think>";
pub(crate) const THINK_END: &str = "</think>";
pub(crate) const TOOL_CALL_START: &str = "<tool_call>";
pub(crate) const TOOL_CALL_END: &str = "</tool_call>";

/// An assistant reply taken apart.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AssistantReply {
    /// The text inside `<think>…</think>`, trimmed; `None` when there was none or it was empty
    /// (thinking disabled).
    pub reasoning: Option<String>,
    /// What the user sees: the text after the reasoning with the tool-call blocks taken out, trimmed.
    pub content: String,
    pub tool_calls: Vec<ParsedToolCall>,
}

/// One `<tool_call>` block.
#[derive(Clone, Debug, PartialEq)]
pub struct ParsedToolCall {
    pub name: String,
    pub arguments: Map<String, Value>,
}

impl ParsedToolCall {
    /// The arguments as the OpenAI API carries them: a compact JSON string.
    pub fn arguments_json(&self) -> String {
        Value::Object(self.arguments.clone()).to_string()
    }
}

/// Splits generated text into reasoning, content and tool calls.
///
/// Reasoning is the text before `</think>` (after `<think>` if the reply opens with it; Qwen3 thinking
/// checkpoints put `<think>` in the prompt). A reply that opens `<think>` but never closes it (cut by
/// the token limit) is all reasoning. A tool-call block whose JSON is broken, lacks a name, has
/// non-object arguments or is never closed is an error naming the block.
pub fn parse_assistant_reply(text: &str) -> Result<AssistantReply, TextError> {
    let (reasoning, after_reasoning) = split_reasoning(text);
    let (content, tool_calls) = split_tool_calls(after_reasoning)?;
    Ok(AssistantReply {
        reasoning,
        content,
        tool_calls,
    })
}

fn split_reasoning(text: &str) -> (Option<String>, &str) {
    if let Some((before, after)) = text.split_once(THINK_END) {
        let thought = before.rsplit(THINK_START).next().unwrap_or(before).trim();
        return ((!thought.is_empty()).then(|| thought.to_string()), after);
    }
    if let Some(unfinished) = text.trim_start().strip_prefix(THINK_START) {
        let thought = unfinished.trim();
        return ((!thought.is_empty()).then(|| thought.to_string()), "");
    }
    (None, text)
}

fn split_tool_calls(text: &str) -> Result<(String, Vec<ParsedToolCall>), TextError> {
    let mut content = String::new();
    let mut calls = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(TOOL_CALL_START) {
        content.push_str(&rest[..start]);
        let body_and_after = &rest[start + TOOL_CALL_START.len()..];
        let index = calls.len();
        let Some(end) = body_and_after.find(TOOL_CALL_END) else {
            return Err(TextError::MalformedToolCall {
                index,
                reason: format!("no closing {TOOL_CALL_END}"),
            });
        };
        calls.push(parse_call(index, body_and_after[..end].trim())?);
        rest = &body_and_after[end + TOOL_CALL_END.len()..];
    }
    content.push_str(rest);
    Ok((content.trim().to_string(), calls))
}

pub(crate) fn parse_call(index: usize, body: &str) -> Result<ParsedToolCall, TextError> {
    let malformed = |reason: String| TextError::MalformedToolCall { index, reason };
    let value: Value = serde_json::from_str(body).map_err(|error| malformed(format!("invalid JSON ({error})")))?;
    let Value::Object(mut call) = value else {
        return Err(malformed(format!(
            "expected a JSON object with name and arguments, got {body}"
        )));
    };
    let name = match call.remove("name") {
        Some(Value::String(name)) if !name.trim().is_empty() => name,
        Some(other) => return Err(malformed(format!("name must be a non-empty string, got {other}"))),
        None => return Err(malformed("no \"name\"".to_string())),
    };
    let arguments = match call.remove("arguments") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(arguments)) => arguments,
        // Some models write the arguments as a JSON string, as the OpenAI API does.
        Some(Value::String(encoded)) => match serde_json::from_str::<Value>(&encoded) {
            Ok(Value::Object(arguments)) => arguments,
            _ => {
                return Err(malformed(format!(
                    "arguments of {name} must be a JSON object, got the string {encoded:?}"
                )));
            }
        },
        Some(other) => {
            return Err(malformed(format!(
                "arguments of {name} must be a JSON object, got {other}"
            )));
        }
    };
    Ok(ParsedToolCall { name, arguments })
}
