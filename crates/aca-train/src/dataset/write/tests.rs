use aca_agent::ChatMessage;

use super::*;
use crate::dataset::{Confirmed, Sample, SampleMeta};

fn sample(page: &str, turn: usize) -> Sample {
    Sample {
        id: format!("{page}@2026#0/{turn}"),
        messages: vec![
            ChatMessage::system("system"),
            ChatMessage::user(format!("{page} turn {turn}")),
        ],
        reply: format!("Thought:\nProgress: Step {turn}\nAction: click({turn})"),
        meta: SampleMeta {
            task: format!("{page}@2026"),
            page: page.to_owned(),
            product: page.split('/').next().unwrap_or_default().to_owned(),
            release: "2026".into(),
            teacher: "scripted".into(),
            outcome: Confirmed::Success,
            run: 0,
            turn,
            step: Some(turn.to_string()),
            action: format!("click({turn})"),
        },
    }
}

fn samples() -> Vec<Sample> {
    let pages = ["vpc/a.md", "vpc/b.md", "ecs/c.md", "ecs/d.md", "rds/e.md"];
    pages.iter().flat_map(|p| (0..3).map(move |t| sample(p, t))).collect()
}

#[test]
fn the_split_holds_whole_pages_out_and_is_the_same_for_the_same_seed() {
    let parts = split(samples(), 7, 0.2);
    assert_eq!(parts.train.len() + parts.validation.len(), 15);
    assert_eq!(parts.validation.len(), 3, "one page of five, all its turns");
    let held = &parts.validation[0].meta.page;
    assert!(parts.validation.iter().all(|s| &s.meta.page == held));
    assert!(parts.train.iter().all(|s| &s.meta.page != held));
    let mut reversed = samples();
    reversed.reverse();
    assert_eq!(split(reversed, 7, 0.2), parts, "the input order does not matter");
    let others: Vec<String> = (0..20)
        .map(|seed| split(samples(), seed, 0.2).validation[0].meta.page.clone())
        .collect();
    assert!(others.iter().any(|p| p != held), "the seed chooses the page");
    assert!(split(samples(), 7, 0.0).validation.is_empty());
    assert_eq!(split(samples(), 7, 1.0).train.len(), 3, "one page always trains");
}

#[test]
fn jsonl_lines_are_openai_conversations_with_their_metadata_that_sft_reads() {
    let dir = tempfile::tempdir().unwrap();
    let parts = split(samples(), 1, 0.2);
    write_parts(dir.path(), &parts).unwrap();
    let path = dir.path().join("train.jsonl");
    let raw = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<ChatLine> = raw.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), parts.train.len());
    let first = &lines[0];
    let roles: Vec<&str> = first.messages.iter().map(|m| m.role.as_str()).collect();
    assert_eq!(roles, ["system", "user", "assistant"]);
    assert_eq!(first.messages[2].content, parts.train[0].reply);
    assert_eq!(first.metadata.id, parts.train[0].id);
    let value: serde_json::Value = serde_json::from_str(raw.lines().next().unwrap()).unwrap();
    assert_eq!(value["metadata"]["outcome"], "success");
    assert_eq!(value["metadata"]["action"], parts.train[0].meta.action);

    let chat = crate::sft::read_jsonl(&path).unwrap();
    assert_eq!(chat.len(), parts.train.len());
    assert_eq!(chat[0].reply, parts.train[0].reply);
    assert_eq!(chat[0].prompt.len(), 2);
}
