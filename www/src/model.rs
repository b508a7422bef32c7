//! What the dashboard computes from the platform API's answers (the answers' types are
//! `aca_core::results`, the server's own): pass rates, the routes of its views, the defect list's
//! filters.

pub use aca_core::results::{
    CurrentDefect as Defect, DayCount, DefectState, FlakyPage, Group, KindCount, Overview, RunRow as Run, Totals,
};

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
    /// New, known or fixed, or every state.
    pub state: Option<DefectState>,
    /// Words the page, the step or either label must contain (any case).
    pub search: String,
}

impl DefectFilter {
    pub fn keeps(&self, defect: &Defect) -> bool {
        let search = self.search.trim().to_lowercase();
        self.kind.as_ref().is_none_or(|k| *k == defect.kind)
            && self.product.as_ref().is_none_or(|p| Some(p) == defect.product.as_ref())
            && self.tree.as_ref().is_none_or(|t| *t == defect.tree)
            && self.state.is_none_or(|s| s == defect.state)
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

    fn defect(kind: &str, state: DefectState, documented: &str) -> Defect {
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
            state,
        }
    }

    #[test]
    fn pass_rates_read_as_percentages() {
        assert_eq!(pass_rate(2, 3), "66.7%");
        assert_eq!(pass_rate(0, 0), "–");
    }

    #[test]
    fn the_defect_filter_keeps_what_it_names() {
        let renamed = defect("renamed_label", DefectState::New, "OK");
        let moved = defect("moved_control", DefectState::Known, "Instances");
        let by_kind = DefectFilter {
            kind: Some("renamed_label".into()),
            ..DefectFilter::default()
        };
        assert!(by_kind.keeps(&renamed) && !by_kind.keeps(&moved));
        let known = DefectFilter {
            state: Some(DefectState::Known),
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
