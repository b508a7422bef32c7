//! The seeded order in which training samples are seen: each epoch a fresh permutation drawn from the
//! seed and the epoch, so any position of the stream is found again from the seed alone.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// The seeded order of samples: each epoch a fresh permutation drawn from the seed and the epoch.
pub(crate) struct SampleOrder {
    count: usize,
    seed: u64,
    epoch: Option<usize>,
    permutation: Vec<usize>,
}

impl SampleOrder {
    pub fn new(count: usize, seed: u64) -> Self {
        Self {
            count,
            seed,
            epoch: None,
            permutation: Vec::new(),
        }
    }

    /// The index of the sample at `position` of the endless seeded stream.
    pub fn sample_at(&mut self, position: usize) -> usize {
        let epoch = position / self.count;
        if self.epoch != Some(epoch) {
            let mut rng = ChaCha8Rng::seed_from_u64(self.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ epoch as u64);
            self.permutation = (0..self.count).collect();
            self.permutation.shuffle(&mut rng);
            self.epoch = Some(epoch);
        }
        self.permutation[position % self.count]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_epoch_sees_every_sample_once_in_a_seeded_order() {
        let mut order = SampleOrder::new(5, 3);
        let first: Vec<usize> = (0..5).map(|position| order.sample_at(position)).collect();
        let second: Vec<usize> = (5..10).map(|position| order.sample_at(position)).collect();
        for epoch in [&first, &second] {
            let mut sorted = epoch.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, vec![0, 1, 2, 3, 4]);
        }
        let mut again = SampleOrder::new(5, 3);
        assert_eq!(
            (0..5).map(|position| again.sample_at(position)).collect::<Vec<_>>(),
            first
        );
        assert_eq!(again.sample_at(7), second[2]);
    }
}
