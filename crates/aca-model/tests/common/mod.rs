//! Shared helpers of the integration tests: the committed fixtures and their reference outputs.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use aca_model::{Device, Qwen3Model, SequenceStep};
use serde::Deserialize;

/// The fixtures built by `tests/reference/qwen3_fixtures.py`.
pub const FIXTURES: &[&str] = &["tied_gqa", "untied_sharded", "bf16_untied", "mha_bias"];

/// The largest absolute logit difference tolerated against the float64 reference.
pub const TOLERANCE: f32 = 1e-4;

#[derive(Debug, Deserialize)]
pub struct Reference {
    pub fixture: String,
    pub prompts: Vec<PromptReference>,
    pub full: FullReference,
}

#[derive(Debug, Deserialize)]
pub struct PromptReference {
    pub ids: Vec<u32>,
    pub greedy: Vec<u32>,
    pub last_logits: Vec<f32>,
}

/// The first prompt followed by its greedy continuation, with the logits at every position.
#[derive(Debug, Deserialize)]
pub struct FullReference {
    pub ids: Vec<u32>,
    pub logits: Vec<Vec<f32>>,
}

pub fn fixture_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

pub fn reference(name: &str) -> Reference {
    let text = std::fs::read_to_string(fixture_dir(name).join("reference.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

pub fn load(name: &str) -> Qwen3Model {
    load_on(name, &Device::flex())
}

pub fn load_on(name: &str, device: &Device) -> Qwen3Model {
    Qwen3Model::load(&fixture_dir(name), device).unwrap_or_else(|error| panic!("{name}: {error}"))
}

/// The largest absolute difference between two logits rows of equal length.
pub fn max_abs_diff(actual: &[f32], expected: &[f32]) -> f32 {
    assert_eq!(actual.len(), expected.len(), "logits rows differ in length");
    actual
        .iter()
        .zip(expected)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max)
}

pub fn assert_close(actual: &[f32], expected: &[f32], what: &str) {
    let diff = max_abs_diff(actual, expected);
    assert!(
        diff <= TOLERANCE,
        "{what}: max abs logit error {diff:e} > {TOLERANCE:e}"
    );
}

/// The logits at every position of `ids`, from one forward pass over a fresh cache.
pub fn logits_at_every_position(model: &Qwen3Model, ids: &[u32]) -> Vec<Vec<f32>> {
    let mut cache = model.new_cache();
    let mut batch = [SequenceStep {
        tokens: ids,
        cache: &mut cache,
    }];
    model.forward_all_positions(&mut batch).unwrap().remove(0)
}
