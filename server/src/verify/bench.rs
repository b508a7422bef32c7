//! Scoring a benchmark of verifications against the targets: the pass rate on each page's
//! own profile, drift recall and precision on the other profile, and wall time against a plain
//! script doing the same clicks. Pure: the runs are handed in, the figures come out.

use aca_core::{Defect, DefectKind, Verdict};
use aca_docs::corpus::ExpectedDrift;
use serde::Serialize;

/// The targets the figures are held to.
pub const PASS_RATE_TARGET: f64 = 0.95;
pub const RECALL_TARGET: f64 = 0.9;
pub const PRECISION_TARGET: f64 = 0.95;
pub const TIME_RATIO_TARGET: f64 = 1.5;

/// One verification as the benchmark saw it.
#[derive(Debug, Clone, Serialize)]
pub struct RunResult {
    pub profile: String,
    /// `None` when the verification itself errored (see `error`).
    pub verdict: Option<Verdict>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub summary: String,
    pub defects: Vec<Defect>,
    /// The whole verification, as `aca verify` takes it.
    pub total_ms: u64,
    /// Creating and destroying the page's resources (not what a script doing the clicks does).
    pub resources_ms: u64,
}

impl RunResult {
    /// The verification without its resources' set-up and tear-down: Chromium, logon, the episode,
    /// the audit check.
    pub fn verification_ms(&self) -> u64 {
        self.total_ms.saturating_sub(self.resources_ms)
    }

    pub fn passed(&self) -> bool {
        self.verdict == Some(Verdict::Pass)
    }

    /// The verdict in words (`error` when the run errored).
    pub fn verdict_label(&self) -> &'static str {
        match self.verdict {
            Some(Verdict::Pass) => "pass",
            Some(Verdict::DocDefect) => "doc_defect",
            Some(Verdict::EnvironmentFailure) => "environment_failure",
            Some(Verdict::AgentFailure) => "agent_failure",
            Some(Verdict::Unverified) => "unverified",
            None => "error",
        }
    }

    /// The first thing a reader needs to see why it did not pass.
    pub fn first_problem(&self) -> String {
        if let Some(e) = &self.error {
            return e.clone();
        }
        match self.defects.first() {
            Some(d) => describe_defect(d),
            None => self.summary.clone(),
        }
    }
}

/// The reference script's run for a page.
#[derive(Debug, Clone, Serialize)]
pub struct ReferenceResult {
    pub ms: u64,
    pub actions: usize,
    /// Replayed actions the console did not take: the reference did not do what the verification did.
    pub refused: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl ReferenceResult {
    /// Whether the reference did every click the verification did.
    pub fn complete(&self) -> bool {
        self.error.is_none() && self.refused.is_empty()
    }
}

/// Everything the benchmark ran for one page.
#[derive(Debug, Clone, Serialize)]
pub struct PageResult {
    pub page: String,
    pub written_for: String,
    pub expected_drift: Vec<ExpectedDrift>,
    /// On the profile the page was written for.
    pub home: RunResult,
    /// On the other profile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other: Option<RunResult>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference: Option<ReferenceResult>,
}

/// An expected difference and whether a defect reported it.
#[derive(Debug, Clone, Serialize)]
pub struct DriftCheck {
    pub page: String,
    pub expected: ExpectedDrift,
    /// The defect that reported it: the same step and the same type.
    pub found: Option<Defect>,
    /// What was reported at that step instead, when nothing matched.
    pub reported_instead: Vec<String>,
}

/// A page untouched by drift that did not pass on the other profile.
#[derive(Debug, Clone, Serialize)]
pub struct FalseAlarm {
    pub page: String,
    pub verdict: String,
    pub problem: String,
}

/// A defect on the other profile that no expected difference accounts for.
#[derive(Debug, Clone, Serialize)]
pub struct ExtraDefect {
    pub page: String,
    pub defect: Defect,
}

/// A page whose verification and reference were both timed.
#[derive(Debug, Clone, Serialize)]
pub struct Timing {
    pub page: String,
    pub verification_ms: u64,
    pub total_ms: u64,
    pub reference_ms: u64,
    pub ratio: f64,
}

/// A figure and its target.
#[derive(Debug, Clone, Serialize)]
pub struct Figure {
    pub name: &'static str,
    /// `None` when nothing could be measured.
    pub value: Option<f64>,
    pub target: String,
    pub met: bool,
    /// Numerator and denominator, or what the figure rests on.
    pub basis: String,
}

/// The benchmark's figures and everything behind them.
#[derive(Debug, Clone, Serialize)]
pub struct Score {
    pub pages: usize,
    pub figures: Vec<Figure>,
    /// Pages that did not pass on their own profile.
    pub failing: Vec<FalseAlarm>,
    pub drift: Vec<DriftCheck>,
    pub false_alarms: Vec<FalseAlarm>,
    pub extra_defects: Vec<ExtraDefect>,
    pub timings: Vec<Timing>,
    /// Passing pages whose reference could not be timed, and why.
    pub untimed: Vec<(String, String)>,
}

/// Scores the runs.
pub fn score(results: &[PageResult]) -> Score {
    let failing: Vec<FalseAlarm> = results
        .iter()
        .filter(|r| !r.home.passed())
        .map(|r| FalseAlarm {
            page: r.page.clone(),
            verdict: r.home.verdict_label().to_owned(),
            problem: r.home.first_problem(),
        })
        .collect();
    let passed = results.len() - failing.len();

    let mut drift = Vec::new();
    let mut extra_defects = Vec::new();
    let mut false_alarms = Vec::new();
    let mut untouched = 0usize;
    for result in results {
        let Some(other) = &result.other else { continue };
        if result.expected_drift.is_empty() {
            untouched += 1;
            if !other.passed() {
                false_alarms.push(FalseAlarm {
                    page: result.page.clone(),
                    verdict: other.verdict_label().to_owned(),
                    problem: other.first_problem(),
                });
            }
            continue;
        }
        let (checks, extra) = match_drift(&result.page, &result.expected_drift, other);
        drift.extend(checks);
        extra_defects.extend(extra);
    }
    let found = drift.iter().filter(|c| c.found.is_some()).count();
    let untouched_passed = untouched - false_alarms.len();

    let mut timings = Vec::new();
    let mut untimed = Vec::new();
    for result in results.iter().filter(|r| r.home.passed()) {
        match &result.reference {
            Some(reference) if reference.complete() && reference.ms > 0 => {
                let verification_ms = result.home.verification_ms();
                timings.push(Timing {
                    page: result.page.clone(),
                    verification_ms,
                    total_ms: result.home.total_ms,
                    reference_ms: reference.ms,
                    ratio: verification_ms as f64 / reference.ms as f64,
                });
            }
            Some(reference) => untimed.push((
                result.page.clone(),
                reference
                    .error
                    .clone()
                    .unwrap_or_else(|| format!("the replay was refused: {}", reference.refused.join("; "))),
            )),
            None => {}
        }
    }
    let verification: u64 = timings.iter().map(|t| t.verification_ms).sum();
    let reference: u64 = timings.iter().map(|t| t.reference_ms).sum();
    let ratio = (reference > 0).then(|| verification as f64 / reference as f64);

    let fraction = |num: usize, den: usize| (den > 0).then(|| num as f64 / den as f64);
    let pass_rate = fraction(passed, results.len());
    let recall = fraction(found, drift.len());
    let precision = fraction(untouched_passed, untouched);
    let figures = vec![
        Figure {
            name: "pass rate (own profile)",
            value: pass_rate,
            target: format!(">= {:.0}%", PASS_RATE_TARGET * 100.0),
            met: pass_rate.is_some_and(|v| v >= PASS_RATE_TARGET),
            basis: format!("{passed}/{} pages passed", results.len()),
        },
        Figure {
            name: "drift recall (other profile)",
            value: recall,
            target: format!(">= {RECALL_TARGET}"),
            met: recall.is_some_and(|v| v >= RECALL_TARGET),
            basis: format!(
                "{found}/{} expected differences reported at their step with their type",
                drift.len()
            ),
        },
        Figure {
            name: "drift precision (other profile)",
            value: precision,
            target: format!(">= {PRECISION_TARGET}"),
            met: precision.is_some_and(|v| v >= PRECISION_TARGET),
            basis: format!("{untouched_passed}/{untouched} pages untouched by drift still passed"),
        },
        Figure {
            name: "wall time vs reference script",
            value: ratio,
            target: format!("<= {TIME_RATIO_TARGET}x"),
            met: ratio.is_some_and(|v| v <= TIME_RATIO_TARGET),
            basis: format!(
                "{:.1} s verifying / {:.1} s scripted over {} pages (median page {})",
                verification as f64 / 1000.0,
                reference as f64 / 1000.0,
                timings.len(),
                median(timings.iter().map(|t| t.ratio).collect()).map_or("-".into(), |m| format!("{m:.2}x"))
            ),
        },
    ];
    Score {
        pages: results.len(),
        figures,
        failing,
        drift,
        false_alarms,
        extra_defects,
        timings,
        untimed,
    }
}

/// Pairs each expected difference with a reported defect at the same step of the same type (each
/// defect used once); the defects left over are extra.
pub fn match_drift(page: &str, expected: &[ExpectedDrift], run: &RunResult) -> (Vec<DriftCheck>, Vec<ExtraDefect>) {
    let mut unused: Vec<Option<&Defect>> = run.defects.iter().map(Some).collect();
    let mut checks = Vec::new();
    for entry in expected {
        let slot = unused
            .iter_mut()
            .find(|d| d.is_some_and(|d| same_step(&d.step, &entry.step) && same_kind(d.kind, entry.kind)));
        let found = slot.and_then(Option::take).cloned();
        let reported_instead = if found.is_some() {
            Vec::new()
        } else {
            let at_step: Vec<String> = run
                .defects
                .iter()
                .filter(|d| same_step(&d.step, &entry.step))
                .map(describe_defect)
                .collect();
            if at_step.is_empty() {
                vec![format!("{}: {}", run.verdict_label(), run.first_problem())]
            } else {
                at_step
            }
        };
        checks.push(DriftCheck {
            page: page.to_owned(),
            expected: entry.clone(),
            found,
            reported_instead,
        });
    }
    let extra = unused
        .into_iter()
        .flatten()
        .map(|d| ExtraDefect {
            page: page.to_owned(),
            defect: d.clone(),
        })
        .collect();
    (checks, extra)
}

fn same_step(reported: &str, expected: &str) -> bool {
    let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    squash(reported) == squash(expected)
}

fn same_kind(reported: DefectKind, expected: DefectKind) -> bool {
    reported == expected
}

/// `renamed_label at step 7: "OK" → "Confirm"`.
pub fn describe_defect(defect: &Defect) -> String {
    let kind = serde_json::to_value(defect.kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    format!(
        "{kind} at step {}: \"{}\" → \"{}\"",
        defect.step, defect.documented, defect.observed
    )
}

fn median(mut values: Vec<f64>) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    Some(if values.len().is_multiple_of(2) {
        (values[mid - 1] + values[mid]) / 2.0
    } else {
        values[mid]
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use aca_core::Evidence;
    use aca_docs::corpus::UiPlace;

    fn defect(step: &str, kind: DefectKind) -> Defect {
        Defect {
            kind,
            step: step.into(),
            documented: "OK".into(),
            observed: "Confirm".into(),
            confidence: aca_core::Confidence::Confirmed,
            evidence: Evidence::default(),
        }
    }

    fn expected(step: &str, kind: DefectKind) -> ExpectedDrift {
        ExpectedDrift {
            step: step.into(),
            kind,
            documented: "OK".into(),
            observed: "Confirm".into(),
            documented_at: UiPlace::Label,
            observed_at: None,
            page: None,
        }
    }

    fn run(verdict: Verdict, defects: Vec<Defect>, total_ms: u64) -> RunResult {
        RunResult {
            profile: "2024".into(),
            verdict: Some(verdict),
            error: None,
            summary: String::new(),
            defects,
            total_ms,
            resources_ms: 0,
        }
    }

    fn page(name: &str, drift: Vec<ExpectedDrift>, home: RunResult, other: RunResult) -> PageResult {
        PageResult {
            page: name.into(),
            written_for: "2026".into(),
            expected_drift: drift,
            home,
            other: Some(other),
            reference: Some(ReferenceResult {
                ms: 1000,
                actions: 3,
                refused: vec![],
                error: None,
            }),
        }
    }

    #[test]
    fn a_difference_counts_only_at_its_step_with_its_type() {
        let entries = [
            expected("7", DefectKind::RenamedLabel),
            expected("4", DefectKind::MovedControl),
        ];
        let reported = run(
            Verdict::DocDefect,
            vec![
                defect("7", DefectKind::RenamedLabel),
                defect("4", DefectKind::RenamedLabel),
                defect("9", DefectKind::MissingStep),
            ],
            0,
        );
        let (checks, extra) = match_drift("p", &entries, &reported);
        assert!(checks[0].found.is_some());
        assert!(checks[1].found.is_none(), "a rename is not a move");
        assert_eq!(checks[1].reported_instead.len(), 1);
        assert_eq!(extra.len(), 2);
    }

    #[test]
    fn figures_follow_the_runs() {
        let pass = |ms| run(Verdict::Pass, vec![], ms);
        let results = vec![
            page(
                "touched",
                vec![expected("7", DefectKind::RenamedLabel)],
                pass(1400),
                run(Verdict::DocDefect, vec![defect("7", DefectKind::RenamedLabel)], 0),
            ),
            page("untouched", vec![], pass(1600), pass(0)),
            page(
                "alarm",
                vec![],
                run(Verdict::AgentFailure, vec![], 0),
                run(Verdict::DocDefect, vec![defect("2", DefectKind::RenamedLabel)], 0),
            ),
        ];
        let score = score(&results);
        let value = |i: usize| score.figures[i].value.unwrap_or(f64::NAN);
        assert!((value(0) - 2.0 / 3.0).abs() < 1e-9);
        assert!(!score.figures[0].met);
        assert_eq!(value(1), 1.0);
        assert!((value(2) - 0.5).abs() < 1e-9);
        assert_eq!(score.false_alarms.len(), 1);
        assert_eq!(score.failing[0].page, "alarm");
        // Only passing pages are timed: (1400 + 1600) / (1000 + 1000).
        assert!((value(3) - 1.5).abs() < 1e-9);
        assert!(score.figures[3].met);
    }
}
