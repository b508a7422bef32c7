//! `aca train explore` with a stand-in teacher: the product's console page reaches it as fenced data
//! with the audit operations, its proposals become task pages (a held-out title and an unknown
//! operation are left out), and `aca train collect` runs them into samples.

mod common;

use aca_chat::fake::{FakeModel, FakeResponse};
use serde_json::{Value, json};

fn proposals() -> String {
    json!({"procedures": [
        {"title": "Create a VPC", "operation": "CreateVpc", "steps": [
            "Log on to the **VPC console**.",
            "In the left-side navigation pane, choose **Virtual Private Cloud** > **VPCs**.",
            "On the **VPCs** page, click **Create VPC**.",
            "In the **VPC** section of the **Create VPC** page, enter `explore-vpc` in the **Name** field and enter `192.168.0.0/16` in the **IPv4 CIDR Block** field.",
            "In the **vSwitch** section, enter `explore-vsw` in the **Name** field, select a zone from the **Zone** drop-down list, and enter `192.168.1.0/24` in the **IPv4 CIDR Block** field.",
            "Click **OK**."
        ]},
        {"title": "Delete a VPC", "operation": "DeleteVpc", "steps": ["Click **Delete**.", "Click **OK**."]},
        {"title": "Peer two VPCs", "operation": "CreateVpcPeer", "steps": ["a", "b"]}
    ]})
    .to_string()
}

#[tokio::test]
async fn explored_proposals_become_task_pages_that_collect_turns_into_samples() {
    let teacher = FakeModel::start([FakeResponse::Reply(proposals())]).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    common::task_folder(dir.path(), &["vpc/create-vswitch"], &["vpc/delete-vpc"]);
    let output = common::aca_async()
        .args([
            "train",
            "explore",
            "--tasks",
            "tasks",
            "--teacher-model",
            "teacher",
            "--out",
            "explore",
        ])
        .arg("--teacher-url")
        .arg(&teacher.base_url)
        .current_dir(dir.path())
        .output()
        .await
        .expect("aca runs");
    let shown = common::show(&output);
    assert!(output.status.success(), "{shown}");
    assert!(shown.contains("vpc: Create a VPC (CreateVpc)"), "{shown}");
    assert!(
        shown.contains("\"Delete a VPC\": a held-out page has that title"),
        "{shown}"
    );
    assert!(shown.contains("not an operation of vpc"), "{shown}");

    let requests = teacher.requests();
    assert_eq!(requests.len(), 1);
    let user = requests[0]["messages"][1]["content"].as_str().unwrap();
    assert!(
        user.contains("- DeleteVpc: "),
        "the audit operations are listed: {user}"
    );
    assert!(
        user.contains("BEGIN PAGE DATA") && user.contains("| URL: "),
        "the console page is fenced: {user}"
    );
    assert!(user.contains("Delete a VPC"), "the held-out title is named: {user}");
    assert_eq!(requests[0]["response_format"]["type"], "json_schema");

    let explored = dir.path().join("explore");
    let page = std::fs::read_to_string(explored.join("vpc/create-a-vpc.md")).unwrap();
    assert!(page.starts_with("# Virtual Private Cloud:Create a VPC"), "{page}");
    assert!(!explored.join("vpc/delete-a-vpc.md").exists());
    let split = std::fs::read_to_string(explored.join("split.toml")).unwrap();
    assert!(split.contains("\"vpc/create-a-vpc\""), "{split}");

    let output = common::aca_async()
        .args([
            "train",
            "collect",
            "--tasks",
            "explore",
            "--releases",
            "own",
            "--out",
            "data",
        ])
        .current_dir(dir.path())
        .output()
        .await
        .expect("aca runs");
    let shown = common::show(&output);
    assert!(output.status.success(), "{shown}");
    let card: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("data/card.json")).unwrap()).unwrap();
    assert_eq!(
        card["collection"]["confirmed_runs"], 1,
        "the audit log confirms CreateVpc: {shown}"
    );
    assert!(card["train"]["samples"].as_u64().unwrap() >= 4, "{card:#}");
}
