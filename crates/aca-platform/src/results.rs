//! Every run in the database: the report's verdict, steps, defects, screenshots, tokens and cost,
//! and the questions a platform team asks of them (counts by verdict, a page's history, defects
//! new or known).

use std::sync::Arc;

use aca_core::Report;
pub use aca_core::results::{CurrentDefect, DayCount, DefectState, FlakyPage, RunRow, Totals};

use crate::PlatformError;
use crate::db::{Db, Sql, Value};

/// One finished run and where it belongs.
#[derive(Debug, Clone)]
pub struct RunRecord {
    pub id: String,
    /// The job it ran for; `None` for a run recorded outside the queue.
    pub job_id: Option<String>,
    /// The job's attempt (1 for the first run).
    pub attempt: i64,
    /// The documentation tree the page belongs to.
    pub tree: String,
    /// Digest of the page's text when it ran, so a verdict that changes with the page unchanged is
    /// seen as flaky.
    pub page_digest: Option<String>,
    /// The console product the page is about (`vpc`, `ecs`), when known.
    pub product: Option<String>,
    /// Where the report's files (HTML, screenshots) were written.
    pub report_dir: Option<String>,
    pub report: Report,
}

impl RunRecord {
    pub fn new(tree: impl Into<String>, report: Report) -> Self {
        Self {
            id: uuid::Uuid::new_v4().to_string(),
            job_id: None,
            attempt: 1,
            tree: tree.into(),
            page_digest: None,
            product: None,
            report_dir: None,
            report,
        }
    }
}

/// The runs of one database.
#[derive(Debug, Clone)]
pub struct Results {
    db: Arc<Db>,
}

/// When the page of the run `r` was last run by a run that said something of it: neither the
/// environment nor the agent stopped it.
const LATEST_INFORMATIVE: &str = "(SELECT max(r2.started_ms) FROM runs r2 WHERE r2.page = r.page \
     AND r2.verdict NOT IN ('environment_failure', 'agent_failure'))";

impl Results {
    pub fn new(db: Arc<Db>) -> Self {
        Self { db }
    }

    /// Records a run made outside the queue.
    pub fn record(&self, run: &RunRecord) -> Result<(), PlatformError> {
        self.db.transaction(|sql| insert(sql, run))
    }

    /// Records runs made outside the queue, all or none.
    pub fn record_all(&self, runs: &[RunRecord]) -> Result<(), PlatformError> {
        self.db
            .transaction(|sql| runs.iter().try_for_each(|run| insert(sql, run)))
    }

    /// The most recent runs first, of one tree or all.
    pub fn runs(&self, tree: Option<&str>, limit: i64) -> Result<Vec<RunRow>, PlatformError> {
        let (filter, params): (&str, Vec<Value>) = match tree {
            Some(tree) => ("WHERE r.tree = $2", vec![limit.into(), tree.into()]),
            None => ("", vec![limit.into()]),
        };
        let sql = format!("{RUN_COLUMNS} {filter} ORDER BY r.started_ms DESC, r.id LIMIT $1");
        let rows = self.db.transaction(|s| s.query(&sql, &params))?;
        Ok(rows.iter().map(run_row).collect())
    }

    /// One page's runs in the order they ran: where its verdict changed is where it drifted.
    pub fn page_history(&self, page: &str) -> Result<Vec<RunRow>, PlatformError> {
        let sql = format!("{RUN_COLUMNS} WHERE r.page = $1 ORDER BY r.started_ms, r.attempt, r.id");
        let rows = self.db.transaction(|s| s.query(&sql, &[page.into()]))?;
        Ok(rows.iter().map(run_row).collect())
    }

    /// A run's whole report, as it was written.
    pub fn report(&self, run_id: &str) -> Result<Report, PlatformError> {
        let row = self
            .db
            .transaction(|s| s.query_one("SELECT report FROM runs WHERE id = $1", &[run_id.into()]))?
            .ok_or_else(|| PlatformError::NotFound(format!("run {run_id}")))?;
        serde_json::from_str(&row.text(0))
            .map_err(|e| PlatformError::Database(format!("run {run_id}'s stored report does not read back: {e}")))
    }

    /// Where a run's report files (HTML, screenshots) were written, when they were.
    pub fn report_dir(&self, run_id: &str) -> Result<Option<String>, PlatformError> {
        let row = self
            .db
            .transaction(|s| s.query_one("SELECT report_dir FROM runs WHERE id = $1", &[run_id.into()]))?
            .ok_or_else(|| PlatformError::NotFound(format!("run {run_id}")))?;
        Ok(row.opt_text(0))
    }

    pub fn totals(&self) -> Result<Totals, PlatformError> {
        self.db.transaction(|s| {
            let by_verdict = s
                .query(
                    "SELECT verdict, count(*) FROM runs GROUP BY verdict ORDER BY verdict",
                    &[],
                )?
                .iter()
                .map(|r| (r.text(0), r.int(1)))
                .collect::<Vec<_>>();
            // Sums are cast so that PostgreSQL answers a BIGINT, as SQLite does.
            let sums = s
                .query_one(
                    "SELECT count(*), CAST(COALESCE(SUM(duration_ms), 0) AS BIGINT), \
                     CAST(COALESCE(SUM(prompt_tokens), 0) AS BIGINT), \
                     CAST(COALESCE(SUM(completion_tokens), 0) AS BIGINT), \
                     CAST(COALESCE(SUM(cost_usd), 0) AS DOUBLE PRECISION), \
                     CAST(COALESCE(SUM(images), 0) AS BIGINT), \
                     CAST(COALESCE(SUM(image_tokens), 0) AS BIGINT) FROM runs",
                    &[],
                )?
                .ok_or_else(|| PlatformError::Database("no totals".into()))?;
            Ok(Totals {
                by_verdict,
                runs: sums.int(0),
                duration_ms: sums.int(1),
                prompt_tokens: sums.int(2),
                completion_tokens: sums.int(3),
                cost_usd: sums.real(4).unwrap_or(0.0),
                images: sums.int(5),
                image_tokens: sums.int(6),
            })
        })
    }

    /// Marks a defect of a page as known: later runs still report it, no longer as new.
    pub fn mark_known(
        &self,
        page: &str,
        kind: &str,
        step: &str,
        documented: &str,
        marked_by: &str,
    ) -> Result<(), PlatformError> {
        self.db.transaction(|s| {
            s.execute(
                "DELETE FROM known_defects WHERE page = $1 AND kind = $2 AND step = $3 AND documented = $4",
                &[page.into(), kind.into(), step.into(), documented.into()],
            )?;
            s.execute(
                "INSERT INTO known_defects (page, kind, step, documented, marked_by, marked_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
                &[
                    page.into(),
                    kind.into(),
                    step.into(),
                    documented.into(),
                    marked_by.into(),
                    crate::now_ms().into(),
                ],
            )?;
            Ok(())
        })
    }

    /// The defects of each page's latest run that said something of the page, each said to be new or
    /// known, then those an earlier run found and that run (when it reached a verdict) no longer
    /// does: fixed. A run the environment or the agent broke says nothing of the page, so a page
    /// keeps its defects through such runs.
    pub fn current_defects(&self) -> Result<Vec<CurrentDefect>, PlatformError> {
        let (current, fixed) = self.db.transaction(|s| {
            let current = s.query(
                &format!(
                    "SELECT d.page, d.step, d.kind, d.confidence, d.documented, d.observed, d.run_id, r.product, r.tree, \
                 CASE WHEN k.page IS NULL THEN 0 ELSE 1 END \
                 FROM defects d JOIN runs r ON r.id = d.run_id \
                 LEFT JOIN known_defects k ON k.page = d.page AND k.kind = d.kind AND k.step = d.step \
                   AND k.documented = d.documented \
                 WHERE r.started_ms = {LATEST_INFORMATIVE} \
                 ORDER BY d.page, d.ordinal"
                ),
                &[],
            )?;
            let fixed = s.query(
                &format!(
                    "SELECT d.page, d.step, d.kind, d.confidence, d.documented, d.observed, d.run_id, r.product, r.tree, 0 \
                 FROM defects d JOIN runs r ON r.id = d.run_id \
                 JOIN runs l ON l.page = r.page AND l.started_ms = {LATEST_INFORMATIVE} \
                 WHERE r.started_ms < l.started_ms AND l.verdict IN ('pass', 'doc_defect') \
                 AND NOT EXISTS (SELECT 1 FROM defects d2 WHERE d2.run_id = l.id AND d2.kind = d.kind \
                   AND d2.step = d.step AND d2.documented = d.documented) \
                 ORDER BY d.page, r.started_ms DESC, d.ordinal"
                ),
                &[],
            )?;
            Ok((current, fixed))
        })?;
        let defect = |r: &crate::db::Row, state: DefectState| CurrentDefect {
            page: r.text(0),
            step: r.text(1),
            kind: r.text(2),
            confidence: r.text(3),
            documented: r.text(4),
            observed: r.text(5),
            run_id: r.text(6),
            product: r.opt_text(7),
            tree: r.text(8),
            state: if state == DefectState::New && r.int(9) == 1 {
                DefectState::Known
            } else {
                state
            },
        };
        let mut defects: Vec<CurrentDefect> = current.iter().map(|r| defect(r, DefectState::New)).collect();
        let mut seen = std::collections::HashSet::new();
        for row in &fixed {
            let gone = defect(row, DefectState::Fixed);
            if seen.insert((
                gone.page.clone(),
                gone.kind.clone(),
                gone.step.clone(),
                gone.documented.clone(),
            )) {
                defects.push(gone);
            }
        }
        Ok(defects)
    }

    /// The latest run of each page, of one tree or all, by page.
    pub fn latest(&self, tree: Option<&str>) -> Result<Vec<RunRow>, PlatformError> {
        let (filter, params): (&str, Vec<Value>) = match tree {
            Some(tree) => ("AND r.tree = $1", vec![tree.into()]),
            None => ("", vec![]),
        };
        let sql = format!(
            "{RUN_COLUMNS} WHERE r.started_ms = (SELECT max(r2.started_ms) FROM runs r2 WHERE r2.page = r.page) \
             {filter} ORDER BY r.page, r.attempt DESC"
        );
        let rows = self.db.transaction(|s| s.query(&sql, &params))?;
        let mut latest: Vec<RunRow> = rows.iter().map(run_row).collect();
        latest.dedup_by(|later, earlier| later.page == earlier.page);
        Ok(latest)
    }

    /// Pages whose verdict changed across runs of the same text: the verifier's flakiness, not the
    /// page's drift. An environment failure says nothing about either and is left out.
    pub fn flaky_pages(&self) -> Result<Vec<FlakyPage>, PlatformError> {
        let rows = self.db.transaction(|s| {
            s.query(
                "SELECT page, page_digest, count(DISTINCT verdict), count(*) FROM runs \
                 WHERE verdict <> 'environment_failure' AND page_digest IS NOT NULL \
                 GROUP BY page, page_digest HAVING count(DISTINCT verdict) > 1 ORDER BY page",
                &[],
            )
        })?;
        Ok(rows
            .iter()
            .map(|r| FlakyPage {
                page: r.text(0),
                page_digest: r.text(1),
                verdicts: r.int(2),
                runs: r.int(3),
            })
            .collect())
    }

    /// Runs per UTC day and verdict since `since_ms`, oldest day first.
    pub fn runs_per_day(&self, since_ms: i64) -> Result<Vec<DayCount>, PlatformError> {
        let rows = self.db.transaction(|s| {
            s.query(
                "SELECT started_ms / 86400000, verdict, count(*) FROM runs WHERE started_ms >= $1 \
                 GROUP BY started_ms / 86400000, verdict ORDER BY 1, 2",
                &[since_ms.into()],
            )
        })?;
        Ok(rows
            .iter()
            .map(|r| DayCount {
                day_ms: r.int(0) * 86_400_000,
                verdict: r.text(1),
                runs: r.int(2),
            })
            .collect())
    }
}

const RUN_COLUMNS: &str = "SELECT r.id, r.job_id, r.attempt, r.tree, r.page, r.title, r.product, r.verdict, \
     r.summary, r.started_ms, r.duration_ms, \
     (SELECT count(*) FROM defects d WHERE d.run_id = r.id), \
     r.prompt_tokens, r.completion_tokens, r.cost_usd, r.images, r.image_tokens FROM runs r";

fn run_row(r: &crate::db::Row) -> RunRow {
    RunRow {
        id: r.text(0),
        job_id: r.opt_text(1),
        attempt: r.int(2),
        tree: r.text(3),
        page: r.text(4),
        title: r.text(5),
        product: r.opt_text(6),
        verdict: r.text(7),
        summary: r.text(8),
        started_ms: r.int(9),
        duration_ms: r.int(10),
        defects: r.int(11),
        prompt_tokens: r.int(12),
        completion_tokens: r.int(13),
        cost_usd: r.real(14),
        images: r.int(15),
        image_tokens: r.int(16),
    }
}

/// Writes a run with its steps and defects. A job's attempt already recorded is a
/// [`PlatformError::Conflict`] and changes nothing.
pub(crate) fn insert(sql: &mut dyn Sql, run: &RunRecord) -> Result<(), PlatformError> {
    let report = &run.report;
    let json = serde_json::to_string(report)
        .map_err(|e| PlatformError::Database(format!("the report does not serialise: {e}")))?;
    let started_ms = started_ms(report);
    sql.execute(
        "INSERT INTO runs (id, job_id, attempt, tree, page, page_digest, title, product, verdict, summary, \
         failure, console, profile, policy, started_ms, duration_ms, model_calls, prompt_tokens, \
         completion_tokens, cost_usd, report_dir, report, images, image_tokens) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, \
         $23, $24)",
        &[
            run.id.as_str().into(),
            run.job_id.clone().into(),
            run.attempt.into(),
            run.tree.as_str().into(),
            report.page.as_str().into(),
            run.page_digest.clone().into(),
            report.title.as_str().into(),
            run.product.clone().into(),
            snake(&report.verdict).into(),
            report.summary.as_str().into(),
            report.failure.clone().into(),
            report.console.url.as_str().into(),
            report.console.profile.clone().into(),
            report.policy.as_str().into(),
            started_ms.into(),
            (report.duration_ms as i64).into(),
            i64::from(report.usage.calls).into(),
            (report.usage.prompt_tokens as i64).into(),
            (report.usage.completion_tokens as i64).into(),
            report.usage.cost_usd.into(),
            run.report_dir.clone().into(),
            json.into(),
            i64::from(report.usage.images).into(),
            (report.usage.image_tokens as i64).into(),
        ],
    )?;
    for (ordinal, step) in report.steps.iter().enumerate() {
        let screenshot = report
            .screenshots
            .iter()
            .rev()
            .find(|s| s.step.as_deref() == Some(step.grade.step.as_str()))
            .map(|s| s.path.clone());
        sql.execute(
            "INSERT INTO steps (run_id, ordinal, step, status, text, note, verified, screenshot) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            &[
                run.id.as_str().into(),
                (ordinal as i64).into(),
                step.grade.step.as_str().into(),
                snake(&step.grade.status).into(),
                step.text.as_str().into(),
                step.grade.note.clone().into(),
                step.grade.verified.into(),
                screenshot.into(),
            ],
        )?;
    }
    for (ordinal, defect) in report.defects.iter().enumerate() {
        sql.execute(
            "INSERT INTO defects (run_id, ordinal, page, step, kind, confidence, documented, observed, screenshot) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            &[
                run.id.as_str().into(),
                (ordinal as i64).into(),
                report.page.as_str().into(),
                defect.step.as_str().into(),
                snake(&defect.kind).into(),
                snake(&defect.confidence).into(),
                defect.documented.as_str().into(),
                defect.observed.as_str().into(),
                defect.evidence.screenshot.clone().into(),
            ],
        )?;
    }
    Ok(())
}

/// A serde enum's `snake_case` name.
fn snake(value: &impl serde::Serialize) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

/// The run's start as Unix milliseconds, from the report's RFC 3339 time (now when it has none).
fn started_ms(report: &Report) -> i64 {
    time_from_rfc3339(&report.started_at).unwrap_or_else(crate::now_ms)
}

fn time_from_rfc3339(text: &str) -> Option<i64> {
    let at = time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).ok()?;
    Some((at.unix_timestamp_nanos() / 1_000_000) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_times_read_as_unix_milliseconds() {
        assert_eq!(time_from_rfc3339("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(time_from_rfc3339("2026-12-06T08:23:24.5Z"), Some(1_796_545_404_500));
        assert_eq!(
            time_from_rfc3339("2026-12-06T16:23:24.5+08:00"),
            Some(1_796_545_404_500)
        );
        assert_eq!(time_from_rfc3339("yesterday"), None);
    }
}
