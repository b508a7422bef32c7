//! A verification in the service worker: **Verify this page** captures the documentation page, finds
//! the console tab the writer is signed in to (or opens the console in a new tab of the same
//! profile), checks that its account is one the companion server assigns to this user, has the
//! server start a run there (what the page needs is provisioned), opens the product's console in
//! that tab, drives the procedure's [`Episode`] against it through the content script's aca-dom
//! (each action waiting for the person's decision in step mode), asks the server's reward service
//! whether the documented operation happened, and leaves a report in aca-core's format in the run.
//! The extension never types a password, never creates an account, and never holds an AccessKey.
//!
//! The driver makes no agent decision: it feeds the episode observations, outcomes and model replies,
//! and performs what the episode asks. The episode lives in this worker's memory only: the browser
//! keeps a worker that calls extension APIs running, and a run waiting for a person calls one
//! periodically ([`chrome::keep_alive`]).

use std::cell::RefCell;

use aca_agent::{Episode, LlmConfig, LlmPolicy, Next, Policy, ScriptedPolicy, Task};
use aca_core::{ActRequest, Action, ActionOutcome, ConsoleRun, GuiAction, Observation, Procedure, Report, Role};
use wasm_bindgen_futures::spawn_local;

use super::{model, page, signed_in, state};
use crate::chrome::{self, now_ms};
use crate::console::{names_product, product_names, query_value};
use crate::messages::{
    CapturedPage, ConsoleAccount, Decided, Decision, Observed, Phase, Proposal, RunView, StepRecord, Verification,
};
use crate::report::{self, Interruption, Progress, RunFacts};
use crate::server::{self, Assigned};
use crate::settings::Settings;
use aca_reward::ChosenRule;

/// How long a console page may take to load.
const LOAD_WAIT_MS: i64 = 15_000;
/// How long a page may take to settle (no DOM churn) before it is observed as it is.
const SETTLE_MS: u32 = 2_000;
/// How long after an action the page has to start navigating, when it does.
const NAVIGATION_GRACE_MS: i32 = 150;
/// How often a run waiting for a person checks for the answer, and calls the browser to stay alive.
const DECISION_POLL_MS: i32 = 200;
const KEEP_ALIVE_EVERY_MS: i64 = 10_000;

/// What the panel asked of the running verification.
#[derive(Default)]
struct Control {
    running: bool,
    stop: bool,
    /// Step mode: the run waits for a decision on its proposal.
    awaiting_decision: bool,
    decision: Option<Decision>,
    handed_back: bool,
    /// Page loads the console tab started (`chrome.tabs.onUpdated` with status `loading`).
    navigations: u64,
}

thread_local! {
    static CONTROL: RefCell<Control> = RefCell::new(Control::default());
}

fn control<T>(f: impl FnOnce(&mut Control) -> T) -> T {
    CONTROL.with(|c| f(&mut c.borrow_mut()))
}

/// Whether a verification is running in this worker.
pub fn is_running() -> bool {
    control(|c| c.running)
}

/// The console tab started loading a page.
pub fn navigation_started() {
    control(|c| c.navigations += 1);
}

/// Stops the running verification.
pub fn stop() -> Result<(), String> {
    control(|c| {
        if !c.running {
            return Err("no verification is running".to_owned());
        }
        c.stop = true;
        Ok(())
    })
}

/// Whether the running verification waits for a step-mode decision.
pub fn awaits_decision() -> bool {
    control(|c| c.running && c.awaiting_decision)
}

/// Hands the person's decision to the running verification.
pub fn deliver(decision: Decision) {
    control(|c| c.decision = Some(decision));
}

/// The person hands the page back after taking over.
pub async fn hand_back() -> Result<RunView, String> {
    let run = state::current().await;
    if run.verification.as_ref().map(|v| v.phase) != Some(Phase::TakenOver) {
        return Err("the run is not waiting for the page to be handed back".to_owned());
    }
    control(|c| c.handed_back = true);
    Ok(run)
}

/// Everything a run needs, fixed when it starts.
struct RunSetup {
    tab: i32,
    page: CapturedPage,
    procedure: Procedure,
    settings: Settings,
    /// The account the console tab is signed in to, as the server assigns it.
    account: Assigned,
    step_mode: bool,
    chosen: Result<ChosenRule, String>,
    started_ms: i64,
    started_at: String,
}

/// Captures the page, leases an account, opens the console tab and starts the run in the
/// background; the answer is the run as it starts.
pub async fn start(doc_tab: i32, step_mode: bool, settings: Settings) -> Result<RunView, String> {
    control(|c| {
        if c.running {
            return Err("a verification is already running: stop it first".to_owned());
        }
        *c = Control {
            running: true,
            navigations: c.navigations,
            ..Control::default()
        };
        Ok(())
    })?;
    let started = begin(doc_tab, step_mode, settings).await;
    if started.is_err() {
        control(|c| c.running = false);
    }
    started
}

async fn begin(doc_tab: i32, step_mode: bool, settings: Settings) -> Result<RunView, String> {
    let settings = settings.normalized().map_err(|e| e.to_string())?;
    let started_ms = now_ms();
    let started_at = chrome::now_rfc3339();
    let page = page::capture(doc_tab).await?;
    let procedure = page.procedure.clone();
    state::update(|run| run.captured = Some(page.clone())).await;
    let procedure = procedure.map_err(|error| format!("this page cannot be verified: {error}"))?;
    let me = server::me(&settings).await.map_err(|e| e.to_string())?;
    let chosen_tab = state::current().await.console_tab;
    let (tab, account) = signed_in::console_tab(&me, chosen_tab).await?;
    // A page read in the writer's browser carries no written rule: it is inferred from the procedure.
    let chosen = ChosenRule::choose(None, None, &procedure);
    let verification = Verification {
        phase: Phase::Preparing,
        step_mode,
        rule: chosen.as_ref().ok().map(|c| c.rule.clone()),
        rule_explanation: chosen.as_ref().ok().and_then(|c| c.explanation.clone()),
        no_rule: chosen.as_ref().err().cloned(),
        progress: Progress::default(),
        activity: vec![format!(
            "verifying in tab {tab}, signed in to account {} ({})",
            account.account_id, account.login
        )],
        report: None,
    };
    let run = state::update(|run| {
        run.account = Some(ConsoleAccount {
            account_id: account.account_id.clone(),
            login: account.login.clone(),
            console_url: account.console_url.clone(),
        });
        run.console_tab = Some(tab);
        run.observed = None;
        run.pending = None;
        run.problem = None;
        run.log.clear();
        run.verification = Some(verification);
    })
    .await;
    let setup = RunSetup {
        tab,
        page,
        procedure,
        settings,
        account,
        step_mode,
        chosen,
        started_ms,
        started_at,
    };
    spawn_local(async move {
        let report = carry_out(&setup).await;
        state::update(|run| {
            run.pending = None;
            if let Some(v) = run.verification.as_mut() {
                v.phase = Phase::Finished;
                v.note(format!("finished: {}", report.summary));
                v.report = Some(Box::new(report));
            }
        })
        .await;
        control(|c| c.running = false);
    });
    Ok(run)
}

/// Notes one line of activity in the run.
async fn note(line: String) {
    state::update(|run| {
        if let Some(v) = run.verification.as_mut() {
            v.note(line);
        }
    })
    .await;
}

async fn set_phase(phase: Phase) {
    state::update(|run| {
        if let Some(v) = run.verification.as_mut() {
            v.phase = phase;
        }
    })
    .await;
}

/// Where resources are provisioned: the bundled console opens its products in this region.
const DEFAULT_REGION: &str = "cn-hangzhou";

/// The whole run; every way it ends is a report.
async fn carry_out(setup: &RunSetup) -> Report {
    let facts = |region: &str| RunFacts {
        page: setup.page.url.clone(),
        title: setup.procedure.title.clone(),
        console: ConsoleRun {
            url: setup.account.console_url.clone(),
            profile: None,
            account: Some(setup.account.login.clone()),
            region: region.to_owned(),
        },
        policy: match setup.settings.model_endpoint() {
            Some(endpoint) => format!("llm:{}", endpoint.model),
            None => "scripted".to_owned(),
        },
        started_at: setup.started_at.clone(),
        duration_ms: (now_ms() - setup.started_ms).max(0) as u64,
    };
    // The server starts the run: what the page needs is created before the episode, by its
    // provisioner acting as its own RAM user in the account, and destroyed after it whatever happened.
    note("provisioning what the page needs".to_owned()).await;
    let mut provisioning = match server::start_run(
        &setup.settings,
        &setup.account.account_id,
        &setup.procedure,
        DEFAULT_REGION,
    )
    .await
    {
        Ok(p) => p,
        Err(e) => {
            let why = format!("the resources the page needs could not be provisioned: {e}");
            return report::not_run(&setup.procedure.title, why, facts(""));
        }
    };
    if let Some(told) = &provisioning.told {
        note(format!("provisioned: {}", told.names.join(", "))).await;
    }
    let mut report = run_provisioned(setup, &mut provisioning, &facts).await;
    note("destroying the provisioned resources".to_owned()).await;
    let left = match server::finish_run(&setup.settings, &provisioning.id).await {
        Ok(torn_down) => torn_down.left,
        Err(e) => vec![e.to_string()],
    };
    if !left.is_empty() {
        report.add_failure(format!("cleanup left resources behind: {}", left.join("; ")));
    }
    report
}

/// The run in the account once its resources exist: the product's console, the episode, the reward.
async fn run_provisioned(
    setup: &RunSetup,
    provisioning: &mut server::StartedRun,
    facts: &dyn Fn(&str) -> RunFacts,
) -> Report {
    let region = match prepare(setup).await {
        Ok(region) => region,
        Err(why) => return report::not_run(&setup.procedure.title, why, facts("")),
    };
    set_phase(Phase::Running).await;
    let policy: Box<dyn Policy> = match setup.settings.model_endpoint() {
        Some(endpoint) => Box::new(LlmPolicy::new(LlmConfig {
            model: endpoint.model,
            ..LlmConfig::default()
        })),
        None => Box::new(ScriptedPolicy::new()),
    };
    let mut task = Task::new(setup.procedure.clone());
    task.resource_report = provisioning.told.clone();
    task.bindings = provisioning.bindings.clone();
    let mut episode = Episode::new(task, policy);
    let interruption = drive(setup, &mut episode, provisioning).await;

    let stopped = matches!(interruption, Some(Interruption::Stopped { .. }));
    let mut audit_fault = None;
    let rule = match &setup.chosen {
        Err(why) => Err(why.clone()),
        Ok(chosen) if stopped => Ok(chosen.report(Err("the audit log was not read: the run was stopped"), 0)),
        Ok(chosen) => {
            set_phase(Phase::Auditing).await;
            note(format!(
                "asking the reward service about {}",
                describe_rule(&chosen.rule)
            ))
            .await;
            match server::reward(&setup.settings, &provisioning.id, chosen, &setup.procedure).await {
                Ok(decided) => {
                    audit_fault = decided.environment_fault().map(str::to_owned);
                    Ok(decided.rule.unwrap_or_else(|| chosen.report(Err(&decided.reason), 0)))
                }
                Err(e) => {
                    let why = format!("the reward service failed: {e}");
                    audit_fault = Some(why.clone());
                    Ok(chosen.report(Err(&why), 0))
                }
            }
        }
    };
    let mut report = report::build(&episode, rule, audit_fault.as_deref(), interruption, facts(&region));
    report.resources = provisioning.told.as_ref().map(|t| t.text.clone());
    report
}

/// `CreateVpc and CreateVSwitch`.
fn describe_rule(rule: &aca_core::SuccessRule) -> String {
    let names: Vec<&str> = rule.events.iter().map(|m| m.event_name.as_str()).collect();
    names.join(" and ")
}

/// Opens the product's console in the signed-in console tab, from the console's home as a person
/// would; the region it opened in.
async fn prepare(setup: &RunSetup) -> Result<String, String> {
    let tab = setup.tab;
    open_url(tab, &setup.account.console_url)
        .await
        .map_err(|e| format!("the console tab cannot open the console home: {e}"))?;
    let home = observe(tab).await?;
    let wanted = product_names(&setup.procedure);
    let link = home
        .elements
        .iter()
        .filter(|e| e.role == Role::Link)
        .find(|e| wanted.iter().any(|w| names_product(&e.name, w)))
        .ok_or_else(|| {
            format!(
                "the console home ({}) links no console for {}",
                home.url,
                if wanted.is_empty() {
                    "this page: it names no product".to_owned()
                } else {
                    wanted.join(" or ")
                }
            )
        })?;
    note(format!("opening the {} console", link.name)).await;
    perform(tab, &request(GuiAction::Click { index: link.index })).await;
    let opened = observe(tab).await?;
    Ok(query_value(&opened.url, "region").unwrap_or_else(|| DEFAULT_REGION.to_owned()))
}

fn request(action: GuiAction) -> ActRequest {
    ActRequest {
        action,
        fingerprint: None,
        timeout_ms: 10_000,
    }
}

/// Feeds the episode until it finishes; `Some` when it was stopped or could not go on.
async fn drive(setup: &RunSetup, episode: &mut Episode, provisioning: &mut server::StartedRun) -> Option<Interruption> {
    let tab = setup.tab;
    let model = setup.settings.model_endpoint();
    let refused = |e: aca_agent::EpisodeError| Interruption::Failed(format!("the episode refused its input: {e}"));
    let mut next = Next::Observe;
    loop {
        if control(|c| c.stop) {
            return Some(Interruption::Stopped {
                at_turn: episode.trajectory().turns.len(),
            });
        }
        let result: Result<Next, Interruption> = match next {
            Next::Finished(_) => return None,
            Next::Observe => match observe(tab).await {
                Ok(observation) => {
                    episode.clock((now_ms() - setup.started_ms).max(0) as u64);
                    episode.next(observation).map_err(refused)
                }
                Err(why) => Err(Interruption::Failed(format!(
                    "the console tab cannot be observed: {why}"
                ))),
            },
            Next::Act(request) => {
                let progress = Progress::of(episode);
                let line = format!(
                    "step {}: {}",
                    progress.step_number.as_deref().unwrap_or("-"),
                    request.action.call_syntax()
                );
                state::update(|run| {
                    if let Some(v) = run.verification.as_mut() {
                        v.progress = progress.clone();
                        v.note(line);
                    }
                })
                .await;
                let outcome = if setup.step_mode {
                    match stepped(tab, request, &progress).await {
                        Some(outcome) => outcome,
                        None => {
                            return Some(Interruption::Stopped {
                                at_turn: episode.trajectory().turns.len(),
                            });
                        }
                    }
                } else {
                    perform(tab, &request).await
                };
                episode.outcome(outcome).map_err(refused)
            }
            Next::AskModel(request) => match &model {
                None => Err(Interruption::Failed(
                    "the policy asked for a model but the options name no model endpoint".into(),
                )),
                Some(endpoint) => {
                    note(format!("asking {}", endpoint.model)).await;
                    match model::complete(endpoint, &request).await {
                        Ok((text, usage)) => episode.model_reply(&text, usage).map_err(refused),
                        Err(why) => Err(Interruption::Failed(format!("the model failed: {why}"))),
                    }
                }
            },
            Next::Provision(description) => {
                note(format!("the agent asks for a resource: {description}")).await;
                match server::request_resource(&setup.settings, &provisioning.id, &description).await {
                    Ok(provided) => {
                        provisioning.bindings = provided.bindings;
                        provisioning.told = Some(provided.told.clone());
                        // The page was rendered before the resource existed: load it again, as a
                        // person would, so that its lists show it.
                        if let Ok(url) = chrome::tab_url(tab).await {
                            let _ = chrome::navigate_tab(tab, &url).await;
                            let _ = wait_loaded(tab).await;
                        }
                        episode.resource_report(provided.told)
                    }
                    Err(e) => episode.resource_unavailable(&e.to_string()),
                }
                .map_err(refused)
            }
        };
        match result {
            Ok(n) => next = n,
            Err(interruption) => return Some(interruption),
        }
        let progress = Progress::of(episode);
        state::update(|run| {
            if let Some(v) = run.verification.as_mut() {
                v.progress = progress;
            }
        })
        .await;
    }
}

/// Step mode: proposes the action with its Thought and waits for the person; the outcome to feed the
/// episode, or `None` when the run was stopped meanwhile (the loop then ends it).
async fn stepped(tab: i32, mut request: ActRequest, progress: &Progress) -> Option<ActionOutcome> {
    let mut reason = progress
        .thought
        .as_ref()
        .map(|t| t.next_goal.clone())
        .filter(|g| !g.is_empty())
        .unwrap_or_else(|| progress.headline());
    loop {
        let action = Action::Gui(request.action.clone());
        let observed = state::current().await.observed;
        let target = crate::messages::describe_target(&action, observed.as_ref().map(|o| &o.observation));
        // Marks left on a page that is gone are gone with it.
        let _ = page::mark(tab, true).await;
        state::update(|run| {
            run.pending = Some(Proposal {
                action: action.clone(),
                reason: reason.clone(),
                target,
            })
        })
        .await;
        let decision = wait_for_decision().await;
        let _ = page::mark(tab, false).await;
        let decision = decision?;
        let (decided, outcome) = match decision {
            Decision::Approve => {
                let outcome = perform(tab, &request).await;
                (
                    Decided::Ran {
                        outcome: outcome.clone(),
                    },
                    Some(outcome),
                )
            }
            Decision::Skip => (
                Decided::Skipped,
                Some(ActionOutcome::Failed {
                    message: "the person skipped this action in step mode".into(),
                }),
            ),
            Decision::TakeOver => (Decided::TakenOver, None),
            Decision::Edit {
                action: edited,
                reason: why,
            } => {
                record(action, reason.clone(), Decided::Edited).await;
                if let Action::Gui(gui) = edited {
                    request.fingerprint = gui
                        .index()
                        .and_then(|i| observed.as_ref()?.observation.element(i))
                        .map(|e| e.fingerprint.clone());
                    request.action = gui;
                }
                if !why.is_empty() {
                    reason = why;
                }
                continue;
            }
        };
        record(action, reason.clone(), decided).await;
        return match outcome {
            Some(outcome) => Some(outcome),
            None => taken_over().await,
        };
    }
}

async fn record(action: Action, reason: String, decision: Decided) {
    state::update(|run| {
        run.pending = None;
        run.log.push(StepRecord {
            action,
            reason,
            decision,
        });
    })
    .await;
}

/// Waits for the person's decision; `None` when the run is stopped first.
async fn wait_for_decision() -> Option<Decision> {
    control(|c| {
        c.awaiting_decision = true;
        c.decision = None;
    });
    let mut alive_at = now_ms();
    let decision = loop {
        if let Some(decision) = control(|c| {
            if c.stop {
                Some(None)
            } else {
                c.decision.take().map(Some)
            }
        }) {
            break decision;
        }
        if now_ms() - alive_at > KEEP_ALIVE_EVERY_MS {
            chrome::keep_alive().await;
            alive_at = now_ms();
        }
        chrome::sleep(DECISION_POLL_MS).await;
    };
    control(|c| c.awaiting_decision = false);
    decision
}

/// The person acts on the page until handing it back; the episode then sees the page as they left
/// it. `None` when the run is stopped first.
async fn taken_over() -> Option<ActionOutcome> {
    set_phase(Phase::TakenOver).await;
    control(|c| c.handed_back = false);
    let mut alive_at = now_ms();
    loop {
        if control(|c| c.stop) {
            return None;
        }
        if control(|c| std::mem::take(&mut c.handed_back)) {
            break;
        }
        if now_ms() - alive_at > KEEP_ALIVE_EVERY_MS {
            chrome::keep_alive().await;
            alive_at = now_ms();
        }
        chrome::sleep(DECISION_POLL_MS).await;
    }
    set_phase(Phase::Running).await;
    note("the person handed the page back".into()).await;
    Some(ActionOutcome::Done { reresolved: false })
}

/// Runs one GUI action in the console tab and says what happened, a navigation included.
async fn perform(tab: i32, request: &ActRequest) -> ActionOutcome {
    let navigations = control(|c| c.navigations);
    let outcome = match &request.action {
        GuiAction::Goto { url } => match chrome::navigate_tab(tab, url).await {
            Ok(()) => ActionOutcome::Done { reresolved: false },
            Err(e) => ActionOutcome::Failed { message: e.to_string() },
        },
        _ => page::act(tab, request)
            .await
            .unwrap_or_else(|message| ActionOutcome::Failed { message }),
    };
    chrome::sleep(NAVIGATION_GRACE_MS).await;
    let navigated = control(|c| c.navigations) != navigations || matches!(outcome, ActionOutcome::Navigated { .. });
    if navigated {
        return match wait_loaded(tab).await {
            Ok(url) => ActionOutcome::Navigated { url },
            Err(message) => ActionOutcome::Failed { message },
        };
    }
    outcome
}

/// Navigates the tab and waits until the new page has started loading, so that the page the tab
/// showed before (still `complete` for a moment after the request) is never taken for it.
async fn open_url(tab: i32, url: &str) -> Result<(), String> {
    let navigations = control(|c| c.navigations);
    chrome::navigate_tab(tab, url).await.map_err(|e| e.to_string())?;
    let deadline = now_ms() + LOAD_WAIT_MS;
    while control(|c| c.navigations) == navigations {
        if now_ms() > deadline {
            return Err(format!(
                "the tab did not start loading {url} within {} s",
                LOAD_WAIT_MS / 1_000
            ));
        }
        chrome::sleep(50).await;
    }
    Ok(())
}

/// Waits until the tab has loaded its page; its URL.
async fn wait_loaded(tab: i32) -> Result<String, String> {
    let deadline = now_ms() + LOAD_WAIT_MS;
    loop {
        let status = chrome::tab_status(tab)
            .await
            .map_err(|e| format!("the console tab is gone ({e})"))?;
        if status.complete {
            return Ok(status.url);
        }
        if now_ms() > deadline {
            return Err(format!(
                "the console tab did not finish loading {} within {} s",
                status.url,
                LOAD_WAIT_MS / 1_000
            ));
        }
        chrome::sleep(100).await;
    }
}

/// Observes the console tab once its page has loaded and settled, and shows the observation in the
/// panel's live view.
async fn observe(tab: i32) -> Result<Observation, String> {
    let mut last_error = String::new();
    for _ in 0..3 {
        wait_loaded(tab).await?;
        let _ = page::call(
            tab,
            crate::messages::ContentOp::Settle,
            serde_json::Value::from(SETTLE_MS),
        )
        .await;
        match page::observe(tab).await {
            Ok(observation) => {
                let observed = Observed::new(tab, observation.clone());
                state::update(|run| run.observed = Some(observed)).await;
                return Ok(observation);
            }
            // The page navigated away under the call: observe the new one.
            Err(e) => last_error = e,
        }
        chrome::sleep(300).await;
    }
    Err(last_error)
}
