use burn::tensor::{Device, Tensor, TensorData};

use super::*;

fn matrix(values: [[f64; 2]; 2], device: &Device) -> Tensor<2> {
    let flat: Vec<f32> = values.iter().flatten().map(|v| *v as f32).collect();
    Tensor::from_data(TensorData::new(flat, [2, 2]), device)
}

fn values(tensor: Tensor<2>) -> Vec<f64> {
    tensor
        .into_data()
        .try_to_vec::<f32>()
        .unwrap()
        .into_iter()
        .map(f64::from)
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-4
}

/// Worked by hand. Row 0 (advantage +1): a token at ratio 1 (surrogate 1) and one at ratio 1.5
/// (clipped to 1.2, no gradient). Row 1 (advantage −1): a token at ratio 0.5 (clipped to 0.8, no
/// surrogate gradient; the reference is twice as likely, so k3 = 2 − ln 2 − 1) and a masked token.
#[test]
fn the_clipped_surrogate_and_k3_penalty_match_a_hand_computation_with_their_gradients() {
    let device = Device::default().autodiff();
    let ln = f64::ln;
    let policy = matrix([[ln(0.5), ln(0.3)], [ln(0.1), ln(0.4)]], &device).require_grad();
    let batch = TokenBatch {
        policy: policy.clone(),
        sampler: matrix([[ln(0.5), ln(0.2)], [ln(0.2), ln(0.9)]], &device),
        reference: matrix([[ln(0.5), ln(0.3)], [ln(0.2), ln(0.05)]], &device),
        mask: matrix([[1.0, 1.0], [1.0, 0.0]], &device),
        advantages: Tensor::from_data(TensorData::new(vec![1.0f32, -1.0], [2]), &device),
    };
    let result = objective(&batch, &ObjectiveConfig::default());

    let k3 = 2.0 - 2f64.ln() - 1.0;
    let expected = (-1.0 - 1.2 + (0.8 + 0.1 * k3)) / 3.0;
    let loss = f64::from(result.loss.clone().into_data().try_to_vec::<f32>().unwrap()[0]);
    assert!(close(loss, expected), "loss {loss}, by hand {expected}");
    let f = result.figures;
    assert_eq!(f.tokens, 3.0);
    assert!(close(f.clipped, 2.0 / 3.0), "{f:?}");
    assert!(close(f.kl, k3 / 3.0), "{f:?}");
    assert!(close(f.ratio, (1.0 + 1.5 + 0.5) / 3.0), "{f:?}");
    assert!(close(f.mismatch_max, 2f64.ln()), "{f:?}");

    let gradients = result.loss.backward();
    let grad = values(policy.grad(&gradients).expect("the policy's logprobs have a gradient"));
    let by_hand = [-1.0 / 3.0, 0.0, 0.1 * (1.0 - 2.0) / 3.0, 0.0];
    for (g, h) in grad.iter().zip(by_hand) {
        assert!(close(*g, h), "gradient {grad:?}, by hand {by_hand:?}");
    }
}

#[test]
fn an_all_masked_batch_is_a_zero_loss_not_a_division_by_zero() {
    let device = Device::default();
    let zeros = matrix([[0.0, 0.0], [0.0, 0.0]], &device);
    let batch = TokenBatch {
        policy: zeros.clone(),
        sampler: zeros.clone(),
        reference: zeros.clone(),
        mask: zeros,
        advantages: Tensor::from_data(TensorData::new(vec![1.0f32, -1.0], [2]), &device),
    };
    let result = objective(&batch, &ObjectiveConfig::default());
    let loss = result.loss.into_data().try_to_vec::<f32>().unwrap()[0];
    assert_eq!(loss, 0.0);
    assert_eq!(result.figures.tokens, 0.0);
}
