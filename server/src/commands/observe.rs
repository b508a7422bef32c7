//! `aca observe`: open a page in headless Chromium with the page side injected and print what the
//! agent sees of it (the indexed text tree, or the observation as JSON), optionally with a marked
//! screenshot.

use std::path::PathBuf;
use std::process::ExitCode;

use aca_runner::{ObserveOptions, Runner, RunnerConfig, Session};
use anyhow::Context;
use clap::Args;

/// Print what the agent sees of a page: every element it can act on, with the index actions use.
///
/// With --login and --password it first logs on through the console's /login form (of the URL's
/// origin), as the bundled emulator requires. With --user-data-dir it runs in that browser profile,
/// so a log-on there is kept for `aca verify --user-data-dir`. --screenshot saves a PNG with the
/// set-of-marks overlay (each element's index drawn on it).
///
/// Exit status: 0 when the page was observed, 2 on an error (no Chromium, the page side not built,
/// the page did not load, the logon failed).
///
/// Example:
///   aca observe http://127.0.0.1:8080/console/vpc/vpcs --login alice@1234.onaliyun.com --password PW \
///     --screenshot vpcs.png
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct ObserveArgs {
    /// The page to observe.
    url: String,
    /// Print the observation as JSON instead of the text tree.
    #[arg(long)]
    json: bool,
    /// Save a PNG of the viewport with the element marks drawn on it.
    #[arg(long, value_name = "FILE")]
    screenshot: Option<PathBuf>,
    /// Console logon name (log on through <origin>/login first).
    #[arg(long, requires = "password")]
    login: Option<String>,
    /// Console password for --login.
    #[arg(long, requires = "login", env = "ACA_PASSWORD", hide_env_values = true)]
    password: Option<String>,
    /// Run in this browser profile (created when missing) instead of a throw-away one.
    #[arg(long, value_name = "DIR")]
    user_data_dir: Option<PathBuf>,
    /// List only the elements inside the viewport (the others are summarised).
    #[arg(long)]
    viewport_only: bool,
    /// At most this many elements are listed.
    #[arg(long, default_value_t = 400)]
    max_elements: u32,
    /// Window and viewport size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x800", value_parser = parse_size)]
    window: (u32, u32),
    /// The Chromium binary.
    #[arg(long, env = "CHROMIUM", default_value = "/usr/bin/chromium")]
    chromium: PathBuf,
    /// The built aca-dom package (aca_dom.js, aca_dom_bg.wasm); default: ACA_DOM_PKG, then
    /// $CARGO_TARGET_DIR/web/aca-dom, then ~/.cache/aliyun-console-agent/target/web/aca-dom.
    #[arg(long, value_name = "DIR")]
    page_side: Option<PathBuf>,
}

fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("expected WIDTHxHEIGHT, got {text:?}"))?;
    let parse = |n: &str| n.trim().parse::<u32>().ok().filter(|n| (100..=10_000).contains(n));
    match (parse(w), parse(h)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ => Err(format!("width and height must be 100 to 10000 pixels, got {text:?}")),
    }
}

pub async fn run(args: ObserveArgs) -> anyhow::Result<ExitCode> {
    let url = reqwest::Url::parse(&args.url).with_context(|| format!("not a URL: {}", args.url))?;
    let mut config = RunnerConfig {
        chromium: args.chromium.clone(),
        width: args.window.0,
        height: args.window.1,
        user_data_dir: args.user_data_dir.clone(),
        ..RunnerConfig::default()
    };
    if let Some(dir) = &args.page_side {
        config.page_side = dir.clone();
    }
    let runner = Runner::launch(config).await?;
    let result = observe(&runner, &args, &url).await;
    runner.close().await;
    let (text, observation) = result?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&observation)?);
    } else {
        print!("{text}");
    }
    if let Some(path) = &args.screenshot {
        eprintln!("screenshot with marks saved to {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

async fn observe(
    runner: &Runner,
    args: &ObserveArgs,
    url: &reqwest::Url,
) -> anyhow::Result<(String, aca_core::Observation)> {
    let mut session = match (&args.login, &args.password) {
        (Some(login), Some(password)) => {
            let mut login_url = url.join("/login").context("building the logon URL")?;
            login_url.query_pairs_mut().append_pair("next", url.path());
            let mut session = Session::open(runner, "about:blank").await?;
            aca_runner::logon::log_on(&mut session, login_url.as_str(), login, password)
                .await
                .context("logging on")?;
            session.goto(url.as_str()).await?;
            session
        }
        _ => Session::open(runner, url.as_str()).await?,
    };
    session.wait_settled(std::time::Duration::from_secs(5)).await?;
    let options = ObserveOptions {
        mark: false,
        max_elements: args.max_elements,
        viewport_only: args.viewport_only,
    };
    let observation = session.observe(&options).await?;
    if let Some(path) = &args.screenshot {
        session
            .screenshot(path, true)
            .await
            .with_context(|| format!("saving the screenshot to {}", path.display()))?;
    }
    Ok((observation.to_text(), observation))
}
