//! The suggested correction of a page (`aca verify --fix-diff`): every label the console shows under
//! another name, rewritten in the page's own Markdown source, as a unified diff a writer reviews and
//! applies (`patch -p0 < fix.diff`, or `git apply`).

use std::path::{Path, PathBuf};

use aca_core::{DefectKind, Report};
use aca_docs::fix::{Correction, correct};
use anyhow::Context;

/// What `--fix-diff` did for one page.
pub enum Suggested {
    /// The patch was written here; some defects may not have been placed, with why.
    Written { path: PathBuf, unplaced: Vec<String> },
    /// Nothing to suggest: why, in words.
    Nothing(String),
}

/// Writes `dir/fix.diff` for `report` of the Markdown page at `page`, when a renamed label can be
/// rewritten in it.
pub fn write(report: &Report, page: &Path, dir: &Path) -> anyhow::Result<Suggested> {
    let corrections: Vec<Correction> = report
        .defects
        .iter()
        .filter(|d| d.kind == DefectKind::RenamedLabel && !d.observed.trim().is_empty())
        .map(|d| Correction {
            step: d.step.clone(),
            documented: d.documented.trim_matches('"').to_owned(),
            observed: d.observed.trim_matches('"').to_owned(),
        })
        .collect();
    if corrections.is_empty() {
        return Ok(Suggested::Nothing("no renamed label to rewrite".into()));
    }
    let markdown = matches!(
        page.extension().and_then(|e| e.to_str()),
        Some("md" | "markdown")
    );
    if !markdown {
        return Ok(Suggested::Nothing(
            "the page is not a local Markdown file, so there is no source to patch".into(),
        ));
    }
    let source = std::fs::read_to_string(page).with_context(|| format!("reading {}", page.display()))?;
    let corrected = correct(&source, &corrections);
    let unplaced = corrected
        .unplaced
        .iter()
        .map(|(c, why)| format!("step {}: {}", c.step, why))
        .collect();
    if corrected.source == source {
        return Ok(Suggested::Nothing(format!(
            "no renamed label could be placed in the source ({})",
            corrected
                .unplaced
                .iter()
                .map(|(_, why)| why.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        )));
    }
    let name = page.display().to_string();
    let diff = similar::TextDiff::from_lines(&source, &corrected.source)
        .unified_diff()
        .context_radius(2)
        .header(&name, &name)
        .to_string();
    let path = dir.join("fix.diff");
    std::fs::write(&path, diff).with_context(|| format!("writing {}", path.display()))?;
    Ok(Suggested::Written { path, unplaced })
}
