//! The judge channel end to end: `aca verify --judges` on a page no audit event can decide (it only
//! looks at a list) sends the run to two judges (fake OpenAI-compatible endpoints), and their
//! answers decide the verdict instead of leaving the page unverified: both yes passes, a
//! disagreement is invalid (−1) and says so, a judge that is down is the environment's failure.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use aca_chat::fake::{FakeModel, FakeResponse};
use common::{aca_async, show};
use serde_json::Value;

const PAGE: &str = "# View the VPCs in a region\n\n\
You can view the virtual private clouds (VPCs) that you created in a region in the VPC console.\n\n\
## Procedure\n\n\
1. Log on to the [VPC console](https://vpc.console.aliyun.com/).\n\
2. In the top navigation bar, select the region where the VPCs are deployed.\n\
3. In the left-side navigation pane, click **VPC**.\n\n   The VPC page lists the VPCs in the region.\n";

fn said(success: bool, reason: &str) -> FakeResponse {
    FakeResponse::Reply(serde_json::json!({"success": success, "reason": reason}).to_string())
}

/// The page and a judges file naming the two fake endpoints, the first with an owner-only key.
fn setup(dir: &Path, first: &FakeModel, second: &FakeModel) -> (PathBuf, PathBuf) {
    let page = dir.join("view-vpcs.md");
    std::fs::write(&page, PAGE).unwrap();
    let key = dir.join("judge-a.key");
    aca_openapi::private_file::write(&key, b"sk-judge-a-secret\n").unwrap();
    let judges = dir.join("judges.toml");
    std::fs::write(
        &judges,
        format!(
            "[[judge]]\nurl = \"{}\"\nmodel = \"judge-a\"\nkey_file = \"judge-a.key\"\n\
             input_per_mtok = 1.0\noutput_per_mtok = 2.0\n\n\
             [[judge]]\nurl = \"{}\"\nmodel = \"judge-b\"\ntimeout_s = 5\n",
            first.base_url, second.base_url
        ),
    )
    .unwrap();
    (page, judges)
}

async fn verify(page: &Path, judges: &Path, out: &Path) -> (Output, Value) {
    verify_with(page, judges, out, &["--no-screenshots"]).await
}

async fn verify_with(page: &Path, judges: &Path, out: &Path, args: &[&str]) -> (Output, Value) {
    let output = aca_async()
        .arg("verify")
        .arg(page)
        .arg("--judges")
        .arg(judges)
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .await
        .expect("aca runs");
    let report = common::the_report_under(out, &output);
    (output, report)
}

#[tokio::test]
async fn two_judges_that_agree_decide_a_page_no_audit_event_can() {
    let dir = tempfile::tempdir().unwrap();
    let a = FakeModel::start([said(true, "the VPC list of the region is shown")]).await.unwrap();
    let b = FakeModel::start([said(true, "the page is the VPC list")]).await.unwrap();
    let (page, judges) = setup(dir.path(), &a, &b);
    let (output, report) = verify(&page, &judges, &dir.path().join("out")).await;
    assert!(output.status.success(), "{}", show(&output));
    assert_eq!(report["verdict"], "pass", "{report:#}");
    assert!(report.get("rule").is_none(), "no rule decided: {report:#}");
    let answers = report["judges"]["answers"].as_array().unwrap();
    assert_eq!(answers.len(), 2);
    assert_eq!(answers[0]["success"], true);
    assert!(report["judges"]["why_judges"].as_str().unwrap().contains("no ActionTrail-verifiable event"));
    assert!(report["summary"].as_str().unwrap().contains("both judges say"), "{}", report["summary"]);
    // Each judge saw the documented steps and the trajectory, the console's text fenced as data,
    // and the first one was asked with its key, which appears nowhere the run wrote.
    let sent = &a.requests()[0];
    let user = sent["messages"][1]["content"].as_str().unwrap();
    assert!(user.contains("| 3. In the left-side navigation pane, click VPC."), "{user}");
    assert!(user.contains("BEGIN FINAL PAGE DATA"), "{user}");
    assert!(!common::everything_written(dir.path().join("out").as_path()).contains("sk-judge-a-secret"));
    assert!(!show(&output).contains("sk-judge-a-secret"));
}

#[tokio::test]
async fn a_judge_that_takes_images_is_shown_the_final_page_and_the_other_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let a = FakeModel::start([said(true, "the VPC list is shown")]).await.unwrap();
    let b = FakeModel::start([said(true, "the page is the VPC list")]).await.unwrap();
    let (page, judges) = setup(dir.path(), &a, &b);
    let text = std::fs::read_to_string(&judges).unwrap();
    std::fs::write(&judges, text.replacen("model = \"judge-a\"\n", "model = \"judge-a\"\nimages = true\n", 1)).unwrap();
    let (output, report) = verify_with(&page, &judges, &dir.path().join("out"), &[]).await;
    assert!(output.status.success(), "{}", show(&output));
    assert_eq!(report["verdict"], "pass", "{report:#}");
    let seen = &a.requests()[0]["messages"][1]["content"];
    let parts = seen.as_array().unwrap_or_else(|| panic!("judge a was shown no image: {seen}"));
    assert!(parts[0]["text"].as_str().unwrap().contains("BEGIN FINAL PAGE DATA"));
    assert!(
        parts[1]["image_url"]["url"]
            .as_str()
            .unwrap()
            .starts_with("data:image/png;base64,iVBORw0KGgo"),
        "a PNG of the final page"
    );
    assert!(
        b.requests()[0]["messages"][1]["content"].is_string(),
        "a judge not said to take images reads the page as text"
    );
}

#[tokio::test]
async fn judges_that_disagree_make_the_run_invalid_and_a_silent_judge_is_the_environments_failure() {
    let dir = tempfile::tempdir().unwrap();
    let a = FakeModel::start([said(true, "the list is shown")]).await.unwrap();
    let b = FakeModel::start([said(false, "the list is empty")]).await.unwrap();
    let (page, judges) = setup(dir.path(), &a, &b);
    let (output, report) = verify(&page, &judges, &dir.path().join("disagree")).await;
    assert_eq!(output.status.code(), Some(1), "{}", show(&output));
    assert_eq!(report["verdict"], "unverified", "{report:#}");
    let summary = report["summary"].as_str().unwrap();
    assert!(summary.contains("disagree") && summary.contains("−1"), "{summary}");

    let a = FakeModel::start([said(true, "the list is shown")]).await.unwrap();
    let b = FakeModel::start(vec![
        FakeResponse::Error {
            status: 503,
            message: "overloaded".into(),
        };
        4
    ])
    .await
    .unwrap();
    let (page, judges) = setup(dir.path(), &a, &b);
    let (output, report) = verify(&page, &judges, &dir.path().join("down")).await;
    assert_eq!(output.status.code(), Some(1), "{}", show(&output));
    assert_eq!(report["verdict"], "environment_failure", "{report:#}");
    let failure = report["failure"].as_str().unwrap();
    assert!(failure.contains("judge-b") && failure.contains("503"), "{failure}");
}
