//! Choosing the next token from one row of logits, and deciding when generation stops.
//!
//! [`Sampler`] applies temperature (0 means greedy), top-k and top-p with a seeded ChaCha RNG, never
//! picks an id at or above the tokenizer's vocabulary bound (models pad `vocab_size`), and reports the
//! chosen token's log-probability with the top-N alternatives. [`StopChecker`] watches the streamed text
//! for stop strings that may straddle tokens, stop token ids and the token budget.
//!
//! Log-probabilities are a numerically stable log-softmax of `logits / temperature` over the valid
//! vocabulary, taken before top-k/top-p truncation: the distribution the token was drawn from before
//! the sampler's filters, which is what RL trainers recompute. A greedy request (temperature 0)
//! reports the log-softmax of the raw logits (temperature 1).

mod logprobs;
mod params;
mod stop;

pub use logprobs::TokenLogprob;
pub use params::SamplingParams;
pub use stop::{FinishReason, StopChecker, StopConditions, StopStep};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use logprobs::LogSoftmax;

/// Top-p first gathers the tokens at least this likely (log-probabilities: 1e-4, 1e-6, 1e-8); once
/// such a set holds `top_p` of the mass, the nucleus lies inside it, and only it is sorted. The whole
/// vocabulary is sorted only for very flat distributions.
const TOP_P_FLOORS: [f64; 3] = [-9.210_340_371_976_184, -13.815_510_557_964_274, -18.420_680_743_952_367];

/// What went wrong while sampling or checking stops.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SampleError {
    /// A sampling parameter is out of range.
    #[error("invalid {name}: {reason}")]
    InvalidParameter { name: &'static str, reason: String },
    /// The logits row (within the valid vocabulary) is empty.
    #[error("the logits row has no valid token (row length {row_len}, valid vocabulary {valid_vocab})")]
    EmptyRow { row_len: usize, valid_vocab: usize },
    /// The model produced NaN or +∞, which no distribution can be built from.
    #[error("logit of token {id} is {value}")]
    NonFiniteLogit { id: u32, value: f32 },
    /// Every valid token has logit −∞ (everything was masked out).
    #[error("every token is masked out (all logits are -inf)")]
    NoCandidate,
}

/// The token chosen for one position.
#[derive(Clone, Debug, PartialEq)]
pub struct SampledToken {
    pub id: u32,
    /// Its log-probability (see the module docs for which distribution).
    pub logprob: f32,
    /// The `top_logprobs` most likely tokens, most likely first (ties: lower id first).
    pub top_logprobs: Vec<TokenLogprob>,
}

/// A sampler for one sequence: parameters, the valid-vocabulary bound and its own RNG stream.
#[derive(Clone, Debug)]
pub struct Sampler {
    params: SamplingParams,
    valid_vocab: usize,
    rng: ChaCha8Rng,
    /// Candidate ids, kept between calls to avoid a vocabulary-sized allocation per token.
    order: Vec<u32>,
}

impl Sampler {
    /// A sampler drawing only ids below `valid_vocab` (the tokenizer's id bound). With a seed, the
    /// same logits give the same tokens on every run; without one, the RNG is seeded from the OS.
    pub fn new(params: SamplingParams, valid_vocab: usize) -> Result<Self, SampleError> {
        params.validate()?;
        if valid_vocab == 0 {
            return Err(SampleError::InvalidParameter {
                name: "valid_vocab",
                reason: "must be at least 1".to_string(),
            });
        }
        let rng = match params.seed {
            Some(seed) => ChaCha8Rng::seed_from_u64(seed),
            None => ChaCha8Rng::from_os_rng(),
        };
        Ok(Self {
            params,
            valid_vocab,
            rng,
            order: Vec::new(),
        })
    }

    pub fn params(&self) -> &SamplingParams {
        &self.params
    }

    /// Picks the next token from one row of logits (`[vocab_size]`, padded ids included).
    pub fn sample(&mut self, logits: &[f32]) -> Result<SampledToken, SampleError> {
        let row = &logits[..logits.len().min(self.valid_vocab)];
        if row.is_empty() {
            return Err(SampleError::EmptyRow {
                row_len: logits.len(),
                valid_vocab: self.valid_vocab,
            });
        }
        let greedy = self.params.is_greedy();
        let temperature = if greedy { 1.0 } else { self.params.temperature };
        let distribution = LogSoftmax::new(row, temperature)?;
        let id = if greedy {
            distribution.argmax()
        } else {
            self.draw(&distribution)
        };
        Ok(SampledToken {
            id,
            logprob: distribution.logprob(id),
            top_logprobs: distribution.top(self.params.top_logprobs),
        })
    }

    /// Draws from the tempered distribution after top-k and top-p.
    fn draw(&mut self, distribution: &LogSoftmax<'_>) -> u32 {
        let len = distribution.len();
        let top_k = self.params.top_k.filter(|&k| k < len);
        let top_p = (self.params.top_p < 1.0).then_some(f64::from(self.params.top_p));
        if top_k.is_none() && top_p.is_none() {
            let uniform: f64 = self.rng.random();
            return distribution.draw_all(uniform);
        }

        let mut order = std::mem::take(&mut self.order);
        match (top_k, top_p) {
            (Some(k), _) => distribution.most_likely(&mut order, k),
            (None, Some(p)) => {
                let enough = TOP_P_FLOORS.iter().any(|&floor| {
                    distribution.at_least(&mut order, floor);
                    distribution.mass(&order) >= p
                });
                if !enough {
                    distribution.most_likely(&mut order, len);
                }
            }
            (None, None) => {}
        }
        let mut kept = order.as_slice();
        if let Some(p) = top_p {
            kept = &kept[..distribution.nucleus_len(kept, p)];
        }
        let uniform: f64 = self.rng.random();
        let id = distribution.draw_among(kept, uniform);
        self.order = order;
        id
    }
}
