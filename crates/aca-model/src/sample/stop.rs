//! When to stop generating: stop token ids, stop strings matched in the streamed text even when they
//! straddle tokens, and the token budget. Text that might be the start of a stop string is held back
//! until it is known not to be one; the stop string itself is never emitted.

use crate::sample::SampleError;

/// The stop rules of one request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StopConditions {
    /// Ids that end generation (the checkpoint's end-of-turn ids). Their text is not emitted.
    pub stop_token_ids: Vec<u32>,
    /// OpenAI `stop`: strings that end generation; text before them is emitted, they are not.
    pub stop_strings: Vec<String>,
    /// The most tokens to generate (`None`: no limit here; the context limit applies elsewhere).
    pub max_tokens: Option<usize>,
}

/// Why generation ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FinishReason {
    /// A stop token id was sampled.
    StopToken(u32),
    /// A stop string appeared in the text.
    StopString(String),
    /// `max_tokens` tokens were generated.
    Length,
    /// The output a decoding constraint asked for is complete (a JSON value closed).
    Complete,
}

impl FinishReason {
    /// The OpenAI `finish_reason` (`"tool_calls"` is decided later, from the parsed reply).
    pub fn as_openai(&self) -> &'static str {
        match self {
            Self::StopToken(_) | Self::StopString(_) | Self::Complete => "stop",
            Self::Length => "length",
        }
    }
}

/// The outcome of one token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StopStep {
    /// Text that is now safe to send.
    pub text: String,
    /// Set once generation must end; `text` then already holds everything left to send.
    pub finished: Option<FinishReason>,
}

/// Tracks one sequence's stop conditions across tokens.
#[derive(Clone, Debug)]
pub struct StopChecker {
    conditions: StopConditions,
    /// Streamed text not sent yet because it may begin a stop string.
    held: String,
    generated: usize,
    finished: Option<FinishReason>,
}

impl StopChecker {
    /// Refuses an empty stop string (it would match everywhere) and a zero token budget.
    pub fn new(conditions: StopConditions) -> Result<Self, SampleError> {
        if conditions.stop_strings.iter().any(String::is_empty) {
            return Err(SampleError::InvalidParameter {
                name: "stop",
                reason: "stop strings must not be empty".to_string(),
            });
        }
        if conditions.max_tokens == Some(0) {
            return Err(SampleError::InvalidParameter {
                name: "max_tokens",
                reason: "must be at least 1".to_string(),
            });
        }
        Ok(Self {
            conditions,
            held: String::new(),
            generated: 0,
            finished: None,
        })
    }

    /// Feeds one sampled token and the text it completed (from the incremental decoder).
    /// After the sequence has finished, further tokens are ignored.
    pub fn push(&mut self, id: u32, text: &str) -> StopStep {
        if let Some(reason) = &self.finished {
            return StopStep {
                text: String::new(),
                finished: Some(reason.clone()),
            };
        }
        self.generated += 1;
        if self.conditions.stop_token_ids.contains(&id) {
            return self.finish(FinishReason::StopToken(id), None);
        }
        self.held.push_str(text);
        if let Some((start, stop)) = self.earliest_stop_string() {
            return self.finish(FinishReason::StopString(stop), Some(start));
        }
        if self.conditions.max_tokens.is_some_and(|max| self.generated >= max) {
            return self.finish(FinishReason::Length, None);
        }
        let keep = self.possible_stop_prefix_len();
        let send = self.held.len() - keep;
        let text: String = self.held.drain(..send).collect();
        StopStep { text, finished: None }
    }

    /// Text held back when the sequence ends for another reason (the caller's own limit, a
    /// cancelled request): it never became a stop string, so it is sent.
    pub fn flush(&mut self) -> String {
        std::mem::take(&mut self.held)
    }

    /// Tokens pushed so far (including a final stop token).
    pub fn generated(&self) -> usize {
        self.generated
    }

    /// Why the sequence ended, once it has.
    pub fn finished(&self) -> Option<&FinishReason> {
        self.finished.as_ref()
    }

    fn finish(&mut self, reason: FinishReason, cut_at: Option<usize>) -> StopStep {
        if let Some(cut) = cut_at {
            self.held.truncate(cut);
        }
        self.finished = Some(reason.clone());
        StopStep {
            text: std::mem::take(&mut self.held),
            finished: Some(reason),
        }
    }

    /// The earliest stop string in the held text (the longest one if two start at the same place).
    fn earliest_stop_string(&self) -> Option<(usize, String)> {
        self.conditions
            .stop_strings
            .iter()
            .filter_map(|stop| self.held.find(stop.as_str()).map(|start| (start, stop)))
            .min_by(|(start_a, stop_a), (start_b, stop_b)| start_a.cmp(start_b).then(stop_b.len().cmp(&stop_a.len())))
            .map(|(start, stop)| (start, stop.clone()))
    }

    /// Length of the longest end of the held text that is the beginning of some stop string.
    fn possible_stop_prefix_len(&self) -> usize {
        let held = self.held.as_bytes();
        self.conditions
            .stop_strings
            .iter()
            .filter_map(|stop| {
                let longest = stop.len().saturating_sub(1).min(held.len());
                (1..=longest).rev().find(|&len| {
                    let start = held.len() - len;
                    self.held.is_char_boundary(start) && held[start..] == stop.as_bytes()[..len]
                })
            })
            .max()
            .unwrap_or(0)
    }
}
