//! `aca`: the one command of AliyunConsoleAgent.
//!
//! Each subcommand lives in its own module under `commands/` with its own clap `Args`; arguments are
//! validated by clap, resources are opened by the command, and errors are printed once, here.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod commands;
mod platform;
mod report;
mod serve;
#[cfg(feature = "train")]
mod train;
mod verify;

/// AliyunConsoleAgent: verify cloud-console documentation by executing it.
#[derive(Debug, Parser)]
#[command(name = "aca", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Parsed once per process: the size of the largest command's arguments costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
enum Command {
    Console(commands::console::ConsoleArgs),
    Api(commands::api::ApiArgs),
    Demo(commands::demo::DemoArgs),
    Docs(commands::docs::DocsArgs),
    Observe(commands::observe::ObserveArgs),
    Verify(Box<commands::verify::VerifyArgs>),
    Provision(commands::provision::ProvisionArgs),
    Serve(commands::serve::ServeArgs),
    Server(commands::server::ServerArgs),
    Accounts(commands::accounts::AccountsArgs),
    Bench(commands::bench::BenchArgs),
    #[cfg(feature = "train")]
    Train(commands::train::TrainArgs),
}

/// Exit status for an error the command could not recover from (bad input, unreachable server, …).
const EXIT_ERROR: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("ACA_LOG")
                .unwrap_or_else(|_| "warn,chromiumoxide=error".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::from(EXIT_ERROR);
        }
    };
    let result = runtime.block_on(async {
        match cli.command {
            Command::Console(args) => commands::console::run(args).await,
            Command::Api(args) => commands::api::run(args).await,
            Command::Demo(args) => commands::demo::run(args).await,
            Command::Docs(args) => commands::docs::run(args).await,
            Command::Observe(args) => commands::observe::run(args).await,
            Command::Verify(args) => commands::verify::run(*args).await,
            Command::Provision(args) => commands::provision::run(args).await,
            Command::Serve(args) => commands::serve::run(args).await,
            Command::Server(args) => commands::server::run(args).await,
            Command::Accounts(args) => commands::accounts::run(args).await,
            Command::Bench(args) => commands::bench::run(args).await,
            #[cfg(feature = "train")]
            Command::Train(args) => commands::train::run(args).await,
        }
    });
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(EXIT_ERROR)
        }
    }
}
