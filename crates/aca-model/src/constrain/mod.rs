//! Structured outputs: constrains decoding so a reply is any JSON object, a value valid against a JSON
//! Schema (OpenAI's `response_format` `json_object` and `json_schema`), or forced tool calls (OpenAI's
//! `tool_choice` `"required"` or a named function), one logits row at a time.
//!
//! A [`ConstraintFactory`] is built once per tokenizer; each sequence gets its own [`Constraint`] from it.
//! The grammar engine is `llguidance`.

mod constraint;
mod error;
mod factory;
mod spec;
mod tools;
mod vocabulary;

pub use constraint::Constraint;
pub use error::ConstraintError;
pub use factory::ConstraintFactory;
pub use spec::JsonSpec;
pub use tools::{ToolCallCount, ToolCallSpec, ToolSchema};
