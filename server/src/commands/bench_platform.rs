//! `aca bench platform`: the platform service's speed targets, measured on the example pages in
//! one run: throughput with two workers against one, what the platform spends around each run, and
//! what a long queue costs the jobs that run.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use aca_core::{Report, Verdict};
use aca_platform::{Db, DbUrl, NewJob, Queue, RunRecord, now_ms};
use aca_runner::RunnerConfig;
use clap::Args;

use super::bench::write_figures;
use crate::platform::blocking;
use crate::platform::workers::{Outcome, Sandbox, Timing, Until, Workers};
use crate::verify::drive::Capture;
use crate::verify::target::ConsoleTarget;
use crate::verify::{PolicyChoice, Settings};

/// Measure the platform service: pages per minute with --jobs 2 against --jobs 1 (target ≥ 1.6×
/// on 2 cores), the platform's time around each run (claiming, reading the page, writing the
/// report, recording the run; target ≤ 50 ms), and the queue's cost per job with 1,000 other jobs
/// waiting against an empty one (target: under 1 ms more).
///
/// Examples:
///   aca bench platform tests/corpus/vpc
///   aca bench platform tests/corpus --pages 12 --db postgres://aca@127.0.0.1/bench
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct PlatformBenchArgs {
    /// The pages to run (a folder, searched recursively).
    #[arg(default_value = "tests/corpus/vpc")]
    dir: PathBuf,
    /// Only the first N pages (in path order).
    #[arg(long, value_name = "N")]
    pages: Option<usize>,
    /// The database the queue's cost is measured on (default: a SQLite file in OUT).
    #[arg(long, value_name = "URL")]
    db: Option<DbUrl>,
    /// Jobs waiting in the queue for its cost figure.
    #[arg(long, default_value_t = 1000)]
    queued: usize,
    /// Runs in the database the dashboard's first paint is measured on (0: not measured).
    #[arg(long, default_value_t = 10_000)]
    dashboard_runs: usize,
    /// Where the figures (bench.json) and the runs' reports are written.
    #[arg(long, default_value = "out/bench-platform")]
    out: PathBuf,
    /// The Chromium binary.
    #[arg(long, env = "CHROMIUM", default_value = "/usr/bin/chromium")]
    chromium: PathBuf,
    /// The built aca-dom package (default: ACA_DOM_PKG, then the build folder).
    #[arg(long, value_name = "DIR")]
    page_side: Option<PathBuf>,
}

const THROUGHPUT_TARGET: f64 = 1.6;
const OVERHEAD_TARGET_MS: f64 = 50.0;
const QUEUE_COST_TARGET_MS: f64 = 1.0;
const FIRST_PAINT_TARGET_MS: f64 = 1000.0;
/// Claim-and-record cycles timed for the queue's cost.
const CYCLES: usize = 60;

pub async fn run(args: PlatformBenchArgs) -> anyhow::Result<ExitCode> {
    let source = args.dir.display().to_string();
    let mut pages = crate::platform::sources::expand(&source).await?;
    if let Some(n) = args.pages {
        pages.truncate(n);
    }
    std::fs::create_dir_all(&args.out)?;
    let target = ConsoleTarget::bundled().await?;
    eprintln!("bench: {} pages on {}", pages.len(), target.url());

    let one = pass(&args, &target, &pages, 1).await?;
    let two = pass(&args, &target, &pages, 2).await?;
    let speedup = one.wall.as_secs_f64() / two.wall.as_secs_f64();
    let overhead: Vec<f64> = one.timings.iter().map(|t| ms(t.platform)).collect();
    let overhead_mean = mean(&overhead);

    let db_url = args
        .db
        .clone()
        .unwrap_or_else(|| DbUrl::Sqlite(args.out.join(format!("queue-{}.db", now_ms()))));
    let sample = one
        .sample
        .clone()
        .ok_or_else(|| anyhow::anyhow!("no page produced a report"))?;
    let (empty, crowded) = {
        let (url, queued, sample) = (db_url.clone(), args.queued, sample.clone());
        blocking(move || queue_cost(&url, &sample, queued)).await?
    };
    let added = crowded - empty;
    let paint = if args.dashboard_runs > 0 {
        Some(first_paints(&args, &sample).await?)
    } else {
        None
    };

    println!();
    println!("{:<44} {:>12} {:>12}", "", "jobs 1", "jobs 2");
    println!(
        "{:<44} {:>11.1}s {:>11.1}s",
        "wall time",
        one.wall.as_secs_f64(),
        two.wall.as_secs_f64()
    );
    println!(
        "{:<44} {:>12.1} {:>12.1}",
        "pages per minute",
        per_minute(pages.len(), one.wall),
        per_minute(pages.len(), two.wall)
    );
    println!("{:<44} {:>12} {:>12}", "pages passed", one.passed, two.passed);
    println!();
    let figures = [
        (
            "throughput, jobs 2 / jobs 1",
            format!("{speedup:.2}×"),
            format!("≥ {THROUGHPUT_TARGET}×"),
            speedup >= THROUGHPUT_TARGET,
        ),
        (
            "platform time around a run (mean, jobs 1)",
            format!("{overhead_mean:.1} ms (p95 {:.1})", percentile(&overhead, 0.95)),
            format!("≤ {OVERHEAD_TARGET_MS} ms"),
            overhead_mean <= OVERHEAD_TARGET_MS,
        ),
        (
            "queue cost per job, 1,000 waiting vs none",
            format!("{crowded:.2} vs {empty:.2} ms ({added:+.2})"),
            format!("≤ +{QUEUE_COST_TARGET_MS} ms"),
            added <= QUEUE_COST_TARGET_MS,
        ),
    ];
    let mut figures = figures.to_vec();
    if let Some((empty_ms, full_ms)) = paint {
        figures.push((
            "dashboard first paint, 10,000 runs vs none",
            format!("{full_ms:.0} vs {empty_ms:.0} ms"),
            format!("≤ {FIRST_PAINT_TARGET_MS} ms"),
            full_ms <= FIRST_PAINT_TARGET_MS,
        ));
    }
    for (name, value, target, met) in &figures {
        println!(
            "{name:<44} {value:>28}  target {target:<10} {}",
            if *met { "met" } else { "NOT MET" }
        );
    }
    let json = serde_json::json!({
        "pages": pages.len(),
        "database": db_url.describe(),
        "jobs1": {"wallSeconds": one.wall.as_secs_f64(), "passed": one.passed},
        "jobs2": {"wallSeconds": two.wall.as_secs_f64(), "passed": two.passed},
        "throughputRatio": speedup,
        "platformMsPerRun": {"mean": overhead_mean, "p95": percentile(&overhead, 0.95), "each": overhead},
        "queueCostMs": {"queued": args.queued, "withQueued": crowded, "empty": empty, "added": added},
        "dashboardFirstPaintMs": paint.map(|(empty, full)| serde_json::json!({
            "runs": args.dashboard_runs, "withRuns": full, "empty": empty,
        })),
        "targetsMet": figures.iter().all(|f| f.3),
    });
    write_figures(&args.out.join("bench.json"), &json)?;
    Ok(
        if figures.iter().all(|f| f.3) && one.passed == pages.len() && two.passed == pages.len() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        },
    )
}

struct Pass {
    wall: Duration,
    passed: usize,
    timings: Vec<Timing>,
    sample: Option<Report>,
}

/// Every page through a fresh queue with `slots` workers.
async fn pass(
    args: &PlatformBenchArgs,
    target: &ConsoleTarget,
    pages: &[String],
    slots: usize,
) -> anyhow::Result<Pass> {
    eprintln!("bench: {} pages with {slots} worker(s)", pages.len());
    let queue = Queue::new(Arc::new(Db::open(&DbUrl::SqliteMemory)?));
    let jobs: Vec<NewJob> = pages
        .iter()
        .map(|page| NewJob {
            tree: format!("bench-{slots}"),
            page: page.clone(),
            priority: 0,
            max_attempts: 1,
        })
        .collect();
    queue.submit(&jobs, now_ms())?;
    let settings = settings(args, slots);
    let workers = Workers {
        queue,
        sandbox: Sandbox::Local(target),
        settings: &settings,
        name: format!("bench-{slots}"),
        slots,
        fix_diff: false,
        poll: Duration::from_millis(50),
        folder_per_run: false,
    };
    let mut done = Pass {
        wall: Duration::ZERO,
        passed: 0,
        timings: Vec::new(),
        sample: None,
    };
    let started = Instant::now();
    workers
        .run(Until::Drained, &mut |outcome: &Outcome| {
            if let Ok(report) = &outcome.result {
                done.passed += usize::from(report.verdict == Verdict::Pass);
                done.timings.push(outcome.timing);
                done.sample.get_or_insert_with(|| report.clone());
            }
        })
        .await?;
    done.wall = started.elapsed();
    Ok(done)
}

fn settings(args: &PlatformBenchArgs, slots: usize) -> Settings {
    let mut runner = RunnerConfig {
        chromium: args.chromium.clone(),
        ..RunnerConfig::default()
    };
    if let Some(dir) = &args.page_side {
        runner.page_side = dir.clone();
    }
    Settings {
        policy: PolicyChoice::Scripted,
        model: None,
        profile: None,
        out: args.out.join(format!("jobs-{slots}")),
        capture: Capture::None,
        max_turns: 40,
        rule_deadline: None,
        runner,
        runtime_provisioning: true,
        judges: None,
        recordings: None,
    }
}

/// The median time of one claim and one recorded run (ms), with no other job waiting and with
/// `queued` others waiting at a lower priority.
fn queue_cost(url: &DbUrl, sample: &Report, queued: usize) -> Result<(f64, f64), aca_platform::PlatformError> {
    let db = Arc::new(Db::open(url)?);
    let queue = Queue::new(db);
    let empty = cycles(&queue, sample, "empty")?;
    let waiting: Vec<NewJob> = (0..queued)
        .map(|i| NewJob {
            tree: "waiting".into(),
            page: format!("docs/waiting/page-{i}.md"),
            priority: -1,
            max_attempts: 1,
        })
        .collect();
    queue.submit(&waiting, now_ms())?;
    let crowded = cycles(&queue, sample, "crowded")?;
    Ok((empty, crowded))
}

fn cycles(queue: &Queue, sample: &Report, tree: &str) -> Result<f64, aca_platform::PlatformError> {
    let jobs: Vec<NewJob> = (0..CYCLES)
        .map(|i| NewJob {
            tree: tree.into(),
            page: format!("docs/{tree}/page-{i}.md"),
            priority: 1,
            max_attempts: 1,
        })
        .collect();
    queue.submit(&jobs, now_ms())?;
    let mut each = Vec::with_capacity(CYCLES);
    for _ in 0..CYCLES {
        let started = Instant::now();
        let claimed = queue
            .claim("bench/0", now_ms())?
            .ok_or_else(|| aca_platform::PlatformError::NotFound("a queued job".into()))?;
        queue.renew(&claimed.job.id, "bench/0", now_ms())?;
        queue.finish(&claimed, &RunRecord::new(tree, sample.clone()), None, now_ms())?;
        each.push(ms(started.elapsed()));
    }
    Ok(percentile(&each, 0.5))
}

/// The dashboard's first paint (ms from navigation to its figures on screen) over an empty
/// database and over one holding `--dashboard-runs` runs, in headless Chromium.
async fn first_paints(args: &PlatformBenchArgs, sample: &Report) -> anyhow::Result<(f64, f64)> {
    let www = crate::platform::dashboard::default_dir();
    let empty = first_paint(args, &www, sample, 0).await?;
    let full = first_paint(args, &www, sample, args.dashboard_runs).await?;
    Ok((empty, full))
}

async fn first_paint(
    args: &PlatformBenchArgs,
    www: &std::path::Path,
    sample: &Report,
    runs: usize,
) -> anyhow::Result<f64> {
    let url = DbUrl::Sqlite(args.out.join(format!("dashboard-{runs}-{}.db", now_ms())));
    let db = Arc::new(Db::open(&url)?);
    let (products, trees) = (["vpc", "ecs", "oss", "rds", "slb"], ["guide-a", "guide-b", "guide-c"]);
    let verdicts = ["pass", "pass", "pass", "doc_defect", "environment_failure"];
    let records: Vec<RunRecord> = (0..runs)
        .map(|i| {
            let mut report = sample.clone();
            report.page = format!("docs/{}/page-{}.md", products[i % 5], i % 800);
            report.verdict = serde_json::from_value(serde_json::json!(verdicts[i % 5])).unwrap_or(report.verdict);
            report.started_at = time::OffsetDateTime::from_unix_timestamp((now_ms() / 1000) - (i as i64 * 300))
                .ok()
                .and_then(|t| t.format(&time::format_description::well_known::Rfc3339).ok())
                .unwrap_or_default();
            let mut record = RunRecord::new(trees[i % 3], report);
            record.product = Some(products[i % 5].into());
            record.page_digest = Some(format!("digest-{}", i % 800));
            record
        })
        .collect();
    let results = aca_platform::Results::new(db.clone());
    blocking(move || results.record_all(&records)).await?;
    let nobody = std::sync::Arc::new(std::sync::RwLock::new(aca_service::Users::new(None)));
    let app = crate::platform::api::routes(crate::platform::api::Platform::new(Queue::new(db), nobody, None, 1))
        .merge(crate::platform::dashboard::routes(www).map_err(|e| anyhow::anyhow!(e))?);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let address = listener.local_addr()?;
    let serving = tokio::spawn(async move { axum::serve(listener, app).await });
    let mut config = RunnerConfig {
        chromium: args.chromium.clone(),
        ..RunnerConfig::default()
    };
    if let Some(dir) = &args.page_side {
        config.page_side = dir.clone();
    }
    let runner = aca_runner::Runner::launch(config).await?;
    let session = aca_runner::Session::open(&runner, &format!("http://{address}/")).await?;
    // Milliseconds from the navigation's start to the dashboard's mark, set as it puts its figures
    // in the page.
    let painted = session
        .evaluate(
            "new Promise(resolve => { const look = () => { \
               const mark = performance.getEntriesByName('aca-figures')[0]; \
               mark ? resolve(mark.startTime) : setTimeout(look, 5); }; look(); })",
        )
        .await?;
    let _ = session.close().await;
    runner.close().await;
    serving.abort();
    let painted = painted
        .as_f64()
        .ok_or_else(|| anyhow::anyhow!("the dashboard never showed its figures"))?;
    eprintln!("bench: dashboard first paint over {runs} runs: {painted:.0} ms");
    Ok(painted)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.iter().sum::<f64>() / values.len() as f64
}

fn percentile(values: &[f64], p: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn per_minute(pages: usize, wall: Duration) -> f64 {
    pages as f64 * 60.0 / wall.as_secs_f64().max(1e-9)
}
