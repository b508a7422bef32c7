//! Report files that a run in a Kubernetes pod sends back (its marked screenshots): the route that
//! takes them into a staging folder per attempt, the runner side that sends them, and the move into
//! the run's report folder once the server has written the report.
//!
//! A pod may upload only for its own attempt: its token ([`UploadTokens`]) is signed for that job
//! and attempt, and names no other. Paths stay inside the attempt's folder.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use aca_platform::UploadTokens;
use aca_service::{bearer_token, refuse};
use anyhow::Context as _;
use axum::body::Bytes;
use axum::extract::{Path as UrlPath, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};

use super::api::Platform;
use super::plain_relative;

/// The largest file a runner may send back.
pub const MAX_FILE_BYTES: usize = 32 << 20;

/// Where the files of `attempt` of `job_id` wait until the run is recorded.
pub fn staging(out: &Path, job_id: &str, attempt: i64) -> PathBuf {
    out.join(".uploads").join(job_id).join(attempt.to_string())
}

/// What the server needs to take files back.
pub struct Uploads {
    pub tokens: UploadTokens,
    /// The workers' `--out`: staging folders live under it.
    pub out: PathBuf,
}

fn plain_name(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// `PUT /v1/uploads/{job}/{attempt}/{*path}` with the attempt's token: one file of the run's report.
pub async fn receive(
    State(platform): State<Arc<Platform>>,
    UrlPath((job_id, attempt, path)): UrlPath<(String, i64, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let Some(uploads) = &platform.uploads else {
        return refuse(StatusCode::NOT_FOUND, "NoUploads", "this server takes no report files");
    };
    let allowed = bearer_token(&headers).is_some_and(|t| uploads.tokens.check(&job_id, attempt, t));
    if !plain_name(&job_id) || !allowed {
        return refuse(
            StatusCode::FORBIDDEN,
            "Forbidden.Upload",
            "the token does not let this upload files for that job and attempt",
        );
    }
    let Some(relative) = plain_relative(&path) else {
        return refuse(
            StatusCode::BAD_REQUEST,
            "InvalidPath",
            "a file's path is relative to the run's folder, with no '..'",
        );
    };
    let file = staging(&uploads.out, &job_id, attempt).join(&relative);
    let written = tokio::task::spawn_blocking(move || -> std::io::Result<()> {
        if let Some(folder) = file.parent() {
            std::fs::create_dir_all(folder)?;
        }
        let mut partial = file.clone().into_os_string();
        partial.push(".part");
        std::fs::write(&partial, &body)?;
        std::fs::rename(&partial, &file)
    })
    .await;
    match written {
        Ok(Ok(())) => (StatusCode::CREATED, axum::Json(serde_json::json!({ "path": path }))).into_response(),
        Ok(Err(e)) => refuse(StatusCode::INTERNAL_SERVER_ERROR, "UploadNotKept", e.to_string()),
        Err(e) => refuse(StatusCode::INTERNAL_SERVER_ERROR, "UploadNotKept", e.to_string()),
    }
}

/// Moves what was uploaded for an attempt into its report folder `dir`, keeping the files the
/// server wrote there itself; the staging folder is removed. How many files came.
pub fn collect(staged: &Path, dir: &Path) -> std::io::Result<usize> {
    if !staged.is_dir() {
        return Ok(0);
    }
    let mut moved = 0;
    for relative in files_under(staged)? {
        let target = dir.join(&relative);
        if target.exists() {
            continue;
        }
        if let Some(folder) = target.parent() {
            std::fs::create_dir_all(folder)?;
        }
        std::fs::rename(staged.join(&relative), &target)?;
        moved += 1;
    }
    std::fs::remove_dir_all(staged)?;
    Ok(moved)
}

/// Every file under `root`, as paths relative to it, in order.
fn files_under(root: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(root).sort_by_file_name() {
        let entry = entry.map_err(std::io::Error::other)?;
        if entry.file_type().is_file()
            && let Ok(relative) = entry.path().strip_prefix(root)
        {
            files.push(relative.to_path_buf());
        }
    }
    Ok(files)
}

/// Where a runner sends its files back, and with what token (`aca verify --upload-to`).
pub struct UploadTarget {
    /// `…/v1/uploads/{job}/{attempt}`.
    pub url: String,
    pub token: String,
}

/// Sends every file of a run's report folder; how many were sent.
pub async fn send(target: &UploadTarget, dir: &Path) -> anyhow::Result<usize> {
    let client = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(60))
        .build()?;
    let files = files_under(dir).with_context(|| format!("reading {}", dir.display()))?;
    for relative in &files {
        let body = tokio::fs::read(dir.join(relative))
            .await
            .with_context(|| format!("reading {}", relative.display()))?;
        let path: Vec<String> = relative
            .components()
            .map(|c| utf8_percent_encode(&c.as_os_str().to_string_lossy(), NON_ALPHANUMERIC).to_string())
            .collect();
        let url = format!("{}/{}", target.url.trim_end_matches('/'), path.join("/"));
        let response = client
            .put(&url)
            .bearer_auth(&target.token)
            .body(body)
            .send()
            .await
            .with_context(|| format!("sending {} to the server", relative.display()))?;
        if !response.status().is_success() {
            let status = response.status();
            let said = response.text().await.unwrap_or_default();
            anyhow::bail!("the server refused {}: {status} {said}", relative.display());
        }
    }
    Ok(files.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_relative_paths_are_taken() {
        assert_eq!(
            plain_relative("shots/turn-03.png"),
            Some(PathBuf::from("shots/turn-03.png"))
        );
        for bad in ["../results.db", "/etc/passwd", "shots/../../x", "", "./"] {
            assert_eq!(plain_relative(bad), None, "{bad}");
        }
        assert!(plain_name("0b9c2f1e-aaaa-bbbb"));
        assert!(!plain_name("../x") && !plain_name(""));
    }

    #[test]
    fn collected_files_join_the_report_folder_without_replacing_the_servers() {
        let root = tempfile::tempdir().unwrap();
        let staged = root.path().join("staged");
        let dir = root.path().join("run");
        std::fs::create_dir_all(staged.join("shots")).unwrap();
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(staged.join("shots/turn-01.png"), b"png").unwrap();
        std::fs::write(staged.join("report.json"), b"the pod's").unwrap();
        std::fs::write(dir.join("report.json"), b"the server's").unwrap();
        assert_eq!(collect(&staged, &dir).unwrap(), 1);
        assert_eq!(std::fs::read(dir.join("shots/turn-01.png")).unwrap(), b"png");
        assert_eq!(std::fs::read(dir.join("report.json")).unwrap(), b"the server's");
        assert!(!staged.exists());
        assert_eq!(collect(&staged, &dir).unwrap(), 0, "nothing staged, nothing moved");
    }
}
