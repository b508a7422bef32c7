//! The emulator served in the background on a local port: what `aca console`, `aca verify` and the
//! tests start in-process.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use tokio::task::JoinHandle;

use crate::Console;

/// A console being served; the server stops when this is dropped.
pub struct Serving {
    /// `http://ADDR`, without a trailing slash.
    pub url: String,
    pub addr: SocketAddr,
    task: Option<JoinHandle<std::io::Result<()>>>,
}

impl Serving {
    /// Binds `addr` (port 0: any free port) and serves `console` there, the peer address of each
    /// connection available to the handlers (it becomes the audit events' source IP).
    pub async fn start(console: Arc<Console>, addr: SocketAddr) -> std::io::Result<Self> {
        Self::start_with(console, addr, |_| Router::new()).await
    }

    /// [`Serving::start`], with more routes beside the console's: `extra` is given the URL the
    /// console is served at (services that call its OpenAPI need it).
    pub async fn start_with(
        console: Arc<Console>,
        addr: SocketAddr,
        extra: impl FnOnce(&str) -> Router,
    ) -> std::io::Result<Self> {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let addr = listener.local_addr()?;
        let url = format!("http://{addr}");
        let app = crate::app(console)
            .merge(extra(&url))
            .into_make_service_with_connect_info::<SocketAddr>();
        let task = tokio::spawn(async move { axum::serve(listener, app).await });
        Ok(Serving {
            url,
            addr,
            task: Some(task),
        })
    }

    /// On 127.0.0.1, any free port.
    pub async fn local(console: Arc<Console>) -> std::io::Result<Self> {
        Self::start(console, SocketAddr::from(([127, 0, 0, 1], 0))).await
    }

    /// Waits until the server stops (it only does on an error).
    pub async fn wait(mut self) -> std::io::Result<()> {
        match self.task.take() {
            Some(task) => task
                .await
                .unwrap_or_else(|e| Err(std::io::Error::other(format!("the server task failed: {e}")))),
            None => Ok(()),
        }
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        if let Some(task) = &self.task {
            task.abort();
        }
    }
}
