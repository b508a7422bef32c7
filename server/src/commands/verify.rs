//! `aca verify`: execute documentation pages in a console and report, step by step, whether each
//! page still matches it.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use aca_agent::{LlmConfig, Pricing};
use aca_chat::{ChatClient, ChatConfig, Price};
use aca_console::profile::ProfileId;
use aca_core::{Report, Verdict};
use aca_runner::RunnerConfig;
use anyhow::{Context, bail};
use clap::{Args, ValueEnum};

use crate::report;
use crate::verify::drive::Capture;
use crate::verify::page;
use crate::verify::target::{ConsoleTarget, RemoteLogin};
use crate::verify::{PolicyChoice, Settings, verify_page};

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
/// and a table are written.
///
/// Exit status: 0 when every page passed, 1 when any page did not, 2 on an error.
///
/// Examples:
///   aca verify tests/corpus/vpc/create-vpc.md
///   aca verify --all tests/corpus --out out/verify
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
    /// Verify every .md/.html page under the folder(s) given.
    #[arg(long)]
    all: bool,
    /// Where reports are written.
    #[arg(long, default_value = "out/verify")]
    out: PathBuf,
    /// A console to run in instead of the bundled emulator (its origin, e.g. http://127.0.0.1:8080).
    #[arg(long, value_name = "URL")]
    console: Option<String>,
    /// A browser profile already logged on to --console (log on in it once, as a person would):
    /// the run uses that session and types no password.
    #[arg(long, value_name = "DIR", requires = "console", conflicts_with_all = ["login", "password"])]
    user_data_dir: Option<PathBuf>,
    /// Console logon name for --console, for a console whose log-on form the run fills itself (the
    /// emulator's); a real account uses --user-data-dir.
    #[arg(long, env = "ACA_LOGIN", requires = "console")]
    login: Option<String>,
    /// Console password for --login.
    #[arg(long, env = "ACA_PASSWORD", hide_env_values = true, requires = "login")]
    password: Option<String>,
    /// The account's AccessKey pair as JSON (`{"accessKeyId": …, "accessKeySecret": …}`), for
    /// reading its audit log and provisioning; instead of the two variables below.
    #[arg(long, value_name = "FILE", requires = "console", conflicts_with_all = ["access_key_id", "access_key_secret"])]
    credentials: Option<PathBuf>,
    /// AccessKey ID for --console.
    #[arg(long, env = "ALIBABA_CLOUD_ACCESS_KEY_ID", requires = "console")]
    access_key_id: Option<String>,
    /// AccessKey secret for --console.
    #[arg(
        long,
        env = "ALIBABA_CLOUD_ACCESS_KEY_SECRET",
        hide_env_values = true,
        requires = "console"
    )]
    access_key_secret: Option<String>,
    /// The account id of --console (events of other accounts are ignored).
    #[arg(long, requires = "console")]
    account_id: Option<String>,
    /// Send every OpenAPI call of --console (ActionTrail's included) to this address, e.g. an
    /// emulator started separately; without it each product's real endpoint for the region is used
    /// (ecs-cn-hangzhou.aliyuncs.com, actiontrail.cn-hangzhou.aliyuncs.com, …).
    #[arg(long, value_name = "URL", requires = "console")]
    endpoint_override: Option<String>,
    /// Run each page in an account leased from this pool (`aca accounts add --emulator …`); the
    /// account is cleaned after the page, or quarantined when it cannot be.
    #[arg(long, value_name = "FILE", conflicts_with = "console", requires = "admin_token")]
    pool: Option<PathBuf>,
    /// The pool's emulator admin token, to read each leased account's console logon.
    #[arg(long, env = "ACA_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: Option<String>,
    /// How long a pool lease holds before the account comes back by itself.
    #[arg(long, default_value_t = 3600, requires = "pool")]
    lease_timeout_s: u64,
    /// UI profile of the bundled console (default: the one each page was written for, else 2026).
    #[arg(long, value_parser = parse_profile)]
    profile: Option<ProfileId>,
    /// Who chooses the actions: the scripted policy (no model) or a model.
    #[arg(long, value_enum, default_value_t = PolicyArg::Scripted)]
    policy: PolicyArg,
    /// OpenAI-compatible API base for --policy llm, e.g. http://127.0.0.1:8000/v1.
    #[arg(long, env = "ACA_MODEL_URL")]
    model_url: Option<String>,
    /// Model name for --policy llm.
    #[arg(long, env = "ACA_MODEL", default_value = "qwen3")]
    model: String,
    /// API key for the model endpoint.
    #[arg(long, env = "ACA_MODEL_API_KEY", hide_env_values = true)]
    api_key: Option<String>,
    /// Model price in USD per million input tokens (for the report's cost).
    #[arg(long, default_value_t = 0.0)]
    price_input: f64,
    /// Model price in USD per million output tokens.
    #[arg(long, default_value_t = 0.0)]
    price_output: f64,
    /// Seconds to wait for one model reply.
    #[arg(long, default_value_t = 120)]
    model_timeout: u64,
    /// Most actions one page may take.
    #[arg(long, default_value_t = 40)]
    max_turns: u32,
    /// Seconds to wait for the audit events (default: the bundled console's delivery delay plus 3, 12 minutes elsewhere).
    #[arg(long)]
    rule_deadline: Option<u64>,
    /// Two LLM judges (a TOML file: each `[[judge]]` with url, model, key_file, prices) that decide
    /// pages no audit event can: both yes → pass, both no → fail, disagreement → invalid. Without
    /// them such pages end `unverified`.
    #[arg(long, value_name = "FILE", env = "ACA_JUDGES")]
    judges: Option<PathBuf>,
    /// Do not save a screenshot after every action.
    #[arg(long)]
    no_screenshots: bool,
    /// For a local Markdown page with renamed labels, write OUT/<page>/fix.diff: the page's
    /// source with each label the console shows under another name rewritten, as a patch to review
    /// and apply.
    #[arg(long)]
    fix_diff: bool,
    /// The Chromium binary.
    #[arg(long, env = "CHROMIUM", default_value = "/usr/bin/chromium")]
    chromium: PathBuf,
    /// The built aca-dom package (default: ACA_DOM_PKG, then the build folder).
    #[arg(long, value_name = "DIR")]
    page_side: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum PolicyArg {
    Scripted,
    Llm,
}

fn parse_profile(text: &str) -> Result<ProfileId, String> {
    text.parse().map_err(|e| format!("{e}"))
}

pub async fn run(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let mut sources: Vec<String> = Vec::new();
    for given in &args.pages {
        if args.all {
            sources.extend(
                page::pages_in(std::path::Path::new(given))?
                    .iter()
                    .map(|p| p.display().to_string()),
            );
        } else {
            if std::path::Path::new(given).is_dir() {
                bail!("{given} is a folder: pass --all to verify every page in it");
            }
            sources.push(given.clone());
        }
    }
    // Sidecars and saved rules sit beside pages with their own extensions; only pages are run.
    sources.retain(|s| !s.ends_with(".task.toml") && !s.ends_with(".rule.json"));

    let settings = settings(&args)?;
    let target = match (&args.console, &args.pool) {
        (None, Some(pool)) => ConsoleTarget::Pooled {
            pool: aca_provision::pool::AccountPool::open(pool, Duration::from_secs(args.lease_timeout_s))
                .with_context(|| format!("cannot open the account pool {}", pool.display()))?,
            label: format!("the account pool {}", pool.display()),
            admin_token: args.admin_token.clone().context("--pool needs --admin-token")?,
        },
        (None, None) => ConsoleTarget::bundled().await?,
        (Some(url), _) => {
            let key = match &args.credentials {
                Some(path) => aca_openapi::AccessKeyPair::from_file(path)?,
                None => aca_openapi::AccessKeyPair::new(
                    args.access_key_id.clone().context(
                        "--console needs the account's AccessKey: --credentials FILE, or ALIBABA_CLOUD_ACCESS_KEY_ID and ALIBABA_CLOUD_ACCESS_KEY_SECRET",
                    )?,
                    args.access_key_secret
                        .clone()
                        .context("--console needs ALIBABA_CLOUD_ACCESS_KEY_SECRET with ALIBABA_CLOUD_ACCESS_KEY_ID")?,
                ),
            };
            if args.user_data_dir.is_none() && args.login.is_none() {
                bail!(
                    "--console needs a way into the console: --user-data-dir DIR (a browser profile logged on to it once), \
                     or --login and --password for a console whose log-on form the run may fill (the emulator's)"
                );
            }
            ConsoleTarget::Remote {
                url: url.trim_end_matches('/').to_owned(),
                login: RemoteLogin {
                    account_id: args.account_id.clone(),
                    endpoint_override: args
                        .endpoint_override
                        .as_deref()
                        .map(aca_openapi::Endpoints::pointed_at)
                        .transpose()
                        .context("--endpoint-override")?,
                    login: args.login.clone().unwrap_or_default(),
                    password: args.password.clone().unwrap_or_default(),
                    access_key_id: key.access_key_id,
                    access_key_secret: key.access_key_secret,
                },
            }
        }
    };
    eprintln!("console: {}", target.url());

    let total = sources.len();
    let mut rows: Vec<(String, Result<Report, String>)> = Vec::new();
    let mut last_html: Option<PathBuf> = None;
    for (i, source) in sources.iter().enumerate() {
        let label = format!("[{}/{total}] {source}", i + 1);
        eprintln!("{label}");
        let result = match page::load(source).await {
            Err(e) => Err(format!("{e:#}")),
            Ok(input) => {
                let progress = |line: &str| {
                    eprintln!("    {line}");
                    let _ = std::io::stderr().flush();
                };
                match verify_page(&target, &input, &settings, &progress).await {
                    Ok(report) => {
                        let dir = settings.out.join(&input.slug);
                        match report::write(&report, &dir) {
                            Ok(html) => {
                                eprintln!(
                                    "    {} — {} ({})",
                                    report::verdict_label(report.verdict),
                                    report.summary,
                                    html.display()
                                );
                                if args.fix_diff && report.verdict == Verdict::DocDefect {
                                    suggest_fix(&report, source, &dir);
                                }
                                last_html = Some(html);
                                Ok(report)
                            }
                            Err(e) => Err(format!("{e:#}")),
                        }
                    }
                    Err(e) => Err(format!("{e:#}")),
                }
            }
        };
        if let Err(e) = &result {
            eprintln!("    ERROR — {e}");
        }
        rows.push((source.clone(), result));
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

fn settings(args: &VerifyArgs) -> anyhow::Result<Settings> {
    let price = Price {
        input_per_mtok: args.price_input,
        output_per_mtok: args.price_output,
    };
    let (policy, model) = match args.policy {
        PolicyArg::Scripted => (PolicyChoice::Scripted, None),
        PolicyArg::Llm => {
            let url = args.model_url.clone().context(
                "--policy llm needs --model-url (an OpenAI-compatible API base such as http://127.0.0.1:8000/v1)",
            )?;
            let mut config = ChatConfig::new(url, args.model.clone());
            config.api_key = args.api_key.clone();
            config.timeout = Duration::from_secs(args.model_timeout);
            config.price = Some(price);
            let llm = LlmConfig {
                model: args.model.clone(),
                pricing: Pricing {
                    input_per_million: args.price_input,
                    output_per_million: args.price_output,
                },
                ..LlmConfig::default()
            };
            (PolicyChoice::Llm(llm), Some(ChatClient::new(config)?))
        }
    };
    let mut runner = RunnerConfig {
        chromium: args.chromium.clone(),
        user_data_dir: args.user_data_dir.clone(),
        ..RunnerConfig::default()
    };
    if let Some(dir) = &args.page_side {
        runner.page_side = dir.clone();
    }
    Ok(Settings {
        policy,
        model,
        profile: args.profile,
        out: args.out.clone(),
        capture: if args.no_screenshots {
            Capture::None
        } else {
            Capture::EveryAction
        },
        max_turns: args.max_turns,
        rule_deadline: args.rule_deadline.map(Duration::from_secs),
        runner,
        runtime_provisioning: true,
        judges: match &args.judges {
            Some(path) => Some(std::sync::Arc::new(
                aca_service::judges::load(path).map_err(|e| anyhow::anyhow!(e))?,
            )),
            None => None,
        },
        recordings: None,
    })
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
fn suggest_fix(report: &Report, source: &str, dir: &std::path::Path) {
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
