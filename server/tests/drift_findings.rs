//! Drift findings from a model, not the scripted policy: `aca verify --policy llm` against a fake
//! OpenAI-compatible model that finds its elements by name on the page it is sent (as a model
//! would), on a page written for the 2024 console and run on the 2026 one, where "Release" is now
//! "Release Instance" and "OK" is "Confirm". The trajectory grader reports both renamed labels at
//! their steps with evidence whether or not the model says so, and drops a discrepancy the model
//! claims that its pages do not show. On an OSS page whose Delete moved into the row's More menu,
//! the model's way through is a moved control.

mod common;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use common::{aca_async, corpus, show};
use serde_json::{Value, json};

/// One reply of the fake model: the step it works on, the element it acts on (role and name, found
/// on the page it is sent), and any `Doc check:` lines.
#[derive(Clone)]
struct Move {
    step: &'static str,
    click: Option<(&'static str, &'static str)>,
    claims: Vec<&'static str>,
}

fn click(step: &'static str, role: &'static str, name: &'static str, claims: &[&'static str]) -> Move {
    Move {
        step,
        click: Some((role, name)),
        claims: claims.to_vec(),
    }
}

#[derive(Clone, Default)]
struct Script {
    moves: Arc<Mutex<Vec<Move>>>,
    missing: Arc<Mutex<Vec<String>>>,
}

/// The index of `role "name"` on the page block of the last user message.
fn index_of(page: &str, role: &str, name: &str) -> Option<u32> {
    let wanted = format!("] {role} \"{name}\"");
    page.lines().find_map(|line| {
        let line = line.trim_start_matches("| ").trim_start().trim_start_matches('*');
        let rest = line.strip_prefix('[')?;
        line.contains(&wanted).then(|| rest.split(']').next()?.parse().ok())?
    })
}

async fn complete(State(script): State<Script>, Json(body): Json<Value>) -> Json<Value> {
    let page = body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_owned();
    let next = {
        let mut moves = script.moves.lock().unwrap();
        (!moves.is_empty()).then(|| moves.remove(0))
    };
    let text = match next {
        None => "Thought:\nProgress: every step done\nObservation: the page shows the result\nNext: finish\n\
                 Action: task_complete(\"every documented step is done\")"
            .to_owned(),
        Some(step) => {
            let (role, name) = step.click.unwrap();
            let action = match index_of(&page, role, name) {
                Some(index) => format!("click({index})"),
                None => {
                    script.missing.lock().unwrap().push(format!("{role} \"{name}\""));
                    format!("task_unachievable(\"no {role} {name}\")")
                }
            };
            let claims: String = step.claims.iter().map(|c| format!("Doc check: {c}\n")).collect();
            format!(
                "Thought:\nProgress: Step {}\nObservation: the page shows {role} \"{name}\"\nNext: click \"{name}\"\n{claims}Action: {action}",
                step.step
            )
        }
    };
    Json(json!({
        "choices": [{"message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1000, "completion_tokens": 40},
    }))
}

async fn fake_model(moves: Vec<Move>) -> (String, Script) {
    let script = Script {
        moves: Arc::new(Mutex::new(moves)),
        ..Script::default()
    };
    let app = Router::new()
        .route("/v1/chat/completions", post(complete))
        .with_state(script.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr: SocketAddr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (format!("http://{addr}/v1"), script)
}

/// The page on today's console with the model at `url`; its report.
async fn verify(url: &str, out: &std::path::Path) -> Value {
    verify_page("rds/release-instance-2024", url, out).await
}

/// `page` (a corpus page, without `.md`) on today's console with the model at `url`; its report.
async fn verify_page(name: &str, url: &str, out: &std::path::Path) -> Value {
    let page = corpus(&format!("{name}.md"));
    let output = aca_async()
        .arg("verify")
        .arg(&page)
        .args(["--profile", "2026", "--policy", "llm", "--model", "fake", "--no-screenshots"])
        .args(["--model-url", url, "--out"])
        .arg(out)
        .output()
        .await
        .expect("aca runs");
    assert_ne!(output.status.code(), Some(2), "{}", show(&output));
    let folder = name.replace('/', "-");
    let text = std::fs::read_to_string(out.join(format!("{folder}/report.json"))).expect("a report");
    serde_json::from_str(&text).unwrap()
}

fn renamed(report: &Value) -> Vec<(String, String, String)> {
    report["defects"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["kind"] == "renamed_label")
        .map(|d| {
            (
                d["step"].as_str().unwrap().to_owned(),
                d["documented"].as_str().unwrap().to_owned(),
                d["observed"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn the_way_through(claims_4: &[&'static str], claims_5: &[&'static str], claims_2: &[&'static str]) -> Vec<Move> {
    vec![
        click("2", "link", "Instances", claims_2),
        click("4", "button", "More", &[]),
        click("4", "button", "Release Instance", claims_4),
        click("5", "button", "Confirm", claims_5),
    ]
}

#[tokio::test]
async fn a_model_that_uses_the_renamed_controls_yields_renamed_labels_at_their_steps_with_evidence() {
    let (url, script) = fake_model(the_way_through(&[], &[], &[])).await;
    let out = tempfile::tempdir().unwrap();
    let report = verify(&url, out.path()).await;
    assert!(script.missing.lock().unwrap().is_empty(), "{:?}", script.missing.lock().unwrap());
    assert_eq!(report["rule"]["matched"], true, "{report:#}");
    assert_eq!(report["verdict"], "doc_defect", "{report:#}");
    let found = renamed(&report);
    assert!(
        found.contains(&("4".into(), "Release".into(), "Release Instance".into())),
        "{found:?}"
    );
    assert!(found.contains(&("5".into(), "OK".into(), "Confirm".into())), "{found:?}");
    let defect = report["defects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["step"] == "4")
        .unwrap();
    assert_eq!(defect["confidence"], "confirmed", "the audit log shows the release: {defect:#}");
    let evidence = &defect["evidence"];
    assert!(
        evidence["elements"][0].as_str().unwrap().contains("button \"Release Instance\""),
        "{evidence:#}"
    );
    let turn = evidence["turn"].as_u64().expect("the turn that shows it") as usize;
    let shown = &report["turns"][turn - 1];
    assert!(shown["observation"].as_str().unwrap().contains("Release Instance"));
}

#[tokio::test]
async fn a_claim_the_pages_support_is_kept_and_one_they_contradict_is_dropped() {
    let moves = the_way_through(
        &["step 4: the page says \"Release\", the console shows \"Release Instance\""],
        &["step 5: the page says \"OK\", the console shows \"Confirm\""],
        // Hallucinated: the navigation pane shows "Instances" as the page says.
        &["step 2: the page says \"Instances\", the console shows \"Databases\""],
    );
    let (url, _script) = fake_model(moves).await;
    let out = tempfile::tempdir().unwrap();
    let report = verify(&url, out.path()).await;
    let found = renamed(&report);
    assert!(
        found.contains(&("4".into(), "Release".into(), "Release Instance".into())),
        "{found:?}"
    );
    assert!(found.contains(&("5".into(), "OK".into(), "Confirm".into())), "{found:?}");
    assert!(
        report["defects"].as_array().unwrap().iter().all(|d| d["step"] != "2"),
        "a discrepancy the pages do not show is dropped: {:#}",
        report["defects"]
    );
}

#[tokio::test]
async fn a_model_that_finds_the_control_in_a_more_menu_yields_a_moved_control() {
    // The 2024 page says "click Delete in the Actions column"; today's row keeps Delete in More.
    let moves = vec![
        click("2", "link", "Buckets", &[]),
        click("3", "link", "Details", &[]),
        click("4", "link", "Files", &[]),
        click("5", "link", "reports/", &[]),
        click("5", "button", "More", &[]),
        click("5", "button", "Delete", &[]),
        click("6", "button", "OK", &[]),
    ];
    let (url, script) = fake_model(moves).await;
    let out = tempfile::tempdir().unwrap();
    let report = verify_page("oss/delete-file-2024", &url, out.path()).await;
    assert!(script.missing.lock().unwrap().is_empty(), "{:?}", script.missing.lock().unwrap());
    assert_eq!(report["rule"]["matched"], true, "{report:#}");
    assert_eq!(report["verdict"], "doc_defect", "{report:#}");
    let defects = report["defects"].as_array().unwrap();
    assert_eq!(defects.len(), 1, "{defects:#?}");
    let moved = &defects[0];
    assert_eq!(
        (&moved["step"], &moved["kind"], &moved["documented"], &moved["observed"]),
        (&json!("5"), &json!("moved_control"), &json!("Delete"), &json!("More > Delete")),
        "{moved:#}"
    );
    assert_eq!(moved["confidence"], "confirmed", "the audit log shows the deletion: {moved:#}");
    assert!(
        moved["evidence"]["elements"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e.as_str().unwrap().contains("button \"Delete\"")),
        "{moved:#}"
    );
}
