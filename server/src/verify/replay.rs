//! The reference a verification's wall time is measured against: a plain Chromium script doing the
//! same clicks. It replays the actions that took effect in a verification, straight through the
//! headless runtime, each finding its element by the fingerprint recorded for it (role, name,
//! structural path: what a hand-written script's selector says) and waiting for the page to settle
//! as such a script's auto-wait does, with no policy, no prompt, no observation and no audit check
//! in between.

use std::time::{Duration, Instant};

use aca_console::profile::ProfileId;
use aca_core::{ActRequest, ActionOutcome, GuiAction};
use aca_runner::{Runner, Session};
use aca_provision::{Applier, EmulatorApplier, Meta, Suffix};

use super::page::PageInput;
use super::target::ConsoleTarget;
use super::{Settings, provision};

/// How one replay went.
#[derive(Debug, Clone)]
pub struct ReplayRun {
    /// Chromium start, logon, the product's console and every action, until Chromium is closed.
    pub elapsed: Duration,
    pub actions: usize,
    /// Actions the console refused or whose element was not found, in call syntax with the outcome.
    pub refused: Vec<String>,
}

/// Replays `actions` for `page` in a fresh account of the bundled console (the page's resources
/// provisioned first, outside the measured time, as a script's fixtures would be).
pub async fn replay(
    target: &ConsoleTarget,
    page: &PageInput,
    profile: ProfileId,
    settings: &Settings,
    actions: &[ActRequest],
    bindings: &std::collections::BTreeMap<String, String>,
) -> anyhow::Result<ReplayRun> {
    if !matches!(target, ConsoleTarget::Bundled { .. }) {
        anyhow::bail!("the reference script runs against the bundled console only");
    }
    let account = target.account_for(&format!("reference-{}", page.slug), profile).await?;
    let applier = EmulatorApplier::new(&account.console_url, provision::root_key(&account))?;
    let provisioned = match &page.task {
        Some(task) if task.meta.is_some() => fixtures(&applier, &page.source, task)
            .await
            .map_err(|e| anyhow::anyhow!("the reference's resources could not be provisioned: {e}"))?,
        _ => None,
    };
    // A script's selectors name its own fixtures: the verification's resource names and ids become
    // this run's.
    let renames: Vec<(String, String)> = provisioned
        .as_ref()
        .map(|p| {
            bindings
                .iter()
                .filter_map(|(key, old)| p.bindings.get(key).map(|new| (old.clone(), new.clone())))
                .filter(|(old, new)| !old.is_empty() && old != new)
                .collect()
        })
        .unwrap_or_default();
    let actions: Vec<ActRequest> = actions.iter().map(|a| rename(a, &renames)).collect();
    let result = run_script(page, settings, &account, &actions).await;
    if let Some(mut p) = provisioned {
        let left = applier.destroy(&mut p.state).await;
        if !left.failures.is_empty() {
            tracing::warn!("the reference run left {} resource(s) behind", left.failures.len());
        }
    }
    result
}

/// The reference script's own resources: the task's META, applied and verified.
struct Fixtures {
    state: aca_provision::ProvisionState,
    /// `${suffix}`, `${vpc_id}`, … of this run.
    bindings: std::collections::BTreeMap<String, String>,
}

async fn fixtures(applier: &EmulatorApplier, source: &str, task: &aca_core::TaskSpec) -> Result<Option<Fixtures>, String> {
    let Some(resource_meta) = &task.meta else {
        return Ok(None);
    };
    let meta = Meta::new(source, resource_meta, &task.region, Suffix::random()).map_err(|e| e.to_string())?;
    let state = aca_provision::run::apply_and_verify(applier, &meta).await?;
    Ok(Some(Fixtures {
        bindings: aca_provision::bindings(&state),
        state,
    }))
}

async fn run_script(
    page: &PageInput,
    settings: &Settings,
    account: &super::target::RunAccount,
    actions: &[ActRequest],
) -> anyhow::Result<ReplayRun> {
    let region = page.task.as_ref().map_or("cn-hangzhou", |t| t.region.as_str());
    let product = super::target::product_of(page).map_err(|why| anyhow::anyhow!("{}: {why}", page.source))?;
    let started = Instant::now();
    let runner = Runner::launch(settings.runner.clone()).await?;
    let scripted = async {
        let mut session = Session::open(&runner, "about:blank").await?;
        super::drive::open_console(&mut session, account, product, region).await?;
        let mut refused = Vec::new();
        for request in actions {
            let outcome = session.act(request.clone()).await;
            if !outcome.succeeded() {
                refused.push(format!("{} → {}", request.action.call_syntax(), describe(&outcome)));
            }
        }
        let _ = session.close().await;
        anyhow::Ok(refused)
    }
    .await;
    runner.close().await;
    let elapsed = started.elapsed();
    Ok(ReplayRun {
        elapsed,
        actions: actions.len(),
        refused: scripted?,
    })
}

/// `request` with every `old` name or id replaced by its `new` one (in the text it types or the
/// option it picks, and in its element's fingerprint).
fn rename(request: &ActRequest, renames: &[(String, String)]) -> ActRequest {
    let swap = |text: &str| {
        renames
            .iter()
            .fold(text.to_owned(), |acc, (old, new)| acc.replace(old.as_str(), new))
    };
    let mut out = request.clone();
    match &mut out.action {
        GuiAction::Type { text, .. } => *text = swap(text),
        GuiAction::Select { option, .. } => *option = swap(option),
        GuiAction::Goto { url } => *url = swap(url),
        _ => {}
    }
    if let Some(fingerprint) = &mut out.fingerprint {
        fingerprint.name = swap(&fingerprint.name);
        fingerprint.path = swap(&fingerprint.path);
        for neighbour in &mut fingerprint.neighbours {
            *neighbour = swap(neighbour);
        }
    }
    out
}

fn describe(outcome: &ActionOutcome) -> String {
    serde_json::to_string(outcome).unwrap_or_else(|_| format!("{outcome:?}"))
}
