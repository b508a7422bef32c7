//! The service's error answers, in the shape of the emulator's admin API.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// `{"Code": code, "Message": message}` with `status`.
pub fn refuse(status: StatusCode, code: &str, message: impl AsRef<str>) -> Response {
    (status, Json(json!({ "Code": code, "Message": message.as_ref() }))).into_response()
}
