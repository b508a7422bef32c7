//! The learning rate of each optimizer step: linear warm-up to the peak, then cosine decay to the floor.
//!
//! A pure function of the step, so a resumed run picks up the schedule from its step alone.

use serde::{Deserialize, Serialize};

/// Warm-up then cosine decay over a run of `total_steps` optimizer steps.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LrSchedule {
    pub peak: f64,
    /// The rate the cosine ends at.
    pub floor: f64,
    pub warmup_steps: usize,
    pub total_steps: usize,
}

impl LrSchedule {
    /// The rate of optimizer step `step` (0-based): `peak · (step + 1) / warmup` during warm-up, then
    /// `floor + (peak − floor) · (1 + cos(π · progress)) / 2`, where progress runs from 0 at the first
    /// step after warm-up to 1 at the last step.
    pub fn rate(&self, step: usize) -> f64 {
        if step < self.warmup_steps {
            return self.peak * (step + 1) as f64 / self.warmup_steps as f64;
        }
        let decay_steps = self.total_steps.saturating_sub(self.warmup_steps);
        if decay_steps <= 1 {
            return self.peak;
        }
        let progress = ((step - self.warmup_steps) as f64 / (decay_steps - 1) as f64).min(1.0);
        self.floor + (self.peak - self.floor) * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCHEDULE: LrSchedule = LrSchedule {
        peak: 1e-3,
        floor: 1e-5,
        warmup_steps: 10,
        total_steps: 111,
    };

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn warm_up_rises_linearly_to_the_peak() {
        assert!(close(SCHEDULE.rate(0), 1e-4));
        assert!(close(SCHEDULE.rate(4), 5e-4));
        assert!(close(SCHEDULE.rate(9), 1e-3));
    }

    #[test]
    fn cosine_decay_passes_the_midpoint_and_ends_at_the_floor() {
        // The first decay step is the peak, step 60 is halfway through the 101 decay steps, 110 the last.
        assert!(close(SCHEDULE.rate(10), 1e-3));
        assert!(close(SCHEDULE.rate(60), (1e-3 + 1e-5) / 2.0));
        assert!(close(SCHEDULE.rate(110), 1e-5));
        assert!(close(SCHEDULE.rate(500), 1e-5));
        assert!(SCHEDULE.rate(30) > SCHEDULE.rate(31));
    }

    #[test]
    fn without_warm_up_the_first_step_is_the_peak() {
        let schedule = LrSchedule {
            warmup_steps: 0,
            ..SCHEDULE
        };
        assert!(close(schedule.rate(0), 1e-3));
    }
}
