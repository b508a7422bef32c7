//! The bundled emulator as a source of account credentials: every account it holds, its console's
//! home at `/console`, and every product's API at the emulator's one address.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, Mutex};

use aca_console::{Console, Serving};
use aca_openapi::Endpoints;
use aca_openapi::client::AccessKeyPair;

use crate::{AccountAccess, AccountKeys, Companion, Users};

/// The emulator served as `aca console` serves it: its own pages and APIs, and the companion API
/// under the console's admin token, with users in memory. The companion's state comes back too,
/// for making users in-process.
pub async fn serve(console: Arc<Console>, addr: SocketAddr) -> std::io::Result<(Serving, Arc<Companion>)> {
    serve_with_users(console, addr, None).await
}

/// [`serve`] with the companion's users kept in the SQLite file `users` (the emulator's own
/// database file will do), so that a restarted console keeps them.
pub async fn serve_with_users(
    console: Arc<Console>,
    addr: SocketAddr,
    users: Option<&Path>,
) -> std::io::Result<(Serving, Arc<Companion>)> {
    let admin_token = console.config.admin_token.as_deref();
    let users = match users {
        Some(path) => Users::open(path, admin_token).map_err(std::io::Error::other)?,
        None => Users::new(admin_token),
    };
    let users = Mutex::new(Some(users));
    let made: Arc<Mutex<Option<Arc<Companion>>>> = Arc::default();
    let kept = made.clone();
    let served = console.clone();
    let serving = Serving::start_with(console, addr, move |url| {
        let accounts = EmulatorAccounts::new(served.clone(), url);
        let users = users
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .unwrap_or_else(|| Users::new(served.config.admin_token.as_deref()));
        let companion = Companion::with_users(accounts, users);
        *kept.lock().unwrap_or_else(|e| e.into_inner()) = Some(companion.clone());
        crate::routes(companion)
    })
    .await?;
    let companion = made
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
        .ok_or_else(|| std::io::Error::other("the companion API was not mounted"))?;
    Ok((serving, companion))
}

pub struct EmulatorAccounts {
    console: Arc<Console>,
    url: String,
}

impl EmulatorAccounts {
    /// The accounts of `console`, served at `url`.
    pub fn new(console: Arc<Console>, url: &str) -> Arc<Self> {
        Arc::new(Self {
            console,
            url: url.trim_end_matches('/').to_owned(),
        })
    }
}

impl AccountKeys for EmulatorAccounts {
    fn access(&self, account_id: &str) -> Option<AccountAccess> {
        let credentials = self.console.credentials(account_id).ok()?;
        Some(AccountAccess {
            account_id: credentials.account_id,
            login: credentials.login,
            console_url: format!("{}/console", self.url),
            endpoints: Endpoints::pointed_at(&self.url).ok()?,
            key: AccessKeyPair::new(credentials.access_key_id, credentials.access_key_secret),
            emulator: true,
        })
    }
}
