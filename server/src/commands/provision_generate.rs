//! `aca provision generate <page|folder>`: the ResourceCoder writes the Resource META of pages that
//! have none, proves each in a scratch account of the in-process emulator (create → verify →
//! destroy), and with --write stores it in the page's task sidecar.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use aca_chat::{ChatClient, ChatConfig};
use aca_core::TaskSpec;
use aca_provision::coder::{self, CoderError, Generated, ModelGenerator, PageContext, ResourceCoder, Stored};
use aca_provision::emulator::local::{LocalEmulator, access_key};
use aca_provision::{EmulatorApplier, WaitPolicy, task};
use anyhow::Context;
use clap::Args;

#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// The documentation page (Markdown or HTML), or a folder: every page in it (and below) that
    /// has no META.
    page: PathBuf,
    /// Store each validated META in the page's `<page>.task.toml` (created when missing, with the
    /// success rule inferred from the procedure); a META already there is never overwritten.
    #[arg(long)]
    write: bool,
    /// Draft with a model at this OpenAI-compatible API base instead of the built-in rules.
    #[arg(long, env = "ACA_MODEL_URL")]
    model_url: Option<String>,
    /// Model name for --model-url.
    #[arg(long, env = "ACA_MODEL", default_value = "qwen3")]
    model: String,
    /// API key for the model endpoint.
    #[arg(long, env = "ACA_MODEL_API_KEY", hide_env_values = true)]
    api_key: Option<String>,
    /// Drafts to try before giving up (each failure goes into the next one).
    #[arg(long, default_value_t = 3)]
    attempts: u32,
}

/// What became of one page.
enum Outcome {
    Generated,
    NotNeeded,
    Failed,
}

pub async fn run(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let mut coder = match &args.model_url {
        None => ResourceCoder::rule_based(),
        Some(url) => {
            let mut config = ChatConfig::new(url, args.model.clone());
            config.api_key = args.api_key.clone();
            ResourceCoder::model_backed(ModelGenerator::new(ChatClient::new(config)?))
        }
    };
    coder.max_attempts = args.attempts.max(1);
    let emulator = LocalEmulator::start(aca_console::ConsoleConfig::for_tests()).await?;
    let scratch = emulator.account("meta-scratch")?;
    let applier = EmulatorApplier::new(&emulator.url, access_key(&scratch))?.with_wait(WaitPolicy {
        interval: Duration::from_millis(20),
        timeout: Duration::from_secs(30),
    });

    if !args.page.is_dir() {
        let outcome = one(&coder, &applier, &args.page, args.write, true).await?;
        return Ok(match outcome {
            Outcome::Failed => ExitCode::from(1),
            _ => ExitCode::SUCCESS,
        });
    }
    let mut pages = Vec::new();
    collect_pages(&args.page, &mut pages)?;
    pages.sort();
    let (mut generated, mut not_needed, mut failed, mut had) = (0, 0, 0, 0);
    for page in &pages {
        let sidecar = task::task_path(page);
        if sidecar.exists() && task::load_task(&sidecar).is_ok_and(|t| t.meta.is_some()) {
            had += 1;
            continue;
        }
        match one(&coder, &applier, page, args.write, false).await {
            Ok(Outcome::Generated) => generated += 1,
            Ok(Outcome::NotNeeded) => not_needed += 1,
            Ok(Outcome::Failed) => failed += 1,
            Err(e) => {
                failed += 1;
                println!("✗ {}: {e:#}", page.display());
            }
        }
    }
    println!(
        "{} pages: {had} had a META, {generated} generated{}, {not_needed} need none, {failed} failed",
        pages.len(),
        if args.write { " and written" } else { "" }
    );
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn collect_pages(dir: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            collect_pages(&path, out)?;
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("md" | "markdown" | "html" | "htm")
        ) {
            out.push(path);
        }
    }
    Ok(())
}

/// Generates (and with `write` stores) the META of one page; `verbose` prints the META itself.
async fn one(
    coder: &ResourceCoder,
    applier: &EmulatorApplier,
    path: &Path,
    write: bool,
    verbose: bool,
) -> anyhow::Result<Outcome> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let html = matches!(path.extension().and_then(|e| e.to_str()), Some("html" | "htm"));
    let procedure = if html {
        aca_docs::parse_html(&text)
    } else {
        aca_docs::parse_markdown(&text)
    }
    .with_context(|| format!("{} is not a procedure page", path.display()))?;
    let sidecar = task::task_path(path);
    let task: Option<TaskSpec> = if sidecar.exists() {
        Some(task::load_task(&sidecar)?)
    } else {
        None
    };
    if verbose && task.as_ref().is_some_and(|t| t.meta.is_some()) {
        println!(
            "{} has a META already; generating one to compare (it will not be written)",
            sidecar.display()
        );
    }
    let page = PageContext {
        procedure: procedure.clone(),
        product: task
            .as_ref()
            .map(|t| t.product.clone())
            .or_else(|| coder::rules::product_of(&procedure).map(str::to_owned)),
        region: task.as_ref().map_or("cn-hangzhou".to_owned(), |t| t.region.clone()),
        source: path.display().to_string(),
    };
    if verbose {
        println!(
            "{}: drafting with {} (product {}), validating in a scratch emulator account",
            procedure.title,
            coder.generator.name(),
            page.product.as_deref().unwrap_or("unknown")
        );
    }
    let generated: Generated = match coder.generate(&page, applier).await {
        Ok(g) => g,
        Err(CoderError::NothingNeeded { task }) => {
            println!(
                "• {}: \"{task}\" starts from an empty account: no META is needed",
                path.display()
            );
            return Ok(Outcome::NotNeeded);
        }
        Err(e) => {
            println!("✗ {}: no META: {e}", path.display());
            return Ok(Outcome::Failed);
        }
    };
    let v = &generated.validation;
    println!(
        "✓ {}: validated after {} draft(s) in {} ms: created {}, {} key attribute(s) held, {} destroyed",
        path.display(),
        generated.attempts,
        v.took.as_millis(),
        v.created.join(", "),
        v.checked.len(),
        v.destroyed
    );
    if verbose {
        println!();
        print!("{}", coder::meta_table(&generated.meta));
    }
    if !write {
        return Ok(Outcome::Generated);
    }
    let new_task = match &task {
        Some(_) => None,
        None => {
            let inference = aca_reward::infer::infer_rule(&procedure);
            let rule = inference
                .rule
                .with_context(|| format!("no sidecar to add the META to, and no rule: {}", inference.explanation))?;
            Some(TaskSpec {
                profile: "2026".into(),
                product: page
                    .product
                    .clone()
                    .context("the page names no product the emulator knows")?,
                region: page.region.clone(),
                rule,
                meta: None,
                difficulty: Default::default(),
            })
        }
    };
    match coder::store_meta(&sidecar, &generated.meta, new_task.as_ref())? {
        Stored::Added => println!("  added the META to {}", sidecar.display()),
        Stored::Created => println!("  wrote {} (rule inferred from the procedure)", sidecar.display()),
    }
    Ok(Outcome::Generated)
}
