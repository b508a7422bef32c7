//! Evaluating script in a frame's isolated world, where the page side lives: one CDP channel per
//! frame target (the page itself, or a cross-origin frame attached as a child session).

use chromiumoxide::Page;
use chromiumoxide::cdp::browser_protocol::page::{CreateIsolatedWorldParams, FrameId};
use chromiumoxide::cdp::js_protocol::runtime::{EvaluateParams, EvaluateReturns, ExecutionContextId};
use serde_json::Value;

use crate::child::ChildSession;
use crate::page_side::WORLD_NAME;

/// Where CDP commands for one frame go.
#[derive(Clone)]
pub(crate) enum Channel {
    Page(Page),
    Child(ChildSession),
}

/// Why an evaluation gave no value.
#[derive(Debug)]
pub(crate) enum EvalFailure {
    /// The document went away (navigation, frame removed, tab crashed) while or before it ran.
    ContextGone(String),
    /// The script threw.
    Exception(String),
    /// CDP itself failed.
    Protocol(String),
}

impl std::fmt::Display for EvalFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalFailure::ContextGone(m) => write!(f, "the document went away: {m}"),
            EvalFailure::Exception(m) => write!(f, "script error: {m}"),
            EvalFailure::Protocol(m) => write!(f, "protocol error: {m}"),
        }
    }
}

fn classify(message: String) -> EvalFailure {
    let gone = [
        "Execution context was destroyed",
        "Cannot find context",
        "Inspected target navigated or closed",
        "No frame",
        "was not found",
        "Target closed",
        "No session",
        "Session with given id not found",
    ];
    if gone.iter().any(|g| message.contains(g)) {
        EvalFailure::ContextGone(message)
    } else {
        EvalFailure::Protocol(message)
    }
}

impl Channel {
    /// The id of the page-side world in `frame` (created when missing; the page side's script runs in
    /// it on every new document once registered).
    pub(crate) async fn world(&self, frame: &FrameId) -> Result<ExecutionContextId, EvalFailure> {
        let params = CreateIsolatedWorldParams::builder()
            .frame_id(frame.clone())
            .world_name(WORLD_NAME)
            .build()
            .map_err(EvalFailure::Protocol)?;
        let context = match self {
            Channel::Page(page) => {
                page.execute(params)
                    .await
                    .map_err(|e| classify(e.to_string()))?
                    .result
                    .execution_context_id
            }
            Channel::Child(child) => child.execute(params).await.map_err(classify)?.execution_context_id,
        };
        Ok(context)
    }

    /// Evaluates `expression` in the page-side world of `frame`, awaiting a promise, returning its
    /// JSON value.
    pub(crate) async fn evaluate(&self, frame: &FrameId, expression: &str) -> Result<Value, EvalFailure> {
        let context = self.world(frame).await?;
        let params = EvaluateParams::builder()
            .expression(expression)
            .context_id(context)
            .await_promise(true)
            .return_by_value(true)
            .build()
            .map_err(EvalFailure::Protocol)?;
        let returns: EvaluateReturns = match self {
            Channel::Page(page) => page.execute(params).await.map_err(|e| classify(e.to_string()))?.result,
            Channel::Child(child) => child.execute(params).await.map_err(classify)?,
        };
        if let Some(details) = returns.exception_details {
            let message = details
                .exception
                .as_ref()
                .and_then(|e| e.description.clone())
                .unwrap_or(details.text);
            return Err(EvalFailure::Exception(message));
        }
        Ok(returns.result.value.unwrap_or(Value::Null))
    }

    /// Sends any CDP command on this channel.
    pub(crate) async fn execute<C>(&self, command: C) -> Result<C::Response, EvalFailure>
    where
        C: chromiumoxide::Command + Send,
        C::Response: Send,
    {
        match self {
            Channel::Page(page) => Ok(page.execute(command).await.map_err(|e| classify(e.to_string()))?.result),
            Channel::Child(child) => child.execute(command).await.map_err(classify),
        }
    }
}
