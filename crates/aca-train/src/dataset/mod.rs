//! Training samples from recorded runs, the filters that choose them, and the files they are written to.

use aca_agent::ChatMessage;
use serde::{Deserialize, Serialize};

/// One step of a recorded run as a training sample: the messages the LLM policy was given at that
/// step and the teacher's reply, which is what the model learns to write.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// `TASK#RUN/TURN`: unique in a dataset, stable across collections with the same seed.
    pub id: String,
    /// The system prompt and the turn's user message, exactly as `aca_agent::prompt` rendered them.
    pub messages: Vec<ChatMessage>,
    /// The teacher's reply in the ReAct format (Thought: Progress, Observation, Next; one Action).
    pub reply: String,
}
