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

/// Summed cross-entropy of `samples` under `model`, padding them with `pad`.
pub fn batch_loss(model: &TrainableQwen3, samples: &[&TokenizedSample], pad: u32, device: &Device) -> BatchLoss {
    let sequences: Vec<&[u32]> = samples.iter().map(|sample| sample.ids.as_slice()).collect();
    let ids = pad_batch(&sequences, pad, device);
    let [batch, length] = ids.dims();
    let logits = model.forward(ids);
    let vocab = model.config.vocab_size;
    // Position t of each row predicts id t + 1; the last position predicts nothing.
    let mut targets = Vec::with_capacity(batch * length);
    let mut weights = Vec::with_capacity(batch * length);
    let mut tokens = 0;
    for sample in samples {
        for position in 0..length {
            let next = position + 1;
            let learned = sample.is_learned(next);
            targets.push(if learned { i64::from(sample.ids[next]) } else { 0 });
            weights.push(if learned { 1.0f32 } else { 0.0 });
            tokens += usize::from(learned);
        }
    }
    let targets = Tensor::<2, Int>::from_data(TensorData::new(targets, [batch * length, 1]), device);
    let weights = Tensor::<2>::from_data(TensorData::new(weights, [batch * length, 1]), device);
    let log_probabilities = log_softmax(logits.reshape([batch * length, vocab]), 1);
    let picked = log_probabilities.gather(1, targets);
    BatchLoss {
        sum: (picked * weights).sum().neg(),
        tokens,
    }
}
