//! The measuring protocol every implementation follows, and what one measurement holds.

use std::time::Duration;

/// What each implementation is asked to do, identically.
#[derive(Debug, Clone)]
pub struct Workload {
    /// The prompt's token ids, prefilled in one forward call.
    pub prompt: Vec<u32>,
    /// Single-token forward calls after the prefill, each followed by an argmax.
    pub decode_steps: usize,
    /// Timed runs, each from an empty cache; the best prefill and the best decode are kept.
    pub repeats: usize,
}

impl Workload {
    /// A prompt of `length` ids spread over `0..vocab` by a fixed linear congruential sequence.
    pub fn new(length: usize, vocab: usize, decode_steps: usize, repeats: usize) -> Self {
        Workload {
            prompt: spread_ids(length, vocab, 0),
            decode_steps,
            repeats: repeats.max(1),
        }
    }
}

/// `length` reproducible token ids below `vocab`; `stream` gives each prompt of a batch its own ids.
pub fn spread_ids(length: usize, vocab: usize, stream: u64) -> Vec<u32> {
    let mut state = 0x9E37_79B9_7F4A_7C15_u64 ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03);
    (0..length)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) % vocab.max(1) as u64) as u32
        })
        .collect()
}

/// One implementation's figures on a [`Workload`].
#[derive(Debug, Clone)]
pub struct Measurement {
    /// Best time of one prefill of the whole prompt.
    pub prefill: Duration,
    /// Best time of all decode steps of one run.
    pub decode: Duration,
    /// The argmax after the prefill, then after each decode step (first run).
    pub greedy: Vec<u32>,
    pub prompt_tokens: usize,
    pub decode_steps: usize,
}

impl Measurement {
    /// The protocol every implementation follows: an untimed warm-up on the prompt's first 16 tokens,
    /// then `workload.repeats` runs, each from an empty cache. `run_once(prompt, decode_steps)` times
    /// one prefill and the decode steps and returns the greedy tokens; the best times count and the
    /// first run's tokens are kept.
    pub fn best_of(
        workload: &Workload,
        mut run_once: impl FnMut(&[u32], usize) -> anyhow::Result<(Duration, Duration, Vec<u32>)>,
    ) -> anyhow::Result<Self> {
        let warm_up = &workload.prompt[..workload.prompt.len().min(16)];
        run_once(warm_up, 4)?;
        let mut best_prefill = Duration::MAX;
        let mut best_decode = Duration::MAX;
        let mut first_greedy = None;
        for _ in 0..workload.repeats {
            let (prefill, decode, greedy) = run_once(&workload.prompt, workload.decode_steps)?;
            best_prefill = best_prefill.min(prefill);
            best_decode = best_decode.min(decode);
            first_greedy.get_or_insert(greedy);
        }
        Ok(Self {
            prefill: best_prefill,
            decode: best_decode,
            greedy: first_greedy.unwrap_or_default(),
            prompt_tokens: workload.prompt.len(),
            decode_steps: workload.decode_steps,
        })
    }

    pub fn prefill_tokens_per_second(&self) -> f64 {
        self.prompt_tokens as f64 / self.prefill.as_secs_f64()
    }

    pub fn decode_tokens_per_second(&self) -> f64 {
        self.decode_steps as f64 / self.decode.as_secs_f64()
    }

    /// Seconds per decoded token.
    pub fn seconds_per_token(&self) -> f64 {
        self.decode.as_secs_f64() / self.decode_steps as f64
    }
}

/// How far two greedy sequences agree: the length of their common prefix out of the shorter length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Agreement {
    pub common_prefix: usize,
    pub compared: usize,
}

impl Agreement {
    pub fn between(reference: &[u32], other: &[u32]) -> Self {
        let compared = reference.len().min(other.len());
        let common_prefix = reference.iter().zip(other).take_while(|(a, b)| a == b).count();
        Agreement {
            common_prefix,
            compared,
        }
    }

    pub fn is_full(&self) -> bool {
        self.common_prefix == self.compared && self.compared > 0
    }

    pub fn describe(&self) -> String {
        if self.is_full() {
            format!("agree ({} of {} tokens)", self.common_prefix, self.compared)
        } else {
            format!(
                "DISAGREE: same first {} of {} tokens",
                self.common_prefix, self.compared
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_ids_stay_in_the_vocabulary_and_differ_between_streams() {
        let first = spread_ids(256, 1000, 0);
        let second = spread_ids(256, 1000, 1);
        assert_eq!(first.len(), 256);
        assert!(first.iter().all(|&id| id < 1000));
        assert_ne!(first, second);
        assert_eq!(first, spread_ids(256, 1000, 0));
        let distinct: std::collections::HashSet<_> = first.iter().collect();
        assert!(
            distinct.len() > 200,
            "ids should spread, got {} distinct",
            distinct.len()
        );
    }

    #[test]
    fn agreement_counts_the_common_prefix() {
        let full = Agreement::between(&[1, 2, 3], &[1, 2, 3]);
        assert!(full.is_full());
        let split = Agreement::between(&[1, 2, 3, 4], &[1, 2, 9, 4]);
        assert_eq!(split.common_prefix, 2);
        assert_eq!(split.compared, 4);
        assert!(!split.is_full());
        assert!(split.describe().starts_with("DISAGREE"));
    }
}
