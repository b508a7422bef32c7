//! Training the private agent.
//!
//! - [`dataset`] turns recorded runs into training samples: the exact messages the LLM policy was
//!   given at each step and the teacher's ReAct reply, filtered as the reward service and the
//!   trajectory say, written as JSONL (OpenAI chat) and Parquet (verl, TRL) with a dataset card.
//! - [`grpo`] holds GRPO's advantages and objective.

pub mod dataset;
pub mod grpo;
