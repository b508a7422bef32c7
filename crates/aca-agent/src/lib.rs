//! The ReAct episode of AliyunConsoleAgent as a sans-I/O state machine.
//!
//! A runtime (the browser extension, `aca-runner`) builds an [`Episode`] from a [`Task`] and a
//! [`Policy`], then feeds it observations, model replies, action outcomes and resource reports; the
//! episode answers each with [`Next`]: act, ask the model, provision, observe again, or finished.
//! See [`episode`] for the protocol. Nothing here performs I/O or reads a clock, so the crate
//! builds for wasm32 and native alike.
//!
//! - [`prompt`] renders the system prompt and each turn's user message (page text in data blocks);
//! - [`parse`] reads a model's reply into one Thought and one action, tolerantly;
//! - [`policy`] holds the scripted policy (no model) and the LLM policy (OpenAI-compatible requests);
//! - [`review`] reads a finished trajectory for differences between the page and the console,
//!   whoever acted; [`mod@grade`] and [`mod@verdict`] turn them into step grades, typed defects and
//!   a verdict.

pub mod authenticator;
pub mod episode;
pub mod grade;
pub mod label;
pub mod model;
pub mod parse;
pub mod policy;
pub mod prompt;
pub mod review;
pub mod task;
pub mod verdict;

pub use episode::{AgentFailure, EndReason, Episode, EpisodeEnd, EpisodeError, Next, StepRecord, StepState};
pub use grade::{Grading, Report, RuleResult, grade};
pub use model::{ChatMessage, ModelCall, ModelFailure, ModelRequest, Pricing, ScreenshotSize, ScreenshotSlot, Usage};
pub use parse::{ParseError, ParsedReply, parse_reply};
pub use policy::llm::{LlmConfig, LlmPolicy};
pub use policy::recording::{RecordedTurn, Recording, Recordings};
pub use policy::scripted::ScriptedPolicy;
pub use policy::{Context, Decision, Finding, FindingKind, Grounding, Policy, Proposal, StepEvent};
pub use task::{Limits, ResourceReport, Task};
pub use verdict::decide;
