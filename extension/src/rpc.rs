//! How extension pages ask the service worker: one [`Request`], one [`Reply`], errors as text.

use crate::chrome;
use crate::messages::{Reply, Request};

/// Sends `request` to the service worker; its [`Reply::Error`] and a worker that does not answer
/// both come back as `Err` with the message to show.
pub async fn ask(request: &Request) -> Result<Reply, String> {
    match chrome::send_to_runtime::<_, Reply>(request).await {
        Ok(Reply::Error { message }) => Err(message),
        Ok(reply) => Ok(reply),
        Err(e) => Err(format!("the extension's service worker did not answer: {e}")),
    }
}
