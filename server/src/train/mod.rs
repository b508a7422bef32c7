//! What training runs in the console: the current policy served in process with every generation's
//! exact tokens recorded ([`policy_server`]), and an episode's report read as a GRPO reward
//! ([`reward`]).

pub mod policy_server;
pub mod reward;
