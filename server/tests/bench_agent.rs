//! `aca bench agent` as the benchmark protocol runs it: the scripted policy and a model served by
//! `aca serve` (a small random checkpoint, which cannot carry out a procedure) run the same task
//! three times each, and every figure comes out: pass@1 as mean ± std, pass@k, by product and by
//! difficulty, tokens, time and cost per step and per task, failure categories, the drift figures,
//! and the paired bootstrap comparison of the two policies.

mod common;

use std::process::Command;

use common::serve::{TOKEN, checkpoint, serve};
use serde_json::Value;

#[test]
fn the_scripted_policy_and_a_served_model_are_scored_and_compared_with_every_figure() {
    let dir = tempfile::tempdir().unwrap();
    let server = serve(&checkpoint(dir.path()), &["--max-batch", "4", "--max-context", "8192"]);
    let out = dir.path().join("bench");
    let tasks = common::corpus("");
    let output = common::without_caller_env(Command::new(common::ACA))
        .args(["bench", "agent", "--split", "test", "--pages", "1", "--releases", "own"])
        .args(["--runs", "3", "--jobs", "2", "--policy", "scripted", "--max-tokens", "48"])
        .arg("--tasks")
        .arg(&tasks)
        .args(["--model-url", &format!("{}/v1", server.base), "--model", "qwen3-tiny"])
        .args(["--price", "1,2", "--model-timeout", "60", "--out"])
        .arg(&out)
        .env("ACA_MODEL_API_KEY", TOKEN)
        .output()
        .expect("aca runs");
    let shown = common::show(&output);
    assert!(output.status.success(), "{shown}");
    let figures: Value = serde_json::from_str(&std::fs::read_to_string(out.join("agent.json")).unwrap()).unwrap();
    let policies = figures["figures"]["policies"].as_array().unwrap();
    assert_eq!(policies.len(), 2, "{figures:#}");
    let (scripted, model) = (&policies[0], &policies[1]);
    assert_eq!(scripted["policy"], "scripted");
    assert_eq!(model["policy"], "llm:qwen3-tiny");

    // The scripted policy carries the page out every time; the random model never does.
    assert_eq!(scripted["tasks"], 1);
    assert_eq!(scripted["runs"], 3);
    assert_eq!(scripted["pass_at_1"]["mean"], 1.0);
    assert_eq!(scripted["pass_at_1"]["std"], 0.0);
    assert_eq!(scripted["pass_at_1"]["runs"], 3);
    assert_eq!(scripted["pass_at_k"], 1.0);
    assert_eq!(model["pass_at_1"]["mean"], 0.0);
    assert_eq!(model["failures"]["failed_runs"], 3);
    let product = scripted["by_product"].as_object().unwrap();
    assert_eq!(product.len(), 1, "{scripted:#}");
    assert!(scripted["by_difficulty"].as_object().unwrap().len() == 1);

    // Tokens and cost are the served model's own, per step and per task.
    let usage = &model["usage"];
    assert!(usage["tokens_in"]["total"].as_f64().unwrap() > 0.0, "{usage:#}");
    assert!(usage["tokens_out"]["total"].as_f64().unwrap() > 0.0, "{usage:#}");
    assert!(usage["cost"]["total"].as_f64().unwrap() > 0.0, "{usage:#}");
    assert!(usage["duration_ms"]["per_task"].as_f64().unwrap() > 0.0, "{usage:#}");
    assert_eq!(scripted["usage"]["tokens_in"]["total"].as_f64(), Some(0.0));
    assert_eq!(scripted["drift"]["untouched_pass_rate"], 1.0);

    // Scripted beats the random model on every task: +100 pp, the whole interval at +1, p at its floor.
    let comparison = &figures["figures"]["comparisons"][0];
    assert_eq!(comparison["policy_a"], "scripted");
    assert_eq!(comparison["pass_at_1_difference"], 1.0);
    assert_eq!(comparison["ci_95"], serde_json::json!([1.0, 1.0]));
    assert!(comparison["p_value"].as_f64().unwrap() < 0.001, "{comparison:#}");
    assert_eq!(comparison["resamples"], 10_000);

    for figure in ["pass@1", "pass@3", "95% CI", "drift recall", "untouched pass rate", "by difficulty"] {
        assert!(shown.contains(figure), "{figure} is not printed: {shown}");
    }
    let html = std::fs::read_to_string(out.join("agent.html")).unwrap();
    assert!(html.contains("llm:qwen3-tiny") && html.contains("pass@1"), "{html}");
    assert!(out.join("scripted/run-3").is_dir(), "each run's reports are kept");
}

#[test]
fn a_model_without_its_name_or_a_split_that_misses_a_page_is_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let output = common::aca(
        dir.path(),
        &["bench", "agent", "--model-url", "http://127.0.0.1:9/v1", "--out", "o"],
    );
    assert_eq!(output.status.code(), Some(2), "{}", common::show(&output));
    assert!(common::show(&output).contains("--model"), "{}", common::show(&output));

    let tasks = dir.path().join("tasks");
    let vpc = tasks.join("vpc");
    std::fs::create_dir_all(&vpc).unwrap();
    for file in ["create-vpc.md", "create-vpc.task.toml"] {
        std::fs::copy(common::corpus("vpc").join(file), vpc.join(file)).unwrap();
    }
    std::fs::write(tasks.join("split.toml"), "train = []\ntest = []\n").unwrap();
    let output = common::aca(dir.path(), &["bench", "agent", "--tasks", "tasks", "--out", "o"]);
    assert_eq!(output.status.code(), Some(2), "{}", common::show(&output));
    assert!(
        common::show(&output).contains("is in neither set"),
        "{}",
        common::show(&output)
    );
}

#[tokio::test]
async fn given_judges_the_benchmark_measures_each_judge_and_the_pair_against_the_audit_log() {
    use aca_chat::fake::{FakeModel, FakeResponse};
    let said = |success: bool| FakeResponse::Reply(serde_json::json!({"success": success, "reason": "r"}).to_string());
    // The scripted policy passes the task twice: judge a agrees both times, judge b never.
    let a = FakeModel::start([said(true), said(true)]).await.unwrap();
    let b = FakeModel::start([said(false), said(false)]).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let judges = dir.path().join("judges.toml");
    std::fs::write(
        &judges,
        format!(
            "[[judge]]\nurl = \"{}\"\nmodel = \"judge-a\"\n\n[[judge]]\nurl = \"{}\"\nmodel = \"judge-b\"\n",
            a.base_url, b.base_url
        ),
    )
    .unwrap();
    let out = dir.path().join("bench");
    let output = common::aca_async()
        .args(["bench", "agent", "--split", "test", "--pages", "1", "--releases", "own", "--runs", "2"])
        .arg("--tasks")
        .arg(common::corpus(""))
        .arg("--judges")
        .arg(&judges)
        .arg("--out")
        .arg(&out)
        .output()
        .await
        .expect("aca runs");
    let shown = common::show(&output);
    assert!(output.status.success(), "{shown}");
    let figures: Value = serde_json::from_str(&std::fs::read_to_string(out.join("agent.json")).unwrap()).unwrap();
    let agreement = &figures["judgeAgreement"];
    assert_eq!(agreement["runs"], 2, "{agreement:#}");
    assert_eq!(agreement["judges"][0]["model"], "judge-a");
    assert_eq!(agreement["judges"][0]["agreement"], 1.0);
    assert_eq!(agreement["judges"][1]["agreement"], 0.0);
    assert_eq!(agreement["pair_disagreed"], 2);
    assert_eq!(agreement["pair_decided"], 0);
    assert!(shown.contains("judge agreement with the rule channel"), "{shown}");
    // Each judge was shown the run's steps and pages, fenced as data.
    let user = a.requests()[0]["messages"][1]["content"].as_str().unwrap().to_owned();
    assert!(user.contains("BEGIN TRAJECTORY DATA") && user.contains("BEGIN FINAL PAGE DATA"), "{user}");
}
