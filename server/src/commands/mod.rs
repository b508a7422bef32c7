//! One module per `aca` subcommand.

pub mod accounts;
pub mod api;
pub mod bench;
pub mod bench_ablation;
pub mod bench_agent;
pub mod bench_provision;
pub mod bench_real;
pub mod console;
pub mod demo;
pub mod docs;
pub mod observe;
pub mod provision;
pub mod provision_generate;
pub mod serve;
pub mod server;
mod task_set;
pub mod train;
mod train_collect;
mod train_explore;
mod train_grpo;
mod train_sft;
pub mod verify;
