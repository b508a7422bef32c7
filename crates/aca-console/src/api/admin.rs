//! The admin API (`/admin/…`, bearer token): create, list, reset, snapshot and restore accounts.
//! Disabled when the emulator runs without an admin token.

use std::sync::Arc;

use axum::extract::{Path, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;

use crate::Console;
use crate::accounts::Snapshot;
use crate::error::ConsoleError;
use crate::profile::ProfileId;

/// The admin routes, each behind [`require_admin`].
pub fn router(console: Arc<Console>) -> Router<Arc<Console>> {
    Router::new()
        .route("/admin/accounts", get(list).post(create))
        .route("/admin/accounts/{id}/credentials", get(credentials))
        .route("/admin/accounts/{id}/reset", post(reset))
        .route("/admin/accounts/{id}/snapshot", get(snapshot))
        .route("/admin/accounts/{id}/restore", post(restore))
        .route_layer(middleware::from_fn_with_state(console, require_admin))
}

/// Lets a request through only when it carries the emulator's admin token: the layer of every admin
/// route (here and beside the emulator), checked before the request's body is read.
pub async fn require_admin(State(console): State<Arc<Console>>, request: Request, next: Next) -> Response {
    let Some(expected) = &console.config.admin_token else {
        return admin_error(
            StatusCode::FORBIDDEN,
            "AdminDisabled",
            "this emulator was started without --admin-token",
        );
    };
    let given = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    if !same_token(given.unwrap_or_default(), expected) {
        return admin_error(
            StatusCode::UNAUTHORIZED,
            "InvalidAdminToken",
            "missing or wrong admin token (Authorization: Bearer <token>)",
        );
    }
    next.run(request).await
}

/// Whether `given` is the admin token, in time that does not depend on where they differ.
fn same_token(given: &str, expected: &str) -> bool {
    use sha2::{Digest, Sha256};
    use subtle::ConstantTimeEq;
    let (given, expected) = (Sha256::digest(given.as_bytes()), Sha256::digest(expected.as_bytes()));
    bool::from(given.as_slice().ct_eq(expected.as_slice()))
}

#[derive(Debug, Deserialize, Default)]
struct CreateAccount {
    name: Option<String>,
    profile: Option<ProfileId>,
}

#[derive(Debug, Deserialize, Default)]
struct ResetAccount {
    profile: Option<ProfileId>,
}

/// An admin API error: `{"Code", "Message"}` with `status`.
pub fn admin_error(status: StatusCode, code: &str, message: &str) -> Response {
    (status, Json(json!({ "Code": code, "Message": message }))).into_response()
}

fn console_error(e: ConsoleError) -> Response {
    match e {
        ConsoleError::NoSuchAccount(_) => admin_error(StatusCode::NOT_FOUND, "AccountNotFound", &e.to_string()),
        other => admin_error(StatusCode::INTERNAL_SERVER_ERROR, "InternalError", &other.to_string()),
    }
}

async fn list(State(console): State<Arc<Console>>) -> Response {
    Json(console.account_summaries()).into_response()
}

async fn create(State(console): State<Arc<Console>>, body: Option<Json<CreateAccount>>) -> Response {
    let req = body.map(|Json(b)| b).unwrap_or_default();
    let name = req.name.unwrap_or_else(|| "tester".to_owned());
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return admin_error(
            StatusCode::BAD_REQUEST,
            "InvalidParameter",
            "name must be letters, digits, '-' or '_'",
        );
    }
    match console.create_account(&name, req.profile) {
        Ok(creds) => (StatusCode::CREATED, Json(creds)).into_response(),
        Err(e) => console_error(e),
    }
}

async fn credentials(State(console): State<Arc<Console>>, Path(id): Path<String>) -> Response {
    match console.credentials(&id) {
        Ok(creds) => Json(creds).into_response(),
        Err(e) => console_error(e),
    }
}

async fn reset(
    State(console): State<Arc<Console>>,
    Path(id): Path<String>,
    body: Option<Json<ResetAccount>>,
) -> Response {
    let profile = body.and_then(|Json(b)| b.profile);
    match console.reset_account(&id, profile) {
        Ok(()) => Json(json!({ "accountId": id, "reset": true })).into_response(),
        Err(e) => console_error(e),
    }
}

async fn snapshot(State(console): State<Arc<Console>>, Path(id): Path<String>) -> Response {
    match console.snapshot_account(&id) {
        Ok(s) => Json(s).into_response(),
        Err(e) => console_error(e),
    }
}

async fn restore(
    State(console): State<Arc<Console>>,
    Path(id): Path<String>,
    Json(snapshot): Json<Snapshot>,
) -> Response {
    if snapshot.account.id != id {
        return admin_error(
            StatusCode::BAD_REQUEST,
            "InvalidParameter",
            "the snapshot belongs to another account",
        );
    }
    match console.restore_account(snapshot) {
        Ok(()) => Json(json!({ "accountId": id, "restored": true })).into_response(),
        Err(e) => console_error(e),
    }
}
