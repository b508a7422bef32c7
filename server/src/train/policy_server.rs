//! The policy being trained, served in process on a loopback port through the same chat route as
//! `aca serve`, with every completion's prompt ids, sampled ids and logprobs recorded: the episode
//! talks to it as to any OpenAI-compatible endpoint, and the trainer learns from exactly the tokens
//! it sampled.

use std::net::SocketAddr;
use std::path::Path;

use aca_model::Device;
use anyhow::Context;
use tokio::task::JoinHandle;

use crate::serve::images::{ImageInputs, ImageLimits};
use crate::serve::{App, Generation, GenerationLog, ServedModel, router};

/// The name episodes ask the policy server for.
pub const POLICY_MODEL: &str = "policy";

/// A checkpoint served on `127.0.0.1`, stopped when dropped.
pub struct PolicyServer {
    addr: SocketAddr,
    log: GenerationLog,
    task: JoinHandle<()>,
}

impl Drop for PolicyServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl PolicyServer {
    /// Loads the checkpoint in `dir` onto `device` and starts serving it.
    pub async fn start(dir: &Path, device: &Device, max_context: usize) -> anyhow::Result<PolicyServer> {
        let (dir, device) = (dir.to_owned(), device.clone());
        let model = tokio::task::spawn_blocking(move || {
            ServedModel::load(&dir, &device, POLICY_MODEL.to_owned(), 4, max_context)
        })
        .await
        .context("loading the policy stopped")??;
        let images = ImageInputs::new(ImageLimits {
            max_images: 1,
            max_pixels: 1,
            allow_remote: false,
            max_remote_bytes: 0,
        })?;
        let log = GenerationLog::default();
        let app = App::recording(model, None, 16 << 20, images, log.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .context("cannot listen on a loopback port for the policy")?;
        let addr = listener.local_addr()?;
        let task = tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, router(app)).await {
                tracing::error!("the policy server stopped: {e}");
            }
        });
        Ok(PolicyServer { addr, log, task })
    }

    /// The OpenAI API base episodes send their requests to.
    pub fn url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// The generations since the last call, in completion order.
    pub fn take(&self) -> Vec<Generation> {
        self.log.take()
    }
}
