//! The measuring protocol every implementation follows, and what one measurement holds.

use std::time::Duration;

/// What each implementation is asked to do, identically.
#[derive(Debug, Clone)]
pub struct Workload {
    /// The prompt's token ids, prefilled in one forward call.
    pub prompt: Vec<u32>,
    /// Single-token forward calls after the prefill, each followed by an argmax.
    pub decode_steps: usize,
    /// Timed rounds, each run from an empty cache; the best prefill and the best decode are kept.
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

/// One implementation under test: `run_once(prompt, decode_steps)` times one prefill of `prompt` and
/// `decode_steps` greedy decode steps from an empty cache and returns the greedy tokens.
pub type RunOnce<'a> = Box<dyn FnMut(&[u32], usize) -> anyhow::Result<(Duration, Duration, Vec<u32>)> + 'a>;

impl Measurement {
    /// The protocol every in-process implementation follows: each warms up untimed on the prompt's
    /// first 16 tokens, then `workload.repeats` rounds run every implementation once, in turn, so a
    /// change in the machine's load falls on all of them alike. The best prefill and the best decode
    /// count; the first run's tokens are kept. An implementation that fails leaves the later rounds
    /// with its error, the others go on.
    pub fn interleaved(workload: &Workload, mut contenders: Vec<RunOnce<'_>>) -> Vec<anyhow::Result<Self>> {
        let warm_up = &workload.prompt[..workload.prompt.len().min(16)];
        let mut states: Vec<anyhow::Result<Best>> = contenders
            .iter_mut()
            .map(|run_once| run_once(warm_up, 4).map(|_| Best::default()))
            .collect();
        for _ in 0..workload.repeats {
            for (run_once, state) in contenders.iter_mut().zip(&mut states) {
                let Ok(best) = state else { continue };
                match run_once(&workload.prompt, workload.decode_steps) {
                    Ok(run) => best.add(run),
                    Err(error) => *state = Err(error),
                }
            }
        }
        states
            .into_iter()
            .map(|state| {
                state.map(|best| Self {
                    prefill: best.prefill,
                    decode: best.decode,
                    greedy: best.greedy.unwrap_or_default(),
                    prompt_tokens: workload.prompt.len(),
                    decode_steps: workload.decode_steps,
                })
            })
            .collect()
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

/// The best times so far of one implementation, and its first run's tokens.
struct Best {
    prefill: Duration,
    decode: Duration,
    greedy: Option<Vec<u32>>,
}

impl Default for Best {
    fn default() -> Self {
        Best {
            prefill: Duration::MAX,
            decode: Duration::MAX,
            greedy: None,
        }
    }
}

impl Best {
    fn add(&mut self, (prefill, decode, greedy): (Duration, Duration, Vec<u32>)) {
        self.prefill = self.prefill.min(prefill);
        self.decode = self.decode.min(decode);
        self.greedy.get_or_insert(greedy);
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

    /// Two contenders take turns round by round; the best times count; one that fails keeps its
    /// error and leaves the other running.
    #[test]
    fn interleaved_runs_take_turns_and_keep_the_best() {
        use std::cell::RefCell;
        let order = RefCell::new(Vec::new());
        let workload = Workload::new(32, 100, 2, 3);
        let times = RefCell::new(vec![30u64, 10, 20].into_iter());
        let steady: RunOnce<'_> = Box::new(|prompt: &[u32], _steps: usize| {
            order.borrow_mut().push(("steady", prompt.len()));
            let millis = if prompt.len() == 32 {
                times.borrow_mut().next().unwrap()
            } else {
                99
            };
            Ok((
                Duration::from_millis(millis),
                Duration::from_millis(millis * 2),
                vec![1, 2, 3],
            ))
        });
        let failing: RunOnce<'_> = Box::new(|prompt: &[u32], _steps: usize| {
            order.borrow_mut().push(("failing", prompt.len()));
            if prompt.len() == 32 && order.borrow().iter().filter(|(name, _)| *name == "failing").count() == 3 {
                anyhow::bail!("out of memory");
            }
            Ok((Duration::from_millis(5), Duration::from_millis(5), vec![7]))
        });
        let results = Measurement::interleaved(&workload, vec![steady, failing]);
        let steady = results[0].as_ref().expect("the steady contender ran");
        assert_eq!(steady.prefill, Duration::from_millis(10));
        assert_eq!(steady.decode, Duration::from_millis(20));
        assert_eq!(steady.greedy, vec![1, 2, 3]);
        let failure = results[1].as_ref().expect_err("the failing contender failed");
        assert!(failure.to_string().contains("out of memory"));
        assert_eq!(
            *order.borrow(),
            [
                ("steady", 16),
                ("failing", 16),
                ("steady", 32),
                ("failing", 32),
                ("steady", 32),
                ("failing", 32),
                ("steady", 32),
            ]
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
