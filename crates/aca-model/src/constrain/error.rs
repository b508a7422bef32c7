//! What can go wrong building or driving a decoding constraint, each case naming what is wrong.

use thiserror::Error;

/// A constraint could not be built, or a decoding step broke it.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ConstraintError {
    /// The tokenizer cannot be mapped to per-token bytes (for example, a decoder that is neither
    /// byte-level nor byte-fallback).
    #[error("the tokenizer cannot drive a constraint: {0}")]
    Tokenizer(String),
    /// No end-of-sequence token was given; without one a constrained sequence could never end.
    #[error("a constraint needs at least one end-of-sequence token id")]
    NoEosToken,
    /// An end-of-sequence token id lies outside the tokenizer's vocabulary.
    #[error("end-of-sequence token id {id} is outside the tokenizer's vocabulary of {vocab_size} tokens")]
    EosOutOfVocabulary { id: u32, vocab_size: usize },
    /// The `response_format` value is malformed.
    #[error("invalid response_format: {0}")]
    InvalidResponseFormat(String),
    /// A forced tool call cannot be built (no tools offered, or the named tool is not among them).
    #[error("invalid tool_choice: {0}")]
    InvalidToolChoice(String),
    /// The schema is not a valid JSON Schema; `location` is the JSON pointer of the offending part.
    #[error("invalid JSON schema at `{location}`: {message}")]
    InvalidSchema { location: String, message: String },
    /// The schema is valid JSON Schema but uses something constrained decoding does not support.
    #[error("unsupported JSON schema feature: {feature}")]
    UnsupportedSchema { feature: String },
    /// No JSON value can satisfy the schema.
    #[error("the JSON schema cannot be satisfied: {reason}")]
    UnsatisfiableSchema { reason: String },
    /// The logits row is shorter than the tokenizer's vocabulary.
    #[error("logits row has {len} entries but the tokenizer has {vocab_size} tokens")]
    LogitsTooShort { len: usize, vocab_size: usize },
    /// The token offered to `advance` is not allowed in the constraint's current state.
    #[error("token {token} ({text}) is not allowed here by the response format")]
    TokenNotAllowed { token: u32, text: String },
    /// The constraint has ended (its end-of-sequence token was accepted, or it failed earlier).
    #[error("the constraint has already ended: {0}")]
    Ended(String),
    /// The grammar engine reported an internal failure.
    #[error("constraint engine error: {0}")]
    Engine(String),
}
