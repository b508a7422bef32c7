//! Sampling completions from the policy being trained, in process, through the engine `aca serve` runs:
//! the current weights are written as a checkpoint and loaded by `aca_model::Qwen3Model::load`, so the
//! tokens, the stop rules and the sampler's log-probabilities are exactly those a served model gives.

use std::path::Path;
use std::sync::Arc;

use aca_model::Qwen3Model;
use aca_model::engine::{Engine, EngineConfig, GenerationEvent, GenerationRequest};
use aca_model::sample::{FinishReason, SamplingParams, StopConditions};
use aca_model::text::CheckpointText;

use crate::error::TrainError;
use crate::model::{TextFiles, TrainableQwen3};

/// How to sample one completion.
#[derive(Debug, Clone, PartialEq)]
pub struct SampleSettings {
    /// 0 is greedy (its logprobs are then those of the untempered distribution).
    pub temperature: f32,
    /// Nucleus sampling; 1 keeps the whole vocabulary. The logprobs are taken before this cut.
    pub top_p: f32,
    /// The most tokens a completion may have.
    pub max_tokens: usize,
    /// Same seed, same weights, same prompt: the same completion.
    pub seed: u64,
    /// Ids that end a completion besides the checkpoint's end-of-turn ids (kept in the completion).
    pub extra_stop_ids: Vec<u32>,
}

/// One sampled completion.
#[derive(Debug, Clone, PartialEq)]
pub struct Completion {
    /// The sampled ids, the stop id included when one ended it.
    pub ids: Vec<u32>,
    /// The sampler's log-probability of each id.
    pub logprobs: Vec<f32>,
    /// Whether a stop id ended it (false: it ran out of tokens).
    pub finished: bool,
}

/// An engine over a snapshot of the policy's weights.
#[derive(Clone)]
pub struct PolicySampler {
    engine: Engine,
    valid_vocab: usize,
}

impl std::fmt::Debug for PolicySampler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PolicySampler")
            .field("valid_vocab", &self.valid_vocab)
            .finish_non_exhaustive()
    }
}

impl PolicySampler {
    /// Writes `model` into `scratch` (created if needed, its checkpoint files overwritten) with its
    /// text files, loads it as `aca serve` does on the model's device without autodiff, and
    /// starts an engine decoding up to `max_batch` sequences together.
    pub fn new(model: &TrainableQwen3, text: &TextFiles, scratch: &Path, max_batch: usize) -> Result<Self, TrainError> {
        model.save(scratch, Some(text))?;
        let device = model.device().without_autodiff();
        let inference = Qwen3Model::load(scratch, &device)?;
        let text = CheckpointText::load(scratch)?;
        // The end ids `aca serve` gives its engine: the text files' stop ids, then the config's eos ids.
        let mut end_ids = text.stop_token_ids.clone();
        for id in &inference.config().eos_token_ids {
            if !end_ids.contains(id) {
                end_ids.push(*id);
            }
        }
        let valid_vocab = text.tokenizer.id_bound().min(inference.config().vocab_size);
        let config = EngineConfig {
            max_batch: max_batch.max(1),
            max_waiting: max_batch.max(1) * 8,
            max_context: inference.config().max_position_embeddings,
        };
        let engine =
            Engine::start(inference, Arc::new(text.tokenizer), end_ids, config).map_err(TrainError::Sampling)?;
        Ok(Self { engine, valid_vocab })
    }

    /// The ids the sampler can draw lie below this bound (what [`super::logprobs::LogprobSettings`] needs).
    pub fn valid_vocab(&self) -> usize {
        self.valid_vocab
    }

    /// One completion of `prompt`.
    pub fn sample(&self, prompt: &[u32], settings: &SampleSettings) -> Result<Completion, TrainError> {
        let mut completions = self.sample_many(&[prompt], settings)?;
        completions
            .pop()
            .ok_or_else(|| TrainError::Sampling("the engine returned no completion".to_string()))
    }

    /// One completion of each prompt, decoded together; prompt `i` is sampled with seed `seed + i`.
    pub fn sample_many(&self, prompts: &[&[u32]], settings: &SampleSettings) -> Result<Vec<Completion>, TrainError> {
        let receivers = prompts
            .iter()
            .enumerate()
            .map(|(index, prompt)| {
                let request = GenerationRequest {
                    prompt: prompt.to_vec(),
                    images: Vec::new(),
                    sampling: SamplingParams {
                        temperature: settings.temperature,
                        top_k: None,
                        top_p: settings.top_p,
                        seed: Some(settings.seed.wrapping_add(index as u64)),
                        top_logprobs: 0,
                    },
                    stop: StopConditions {
                        stop_token_ids: settings.extra_stop_ids.clone(),
                        stop_strings: Vec::new(),
                        max_tokens: Some(settings.max_tokens),
                    },
                    constraint: None,
                };
                self.engine
                    .submit(request)
                    .map_err(|error| TrainError::Sampling(format!("prompt {index}: {error}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        receivers
            .into_iter()
            .enumerate()
            .map(|(index, mut events)| {
                let mut completion = Completion {
                    ids: Vec::new(),
                    logprobs: Vec::new(),
                    finished: false,
                };
                loop {
                    match events.blocking_recv() {
                        Some(GenerationEvent::Token { token, .. }) => {
                            completion.ids.push(token.id);
                            completion.logprobs.push(token.logprob);
                        }
                        Some(GenerationEvent::Finished { reason, .. }) => {
                            completion.finished = matches!(reason, FinishReason::StopToken(_));
                            return Ok(completion);
                        }
                        Some(GenerationEvent::Failed(message)) => {
                            return Err(TrainError::Sampling(format!("prompt {index}: {message}")));
                        }
                        None => {
                            return Err(TrainError::Sampling(format!(
                                "prompt {index}: the engine stopped before finishing"
                            )));
                        }
                    }
                }
            })
            .collect()
    }
}
