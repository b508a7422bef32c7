//! The bundled Alibaba Cloud console emulator.
//!
//! One HTTP address serves everything a client of the real cloud talks to: the RPC-style OpenAPI of
//! every product (routed by API version, signed with AccessKeys), the console's web pages, and the
//! admin API that creates isolated accounts. Every call, from an SDK or from the console's own
//! front end, becomes an ActionTrail event of the caller's account.
//!
//! Map: [`catalog`] says what an operation is; [`products`] holds one module per product;
//! [`dispatch`] runs a call and records its event; [`store`] keeps accounts in memory and SQLite;
//! [`api`] is the HTTP surface; [`rest`] the REST protocols of OSS and Simple Log Service on the same
//! address; [`ui`] the console's web pages, which change state only through [`Console::call`];
//! [`profile`] the console releases the UI can show.

use std::sync::Arc;

use axum::Router;
use axum::routing::any;

pub mod accounts;
pub mod api;
pub mod catalog;
pub mod clock;
pub mod config;
pub mod dispatch;
pub mod error;
pub mod model;
pub mod params;
pub mod products;
pub mod profile;
pub mod rest;
mod serving;
pub mod state;
pub mod store;
pub mod throttle;
pub mod ui;

pub use accounts::Credentials;
pub use clock::{Clock, ManualClock, SystemClock};
pub use config::{ConsoleConfig, EcsQuotas};
pub use error::{ApiError, ConsoleError};
pub use profile::ProfileId;
pub use serving::Serving;
pub use store::Store;

/// A running emulator's state: configuration, clock, accounts.
#[derive(Debug)]
pub struct Console {
    pub config: ConsoleConfig,
    pub clock: Arc<dyn Clock>,
    pub store: Store,
    limiter: throttle::Limiter,
    nonces: api::nonce::NonceCache,
    sessions: ui::session::Sessions,
}

impl Console {
    pub fn new(config: ConsoleConfig, store: Store, clock: Arc<dyn Clock>) -> Self {
        Self {
            config,
            clock,
            store,
            limiter: throttle::Limiter::default(),
            nonces: api::nonce::NonceCache::default(),
            sessions: ui::session::Sessions::default(),
        }
    }

    /// An in-memory emulator on the wall clock.
    pub fn in_memory(config: ConsoleConfig) -> Self {
        Self::new(config, Store::in_memory(), Arc::new(SystemClock))
    }
}

/// The emulator's whole HTTP surface.
pub fn app(console: Arc<Console>) -> Router {
    Router::new()
        .merge(api::admin::router(console.clone()))
        .merge(ui::router(console.clone()))
        .route("/", any(rest::root))
        .fallback(rest::fallback)
        .with_state(console)
}
