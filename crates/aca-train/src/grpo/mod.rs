//! GRPO against the reward service: group-relative [`advantage`]s of rollouts and the clipped,
//! KL-penalised token-level [`objective`].

pub mod advantage;
pub mod objective;
