//! Launching and closing Chromium: a clear error for a missing binary or page side, and no process
//! left behind after `close`, a drop, or a panic in the task that owned the runner.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use aca_runner::{Runner, RunnerConfig, RunnerError, process};

async fn all_gone(pids: &[u32]) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if pids.iter().all(|pid| !process::is_running(*pid)) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

async fn launched() -> (Runner, Vec<u32>, PathBuf) {
    let runner = Runner::launch(RunnerConfig::default())
        .await
        .expect("Chromium launches with the aca-dom page side (apt-get install chromium; scripts/build-wasm)");
    let pids = runner.process_ids();
    assert!(pids.len() > 1, "a browser process and its helpers: {pids:?}");
    let profile = runner.profile_dir().expect("a profile folder").to_owned();
    assert!(profile.is_dir());
    (runner, pids, profile)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_ends_every_chromium_process_and_removes_the_profile() {
    let (runner, pids, profile) = launched().await;
    runner.close().await;
    assert!(all_gone(&pids).await, "processes left after close: {pids:?}");
    assert!(!profile.exists(), "{} was not removed", profile.display());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_the_runner_kills_chromium() {
    let (runner, pids, profile) = launched().await;
    drop(runner);
    assert!(all_gone(&pids).await, "processes left after drop: {pids:?}");
    assert!(!profile.exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_task_leaves_no_chromium_behind() {
    let (tx, rx) = tokio::sync::oneshot::channel();
    let task = tokio::spawn(async move {
        let (runner, pids, _) = launched().await;
        let _ = tx.send(pids);
        let _keep = runner;
        panic!("the task fails while the browser is open");
    });
    assert!(task.await.unwrap_err().is_panic());
    let pids = rx.await.unwrap();
    assert!(all_gone(&pids).await, "processes left after a panic: {pids:?}");
}

#[tokio::test]
async fn a_missing_chromium_binary_is_named_with_the_install_command() {
    let config = RunnerConfig {
        chromium: PathBuf::from("/nonexistent/chromium"),
        ..RunnerConfig::default()
    };
    let error = Runner::launch(config).await.unwrap_err();
    assert!(matches!(error, RunnerError::ChromiumMissing { .. }), "{error:?}");
    let message = error.to_string();
    assert!(message.contains("/nonexistent/chromium") && message.contains("apt-get install chromium"));
}

#[tokio::test]
async fn a_missing_page_side_says_to_build_it() {
    let empty = tempfile::tempdir().unwrap();
    let config = RunnerConfig {
        page_side: empty.path().to_owned(),
        ..RunnerConfig::default()
    };
    let error = Runner::launch(config).await.unwrap_err();
    assert!(
        matches!(error, RunnerError::PageSideMissing { ref path } if path == empty.path()),
        "{error:?}"
    );
    assert!(error.to_string().contains("scripts/build-wasm"));
}
