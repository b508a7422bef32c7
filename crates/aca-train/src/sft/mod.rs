//! Supervised fine-tuning of the private model on chat samples: the assistant reply's tokens carry the
//! loss, AdamW with global-norm clipping under a warm-up and cosine schedule, gradient accumulation,
//! optional LoRA, held-out evaluation, and checkpoints `aca serve` loads and the trainer resumes from.
//!
//! Read samples with [`read_jsonl`], build an [`SftTrainer`] from a [`Start`], then [`SftTrainer::train`].
//!
//! - A sample's prompt is rendered by the checkpoint's chat template with the generation prompt, as
//!   `aca serve` renders a request; its completion is the reply and `<|im_end|>` ([`SampleTokenizer`]).
//! - The loss of an optimizer step is the mean over the learned tokens of all its micro-batches, so
//!   accumulation gives the gradient one large batch would.
//! - LoRA adapts the seven projection matrices of every layer; embeddings and norms stay frozen.
//! - Checkpoints are `checkpoint-STEP` directories: the merged model as a Hugging Face checkpoint, the
//!   tokenizer files, `trainer_state.json` and, for full fine-tuning, the AdamW moments.
//! - Next-action accuracy decodes greedily with the full forward pass (no KV cache): keep `eval_samples`
//!   and `max_new_tokens` modest on a CPU.

mod clip;
mod config;
mod data;
mod eval;
mod loss;
mod order;
mod renumber;
mod schedule;
mod state;
mod tokenize;
mod trainer;

pub use clip::{TrainableIds, clip_global_norm};
pub use config::{LoraOptions, SftConfig};
pub use data::{ChatSample, read_jsonl};
pub use eval::Validation;
pub use loss::{BatchLoss, batch_loss};
pub use renumber::with_renumbered_copies;
pub use schedule::LrSchedule;
pub use state::{OPTIMIZER_FILE, STATE_FILE, TrainerState};
pub use tokenize::{END_OF_TURN, SampleTokenizer, TokenizedSample};
pub use trainer::{SftProgress, SftSummary, SftTrainer, Start};
