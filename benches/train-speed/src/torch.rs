//! PyTorch's side: `train_speed.py` with the configured interpreter, on the same checkpoint and batch.

use std::path::Path;
use std::process::Command;

use serde::Deserialize;

use crate::{Measurement, Workload};

/// The script, next to this crate's manifest.
pub const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/train_speed.py");

/// What the script prints on its last line.
#[derive(Debug, Deserialize)]
struct ScriptReport {
    seconds_per_step: f64,
    first_loss: f64,
    last_loss: f64,
    peak_rss_bytes: u64,
    torch: String,
    transformers: String,
    threads: usize,
}

/// PyTorch's figures, or why there are none.
pub fn measure(
    python: Option<&Path>,
    checkpoint: &Path,
    scratch: &Path,
    workload: &Workload,
) -> Result<Measurement, String> {
    let python = python.ok_or("ACA_BENCH_PYTHON is not set (an interpreter with torch and transformers)")?;
    let input = scratch.join("train-workload.json");
    let json = serde_json::to_string(workload).map_err(|e| e.to_string())?;
    std::fs::write(&input, json).map_err(|e| format!("writing {}: {e}", input.display()))?;
    let output = Command::new(python)
        .arg(SCRIPT)
        .arg(checkpoint)
        .arg(&input)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr.lines().last().unwrap_or("no message");
        return Err(format!("{} failed: {last}", SCRIPT));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    let report: ScriptReport = serde_json::from_str(last).map_err(|e| format!("the script's report: {e}"))?;
    Ok(Measurement {
        seconds_per_step: report.seconds_per_step,
        first_loss: report.first_loss,
        last_loss: report.last_loss,
        peak_rss_bytes: Some(report.peak_rss_bytes),
        versions: format!(
            "torch {}, transformers {}, {} thread(s)",
            report.torch, report.transformers, report.threads
        ),
    })
}
