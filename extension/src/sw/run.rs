//! A verification in the service worker: **Verify this page** captures the documentation page, finds
//! the console tab the writer is signed in to (or opens the console in a new tab of the same
//! profile), checks that its account is one the companion server assigns to this user, has the
//! server start a run there (what the page needs is provisioned), opens the product's console in
//! that tab, drives the procedure's episode against it through the content script's aca-dom
//! (each action waiting for the person's decision in step mode), asks the server's reward service
//! whether the documented operation happened, and leaves a report in aca-core's format in the run.
//! The extension never types a password, never creates an account, and never holds an AccessKey.
//!
//! The driver makes no agent decision: it feeds the episode observations, outcomes and model replies,
//! and performs what the episode asks. The episode lives in this worker's memory only: the browser
//! keeps a worker that calls extension APIs running, and a run waiting for a person calls one
//! periodically ([`chrome::keep_alive`]).

use std::cell::RefCell;

use aca_agent::{LlmConfig, LlmPolicy, ModelFailure, Policy, ScreenshotSize, ScriptedPolicy, Task};
use aca_core::{
    ActRequest, ActionOutcome, ClickedControl, ConsoleRun, ConsoleSite, GuiAction, Observation, Procedure,
    ProductConsole, Report,
};
use aca_run::{Decision, Proposed, Provided, Provisioned, Request, Run, RunFacts, RunPlan};
use wasm_bindgen_futures::spawn_local;

use super::{model, page, screenshot, signed_in, state};
use crate::chrome::{self, now_ms};
use crate::messages::{CapturedPage, ConsoleAccount, KeptShot, Observed, Phase, Proposal, RunView, Verification};
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
    /// The tab a person has taken over, while they have.
    taken_over_tab: Option<i32>,
    /// The controls the person clicked on it meanwhile, as its content scripts saw them.
    clicked: Vec<ClickedControl>,
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

/// Whether the person's clicks in `tab` are being recorded: they have taken it over.
pub fn records_clicks_in(tab: Option<i32>) -> bool {
    control(|c| tab.is_some() && c.taken_over_tab == tab)
}

/// The person clicked `control` in `tab`; kept while they have taken that tab over (at most
/// [`MAX_CLICKS`] per take-over). Whether it was kept.
pub fn person_clicked(tab: Option<i32>, clicked: ClickedControl) -> bool {
    control(|c| {
        let kept = tab.is_some() && c.taken_over_tab == tab && c.clicked.len() < MAX_CLICKS;
        if kept {
            c.clicked.push(clicked);
        }
        kept
    })
}

/// Clicks kept per take-over: enough for any step done by hand.
const MAX_CLICKS: usize = 32;

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
        progress: aca_run::Progress::default(),
        started_ms: chrome::now_ms(),
        activity: vec![format!(
            "verifying in tab {tab}, signed in to account {} ({})",
            account.account_id, account.login
        )],
        report: None,
        shots: Vec::new(),
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
        let (report, shots) = carry_out(&setup).await;
        state::update(|run| {
            run.pending = None;
            if let Some(v) = run.verification.as_mut() {
                v.phase = Phase::Finished;
                v.report = Some(Box::new(report));
                v.shots = shots;
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

/// How large the report's screenshots are kept (the panel shows them a column wide).
const REPORT_SHOT_SIZE: ScreenshotSize = ScreenshotSize {
    max_width: 1024,
    max_height: 640,
};

/// The report with the screenshots its defects show (and no others: the panel holds them in the
/// browser's session storage, whose room is small).
fn with_defect_shots(mut report: Report, shots: Vec<(aca_core::Screenshot, String)>) -> (Report, Vec<KeptShot>) {
    report.screenshots = shots.iter().map(|(shot, _)| shot.clone()).collect();
    let wanted: Vec<String> = report
        .defects
        .iter()
        .filter_map(|d| report.screenshot_of(d).map(str::to_owned))
        .collect();
    report.screenshots.retain(|s| wanted.contains(&s.path));
    let kept = shots
        .into_iter()
        .filter(|(shot, _)| wanted.contains(&shot.path))
        .map(|(shot, image)| KeptShot { path: shot.path, image })
        .collect();
    (report, kept)
}

/// Whether the model is shown the console tab's screenshots: the options ask for them, and the
/// person allowed the extension to capture tabs (else the run says so and goes on in words).
async fn shows_screenshots(settings: &Settings) -> bool {
    if !settings.model_screenshots {
        return false;
    }
    let allowed = screenshot::allowed().await;
    if !allowed {
        note(
            "screenshots are off: the extension may not capture tabs; tick the screenshot box on the options page again"
                .to_owned(),
        )
        .await;
    }
    allowed
}

/// Where resources are provisioned: the bundled console opens its products in this region.
const DEFAULT_REGION: &str = "cn-hangzhou";

/// The whole run, driven through `aca_run::Run`: every way it ends is a report, with the marked
/// screenshots its defects show.
async fn carry_out(setup: &RunSetup) -> (Report, Vec<KeptShot>) {
    // With the person's leave to capture tabs, the page is captured after every action, as
    // `aca verify` does; the report keeps the ones its defects show.
    let captures = screenshot::allowed().await;
    let mut shots: Vec<(aca_core::Screenshot, String)> = Vec::new();
    let policy: Box<dyn Policy> = match setup.settings.model_endpoint() {
        Some(endpoint) => Box::new(LlmPolicy::new(LlmConfig {
            model: endpoint.model,
            screenshots: shows_screenshots(&setup.settings).await.then(ScreenshotSize::default),
            ..LlmConfig::default()
        })),
        None => Box::new(ScriptedPolicy::new()),
    };
    let plan = RunPlan {
        task: Task::new(setup.procedure.clone()),
        policy,
        facts: RunFacts {
            page: setup.page.url.clone(),
            title: setup.procedure.title.clone(),
            written_for: None,
            console: ConsoleRun {
                url: setup.account.console_url.clone(),
                profile: None,
                account: Some(setup.account.login.clone()),
                region: DEFAULT_REGION.to_owned(),
            },
            policy: match setup.settings.model_endpoint() {
                Some(endpoint) => format!("llm:{}", endpoint.model),
                None => "scripted".to_owned(),
            },
            started_at: setup.started_at.clone(),
            duration_ms: 0,
        },
        rule: setup.chosen.clone(),
        account_id: setup.account.account_id.clone(),
        region: DEFAULT_REGION.to_owned(),
        step_mode: setup.step_mode,
        reward_deadline_ms: None,
    };
    let mut run = Run::new(plan, setup.started_ms);
    let mut server_run: Option<String> = None;
    let mut request = run.start();
    loop {
        if control(|c| std::mem::take(&mut c.stop)) {
            request = run.stop();
        }
        if let Some(line) = request.describe() {
            note(line).await;
        }
        request = match request {
            Request::Finished(report) => return with_defect_shots(*report, shots),
            Request::Provision => {
                // The server starts the run: what the page needs is created before the episode, by
                // its provisioner acting as its own RAM user in the account.
                let started = server::start_run(
                    &setup.settings,
                    &setup.account.account_id,
                    &setup.procedure,
                    DEFAULT_REGION,
                )
                .await
                .map_err(|e| e.to_string());
                let result = started.map(|started| {
                    server_run = Some(started.id);
                    if let Some(told) = &started.told {
                        spawn_local(note(format!("provisioned: {}", told.names.join(", "))));
                    }
                    Provisioned {
                        resources_text: started.told.as_ref().map(|t| t.text.clone()),
                        told: started.told,
                        bindings: started.bindings,
                        // The server leaves its provisioner's calls out itself.
                        exclude_users: Vec::new(),
                    }
                });
                run.clock(now_ms());
                run.provisioned(result)
            }
            Request::OpenConsole => {
                let opened = prepare(setup).await;
                set_phase(Phase::Running).await;
                run.clock(now_ms());
                run.console_opened(opened)
            }
            Request::Observe => {
                let observed = observe(setup.tab).await;
                if captures
                    && let Ok(observation) = &observed
                    && let Some(shot) = run.screenshot_due(observation)
                {
                    match screenshot::marked(setup.tab, REPORT_SHOT_SIZE).await {
                        Ok(image) => shots.push((shot, image)),
                        Err(why) => note(format!("no screenshot of turn {}: {why}", shot.turn + 1)).await,
                    }
                }
                run.clock(now_ms());
                run.observed(observed)
            }
            Request::Act(act) => {
                let progress = run.progress();
                note(format!(
                    "step {}: {}",
                    progress.step_number.as_deref().unwrap_or("-"),
                    act.action.call_syntax()
                ))
                .await;
                let outcome = perform(setup.tab, &act).await;
                run.clock(now_ms());
                run.acted(outcome)
            }
            Request::AskModel(model_request) => {
                let replied = match setup.settings.model_endpoint() {
                    None => Err(ModelFailure::Unavailable(
                        "the policy asked for a model but the options name no model endpoint".to_owned(),
                    )),
                    Some(endpoint) => {
                        let screenshot = match model_request.screenshot {
                            Some(slot) => match screenshot::marked(setup.tab, slot.size).await {
                                Ok(url) => Some(url),
                                Err(why) => {
                                    note(format!("no screenshot this time ({why}): the model is asked in words")).await;
                                    None
                                }
                            },
                            None => None,
                        };
                        note(format!("asking {}", endpoint.model)).await;
                        model::complete(&endpoint, &model_request, screenshot.as_deref()).await
                    }
                };
                run.clock(now_ms());
                run.model_replied(replied)
            }
            Request::ProvideResource(description) => {
                let provided = match &server_run {
                    Some(id) => server::request_resource(&setup.settings, id, &description)
                        .await
                        .map_err(|e| e.to_string()),
                    None => Err("the server holds no run to provision in".to_owned()),
                };
                if provided.is_ok() {
                    // The page was rendered before the resource existed: load it again, as a
                    // person would, so that its lists show it.
                    if let Ok(url) = chrome::tab_url(setup.tab).await
                        && open_url(setup.tab, &url).await.is_ok()
                    {
                        let _ = wait_loaded(setup.tab).await;
                    }
                }
                run.clock(now_ms());
                // The server leaves its provisioner's calls out when it decides the reward.
                run.resource_provided(provided.map(|p| Provided {
                    resources_text: Some(p.told.text.clone()),
                    told: p.told,
                    exclude_users: Vec::new(),
                    bindings: p.bindings,
                }))
            }
            Request::Propose(proposed) => match propose(setup.tab, proposed).await {
                Some(decision) => {
                    run.clock(now_ms());
                    run.decide(decision)
                }
                None => run.stop(),
            },
            Request::AwaitHandBack => match taken_over(setup.tab).await {
                Some(clicked) => {
                    run.clock(now_ms());
                    run.handed_back(clicked)
                }
                None => run.stop(),
            },
            Request::Reward(mut reward) => {
                set_phase(Phase::Auditing).await;
                // Judges that take images are shown the final page as captured after the last action.
                if let (Some(case), Some((_, image))) = (reward.judge_case.as_mut(), shots.last()) {
                    case.final_screenshot = Some(image.clone());
                }
                let decided = match &server_run {
                    Some(id) => server::reward(&setup.settings, id, &reward)
                        .await
                        .map_err(|e| e.to_string()),
                    None => Err("the server holds no run to judge".to_owned()),
                };
                run.clock(now_ms());
                run.rewarded(decided)
            }
            Request::CleanUp => {
                let left = match server_run.take() {
                    Some(id) => match server::finish_run(&setup.settings, &id).await {
                        Ok(torn_down) => torn_down.left,
                        Err(e) => vec![e.to_string()],
                    },
                    None => Vec::new(),
                };
                run.clock(now_ms());
                run.cleaned(left)
            }
        };
        let progress = run.progress();
        let log = run.decisions().to_vec();
        state::update(|view| {
            view.log = log;
            if let Some(v) = view.verification.as_mut() {
                v.progress = progress;
            }
        })
        .await;
    }
}

/// Opens the console of the product the page documents in the signed-in console tab, where that
/// console lives on the tab's site (`vpc.console.aliyun.com/…`, or an emulator's `/console/vpc`).
async fn prepare(setup: &RunSetup) -> Result<(), String> {
    let product = ProductConsole::of_procedure(&setup.procedure).ok_or_else(|| {
        format!(
            "the page names no console this verifier knows (title \"{}\")",
            setup.procedure.title
        )
    })?;
    let url = ConsoleSite::of_url(&setup.account.console_url).product_url(product, DEFAULT_REGION);
    note(format!("opening the {} console", product.names[0])).await;
    open_url(setup.tab, &url).await.map_err(|e| {
        format!(
            "the console tab cannot open the {} console ({url}): {e}",
            product.names[0]
        )
    })
}

/// Step mode: shows the proposal with its Thought, highlighted on the page, and waits for the
/// person; `None` when the run is stopped meanwhile.
async fn propose(tab: i32, proposed: Proposed) -> Option<Decision> {
    let observed = state::current().await.observed;
    let proposal = Proposal::of(
        proposed.action.clone(),
        proposed.reason.clone(),
        observed.as_ref().map(|o| &o.observation),
    );
    // Marks left on a page that is gone are gone with it.
    let _ = page::outline(tab, &proposal.action).await;
    state::update(|run| run.pending = Some(proposal)).await;
    let decision = wait_for_decision().await;
    let _ = page::mark(tab, false).await;
    state::update(|run| run.pending = None).await;
    decision
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

/// The person acts on the page in `tab` until handing it back; the controls they were seen to
/// click, or `None` when the run is stopped first.
async fn taken_over(tab: i32) -> Option<Vec<ClickedControl>> {
    control(|c| {
        c.handed_back = false;
        c.taken_over_tab = Some(tab);
        c.clicked.clear();
    });
    // The document already open starts recording before the panel says the page is the person's;
    // those the person opens ask when they load.
    if let Err(e) = page::record_clicks(tab, true).await {
        note(format!("the person's clicks will not be named: {e}")).await;
    }
    set_phase(Phase::TakenOver).await;
    let mut alive_at = now_ms();
    let handed_back = loop {
        if control(|c| c.stop) {
            break false;
        }
        if control(|c| std::mem::take(&mut c.handed_back)) {
            break true;
        }
        if now_ms() - alive_at > KEEP_ALIVE_EVERY_MS {
            chrome::keep_alive().await;
            alive_at = now_ms();
        }
        chrome::sleep(DECISION_POLL_MS).await;
    };
    let clicked = control(|c| {
        c.taken_over_tab = None;
        std::mem::take(&mut c.clicked)
    });
    let _ = page::record_clicks(tab, false).await;
    if !handed_back {
        return None;
    }
    set_phase(Phase::Running).await;
    note("the person handed the page back".into()).await;
    Some(clicked)
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
