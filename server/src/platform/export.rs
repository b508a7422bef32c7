//! The latest run of each page as a CI system reads it: JUnit XML (a test case per page: a defect is
//! a failure, the environment's or the agent's failure an error, an undecided run skipped) and CSV.

use aca_platform::results::{CurrentDefect, DefectState, RunRow};
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

/// One `<testsuite>` per documentation tree, its pages as test cases.
pub fn junit(runs: &[RunRow], defects: &[CurrentDefect]) -> Result<String, String> {
    let mut report = Report::new("aca");
    let mut trees: Vec<&str> = runs.iter().map(|r| r.tree.as_str()).collect();
    trees.sort_unstable();
    trees.dedup();
    for tree in trees {
        let mut suite = TestSuite::new(tree);
        for run in runs.iter().filter(|r| r.tree == tree) {
            let status = match run.verdict.as_str() {
                "pass" => TestCaseStatus::success(),
                "unverified" => {
                    let mut skipped = TestCaseStatus::skipped();
                    skipped.set_message(run.summary.as_str());
                    skipped
                }
                verdict => {
                    let kind = if verdict == "doc_defect" {
                        NonSuccessKind::Failure
                    } else {
                        NonSuccessKind::Error
                    };
                    let mut failed = TestCaseStatus::non_success(kind);
                    failed.set_message(run.summary.as_str()).set_type(verdict);
                    let found: Vec<String> = defects
                        .iter()
                        .filter(|d| d.run_id == run.id && d.state != DefectState::Fixed)
                        .map(|d| {
                            format!(
                                "step {}: {} — the page says \"{}\", the console shows \"{}\"{}",
                                d.step,
                                d.kind,
                                d.documented,
                                d.observed,
                                if d.state == DefectState::Known { " (known)" } else { "" }
                            )
                        })
                        .collect();
                    if !found.is_empty() {
                        failed.set_description(found.join("\n"));
                    }
                    failed
                }
            };
            let mut case = TestCase::new(run.title.as_str(), status);
            case.set_classname(run.page.as_str());
            case.set_time(std::time::Duration::from_millis(run.duration_ms.max(0) as u64));
            suite.add_test_case(case);
        }
        report.add_test_suite(suite);
    }
    report
        .to_string()
        .map_err(|e| format!("the JUnit report could not be written: {e}"))
}

/// `tree,page,title,product,verdict,defects,started_ms,duration_ms,prompt_tokens,completion_tokens,cost_usd,summary,run_id`.
pub fn csv(runs: &[RunRow]) -> Result<String, String> {
    let mut out = csv::Writer::from_writer(Vec::new());
    let fail = |e: csv::Error| format!("the CSV could not be written: {e}");
    out.write_record([
        "tree",
        "page",
        "title",
        "product",
        "verdict",
        "defects",
        "started_ms",
        "duration_ms",
        "prompt_tokens",
        "completion_tokens",
        "cost_usd",
        "summary",
        "run_id",
    ])
    .map_err(fail)?;
    for run in runs {
        out.write_record([
            run.tree.clone(),
            run.page.clone(),
            run.title.clone(),
            run.product.clone().unwrap_or_default(),
            run.verdict.clone(),
            run.defects.to_string(),
            run.started_ms.to_string(),
            run.duration_ms.to_string(),
            run.prompt_tokens.to_string(),
            run.completion_tokens.to_string(),
            run.cost_usd.map(|c| c.to_string()).unwrap_or_default(),
            run.summary.clone(),
            run.id.clone(),
        ])
        .map_err(fail)?;
    }
    let bytes = out
        .into_inner()
        .map_err(|e| format!("the CSV could not be written: {e}"))?;
    String::from_utf8(bytes).map_err(|e| format!("the CSV is not UTF-8: {e}"))
}
