//! The platform service's moving parts: workers that run queued pages ([`workers`]), pages run as
//! Kubernetes Jobs instead of in-process ([`kubernetes`]), the documentation trees pages come from
//! ([`sources`]), the HTTP API a platform team and its CI use ([`api`]), who may change things
//! through it ([`auth`]), the report files runs in pods send back ([`uploads`]), and the
//! dashboard's files ([`dashboard`]). The storage (queue, results,
//! schedules, sessions) is `aca-platform`.

pub mod api;
pub mod auth;
pub mod dashboard;
pub mod export;
#[cfg(feature = "kubernetes")]
pub mod kubernetes;
pub mod sources;
pub mod uploads;
pub mod workers;

use std::path::{Component, Path, PathBuf};

use aca_platform::PlatformError;

/// `path` as a relative path of plain names (no `..`, no root, not empty), or `None`: what a file of
/// a run's folder may be called when a request names it.
pub fn plain_relative(path: &str) -> Option<PathBuf> {
    let path = Path::new(path);
    let plain = path.components().all(|c| matches!(c, Component::Normal(_)));
    (plain && path.components().next().is_some()).then(|| path.to_path_buf())
}

/// Runs a storage call on a blocking thread: the database drivers are synchronous.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, PlatformError> + Send + 'static,
) -> Result<T, PlatformError> {
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|e| Err(PlatformError::Database(format!("a storage call stopped: {e}"))))
}
