//! Serves the built dashboard (`www/`, assembled by `scripts/build-www`) at `/`, beside the API it
//! reads.

use std::path::{Path, PathBuf};

use axum::Router;
use tower_http::services::ServeDir;

/// The page the dashboard is mounted from.
const INDEX: &str = "index.html";

/// Where the built dashboard is: ACA_WWW_DIR, then the build folder.
pub fn default_dir() -> PathBuf {
    let mut candidates = Vec::new();
    if let Some(dir) = std::env::var_os("ACA_WWW_DIR") {
        candidates.push(PathBuf::from(dir));
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        candidates.push(PathBuf::from(target).join("web").join("www"));
    }
    if let Some(home) = std::env::var_os("HOME") {
        candidates.push(PathBuf::from(home).join(".cache/aliyun-console-agent/target/web/www"));
    }
    candidates
        .iter()
        .find(|dir| dir.join(INDEX).is_file())
        .or(candidates.first())
        .cloned()
        .unwrap_or_else(|| PathBuf::from("target/web/www"))
}

/// The dashboard's files under `/`, or `None` (with why) when `dir` holds no built dashboard.
pub fn routes(dir: &Path) -> Result<Router, String> {
    if !dir.join(INDEX).is_file() || !dir.join("pkg/aca_www_bg.wasm").is_file() {
        return Err(format!(
            "no dashboard is built in {} (scripts/build-www builds it)",
            dir.display()
        ));
    }
    Ok(Router::new().fallback_service(ServeDir::new(dir).append_index_html_on_directories(true)))
}
