//! One verification, end to end: the page's procedure runs in a console through the headless
//! runtime, ActionTrail decides whether the documented operation happened, and a report says which
//! step drifted and why.
//!
//! `page` reads the page and what lies beside it, `target` is the console and its accounts,
//! `drive` is the episode loop in Chromium, `audit` the rule channel.

pub mod audit;
pub mod bench;
pub mod drive;
pub mod page;
pub mod provision;
pub mod replay;
pub mod target;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use aca_agent::{Episode, LlmConfig, LlmPolicy, Policy, RuleResult, ScriptedPolicy, Task};
use aca_chat::ChatClient;
use aca_console::profile::ProfileId;
use aca_core::{ActRequest, ConsoleRun, ModelUsage, Report, StepReport, Verdict};
use aca_runner::{Runner, RunnerConfig, Session};

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
    let started = Instant::now();
    let started_at = now_rfc3339();
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
    let mut report = Report {
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
        verdict: Verdict::Unverified,
        summary: String::new(),
        steps: Vec::new(),
        defects: Vec::new(),
        rule: None,
        resources: None,
        turns: Vec::new(),
        screenshots: Vec::new(),
        usage: ModelUsage::default(),
        started_at,
        duration_ms: 0,
        failure: None,
    };
    let outcome = run_as(
        page,
        settings,
        progress,
        measured,
        &account,
        profile,
        &region,
        &mut report,
    )
    .await;
    if let Some(note) = target.give_back(&account, &region).await {
        report.add_failure(note);
    }
    outcome?;
    Ok(finish(report, started))
}

/// The run of one page as `account`, into `report`; `Err` only when Chromium cannot start.
#[allow(clippy::too_many_arguments)]
async fn run_as(
    page: &PageInput,
    settings: &Settings,
    progress: &dyn Fn(&str),
    measured: &mut Measures,
    account: &target::RunAccount,
    profile: ProfileId,
    region: &str,
    report: &mut Report,
) -> anyhow::Result<()> {
    let report_dir = settings.out.join(&page.slug);
    let product = page
        .task
        .as_ref()
        .map(|t| t.product.clone())
        .or_else(|| target::product_code(&page.procedure, profile));
    let Some(product) = product else {
        report.verdict = Verdict::EnvironmentFailure;
        report.failure = Some(format!(
            "the page names no console this verifier knows (title \"{}\"); add a task sidecar naming the product",
            page.procedure.title
        ));
        return Ok(());
    };
    let chosen = audit::choose(page);

    let page_context = aca_provision::PageContext {
        procedure: page.procedure.clone(),
        product: Some(product.clone()),
        region: region.to_owned(),
        source: page.source.clone(),
    };
    let needs_meta = page.task.as_ref().is_some_and(|t| t.meta.is_some());
    let mut resources = match provision::RunResources::start(
        account,
        page_context,
        &report_dir,
        needs_meta,
        settings.runtime_provisioning,
        settings.model.as_ref(),
    )
    .await
    {
        Ok(resources) => resources,
        Err(e) => {
            report.verdict = Verdict::EnvironmentFailure;
            report.failure = Some(e);
            return Ok(());
        }
    };
    let context = RunContext {
        page,
        settings,
        account,
        product: &product,
        region,
        chosen: &chosen,
        report_dir: &report_dir,
    };
    let outcome = provision_and_run(&context, &mut resources, report, progress, measured).await;
    progress("destroying the provisioned resources");
    let cleanup = Instant::now();
    let left = resources.finish().await;
    measured.cleanup_ms = cleanup.elapsed().as_millis() as u64;
    if !left.is_empty() {
        report.add_failure(format!("cleanup left resources behind: {}", left.join("; ")));
    }
    outcome
}

/// What one run works with, once its account and rule are known.
struct RunContext<'a> {
    page: &'a PageInput,
    settings: &'a Settings,
    account: &'a target::RunAccount,
    product: &'a str,
    region: &'a str,
    chosen: &'a Result<audit::ChosenRule, String>,
    report_dir: &'a std::path::Path,
}

/// Provisions the page's META and runs the episode in Chromium. `Err` only when Chromium cannot
/// start; the caller destroys what was provisioned.
async fn provision_and_run(
    run: &RunContext<'_>,
    resources: &mut provision::RunResources,
    report: &mut Report,
    progress: &dyn Fn(&str),
    measured: &mut Measures,
) -> anyhow::Result<()> {
    let provisioning = Instant::now();
    if let Some(task) = run.page.task.as_ref().filter(|t| t.meta.is_some()) {
        progress("provisioning the resources the page needs");
        if let Err(e) = resources.before_run(&run.page.source, task).await {
            report.verdict = Verdict::EnvironmentFailure;
            report.failure = Some(format!("the resources the page needs could not be provisioned: {e}"));
            return Ok(());
        }
    }
    measured.provision_ms = provisioning.elapsed().as_millis() as u64;
    measured.bindings = resources.bindings();
    report.resources = resources.report_text();

    progress("starting Chromium");
    let runner = Runner::launch(run.settings.runner.clone())
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let result = run_in_browser(&runner, run, resources, report, progress).await;
    runner.close().await;
    match result {
        Ok(effective) => measured.effective = effective,
        Err(e) => {
            report.verdict = Verdict::EnvironmentFailure;
            report.failure = Some(format!("{e:#}"));
        }
    }
    Ok(())
}

async fn run_in_browser(
    runner: &Runner,
    run: &RunContext<'_>,
    resources: &mut provision::RunResources,
    report: &mut Report,
    progress: &dyn Fn(&str),
) -> anyhow::Result<Vec<ActRequest>> {
    let RunContext {
        page,
        settings,
        account,
        product,
        region,
        chosen,
        report_dir,
        ..
    } = *run;
    let mut session = Session::open(runner, "about:blank").await?;
    progress("opening the console");
    open_console(&mut session, account, product, region).await?;

    let mut task = Task::new(page.procedure.clone());
    task.limits.max_turns = settings.max_turns;
    task.resource_report = resources.told();
    task.bindings = resources.bindings();
    let policy: Box<dyn Policy> = match &settings.policy {
        PolicyChoice::Scripted => Box::new(ScriptedPolicy::new()),
        PolicyChoice::Llm(config) => Box::new(LlmPolicy::new(config.clone())),
    };
    let mut episode = Episode::new(task, policy);
    let episode_started_ms = unix_ms();
    let candidates = settings.out.join("meta-candidates");
    let mut provisioner = resources.runtime(&page.slug, &candidates);
    let log = drive::drive(
        &mut session,
        &mut episode,
        settings.model.as_ref(),
        &mut provisioner,
        settings.capture,
        report_dir,
        progress,
    )
    .await;
    let _ = session.close().await;
    let bindings: aca_reward::rule::Bindings = resources.bindings();
    report.resources = resources.report_text();

    let mut audit_fault = None;
    let rule_result = match chosen {
        Ok(chosen) => {
            progress("reading the audit log");
            let access = audit::AuditAccess {
                endpoint: &account.endpoints.resolve("actiontrail", region),
                access_key_id: &account.access_key_id,
                access_key_secret: &account.access_key_secret,
                account_id: Some(&account.account_id),
                region,
                bundled: account.emulator,
                deadline: settings.rule_deadline,
                provisioner: resources.calls(),
            };
            let decided = audit::check(chosen, &bindings, episode_started_ms, &access).await;
            audit_fault = decided.environment_fault().map(str::to_owned);
            let rule_report = decided.rule.unwrap_or_else(|| chosen.report(Err(&decided.reason), 0));
            let result = RuleResult {
                matched: rule_report.matched,
                events: rule_report.matched_events.iter().map(|e| e.event_id.clone()).collect(),
            };
            report.rule = Some(rule_report);
            result
        }
        Err(why) => {
            report.failure.get_or_insert_with(|| format!("no success rule: {why}"));
            RuleResult {
                matched: None,
                events: Vec::new(),
            }
        }
    };
    let graded = aca_agent::Report::of(&episode, &rule_result);
    let steps = episode
        .task()
        .steps()
        .into_iter()
        .map(|s| s.text.clone())
        .collect::<Vec<_>>();
    report.steps = graded
        .grades
        .iter()
        .enumerate()
        .map(|(i, grade)| StepReport {
            text: steps.get(i).cloned().unwrap_or_default(),
            grade: grade.clone(),
        })
        .collect();
    report.defects = graded.defects.clone();
    report.verdict = graded.verdict;
    report.turns = episode.trajectory().turns.clone();
    report.screenshots = log.screenshots;
    report.usage = ModelUsage {
        calls: graded.model_calls.len() as u32,
        prompt_tokens: graded
            .model_calls
            .iter()
            .map(|c| u64::from(c.usage.prompt_tokens))
            .sum(),
        completion_tokens: graded
            .model_calls
            .iter()
            .map(|c| u64::from(c.usage.completion_tokens))
            .sum(),
        cost_usd: (!graded.model_calls.is_empty()).then_some(graded.cost),
    };
    if let Some(interrupted) = log.interrupted {
        report.failure = Some(interrupted);
        if report.verdict == Verdict::Pass {
            report.verdict = Verdict::AgentFailure;
        }
    } else if let Some(end) = &graded.end {
        match &end.reason {
            aca_agent::EndReason::Environment { reason } => report.failure = Some(reason.clone()),
            aca_agent::EndReason::Agent { failure } => {
                report.failure = Some(serde_json::to_string(failure).unwrap_or_default())
            }
            aca_agent::EndReason::Unachievable { reason } => report.failure = Some(format!("unachievable: {reason}")),
            aca_agent::EndReason::Completed { .. } => {}
        }
    }
    // An audit log that could not be read decides nothing: the environment failed, not the page.
    if let Some(fault) = audit_fault {
        report.audit_log_unread(&fault);
    }
    Ok(log.effective)
}

/// Opens `product`'s console in `region` as `account`. An account with a password is one whose
/// log-on form the run fills (the emulator's); any other runs in the browser profile a person logged
/// on to once. Either way the console must then show that account.
pub(crate) async fn open_console(
    session: &mut Session,
    account: &target::RunAccount,
    product: &str,
    region: &str,
) -> anyhow::Result<()> {
    let base = account.console_url.trim_end_matches('/');
    if !account.password.is_empty() {
        aca_runner::logon::log_on(session, &format!("{base}/login"), &account.login, &account.password).await?;
    }
    session
        .goto(&format!("{base}/console/{product}?region={region}"))
        .await?;
    check_signed_in(session, account).await
}

/// The console the session shows must be signed in, to the run's account: read from the page's own
/// `ALIYUN_CONSOLE_CONFIG`, as the real console sets it.
async fn check_signed_in(session: &Session, account: &target::RunAccount) -> anyhow::Result<()> {
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

fn finish(mut report: Report, started: Instant) -> Report {
    report.duration_ms = started.elapsed().as_millis() as u64;
    report.summary = summary(&report);
    report
}

/// The sentence a writer reads first.
fn summary(report: &Report) -> String {
    match report.verdict {
        Verdict::Pass => report.pass_summary(),
        Verdict::DocDefect => {
            let first = report.defects.first();
            match first {
                Some(d) => format!(
                    "{} defect(s); first at step {}: the page says \"{}\", the console shows \"{}\".",
                    report.defects.len(),
                    d.step,
                    d.documented,
                    d.observed
                ),
                None => "The page no longer matches the console.".into(),
            }
        }
        Verdict::EnvironmentFailure => format!(
            "The run could not be carried out: {}",
            report.failure.as_deref().unwrap_or("the environment failed")
        ),
        Verdict::AgentFailure => format!(
            "The agent could not complete the procedure: {}",
            report.failure.as_deref().unwrap_or("no further detail")
        ),
        Verdict::Unverified => "Nothing in the audit log can prove or disprove this page.".into(),
    }
}

fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn now_rfc3339() -> String {
    time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}
