//! `aca train collect` on the bundled console: only train-split pages run, each recorded turn is an
//! OpenAI chat sample whose reply parses back to its action, the drifted release's known difference
//! reaches a reply as a `Doc check:` line, and the Parquet files read back with pyarrow and `datasets`.

mod common;

use std::path::Path;
use std::process::Command;

use aca_agent::{parse_reply, prompt};
use serde_json::Value;

#[tokio::test]
async fn collect_records_confirmed_train_runs_as_chat_samples_that_verl_and_trl_read() {
    let dir = tempfile::tempdir().unwrap();
    let tasks = common::task_folder(
        dir.path(),
        &["vpc/create-vpc", "vpc/create-vswitch"],
        &["vpc/delete-vpc"],
    );
    let out = dir.path().join("dataset");
    let output = common::aca_async()
        .args(["train", "collect", "--runs", "1", "--releases", "both"])
        .arg("--tasks")
        .arg(&tasks)
        .arg("--out")
        .arg(&out)
        .output()
        .await
        .expect("aca runs");
    let shown = common::show(&output);
    assert!(output.status.success(), "{shown}");
    assert!(shown.contains("4 runs"), "two train pages on two releases: {shown}");

    let mut lines: Vec<Value> = Vec::new();
    for part in ["train", "validation"] {
        let text = std::fs::read_to_string(out.join(format!("{part}.jsonl"))).unwrap();
        lines.extend(text.lines().map(|l| serde_json::from_str::<Value>(l).unwrap()));
    }
    assert!(lines.len() >= 8, "{} samples\n{shown}", lines.len());
    let mut doc_checks = Vec::new();
    for line in &lines {
        let page = line["metadata"]["page"].as_str().unwrap();
        assert!(!page.contains("delete-vpc"), "a test page ran: {page}");
        let messages = line["messages"].as_array().unwrap();
        let roles: Vec<&str> = messages.iter().map(|m| m["role"].as_str().unwrap()).collect();
        assert_eq!(roles, ["system", "user", "assistant"]);
        assert_eq!(messages[0]["content"], prompt::system_prompt());
        assert!(messages[1]["content"].as_str().unwrap().contains("BEGIN PAGE DATA"));
        let reply = messages[2]["content"].as_str().unwrap();
        let parsed = parse_reply(reply).unwrap_or_else(|e| panic!("{e}: {reply}"));
        assert_eq!(
            parsed.action.call_syntax(),
            line["metadata"]["action"].as_str().unwrap()
        );
        doc_checks.extend(reply.lines().filter(|l| l.starts_with("Doc check:")).map(str::to_owned));
    }
    assert!(
        doc_checks
            .iter()
            .any(|l| l == "Doc check: step 7: the page says \"OK\", the console shows \"Confirm\""),
        "the 2024 release renames OK on create-vpc: {doc_checks:?}"
    );

    let card: Value = serde_json::from_str(&std::fs::read_to_string(out.join("card.json")).unwrap()).unwrap();
    assert_eq!(card["collection"]["runs"], 4);
    assert_eq!(card["collection"]["split"], "train");
    let samples = card["train"]["samples"].as_u64().unwrap() + card["validation"]["samples"].as_u64().unwrap();
    assert_eq!(samples as usize, lines.len());
    assert_eq!(card["validation"]["pages"], 1, "one of two pages held out: {card:#}");
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(readme.starts_with("---\nconfigs:\n"), "{readme}");
    assert!(readme.contains("## Filters"), "{readme}");

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/train/read_dataset.py");
    let read = Command::new("python3")
        .arg(&script)
        .arg(&out)
        .output()
        .expect("python3 runs (scripts/setup installs pyarrow and datasets)");
    assert!(read.status.success(), "{}", String::from_utf8_lossy(&read.stderr));
    let read: Value = serde_json::from_slice(&read.stdout).unwrap();
    let train = card["train"]["samples"].as_u64().unwrap();
    assert_eq!(read["files"]["verl/train.parquet"]["rows"], train);
    assert_eq!(
        read["files"]["verl/train.parquet"]["columns"],
        serde_json::json!(["data_source", "prompt", "ability", "reward_model", "extra_info"])
    );
    assert_eq!(read["verl"]["prompt_roles"], serde_json::json!(["system", "user"]));
    assert_eq!(read["verl"]["reward_style"], "rule");
    assert_eq!(read["verl"]["answer_ends_with_action"], true, "{read}");
    assert_eq!(read["trl_messages"]["train"], train);
    assert_eq!(
        read["trl_messages"]["roles"],
        serde_json::json!(["system", "user", "assistant"])
    );
    assert_eq!(read["trl_prompt_completion"]["rows"], train);
    assert_eq!(
        read["trl_prompt_completion"]["completion_roles"],
        serde_json::json!(["assistant"])
    );
}

#[test]
fn collect_refuses_a_bad_validation_share_and_a_folder_without_train_pages() {
    let dir = tempfile::tempdir().unwrap();
    let output = common::aca(dir.path(), &["train", "collect", "--validation", "1.5", "--out", "o"]);
    assert_eq!(output.status.code(), Some(2), "{}", common::show(&output));
    assert!(
        common::show(&output).contains("--validation 1.5"),
        "{}",
        common::show(&output)
    );

    let tasks = common::task_folder(
        dir.path(),
        &["vpc/create-vpc", "vpc/create-vswitch"],
        &["vpc/delete-vpc"],
    );
    std::fs::write(
        tasks.join("split.toml"),
        "train = []\ntest = [\"vpc/create-vpc\", \"vpc/create-vswitch\", \"vpc/delete-vpc\"]\n",
    )
    .unwrap();
    let output = common::aca(dir.path(), &["train", "collect", "--tasks", "tasks", "--out", "o"]);
    assert_eq!(output.status.code(), Some(2), "{}", common::show(&output));
    assert!(
        common::show(&output).contains("no task pages"),
        "{}",
        common::show(&output)
    );
    assert!(!dir.path().join("o/train.jsonl").exists());
}

/// A chat model as the teacher gets the LLM policy's own prompt; a run it gives up on is not
/// confirmed, so it yields no sample and the command says there is nothing to train on.
#[tokio::test]
async fn a_model_teacher_is_asked_with_the_policy_prompt_and_its_unconfirmed_run_yields_nothing() {
    use aca_chat::fake::{FakeModel, FakeResponse};
    let give_up = "Thought:\nProgress: Step 1\nObservation: the console\nNext: stop\nAction: task_unachievable(\"no\")";
    let teacher = FakeModel::start([FakeResponse::Reply(give_up.to_owned())])
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    common::task_folder(dir.path(), &["vpc/create-vpc"], &["vpc/delete-vpc"]);
    let output = common::aca_async()
        .args([
            "train",
            "collect",
            "--tasks",
            "tasks",
            "--releases",
            "own",
            "--teacher-model",
            "teacher",
        ])
        .args(["--out", "o", "--teacher-url", &teacher.base_url])
        .current_dir(dir.path())
        .output()
        .await
        .expect("aca runs");
    let shown = common::show(&output);
    assert_eq!(output.status.code(), Some(2), "{shown}");
    assert!(shown.contains("with the model:teacher teacher"), "{shown}");
    assert!(shown.contains("no run was confirmed"), "{shown}");
    let requests = teacher.requests();
    assert_eq!(requests.len(), 1, "{shown}");
    assert_eq!(requests[0]["messages"][0]["content"], prompt::system_prompt());
    assert!(
        requests[0]["messages"][1]["content"]
            .as_str()
            .unwrap()
            .contains("BEGIN PAGE DATA")
    );
    assert!(!dir.path().join("o/train.jsonl").exists());
}
