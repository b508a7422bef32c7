//! `aca verify` of a page whose Resource META is missing or lacks a resource: the agent's
//! `request_resource` (scripted policy, or a model's reply) is answered by the ResourceCoder in the
//! run's emulator account next to what was provisioned before, the procedure runs on what it
//! created, ActionTrail proves the agent's own call on it, and everything is destroyed afterwards.

mod common;

use std::path::Path;

use aca_chat::fake::{FakeModel, FakeResponse};
use common::corpus;
use serde_json::Value;

fn without_meta(sidecar: &str) -> String {
    let text = std::fs::read_to_string(corpus(sidecar)).unwrap();
    let start = text.find("[meta]").expect("the sidecar has a META");
    let rest = &text[start..];
    let end = rest.find("\n[[expected_drift]]").map_or(text.len(), |e| start + e);
    format!("{}{}", &text[..start], &text[end..])
}

fn report(out: &Path) -> Value {
    let entry = std::fs::read_dir(out)
        .unwrap()
        .filter_map(Result::ok)
        .find(|e| e.path().join("report.json").exists())
        .expect("a report");
    serde_json::from_str(&std::fs::read_to_string(entry.path().join("report.json")).unwrap()).unwrap()
}

#[tokio::test]
async fn a_model_agent_asking_for_what_the_meta_lacks_gets_it_next_to_what_was_provisioned() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("start-instance.md");
    std::fs::copy(corpus("ecs/start-instance.md"), &page).unwrap();
    // The META provisions the network but not the instance the procedure starts.
    let sidecar = std::fs::read_to_string(corpus("ecs/start-instance.task.toml")).unwrap();
    let instance = sidecar.find("resource \"alicloud_instance\"").unwrap();
    let end = instance + sidecar[instance..].find("\n}\n").unwrap() + 3;
    let sidecar = format!("{}{}", &sidecar[..instance], &sidecar[end..]).replace(
        "key_attributes = [\n  { resource = \"alicloud_instance.instance\", attribute = \"status\", value = \"Stopped\" },\n]",
        "",
    );
    assert!(!sidecar.contains("alicloud_instance"), "{sidecar}");
    std::fs::write(dir.path().join("start-instance.task.toml"), sidecar).unwrap();
    let fake = FakeModel::start([
        FakeResponse::Reply(
            "Thought: no instance is listed.\nAction: request_resource(\"a stopped ECS instance to start\")".into(),
        ),
        FakeResponse::Reply("Thought: the instance exists now.\nAction: task_complete(\"looked\")".into()),
    ])
    .await
    .unwrap();
    let out = dir.path().join("out");
    let output = common::aca_async()
        .args([
            "verify",
            page.to_str().unwrap(),
            "--no-screenshots",
            "--policy",
            "llm",
            "--model-url",
        ])
        .arg(&fake.base_url)
        .arg("--out")
        .arg(&out)
        .output()
        .await
        .expect("aca runs");
    let report = report(&out);
    let shown = format!("{report:#}\n{}", String::from_utf8_lossy(&output.stderr));
    assert_ne!(report["verdict"], "pass", "claiming completion proves nothing: {shown}");
    assert_ne!(report["verdict"], "environment_failure", "{shown}");
    let resources = report["resources"].as_str().unwrap_or_default();
    assert!(
        resources.contains("alicloud_vswitch"),
        "the META's network: {resources}"
    );
    assert!(resources.contains("Provisioned at run time"), "{resources}");
    assert_eq!(
        resources.matches("alicloud_vswitch").count(),
        1,
        "the network is not created twice: {resources}"
    );
    // The agent's next prompt carries the report of both provisionings, with the new instance.
    let requests = fake.requests();
    assert_eq!(requests.len(), 2, "{shown}");
    let context = requests[1]["messages"].to_string();
    assert!(
        context.contains("alicloud_instance") && context.contains("status Stopped"),
        "{context}"
    );
    assert!(context.contains("alicloud_vswitch"), "{context}");
    assert!(
        report["failure"].as_str().is_none_or(|f| !f.contains("cleanup")),
        "{shown}"
    );
}

#[tokio::test]
async fn a_missing_resource_is_provisioned_when_the_agent_asks_and_the_run_passes() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("start-instance.md");
    std::fs::copy(corpus("ecs/start-instance.md"), &page).unwrap();
    let sidecar = without_meta("ecs/start-instance.task.toml");
    assert!(
        sidecar.contains("${instance_id}"),
        "the rule names the instance to start"
    );
    std::fs::write(dir.path().join("start-instance.task.toml"), sidecar).unwrap();
    let out = dir.path().join("out");
    let output = common::aca_async()
        .args(["verify", page.to_str().unwrap(), "--no-screenshots", "--out"])
        .arg(&out)
        .output()
        .await
        .expect("aca runs");
    let shown = format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let slug = std::fs::read_dir(&out)
        .unwrap()
        .filter_map(Result::ok)
        .find(|e| e.path().join("report.json").exists())
        .unwrap_or_else(|| panic!("no report: {shown}"))
        .file_name();
    let text = std::fs::read_to_string(out.join(&slug).join("report.json")).unwrap();
    let report: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(report["verdict"], "pass", "{report:#}\n{shown}");
    let resources = report["resources"].as_str().unwrap_or_default();
    assert!(resources.contains("Provisioned at run time"), "{resources}");
    assert!(resources.contains("stopped ECS instance"), "{resources}");
    assert!(resources.contains("status Stopped"), "{resources}");
    let asked = report["turns"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t.to_string().contains("request_resource"));
    assert!(asked, "the agent asked for the resource");
    // The rule's ${instance_id} is the instance the coder created, started by the agent.
    let matched = &report["rule"]["matched_events"][0];
    assert_eq!(matched["event_name"], "StartInstance", "{report:#}");
    let candidates: Vec<_> = std::fs::read_dir(out.join("meta-candidates"))
        .unwrap()
        .filter_map(Result::ok)
        .collect();
    assert_eq!(candidates.len(), 1, "the template is offered back");
    let candidate = std::fs::read_to_string(candidates[0].path()).unwrap();
    assert!(
        candidate.contains("resource \"alicloud_instance\" \"instance\""),
        "{candidate}"
    );
    assert!(
        report["failure"].is_null(),
        "nothing was left behind: {}",
        report["failure"]
    );
}
