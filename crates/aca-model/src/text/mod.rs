//! Text in and out of the model: the checkpoint's tokenizer and chat template.
//!
//! [`CheckpointText::load`] reads a Hugging Face checkpoint directory's text files (`tokenizer.json`,
//! `tokenizer_config.json`, `chat_template.jinja`, `generation_config.json`); [`ChatTemplate`] renders
//! [`ChatMessage`]s into a prompt exactly as `transformers`' `apply_chat_template` does;
//! [`IncrementalDecoder`] turns sampled token ids into complete UTF-8 text for streaming; and
//! [`parse_assistant_reply`] (whole replies) and [`ReplyStream`] (streamed ones) split generated text into
//! reasoning, content and tool calls.

mod checkpoint;
mod detokenize;
mod error;
mod message;
mod py_json;
pub(crate) mod reply;
mod reply_stream;
mod template;
mod tokenizer;

pub use checkpoint::CheckpointText;
pub use detokenize::IncrementalDecoder;
pub use error::TextError;
pub use message::{ChatMessage, ContentPart, FunctionCall, ImageUrl, MessageContent, Role, ToolCall};
pub use py_json::python_json_dumps;
pub use reply::{AssistantReply, ParsedToolCall, parse_assistant_reply};
pub use reply_stream::{ReplyDelta, ReplyStream};
pub use template::{ChatTemplate, RenderOptions, TemplateSpecialTokens};
pub use tokenizer::{SpecialTokens, TextTokenizer};
