//! Held-out evaluation: the masked loss, and next-action accuracy, the fraction of samples whose greedily
//! decoded reply names the same action as the reference reply.

use aca_model::text::TextTokenizer;
use serde::{Deserialize, Serialize};

use crate::error::TrainError;
use crate::model::TrainableQwen3;
use crate::sft::data::ChatSample;
use crate::sft::loss::batch_loss;
use crate::sft::tokenize::TokenizedSample;

/// What one evaluation measured.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Validation {
    /// Mean cross-entropy per learned token of the held-out samples.
    pub loss: f32,
    /// Fraction of held-out samples whose greedy reply parses to the reference's action (a sample whose
    /// reply or reference does not parse counts as a miss).
    pub action_accuracy: f32,
    pub samples: usize,
}

/// How replies are decoded for next-action accuracy.
#[derive(Debug)]
pub(crate) struct Decoding<'a> {
    pub tokenizer: &'a TextTokenizer,
    /// Ids that end a reply.
    pub stop_ids: &'a [u32],
    pub max_new_tokens: usize,
}

/// Evaluates `model` (an evaluation copy, without autodiff) on the held-out samples, given as their
/// prompts' ids, their tokenized forms (for the loss) and their reference replies.
pub(crate) fn validate(
    model: &TrainableQwen3,
    prompts: &[Vec<u32>],
    tokenized: &[TokenizedSample],
    samples: &[ChatSample],
    decoding: &Decoding<'_>,
    micro_batch: usize,
    pad: u32,
) -> Result<Validation, TrainError> {
    let device = model.device();
    let mut sum = 0.0f64;
    let mut tokens = 0usize;
    let refs: Vec<&TokenizedSample> = tokenized.iter().collect();
    for chunk in refs.chunks(micro_batch.max(1)) {
        let loss = batch_loss(model, chunk, pad, &device);
        sum += f64::from(loss.sum.into_scalar::<f32>());
        tokens += loss.tokens;
    }
    let mut correct = 0usize;
    for (prompt, sample) in prompts.iter().zip(samples) {
        let reply = greedy_reply(model, prompt, decoding)?;
        if same_action(&reply, &sample.reply) {
            correct += 1;
        }
    }
    Ok(Validation {
        loss: (sum / tokens.max(1) as f64) as f32,
        action_accuracy: correct as f32 / samples.len().max(1) as f32,
        samples: samples.len(),
    })
}

/// The reply the model writes after `prompt`, always taking the likeliest id the tokenizer knows, until a
/// stop id or the token limit.
pub(crate) fn greedy_reply(
    model: &TrainableQwen3,
    prompt: &[u32],
    decoding: &Decoding<'_>,
) -> Result<String, TrainError> {
    let bound = decoding.tokenizer.id_bound().min(model.config.vocab_size);
    let mut ids = prompt.to_vec();
    let mut reply = Vec::new();
    for _ in 0..decoding.max_new_tokens {
        let logits = model.last_logits(&ids).slice_dim(0, 0..bound);
        let next = logits.argmax(0).into_scalar::<i64>();
        let next = u32::try_from(next).map_err(|_| TrainError::Checkpoint {
            problem: format!("the model chose id {next}"),
        })?;
        if decoding.stop_ids.contains(&next) {
            break;
        }
        ids.push(next);
        reply.push(next);
    }
    Ok(decoding.tokenizer.decode(&reply, true)?)
}

/// Whether both replies parse and name the same action.
pub fn same_action(reply: &str, reference: &str) -> bool {
    match (aca_agent::parse_reply(reply), aca_agent::parse_reply(reference)) {
        (Ok(reply), Ok(reference)) => reply.action == reference.action,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_compare_by_meaning_not_by_text() {
        assert!(same_action(
            "Thought: open it\nAction: click(12)",
            "Progress: list shown\nNext: open the VPC\nAction: click(index=12)"
        ));
        assert!(!same_action("Action: click(12)", "Action: click(13)"));
        assert!(!same_action("no action here", "Action: click(13)"));
    }
}
