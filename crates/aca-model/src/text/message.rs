//! Chat messages in the shape chat templates read (the OpenAI chat format, as `transformers` passes it).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Who speaks in a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
    Tool,
}

/// One chat message. Fields a message does not have are left out of what the template sees, so
/// `message.reasoning_content is defined` works as in Python.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChatMessage {
    pub role: Role,
    /// The text, or a list of parts when images join the prompt. A missing content (an assistant
    /// message that only calls tools) reaches the template as `""`, which Qwen templates expect.
    #[serde(default, deserialize_with = "content_or_empty")]
    pub content: MessageContent,
    /// The assistant's thinking, rendered by templates that know it (Qwen3) inside `<think>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning_content: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// For a `tool` message: the id of the call it answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// An optional speaker or tool name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl ChatMessage {
    fn text(role: Role, content: impl Into<String>) -> Self {
        Self {
            role,
            content: MessageContent::Text(content.into()),
            reasoning_content: None,
            tool_calls: Vec::new(),
            tool_call_id: None,
            name: None,
        }
    }

    pub fn system(content: impl Into<String>) -> Self {
        Self::text(Role::System, content)
    }

    pub fn user(content: impl Into<String>) -> Self {
        Self::text(Role::User, content)
    }

    pub fn assistant(content: impl Into<String>) -> Self {
        Self::text(Role::Assistant, content)
    }

    /// Tool-call arguments that arrived as JSON strings (the OpenAI API's form) parsed into objects, so
    /// the template writes them with the spacing the model itself produced (`{"a": 1}`) rather than the
    /// client's compact form. `transformers` renders a string verbatim; vLLM parses it, as this does.
    pub fn with_parsed_tool_arguments(mut self) -> Self {
        for call in &mut self.tool_calls {
            if let Value::String(encoded) = &call.function.arguments {
                call.function = FunctionCall::from_json_arguments(std::mem::take(&mut call.function.name), encoded);
            }
        }
        self
    }

    /// A tool's result, answering the call with id `tool_call_id`.
    pub fn tool(tool_call_id: impl Into<String>, content: impl Into<String>) -> Self {
        Self {
            tool_call_id: Some(tool_call_id.into()),
            ..Self::text(Role::Tool, content)
        }
    }
}

/// A message's content: plain text, or parts (text and images) for multimodal templates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum MessageContent {
    Text(String),
    Parts(Vec<ContentPart>),
}

impl MessageContent {
    /// The plain text; `None` for parts.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Self::Text(text) => Some(text),
            Self::Parts(_) => None,
        }
    }
}

impl Default for MessageContent {
    fn default() -> Self {
        Self::Text(String::new())
    }
}

/// One part of a multimodal message, in the shapes Qwen-VL templates test for (`content.type == 'image'`,
/// `'image_url' in content`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentPart {
    Text {
        text: String,
    },
    /// An image; `image` is whatever reference the vision side resolves (a URL, a path, a data URI).
    Image {
        image: String,
    },
    /// An image as the OpenAI API sends it.
    ImageUrl {
        image_url: ImageUrl,
    },
}

/// The `image_url` object of an OpenAI content part.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImageUrl {
    pub url: String,
}

/// A call the assistant made, as OpenAI clients send it back in the conversation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(rename = "type", default = "function_type")]
    pub kind: String,
    pub function: FunctionCall,
}

fn function_type() -> String {
    "function".to_string()
}

impl ToolCall {
    /// A function call with an optional id.
    pub fn function(id: Option<String>, name: impl Into<String>, arguments: Value) -> Self {
        Self {
            id,
            kind: function_type(),
            function: FunctionCall {
                name: name.into(),
                arguments,
            },
        }
    }
}

/// The function and arguments of a tool call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FunctionCall {
    pub name: String,
    /// A JSON object (rendered with Python's `json.dumps` spacing, as the model was trained on), or a
    /// string that the template inserts verbatim.
    pub arguments: Value,
}

impl FunctionCall {
    /// A call whose arguments arrive as the OpenAI API carries them, a JSON string: parsed into an
    /// object when it is one, so the prompt shows them the way the model writes them; kept as the
    /// string otherwise.
    pub fn from_json_arguments(name: impl Into<String>, arguments: &str) -> Self {
        let arguments = match serde_json::from_str::<Value>(arguments) {
            Ok(object @ Value::Object(_)) => object,
            _ => Value::String(arguments.to_string()),
        };
        Self {
            name: name.into(),
            arguments,
        }
    }
}

fn content_or_empty<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<MessageContent, D::Error> {
    Ok(Option::<MessageContent>::deserialize(deserializer)?.unwrap_or_default())
}
