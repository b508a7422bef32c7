//! One micro-batch of rollouts as the objective's [`TokenBatch`]: the policy's log-probabilities
//! (differentiable), the reference model's and the sampler's, the completion mask and the advantages.

use burn::tensor::{Device, Tensor, TensorData};

use crate::error::TrainError;
use crate::grpo::logprobs::{LogprobSettings, RolloutTokens, completion_logprobs};
use crate::grpo::objective::{ObjectiveFigures, TokenBatch};
use crate::grpo::trainer::Turn;
use crate::model::TrainableQwen3;

/// A model turn of a rollout that carries an advantage, with that advantage.
#[derive(Debug, Clone, Copy)]
pub(crate) struct UsedRollout<'a> {
    pub turn: &'a Turn,
    pub advantage: f64,
}

/// The token batch of `rollouts` on the policy's (autodiff) `device`, and its completion tokens.
pub(crate) fn token_batch(
    policy: &TrainableQwen3,
    reference: &TrainableQwen3,
    rollouts: &[UsedRollout<'_>],
    settings: &LogprobSettings,
    device: &Device,
) -> Result<(TokenBatch, usize), TrainError> {
    let tokens: Vec<RolloutTokens<'_>> = rollouts
        .iter()
        .map(|used| RolloutTokens {
            prompt: &used.turn.prompt_ids,
            completion: &used.turn.completion.ids,
        })
        .collect();
    let trained = completion_logprobs(policy, &tokens, settings)?;
    // The reference runs without autodiff; its numbers join the batch as constants.
    let frozen = completion_logprobs(reference, &tokens, settings)?;
    let reference_values = Tensor::<2>::from_data(frozen.values.into_data(), device);
    let [rows, width] = trained.values.dims();
    let mut sampler = Vec::with_capacity(rows * width);
    for used in rollouts {
        let logprobs = &used.turn.completion.logprobs;
        sampler.extend(logprobs);
        sampler.extend(std::iter::repeat_n(0.0f32, width - logprobs.len()));
    }
    let advantages: Vec<f32> = rollouts.iter().map(|used| used.advantage as f32).collect();
    let batch = TokenBatch {
        policy: trained.values,
        sampler: Tensor::from_data(TensorData::new(sampler, [rows, width]), device),
        reference: reference_values,
        mask: trained.mask,
        advantages: Tensor::from_data(TensorData::new(advantages, [rows]), device),
    };
    Ok((batch, trained.tokens))
}

/// The figures of a whole step from its micro-batches': means weighted by tokens, the largest gap kept.
pub(crate) fn combine(total: &mut ObjectiveFigures, part: &ObjectiveFigures) {
    let tokens = total.tokens + part.tokens;
    if tokens > 0.0 {
        let weigh = |a: f64, b: f64| (a * total.tokens + b * part.tokens) / tokens;
        total.kl = weigh(total.kl, part.kl);
        total.clipped = weigh(total.clipped, part.clipped);
        total.ratio = weigh(total.ratio, part.ratio);
        total.mismatch_mean = weigh(total.mismatch_mean, part.mismatch_mean);
    }
    total.mismatch_max = total.mismatch_max.max(part.mismatch_max);
    total.tokens = tokens;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_figures_weigh_micro_batches_by_their_tokens() {
        let mut total = ObjectiveFigures::default();
        let first = ObjectiveFigures {
            tokens: 1.0,
            kl: 0.4,
            clipped: 1.0,
            ratio: 1.2,
            mismatch_mean: 0.1,
            mismatch_max: 0.1,
        };
        let second = ObjectiveFigures {
            tokens: 3.0,
            kl: 0.0,
            clipped: 0.0,
            ratio: 1.0,
            mismatch_mean: 0.3,
            mismatch_max: 0.5,
        };
        combine(&mut total, &first);
        combine(&mut total, &second);
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert_eq!(total.tokens, 4.0);
        assert!(close(total.kl, 0.1) && close(total.clipped, 0.25) && close(total.ratio, 1.05));
        assert!(
            close(total.mismatch_mean, 0.25) && close(total.mismatch_max, 0.5),
            "{total:?}"
        );
    }
}
