//! `transformers` on the CPU through the committed Python script, timed inside Python by the same protocol.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde::Deserialize;

use crate::protocol::{Measurement, Workload};

/// The script the benchmark runs, next to this crate's manifest.
pub const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/transformers_speed.py");

/// A measurement, or why there is none.
#[derive(Debug)]
pub enum Outcome {
    Measured { measurement: Measurement, versions: String },
    NotMeasured(String),
}

/// What the script prints on its last line.
#[derive(Debug, Deserialize)]
struct ScriptReport {
    prefill_seconds: f64,
    decode_seconds: f64,
    greedy: Vec<u32>,
    torch: String,
    transformers: String,
    threads: usize,
}

/// Runs the script with `python` (None: not configured) on the checkpoint; never fails, it explains.
pub fn measure(python: Option<&Path>, checkpoint: &Path, scratch: &Path, workload: &Workload) -> Outcome {
    let Some(python) = python else {
        return Outcome::NotMeasured(
            "ACA_BENCH_PYTHON is not set (an interpreter with torch, transformers and safetensors)".to_string(),
        );
    };
    match run(python, checkpoint, scratch, workload) {
        Ok(outcome) => outcome,
        Err(reason) => Outcome::NotMeasured(reason),
    }
}

fn run(python: &Path, checkpoint: &Path, scratch: &Path, workload: &Workload) -> Result<Outcome, String> {
    let prompt_path: PathBuf = scratch.join("prompt.json");
    let prompt_json = serde_json::to_string(&workload.prompt).map_err(|e| format!("cannot encode the prompt: {e}"))?;
    std::fs::write(&prompt_path, prompt_json).map_err(|e| format!("cannot write {}: {e}", prompt_path.display()))?;
    let output = Command::new(python)
        .arg(SCRIPT)
        .arg("--checkpoint")
        .arg(checkpoint)
        .arg("--prompt")
        .arg(&prompt_path)
        .arg("--decode")
        .arg(workload.decode_steps.to_string())
        .arg("--repeats")
        .arg(workload.repeats.to_string())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    let report: ScriptReport = script_report(python, &output)?;
    Ok(Outcome::Measured {
        measurement: Measurement {
            prefill: Duration::from_secs_f64(report.prefill_seconds),
            decode: Duration::from_secs_f64(report.decode_seconds),
            greedy: report.greedy,
            prompt_tokens: workload.prompt.len(),
            decode_steps: workload.decode_steps,
        },
        versions: format!(
            "transformers {} (torch {}, {} threads)",
            report.transformers, report.torch, report.threads
        ),
    })
}

/// The JSON report a benchmark script prints on its last such line, or why there is none (the
/// last line of its error output when it failed).
pub fn script_report<T: serde::de::DeserializeOwned>(python: &Path, output: &std::process::Output) -> Result<T, String> {
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr
            .lines()
            .rev()
            .find(|line| !line.trim().is_empty())
            .unwrap_or("no message");
        return Err(format!("{} exited with {}: {last}", python.display(), output.status));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout
        .lines()
        .rev()
        .find(|line| line.trim_start().starts_with('{'))
        .ok_or_else(|| "the script printed no JSON report".to_string())?;
    serde_json::from_str(line).map_err(|e| format!("the script's report is not understood: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_interpreter_is_explained_not_fatal() {
        let workload = Workload::new(8, 100, 2, 1);
        let scratch = tempfile::tempdir().unwrap();
        match measure(None, scratch.path(), scratch.path(), &workload) {
            Outcome::NotMeasured(reason) => assert!(reason.contains("ACA_BENCH_PYTHON")),
            other => panic!("expected not measured, got {other:?}"),
        }
        let absent = Path::new("/nonexistent/python3");
        match measure(Some(absent), scratch.path(), scratch.path(), &workload) {
            Outcome::NotMeasured(reason) => assert!(reason.contains("cannot run"), "{reason}"),
            other => panic!("expected not measured, got {other:?}"),
        }
    }
}
