//! `aca train sft` from the command line: a few steps from random weights on a collected-format
//! dataset lower the loss, the checkpoint is served by `aca serve` as it is, a resumed run goes on
//! from its step, and missing inputs are refused with a clear error.

mod common;

use std::path::Path;

use common::serve::{post, serve};
use serde_json::{Value, json};

fn tokenizer() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/aca-model/tests/fixtures/text/qwen3")
}

/// A dataset folder as `aca train collect` writes it: OpenAI chat lines with their metadata.
fn dataset(dir: &Path) -> std::path::PathBuf {
    let data = dir.join("dataset");
    std::fs::create_dir_all(&data).unwrap();
    let line = |page: &str, action: &str| {
        json!({
            "messages": [
                {"role": "system", "content": "You verify cloud console documentation."},
                {"role": "user", "content": format!("# Task\nBEGIN PAGE DATA\n| URL: {page}\n| [3] button \"Create VPC\"\nEND PAGE DATA")},
                {"role": "assistant", "content": format!("Thought:\nProgress: Step 1\nObservation: the list\nNext: create\nAction: {action}")},
            ],
            "metadata": {"id": format!("{page}#0/0")},
        })
        .to_string()
    };
    let train: Vec<String> = ["vpc", "ecs", "rds", "slb"]
        .iter()
        .map(|p| line(p, "click(3)"))
        .collect();
    std::fs::write(data.join("train.jsonl"), train.join("\n") + "\n").unwrap();
    std::fs::write(data.join("validation.jsonl"), line("oss", "click(3)") + "\n").unwrap();
    data
}

fn sft_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "train",
        "sft",
        "--data",
        "dataset",
        "--lr",
        "1e-2",
        "--warmup",
        "1",
        "--micro-batch",
        "2",
        "--accumulation",
        "1",
        "--max-length",
        "256",
        "--eval-samples",
        "1",
        "--max-new-tokens",
        "4",
        "--out",
        "sft",
    ];
    args.extend_from_slice(extra);
    args
}

#[test]
fn a_few_steps_from_random_weights_lower_the_loss_and_the_checkpoint_serves_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    dataset(dir.path());
    let tokenizer = tokenizer();
    let random = [
        "--random",
        "--layers",
        "1",
        "--hidden",
        "32",
        "--heads",
        "2",
        "--kv-heads",
        "1",
        "--tokenizer",
    ];
    let mut args = sft_args(&[
        "--max-steps",
        "4",
        "--eval-every",
        "4",
        "--save-every",
        "2",
        "--seed",
        "3",
    ]);
    args.extend_from_slice(&random);
    args.push(tokenizer.to_str().unwrap());
    let output = common::aca(dir.path(), &args);
    let shown = common::show(&output);
    assert!(output.status.success(), "{shown}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let losses: Vec<f64> = stdout
        .lines()
        .find_map(|l| l.strip_prefix("loss: "))
        .map(|l| l.split_whitespace().filter_map(|w| w.parse().ok()).collect())
        .unwrap_or_default();
    assert_eq!(losses.len(), 2, "{shown}");
    assert!(losses[1] < losses[0], "the loss did not fall: {shown}");
    assert!(stdout.contains("held out: loss") && stdout.contains("replies that parse"), "{shown}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("4/4 loss"), "{shown}");
    let checkpoint = dir.path().join("sft/checkpoint-4");
    assert!(stdout.contains("checkpoint-4"), "{shown}");

    let server = serve(&checkpoint, &[]);
    let (status, reply) = post(
        &server,
        "/v1/chat/completions",
        &json!({"model": "checkpoint-4", "messages": [{"role": "user", "content": "hello"}], "max_tokens": 3}),
    );
    assert_eq!(status, 200, "{reply}");
    assert!(reply["choices"][0]["message"]["content"].is_string(), "{reply}");
    drop(server);

    // As if the run had stopped after step 2: it goes on from checkpoint-2 to the same end.
    std::fs::remove_dir_all(&checkpoint).unwrap();
    let resume = |extra: &[&str]| {
        let mut args = sft_args(&[
            "--resume",
            "sft/checkpoint-2",
            "--eval-every",
            "4",
            "--save-every",
            "2",
            "--seed",
            "3",
        ]);
        args.extend_from_slice(extra);
        common::aca(dir.path(), &args)
    };
    let output = resume(&["--max-steps", "4"]);
    let shown = common::show(&output);
    assert!(output.status.success(), "{shown}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("3/4 loss") && !stderr.contains("1/4 loss"), "{shown}");
    let state: Value =
        serde_json::from_str(&std::fs::read_to_string(checkpoint.join("trainer_state.json")).unwrap()).unwrap();
    assert_eq!(state["step"], 4, "{state:#}");

    let output = resume(&["--max-steps", "6"]);
    assert_eq!(output.status.code(), Some(2), "{}", common::show(&output));
    assert!(
        common::show(&output).contains("max_steps 6"),
        "the setting is named: {}",
        common::show(&output)
    );
}

#[test]
fn sft_refuses_a_run_without_weights_or_samples_naming_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    dataset(dir.path());
    let output = common::aca(dir.path(), &sft_args(&[]));
    assert_eq!(output.status.code(), Some(2), "{}", common::show(&output));
    assert!(
        common::show(&output).contains("--model DIR, --random"),
        "{}",
        common::show(&output)
    );

    let output = common::aca(
        dir.path(),
        &["train", "sft", "--data", "nowhere", "--model", "m", "--out", "sft"],
    );
    assert_eq!(output.status.code(), Some(2), "{}", common::show(&output));
    assert!(
        common::show(&output).contains("nowhere/train.jsonl"),
        "{}",
        common::show(&output)
    );

    std::fs::write(
        dir.path().join("dataset/train.jsonl"),
        "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}\n",
    )
    .unwrap();
    let output = common::aca(dir.path(), &sft_args(&["--model", "m"]));
    assert_eq!(output.status.code(), Some(2), "{}", common::show(&output));
    assert!(
        common::show(&output).contains("train.jsonl"),
        "{}",
        common::show(&output)
    );
}
