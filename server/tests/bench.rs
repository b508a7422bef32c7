//! `aca bench verify` as a user runs it: real Chromium against the bundled console on one example
//! page, on both UI profiles, with the reference script replayed; the figures it prints and writes
//! follow from the runs. `aca bench ablation` on two example pages, one that needs resources and one
//! that starts from an empty account, each run from an empty account, with the ResourceCoder's
//! provisioning and from a pre-built account. `aca bench real-pages` on a sample of the real-page
//! corpus: a current page, its old flow, and a page of a product the bundled console lacks.

mod common;

use common::{aca_async, corpus, show};
use serde_json::Value;

/// `aca bench COMMAND` over a folder holding these example pages of `vpc/` (with their sidecars);
/// its output and the folder the figures were written to.
async fn bench(command: &str, files: &[&str]) -> (std::process::Output, tempfile::TempDir) {
    let pages = tempfile::tempdir().unwrap();
    let folder = pages.path().join("vpc");
    std::fs::create_dir_all(&folder).unwrap();
    for file in files {
        std::fs::copy(corpus(&format!("vpc/{file}")), folder.join(file)).unwrap();
    }
    run_bench(command, pages.path(), &[]).await
}

/// `aca bench COMMAND DIR ARGS… --out <a fresh folder>`: its output and that folder.
async fn run_bench(command: &str, dir: &std::path::Path, args: &[&str]) -> (std::process::Output, tempfile::TempDir) {
    let out = tempfile::tempdir().unwrap();
    let output = aca_async()
        .args(["bench", command])
        .arg(dir)
        .args(args)
        .arg("--out")
        .arg(out.path())
        .output()
        .await
        .expect("aca runs");
    (output, out)
}

#[tokio::test]
async fn one_page_is_scored_on_both_profiles_and_against_its_script() {
    let (output, out) = bench("verify", &["delete-vswitch.md", "delete-vswitch.task.toml"]).await;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let shown = show(&output);
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

#[tokio::test]
async fn provisioning_lifts_the_pages_that_need_resources_to_what_pre_built_accounts_achieve() {
    let (output, out) = bench(
        "ablation",
        &[
            "create-vpc.md",
            "create-vpc.task.toml",
            "delete-vswitch.md",
            "delete-vswitch.task.toml",
        ],
    )
    .await;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let shown = show(&output);
    for figure in [
        "success rate, empty accounts",
        "success rate, provisioned",
        "success rate, pre-built accounts",
        "provisioned / pre-built",
    ] {
        assert!(stdout.contains(figure), "{shown}");
    }
    assert_eq!(output.status.code(), Some(0), "{shown}");

    let text = std::fs::read_to_string(out.path().join("ablation.json")).expect("ablation.json is written");
    let json: Value = serde_json::from_str(&text).unwrap();
    let page = |slug: &str| {
        json["pages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["page"].as_str().is_some_and(|s| s.ends_with(slug)))
            .cloned()
            .unwrap_or_else(|| panic!("no {slug} in {shown}"))
    };
    let create = page("create-vpc.md");
    assert_eq!(create["coder"], "nothing needed", "{shown}");
    for arm in ["empty", "provisioned", "pre_built"] {
        assert_eq!(create[arm]["verdict"], "pass", "create-vpc {arm}: {shown}");
    }
    let delete = page("delete-vswitch.md");
    assert_eq!(delete["coder"], "META of 2 resource(s)", "{shown}");
    assert_ne!(
        delete["empty"]["verdict"], "pass",
        "no vSwitch to delete in an empty account: {shown}"
    );
    assert_eq!(delete["provisioned"]["verdict"], "pass", "{shown}");
    assert_eq!(delete["pre_built"]["verdict"], "pass", "{shown}");

    let figures = &json["figures"];
    assert_eq!(figures["empty"], 0.5, "{shown}");
    assert_eq!(figures["provisioned"], 1.0, "{shown}");
    assert_eq!(figures["pre_built"], 1.0, "{shown}");
    assert_eq!(figures["met"], true);
    // Every run's report is kept.
    for arm in ["empty", "provisioned", "pre-built"] {
        let kept = std::fs::read_dir(out.path().join(arm))
            .unwrap()
            .flatten()
            .filter(|d| d.path().join("report.json").exists())
            .count();
        assert_eq!(kept, 2, "{arm}");
    }
}

/// A real-page corpus under a temporary folder holding these pages of `tests/real-pages`, each
/// with its own `sources.toml` entry.
fn real_pages(pages: &[(&str, &str)]) -> tempfile::TempDir {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/real-pages");
    let dir = tempfile::tempdir().unwrap();
    for (product, file) in pages {
        let folder = dir.path().join(product);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::copy(root.join(product).join(file), folder.join(file)).unwrap();
        let sources = std::fs::read_to_string(root.join(product).join("sources.toml")).unwrap();
        let entry = sources
            .split("[[page]]")
            .find(|e| e.contains(&format!("file = \"{file}\"")))
            .unwrap_or_else(|| panic!("{product}/{file} has no sources.toml entry"));
        let mut mine = std::fs::read_to_string(folder.join("sources.toml")).unwrap_or_default();
        mine.push_str(&format!("[[page]]{entry}"));
        std::fs::write(folder.join("sources.toml"), mine).unwrap();
    }
    dir
}

/// The verdict `bench.json` gives the page whose path ends with `page`.
fn verdict_of(bench: &Value, page: &str, shown: &str) -> Value {
    bench["pages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["page"].as_str().is_some_and(|p| p.ends_with(page)))
        .map(|p| p["run"]["verdict"].clone())
        .unwrap_or_else(|| panic!("{page} was not run: {shown}"))
}

#[tokio::test]
async fn real_pages_are_held_to_their_flows_targets_and_an_absent_console_is_the_environments() {
    let pages = real_pages(&[
        ("vpc", "associate-eip-ecs.md"),
        ("vpc", "associate-eip-ecs-old.md"),
        // A panel opened over a panel (Configure Rule Description), from a menu item the page
        // leaves to the reader.
        ("cms", "create-alert-rule.md"),
        // A step that goes to a page of the project's own navigation pane, which the page leaves its
        // reader inside, and then to a row's icon menu.
        ("sls", "delete-logstore.md"),
        // A live page whose second method copies a step of the first where it does not fit.
        ("ram", "add-user-to-group.md"),
    ]);
    // Every product of the real corpus is emulated now, so the test writes a page of one the
    // bundled console lacks.
    let lacking = pages.path().join("eci");
    std::fs::create_dir_all(&lacking).unwrap();
    std::fs::write(
        lacking.join("create-instance.md"),
        "# Elastic Container Instance:Create an instance\n\n## Procedure\n\n1. Log on to the **Elastic Container Instance console**.\n2. Click **Create Container Group**.\n",
    )
    .unwrap();
    std::fs::write(
        lacking.join("sources.toml"),
        "[[page]]\nfile = \"create-instance.md\"\nurl = \"https://www.alibabacloud.com/help/en/eci/\"\nupdated = \"unknown\"\nflow = \"current\"\n",
    )
    .unwrap();
    let (output, out) = run_bench("real-pages", pages.path(), &["--jobs", "2"]).await;
    let shown = show(&output);
    let text = std::fs::read_to_string(out.path().join("bench.json")).expect("bench.json is written");
    let bench: Value = serde_json::from_str(&text).unwrap();
    let verdict = |page: &str| verdict_of(&bench, page, &shown);
    // Today's page passes; the old flow is called defective at the step whose action was renamed.
    assert_eq!(verdict("vpc/associate-eip-ecs.md"), "pass", "{shown}");
    assert_eq!(verdict("vpc/associate-eip-ecs-old.md"), "doc_defect", "{shown}");
    assert_eq!(verdict("cms/create-alert-rule.md"), "pass", "{shown}");
    assert_eq!(verdict("sls/delete-logstore.md"), "pass", "{shown}");
    assert_eq!(verdict("ram/add-user-to-group.md"), "doc_defect", "{shown}");
    assert_eq!(
        verdict("eci/create-instance.md"),
        "environment_failure",
        "{shown}"
    );
    let figures = bench["score"]["figures"].as_array().unwrap();
    for figure in figures {
        assert_eq!(figure["met"], true, "{figure}: {shown}");
    }
    assert!(output.status.success(), "every target met exits 0: {shown}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("current pages passing"), "{shown}");
}

#[tokio::test]
async fn real_pages_scraped_without_bold_pass_on_their_wording_alone() {
    let pages = real_pages(&[
        // A row's menu icon the copy lost: "choose > Delete".
        ("sls", "delete-logstore.md"),
        // A row named by a lower-case word: "Find the default whitelist".
        ("tair", "set-whitelist.md"),
        // Fields named before their colon: "Region: Select …", "IPv4 CIDR block: …".
        ("vpc", "create-vpc.md"),
    ]);
    let (output, out) = run_bench("real-pages", pages.path(), &["--jobs", "2", "--without-bold"]).await;
    let shown = show(&output);
    let text = std::fs::read_to_string(out.path().join("bench.json")).expect("bench.json is written");
    let bench: Value = serde_json::from_str(&text).unwrap();
    for page in ["sls/delete-logstore.md", "tair/set-whitelist.md", "vpc/create-vpc.md"] {
        assert_eq!(verdict_of(&bench, page, &shown), "pass", "{page}: {shown}");
    }
}
