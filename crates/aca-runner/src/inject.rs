//! Putting the page side into a frame: registering it for every new document of a target, loading
//! it into a world that lacks it, calling its exports, and following cross-origin frames as they
//! appear.

use std::sync::Arc;

use chromiumoxide::cdp::browser_protocol::page::{AddScriptToEvaluateOnNewDocumentParams, FrameId, SetBypassCspParams};
use chromiumoxide::cdp::browser_protocol::target::TargetId;
use parking_lot::Mutex;
use serde_json::Value;
use tokio::sync::mpsc;

use crate::child::{ChildRouter, ChildSession};
use crate::error::RunnerError;
use crate::page_side::{PageSide, WORLD_NAME};
use crate::watch::{FrameTarget, Watch};
use crate::world::{Channel, EvalFailure};

/// Thrown by the call wrapper when the world has no page side yet.
pub(crate) const MISSING: &str = "aca-dom page side missing";

/// A cross-origin frame with the page side injected.
#[derive(Clone)]
pub(crate) struct ChildFrame {
    pub(crate) target: TargetId,
    pub(crate) url: String,
    pub(crate) channel: Channel,
}

/// Registers the page side for every new document of the target behind `channel` (its world, CSP
/// bypassed so that the inlined module compiles whatever the page's policy).
pub(crate) async fn prepare(channel: &Channel, page_side: &PageSide, what: &str) -> Result<(), RunnerError> {
    let failed = |e: EvalFailure| RunnerError::Injection {
        frame: what.to_owned(),
        message: e.to_string(),
    };
    channel.execute(SetBypassCspParams::new(true)).await.map_err(failed)?;
    let mut script = AddScriptToEvaluateOnNewDocumentParams::new(page_side.script());
    script.world_name = Some(WORLD_NAME.to_owned());
    script.run_immediately = Some(true);
    channel.execute(script).await.map_err(failed)?;
    Ok(())
}

/// Loads the page side into `frame`'s world when it is not there, then waits for it to initialise.
pub(crate) async fn ensure_loaded(channel: &Channel, frame: &FrameId, page_side: &PageSide) -> Result<(), EvalFailure> {
    let present = channel.evaluate(frame, "!!globalThis.__acaDom").await?;
    if present != Value::Bool(true) {
        channel.evaluate(frame, page_side.script()).await?;
    }
    channel
        .evaluate(frame, "globalThis.__acaDom.then(() => true)")
        .await
        .map(|_| ())
}

pub(crate) async fn call_page_side(
    channel: &Channel,
    frame: &FrameId,
    method: &str,
    args: &[Value],
) -> Result<Value, EvalFailure> {
    let args: Vec<String> = args.iter().map(Value::to_string).collect();
    let expression = format!(
        "(async () => {{ const side = globalThis.__acaDom; \
         if (!side) throw new Error('{MISSING}'); \
         const exports = await side; return await exports.{method}({}); }})()",
        args.join(", ")
    );
    channel.evaluate(frame, &expression).await
}

/// Attaches to each cross-origin frame as it appears and injects the page side into it.
pub(crate) async fn follow_frames(
    router: ChildRouter,
    mut targets: mpsc::UnboundedReceiver<FrameTarget>,
    children: Arc<Mutex<Vec<ChildFrame>>>,
    page_side: PageSide,
    watch: std::sync::Weak<Watch>,
) {
    while let Some(event) = targets.recv().await {
        match event {
            FrameTarget::Attached { target, url } => {
                let session: ChildSession = match router.attach(target.clone()).await {
                    Ok(session) => session,
                    Err(error) => {
                        tracing::warn!(%error, %url, "cannot attach to a cross-origin frame");
                        if let Some(watch) = watch.upgrade() {
                            watch.frame_done();
                        }
                        continue;
                    }
                };
                let channel = Channel::Child(session);
                let frame = FrameId::new(target.inner().clone());
                let injected = async {
                    prepare(&channel, &page_side, &url).await?;
                    ensure_loaded(&channel, &frame, &page_side)
                        .await
                        .map_err(|e| RunnerError::Injection {
                            frame: url.clone(),
                            message: e.to_string(),
                        })
                };
                if let Err(error) = injected.await {
                    tracing::warn!(%error, "cannot inject the page side into a cross-origin frame");
                }
                {
                    let mut children = children.lock();
                    children.retain(|c| c.target != target);
                    children.push(ChildFrame { target, url, channel });
                }
                if let Some(watch) = watch.upgrade() {
                    watch.frame_done();
                }
            }
            FrameTarget::Detached { target } => children.lock().retain(|c| c.target != target),
        }
    }
}
