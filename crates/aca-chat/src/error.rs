//! Why a chat call failed, typed so that the episode can record it and the runtime can decide.

use std::time::Duration;

#[derive(Debug, thiserror::Error)]
pub enum ChatError {
    #[error("the model endpoint {url} is unreachable: {reason}")]
    Unreachable { url: String, reason: String },
    #[error("the model endpoint {url} did not answer within {waited:?}")]
    Timeout { url: String, waited: Duration },
    #[error("the model endpoint {url} refused the API key (HTTP {status}): {message}")]
    Auth { url: String, status: u16, message: String },
    #[error("the model endpoint {url} answered HTTP {status}: {message}")]
    Http { url: String, status: u16, message: String },
    #[error("the model endpoint's reply is not a chat completion: {0}")]
    BadReply(String),
    #[error("gave up after {attempts} attempts; last error: {last}")]
    RetriesExhausted { attempts: u32, last: Box<ChatError> },
}

impl ChatError {
    /// Failures that may go away when the same request is sent again.
    pub fn is_transient(&self) -> bool {
        match self {
            ChatError::Unreachable { .. } | ChatError::Timeout { .. } => true,
            ChatError::Http { status, .. } => *status == 429 || *status >= 500,
            ChatError::Auth { .. } | ChatError::BadReply(_) | ChatError::RetriesExhausted { .. } => false,
        }
    }
}
