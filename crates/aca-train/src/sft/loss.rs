//! The masked next-token cross-entropy of a micro-batch: each position predicts the next id, and only
//! predictions of learned (assistant) ids count.

use burn::tensor::activation::log_softmax;
use burn::tensor::{Device, Int, Tensor, TensorData};

use crate::model::{TrainableQwen3, pad_batch};
use crate::sft::tokenize::TokenizedSample;

/// A micro-batch's summed loss (a scalar tensor, differentiable when the model is) and its learned-token count.
#[derive(Debug)]
pub struct BatchLoss {
    /// Sum over learned tokens of −log p(token); `[1]`.
    pub sum: Tensor<1>,
    pub tokens: usize,
}

/// Summed cross-entropy of `samples` under `model`, padding them with `pad`. The output layer runs
/// only at the positions that predict a learned id: a reply is a small part of a long prompt, and
/// the vocabulary-wide output layer is most of a small model's cost.
pub fn batch_loss(model: &TrainableQwen3, samples: &[&TokenizedSample], pad: u32, device: &Device) -> BatchLoss {
    let sequences: Vec<&[u32]> = samples.iter().map(|sample| sample.ids.as_slice()).collect();
    let ids = pad_batch(&sequences, pad, device);
    let [_, length] = ids.dims();
    // Row `b·length + t` of the hidden states predicts id t + 1 of sequence b.
    let mut rows = Vec::new();
    let mut targets = Vec::new();
    for (b, sample) in samples.iter().enumerate() {
        for position in 0..length {
            let next = position + 1;
            if sample.is_learned(next) {
                rows.push((b * length + position) as i64);
                targets.push(i64::from(sample.ids[next]));
            }
        }
    }
    let tokens = rows.len();
    if tokens == 0 {
        return BatchLoss {
            sum: Tensor::<1>::zeros([1], device),
            tokens,
        };
    }
    let hidden = model.params.hidden(&model.config, ids);
    let rows = Tensor::<1, Int>::from_data(TensorData::new(rows, [tokens]), device);
    let logits = model.params.logits(hidden.select(0, rows));
    let targets = Tensor::<2, Int>::from_data(TensorData::new(targets, [tokens, 1]), device);
    let picked = log_softmax(logits, 1).gather(1, targets);
    BatchLoss {
        sum: picked.sum().neg(),
        tokens,
    }
}
