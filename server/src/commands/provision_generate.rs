//! `aca provision generate <page>`: the ResourceCoder writes the Resource META of a page that has
//! none, proves it in a scratch account of the in-process emulator (create → verify → destroy), and
//! with --write stores it in the page's task sidecar.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use aca_chat::{ChatClient, ChatConfig};
use aca_core::TaskSpec;
use aca_provision::coder::{self, CoderError, ModelGenerator, PageContext, ResourceCoder, Stored};
use aca_provision::emulator::local::{LocalEmulator, access_key};
use aca_provision::{EmulatorApplier, WaitPolicy, task};
use anyhow::Context;
use clap::Args;

#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// The documentation page (Markdown or HTML).
    page: PathBuf,
    /// Store the validated META in the page's `<page>.task.toml` (created when missing, with the
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

pub async fn run(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&args.page).with_context(|| format!("reading {}", args.page.display()))?;
    let html = matches!(args.page.extension().and_then(|e| e.to_str()), Some("html" | "htm"));
    let procedure = if html {
        aca_docs::parse_html(&text)
    } else {
        aca_docs::parse_markdown(&text)
    }
    .with_context(|| format!("{} is not a procedure page", args.page.display()))?;
    let sidecar = task::task_path(&args.page);
    let task: Option<TaskSpec> = if sidecar.exists() {
        Some(task::load_task(&sidecar)?)
    } else {
        None
    };
    if task.as_ref().is_some_and(|t| t.meta.is_some()) {
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
        source: args.page.display().to_string(),
    };
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
    println!(
        "{}: drafting with {} (product {}), validating in a scratch emulator account",
        procedure.title,
        coder.generator.name(),
        page.product.as_deref().unwrap_or("unknown")
    );
    let generated = match coder.generate(&page, &applier).await {
        Ok(g) => g,
        Err(CoderError::NothingNeeded { task }) => {
            println!("\"{task}\" starts from an empty account: no META is needed");
            return Ok(ExitCode::SUCCESS);
        }
        Err(e) => {
            eprintln!("no META: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    let v = &generated.validation;
    println!(
        "validated after {} draft(s) in {} ms: created {}, {} key attribute(s) held, {} destroyed\n",
        generated.attempts,
        v.took.as_millis(),
        v.created.join(", "),
        v.checked.len(),
        v.destroyed
    );
    print!("{}", coder::meta_table(&generated.meta));
    if !args.write {
        return Ok(ExitCode::SUCCESS);
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
            })
        }
    };
    match coder::store_meta(&sidecar, &generated.meta, new_task.as_ref())? {
        Stored::Added => println!("\nadded the META to {}", sidecar.display()),
        Stored::Created => println!("\nwrote {} (rule inferred from the procedure)", sidecar.display()),
    }
    Ok(ExitCode::SUCCESS)
}
