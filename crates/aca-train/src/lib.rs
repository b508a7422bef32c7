//! Training the private agent.
//!
//! - [`dataset`] turns recorded runs into training samples: the exact messages the LLM policy was
//!   given at each step and the teacher's ReAct reply, filtered as the reward service and the
//!   trajectory say, written as JSONL (OpenAI chat) and Parquet (verl, TRL) with a dataset card.
//! - [`model`] is Qwen3 as trainable burn modules in Hugging Face naming, loaded from and saved to
//!   checkpoint directories that `aca_model::Qwen3Model::load` and `aca serve` read.
//! - [`sft`] fine-tunes that model on chat samples (JSONL, OpenAI format), loss on the replies only.
//! - [`grpo`] trains that model with GRPO on groups of scored rollouts: advantages, completion
//!   log-probabilities, in-process sampling through `aca serve`'s engine, the objective and the trainer.

pub mod dataset;
pub mod error;
pub mod grpo;
pub mod model;
mod run_state;
pub mod sft;

pub use error::TrainError;
