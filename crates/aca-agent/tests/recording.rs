//! The recording wrapper: every decided turn keeps the exact messages the LLM policy is given there,
//! the teacher's decision renders as a reply the parser reads back, and a retry after an unreadable
//! reply leaves the turn's first messages.

mod support;

use aca_agent::review::doc_check_line;
use aca_agent::{
    EndReason, Episode, LlmConfig, LlmPolicy, ModelRequest, Recording, Recordings, ScriptedPolicy, Task, Usage,
    parse_reply, prompt,
};
use aca_core::fence::data_block;
use support::{FakeConsole, Profile, drive, no_model, no_provisioning};

const CREATE_VPC: &str = include_str!("../../aca-docs/tests/pages/vpc-create-vpc.md");

fn task() -> Task {
    Task::new(aca_docs::parse_markdown(CREATE_VPC).expect("the example page parses"))
}

#[test]
fn each_turn_of_a_scripted_run_is_recorded_with_its_prompt_and_renders_as_a_readable_reply() {
    let recordings = Recordings::default();
    let policy = Recording::new(Box::new(ScriptedPolicy::new()), recordings.clone());
    let mut console = FakeConsole::new(Profile::release_2024());
    let mut episode = Episode::new(task(), Box::new(policy));
    let end = drive(&mut episode, &mut console, no_provisioning, no_model);
    assert!(matches!(end.reason, EndReason::Completed { .. }), "{end:?}");

    let recorded = recordings.take();
    let turns = &episode.trajectory().turns;
    assert_eq!(recorded.len(), turns.len());
    for (i, (record, turn)) in recorded.iter().zip(turns).enumerate() {
        assert_eq!(record.turn, i);
        assert_eq!(record.messages.len(), 2);
        assert_eq!(record.messages[0].content, prompt::system_prompt());
        assert!(
            record.messages[1]
                .content
                .contains(&data_block("PAGE", &turn.observation)),
            "turn {i}'s user message does not hold the page the turn saw"
        );
        let checks: Vec<String> = record
            .findings
            .iter()
            .map(|(step, f)| doc_check_line(step, f))
            .collect();
        let reply = prompt::reply_text(&turn.thought, &checks, &turn.action);
        let parsed = parse_reply(&reply).unwrap_or_else(|e| panic!("turn {i}: {e}\n{reply}"));
        assert_eq!(parsed.action, turn.action, "{reply}");
        assert_eq!(
            parsed.thought.next_goal,
            turn.thought.next_goal.split_whitespace().collect::<Vec<_>>().join(" ")
        );
    }
    let renamed: Vec<String> = recorded
        .iter()
        .flat_map(|r| r.findings.iter().map(|(step, f)| doc_check_line(step, f)))
        .collect();
    assert_eq!(
        renamed,
        vec!["Doc check: step 6: the page says \"OK\", the console shows \"Confirm\"".to_string()]
    );
    assert!(recordings.take().is_empty(), "take leaves the store empty");
}

#[test]
fn a_retried_model_turn_keeps_the_messages_of_its_first_request() {
    let recordings = Recordings::default();
    let llm = LlmPolicy::new(LlmConfig::default());
    let mut episode = Episode::new(task(), Box::new(Recording::new(Box::new(llm), recordings.clone())));
    let mut console = FakeConsole::new(Profile::current());
    let mut requests: Vec<ModelRequest> = Vec::new();
    let end = drive(&mut episode, &mut console, no_provisioning, |request| {
        requests.push(request.clone());
        let reply = if requests.len() == 1 {
            "I am not sure what to do."
        } else {
            "Thought:\nProgress: Step 1\nObservation: the console\nNext: stop\nAction: task_unachievable(\"a test\")"
        };
        (reply.to_owned(), Usage::default())
    });
    assert!(matches!(end.reason, EndReason::Unachievable { .. }), "{end:?}");
    assert_eq!(requests.len(), 2, "one retry after the unreadable reply");
    assert_ne!(requests[0].messages, requests[1].messages);

    let recorded = recordings.take();
    assert_eq!(recorded.len(), 1);
    assert_eq!(recorded[0].turn, 0);
    assert_eq!(recorded[0].messages, requests[0].messages);
}
