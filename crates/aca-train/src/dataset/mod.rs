//! Training samples from recorded runs, the filters that choose them, and the files they are written to.
//!
//! - [`explore`] turns a teacher's proposals for a product's console into task pages the collector runs;
//! - [`select`] turns one recorded run into samples: the run is kept only when the reward service
//!   confirmed its outcome, and its turns only when they moved the task forward;
//! - [`write`] writes a dataset folder: JSONL in the OpenAI chat format, Parquet in the shapes verl
//!   and TRL read, and [`card`]'s dataset card.

pub mod card;
pub mod explore;
pub mod select;
pub mod write;

use aca_agent::ChatMessage;
use serde::{Deserialize, Serialize};

/// One step of a recorded run as a training sample: the messages the LLM policy was given at that
/// step and the teacher's reply, which is what the model learns to write.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// `TASK#RUN/TURN`: unique in a dataset, stable across collections of the same runs.
    pub id: String,
    /// The system prompt and the turn's user message, exactly as `aca_agent::prompt` rendered them.
    pub messages: Vec<ChatMessage>,
    /// The teacher's reply in the ReAct format (Thought: Progress, Observation, Next; one Action).
    pub reply: String,
    pub meta: SampleMeta,
}

/// Where a sample comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SampleMeta {
    /// The task: the page and the console release it ran on (`PAGE@RELEASE`).
    pub task: String,
    /// The documentation page (its path or URL).
    pub page: String,
    pub product: String,
    /// The console release the run saw.
    pub release: String,
    /// Who decided the reply: `scripted`, or `model:NAME` for a distilled teacher.
    pub teacher: String,
    /// How the reward service confirmed the run.
    pub outcome: Confirmed,
    pub run: u32,
    /// The turn's index in the run.
    pub turn: usize,
    /// The documented step the turn worked on.
    pub step: Option<String>,
    /// The reply's action in call syntax.
    pub action: String,
}

/// A run outcome the reward service confirmed: the only runs a dataset learns from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Confirmed {
    /// The documented operation happened: the success rule matched the audit log, or both judges said so.
    Success,
    /// The page no longer matches the console: the operation happened another way than the page's
    /// (the audit log confirms the defects), or could not happen and every defect is a known one.
    DocDefect,
}

impl Sample {
    /// The sample as an OpenAI chat conversation: the prompt's messages, then the reply.
    pub fn conversation(&self) -> Vec<ChatMessage> {
        let mut messages = self.messages.clone();
        messages.push(ChatMessage::assistant(self.reply.clone()));
        messages
    }
}
