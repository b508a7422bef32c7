//! A client for OpenAI-compatible chat completion endpoints (`aca serve`, vLLM, SGLang, frontier APIs).
//!
//! The agent's episode is sans-I/O: it hands out a [`ChatRequest`] and takes back the reply text.
//! This crate does the sending: one call per request with a timeout, retries with exponential backoff
//! on the failures worth retrying (unreachable server, timeouts, 429, 5xx), and token usage and cost
//! recorded on every reply.

mod client;
mod error;
mod wire;

pub use client::{ChatClient, ChatConfig, Price};
pub use error::ChatError;
pub use wire::{ChatReply, ChatRequest, Message, Usage};

#[cfg(feature = "fake")]
pub mod fake;
