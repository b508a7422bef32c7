//! One sequence's constraint, stepped with the decoder: mask the logits, then commit the sampled token.

use std::sync::Arc;

use llguidance::Matcher;
use llguidance::api::StopReason;
use llguidance::toktrie::{SimpleVob, TokEnv};

use super::ConstraintError;

/// The state of one constrained sequence. Per decoding step: [`Constraint::mask`] the logits row, sample,
/// then [`Constraint::advance`] with the sampled id. End-of-sequence ids are allowed only once the JSON
/// is complete. `clone` gives an independent copy (for `n` choices that share a constrained prefix).
pub struct Constraint {
    matcher: Matcher,
    vocabulary: TokEnv,
    eos_token_ids: Arc<[u32]>,
    eos_accepted: bool,
}

impl Clone for Constraint {
    fn clone(&self) -> Self {
        Constraint {
            matcher: self.matcher.deep_clone(),
            vocabulary: self.vocabulary.clone(),
            eos_token_ids: self.eos_token_ids.clone(),
            eos_accepted: self.eos_accepted,
        }
    }
}

impl std::fmt::Debug for Constraint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Constraint")
            .field("vocab_size", &self.vocab_size())
            .field("eos_token_ids", &self.eos_token_ids)
            .field("eos_accepted", &self.eos_accepted)
            .finish_non_exhaustive()
    }
}

impl Constraint {
    pub(crate) fn new(matcher: Matcher, vocabulary: TokEnv, eos_token_ids: Arc<[u32]>) -> Self {
        Constraint {
            matcher,
            vocabulary,
            eos_token_ids,
            eos_accepted: false,
        }
    }

    /// How many token ids the tokenizer knows; ids at or beyond this are never allowed.
    pub fn vocab_size(&self) -> usize {
        self.vocabulary.tok_trie().vocab_size()
    }

    /// The ids that end a sequence.
    pub fn eos_token_ids(&self) -> &[u32] {
        &self.eos_token_ids
    }

    /// Sets every disallowed id in `logits` to negative infinity, including every id at or beyond the
    /// tokenizer's vocabulary (a padded vocabulary). Once the JSON is complete and nothing can follow,
    /// only the end-of-sequence ids stay allowed.
    pub fn mask(&mut self, logits: &mut [f32]) -> Result<(), ConstraintError> {
        let vocab_size = self.vocab_size();
        if logits.len() < vocab_size {
            return Err(ConstraintError::LogitsTooShort {
                len: logits.len(),
                vocab_size,
            });
        }
        let allowed = self.allowed()?;
        let (in_vocabulary, padding) = logits.split_at_mut(vocab_size);
        apply_mask(&allowed, in_vocabulary);
        padding.fill(f32::NEG_INFINITY);
        Ok(())
    }

    /// The ids allowed next, in increasing order (for callers that sample from a list, and for tests).
    pub fn allowed_tokens(&mut self) -> Result<Vec<u32>, ConstraintError> {
        Ok(self.allowed()?.to_list())
    }

    /// Commits the sampled `token`. Fails, leaving the constraint as it was, when `token` is not allowed.
    pub fn advance(&mut self, token: u32) -> Result<(), ConstraintError> {
        if self.eos_accepted {
            return Err(ConstraintError::Ended(
                "an end-of-sequence token was already accepted".to_string(),
            ));
        }
        let is_eos = self.eos_token_ids.contains(&token);
        if self.matcher.is_stopped() {
            return match self.matcher.stop_reason() {
                StopReason::NoExtension if is_eos => {
                    self.eos_accepted = true;
                    Ok(())
                }
                StopReason::NoExtension => Err(self.not_allowed(token)),
                _ => Err(ConstraintError::Ended(self.stop_description())),
            };
        }
        if token as usize >= self.vocab_size() {
            return Err(self.not_allowed(token));
        }
        let accepted = self
            .matcher
            .validate_tokens(&[token])
            .map_err(|e| self.engine_error(e))?;
        if accepted == 0 {
            return Err(self.not_allowed(token));
        }
        self.matcher.consume_token(token).map_err(|e| self.engine_error(e))?;
        if is_eos {
            self.eos_accepted = true;
        }
        Ok(())
    }

    /// Whether the JSON so far is a complete value, so an end-of-sequence id is allowed now.
    pub fn can_end(&mut self) -> bool {
        if self.eos_accepted {
            return false;
        }
        if self.matcher.is_stopped() {
            return self.matcher.stop_reason() == StopReason::NoExtension;
        }
        self.matcher.is_accepting().unwrap_or(false)
    }

    /// Whether generation is over for this sequence: an end-of-sequence id was accepted, or the JSON is
    /// complete and nothing but end-of-sequence can follow (the caller may stop without sampling it).
    pub fn is_finished(&self) -> bool {
        self.eos_accepted || self.matcher.is_stopped()
    }

    fn allowed(&mut self) -> Result<SimpleVob, ConstraintError> {
        if self.eos_accepted {
            return Err(ConstraintError::Ended(
                "an end-of-sequence token was already accepted".to_string(),
            ));
        }
        self.matcher.compute_mask_or_eos().map_err(|e| self.engine_error(e))
    }

    fn not_allowed(&self, token: u32) -> ConstraintError {
        let text = if (token as usize) < self.vocab_size() {
            self.vocabulary.tok_trie().token_dbg(token)
        } else {
            format!("beyond the vocabulary of {} tokens", self.vocab_size())
        };
        ConstraintError::TokenNotAllowed { token, text }
    }

    fn stop_description(&self) -> String {
        match self.matcher.get_error() {
            Some(error) => error,
            None => format!("{:?}", self.matcher.stop_reason()),
        }
    }

    fn engine_error(&self, error: impl std::fmt::Display) -> ConstraintError {
        ConstraintError::Engine(error.to_string())
    }
}

/// Sets `logits[id]` to negative infinity for every id whose bit in `allowed` is clear.
fn apply_mask(allowed: &SimpleVob, logits: &mut [f32]) {
    let words = allowed.as_slice();
    for (word_index, chunk) in logits.chunks_mut(32).enumerate() {
        let word = words.get(word_index).copied().unwrap_or(0);
        if word == u32::MAX {
            continue;
        }
        for (bit, logit) in chunk.iter_mut().enumerate() {
            if word & (1 << bit) == 0 {
                *logit = f32::NEG_INFINITY;
            }
        }
    }
}
