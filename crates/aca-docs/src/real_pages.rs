//! The real-page corpus's `sources.toml`: for every page of a product folder, the help page it was
//! written from, that page's date, whether it is the current flow, an old one or a page whose text
//! is itself defective, and, for an old one, its current page and the differences (each naming the
//! step where it starts), for a defective one, its defects.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::DocError;

/// A product folder's `sources.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sources {
    #[serde(default)]
    pub page: Vec<PageSource>,
}

/// One page's entry.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageSource {
    /// The page's file name in the folder.
    pub file: String,
    /// The stored help page it was written from.
    pub url: String,
    /// The help page's own Last Updated date (`YYYY-MM-DD`) or `unknown`.
    pub updated: String,
    /// `current`, `old` or `defective`, kept as written so a check can name a wrong value.
    pub flow: String,
    /// Old pages: the current version's file.
    pub current: Option<String>,
    /// Old pages: how the flow differs from the current one, each as `step N: …`.
    #[serde(default)]
    pub differences: Vec<String>,
    /// Defective pages: what is wrong with the page's own text, each as `step N: …`.
    #[serde(default)]
    pub defects: Vec<String>,
    /// The page was written from the archived Markdown source of the help pages.
    #[serde(default)]
    pub archived: bool,
}

/// Where a difference starts, as its `step N:` prefix says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DifferenceAt {
    /// Top-level steps `first..=last` (`step 3`, `steps 1-3`).
    Steps { first: u32, last: u32 },
    /// A step written another way (`Step 1 › 2` of a sectioned page), as written after "step".
    Named(String),
    /// The page as a whole (`console: …`, a missing section): any step is the right one.
    Page,
}

impl DifferenceAt {
    /// Reads the place from a difference line such as `steps 1-2: Log on to …`.
    pub fn of(difference: &str) -> Self {
        let Some((head, _)) = difference.split_once(':') else {
            return Self::Page;
        };
        let head = head.trim().to_lowercase();
        let head = head.strip_prefix("no ").unwrap_or(&head);
        let Some(place) = head
            .strip_prefix("steps ")
            .or_else(|| head.strip_prefix("step "))
            .map(str::trim)
        else {
            return Self::Page;
        };
        let range = place
            .split_once('-')
            .map(|(a, b)| (a.trim().parse().ok(), b.trim().parse().ok()));
        match range {
            Some((Some(first), Some(last))) => Self::Steps { first, last },
            Some(_) => Self::Named(place.to_owned()),
            None => match place.parse() {
                Ok(n) => Self::Steps { first: n, last: n },
                Err(_) => Self::Named(place.to_owned()),
            },
        }
    }

    /// Whether a defect reported at `step` (as the page writes the step's number: `3`, `3.2`,
    /// `Step 1 › 2`) is at this place.
    pub fn contains(&self, step: &str) -> bool {
        match self {
            Self::Page => true,
            Self::Steps { first, last } => {
                let top: String = step.trim().chars().take_while(char::is_ascii_digit).collect();
                top.parse::<u32>().is_ok_and(|n| (*first..=*last).contains(&n))
            }
            Self::Named(place) => {
                let step = step.trim().to_lowercase();
                let step = step.strip_prefix("step ").unwrap_or(&step);
                step == place || step.starts_with(&format!("{place}."))
            }
        }
    }
}

/// Reads a product folder's `sources.toml`.
pub fn read_sources(folder: &Path) -> Result<Sources, DocError> {
    let path = folder.join("sources.toml");
    let io = |message: String| DocError::Io {
        path: path.display().to_string(),
        message,
    };
    let text = std::fs::read_to_string(&path).map_err(|e| io(e.to_string()))?;
    toml::from_str(&text).map_err(|e| io(e.to_string()))
}

/// A page of the corpus with its entry.
#[derive(Debug, Clone)]
pub struct RealPage {
    pub path: PathBuf,
    /// The product folder's name (`ecs`, `vpc`).
    pub product: String,
    pub source: PageSource,
}

/// Every page of the corpus under `root` (one folder per product) that has a `sources.toml`
/// entry, in path order.
pub fn read_corpus(root: &Path) -> Result<Vec<RealPage>, DocError> {
    let io = |path: &Path, e: std::io::Error| DocError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let mut folders: Vec<PathBuf> = std::fs::read_dir(root)
        .map_err(|e| io(root, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    let mut pages = Vec::new();
    for folder in folders {
        let product = folder
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for source in read_sources(&folder)?.page {
            pages.push(RealPage {
                path: folder.join(&source.file),
                product: product.clone(),
                source,
            });
        }
    }
    pages.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(pages)
}

#[cfg(test)]
mod tests {
    use super::DifferenceAt;

    #[test]
    fn a_difference_names_the_step_it_starts_at() {
        let at = DifferenceAt::of;
        assert_eq!(
            at("step 3: click the trail name"),
            DifferenceAt::Steps { first: 3, last: 3 }
        );
        assert_eq!(
            at("steps 1-3: Log on to the VPC console"),
            DifferenceAt::Steps { first: 1, last: 3 }
        );
        assert_eq!(at("step 1-2: Log on"), DifferenceAt::Steps { first: 1, last: 2 });
        assert_eq!(
            at("no Step 1: Activate ACK section"),
            DifferenceAt::Steps { first: 1, last: 1 }
        );
        assert_eq!(
            at("Step 1 › 2: In the left-side navigation pane"),
            DifferenceAt::Named("1 › 2".into())
        );
        assert_eq!(
            at("console: Log on to the Server Load Balancer console"),
            DifferenceAt::Page
        );
        assert_eq!(at("the whole flow differs"), DifferenceAt::Page);
    }

    #[test]
    fn a_defect_is_at_the_place_when_its_step_falls_in_it() {
        let three = DifferenceAt::of("steps 2-3: x");
        assert!(three.contains("2") && three.contains("3.1"));
        assert!(!three.contains("1") && !three.contains("4") && !three.contains(""));
        let named = DifferenceAt::of("Step 1 › 2: x");
        assert!(named.contains("Step 1 › 2") && named.contains("1 › 2"));
        assert!(!named.contains("Step 1 › 3") && !named.contains("2"));
        assert!(DifferenceAt::Page.contains("7"));
    }
}
