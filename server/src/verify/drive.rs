//! The headless driver of a verification run: it carries out `aca-run`'s requests with headless
//! Chromium (aca-runner), the page's provisioning, the model client and the reward service's
//! decision, and hands the results back; the run itself (its order, its failures, its report) is
//! `aca_run::Run`, the same one the extension drives.

use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::time::{Duration, Instant};

use aca_agent::authenticator::may_show_secret;
use aca_agent::{ModelFailure, ResourceReport, ScreenshotSize, Usage};
use aca_chat::{ChatError, ChatRequest, Message};
use aca_core::{ActRequest, ConsoleSite, GuiAction, Observation, ProductConsole, Report, Screenshot};
use aca_provision::RunSecrets;
use aca_run::{Provided, Provisioned, Request, Run};
use aca_runner::{ObserveOptions, Runner, RunnerError, Session};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;

use super::Settings;
use super::audit::{self, AuditAccess};
use super::page::PageInput;
use super::provision::RunResources;
use super::target::RunAccount;

/// What [`Provisioner::provide`] returns: a resource report, or why the resource cannot be provided.
pub type Provide<'a> = Pin<Box<dyn Future<Output = Result<ResourceReport, String>> + Send + 'a>>;

/// Answers the episode's `request_resource`.
pub trait Provisioner: Send {
    /// A resource report on success, or why the resource cannot be provided.
    fn provide<'a>(&'a mut self, description: &'a str) -> Provide<'a>;
}

/// How the driver captures the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capture {
    /// A marked screenshot after every action.
    EveryAction,
    None,
}

/// What the driver leaves beside the report.
#[derive(Debug, Default)]
pub struct DriveLog {
    pub screenshots: Vec<Screenshot>,
    /// The actions that took effect, in order, each with the fingerprint of its element: what a
    /// script doing the same clicks would do (waits and scrolls left out; see `replay`).
    pub effective: Vec<ActRequest>,
    pub provision_ms: u64,
    pub cleanup_ms: u64,
}

/// Everything the headless driver works with for one page.
pub struct Headless<'a> {
    pub settings: &'a Settings,
    pub account: &'a RunAccount,
    pub page: &'a PageInput,
    pub product: &'static ProductConsole,
    pub region: &'a str,
    pub report_dir: &'a Path,
    pub progress: &'a dyn Fn(&str),
}

/// The browser of one run, started when the run opens its console.
#[derive(Default)]
struct Browser {
    runner: Option<Runner>,
    session: Option<Session>,
}

impl Browser {
    async fn close(&mut self) {
        if let Some(session) = self.session.take() {
            let _ = session.close().await;
        }
        if let Some(runner) = self.runner.take() {
            runner.close().await;
        }
    }
}

/// Runs `run` to its report.
pub async fn drive(run: &mut Run, io: Headless<'_>) -> (Report, DriveLog) {
    let mut log = DriveLog::default();
    let mut resources: Option<RunResources> = None;
    let mut browser = Browser::default();
    let started = Instant::now();
    let candidates = io.settings.out.join("meta-candidates");
    if io.settings.capture == Capture::EveryAction
        && let Err(e) = std::fs::create_dir_all(io.report_dir.join("shots"))
    {
        tracing::warn!("cannot create the screenshot folder: {e}");
    }
    let mut request = run.start();
    loop {
        if let Some(line) = request.describe() {
            (io.progress)(&line);
        }
        request = match request {
            Request::Finished(report) => {
                browser.close().await;
                return (*report, log);
            }
            Request::Provision => {
                let clock = Instant::now();
                let result = provision(&io, &mut resources).await;
                log.provision_ms = clock.elapsed().as_millis() as u64;
                run.clock(unix_ms());
                run.provisioned(result)
            }
            Request::OpenConsole => {
                let result = open(&io, &mut browser).await;
                run.clock(unix_ms());
                run.console_opened(result)
            }
            Request::Observe => {
                let result = match browser.session.as_mut() {
                    Some(session) => observe(session).await,
                    None => Err("the browser is not open".into()),
                };
                let result = match resources.as_ref().and_then(RunResources::secrets) {
                    Some(secrets) => result.map(|o| masked(o, secrets)),
                    None => result,
                };
                if io.settings.capture == Capture::EveryAction
                    && let (Ok(observation), Some(session)) = (&result, browser.session.as_ref())
                    && let Some(shot) = run.screenshot_due(observation)
                {
                    match session.screenshot(&io.report_dir.join(&shot.path), true).await {
                        Ok(()) => log.screenshots.push(shot),
                        Err(e) => tracing::warn!("screenshot failed: {e}"),
                    }
                }
                run.clock(unix_ms());
                run.observed(result)
            }
            Request::Act(act) => {
                let Some(session) = browser.session.as_mut() else {
                    run.clock(unix_ms());
                    request = run.observed(Err("the browser is not open".into()));
                    continue;
                };
                let step = run.progress().step_number;
                (io.progress)(&format!(
                    "step {}: {}",
                    step.as_deref().unwrap_or("-"),
                    act.action.call_syntax()
                ));
                let waits = matches!(act.action, GuiAction::Wait { .. } | GuiAction::Scroll { .. });
                let replayable = (!waits).then(|| act.clone());
                let secrets = resources.as_ref().and_then(RunResources::secrets);
                let outcome = session.act(with_secrets(act, secrets)).await;
                if let Some(act) = replayable.filter(|_| outcome.succeeded()) {
                    log.effective.push(act);
                }
                run.clock(unix_ms());
                run.acted(outcome)
            }
            Request::AskModel(model_request) => {
                let screenshot = match (model_request.screenshot, browser.session.as_ref()) {
                    (Some(slot), Some(session)) => marked_screenshot(session, slot.size).await,
                    _ => None,
                };
                let result = ask_model(io.settings, &model_request, screenshot).await;
                run.clock(unix_ms());
                run.model_replied(result)
            }
            Request::ProvideResource(description) => {
                let result = provide(&io, &mut resources, &candidates, &description).await;
                if result.is_ok()
                    && let Some(session) = browser.session.as_mut()
                {
                    // The page was rendered before the resources existed: load it again, as a
                    // person would, so that its lists show them.
                    if let Ok(url) = session.url().await
                        && let Err(e) = session.goto(&url).await
                    {
                        tracing::warn!("reloading the page after provisioning failed: {e}");
                    }
                }
                run.clock(unix_ms());
                run.resource_provided(result)
            }
            // Headless runs have no person to decide: stopping is all a proposal can come to.
            Request::Propose(_) | Request::AwaitHandBack => {
                tracing::warn!("a headless run was asked for a person's decision; stopping it");
                run.stop()
            }
            Request::Reward(mut reward) => {
                // A page that may show an authenticator's secret is judged in words only.
                let shows_secret = run.episode().is_some_and(|e| may_show_secret(e.observation()));
                if let Some(case) = reward.judge_case.as_mut()
                    && io.settings.judges.as_ref().is_some_and(|j| j.take_images())
                    && !shows_secret
                {
                    case.final_screenshot = final_screenshot(browser.session.as_ref()).await;
                }
                let access = AuditAccess {
                    endpoint: &io.account.endpoints.resolve("actiontrail", io.region),
                    access_key_id: &io.account.access_key_id,
                    access_key_secret: &io.account.access_key_secret,
                    bundled: io.account.emulator,
                };
                let decided = audit::check(&reward, &access, io.settings.judges.as_deref()).await;
                run.clock(unix_ms());
                run.rewarded(Ok(decided))
            }
            Request::CleanUp => {
                browser.close().await;
                let clock = Instant::now();
                let left = match resources.take() {
                    Some(resources) => resources.finish().await,
                    None => Vec::new(),
                };
                log.cleanup_ms = clock.elapsed().as_millis() as u64;
                run.clock(unix_ms());
                run.cleaned(left)
            }
        };
        tracing::trace!(elapsed_ms = started.elapsed().as_millis() as u64, "run request handled");
    }
}

/// The action as it is performed: the run's secrets typed where the agent typed their placeholders
/// (the trajectory keeps the placeholders).
fn with_secrets(mut act: ActRequest, secrets: Option<&RunSecrets>) -> ActRequest {
    if let (GuiAction::Type { text, .. }, Some(secrets)) = (&mut act.action, secrets) {
        *text = secrets.reveal(text);
    }
    act
}

/// An observation with every secret of the run masked, whatever shows it (a field's value, an
/// echo in a message).
fn masked(observation: Observation, secrets: &RunSecrets) -> Observation {
    if secrets.is_empty() {
        return observation;
    }
    let Ok(text) = serde_json::to_string(&observation) else {
        return observation;
    };
    let masked = secrets.mask(&text);
    if masked == text {
        return observation;
    }
    serde_json::from_str(&masked).unwrap_or(observation)
}

/// Sets up the page's provisioning and applies its META; what the agent is told exists.
async fn provision(io: &Headless<'_>, resources: &mut Option<RunResources>) -> Result<Provisioned, String> {
    let page_context = aca_provision::PageContext {
        procedure: io.page.procedure.clone(),
        product: Some(io.product.emulated_as().0.to_owned()),
        region: io.region.to_owned(),
        source: io.page.source.clone(),
    };
    let task = io.page.task.as_ref().filter(|t| t.meta.is_some());
    let made = resources.insert(
        RunResources::start(
            io.account,
            page_context,
            task.is_some(),
            io.settings.runtime_provisioning,
            io.settings.model.as_ref(),
        )
        .await?,
    );
    if let Some(task) = task {
        made.before_run(&io.page.source, task).await?;
    }
    Ok(Provisioned {
        told: made.told(),
        bindings: made.bindings(),
        exclude_users: made.calls().users().map(str::to_owned).collect(),
        resources_text: made.report_text(),
    })
}

/// The agent's `request_resource`, answered by the ResourceCoder in the run's account.
async fn provide(
    io: &Headless<'_>,
    resources: &mut Option<RunResources>,
    candidates: &Path,
    description: &str,
) -> Result<Provided, String> {
    let Some(resources) = resources.as_mut() else {
        return Err("nothing can be provisioned in this run".into());
    };
    let told = resources
        .runtime(&io.page.slug, candidates)
        .provide(description)
        .await?;
    Ok(Provided {
        told,
        exclude_users: resources.calls().users().map(str::to_owned).collect(),
        bindings: resources.bindings(),
        resources_text: resources.report_text(),
    })
}

/// Starts Chromium and opens the product's console as the run's account.
async fn open(io: &Headless<'_>, browser: &mut Browser) -> Result<(), String> {
    let mut config = io.settings.runner.clone();
    if let Some(profile) = &io.account.browser_profile {
        config.user_data_dir = Some(profile.clone());
    }
    let runner = Runner::launch(config)
        .await
        .map_err(|e| format!("Chromium cannot start: {e}"))?;
    let runner = browser.runner.insert(runner);
    let session = Session::open(runner, "about:blank")
        .await
        .map_err(|e| format!("Chromium cannot open a page: {e}"))?;
    let session = browser.session.insert(session);
    open_console(session, io.account, io.product, io.region)
        .await
        .map_err(|e| format!("{e:#}"))
}

/// Opens `product`'s console in `region` as `account`, where that console lives on the account's
/// site (`ecs.console.aliyun.com/…`, or an emulator's `/console/ecs`). An account with a password is
/// an emulator's, whose log-on form the run fills; a real console runs in the browser profile a
/// person logged on to once. Either way the console must then show that account.
pub(crate) async fn open_console(
    session: &mut Session,
    account: &RunAccount,
    product: &ProductConsole,
    region: &str,
) -> anyhow::Result<()> {
    let site = ConsoleSite::of_url(&account.console_url);
    if !account.password.is_empty() {
        let ConsoleSite::Emulator { origin } = &site else {
            anyhow::bail!(
                "a password is typed only into an emulator's log-on form: log on to {} once in a browser \
                 profile and give it with --user-data-dir",
                account.console_url
            );
        };
        aca_runner::logon::log_on(session, &format!("{origin}/login"), &account.login, &account.password).await?;
    }
    session.goto(&site.product_url(product, region)).await?;
    check_signed_in(session, account).await
}

/// The console the session shows must be signed in, to the run's account: read from the page's own
/// `ALIYUN_CONSOLE_CONFIG`, as the real console sets it.
async fn check_signed_in(session: &Session, account: &RunAccount) -> anyhow::Result<()> {
    let shown = session
        .evaluate("(window.ALIYUN_CONSOLE_CONFIG || {}).MAIN_ACCOUNT_PK || null")
        .await?;
    let url = session.url().await.unwrap_or_default();
    match shown.as_str() {
        None => anyhow::bail!(
            "the browser is not signed in to the console ({url} shows no account): log on once in the \
             browser profile given with --user-data-dir, or give --login and --password"
        ),
        Some(id) if !account.account_id.is_empty() && id != account.account_id => anyhow::bail!(
            "the console is signed in to account {id}, not {}: log on to that account in the browser profile",
            account.account_id
        ),
        Some(_) => Ok(()),
    }
}

async fn observe(session: &mut Session) -> Result<Observation, String> {
    let options = ObserveOptions::default();
    match session.observe(&options).await {
        Ok(o) => Ok(o),
        Err(RunnerError::Timeout { .. }) => {
            // A page that never settles is observed as it is, once more, before giving up.
            tokio::time::sleep(Duration::from_millis(500)).await;
            session.observe(&options).await.map_err(|e| e.to_string())
        }
        Err(e) => Err(e.to_string()),
    }
}

/// The final page's marked screenshot as a `data:` URL, for judges that take images (the browser is
/// still open while the reward is decided).
async fn final_screenshot(session: Option<&Session>) -> Option<String> {
    marked_screenshot(session?, ScreenshotSize::default()).await
}

/// The page's marked screenshot as a `data:` URL, fitted to `size`; a page that cannot be captured
/// is asked about in words only.
async fn marked_screenshot(session: &Session, size: ScreenshotSize) -> Option<String> {
    let fit = (size.max_width, size.max_height);
    match session.capture(true, Some(fit)).await {
        Ok(png) => Some(format!("data:image/png;base64,{}", BASE64.encode(png))),
        Err(e) => {
            tracing::warn!("the page could not be captured, so it is described in words only: {e}");
            None
        }
    }
}

/// Asks the model; `screenshot` goes into the message the request's slot names.
async fn ask_model(
    settings: &Settings,
    request: &aca_agent::ModelRequest,
    screenshot: Option<String>,
) -> Result<(String, Usage), ModelFailure> {
    let Some(client) = &settings.model else {
        return Err(ModelFailure::Unavailable(
            "the policy asked for a model but none is configured (--model-url)".into(),
        ));
    };
    let shown = request.shown(screenshot.as_deref());
    let images = shown.iter().filter(|(_, _, image)| image.is_some()).count() as u32;
    let chat = ChatRequest {
        messages: shown
            .into_iter()
            .map(|(role, text, image)| {
                let message = Message::new(role, text);
                match image {
                    Some(url) => message.with_image(url),
                    None => message,
                }
            })
            .collect(),
        temperature: Some(request.temperature),
        max_tokens: Some(request.max_tokens),
        ..Default::default()
    };
    let reply = client.complete(&chat).await.map_err(|e| match &e {
        ChatError::Http { status, .. } => ModelFailure::of_status(*status, e.to_string()),
        _ => ModelFailure::Unavailable(e.to_string()),
    })?;
    let usage = Usage {
        prompt_tokens: reply.usage.prompt_tokens.min(u32::MAX as u64) as u32,
        completion_tokens: reply.usage.completion_tokens.min(u32::MAX as u64) as u32,
        image_tokens: reply.usage.image_tokens.min(u32::MAX as u64) as u32,
        images,
    };
    Ok((reply.text, usage))
}

pub(crate) fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
