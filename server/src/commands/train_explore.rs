//! `aca train explore`: self-exploration. For each product of the train split, the product's console
//! page and the operations the audit log records for it go to a teacher model, which proposes
//! create/modify/delete procedures; each accepted one is written as a task page with its sidecar
//! (`aca_train::dataset::explore`), for `aca train collect` to run and keep what the reward confirms.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use aca_chat::{ChatClient, ChatRequest, Message};
use aca_console::profile::ProfileId;
use aca_core::console::ProductConsole;
use aca_docs::split::SplitSet;
use aca_runner::{ObserveOptions, Runner, RunnerConfig, Session};
use aca_train::dataset::explore::{self, Operation, Product};
use anyhow::{Context, anyhow, bail};
use clap::Args;

use super::bench::ModelCallArgs;
use super::task_set::{self, Releases};
use crate::verify::drive::open_console;
use crate::verify::target::ConsoleTarget;

/// Propose new tasks from each product's console with a teacher model (self-exploration).
///
/// For each product the train split's pages use (or --product), its console opens in a fresh account
/// of the bundled console, and the page, with the create, modify and delete operations the audit log
/// records for the product, is put to the teacher (--teacher-url, --teacher-model), which writes up
/// to --per-product procedures in help-page style. A proposal is kept when it ends in one of those
/// operations, has at least two steps and does not repeat the title of a test-split page (the test
/// pages themselves are never read). Each is written as OUT/<product>/<slug>.md with a task sidecar
/// whose success rule is the operation's audit event, and OUT/split.toml puts them all in the train
/// set. Then `aca train collect --tasks OUT` runs them, and only the runs the reward service confirms
/// become samples.
///
/// Exit status: 0 when at least one task was written, 2 on an error.
///
/// Examples:
///   aca train explore --teacher-url http://127.0.0.1:8000/v1 --teacher-model qwen3-max --out out/explore
///   aca train collect --tasks out/explore --releases own --out out/dataset-explore
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct ExploreArgs {
    /// The task set whose train split names the products (and whose test titles are not repeated).
    #[arg(long, default_value = "tests/corpus")]
    tasks: PathBuf,
    /// The teacher: an OpenAI-compatible API base.
    #[arg(long, value_name = "URL")]
    teacher_url: String,
    /// The teacher endpoint's model.
    #[arg(long, value_name = "NAME")]
    teacher_model: String,
    #[command(flatten)]
    model: ModelCallArgs,
    /// Only these products (sidecar codes: vpc, ecs, …); all the train split's by default.
    #[arg(long = "product", value_name = "CODE")]
    products: Vec<String>,
    /// Procedures asked for per product.
    #[arg(long, default_value_t = 3)]
    per_product: usize,
    /// The region the tasks run in.
    #[arg(long, default_value = "cn-hangzhou")]
    region: String,
    #[arg(long, default_value = "out/explore")]
    out: PathBuf,
    /// The Chromium binary the console pages are observed in.
    #[arg(long, env = "CHROMIUM", default_value = "/usr/bin/chromium")]
    chromium: PathBuf,
    /// The built aca-dom package (default: ACA_DOM_PKG, then the build folder).
    #[arg(long, value_name = "DIR")]
    page_side: Option<PathBuf>,
}

pub async fn run(args: ExploreArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(args.per_product >= 1, "--per-product must be at least 1");
    let train = task_set::load(&args.tasks, Some(SplitSet::Train), Releases::Own, None).await?;
    let held_out: Vec<String> = task_set::load(&args.tasks, Some(SplitSet::Test), Releases::Own, None)
        .await
        .map(|tasks| tasks.iter().map(|t| t.input.procedure.title.clone()).collect())
        .unwrap_or_default();
    let codes: BTreeSet<String> = if args.products.is_empty() {
        train.iter().map(|t| t.product.clone()).collect()
    } else {
        args.products.iter().cloned().collect()
    };
    let client = ChatClient::new(args.model.config(&args.teacher_url, &args.teacher_model))
        .with_context(|| format!("the teacher endpoint {}", args.teacher_url))?;
    let target = ConsoleTarget::bundled().await?;
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let mut written: Vec<String> = Vec::new();
    for code in &codes {
        let Some(product) = product(code) else {
            println!("{code}: skipped (no console or audit operations known for it)");
            continue;
        };
        let (console, product) = product;
        let page = entry_page(&args, &target, console)
            .await
            .with_context(|| format!("observing the {code} console"))?;
        let request = ChatRequest {
            messages: vec![
                Message::system(explore::system_prompt()),
                Message::user(explore::user_message(&product, &page, args.per_product, &held_out)),
            ],
            temperature: Some(0.7),
            max_tokens: Some(4096),
            stop: Vec::new(),
            seed: None,
            response_format: Some(explore::response_format()),
        };
        let reply = client
            .complete(&request)
            .await
            .map_err(|e| anyhow!("the teacher on {code}: {e}"))?;
        let accepted = match explore::accept(&reply.text, &product, &held_out) {
            Ok(accepted) => accepted,
            Err(why) => {
                println!("{code}: nothing kept ({why})");
                continue;
            }
        };
        for why in &accepted.rejected {
            println!("{code}: left out {why}");
        }
        let dir = args.out.join(code);
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        for (proposal, operation) in accepted.proposals.iter().take(args.per_product) {
            let slug = explore::slug(&proposal.title);
            std::fs::write(
                dir.join(format!("{slug}.md")),
                explore::page_markdown(&product, proposal),
            )?;
            std::fs::write(
                dir.join(format!("{slug}.task.toml")),
                explore::sidecar_toml(&product, operation, &args.region),
            )?;
            println!("{code}: {} ({})", proposal.title, operation.event_name);
            written.push(format!("{code}/{slug}"));
        }
    }
    if written.is_empty() {
        bail!("no proposal was kept, so there is nothing to collect");
    }
    let split = format!(
        "# Tasks proposed by `aca train explore`: all for training.\ntrain = [\n{}]\ntest = []\n",
        written.iter().map(|w| format!("  \"{w}\",\n")).collect::<String>()
    );
    std::fs::write(args.out.join("split.toml"), split)?;
    println!(
        "{} task(s) in {}; next: aca train collect --tasks {} --releases own",
        written.len(),
        args.out.display(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The product's console, and its name and audit operations for the teacher.
fn product(code: &str) -> Option<(&'static ProductConsole, Product)> {
    let console = ProductConsole::by_code(code)?;
    let entry = console
        .names
        .iter()
        .find_map(|name| aca_reward::catalog::product(name))?;
    let operations = entry
        .operations
        .iter()
        .map(|op| Operation {
            event_name: op.event_name.to_owned(),
            service_name: op.service_name.to_owned(),
            event_type: serde_json::to_value(op.event_type)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
            verbs: op.verbs.iter().map(|v| (*v).to_owned()).collect(),
            objects: op.objects.iter().map(|o| (*o).to_owned()).collect(),
        })
        .collect();
    Some((
        console,
        Product {
            code: code.to_owned(),
            name: entry.name.to_owned(),
            operations,
        },
    ))
}

/// The text of the product's console page as a fresh account sees it.
async fn entry_page(args: &ExploreArgs, target: &ConsoleTarget, console: &ProductConsole) -> anyhow::Result<String> {
    let account = target
        .account_for(&format!("explore-{}", console.code), ProfileId::Y2026)
        .await?;
    let mut config = RunnerConfig {
        chromium: args.chromium.clone(),
        ..RunnerConfig::default()
    };
    if let Some(dir) = &args.page_side {
        config.page_side = dir.clone();
    }
    let runner = Runner::launch(config).await?;
    let observed = async {
        let mut session = Session::open(&runner, "about:blank").await?;
        open_console(&mut session, &account, console, &args.region).await?;
        session.wait_settled(Duration::from_secs(5)).await?;
        let options = ObserveOptions {
            mark: false,
            max_elements: 400,
            viewport_only: false,
        };
        anyhow::Ok(session.observe(&options).await?.to_text())
    }
    .await;
    runner.close().await;
    if let Some(note) = target.give_back(&account, &args.region).await {
        eprintln!("{note}");
    }
    observed
}
