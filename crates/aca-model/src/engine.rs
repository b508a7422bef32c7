//! Continuous batching: one worker thread owns the model; sequences join between decode steps (their
//! prompts prefill in the same forward call as the others' next tokens), each samples, detokenises
//! and stops on its own, and a sequence whose listener went away is dropped with its cache.
//!
//! The model is a text or a vision-language checkpoint ([`EngineModel`]). A prompt holding images
//! prefills in a call of its own in the same step (its images go through the vision encoder and take
//! their places among its tokens); from then on it decodes in the batch like any other sequence.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::mpsc;

mod model;

pub use model::{EngineModel, is_multimodal_checkpoint};

use crate::cache::KvCache;
use crate::constrain::Constraint;
use crate::model::SequenceStep;
use crate::sample::{FinishReason, SampledToken, Sampler, SamplingParams, StopChecker, StopConditions};
use crate::text::{IncrementalDecoder, TextTokenizer};
use crate::vl::ProcessedImage;

/// How much the engine takes on.
#[derive(Debug, Clone, Copy)]
pub struct EngineConfig {
    /// Sequences decoded together in one forward call.
    pub max_batch: usize,
    /// Sequences waiting for a place in the batch before new ones are refused.
    pub max_waiting: usize,
    /// Prompt plus generated tokens of one sequence.
    pub max_context: usize,
}

/// One sequence to generate.
#[derive(Debug, Clone)]
pub struct GenerationRequest {
    pub prompt: Vec<u32>,
    /// The prompt's images, in order: image `k` fills the `k`-th run of image placeholder tokens of
    /// `prompt`, which must already be as long as the image's token count
    /// ([`crate::Qwen3VlConfig::expand_image_placeholders`]). Empty for text.
    pub images: Vec<ProcessedImage>,
    pub sampling: SamplingParams,
    /// Stop ids (the checkpoint's end-of-turn ids are added by the engine), stop strings, budget.
    pub stop: StopConditions,
    /// Output the decoder must keep to (JSON), enforced by masking each step's logits.
    pub constraint: Option<Constraint>,
}

/// What a sequence reports, in order; the last event is `Finished` or `Failed`.
#[derive(Debug, Clone, PartialEq)]
pub enum GenerationEvent {
    Token {
        token: SampledToken,
        /// Text that became safe to send with this token (may be empty).
        text: String,
    },
    Finished {
        reason: FinishReason,
        prompt_tokens: usize,
        completion_tokens: usize,
    },
    Failed(String),
}

/// Why a request was not queued.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SubmitError {
    #[error("the prompt is empty")]
    EmptyPrompt,
    #[error("the prompt ({prompt} tokens) plus max_tokens ({max_tokens}) exceed the context of {context} tokens")]
    TooLong {
        prompt: usize,
        max_tokens: usize,
        context: usize,
    },
    #[error("{0} sequences are already waiting; retry shortly")]
    Busy(usize),
    #[error("invalid generation settings: {0}")]
    Invalid(String),
    #[error("this model reads text only; the request holds {0} images")]
    TextOnly(usize),
    #[error("the generation worker has stopped")]
    Stopped,
}

struct Submission {
    request: GenerationRequest,
    sampler: Sampler,
    stop: StopChecker,
    events: mpsc::UnboundedSender<GenerationEvent>,
}

/// How many sequences the engine holds at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineLoad {
    /// In the batch, each with its KV cache (at most `max_batch`).
    pub active: usize,
    /// Queued for a place in the batch.
    pub waiting: usize,
}

/// A handle to the worker; cloning shares it. The worker ends when every handle is dropped.
#[derive(Clone)]
pub struct Engine {
    submissions: std::sync::mpsc::Sender<Submission>,
    waiting: Arc<AtomicUsize>,
    active: Arc<AtomicUsize>,
    config: EngineConfig,
    end_ids: Arc<Vec<u32>>,
    valid_vocab: usize,
    takes_images: bool,
}

impl Engine {
    /// Starts the worker on `model` (a [`crate::Qwen3Model`] or a [`crate::Qwen3VlModel`]). `end_ids` end
    /// every sequence (the checkpoint's end-of-turn ids).
    pub fn start(
        model: impl Into<EngineModel>,
        tokenizer: Arc<TextTokenizer>,
        end_ids: Vec<u32>,
        config: EngineConfig,
    ) -> Result<Self, String> {
        let (submissions, incoming) = std::sync::mpsc::channel::<Submission>();
        let waiting = Arc::new(AtomicUsize::new(0));
        let active = Arc::new(AtomicUsize::new(0));
        let model = model.into();
        let valid_vocab = tokenizer.id_bound().min(model.text_config().vocab_size);
        let takes_images = model.vision().is_some();
        {
            // Detached: the worker returns once every handle (and so the channel) is gone.
            let (waiting, active) = (waiting.clone(), active.clone());
            std::thread::Builder::new()
                .name("aca-model-engine".into())
                .spawn(move || Worker::new(model, tokenizer, config, waiting, active).run(&incoming))
                .map_err(|e| format!("cannot start the generation worker: {e}"))?;
        }
        Ok(Engine {
            submissions,
            waiting,
            active,
            config,
            end_ids: Arc::new(end_ids),
            valid_vocab,
            takes_images,
        })
    }

    /// The sequences in the batch and those queued, as of now.
    pub fn load(&self) -> EngineLoad {
        EngineLoad {
            active: self.active.load(Ordering::Acquire),
            waiting: self.waiting.load(Ordering::Acquire),
        }
    }

    /// The limits the engine was started with.
    pub fn config(&self) -> EngineConfig {
        self.config
    }

    /// Whether the model reads images (requests may carry them).
    pub fn takes_images(&self) -> bool {
        self.takes_images
    }

    /// Queues a sequence. Dropping the receiver cancels it at the next step.
    pub fn submit(&self, request: GenerationRequest) -> Result<mpsc::UnboundedReceiver<GenerationEvent>, SubmitError> {
        if request.prompt.is_empty() {
            return Err(SubmitError::EmptyPrompt);
        }
        if !request.images.is_empty() && !self.takes_images {
            return Err(SubmitError::TextOnly(request.images.len()));
        }
        let context = self.config.max_context;
        let max_tokens = request
            .stop
            .max_tokens
            .unwrap_or(context.saturating_sub(request.prompt.len()));
        if request.prompt.len() + max_tokens > context || max_tokens == 0 {
            return Err(SubmitError::TooLong {
                prompt: request.prompt.len(),
                max_tokens,
                context,
            });
        }
        let waiting = self.waiting.load(Ordering::Acquire);
        if waiting >= self.config.max_waiting {
            return Err(SubmitError::Busy(waiting));
        }
        let sampler = Sampler::new(request.sampling.clone(), self.valid_vocab)
            .map_err(|e| SubmitError::Invalid(e.to_string()))?;
        let mut conditions = request.stop.clone();
        conditions.max_tokens = Some(max_tokens);
        for id in self.end_ids.iter() {
            if !conditions.stop_token_ids.contains(id) {
                conditions.stop_token_ids.push(*id);
            }
        }
        let stop = StopChecker::new(conditions).map_err(|e| SubmitError::Invalid(e.to_string()))?;
        let (events, receiver) = mpsc::unbounded_channel();
        self.waiting.fetch_add(1, Ordering::AcqRel);
        self.submissions
            .send(Submission {
                request,
                sampler,
                stop,
                events,
            })
            .map_err(|_| {
                self.waiting.fetch_sub(1, Ordering::AcqRel);
                SubmitError::Stopped
            })?;
        Ok(receiver)
    }
}

/// A sequence in the batch.
struct Active {
    prompt: Vec<u32>,
    /// The prompt's images until it has been prefilled.
    images: Vec<ProcessedImage>,
    /// The token to feed next (after the prompt has been prefilled).
    next: Option<u32>,
    cache: KvCache,
    sampler: Sampler,
    stop: StopChecker,
    decoder: IncrementalDecoder,
    constraint: Option<Constraint>,
    generated: usize,
    events: mpsc::UnboundedSender<GenerationEvent>,
}

impl Active {
    /// The prompt holds images and has not been prefilled yet: it runs alone.
    fn prefills_images(&self) -> bool {
        self.next.is_none() && !self.images.is_empty()
    }
}

struct Worker {
    model: EngineModel,
    tokenizer: Arc<TextTokenizer>,
    config: EngineConfig,
    waiting: Arc<AtomicUsize>,
    /// Published length of `active`, for [`Engine::load`].
    active_count: Arc<AtomicUsize>,
    active: Vec<Active>,
}

impl Worker {
    fn new(
        model: EngineModel,
        tokenizer: Arc<TextTokenizer>,
        config: EngineConfig,
        waiting: Arc<AtomicUsize>,
        active_count: Arc<AtomicUsize>,
    ) -> Self {
        Worker {
            model,
            tokenizer,
            config,
            waiting,
            active_count,
            active: Vec::new(),
        }
    }

    fn publish_load(&self) {
        self.active_count.store(self.active.len(), Ordering::Release);
    }

    fn run(mut self, incoming: &std::sync::mpsc::Receiver<Submission>) {
        loop {
            if self.active.is_empty() {
                match incoming.recv() {
                    Ok(submission) => self.admit(submission),
                    Err(_) => return,
                }
            }
            while self.active.len() < self.config.max_batch.max(1) {
                match incoming.try_recv() {
                    Ok(submission) => self.admit(submission),
                    Err(_) => break,
                }
            }
            self.active.retain(|sequence| !sequence.events.is_closed());
            self.publish_load();
            if !self.active.is_empty() {
                self.step();
                self.publish_load();
            }
        }
    }

    fn admit(&mut self, submission: Submission) {
        self.waiting.fetch_sub(1, Ordering::AcqRel);
        // The memory check counts max_context positions per sequence; storage never grows past them.
        let mut cache = self.model.new_cache();
        cache.limit_capacity(self.config.max_context);
        self.active.push(Active {
            constraint: submission.request.constraint,
            prompt: submission.request.prompt,
            images: submission.request.images,
            next: None,
            cache,
            sampler: submission.sampler,
            stop: submission.stop,
            decoder: IncrementalDecoder::new(true),
            generated: 0,
            events: submission.events,
        });
    }

    /// One forward call for the whole batch (and one per prompt with images), then each sequence
    /// samples and reports.
    fn step(&mut self) {
        let batched = {
            let mut batch: Vec<SequenceStep<'_>> = self
                .active
                .iter_mut()
                .filter(|sequence| !sequence.prefills_images())
                .map(|sequence| {
                    let tokens: &[u32] = match &sequence.next {
                        Some(next) => std::slice::from_ref(next),
                        None => &sequence.prompt,
                    };
                    SequenceStep {
                        tokens,
                        cache: &mut sequence.cache,
                    }
                })
                .collect();
            if batch.is_empty() {
                Ok(Vec::new())
            } else {
                self.model.forward(&mut batch)
            }
        };
        // A failed batch fails the sequences in it; a failed image prefill fails only its own sequence.
        let (mut batched, batch_failure) = match batched {
            Ok(rows) => (rows.into_iter(), None),
            Err(e) => (Vec::new().into_iter(), Some(format!("the model failed: {e}"))),
        };
        let rows: Vec<Result<Vec<f32>, String>> = self
            .active
            .iter_mut()
            .map(|sequence| {
                if sequence.prefills_images() {
                    let images = std::mem::take(&mut sequence.images);
                    self.model
                        .prefill_with_images(&sequence.prompt, &images, &mut sequence.cache)
                        .map_err(|e| format!("the model failed on the prompt's images: {e}"))
                } else if let Some(failure) = &batch_failure {
                    Err(failure.clone())
                } else {
                    batched
                        .next()
                        .ok_or_else(|| "the model returned fewer rows than sequences".to_string())
                }
            })
            .collect();
        let tokenizer = self.tokenizer.clone();
        let mut finished = Vec::new();
        for (position, (sequence, row)) in self.active.iter_mut().zip(rows).enumerate() {
            match row.and_then(|row| advance(sequence, row, &tokenizer)) {
                Ok(false) => {}
                Ok(true) => finished.push(position),
                Err(message) => {
                    let _ = sequence.events.send(GenerationEvent::Failed(message));
                    finished.push(position);
                }
            }
        }
        for position in finished.into_iter().rev() {
            self.active.swap_remove(position);
        }
    }
}

/// Samples the sequence's next token from `row` and reports it; true once the sequence is finished.
fn advance(sequence: &mut Active, mut row: Vec<f32>, tokenizer: &TextTokenizer) -> Result<bool, String> {
    if let Some(constraint) = &mut sequence.constraint {
        constraint
            .mask(&mut row)
            .map_err(|e| format!("the output constraint failed: {e}"))?;
    }
    let token = sequence
        .sampler
        .sample(&row)
        .map_err(|e| format!("sampling failed: {e}"))?;
    let complete = match &mut sequence.constraint {
        Some(constraint) => {
            constraint
                .advance(token.id)
                .map_err(|e| format!("the output constraint failed: {e}"))?;
            constraint.is_finished()
        }
        None => false,
    };
    sequence.generated += 1;
    sequence.next = Some(token.id);
    let text = sequence
        .decoder
        .push(tokenizer, token.id)
        .map_err(|e| format!("detokenising failed: {e}"))?;
    let mut step = sequence.stop.push(token.id, &text);
    if complete && step.finished.is_none() {
        step.text.push_str(&sequence.stop.flush());
        step.finished = Some(FinishReason::Complete);
    }
    if step.finished.is_some() {
        // What an unfinished character held back goes out with the last token (unless a stop cut it).
        if !matches!(step.finished, Some(FinishReason::StopString(_))) {
            let rest = sequence.decoder.finish(tokenizer).map_err(|e| e.to_string())?;
            if !rest.is_empty() {
                step.text.push_str(&rest);
            }
        }
    }
    let _ = sequence.events.send(GenerationEvent::Token { token, text: step.text });
    match step.finished {
        Some(reason) => {
            let _ = sequence.events.send(GenerationEvent::Finished {
                reason,
                prompt_tokens: sequence.prompt.len(),
                completion_tokens: sequence.generated,
            });
            Ok(true)
        }
        None => Ok(false),
    }
}
