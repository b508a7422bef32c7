//! The trainer's masked loss and gradients against `transformers`' Qwen3ForCausalLM in float64, from the
//! fixture `tests/reference/sft_parity.py` wrote for the `tied_gqa` checkpoint of aca-model.

use std::path::Path;

use aca_model::Device;
use aca_train::model::TrainableQwen3;
use aca_train::sft::{TokenizedSample, batch_loss};
use burn::tensor::{Gradients, Tensor};
use serde_json::Value;

fn values(value: &Value) -> Vec<f32> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|number| number.as_f64().unwrap() as f32)
        .collect()
}

/// The gradient of the parameter a fixture name stands for, in Hugging Face layout (`[out, in]`).
fn gradient(model: &TrainableQwen3, gradients: &Gradients, name: &str) -> Vec<f32> {
    let params = &model.params;
    let matrix = |tensor: Tensor<2>| tensor.grad(gradients).unwrap();
    let vector = |tensor: Tensor<1>| tensor.grad(gradients).unwrap();
    let flat = |tensor: Tensor<2>| tensor.into_data().try_into_vec::<f32>().unwrap();
    match name {
        "model.embed_tokens.weight" => flat(matrix(params.embed_tokens.val())),
        "model.layers.0.self_attn.q_proj.weight" => {
            flat(matrix(params.layers[0].self_attn.q_proj.weight.val()).transpose())
        }
        "model.layers.1.self_attn.o_proj.weight" => {
            flat(matrix(params.layers[1].self_attn.o_proj.weight.val()).transpose())
        }
        "model.layers.1.mlp.down_proj.weight" => flat(matrix(params.layers[1].mlp.down_proj.weight.val()).transpose()),
        "model.layers.0.self_attn.k_norm.weight" => vector(params.layers[0].self_attn.k_norm.val())
            .into_data()
            .try_into_vec()
            .unwrap(),
        "model.layers.0.input_layernorm.weight" => vector(params.layers[0].input_layernorm.val())
            .into_data()
            .try_into_vec()
            .unwrap(),
        "model.norm.weight" => vector(params.norm.val()).into_data().try_into_vec().unwrap(),
        other => panic!("the fixture names {other}, which this test does not map"),
    }
}

#[test]
fn loss_and_gradients_match_transformers() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(manifest.join("tests/reference/sft_parity.json")).unwrap();
    let fixture: Value = serde_json::from_str(&text).unwrap();
    let checkpoint = manifest
        .join("../aca-model/tests/fixtures")
        .join(fixture["checkpoint"].as_str().unwrap());
    let device = Device::flex().autodiff();
    let model = TrainableQwen3::from_checkpoint(&checkpoint, &device).unwrap();

    let samples: Vec<TokenizedSample> = fixture["sequences"]
        .as_array()
        .unwrap()
        .iter()
        .zip(fixture["completion_starts"].as_array().unwrap())
        .map(|(ids, start)| TokenizedSample {
            ids: ids
                .as_array()
                .unwrap()
                .iter()
                .map(|id| id.as_u64().unwrap() as u32)
                .collect(),
            completion_start: start.as_u64().unwrap() as usize,
            truncated: false,
        })
        .collect();
    let refs: Vec<&TokenizedSample> = samples.iter().collect();
    let loss = batch_loss(&model, &refs, 0, &device);
    assert_eq!(loss.tokens as u64, fixture["learned_tokens"].as_u64().unwrap());
    let mean = loss.sum.div_scalar(loss.tokens as f64);
    let value = mean.clone().into_scalar::<f32>();
    let expected = fixture["loss"].as_f64().unwrap() as f32;
    eprintln!("loss {value}, transformers {expected}");
    assert!(
        (value - expected).abs() < 1e-4 * expected.abs(),
        "loss {value}, transformers {expected}"
    );

    let gradients = mean.backward();
    for (name, reference) in fixture["gradients"].as_object().unwrap() {
        let expected = values(&reference["values"]);
        let got = gradient(&model, &gradients, name);
        assert_eq!(got.len(), expected.len(), "{name}");
        let scale = expected.iter().fold(0.0f32, |largest, value| largest.max(value.abs()));
        let difference = got
            .iter()
            .zip(&expected)
            .fold(0.0f32, |largest, (a, b)| largest.max((a - b).abs()));
        eprintln!("{name}: largest difference {difference:.2e} (largest gradient {scale:.3})");
        assert!(
            difference <= 1e-4 * scale,
            "{name}: gradients differ by {difference} (largest {scale})"
        );
    }
}
