//! Held-out evaluation: the masked loss, next-action accuracy (the fraction of samples whose greedily
//! decoded reply names the same action as the reference reply) and how many of those replies parse
//! at all, which tells a model that has not learned the reply's format from one that picks the
//! wrong action. Replies are decoded by `aca serve`'s
//! engine over a snapshot of the weights (KV cache, all prompts together), as the served model will.


use aca_model::text::TextTokenizer;
use serde::{Deserialize, Serialize};

use crate::error::TrainError;
use crate::grpo::sample::{PolicySampler, SampleSettings};
use crate::model::{TextFiles, TrainableQwen3};
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
    /// Fraction of held-out samples whose greedy reply parses as a reply with an action, right or
    /// wrong.
    #[serde(default)]
    pub readable_replies: f32,
    pub samples: usize,
}

impl Validation {
    /// `loss 1.0383, next-action accuracy 0.0%, replies that parse 12.5% (16 samples)`.
    pub fn describe(&self) -> String {
        format!(
            "loss {:.4}, next-action accuracy {:.1}%, replies that parse {:.1}% ({} samples)",
            self.loss,
            self.action_accuracy * 100.0,
            self.readable_replies * 100.0,
            self.samples
        )
    }
}

/// How replies are decoded for next-action accuracy.
#[derive(Debug)]
pub(crate) struct Decoding<'a> {
    pub tokenizer: &'a TextTokenizer,
    /// Ids that end a reply.
    pub stop_ids: &'a [u32],
    pub max_new_tokens: usize,
    /// Where the checkpoint's tokenizer files are (the snapshot the engine loads needs them).
    pub text_files: &'a TextFiles,
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
    let replies = greedy_replies(model, prompts, decoding)?;
    let references: Vec<&str> = samples.iter().map(|s| s.reply.as_str()).collect();
    let (correct, readable) = tally(&replies, &references);
    let count = samples.len().max(1) as f32;
    Ok(Validation {
        loss: (sum / tokens.max(1) as f64) as f32,
        action_accuracy: correct as f32 / count,
        readable_replies: readable as f32 / count,
        samples: samples.len(),
    })
}

/// The replies the model writes after each prompt, always taking the likeliest id the tokenizer knows,
/// until a stop id or the token limit; `None` for a prompt that leaves no room in the model's context.
pub(crate) fn greedy_replies(
    model: &TrainableQwen3,
    prompts: &[Vec<u32>],
    decoding: &Decoding<'_>,
) -> Result<Vec<Option<String>>, TrainError> {
    let room = model
        .config
        .max_position_embeddings
        .saturating_sub(decoding.max_new_tokens);
    let fitting: Vec<&[u32]> = prompts
        .iter()
        .filter(|p| !p.is_empty() && p.len() <= room)
        .map(Vec::as_slice)
        .collect();
    if fitting.is_empty() {
        return Ok(vec![None; prompts.len()]);
    }
    let scratch = tempfile::tempdir().map_err(|source| TrainError::Io {
        path: std::env::temp_dir(),
        source,
    })?;
    let sampler = PolicySampler::new(model, decoding.text_files, scratch.path(), fitting.len().min(8))?;
    let settings = SampleSettings {
        temperature: 0.0,
        top_p: 1.0,
        max_tokens: decoding.max_new_tokens,
        seed: 0,
        extra_stop_ids: decoding.stop_ids.to_vec(),
    };
    let mut completions = sampler.sample_many(&fitting, &settings)?.into_iter();
    let mut replies = Vec::with_capacity(prompts.len());
    for prompt in prompts {
        if prompt.is_empty() || prompt.len() > room {
            replies.push(None);
            continue;
        }
        let Some(completion) = completions.next() else {
            replies.push(None);
            continue;
        };
        let ids: Vec<u32> = completion
            .ids
            .into_iter()
            .filter(|id| !decoding.stop_ids.contains(id))
            .collect();
        replies.push(Some(decoding.tokenizer.decode(&ids, true)?));
    }
    Ok(replies)
}

/// Of the replies (`None`: not decoded), how many name their reference's action and how many parse
/// at all, each parsed once.
fn tally(replies: &[Option<String>], references: &[&str]) -> (usize, usize) {
    let (mut correct, mut readable) = (0, 0);
    for (reply, reference) in replies.iter().zip(references) {
        let Some(parsed) = reply.as_deref().and_then(|r| aca_agent::parse_reply(r).ok()) else {
            continue;
        };
        readable += 1;
        if aca_agent::parse_reply(reference).is_ok_and(|r| r.action == parsed.action) {
            correct += 1;
        }
    }
    (correct, readable)
}

#[cfg(test)]
mod tests {
    use aca_model::Device;
    use aca_model::random::RandomShape;
    use aca_model::text::CheckpointText;

    use super::*;

    /// The engine's greedy replies are the trainable model's own argmax, token by token (and a prompt
    /// with no room left in the context gets no reply rather than an error).
    #[test]
    fn engine_decoding_follows_the_trainable_model_argmax() {
        let text_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../aca-model/tests/fixtures/text/qwen3");
        let text = CheckpointText::load(&text_dir).unwrap();
        let shape = RandomShape {
            max_position_embeddings: 64,
            ..RandomShape::small()
        };
        let model = TrainableQwen3::random(&shape, 5, &Device::flex()).unwrap();
        let stop_ids = text.stop_token_ids.clone();
        let decoding = Decoding {
            tokenizer: &text.tokenizer,
            stop_ids: &stop_ids,
            max_new_tokens: 6,
            text_files: &TextFiles::read(&text_dir).unwrap(),
        };
        let prompts = vec![vec![9u32, 42, 7, 3], vec![15, 16], vec![1; 60]];
        let replies = greedy_replies(&model, &prompts, &decoding).unwrap();
        assert_eq!(replies[2], None, "60 prompt tokens leave no room for 6 more in 64");
        let bound = text.tokenizer.id_bound().min(model.config.vocab_size);
        for (prompt, reply) in prompts.iter().zip(&replies).take(2) {
            let mut ids = prompt.clone();
            let mut chosen = Vec::new();
            for _ in 0..decoding.max_new_tokens {
                let logits = model.last_logits(&ids).slice_dim(0, 0..bound);
                let next = u32::try_from(logits.argmax(0).into_scalar::<i64>()).unwrap();
                if stop_ids.contains(&next) {
                    break;
                }
                ids.push(next);
                chosen.push(next);
            }
            assert_eq!(
                reply.as_deref(),
                Some(text.tokenizer.decode(&chosen, true).unwrap().as_str())
            );
        }
    }

    #[test]
    fn actions_compare_by_meaning_not_by_text() {
        let reply = |text: &str| Some(text.to_owned());
        let by_meaning = [reply("Thought: open it\nAction: click(12)")];
        assert_eq!(tally(&by_meaning, &["Progress: list shown\nNext: open the VPC\nAction: click(index=12)"]), (1, 1));
        let replies = [reply("Action: click(13)"), reply("Action: click(12)"), reply("no action here"), None];
        assert_eq!(tally(&replies, &["Action: click(13)"; 4]), (1, 2), "one right, two that parse");
    }
}
