//! The fidelity table (`crates/aca-console/FIDELITY.md`) covers every label the real-page corpus
//! touches: each UI label, menu-path item, navigation item and container that a step of a current
//! or defective page in `tests/real-pages/<product>/` names is quoted in the "label in the real
//! docs" column of that product's section, so every label can be traced to the page it comes from.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use aca_docs::real_pages::read_corpus;
use aca_docs::{Format, parse};

/// Each real-page folder and the sections of the table (by the start of their heading) that
/// trace its labels.
const SECTIONS: [(&str, &[&str]); 14] = [
    ("ack", &["ACK"]),
    ("actiontrail", &["ActionTrail"]),
    ("alb", &["ALB"]),
    ("cms", &["CloudMonitor"]),
    ("dns", &["DNS"]),
    ("ecs", &["ECS"]),
    ("kms", &["KMS"]),
    ("oss", &["OSS"]),
    ("ram", &["RAM"]),
    ("rds", &["RDS"]),
    ("slb", &["CLB"]),
    ("sls", &["SLS"]),
    ("tair", &["Tair", "Expenses and Costs"]),
    ("vpc", &["VPC"]),
];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The table's "label in the real docs" cells, lower-cased, by section heading.
fn docs_labels(table: &str) -> BTreeMap<String, Vec<String>> {
    let mut sections: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in table.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            current = Some(heading.trim().to_owned());
            sections.entry(heading.trim().to_owned()).or_default();
        } else if let (Some(section), Some(row)) = (&current, line.strip_prefix('|')) {
            let cells: Vec<&str> = row.split('|').collect();
            if cells.len() > 2 {
                sections
                    .get_mut(section)
                    .expect("the section was entered")
                    .push(cells[1].to_lowercase());
            }
        }
    }
    sections
}

/// Every label a current or defective page names that its product's sections do not quote, one
/// line each (`page step N: "label"`).
fn untraced(table: &str, pages_root: &Path) -> Vec<String> {
    let sections = docs_labels(table);
    let mut out = Vec::new();
    let pages = read_corpus(pages_root).unwrap_or_else(|e| panic!("the real pages: {e}"));
    for page in pages.iter().filter(|p| p.source.flow != "old") {
        let Some((_, headings)) = SECTIONS.iter().find(|(folder, _)| *folder == page.product) else {
            out.push(format!(
                "{}: no section of the table is named for the folder {:?} (add it to SECTIONS)",
                page.path.display(),
                page.product
            ));
            continue;
        };
        let cells: Vec<&String> = sections
            .iter()
            .filter(|(heading, _)| headings.iter().any(|h| heading.starts_with(h)))
            .flat_map(|(_, cells)| cells)
            .collect();
        let src = std::fs::read_to_string(&page.path).unwrap_or_else(|e| panic!("{}: {e}", page.path.display()));
        let procedure = parse(&src, Format::Markdown).unwrap_or_else(|e| panic!("{}: {e}", page.path.display()));
        let name = page.path.strip_prefix(pages_root).unwrap_or(&page.path);
        for step in procedure.steps.iter().flat_map(|s| s.flatten()) {
            let named = step
                .labels
                .iter()
                .chain(&step.menu_path)
                .chain(&step.navigation)
                .chain(step.container.as_ref().map(|c| &c.name));
            for label in named {
                let wanted = label.to_lowercase();
                if !cells.iter().any(|cell| cell.contains(&wanted)) {
                    out.push(format!("{} step {}: {label:?}", name.display(), step.number));
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

#[test]
fn the_fidelity_table_quotes_every_label_of_the_current_real_pages() {
    let root = repo_root();
    let table = std::fs::read_to_string(root.join("crates/aca-console/FIDELITY.md")).expect("FIDELITY.md is readable");
    let missing = untraced(&table, &root.join("tests/real-pages"));
    assert!(
        missing.is_empty(),
        "{} labels of current real pages have no row in crates/aca-console/FIDELITY.md \
         (add one to the product's section, with the source page and what the emulator shows):\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn a_label_no_row_quotes_is_named_with_its_page_and_step() {
    let root = repo_root();
    let table = std::fs::read_to_string(root.join("crates/aca-console/FIDELITY.md")).expect("FIDELITY.md is readable");
    // The table with the ECS section's rows that quote "Reset Instance Password" left out.
    let mut in_ecs = false;
    let cut: String = table
        .lines()
        .filter(|line| {
            if let Some(heading) = line.strip_prefix("## ") {
                in_ecs = heading.starts_with("ECS");
            }
            !(in_ecs && line.starts_with('|') && line.contains("Reset Instance Password"))
        })
        .map(|line| format!("{line}\n"))
        .collect();
    let missing = untraced(&cut, &root.join("tests/real-pages"));
    assert!(
        missing
            .iter()
            .any(|m| m.starts_with("ecs/reset-password.md step ") && m.ends_with("\"Reset Instance Password\"")),
        "{missing:?}"
    );
    // A label quoted only by another product's section is not traced.
    let moved = cut.replace("## ECS", "## Elsewhere");
    assert!(
        untraced(&moved, &root.join("tests/real-pages"))
            .iter()
            .any(|m| m.starts_with("ecs/stop-instance.md")),
    );
}
