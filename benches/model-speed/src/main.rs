//! Model speed benchmark: aca-model against candle and `transformers` on one random Qwen3 checkpoint, then
//! the continuous-batching engine at 1, 4 and 16 concurrent requests, printed as one table.
//!
//! ```text
//! ACA_BENCH_PYTHON=/path/to/venv/bin/python cargo run --release -p aca-bench-model --features candle
//! cargo run --release -p aca-bench-model -- --help
//! ```
//!
//! The checkpoint (8 layers, hidden 512, 8 query / 2 key-value heads of 64, vocabulary 8192, f32) is
//! written to a temporary directory. Each implementation prefills the same prompt and decodes the same
//! number of greedy tokens from an empty cache; the best of `--repeats` runs counts, and the greedy tokens
//! are compared with aca-model's first, so the figures compare like with like. aca-model's and candle's
//! runs take turns, so a change in the machine's load (a shared host) cannot favour either. `transformers` runs through
//! `transformers_speed.py` with the interpreter named by `ACA_BENCH_PYTHON` (torch, transformers and
//! safetensors installed); without it that row says why it was not measured. The candle row needs the
//! `candle` feature (off by default, so the workspace's tests never build candle). Built with the `wgpu` or
//! `cuda` feature, `--device` puts aca-model on a GPU and `--bandwidth-gbps` turns its batch-1 decode
//! time into a fraction of the memory-bandwidth bound; on the CPU that bound comes from the host memory's
//! read bandwidth, measured in the same run. `--dtype` holds aca-model's weights in bf16 or f16, and
//! `--quantize int8` its layers' projections in int8.
//! Last, the vision encoder: one screenshot at the LLM policy's size through aca-model's Qwen3-VL encoder
//! and `transformers`' on one random checkpoint that `vision_speed.py` makes (`--vision-only`, `--skip-vision`).

mod aca;
mod bandwidth;
#[cfg(feature = "candle")]
mod candle_qwen3;
mod engine_load;
mod protocol;
mod report;
mod transformers_run;
mod vision;

use std::path::PathBuf;

use aca_model::random::{RandomDtype, RandomShape, write_random_checkpoint_as};
use anyhow::{Context, Result, bail};
use clap::{Parser, ValueEnum};

use crate::engine_load::LoadShape;
use crate::protocol::Workload;
use crate::report::Row;

/// Prefill and decode tokens/s of aca-model vs candle vs transformers, and engine throughput under load.
#[derive(Debug, Parser)]
#[command(name = "aca-bench-model", version, long_about = None)]
struct Arguments {
    /// Benchmark this checkpoint directory (config.json + model.safetensors) instead of a random one.
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// The random checkpoint's shape: `bench` (8 layers, hidden 512, 8/2 heads of 64, in f32, with
    /// `--vocab`'s vocabulary) or `qwen3-8b` (Qwen3-8B's dimensions and vocabulary, written in bf16 as
    /// its release is: 16 GB on disk and in memory, for a GPU machine).
    #[arg(long, value_enum, default_value_t = Shape::Bench)]
    shape: Shape,
    /// Vocabulary of the `bench` checkpoint (151936 is Qwen3's own: the output head then dominates decode).
    #[arg(long, default_value_t = 8192)]
    vocab: usize,
    /// Prompt length for the prefill figures.
    #[arg(long, default_value_t = 256)]
    prompt_tokens: usize,
    /// Greedy tokens decoded one at a time for the decode figures.
    #[arg(long, default_value_t = 128)]
    decode_tokens: usize,
    /// Timed runs per implementation; the best prefill and the best decode count.
    #[arg(long, default_value_t = 3)]
    repeats: usize,
    /// Concurrent requests for the engine's load levels.
    #[arg(long, value_delimiter = ',', default_values_t = [1, 4, 16])]
    concurrency: Vec<usize>,
    /// Prompt length of each engine request.
    #[arg(long, default_value_t = 64)]
    engine_prompt_tokens: usize,
    /// Tokens each engine request generates.
    #[arg(long, default_value_t = 64)]
    engine_tokens: usize,
    /// The dtype aca-model holds the weights in (f32, bf16, f16; auto: the checkpoint's own, f32 for
    /// the random one). candle and transformers compute in f32.
    #[arg(long, default_value = "f32")]
    dtype: aca_model::WeightDtype,
    /// Hold aca-model's layer projections quantised (none, int8), computing in --dtype.
    #[arg(long, default_value = "none")]
    quantize: aca_model::Quantization,
    /// Where aca-model runs (candle and transformers always run on the CPU).
    #[arg(long, value_enum, default_value_t = DeviceChoice::Cpu)]
    device: DeviceChoice,
    /// The GPU's memory bandwidth in GB/s, for the batch-1 decode's fraction of the bandwidth bound (GPU runs
    /// only: on the CPU the benchmark measures it).
    #[arg(long)]
    bandwidth_gbps: Option<f64>,
    /// Python interpreter with torch, transformers and safetensors for the transformers row.
    #[arg(long, env = "ACA_BENCH_PYTHON")]
    python: Option<PathBuf>,
    /// tokenizer.json(.gz) the engine detokenises with (default: the Qwen3 tokenizer aca-model's tests ship).
    #[arg(long, default_value = engine_load::DEFAULT_TOKENIZER)]
    tokenizer: PathBuf,
    /// The screenshot the vision encoder is timed on, WIDTHxHEIGHT (the LLM policy's default size).
    #[arg(long, default_value = "1280x720", value_parser = screenshot_size)]
    screenshot: (u32, u32),
    /// Leave out the vision encoder's section (it needs ACA_BENCH_PYTHON to make its checkpoint).
    #[arg(long, conflicts_with = "vision_only")]
    skip_vision: bool,
    /// Only the vision encoder's section.
    #[arg(long)]
    vision_only: bool,
}

fn screenshot_size(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("`{text}` is not WIDTHxHEIGHT (e.g. 1280x720)");
    let (width, height) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let size = (
        width.trim().parse().map_err(|_| bad())?,
        height.trim().parse().map_err(|_| bad())?,
    );
    if size.0 < 32 || size.1 < 32 {
        return Err(format!("a {text} screenshot is smaller than one 32-pixel cell"));
    }
    Ok(size)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Shape {
    Bench,
    #[value(name = "qwen3-8b")]
    Qwen3_8b,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum DeviceChoice {
    /// burn's flex CPU backend.
    Cpu,
    /// burn's wgpu backend (build with `--features wgpu`).
    Wgpu,
    /// burn's CUDA backend (build with `--features cuda`).
    Cuda,
}

fn device(choice: DeviceChoice) -> Result<aca_model::Device> {
    match choice {
        DeviceChoice::Cpu => Ok(aca_model::Device::flex()),
        #[cfg(feature = "wgpu")]
        DeviceChoice::Wgpu => Ok(aca_model::Device::wgpu(Default::default())),
        #[cfg(feature = "cuda")]
        DeviceChoice::Cuda => Ok(aca_model::Device::cuda(0)),
        #[allow(unreachable_patterns)]
        other => bail!(
            "this build has no {other:?} backend: rebuild with `--features {}`",
            format!("{other:?}").to_lowercase()
        ),
    }
}

/// aca-model and candle, their runs interleaved: candle's figures, or why there are none.
fn measure_in_process(
    model: &aca_model::Qwen3Model,
    checkpoint: &std::path::Path,
    config: &aca_model::Qwen3Config,
    workload: &Workload,
) -> Result<(protocol::Measurement, Result<protocol::Measurement, String>)> {
    #[cfg_attr(not(feature = "candle"), allow(unused_mut))]
    let mut contenders = vec![aca::contender(model)];
    #[cfg(feature = "candle")]
    let candle_loaded =
        candle_qwen3::load(checkpoint, config).map(|candle| contenders.push(candle_qwen3::contender(candle)));
    #[cfg(not(feature = "candle"))]
    let candle_loaded: Result<()> = {
        let _ = (checkpoint, config);
        Err(anyhow::anyhow!(
            "built without the `candle` feature (cargo run --release -p aca-bench-model --features candle)"
        ))
    };
    let mut measured = protocol::Measurement::interleaved(workload, contenders).into_iter();
    let aca = measured.next().context("aca-model was not measured")??;
    let candle = candle_loaded
        .and_then(|()| measured.next().context("candle was not measured")?)
        .map_err(|error| format!("{error:#}"));
    Ok((aca, candle))
}

fn main() -> Result<()> {
    let arguments = Arguments::parse();
    if arguments.prompt_tokens == 0 || arguments.engine_prompt_tokens == 0 || arguments.engine_tokens == 0 {
        bail!("--prompt-tokens, --engine-prompt-tokens and --engine-tokens must be at least 1");
    }
    if arguments.device == DeviceChoice::Cpu && arguments.bandwidth_gbps.is_some() {
        bail!("--bandwidth-gbps is for GPU runs: on the CPU the benchmark measures the host memory's read bandwidth");
    }
    let aca_device = device(arguments.device)?;
    let scratch = tempfile::tempdir()?;
    let vision_run = vision::VisionRun {
        width: arguments.screenshot.0,
        height: arguments.screenshot.1,
        repeats: arguments.repeats,
        threads: std::thread::available_parallelism().map_or(1, usize::from),
        device: aca_device.clone(),
        dtype: arguments.dtype,
    };
    if arguments.vision_only {
        vision::print(
            &vision_run,
            &vision::measure(arguments.python.as_deref(), scratch.path(), &vision_run),
        );
        return Ok(());
    }
    let checkpoint = match &arguments.checkpoint {
        Some(directory) => directory.clone(),
        None => {
            let directory = scratch.path().join("checkpoint");
            let (shape, dtype) = match arguments.shape {
                Shape::Bench => {
                    let shape = RandomShape {
                        vocab_size: arguments.vocab,
                        num_key_value_heads: 2,
                        ..RandomShape::bench()
                    };
                    (shape, RandomDtype::F32)
                }
                Shape::Qwen3_8b => (RandomShape::qwen3_8b(), RandomDtype::Bf16),
            };
            eprintln!("writing a random {:?} checkpoint ({dtype:?}) to {}", arguments.shape, directory.display());
            write_random_checkpoint_as(&directory, &shape, 1, dtype)?;
            directory
        }
    };

    let precision = aca_model::Precision::new(arguments.dtype, arguments.quantize);
    let model = aca::load(&checkpoint, &aca_device, precision)?;
    let config = model.config().clone();
    let held = model.dtype();
    let on_cpu = arguments.device == DeviceChoice::Cpu;
    let bytes_per_token = bandwidth::weight_bytes_per_token(&config, held, arguments.quantize, on_cpu);
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    println!(
        "checkpoint: {} layers, hidden {}, {} heads / {} kv heads of {}, intermediate {}, vocab {}, held in \
         {held:?}{} by aca-model ({:.1} MB of weights read per decoded token){}",
        config.num_hidden_layers,
        config.hidden_size,
        config.num_attention_heads,
        config.num_key_value_heads,
        config.head_dim,
        config.intermediate_size,
        config.vocab_size,
        match arguments.quantize {
            aca_model::Quantization::None => String::new(),
            quantized => format!(" with {quantized} projections"),
        },
        bytes_per_token as f64 / 1e6,
        if arguments.checkpoint.is_some() {
            ""
        } else {
            ", random (seed 1)"
        }
    );
    println!(
        "machine: {threads} CPU threads available; aca-model on {:?}; prompt {} tokens, decode {} greedy tokens, \
         best of {} runs (aca-model's and candle's taking turns)",
        arguments.device, arguments.prompt_tokens, arguments.decode_tokens, arguments.repeats
    );
    println!();

    let workload = Workload::new(
        arguments.prompt_tokens,
        config.vocab_size,
        arguments.decode_tokens,
        arguments.repeats,
    );
    let (aca, candle) = measure_in_process(&model, &checkpoint, &config, &workload)?;
    let (transformers_name, transformers) =
        match transformers_run::measure(arguments.python.as_deref(), &checkpoint, scratch.path(), &workload) {
            transformers_run::Outcome::Measured { measurement, versions } => (versions, Ok(measurement)),
            transformers_run::Outcome::NotMeasured(reason) => ("transformers (CPU)".to_string(), Err(reason)),
        };
    let rows = [
        Row {
            name: format!("aca-model (burn flex, {:?}, {precision})", arguments.device).replace("Cpu", "CPU"),
            figures: Ok(aca.clone()),
            is_reference: true,
        },
        Row {
            name: "candle 0.11 (candle-transformers qwen3, CPU)".to_string(),
            figures: candle.clone(),
            is_reference: false,
        },
        Row {
            name: transformers_name,
            figures: transformers.clone(),
            is_reference: false,
        },
    ];
    report::print_implementations(&rows, &aca);
    report::print_ratio("candle", &aca, &candle);
    report::print_ratio("transformers", &aca, &transformers);
    println!();

    let tokenizer = engine_load::load_tokenizer(&arguments.tokenizer)?;
    let shape = LoadShape {
        prompt_tokens: arguments.engine_prompt_tokens,
        generated_tokens: arguments.engine_tokens,
    };
    println!(
        "continuous batching (aca_model::engine): each request {} prompt tokens, {} generated tokens, greedy, \
         all submitted at once",
        shape.prompt_tokens, shape.generated_tokens
    );
    let load = engine_load::measure(&model, tokenizer, &arguments.concurrency, shape)?;
    report::print_load(&load);
    println!();
    let host = (arguments.device == DeviceChoice::Cpu).then(|| report::HostBandwidth {
        gbps: bandwidth::measured_read_gbps(threads, 5),
        threads,
    });
    report::print_bandwidth(host, bytes_per_token, &aca, arguments.bandwidth_gbps);
    if !arguments.skip_vision {
        println!();
        vision::print(
            &vision_run,
            &vision::measure(arguments.python.as_deref(), scratch.path(), &vision_run),
        );
    }
    Ok(())
}
