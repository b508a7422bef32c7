//! The reward: did the documented operation really happen? The rule channel reads the audit log;
//! the judge channel decides what no audit event can.
//!
//! A task's [`SuccessRule`](aca_core::SuccessRule) names the audit events that prove it. [`lookup`]
//! polls ActionTrail `LookupEvents` (the real cloud's or the bundled emulator's, through
//! `aca-openapi`) for the task's account and time window until the rule holds or the delivery
//! deadline passes; [`rule`] matches the events and explains near misses in the writer's words;
//! [`catalog`] and [`infer`] propose a rule for pages that come without one, and [`chosen`] says
//! which rule a run is judged by; [`attribution`] keeps the provisioner's own calls out of it;
//! [`judge`] and [`judges`] are the second channel, two LLM judges for tasks no audit event decides;
//! [`service`] is the reward service's versioned request and answer, the routing between the two
//! channels, and the decision itself.

pub mod attribution;
pub mod catalog;
pub mod chosen;
pub mod events;
pub mod infer;
pub mod judge;
#[cfg(feature = "judges")]
pub mod judges;
#[cfg(feature = "lookup")]
pub mod lookup;
pub mod rule;
pub mod service;

pub use attribution::ProvisionerCalls;
pub use chosen::ChosenRule;
pub use infer::{Inference, infer_rule};
pub use judge::{JudgeCase, JudgedTurn};
#[cfg(feature = "judges")]
pub use judges::Judges;
#[cfg(feature = "lookup")]
pub use lookup::{LookupConfig, LookupError, LookupScope, Poller, RateLimiter, RuleOutcome};
pub use rule::{Bindings, Candidate, MatcherHit, Mismatch, NearMiss, RuleError, RuleMatch, match_rule};
