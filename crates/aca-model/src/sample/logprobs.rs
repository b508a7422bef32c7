//! A stable log-softmax over one logits row, with the selections the sampler needs (top-k order,
//! nucleus, weighted draws) computed from it without materialising a probability vector.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use crate::sample::SampleError;

/// A token and its log-probability.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TokenLogprob {
    pub id: u32,
    pub logprob: f32,
}

/// Below `len / SMALL_K_RATIO`, the k most likely ids are found with a heap rather than a selection
/// over every id.
const SMALL_K_RATIO: usize = 16;

/// A logit and its id, ordered by likelihood: higher logit first, then lower id.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Candidate {
    value: f32,
    id: u32,
}

impl Eq for Candidate {}

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> Ordering {
        self.value.total_cmp(&other.value).then(other.id.cmp(&self.id))
    }
}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// `log_softmax(row / temperature)`, as `(row[i] - max) / temperature - log Σ exp(…)` in f64.
pub(crate) struct LogSoftmax<'a> {
    row: &'a [f32],
    max: f32,
    inverse_temperature: f32,
    log_normaliser: f64,
}

impl<'a> LogSoftmax<'a> {
    /// Refuses NaN and +∞ logits and rows where every logit is −∞ (−∞ alone means "masked").
    pub(crate) fn new(row: &'a [f32], temperature: f32) -> Result<Self, SampleError> {
        let mut max = f32::NEG_INFINITY;
        for (id, &value) in row.iter().enumerate() {
            if value.is_nan() || value == f32::INFINITY {
                return Err(SampleError::NonFiniteLogit { id: id as u32, value });
            }
            max = max.max(value);
        }
        if max == f32::NEG_INFINITY {
            return Err(SampleError::NoCandidate);
        }
        let inverse_temperature = 1.0 / temperature;
        let sum: f64 = row
            .iter()
            .map(|&value| f64::from(((value - max) * inverse_temperature).exp()))
            .sum();
        Ok(Self {
            row,
            max,
            inverse_temperature,
            log_normaliser: sum.ln(),
        })
    }

    pub(crate) fn len(&self) -> usize {
        self.row.len()
    }

    fn log_prob_f64(&self, id: u32) -> f64 {
        f64::from((self.row[id as usize] - self.max) * self.inverse_temperature) - self.log_normaliser
    }

    fn prob(&self, id: u32) -> f64 {
        f64::from((self.log_prob_f64(id) as f32).exp())
    }

    pub(crate) fn logprob(&self, id: u32) -> f32 {
        self.log_prob_f64(id) as f32
    }

    /// Most likely first; equal logits in id order, so every selection is deterministic.
    fn more_likely(&self, a: u32, b: u32) -> Ordering {
        self.row[b as usize].total_cmp(&self.row[a as usize]).then(a.cmp(&b))
    }

    /// The most likely id (the lowest id among equals).
    pub(crate) fn argmax(&self) -> u32 {
        let mut best = 0;
        for (id, &value) in self.row.iter().enumerate() {
            if value > self.row[best] {
                best = id;
            }
        }
        best as u32
    }

    /// Fills `order` with the `k` most likely ids, most likely first.
    pub(crate) fn most_likely(&self, order: &mut Vec<u32>, k: usize) {
        order.clear();
        let k = k.min(self.row.len());
        if k == 0 {
            return;
        }
        if k.saturating_mul(SMALL_K_RATIO) <= self.row.len() {
            // One pass with a k-sized heap of the best so far: most ids lose one comparison to its root.
            let mut heap: BinaryHeap<Reverse<Candidate>> = BinaryHeap::with_capacity(k + 1);
            for (id, &value) in self.row.iter().enumerate() {
                let candidate = Candidate { value, id: id as u32 };
                if heap.len() < k {
                    heap.push(Reverse(candidate));
                } else if heap.peek().is_some_and(|Reverse(worst)| candidate > *worst) {
                    heap.pop();
                    heap.push(Reverse(candidate));
                }
            }
            order.extend(heap.into_iter().map(|Reverse(candidate)| candidate.id));
        } else {
            order.extend(0..self.row.len() as u32);
            if k < order.len() {
                order.select_nth_unstable_by(k - 1, |&a, &b| self.more_likely(a, b));
                order.truncate(k);
            }
        }
        order.sort_unstable_by(|&a, &b| self.more_likely(a, b));
    }

    /// Fills `order` with every id whose log-probability is at least `floor`, most likely first. The
    /// set is a logit cut, so it is always a prefix of the vocabulary sorted by likelihood.
    pub(crate) fn at_least(&self, order: &mut Vec<u32>, floor: f64) {
        let cut = self.max + ((floor + self.log_normaliser) as f32) / self.inverse_temperature;
        order.clear();
        order.extend(
            self.row
                .iter()
                .enumerate()
                .filter(|&(_, &value)| value >= cut)
                .map(|(id, _)| id as u32),
        );
        order.sort_unstable_by(|&a, &b| self.more_likely(a, b));
    }

    /// The `n` most likely tokens with their log-probabilities.
    pub(crate) fn top(&self, n: usize) -> Vec<TokenLogprob> {
        if n == 0 {
            return Vec::new();
        }
        let mut order = Vec::new();
        self.most_likely(&mut order, n);
        order
            .iter()
            .map(|&id| TokenLogprob {
                id,
                logprob: self.logprob(id),
            })
            .collect()
    }

    /// Total probability of `ids`.
    pub(crate) fn mass(&self, ids: &[u32]) -> f64 {
        ids.iter().map(|&id| self.prob(id)).sum()
    }

    /// How many of `sorted` (most likely first) make the smallest prefix whose mass reaches `top_p`.
    pub(crate) fn nucleus_len(&self, sorted: &[u32], top_p: f64) -> usize {
        let mut cumulative = 0.0;
        for (index, &id) in sorted.iter().enumerate() {
            cumulative += self.prob(id);
            if cumulative >= top_p {
                return index + 1;
            }
        }
        sorted.len()
    }

    /// Draws from the whole row with `uniform` in `[0, 1)`.
    pub(crate) fn draw_all(&self, uniform: f64) -> u32 {
        let ids = 0..self.row.len() as u32;
        self.draw_weighted(ids, 1.0, uniform)
    }

    /// Draws from `ids` renormalised, with `uniform` in `[0, 1)`.
    pub(crate) fn draw_among(&self, ids: &[u32], uniform: f64) -> u32 {
        self.draw_weighted(ids.iter().copied(), self.mass(ids), uniform)
    }

    fn draw_weighted(&self, ids: impl Iterator<Item = u32>, total: f64, uniform: f64) -> u32 {
        let target = uniform * total;
        let mut cumulative = 0.0;
        let mut last_possible = None;
        for id in ids {
            let probability = self.prob(id);
            if probability <= 0.0 {
                continue;
            }
            cumulative += probability;
            last_possible = Some(id);
            if cumulative > target {
                return id;
            }
        }
        // Rounding left the target just past the last cumulative sum: the last possible token.
        last_possible.unwrap_or_else(|| self.argmax())
    }
}
