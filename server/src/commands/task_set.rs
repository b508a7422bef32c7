//! A task set: the example pages of a folder's split, each on the console releases asked for. What
//! `aca bench agent` scores and `aca train collect` records.

use std::path::Path;

use aca_console::profile::ProfileId;
use aca_docs::corpus::ExpectedDrift;
use aca_docs::split::{Split, SplitSet};
use anyhow::{anyhow, bail};
use clap::ValueEnum;

use super::bench::{example_pages, read_example, written_for};
use crate::verify::page::PageInput;

/// The console releases a page runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum Releases {
    /// The release it was written for: nothing to report, the operation must happen.
    Own,
    /// The other release: its known drift should be reported.
    Other,
    Both,
}

/// One task: a page on one console release.
pub(super) struct Task {
    /// `PAGE@RELEASE`.
    pub id: String,
    pub input: PageInput,
    pub product: String,
    pub difficulty: aca_core::Difficulty,
    pub profile: ProfileId,
    /// Whether the task runs on the release the page was not written for (read by `aca train`).
    #[cfg_attr(not(feature = "train"), allow(dead_code))]
    pub drifted: bool,
    /// What the run should report: nothing on the page's own release, its known drift on the other.
    pub expected: Vec<ExpectedDrift>,
}

/// The pages of `dir` in `set` of its split.toml (all pages when `None`), the first `pages` of them
/// only, each on `releases`, in path order.
pub(super) async fn load(
    dir: &Path,
    set: Option<SplitSet>,
    releases: Releases,
    pages: Option<usize>,
) -> anyhow::Result<Vec<Task>> {
    let mut sources = example_pages(dir)?;
    if let Some(set) = set {
        let split = Split::load(dir).map_err(|e| anyhow!("{e} (or run with --split all)"))?;
        let problems = split.problems(dir, &sources);
        if let Some(first) = problems.first() {
            bail!(
                "the split does not cover the task folder: {first} ({} problem(s))",
                problems.len()
            );
        }
        sources.retain(|p| split.set_of(dir, p) == Some(set));
    }
    if let Some(n) = pages {
        sources.truncate(n);
    }
    let mut tasks = Vec::new();
    for source in &sources {
        let (corpus, input) = read_example(source).await?;
        let own = written_for(&corpus)?;
        let other = own.other();
        let runs = match releases {
            Releases::Own => vec![(own, false)],
            Releases::Other => vec![(other, true)],
            Releases::Both => vec![(own, false), (other, true)],
        };
        for (profile, drifted) in runs {
            tasks.push(Task {
                id: format!("{}@{profile}", source.display()),
                input: input.clone(),
                product: corpus.task.product.clone(),
                difficulty: corpus.task.difficulty,
                profile,
                drifted,
                expected: if drifted {
                    corpus.expected_drift.clone()
                } else {
                    Vec::new()
                },
            });
        }
    }
    anyhow::ensure!(!tasks.is_empty(), "{} holds no task pages in that split", dir.display());
    Ok(tasks)
}
