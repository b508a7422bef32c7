//! Training speed benchmark: one SFT step (forward, backward over the reply tokens, AdamW) of
//! aca-train against the same step of PyTorch/transformers, on one random Qwen3 checkpoint and one
//! batch of token ids, side by side in one run, with each one's peak resident memory.
//!
//! ```text
//! ACA_BENCH_PYTHON=/path/to/venv/bin/python cargo run --release -p aca-bench-train
//! cargo run --release -p aca-bench-train -- --help
//! ```
//!
//! Both sides read the same checkpoint (written to a temporary directory) and the same batch: seeded
//! random prompt ids with the last `--reply-tokens` of each sequence as the learned reply, as in a
//! collected sample. Each side runs `--warmup` untimed steps, then `--steps` timed ones; tokens/s
//! counts every token through the model (prompt and reply) per second of forward, backward and
//! optimizer step. aca-train runs in this process and PyTorch in `train_speed.py` with the
//! interpreter `ACA_BENCH_PYTHON` names (torch and transformers installed), limited to the same
//! number of threads; without it that row says why it was not measured. Peak memory is each process's
//! peak resident set (this process's includes the benchmark itself, which is small).

mod aca;
mod torch;

use std::path::PathBuf;

use aca_model::random::{RandomShape, write_random_checkpoint};
use anyhow::{Context, Result};
use clap::{Parser, ValueEnum};
use rand::{Rng, SeedableRng};
use serde::Serialize;

/// Training tokens/s and peak memory of aca-train against PyTorch on one model and batch.
#[derive(Debug, Parser)]
#[command(name = "aca-bench-train", version, long_about = None)]
struct Arguments {
    /// Decoder layers of the random checkpoint.
    #[arg(long, default_value_t = 4)]
    layers: usize,
    /// Hidden size (the heads are 64 wide).
    #[arg(long, default_value_t = 256)]
    hidden: usize,
    /// Vocabulary (151936 is Qwen3's own; the output layer then weighs most).
    #[arg(long, default_value_t = 151_936)]
    vocab: usize,
    /// Sequences per step.
    #[arg(long, default_value_t = 2)]
    batch: usize,
    /// Tokens per sequence (prompt and reply).
    #[arg(long, default_value_t = 512)]
    sequence_tokens: usize,
    /// The learned reply tokens at the end of each sequence.
    #[arg(long, default_value_t = 64)]
    reply_tokens: usize,
    /// Untimed steps first.
    #[arg(long, default_value_t = 1)]
    warmup: usize,
    /// Timed steps.
    #[arg(long, default_value_t = 3)]
    steps: usize,
    /// Where aca-train runs (PyTorch always runs on the CPU).
    #[arg(long, value_enum, default_value_t = Device::Cpu)]
    device: Device,
    /// Python interpreter with torch and transformers for the PyTorch row.
    #[arg(long, env = "ACA_BENCH_PYTHON")]
    python: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Device {
    Cpu,
    Wgpu,
    Cuda,
}

/// What both sides train on.
#[derive(Debug, Clone, Serialize)]
pub struct Workload {
    pub sequences: Vec<Vec<u32>>,
    /// Index of the first learned id of every sequence.
    pub reply_start: usize,
    pub warmup: usize,
    pub steps: usize,
    pub learning_rate: f64,
    pub threads: usize,
}

impl Workload {
    fn tokens_per_step(&self) -> usize {
        self.sequences.iter().map(Vec::len).sum()
    }
}

/// One side's figures.
#[derive(Debug, Clone)]
pub struct Measurement {
    pub seconds_per_step: f64,
    pub first_loss: f64,
    pub last_loss: f64,
    pub peak_rss_bytes: Option<u64>,
    pub versions: String,
}

fn main() -> Result<()> {
    let args = Arguments::parse();
    anyhow::ensure!(
        args.reply_tokens >= 1 && args.reply_tokens < args.sequence_tokens && args.steps >= 1,
        "--reply-tokens must be at least 1 and below --sequence-tokens, --steps at least 1"
    );
    anyhow::ensure!(
        args.hidden % 64 == 0,
        "--hidden must be a multiple of 64 (the head size)"
    );
    let heads = args.hidden / 64;
    let shape = RandomShape {
        vocab_size: args.vocab,
        hidden_size: args.hidden,
        intermediate_size: 3 * args.hidden,
        num_hidden_layers: args.layers,
        num_attention_heads: heads,
        num_key_value_heads: (heads / 2).max(1),
        head_dim: 64,
        max_position_embeddings: args.sequence_tokens.max(4096),
        ..RandomShape::bench()
    };
    let scratch = tempfile::tempdir()?;
    let checkpoint = scratch.path().join("checkpoint");
    write_random_checkpoint(&checkpoint, &shape, 7).context("writing the random checkpoint")?;
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workload = Workload {
        sequences: (0..args.batch)
            .map(|_| {
                (0..args.sequence_tokens)
                    .map(|_| rng.random_range(0..args.vocab.min(150_000) as u32))
                    .collect()
            })
            .collect(),
        reply_start: args.sequence_tokens - args.reply_tokens,
        warmup: args.warmup,
        steps: args.steps,
        learning_rate: 1e-4,
        threads,
    };
    println!(
        "model: {} layers, hidden {}, {} heads of 64, vocabulary {}; batch {} × {} tokens ({} learned each); {} timed step(s) after {} warm-up; {} CPU thread(s)",
        args.layers,
        args.hidden,
        heads,
        args.vocab,
        args.batch,
        args.sequence_tokens,
        args.reply_tokens,
        args.steps,
        args.warmup,
        threads
    );
    // PyTorch first, in its own process: its peak memory is its own, and ours is not inflated by it.
    let torch = torch::measure(args.python.as_deref(), &checkpoint, scratch.path(), &workload);
    let ours = aca::measure(&checkpoint, &workload, args.device)?;
    let tokens = workload.tokens_per_step() as f64;
    println!();
    println!("| implementation | tokens/s (forward + backward + AdamW) | s/step | loss first → last | peak RSS |");
    println!("|---|---|---|---|---|");
    let row = |name: &str, m: &Measurement| {
        println!(
            "| {name} ({}) | {:.0} | {:.3} | {:.4} → {:.4} | {} |",
            m.versions,
            tokens / m.seconds_per_step,
            m.seconds_per_step,
            m.first_loss,
            m.last_loss,
            m.peak_rss_bytes.map_or("-".to_owned(), mib)
        );
    };
    row("aca-train", &ours);
    match &torch {
        Ok(m) => {
            row("PyTorch", m);
            println!();
            println!(
                "aca-train / PyTorch: {:.2}× the tokens/s; peak memory {}",
                m.seconds_per_step / ours.seconds_per_step,
                match (ours.peak_rss_bytes, m.peak_rss_bytes) {
                    (Some(a), Some(b)) => format!("{:.2}×", a as f64 / b as f64),
                    _ => "not compared".to_owned(),
                }
            );
        }
        Err(why) => println!("| PyTorch | not measured: {why} | | | |"),
    }
    Ok(())
}

fn mib(bytes: u64) -> String {
    format!("{:.0} MiB", bytes as f64 / (1024.0 * 1024.0))
}

/// This process's peak resident set, from `/proc/self/status` (Linux).
pub fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
