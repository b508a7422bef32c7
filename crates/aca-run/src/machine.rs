//! The run as a state machine: it asks its driver for one thing at a time ([`Request`]), takes the
//! result through the matching input method, and ends with the report. It does no I/O and reads no
//! clock: the driver tells it the time ([`Run::clock`]).
//!
//! Order: provision what the page needs → open the product's console (logging on when the account
//! needs it) → the episode (observe, act, ask the model, provide a resource; in step mode each action
//! waits for the person's [`Decision`]) → ask the reward service → clean up → the report. Every way a
//! run can end, a stop and a failed driver call included, goes through clean-up to a report.

use std::collections::BTreeMap;

use aca_agent::{Episode, EpisodeError, ModelFailure, ModelRequest, Next, Policy, ResourceReport, Task, Usage};
use aca_core::{
    ActRequest, Action, ActionOutcome, ClickedControl, EventSummary, JudgesReport, Observation, Report, RuleReport, Screenshot,
    Verdict,
};
use aca_reward::ChosenRule;
use aca_reward::service::{AuditWindow, Channel, MAX_ATTRIBUTE_WINDOWS, RewardRequest, RewardResponse};

use crate::progress::Progress;
use crate::report::{self, Interruption, RunFacts};
use crate::step_mode::{Decided, Decision, PageAt, Proposed, StepRecord};

/// What a run is given when it starts.
pub struct RunPlan {
    /// The procedure and the episode's limits; what was provisioned is added when it exists.
    pub task: Task,
    pub policy: Box<dyn Policy>,
    /// What the report says about the page, the console and the policy (`duration_ms` is the run's).
    pub facts: RunFacts,
    /// The success rule the run is judged by, or why none applies.
    pub rule: Result<ChosenRule, String>,
    /// The account and region whose audit log decides.
    pub account_id: String,
    pub region: String,
    /// Each action waits for a person's [`Decision`].
    pub step_mode: bool,
    /// How long the reward service may wait for the audit log's delivery; its own default if `None`.
    pub reward_deadline_ms: Option<u64>,
}

/// What was provisioned before the episode.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Provisioned {
    /// What the agent is told exists (ids, names), when anything was made.
    pub told: Option<ResourceReport>,
    /// `${suffix}`, `${vpc_id}`, … of the run's resources.
    pub bindings: BTreeMap<String, String>,
    /// The provisioner's own users, whose calls never meet the rule.
    pub exclude_users: Vec<String>,
    /// The report's resources section.
    pub resources_text: Option<String>,
}

/// A resource the agent asked for during the episode, once it exists.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Provided {
    pub told: ResourceReport,
    /// The provisioner's users so far (the first request may have made one), whose calls never
    /// meet the rule.
    pub exclude_users: Vec<String>,
    /// The run's bindings with the new resource's.
    pub bindings: BTreeMap<String, String>,
    pub resources_text: Option<String>,
}

/// What the run asks its driver to do next.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// Create what the page needs in the account → [`Run::provisioned`].
    Provision,
    /// Open the product's console in the run's region, logging on when the account needs it, and
    /// check that it shows the run's account → [`Run::console_opened`].
    OpenConsole,
    /// Observe the console page → [`Run::observed`].
    Observe,
    /// Run this action on the page → [`Run::acted`].
    Act(ActRequest),
    /// Send this to the model → [`Run::model_replied`].
    AskModel(ModelRequest),
    /// Provide the resource described → [`Run::resource_provided`].
    ProvideResource(String),
    /// Step mode: show the proposal and wait for the person → [`Run::decide`].
    Propose(Proposed),
    /// Step mode: the person acts on the page; wait until they hand it back → [`Run::handed_back`].
    AwaitHandBack,
    /// Ask the reward service → [`Run::rewarded`].
    Reward(Box<RewardRequest>),
    /// Destroy what the run provisioned (nothing, when nothing was) → [`Run::cleaned`].
    CleanUp,
    /// The run is over.
    Finished(Box<Report>),
}

impl Request {
    /// The line a progress log shows for it, or `None` for the episode's inner requests.
    pub fn describe(&self) -> Option<String> {
        Some(match self {
            Request::Provision => "provisioning what the page needs".into(),
            Request::OpenConsole => "opening the console".into(),
            Request::ProvideResource(description) => format!("the agent asks for a resource: {description}"),
            Request::Propose(p) => format!("proposing {}", p.action.call_syntax()),
            Request::AwaitHandBack => "the person has the page: waiting for it to be handed back".into(),
            Request::Reward(r) => match &r.rule {
                Some(rule) => format!(
                    "asking the reward service about {}",
                    rule.events
                        .iter()
                        .map(|m| m.event_names().collect::<Vec<_>>().join(" or "))
                        .collect::<Vec<_>>()
                        .join(" and ")
                ),
                None => "asking the reward service: no audit event decides this task, so its judges".into(),
            },
            Request::CleanUp => "destroying the provisioned resources".into(),
            Request::Finished(report) => format!("finished: {}", report.summary),
            Request::Observe | Request::Act(_) | Request::AskModel(_) => return None,
        })
    }
}

/// What the run waits for.
#[derive(Debug)]
enum Waiting {
    Start,
    Provision,
    Console,
    /// An answer to one of the episode's requests (observation, outcome, model reply, resource).
    Episode,
    Decision {
        request: ActRequest,
        reason: String,
    },
    /// The outcome of an action; in step mode, with the proposal it came from.
    Outcome {
        approved: Option<(Action, String)>,
    },
    HandBack {
        action: Action,
        reason: String,
        before: Option<PageAt>,
        /// When the person took the page (Unix milliseconds).
        since_ms: i64,
    },
    Reward,
    CleanUp,
    Done,
}

impl Waiting {
    fn describe(&self) -> &'static str {
        match self {
            Waiting::Start => "its start",
            Waiting::Provision => "the provisioning result",
            Waiting::Console => "the console to open",
            Waiting::Episode => "the episode's input",
            Waiting::Decision { .. } => "a decision",
            Waiting::Outcome { .. } => "an action outcome",
            Waiting::HandBack { .. } => "the page to be handed back",
            Waiting::Reward => "the reward service",
            Waiting::CleanUp => "clean-up",
            Waiting::Done => "nothing (it is over)",
        }
    }
}

/// One verification run.
pub struct Run {
    plan_task: Option<Task>,
    policy: Option<Box<dyn Policy>>,
    facts: RunFacts,
    rule: Result<ChosenRule, String>,
    account_id: String,
    region: String,
    step_mode: bool,
    reward_deadline_ms: Option<u64>,

    waiting: Waiting,
    episode: Option<Episode>,
    now_ms: i64,
    started_ms: i64,
    episode_started_ms: Option<i64>,
    provisioned: Provisioned,
    /// Why the run ended before its episode could start.
    not_run: Option<String>,
    interruption: Option<Interruption>,
    stop_requested: bool,
    rule_report: Option<Result<RuleReport, String>>,
    /// The judges' answers, when they decided instead of the rule channel.
    judges: Option<JudgesReport>,
    /// Why the environment kept the reward from being decided, as a sentence.
    reward_fault: Option<String>,
    decisions: Vec<StepRecord>,
    /// The take-over record whose page afterwards the next observation fills in.
    take_over_open: Option<usize>,
    /// Each take-over's record and its stretch of the audit log, for the reward service to list.
    take_overs: Vec<(usize, AuditWindow)>,
    /// The screenshot of the last action's page, due once that page is observed (see
    /// [`Run::screenshot_due`]).
    shot_pending: Option<Screenshot>,
}

impl Run {
    /// A run that starts at `now_ms` (Unix milliseconds); [`Run::start`] gives its first request.
    pub fn new(plan: RunPlan, now_ms: i64) -> Run {
        Run {
            plan_task: Some(plan.task),
            policy: Some(plan.policy),
            facts: plan.facts,
            rule: plan.rule,
            account_id: plan.account_id,
            region: plan.region,
            step_mode: plan.step_mode,
            reward_deadline_ms: plan.reward_deadline_ms,
            waiting: Waiting::Start,
            episode: None,
            now_ms,
            started_ms: now_ms,
            episode_started_ms: None,
            provisioned: Provisioned::default(),
            not_run: None,
            interruption: None,
            stop_requested: false,
            rule_report: None,
            judges: None,
            reward_fault: None,
            decisions: Vec::new(),
            take_over_open: None,
            take_overs: Vec::new(),
            shot_pending: None,
        }
    }

    pub fn start(&mut self) -> Request {
        match self.waiting {
            Waiting::Start => {
                self.waiting = Waiting::Provision;
                Request::Provision
            }
            _ => self.unexpected("a second start"),
        }
    }

    /// The driver's clock, in Unix milliseconds; call it before each input.
    pub fn clock(&mut self, now_ms: i64) {
        self.now_ms = now_ms;
    }

    /// The episode, once it has started.
    pub fn episode(&self) -> Option<&Episode> {
        self.episode.as_ref()
    }

    /// Where the episode stands.
    pub fn progress(&self) -> Progress {
        self.episode.as_ref().map(Progress::of).unwrap_or_default()
    }

    /// Step mode: every decided proposal, oldest first.
    pub fn decisions(&self) -> &[StepRecord] {
        &self.decisions
    }

    /// The run's bindings so far.
    pub fn bindings(&self) -> &BTreeMap<String, String> {
        &self.provisioned.bindings
    }

    /// Whether the run is waiting for a person: a proposal to decide, or a page to be handed back.
    pub fn awaits_person(&self) -> bool {
        matches!(self.waiting, Waiting::Decision { .. } | Waiting::HandBack { .. })
    }

    pub fn provisioned(&mut self, result: Result<Provisioned, String>) -> Request {
        if !matches!(self.waiting, Waiting::Provision) {
            return self.unexpected("a provisioning result");
        }
        match result {
            Err(why) => {
                self.not_run = Some(format!("the resources the page needs could not be provisioned: {why}"));
                self.clean_up()
            }
            Ok(provisioned) => {
                self.provisioned = provisioned;
                self.waiting = Waiting::Console;
                Request::OpenConsole
            }
        }
    }

    pub fn console_opened(&mut self, result: Result<(), String>) -> Request {
        if !matches!(self.waiting, Waiting::Console) {
            return self.unexpected("the console's opening");
        }
        if let Err(why) = result {
            self.not_run = Some(why);
            return self.clean_up();
        }
        let (Some(mut task), Some(policy)) = (self.plan_task.take(), self.policy.take()) else {
            return self.unexpected("the console's opening");
        };
        task.resource_report = self.provisioned.told.clone();
        task.bindings = self.provisioned.bindings.clone();
        self.episode = Some(Episode::new(task, policy));
        self.episode_started_ms = Some(self.now_ms);
        self.waiting = Waiting::Episode;
        Request::Observe
    }

    pub fn observed(&mut self, result: Result<Observation, String>) -> Request {
        if !matches!(self.waiting, Waiting::Episode) {
            return self.unexpected("an observation");
        }
        let observation = match result {
            Ok(o) => o,
            Err(why) => return self.interrupt(format!("the console cannot be observed: {why}")),
        };
        let page = self.page_at(&observation);
        if let Some(at) = self.take_over_open.take()
            && let Some(StepRecord {
                decision: Decided::TakenOver { after, .. },
                ..
            }) = self.decisions.get_mut(at)
        {
            *after = Some(page);
        }
        let elapsed = (self.now_ms - self.episode_started_ms.unwrap_or(self.now_ms)).max(0) as u64;
        let Some(episode) = self.episode.as_mut() else {
            return self.unexpected("an observation");
        };
        episode.clock(elapsed);
        episode.wall_clock(self.now_ms.max(0) as u64);
        let next = episode.next(observation);
        self.follow(next)
    }

    /// A driver that keeps a screenshot of each action's page takes it here: called with the
    /// observation of the page the last action led to, before [`Run::observed`], it gives that
    /// action's screenshot to take now, so that its marks and the covers over the secrets the page
    /// shows are this observation's (taken right after the action, they were the page's before it,
    /// and a secret the action brought up went uncovered). A page that may show an authenticator's
    /// setup key or QR code, which no cover hides, gets none. Each action's screenshot is due once;
    /// a run that ends before observing its last action's page takes none of it.
    pub fn screenshot_due(&mut self, observation: &Observation) -> Option<Screenshot> {
        let shot = self.shot_pending.take()?;
        (!aca_agent::authenticator::may_show_secret(observation)).then_some(shot)
    }

    pub fn acted(&mut self, outcome: ActionOutcome) -> Request {
        if !matches!(self.waiting, Waiting::Outcome { .. }) {
            return self.unexpected("an action outcome");
        }
        let turn = self
            .episode()
            .map_or(0, |e| e.trajectory().turns.len().saturating_sub(1));
        self.shot_pending = Some(Screenshot {
            turn,
            step: self.progress().step_number,
            path: format!("shots/{:03}.png", turn + 1),
        });
        let Waiting::Outcome { approved } = std::mem::replace(&mut self.waiting, Waiting::Episode) else {
            return self.unexpected("an action outcome");
        };
        if let Some((action, reason)) = approved {
            self.record(
                action,
                reason,
                Decided::Ran {
                    outcome: outcome.clone(),
                },
            );
        }
        let next = self.episode_mut().outcome(outcome);
        self.follow(next)
    }

    pub fn model_replied(&mut self, result: Result<(String, Usage), ModelFailure>) -> Request {
        if !matches!(self.waiting, Waiting::Episode) {
            return self.unexpected("a model reply");
        }
        match result {
            Ok((text, usage)) => {
                let next = self.episode_mut().model_reply(&text, usage);
                self.follow(next)
            }
            Err(ModelFailure::Refused(why)) => {
                let next = self.episode_mut().model_refused(&why);
                self.follow(next)
            }
            Err(ModelFailure::Unavailable(why)) => self.interrupt(format!("the model failed: {why}")),
        }
    }

    pub fn resource_provided(&mut self, result: Result<Provided, String>) -> Request {
        if !matches!(self.waiting, Waiting::Episode) {
            return self.unexpected("a provided resource");
        }
        let next = match result {
            Ok(provided) => {
                for user in provided.exclude_users {
                    if !self.provisioned.exclude_users.contains(&user) {
                        self.provisioned.exclude_users.push(user);
                    }
                }
                self.provisioned.bindings = provided.bindings;
                self.provisioned.told = Some(provided.told.clone());
                if provided.resources_text.is_some() {
                    self.provisioned.resources_text = provided.resources_text;
                }
                self.episode_mut().resource_report(provided.told)
            }
            Err(why) => self.episode_mut().resource_unavailable(&why),
        };
        self.follow(next)
    }

    /// Step mode: the person's decision on the proposal.
    pub fn decide(&mut self, decision: Decision) -> Request {
        if !matches!(self.waiting, Waiting::Decision { .. }) {
            return self.unexpected("a decision");
        }
        let Waiting::Decision { mut request, reason } = std::mem::replace(&mut self.waiting, Waiting::Episode) else {
            return self.unexpected("a decision");
        };
        let proposed = Action::Gui(request.action.clone());
        match decision {
            Decision::Approve => {
                self.waiting = Waiting::Outcome {
                    approved: Some((proposed, reason)),
                };
                Request::Act(request)
            }
            Decision::Skip => {
                self.record(
                    proposed,
                    reason,
                    Decided::Skipped,
                );
                let next = self.episode_mut().outcome(ActionOutcome::Skipped);
                self.follow(next)
            }
            Decision::TakeOver => {
                let before = self.episode.as_ref().map(|e| self.page_at(e.observation()));
                self.waiting = Waiting::HandBack {
                    action: proposed,
                    reason,
                    before,
                    since_ms: self.now_ms,
                };
                Request::AwaitHandBack
            }
            Decision::Edit {
                action: Action::Gui(edited),
                reason: why,
            } => {
                self.record(
                    proposed,
                    reason.clone(),
                    Decided::Edited,
                );
                request.fingerprint = edited
                    .index()
                    .and_then(|i| self.episode.as_ref()?.observation().element(i))
                    .map(|e| e.fingerprint.clone());
                request.action = edited.clone();
                if let Err(e) = self.episode_mut().edit_action(edited) {
                    return self.refused(e);
                }
                self.propose(request, if why.is_empty() { reason } else { why })
            }
            // The agent decides when the task is complete: an edit must be a page action.
            Decision::Edit { .. } => self.propose(request, reason),
        }
    }

    /// Step mode: the person who took over hands the page back, with the controls they were seen
    /// to click (none where the runtime cannot see them); the next observation shows the page.
    pub fn handed_back(&mut self, clicked: Vec<ClickedControl>) -> Request {
        if !matches!(self.waiting, Waiting::HandBack { .. }) {
            return self.unexpected("a hand-back");
        }
        let Waiting::HandBack {
            action,
            reason,
            before,
            since_ms,
        } = std::mem::replace(&mut self.waiting, Waiting::Episode)
        else {
            return self.unexpected("a hand-back");
        };
        self.record(
            action,
            reason,
            Decided::TakenOver {
                before,
                clicked: clicked.clone(),
                after: None,
                events: Vec::new(),
            },
        );
        self.take_over_open = Some(self.decisions.len() - 1);
        self.take_overs.push((
            self.decisions.len() - 1,
            AuditWindow {
                start_ms: since_ms,
                end_ms: Some(self.now_ms),
            },
        ));
        let next = self.episode_mut().outcome(ActionOutcome::TakenOver { clicked });
        self.follow(next)
    }

    /// The person stops the run: nothing more runs on the page, the audit log is not read, and what
    /// was provisioned is destroyed. The driver drops whatever answer it was waiting for.
    pub fn stop(&mut self) -> Request {
        match self.waiting {
            Waiting::Start | Waiting::Provision | Waiting::Console => {
                self.stop_requested = true;
                self.not_run = Some("stopped by the person before the episode started".into());
                self.clean_up()
            }
            Waiting::Episode
            | Waiting::Decision { .. }
            | Waiting::Outcome { .. }
            | Waiting::HandBack { .. }
            | Waiting::Reward => {
                let at_turn = self.episode.as_ref().map_or(0, |e| e.trajectory().turns.len());
                self.interruption = Some(Interruption::Stopped { at_turn });
                self.reward()
            }
            // Clean-up still has to happen; a stop cannot skip it.
            Waiting::CleanUp => Request::CleanUp,
            Waiting::Done => self.unexpected("a stop"),
        }
    }

    pub fn rewarded(&mut self, result: Result<RewardResponse, String>) -> Request {
        if !matches!(self.waiting, Waiting::Reward) {
            return self.unexpected("a reward");
        }
        let chosen = match &self.rule {
            Ok(chosen) => chosen.clone(),
            Err(no_rule) => {
                // The judges' route: the rule channel had nothing to decide with.
                match result {
                    Ok(decided) if decided.channel == Channel::Judges => {
                        self.reward_fault = decided
                            .environment_fault()
                            .map(|f| format!("the judges could not decide: {f}"));
                        self.judges = decided.judges;
                    }
                    Ok(_) => {}
                    Err(why) => self.reward_fault = Some(format!("the reward service failed: {why}")),
                }
                self.rule_report = Some(Err(no_rule.clone()));
                return self.clean_up();
            }
        };
        let report = match result {
            Ok(decided) => {
                self.attribute(&decided.attributed);
                self.reward_fault = decided
                    .environment_fault()
                    .map(|f| format!("the audit log could not be read: {f}"));
                let mut report = decided.rule.unwrap_or_else(|| chosen.report(Err(&decided.reason), 0));
                if report.explanation.is_none() {
                    report.explanation = chosen.explanation.clone();
                }
                report
            }
            Err(why) => {
                let why = format!("the reward service failed: {why}");
                let report = chosen.report(Err(&why), 0);
                self.reward_fault = Some(format!("the audit log could not be read: {why}"));
                report
            }
        };
        self.rule_report = Some(Ok(report));
        self.clean_up()
    }

    /// Records the events the reward service listed for each take-over with its record.
    fn attribute(&mut self, attributed: &[Vec<EventSummary>]) {
        for ((at, _), listed) in self.take_overs.iter().zip(attributed) {
            if let Some(StepRecord {
                decision: Decided::TakenOver { events, .. },
                ..
            }) = self.decisions.get_mut(*at)
            {
                events.clone_from(listed);
            }
        }
    }

    /// What clean-up could not destroy (empty when everything is gone).
    pub fn cleaned(&mut self, left: Vec<String>) -> Request {
        if !matches!(self.waiting, Waiting::CleanUp) {
            return self.unexpected("a clean-up result");
        }
        self.waiting = Waiting::Done;
        let mut facts = self.facts.clone();
        facts.duration_ms = (self.now_ms - self.started_ms).max(0) as u64;
        let mut report = match (&self.not_run, &self.episode) {
            (None, Some(episode)) => report::build(
                episode,
                self.rule_report.clone().unwrap_or_else(|| {
                    self.rule
                        .clone()
                        .map(|c| c.report(Err("the audit log was not read"), 0))
                }),
                self.judges.clone(),
                self.reward_fault.as_deref(),
                self.interruption.clone(),
                facts,
            ),
            (not_run, _) => {
                let why = not_run.clone().unwrap_or_else(|| "the episode never started".into());
                let mut report = report::not_run(&self.facts.title, why, facts);
                if self.stop_requested {
                    report.verdict = Verdict::Unverified;
                }
                report
            }
        };
        report.resources = self.provisioned.resources_text.clone().or_else(|| {
            self.provisioned
                .told
                .as_ref()
                .map(|t| t.text.clone())
                .filter(|t| !t.is_empty())
        });
        report.decisions = self.decisions.clone();
        if !left.is_empty() {
            report.add_failure(format!("cleanup left resources behind: {}", left.join("; ")));
        }
        report.summary = report::summary(&report);
        Request::Finished(Box::new(report))
    }

    /// Keeps a step-mode decision, with text typed into a password box masked as the trajectory
    /// masks it: the record reaches the report.
    fn record(&mut self, action: Action, reason: String, decision: Decided) {
        let (action, reason) = match &self.episode {
            Some(episode) => episode.masked_for_record(&action, &reason),
            None => (action, reason),
        };
        self.decisions.push(StepRecord {
            action,
            reason,
            decision,
        });
    }

    fn episode_mut(&mut self) -> &mut Episode {
        self.episode
            .as_mut()
            .expect("the episode exists in every state that feeds it")
    }

    fn page_at(&self, observation: &Observation) -> PageAt {
        PageAt {
            url: observation.url.clone(),
            title: observation.title.clone(),
            turn: self.episode.as_ref().map_or(0, |e| e.trajectory().turns.len()),
        }
    }

    /// The episode's answer, as the next request.
    fn follow(&mut self, next: Result<Next, EpisodeError>) -> Request {
        match next {
            Ok(Next::Observe) => {
                self.waiting = Waiting::Episode;
                Request::Observe
            }
            Ok(Next::Act(request)) if self.step_mode => {
                let progress = self.progress();
                let reason = progress
                    .thought
                    .as_ref()
                    .map(|t| t.next_goal.clone())
                    .filter(|g| !g.is_empty())
                    .unwrap_or_else(|| progress.headline());
                self.propose(request, reason)
            }
            Ok(Next::Act(request)) => {
                self.waiting = Waiting::Outcome { approved: None };
                Request::Act(request)
            }
            Ok(Next::AskModel(request)) => {
                self.waiting = Waiting::Episode;
                Request::AskModel(request)
            }
            Ok(Next::Provision(description)) => {
                self.waiting = Waiting::Episode;
                Request::ProvideResource(description)
            }
            Ok(Next::Finished(_)) => self.reward(),
            Err(e) => self.refused(e),
        }
    }

    fn propose(&mut self, request: ActRequest, reason: String) -> Request {
        let proposed = Proposed {
            action: Action::Gui(request.action.clone()),
            reason: reason.clone(),
        };
        self.waiting = Waiting::Decision { request, reason };
        Request::Propose(proposed)
    }

    fn refused(&mut self, e: EpisodeError) -> Request {
        self.interrupt(format!("the episode refused its input: {e}"))
    }

    /// The episode cannot go on (the browser, the page side or the model failed).
    fn interrupt(&mut self, why: String) -> Request {
        self.interruption = Some(Interruption::Failed(why));
        self.reward()
    }

    /// The episode is over: ask the reward service, unless there is nothing to ask.
    fn reward(&mut self) -> Request {
        if matches!(self.interruption, Some(Interruption::Stopped { .. })) {
            self.rule_report = Some(
                self.rule
                    .clone()
                    .map(|c| c.report(Err("the audit log was not read: the run was stopped"), 0)),
            );
            return self.clean_up();
        }
        // Without a rule the reward service routes the run to its judges, given the trajectory.
        let (rule, procedure, judge_case) = match (&self.rule, &self.episode) {
            (Ok(chosen), _) => (Some(chosen.rule.clone()), None, None),
            (Err(_), Some(episode)) => (
                None,
                Some(episode.task().procedure.clone()),
                Some(report::judge_case(episode)),
            ),
            (Err(why), None) => {
                self.rule_report = Some(Err(why.clone()));
                return self.clean_up();
            }
        };
        self.waiting = Waiting::Reward;
        Request::Reward(Box::new(RewardRequest {
            account_id: self.account_id.clone(),
            region: self.region.clone(),
            window: AuditWindow::of_run(self.episode_started_ms.unwrap_or(self.started_ms)),
            rule,
            procedure,
            bindings: self.provisioned.bindings.clone(),
            exclude_users: self.provisioned.exclude_users.clone(),
            deadline_ms: self.reward_deadline_ms,
            judge_case,
            // The reward service reads at most so many stretches; later take-overs go unlisted.
            attribute: self
                .take_overs
                .iter()
                .take(MAX_ATTRIBUTE_WINDOWS)
                .map(|(_, window)| *window)
                .collect(),
        }))
    }

    fn clean_up(&mut self) -> Request {
        self.waiting = Waiting::CleanUp;
        Request::CleanUp
    }

    /// An input the run was not waiting for: the driver is wrong. The run ends through clean-up
    /// with the mismatch as its failure, never a panic.
    fn unexpected(&mut self, got: &str) -> Request {
        let why = format!(
            "the run's driver gave {got} while the run waited for {}",
            self.waiting.describe()
        );
        match self.waiting {
            Waiting::Done => Request::Finished(Box::new(report::not_run(&self.facts.title, why, self.facts.clone()))),
            Waiting::CleanUp => Request::CleanUp,
            _ if self.episode.is_some() => {
                self.interruption = Some(Interruption::Failed(why));
                self.clean_up()
            }
            _ => {
                self.not_run = Some(why);
                self.clean_up()
            }
        }
    }
}
