//! Cross-origin frames (out-of-process iframes): each is its own CDP target. The runner attaches to
//! each one as a child session of the page and sends it commands through `Target.sendMessageToTarget`,
//! so that the page side is injected there too and can be observed and acted on.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use chromiumoxide::Page;
use chromiumoxide::cdp::browser_protocol::target::{AttachToTargetParams, EventReceivedMessageFromTarget, TargetId};
use chromiumoxide::types::{Method, MethodId};
use futures::StreamExt as _;
use parking_lot::Mutex;
use serde::Serialize;
use serde_json::Value;
use tokio::sync::oneshot;

/// How long a frame may take to answer one command (a frame that went away never does).
const REPLY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

type Replies = Mutex<HashMap<(String, u64), oneshot::Sender<Result<Value, String>>>>;

/// Routes the replies of every child session of one page to whoever sent the command.
#[derive(Clone)]
pub(crate) struct ChildRouter {
    page: Page,
    replies: Arc<Replies>,
    next_id: Arc<AtomicU64>,
}

impl ChildRouter {
    /// Starts listening for child-session messages on `page`.
    pub(crate) async fn start(page: &Page) -> Result<Self, String> {
        let mut messages = page
            .event_listener::<EventReceivedMessageFromTarget>()
            .await
            .map_err(|e| e.to_string())?;
        let replies: Arc<Replies> = Arc::default();
        let routed = replies.clone();
        tokio::spawn(async move {
            while let Some(event) = messages.next().await {
                let Ok(message) = serde_json::from_str::<Value>(&event.message) else {
                    continue;
                };
                let Some(id) = message.get("id").and_then(Value::as_u64) else {
                    continue;
                };
                let Some(reply) = routed.lock().remove(&(event.session_id.inner().clone(), id)) else {
                    continue;
                };
                let result = match message.get("error") {
                    Some(error) => Err(error
                        .get("message")
                        .and_then(Value::as_str)
                        .unwrap_or("unknown error")
                        .to_owned()),
                    None => Ok(message.get("result").cloned().unwrap_or(Value::Null)),
                };
                let _ = reply.send(result);
            }
        });
        Ok(Self {
            page: page.clone(),
            replies,
            next_id: Arc::new(AtomicU64::new(1)),
        })
    }

    /// Attaches a session of our own to the frame target `target`.
    pub(crate) async fn attach(&self, target: TargetId) -> Result<ChildSession, String> {
        let params = AttachToTargetParams::builder()
            .target_id(target.clone())
            .flatten(false)
            .build()
            .map_err(|e| e.to_string())?;
        let attached = self.page.execute(params).await.map_err(|e| e.to_string())?;
        Ok(ChildSession {
            router: self.clone(),
            session_id: attached.result.session_id.inner().clone(),
        })
    }
}

/// One cross-origin frame's own CDP session.
#[derive(Clone)]
pub(crate) struct ChildSession {
    router: ChildRouter,
    session_id: String,
}

/// `Target.sendMessageToTarget`: a command wrapped for a non-flat child session.
#[derive(Debug, Serialize)]
struct SendMessageToTarget {
    message: String,
    #[serde(rename = "sessionId")]
    session_id: String,
}

impl Method for SendMessageToTarget {
    fn identifier(&self) -> MethodId {
        "Target.sendMessageToTarget".into()
    }
}

impl chromiumoxide::Command for SendMessageToTarget {
    type Response = Value;
}

impl ChildSession {
    /// Sends `command` to the frame and waits for its reply.
    pub(crate) async fn execute<C: chromiumoxide::Command>(&self, command: C) -> Result<C::Response, String> {
        let id = self.router.next_id.fetch_add(1, Ordering::Relaxed);
        let params = serde_json::to_value(&command).map_err(|e| e.to_string())?;
        let message = serde_json::json!({ "id": id, "method": command.identifier(), "params": params });
        let (reply, answer) = oneshot::channel();
        self.router.replies.lock().insert((self.session_id.clone(), id), reply);
        let wrapped = SendMessageToTarget {
            message: message.to_string(),
            session_id: self.session_id.clone(),
        };
        if let Err(error) = self.router.page.execute(wrapped).await {
            self.router.replies.lock().remove(&(self.session_id.clone(), id));
            return Err(error.to_string());
        }
        let value = match tokio::time::timeout(REPLY_TIMEOUT, answer).await {
            Ok(Ok(reply)) => reply?,
            Ok(Err(_)) => return Err("No session: the frame's session closed".to_owned()),
            Err(_) => {
                self.router.replies.lock().remove(&(self.session_id.clone(), id));
                return Err(format!(
                    "No session: the frame did not answer {} within {} s",
                    command.identifier(),
                    REPLY_TIMEOUT.as_secs()
                ));
            }
        };
        C::response_from_value(value).map_err(|e| e.to_string())
    }
}
