//! The episode loop in the headless runtime: observe, ask the policy (and the model, when the policy
//! is one), act, capture, until the episode finishes.

use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::time::{Duration, Instant};

use aca_agent::{Episode, EpisodeError, Next, ResourceReport, Usage};
use aca_chat::{ChatClient, ChatRequest, Message};
use aca_core::{ActRequest, GuiAction, Screenshot};
use aca_runner::{ObserveOptions, RunnerError, Session};

/// What [`Provisioner::provide`] returns: a resource report, or why the resource cannot be provided.
pub type Provide<'a> = Pin<Box<dyn Future<Output = Result<ResourceReport, String>> + Send + 'a>>;

/// Answers the episode's `request_resource`.
pub trait Provisioner: Send {
    /// A resource report on success, or why the resource cannot be provided.
    fn provide<'a>(&'a mut self, description: &'a str) -> Provide<'a>;
}

/// How the loop captures the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capture {
    /// A marked screenshot after every action.
    EveryAction,
    None,
}

/// What the loop leaves beside the episode itself.
#[derive(Debug, Default)]
pub struct DriveLog {
    pub screenshots: Vec<Screenshot>,
    /// Why the loop stopped before the episode finished (the browser or the model failed).
    pub interrupted: Option<String>,
    /// The actions that took effect, in order, each with the fingerprint of its element: what a
    /// script doing the same clicks would do (waits and scrolls left out; see `replay`).
    pub effective: Vec<ActRequest>,
}

/// Runs `episode` to its end on `session`. Browser and model failures stop the loop and are
/// recorded in the log; the episode keeps everything it saw.
pub async fn drive(
    session: &mut Session,
    episode: &mut Episode,
    model: Option<&ChatClient>,
    provisioner: &mut dyn Provisioner,
    capture: Capture,
    report_dir: &Path,
    progress: &dyn Fn(&str),
) -> DriveLog {
    let mut log = DriveLog::default();
    let started = Instant::now();
    if capture == Capture::EveryAction
        && let Err(e) = std::fs::create_dir_all(report_dir.join("shots"))
    {
        tracing::warn!("cannot create the screenshot folder: {e}");
    }
    let options = ObserveOptions::default();
    let mut next = match observe(session, episode, &options, started).await {
        Ok(next) => next,
        Err(stop) => {
            log.interrupted = Some(stop);
            return log;
        }
    };
    loop {
        let step = episode.current_step().map(|s| s.number.clone());
        let result: Result<Next, String> = match next {
            Next::Finished(_) => return log,
            Next::Observe => observe(session, episode, &options, started).await,
            Next::Act(request) => {
                progress(&format!(
                    "step {}: {}",
                    step.as_deref().unwrap_or("-"),
                    request.action.call_syntax()
                ));
                let waits = matches!(request.action, GuiAction::Wait { .. } | GuiAction::Scroll { .. });
                let replayable = (!waits).then(|| request.clone());
                let outcome = session.act(request).await;
                if let Some(request) = replayable.filter(|_| outcome.succeeded()) {
                    log.effective.push(request);
                }
                if capture == Capture::EveryAction {
                    let turn = episode.trajectory().turns.len().saturating_sub(1);
                    let relative = format!("shots/{:03}.png", turn + 1);
                    match session.screenshot(&report_dir.join(&relative), true).await {
                        Ok(()) => log.screenshots.push(Screenshot {
                            turn,
                            step: step.clone(),
                            path: relative,
                        }),
                        Err(e) => tracing::warn!("screenshot failed: {e}"),
                    }
                }
                episode.outcome(outcome).map_err(episode_error)
            }
            Next::AskModel(request) => match model {
                None => Err("the policy asked for a model but none is configured (--model-url)".into()),
                Some(client) => {
                    let chat = ChatRequest {
                        messages: request
                            .messages
                            .iter()
                            .map(|m| Message {
                                role: m.role.clone(),
                                content: m.content.clone(),
                            })
                            .collect(),
                        temperature: Some(request.temperature),
                        max_tokens: Some(request.max_tokens),
                        ..Default::default()
                    };
                    match client.complete(&chat).await {
                        Ok(reply) => {
                            let usage = Usage {
                                prompt_tokens: reply.usage.prompt_tokens.min(u32::MAX as u64) as u32,
                                completion_tokens: reply.usage.completion_tokens.min(u32::MAX as u64) as u32,
                            };
                            episode.model_reply(&reply.text, usage).map_err(episode_error)
                        }
                        Err(e) => Err(format!("the model failed: {e}")),
                    }
                }
            },
            Next::Provision(description) => {
                progress(&format!("provisioning: {description}"));
                match provisioner.provide(&description).await {
                    Ok(report) => {
                        // The page was rendered before the resources existed: load it again, as a
                        // person would, so that its lists show them.
                        if let Ok(url) = session.url().await
                            && let Err(e) = session.goto(&url).await
                        {
                            tracing::warn!("reloading the page after provisioning failed: {e}");
                        }
                        episode.resource_report(report)
                    }
                    Err(reason) => episode.resource_unavailable(&reason),
                }
                .map_err(episode_error)
            }
        };
        match result {
            Ok(n) => next = n,
            Err(stop) => {
                log.interrupted = Some(stop);
                return log;
            }
        }
    }
}

async fn observe(
    session: &mut Session,
    episode: &mut Episode,
    options: &ObserveOptions,
    started: Instant,
) -> Result<Next, String> {
    episode.clock(started.elapsed().as_millis() as u64);
    let observation = match session.observe(options).await {
        Ok(o) => o,
        Err(RunnerError::Timeout { .. }) => {
            // A page that never settles is observed as it is, once more, before giving up.
            tokio::time::sleep(Duration::from_millis(500)).await;
            session
                .observe(options)
                .await
                .map_err(|e| format!("the page cannot be observed: {e}"))?
        }
        Err(e) => return Err(format!("the page cannot be observed: {e}")),
    };
    episode.next(observation).map_err(episode_error)
}

fn episode_error(e: EpisodeError) -> String {
    format!("the episode refused its input: {e}")
}
