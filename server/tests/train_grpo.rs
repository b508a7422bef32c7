//! `aca train grpo` end to end on the bundled console: a tiny random policy served in process runs
//! its episodes, the audit log scores them, the step reports what it did with them, validation runs
//! the test split, and the checkpoints serve. (Learning itself is checked on fake rewards in
//! aca-train's tests; a random policy never completes a task, so its group teaches nothing.)

mod common;


use common::serve::{checkpoint, post, serve};
use serde_json::{Value, json};

#[test]
fn a_grpo_step_runs_scored_episodes_reports_what_it_did_and_validates() {
    let dir = tempfile::tempdir().unwrap();
    common::task_folder(dir.path(), &["vpc/create-vpc"], &["vpc/delete-vpc"]);
    let model = checkpoint(dir.path());
    let out = dir.path().join("grpo");
    let output = common::aca(
        dir.path(),
        &[
            "train",
            "grpo",
            "--steps",
            "1",
            "--tasks-per-step",
            "1",
            "--group",
            "2",
            "--validate-every",
            "1",
            "--max-tokens",
            "16",
            "--max-turns",
            "4",
            "--max-context",
            "8192",
            "--tasks",
            "tasks",
            "--out",
            "grpo",
            "--model",
            model.to_str().unwrap(),
        ],
    );
    let shown = common::show(&output);
    assert!(output.status.success(), "{shown}");
    // 2 × 1.25 rounded up: three episodes of the one train task.
    assert!(shown.contains("1 task(s) × 3 episodes"), "{shown}");
    assert_eq!(shown.matches("vpc/create-vpc.md@2026 #").count(), 3, "{shown}");
    assert!(
        shown.contains("validation at step 1: pass@1 0.0% on 1 test task(s)"),
        "{shown}"
    );

    let lines: Vec<Value> = std::fs::read_to_string(out.join("grpo.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1);
    let step = &lines[0];
    assert_eq!(step["step"], 1, "{step:#}");
    // Every episode's model turns reached the trainer through the policy server's log.
    let turns: Vec<u32> = shown
        .lines()
        .filter_map(|l| l.split(" after ").nth(1))
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect();
    assert_eq!(turns.len(), 4, "three episodes and one validation: {shown}");
    assert!(turns.iter().all(|&t| t >= 1), "{shown}");
    // A random policy completes nothing: the audit log scores the two kept episodes (the third was
    // oversampled) 0, so the group's rewards are equal and it teaches nothing.
    let counts = &step["counts"];
    assert_eq!(
        (counts["scored"].as_u64(), counts["environment"].as_u64()),
        (Some(2), Some(0)),
        "{step:#}"
    );
    assert_eq!(counts["mean_reward"], 0.0, "{step:#}");
    assert_eq!(counts["equal_groups"], 1, "{step:#}");
    assert!(step["skipped"].as_str().unwrap().contains("equal rewards"), "{step:#}");
    assert_eq!(step["validation_pass_at_1"], 0.0, "{step:#}");

    for served in [out.join("checkpoint-1"), out.join("best")] {
        assert!(served.join("grpo_state.json").is_file(), "{}", served.display());
        let server = serve(&served, &[]);
        let name = served.file_name().unwrap().to_str().unwrap().to_owned();
        let (status, reply) = post(
            &server,
            "/v1/chat/completions",
            &json!({"model": name, "messages": [{"role": "user", "content": "hello"}], "max_tokens": 2}),
        );
        assert_eq!(status, 200, "{reply}");
    }
}

#[test]
fn grpo_refuses_a_group_of_one() {
    let dir = tempfile::tempdir().unwrap();
    let output = common::aca(dir.path(), &["train", "grpo", "--model", "m", "--group", "1"]);
    assert_eq!(output.status.code(), Some(2), "{}", common::show(&output));
    assert!(
        common::show(&output).contains("--group must be at least 2"),
        "{}",
        common::show(&output)
    );
}
