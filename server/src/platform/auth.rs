//! Who may change things through the platform API, and the dashboard's sign-in.
//!
//! Scripts and CI systems send a token as `Authorization: Bearer`: the admin token may do
//! everything; a user's token (made with `aca server users create`) may re-run pages and mark
//! defects as known. The dashboard never holds a token: a user shows theirs once to
//! `POST /v1/session` and gets back a session cookie that the page's scripts cannot read
//! (`HttpOnly`, `SameSite=Strict`). The admin token cannot sign in, so it never reaches a browser. A
//! request signed by the cookie must also carry `X-Requested-With: aca-dashboard`, a header that a
//! page of another site cannot send without this server's consent.

use std::sync::Arc;

use aca_platform::{PlatformError, now_ms};
use aca_service::users::UserError;
use aca_service::{Caller, User, UserStore, bearer_token, refuse};
use axum::Json;
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use serde::Deserialize;

use super::api::{Platform, failure};
use super::blocking;

/// The cookie holding a dashboard session's id.
pub const SESSION_COOKIE: &str = "aca_session";
/// The header (and its value) every request the dashboard signs with its cookie carries.
pub const DASHBOARD_HEADER: (&str, &str) = ("x-requested-with", "aca-dashboard");
/// How long a sign-in lasts.
const SESSION_TTL_S: i64 = 12 * 3600;

/// Someone the server knows, by token or by session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Signed {
    Admin,
    User(String),
}

impl Signed {
    /// Who, in words kept with what they did.
    pub fn name(&self) -> &str {
        match self {
            Signed::Admin => "the admin",
            Signed::User(name) => name,
        }
    }
}

/// The users every server on the results database knows, as the companion API's registry keeps
/// them: a user made on one server signs in on all.
pub struct DatabaseUsers(pub aca_platform::UserRows);

impl UserStore for DatabaseUsers {
    fn load(&self) -> Result<Vec<(User, [u8; 32])>, UserError> {
        let rows = self.0.all().map_err(|e| UserError::Store(e.to_string()))?;
        Ok(rows
            .into_iter()
            .map(|row| {
                let user = User {
                    name: row.name,
                    accounts: row.accounts,
                };
                (user, row.token_sha256)
            })
            .collect())
    }

    fn insert(&self, user: &User, token_sha256: &[u8; 32]) -> Result<bool, UserError> {
        let row = aca_platform::UserRow {
            name: user.name.clone(),
            token_sha256: *token_sha256,
            accounts: user.accounts.clone(),
        };
        self.0
            .insert(&row, now_ms())
            .map_err(|e| UserError::Store(e.to_string()))
    }
}

async fn authenticate(platform: &Platform, token: &str) -> Option<Caller> {
    aca_service::users::authenticate(&platform.users, token).await
}

/// The signed-in user a session cookie names, if it is still open.
async fn session_user(platform: &Platform, jar: &CookieJar) -> Result<Option<String>, PlatformError> {
    let Some(id) = jar.get(SESSION_COOKIE).map(|c| c.value().to_owned()) else {
        return Ok(None);
    };
    let sessions = platform.sessions.clone();
    let found = blocking(move || sessions.find(&id, now_ms())).await?;
    Ok(found.map(|s| s.user))
}

impl FromRequestParts<Arc<Platform>> for Signed {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, platform: &Arc<Platform>) -> Result<Self, Self::Rejection> {
        if let Some(token) = bearer_token(&parts.headers) {
            return match authenticate(platform, token).await {
                Some(Caller::Admin) => Ok(Signed::Admin),
                Some(Caller::User(user)) => Ok(Signed::User(user.name)),
                None => Err(refuse(
                    StatusCode::UNAUTHORIZED,
                    "InvalidToken",
                    "the token is not known to this server",
                )),
            };
        }
        let jar = CookieJar::from_headers(&parts.headers);
        if jar.get(SESSION_COOKIE).is_none() {
            return Err(refuse(
                StatusCode::UNAUTHORIZED,
                "Unauthorized",
                "sign in on the dashboard, or send Authorization: Bearer <your token>",
            ));
        }
        let from_dashboard = parts
            .headers
            .get(DASHBOARD_HEADER.0)
            .is_some_and(|v| v.as_bytes() == DASHBOARD_HEADER.1.as_bytes());
        if !from_dashboard {
            return Err(refuse(
                StatusCode::FORBIDDEN,
                "Forbidden.NotFromDashboard",
                "a request signed by a dashboard session must come from the dashboard \
                 (X-Requested-With: aca-dashboard); scripts send a token instead",
            ));
        }
        match session_user(platform, &jar).await {
            Ok(Some(user)) => Ok(Signed::User(user)),
            Ok(None) => Err(refuse(
                StatusCode::UNAUTHORIZED,
                "SessionEnded",
                "the session has ended: sign in again",
            )),
            Err(e) => Err(failure(e)),
        }
    }
}

/// The admin token's holder.
pub struct Admin;

impl FromRequestParts<Arc<Platform>> for Admin {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, platform: &Arc<Platform>) -> Result<Self, Self::Rejection> {
        let has_admin = platform.users.read().unwrap_or_else(|e| e.into_inner()).has_admin();
        if !has_admin {
            return Err(refuse(
                StatusCode::FORBIDDEN,
                "Forbidden.NoAdminToken",
                "this server was started without --admin-token: nothing but re-runs and marking defects \
                 as known can be asked of its API",
            ));
        }
        match Signed::from_request_parts(parts, platform).await? {
            Signed::Admin => Ok(Admin),
            Signed::User(_) => Err(refuse(
                StatusCode::FORBIDDEN,
                "AdminOnly",
                "this needs the admin token: users may re-run pages and mark defects as known",
            )),
        }
    }
}

#[derive(Deserialize)]
pub struct SignIn {
    token: String,
}

/// Whether the dashboard was reached over HTTPS (directly, or through a proxy that says so).
fn over_https(headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("https"))
}

fn session_cookie(value: String, max_age_s: i64, secure: bool) -> Cookie<'static> {
    Cookie::build((SESSION_COOKIE, value))
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(secure)
        .path("/")
        .max_age(time::Duration::seconds(max_age_s))
        .build()
}

/// `POST /v1/session` `{"token"}`: a user's token for a session cookie.
pub async fn sign_in(
    State(platform): State<Arc<Platform>>,
    headers: HeaderMap,
    jar: CookieJar,
    Json(request): Json<SignIn>,
) -> Response {
    let user = match authenticate(&platform, request.token.trim()).await {
        Some(Caller::User(user)) => user.name,
        Some(Caller::Admin) => {
            return refuse(
                StatusCode::FORBIDDEN,
                "AdminCannotSignIn",
                "the admin token does not sign in to the dashboard: make yourself a user \
                 (aca server users create) and sign in with their token",
            );
        }
        None => {
            return refuse(
                StatusCode::UNAUTHORIZED,
                "InvalidToken",
                "the token is not known to this server",
            );
        }
    };
    let sessions = platform.sessions.clone();
    let name = user.clone();
    match blocking(move || sessions.open(&name, now_ms(), SESSION_TTL_S * 1000)).await {
        Ok(id) => {
            let jar = jar.add(session_cookie(id, SESSION_TTL_S, over_https(&headers)));
            (jar, Json(serde_json::json!({ "user": user }))).into_response()
        }
        Err(e) => failure(e),
    }
}

/// `GET /v1/session`: who the session cookie signs in, or 401.
pub async fn current(State(platform): State<Arc<Platform>>, jar: CookieJar) -> Response {
    match session_user(&platform, &jar).await {
        Ok(Some(user)) => Json(serde_json::json!({ "user": user })).into_response(),
        Ok(None) => refuse(StatusCode::UNAUTHORIZED, "NotSignedIn", "nobody is signed in"),
        Err(e) => failure(e),
    }
}

/// `DELETE /v1/session`: signs out, ending the session on the server too.
pub async fn sign_out(State(platform): State<Arc<Platform>>, headers: HeaderMap, jar: CookieJar) -> Response {
    if let Some(id) = jar.get(SESSION_COOKIE).map(|c| c.value().to_owned()) {
        let sessions = platform.sessions.clone();
        if let Err(e) = blocking(move || sessions.close(&id)).await {
            return failure(e);
        }
    }
    let jar = jar.add(session_cookie(String::new(), 0, over_https(&headers)));
    (jar, Json(serde_json::json!({ "signed_out": true }))).into_response()
}
