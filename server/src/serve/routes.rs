//! The HTTP surface of `aca serve`: OpenAI's routes, `/v1/generate`, `/health` and `/metrics`,
//! behind a bearer token when one is configured and a request size limit.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::Json;
use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use super::App;
use super::error::ApiError;
use super::protocol::{ModelCard, ModelList};
use super::{chat, generate};

pub fn router(app: Arc<App>) -> Router {
    let limit = app.max_request_bytes;
    let api = Router::new()
        .route("/v1/chat/completions", post(chat::completions))
        .route("/v1/generate", post(generate::generate))
        .route("/v1/models", get(models))
        .route_layer(middleware::from_fn_with_state(app.clone(), bearer));
    Router::new()
        .merge(api)
        .route("/health", get(health))
        .route("/metrics", get(metrics))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(limit))
        .with_state(app)
}

/// Refuses API calls without the configured token; `/health` and `/metrics` stay open for probes.
async fn bearer(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    if let Some(token) = &app.token {
        let given = request
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        if given != Some(token.as_str()) {
            app.metrics.count(request.uri().path(), 401);
            return ApiError::unauthorized().into_response();
        }
    }
    next.run(request).await
}

async fn models(State(app): State<Arc<App>>) -> Json<ModelList> {
    app.metrics.count("/v1/models", 200);
    Json(ModelList {
        object: "list",
        data: vec![ModelCard {
            id: app.model.id.clone(),
            object: "model",
            created: app.started.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()),
            owned_by: "aca",
            max_model_len: app.model.max_context,
            input_modalities: app.model.input_modalities(),
        }],
    })
}

async fn health(State(app): State<Arc<App>>) -> Response {
    let up = SystemTime::now().duration_since(app.started).map_or(0, |d| d.as_secs());
    Json(serde_json::json!({"status": "ok", "model": app.model.id, "uptime_s": up})).into_response()
}

async fn metrics(State(app): State<Arc<App>>) -> Response {
    match app.metrics.render() {
        Ok(text) => (
            [(
                header::CONTENT_TYPE,
                "application/openmetrics-text; version=1.0.0; charset=utf-8",
            )],
            text,
        )
            .into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

async fn not_found(request: Request) -> ApiError {
    ApiError {
        code: None,
        ..ApiError::not_found(format!("no route {} {}", request.method(), request.uri().path()))
    }
}
