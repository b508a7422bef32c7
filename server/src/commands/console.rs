//! `aca console`: run the bundled console emulator, and manage a running one's accounts.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use aca_console::{Console, ConsoleConfig, Credentials, ProfileId, Serving, Store, SystemClock};
use anyhow::{Context, bail};
use clap::{Args, Subcommand};

/// Run the bundled Alibaba Cloud console emulator (console UI, signed OpenAPI, ActionTrail).
///
/// One address serves the console pages, every product's OpenAPI (routed by API version, so an
/// official SDK works when its endpoint is pointed here), the admin API with its provisioning
/// routes, and the companion API (`/v1/…`, described at /v1/openapi.json): users with their own
/// tokens, runs in the accounts assigned to them, and the reward service the browser extension
/// calls instead of reading the audit log itself. On start it prints the
/// console URL, and writes the default account's console login and AccessKey pair to
/// --credentials as JSON.
///
/// Example:
///   aca console --listen 127.0.0.1:8080 --db console.db --admin-token secret --credentials creds.json
///   aca console accounts create --url http://127.0.0.1:8080 --admin-token secret --name qa --profile 2024
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, verbatim_doc_comment)]
pub struct ConsoleArgs {
    #[command(subcommand)]
    action: Option<ConsoleCommand>,
    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(Debug, Subcommand)]
enum ConsoleCommand {
    /// Create, list or reset accounts of a running emulator (through its admin API).
    #[command(subcommand)]
    Accounts(AccountsCommand),
    /// Manage the users of a running emulator's companion API (through its admin API).
    #[command(subcommand)]
    Users(UsersCommand),
    /// Print every difference between two UI profiles as JSON: the ground truth of drift detection.
    ///
    /// Example:
    ///   aca console drift --from 2024 --to 2026
    #[command(verbatim_doc_comment)]
    Drift {
        /// The release a documentation page was written for.
        #[arg(long, value_parser = parse_profile)]
        from: ProfileId,
        /// The release the console shows now.
        #[arg(long, value_parser = parse_profile)]
        to: ProfileId,
    },
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// SQLite database file, or `memory` to keep nothing after exit.
    #[arg(long, default_value = "memory")]
    pub db: String,
    /// UI profile of the default account and of accounts created without one.
    #[arg(long, default_value = "2026", value_parser = parse_profile)]
    pub profile: ProfileId,
    /// Token for the admin API (`Authorization: Bearer TOKEN`); without it the admin API is off.
    #[arg(long, env = "ACA_ADMIN_TOKEN")]
    pub admin_token: Option<String>,
    /// Write the default account's id, console login and AccessKey pair here as JSON.
    #[arg(long)]
    pub credentials: Option<PathBuf>,
    /// Milliseconds before an event shows in LookupEvents (real ActionTrail: minutes).
    #[arg(long, default_value_t = 0)]
    pub delivery_delay_ms: i64,
    /// LookupEvents calls allowed per second per account (real ActionTrail: 2).
    #[arg(long, default_value_t = 2.0)]
    pub lookup_qps: f64,
    /// Milliseconds an asynchronous state (Starting, Stopping, Pending…) lasts.
    #[arg(long, default_value_t = 2000)]
    pub transition_delay_ms: i64,
    /// Two LLM judges for the companion's reward service (a TOML file, see `aca server --help`):
    /// runs of pages no audit event decides are decided by them.
    #[arg(long, value_name = "FILE", env = "ACA_JUDGES")]
    pub judges: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum AccountsCommand {
    /// Create an isolated account; prints its credentials as JSON.
    Create {
        #[command(flatten)]
        admin: AdminArgs,
        /// Account name (letters, digits, '-', '_'); also the console login's prefix.
        #[arg(long, default_value = "tester")]
        name: String,
        /// UI profile for the account.
        #[arg(long, value_parser = parse_profile)]
        profile: Option<ProfileId>,
    },
    /// List accounts as JSON.
    List {
        #[command(flatten)]
        admin: AdminArgs,
    },
    /// Remove every resource and event of an account (keeps its login and root AccessKey).
    Reset {
        #[command(flatten)]
        admin: AdminArgs,
        /// The account id (16 digits).
        account_id: String,
        /// Switch the account to this UI profile as well.
        #[arg(long, value_parser = parse_profile)]
        profile: Option<ProfileId>,
    },
}

/// The users of a companion API (`aca console`'s or `aca server`'s), through its admin API.
#[derive(Debug, Subcommand)]
pub enum UsersCommand {
    /// Make a user: their token (printed once) lets the browser extension run in the accounts
    /// given, and nothing else.
    ///
    /// Example:
    ///   aca console users create --admin-token secret --name alice --account 1234567890123456
    #[command(verbatim_doc_comment)]
    Create {
        #[command(flatten)]
        admin: AdminArgs,
        /// User name (letters, digits, '.', '-', '_').
        #[arg(long)]
        name: String,
        /// An account id the user may run in (repeat for several).
        #[arg(long = "account", value_name = "ACCOUNT_ID")]
        accounts: Vec<String>,
    },
}

/// Where a running server's admin API is (`aca console`'s, or `aca server`'s).
#[derive(Debug, Args)]
pub struct AdminArgs {
    /// The running server's URL (default: http://127.0.0.1:8080 for `aca console`,
    /// http://127.0.0.1:8090 for `aca server`: where each listens by default).
    #[arg(long)]
    url: Option<String>,
    /// Its admin token.
    #[arg(long, env = "ACA_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: String,
}

impl AdminArgs {
    /// `--url`, else `default` (each server's own default address).
    pub fn or_url(mut self, default: &str) -> Self {
        self.url.get_or_insert_with(|| default.to_owned());
        self
    }

    /// The server's URL without a trailing slash (`aca console`'s default when none was given).
    fn base(&self) -> &str {
        self.url
            .as_deref()
            .unwrap_or("http://127.0.0.1:8080")
            .trim_end_matches('/')
    }
}

fn parse_profile(s: &str) -> Result<ProfileId, String> {
    s.parse().map_err(|e: aca_console::ConsoleError| e.to_string())
}

pub async fn run(args: ConsoleArgs) -> anyhow::Result<ExitCode> {
    match args.action {
        None => serve(args.serve).await,
        Some(ConsoleCommand::Accounts(cmd)) => accounts(cmd).await,
        Some(ConsoleCommand::Users(UsersCommand::Create { admin, name, accounts })) => {
            create_user(&admin, &name, &accounts).await
        }
        Some(ConsoleCommand::Drift { from, to }) => {
            let differences = aca_console::profile::drift(from, to);
            println!("{}", serde_json::to_string_pretty(&differences)?);
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Makes a user of a running companion API and prints their token (shown this once).
pub async fn create_user(admin: &AdminArgs, name: &str, accounts: &[String]) -> anyhow::Result<ExitCode> {
    let body = serde_json::json!({ "name": name, "accounts": accounts });
    let url = format!("{}/admin/users", admin.base());
    let request = reqwest::Client::new().post(url).json(&body);
    print_admin_answer(request, admin).await
}

/// An emulator started in this process: its address and default account.
pub struct Started {
    pub url: String,
    pub credentials: Credentials,
    pub server: Serving,
}

/// Opens the store, makes sure a default account exists, binds and starts serving in the background.
pub async fn start(args: &ServeArgs) -> anyhow::Result<Started> {
    let store = if args.db == "memory" {
        Store::in_memory()
    } else {
        Store::open(std::path::Path::new(&args.db))?
    };
    let config = ConsoleConfig {
        delivery_delay_ms: args.delivery_delay_ms,
        lookup_qps: args.lookup_qps,
        transition_delay_ms: args.transition_delay_ms,
        default_profile: args.profile,
        admin_token: args.admin_token.clone(),
        ..ConsoleConfig::default()
    };
    if args.lookup_qps <= 0.0 {
        bail!("--lookup-qps must be positive");
    }
    let console = Arc::new(Console::new(config, store, Arc::new(SystemClock)));
    let default = console
        .account_summaries()
        .into_iter()
        .find(|a| a.account_name == "default");
    let credentials = match default {
        Some(a) => console.credentials(&a.account_id)?,
        None => console.create_account("default", Some(args.profile))?,
    };
    // Beside the console: the admin provisioning API, and the companion API (users, their runs,
    // the reward service) that the browser extension and RL rollouts call with a user token.
    // A console kept in a file keeps its companion users there too.
    let users = (args.db != "memory").then(|| std::path::Path::new(&args.db));
    let judges = match &args.judges {
        Some(path) => Some(aca_service::judges::load(path).map_err(|e| anyhow::anyhow!(e))?),
        None => None,
    };
    let (server, companion) = aca_service::emulator::serve_with_users(console, args.listen, users)
        .await
        .with_context(|| format!("cannot listen on {}", args.listen))?;
    if let Some(judges) = judges {
        companion.set_judges(judges).map_err(|e| anyhow::anyhow!(e))?;
    }
    Ok(Started {
        url: server.url.clone(),
        credentials,
        server,
    })
}

async fn serve(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let started = start(&args).await?;
    if let Some(path) = &args.credentials {
        let json = serde_json::to_string_pretty(&started.credentials)?;
        aca_openapi::private_file::write(path, (json + "\n").as_bytes())
            .with_context(|| format!("writing credentials to {}", path.display()))?;
    }
    println!("console emulator ready at {}", started.url);
    println!(
        "  console:  {}/console  (login {})",
        started.url, started.credentials.login
    );
    println!("  OpenAPI:  {}/  (point an SDK's endpoint here)", started.url);
    if args.db == "memory" {
        println!("  database: in memory (nothing is kept after exit)");
    } else {
        println!("  database: {}", args.db);
    }
    tokio::select! {
        result = started.server.wait() => {
            result.context("the server stopped")?;
        }
        _ = tokio::signal::ctrl_c() => {
            eprintln!("stopping");
        }
    }
    Ok(ExitCode::SUCCESS)
}

async fn accounts(cmd: AccountsCommand) -> anyhow::Result<ExitCode> {
    let http = reqwest::Client::new();
    let (request, admin) = match &cmd {
        AccountsCommand::Create { admin, name, profile } => {
            let body = serde_json::json!({ "name": name, "profile": profile });
            (http.post(format!("{}/admin/accounts", admin.base())).json(&body), admin)
        }
        AccountsCommand::List { admin } => (http.get(format!("{}/admin/accounts", admin.base())), admin),
        AccountsCommand::Reset {
            admin,
            account_id,
            profile,
        } => {
            let body = serde_json::json!({ "profile": profile });
            let url = format!("{}/admin/accounts/{account_id}/reset", admin.base());
            (http.post(url).json(&body), admin)
        }
    };
    print_admin_answer(request, admin).await
}

/// Sends an admin API request and prints its JSON answer.
async fn print_admin_answer(request: reqwest::RequestBuilder, admin: &AdminArgs) -> anyhow::Result<ExitCode> {
    let response = request.bearer_auth(&admin.admin_token).send().await.with_context(|| {
        format!(
            "cannot reach the server at {} (is `aca console` or `aca server` running?)",
            admin.base()
        )
    })?;
    let status = response.status();
    let body: serde_json::Value = response
        .json()
        .await
        .context("the admin API answered with something other than JSON")?;
    if !status.is_success() {
        let message = body.get("Message").and_then(|m| m.as_str()).unwrap_or("");
        bail!("admin API refused ({status}): {message}");
    }
    println!("{}", serde_json::to_string_pretty(&body)?);
    Ok(ExitCode::SUCCESS)
}
