//! The corpus split into `train` and `test` by documentation topic (`<corpus>/split.toml`), so that
//! training never sees a page the benchmark scores. A page and its version for the other console
//! release (`<slug>-2024.md`) document one topic (one documentation URL) and share its set.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The split's file name inside the corpus folder.
pub const SPLIT_FILE: &str = "split.toml";

/// Which set a page belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SplitSet {
    Train,
    Test,
}

impl SplitSet {
    pub fn name(self) -> &'static str {
        match self {
            Self::Train => "train",
            Self::Test => "test",
        }
    }
}

/// The two sets of topics (`<product>/<slug>`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Split {
    pub train: BTreeSet<String>,
    pub test: BTreeSet<String>,
}

/// The topic a page documents: its product folder and slug, without the older release's `-2024`.
pub fn topic_of(corpus: &Path, page: &Path) -> Option<String> {
    let relative = page.strip_prefix(corpus).ok()?;
    let product = relative.parent()?.to_str()?;
    let slug = relative.file_stem()?.to_str()?;
    let slug = slug.strip_suffix("-2024").unwrap_or(slug);
    Some(format!("{product}/{slug}"))
}

impl Split {
    /// Reads `<corpus>/split.toml`; a topic in both sets is an error.
    pub fn load(corpus: &Path) -> Result<Split, String> {
        let path = corpus.join(SPLIT_FILE);
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let split: Split = toml::from_str(&text).map_err(|e| format!("{} is not a split: {e}", path.display()))?;
        if let Some(both) = split.train.intersection(&split.test).next() {
            return Err(format!("{}: topic {both} is in both train and test", path.display()));
        }
        Ok(split)
    }

    pub fn set_of(&self, corpus: &Path, page: &Path) -> Option<SplitSet> {
        let topic = topic_of(corpus, page)?;
        if self.test.contains(&topic) {
            Some(SplitSet::Test)
        } else if self.train.contains(&topic) {
            Some(SplitSet::Train)
        } else {
            None
        }
    }

    /// Why `pages` and the split disagree: pages in no set, topics with no page.
    pub fn problems(&self, corpus: &Path, pages: &[PathBuf]) -> Vec<String> {
        let mut problems = Vec::new();
        let mut seen = BTreeSet::new();
        for page in pages {
            match topic_of(corpus, page) {
                Some(topic) if self.train.contains(&topic) || self.test.contains(&topic) => {
                    seen.insert(topic);
                }
                _ => problems.push(format!(
                    "{} is in neither set of {}",
                    page.display(),
                    corpus.join(SPLIT_FILE).display()
                )),
            }
        }
        for topic in self.train.iter().chain(&self.test) {
            if !seen.contains(topic) {
                problems.push(format!("topic {topic} has no page"));
            }
        }
        problems
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_and_its_older_release_share_a_topic_and_its_set() {
        let corpus = Path::new("tests/corpus");
        let now = corpus.join("vpc/create-vpc.md");
        let then = corpus.join("vpc/create-vpc-2024.md");
        assert_eq!(topic_of(corpus, &now).as_deref(), Some("vpc/create-vpc"));
        assert_eq!(topic_of(corpus, &then), topic_of(corpus, &now));
        let split: Split = toml::from_str("train = [\"vpc/create-vpc\"]\ntest = [\"vpc/delete-vpc\"]").unwrap();
        assert_eq!(split.set_of(corpus, &then), Some(SplitSet::Train));
        assert_eq!(split.set_of(corpus, &corpus.join("vpc/delete-vpc.md")), Some(SplitSet::Test));
        assert_eq!(split.set_of(corpus, &corpus.join("vpc/other.md")), None);
        let problems = split.problems(corpus, &[now, corpus.join("ecs/x.md")]);
        assert!(problems.iter().any(|p| p.contains("ecs/x.md is in neither set")), "{problems:?}");
        assert!(problems.iter().any(|p| p.contains("vpc/delete-vpc has no page")), "{problems:?}");
    }
}
