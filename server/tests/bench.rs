//! `aca bench verify` as a user runs it: real Chromium against the bundled console on one example
//! page, on both UI profiles, with the reference script replayed; the figures it prints and writes
//! follow from the runs.

use std::path::Path;

use serde_json::Value;

const ACA: &str = env!("CARGO_BIN_EXE_aca");

#[tokio::test]
async fn one_page_is_scored_on_both_profiles_and_against_its_script() {
    let corpus = tempfile::tempdir().unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus/vpc");
    let folder = corpus.path().join("vpc");
    std::fs::create_dir_all(&folder).unwrap();
    for file in ["delete-vswitch.md", "delete-vswitch.task.toml"] {
        std::fs::copy(source.join(file), folder.join(file)).unwrap();
    }
    let out = tempfile::tempdir().unwrap();
    let output = tokio::process::Command::new(ACA)
        .args(["bench", "verify"])
        .arg(corpus.path())
        .arg("--out")
        .arg(out.path())
        .output()
        .await
        .expect("aca runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let shown = format!("{stdout}\nstderr:\n{}", String::from_utf8_lossy(&output.stderr));
    for figure in [
        "pass rate",
        "drift recall",
        "drift precision",
        "wall time vs reference script",
    ] {
        assert!(stdout.contains(figure), "{shown}");
    }

    let text = std::fs::read_to_string(out.path().join("bench.json")).expect("bench.json is written");
    let bench: Value = serde_json::from_str(&text).unwrap();
    let page = &bench["pages"][0];
    assert_eq!(page["home"]["verdict"], "pass", "{shown}");
    assert_eq!(page["home"]["profile"], "2026");
    assert_eq!(page["other"]["profile"], "2024");
    // The page touches one difference of the 2024 console: reported at its step with its type.
    assert_eq!(page["other"]["verdict"], "doc_defect", "{shown}");
    let drift = &bench["score"]["drift"];
    assert_eq!(drift.as_array().map(Vec::len), Some(1), "{shown}");
    assert!(!drift[0]["found"].is_null(), "{shown}");
    // The reference replayed every click the verification made, and took measurable time.
    let reference = &page["reference"];
    assert!(reference["actions"].as_u64().unwrap_or(0) >= 3, "{shown}");
    assert_eq!(reference["refused"].as_array().map(Vec::len), Some(0), "{shown}");
    assert!(reference["ms"].as_u64().unwrap_or(0) > 0);
    let figures = bench["score"]["figures"].as_array().unwrap();
    let value = |name: &str| {
        figures
            .iter()
            .find(|f| f["name"].as_str().is_some_and(|n| n.starts_with(name)))
            .and_then(|f| f["value"].as_f64())
    };
    assert_eq!(value("pass rate"), Some(1.0));
    assert_eq!(value("drift recall"), Some(1.0));
    // No page untouched by drift: no precision can be measured, and none is claimed.
    assert_eq!(value("drift precision"), None);
    assert!(value("wall time").is_some_and(|r| r > 0.0), "{shown}");
}
