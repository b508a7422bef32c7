//! Greedy generation over the forward pass: one sequence, or several decoding together.

use crate::error::ModelError;
use crate::model::{Qwen3Model, SequenceStep};

/// The index of the largest logit (the first one on ties; NaN never wins).
pub fn argmax(logits: &[f32]) -> Option<u32> {
    let mut best: Option<(usize, f32)> = None;
    for (index, &value) in logits.iter().enumerate() {
        if best.is_none_or(|(_, top)| value > top) && !value.is_nan() {
            best = Some((index, value));
        }
    }
    best.and_then(|(index, _)| u32::try_from(index).ok())
}

impl Qwen3Model {
    /// Greedy continuation of `prompt_ids`: at most `max_new_tokens` tokens, ending early after the first
    /// token in `stop_ids` (which is included in the result).
    pub fn generate_greedy(
        &self,
        prompt_ids: &[u32],
        max_new_tokens: usize,
        stop_ids: &[u32],
    ) -> Result<Vec<u32>, ModelError> {
        let mut continuations = self.generate_greedy_batch(&[prompt_ids], max_new_tokens, stop_ids)?;
        Ok(continuations.pop().unwrap_or_default())
    }

    /// Greedy continuations of several prompts decoded together: all prompts are prefilled in one forward
    /// call, then each step decodes one token of every sequence still running; a sequence leaves the batch
    /// when it stops.
    pub fn generate_greedy_batch(
        &self,
        prompts: &[&[u32]],
        max_new_tokens: usize,
        stop_ids: &[u32],
    ) -> Result<Vec<Vec<u32>>, ModelError> {
        let mut caches: Vec<_> = prompts.iter().map(|_| self.new_cache()).collect();
        let mut outputs: Vec<Vec<u32>> = vec![Vec::new(); prompts.len()];
        if max_new_tokens == 0 || prompts.is_empty() {
            return Ok(outputs);
        }
        let mut running: Vec<usize> = (0..prompts.len()).collect();
        let mut pending: Vec<Vec<u32>> = prompts.iter().map(|prompt| prompt.to_vec()).collect();
        while !running.is_empty() {
            let mut steps: Vec<SequenceStep<'_>> = Vec::with_capacity(running.len());
            let mut cache_slots: Vec<Option<&mut crate::KvCache>> = caches.iter_mut().map(Some).collect();
            for &sequence in &running {
                let cache = cache_slots[sequence]
                    .take()
                    .ok_or_else(|| ModelError::Compute(format!("sequence {sequence} scheduled twice")))?;
                steps.push(SequenceStep {
                    tokens: &pending[sequence],
                    cache,
                });
            }
            let logits = self.forward(&mut steps)?;
            drop(steps);
            let mut still_running = Vec::with_capacity(running.len());
            for (&sequence, row) in running.iter().zip(&logits) {
                let token = argmax(row).ok_or_else(|| ModelError::Compute("empty logits row".to_string()))?;
                outputs[sequence].push(token);
                pending[sequence] = vec![token];
                let stopped = stop_ids.contains(&token) || outputs[sequence].len() >= max_new_tokens;
                if !stopped {
                    still_running.push(sequence);
                }
            }
            running = still_running;
        }
        Ok(outputs)
    }
}

#[cfg(test)]
mod tests {
    use super::argmax;

    #[test]
    fn argmax_takes_the_first_largest_and_skips_nan() {
        assert_eq!(argmax(&[0.5, 2.0, 2.0, -1.0]), Some(1));
        assert_eq!(argmax(&[f32::NAN, -3.0, -4.0]), Some(1));
        assert_eq!(argmax(&[]), None);
    }
}
