//! `aca server`: the companion server for real accounts (the one `aca console` serves beside the
//! emulator, for the accounts of a file), and the making of its users.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use aca_service::Users;
use aca_service::accounts::FileAccounts;
use anyhow::{Context, anyhow};
use clap::{Args, Subcommand};

use crate::commands::console::{UsersCommand, create_user};

/// Serve the companion API (users, runs, the reward service) for real Alibaba Cloud accounts.
///
/// Users have their own tokens and run in the accounts assigned to them; the reward service reads
/// each account's ActionTrail with credentials only this server holds. The browser extension, RL
/// rollouts and the benchmark call it (`/v1/…`, described at /v1/openapi.json); none of them ever
/// holds an AccessKey.
///
/// The accounts are listed in --accounts, a TOML file; each AccessKey file must be readable by its
/// owner only:
///   [[account]]
///   id = "1234567890123456"
///   login = "docs-qa@1234567890123456.onaliyun.com"
///   console = "https://home.console.aliyun.com"
///   credentials = "keys/docs-qa.json"        # {"accessKeyId": …, "accessKeySecret": …}
///   # endpoint_override = "http://127.0.0.1:8080"   # every API at one address
///
/// Users (names, token digests, their accounts) are kept in --users, so a restart keeps them.
/// Resources a page needs are not provisioned in these accounts: prepare them beforehand.
///
/// Examples:
///   ACA_ADMIN_TOKEN=secret aca server --listen 127.0.0.1:8090 --accounts accounts.toml
///   aca server users create --url http://127.0.0.1:8090 --admin-token secret --name alice \
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
    /// The accounts file (TOML, see above).
    #[arg(long)]
    accounts: Option<PathBuf>,
    /// The SQLite file the users are kept in (created readable by its owner only).
    #[arg(long, default_value = "out/server/users.db")]
    users: PathBuf,
    /// Token for the admin API (making users); without it nobody can make users.
    #[arg(long, env = "ACA_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: Option<String>,
    /// Two LLM judges for the reward service, in a TOML file; runs of pages no audit event
    /// decides are decided by them (both yes → 1, both no → 0, disagreement → −1, invalid):
    ///
    ///   [[judge]]
    ///   url = "https://dashscope.aliyuncs.com/compatible-mode/v1"
    ///   model = "qwen-max"
    ///   key_file = "keys/judge-a.key"   # the API key alone, mode 0600
    ///   input_per_mtok = 2.4            # USD per million tokens
    ///   output_per_mtok = 9.6
    ///   [[judge]]
    ///   url = "http://127.0.0.1:8000/v1"
    ///   model = "qwen3-vl-32b"
    #[arg(long, value_name = "FILE", env = "ACA_JUDGES", verbatim_doc_comment)]
    judges: Option<PathBuf>,
}

pub async fn run(args: ServerArgs) -> anyhow::Result<ExitCode> {
    match args.action {
        Some(ServerCommand::Users(UsersCommand::Create { admin, name, accounts })) => {
            create_user(&admin, &name, &accounts).await
        }
        None => serve(args.serve).await,
    }
}

async fn serve(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let list = args
        .accounts
        .as_deref()
        .ok_or_else(|| anyhow!("--accounts is needed: the file listing the accounts this server serves"))?;
    let accounts = FileAccounts::load(list).map_err(|e| anyhow!(e))?;
    if let Some(folder) = args.users.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).with_context(|| format!("creating {}", folder.display()))?;
    }
    let users = Users::open(&args.users, args.admin_token.as_deref()).map_err(|e| anyhow!(e))?;
    let known = users.list().len();
    let companion = aca_service::Companion::with_users(accounts.clone(), users);
    let judges = match &args.judges {
        Some(path) => {
            let judges = aca_service::judges::load(path).map_err(|e| anyhow!(e))?;
            let described = judges.describe();
            companion.set_judges(judges).map_err(|e| anyhow!(e))?;
            described
        }
        None => "none: runs no audit event decides stay unverified (--judges)".to_owned(),
    };
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("cannot listen on {}", args.listen))?;
    let url = format!("http://{}", listener.local_addr()?);
    println!("companion server ready at {url}");
    println!("  accounts: {} ({})", accounts.ids().join(", "), list.display());
    println!("  users:    {known} kept in {}", args.users.display());
    println!("  judges:   {judges}");
    if args.admin_token.is_none() {
        println!("  no --admin-token: no user can be made");
    }
    let app = aca_service::routes(companion);
    tokio::select! {
        result = axum::serve(listener, app) => result.context("the server stopped")?,
        _ = tokio::signal::ctrl_c() => eprintln!("stopping"),
    }
    Ok(ExitCode::SUCCESS)
}
