//! `aca verify` when what it depends on fails mid-run: a model server that starts answering 5xx, and
//! a console that is stopped while the agent works in it. Each ends `environment_failure` naming
//! what failed, never a defect of the page, and no report or output carries a key or a signature.
//! A model that refuses the request itself (a prompt beyond its context) is the agent's failure.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use aca_chat::fake::{FakeModel, FakeResponse};
use common::{RunningConsole, SeparateAccount, aca_async, corpus, everything_written, show};
use serde_json::Value;

const SCROLL: &str = "Thought:\nProgress: Step 1\nObservation: the console home\nNext: look around\n\
    Action: scroll(\"down\")";

/// The failure of a run that ended as the environment's fault with no defect said; fails otherwise.
fn environment_failure(out: &Path, output: &std::process::Output) -> String {
    assert_eq!(output.status.code(), Some(1), "{}", show(output));
    let path = out.join("vpc-create-vpc").join("report.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let report: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(report["verdict"], "environment_failure", "{report:#}");
    assert!(report["defects"].as_array().unwrap().is_empty(), "{report:#}");
    report["failure"].as_str().unwrap().to_owned()
}

/// `aca verify` of one corpus page with the LLM policy on the model at `url`.
async fn verify_with_model(url: &str, out: &Path) -> std::process::Output {
    let page = corpus("vpc/create-vpc.md");
    aca_async()
        .args(["verify", page.to_str().unwrap(), "--no-screenshots", "--rule-deadline", "2"])
        .args(["--policy", "llm", "--model-url", url, "--model", "qwen3-vl-32b"])
        .arg("--out")
        .arg(out)
        .output()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_model_server_that_fails_mid_run_is_the_environments_fault() {
    // One good reply, then every request answers 503.
    let fake = FakeModel::start([FakeResponse::Reply(SCROLL.into())]).await.unwrap();
    let out = tempfile::tempdir().unwrap();
    let output = verify_with_model(&fake.base_url, out.path()).await;
    let failure = environment_failure(out.path(), &output);
    assert!(
        failure.contains("the model failed") && failure.contains(&fake.base_url) && failure.contains("503"),
        "the failure names the model server and its answer: {failure}"
    );
    assert!(fake.requests().len() >= 2, "the run went on past its first reply");
}

#[tokio::test]
async fn a_model_that_refuses_the_request_is_the_agents_failure_not_the_environments() {
    let too_long = "This model's maximum context length is 4096 tokens. However, you requested 4368 tokens \
        (3344 in the messages, 1024 in the completion).";
    let fake = FakeModel::start([
        FakeResponse::Reply(SCROLL.into()),
        FakeResponse::Error {
            status: 400,
            message: too_long.into(),
        },
    ])
    .await
    .unwrap();
    let out = tempfile::tempdir().unwrap();
    let output = verify_with_model(&fake.base_url, out.path()).await;
    let path = out.path().join("vpc-create-vpc").join("report.json");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(report["verdict"], "agent_failure", "{report:#}\n{}", show(&output));
    assert!(report["defects"].as_array().unwrap().is_empty(), "{report:#}");
    let failure = report["failure"].as_str().unwrap();
    assert!(
        failure.contains("model_refused") && failure.contains("maximum context length") && failure.contains("400"),
        "the failure says the model refused and why: {failure}"
    );
    assert_eq!(fake.requests().len(), 2, "a refused request is not sent again");
}

#[tokio::test]
async fn a_console_stopped_mid_run_is_the_environments_fault_and_leaks_no_key() {
    let dir = tempfile::tempdir().unwrap();
    let console = RunningConsole::start(dir.path(), &["--admin-token", "setup-only"]);
    let writer = SeparateAccount::make(dir.path(), &console.url, "setup-only", "writer", true);
    let field = |name: &str| writer.field(name);
    let (keys, profile) = (writer.keys.clone(), writer.profile.clone());

    // The agent's first reply comes late; by then the console is gone, so the page it asks to
    // open does not load.
    let vpcs = format!("{}/console/vpc", console.url);
    let goto = format!(
        "Thought:\nProgress: Step 1\nObservation: the console home\nNext: open the VPC console\nAction: goto(\"{vpcs}\")"
    );
    let fake = FakeModel::start([
        FakeResponse::Slow(Duration::from_secs(2), goto),
        FakeResponse::Reply(SCROLL.into()),
    ])
    .await
    .unwrap();
    let out = tempfile::tempdir().unwrap();
    let page = corpus("vpc/create-vpc.md");
    let run = aca_async()
        .args(["verify", page.to_str().unwrap(), "--no-screenshots", "--rule-deadline", "2"])
        .args(["--console", &console.url, "--endpoint-override", &console.url])
        .arg("--credentials")
        .arg(&keys)
        .args(["--account-id", &field("accountId")])
        .arg("--user-data-dir")
        .arg(&profile)
        .args(["--policy", "llm", "--model-url", &fake.base_url, "--model", "qwen3-vl-32b"])
        .arg("--out")
        .arg(out.path())
        .output();
    let run = tokio::spawn(run);
    let deadline = Instant::now() + Duration::from_secs(120);
    while fake.requests().is_empty() {
        assert!(Instant::now() < deadline, "the run never asked the model");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    drop(console);
    let output = run.await.unwrap().unwrap();

    let failure = environment_failure(out.path(), &output);
    assert!(
        failure.contains(&format!("{vpcs} could not be reached")),
        "the failure names the console that did not answer: {failure}"
    );
    assert!(
        failure.contains("the audit log could not be read"),
        "the audit log was not there either: {failure}"
    );
    let written = format!("{}{}", everything_written(out.path()), show(&output));
    for secret in [field("accessKeyId"), field("accessKeySecret"), field("password")] {
        assert!(!written.contains(&secret), "the run's outputs carry a key or password");
    }
    assert!(!written.contains("Signature="), "the run's outputs carry a signed URL");
}
