//! The example corpus (`tests/corpus/<product>/<slug>.md` with `<slug>.task.toml`): every page loads
//! and reads as a procedure whose steps carry their labels, every task has a success rule, and the
//! loader names the file and the fault when a page or a sidecar is wrong.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use aca_core::{StepAction, TaskSpec};
use aca_docs::corpus::{CorpusError, CorpusPage, load_corpus};

const PRODUCTS: [&str; 12] = [
    "vpc",
    "ecs",
    "slb",
    "rds",
    "tair",
    "ram",
    "kms",
    "actiontrail",
    "cms",
    "dns",
    "oss",
    "sls",
];

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus")
}

fn corpus() -> Vec<CorpusPage> {
    load_corpus(&corpus_dir()).unwrap_or_else(|e| panic!("the corpus does not load: {e}"))
}

#[test]
fn the_corpus_covers_every_product_in_both_releases() {
    let pages = corpus();
    assert!(pages.len() >= 60, "only {} pages", pages.len());
    let products: BTreeSet<&str> = pages.iter().map(|p| p.task.product.as_str()).collect();
    assert_eq!(products, PRODUCTS.into_iter().collect::<BTreeSet<_>>());
    let older = pages.iter().filter(|p| p.task.profile == "2024").count();
    assert!(older >= 15, "only {older} pages are written for the 2024 console");
    for page in &pages {
        assert!(
            ["2024", "2026"].contains(&page.task.profile.as_str()),
            "{}: unknown profile {}",
            page.path.display(),
            page.task.profile
        );
    }
}

#[test]
fn every_page_reads_as_a_dated_procedure_of_its_product() {
    for page in corpus() {
        let p = &page.procedure;
        let name = page.path.display();
        assert!(p.product.is_some(), "{name}: the title has no `Product:Task` form");
        assert!(p.last_updated.is_some(), "{name}: no Last Updated date");
        assert!(p.steps.len() >= 3, "{name}: only {} steps", p.steps.len());
        assert!(
            p.steps[0].actions.contains(&StepAction::OpenConsole),
            "{name}: the first step does not open a console"
        );
        assert!(!p.related_api.is_empty(), "{name}: no Related API operations");
    }
}

#[test]
fn every_step_that_acts_on_the_console_names_its_labels() {
    let acting = [StepAction::Click, StepAction::Navigate, StepAction::Confirm];
    for page in corpus() {
        for step in page.procedure.steps.iter().flat_map(|s| s.flatten()) {
            if step.actions.iter().any(|a| acting.contains(a)) {
                assert!(
                    !step.labels.is_empty() || !step.menu_path.is_empty(),
                    "{} step {} clicks but names no label: {}",
                    page.path.display(),
                    step.number,
                    step.text
                );
            }
        }
    }
}

/// The page's own line of a step: the list item whose text, without its markup, starts as the step.
fn source_line<'a>(source: &'a str, step_text: &str) -> Option<&'a str> {
    let head: String = step_text.chars().take(40).collect();
    source.lines().find(|line| {
        let plain = line.replace("**", "").replace('`', "");
        let item = plain
            .trim_start()
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim_start_matches(". ");
        item.starts_with(&head)
    })
}

#[test]
fn every_step_written_with_bold_labels_reads_with_its_labels() {
    let mut checked = 0;
    for page in corpus() {
        let source = std::fs::read_to_string(&page.path).unwrap();
        for step in page.procedure.steps.iter().flat_map(|s| s.flatten()) {
            let Some(line) = source_line(&source, &step.text) else {
                panic!(
                    "{}: no line of the page reads as step {}: {}",
                    page.path.display(),
                    step.number,
                    step.text
                );
            };
            if line.contains("**") {
                checked += 1;
                // Console names ("Log on to the **ECS console**") are no labels.
                let only_console = line.matches("**").count() == 2 && line.contains(" console**");
                assert!(
                    only_console || !step.labels.is_empty(),
                    "{} step {} names labels in bold but reads with none: {line}",
                    page.path.display(),
                    step.number
                );
            }
        }
    }
    assert!(checked > 300, "only {checked} steps name labels in bold");
}

#[test]
fn every_task_has_a_rule_its_page_names() {
    for page in corpus() {
        let name = page.path.display();
        let events = &page.task.rule.events;
        assert!(!events.is_empty(), "{name}: the success rule has no event");
        assert!(
            !page.task.rule.inferred,
            "{name}: a corpus rule is written, not inferred"
        );
        for matcher in events {
            // A buy page's order is the console operation `Create`; the page names the API behind it.
            let named = matcher.event_name == "Create" || page.procedure.related_api.contains(&matcher.event_name);
            assert!(
                named,
                "{name}: {} is not among the page's Related API operations",
                matcher.event_name
            );
        }
        if let Some(meta) = &page.task.meta {
            assert!(
                meta.terraform.contains("resource \"alicloud_"),
                "{name}: META declares no resource"
            );
            assert!(
                meta.terraform.contains("${var.suffix}"),
                "{name}: META names are not unique per run"
            );
        }
    }
}

#[test]
fn every_expected_drift_names_a_step_of_its_page() {
    let mut total = 0;
    for page in corpus() {
        let numbers: Vec<&str> = page
            .procedure
            .steps
            .iter()
            .flat_map(|s| s.flatten())
            .map(|s| s.number.as_str())
            .collect();
        for entry in &page.expected_drift {
            total += 1;
            assert!(
                numbers.contains(&entry.step.as_str()),
                "{}: expected drift at step {}, which the page does not have ({numbers:?})",
                page.path.display(),
                entry.step
            );
            assert!(
                !entry.documented.is_empty() || !entry.observed.is_empty(),
                "{}: an expected drift says neither what is documented nor what is observed",
                page.path.display()
            );
        }
    }
    assert!(total >= 43, "only {total} expected drifts");
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

const PAGE: &str = "# Virtual Private Cloud:Delete a VPC\n\nLast Updated: Jan 05, 2026\n\n## Procedure\n\n\
1. Log on to the **VPC console**.\n2. In the left-side navigation pane, click **VPCs**.\n\
3. Find the VPC and click **Delete** in the **Actions** column.\n";

const SIDECAR: &str = "profile = \"2026\"\nproduct = \"vpc\"\n\n[[rule.events]]\nevent_name = \"DeleteVpc\"\n";

#[test]
fn a_page_with_its_sidecar_loads_with_its_task() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "vpc/delete-vpc.md", PAGE);
    write(
        dir.path(),
        "vpc/delete-vpc.task.toml",
        &format!(
            "{SIDECAR}\n[[expected_drift]]\nstep = \"3\"\nkind = \"moved_control\"\ndocumented = \"Delete\"\ndocumented_at = \"actions_column\"\nobserved = \"Delete\"\nobserved_at = \"more_menu\"\npage = \"vpcs\"\n"
        ),
    );
    let pages = load_corpus(dir.path()).unwrap();
    assert_eq!(pages.len(), 1);
    let page = &pages[0];
    assert_eq!(page.slug(), "delete-vpc");
    assert_eq!(page.procedure.steps.len(), 3);
    assert_eq!(page.task.region, "cn-hangzhou");
    assert_eq!(page.task.rule.events[0].event_name, "DeleteVpc");
    let drift = &page.expected_drift[0];
    assert_eq!(drift.observed_place(), aca_docs::corpus::UiPlace::MoreMenu);
    assert_eq!(drift.page.as_deref(), Some("vpcs"));
}

#[test]
fn a_page_without_a_sidecar_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let page = write(dir.path(), "vpc/delete-vpc.md", PAGE);
    match load_corpus(dir.path()) {
        Err(CorpusError::MissingSidecar { page: named, expected }) => {
            assert_eq!(named, page);
            assert!(expected.ends_with("delete-vpc.task.toml"));
        }
        other => panic!("expected a missing sidecar, got {other:?}"),
    }
}

#[test]
fn a_sidecar_without_a_page_is_named() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "vpc/delete-vpc.md", PAGE);
    write(dir.path(), "vpc/delete-vpc.task.toml", SIDECAR);
    let orphan = write(dir.path(), "vpc/old.task.toml", SIDECAR);
    match load_corpus(dir.path()) {
        Err(CorpusError::OrphanSidecar { sidecar, .. }) => assert_eq!(sidecar, orphan),
        other => panic!("expected an orphan sidecar, got {other:?}"),
    }
}

#[test]
fn bad_sidecars_are_named_with_the_fault() {
    let cases = [
        ("profile = \"2026\"\nproduct = ", "TOML parse error"),
        ("profile = \"2026\"\nproduct = \"vpc\"\n", "rule"),
        (
            "profile = \"2026\"\nproduct = \"vpc\"\n[rule]\nevents = []\n[[expected_drift]]\nstep = \"1\"\nkind = \"renamed\"\n",
            "renamed",
        ),
    ];
    for (text, needle) in cases {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "vpc/p.md", PAGE);
        let sidecar = write(dir.path(), "vpc/p.task.toml", text);
        match load_corpus(dir.path()) {
            Err(e @ CorpusError::BadSidecar { .. }) => {
                let message = e.to_string();
                assert!(message.contains(&sidecar.display().to_string()), "{message}");
                assert!(message.contains(needle), "{message} does not mention {needle}");
            }
            other => panic!("expected a bad sidecar for {text:?}, got {other:?}"),
        }
    }
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "vpc/p.md", PAGE);
    write(dir.path(), "vpc/p.task.toml", &format!("profle = \"2024\"\n{SIDECAR}"));
    assert!(matches!(
        load_corpus(dir.path()),
        Err(CorpusError::UnknownKey { key, .. }) if key == "profle"
    ));
}

#[test]
fn a_page_that_does_not_parse_or_sits_in_the_wrong_folder_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let page = write(dir.path(), "vpc/p.md", "# Just a title\n\nSome prose and no steps.\n");
    write(dir.path(), "vpc/p.task.toml", SIDECAR);
    match load_corpus(dir.path()) {
        Err(CorpusError::BadPage { path, .. }) => assert_eq!(path, page),
        other => panic!("expected a bad page, got {other:?}"),
    }
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "ecs/p.md", PAGE);
    write(dir.path(), "ecs/p.task.toml", SIDECAR);
    assert!(matches!(
        load_corpus(dir.path()),
        Err(CorpusError::ProductMismatch { declared, folder, .. }) if declared == "vpc" && folder == "ecs"
    ));
    let empty = tempfile::tempdir().unwrap();
    assert!(matches!(load_corpus(empty.path()), Err(CorpusError::NoPages { .. })));
}

#[test]
fn a_sidecar_is_a_task_spec() {
    let task: TaskSpec = toml::from_str(SIDECAR).unwrap();
    assert_eq!(task.product, "vpc");
}

#[test]
fn every_page_is_in_exactly_one_set_of_the_split_and_the_test_set_covers_every_product() {
    use aca_docs::split::{Split, SplitSet};
    let dir = corpus_dir();
    let split = Split::load(&dir).unwrap_or_else(|e| panic!("{e}"));
    let pages: Vec<PathBuf> = corpus().into_iter().map(|p| p.path).collect();
    assert_eq!(split.problems(&dir, &pages), Vec::<String>::new());
    let tested: std::collections::BTreeSet<&str> = pages
        .iter()
        .filter(|p| split.set_of(&dir, p) == Some(SplitSet::Test))
        .filter_map(|p| p.parent()?.file_name()?.to_str())
        .collect();
    let products: std::collections::BTreeSet<&str> =
        pages.iter().filter_map(|p| p.parent()?.file_name()?.to_str()).collect();
    assert_eq!(tested, products, "every product has a topic in the test set");
}
