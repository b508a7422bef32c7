//! `aca bench`: runs the project's measured targets and prints their figures.
//!
//! `aca bench verify` verifies the example pages on the UI profile each was written for and on the
//! other one, times a plain script doing the same clicks, and scores the runs (`verify::bench`).
//! `aca bench real-pages`, `aca bench provision`, `aca bench ablation`, `aca bench agent` and
//! `aca bench platform` live beside it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use aca_console::profile::ProfileId;
use aca_docs::corpus::load_page;
use aca_runner::RunnerConfig;
use anyhow::Context;
use clap::{Args, Subcommand};
use futures::StreamExt as _;

use crate::report;
use crate::verify::bench::{Figure, PageResult, ReferenceResult, RunResult, Score, describe_defect, score};
use crate::verify::drive::Capture;
use crate::verify::page::{self, PageInput};
use crate::verify::replay::replay;
use crate::verify::target::ConsoleTarget;
use crate::verify::{PolicyChoice, Settings, verify_page_measured};

/// Benchmarks that print the figures the project's targets are stated in.
#[derive(Debug, Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    command: BenchCommand,
}

#[derive(Debug, Subcommand)]
enum BenchCommand {
    Verify(VerifyBenchArgs),
    /// Provision + verify + destroy of a typical META against the in-process emulator.
    Provision(super::bench_provision::ProvisionBenchArgs),
    Ablation(super::bench_ablation::AblationArgs),
    Agent(super::bench_agent::AgentBenchArgs),
    RealPages(super::bench_real::RealPagesArgs),
    Platform(super::bench_platform::PlatformBenchArgs),
}

/// Verify the example pages and score the runs against the targets.
///
/// Every page runs with the scripted policy on the bundled console twice: on the UI profile it was
/// written for (it must pass) and on the other profile (each `[[expected_drift]]` of its sidecar must
/// be reported as a defect at its step with its type; a page without any must still pass). For each
/// page that passed, the actions that took effect are replayed as a plain script (the reference:
/// same clicks, no policy, no observation, no audit check) and both wall times are compared.
///
/// Prints a table and the figures with their targets; writes OUT/bench.json and every run's report
/// under OUT/own/<page>/ and OUT/other/<page>/.
///
/// Exit status: 0 when every target is met, 1 when one is not, 2 on an error.
///
/// Examples:
///   aca bench verify
///   aca bench verify tests/corpus/vpc --jobs 2
///   aca bench verify --pages 10 --out out/bench
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct VerifyBenchArgs {
    #[command(flatten)]
    run: BenchRunArgs,
    /// Where the figures (bench.json) and the runs' reports are written.
    #[arg(long, default_value = "out/bench")]
    out: PathBuf,
    /// Skip the runs on the other profile (no drift figures).
    #[arg(long)]
    no_drift: bool,
    /// Skip the reference script (no time figure).
    #[arg(long)]
    no_reference: bool,
    /// Save a marked screenshot after every action, as `aca verify` does by default (slower).
    #[arg(long)]
    screenshots: bool,
}

/// Which pages a page benchmark runs and how: shared by `aca bench verify` and `aca bench ablation`.
#[derive(Debug, Args)]
pub(super) struct BenchRunArgs {
    /// The example pages (each with its `<page>.task.toml`), a folder searched recursively.
    #[arg(default_value = "tests/corpus")]
    pub dir: PathBuf,
    #[command(flatten)]
    pub runs: PageRunArgs,
}

/// How a benchmark's pages are run: shared by every page benchmark.
#[derive(Debug, Args)]
pub(super) struct PageRunArgs {
    /// Only the first N pages (in path order).
    #[arg(long, value_name = "N")]
    pub pages: Option<usize>,
    /// Pages verified at the same time (each in its own Chromium); timings are fairest with 1.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=16))]
    pub jobs: u16,
    /// Most actions one page may take.
    #[arg(long, default_value_t = 40)]
    pub max_turns: u32,
    /// The Chromium binary.
    #[arg(long, env = "CHROMIUM", default_value = "/usr/bin/chromium")]
    pub chromium: PathBuf,
    /// The built aca-dom package (default: ACA_DOM_PKG, then the build folder).
    #[arg(long, value_name = "DIR")]
    pub page_side: Option<PathBuf>,
}

/// How a policy's chat model is called: shared by every command that runs one.
#[derive(Debug, Args)]
pub(super) struct ModelCallArgs {
    /// API key for the model endpoints.
    #[arg(long, env = "ACA_MODEL_API_KEY", hide_env_values = true)]
    pub api_key: Option<String>,
    /// Seconds to wait for one model reply.
    #[arg(long, default_value_t = 120)]
    pub model_timeout: u64,
    /// Longest reply a model may write per action, in tokens.
    #[arg(long, default_value_t = 1024)]
    pub max_tokens: u32,
}

impl ModelCallArgs {
    /// How to reach `model` at `url`: with the key and the timeout.
    pub fn config(&self, url: &str, model: &str) -> aca_chat::ChatConfig {
        let mut config = aca_chat::ChatConfig::new(url.to_owned(), model.to_owned());
        config.api_key = self.api_key.clone();
        config.timeout = std::time::Duration::from_secs(self.model_timeout);
        config
    }
}

impl PageRunArgs {
    /// The scripted policy on `profile`, without screenshots, reports under `out`.
    pub fn scripted_settings(&self, profile: ProfileId, out: &Path) -> Settings {
        let mut runner = RunnerConfig {
            chromium: self.chromium.clone(),
            ..RunnerConfig::default()
        };
        if let Some(dir) = &self.page_side {
            runner.page_side = dir.clone();
        }
        Settings {
            policy: PolicyChoice::Scripted,
            model: None,
            profile: Some(profile),
            out: out.to_owned(),
            capture: Capture::None,
            max_turns: self.max_turns,
            rule_deadline: None,
            runner,
            runtime_provisioning: true,
            judges: None,
            recordings: None,
        }
    }
}

impl BenchRunArgs {
    /// The example pages under `dir` (each with its sidecar), in path order; the first `--pages` only.
    pub async fn load_pages(&self) -> anyhow::Result<Vec<BenchPage>> {
        let mut sources = example_pages(&self.dir)?;
        if let Some(n) = self.runs.pages {
            sources.truncate(n);
        }
        let mut pages = Vec::new();
        for source in &sources {
            let (corpus, input) = read_example(source).await?;
            pages.push(BenchPage {
                written_for: written_for(&corpus)?,
                input,
                expected: corpus.expected_drift,
            });
        }
        anyhow::ensure!(!pages.is_empty(), "{} holds no example pages", self.dir.display());
        Ok(pages)
    }
}

/// The Markdown pages under `dir`, in path order.
pub(super) fn example_pages(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut sources = page::pages_in(dir)?;
    sources.retain(|p| p.extension().is_some_and(|e| e == "md"));
    Ok(sources)
}

/// An example page with its sidecar, and the page as `aca verify` reads it.
pub(super) async fn read_example(source: &Path) -> anyhow::Result<(aca_docs::corpus::CorpusPage, PageInput)> {
    let corpus = load_page(source).with_context(|| format!("{} is not an example page", source.display()))?;
    let input = page::load(&source.display().to_string()).await?;
    Ok((corpus, input))
}

/// The console release an example page was written for, as its sidecar says.
pub(super) fn written_for(corpus: &aca_docs::corpus::CorpusPage) -> anyhow::Result<ProfileId> {
    corpus
        .task
        .profile
        .parse()
        .map_err(|e| anyhow::anyhow!("{}: {e}", corpus.path.display()))
}

pub async fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        BenchCommand::Verify(args) => verify(args).await,
        BenchCommand::Provision(args) => super::bench_provision::run_provision(args).await,
        BenchCommand::Ablation(args) => super::bench_ablation::run(args).await,
        BenchCommand::Agent(args) => super::bench_agent::run(args).await,
        BenchCommand::RealPages(args) => super::bench_real::run(args).await,
        BenchCommand::Platform(args) => super::bench_platform::run(args).await,
    }
}

/// One page to benchmark: what `aca verify` reads and what the sidecar expects on the other profile.
pub(super) struct BenchPage {
    pub input: PageInput,
    pub written_for: ProfileId,
    pub expected: Vec<aca_docs::corpus::ExpectedDrift>,
}

/// Runs `run` on every item, `jobs` at a time, printing `[i/total] progress` as each ends; the
/// results in the items' order.
pub(super) async fn in_page_order<'a, P, T, Fut>(
    items: &'a [P],
    jobs: u16,
    run: impl Fn(&'a P) -> Fut,
    progress: impl Fn(&T) -> String,
) -> Vec<T>
where
    Fut: std::future::Future<Output = T>,
{
    let total = items.len();
    let (run, progress) = (&run, &progress);
    let mut results: Vec<(usize, T)> = futures::stream::iter(items.iter().enumerate())
        .map(|(i, item)| async move {
            let result = run(item).await;
            eprintln!("[{}/{total}] {}", i + 1, progress(&result));
            (i, result)
        })
        .buffer_unordered(usize::from(jobs))
        .collect()
        .await;
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// Writes a benchmark's figures as JSON at `path` (its folder created) and says where.
pub(super) fn write_figures(path: &Path, json: &serde_json::Value) -> anyhow::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, serde_json::to_string_pretty(json)?).with_context(|| format!("writing {}", path.display()))?;
    println!("figures: {}", path.display());
    Ok(())
}

async fn verify(args: VerifyBenchArgs) -> anyhow::Result<ExitCode> {
    let pages = args.run.load_pages().await?;

    let target = ConsoleTarget::bundled().await?;
    eprintln!(
        "bench: {} pages on {} ({} at a time)",
        pages.len(),
        target.url(),
        args.run.runs.jobs
    );
    let started = std::time::Instant::now();
    let results = in_page_order(
        &pages,
        args.run.runs.jobs,
        |page| bench_page(&args, &target, page),
        progress_line,
    )
    .await;
    let scored = score(&results);

    print_table(&results);
    print_details(&scored);
    print_figures(&scored.figures);
    let json = serde_json::json!({
        "corpus": args.run.dir,
        "jobs": args.run.runs.jobs,
        "screenshots": args.screenshots,
        "wallSeconds": started.elapsed().as_secs_f64(),
        "score": scored,
        "pages": results,
    });
    write_figures(&args.out.join("bench.json"), &json)?;
    Ok(exit_status(&scored.figures))
}

async fn bench_page(args: &VerifyBenchArgs, target: &ConsoleTarget, page: &BenchPage) -> PageResult {
    let other_profile = page.written_for.other();
    let own_settings = settings(args, page.written_for, &args.out.join("own"));
    let (home, measures, _) = run_once(target, &page.input, &own_settings).await;
    let reference = match measures {
        Some(measures) if home.passed() && !args.no_reference => {
            let actions = measures.effective;
            let bindings = measures.bindings;
            Some(
                match replay(
                    target,
                    &page.input,
                    page.written_for,
                    &own_settings,
                    &actions,
                    &bindings,
                )
                .await
                {
                    Ok(run) => ReferenceResult {
                        ms: run.elapsed.as_millis() as u64,
                        actions: run.actions,
                        refused: run.refused,
                        error: None,
                    },
                    Err(e) => ReferenceResult {
                        ms: 0,
                        actions: actions.len(),
                        refused: Vec::new(),
                        error: Some(format!("{e:#}")),
                    },
                },
            )
        }
        _ => None,
    };
    let other = if args.no_drift {
        None
    } else {
        let other_settings = settings(args, other_profile, &args.out.join("other"));
        Some(run_once(target, &page.input, &other_settings).await.0)
    };
    PageResult {
        page: page.input.source.clone(),
        written_for: page.written_for.to_string(),
        expected_drift: page.expected.clone(),
        home,
        other,
        reference,
    }
}

/// One verification, its report written; the actions that took effect when it ran.
pub(super) async fn run_once(
    target: &ConsoleTarget,
    page: &PageInput,
    settings: &Settings,
) -> (RunResult, Option<crate::verify::Measures>, Option<aca_core::Report>) {
    let profile = settings.profile.map(|p| p.to_string()).unwrap_or_default();
    let quiet = |_: &str| {};
    match verify_page_measured(target, page, settings, &quiet).await {
        Ok(verification) => {
            let report = verification.report;
            if let Err(e) = report::write(&report, &settings.out.join(&page.slug)) {
                tracing::warn!("cannot write the report of {}: {e:#}", page.source);
            }
            let measures = verification.measures;
            let resources_ms = measures.provision_ms + measures.cleanup_ms;
            (
                RunResult {
                    profile,
                    verdict: Some(report.verdict),
                    error: None,
                    summary: report.summary.clone(),
                    defects: report.defects.clone(),
                    total_ms: report.duration_ms,
                    resources_ms,
                },
                Some(measures),
                Some(report),
            )
        }
        Err(e) => (
            RunResult {
                profile,
                verdict: None,
                error: Some(format!("{e:#}")),
                summary: String::new(),
                defects: Vec::new(),
                total_ms: 0,
                resources_ms: 0,
            },
            None,
            None,
        ),
    }
}

fn settings(args: &VerifyBenchArgs, profile: ProfileId, out: &Path) -> Settings {
    let mut settings = args.run.runs.scripted_settings(profile, out);
    if args.screenshots {
        settings.capture = Capture::EveryAction;
    }
    settings
}

fn progress_line(result: &PageResult) -> String {
    let mut line = format!(
        "{}: {} on {} ({:.1} s)",
        result.page,
        result.home.verdict_label(),
        result.written_for,
        result.home.total_ms as f64 / 1000.0
    );
    if let Some(reference) = &result.reference {
        line.push_str(&format!(", script {:.1} s", reference.ms as f64 / 1000.0));
    }
    if let Some(other) = &result.other {
        line.push_str(&format!(
            ", {} on {} with {} defect(s) for {} expected",
            other.verdict_label(),
            other.profile,
            other.defects.len(),
            result.expected_drift.len()
        ));
    }
    line
}

fn seconds(ms: u64) -> String {
    format!("{:.1}", ms as f64 / 1000.0)
}

fn print_table(results: &[PageResult]) {
    println!(
        "{:<52} {:>4} {:<20} {:<20} {:>5} {:>7} {:>7} {:>6}",
        "page", "for", "own profile", "other profile", "drift", "verify", "script", "ratio"
    );
    for r in results {
        let found = r
            .other
            .as_ref()
            .map(|o| crate::verify::bench::match_drift(&r.page, &r.expected_drift, o).0)
            .map_or("-".to_owned(), |checks| {
                format!(
                    "{}/{}",
                    checks.iter().filter(|c| c.found.is_some()).count(),
                    checks.len()
                )
            });
        let (script, ratio) = match &r.reference {
            Some(reference) if reference.complete() => (
                seconds(reference.ms),
                format!("{:.2}", r.home.verification_ms() as f64 / reference.ms.max(1) as f64),
            ),
            Some(_) => ("refused".into(), "-".into()),
            None => ("-".into(), "-".into()),
        };
        println!(
            "{:<52} {:>4} {:<20} {:<20} {:>5} {:>7} {:>7} {:>6}",
            short(&r.page, 52),
            r.written_for,
            r.home.verdict_label(),
            r.other.as_ref().map_or("-", RunResult::verdict_label),
            found,
            seconds(r.home.verification_ms()),
            script,
            ratio
        );
    }
}

fn print_details(scored: &Score) {
    if !scored.failing.is_empty() {
        println!("\nnot passing on their own profile:");
        for f in &scored.failing {
            println!("  {} [{}]: {}", f.page, f.verdict, one_line(&f.problem));
        }
    }
    let misses: Vec<_> = scored.drift.iter().filter(|c| c.found.is_none()).collect();
    if !misses.is_empty() {
        println!("\nexpected differences not reported:");
        for m in misses {
            println!(
                "  {} step {} {}: \"{}\" → \"{}\"; reported: {}",
                m.page,
                m.expected.step,
                serde_json::to_value(m.expected.kind)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default(),
                m.expected.documented,
                m.expected.observed,
                one_line(&m.reported_instead.join("; "))
            );
        }
    }
    if !scored.false_alarms.is_empty() {
        println!("\nfalse alarms (no drift expected, but no pass on the other profile):");
        for f in &scored.false_alarms {
            println!("  {} [{}]: {}", f.page, f.verdict, one_line(&f.problem));
        }
    }
    if !scored.extra_defects.is_empty() {
        println!("\ndefects no expected difference accounts for:");
        for e in &scored.extra_defects {
            println!("  {}: {}", e.page, describe_defect(&e.defect));
        }
    }
    if !scored.untimed.is_empty() {
        println!("\npassing pages whose script could not be timed:");
        for (page, why) in &scored.untimed {
            println!("  {page}: {}", one_line(why));
        }
    }
}

/// 0 when every target is met, 1 when one is not.
pub(super) fn exit_status(figures: &[Figure]) -> ExitCode {
    if figures.iter().all(|f| f.met) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

pub(super) fn print_figures(figures: &[Figure]) {
    println!("\n{:<34} {:>8} {:>9}  {:<4} basis", "figure", "value", "target", "met");
    for f in figures {
        let value = match f.value {
            None => "-".to_owned(),
            Some(v) if f.name.starts_with("wall time") => format!("{v:.2}x"),
            Some(v) if f.target.ends_with('%') => format!("{:.1}%", v * 100.0),
            Some(v) => format!("{v:.3}"),
        };
        println!(
            "{:<34} {:>8} {:>9}  {:<4} {}",
            f.name,
            value,
            f.target,
            if f.met { "yes" } else { "NO" },
            f.basis
        );
    }
}

pub(super) fn short(text: &str, width: usize) -> String {
    let text = text
        .strip_prefix("tests/corpus/")
        .or_else(|| text.strip_prefix("tests/real-pages/"))
        .unwrap_or(text);
    if text.chars().count() <= width {
        text.to_owned()
    } else {
        let tail: String = text
            .chars()
            .rev()
            .take(width - 1)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        format!("…{tail}")
    }
}

pub(super) fn one_line(text: &str) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > 220 {
        format!("{}…", flat.chars().take(219).collect::<String>())
    } else {
        flat
    }
}
