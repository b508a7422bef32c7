//! `aca accounts list|add|rotate|health`: the pool of isolated accounts verification runs in
//! (SQLite), its AccessKeys rotated through RAM, and its health (the key works, the balance, the
//! quotas, what earlier runs left behind, cleaned on request).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use aca_openapi::client::AccessKeyPair;
use aca_provision::AccessKey;
use aca_provision::pool::{self, AccountPool, AccountState, PoolAccount};
use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use serde_json::Value;

/// Manage the account pool: accounts lent one run at a time, with leases, key rotation and health
/// checks.
///
/// Examples:
///   aca accounts add --emulator http://127.0.0.1:8080 --admin-token T --count 4
///   aca accounts add --endpoint https://ecs.aliyuncs.com --credentials prod.json --name prod-1
///   aca accounts list
///   aca accounts rotate ACCOUNT_ID            (or --older-than-days 90 for every old key)
///   aca accounts health --clean
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct AccountsArgs {
    /// The pool's SQLite file.
    #[arg(long, default_value = "out/accounts.db", global = true)]
    pool: PathBuf,
    /// How long a lease holds before the account comes back by itself.
    #[arg(long, default_value_t = 3600, global = true)]
    lease_timeout_s: u64,
    #[command(subcommand)]
    command: AccountsCommand,
}

#[derive(Debug, Subcommand)]
enum AccountsCommand {
    /// Every account, its state, holder and key.
    List,
    /// Add emulator accounts (created through the emulator's admin API) or a real account.
    Add(AddArgs),
    /// Rotate AccessKeys through RAM: one account, or every key older than --older-than-days.
    Rotate(RotateArgs),
    /// Check that keys work, the balance, the ECS quotas, and leftovers of earlier runs; --clean
    /// deletes them.
    Health(HealthArgs),
}

#[derive(Debug, Args)]
struct AddArgs {
    /// The emulator to create accounts in (needs --admin-token).
    #[arg(long, conflicts_with_all = ["endpoint", "credentials"])]
    emulator: Option<String>,
    /// The emulator's admin token.
    #[arg(long, env = "ACA_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: Option<String>,
    /// How many emulator accounts to create.
    #[arg(long, default_value_t = 1)]
    count: u32,
    /// A real account's OpenAPI endpoint (with --credentials).
    #[arg(long, requires = "credentials")]
    endpoint: Option<String>,
    /// A credentials JSON file (`{"accessKeyId": …, "accessKeySecret": …}`) of a real account.
    #[arg(long, requires = "endpoint")]
    credentials: Option<PathBuf>,
    /// The account's name (emulator accounts get `NAME-1`, `NAME-2`, …).
    #[arg(long, default_value = "pool")]
    name: String,
    /// The real account's id (default: its name).
    #[arg(long)]
    account_id: Option<String>,
}

#[derive(Debug, Args)]
struct RotateArgs {
    /// The account whose key to rotate now.
    account: Option<String>,
    /// Rotate every free account's key older than this many days instead.
    #[arg(long, conflicts_with = "account")]
    older_than_days: Option<u64>,
}

#[derive(Debug, Args)]
struct HealthArgs {
    /// Check only this account.
    account: Option<String>,
    /// The region to look for leftovers in.
    #[arg(long, default_value = "cn-hangzhou")]
    region: String,
    /// Delete the leftovers found (the account is leased meanwhile, quarantined if cleanup fails).
    #[arg(long)]
    clean: bool,
    /// The emulator's admin token, to read emulator accounts' balances.
    #[arg(long, env = "ACA_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: Option<String>,
}

pub async fn run(args: AccountsArgs) -> anyhow::Result<ExitCode> {
    if let Some(dir) = args.pool.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let pool = AccountPool::open(&args.pool, Duration::from_secs(args.lease_timeout_s))
        .with_context(|| format!("opening the account pool {}", args.pool.display()))?;
    match args.command {
        AccountsCommand::List => list(&pool),
        AccountsCommand::Add(add_args) => add(&pool, add_args).await,
        AccountsCommand::Rotate(rotate_args) => rotate(&pool, rotate_args).await,
        AccountsCommand::Health(health_args) => health(&pool, health_args).await,
    }
}

fn list(pool: &AccountPool) -> anyhow::Result<ExitCode> {
    let accounts = pool.list()?;
    if accounts.is_empty() {
        println!("the pool is empty (aca accounts add)");
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{:<20} {:<16} {:<12} {:<24} {:<20} ENDPOINT",
        "ACCOUNT", "NAME", "STATE", "ACCESS KEY", "HOLDER"
    );
    for status in &accounts {
        let state = match status.state {
            AccountState::Free => "free",
            AccountState::Leased => "leased",
            AccountState::Quarantined => "quarantined",
        };
        println!(
            "{:<20} {:<16} {:<12} {:<24} {:<20} {}",
            status.account.id,
            status.account.name,
            state,
            status.account.key.access_key_id,
            status.holder.as_deref().unwrap_or("-"),
            status.account.endpoint
        );
        if !status.note.is_empty() {
            println!("    note: {}", status.note);
        }
    }
    Ok(ExitCode::SUCCESS)
}

async fn add(pool: &AccountPool, args: AddArgs) -> anyhow::Result<ExitCode> {
    if let (Some(endpoint), Some(path)) = (&args.endpoint, &args.credentials) {
        let pair = AccessKeyPair::from_file(path)?;
        let account = PoolAccount {
            id: args.account_id.clone().unwrap_or_else(|| args.name.clone()),
            name: args.name.clone(),
            endpoint: endpoint.trim_end_matches('/').to_owned(),
            key: AccessKey {
                access_key_id: pair.access_key_id,
                access_key_secret: pair.access_key_secret,
            },
        };
        pool.add(&account)?;
        println!("added {} ({}) at {}", account.id, account.name, account.endpoint);
        return Ok(ExitCode::SUCCESS);
    }
    let Some(emulator) = &args.emulator else {
        bail!("give --emulator URL --admin-token TOKEN, or --endpoint URL --credentials FILE for a real account");
    };
    let token = args
        .admin_token
        .as_deref()
        .context("--emulator needs the emulator's --admin-token to create accounts")?;
    let base = emulator.trim_end_matches('/');
    let http = reqwest::Client::new();
    for n in 1..=args.count {
        let name = if args.count == 1 {
            args.name.clone()
        } else {
            format!("{}-{n}", args.name)
        };
        let response = http
            .post(format!("{base}/admin/accounts"))
            .bearer_auth(token)
            .json(&serde_json::json!({ "name": name }))
            .send()
            .await
            .with_context(|| format!("cannot reach the emulator at {base}"))?;
        let status = response.status();
        let body: Value = response.json().await.context("the admin API answered no JSON")?;
        if !status.is_success() {
            bail!("creating {name} failed (HTTP {status}): {}", body["Message"]);
        }
        let field = |k: &str| body[k].as_str().unwrap_or_default().to_owned();
        let account = PoolAccount {
            id: field("accountId"),
            name: name.clone(),
            endpoint: base.to_owned(),
            key: AccessKey {
                access_key_id: field("accessKeyId"),
                access_key_secret: field("accessKeySecret"),
            },
        };
        if account.id.is_empty() || account.key.access_key_id.is_empty() {
            bail!("the admin API's answer has no account id or key: {body}");
        }
        pool.add(&account)?;
        println!("added {} ({name}) at {base}", account.id);
    }
    Ok(ExitCode::SUCCESS)
}

async fn rotate(pool: &AccountPool, args: RotateArgs) -> anyhow::Result<ExitCode> {
    let rotated = match (&args.account, args.older_than_days) {
        (Some(account), _) => vec![pool::rotate(pool, account).await?],
        (None, Some(days)) => pool::rotate_due(pool, Duration::from_secs(days * 24 * 3600)).await?,
        (None, None) => bail!("name an ACCOUNT, or give --older-than-days N for every old key"),
    };
    if rotated.is_empty() {
        println!("no key is due");
    }
    for r in &rotated {
        println!(
            "{}: {} → {} (the old key is deleted)",
            r.account_id, r.old_key_id, r.new_key_id
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The balance of an emulator account, read through the admin API; `None` when unknown.
async fn balance(account: &PoolAccount, token: Option<&str>) -> Option<f64> {
    let token = token?;
    let list: Value = reqwest::Client::new()
        .get(format!("{}/admin/accounts", account.endpoint))
        .bearer_auth(token)
        .send()
        .await
        .ok()?
        .json()
        .await
        .ok()?;
    let found = list
        .as_array()?
        .iter()
        .find(|a| a["accountId"] == account.id.as_str())?;
    found["balanceCents"].as_i64().map(|cents| cents as f64 / 100.0)
}

async fn health(pool: &AccountPool, args: HealthArgs) -> anyhow::Result<ExitCode> {
    let accounts: Vec<_> = pool
        .list()?
        .into_iter()
        .filter(|s| args.account.as_ref().is_none_or(|a| &s.account.id == a))
        .collect();
    if accounts.is_empty() {
        bail!(
            "{}",
            match &args.account {
                Some(a) => format!("no account {a} in the pool"),
                None => "the pool is empty (aca accounts add)".into(),
            }
        );
    }
    let mut unhealthy = 0;
    for status in &accounts {
        let account = &status.account;
        let checked = pool::check(account, &args.region).await;
        let money = match balance(account, args.admin_token.as_deref()).await {
            Some(b) => format!("balance {b:.2}"),
            None => "balance unknown".to_owned(),
        };
        if !checked.reachable {
            unhealthy += 1;
            println!(
                "✗ {} ({}): the key does not work: {}",
                account.id,
                account.name,
                checked.error.as_deref().unwrap_or("no answer")
            );
            continue;
        }
        let quotas = if checked.quotas.is_empty() {
            "quotas unknown".to_owned()
        } else {
            checked
                .quotas
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let money = format!("{money}, {quotas}");
        let shortfalls = checked.shortfalls();
        if !shortfalls.is_empty() {
            unhealthy += 1;
            println!(
                "✗ {} ({}): key works, {money}; too little room for a run: {}",
                account.id,
                account.name,
                shortfalls.join("; ")
            );
        }
        if checked.leftovers.is_empty() {
            if shortfalls.is_empty() {
                println!("✓ {} ({}): key works, {money}, no leftovers", account.id, account.name);
            }
            continue;
        }
        println!(
            "{} {} ({}): key works, {money}, {} leftover(s):",
            if args.clean { "•" } else { "✗" },
            account.id,
            account.name,
            checked.leftovers.len()
        );
        for leftover in &checked.leftovers {
            println!("    {leftover}");
        }
        if !args.clean {
            unhealthy += 1;
            continue;
        }
        if status.state == AccountState::Leased {
            unhealthy += 1;
            println!(
                "    not cleaned: the account is leased by {}",
                status.holder.as_deref().unwrap_or("?")
            );
            continue;
        }
        let lease = pool.lease_account(&account.id, "aca accounts health --clean")?;
        let failures = pool::clean(account, &args.region, &checked.leftovers).await;
        if failures.is_empty() {
            pool.release(&lease)?;
            println!("    cleaned");
        } else {
            unhealthy += 1;
            let reason = failures
                .iter()
                .map(|(l, e)| format!("{l}: {e}"))
                .collect::<Vec<_>>()
                .join("; ");
            pool.quarantine(&lease, &format!("cleanup failed: {reason}"))?;
            println!("    cleanup failed, account quarantined: {reason}");
        }
    }
    Ok(if unhealthy == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
