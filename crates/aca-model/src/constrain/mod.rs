//! Structured outputs: constrains decoding so a reply is any JSON object or a value valid against a JSON
//! Schema (OpenAI's `response_format` `json_object` and `json_schema`), one logits row at a time.
//!
//! A [`ConstraintFactory`] is built once per tokenizer; each sequence gets its own [`Constraint`] from it.
//! The grammar engine is `llguidance`.

mod constraint;
mod error;
mod factory;
mod spec;
mod vocabulary;

pub use constraint::Constraint;
pub use error::ConstraintError;
pub use factory::ConstraintFactory;
pub use spec::JsonSpec;
