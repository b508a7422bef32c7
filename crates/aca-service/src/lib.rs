//! The companion server's API for drivers that hold no secrets (the browser extension, RL
//! rollouts, the benchmark): per-user tokens, runs in the accounts assigned to a user with what the
//! page needs provisioned, and the reward service, which reads ActionTrail with credentials only
//! the server holds.
//!
//! Routes (JSON; errors are `{"Code": …, "Message": …}`; described at `GET /v1/openapi.json`):
//! - `GET /v1/me`: the caller and their accounts (ids and logon names, never keys).
//! - `POST /v1/runs`, `POST /v1/runs/{id}/requests`, `POST /v1/runs/{id}/reward`,
//!   `DELETE /v1/runs/{id}`: one run in an assigned account ([`runs`]).
//! - `POST /v1/reward`: decide any window of an assigned account ([`reward`]); a task with no
//!   audit event to decide it goes to the server's two judges ([`judges`]) when it has them.
//! - `POST /admin/users`, `GET /admin/users`: the admin token makes users and assigns accounts.
//!
//! The server's own credentials for an account come from an [`AccountKeys`]: the bundled emulator's
//! ([`emulator::EmulatorAccounts`], feature `emulator`, served by `aca console`) or the real
//! accounts of a file ([`accounts::FileAccounts`], served by `aca server`).

pub mod accounts;
mod auth;
#[cfg(feature = "emulator")]
pub mod emulator;
mod error;
pub mod judges;
pub mod openapi;
pub mod reward;
pub mod runs;
pub mod users;

use std::sync::Arc;

use aca_openapi::Endpoints;
use aca_openapi::client::AccessKeyPair;
use axum::Router;
use axum::routing::{get, post};
use tokio::sync::Mutex;

pub use auth::{Caller, bearer_token};
pub use error::refuse;
pub use users::{User, UserStore, Users, UsersFile};

/// What the server knows of one account: where its console and APIs are, and its AccessKey.
#[derive(Debug, Clone)]
pub struct AccountAccess {
    pub account_id: String,
    /// The logon name the console shows for the account.
    pub login: String,
    /// The web console's base URL.
    pub console_url: String,
    pub endpoints: Endpoints,
    pub key: AccessKeyPair,
    /// The account lives in an emulator: its audit log delivers at once.
    pub emulator: bool,
}

/// Where the server finds the credentials of the accounts it serves.
pub trait AccountKeys: Send + Sync {
    fn access(&self, account_id: &str) -> Option<AccountAccess>;
}

/// No accounts at all: a server that only makes users and knows them (the platform's dashboard
/// users), without running in any account.
#[derive(Debug, Default)]
pub struct NoAccounts;

impl AccountKeys for NoAccounts {
    fn access(&self, _account_id: &str) -> Option<AccountAccess> {
        None
    }
}

/// The users of a server, read by every API that takes their tokens.
pub type SharedUsers = Arc<std::sync::RwLock<Users>>;

/// The service's state.
pub struct Companion {
    accounts: Arc<dyn AccountKeys>,
    users: SharedUsers,
    runs: Mutex<runs::Runs>,
    /// The judge channel's two judges, when the server is given them.
    judges: std::sync::OnceLock<aca_reward::Judges>,
}

impl Companion {
    /// Users kept in memory only.
    pub fn new(accounts: Arc<dyn AccountKeys>, admin_token: Option<&str>) -> Arc<Self> {
        Self::with_users(accounts, Users::new(admin_token))
    }

    /// `users` (say, [`Users::open`] on a file, so a restart keeps them).
    pub fn with_users(accounts: Arc<dyn AccountKeys>, users: Users) -> Arc<Self> {
        Arc::new(Self {
            accounts,
            users: Arc::new(std::sync::RwLock::new(users)),
            runs: Mutex::new(runs::Runs::default()),
            judges: std::sync::OnceLock::new(),
        })
    }

    /// The users this service knows, shared with whatever else the server serves under their tokens.
    pub fn users(&self) -> SharedUsers {
        self.users.clone()
    }

    /// Gives the reward service its two judges, for runs no audit event decides; once only.
    pub fn set_judges(&self, judges: aca_reward::Judges) -> Result<(), String> {
        self.judges
            .set(judges)
            .map_err(|_| "this server's judges are already set".to_owned())
    }

    pub fn judges(&self) -> Option<&aca_reward::Judges> {
        self.judges.get()
    }

    /// Adds a user (as `POST /admin/users` does); their token, shown this once.
    pub fn create_user(&self, name: &str, accounts: Vec<String>) -> Result<String, users::UserError> {
        self.users
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .create(name, accounts)
    }

    fn access(&self, account_id: &str) -> Option<AccountAccess> {
        self.accounts.access(account_id)
    }
}

/// Every route of the service.
pub fn routes(companion: Arc<Companion>) -> Router {
    Router::new()
        .route("/v1/openapi.json", get(openapi::document))
        .route("/v1/runs", post(runs::start))
        .route("/v1/runs/{id}/requests", post(runs::request))
        .route("/v1/runs/{id}/reward", post(runs::reward))
        .route("/v1/runs/{id}", axum::routing::delete(runs::finish))
        .route("/v1/reward", post(reward::decide))
        .with_state(companion.clone())
        .merge(user_routes(companion))
}

/// Only the routes about users (`/v1/me`, `/admin/users`): for a server that knows users but
/// serves no accounts.
pub fn user_routes(companion: Arc<Companion>) -> Router {
    Router::new()
        .route("/v1/me", get(auth::me))
        .route("/admin/users", get(auth::list_users).post(auth::create_user))
        .with_state(companion)
}
