//! The job queue: pages waiting to be verified, by priority then age; workers claim one under a
//! lease they renew while it runs; a run that ended in `environment_failure` is tried again (after
//! a pause, up to the job's attempts) with its cause kept; a job can be cancelled.
//!
//! A job's run is recorded in the transaction that finishes the job, keyed by (job, attempt): a
//! server that dies mid-run leaves a `running` job whose lease runs out (or that the restarted
//! server takes back at once), and the job runs again under the same attempt number, so it is
//! never counted twice.

use std::sync::Arc;

use crate::PlatformError;
use crate::db::{Db, Row, Sql, Value};
use crate::results::{self, RunRecord};

/// Where a job is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JobState {
    Queued,
    Running,
    /// Its last run is recorded.
    Done,
    /// The page could not be run at all (it could not be read): see the cause.
    Failed,
    Cancelled,
}

impl JobState {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Queued => "queued",
            Self::Running => "running",
            Self::Done => "done",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
        }
    }

    fn parse(text: &str) -> Self {
        match text {
            "running" => Self::Running,
            "done" => Self::Done,
            "failed" => Self::Failed,
            "cancelled" => Self::Cancelled,
            _ => Self::Queued,
        }
    }

    pub const ALL: [Self; 5] = [Self::Queued, Self::Running, Self::Done, Self::Failed, Self::Cancelled];
}

/// A page to verify.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NewJob {
    /// The documentation tree it belongs to (a name, a folder, a sitemap).
    pub tree: String,
    /// The page: a file or an http(s) URL.
    pub page: String,
    /// Higher runs first.
    #[serde(default)]
    pub priority: i64,
    /// How many runs the job may take when they end in `environment_failure`.
    #[serde(default = "default_attempts")]
    pub max_attempts: i64,
}

fn default_attempts() -> i64 {
    3
}

/// A job as stored.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Job {
    pub id: String,
    pub tree: String,
    pub page: String,
    pub priority: i64,
    pub state: JobState,
    /// Runs recorded so far.
    pub attempts: i64,
    pub max_attempts: i64,
    /// The worker holding it while it runs; once it has ended, the one that ran its last attempt.
    pub worker: Option<String>,
    pub submitted_ms: i64,
    pub started_ms: Option<i64>,
    pub finished_ms: Option<i64>,
    pub cancel_requested: bool,
    /// Why the last attempt was tried again, why the job failed, or who cancelled it.
    pub cause: Option<String>,
}

/// A job a worker holds, with the attempt its run is recorded under.
#[derive(Debug, Clone, PartialEq)]
pub struct Claimed {
    pub job: Job,
    pub attempt: i64,
}

/// What submitting a list of pages did.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Submitted {
    pub ids: Vec<String>,
    /// Pages of the same tree already waiting or running, not queued twice.
    pub already_queued: Vec<String>,
}

/// What finishing a run did to its job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finished {
    Done,
    /// Queued again for another attempt.
    Retried {
        next_attempt: i64,
    },
    /// The job was cancelled while it ran: its run is recorded, it does not run again.
    Cancelled,
    /// This attempt was already recorded (a second worker after a lost lease): nothing changed.
    AlreadyRecorded,
}

/// How many jobs are in each state.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Depth {
    pub queued: i64,
    pub running: i64,
    pub done: i64,
    pub failed: i64,
    pub cancelled: i64,
}

/// The queue of one database.
#[derive(Debug, Clone)]
pub struct Queue {
    db: Arc<Db>,
    /// How long a claim holds without a renewal.
    pub lease_ms: i64,
    /// Pause before a retried job runs again, times its attempt number.
    pub retry_pause_ms: i64,
}

const JOB_COLUMNS: &str = "SELECT id, tree, page, priority, state, attempts, max_attempts, worker, submitted_ms, \
     started_ms, finished_ms, cancel_requested, cause FROM jobs";

impl Queue {
    pub fn new(db: Arc<Db>) -> Self {
        Self {
            db,
            lease_ms: 60_000,
            retry_pause_ms: 30_000,
        }
    }

    pub fn db(&self) -> &Arc<Db> {
        &self.db
    }

    /// Queues pages; a page of the same tree already queued or running is not queued twice.
    pub fn submit(&self, jobs: &[NewJob], now_ms: i64) -> Result<Submitted, PlatformError> {
        self.db.transaction(|sql| {
            let mut submitted = Submitted::default();
            for (i, job) in jobs.iter().enumerate() {
                let waiting = sql.query_one(
                    "SELECT id FROM jobs WHERE tree = $1 AND page = $2 AND state IN ('queued', 'running')",
                    &[job.tree.as_str().into(), job.page.as_str().into()],
                )?;
                if waiting.is_some() {
                    submitted.already_queued.push(job.page.clone());
                    continue;
                }
                let id = uuid::Uuid::new_v4().to_string();
                sql.execute(
                    "INSERT INTO jobs (id, tree, page, priority, state, attempts, max_attempts, not_before_ms, \
                     submitted_ms, position, cancel_requested) VALUES ($1, $2, $3, $4, 'queued', 0, $5, 0, $6, $7, 0)",
                    &[
                        id.as_str().into(),
                        job.tree.as_str().into(),
                        job.page.as_str().into(),
                        job.priority.into(),
                        job.max_attempts.max(1).into(),
                        now_ms.into(),
                        (i as i64).into(),
                    ],
                )?;
                submitted.ids.push(id);
            }
            Ok(submitted)
        })
    }

    /// Takes the next job for `worker`: the highest priority, then the oldest, whose retry pause
    /// is over.
    pub fn claim(&self, worker: &str, now_ms: i64) -> Result<Option<Claimed>, PlatformError> {
        self.db.transaction(|sql| {
            loop {
                let Some(next) = sql.query_one(
                    "SELECT id FROM jobs WHERE state = 'queued' AND not_before_ms <= $1 \
                     ORDER BY priority DESC, submitted_ms, position LIMIT 1",
                    &[now_ms.into()],
                )?
                else {
                    return Ok(None);
                };
                let id = next.text(0);
                // Another server may have taken it between the two statements: then look again.
                let taken = sql.execute(
                    "UPDATE jobs SET state = 'running', worker = $2, lease_until_ms = $3, started_ms = $4 \
                     WHERE id = $1 AND state = 'queued'",
                    &[
                        id.as_str().into(),
                        worker.into(),
                        (now_ms + self.lease_ms).into(),
                        now_ms.into(),
                    ],
                )?;
                if taken == 1 {
                    let job = get(sql, &id)?;
                    let attempt = job.attempts + 1;
                    return Ok(Some(Claimed { job, attempt }));
                }
            }
        })
    }

    /// Renews `worker`'s lease on a running job. `false`: stop the run (it was cancelled, or the
    /// job is no longer this worker's).
    pub fn renew(&self, job_id: &str, worker: &str, now_ms: i64) -> Result<bool, PlatformError> {
        self.db.transaction(|sql| {
            let renewed = sql.execute(
                "UPDATE jobs SET lease_until_ms = $3 WHERE id = $1 AND worker = $2 AND state = 'running' \
                 AND cancel_requested = 0",
                &[job_id.into(), worker.into(), (now_ms + self.lease_ms).into()],
            )?;
            Ok(renewed == 1)
        })
    }

    /// Records the run of a claimed job and moves the job on: done, or queued again when the run
    /// ended in `environment_failure` and attempts are left.
    pub fn finish(
        &self,
        claimed: &Claimed,
        run: &RunRecord,
        retry_cause: Option<&str>,
        now_ms: i64,
    ) -> Result<Finished, PlatformError> {
        let job_id = claimed.job.id.as_str();
        self.db.transaction(|sql| {
            let mut run = run.clone();
            run.job_id = Some(job_id.to_owned());
            run.attempt = claimed.attempt;
            let current = get(sql, job_id)?;
            if current.attempts >= claimed.attempt {
                return Ok(Finished::AlreadyRecorded);
            }
            match results::insert(sql, &run) {
                Ok(()) => {}
                Err(PlatformError::Conflict(_)) => return Ok(Finished::AlreadyRecorded),
                Err(e) => return Err(e),
            }
            let cancelled = current.cancel_requested || current.state == JobState::Cancelled;
            let retry = retry_cause.filter(|_| !cancelled && claimed.attempt < current.max_attempts);
            let (state, not_before, finished, cause, outcome) = match retry {
                Some(cause) => (
                    JobState::Queued,
                    now_ms + self.retry_pause_ms * claimed.attempt,
                    None,
                    Some(format!(
                        "attempt {} ended in environment_failure: {cause}",
                        claimed.attempt
                    )),
                    Finished::Retried {
                        next_attempt: claimed.attempt + 1,
                    },
                ),
                None if cancelled => (
                    JobState::Cancelled,
                    0,
                    Some(now_ms),
                    current.cause.clone(),
                    Finished::Cancelled,
                ),
                None => (
                    JobState::Done,
                    0,
                    Some(now_ms),
                    retry_cause.map(|c| format!("no attempts left; the last ended in environment_failure: {c}")),
                    Finished::Done,
                ),
            };
            sql.execute(
                "UPDATE jobs SET state = $2, attempts = $3, lease_until_ms = NULL, \
                 worker = CASE WHEN $2 = 'queued' THEN NULL ELSE worker END, not_before_ms = $4, finished_ms = $5, cause = $6 WHERE id = $1",
                &[
                    job_id.into(),
                    state.as_str().into(),
                    claimed.attempt.into(),
                    not_before.into(),
                    finished.into(),
                    cause.into(),
                ],
            )?;
            Ok(outcome)
        })
    }

    /// Ends a claimed job that could not run at all (its page could not be read).
    pub fn fail(&self, claimed: &Claimed, cause: &str, now_ms: i64) -> Result<(), PlatformError> {
        self.db.transaction(|sql| {
            sql.execute(
                "UPDATE jobs SET state = 'failed', lease_until_ms = NULL, finished_ms = $2, cause = $3 \
                 WHERE id = $1 AND state = 'running'",
                &[claimed.job.id.as_str().into(), now_ms.into(), cause.into()],
            )?;
            Ok(())
        })
    }

    /// Gives a claimed job back without a run (the worker stopped before it ran, or was told to
    /// stop): it is queued again under the same attempt, or cancelled when that was asked.
    pub fn release(&self, claimed: &Claimed, why: &str) -> Result<(), PlatformError> {
        self.db.transaction(|sql| {
            sql.execute(
                "UPDATE jobs SET state = CASE WHEN cancel_requested = 1 THEN 'cancelled' ELSE 'queued' END, \
                 worker = NULL, lease_until_ms = NULL, cause = $2 WHERE id = $1 AND state = 'running'",
                &[claimed.job.id.as_str().into(), why.into()],
            )?;
            Ok(())
        })
    }

    /// Cancels a job: a queued one at once, a running one when its worker next renews its lease.
    pub fn cancel(&self, job_id: &str, by: &str, now_ms: i64) -> Result<JobState, PlatformError> {
        self.db.transaction(|sql| {
            let job = get(sql, job_id)?;
            match job.state {
                JobState::Queued => {
                    sql.execute(
                        "UPDATE jobs SET state = 'cancelled', finished_ms = $2, cause = $3 WHERE id = $1",
                        &[job_id.into(), now_ms.into(), format!("cancelled by {by}").into()],
                    )?;
                    Ok(JobState::Cancelled)
                }
                JobState::Running => {
                    sql.execute(
                        "UPDATE jobs SET cancel_requested = 1, cause = $2 WHERE id = $1",
                        &[job_id.into(), format!("cancelled by {by}").into()],
                    )?;
                    Ok(JobState::Running)
                }
                finished => Ok(finished),
            }
        })
    }

    /// Queues again the running jobs whose lease ran out (their worker died), and those of
    /// `worker_prefix` (a restarted server's own, at once). Returns how many.
    pub fn recover(&self, worker_prefix: Option<&str>, now_ms: i64) -> Result<u64, PlatformError> {
        self.db.transaction(|sql| {
            let prefix = worker_prefix.map(|p| format!("{p}%"));
            sql.execute(
                "UPDATE jobs SET state = CASE WHEN cancel_requested = 1 THEN 'cancelled' ELSE 'queued' END, \
                 worker = NULL, lease_until_ms = NULL \
                 WHERE state = 'running' AND (lease_until_ms < $1 OR worker LIKE $2)",
                &[now_ms.into(), Value::Text(prefix)],
            )
        })
    }

    pub fn get(&self, job_id: &str) -> Result<Job, PlatformError> {
        self.db.transaction(|sql| get(sql, job_id))
    }

    /// Jobs, newest first, of one state or all.
    pub fn list(&self, state: Option<JobState>, limit: i64) -> Result<Vec<Job>, PlatformError> {
        self.db.transaction(|sql| {
            let rows = match state {
                Some(state) => sql.query(
                    &format!("{JOB_COLUMNS} WHERE state = $1 ORDER BY submitted_ms DESC, position DESC LIMIT $2"),
                    &[state.as_str().into(), limit.into()],
                )?,
                None => sql.query(
                    &format!("{JOB_COLUMNS} ORDER BY submitted_ms DESC, position DESC LIMIT $1"),
                    &[limit.into()],
                )?,
            };
            Ok(rows.iter().map(job).collect())
        })
    }

    pub fn depth(&self) -> Result<Depth, PlatformError> {
        self.db.transaction(|sql| {
            let mut depth = Depth::default();
            for row in sql.query("SELECT state, count(*) FROM jobs GROUP BY state", &[])? {
                let n = row.int(1);
                match JobState::parse(&row.text(0)) {
                    JobState::Queued => depth.queued = n,
                    JobState::Running => depth.running = n,
                    JobState::Done => depth.done = n,
                    JobState::Failed => depth.failed = n,
                    JobState::Cancelled => depth.cancelled = n,
                }
            }
            Ok(depth)
        })
    }
}

fn get(sql: &mut dyn Sql, job_id: &str) -> Result<Job, PlatformError> {
    sql.query_one(&format!("{JOB_COLUMNS} WHERE id = $1"), &[job_id.into()])?
        .map(|row| job(&row))
        .ok_or_else(|| PlatformError::NotFound(format!("job {job_id}")))
}

fn job(row: &Row) -> Job {
    Job {
        id: row.text(0),
        tree: row.text(1),
        page: row.text(2),
        priority: row.int(3),
        state: JobState::parse(&row.text(4)),
        attempts: row.int(5),
        max_attempts: row.int(6),
        worker: row.opt_text(7),
        submitted_ms: row.int(8),
        started_ms: row.opt_int(9),
        finished_ms: row.opt_int(10),
        cancel_requested: row.int(11) == 1,
        cause: row.opt_text(12),
    }
}
