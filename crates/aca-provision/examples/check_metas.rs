//! Validates every META under a directory: for each `*.task.toml` with a `[meta]`, applies it in a
//! fresh account of an in-process emulator, verifies its key attributes, destroys it and checks
//! that the account is empty again. Prints one line per task and exits non-zero on any failure.
//!
//! `cargo run -p aca-provision --example check_metas -- tests/corpus`

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use aca_console::ConsoleConfig;
use aca_provision::emulator::local::{LocalEmulator, access_key};
use aca_provision::{Applier, EmulatorApplier, Suffix, task};

fn task_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            task_files(&path, out);
        } else if path.to_string_lossy().ends_with(".task.toml") {
            out.push(path);
        }
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: check_metas DIR");
        return ExitCode::from(2);
    };
    let mut files = Vec::new();
    task_files(Path::new(&dir), &mut files);
    let emulator = match LocalEmulator::start(ConsoleConfig::for_tests()).await {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut failed = 0;
    for file in &files {
        let label = file.strip_prefix(&dir).unwrap_or(file).display().to_string();
        let meta = match task::page_meta(file, Suffix::random()) {
            Ok(Some((_, meta))) => meta,
            Ok(None) => {
                println!("skip  {label} (no META)");
                continue;
            }
            Err(e) => {
                failed += 1;
                println!("FAIL  {label}: {e}");
                continue;
            }
        };
        let result = async {
            let account = emulator.account("check")?;
            let applier = EmulatorApplier::new(&emulator.url, access_key(&account))?;
            let mut state = applier.apply(&meta).await?;
            let verified = applier.verify(&meta, &state).await;
            let destroyed = applier.destroy(&mut state).await;
            verified?;
            destroyed.into_result()?;
            let left = emulator
                .console
                .snapshot_account(&account.account_id)
                // A KMS key waits out its deletion window, as on the real cloud.
                .map(|s| s.resources.iter().filter(|r| r.status != "PendingDeletion").count())
                .unwrap_or(usize::MAX);
            Ok::<_, aca_provision::ProvisionError>(left)
        }
        .await;
        match result {
            Ok(0) => println!("ok    {label}"),
            Ok(left) => {
                failed += 1;
                println!("FAIL  {label}: {left} resources left after destroy");
            }
            Err(e) => {
                failed += 1;
                println!("FAIL  {label}: {e}");
            }
        }
    }
    println!("{} task files, {failed} failed", files.len());
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
