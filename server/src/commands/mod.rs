//! One module per `aca` subcommand.

pub mod accounts;
pub mod api;
pub mod bench;
pub mod bench_ablation;
pub mod bench_agent;
mod bench_platform;
pub mod bench_provision;
pub mod bench_real;
pub mod console;
pub mod demo;
pub mod docs;
pub mod observe;
pub mod provision;
pub mod provision_generate;
mod run_options;
pub mod serve;
pub mod server;
mod task_set;
#[cfg(feature = "train")]
pub mod train;
#[cfg(feature = "train")]
mod train_collect;
#[cfg(feature = "train")]
mod train_explore;
#[cfg(feature = "train")]
mod train_grpo;
#[cfg(feature = "train")]
mod train_sft;
pub mod verify;
