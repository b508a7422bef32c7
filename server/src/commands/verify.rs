//! `aca verify`: execute documentation pages in a console and report, step by step, whether each
//! page still matches it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use aca_core::{Report, Verdict};
use aca_platform::queue::Finished;
use aca_platform::{Db, DbUrl, NewJob, Queue, Results, now_ms};
use anyhow::{Context, bail};
use clap::Args;

use super::run_options::RunOptions;
use crate::platform::blocking;
use crate::platform::workers::{Sandbox, Until, Workers};
use crate::report;
use crate::verify::target::ConsoleTarget;

/// Verify documentation pages by executing them in a console.
///
/// Each page's procedure is run step by step in headless Chromium; the console's audit log
/// (ActionTrail) decides whether the documented operation happened. Without --console the bundled
/// console emulator is started, with a fresh account per page under the UI profile the page was
/// written for (its `<page>.task.toml`), or --profile. With --pool each page runs in an account
/// leased from the pool, returned after the page once what the run left is cleaned up.
///
/// The report goes to OUT/<page>/report.json and report.html (self-contained; screenshots with
/// element marks embedded). With --all, every page under the folder is verified and OUT/summary.json
/// and a table are written. With --jobs N, N pages run at once, each in its own sandbox; with --db
/// every run is recorded in a results database as `aca server` records them.
///
/// Exit status: 0 when every page passed, 1 when any page did not, 2 on an error.
///
/// Examples:
///   aca verify tests/corpus/vpc/create-vpc.md
///   aca verify --all tests/corpus --out out/verify
///   aca verify --all tests/corpus --jobs 2 --db sqlite:out/results.db
///   aca verify page.md --profile 2024            # run a 2026 page against the 2024 console
///   aca verify --all docs --pool out/accounts.db --admin-token T
///   aca verify page.md --console https://home.console.aliyun.com --user-data-dir ~/.aca-profile \
///       --credentials ak.json --account-id 1234567890123456  # a real account
///   aca verify page.md --policy llm --model-url http://127.0.0.1:8000/v1 --model qwen3-vl-32b
///   aca verify page.md --judges judges.toml      # pages no audit event decides go to two judges
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct VerifyArgs {
    /// A page (.md or .html file, or an http(s) URL); with --all, a folder of pages.
    #[arg(required = true)]
    pages: Vec<String>,
    /// Verify every .md/.html page under the folder(s) given, or every page a sitemap URL lists.
    #[arg(long)]
    all: bool,
    /// Pages verified at once, each in its own sandbox (its own Chromium and a fresh account):
    /// the bundled console or --pool only.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    jobs: u16,
    /// Runs ending in environment_failure (a missing resource, a quota, a console error) are tried
    /// again this many times, the cause of each kept.
    #[arg(long, default_value_t = 0)]
    retries: u8,
    /// Also record every run in this results database (sqlite:FILE or postgres://…), as
    /// `aca server` does.
    #[arg(long, value_name = "URL", env = "ACA_DB", hide_env_values = true)]
    db: Option<DbUrl>,
    /// The documentation tree the runs are recorded under (default: the folders given).
    #[arg(long, requires = "db")]
    tree: Option<String>,
    /// Where reports are written.
    #[arg(long, default_value = "out/verify")]
    out: PathBuf,
    /// Run each page in an account leased from this pool (`aca accounts add --emulator …`); the
    /// account is cleaned after the page, or quarantined when it cannot be.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["console", "run_accounts"], requires = "admin_token")]
    pool: Option<PathBuf>,
    /// The pool's emulator admin token, to read each leased account's console logon.
    #[arg(long, env = "ACA_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: Option<String>,
    /// How long a pool lease holds before the account comes back by itself.
    #[arg(long, default_value_t = 3600, requires = "pool")]
    lease_timeout_s: u64,
    #[command(flatten)]
    run: RunOptions,
    /// Also print each page's report as one line `ACA-REPORT <JSON>` on standard output, for a
    /// runner that collects it from a log (a Kubernetes Job's pod).
    #[arg(long)]
    report_stdout: bool,
    /// Send each page's report files (its marked screenshots) to this `aca server` upload address
    /// once the page is done: what a Kubernetes Job's pod is given, with --upload-token.
    #[arg(long, value_name = "URL", env = "ACA_UPLOAD_URL", requires = "upload_token")]
    upload_to: Option<String>,
    /// The token of the upload address (good for that run only).
    #[arg(long, env = "ACA_UPLOAD_TOKEN", hide_env_values = true)]
    upload_token: Option<String>,
    /// For a local Markdown page with renamed labels, write OUT/<page>/fix.diff: the page's
    /// source with each label the console shows under another name rewritten, as a patch to review
    /// and apply.
    #[arg(long)]
    fix_diff: bool,
}

pub async fn run(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let mut sources: Vec<String> = Vec::new();
    for given in &args.pages {
        if args.all {
            sources.extend(crate::platform::sources::expand(given).await?);
        } else {
            if std::path::Path::new(given).is_dir() {
                bail!("{given} is a folder: pass --all to verify every page in it");
            }
            sources.push(given.clone());
        }
    }
    // Sidecars and saved rules sit beside pages with their own extensions; only pages are run.
    sources.retain(|s| !s.ends_with(".task.toml") && !s.ends_with(".rule.json"));
    if let Some((first, second, folder)) = crate::verify::page::sharing_a_report_folder(&sources).first() {
        bail!(
            "{first} and {second} would both write their report to {}: verify them in separate runs, \
             each with its own --out",
            args.out.join(folder).display()
        );
    }

    let settings = args.run.settings(args.out.clone()).await?;
    let target = match &args.pool {
        Some(pool) => ConsoleTarget::pooled(
            pool,
            Duration::from_secs(args.lease_timeout_s),
            args.admin_token.clone().context("--pool needs --admin-token")?,
        )?,
        None => args.run.target().await?,
    };
    eprintln!("console: {}", target.url());
    if let Some(limit) = target.parallel_limit()
        && usize::from(args.jobs) > limit
    {
        bail!(
            "--jobs {} needs one isolated account per page run at once, and {} gives {limit}: runs \
             sharing an account would read each other's audit events (the bundled console, --pool, or \
             more --run-accounts)",
            args.jobs,
            target.url()
        );
    }
    let results = match args.db.clone() {
        Some(url) => {
            let described = url.describe();
            let db = blocking(move || Db::open(&url))
                .await
                .with_context(|| format!("opening the results database {described}"))?;
            Some(Results::new(Arc::new(db)))
        }
        None => None,
    };
    // The pages go through the platform's queue and local workers, as `aca server`'s do.
    let mut queue = Queue::new(Arc::new(Db::open(&DbUrl::SqliteMemory)?));
    queue.retry_pause_ms = 2_000;
    let tree = args.tree.clone().unwrap_or_else(|| args.pages.join(" "));
    let jobs: Vec<NewJob> = sources
        .iter()
        .map(|page| NewJob {
            tree: tree.clone(),
            page: page.clone(),
            priority: 0,
            max_attempts: 1 + i64::from(args.retries),
        })
        .collect();
    queue.submit(&jobs, now_ms())?;
    let total = sources.len();
    eprintln!(
        "{total} page{} with {} at once",
        if total == 1 { "" } else { "s" },
        args.jobs
    );
    let workers = Workers {
        queue,
        sandbox: Sandbox::Local(&target),
        settings: &settings,
        name: "verify".into(),
        slots: usize::from(args.jobs),
        fix_diff: args.fix_diff,
        poll: Duration::from_millis(200),
        folder_per_run: false,
    };
    let mut ended: HashMap<String, (Result<Report, String>, Option<PathBuf>)> = HashMap::new();
    let mut unrecorded = 0usize;
    workers
        .run(Until::Drained, &mut |outcome| {
            if let (Some(results), Some(run)) = (&results, &outcome.run) {
                let mut run = run.clone();
                run.job_id = None;
                // The database's driver blocks: it runs off the async workers.
                if let Err(e) = tokio::task::block_in_place(|| results.record(&run)) {
                    eprintln!("    the run of {} could not be recorded: {e}", outcome.job.page);
                    unrecorded += 1;
                }
            }
            if !matches!(outcome.finished, Some(Finished::Retried { .. })) {
                ended.insert(outcome.job.page.clone(), (outcome.result.clone(), outcome.html.clone()));
            }
        })
        .await?;
    if let (Some(url), Some(token)) = (&args.upload_to, &args.upload_token) {
        let target = crate::platform::uploads::UploadTarget {
            url: url.clone(),
            token: token.clone(),
        };
        for (_, html) in ended.values() {
            let Some(dir) = html.as_deref().and_then(std::path::Path::parent) else {
                continue;
            };
            match crate::platform::uploads::send(&target, dir).await {
                Ok(sent) => eprintln!("sent {sent} report file(s) of {} to the server", dir.display()),
                Err(e) => eprintln!("the report files of {} were not sent: {e:#}", dir.display()),
            }
        }
    }
    let mut rows: Vec<(String, Result<Report, String>)> = Vec::new();
    let mut last_html: Option<PathBuf> = None;
    for source in &sources {
        let (result, html) = ended
            .remove(source)
            .unwrap_or_else(|| (Err("the page was not run".to_owned()), None));
        last_html = html.or(last_html);
        if args.report_stdout
            && let Ok(report) = &result
        {
            println!("ACA-REPORT {}", serde_json::to_string(report)?);
        }
        rows.push((source.clone(), result));
    }
    if results.is_some() {
        println!(
            "results: {} run(s) recorded in {}{}",
            rows.len() - unrecorded.min(rows.len()),
            results_label(&args),
            if unrecorded > 0 {
                format!(", {unrecorded} could not be")
            } else {
                String::new()
            }
        );
    }

    if total > 1 {
        print_summary(&rows);
        write_summary(&settings.out, &rows)?;
    } else if let Some((_, Ok(report))) = rows.first() {
        println!("{}: {}", report::verdict_label(report.verdict), report.summary);
        for step in &report.steps {
            println!(
                "  {:>6}  {:<8} {}",
                step.grade.step,
                report::status_label(step.grade.status),
                step.text
            );
        }
        for defect in &report.defects {
            println!(
                "  {} defect at step {} ({:?}): the page says \"{}\", the console shows \"{}\"",
                defect.confidence.label(),
                defect.step,
                defect.kind,
                defect.documented,
                defect.observed
            );
        }
        if let Some(html) = &last_html {
            println!("report: {}", html.display());
        }
    }
    let errors = rows.iter().filter(|(_, r)| r.is_err()).count();
    let failed = rows
        .iter()
        .filter(|(_, r)| matches!(r, Ok(report) if report.verdict != Verdict::Pass))
        .count();
    if errors == total
        && let Some((_, Err(e))) = rows.first()
    {
        bail!("{e}");
    }
    Ok(if errors > 0 || failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn results_label(args: &VerifyArgs) -> String {
    args.db.as_ref().map(DbUrl::describe).unwrap_or_default()
}

fn print_summary(rows: &[(String, Result<Report, String>)]) {
    println!(
        "{:<60} {:<20} {:>6} {:>8}  summary",
        "page", "verdict", "steps", "defects"
    );
    for (source, result) in rows {
        match result {
            Ok(r) => println!(
                "{:<60} {:<20} {:>6} {:>8}  {}",
                source,
                report::verdict_label(r.verdict),
                r.steps.len(),
                r.defects.len(),
                r.summary
            ),
            Err(e) => println!("{source:<60} {:<20} {:>6} {:>8}  {e}", "ERROR", "-", "-"),
        }
    }
    let passed = rows
        .iter()
        .filter(|(_, r)| matches!(r, Ok(x) if x.verdict == Verdict::Pass))
        .count();
    println!("{passed}/{} pages passed", rows.len());
}

/// Writes the page's suggested correction beside its report, saying what it did.
pub(crate) fn suggest_fix(report: &Report, source: &str, dir: &std::path::Path) {
    match report::fix::write(report, std::path::Path::new(source), dir) {
        Ok(report::fix::Suggested::Written { path, unplaced }) => {
            eprintln!("    suggested correction: {}", path.display());
            for why in unplaced {
                eprintln!("      not placed: {why}");
            }
        }
        Ok(report::fix::Suggested::Nothing(why)) => eprintln!("    no suggested correction: {why}"),
        Err(e) => eprintln!("    the suggested correction could not be written: {e:#}"),
    }
}

fn write_summary(out: &std::path::Path, rows: &[(String, Result<Report, String>)]) -> anyhow::Result<()> {
    let summary: Vec<serde_json::Value> = rows
        .iter()
        .map(|(source, result)| match result {
            Ok(r) => serde_json::json!({
                "page": source, "verdict": r.verdict, "summary": r.summary,
                "defects": r.defects, "durationMs": r.duration_ms,
            }),
            Err(e) => serde_json::json!({"page": source, "error": e}),
        })
        .collect();
    std::fs::create_dir_all(out)?;
    let path = out.join("summary.json");
    std::fs::write(&path, serde_json::to_string_pretty(&summary)?)
        .with_context(|| format!("writing {}", path.display()))?;
    println!("summary: {}", path.display());
    Ok(())
}
