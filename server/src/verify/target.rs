//! The console a verification runs in: the bundled emulator (started in-process, one fresh account
//! per page, under the page's UI profile) or a console given by URL with fixed credentials.

use std::sync::Arc;

use aca_console::profile::ProfileId;
use aca_console::{Console, ConsoleConfig, Serving};
use anyhow::Context;

/// Who the run logs on as.
#[derive(Debug, Clone)]
pub struct RunAccount {
    pub account_id: String,
    pub login: String,
    pub password: String,
    pub access_key_id: String,
    pub access_key_secret: String,
    /// The UI profile the account sees, when the console is the bundled emulator.
    pub profile: Option<ProfileId>,
}

/// Credentials for a console given by URL.
#[derive(Debug, Clone)]
pub struct RemoteLogin {
    pub account_id: Option<String>,
    pub login: String,
    pub password: String,
    pub access_key_id: String,
    pub access_key_secret: String,
}

pub enum ConsoleTarget {
    Bundled {
        console: Arc<Console>,
        /// Serves until the target is dropped.
        serving: Serving,
    },
    Remote {
        url: String,
        login: RemoteLogin,
    },
}

impl ConsoleTarget {
    /// Starts the bundled emulator on a free local port, keeping nothing on disk.
    pub async fn bundled() -> anyhow::Result<Self> {
        let config = ConsoleConfig {
            transition_delay_ms: 300,
            lookup_qps: 20.0,
            ..ConsoleConfig::default()
        };
        let console = Arc::new(Console::in_memory(config));
        let serving = Serving::local(console.clone())
            .await
            .context("cannot open a local port for the bundled console")?;
        Ok(Self::Bundled { console, serving })
    }

    pub fn url(&self) -> &str {
        match self {
            Self::Bundled { serving, .. } => &serving.url,
            Self::Remote { url, .. } => url,
        }
    }

    pub fn is_bundled(&self) -> bool {
        matches!(self, Self::Bundled { .. })
    }

    /// The account a page runs as: a fresh one under `profile` on the bundled emulator (so runs
    /// never see each other's resources or events), the given one elsewhere.
    pub fn account_for(&self, name: &str, profile: ProfileId) -> anyhow::Result<RunAccount> {
        match self {
            Self::Bundled { console, .. } => {
                let c = console
                    .create_account(name, Some(profile))
                    .context("cannot create an account in the bundled console")?;
                Ok(RunAccount {
                    account_id: c.account_id,
                    login: c.login,
                    password: c.password,
                    access_key_id: c.access_key_id,
                    access_key_secret: c.access_key_secret,
                    profile: Some(profile),
                })
            }
            Self::Remote { login, .. } => Ok(RunAccount {
                account_id: login.account_id.clone().unwrap_or_default(),
                login: login.login.clone(),
                password: login.password.clone(),
                access_key_id: login.access_key_id.clone(),
                access_key_secret: login.access_key_secret.clone(),
                profile: None,
            }),
        }
    }
}

/// The bundled console's product code for a page: its task's product, else the product its title
/// or "Log on to the X console" names.
pub fn product_code(procedure: &aca_core::Procedure, profile: ProfileId) -> Option<String> {
    let mut names: Vec<String> = procedure.product.iter().cloned().collect();
    names.extend(
        procedure
            .steps
            .iter()
            .flat_map(|s| s.flatten())
            .filter_map(|s| s.opens_console.clone()),
    );
    let normalise = |s: &str| s.to_lowercase().replace(" console", "").trim().to_owned();
    for name in names.iter().map(|n| normalise(n)) {
        for spec in aca_console::ui::spec::products(profile) {
            let api_name = aca_console::products::by_code(&spec.api).map(|p| normalise(p.name));
            if normalise(&spec.name) == name || normalise(&spec.code) == name || api_name.as_deref() == Some(&name) {
                return Some(spec.code.clone());
            }
        }
    }
    None
}
