//! When each documentation tree is verified again: a cron expression (five fields, UTC) per tree,
//! with the sources its pages come from; the service asks which schedules are due and queues them.

use std::str::FromStr as _;
use std::sync::Arc;

use crate::PlatformError;
use crate::db::Db;

/// A tree's schedule.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Schedule {
    pub tree: String,
    /// `minute hour day-of-month month day-of-week`, in UTC (`0 3 * * *`: every day at 03:00).
    pub cron: String,
    /// Folders, pages or sitemap URLs whose pages are queued when it fires.
    pub sources: Vec<String>,
    #[serde(default)]
    pub priority: i64,
    /// When it fires next (Unix ms); set from `cron` when the schedule is saved.
    #[serde(default)]
    pub next_ms: i64,
}

/// The next time `cron` fires strictly after `after_ms`.
pub fn next_after(cron: &str, after_ms: i64) -> Result<i64, PlatformError> {
    let parsed = croner::Cron::from_str(cron)
        .map_err(|e| PlatformError::Config(format!("\"{cron}\" is not a cron expression: {e}")))?;
    let after = chrono::DateTime::from_timestamp_millis(after_ms)
        .ok_or_else(|| PlatformError::Config(format!("{after_ms} is not a time")))?;
    parsed
        .find_next_occurrence(&after, false)
        .map(|at| at.timestamp_millis())
        .map_err(|e| PlatformError::Config(format!("\"{cron}\" never fires: {e}")))
}

/// The schedules of one database.
#[derive(Debug, Clone)]
pub struct Schedules {
    db: Arc<Db>,
}

impl Schedules {
    pub fn new(db: Arc<Db>) -> Self {
        Self { db }
    }

    /// Saves a tree's schedule (replacing the one it had), due next by its expression.
    pub fn save(&self, schedule: &Schedule, now_ms: i64) -> Result<Schedule, PlatformError> {
        if schedule.sources.is_empty() {
            return Err(PlatformError::Config(format!(
                "the schedule of {} names no pages: give folders, pages or sitemap URLs",
                schedule.tree
            )));
        }
        let mut saved = schedule.clone();
        saved.next_ms = next_after(&schedule.cron, now_ms)?;
        let sources = serde_json::to_string(&saved.sources).unwrap_or_default();
        self.db.transaction(|sql| {
            sql.execute("DELETE FROM schedules WHERE tree = $1", &[saved.tree.as_str().into()])?;
            sql.execute(
                "INSERT INTO schedules (tree, cron, sources, priority, next_ms) VALUES ($1, $2, $3, $4, $5)",
                &[
                    saved.tree.as_str().into(),
                    saved.cron.as_str().into(),
                    sources.into(),
                    saved.priority.into(),
                    saved.next_ms.into(),
                ],
            )?;
            Ok(())
        })?;
        Ok(saved)
    }

    pub fn remove(&self, tree: &str) -> Result<(), PlatformError> {
        let removed = self
            .db
            .transaction(|sql| sql.execute("DELETE FROM schedules WHERE tree = $1", &[tree.into()]))?;
        if removed == 0 {
            return Err(PlatformError::NotFound(format!("the schedule of {tree}")));
        }
        Ok(())
    }

    pub fn list(&self) -> Result<Vec<Schedule>, PlatformError> {
        let rows = self.db.transaction(|sql| {
            sql.query(
                "SELECT tree, cron, sources, priority, next_ms FROM schedules ORDER BY tree",
                &[],
            )
        })?;
        Ok(rows
            .iter()
            .map(|r| Schedule {
                tree: r.text(0),
                cron: r.text(1),
                sources: serde_json::from_str(&r.text(2)).unwrap_or_default(),
                priority: r.int(3),
                next_ms: r.int(4),
            })
            .collect())
    }

    /// The schedules due at `now_ms`, each moved on to its next time in the same transaction, so
    /// one firing is taken once even with several servers on one database. A schedule whose
    /// server was down over several of its times fires once.
    pub fn take_due(&self, now_ms: i64) -> Result<Vec<Schedule>, PlatformError> {
        let due: Vec<Schedule> = self.list()?.into_iter().filter(|s| s.next_ms <= now_ms).collect();
        let mut taken = Vec::new();
        for schedule in due {
            let next = next_after(&schedule.cron, now_ms)?;
            let moved = self.db.transaction(|sql| {
                sql.execute(
                    "UPDATE schedules SET next_ms = $3 WHERE tree = $1 AND next_ms = $2",
                    &[schedule.tree.as_str().into(), schedule.next_ms.into(), next.into()],
                )
            })?;
            if moved == 1 {
                taken.push(schedule);
            }
        }
        Ok(taken)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DbUrl;

    // 2026-12-06T08:23:24Z
    const NOW: i64 = 1_796_545_404_000;

    #[test]
    fn a_daily_expression_fires_at_its_hour() {
        let next = next_after("0 3 * * *", NOW).unwrap();
        assert_eq!(next, 1_796_612_400_000); // 2026-12-07T03:00:00Z
        assert!(next_after("every day", NOW).is_err());
    }

    #[test]
    fn a_due_schedule_is_taken_once_and_moves_on() {
        let db = Arc::new(Db::open(&DbUrl::SqliteMemory).unwrap());
        let schedules = Schedules::new(db);
        let saved = schedules
            .save(
                &Schedule {
                    tree: "vpc".into(),
                    cron: "*/5 * * * *".into(),
                    sources: vec!["docs/vpc".into()],
                    priority: 0,
                    next_ms: 0,
                },
                NOW,
            )
            .unwrap();
        assert!(schedules.take_due(NOW).unwrap().is_empty());
        let due = schedules.take_due(saved.next_ms).unwrap();
        assert_eq!(due.len(), 1);
        assert!(schedules.take_due(saved.next_ms).unwrap().is_empty());
        assert!(schedules.list().unwrap()[0].next_ms > saved.next_ms);
        assert!(
            schedules
                .save(
                    &Schedule {
                        sources: vec![],
                        ..saved.clone()
                    },
                    NOW
                )
                .is_err()
        );
    }
}
