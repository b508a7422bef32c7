//! `aca bench ablation`: the example pages run three times on the bundled console, from empty
//! accounts, with the ResourceCoder's provisioning, and from pre-built accounts, and the success rate
//! of each is printed with provisioning's share of what pre-built accounts achieve.

use std::path::PathBuf;
use std::process::ExitCode;

use aca_provision::coder::CoderError;
use aca_provision::{AccessKey, EmulatorApplier, PageContext, ResourceCoder};
use clap::Args;
use serde::Serialize;

use super::bench::{BenchPage, BenchRunArgs, in_page_order, one_line, run_once, short, write_figures};
use crate::verify::bench::RunResult;
use crate::verify::page::PageInput;
use crate::verify::provision::RUNTIME_NOTE;
use crate::verify::target::ConsoleTarget;

/// Provisioning's success rate must reach this share of the pre-built accounts' rate.
pub const RATIO_TARGET: f64 = 0.95;

/// Measure what provisioning is worth: the example pages from empty accounts, provisioned, and
/// pre-built.
///
/// Every page runs with the scripted policy on the UI profile it was written for, three times:
///   empty        nothing is created for it, and the agent's requests for resources are refused;
///   provisioned  the ResourceCoder writes the page's Resource META from the page alone (validated
///                by create, verify and destroy in a scratch account), it is applied before the
///                run, and the agent's requests for what is still missing are provisioned at run
///                time;
///   pre-built    the page's hand-written META is applied before the run (the accounts a person
///                prepared), nothing at run time.
/// The provisioner acts as its own RAM user, so its calls never meet a page's success rule.
///
/// Prints a table and the three success rates; writes OUT/ablation.json and every run's report
/// under OUT/<arm>/<page>/.
///
/// Exit status: 0 when provisioning reaches 95% of the pre-built rate, 1 when not, 2 on an error.
///
/// Examples:
///   aca bench ablation
///   aca bench ablation tests/corpus/ecs --jobs 2
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct AblationArgs {
    #[command(flatten)]
    run: BenchRunArgs,
    /// Where the figures (ablation.json) and the runs' reports are written.
    #[arg(long, default_value = "out/ablation")]
    out: PathBuf,
}

/// How the resources of one run come about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
enum Arm {
    Empty,
    Provisioned,
    PreBuilt,
}

impl Arm {
    const ALL: [Arm; 3] = [Arm::Empty, Arm::Provisioned, Arm::PreBuilt];

    fn name(self) -> &'static str {
        match self {
            Arm::Empty => "empty",
            Arm::Provisioned => "provisioned",
            Arm::PreBuilt => "pre-built",
        }
    }
}

/// What the ResourceCoder wrote for a page before its provisioned run.
#[derive(Debug, Clone, Serialize)]
struct Written {
    /// The META it wrote and validated, `None` when the page needs nothing or generation failed.
    #[serde(skip)]
    meta: Option<aca_core::ResourceMeta>,
    /// In words, for the table.
    outcome: String,
}

/// The three runs of one page.
#[derive(Debug, Clone, Serialize)]
struct AblationPage {
    page: String,
    coder: String,
    empty: RunResult,
    provisioned: RunResult,
    pre_built: RunResult,
    /// Requests the agent made that were provisioned at run time in the provisioned run.
    runtime_requests: usize,
}

impl AblationPage {
    fn run(&self, arm: Arm) -> &RunResult {
        match arm {
            Arm::Empty => &self.empty,
            Arm::Provisioned => &self.provisioned,
            Arm::PreBuilt => &self.pre_built,
        }
    }
}

/// The figures of the whole corpus.
#[derive(Debug, Serialize)]
struct Figures {
    pages: usize,
    empty: f64,
    provisioned: f64,
    pre_built: f64,
    /// Provisioned over pre-built.
    ratio: f64,
    target: f64,
    met: bool,
}

fn figures(results: &[AblationPage]) -> Figures {
    let rate = |arm: Arm| {
        let passed = results.iter().filter(|r| r.run(arm).passed()).count();
        passed as f64 / results.len().max(1) as f64
    };
    let (empty, provisioned, pre_built) = (rate(Arm::Empty), rate(Arm::Provisioned), rate(Arm::PreBuilt));
    let ratio = if pre_built > 0.0 { provisioned / pre_built } else { 0.0 };
    Figures {
        pages: results.len(),
        empty,
        provisioned,
        pre_built,
        ratio,
        target: RATIO_TARGET,
        met: pre_built > 0.0 && ratio >= RATIO_TARGET,
    }
}

pub async fn run(args: AblationArgs) -> anyhow::Result<ExitCode> {
    let pages = args.run.load_pages().await?;
    let target = ConsoleTarget::bundled().await?;
    eprintln!(
        "bench ablation: {} pages on {}, three runs each ({} pages at a time)",
        pages.len(),
        target.url(),
        args.run.runs.jobs
    );
    let written = write_metas(&target, &pages).await?;
    let started = std::time::Instant::now();
    let jobs: Vec<(&BenchPage, &Written)> = pages.iter().zip(&written).collect();
    let results = in_page_order(
        &jobs,
        args.run.runs.jobs,
        |(page, written)| ablate(&args, &target, page, written),
        |result: &AblationPage| {
            format!(
                "{}: empty {}, provisioned {}, pre-built {}",
                result.page,
                result.empty.verdict_label(),
                result.provisioned.verdict_label(),
                result.pre_built.verdict_label()
            )
        },
    )
    .await;
    let figures = figures(&results);

    print_table(&results);
    print_figures(&figures);
    let json = serde_json::json!({
        "corpus": args.run.dir,
        "jobs": args.run.runs.jobs,
        "wallSeconds": started.elapsed().as_secs_f64(),
        "figures": figures,
        "pages": results,
    });
    write_figures(&args.out.join("ablation.json"), &json)?;
    Ok(if figures.met {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The ResourceCoder's META of every page, each validated in a scratch account of the console.
async fn write_metas(target: &ConsoleTarget, pages: &[BenchPage]) -> anyhow::Result<Vec<Written>> {
    let ConsoleTarget::Bundled { serving, .. } = target else {
        anyhow::bail!("the ablation runs on the bundled console only");
    };
    let scratch = target
        .account_for("ablation-scratch", aca_console::profile::ProfileId::Y2026)
        .await?;
    let applier = EmulatorApplier::new(
        &serving.url,
        AccessKey {
            access_key_id: scratch.access_key_id.clone(),
            access_key_secret: scratch.access_key_secret.clone(),
        },
    )?;
    let coder = ResourceCoder::rule_based();
    let mut written = Vec::new();
    for page in pages {
        let context = PageContext {
            procedure: page.input.procedure.clone(),
            product: page.input.task.as_ref().map(|t| t.product.clone()),
            region: page
                .input
                .task
                .as_ref()
                .map_or_else(|| "cn-hangzhou".to_owned(), |t| t.region.clone()),
            source: page.input.source.clone(),
        };
        written.push(match coder.generate(&context, &applier).await {
            Ok(generated) => Written {
                outcome: format!("META of {} resource(s)", generated.validation.created.len()),
                meta: Some(generated.meta),
            },
            Err(CoderError::NothingNeeded { .. }) => Written {
                meta: None,
                outcome: "nothing needed".into(),
            },
            Err(e) => Written {
                meta: None,
                outcome: format!("no META: {}", one_line(&e.to_string())),
            },
        });
    }
    Ok(written)
}

/// The page's three runs, one after the other.
async fn ablate(args: &AblationArgs, target: &ConsoleTarget, page: &BenchPage, written: &Written) -> AblationPage {
    let mut runs = Vec::new();
    let mut runtime_requests = 0;
    for arm in Arm::ALL {
        let mut input: PageInput = page.input.clone();
        if let Some(task) = &mut input.task {
            task.meta = match arm {
                Arm::Empty => None,
                Arm::Provisioned => written.meta.clone(),
                Arm::PreBuilt => task.meta.take(),
            };
        }
        let mut settings = args
            .run
            .runs
            .scripted_settings(page.written_for, &args.out.join(arm.name()));
        settings.runtime_provisioning = arm == Arm::Provisioned;
        let (result, _, report) = run_once(target, &input, &settings).await;
        if arm == Arm::Provisioned {
            runtime_requests = report
                .and_then(|r| r.resources)
                .map_or(0, |text| text.matches(RUNTIME_NOTE).count());
        }
        runs.push(result);
    }
    let [empty, provisioned, pre_built]: [RunResult; 3] = runs.try_into().expect("one run per arm");
    AblationPage {
        page: page.input.source.clone(),
        coder: written.outcome.clone(),
        empty,
        provisioned,
        pre_built,
        runtime_requests,
    }
}

fn print_table(results: &[AblationPage]) {
    println!(
        "{:<48} {:<20} {:<20} {:<20} {:>7}  resource coder",
        "page", "empty", "provisioned", "pre-built", "runtime"
    );
    for r in results {
        println!(
            "{:<48} {:<20} {:<20} {:<20} {:>7}  {}",
            short(&r.page, 48),
            r.empty.verdict_label(),
            r.provisioned.verdict_label(),
            r.pre_built.verdict_label(),
            r.runtime_requests,
            r.coder
        );
    }
    let failing: Vec<_> = results
        .iter()
        .filter(|r| !r.provisioned.passed() && r.pre_built.passed())
        .collect();
    if !failing.is_empty() {
        println!("\npassing pre-built but not provisioned:");
        for r in failing {
            println!("  {}: {}", r.page, one_line(&r.provisioned.first_problem()));
        }
    }
}

fn print_figures(f: &Figures) {
    let percent = |v: f64| format!("{:.1}%", v * 100.0);
    println!("\n{:<36} {:>8} {:>9}  met", "figure", "value", "target");
    println!("{:<36} {:>8}", "success rate, empty accounts", percent(f.empty));
    println!("{:<36} {:>8}", "success rate, provisioned", percent(f.provisioned));
    println!("{:<36} {:>8}", "success rate, pre-built accounts", percent(f.pre_built));
    println!(
        "{:<36} {:>8} {:>9}  {}",
        "provisioned / pre-built",
        format!("{:.3}", f.ratio),
        format!(">= {RATIO_TARGET}"),
        if f.met { "yes" } else { "NO" }
    );
    println!("({} pages)", f.pages);
}
