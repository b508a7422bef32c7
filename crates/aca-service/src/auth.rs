//! Who is calling: the bearer token read before anything else of the request, and the routes that
//! are about the caller (`/v1/me`) or make callers (`/admin/users`).

use std::sync::Arc;

use axum::Json;
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use crate::Companion;
use crate::error::refuse;
pub use crate::users::Caller;

/// The token of an `Authorization: Bearer` header, if the request has one.
pub fn bearer_token(headers: &axum::http::HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty())
}

impl FromRequestParts<Arc<Companion>> for Caller {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, companion: &Arc<Companion>) -> Result<Self, Self::Rejection> {
        let token = bearer_token(&parts.headers).unwrap_or_default();
        if token.is_empty() {
            return Err(refuse(
                StatusCode::UNAUTHORIZED,
                "MissingToken",
                "no token: send Authorization: Bearer <your token>",
            ));
        }
        crate::users::authenticate(&companion.users, token)
            .await
            .ok_or_else(|| {
                refuse(
                    StatusCode::UNAUTHORIZED,
                    "InvalidToken",
                    "the token is not known to this server",
                )
            })
    }
}

/// A caller holding the admin token, checked before the body is read.
pub struct Admin;

impl FromRequestParts<Arc<Companion>> for Admin {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, companion: &Arc<Companion>) -> Result<Self, Self::Rejection> {
        match Caller::from_request_parts(parts, companion).await? {
            Caller::Admin => Ok(Admin),
            Caller::User(_) => Err(refuse(
                StatusCode::FORBIDDEN,
                "AdminOnly",
                "this needs the admin token; a user token cannot manage users",
            )),
        }
    }
}

/// `GET /v1/me`: the caller and the accounts they may run in (ids, logon names, consoles).
pub async fn me(State(companion): State<Arc<Companion>>, caller: Caller) -> Response {
    let accounts: Vec<_> = match &caller {
        Caller::Admin => Vec::new(),
        Caller::User(user) => user
            .accounts
            .iter()
            .filter_map(|id| companion.access(id))
            .map(|a| json!({ "account_id": a.account_id, "login": a.login, "console_url": a.console_url }))
            .collect(),
    };
    Json(json!({ "user": caller.name(), "admin": caller == Caller::Admin, "accounts": accounts })).into_response()
}

#[derive(Debug, Deserialize)]
pub struct NewUser {
    name: String,
    #[serde(default)]
    accounts: Vec<String>,
}

/// `POST /admin/users` `{name, accounts}` → `201 {name, accounts, token}`.
pub async fn create_user(State(companion): State<Arc<Companion>>, _: Admin, Json(body): Json<NewUser>) -> Response {
    if let Some(unknown) = body.accounts.iter().find(|id| companion.access(id).is_none()) {
        return refuse(
            StatusCode::NOT_FOUND,
            "AccountNotFound",
            format!("this server holds no credentials for account {unknown}"),
        );
    }
    let made = {
        let (companion, name, accounts) = (companion.clone(), body.name.clone(), body.accounts.clone());
        tokio::task::spawn_blocking(move || companion.create_user(&name, accounts))
            .await
            .unwrap_or_else(|e| Err(crate::users::UserError::Store(e.to_string())))
    };
    match made {
        Ok(token) => (
            StatusCode::CREATED,
            Json(json!({ "name": body.name, "accounts": body.accounts, "token": token })),
        )
            .into_response(),
        Err(e @ crate::users::UserError::Store(_)) => {
            refuse(StatusCode::INTERNAL_SERVER_ERROR, "UserNotKept", e.to_string())
        }
        Err(e) => refuse(StatusCode::CONFLICT, "UserNotCreated", e.to_string()),
    }
}

/// `GET /admin/users`: every user and their accounts (no tokens).
pub async fn list_users(State(companion): State<Arc<Companion>>, _: Admin) -> Response {
    let users = companion.users.clone();
    let read = tokio::task::spawn_blocking(move || {
        let mut users = users.write().unwrap_or_else(|e| e.into_inner());
        users.refresh().map(|()| users.list())
    })
    .await
    .unwrap_or_else(|e| Err(crate::users::UserError::Store(e.to_string())));
    match read {
        Ok(users) => Json(users).into_response(),
        Err(e) => refuse(StatusCode::SERVICE_UNAVAILABLE, "UsersUnavailable", e.to_string()),
    }
}
