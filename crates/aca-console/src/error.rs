//! Errors: the Alibaba Cloud error body every API caller sees, and the emulator's own failures.

use axum::http::StatusCode;

/// An API error as Alibaba Cloud returns it: `Code`, `Message`, `RequestId`, `HostId` and an HTTP status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: String,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, code: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            status,
            code: code.into(),
            message: message.into(),
        }
    }

    pub fn missing_parameter(name: &str) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "MissingParameter",
            format!("The input parameter \"{name}\" that is mandatory for processing this request is not supplied."),
        )
    }

    pub fn invalid_parameter(name: &str, why: impl std::fmt::Display) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "InvalidParameter",
            format!("The specified parameter \"{name}\" is not valid: {why}"),
        )
    }

    /// `InvalidVpcId.NotFound`-style errors for a resource that does not exist in the caller's account.
    pub fn not_found(what: &str, id: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            format!("Invalid{what}.NotFound"),
            format!("The specified {what} \"{id}\" does not exist."),
        )
    }

    /// The operation is not allowed in the resource's current state (`IncorrectInstanceStatus`, …).
    pub fn incorrect_status(code: &str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, code, message)
    }

    pub fn already_exists(code: &str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    pub fn dependency_violation(code: &str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    pub fn action_not_found(action: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "InvalidAction.NotFound",
            format!("Specified api \"{action}\" is not found, please check your url and method."),
        )
    }

    pub fn version_not_found(version: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "InvalidVersion",
            format!("Specified parameter Version \"{version}\" is not valid."),
        )
    }

    pub fn signature_mismatch(server_string_to_sign: &str) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "SignatureDoesNotMatch",
            format!(
                "Specified signature is not matched with our calculation. server string to sign is:{server_string_to_sign}"
            ),
        )
    }

    pub fn nonce_used() -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "SignatureNonceUsed",
            "Specified signature nonce was used already.",
        )
    }

    pub fn access_key_not_found() -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "InvalidAccessKeyId.NotFound",
            "Specified access key is not found.",
        )
    }

    pub fn access_key_disabled() -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "InvalidAccessKeyId.Inactive",
            "Specified access key is disabled.",
        )
    }

    pub fn throttling() -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "Throttling.User",
            "Request was denied due to user flow control.",
        )
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "Forbidden.RAM", message)
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "InternalError", message)
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}): {}", self.code, self.status.as_u16(), self.message)
    }
}

impl std::error::Error for ApiError {}

/// Failures of the emulator itself (storage, start-up), as opposed to errors it returns to callers.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConsoleError {
    #[error("console database {path}: {source}")]
    Database { path: String, source: rusqlite::Error },
    #[error("console database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("stored record is corrupt: {0}")]
    Corrupt(#[from] serde_json::Error),
    #[error("unknown UI profile {0:?} (known: 2024, 2026)")]
    UnknownProfile(String),
    #[error("account {0} does not exist")]
    NoSuchAccount(String),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}
