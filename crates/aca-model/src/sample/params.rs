//! The sampling parameters of one request, with their OpenAI meanings and validity ranges.

use crate::sample::SampleError;

/// How to pick tokens.
#[derive(Clone, Debug, PartialEq)]
pub struct SamplingParams {
    /// Divides the logits; `0.0` picks the most likely token (greedy). OpenAI allows 0 to 2.
    pub temperature: f32,
    /// Keep only the `k` most likely tokens (`None`: no limit). `Some(1)` is greedy.
    pub top_k: Option<usize>,
    /// Keep the smallest set of most likely tokens whose probability reaches `top_p` (1.0: all).
    pub top_p: f32,
    /// Same seed, same logits → same tokens.
    pub seed: Option<u64>,
    /// How many alternatives to report with each token (OpenAI's `top_logprobs`, at most 20 there).
    pub top_logprobs: usize,
}

impl Default for SamplingParams {
    fn default() -> Self {
        Self {
            temperature: 1.0,
            top_k: None,
            top_p: 1.0,
            seed: None,
            top_logprobs: 0,
        }
    }
}

impl SamplingParams {
    /// Greedy decoding.
    pub fn greedy() -> Self {
        Self {
            temperature: 0.0,
            ..Self::default()
        }
    }

    /// Whether these parameters always pick the most likely token.
    pub fn is_greedy(&self) -> bool {
        self.temperature == 0.0 || self.top_k == Some(1)
    }

    pub(crate) fn validate(&self) -> Result<(), SampleError> {
        let invalid = |name, reason: &str| {
            Err(SampleError::InvalidParameter {
                name,
                reason: reason.to_string(),
            })
        };
        if !self.temperature.is_finite() || self.temperature < 0.0 {
            return invalid(
                "temperature",
                &format!("must be a finite number ≥ 0, got {}", self.temperature),
            );
        }
        if self.top_k == Some(0) {
            return invalid("top_k", "must be at least 1 (leave it unset for no limit)");
        }
        if !(self.top_p > 0.0 && self.top_p <= 1.0) {
            return invalid("top_p", &format!("must be in (0, 1], got {}", self.top_p));
        }
        Ok(())
    }
}
