//! A stable log-softmax over one logits row, with the selections the sampler needs (top-k order,
//! nucleus, weighted draws) computed from it without materialising a probability vector.

use std::cmp::Ordering;

use crate::sample::SampleError;

/// A token and its log-probability.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TokenLogprob {
    pub id: u32,
    pub logprob: f32,
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
            .map(|&value| f64::from((value - max) * inverse_temperature).exp())
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
        self.log_prob_f64(id).exp()
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
        (0..self.row.len() as u32)
            .min_by(|&a, &b| self.more_likely(a, b))
            .unwrap_or(0)
    }

    /// Fills `order` with every id and puts the `k` most likely first, sorted; returns `k`.
    pub(crate) fn most_likely(&self, order: &mut Vec<u32>, k: usize) -> usize {
        order.clear();
        order.extend(0..self.row.len() as u32);
        let k = k.min(order.len());
        if k == 0 {
            return 0;
        }
        if k < order.len() {
            order.select_nth_unstable_by(k - 1, |&a, &b| self.more_likely(a, b));
        }
        order[..k].sort_unstable_by(|&a, &b| self.more_likely(a, b));
        k
    }

    /// The `n` most likely tokens with their log-probabilities.
    pub(crate) fn top(&self, n: usize) -> Vec<TokenLogprob> {
        if n == 0 {
            return Vec::new();
        }
        let mut order = Vec::new();
        let k = self.most_likely(&mut order, n);
        order[..k]
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
