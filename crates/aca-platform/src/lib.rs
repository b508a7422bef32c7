//! The platform service's storage: one database (SQLite by default, PostgreSQL for teams) that
//! holds the job queue ([`queue`]), every run with its step verdicts, defects and costs
//! ([`results`]), when each documentation tree is verified again ([`schedule`]), who is signed in
//! to the dashboard ([`sessions`]) and who may ([`users`]), and which runs elsewhere may send their
//! report files back ([`uploads`]).
//!
//! Everything here is synchronous and short: the service calls it from blocking tasks. A job's run is
//! recorded in the same transaction that finishes the job, so a restart at any point neither loses
//! a run nor counts one twice.

pub mod db;
pub mod queue;
pub mod results;
pub mod schedule;
pub mod sessions;
pub mod uploads;
pub mod users;

pub use db::{Db, DbUrl};
pub use queue::{Job, JobState, NewJob, Queue};
pub use results::{Results, RunRecord};
pub use schedule::{Schedule, Schedules};
pub use sessions::{Session, Sessions};
pub use uploads::UploadTokens;
pub use users::{UserRow, UserRows};

/// What can go wrong with the platform's storage.
#[derive(Debug, thiserror::Error)]
pub enum PlatformError {
    /// The database could not be reached (it went away, or is busy): try again later.
    #[error("the results database is unavailable: {0}")]
    Unavailable(String),
    /// A statement failed.
    #[error("the results database refused a statement: {0}")]
    Database(String),
    /// The row is already there (a run recorded twice).
    #[error("already recorded: {0}")]
    Conflict(String),
    /// A bad address, file or expression, in words.
    #[error("{0}")]
    Config(String),
    #[error("{0} not found")]
    NotFound(String),
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
