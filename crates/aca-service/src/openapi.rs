//! `GET /v1/openapi.json`: the service's API description (OpenAPI 3.1), kept beside the code that
//! serves it; the companion test checks every path it names against the running router.

use axum::http::header;
use axum::response::{IntoResponse, Response};

/// The description, as served.
pub const DOCUMENT: &str = include_str!("../openapi.json");

pub async fn document() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], DOCUMENT).into_response()
}
