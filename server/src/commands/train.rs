//! `aca train`: the private model's training tools. `collect` records training samples from runs
//! of the train split's tasks (and `explore` proposes new ones from the consoles); `sft` fine-tunes a checkpoint on them; `grpo` trains it further against
//! the audit-log reward.

use std::process::ExitCode;

use clap::{Args, Subcommand};

use super::train_collect::{self, CollectArgs};
use super::train_explore::{self, ExploreArgs};
use super::train_grpo::{self, GrpoArgs};
use super::train_sft::{self, SftArgs};

/// Train the private agent: collect trajectories, fine-tune on them (SFT), then GRPO against the audit log.
///
/// Examples:
///   aca train collect --out out/dataset                 # scripted teacher, train split, both releases
///   aca train collect --teacher-url http://127.0.0.1:8000/v1 --teacher-model qwen3-max --runs 2
///   aca train explore --teacher-url http://127.0.0.1:8000/v1 --teacher-model qwen3-max --out out/explore
///   aca train sft --data out/dataset --model models/qwen3-0.6b --out out/sft
///   aca train grpo --model out/sft/checkpoint-300 --steps 50 --out out/grpo
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct TrainArgs {
    #[command(subcommand)]
    command: TrainCommand,
}

#[derive(Debug, Subcommand)]
enum TrainCommand {
    Collect(Box<CollectArgs>),
    Explore(Box<ExploreArgs>),
    Sft(Box<SftArgs>),
    Grpo(Box<GrpoArgs>),
}

pub async fn run(args: TrainArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        TrainCommand::Collect(args) => train_collect::run(*args).await,
        TrainCommand::Explore(args) => train_explore::run(*args).await,
        TrainCommand::Sft(args) => train_sft::run(*args).await,
        TrainCommand::Grpo(args) => train_grpo::run(*args).await,
    }
}
