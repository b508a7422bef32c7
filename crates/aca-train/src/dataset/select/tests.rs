use aca_agent::{ChatMessage, Finding, FindingKind, RecordedTurn};
use aca_core::{Action, ActionOutcome, ControlAction, GuiAction, Thought, Turn};

use super::*;

fn click(index: u32) -> Action {
    Action::Gui(GuiAction::Click { index })
}

fn turn(page: &str, action: Action, outcome: Option<ActionOutcome>) -> Turn {
    Turn {
        step: Some("1".into()),
        observation: format!("URL: https://vpc.console.example/\n{page}"),
        thought: Thought {
            progress: "Step 1".into(),
            observation: page.into(),
            next_goal: "go on".into(),
        },
        action,
        outcome,
        reply: None,
    }
}

fn done() -> Option<ActionOutcome> {
    Some(ActionOutcome::Done { reresolved: false })
}

fn run(turns: Vec<Turn>, outcome: Result<Confirmed, String>) -> RecordedRun {
    let recorded = (0..turns.len())
        .map(|turn| RecordedTurn {
            turn,
            messages: vec![ChatMessage::system("system"), ChatMessage::user(format!("turn {turn}"))],
            findings: Vec::new(),
        })
        .collect();
    RecordedRun {
        task: "vpc/create-vpc.md@2026".into(),
        page: "vpc/create-vpc.md".into(),
        product: "vpc".into(),
        release: "2026".into(),
        run: 0,
        teacher: Teacher::Scripted,
        outcome,
        turns,
        recorded,
    }
}

fn kept_turns(selection: &Selection) -> Vec<usize> {
    selection.samples.iter().map(|s| s.meta.turn).collect()
}

#[test]
fn a_run_the_reward_did_not_confirm_gives_nothing() {
    let turns = vec![turn("[1] button \"Create VPC\"", click(1), done())];
    let selection = select(&run(turns, Err("agent_failure".into())));
    assert!(selection.samples.is_empty());
    assert_eq!(selection.dropped.get(&Dropped::Unconfirmed), Some(&1));
}

#[test]
fn failed_actions_secrets_and_clicks_that_changed_nothing_are_left_out() {
    let turns = vec![
        turn("list", click(1), done()),
        turn("dialog", click(9), Some(ActionOutcome::ElementNotFound { index: 9 })),
        turn(
            "dialog",
            Action::Gui(GuiAction::Type {
                index: 3,
                text: MASK.into(),
                submit: false,
            }),
            done(),
        ),
        // The page did not change: the same page is the next turn's.
        turn("dialog with password", click(4), done()),
        turn("dialog with password", click(5), done()),
        turn(
            "list with vpc",
            Action::Control(ControlAction::TaskComplete { summary: "done".into() }),
            None,
        ),
    ];
    let selection = select(&run(turns, Ok(Confirmed::Success)));
    assert_eq!(kept_turns(&selection), vec![0, 4, 5]);
    assert_eq!(selection.dropped.get(&Dropped::Failed), Some(&1));
    assert_eq!(selection.dropped.get(&Dropped::Secret), Some(&1));
    assert_eq!(selection.dropped.get(&Dropped::NoEffect), Some(&1));
}

#[test]
fn a_menu_opened_and_closed_again_is_a_detour_even_when_new_element_marks_differ() {
    let turns = vec![
        turn(
            "[1] button \"More\"\n[2] button \"Create VPC\"",
            Action::Gui(GuiAction::Hover { index: 1 }),
            done(),
        ),
        turn("[1] button \"More\"\n  *[7] menuitem \"Tags\"", click(1), done()),
        turn(
            "[1] button \"More\"\n[7] menuitem \"Tags\"\n*[8] dialog \"Tags\"",
            Action::Gui(GuiAction::Press {
                key: "Escape".into(),
                index: None,
            }),
            done(),
        ),
        // Back where turn 0 started, with a `*` mark the first sight did not have.
        turn("[1] button \"More\"\n*[2] button \"Create VPC\"", click(2), done()),
        turn(
            "dialog \"Create VPC\"",
            Action::Control(ControlAction::TaskComplete { summary: "done".into() }),
            None,
        ),
    ];
    let selection = select(&run(turns, Ok(Confirmed::Success)));
    assert_eq!(kept_turns(&selection), vec![3, 4]);
    assert_eq!(selection.dropped.get(&Dropped::Detour), Some(&3));
}

#[test]
fn a_scripted_sample_is_the_rendered_decision_with_its_doc_checks_and_a_model_sample_its_own_reply() {
    let turns = vec![
        turn("[1] button \"Confirm\"", click(1), done()),
        turn(
            "list",
            Action::Control(ControlAction::TaskComplete { summary: "done".into() }),
            None,
        ),
    ];
    let mut scripted = run(turns.clone(), Ok(Confirmed::DocDefect));
    scripted.recorded[0].findings.push((
        "6".into(),
        Finding {
            kind: FindingKind::Renamed,
            documented: "OK".into(),
            observed: "Confirm".into(),
            evidence: Vec::new(),
        },
    ));
    let selection = select(&scripted);
    let first = &selection.samples[0];
    assert_eq!(first.id, "vpc/create-vpc.md@2026#0/0");
    assert_eq!(first.messages[1].content, "turn 0");
    assert_eq!(
        first.reply,
        "Thought:\nProgress: Step 1\nObservation: [1] button \"Confirm\"\nNext: go on\n\
         Doc check: step 6: the page says \"OK\", the console shows \"Confirm\"\nAction: click(1)"
    );
    assert_eq!(first.meta.outcome, Confirmed::DocDefect);
    assert_eq!(first.meta.action, "click(1)");
    assert_eq!(first.conversation().last().unwrap().content, first.reply);

    let mut distilled = run(turns, Ok(Confirmed::Success));
    distilled.teacher = Teacher::Model("qwen3-max".into());
    distilled.turns[0].reply = Some("Thought: press it\nAction: click(1)".into());
    let selection = select(&distilled);
    assert_eq!(selection.samples[0].reply, "Thought: press it\nAction: click(1)");
    assert_eq!(selection.samples[0].meta.teacher, "model:qwen3-max");
}

#[test]
fn a_turn_the_recorder_missed_is_counted_not_invented() {
    let turns = vec![
        turn("list", click(1), done()),
        turn(
            "dialog",
            Action::Control(ControlAction::TaskComplete { summary: "done".into() }),
            None,
        ),
    ];
    let mut recorded = run(turns, Ok(Confirmed::Success));
    recorded.recorded.remove(0);
    let selection = select(&recorded);
    assert_eq!(kept_turns(&selection), vec![1]);
    assert_eq!(selection.dropped.get(&Dropped::Unrecorded), Some(&1));
}

#[test]
fn a_page_that_looks_the_same_after_later_steps_is_progress_not_a_detour() {
    let mut turns = vec![
        turn("key list", click(1), done()),
        turn("dialog", click(2), done()),
        turn("dialog with 30 days", click(3), done()),
        turn(
            "key list",
            Action::Control(ControlAction::TaskComplete { summary: "done".into() }),
            None,
        ),
    ];
    for (turn, step) in turns.iter_mut().zip(["3", "4", "5", "6"]) {
        turn.step = Some(step.into());
    }
    let selection = select(&run(turns, Ok(Confirmed::Success)));
    assert_eq!(kept_turns(&selection), vec![0, 1, 2, 3], "{:?}", selection.dropped);
}
