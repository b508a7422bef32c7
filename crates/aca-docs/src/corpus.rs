//! The example corpus: procedure pages (`<product>/<slug>.md`) each with a task sidecar
//! (`<slug>.task.toml`) that says which console release the page was written for, the audit events
//! that prove it ran, what must exist first, and where the page drifts from the other release.
//!
//! A sidecar is a [`TaskSpec`] (`profile`, `product`, `region`, `rule`, `meta`) plus a list of
//! `[[expected_drift]]` entries. Success rules and Terraform name run-time bindings as `${suffix}`
//! (the run's unique suffix) and `${<terraform resource name>_id}` (a provisioned resource's id, for
//! example `${vpc_id}` for `resource "alicloud_vpc" "vpc"`).

use std::path::{Path, PathBuf};

use aca_core::{DefectKind, Procedure, TaskSpec};
use serde::{Deserialize, Serialize};

use crate::DocError;

/// The keys a sidecar may have at its top level.
const SIDECAR_KEYS: &[&str] = &["profile", "product", "region", "rule", "meta", "difficulty", "expected_drift"];

/// One page of the corpus with everything its sidecar declares.
#[derive(Debug, Clone)]
pub struct CorpusPage {
    /// The Markdown page.
    pub path: PathBuf,
    pub procedure: Procedure,
    pub task: TaskSpec,
    /// Where the page disagrees with the console release it was not written for.
    pub expected_drift: Vec<ExpectedDrift>,
}

impl CorpusPage {
    /// The page's file name without `.md`.
    pub fn slug(&self) -> &str {
        self.path.file_stem().and_then(|s| s.to_str()).unwrap_or("")
    }
}

/// One difference a run of the page against the other release must report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectedDrift {
    /// The step's number as the page writes it (`"4"`, `"5.2"`, `"Step 2 › 1"`).
    pub step: String,
    pub kind: DefectKind,
    /// What the page says: a label, a menu path `A > B`, a row action, or the order of a wizard's
    /// steps `A > B > C`; empty when the page says nothing (a field it does not mention).
    #[serde(default)]
    pub documented: String,
    /// What the other release shows instead; empty when it shows nothing in its place.
    #[serde(default)]
    pub observed: String,
    /// Where `documented` sits in the console.
    #[serde(default)]
    pub documented_at: UiPlace,
    /// Where `observed` sits; the same place as `documented` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_at: Option<UiPlace>,
    /// The console page the difference is on, by the emulator's page id (`vpcs`, `instances`), or
    /// `nav` for the navigation pane and `product` for the console's name; the whole product when
    /// absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<String>,
}

impl ExpectedDrift {
    pub fn observed_place(&self) -> UiPlace {
        self.observed_at.unwrap_or(self.documented_at)
    }
}

/// Where a label lives in the console, for the drift entries that need more than its text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UiPlace {
    /// Any text the console shows: a button, a title, a field label, an option.
    #[default]
    Label,
    /// The title of a page, a dialog box or a panel.
    Title,
    /// The label of a form field.
    Field,
    /// A path of the left-side navigation pane, `Group > Item` or a top-level `Item`.
    Menu,
    /// A link in a list's Actions column.
    ActionsColumn,
    /// An item of the More menu in a list's Actions column.
    MoreMenu,
    /// An item of the All Actions pane of a details page.
    AllActions,
    /// A button below a list that acts on the selected rows.
    BatchBar,
    /// The order of a wizard's or buy page's steps, `A > B > C`.
    Steps,
}

/// Why the corpus could not be loaded; every variant names the file concerned.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CorpusError {
    #[error("cannot read {path}: {message}")]
    Io { path: PathBuf, message: String },
    #[error("{dir} holds no pages")]
    NoPages { dir: PathBuf },
    #[error("{page} has no sidecar (expected {expected})")]
    MissingSidecar { page: PathBuf, expected: PathBuf },
    #[error("{sidecar} belongs to no page (expected {expected})")]
    OrphanSidecar { sidecar: PathBuf, expected: PathBuf },
    #[error("{path} is not a valid task sidecar: {message}")]
    BadSidecar { path: PathBuf, message: String },
    #[error("{path} has an unknown key `{key}` (expected one of {})", SIDECAR_KEYS.join(", "))]
    UnknownKey { path: PathBuf, key: String },
    #[error("{path} is for product `{declared}` but lies in the `{folder}` folder")]
    ProductMismatch {
        path: PathBuf,
        declared: String,
        folder: String,
    },
    #[error("{path} does not parse as a procedure: {source}")]
    BadPage {
        path: PathBuf,
        #[source]
        source: DocError,
    },
}

/// What a sidecar holds besides the [`TaskSpec`].
#[derive(Debug, Deserialize)]
struct DriftList {
    #[serde(default)]
    expected_drift: Vec<ExpectedDrift>,
}

/// The sidecar of `page`: `x.md` → `x.task.toml`.
pub fn sidecar_path(page: &Path) -> PathBuf {
    page.with_extension("task.toml")
}

/// Loads every page under `dir` (recursively), in path order.
pub fn load_corpus(dir: &Path) -> Result<Vec<CorpusPage>, CorpusError> {
    let mut files = Vec::new();
    walk(dir, &mut files)?;
    files.sort();
    let pages: Vec<&PathBuf> = files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    for sidecar in files.iter().filter(|p| is_sidecar(p)) {
        let name = sidecar.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let expected = sidecar.with_file_name(name.trim_end_matches(".task.toml").to_owned() + ".md");
        if !expected.is_file() {
            return Err(CorpusError::OrphanSidecar {
                sidecar: sidecar.clone(),
                expected,
            });
        }
    }
    if pages.is_empty() {
        return Err(CorpusError::NoPages { dir: dir.to_owned() });
    }
    pages.into_iter().map(|p| load_page(p)).collect()
}

/// Loads one page and its sidecar.
pub fn load_page(path: &Path) -> Result<CorpusPage, CorpusError> {
    let sidecar = sidecar_path(path);
    if !sidecar.is_file() {
        return Err(CorpusError::MissingSidecar {
            page: path.to_owned(),
            expected: sidecar,
        });
    }
    let text = read(path)?;
    let procedure = crate::parse_markdown(&text).map_err(|source| CorpusError::BadPage {
        path: path.to_owned(),
        source,
    })?;
    let (task, expected_drift) = read_sidecar(&sidecar)?;
    let folder = path
        .parent()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str())
        .unwrap_or("");
    if folder != task.product {
        return Err(CorpusError::ProductMismatch {
            path: sidecar,
            declared: task.product,
            folder: folder.to_owned(),
        });
    }
    Ok(CorpusPage {
        path: path.to_owned(),
        procedure,
        task,
        expected_drift,
    })
}

/// Reads a sidecar: its task and its expected drift.
pub fn read_sidecar(path: &Path) -> Result<(TaskSpec, Vec<ExpectedDrift>), CorpusError> {
    let text = read(path)?;
    let bad = |message: String| CorpusError::BadSidecar {
        path: path.to_owned(),
        message,
    };
    let table: toml::Table = toml::from_str(&text).map_err(|e| bad(e.to_string()))?;
    if let Some(key) = table.keys().find(|k| !SIDECAR_KEYS.contains(&k.as_str())) {
        return Err(CorpusError::UnknownKey {
            path: path.to_owned(),
            key: key.clone(),
        });
    }
    let task: TaskSpec = toml::from_str(&text).map_err(|e| bad(e.to_string()))?;
    let drift: DriftList = toml::from_str(&text).map_err(|e| bad(e.to_string()))?;
    Ok((task, drift.expected_drift))
}

fn is_sidecar(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(".task.toml"))
}

fn read(path: &Path) -> Result<String, CorpusError> {
    std::fs::read_to_string(path).map_err(|e| CorpusError::Io {
        path: path.to_owned(),
        message: e.to_string(),
    })
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), CorpusError> {
    let io = |e: std::io::Error| CorpusError::Io {
        path: dir.to_owned(),
        message: e.to_string(),
    };
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}
