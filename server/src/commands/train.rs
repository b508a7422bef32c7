//! `aca train`: the private model's training tools. `collect` records training samples from runs
//! of the train split's tasks; `sft` fine-tunes a checkpoint on them.

use std::process::ExitCode;

use clap::{Args, Subcommand};

use super::train_collect::{self, CollectArgs};
use super::train_sft::{self, SftArgs};

/// Train the private agent: collect trajectories into SFT/RL datasets, fine-tune on them.
///
/// Examples:
///   aca train collect --out out/dataset                 # scripted teacher, train split, both releases
///   aca train collect --teacher-url http://127.0.0.1:8000/v1 --teacher-model qwen3-max --runs 2
///   aca train sft --data out/dataset --model models/qwen3-0.6b --out out/sft
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct TrainArgs {
    #[command(subcommand)]
    command: TrainCommand,
}

#[derive(Debug, Subcommand)]
enum TrainCommand {
    Collect(Box<CollectArgs>),
    Sft(Box<SftArgs>),
}

pub async fn run(args: TrainArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        TrainCommand::Collect(args) => train_collect::run(*args).await,
        TrainCommand::Sft(args) => train_sft::run(*args).await,
    }
}
