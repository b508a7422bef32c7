//! Shared helpers of the Qwen3-VL tests: the committed fixtures of `tests/reference/qwen3_vl.py`.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use aca_model::{Device, ImageGrid, ProcessedImage, Qwen3VlModel};
use safetensors::{Dtype, SafeTensors};
use serde::Deserialize;

/// The largest absolute logit difference tolerated against the float64 reference.
pub const TOLERANCE: f32 = 1e-4;

pub fn fixture_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

/// The tiny checkpoint's reference: prompts, their images and greedy continuations.
#[derive(Debug, Deserialize)]
pub struct ModelReference {
    pub image_grids: BTreeMap<String, [usize; 3]>,
    pub cases: Vec<Case>,
}

#[derive(Debug, Deserialize)]
pub struct Case {
    pub name: String,
    pub prompt_ids: Vec<u32>,
    pub images: Vec<String>,
    pub greedy: Vec<u32>,
    pub rope_delta: i64,
}

impl Case {
    /// The prompt followed by its greedy continuation.
    pub fn full_ids(&self) -> Vec<u32> {
        let mut ids = self.prompt_ids.clone();
        ids.extend(&self.greedy);
        ids
    }
}

pub fn model_reference() -> ModelReference {
    let text = std::fs::read_to_string(fixture_dir("vl_tiny").join("reference.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

pub fn load_model() -> Qwen3VlModel {
    Qwen3VlModel::load(&fixture_dir("vl_tiny"), &Device::flex()).unwrap_or_else(|error| panic!("vl_tiny: {error}"))
}

/// A tensor of a reference safetensors file: its shape and values (f32, or i64 widened to f64 as f32).
pub struct ReferenceTensor {
    pub shape: Vec<usize>,
    pub values: Vec<f32>,
    pub integers: Vec<i64>,
}

pub struct ReferenceTensors {
    bytes: Vec<u8>,
}

impl ReferenceTensors {
    pub fn open(fixture: &str) -> Self {
        Self {
            bytes: std::fs::read(fixture_dir(fixture).join("reference.safetensors")).unwrap(),
        }
    }

    pub fn get(&self, name: &str) -> ReferenceTensor {
        let file = SafeTensors::deserialize(&self.bytes).unwrap();
        let view = file
            .tensor(name)
            .unwrap_or_else(|_| panic!("no reference tensor {name}"));
        let data = view.data();
        let (values, integers) = match view.dtype() {
            Dtype::F32 => (
                data.chunks_exact(4)
                    .map(|chunk| f32::from_le_bytes(chunk.try_into().unwrap()))
                    .collect(),
                Vec::new(),
            ),
            Dtype::I64 => (
                Vec::new(),
                data.chunks_exact(8)
                    .map(|chunk| i64::from_le_bytes(chunk.try_into().unwrap()))
                    .collect(),
            ),
            other => panic!("{name} has dtype {other:?}"),
        };
        ReferenceTensor {
            shape: view.shape().to_vec(),
            values,
            integers,
        }
    }

    /// The rows of a `[rows, width]` f32 tensor.
    pub fn rows(&self, name: &str) -> Vec<Vec<f32>> {
        let tensor = self.get(name);
        tensor
            .values
            .chunks_exact(tensor.shape[1])
            .map(<[f32]>::to_vec)
            .collect()
    }

    /// The reference processor's output for an image file of the fixture.
    pub fn processed_image(&self, file: &str, grid: [usize; 3]) -> ProcessedImage {
        ProcessedImage {
            pixel_values: self.get(&format!("pixel_values.{file}")).values,
            grid: ImageGrid {
                t: grid[0],
                h: grid[1],
                w: grid[2],
            },
        }
    }
}

/// The largest absolute difference between two rows of equal length.
pub fn max_abs_diff(actual: &[f32], expected: &[f32]) -> f32 {
    assert_eq!(actual.len(), expected.len(), "rows differ in length");
    actual
        .iter()
        .zip(expected)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max)
}

/// The processed images a reference case shows the model, as the reference processed them.
pub fn reference_images(case: &Case, tensors: &ReferenceTensors) -> Vec<ProcessedImage> {
    let grids = model_reference().image_grids;
    case.images
        .iter()
        .map(|file| tensors.processed_image(file, grids[file]))
        .collect()
}

/// The model's logits at every position of `case` (one prefill over a fresh cache) and the
/// reference's, row by row.
pub fn logits_against_reference(
    model: &Qwen3VlModel,
    case: &Case,
    tensors: &ReferenceTensors,
) -> (Vec<Vec<f32>>, Vec<Vec<f32>>) {
    let rows = model
        .prefill_all_positions(&case.full_ids(), &reference_images(case, tensors), &mut model.new_cache())
        .unwrap();
    (rows, tensors.rows(&format!("{}.logits", case.name)))
}
