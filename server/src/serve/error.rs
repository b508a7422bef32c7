//! Errors in OpenAI's shape (`{"error": {"message", "type", "param", "code"}}`) with the HTTP status
//! official clients map to their exception classes.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    pub kind: &'static str,
    pub param: Option<&'static str>,
    pub code: Option<&'static str>,
}

impl ApiError {
    /// A request the server cannot honour as written (400 `invalid_request_error`).
    pub fn invalid(message: impl Into<String>, param: Option<&'static str>) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
            kind: "invalid_request_error",
            param,
            code: None,
        }
    }

    /// A body that is not the JSON the route takes (400, as OpenAI answers), too large (413) or not
    /// JSON at all (415).
    pub fn rejected(rejection: axum::extract::rejection::JsonRejection) -> Self {
        let status = match rejection.status() {
            StatusCode::UNPROCESSABLE_ENTITY => StatusCode::BAD_REQUEST,
            other => other,
        };
        ApiError {
            status,
            message: rejection.body_text(),
            kind: "invalid_request_error",
            param: None,
            code: None,
        }
    }

    /// The prompt and the completion do not fit the context (400 `context_length_exceeded`).
    pub fn context_length(message: impl Into<String>) -> Self {
        ApiError {
            code: Some("context_length_exceeded"),
            ..ApiError::invalid(message, Some("messages"))
        }
    }

    pub fn unauthorized() -> Self {
        ApiError {
            status: StatusCode::UNAUTHORIZED,
            message: "missing or wrong bearer token (send Authorization: Bearer <token>)".into(),
            kind: "invalid_request_error",
            param: None,
            code: Some("invalid_api_key"),
        }
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
            kind: "invalid_request_error",
            param: None,
            code: Some("model_not_found"),
        }
    }

    /// The server is at capacity (429): clients back off and retry.
    pub fn overloaded(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::TOO_MANY_REQUESTS,
            message: message.into(),
            kind: "rate_limit_error",
            param: None,
            code: None,
        }
    }

    /// The model failed while generating (500 `server_error`).
    pub fn internal(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: message.into(),
            kind: "server_error",
            param: None,
            code: None,
        }
    }

    pub fn body(&self) -> serde_json::Value {
        json!({
            "error": {
                "message": self.message,
                "type": self.kind,
                "param": self.param,
                "code": self.code,
            }
        })
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}): {}", self.status.as_u16(), self.kind, self.message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body())).into_response()
    }
}
