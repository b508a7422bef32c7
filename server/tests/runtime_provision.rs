//! `aca verify` of a page whose Resource META is missing: the agent's `request_resource` is
//! answered by the ResourceCoder in the run's emulator account, the procedure runs on what it
//! created, ActionTrail proves the agent's own call on it, and everything is destroyed afterwards.

use std::path::{Path, PathBuf};

use serde_json::Value;

const ACA: &str = env!("CARGO_BIN_EXE_aca");

fn corpus(page: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus").join(page)
}

/// The sidecar without its `[meta]` table (and without what follows it).
fn without_meta(sidecar: &str) -> String {
    let text = std::fs::read_to_string(corpus(sidecar)).unwrap();
    let start = text.find("[meta]").expect("the sidecar has a META");
    let rest = &text[start..];
    let end = rest.find("\n[[expected_drift]]").map_or(text.len(), |e| start + e);
    format!("{}{}", &text[..start], &text[end..])
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
    let output = tokio::process::Command::new(ACA)
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
