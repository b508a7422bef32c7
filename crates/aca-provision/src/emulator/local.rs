//! The bundled emulator served in-process on a local port, for commands and tests that provision
//! without a console of their own.

use std::net::SocketAddr;
use std::sync::Arc;

use aca_console::{Console, ConsoleConfig, Credentials, Serving};

use crate::emulator::AccessKey;
use crate::error::{ProvisionError, Result};

/// An emulator served on `127.0.0.1`; stops when dropped.
pub struct LocalEmulator {
    pub console: Arc<Console>,
    pub url: String,
    _serving: Serving,
}

impl LocalEmulator {
    pub async fn start(config: ConsoleConfig) -> Result<Self> {
        let console = Arc::new(Console::in_memory(config));
        let transport = |e: std::io::Error| ProvisionError::Transport {
            endpoint: "127.0.0.1:0".into(),
            message: e.to_string(),
        };
        let serving = Serving::start(console.clone(), SocketAddr::from(([127, 0, 0, 1], 0)))
            .await
            .map_err(transport)?;
        Ok(Self {
            console,
            url: serving.url.clone(),
            _serving: serving,
        })
    }

    /// A new, empty account.
    pub fn account(&self, name: &str) -> Result<Credentials> {
        self.console
            .create_account(name, None)
            .map_err(|e| ProvisionError::Protocol {
                action: "create account".into(),
                message: e.to_string(),
            })
    }
}

/// The AccessKey of an account's credentials.
pub fn access_key(credentials: &Credentials) -> AccessKey {
    AccessKey {
        access_key_id: credentials.access_key_id.clone(),
        access_key_secret: credentials.access_key_secret.clone(),
    }
}
