//! Per-token log-probabilities of sampled completions under a trainable model, in the distribution the
//! sampler drew from: one batched forward over right-padded `prompt + completion` sequences, read at the
//! positions that predict each completion token (`prompt_len − 1 + t`).

use aca_model::Qwen3Config;
use burn::tensor::activation::log_softmax;
use burn::tensor::{Int, Tensor, TensorData};

use crate::error::TrainError;
use crate::model::{TrainableQwen3, pad_batch};

/// One rollout's ids: the prompt the model was given and the completion it sampled (ending with the
/// end-of-turn id when it stopped there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RolloutTokens<'a> {
    pub prompt: &'a [u32],
    pub completion: &'a [u32],
}

impl RolloutTokens<'_> {
    /// Why the model cannot score these ids, if it cannot: an empty prompt, a sequence longer than the
    /// model's context, or an id the sampler could not have drawn.
    pub fn problem(&self, config: &Qwen3Config, valid_vocab: usize) -> Option<String> {
        if self.prompt.is_empty() {
            return Some("the prompt is empty".to_string());
        }
        let length = self.prompt.len() + self.completion.len();
        if length > config.max_position_embeddings {
            return Some(format!(
                "prompt ({}) and completion ({}) exceed the model's context of {} tokens",
                self.prompt.len(),
                self.completion.len(),
                config.max_position_embeddings
            ));
        }
        if let Some(id) = self.prompt.iter().find(|&&id| id as usize >= config.vocab_size) {
            return Some(format!(
                "prompt id {id} is outside the model's vocabulary of {}",
                config.vocab_size
            ));
        }
        if let Some(id) = self.completion.iter().find(|&&id| id as usize >= valid_vocab) {
            return Some(format!(
                "completion id {id} is at or above the sampler's vocabulary bound {valid_vocab}"
            ));
        }
        None
    }
}

/// Which distribution the log-probabilities are read from: the sampler's (see `aca_model::sample`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogprobSettings {
    /// The sampling temperature; 0 (greedy) reads the untempered distribution, as the sampler reports it.
    pub temperature: f32,
    /// Ids at or above this bound are never sampled and are left out of the softmax (the tokenizer's id
    /// bound, capped by the model's vocabulary).
    pub valid_vocab: usize,
}

impl LogprobSettings {
    /// The divisor of the logits: the temperature, or 1 for greedy sampling.
    fn divisor(&self) -> f32 {
        if self.temperature > 0.0 { self.temperature } else { 1.0 }
    }
}

/// The completions' log-probabilities, row by row.
#[derive(Debug, Clone)]
pub struct CompletionLogprobs {
    /// `[rollouts, longest completion]`: log p(completion token t | prompt, completion before t); 0 at padding.
    pub values: Tensor<2>,
    /// `[rollouts, longest completion]`: 1 for completion tokens, 0 for padding.
    pub mask: Tensor<2>,
    /// Completion tokens (the mask's sum).
    pub tokens: usize,
    /// Tokens through the model: every rollout's prompt and completion, padding excluded.
    pub sequence_tokens: usize,
}

/// Log-probabilities of each rollout's completion under `model`, differentiable when the model is
/// autodiff. Refuses an empty batch, a batch without any completion token, and rollouts with a
/// [`RolloutTokens::problem`] (named by their index).
pub fn completion_logprobs(
    model: &TrainableQwen3,
    rollouts: &[RolloutTokens<'_>],
    settings: &LogprobSettings,
) -> Result<CompletionLogprobs, TrainError> {
    let config = &model.config;
    let valid_vocab = settings.valid_vocab.min(config.vocab_size);
    if valid_vocab == 0 || !settings.temperature.is_finite() || settings.temperature < 0.0 {
        return Err(TrainError::Config(format!(
            "log-probabilities need a positive vocabulary bound and a finite temperature ≥ 0, not {} and {}",
            settings.valid_vocab, settings.temperature
        )));
    }
    for (index, rollout) in rollouts.iter().enumerate() {
        if let Some(problem) = rollout.problem(config, valid_vocab) {
            return Err(TrainError::Tokenize { index, problem });
        }
    }
    let longest = rollouts.iter().map(|r| r.completion.len()).max().unwrap_or(0);
    if longest == 0 {
        return Err(TrainError::Config(
            "log-probabilities need at least one rollout with a completion token".to_string(),
        ));
    }
    let device = model.device();
    let sequences: Vec<Vec<u32>> = rollouts
        .iter()
        .map(|r| r.prompt.iter().chain(r.completion).copied().collect())
        .collect();
    let borrowed: Vec<&[u32]> = sequences.iter().map(Vec::as_slice).collect();
    let ids = pad_batch(&borrowed, 0, &device);
    let [batch, length] = ids.dims();

    // For row r and completion token t: the hidden state at prompt_len − 1 + t predicts it. Padding
    // slots read row r's first position and are masked.
    let slots = batch * longest;
    let mut rows = Vec::with_capacity(slots);
    let mut targets = Vec::with_capacity(slots);
    let mut mask = Vec::with_capacity(slots);
    for (index, rollout) in rollouts.iter().enumerate() {
        for t in 0..longest {
            let present = t < rollout.completion.len();
            let position = if present { rollout.prompt.len() - 1 + t } else { 0 };
            rows.push((index * length + position) as i64);
            targets.push(if present { i64::from(rollout.completion[t]) } else { 0 });
            mask.push(if present { 1.0f32 } else { 0.0 });
        }
    }
    let rows = Tensor::<1, Int>::from_data(TensorData::new(rows, [slots]), &device);
    let targets = Tensor::<2, Int>::from_data(TensorData::new(targets, [slots, 1]), &device);
    let mask = Tensor::<2>::from_data(TensorData::new(mask, [batch, longest]), &device);

    // [batch·length, hidden] → [slots, hidden] → [slots, vocab], only the rows that predict a token.
    let hidden = model.params.hidden(config, ids).select(0, rows);
    let mut logits = model.params.logits(hidden);
    if valid_vocab < config.vocab_size {
        logits = logits.slice([0..slots, 0..valid_vocab]);
    }
    let divisor = settings.divisor();
    if divisor != 1.0 {
        logits = logits.div_scalar(divisor);
    }
    let values = log_softmax(logits, 1).gather(1, targets).reshape([batch, longest]) * mask.clone();
    Ok(CompletionLogprobs {
        values,
        mask,
        tokens: rollouts.iter().map(|r| r.completion.len()).sum(),
        sequence_tokens: sequences.iter().map(Vec::len).sum(),
    })
}

#[cfg(test)]
mod tests;
