//! One verification run, written once for every driver: a sans-I/O state machine ([`Run`]) around
//! the agent's episode that asks for provisioning, the console, observations, actions, model replies,
//! step-mode decisions, the reward service's verdict and clean-up, and ends with the report.
//!
//! The extension (in the writer's browser) and `aca verify` (headless Chromium) are its two drivers:
//! each carries out the [`Request`]s with its own browser and network and feeds the results back, so
//! both produce the same report for the same page from the same code ([`report::build`]).

pub mod machine;
pub mod progress;
pub mod report;
pub use aca_core::step_mode;

pub use machine::{Provided, Provisioned, Request, Run, RunPlan};
pub use progress::{LiveStatus, LiveStep, Progress};
pub use report::{Interruption, RunFacts};
pub use step_mode::{Decided, Decision, PageAt, Proposed, StepRecord};
