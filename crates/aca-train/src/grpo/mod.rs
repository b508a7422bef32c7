//! GRPO against the reward service: group-relative [`advantage`]s of rollouts, the completions'
//! per-token [`logprobs`] under the trained model, in-process [`sample`]s from the current weights with
//! the sampler's own logprobs, and the clipped, KL-penalised token-level [`objective`].

pub mod advantage;
pub mod logprobs;
pub mod objective;
pub mod sample;
