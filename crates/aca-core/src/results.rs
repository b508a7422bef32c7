//! The platform's results as its API sends them and its dashboard reads them: a run as listed, the
//! totals, a page's current defects, flaky pages, and the overview the dashboard's first view
//! shows. One type per answer, used by the server (which fills them from its database) and by the
//! dashboard (compiled to WebAssembly) alike.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// A run as listed: the report's numbers without its turns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRow {
    pub id: String,
    pub job_id: Option<String>,
    pub attempt: i64,
    pub tree: String,
    pub page: String,
    pub title: String,
    pub product: Option<String>,
    pub verdict: String,
    pub summary: String,
    pub started_ms: i64,
    pub duration_ms: i64,
    pub defects: i64,
    pub prompt_tokens: i64,
    pub completion_tokens: i64,
    pub cost_usd: Option<f64>,
    /// Screenshots the model was shown, and their tokens (a part of `prompt_tokens`).
    #[serde(default)]
    pub images: i64,
    #[serde(default)]
    pub image_tokens: i64,
}

/// Totals over every run, for `/metrics` and summaries.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    /// Runs by verdict (`pass`, `doc_defect`, …).
    pub by_verdict: Vec<(String, i64)>,
    pub runs: i64,
    pub duration_ms: i64,
    pub prompt_tokens: i64,
    pub completion_tokens: i64,
    pub cost_usd: f64,
    /// Screenshots the model was shown, and their tokens (a part of `prompt_tokens`).
    #[serde(default)]
    pub images: i64,
    #[serde(default)]
    pub image_tokens: i64,
}

/// A page whose verdict changed with its text unchanged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FlakyPage {
    pub page: String,
    pub page_digest: String,
    /// How many different verdicts its runs of that text had.
    pub verdicts: i64,
    pub runs: i64,
}

/// How many runs of one verdict started on one UTC day.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DayCount {
    /// The day's midnight, Unix ms.
    pub day_ms: i64,
    pub verdict: String,
    pub runs: i64,
}

/// A defect of a page's latest run, or one it no longer has.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CurrentDefect {
    pub page: String,
    pub step: String,
    pub kind: String,
    pub confidence: String,
    pub documented: String,
    pub observed: String,
    /// The run that found it (for a fixed one, the last run that did).
    pub run_id: String,
    pub product: Option<String>,
    pub tree: String,
    pub state: DefectState,
}

/// Where a defect stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DefectState {
    /// In the page's latest run, not marked as known.
    New,
    /// In the page's latest run, marked as known by a person.
    Known,
    /// Found by an earlier run, gone from the latest, which reached a verdict on the page.
    Fixed,
}

impl DefectState {
    /// The state a name (`new`, `known`, `fixed`) names.
    pub fn from_name(name: &str) -> Option<Self> {
        [Self::New, Self::Known, Self::Fixed]
            .into_iter()
            .find(|s| s.as_str() == name)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::New => "new",
            Self::Known => "known",
            Self::Fixed => "fixed",
        }
    }
}

/// The latest runs of one product's or one tree's pages: how many pages, and how many of them in
/// each verdict.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Group {
    pub name: String,
    pub pages: i64,
    pub passed: i64,
    pub doc_defect: i64,
    pub environment_failure: i64,
    pub agent_failure: i64,
    pub unverified: i64,
}

impl Group {
    fn count(&mut self, verdict: &str) {
        self.pages += 1;
        match verdict {
            "pass" => self.passed += 1,
            "doc_defect" => self.doc_defect += 1,
            "environment_failure" => self.environment_failure += 1,
            "agent_failure" => self.agent_failure += 1,
            _ => self.unverified += 1,
        }
    }

    /// `runs` (each page's latest) grouped by `key`, in name order.
    pub fn of<'a>(runs: &'a [RunRow], key: impl Fn(&'a RunRow) -> &'a str) -> Vec<Group> {
        let mut groups: BTreeMap<&str, Group> = BTreeMap::new();
        for run in runs {
            let name = key(run);
            groups
                .entry(name)
                .or_insert_with(|| Group {
                    name: name.to_owned(),
                    ..Group::default()
                })
                .count(&run.verdict);
        }
        groups.into_values().collect()
    }
}

/// How many defects of one kind are new, known and fixed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KindCount {
    pub kind: String,
    pub new: i64,
    pub known: i64,
    pub fixed: i64,
}

impl KindCount {
    /// The defects counted by kind, in kind order.
    pub fn of(defects: &[CurrentDefect]) -> Vec<KindCount> {
        let mut kinds: BTreeMap<&str, KindCount> = BTreeMap::new();
        for defect in defects {
            let count = kinds.entry(&defect.kind).or_insert_with(|| KindCount {
                kind: defect.kind.clone(),
                new: 0,
                known: 0,
                fixed: 0,
            });
            match defect.state {
                DefectState::New => count.new += 1,
                DefectState::Known => count.known += 1,
                DefectState::Fixed => count.fixed += 1,
            }
        }
        kinds.into_values().collect()
    }
}

/// `GET /v1/results/overview`: everything the dashboard's first view shows, in one answer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Overview {
    pub totals: Totals,
    pub per_day: Vec<DayCount>,
    /// Each page's latest run, by product.
    pub by_product: Vec<Group>,
    /// Each page's latest run, by documentation tree.
    pub by_tree: Vec<Group>,
    pub defects_by_kind: Vec<KindCount>,
    pub flaky: Vec<FlakyPage>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(page: &str, product: Option<&str>, tree: &str, verdict: &str) -> RunRow {
        RunRow {
            id: page.into(),
            job_id: None,
            attempt: 1,
            tree: tree.into(),
            page: page.into(),
            title: page.into(),
            product: product.map(str::to_owned),
            verdict: verdict.into(),
            summary: String::new(),
            started_ms: 0,
            duration_ms: 0,
            defects: 0,
            prompt_tokens: 0,
            completion_tokens: 0,
            cost_usd: None,
            images: 0,
            image_tokens: 0,
        }
    }

    fn defect(kind: &str, state: DefectState) -> CurrentDefect {
        CurrentDefect {
            page: "a.md".into(),
            step: "1".into(),
            kind: kind.into(),
            confidence: "confirmed".into(),
            documented: "OK".into(),
            observed: "Confirm".into(),
            run_id: "r".into(),
            product: None,
            tree: "t".into(),
            state,
        }
    }

    #[test]
    fn groups_count_each_latest_run_under_its_verdict() {
        let runs = [
            run("a", Some("vpc"), "guide", "pass"),
            run("b", Some("vpc"), "guide", "doc_defect"),
            run("c", None, "api", "unverified"),
        ];
        let by_product = Group::of(&runs, |r| r.product.as_deref().unwrap_or("unknown"));
        assert_eq!(by_product.len(), 2);
        assert_eq!((by_product[0].name.as_str(), by_product[0].pages), ("unknown", 1));
        assert_eq!(
            (by_product[1].pages, by_product[1].passed, by_product[1].doc_defect),
            (2, 1, 1)
        );
        let by_tree = Group::of(&runs, |r| r.tree.as_str());
        assert_eq!(by_tree[0].unverified, 1);
    }

    #[test]
    fn kinds_count_new_known_and_fixed_and_states_read_back() {
        let defects = [
            defect("renamed_label", DefectState::New),
            defect("renamed_label", DefectState::Fixed),
            defect("moved_control", DefectState::Known),
        ];
        let kinds = KindCount::of(&defects);
        assert_eq!(kinds.len(), 2);
        assert_eq!((kinds[0].kind.as_str(), kinds[0].known), ("moved_control", 1));
        assert_eq!((kinds[1].new, kinds[1].fixed), (1, 1));
        let text = serde_json::to_string(&defects[1]).unwrap();
        assert!(text.contains("\"state\":\"fixed\""));
        assert_eq!(serde_json::from_str::<CurrentDefect>(&text).unwrap(), defects[1]);
        assert_eq!(
            DefectState::from_name(DefectState::Known.as_str()),
            Some(DefectState::Known)
        );
        assert_eq!(DefectState::from_name("gone"), None);
    }
}
