//! The one error type of the text side: every variant names the file, token or template part at fault.

use std::path::PathBuf;

/// What went wrong while loading, encoding, decoding, rendering or parsing text.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TextError {
    /// A checkpoint file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// `tokenizer.json` is not a tokenizer the `tokenizers` library understands.
    #[error("invalid tokenizer {origin}: {message}")]
    InvalidTokenizer { origin: String, message: String },
    /// A JSON side file (`tokenizer_config.json`, `generation_config.json`, `chat_template.json`) is malformed.
    #[error("invalid {path}: {message}")]
    InvalidConfig { path: PathBuf, message: String },
    /// The tokenizer failed on a text.
    #[error("cannot encode text: {message}")]
    Encode { message: String },
    /// The tokenizer failed on token ids (an id outside the vocabulary, for instance).
    #[error("cannot decode token ids: {message}")]
    Decode { message: String },
    /// A token the caller asked for by name is not in the vocabulary.
    #[error("token {token:?} is not in the tokenizer's vocabulary")]
    UnknownToken { token: String },
    /// The checkpoint carries no chat template in any of the places one is looked for.
    #[error("no chat template in {dir} (looked in chat_template.jinja, chat_template.json, tokenizer_config.json)")]
    NoChatTemplate { dir: PathBuf },
    /// The chat template does not compile.
    #[error("chat template {name:?} does not compile: {source:#}")]
    TemplateSyntax {
        name: String,
        #[source]
        source: minijinja::Error,
    },
    /// The chat template failed while rendering (includes the template's own `raise_exception`).
    #[error("chat template {name:?} failed: {source:#}")]
    TemplateRender {
        name: String,
        #[source]
        source: minijinja::Error,
    },
    /// A `<tool_call>` block in generated text is not a valid call.
    #[error("tool call {index} is malformed: {reason}")]
    MalformedToolCall { index: usize, reason: String },
}
