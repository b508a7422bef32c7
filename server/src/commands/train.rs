//! `aca train`: the private model's training tools. `collect` records training samples from runs
//! of the train split's tasks.

use std::process::ExitCode;

use clap::{Args, Subcommand};

use super::train_collect::{self, CollectArgs};

/// Train the private agent: collect trajectories into SFT/RL datasets.
///
/// Examples:
///   aca train collect --out out/dataset                 # scripted teacher, train split, both releases
///   aca train collect --teacher-url http://127.0.0.1:8000/v1 --teacher-model qwen3-max --runs 2
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct TrainArgs {
    #[command(subcommand)]
    command: TrainCommand,
}

#[derive(Debug, Subcommand)]
enum TrainCommand {
    Collect(Box<CollectArgs>),
}

pub async fn run(args: TrainArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        TrainCommand::Collect(args) => train_collect::run(*args).await,
    }
}
