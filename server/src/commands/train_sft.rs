//! `aca train sft`: supervised fine-tuning of a Qwen3 checkpoint (or a fresh random one) on a dataset
//! `aca train collect` wrote, with a progress line, held-out figures and checkpoints `aca serve` loads.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use aca_model::DeviceChoice;
use aca_model::random::RandomShape;
use aca_train::sft::{
    ChatSample, LoraOptions, SftConfig, SftProgress, SftTrainer, Start, read_jsonl, with_renumbered_copies,
};
use anyhow::{Context, anyhow, bail};
use clap::Args;

use super::serve::DeviceArg;

/// Fine-tune the private model on collected samples (loss on the replies only).
///
/// The weights come from a checkpoint directory (--model: any Qwen3 that `aca serve` loads), from a
/// fresh seeded random model of a given shape (--random, with --tokenizer naming a directory whose
/// tokenizer and chat template it uses), or from a checkpoint this command wrote (--resume: the run
/// goes on from its step, data position and optimizer state). AdamW with linear warm-up then cosine
/// decay, clipping by the global gradient norm, gradient accumulation, optional LoRA (merged into the
/// weights on save).
///
/// The data is a folder `aca train collect` wrote (its train.jsonl and validation.jsonl), or any
/// JSONL files in the OpenAI chat format given with --train and --validation. Every --eval-every
/// steps the held-out samples' loss and next-action accuracy (the greedy reply's action equals the
/// reference's) are printed. Checkpoints go to OUT/checkpoint-STEP (every --save-every steps and at
/// the end): config.json, model.safetensors and the tokenizer files, which `aca serve --model`
/// loads as they are, plus trainer_state.json and the optimizer's state to resume from.
///
/// Exit status: 0 when training finished, 2 on an error.
///
/// Examples:
///   aca train sft --data out/dataset --model models/qwen3-0.6b --out out/sft
///   aca train sft --data out/dataset --random --layers 4 --hidden 256 --tokenizer models/qwen3-0.6b --lr 1e-3
///   aca train sft --data out/dataset --resume out/sft/checkpoint-200 --out out/sft
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct SftArgs {
    /// A dataset folder written by `aca train collect` (train.jsonl, validation.jsonl).
    #[arg(long, value_name = "DIR", conflicts_with = "train")]
    data: Option<PathBuf>,
    /// Training samples: a JSONL file in the OpenAI chat format (instead of --data).
    #[arg(long, value_name = "FILE")]
    train: Option<PathBuf>,
    /// Held-out samples, in the same format (with --train).
    #[arg(long, value_name = "FILE", requires = "train")]
    validation: Option<PathBuf>,
    /// The checkpoint directory to start from.
    #[arg(long, value_name = "DIR", group = "start")]
    model: Option<PathBuf>,
    /// Start from seeded random weights of the shape below.
    #[arg(long, group = "start", requires = "tokenizer")]
    random: bool,
    /// Go on from a checkpoint this command wrote (OUT/checkpoint-STEP).
    #[arg(long, value_name = "DIR", group = "start")]
    resume: Option<PathBuf>,
    /// With --random: the directory whose tokenizer and chat template the model uses.
    #[arg(long, value_name = "DIR")]
    tokenizer: Option<PathBuf>,
    /// With --random: decoder layers.
    #[arg(long, default_value_t = 4)]
    layers: usize,
    /// With --random: hidden size.
    #[arg(long, default_value_t = 256)]
    hidden: usize,
    /// With --random: attention heads (the head size is hidden / heads).
    #[arg(long, default_value_t = 4)]
    heads: usize,
    /// With --random: key/value heads.
    #[arg(long, default_value_t = 2)]
    kv_heads: usize,
    /// With --random: the MLP's intermediate size (3 × hidden by default).
    #[arg(long)]
    intermediate: Option<usize>,
    /// Peak learning rate.
    #[arg(long, default_value_t = 2e-5)]
    lr: f64,
    /// The learning rate the cosine decay ends at.
    #[arg(long, default_value_t = 0.0)]
    min_lr: f64,
    /// Optimizer steps of linear warm-up.
    #[arg(long, default_value_t = 10)]
    warmup: usize,
    #[arg(long, default_value_t = 0.0)]
    weight_decay: f32,
    /// Limit on the global gradient norm (0: measure without clipping).
    #[arg(long, default_value_t = 1.0)]
    max_grad_norm: f32,
    /// Samples per forward pass.
    #[arg(long, default_value_t = 1)]
    micro_batch: usize,
    /// Micro-batches per optimizer step.
    #[arg(long, default_value_t = 8)]
    accumulation: usize,
    /// Passes over the training samples (unless --max-steps).
    #[arg(long, default_value_t = 1)]
    epochs: usize,
    /// Optimizer steps in all, in place of --epochs; 0 writes the starting weights as
    /// OUT/checkpoint-0 (the baseline a run of training is scored against).
    #[arg(long)]
    max_steps: Option<usize>,
    /// Tokens per sample; longer samples are cut and counted.
    #[arg(long, default_value_t = 4096)]
    max_length: usize,
    /// Train LoRA adapters of this rank on the projections instead of every weight.
    #[arg(long)]
    lora_rank: Option<usize>,
    /// LoRA scale numerator (the adapters are scaled by alpha / rank).
    #[arg(long, default_value_t = 16.0, requires = "lora_rank")]
    lora_alpha: f64,
    /// Seeds the sample order, the random weights and LoRA's initialisation.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Held-out loss and next-action accuracy every N steps and at the end (0: never).
    #[arg(long, default_value_t = 100)]
    eval_every: usize,
    /// At most this many held-out samples per evaluation.
    #[arg(long, default_value_t = 64)]
    eval_samples: usize,
    /// Reply length limit of the evaluation's greedy decoding, in tokens.
    #[arg(long, default_value_t = 256)]
    max_new_tokens: usize,
    /// Save a checkpoint every N steps (and at the end; 0: only at the end).
    #[arg(long, default_value_t = 0)]
    save_every: usize,
    /// Add N copies of every training sample with the page's element indices renumbered (one
    /// seeded bijection per copy, applied to the page, the history's actions and the reply's
    /// action), so that the model learns to read an index off the page rather than remember it.
    #[arg(long, default_value_t = 0, value_name = "N")]
    renumbered_copies: usize,
    /// Keep only the N newest checkpoints, deleting older ones as new ones are saved (0: keep all).
    #[arg(long, default_value_t = 0, value_name = "N")]
    keep_checkpoints: usize,
    #[arg(long, value_enum, default_value_t = DeviceArg::Cpu)]
    device: DeviceArg,
    /// Where checkpoint-STEP folders are written.
    #[arg(long, default_value = "out/sft")]
    out: PathBuf,
}

pub async fn run(args: SftArgs) -> anyhow::Result<ExitCode> {
    let (mut train, validation) = samples(&args)?;
    if args.renumbered_copies > 0 {
        let read = train.len();
        train = with_renumbered_copies(&train, args.renumbered_copies, args.seed);
        eprintln!(
            "train sft: {} renumbered copies added to the {read} samples read",
            train.len() - read
        );
    }
    let start = start(&args)?;
    let config = config(&args);
    let device = DeviceChoice::from(args.device).open().map_err(|e| anyhow!(e))?;
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    eprintln!(
        "train sft: {} training and {} held-out samples, {} optimizer steps of {} samples, on {}",
        train.len(),
        validation.len(),
        config.total_steps(train.len()),
        config.samples_per_step(),
        DeviceChoice::from(args.device).name()
    );
    let summary = tokio::task::spawn_blocking(move || {
        let mut trainer = SftTrainer::new(config, start, &device)?;
        let mut line = ProgressLine::new();
        let summary = trainer.train(&train, &validation, &mut |p| line.show(p));
        line.finish();
        summary
    })
    .await
    .context("the training thread stopped")??;
    if let (Some(first), Some(last)) = (summary.first_loss, summary.last_loss) {
        println!("loss: {first:.4} at the first step, {last:.4} at the last");
    }
    println!(
        "steps: {}; {} tokens in {:.0} s ({:.0} tokens/s); {} sample(s) cut at --max-length",
        summary.steps,
        summary.tokens,
        summary.elapsed.as_secs_f64(),
        summary.tokens as f64 / summary.elapsed.as_secs_f64().max(1e-9),
        summary.truncated_samples
    );
    if let Some(v) = &summary.validation {
        println!("held out: {}", v.describe());
    }
    if let Some(checkpoint) = &summary.checkpoint {
        println!("checkpoint: {} (aca serve --model loads it)", checkpoint.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn samples(args: &SftArgs) -> anyhow::Result<(Vec<ChatSample>, Vec<ChatSample>)> {
    let (train, validation) = match (&args.data, &args.train) {
        (Some(dir), None) => (dir.join("train.jsonl"), Some(dir.join("validation.jsonl"))),
        (None, Some(train)) => (train.clone(), args.validation.clone()),
        _ => bail!("give the samples: --data DIR (a folder aca train collect wrote) or --train FILE"),
    };
    let read = |path: &Path| read_jsonl(path).map_err(|e| anyhow!(e));
    let train = read(&train)?;
    let validation = match validation {
        // A collected folder may hold out nothing (one page): an empty file is no held-out set.
        Some(path) if std::fs::metadata(&path).is_ok_and(|m| m.len() > 0) => read(&path)?,
        Some(path) if args.validation.is_some() => read(&path)?,
        _ => Vec::new(),
    };
    Ok((train, validation))
}

fn start(args: &SftArgs) -> anyhow::Result<Start> {
    if let Some(dir) = &args.resume {
        return Ok(Start::Resume(dir.clone()));
    }
    if let Some(dir) = &args.model {
        return Ok(Start::Checkpoint(dir.clone()));
    }
    if !args.random {
        bail!("say where the weights come from: --model DIR, --random (with --tokenizer DIR) or --resume DIR");
    }
    if args.heads == 0 || args.kv_heads == 0 || !args.hidden.is_multiple_of(args.heads) || !args.heads.is_multiple_of(args.kv_heads) {
        bail!(
            "--hidden {} / --heads {} / --kv-heads {}: the heads must divide the hidden size and the key/value heads the heads",
            args.hidden,
            args.heads,
            args.kv_heads
        );
    }
    let tokenizer_dir = args
        .tokenizer
        .clone()
        .ok_or_else(|| anyhow!("--random needs --tokenizer DIR"))?;
    Ok(Start::Random {
        shape: RandomShape {
            hidden_size: args.hidden,
            intermediate_size: args.intermediate.unwrap_or(3 * args.hidden),
            num_hidden_layers: args.layers,
            num_attention_heads: args.heads,
            num_key_value_heads: args.kv_heads,
            head_dim: args.hidden / args.heads,
            ..RandomShape::bench()
        },
        seed: args.seed,
        tokenizer_dir,
    })
}

fn config(args: &SftArgs) -> SftConfig {
    SftConfig {
        learning_rate: args.lr,
        min_learning_rate: args.min_lr,
        warmup_steps: args.warmup,
        weight_decay: args.weight_decay,
        max_grad_norm: (args.max_grad_norm > 0.0).then_some(args.max_grad_norm),
        micro_batch_size: args.micro_batch,
        gradient_accumulation: args.accumulation,
        epochs: args.epochs,
        max_steps: args.max_steps,
        max_length: args.max_length,
        lora: args.lora_rank.map(|rank| LoraOptions {
            rank,
            alpha: args.lora_alpha,
        }),
        seed: args.seed,
        eval_every: args.eval_every,
        eval_samples: args.eval_samples,
        max_new_tokens: args.max_new_tokens,
        save_every: args.save_every,
        keep_checkpoints: args.keep_checkpoints,
        output_dir: Some(args.out.clone()),
        ..SftConfig::default()
    }
}

/// The progress of a run on stderr: one line redrawn in place on a terminal, one line per step otherwise.
struct ProgressLine {
    terminal: bool,
    drawn: bool,
}

impl ProgressLine {
    fn new() -> Self {
        ProgressLine {
            terminal: std::io::stderr().is_terminal(),
            drawn: false,
        }
    }

    fn show(&mut self, p: &SftProgress) {
        const WIDTH: usize = 24;
        let filled = (p.step * WIDTH).checked_div(p.total_steps).unwrap_or(WIDTH).min(WIDTH);
        let line = format!(
            "[{}{}] {}/{} loss {:.4} lr {:.2e} grad-norm {:.3} {:.0} tokens/s ETA {}",
            "#".repeat(filled),
            " ".repeat(WIDTH - filled),
            p.step,
            p.total_steps,
            p.loss,
            p.learning_rate,
            p.grad_norm,
            p.tokens_per_second,
            eta(p.eta)
        );
        if self.terminal {
            eprint!("\r\x1b[2K{line}");
            self.drawn = true;
        } else {
            eprintln!("{line}");
        }
        let mut notes = Vec::new();
        if let Some(v) = &p.validation {
            notes.push(format!("held out at step {}: {}", p.step, v.describe()));
        }
        if let Some(dir) = &p.checkpoint {
            notes.push(format!("checkpoint {}", dir.display()));
        }
        for note in notes {
            self.finish();
            eprintln!("{note}");
        }
    }

    fn finish(&mut self) {
        if self.drawn {
            eprintln!();
            self.drawn = false;
        }
    }
}

fn eta(remaining: Duration) -> String {
    let seconds = remaining.as_secs();
    match seconds {
        0..60 => format!("{seconds}s"),
        60..3600 => format!("{}m{:02}s", seconds / 60, seconds % 60),
        _ => format!("{}h{:02}m", seconds / 3600, seconds % 3600 / 60),
    }
}
