//! `aca serve`: loads a Qwen3 or Qwen3-VL checkpoint and serves it over an OpenAI-compatible API.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use aca_model::dtype::dtype_name;
use aca_model::memory::{Bytes, MemoryNeed, available_host_memory, parse_bytes};
use aca_model::{DeviceChoice, Precision, Quantization, WeightDtype};
use anyhow::{Context, bail};
use clap::{Args, ValueEnum};

use crate::serve::images::{ImageInputs, ImageLimits};
use crate::serve::{App, ServedModel, router};

/// Serve a Qwen3 or Qwen3-VL checkpoint over an OpenAI-compatible API.
///
/// Routes: POST /v1/chat/completions (JSON or SSE streaming, tools, response_format json_object /
/// json_schema enforced while decoding, logprobs, n, stop, seed; image_url parts for a Qwen3-VL
/// checkpoint), POST /v1/generate (token ids and images in, sampled ids and their logprobs out, for
/// RL rollouts), GET /v1/models (with the inputs the model takes), GET /health, GET /metrics.
///
/// A checkpoint whose config.json has a vision_config is served as Qwen3-VL: images arrive as base64
/// data: URLs (image/png, image/jpeg); http(s) URLs are refused unless --allow-remote-images is given.
///
/// Refuses to start when the checkpoint's weights (in --weights-dtype, --quantize) plus the KV cache of --max-batch
/// sequences of --max-context tokens do not fit the device's memory; --check-memory only reports that.
///
/// Example:
///   aca serve --model ./Qwen3-VL-2B-Instruct --listen 127.0.0.1:8000
///   aca serve --model ./Qwen3-32B --device cuda --weights-dtype bf16 --device-memory 141GB --check-memory
///   aca serve --model ./Qwen3-8B --weights-dtype bf16 --quantize int8
///   curl -s localhost:8000/v1/chat/completions -d '{"messages":[{"role":"user","content":[
///     {"type":"image_url","image_url":{"url":"data:image/png;base64,'"$(base64 -w0 shot.png)"'"}},
///     {"type":"text","text":"What does this page show?"}]}]}'
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct ServeArgs {
    /// Checkpoint directory: config.json, model.safetensors (or a sharded index), tokenizer.json and
    /// tokenizer_config.json with the chat template (or chat_template.json / chat_template.jinja);
    /// a Qwen3-VL checkpoint also preprocessor_config.json.
    #[arg(long, value_name = "DIR")]
    model: PathBuf,
    /// Where the model runs. wgpu and cuda need a build with `--features wgpu` or `--features cuda`.
    #[arg(long, value_enum, default_value_t = DeviceArg::Cpu)]
    device: DeviceArg,
    /// The dtype the weights, activations and KV cache are held in. f32 (the default) runs on every
    /// device and stays closest to the reference; bf16 and f16 halve the memory, computing as
    /// transformers does in that dtype (on the test checkpoint, logits within 0.11 of a float64
    /// reference in bf16 and 0.03 in f16), where the device computes in them: checked at load, the CPU
    /// does, and a device without the arithmetic (bf16 on most Vulkan ones) is refused. auto takes the
    /// checkpoint's own dtype (bf16 for Qwen3's releases); f16 may overflow on checkpoints trained in bf16.
    #[arg(long, value_enum, value_name = "DTYPE", default_value_t = WeightDtypeArg::F32)]
    weights_dtype: WeightDtypeArg,
    /// Hold the decoder layers' projection weights quantised, computing with activations in
    /// --weights-dtype. int8: one f32 scale per output column on the CPU (where decoding reads a byte
    /// per weight: about half the bytes of bf16), burn's int8 with a scale per 32 values elsewhere.
    /// Embeddings, norms, the output head and the vision encoder keep --weights-dtype. Logits move
    /// (on the test checkpoint, by up to about 0.05 against f32); see the README for parity and speed.
    #[arg(long, value_enum, value_name = "SCHEME", default_value_t = QuantizeArg::None)]
    quantize: QuantizeArg,
    /// Memory the device offers the model (e.g. `80GiB`): the CPU's available RAM by default; a GPU's
    /// must be given for the fit to be checked. Serving refuses to start when the weights plus the
    /// KV cache of --max-batch × --max-context tokens exceed it.
    #[arg(long, value_name = "BYTES", value_parser = parse_bytes)]
    device_memory: Option<u64>,
    /// Print what the checkpoint needs (weights, KV cache) against the device's memory, and the largest
    /// --max-batch that fits at this --max-context, then exit (0 when it fits, 1 when not) without
    /// loading any weight: only config.json is read (and, with --weights-dtype auto, the weights' headers).
    #[arg(long)]
    check_memory: bool,
    #[arg(long, default_value = "127.0.0.1:8000")]
    listen: SocketAddr,
    /// The name clients ask for (`model` in requests); the checkpoint folder's name by default.
    #[arg(long)]
    served_model_name: Option<String>,
    /// Sequences decoded together; new requests join between decode steps.
    #[arg(long, default_value_t = 16)]
    max_batch: usize,
    /// Longest prompt plus completion of one sequence (capped by the checkpoint's own limit).
    #[arg(long, default_value_t = 8192)]
    max_context: usize,
    /// Require `Authorization: Bearer TOKEN` on the API routes.
    #[arg(long, env = "ACA_SERVE_TOKEN", hide_env_values = true)]
    token: Option<String>,
    /// Largest request body accepted, in bytes (inline images included); also the largest remote
    /// image fetched.
    #[arg(long, default_value_t = 4 * 1024 * 1024)]
    max_request_bytes: usize,
    /// Most images one request may hold (Qwen3-VL checkpoints).
    #[arg(long, value_name = "N", default_value_t = 8)]
    max_images_per_request: usize,
    /// Most pixels (width × height, as sent, before the checkpoint's processor resizes it) one image
    /// may have; larger ones are refused before they are decoded.
    #[arg(long, value_name = "PIXELS", default_value_t = 4096 * 4096)]
    max_image_pixels: u64,
    /// Fetch http(s) image URLs (10 s deadline, at most --max-request-bytes each). Off by default:
    /// the server would fetch any address a client names, so only allow it where that is safe.
    #[arg(long)]
    allow_remote_images: bool,
}

/// The dtype `aca serve` holds the weights in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum WeightDtypeArg {
    Auto,
    F32,
    Bf16,
    F16,
}

impl From<WeightDtypeArg> for WeightDtype {
    fn from(arg: WeightDtypeArg) -> Self {
        match arg {
            WeightDtypeArg::Auto => WeightDtype::Auto,
            WeightDtypeArg::F32 => WeightDtype::F32,
            WeightDtypeArg::Bf16 => WeightDtype::Bf16,
            WeightDtypeArg::F16 => WeightDtype::F16,
        }
    }
}

/// How `aca serve` holds the layers' projections.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum QuantizeArg {
    None,
    Int8,
}

impl From<QuantizeArg> for Quantization {
    fn from(arg: QuantizeArg) -> Self {
        match arg {
            QuantizeArg::None => Quantization::None,
            QuantizeArg::Int8 => Quantization::Int8,
        }
    }
}

impl ServeArgs {
    fn precision(&self) -> Precision {
        Precision::new(self.weights_dtype.into(), self.quantize.into())
    }
}

/// The device a model runs on (`aca serve`, `aca train`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum DeviceArg {
    Cpu,
    Wgpu,
    Cuda,
}

impl From<DeviceArg> for DeviceChoice {
    fn from(arg: DeviceArg) -> Self {
        match arg {
            DeviceArg::Cpu => DeviceChoice::Cpu,
            DeviceArg::Wgpu => DeviceChoice::Wgpu,
            DeviceArg::Cuda => DeviceChoice::Cuda,
        }
    }
}

/// What the checkpoint needs, and the memory the device offers: `--device-memory` when given, else
/// the host's available RAM for the CPU. A GPU's capacity is not reported by its backend.
fn memory_need(args: &ServeArgs, choice: DeviceChoice) -> anyhow::Result<(MemoryNeed, Option<u64>)> {
    let need = MemoryNeed::for_checkpoint(
        &args.model,
        args.precision(),
        choice.uses_host_memory(),
        args.max_batch,
        args.max_context,
    )
        .with_context(|| format!("cannot read the checkpoint's configuration in {}", args.model.display()))?;
    let available = match args.device_memory {
        Some(bytes) => Some(bytes),
        None if choice.uses_host_memory() => available_host_memory(),
        None => None,
    };
    Ok((need, available))
}

/// Refuses a checkpoint whose weights plus a full batch of KV cache exceed the device's memory; without
/// a known capacity (a GPU without `--device-memory`) it is not checked, and a warning says so.
fn check_memory(args: &ServeArgs, choice: DeviceChoice) -> anyhow::Result<()> {
    let (need, available) = memory_need(args, choice)?;
    match available {
        Some(available) => need.check_fits(choice.name(), available)?,
        None => eprintln!(
            "warning: cannot tell how much memory the {choice} device has; the model needs {} ({} {} weights{} + {} KV cache); pass --device-memory to check it",
            Bytes(need.total()),
            Bytes(need.weights),
            dtype_name(need.dtype),
            need.quantization_note(),
            Bytes(need.kv_cache)
        ),
    }
    Ok(())
}

/// `--check-memory`: prints the need against the device's memory and whether it fits.
fn report_memory(args: &ServeArgs, choice: DeviceChoice) -> anyhow::Result<ExitCode> {
    let (need, available) = memory_need(args, choice)?;
    println!(
        "{} weights{}: {}; {} KV cache for {} sequences × {} tokens: {}; total {}",
        dtype_name(need.dtype),
        need.quantization_note(),
        Bytes(need.weights),
        dtype_name(need.dtype),
        need.max_batch,
        need.max_context,
        Bytes(need.kv_cache),
        Bytes(need.total())
    );
    let Some(available) = available else {
        bail!("cannot tell how much memory the {choice} device has: pass --device-memory");
    };
    let largest = need.max_batch_within(available);
    println!(
        "{choice} memory: {}; the largest --max-batch at --max-context {} that fits: {largest}",
        Bytes(available),
        need.max_context
    );
    Ok(match need.check_fits(choice.name(), available) {
        Ok(()) => ExitCode::SUCCESS,
        Err(refusal) => {
            println!("{refusal}");
            ExitCode::FAILURE
        }
    })
}

pub async fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    if args.max_batch == 0 || args.max_context == 0 {
        bail!("--max-batch and --max-context must be at least 1");
    }
    if args.max_images_per_request == 0 || args.max_image_pixels == 0 {
        bail!("--max-images-per-request and --max-image-pixels must be at least 1");
    }
    let images = ImageInputs::new(ImageLimits {
        max_images: args.max_images_per_request,
        max_pixels: args.max_image_pixels,
        allow_remote: args.allow_remote_images,
        max_remote_bytes: args.max_request_bytes,
    })?;
    let choice = DeviceChoice::from(args.device);
    if args.check_memory {
        return report_memory(&args, choice);
    }
    let device = choice.open()?;
    check_memory(&args, choice)?;
    let precision = args.precision();
    let id = match args.served_model_name {
        Some(name) => name,
        None => args
            .model
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "model".to_owned()),
    };
    eprintln!("loading {} …", args.model.display());
    let (dir, max_batch, max_context) = (args.model.clone(), args.max_batch, args.max_context);
    let model =
        tokio::task::spawn_blocking(move || ServedModel::load_as(&dir, &device, precision, id, max_batch, max_context))
            .await
            .context("loading the model stopped")??;
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("cannot listen on {}", args.listen))?;
    let addr = listener.local_addr()?;
    println!(
        "serving {} at http://{addr}/v1 (context {}, batch {}, inputs {})",
        model.id,
        model.max_context,
        args.max_batch,
        model.input_modalities().join(" and ")
    );
    let app = App::new(model, args.token, args.max_request_bytes, images);
    tokio::select! {
        result = axum::serve(listener, router(app)) => result.context("the server stopped")?,
        _ = tokio::signal::ctrl_c() => eprintln!("stopping"),
    }
    Ok(ExitCode::SUCCESS)
}
