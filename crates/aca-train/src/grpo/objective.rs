//! The GRPO objective over a batch of sampled completions: the clipped surrogate of each token's
//! probability ratio to the sampler's, times its rollout's advantage, plus β times the k3 estimate of
//! the KL divergence to the frozen reference model, averaged over every completion token of the batch
//! (observations and tool results are not the model's tokens: the mask leaves them out).

use burn::tensor::Tensor;
use serde::{Deserialize, Serialize};

/// The objective's constants.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ObjectiveConfig {
    /// The surrogate's clipping range: ratios outside `[1 − ε, 1 + ε]` stop the gradient.
    pub clip_epsilon: f64,
    /// Weight of the KL penalty to the reference model.
    pub kl_beta: f64,
}

impl Default for ObjectiveConfig {
    fn default() -> Self {
        ObjectiveConfig {
            clip_epsilon: 0.2,
            kl_beta: 0.1,
        }
    }
}

/// One batch of completions, row by row, padded to one length: `[rollouts, tokens]` each.
#[derive(Debug, Clone)]
pub struct TokenBatch {
    /// Log-probabilities of the sampled tokens under the policy being trained (differentiable).
    pub policy: Tensor<2>,
    /// The same under the policy that sampled them (the sampler's own logprobs).
    pub sampler: Tensor<2>,
    /// The same under the frozen reference model.
    pub reference: Tensor<2>,
    /// 1 for the model's own tokens, 0 for prompt, observations and padding.
    pub mask: Tensor<2>,
    /// Each rollout's advantage, `[rollouts]`.
    pub advantages: Tensor<1>,
}

/// The loss to minimise and what it is made of.
#[derive(Debug, Clone)]
pub struct Objective {
    /// `[1]`: the negated clipped surrogate plus β·KL, averaged over the batch's masked tokens.
    pub loss: Tensor<1>,
    pub figures: ObjectiveFigures,
}

/// Token-averaged figures of one batch, for the progress line and the log.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct ObjectiveFigures {
    pub tokens: f64,
    /// Mean k3 KL estimate to the reference.
    pub kl: f64,
    /// Share of tokens whose ratio was clipped (outside `[1 − ε, 1 + ε]` on the side that counts).
    pub clipped: f64,
    /// Mean probability ratio to the sampler.
    pub ratio: f64,
    /// Mean and largest |policy − sampler| log-probability: how far the trainer's numbers are from
    /// the sampler's (before the first update of a batch, this is the train/sample mismatch).
    pub mismatch_mean: f64,
    pub mismatch_max: f64,
}

/// The objective of `batch`.
pub fn objective(batch: &TokenBatch, config: &ObjectiveConfig) -> Objective {
    let [rows, columns] = batch.policy.dims();
    let mask = batch.mask.clone();
    let tokens = mask.clone().sum();
    let advantages = batch.advantages.clone().reshape([rows, 1]).expand([rows, columns]);

    let log_ratio = batch.policy.clone() - batch.sampler.clone();
    let ratio = log_ratio.clone().exp();
    let unclipped = ratio.clone() * advantages.clone();
    let clipped = ratio
        .clone()
        .clamp(1.0 - config.clip_epsilon, 1.0 + config.clip_epsilon)
        * advantages.clone();
    let surrogate = unclipped.clone().min_pair(clipped.clone());

    // k3: exp(ref − policy) − (ref − policy) − 1, unbiased and never negative.
    let to_reference = batch.reference.clone() - batch.policy.clone();
    let kl = to_reference.clone().exp() - to_reference - 1.0;

    let per_token = surrogate.neg() + kl.clone() * config.kl_beta;
    let token_count = tokens.clone().clamp_min(1.0);
    let loss = (per_token * mask.clone()).sum() / token_count.clone();

    let figures = {
        let count = scalar(&tokens);
        let mean = |values: Tensor<2>| {
            if count > 0.0 {
                scalar(&(values * mask.clone()).sum()) / count
            } else {
                0.0
            }
        };
        let was_clipped = clipped.lower(unclipped).float();
        let gap = log_ratio.abs();
        let largest_gap = if count > 0.0 {
            scalar(&(gap.clone().detach() * mask.clone()).max())
        } else {
            0.0
        };
        ObjectiveFigures {
            tokens: count,
            kl: mean(kl.detach()),
            clipped: mean(was_clipped),
            ratio: mean(ratio.detach()),
            mismatch_mean: mean(gap.detach()),
            mismatch_max: largest_gap,
        }
    };
    Objective { loss, figures }
}

fn scalar(tensor: &Tensor<1>) -> f64 {
    tensor
        .clone()
        .detach()
        .into_data()
        .try_to_vec::<f32>()
        .ok()
        .and_then(|v| v.first().copied())
        .map_or(0.0, f64::from)
}

#[cfg(test)]
mod tests;
