//! Group-relative advantages in two tiers: each task's rollouts are compared with their group (the
//! same task's other rollouts), then every advantage of the batch is scaled together.
//!
//! Rollouts the reward service could not score are never scored 0: an invalid reward (the judges
//! disagreed, −1) and an environment failure (provisioning, a quota, a console error) are dropped and
//! counted. A group with fewer than two scored rollouts, or whose rewards are all equal, teaches
//! nothing relative to itself: it contributes no advantage and is counted.

use serde::{Deserialize, Serialize};

/// What the reward service said about one rollout.
#[derive(Debug, Clone, PartialEq)]
pub enum RolloutReward {
    /// A reward in `[0, 1]` (rule channel, or the judges' agreement).
    Scored(f64),
    /// The reward is invalid: the judges disagreed.
    Invalid,
    /// The environment failed; the reason is kept for the counts.
    Environment(String),
}

/// The stabilising constant added to each standard deviation.
pub const EPSILON: f64 = 1e-6;

/// What happened to a batch's rollouts and groups.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AdvantageCounts {
    pub groups: usize,
    /// Groups whose scored rewards were all equal.
    pub equal_groups: usize,
    /// Groups with fewer than two scored rollouts.
    pub thin_groups: usize,
    pub scored: usize,
    pub invalid: usize,
    pub environment: usize,
    /// Mean scored reward of the batch (every scored rollout, skipped groups included).
    pub mean_reward: Option<f64>,
}

/// Each rollout's advantage (`None` when it contributes nothing), group by group, and the counts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Advantages {
    pub groups: Vec<Vec<Option<f64>>>,
    pub counts: AdvantageCounts,
}

impl Advantages {
    /// Rollouts that carry an advantage.
    pub fn used(&self) -> usize {
        self.groups.iter().flatten().filter(|a| a.is_some()).count()
    }
}

/// The two-tier advantages of `groups` (one group per task, one reward per rollout).
pub fn advantages(groups: &[Vec<RolloutReward>]) -> Advantages {
    let mut counts = AdvantageCounts {
        groups: groups.len(),
        ..AdvantageCounts::default()
    };
    let mut all_rewards = Vec::new();
    let mut tier_one: Vec<Vec<Option<f64>>> = Vec::with_capacity(groups.len());
    for group in groups {
        let scored: Vec<f64> = group
            .iter()
            .filter_map(|reward| match reward {
                RolloutReward::Scored(value) => Some(*value),
                RolloutReward::Invalid => {
                    counts.invalid += 1;
                    None
                }
                RolloutReward::Environment(_) => {
                    counts.environment += 1;
                    None
                }
            })
            .collect();
        counts.scored += scored.len();
        all_rewards.extend(&scored);
        let usable = if scored.len() < 2 {
            counts.thin_groups += 1;
            false
        } else if scored.iter().all(|r| (r - scored[0]).abs() < 1e-12) {
            counts.equal_groups += 1;
            false
        } else {
            true
        };
        let (mean, std) = mean_std(&scored);
        tier_one.push(
            group
                .iter()
                .map(|reward| match reward {
                    RolloutReward::Scored(value) if usable => Some((value - mean) / (std + EPSILON)),
                    _ => None,
                })
                .collect(),
        );
    }
    counts.mean_reward = (!all_rewards.is_empty()).then(|| all_rewards.iter().sum::<f64>() / all_rewards.len() as f64);
    let batch: Vec<f64> = tier_one.iter().flatten().flatten().copied().collect();
    let (mean, std) = mean_std(&batch);
    let groups = tier_one
        .into_iter()
        .map(|group| {
            group
                .into_iter()
                .map(|a| a.map(|a| (a - mean) / (std + EPSILON)))
                .collect()
        })
        .collect();
    Advantages { groups, counts }
}

/// Mean and sample standard deviation (n − 1, as `torch.std`); 0 for fewer than two values.
fn mean_std(values: &[f64]) -> (f64, f64) {
    if values.is_empty() {
        return (0.0, 0.0);
    }
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    if values.len() < 2 {
        return (mean, 0.0);
    }
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (values.len() - 1) as f64;
    (mean, variance.sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-5
    }

    #[test]
    fn advantages_are_normalised_in_the_group_then_in_the_batch() {
        use RolloutReward::Scored;
        // Group 1: rewards 1, 0, 0, 1 → mean 0.5, sample std 1/√3 → ±√3/2 each.
        // Group 2: 1, 0, 0 → mean 1/3, std 1/√3 → 2/√3, −1/√3, −1/√3.
        let groups = vec![
            vec![Scored(1.0), Scored(0.0), Scored(0.0), Scored(1.0)],
            vec![Scored(1.0), Scored(0.0), Scored(0.0)],
        ];
        let result = advantages(&groups);
        let h = 3f64.sqrt() / 2.0;
        let tier_one = [h, -h, -h, h, 2.0 / 3f64.sqrt(), -1.0 / 3f64.sqrt(), -1.0 / 3f64.sqrt()];
        let mean = tier_one.iter().sum::<f64>() / 7.0;
        let std = (tier_one.iter().map(|a| (a - mean).powi(2)).sum::<f64>() / 6.0).sqrt();
        let got: Vec<f64> = result.groups.iter().flatten().map(|a| a.unwrap()).collect();
        for (g, t) in got.iter().zip(tier_one) {
            assert!(close(*g, (t - mean) / std), "{got:?}");
        }
        assert_eq!(result.counts.scored, 7);
        assert!(close(result.counts.mean_reward.unwrap(), 3.0 / 7.0));
    }

    #[test]
    fn equal_and_thin_groups_give_nothing_and_unscored_rollouts_are_dropped_not_zeroed() {
        use RolloutReward::{Environment, Invalid, Scored};
        let groups = vec![
            vec![Scored(1.0), Scored(1.0), Scored(1.0)],
            vec![Scored(0.0), Invalid, Environment("quota".into())],
            vec![Scored(1.0), Invalid, Scored(0.0), Environment("console error".into())],
        ];
        let result = advantages(&groups);
        assert!(result.groups[0].iter().all(Option::is_none));
        assert!(result.groups[1].iter().all(Option::is_none));
        let third = &result.groups[2];
        assert!(third[1].is_none() && third[3].is_none());
        let (a, b) = (third[0].unwrap(), third[2].unwrap());
        assert!(a > 0.0 && b < 0.0 && close(a, -b), "{third:?}");
        assert_eq!(result.used(), 2);
        let c = &result.counts;
        assert_eq!((c.groups, c.equal_groups, c.thin_groups), (3, 1, 1));
        assert_eq!((c.scored, c.invalid, c.environment), (6, 2, 2));
    }
}
