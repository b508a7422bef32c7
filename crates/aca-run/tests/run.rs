//! The run state machine driven by hand, as a driver would: the order of its requests, the report it
//! ends with, step-mode decisions recorded as what happened, and every failure ending in clean-up.

use std::collections::BTreeMap;

use aca_agent::policy::{Context, Decision as PolicyDecision, Grounding, Proposal, StepEvent};
use aca_agent::{Policy, ResourceReport, Task};
use aca_core::{
    ActionOutcome, ClickedControl, ConsoleRun, DefectKind, Report, ControlAction, Element, ElementState, Fingerprint, GuiAction, Observation, Role,
    RuleReport, Thought, Verdict,
};
use aca_reward::ChosenRule;
use aca_reward::service::{AuditWindow, RewardResponse};
use aca_run::{Decided, Decision, Provisioned, Request, Run, RunFacts, RunPlan};

const PAGE: &str = "# Create a VPC\n\n## Procedure\n\n\
    1. Log on to the **VPC console**.\n\
    2. On the **VPCs** page, click **Create VPC**.\n\
    3. Click **OK**.\n";

/// Clicks one element per turn (1, 2, 3, …) until every documented step is done, then says the task
/// is complete.
struct Clicker;

impl Policy for Clicker {
    fn propose(&mut self, ctx: &Context<'_>) -> Proposal {
        let done = ctx
            .trajectory
            .turns
            .iter()
            .filter(|t| t.outcome.as_ref().is_some_and(|o| o.succeeded()))
            .count();
        let mut events: Vec<StepEvent> = Vec::new();
        if done > 0 {
            events.push(StepEvent::Done {
                step: done - 1,
                note: None,
            });
        }
        let thought = Thought {
            progress: format!("{done} step(s) done"),
            observation: ctx.observation.title.clone(),
            next_goal: format!("do step {}", done + 1),
        };
        let (action, step) = if done < ctx.steps.len() {
            let index = ctx.trajectory.turns.len() as u32 + 1;
            (aca_core::Action::Gui(GuiAction::Click { index }), Some(done))
        } else {
            (
                aca_core::Action::Control(ControlAction::TaskComplete { summary: "done".into() }),
                None,
            )
        };
        let mut decision = PolicyDecision::new(thought, action, step);
        decision.grounding = step.map(|_| Grounding {
            as_written: true,
            finding: None,
        });
        decision.events = events;
        Proposal::Act(Box::new(decision))
    }
}

fn element(index: u32, name: &str) -> Element {
    Element {
        index,
        role: Role::Button,
        name: name.into(),
        value: None,
        state: ElementState::default(),
        places: Vec::new(),
        option_of: None,
        is_new: false,
        hint: None,
        rect: None,
        fingerprint: Fingerprint {
            role: Some(Role::Button),
            name: name.into(),
            path: format!("div#app>button[{index}]"),
            neighbours: Vec::new(),
        },
    }
}

fn page(url: &str) -> Observation {
    Observation {
        url: url.into(),
        title: "VPCs".into(),
        elements: ["Create VPC", "OK", "Cancel", "Refresh", "Next", "Back"]
            .iter()
            .zip(1..)
            .map(|(name, index)| element(index, name))
            .collect(),
        ..Observation::default()
    }
}

/// A page showing elements named `names` (indices 1, 2, …).
fn page_with(url: &str, names: &[&str]) -> Observation {
    Observation {
        url: url.into(),
        title: "VPCs".into(),
        elements: names.iter().zip(1..).map(|(name, index)| element(index, name)).collect(),
        ..Observation::default()
    }
}

fn rule() -> ChosenRule {
    ChosenRule {
        rule: serde_json::from_str(r#"{"events":[{"event_name":"CreateVpc"}]}"#).unwrap(),
        explanation: Some("the title names creating a VPC".into()),
    }
}

fn plan(step_mode: bool) -> RunPlan {
    RunPlan {
        task: Task::new(aca_docs::parse_markdown(PAGE).unwrap()),
        policy: Box::new(Clicker),
        facts: RunFacts {
            page: "https://help.example/vpc/create-vpc.html".into(),
            title: "Create a VPC".into(),
            written_for: None,
            console: ConsoleRun {
                url: "https://vpc.console.aliyun.com".into(),
                profile: None,
                account: Some("writer@example".into()),
                region: "cn-hangzhou".into(),
            },
            policy: "test".into(),
            started_at: "2026-12-02T01:00:00Z".into(),
            duration_ms: 0,
        },
        rule: Ok(rule()),
        account_id: "1234".into(),
        region: "cn-hangzhou".into(),
        step_mode,
        reward_deadline_ms: Some(2_000),
    }
}

fn provisioned() -> Provisioned {
    Provisioned {
        told: Some(ResourceReport {
            text: "vSwitch vsw-1 exists".into(),
            names: vec!["vsw-1".into()],
            secrets: Vec::new(),
        }),
        bindings: BTreeMap::from([("suffix".to_owned(), "a1b2".to_owned())]),
        exclude_users: vec!["aca-provisioner-a1b2".into()],
        resources_text: Some("vSwitch vsw-1".into()),
    }
}

fn met() -> RewardResponse {
    let mut report: RuleReport = rule().report(Err("unused"), 10);
    report.matched = Some(true);
    report.error = None;
    report.explanation = None;
    RewardResponse::of_rule(report)
}

/// Starts a run and opens its console at `t0`: the first request of the episode.
fn started(run: &mut Run, t0: i64) -> Request {
    assert_eq!(run.start(), Request::Provision);
    assert_eq!(run.provisioned(Ok(provisioned())), Request::OpenConsole);
    run.clock(t0);
    run.console_opened(Ok(()))
}

fn finished(request: Request) -> aca_core::Report {
    match request {
        Request::Finished(report) => *report,
        other => panic!("the run did not finish: {other:?}"),
    }
}

#[test]
fn a_run_asks_in_order_and_ends_with_one_report() {
    let mut run = Run::new(plan(false), 1_000);
    assert_eq!(started(&mut run, 5_000), Request::Observe);
    let mut request = run.observed(Ok(page("https://vpc.console.aliyun.com/vpc")));
    let mut acted = 0u32;
    let reward = loop {
        request = match request {
            Request::Act(act) => {
                acted += 1;
                assert_eq!(act.action, GuiAction::Click { index: acted });
                run.acted(ActionOutcome::Done { reresolved: false })
            }
            Request::Observe => run.observed(Ok(page("https://vpc.console.aliyun.com/vpc"))),
            Request::Reward(reward) => break reward,
            other => panic!("unexpected {other:?}"),
        };
    };
    assert_eq!(acted as usize, run.episode().unwrap().steps().len());
    assert_eq!(
        reward.window.start_ms, 4_000,
        "the window opens when the episode starts, less the slack"
    );
    assert_eq!(reward.account_id, "1234");
    assert_eq!(reward.bindings.get("suffix").map(String::as_str), Some("a1b2"));
    assert_eq!(reward.exclude_users, vec!["aca-provisioner-a1b2".to_owned()]);
    assert_eq!(reward.deadline_ms, Some(2_000));
    assert_eq!(
        Request::Reward(reward.clone()).describe().as_deref(),
        Some("asking the reward service about CreateVpc")
    );
    assert_eq!(run.rewarded(Ok(met())), Request::CleanUp);
    run.clock(9_000);
    let report = finished(run.cleaned(Vec::new()));
    assert_eq!(report.verdict, Verdict::Pass, "{report:#?}");
    assert_eq!(report.duration_ms, 8_000);
    assert_eq!(report.resources.as_deref(), Some("vSwitch vsw-1"));
    assert_eq!(report.steps.len(), 3);
    let rule = report.rule.as_ref().unwrap();
    assert_eq!(rule.matched, Some(true));
    assert_eq!(
        rule.explanation.as_deref(),
        Some("the title names creating a VPC"),
        "the rule's explanation survives a reward service that does not echo it"
    );
    assert!(
        report.summary.starts_with("The procedure ran as written"),
        "{}",
        report.summary
    );
}

#[test]
fn a_take_over_is_recorded_with_the_events_the_audit_log_shows_for_it() {
    let mut run = Run::new(plan(true), 0);
    assert_eq!(started(&mut run, 10), Request::Observe);
    let mut request = run.observed(Ok(page("https://c/vpc")));
    let mut took_over = false;
    let reward = loop {
        request = match request {
            Request::Propose(_) if !took_over => {
                took_over = true;
                run.clock(20_000);
                assert_eq!(run.decide(Decision::TakeOver), Request::AwaitHandBack);
                run.clock(35_000);
                run.handed_back(Vec::new())
            }
            Request::Propose(_) => run.decide(Decision::Approve),
            Request::Act(_) => run.acted(ActionOutcome::Done { reresolved: false }),
            Request::Observe => run.observed(Ok(page("https://c/vpc"))),
            Request::Reward(reward) => break reward,
            other => panic!("unexpected {other:?}"),
        };
    };
    assert_eq!(
        reward.attribute,
        [AuditWindow {
            start_ms: 20_000,
            end_ms: Some(35_000)
        }],
        "the reward service is asked what the person's stretch of the run recorded"
    );
    let mut decided = met();
    let event = aca_core::EventSummary {
        event_id: "e-1".into(),
        event_name: "CreateVpc".into(),
        service_name: "Vpc".into(),
        event_type: "ConsoleOperation".into(),
        event_time: "2026-12-06T10:00:30Z".into(),
    };
    decided.attributed = vec![vec![event.clone()]];
    assert_eq!(run.rewarded(Ok(decided)), Request::CleanUp);
    let taken = run
        .decisions()
        .iter()
        .find_map(|d| match &d.decision {
            Decided::TakenOver { events, .. } => Some(events.clone()),
            _ => None,
        })
        .expect("the take-over is recorded");
    assert_eq!(taken, std::slice::from_ref(&event));
    let report = finished(run.cleaned(Vec::new()));
    assert_eq!(report.decisions, run.decisions(), "the report carries what the person decided");
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["decisions"][0]["decision"]["decided"], "taken_over");
    assert_eq!(json["decisions"][0]["decision"]["events"][0]["event_name"], "CreateVpc");
}

#[test]
fn step_mode_records_what_really_happened() {
    let mut run = Run::new(plan(true), 0);
    assert_eq!(started(&mut run, 10), Request::Observe);
    let Request::Propose(first) = run.observed(Ok(page("https://c/vpc"))) else {
        panic!("no proposal");
    };
    assert_eq!(first.action.call_syntax(), "click(1)");
    assert_eq!(first.reason, "do step 1");
    assert!(run.awaits_person());

    // Edit: the person picks element 2; that is what is proposed, performed and recorded.
    let edited = run.decide(Decision::Edit {
        action: aca_core::Action::Gui(GuiAction::Click { index: 2 }),
        reason: "the OK button".into(),
    });
    let Request::Propose(second) = edited else {
        panic!("the edit is not proposed again: {edited:?}");
    };
    assert_eq!(second.action.call_syntax(), "click(2)");
    assert_eq!(second.reason, "the OK button");
    let Request::Act(act) = run.decide(Decision::Approve) else {
        panic!("an approval runs the action");
    };
    assert_eq!(act.action, GuiAction::Click { index: 2 });
    assert_eq!(act.fingerprint.as_ref().map(|f| f.name.as_str()), Some("OK"));
    assert_eq!(run.acted(ActionOutcome::Done { reresolved: false }), Request::Observe);
    assert_eq!(
        run.episode().unwrap().trajectory().turns[0].action.call_syntax(),
        "click(2)",
        "the trajectory holds the performed action"
    );

    // Skip: nothing runs and no attempt is counted against the step.
    let next = run.observed(Ok(page("https://c/vpc")));
    assert!(matches!(next, Request::Propose(_)), "{next:?}");
    assert_eq!(run.decide(Decision::Skip), Request::Observe);
    assert!(
        run.episode().unwrap().records().iter().all(|r| r.attempts == 0),
        "a skip is no failed attempt: {:?}",
        run.episode().unwrap().records()
    );

    // Take over: the run waits for the page to come back; the record says where it was and went.
    let next = run.observed(Ok(page("https://c/vpc")));
    assert!(matches!(next, Request::Propose(_)), "{next:?}");
    assert_eq!(run.decide(Decision::TakeOver), Request::AwaitHandBack);
    assert!(run.awaits_person());
    assert_eq!(run.handed_back(Vec::new()), Request::Observe);
    assert!(matches!(
        run.observed(Ok(page("https://c/vpc/detail"))),
        Request::Propose(_)
    ));

    let decided: Vec<&Decided> = run.decisions().iter().map(|d| &d.decision).collect();
    assert!(matches!(decided[0], Decided::Edited), "{decided:?}");
    assert!(matches!(decided[1], Decided::Ran { .. }), "{decided:?}");
    assert!(matches!(decided[2], Decided::Skipped), "{decided:?}");
    let Decided::TakenOver {
        before: Some(before),
        after: Some(after),
        ..
    } = decided[3]
    else {
        panic!("the take-over does not say where the page was: {decided:?}");
    };
    assert_eq!(before.url, "https://c/vpc");
    assert_eq!(after.url, "https://c/vpc/detail");
    assert_eq!(run.decisions()[0].action.call_syntax(), "click(1)");

    // Stop while a proposal waits: the audit log is not read, the resources are still destroyed.
    assert_eq!(run.stop(), Request::CleanUp);
    let report = finished(run.cleaned(Vec::new()));
    assert_eq!(report.verdict, Verdict::Unverified);
    assert!(
        report
            .summary
            .starts_with("Nothing was verified: the run was stopped by the person")
    );
    assert_eq!(
        report.rule.as_ref().and_then(|r| r.error.as_deref()),
        Some("the audit log was not read: the run was stopped")
    );
}

#[test]
fn a_step_the_person_took_over_is_graded_from_the_pages_before_and_after() {
    let report = took_over_step_2(Vec::new());

    let step = &report.steps[1].grade;
    assert_eq!(step.step, "2");
    assert!(
        step.note.as_deref().unwrap_or_default().contains("the person, who took over"),
        "{step:?}"
    );
    let defect = report
        .defects
        .iter()
        .find(|d| d.step == "2")
        .unwrap_or_else(|| panic!("the taken-over step is not graded: {:#?}", report.defects));
    assert_eq!(defect.documented, "Create VPC");
    assert!(defect.evidence.elements[0].contains("the person took over"), "{defect:?}");
    assert_eq!(defect.evidence.turn, Some(2));
}

/// A run of the plan whose step 2 names "Create VPC" on a console that shows "Add VPC": the person
/// takes step 2 over (clicking `clicked`, as far as the runtime saw), the rest runs as proposed.
fn took_over_step_2(clicked: Vec<ClickedControl>) -> Report {
    let mut run = Run::new(plan(true), 0);
    assert_eq!(started(&mut run, 10), Request::Observe);
    // Step 1 as proposed.
    assert!(matches!(run.observed(Ok(page("https://c/vpc"))), Request::Propose(_)));
    assert!(matches!(run.decide(Decision::Approve), Request::Act(_)));
    assert_eq!(run.acted(ActionOutcome::Done { reresolved: false }), Request::Observe);
    // Step 2 names "Create VPC", which this console does not show: the person does it instead.
    let without = page_with("https://c/vpc", &["Add VPC", "Refresh", "Next"]);
    assert!(matches!(run.observed(Ok(without)), Request::Propose(_)));
    assert_eq!(run.decide(Decision::TakeOver), Request::AwaitHandBack);
    assert_eq!(run.handed_back(clicked), Request::Observe);
    // Step 3 as proposed on the page the person left, then the end.
    assert!(matches!(
        run.observed(Ok(page_with("https://c/vpc/new", &["Name", "CIDR", "OK"]))),
        Request::Propose(_)
    ));
    assert!(matches!(run.decide(Decision::Approve), Request::Act(_)));
    assert_eq!(run.acted(ActionOutcome::Done { reresolved: false }), Request::Observe);
    let mut next = run.observed(Ok(page("https://c/vpc")));
    let next = loop {
        next = match next {
            Request::Propose(_) => run.decide(Decision::Approve),
            Request::Act(_) => {
                assert_eq!(run.acted(ActionOutcome::Done { reresolved: false }), Request::Observe);
                run.observed(Ok(page("https://c/vpc")))
            }
            other => break other,
        };
    };
    let Request::Reward(_) = next else {
        panic!("the run does not ask for its reward: {next:?}");
    };
    assert_eq!(run.rewarded(Ok(met())), Request::CleanUp);
    finished(run.cleaned(Vec::new()))
}

#[test]
fn the_control_the_person_clicked_in_a_take_over_is_named_in_the_defect_and_the_decision() {
    let report = took_over_step_2(vec![ClickedControl {
        role: Role::Button,
        name: "Add VPC".into(),
    }]);
    let defect = report.defects.iter().find(|d| d.step == "2").expect("the taken-over step's defect");
    assert_eq!(
        (defect.kind, defect.documented.as_str(), defect.observed.as_str()),
        (DefectKind::RenamedLabel, "Create VPC", "Add VPC")
    );
    assert!(
        defect.evidence.elements.iter().any(|e| e == "the person clicked button \"Add VPC\""),
        "{defect:?}"
    );
    let words: Vec<String> = report.decisions.iter().map(|d| d.decision.in_words()).collect();
    assert!(
        words.iter().any(|w| w.starts_with("taken over by hand: clicked button \"Add VPC\"")),
        "{words:?}"
    );
}

#[test]
fn every_failure_is_said_and_goes_through_clean_up() {
    // Provisioning failed: nothing ran; whatever it left is said.
    let mut run = Run::new(plan(false), 0);
    run.start();
    assert_eq!(run.provisioned(Err("quota exceeded".into())), Request::CleanUp);
    let report = finished(run.cleaned(vec!["vpc-9 (CreateVpc half done)".into()]));
    assert_eq!(report.verdict, Verdict::EnvironmentFailure);
    let failure = report.failure.unwrap();
    assert!(
        failure.contains("could not be provisioned: quota exceeded"),
        "{failure}"
    );
    assert!(failure.contains("cleanup left resources behind: vpc-9"), "{failure}");

    // The console could not be opened (not signed in).
    let mut run = Run::new(plan(false), 0);
    run.start();
    run.provisioned(Ok(provisioned()));
    assert_eq!(
        run.console_opened(Err("the browser is not signed in to the console".into())),
        Request::CleanUp
    );
    let report = finished(run.cleaned(Vec::new()));
    assert_eq!(report.verdict, Verdict::EnvironmentFailure);
    assert_eq!(
        report.summary,
        "The run could not be carried out: the browser is not signed in to the console"
    );

    // The page cannot be observed, then the reward service is down: the environment failed.
    let mut run = Run::new(plan(false), 0);
    assert_eq!(started(&mut run, 0), Request::Observe);
    let Request::Reward(_) = run.observed(Err("the tab was closed".into())) else {
        panic!("a broken episode still asks for the reward");
    };
    assert_eq!(run.rewarded(Err("connection refused".into())), Request::CleanUp);
    let report = finished(run.cleaned(Vec::new()));
    assert_eq!(report.verdict, Verdict::EnvironmentFailure, "{report:#?}");
    let failure = report.failure.unwrap();
    assert!(
        failure.contains("the console cannot be observed: the tab was closed"),
        "{failure}"
    );
    assert!(
        failure.contains("the reward service failed: connection refused"),
        "{failure}"
    );
}

#[test]
fn an_input_out_of_turn_ends_the_run_without_a_panic() {
    let mut run = Run::new(plan(false), 0);
    run.start();
    assert_eq!(run.acted(ActionOutcome::Done { reresolved: false }), Request::CleanUp);
    let report = finished(run.cleaned(Vec::new()));
    assert_eq!(report.verdict, Verdict::EnvironmentFailure);
    assert!(
        report
            .failure
            .unwrap()
            .contains("gave an action outcome while the run waited for the provisioning result")
    );
    let mut done = Run::new(plan(false), 0);
    done.start();
    done.provisioned(Err("x".into()));
    done.cleaned(Vec::new());
    assert!(matches!(done.decide(Decision::Approve), Request::Finished(_)));
}

#[test]
fn a_service_that_fails_mid_episode_is_the_environments_fault_not_the_pages() {
    // Step 1 is done, then the console goes away; the audit log is read and holds no CreateVpc.
    let mut run = Run::new(plan(false), 0);
    assert_eq!(started(&mut run, 0), Request::Observe);
    let Request::Act(_) = run.observed(Ok(page("https://vpc.console.aliyun.com/vpc"))) else {
        panic!("no first action");
    };
    assert_eq!(run.acted(ActionOutcome::Done { reresolved: false }), Request::Observe);
    let Request::Reward(_) = run.observed(Err("net::ERR_CONNECTION_REFUSED".into())) else {
        panic!("a broken episode still asks for the reward");
    };
    let mut not_met: RewardResponse = met();
    if let Some(rule) = not_met.rule.as_mut() {
        rule.matched = Some(false);
    }
    not_met.outcome = aca_reward::service::Outcome::NotMet;
    not_met.reward = Some(0.0);
    assert_eq!(run.rewarded(Ok(not_met)), Request::CleanUp);
    let report = finished(run.cleaned(Vec::new()));
    assert_eq!(report.verdict, Verdict::EnvironmentFailure, "{report:#?}");
    assert!(report.defects.is_empty(), "no defect is said of an unfinished run: {:?}", report.defects);
    assert!(
        report.summary.contains("the console cannot be observed: net::ERR_CONNECTION_REFUSED"),
        "{}",
        report.summary
    );
}

#[test]
fn a_password_the_person_types_in_step_mode_is_masked_in_the_report() {
    let mut run = Run::new(plan(true), 0);
    assert_eq!(started(&mut run, 10), Request::Observe);
    let mut with_password = page("https://c/ram/users");
    let password = with_password.elements.len() as u32 + 1;
    let mut field = element(password, "Password");
    field.role = Role::Textbox;
    field.state.secret = true;
    with_password.elements.push(field);
    let Request::Propose(_) = run.observed(Ok(with_password.clone())) else {
        panic!("no proposal");
    };
    let typed = run.decide(Decision::Edit {
        action: aca_core::Action::Gui(GuiAction::Type {
            index: password,
            text: "hunter2-Secret".into(),
            submit: false,
        }),
        reason: "type hunter2-Secret as the password".into(),
    });
    let Request::Propose(_) = typed else {
        panic!("the edit is not proposed again: {typed:?}");
    };
    let mut request = run.decide(Decision::Approve);
    let report = loop {
        request = match request {
            Request::Act(_) => run.acted(ActionOutcome::Done { reresolved: false }),
            Request::Observe => run.observed(Ok(with_password.clone())),
            Request::Propose(_) => run.stop(),
            Request::Reward(_) => run.rewarded(Ok(met())),
            Request::CleanUp => run.cleaned(Vec::new()),
            Request::Finished(report) => break *report,
            other => panic!("unexpected {other:?}"),
        };
    };
    let json = serde_json::to_string(&report).unwrap();
    assert!(!json.contains("hunter2-Secret"), "the typed password reached the report: {json}");
    assert!(
        report.decisions.iter().any(|d| matches!(d.decision, Decided::Ran { .. })),
        "the typing is recorded: {:?}",
        report.decisions
    );
}

#[test]
fn an_actions_screenshot_is_due_once_its_page_is_observed_and_never_of_a_page_asking_for_mfa_codes() {
    let mut run = Run::new(plan(false), 1_000);
    assert_eq!(started(&mut run, 5_000), Request::Observe);
    let first = page("https://vpc.console.aliyun.com/vpc");
    assert_eq!(run.screenshot_due(&first), None, "no action yet");
    assert!(matches!(run.observed(Ok(first)), Request::Act(_)));
    assert_eq!(run.acted(ActionOutcome::Done { reresolved: false }), Request::Observe);
    // The page the first action led to: turn 0's screenshot, once.
    let second = page("https://vpc.console.aliyun.com/vpc");
    let shot = run.screenshot_due(&second).expect("the first action's screenshot");
    assert_eq!((shot.turn, shot.path.as_str()), (0, "shots/001.png"));
    assert_eq!(run.screenshot_due(&second), None, "due once");
    assert!(matches!(run.observed(Ok(second)), Request::Act(_)));
    assert_eq!(run.acted(ActionOutcome::Done { reresolved: false }), Request::Observe);
    // A page asking for an authenticator's codes may show its QR code: not captured.
    let mut codes = page_with("https://ram.console.aliyun.com/users/ops", &["Verification Code 1", "Enable"]);
    codes.elements[0].role = Role::Textbox;
    assert_eq!(run.screenshot_due(&codes), None);
}
