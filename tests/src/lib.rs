//! Shared harness of the end-to-end tests: the emulator on a real port, a signed OpenAPI client,
//! and headless Chromium with a fresh profile, each cleaned up when dropped.

use std::collections::BTreeMap;
use std::sync::Arc;

use aca_console::clock::{Clock, SystemClock, iso8601};
use aca_console::{Console, ConsoleConfig, Credentials, Serving};
use aca_openapi::sign::{RpcRequest, sign_rpc};
use anyhow::Context;
use chromiumoxide::{Browser, BrowserConfig};
use futures::StreamExt;
use serde_json::Value;

pub mod page;
pub mod setup;

/// The emulator served on 127.0.0.1 with a fresh account.
pub struct Emulator {
    pub console: Arc<Console>,
    /// The companion API's state: tests make users here.
    pub companion: Arc<aca_service::Companion>,
    pub url: String,
    pub account: Credentials,
    _serving: Serving,
}

impl Emulator {
    pub async fn start(config: ConsoleConfig) -> anyhow::Result<Self> {
        let console = Arc::new(Console::in_memory(config));
        let account = console.create_account("e2e", None)?;
        // As `aca console` serves it: the admin provisioning API and the companion API beside it.
        let (serving, companion) =
            aca_service::emulator::serve(console.clone(), std::net::SocketAddr::from(([127, 0, 0, 1], 0))).await?;
        Ok(Self {
            console,
            companion,
            url: serving.url.clone(),
            account,
            _serving: serving,
        })
    }

    /// A signed RPC call (signature 1.0) as the emulator's own account; returns (HTTP status, body).
    pub async fn call(&self, version: &str, action: &str, params: &[(&str, &str)]) -> anyhow::Result<(u16, Value)> {
        self.call_as(&self.account, version, action, params).await
    }

    /// A signed RPC call (signature 1.0) with the root AccessKey of `account`.
    pub async fn call_as(
        &self,
        account: &Credentials,
        version: &str,
        action: &str,
        params: &[(&str, &str)],
    ) -> anyhow::Result<(u16, Value)> {
        let mut query: BTreeMap<String, String> = params.iter().map(|(k, v)| ((*k).into(), (*v).into())).collect();
        let request = RpcRequest {
            method: "GET",
            action,
            version,
            access_key_id: &account.access_key_id,
            access_key_secret: &account.access_key_secret,
            timestamp: &iso8601(SystemClock.now_ms()),
            nonce: &uuid::Uuid::new_v4().to_string(),
        };
        sign_rpc(request, &mut query);
        let response = reqwest::Client::new()
            .get(format!("{}/", self.url))
            .query(&query)
            .send()
            .await?;
        let status = response.status().as_u16();
        Ok((status, response.json().await.context("response is not JSON")?))
    }
}

/// Headless Chromium with a throw-away profile; the browser process is closed on drop.
pub struct Chromium {
    pub browser: Browser,
    handler: tokio::task::JoinHandle<()>,
    _profile: tempfile::TempDir,
}

impl Chromium {
    pub async fn launch() -> anyhow::Result<Self> {
        let executable = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".to_owned());
        anyhow::ensure!(
            std::path::Path::new(&executable).exists(),
            "Chromium is not installed at {executable}: run scripts/setup (apt-get install chromium) or set CHROMIUM"
        );
        let profile = tempfile::tempdir()?;
        let config = BrowserConfig::builder()
            .chrome_executable(&executable)
            .no_sandbox()
            .user_data_dir(profile.path())
            .window_size(1440, 900)
            .viewport(None)
            .args([
                "--headless=new",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-background-timer-throttling",
                "--disable-renderer-backgrounding",
                "--disable-backgrounding-occluded-windows",
                "--disable-component-update",
                "--disable-sync",
            ])
            .build()
            .map_err(|e| anyhow::anyhow!("browser config: {e}"))?;
        let (browser, mut events) = Browser::launch(config).await.context("launching Chromium")?;
        let handler = tokio::spawn(async move { while events.next().await.is_some() {} });
        Ok(Self {
            browser,
            handler,
            _profile: profile,
        })
    }

    pub async fn close(mut self) {
        let _ = self.browser.close().await;
        let _ = self.browser.wait().await;
        self.handler.abort();
    }
}

/// The audit events recorded for `account_id`, oldest first.
pub fn events(console: &Console, account_id: &str) -> Vec<aca_core::TrailEvent> {
    let account = console.store.account(account_id).expect("the account exists");
    let state = account.lock();
    state.events.iter().map(|e| e.event.clone()).collect()
}
