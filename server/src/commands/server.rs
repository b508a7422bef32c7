//! `aca server`: the platform service (queue, workers, schedules, results, dashboard), the
//! companion server for real accounts (the one `aca console` serves beside the emulator, for the
//! accounts of a file), and the making of its users.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use aca_platform::{Db, DbUrl, Queue, UserRows, now_ms};
use aca_service::Users;
use aca_service::accounts::FileAccounts;
use anyhow::{Context, anyhow, bail};
use clap::{Args, Subcommand};

use super::run_options::RunOptions;
use crate::commands::console::{UsersCommand, create_user};
use crate::platform::api::Platform;
use crate::platform::auth::DatabaseUsers;
use crate::platform::uploads::Uploads;
use crate::platform::workers::{Sandbox, Until, Workers};
use crate::platform::{self, blocking};
use crate::verify::target::ConsoleTarget;

/// The platform service: verify whole documentation trees from a queue, on a schedule, with every
/// run kept in a results database; and the companion API for real Alibaba Cloud accounts.
///
/// Jobs (pages of a folder, a list of URLs or a sitemap) are queued through the API, by priority;
/// --workers of them run at once, each in its own sandbox (its own headless Chromium and a fresh
/// account of the console the run options name, the bundled emulator by default, or an account
/// leased from --pool), or each as a
/// Kubernetes Job (--kubernetes). A run ending in environment_failure is tried again with its cause
/// kept. Every run, step verdict, defect, token and cost goes to --db: SQLite by default, PostgreSQL
/// for several servers sharing one queue. A server restarted under the same --name takes back the
/// runs it held; one that died leaves them to the others when its claim runs out. Nothing is
/// counted twice.
///
/// Platform API (reading is open; queueing, cancelling and schedules need the admin token as
/// `Authorization: Bearer`; re-runs and marking defects as known need a user's token, or a dashboard
/// session):
///   POST /v1/jobs {"tree", "sources": [folder | page | sitemap URL], "priority"?, "max_attempts"?}
///   GET /v1/jobs?state=queued|running|done|failed|cancelled   GET|DELETE /v1/jobs/{id}
///   GET /v1/results/runs?tree=   GET /v1/results/runs/{id}   GET /v1/results/history?page=
///   GET /v1/results/defects   POST /v1/results/defects/known {"page", "kind", "step", "documented"}
///   POST /v1/jobs/{id}/rerun   GET /v1/results/export/junit|csv?tree=
///   GET /v1/schedules   PUT|DELETE /v1/schedules/{tree} {"cron": "0 3 * * *", "sources": [...]}
///   POST|GET|DELETE /v1/session {"token"}   (the dashboard's sign-in: a user's token for a cookie)
///   PUT /v1/uploads/{job}/{attempt}/{path}   (a Kubernetes run's screenshots, with its own token)
///   GET /metrics   (queue depth, runs by verdict, durations, tokens, cost)
///
/// Companion API (--accounts): users have their own tokens and run in the accounts assigned to
/// them; the reward service reads each account's ActionTrail with credentials only this server
/// holds. The browser extension, RL rollouts and the benchmark call it (`/v1/…`, described at
/// /v1/openapi.json); none of them ever holds an AccessKey. The accounts are listed in a TOML file;
/// each AccessKey file must be readable by its owner only:
///   [[account]]
///   id = "1234567890123456"
///   login = "docs-qa@1234567890123456.onaliyun.com"
///   console = "https://home.console.aliyun.com"
///   credentials = "keys/docs-qa.json"        # {"accessKeyId": …, "accessKeySecret": …}
///   # endpoint_override = "http://127.0.0.1:8080"   # every API at one address
///   # browser_profile = "profiles/docs-qa"   # logged on once; lets --run-accounts run pages in it
///
/// Users (names, token digests, their accounts) are kept in --db, so a restart keeps them and every
/// server on one database knows them all; the admin makes them with `aca server users create`, with or without --accounts. A user signs in to
/// the dashboard with their token and gets a cookie its scripts cannot read; the admin token cannot
/// sign in there, so it never reaches a browser.
/// Resources a page needs are not provisioned in these accounts: prepare them beforehand.
///
/// Examples:
///   ACA_ADMIN_TOKEN=secret aca server --workers 2                      # SQLite, bundled console
///   curl -H 'Authorization: Bearer secret' -d '{"tree":"vpc","sources":["docs/vpc"]}' \
///       -H 'content-type: application/json' http://127.0.0.1:8090/v1/jobs
///   aca server --db postgres://aca@db/results --name node-b --workers 4
///   aca server --kubernetes deploy/kubernetes/job-template.toml --workers 20
///   ACA_ADMIN_TOKEN=secret aca server --listen 127.0.0.1:8090 --accounts accounts.toml --workers 0
///   aca server users create --admin-token secret --name alice \
///       --account 1234567890123456
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, verbatim_doc_comment)]
pub struct ServerArgs {
    #[command(subcommand)]
    action: Option<ServerCommand>,
    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(Debug, Subcommand)]
enum ServerCommand {
    /// Manage the users of a running server (through its admin API).
    #[command(subcommand)]
    Users(UsersCommand),
}

#[derive(Debug, Args)]
struct ServeArgs {
    /// Address to listen on (port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8090")]
    listen: SocketAddr,
    /// The accounts file (TOML, see above) the companion API serves; without it only the
    /// platform API (jobs, results, schedules, metrics) is served.
    #[arg(long)]
    accounts: Option<PathBuf>,
    /// Token for the admin API (making users, queueing and cancelling jobs, schedules); without it
    /// nothing but re-runs and marking defects as known can be asked. It never signs in to the
    /// dashboard: users do, with their own tokens.
    #[arg(long, env = "ACA_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: Option<String>,
    /// The results database: the job queue, every run and its defects, the schedules
    /// (sqlite:FILE, or postgres://user@host/db for several servers sharing one).
    #[arg(
        long,
        value_name = "URL",
        env = "ACA_DB",
        hide_env_values = true,
        default_value = "sqlite:out/server/results.db"
    )]
    db: DbUrl,
    /// Run each page in an account leased from this pool (`aca accounts add --emulator …`) instead
    /// of a fresh account of the bundled console; the account is cleaned after the page, or
    /// quarantined when it cannot be. A page that finds every account leased ends in
    /// environment_failure and is tried again later.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["console", "run_accounts"], requires = "pool_admin_token")]
    pool: Option<PathBuf>,
    /// The pool's emulator admin token, to read each leased account's console logon.
    #[arg(long, env = "ACA_POOL_ADMIN_TOKEN", hide_env_values = true)]
    pool_admin_token: Option<String>,
    /// How long a pool lease holds before the account comes back by itself.
    #[arg(long, default_value_t = 3600, requires = "pool")]
    pool_lease_timeout_s: u64,
    /// Pages this server verifies at once, each in its own sandbox (its own Chromium and a fresh
    /// account, or one of --pool); 0 serves the API only and leaves the queue to other servers'
    /// workers.
    #[arg(long, default_value_t = 1)]
    workers: usize,
    /// This server's name among those sharing a database: its workers' claims carry it, and a
    /// restart under the same name takes its unfinished runs back at once.
    #[arg(long, default_value = "aca-server")]
    name: String,
    /// Runs a job may take when they end in environment_failure.
    #[arg(long, default_value_t = 3)]
    attempts: i64,
    /// How long a worker's claim on a job holds without renewal; a server that died leaves its jobs
    /// to others after this.
    #[arg(long, default_value_t = 60)]
    lease_s: u64,
    /// Pause before a run that ended in environment_failure is tried again (times its attempt).
    #[arg(long, default_value_t = 30)]
    retry_pause_s: u64,
    /// Where the workers write their reports.
    #[arg(long, default_value = "out/server/reports")]
    out: PathBuf,
    /// Run each page as a Kubernetes Job made from this template (TOML: namespace, runner image,
    /// resources, deadline, TTL, the Secret holding the runner's credentials; see
    /// deploy/kubernetes/job-template.toml) instead of in this process. The cluster is the one of
    /// the in-cluster service account or of KUBECONFIG.
    #[cfg(feature = "kubernetes")]
    #[arg(long, value_name = "TEMPLATE")]
    kubernetes: Option<PathBuf>,
    /// The address runner pods reach this very server at (in Kubernetes, its pod's IP:
    /// http://$(POD_IP):8090): each pod sends its run's screenshots back there, with a token good
    /// for that run only. Without it only the report comes back, through the pod's log.
    #[cfg(feature = "kubernetes")]
    #[arg(long, value_name = "URL", requires = "kubernetes")]
    runner_upload_url: Option<String>,
    /// The built dashboard served at / (default: ACA_WWW_DIR, then the build folder that
    /// scripts/build-www writes).
    #[arg(long, value_name = "DIR")]
    www: Option<PathBuf>,
    #[command(flatten)]
    run: RunOptions,
}

pub async fn run(args: ServerArgs) -> anyhow::Result<ExitCode> {
    match args.action {
        Some(ServerCommand::Users(UsersCommand::Create { admin, name, accounts })) => {
            create_user(&admin.or_url("http://127.0.0.1:8090"), &name, &accounts).await
        }
        None => serve(args.serve).await,
    }
}

async fn serve(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let url = args.db.clone();
    let db = Arc::new(
        blocking(move || Db::open(&url))
            .await
            .with_context(|| format!("opening the results database {}", args.db.describe()))?,
    );
    let mut queue = Queue::new(db);
    queue.lease_ms = (args.lease_s.max(1) * 1000) as i64;
    queue.retry_pause_ms = (args.retry_pause_s * 1000) as i64;
    let name = args.name.clone();
    let taken_back = {
        let (queue, prefix) = (queue.clone(), format!("{name}/"));
        blocking(move || queue.recover(Some(&prefix), now_ms())).await?
    };
    let users = {
        let (rows, admin_token) = (UserRows::new(queue.db().clone()), args.admin_token.clone());
        tokio::task::spawn_blocking(move || Users::kept_in(Box::new(DatabaseUsers(rows)), admin_token.as_deref()))
            .await?
            .map_err(|e| anyhow!(e))
            .context("reading the users from the results database")?
    };
    let known = users.list().len();
    let judges = match &args.run.judges {
        Some(path) => Some(aca_service::judges::load(path).map_err(|e| anyhow!(e))?),
        None => None,
    };
    let (companion, companion_line) = match args.accounts.as_deref() {
        Some(list) => {
            let accounts = FileAccounts::load(list).map_err(|e| anyhow!(e))?;
            let companion = aca_service::Companion::with_users(accounts.clone(), users);
            if let Some(judges) = &judges {
                companion.set_judges(judges.clone()).map_err(|e| anyhow!(e))?;
            }
            let line = format!("accounts {} ({})", accounts.ids().join(", "), list.display());
            (companion, line)
        }
        None => (
            aca_service::Companion::with_users(Arc::new(aca_service::NoAccounts), users),
            "off (no --accounts)".to_owned(),
        ),
    };
    let tokens = {
        let db = queue.db().clone();
        blocking(move || aca_platform::UploadTokens::open(&db)).await?
    };
    let uploads = Uploads {
        tokens: tokens.clone(),
        out: args.out.clone(),
    };
    let platform = Platform::new(queue.clone(), companion.users(), Some(uploads), args.attempts);

    let mut app = platform::api::routes(platform.clone());
    let www = args.www.clone().unwrap_or_else(platform::dashboard::default_dir);
    let dashboard_line = match platform::dashboard::routes(&www) {
        Ok(files) => {
            app = app.merge(files);
            format!("{{url}}/ ({})", www.display())
        }
        Err(why) => format!("off: {why}"),
    };
    app = app.merge(if args.accounts.is_some() {
        aca_service::routes(companion)
    } else {
        aca_service::user_routes(companion)
    });

    #[cfg(feature = "kubernetes")]
    let kubernetes = match &args.kubernetes {
        Some(template) => {
            let runner = kubernetes_runner(template, &queue).await?;
            Some(match &args.runner_upload_url {
                Some(url) => runner.with_uploads(url, tokens.clone()),
                None => runner,
            })
        }
        None => None,
    };
    #[cfg(feature = "kubernetes")]
    let in_kubernetes = kubernetes.is_some();
    #[cfg(not(feature = "kubernetes"))]
    let in_kubernetes = false;
    let target = if args.workers > 0 && !in_kubernetes {
        let target = match (&args.pool, &args.pool_admin_token) {
            (Some(pool), Some(token)) => {
                ConsoleTarget::pooled(pool, Duration::from_secs(args.pool_lease_timeout_s), token.clone())?
            }
            _ => args.run.target().await?,
        };
        if let Some(limit) = target.parallel_limit()
            && args.workers > limit
        {
            bail!(
                "--workers {} needs one account per page run at once, and {} gives {limit}: runs sharing \
                 an account would read each other's audit events (the bundled console, --pool, or more \
                 --run-accounts)",
                args.workers,
                target.url()
            );
        }
        Some(target)
    } else {
        None
    };
    let sandbox = match &target {
        Some(target) => Some(Sandbox::Local(target)),
        #[cfg(feature = "kubernetes")]
        None if args.workers > 0 => kubernetes.as_ref().map(Sandbox::Kubernetes),
        None => None,
    };
    let settings = args.run.settings(args.out.clone()).await?;

    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("cannot listen on {}", args.listen))?;
    let url = format!("http://{}", listener.local_addr()?);
    println!("aca server ready at {url}");
    println!("  results:   {}", args.db.describe());
    println!(
        "  workers:   {}{}",
        args.workers,
        sandbox
            .as_ref()
            .map(|s| format!(" on {}", s.describe()))
            .unwrap_or_default()
    );
    if taken_back > 0 {
        println!("  resumed:   {taken_back} job(s) {name} held when it stopped are queued again");
    }
    println!("  companion: {companion_line}");
    println!("  users:     {known} kept in the results database");
    println!("  dashboard: {}", dashboard_line.replace("{url}", &url));
    println!(
        "  judges:    {}",
        judges.map_or_else(
            || "none: runs no audit event decides stay unverified (--judges)".to_owned(),
            |j| j.describe()
        )
    );
    if args.admin_token.is_none() {
        println!("  no --admin-token: nothing can be queued or changed through the API");
    }
    let (stop, stopping) = tokio::sync::watch::channel(false);
    let serving = axum::serve(listener, app).with_graceful_shutdown({
        let mut stopping = stopping.clone();
        async move {
            let _ = stopping.wait_for(|s| *s).await;
        }
    });
    let working = async {
        match sandbox {
            Some(sandbox) => {
                let workers = Workers {
                    queue: queue.clone(),
                    sandbox,
                    settings: &settings,
                    name: name.clone(),
                    slots: args.workers,
                    fix_diff: false,
                    poll: Duration::from_millis(500),
                    folder_per_run: true,
                };
                let durations = platform.durations.clone();
                workers
                    .run(Until::Stopped(stopping.clone()), &mut |outcome| {
                        if let Ok(report) = &outcome.result {
                            durations.observe(report.duration_ms as f64 / 1000.0);
                        }
                    })
                    .await
            }
            None => {
                let _ = stopping.clone().wait_for(|s| *s).await;
                Ok(())
            }
        }
    };
    let scheduling = schedule_loop(platform.clone(), stopping.clone());
    let interrupted = async {
        let _ = tokio::signal::ctrl_c().await;
        eprintln!("stopping: runs in flight go back to the queue");
        let _ = stop.send(true);
    };
    let (served, worked, (), ()) = tokio::join!(serving, working, scheduling, interrupted);
    served.context("the server stopped")?;
    worked?;
    Ok(ExitCode::SUCCESS)
}

/// The Kubernetes runner of `template`, after deleting the Jobs left by runs no longer queued.
#[cfg(feature = "kubernetes")]
async fn kubernetes_runner(
    template: &std::path::Path,
    queue: &Queue,
) -> anyhow::Result<platform::kubernetes::KubernetesRunner> {
    use platform::kubernetes::{JobTemplate, KubernetesRunner};
    let template = JobTemplate::load(template).map_err(|e| anyhow!("{e}"))?;
    let client = kube::Client::try_default()
        .await
        .context("no Kubernetes cluster: neither an in-cluster service account nor a KUBECONFIG")?;
    let runner = KubernetesRunner::new(client, template).map_err(|e| anyhow!("{e}"))?;
    let live = {
        let queue = queue.clone();
        blocking(move || {
            let mut live = queue.list(Some(aca_platform::JobState::Queued), i64::MAX)?;
            live.extend(queue.list(Some(aca_platform::JobState::Running), i64::MAX)?);
            Ok(live.into_iter().map(|j| j.id).collect::<Vec<_>>())
        })
        .await?
    };
    match runner.cleanup_orphans(&live).await {
        Ok(deleted) if !deleted.is_empty() => {
            eprintln!("deleted {} Kubernetes Job(s) of runs no longer queued", deleted.len())
        }
        Ok(_) => {}
        Err(e) => eprintln!("the Jobs of earlier runs could not be cleaned up: {e}"),
    }
    Ok(runner)
}

/// Queues the trees whose schedules are due, and takes back the jobs of servers that died.
async fn schedule_loop(platform: Arc<Platform>, mut stopping: tokio::sync::watch::Receiver<bool>) {
    loop {
        let schedules = platform.schedules.clone();
        match blocking(move || schedules.take_due(now_ms())).await {
            Ok(due) => {
                for schedule in due {
                    match platform
                        .submit(
                            &schedule.tree,
                            &schedule.sources,
                            schedule.priority,
                            platform.default_attempts,
                        )
                        .await
                    {
                        Ok(submitted) => eprintln!(
                            "schedule {}: {} page(s) queued, {} already waiting",
                            schedule.tree,
                            submitted.ids.len(),
                            submitted.already_queued.len()
                        ),
                        Err(why) => eprintln!("schedule {}: nothing queued: {why}", schedule.tree),
                    }
                }
            }
            Err(e) => eprintln!("the schedules cannot be read ({e}); trying again"),
        }
        let queue = platform.queue.clone();
        if let Ok(n) = blocking(move || queue.recover(None, now_ms())).await
            && n > 0
        {
            eprintln!("{n} job(s) whose server stopped renewing its claim are queued again");
        }
        tokio::select! {
            () = tokio::time::sleep(Duration::from_secs(1)) => {}
            _ = stopping.wait_for(|s| *s) => return,
        }
    }
}
