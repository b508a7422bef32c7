//! The platform API's answers as the dashboard reads them, and what it computes from them: pass
//! rates, the routes of its views, the defect list's filters.

use serde::Deserialize;

/// `GET /v1/results/overview`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Overview {
    pub totals: Totals,
    pub per_day: Vec<DayCount>,
    pub by_product: Vec<Group>,
    pub by_tree: Vec<Group>,
    pub defects_by_kind: Vec<KindCount>,
    pub flaky: Vec<FlakyPage>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Totals {
    pub by_verdict: Vec<(String, i64)>,
    pub runs: i64,
    pub duration_ms: i64,
    pub prompt_tokens: i64,
    pub completion_tokens: i64,
    pub cost_usd: f64,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct DayCount {
    pub day_ms: i64,
    pub verdict: String,
    pub runs: i64,
}

/// The latest runs of one product's or one tree's pages.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Group {
    pub name: String,
    pub pages: i64,
    pub passed: i64,
    pub doc_defect: i64,
    pub environment_failure: i64,
    pub agent_failure: i64,
    pub unverified: i64,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct KindCount {
    pub kind: String,
    pub new: i64,
    pub known: i64,
    pub fixed: i64,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct FlakyPage {
    pub page: String,
    pub verdicts: i64,
    pub runs: i64,
}

/// `GET /v1/results/runs` and `/v1/results/history`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Run {
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
    pub cost_usd: Option<f64>,
}

/// `GET /v1/results/defects`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Defect {
    pub page: String,
    pub step: String,
    pub kind: String,
    pub confidence: String,
    pub documented: String,
    pub observed: String,
    pub run_id: String,
    pub product: Option<String>,
    pub tree: String,
    /// `new`, `known` or `fixed`.
    pub state: String,
}

/// `passed` of `pages` as a percentage with one decimal, `–` when there are no pages.
pub fn pass_rate(passed: i64, pages: i64) -> String {
    if pages <= 0 {
        return "–".into();
    }
    format!("{:.1}%", passed as f64 * 100.0 / pages as f64)
}

/// What the defect list shows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DefectFilter {
    /// A defect kind (`renamed_label`), or every kind.
    pub kind: Option<String>,
    /// A product (`vpc`), or every product.
    pub product: Option<String>,
    /// A documentation tree, or every tree.
    pub tree: Option<String>,
    /// `new`, `known` or `fixed`, or every state.
    pub state: Option<String>,
    /// Words the page, the step or either label must contain (any case).
    pub search: String,
}

impl DefectFilter {
    pub fn keeps(&self, defect: &Defect) -> bool {
        let search = self.search.trim().to_lowercase();
        self.kind.as_ref().is_none_or(|k| *k == defect.kind)
            && self.product.as_ref().is_none_or(|p| Some(p) == defect.product.as_ref())
            && self.tree.as_ref().is_none_or(|t| *t == defect.tree)
            && self.state.as_ref().is_none_or(|s| *s == defect.state)
            && (search.is_empty()
                || [&defect.page, &defect.step, &defect.documented, &defect.observed]
                    .iter()
                    .any(|field| field.to_lowercase().contains(&search)))
    }
}

/// The dashboard's views, from the location's hash (`#/defects`, `#/history?page=…`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    Overview,
    Runs,
    Defects,
    History {
        page: String,
    },
    /// One run's report: its steps, defects and marked screenshots.
    Run {
        id: String,
    },
}

impl Route {
    pub fn from_hash(hash: &str) -> Self {
        let hash = hash.trim_start_matches('#').trim_start_matches('/');
        let (path, query) = hash.split_once('?').unwrap_or((hash, ""));
        match path {
            "runs" => Self::Runs,
            "defects" => Self::Defects,
            "history" => Self::History {
                page: parameter(query, "page"),
            },
            "run" => Self::Run {
                id: parameter(query, "id"),
            },
            _ => Self::Overview,
        }
    }
}

fn parameter(query: &str, name: &str) -> String {
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| percent_decode(value))
        .unwrap_or_default()
}

fn percent_decode(text: &str) -> String {
    percent_encoding::percent_decode_str(text)
        .decode_utf8_lossy()
        .into_owned()
}

/// A page's path written into a hash, so that it reads back unchanged.
pub fn percent_encode(text: &str) -> String {
    percent_encoding::utf8_percent_encode(text, percent_encoding::NON_ALPHANUMERIC).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defect(kind: &str, state: &str, documented: &str) -> Defect {
        Defect {
            page: "docs/vpc/create-vpc.md".into(),
            step: "7".into(),
            kind: kind.into(),
            confidence: "confirmed".into(),
            documented: documented.into(),
            observed: "Confirm".into(),
            run_id: "r1".into(),
            product: Some("vpc".into()),
            tree: "vpc-guide".into(),
            state: state.into(),
        }
    }

    #[test]
    fn pass_rates_read_as_percentages() {
        assert_eq!(pass_rate(2, 3), "66.7%");
        assert_eq!(pass_rate(0, 0), "–");
    }

    #[test]
    fn the_defect_filter_keeps_what_it_names() {
        let renamed = defect("renamed_label", "new", "OK");
        let moved = defect("moved_control", "known", "Instances");
        let by_kind = DefectFilter {
            kind: Some("renamed_label".into()),
            ..DefectFilter::default()
        };
        assert!(by_kind.keeps(&renamed) && !by_kind.keeps(&moved));
        let known = DefectFilter {
            state: Some("known".into()),
            ..DefectFilter::default()
        };
        assert!(!known.keeps(&renamed) && known.keeps(&moved));
        let elsewhere = DefectFilter {
            product: Some("ecs".into()),
            ..DefectFilter::default()
        };
        assert!(!elsewhere.keeps(&renamed));
        let tree = DefectFilter {
            tree: Some("vpc-guide".into()),
            ..DefectFilter::default()
        };
        assert!(tree.keeps(&renamed));
        let search = DefectFilter {
            search: "INSTANCES".into(),
            ..DefectFilter::default()
        };
        assert!(!search.keeps(&renamed) && search.keeps(&moved));
    }

    #[test]
    fn routes_read_back_from_the_hash() {
        assert_eq!(Route::from_hash(""), Route::Overview);
        assert_eq!(Route::from_hash("#/defects"), Route::Defects);
        assert_eq!(Route::from_hash("#/run?id=r-1"), Route::Run { id: "r-1".into() });
        let page = "docs/vpc/create vpc.md";
        assert_eq!(
            Route::from_hash(&format!("#/history?page={}", percent_encode(page))),
            Route::History { page: page.into() }
        );
    }
}
