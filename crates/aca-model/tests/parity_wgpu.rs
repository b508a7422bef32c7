//! The parity fixtures on the wgpu device (a GPU, or Mesa's llvmpipe without one): logits and greedy
//! tokens against the `transformers` reference. Built only with `--features wgpu`.
//!
//! The tolerance is 1e-3 rather than the CPU's 1e-4: GPU kernels sum matmuls and softmax in another
//! order (tiled, in parallel) and may fuse multiply-adds, so f32 rounding drifts further from the
//! float64 reference, while a real error (a wrong layout, a missed norm) moves logits by far more.

#![cfg(feature = "wgpu")]

mod common;

use aca_model::DeviceChoice;
use common::{FIXTURES, load_on, logits_at_every_position, max_abs_diff, reference};

const GPU_TOLERANCE: f32 = 1e-3;

fn assert_gpu_close(actual: &[f32], expected: &[f32], what: &str) {
    let diff = max_abs_diff(actual, expected);
    assert!(
        diff <= GPU_TOLERANCE,
        "{what}: max abs logit error on wgpu {diff:e} > {GPU_TOLERANCE:e}"
    );
}

#[test]
fn fixtures_on_wgpu_match_the_reference() {
    let device = DeviceChoice::Wgpu.open().unwrap_or_else(|e| panic!("{e}"));
    for name in FIXTURES {
        let model = load_on(name, &device);
        let reference = reference(name);
        for (index, prompt) in reference.prompts.iter().enumerate() {
            let logits = model.forward_one(&prompt.ids, &mut model.new_cache()).unwrap();
            assert_gpu_close(&logits, &prompt.last_logits, &format!("{name} prompt {index}"));
            let tokens = model.generate_greedy(&prompt.ids, prompt.greedy.len(), &[]).unwrap();
            assert_eq!(tokens, prompt.greedy, "{name} greedy tokens on wgpu, prompt {index}");
        }
        let full = &reference.full;
        let rows = logits_at_every_position(&model, &full.ids);
        for (position, (row, expected)) in rows.iter().zip(&full.logits).enumerate() {
            assert_gpu_close(row, expected, &format!("{name} position {position}"));
        }
        let prompts: Vec<&[u32]> = reference.prompts.iter().map(|p| p.ids.as_slice()).collect();
        let batched = model.generate_greedy_batch(&prompts, 8, &[]).unwrap();
        for (continuation, prompt) in batched.iter().zip(&reference.prompts) {
            assert_eq!(continuation, &prompt.greedy, "{name} batched greedy on wgpu");
        }
    }
}
