//! Scoring `aca bench agent`: pass@1 and pass@k per policy, their costs, failure categories, drift
//! recall and precision at the defect level, and paired bootstrap comparisons between policies.
//!
//! Pure: the runs are handed in, the figures come out. Only the audit-log rule channel decides
//! whether a run passed. Every ratio travels with the counts it was computed from.

use std::collections::BTreeMap;
use std::fmt::Write as _;

pub use aca_core::Difficulty;
use aca_core::Defect;
use aca_docs::corpus::ExpectedDrift;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// The resamples a comparison draws unless the caller asks for another number.
pub const DEFAULT_RESAMPLES: usize = 10_000;

/// Bootstrap means this close to zero count as ties; sums of per-task fractions are not exact.
const TIE_TOLERANCE: f64 = 1e-12;

/// Why a run did not pass: the paper's failure analysis categories, and the environment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureCategory {
    Provisioning,
    UiInteraction,
    AgentDecision,
    Environment,
}

/// One run of one task by one policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentRun {
    /// `scripted`, or `llm:<model>`.
    pub policy: String,
    /// The page's path or id.
    pub task: String,
    pub product: String,
    #[serde(default)]
    pub difficulty: Difficulty,
    /// Which of the K independent runs this is, from 0.
    pub run: u32,
    /// The rule channel saw the documented operation in the audit log.
    pub passed: bool,
    /// Actions taken.
    pub steps: u32,
    pub tokens_in: u64,
    pub tokens_out: u64,
    pub duration_ms: u64,
    pub cost: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<FailureCategory>,
    /// What the run reported as documentation defects.
    #[serde(default)]
    pub findings: Vec<Defect>,
    /// The differences the task is known to have; empty for an untouched page.
    #[serde(default)]
    pub expected: Vec<ExpectedDrift>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentFigures {
    pub policies: Vec<PolicyFigures>,
    /// One per pair of policies, in the order the policies first appear in the runs.
    pub comparisons: Vec<PairedComparison>,
}

/// A mean over runs with its sample standard deviation (0 with a single run).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MeanStd {
    pub mean: f64,
    pub std: f64,
    pub runs: usize,
}

/// How often a set of tasks passed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PassFigures {
    pub tasks: usize,
    /// Runs over all tasks.
    pub runs: usize,
    /// The number of distinct run indices.
    pub k: usize,
    /// Over run indices: the fraction of tasks passed in that run.
    pub pass_at_1: MeanStd,
    /// The fraction of tasks passed in at least one of their runs.
    pub pass_at_k: f64,
    pub tasks_with_a_pass: usize,
}

/// What one policy achieved over the whole task set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PolicyFigures {
    pub policy: String,
    /// Over every task of the policy.
    #[serde(flatten)]
    pub overall: PassFigures,
    pub by_product: BTreeMap<String, PassFigures>,
    /// Keyed by [`Difficulty::name`].
    pub by_difficulty: BTreeMap<String, PassFigures>,
    pub usage: Usage,
    pub failures: FailureCounts,
    pub drift: DriftFigures,
}

/// What the runs consumed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    pub runs: usize,
    pub total_steps: u64,
    /// Mean actions per run.
    pub steps_per_task: f64,
    pub tokens_in: UsageFigure,
    pub tokens_out: UsageFigure,
    pub duration_ms: UsageFigure,
    pub cost: UsageFigure,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct UsageFigure {
    pub total: f64,
    /// The mean over runs of one run's total.
    pub per_task: f64,
    /// The total over all runs divided by all their steps; `None` when no step was taken.
    pub per_step: Option<f64>,
}

/// Runs that did not pass, by why.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FailureCounts {
    pub failed_runs: usize,
    pub provisioning: usize,
    pub ui_interaction: usize,
    pub agent_decision: usize,
    pub environment: usize,
    /// Failed runs that name no category.
    pub unclassified: usize,
}

/// Drift found at the defect level: a finding counts only when its step, kind and both labels
/// match an expected difference of the same run, and each finding matches at most one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DriftFigures {
    pub expected_differences: usize,
    pub findings: usize,
    /// Expected differences paired with a finding, one to one.
    pub matched: usize,
    /// `matched / expected_differences`; `None` when nothing was expected.
    pub drift_recall: Option<f64>,
    /// `matched / findings`; `None` when nothing was reported.
    pub drift_precision: Option<f64>,
    /// Runs of tasks with no expected difference.
    pub untouched_runs: usize,
    pub untouched_runs_passed: usize,
    pub untouched_pass_rate: Option<f64>,
}

/// Policy A against policy B on the tasks both ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairedComparison {
    pub policy_a: String,
    pub policy_b: String,
    pub tasks: usize,
    /// Mean over tasks of A's pass@1 minus B's, each the mean over the task's runs; `None` with no
    /// shared task.
    pub pass_at_1_difference: Option<f64>,
    /// Percentile bootstrap interval, resampling tasks with replacement.
    pub ci_95: Option<[f64; 2]>,
    /// Two-sided, never below `1 / (resamples + 1)`.
    pub p_value: Option<f64>,
    pub resamples: usize,
    pub seed: u64,
}

/// Scores every policy in `runs` and compares every pair with `resamples` bootstrap resamples
/// drawn from `seed`.
pub fn score(runs: &[AgentRun], resamples: usize, seed: u64) -> AgentFigures {
    let mut by_policy: Vec<(&str, Vec<&AgentRun>)> = Vec::new();
    for run in runs {
        match by_policy.iter_mut().find(|(policy, _)| *policy == run.policy) {
            Some((_, policy_runs)) => policy_runs.push(run),
            None => by_policy.push((&run.policy, vec![run])),
        }
    }
    let policies = by_policy
        .iter()
        .map(|(policy, policy_runs)| policy_figures(policy, policy_runs))
        .collect();
    let mut comparisons = Vec::new();
    for (i, (policy_a, runs_a)) in by_policy.iter().enumerate() {
        for (policy_b, runs_b) in &by_policy[i + 1..] {
            comparisons.push(compare(policy_a, runs_a, policy_b, runs_b, resamples, seed));
        }
    }
    AgentFigures { policies, comparisons }
}

fn policy_figures(policy: &str, runs: &[&AgentRun]) -> PolicyFigures {
    let overall = pass_figures(runs);
    let by_product = group_pass_figures(runs, |run| run.product.clone());
    let by_difficulty = group_pass_figures(runs, |run| run.difficulty.name().to_owned());
    PolicyFigures {
        policy: policy.to_owned(),
        overall,
        by_product,
        by_difficulty,
        usage: usage(runs),
        failures: failure_counts(runs),
        drift: drift_figures(runs),
    }
}

fn group_pass_figures(runs: &[&AgentRun], key: impl Fn(&AgentRun) -> String) -> BTreeMap<String, PassFigures> {
    let mut groups: BTreeMap<String, Vec<&AgentRun>> = BTreeMap::new();
    for run in runs {
        groups.entry(key(run)).or_default().push(run);
    }
    groups
        .into_iter()
        .map(|(name, group)| (name, pass_figures(&group)))
        .collect()
}

fn pass_figures(runs: &[&AgentRun]) -> PassFigures {
    let per_run: Vec<f64> = pass_share_by(runs, |run| run.run).into_values().collect();
    let per_task = pass_share_by(runs, |run| run.task.as_str());
    let tasks = per_task.len();
    let tasks_with_a_pass = per_task.values().filter(|share| **share > 0.0).count();
    PassFigures {
        tasks,
        runs: runs.len(),
        k: per_run.len(),
        pass_at_1: mean_std(&per_run),
        pass_at_k: ratio(tasks_with_a_pass, tasks).unwrap_or(0.0),
        tasks_with_a_pass,
    }
}

/// The share of runs that passed, for each value of `key` (a run index, a task).
fn pass_share_by<'a, K: Ord>(runs: &[&'a AgentRun], key: impl Fn(&'a AgentRun) -> K) -> BTreeMap<K, f64> {
    let mut counts: BTreeMap<K, (usize, usize)> = BTreeMap::new();
    for run in runs {
        let (passed, total) = counts.entry(key(run)).or_default();
        *passed += usize::from(run.passed);
        *total += 1;
    }
    counts
        .into_iter()
        .map(|(key, (passed, total))| (key, passed as f64 / total as f64))
        .collect()
}

fn mean_std(values: &[f64]) -> MeanStd {
    let runs = values.len();
    if runs == 0 {
        return MeanStd {
            mean: 0.0,
            std: 0.0,
            runs,
        };
    }
    let mean = values.iter().sum::<f64>() / runs as f64;
    let std = if runs < 2 {
        0.0
    } else {
        (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (runs - 1) as f64).sqrt()
    };
    MeanStd { mean, std, runs }
}

fn ratio(numerator: usize, denominator: usize) -> Option<f64> {
    (denominator > 0).then(|| numerator as f64 / denominator as f64)
}

fn usage(runs: &[&AgentRun]) -> Usage {
    let total_steps: u64 = runs.iter().map(|run| u64::from(run.steps)).sum();
    let figure = |value: fn(&AgentRun) -> f64| {
        let total: f64 = runs.iter().map(|run| value(run)).sum();
        UsageFigure {
            total,
            per_task: if runs.is_empty() {
                0.0
            } else {
                total / runs.len() as f64
            },
            per_step: (total_steps > 0).then(|| total / total_steps as f64),
        }
    };
    Usage {
        runs: runs.len(),
        total_steps,
        steps_per_task: if runs.is_empty() {
            0.0
        } else {
            total_steps as f64 / runs.len() as f64
        },
        tokens_in: figure(|run| run.tokens_in as f64),
        tokens_out: figure(|run| run.tokens_out as f64),
        duration_ms: figure(|run| run.duration_ms as f64),
        cost: figure(|run| run.cost),
    }
}

fn failure_counts(runs: &[&AgentRun]) -> FailureCounts {
    let mut counts = FailureCounts::default();
    for run in runs.iter().filter(|run| !run.passed) {
        counts.failed_runs += 1;
        let count = match run.failure {
            Some(FailureCategory::Provisioning) => &mut counts.provisioning,
            Some(FailureCategory::UiInteraction) => &mut counts.ui_interaction,
            Some(FailureCategory::AgentDecision) => &mut counts.agent_decision,
            Some(FailureCategory::Environment) => &mut counts.environment,
            None => &mut counts.unclassified,
        };
        *count += 1;
    }
    counts
}

fn drift_figures(runs: &[&AgentRun]) -> DriftFigures {
    let expected_differences = runs.iter().map(|run| run.expected.len()).sum();
    let findings = runs.iter().map(|run| run.findings.len()).sum();
    let matched: usize = runs
        .iter()
        .map(|run| matched_differences(&run.expected, &run.findings))
        .sum();
    let untouched: Vec<&&AgentRun> = runs.iter().filter(|run| run.expected.is_empty()).collect();
    let untouched_runs_passed = untouched.iter().filter(|run| run.passed).count();
    DriftFigures {
        expected_differences,
        findings,
        matched,
        drift_recall: ratio(matched, expected_differences),
        drift_precision: ratio(matched, findings),
        untouched_runs: untouched.len(),
        untouched_runs_passed,
        untouched_pass_rate: ratio(untouched_runs_passed, untouched.len()),
    }
}

/// The most expected differences that can be paired with distinct findings (a maximum bipartite
/// matching, so the order of the findings cannot cost a match).
fn matched_differences(expected: &[ExpectedDrift], findings: &[Defect]) -> usize {
    let candidates: Vec<Vec<usize>> = expected
        .iter()
        .map(|drift| {
            (0..findings.len())
                .filter(|&f| finding_matches(drift, &findings[f]))
                .collect()
        })
        .collect();
    let mut owner_of_finding: Vec<Option<usize>> = vec![None; findings.len()];
    let mut matched = 0;
    for drift in 0..expected.len() {
        let mut visited = vec![false; findings.len()];
        if augment(drift, &candidates, &mut owner_of_finding, &mut visited) {
            matched += 1;
        }
    }
    matched
}

fn augment(
    drift: usize,
    candidates: &[Vec<usize>],
    owner_of_finding: &mut [Option<usize>],
    visited: &mut [bool],
) -> bool {
    for &finding in &candidates[drift] {
        if visited[finding] {
            continue;
        }
        visited[finding] = true;
        let free = match owner_of_finding[finding] {
            None => true,
            Some(owner) => augment(owner, candidates, owner_of_finding, visited),
        };
        if free {
            owner_of_finding[finding] = Some(drift);
            return true;
        }
    }
    false
}

/// Whether a reported defect is the known difference `drift`: same step and kind, same labels.
pub(crate) fn finding_matches(drift: &ExpectedDrift, finding: &Defect) -> bool {
    drift.step.trim() == finding.step.trim()
        && drift.kind == finding.kind
        && label_matches(&drift.documented, &finding.documented)
        && label_matches(&drift.observed, &finding.observed)
}

/// The labels are the same text, where a report may name the label with the menu path it sits in
/// (`More > Restart` for `Restart`) or a note of its place (`Restart (in the Actions column)`):
/// the label itself must be the same, its place is the defect kind's business.
fn label_matches(expected: &str, reported: &str) -> bool {
    let expected = normalise_label(expected);
    let reported = normalise_label(without_place_note(reported));
    expected.is_empty()
        || expected == reported
        || (!expected.contains(" > ") && reported.rsplit(" > ").next() == Some(expected.as_str()))
}

/// `Restart (in the Actions column)` → `Restart`.
fn without_place_note(label: &str) -> &str {
    let trimmed = label.trim_end();
    match trimmed.rfind(" (in ") {
        Some(at) if trimmed.ends_with(')') => &trimmed[..at],
        _ => trimmed,
    }
}

/// Each menu segment as label matching reads it (case, spacing, quotes and punctuation aside,
/// `aca_agent::label::normalise`), with `>`, `›` and `/` read as the same separator.
fn normalise_label(label: &str) -> String {
    label
        .split(['>', '›', '/'])
        .map(aca_agent::label::normalise)
        .filter(|segment| !segment.is_empty())
        .collect::<Vec<_>>()
        .join(" > ")
}

fn compare(
    policy_a: &str,
    runs_a: &[&AgentRun],
    policy_b: &str,
    runs_b: &[&AgentRun],
    resamples: usize,
    seed: u64,
) -> PairedComparison {
    let pass_at_1_a = pass_share_by(runs_a, |run| run.task.as_str());
    let pass_at_1_b = pass_share_by(runs_b, |run| run.task.as_str());
    let differences: Vec<f64> = pass_at_1_a
        .iter()
        .filter_map(|(task, a)| pass_at_1_b.get(task).map(|b| a - b))
        .collect();
    let pass_at_1_difference = (!differences.is_empty()).then(|| mean(&differences));
    let bootstrap = paired_bootstrap(&differences, resamples, seed);
    PairedComparison {
        policy_a: policy_a.to_owned(),
        policy_b: policy_b.to_owned(),
        tasks: differences.len(),
        pass_at_1_difference,
        ci_95: bootstrap.map(|b| b.ci_95),
        p_value: bootstrap.map(|b| b.p_value),
        resamples,
        seed,
    }
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

#[derive(Debug, Clone, Copy)]
struct Bootstrap {
    ci_95: [f64; 2],
    p_value: f64,
}

/// Resamples the per-task differences with replacement; `None` with no task or no resample.
fn paired_bootstrap(differences: &[f64], resamples: usize, seed: u64) -> Option<Bootstrap> {
    if differences.is_empty() || resamples == 0 {
        return None;
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let n = differences.len();
    let mut means: Vec<f64> = (0..resamples)
        .map(|_| (0..n).map(|_| differences[rng.random_range(0..n)]).sum::<f64>() / n as f64)
        .collect();
    means.sort_by(f64::total_cmp);
    let share = |count: usize| count as f64 / resamples as f64;
    let at_most_zero = share(means.iter().filter(|m| **m <= TIE_TOLERANCE).count());
    let at_least_zero = share(means.iter().filter(|m| **m >= -TIE_TOLERANCE).count());
    let floor = 1.0 / (resamples as f64 + 1.0);
    let p_value = (2.0 * at_most_zero.min(at_least_zero)).min(1.0).max(floor);
    Some(Bootstrap {
        ci_95: [percentile(&means, 0.025), percentile(&means, 0.975)],
        p_value,
    })
}

/// Linear interpolation between the closest ranks of sorted `values`.
fn percentile(sorted: &[f64], quantile: f64) -> f64 {
    let rank = quantile * (sorted.len() - 1) as f64;
    let below = rank.floor() as usize;
    let above = rank.ceil() as usize;
    sorted[below] + (rank - below as f64) * (sorted[above] - sorted[below])
}

/// The figures as a person reads them in a terminal.
pub fn render_table(figures: &AgentFigures) -> String {
    let mut out = String::new();
    for policy in &figures.policies {
        render_policy(&mut out, policy);
        out.push('\n');
    }
    if !figures.comparisons.is_empty() {
        out.push_str("paired comparisons (pass@1 difference, bootstrap over tasks):\n");
        for comparison in &figures.comparisons {
            let _ = writeln!(out, "  {}", render_comparison(comparison));
        }
    }
    out
}

fn render_policy(out: &mut String, policy: &PolicyFigures) {
    let _ = writeln!(
        out,
        "policy {}: {} tasks, {} runs ({} per task at most)",
        policy.policy, policy.overall.tasks, policy.overall.runs, policy.overall.k
    );
    let _ = writeln!(out, "  {:<22}{}", "pass@1", mean_std_text(&policy.overall.pass_at_1));
    let _ = writeln!(
        out,
        "  {:<22}{} ({} of {} tasks passed at least once)",
        format!("pass@{}", policy.overall.k),
        percent(policy.overall.pass_at_k),
        policy.overall.tasks_with_a_pass,
        policy.overall.tasks
    );
    for (title, groups) in [
        ("by product", &policy.by_product),
        ("by difficulty", &policy.by_difficulty),
    ] {
        let _ = writeln!(out, "  {title}:");
        for (name, group) in groups {
            let _ = writeln!(
                out,
                "    {:<20}pass@1 {}, pass@{} {} ({} of {} tasks)",
                name,
                mean_std_text(&group.pass_at_1),
                group.k,
                percent(group.pass_at_k),
                group.tasks_with_a_pass,
                group.tasks
            );
        }
    }
    let usage = &policy.usage;
    let _ = writeln!(
        out,
        "  usage over {} runs, {} steps ({:.1} steps per task):",
        usage.runs, usage.total_steps, usage.steps_per_task
    );
    let _ = writeln!(out, "    {:<20}{:>14}{:>14}{:>16}", "", "per task", "per step", "total");
    for (name, figure, decimals) in [
        ("tokens in", usage.tokens_in, 0),
        ("tokens out", usage.tokens_out, 0),
        ("time (ms)", usage.duration_ms, 0),
        ("cost", usage.cost, 4),
    ] {
        let per_step = figure
            .per_step
            .map_or_else(|| "-".to_owned(), |v| format!("{v:.prec$}", prec = decimals.max(1)));
        let _ = writeln!(
            out,
            "    {:<20}{:>14}{:>14}{:>16}",
            name,
            format!("{:.prec$}", figure.per_task, prec = decimals.max(1)),
            per_step,
            format!("{:.prec$}", figure.total, prec = decimals)
        );
    }
    let failures = &policy.failures;
    let _ = writeln!(
        out,
        "  failure categories over {} runs that did not pass: provisioning {}, ui interaction {}, \
         agent decision {}, environment {}, unclassified {}",
        failures.failed_runs,
        failures.provisioning,
        failures.ui_interaction,
        failures.agent_decision,
        failures.environment,
        failures.unclassified
    );
    let drift = &policy.drift;
    let _ = writeln!(
        out,
        "  {:<22}{} ({} of {} expected differences found with their step, kind and labels)",
        "drift recall",
        optional_percent(drift.drift_recall),
        drift.matched,
        drift.expected_differences
    );
    let _ = writeln!(
        out,
        "  {:<22}{} ({} of {} findings match an expected difference)",
        "drift precision",
        optional_percent(drift.drift_precision),
        drift.matched,
        drift.findings
    );
    let _ = writeln!(
        out,
        "  {:<22}{} ({} of {} runs of tasks with no expected difference passed)",
        "untouched pass rate",
        optional_percent(drift.untouched_pass_rate),
        drift.untouched_runs_passed,
        drift.untouched_runs
    );
}

fn render_comparison(comparison: &PairedComparison) -> String {
    let name = format!("{} − {}", comparison.policy_a, comparison.policy_b);
    let (Some(difference), Some([low, high]), Some(p_value)) =
        (comparison.pass_at_1_difference, comparison.ci_95, comparison.p_value)
    else {
        return format!(
            "{name}: not compared ({} shared tasks, {} resamples)",
            comparison.tasks, comparison.resamples
        );
    };
    format!(
        "{name}: {:+.1} pp, 95% CI [{:+.1}, {:+.1}] pp, p = {} ({} tasks, {} resamples, seed {})",
        difference * 100.0,
        low * 100.0,
        high * 100.0,
        p_value_text(p_value),
        comparison.tasks,
        comparison.resamples,
        comparison.seed
    )
}

fn p_value_text(p_value: f64) -> String {
    if p_value >= 0.001 {
        format!("{p_value:.3}")
    } else {
        format!("{p_value:.1e}")
    }
}

fn mean_std_text(figure: &MeanStd) -> String {
    let runs = if figure.runs == 1 { "run" } else { "runs" };
    format!(
        "{} ± {} ({} {runs})",
        percent(figure.mean),
        percent(figure.std),
        figure.runs
    )
}

fn percent(fraction: f64) -> String {
    format!("{:.1}%", fraction * 100.0)
}

/// A ratio as a percentage, `n/a` when there is none.
pub fn optional_percent(fraction: Option<f64>) -> String {
    fraction.map_or_else(|| "n/a".to_owned(), percent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use aca_core::DefectKind;

    fn run(policy: &str, task: &str, run_index: u32, passed: bool) -> AgentRun {
        AgentRun {
            policy: policy.to_owned(),
            task: task.to_owned(),
            product: "vpc".to_owned(),
            difficulty: Difficulty::Standard,
            run: run_index,
            passed,
            steps: 10,
            tokens_in: 1000,
            tokens_out: 100,
            duration_ms: 5000,
            cost: 0.01,
            failure: (!passed).then_some(FailureCategory::AgentDecision),
            findings: Vec::new(),
            expected: Vec::new(),
        }
    }

    fn expected(step: &str, kind: DefectKind, documented: &str, observed: &str) -> ExpectedDrift {
        serde_json::from_value(serde_json::json!({
            "step": step,
            "kind": kind,
            "documented": documented,
            "observed": observed,
        }))
        .unwrap()
    }

    fn finding(step: &str, kind: DefectKind, documented: &str, observed: &str) -> Defect {
        Defect {
            kind,
            step: step.to_owned(),
            documented: documented.to_owned(),
            observed: observed.to_owned(),
            confidence: Default::default(),
            evidence: Default::default(),
        }
    }

    fn close(actual: f64, wanted: f64) -> bool {
        (actual - wanted).abs() < 1e-9
    }

    /// 3 tasks × 3 runs: run 0 passes a, b; run 1 passes a; run 2 passes a, b, c.
    fn three_by_three() -> Vec<AgentRun> {
        let passes = [
            ("a", [true, true, true]),
            ("b", [true, false, true]),
            ("c", [false, false, true]),
        ];
        passes
            .iter()
            .flat_map(|(task, by_run)| (0..3).map(move |i| run("scripted", task, i, by_run[i as usize])))
            .collect()
    }

    #[test]
    fn pass_at_1_is_the_mean_and_sample_std_over_runs_and_pass_at_k_counts_any_pass() {
        let figures = score(&three_by_three(), 100, 1);
        let policy = &figures.policies[0];
        // Per run: 2/3, 1/3, 3/3 → mean 2/3, sample std 1/3.
        assert!(close(policy.overall.pass_at_1.mean, 2.0 / 3.0));
        assert!(close(policy.overall.pass_at_1.std, 1.0 / 3.0));
        assert_eq!(policy.overall.pass_at_1.runs, 3);
        assert_eq!((policy.overall.k, policy.overall.tasks, policy.overall.runs), (3, 3, 9));
        assert!(close(policy.overall.pass_at_k, 1.0));
        assert_eq!(policy.overall.tasks_with_a_pass, 3);
        assert!(figures.comparisons.is_empty());

        let single: Vec<AgentRun> = three_by_three().into_iter().filter(|r| r.run == 1).collect();
        let policy = &score(&single, 100, 1).policies[0];
        assert!(close(policy.overall.pass_at_1.mean, 1.0 / 3.0));
        assert_eq!(policy.overall.pass_at_1.std, 0.0);
        assert!(close(policy.overall.pass_at_k, 1.0 / 3.0));
    }

    #[test]
    fn by_product_and_by_difficulty_split_the_tasks() {
        let mut runs = three_by_three();
        for r in &mut runs {
            if r.task == "c" {
                r.product = "ecs".to_owned();
                r.difficulty = Difficulty::Hard;
            }
        }
        let policy = &score(&runs, 100, 1).policies[0];
        let vpc = &policy.by_product["vpc"];
        let ecs = &policy.by_product["ecs"];
        assert_eq!((vpc.tasks, ecs.tasks), (2, 1));
        // vpc per run: 2/2, 1/2, 2/2; ecs per run: 0, 0, 1.
        assert!(close(vpc.pass_at_1.mean, 5.0 / 6.0));
        assert!(close(vpc.pass_at_1.std, (1.0f64 / 12.0).sqrt()));
        assert!(close(ecs.pass_at_1.mean, 1.0 / 3.0));
        assert!(close(ecs.pass_at_k, 1.0));
        assert_eq!(policy.by_difficulty["standard"], *vpc);
        assert_eq!(policy.by_difficulty["hard"], *ecs);
        assert_eq!(policy.by_difficulty.len(), 2);
    }

    #[test]
    fn usage_and_failures_are_counted_per_task_and_per_step() {
        let mut runs = three_by_three();
        runs[0].steps = 0;
        runs[1].failure = None;
        runs[5].passed = false;
        runs[5].failure = None;
        let policy = &score(&runs, 100, 1).policies[0];
        assert_eq!(policy.usage.total_steps, 80);
        assert!(close(policy.usage.tokens_in.per_task, 1000.0));
        assert!(close(policy.usage.tokens_in.per_step.unwrap(), 9000.0 / 80.0));
        assert!(close(policy.usage.cost.total, 0.09));
        let failures = &policy.failures;
        assert_eq!(
            (failures.failed_runs, failures.agent_decision, failures.unclassified),
            (4, 3, 1)
        );

        let mut idle = run("scripted", "a", 0, false);
        idle.steps = 0;
        assert_eq!(score(&[idle], 100, 1).policies[0].usage.duration_ms.per_step, None);
    }

    #[test]
    fn labels_normalise_case_spacing_quotes_and_menu_separators() {
        assert!(label_matches("Restart", "More > Restart"));
        assert!(label_matches("Restart", "Restart (in the Actions column)"));
        assert!(label_matches("Restart", "More > Restart (in the Actions column)"));
        assert!(!label_matches("Restart", "Restart Instance"));
        assert!(!label_matches("More > Restart", "Restart"));
        assert!(!label_matches("Modify", "Modify a Logstore"));
        assert_eq!(normalise_label("  \"Networks  ›  VPCs\". "), "networks > vpcs");
        assert_eq!(normalise_label("networks / vpcs"), "networks > vpcs");
        assert_eq!(normalise_label("“Create VPC”"), "create vpc");
        assert_eq!(normalise_label(" ' ' "), "");
    }

    #[test]
    fn drift_counts_a_finding_only_when_step_kind_and_both_labels_match() {
        let drift = expected("3", DefectKind::RenamedLabel, "Networks > Create VPC", "New VPC");
        let mut touched = run("scripted", "touched", 0, false);
        touched.expected = vec![
            drift.clone(),
            expected("5", DefectKind::MissingStep, "", ""),
            expected("6", DefectKind::ChangedValue, "Tags", "Labels"),
        ];
        touched.findings = vec![
            // Right step and kind, wrong observed label: does not count.
            finding("3", DefectKind::RenamedLabel, "Networks > Create VPC", "Add VPC"),
            // The same labels modulo case, spaces, quotes and `›`: counts.
            finding(
                " 3 ",
                DefectKind::RenamedLabel,
                "\"networks  ›  create vpc\"",
                "'new vpc'.",
            ),
            // Empty expected labels match anything.
            finding("5", DefectKind::MissingStep, "Select a zone", "whatever"),
            // Right labels, wrong kind: does not count.
            finding("6", DefectKind::RenamedLabel, "Tags", "Labels"),
        ];
        let mut untouched_pass = run("scripted", "untouched", 0, true);
        // Matches nothing: lowers precision.
        untouched_pass.findings = vec![finding("2", DefectKind::MovedControl, "Delete", "More > Delete")];
        let untouched_fail = run("scripted", "untouched", 1, false);

        let drift_figures = score(&[touched, untouched_pass, untouched_fail], 100, 1).policies[0]
            .drift
            .clone();
        assert_eq!(
            (drift_figures.matched, drift_figures.expected_differences),
            (2, 3)
        );
        assert!(close(drift_figures.drift_recall.unwrap(), 2.0 / 3.0));
        assert_eq!((drift_figures.matched, drift_figures.findings), (2, 5));
        assert!(close(drift_figures.drift_precision.unwrap(), 0.4));
        assert_eq!(
            (drift_figures.untouched_runs_passed, drift_figures.untouched_runs),
            (1, 2)
        );
        assert!(close(drift_figures.untouched_pass_rate.unwrap(), 0.5));
    }

    #[test]
    fn each_finding_matches_at_most_one_expected_difference_and_the_best_pairing_is_kept() {
        let wildcard = expected("4", DefectKind::RenamedLabel, "", "");
        let specific = expected("4", DefectKind::RenamedLabel, "Name", "Title");
        let precise = finding("4", DefectKind::RenamedLabel, "Name", "Title");
        let other = finding("4", DefectKind::RenamedLabel, "Size", "Capacity");
        assert_eq!(
            matched_differences(&[wildcard.clone(), wildcard.clone()], std::slice::from_ref(&precise)),
            1
        );
        // Greedy in order would give the precise finding to the wildcard and leave `specific` unmatched.
        assert_eq!(matched_differences(&[wildcard, specific], &[precise, other]), 2);
    }

    #[test]
    fn nothing_expected_or_reported_gives_no_ratio() {
        let drift = &score(&[run("scripted", "a", 0, true)], 100, 1).policies[0].drift;
        assert_eq!((drift.drift_recall, drift.drift_precision), (None, None));
        assert_eq!(drift.untouched_pass_rate, Some(1.0));
    }

    /// Policy `a` and `b` on tasks `t0..`, one run each, from the per-task difference a − b.
    fn paired_runs(differences: &[i32]) -> Vec<AgentRun> {
        differences
            .iter()
            .enumerate()
            .flat_map(|(i, d)| {
                let task = format!("t{i}");
                let (a, b) = match d {
                    1 => (true, false),
                    -1 => (false, true),
                    _ => (true, true),
                };
                [run("a", &task, 0, a), run("b", &task, 0, b)]
            })
            .collect()
    }

    #[test]
    fn bootstrap_of_a_sweep_is_plus_one_with_the_p_value_at_its_floor() {
        let figures = score(&paired_runs(&[1; 40]), 10_000, 7);
        let comparison = &figures.comparisons[0];
        assert_eq!((comparison.policy_a.as_str(), comparison.policy_b.as_str()), ("a", "b"));
        assert_eq!(comparison.tasks, 40);
        assert_eq!(comparison.pass_at_1_difference, Some(1.0));
        assert_eq!(comparison.ci_95, Some([1.0, 1.0]));
        assert!(close(comparison.p_value.unwrap(), 1.0 / 10_001.0));
    }

    #[test]
    fn bootstrap_of_identical_policies_is_zero_with_p_one() {
        let mut runs = three_by_three();
        runs.extend(three_by_three().into_iter().map(|r| AgentRun {
            policy: "copy".to_owned(),
            ..r
        }));
        let comparison = &score(&runs, 2_000, 3).comparisons[0];
        assert_eq!(comparison.tasks, 3);
        assert!(close(comparison.pass_at_1_difference.unwrap(), 0.0));
        let [low, high] = comparison.ci_95.unwrap();
        assert!(low <= 0.0 && 0.0 <= high);
        assert_eq!(comparison.p_value, Some(1.0));
    }

    #[test]
    fn bootstrap_interval_matches_the_normal_approximation_on_a_large_sample() {
        let differences: Vec<i32> = [1; 160].into_iter().chain([-1; 80]).chain([0; 160]).collect();
        let comparison = &score(&paired_runs(&differences), 10_000, 11).comparisons[0];
        let as_f64: Vec<f64> = differences.iter().map(|&d| f64::from(d)).collect();
        let spread = mean_std(&as_f64);
        assert!(close(spread.mean, 0.2));
        let normal_half_width = 1.96 * spread.std / (differences.len() as f64).sqrt();
        let [low, high] = comparison.ci_95.unwrap();
        let half_width = (high - low) / 2.0;
        assert!(
            (half_width / normal_half_width - 1.0).abs() < 0.05,
            "bootstrap half-width {half_width} against normal {normal_half_width}"
        );
        assert!(
            ((low + high) / 2.0 - 0.2).abs() < 0.01,
            "interval [{low}, {high}] not centred on 0.2"
        );
        assert!(comparison.p_value.unwrap() < 0.001);
    }

    #[test]
    fn bootstrap_is_deterministic_for_a_seed_and_moves_slightly_with_another() {
        let differences: Vec<i32> = [1; 8].into_iter().chain([-1; 6]).chain([0; 16]).collect();
        let runs = paired_runs(&differences);
        let first = score(&runs, 10_000, 7).comparisons[0].clone();
        let again = score(&runs, 10_000, 7).comparisons[0].clone();
        let other = score(&runs, 10_000, 8).comparisons[0].clone();
        assert_eq!(first, again);
        assert_eq!(first.pass_at_1_difference, other.pass_at_1_difference);
        assert_ne!(first.p_value, other.p_value);
        assert!(
            (first.p_value.unwrap() - other.p_value.unwrap()).abs() < 0.08,
            "{first:?} {other:?}"
        );
        let ([low, high], [other_low, other_high]) = (first.ci_95.unwrap(), other.ci_95.unwrap());
        assert!((low - other_low).abs() < 0.05 && (high - other_high).abs() < 0.05);
    }

    #[test]
    fn comparisons_cover_every_pair_and_only_shared_tasks() {
        let mut runs = paired_runs(&[1, 0, -1]);
        runs.push(run("c", "t0", 0, true));
        runs.push(run("b", "only-b", 0, true));
        let figures = score(&runs, 100, 1);
        let pairs: Vec<(&str, &str, usize)> = figures
            .comparisons
            .iter()
            .map(|c| (c.policy_a.as_str(), c.policy_b.as_str(), c.tasks))
            .collect();
        assert_eq!(pairs, [("a", "b", 3), ("a", "c", 1), ("b", "c", 1)]);
        let none = score(&runs, 0, 1);
        assert_eq!(none.comparisons[0].ci_95, None);
        assert!(render_table(&none).contains("a − b: not compared (3 shared tasks, 0 resamples)"));
    }

    #[test]
    fn figures_survive_a_json_round_trip() {
        let figures = score(&paired_runs(&[1, 0, -1, 1]), 500, 2);
        let json = serde_json::to_string(&figures).unwrap();
        let back: AgentFigures = serde_json::from_str(&json).unwrap();
        assert_eq!(back, figures);
        let run_json = serde_json::to_value(run("a", "t", 0, false)).unwrap();
        assert_eq!(run_json["failure"], "agent_decision");
        assert_eq!(run_json["difficulty"], "standard");
    }

    #[test]
    fn render_table_shows_the_key_figures() {
        let mut runs = three_by_three();
        runs.extend(three_by_three().into_iter().map(|r| AgentRun {
            policy: "llm:qwen3".to_owned(),
            passed: r.task == "a",
            ..r
        }));
        runs[0].expected = vec![expected("3", DefectKind::RenamedLabel, "Create", "New")];
        runs[0].findings = vec![finding("3", DefectKind::RenamedLabel, "create", "new")];
        let table = render_table(&score(&runs, 1_000, 7));
        for wanted in [
            "policy scripted: 3 tasks, 9 runs",
            "policy llm:qwen3: 3 tasks, 9 runs",
            "pass@1                66.7% ± 33.3% (3 runs)",
            "pass@3                100.0% (3 of 3 tasks passed at least once)",
            "pass@1                33.3% ± 0.0% (3 runs)",
            "by product:",
            "vpc",
            "by difficulty:",
            "standard",
            "per task",
            "per step",
            "tokens in",
            "1000.0",
            "100.0",
            "time (ms)",
            "failure categories over 3 runs that did not pass",
            "agent decision 3",
            "drift recall          100.0% (1 of 1 expected differences found",
            "drift precision       100.0% (1 of 1 findings match",
            "untouched pass rate   62.5% (5 of 8 runs",
            "scripted − llm:qwen3: +33.3 pp, 95% CI [",
            "(3 tasks, 1000 resamples, seed 7)",
        ] {
            assert!(table.contains(wanted), "missing {wanted:?} in:\n{table}");
        }
    }
}
