//! One verification, end to end: the page's procedure runs in a console through the headless
//! runtime, ActionTrail decides whether the documented operation happened, and a report says which
//! step drifted and why.
//!
//! The run itself is `aca_run::Run`, the extension's too; `drive` is its headless driver (Chromium,
//! provisioning, the model, the reward service), `page` reads the page and what lies beside it,
//! `target` is the console and its accounts, `audit` the rule channel.

pub mod account_ring;
pub mod agent_score;
pub mod audit;
pub mod bench;
pub mod drive;
pub mod judge_agreement;
pub mod page;
pub mod provision;
pub mod real_bench;
pub mod replay;
pub mod target;

use std::path::PathBuf;
use std::time::Duration;

use aca_agent::{LlmConfig, LlmPolicy, Policy, Recording, Recordings, ScriptedPolicy, Task};
use aca_chat::ChatClient;
use aca_console::profile::ProfileId;
use aca_core::{ActRequest, ConsoleRun, Report};
use aca_run::{Run, RunFacts, RunPlan};
use aca_runner::RunnerConfig;

use self::drive::Capture;
use self::page::PageInput;
use self::target::ConsoleTarget;

/// Which policy chooses the actions.
#[derive(Debug, Clone)]
pub enum PolicyChoice {
    Scripted,
    Llm(LlmConfig),
}

/// Settings shared by every page of one `aca verify`.
pub struct Settings {
    pub policy: PolicyChoice,
    pub model: Option<ChatClient>,
    /// Overrides the profile the page was written for (bundled console only).
    pub profile: Option<ProfileId>,
    pub out: PathBuf,
    pub capture: Capture,
    pub max_turns: u32,
    pub rule_deadline: Option<Duration>,
    pub runner: RunnerConfig,
    /// Whether the agent's `request_resource` is answered by the ResourceCoder during the episode
    /// (off for the empty-account runs of `aca bench ablation`).
    pub runtime_provisioning: bool,
    /// The judge channel's two judges, for pages no audit event decides.
    pub judges: Option<std::sync::Arc<aca_reward::Judges>>,
    /// Where each turn's model messages are recorded (`aca train collect`), whatever the policy.
    pub recordings: Option<Recordings>,
}

/// One verification with what a benchmark needs besides the report.
pub struct Verification {
    pub report: Report,
    pub measures: Measures,
}

/// What a verification did besides its report: the actions that took effect and where time went.
#[derive(Debug, Default)]
pub struct Measures {
    /// The actions that took effect, with their elements' fingerprints (see [`replay`]).
    pub effective: Vec<ActRequest>,
    /// Time spent creating the page's resources before the run.
    pub provision_ms: u64,
    /// Time spent destroying them after it.
    pub cleanup_ms: u64,
    /// The run's bindings (`suffix`, `vpc_id`, …): the names and ids its actions may carry.
    pub bindings: std::collections::BTreeMap<String, String>,
}

/// Verifies one page; every failure ends up in the report, never as a lost run.
pub async fn verify_page(
    target: &ConsoleTarget,
    page: &PageInput,
    settings: &Settings,
    progress: &dyn Fn(&str),
) -> anyhow::Result<Report> {
    Ok(verify_page_measured(target, page, settings, progress).await?.report)
}

/// [`verify_page`], keeping the actions that took effect and the time spent on the page's resources.
pub async fn verify_page_measured(
    target: &ConsoleTarget,
    page: &PageInput,
    settings: &Settings,
    progress: &dyn Fn(&str),
) -> anyhow::Result<Verification> {
    let mut measures = Measures::default();
    let report = verify_into(target, page, settings, progress, &mut measures).await?;
    Ok(Verification { report, measures })
}

async fn verify_into(
    target: &ConsoleTarget,
    page: &PageInput,
    settings: &Settings,
    progress: &dyn Fn(&str),
    measured: &mut Measures,
) -> anyhow::Result<Report> {
    let started_ms = drive::unix_ms();
    let report_dir = settings.out.join(&page.slug);
    std::fs::create_dir_all(&report_dir)?;
    let written_for = page.task.as_ref().map(|t| t.profile.clone());
    let profile = settings
        .profile
        .or_else(|| written_for.as_deref().and_then(|p| p.parse().ok()))
        .unwrap_or(ProfileId::Y2026);
    let region = page
        .task
        .as_ref()
        .map_or("cn-hangzhou".to_owned(), |t| t.region.clone());
    let account = target.account_for(&format!("verify-{}", page.slug), profile).await?;
    let facts = RunFacts {
        page: page.source.clone(),
        title: page.procedure.title.clone(),
        written_for,
        console: ConsoleRun {
            url: account.console_url.clone(),
            profile: account.profile.map(|p| p.to_string()),
            account: Some(account.login.clone()),
            region: region.clone(),
        },
        policy: match &settings.policy {
            PolicyChoice::Scripted => "scripted".into(),
            PolicyChoice::Llm(c) => format!("llm:{}", c.model),
        },
        started_at: now_rfc3339(),
        duration_ms: 0,
    };
    let product = target::product_of(page).and_then(|product| match account.profile.filter(|_| account.emulator) {
        Some(profile) => target::emulator_lacks(product, profile).map_or(Ok(product), Err),
        None => Ok(product),
    });
    let mut report = match product {
        Err(why) => aca_run::report::not_run(&page.procedure.title, why, facts),
        Ok(product) => {
            let mut task = Task::new(page.procedure.clone());
            task.limits.max_turns = settings.max_turns;
            let mut policy: Box<dyn Policy> = match &settings.policy {
                PolicyChoice::Scripted => Box::new(ScriptedPolicy::new()),
                PolicyChoice::Llm(config) => Box::new(LlmPolicy::new(config.clone())),
            };
            if let Some(recordings) = &settings.recordings {
                policy = Box::new(Recording::new(policy, recordings.clone()));
            }
            let plan = RunPlan {
                task,
                policy,
                facts,
                rule: audit::choose(page),
                account_id: account.account_id.clone(),
                region: region.clone(),
                step_mode: false,
                reward_deadline_ms: settings
                    .rule_deadline
                    .or_else(|| target.delivery_deadline())
                    .map(|d| d.as_millis() as u64),
            };
            let mut run = Run::new(plan, started_ms);
            let headless = drive::Headless {
                settings,
                account: &account,
                page,
                product,
                region: &region,
                report_dir: &report_dir,
                progress,
            };
            let (mut report, log) = drive::drive(&mut run, headless).await;
            report.screenshots = log.screenshots;
            measured.effective = log.effective;
            measured.provision_ms = log.provision_ms;
            measured.cleanup_ms = log.cleanup_ms;
            measured.bindings = run.bindings().clone();
            report
        }
    };
    if let Some(note) = target.give_back(&account, &region).await {
        report.add_failure(note);
        report.summary = aca_run::report::summary(&report);
    }
    Ok(report)
}

fn now_rfc3339() -> String {
    time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}
