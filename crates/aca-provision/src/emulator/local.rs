//! The bundled emulator served in-process on a local port, for commands and tests that provision
//! without a console of their own.

use std::net::SocketAddr;
use std::sync::Arc;

use aca_console::{Console, ConsoleConfig, Credentials};

use crate::emulator::AccessKey;
use crate::error::{ProvisionError, Result};

/// An emulator served on `127.0.0.1`; stops when dropped.
pub struct LocalEmulator {
    pub console: Arc<Console>,
    pub url: String,
    server: tokio::task::JoinHandle<()>,
}

impl LocalEmulator {
    pub async fn start(config: ConsoleConfig) -> Result<Self> {
        let console = Arc::new(Console::in_memory(config));
        let transport = |e: std::io::Error| ProvisionError::Transport {
            endpoint: "127.0.0.1:0".into(),
            message: e.to_string(),
        };
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.map_err(transport)?;
        let url = format!("http://{}", listener.local_addr().map_err(transport)?);
        let app = aca_console::app(console.clone()).into_make_service_with_connect_info::<SocketAddr>();
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(Self { console, url, server })
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

impl Drop for LocalEmulator {
    fn drop(&mut self) {
        self.server.abort();
    }
}
