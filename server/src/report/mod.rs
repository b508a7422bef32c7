//! Writing a verification report to disk: `report.json` for machines and a self-contained
//! `report.html` (styles inline, screenshots embedded) for the writer.

pub mod fix;
mod html;

use std::path::{Path, PathBuf};

use aca_core::Report;
use anyhow::Context;

pub use html::{render, status_label, verdict_label};

/// Writes `report.json` and `report.html` into `dir` (created if needed); returns the HTML's path.
/// Screenshots named in the report are read from `dir` and embedded; a missing one is shown as such.
pub fn write(report: &Report, dir: &Path) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create the report folder {}", dir.display()))?;
    let json = serde_json::to_string_pretty(report)?;
    let json_path = dir.join("report.json");
    std::fs::write(&json_path, json).with_context(|| format!("cannot write {}", json_path.display()))?;
    let html = render(report, |relative| std::fs::read(dir.join(relative)).ok());
    let html_path = dir.join("report.html");
    std::fs::write(&html_path, html.into_string()).with_context(|| format!("cannot write {}", html_path.display()))?;
    Ok(html_path)
}
