//! The vision encoder: one screenshot at the LLM policy's resolution through aca-model's Qwen3-VL
//! encoder and through `transformers`' on the same random checkpoint, which `vision_speed.py` makes
//! (so this part needs `ACA_BENCH_PYTHON`); the embeddings of both are compared before the times are.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde::Deserialize;

/// The script that makes the checkpoint and times `transformers`, next to this crate's manifest.
pub const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/vision_speed.py");

/// What is measured: the screenshot's size, the repeats, and where aca-model runs.
#[derive(Debug, Clone)]
pub struct VisionRun {
    pub width: u32,
    pub height: u32,
    pub repeats: usize,
    pub threads: usize,
    pub device: aca_model::Device,
    pub dtype: aca_model::WeightDtype,
}

/// Both encoders' best times on the same image, and how far their embeddings lie apart.
#[derive(Debug, Clone)]
pub struct VisionFigures {
    pub aca: Duration,
    pub transformers: Duration,
    pub transformers_name: String,
    pub grid: [usize; 3],
    pub merged_tokens: usize,
    pub shape: String,
    pub max_difference: f32,
}

/// What the script prints on its last line.
#[derive(Debug, Deserialize)]
struct ScriptReport {
    seconds: f64,
    grid: [usize; 3],
    patches: usize,
    merged_tokens: usize,
    threads: usize,
    attention: String,
    versions: Versions,
}

#[derive(Debug, Deserialize)]
struct Versions {
    torch: String,
    transformers: String,
}

/// Runs both encoders; never fails, it explains why there are no figures.
pub fn measure(python: Option<&Path>, scratch: &Path, run: &VisionRun) -> Result<VisionFigures, String> {
    let python = python.ok_or_else(|| {
        "ACA_BENCH_PYTHON is not set (an interpreter with torch, transformers, safetensors and pillow: it \
         makes the random Qwen3-VL checkpoint both encoders read)"
            .to_string()
    })?;
    let directory = scratch.join("vision");
    let report = run_script(python, &directory, run)?;
    let model = aca_model::Qwen3VlModel::load_as(&directory, &run.device, run.dtype)
        .map_err(|error| format!("aca-model cannot load the script's checkpoint: {error}"))?;
    let image = model
        .processor()
        .process_file(&directory.join("screenshot.png"))
        .map_err(|error| format!("aca-model cannot process the screenshot: {error}"))?;
    let grid = [image.grid.t, image.grid.h, image.grid.w];
    if grid != report.grid || image.grid.patches() != report.patches {
        return Err(format!(
            "the processors disagree: aca-model makes a {grid:?} patch grid, transformers {:?}",
            report.grid
        ));
    }
    let encode = || {
        model
            .encode_image(&image)
            .map_err(|error| format!("aca-model's encoder failed: {error}"))
    };
    let first = encode()?;
    let mut best = Duration::MAX;
    for _ in 0..run.repeats.max(1) {
        let started = Instant::now();
        encode()?;
        best = best.min(started.elapsed());
    }
    let reference = reference_embeds(&directory.join("reference_embeds.safetensors"))?;
    if reference.len() != first.len() {
        return Err(format!(
            "the encoders give {} and {} embedding values",
            first.len(),
            reference.len()
        ));
    }
    let max_difference = first
        .iter()
        .zip(&reference)
        .map(|(a, b)| (a - b).abs())
        .fold(0f32, f32::max);
    let vision = &model.config().vision;
    Ok(VisionFigures {
        aca: best,
        transformers: Duration::from_secs_f64(report.seconds),
        transformers_name: format!(
            "transformers {} (torch {}, {} attention, {} threads)",
            report.versions.transformers, report.versions.torch, report.attention, report.threads
        ),
        grid,
        merged_tokens: report.merged_tokens,
        shape: format!(
            "{} blocks, hidden {}, {} heads, intermediate {}, merged to {}, f32 random weights",
            vision.depth, vision.hidden_size, vision.num_heads, vision.intermediate_size, vision.out_hidden_size
        ),
        max_difference,
    })
}

fn run_script(python: &Path, directory: &Path, run: &VisionRun) -> Result<ScriptReport, String> {
    let output = Command::new(python)
        .arg(SCRIPT)
        .arg("--out")
        .arg(directory)
        .args(["--width", &run.width.to_string(), "--height", &run.height.to_string()])
        .args([
            "--repeats",
            &run.repeats.max(1).to_string(),
            "--threads",
            &run.threads.to_string(),
        ])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    crate::transformers_run::script_report(python, &output)
}

fn reference_embeds(path: &Path) -> Result<Vec<f32>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let tensors = safetensors::SafeTensors::deserialize(&bytes)
        .map_err(|e| format!("{} is not a safetensors file: {e}", path.display()))?;
    let embeds = tensors
        .tensor("embeds")
        .map_err(|e| format!("{} has no `embeds`: {e}", path.display()))?;
    if embeds.dtype() != safetensors::Dtype::F32 {
        return Err(format!("{}: `embeds` is {:?}, not f32", path.display(), embeds.dtype()));
    }
    Ok(embeds
        .data()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect())
}

/// The section's lines.
pub fn print(run: &VisionRun, figures: &Result<VisionFigures, String>) {
    println!(
        "vision encoder: one {}×{} screenshot (the LLM policy's default size), best of {} runs",
        run.width, run.height, run.repeats
    );
    match figures {
        Ok(f) => {
            println!(
                "  {}×{} → {}×{} patches, {} image tokens; encoder: {}",
                run.width,
                run.height,
                f.grid[1],
                f.grid[2],
                f.merged_tokens,
                f.shape
            );
            println!(
                "  {:<64} {:>8.3} s",
                format!("aca-model (burn flex, {:?})", run.dtype),
                f.aca.as_secs_f64()
            );
            println!("  {:<64} {:>8.3} s", f.transformers_name, f.transformers.as_secs_f64());
            println!(
                "  aca-model / transformers encoder speed: {:.2}x (embeddings agree within max |Δ| = {:.1e})",
                f.transformers.as_secs_f64() / f.aca.as_secs_f64(),
                f.max_difference
            );
        }
        Err(reason) => println!("  not measured: {reason}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_interpreter_is_explained_not_fatal() {
        let scratch = tempfile::tempdir().unwrap();
        let run = VisionRun {
            width: 64,
            height: 64,
            repeats: 1,
            threads: 1,
            device: aca_model::Device::flex(),
            dtype: aca_model::WeightDtype::F32,
        };
        let reason = measure(None, scratch.path(), &run).unwrap_err();
        assert!(reason.contains("ACA_BENCH_PYTHON"), "{reason}");
        let reason = measure(Some(Path::new("/nonexistent/python3")), scratch.path(), &run).unwrap_err();
        assert!(reason.contains("cannot run"), "{reason}");
    }
}
