//! Broken checkpoints, built from the good fixtures in a temporary directory, are refused with errors
//! that name every problem; a multimodal (text_config) layout of the same weights loads and matches.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use aca_model::{Device, ModelError, Qwen3Model};
use common::{assert_close, fixture_dir, reference};
use safetensors::{Dtype, SafeTensors, tensor::TensorView};
use serde_json::Value;

/// A copy of a fixture's files in a fresh temporary directory.
fn copy_fixture(name: &str) -> tempfile::TempDir {
    let directory = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(fixture_dir(name)).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, directory.path().join(path.file_name().unwrap())).unwrap();
    }
    directory
}

/// Owned tensors of one safetensors file: name → (dtype, shape, bytes).
type Tensors = BTreeMap<String, (Dtype, Vec<usize>, Vec<u8>)>;

fn read_tensors(path: &Path) -> Tensors {
    let bytes = std::fs::read(path).unwrap();
    let file = SafeTensors::deserialize(&bytes).unwrap();
    file.iter()
        .map(|(name, view)| {
            (
                name.to_string(),
                (view.dtype(), view.shape().to_vec(), view.data().to_vec()),
            )
        })
        .collect()
}

fn write_tensors(path: &Path, tensors: &Tensors) {
    let views: Vec<(String, TensorView<'_>)> = tensors
        .iter()
        .map(|(name, (dtype, shape, bytes))| (name.clone(), TensorView::new(*dtype, shape.clone(), bytes).unwrap()))
        .collect();
    safetensors::serialize_to_file(views, None, path).unwrap();
}

fn rewrite(directory: &Path, file: &str, change: impl FnOnce(&mut Tensors)) {
    let path = directory.join(file);
    let mut tensors = read_tensors(&path);
    change(&mut tensors);
    write_tensors(&path, &tensors);
}

fn zeros_f32(shape: &[usize]) -> (Dtype, Vec<usize>, Vec<u8>) {
    (Dtype::F32, shape.to_vec(), vec![0; 4 * shape.iter().product::<usize>()])
}

fn load_error(directory: &Path) -> (ModelError, String) {
    match Qwen3Model::load(directory, &Device::flex()) {
        Ok(_) => panic!("the broken checkpoint in {} loaded", directory.display()),
        Err(error) => {
            let message = error.to_string();
            (error, message)
        }
    }
}

fn edit_config(directory: &Path, change: impl FnOnce(&mut serde_json::Map<String, Value>)) {
    let path = directory.join("config.json");
    let mut config: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    change(config.as_object_mut().unwrap());
    std::fs::write(&path, config.to_string()).unwrap();
}

#[test]
fn missing_tensors_are_all_named() {
    let directory = copy_fixture("tied_gqa");
    rewrite(directory.path(), "model.safetensors", |tensors| {
        tensors.remove("model.layers.1.mlp.up_proj.weight");
        tensors.remove("model.norm.weight");
    });
    let (error, message) = load_error(directory.path());
    assert!(
        matches!(error, ModelError::Checkpoint { ref problems } if problems.len() == 2),
        "{message}"
    );
    assert!(
        message.contains("missing tensor `model.layers.1.mlp.up_proj.weight` (expected shape [64, 48])"),
        "{message}"
    );
    assert!(message.contains("missing tensor `model.norm.weight`"), "{message}");
}

#[test]
fn extra_tensors_are_all_named() {
    let directory = copy_fixture("tied_gqa");
    rewrite(directory.path(), "model.safetensors", |tensors| {
        tensors.insert("model.layers.2.mlp.up_proj.weight".into(), zeros_f32(&[64, 48]));
        tensors.insert("model.layers.0.self_attn.rotary.inv_freq".into(), zeros_f32(&[8]));
    });
    let (_, message) = load_error(directory.path());
    assert!(
        message.contains("unexpected tensor `model.layers.2.mlp.up_proj.weight`"),
        "{message}"
    );
    assert!(
        message.contains("unexpected tensor `model.layers.0.self_attn.rotary.inv_freq`"),
        "{message}"
    );
}

#[test]
fn wrong_shapes_and_dtypes_are_all_named() {
    let directory = copy_fixture("tied_gqa");
    rewrite(directory.path(), "model.safetensors", |tensors| {
        tensors.insert("model.layers.0.self_attn.q_norm.weight".into(), zeros_f32(&[12]));
        tensors.insert("model.layers.1.self_attn.k_proj.weight".into(), zeros_f32(&[48, 32]));
        tensors.insert("model.norm.weight".into(), (Dtype::I64, vec![48], vec![0; 8 * 48]));
    });
    let (error, message) = load_error(directory.path());
    assert!(
        matches!(error, ModelError::Checkpoint { ref problems } if problems.len() == 3),
        "{message}"
    );
    assert!(
        message.contains("tensor `model.layers.0.self_attn.q_norm.weight` has shape [12], expected [16]"),
        "{message}"
    );
    assert!(
        message.contains("tensor `model.layers.1.self_attn.k_proj.weight` has shape [48, 32], expected [32, 48]"),
        "{message}"
    );
    assert!(
        message.contains("tensor `model.norm.weight` has dtype I64"),
        "{message}"
    );
}

#[test]
fn an_untied_config_needs_its_output_head() {
    let directory = copy_fixture("tied_gqa");
    edit_config(directory.path(), |config| {
        config.insert("tie_word_embeddings".into(), false.into());
    });
    let (_, message) = load_error(directory.path());
    assert!(
        message.contains("missing tensor `lm_head.weight` (expected shape [320, 48])"),
        "{message}"
    );
}

#[test]
fn malformed_configs_are_refused_with_the_fields_at_fault() {
    let directory = copy_fixture("tied_gqa");
    edit_config(directory.path(), |config| {
        config.remove("head_dim");
        config.insert("num_key_value_heads".into(), Value::from("two"));
    });
    let (error, message) = load_error(directory.path());
    assert!(matches!(error, ModelError::Config { .. }), "{message}");
    assert!(message.contains("missing field `head_dim`"), "{message}");
    assert!(
        message.contains("`num_key_value_heads` must be a positive integer, found \"two\""),
        "{message}"
    );
    assert!(message.contains("config.json"), "{message}");

    std::fs::write(directory.path().join("config.json"), "{\"model_type\": \"qwen3\",").unwrap();
    let (_, message) = load_error(directory.path());
    assert!(message.contains("not valid JSON"), "{message}");

    std::fs::remove_file(directory.path().join("config.json")).unwrap();
    let (error, message) = load_error(directory.path());
    assert!(matches!(error, ModelError::Io { .. }), "{message}");
}

#[test]
fn a_directory_without_weights_is_refused() {
    let directory = copy_fixture("tied_gqa");
    std::fs::remove_file(directory.path().join("model.safetensors")).unwrap();
    let (error, message) = load_error(directory.path());
    assert!(matches!(error, ModelError::NoWeights { .. }), "{message}");
}

#[test]
fn a_sharded_checkpoint_must_agree_with_its_index() {
    let directory = copy_fixture("untied_sharded");
    let index_path = directory.path().join("model.safetensors.index.json");
    let index: Value = serde_json::from_str(&std::fs::read_to_string(&index_path).unwrap()).unwrap();
    let weight_map = index["weight_map"].as_object().unwrap();
    let shard_of_head = weight_map["lm_head.weight"].as_str().unwrap().to_string();
    let shard_of_embedding = weight_map["model.embed_tokens.weight"].as_str().unwrap().to_string();
    assert_ne!(shard_of_head, shard_of_embedding);

    // A tensor the index does not know, in a shard.
    rewrite(directory.path(), &shard_of_head, |tensors| {
        tensors.insert("model.layers.0.mlp.extra.weight".into(), zeros_f32(&[2]));
    });
    let (error, message) = load_error(directory.path());
    assert!(matches!(error, ModelError::Index { .. }), "{message}");
    assert!(
        message.contains("tensor `model.layers.0.mlp.extra.weight` is in"),
        "{message}"
    );
    assert!(message.contains("not in the index"), "{message}");

    // A shard that is gone.
    std::fs::remove_file(directory.path().join(&shard_of_embedding)).unwrap();
    let (_, message) = load_error(directory.path());
    assert!(
        message.contains(&format!("shard {shard_of_embedding} is missing")),
        "{message}"
    );

    // A shard name that leads out of the directory.
    let mut index = index.clone();
    index["weight_map"]["lm_head.weight"] = Value::from("../elsewhere.safetensors");
    std::fs::write(&index_path, index.to_string()).unwrap();
    let (_, message) = load_error(directory.path());
    assert!(message.contains("not a file name"), "{message}");
}

#[test]
fn a_truncated_weight_file_is_refused() {
    let directory = copy_fixture("tied_gqa");
    let path = directory.path().join("model.safetensors");
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 100]).unwrap();
    let (error, message) = load_error(directory.path());
    assert!(matches!(error, ModelError::Safetensors { .. }), "{message}");
}

/// The same weights laid out as a Qwen3-VL checkpoint: config under `text_config`, decoder tensors under
/// `model.language_model.`, plus vision-tower tensors that the text loader leaves alone.
#[test]
fn a_multimodal_layout_of_the_same_weights_loads_and_matches() {
    let directory = copy_fixture("bf16_untied");
    rewrite(directory.path(), "model.safetensors", |tensors| {
        let renamed: Tensors = std::mem::take(tensors)
            .into_iter()
            .map(|(name, tensor)| match name.strip_prefix("model.") {
                Some(rest) => (format!("model.language_model.{rest}"), tensor),
                None => (name, tensor),
            })
            .collect();
        *tensors = renamed;
        tensors.insert("model.visual.patch_embed.proj.weight".into(), zeros_f32(&[4, 3]));
    });
    edit_config(directory.path(), |config| {
        let mut text = std::mem::take(config);
        text.insert("model_type".into(), "qwen3_vl_text".into());
        let tie = text.remove("tie_word_embeddings").unwrap();
        config.insert("model_type".into(), "qwen3_vl".into());
        config.insert("tie_word_embeddings".into(), tie);
        config.insert("vision_config".into(), serde_json::json!({"depth": 1}));
        config.insert("text_config".into(), Value::Object(text));
    });
    let model = Qwen3Model::load(directory.path(), &Device::flex()).unwrap();
    assert!(model.config().nested_text_config);
    let prompt = &reference("bf16_untied").prompts[0];
    let logits = model.forward_one(&prompt.ids, &mut model.new_cache()).unwrap();
    assert_close(&logits, &prompt.last_logits, "multimodal layout");
}

#[test]
fn bad_inputs_are_refused_without_touching_the_cache() {
    let model = common::load("tied_gqa");
    let mut cache = model.new_cache();
    let error = model.forward_one(&[5, 320], &mut cache).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("token id 320 is outside the vocabulary of 320 ids"),
        "{error}"
    );
    let error = model.forward_one(&[], &mut cache).unwrap_err();
    assert!(error.to_string().contains("has no tokens"), "{error}");
    assert!(cache.is_empty());
    assert!(model.forward(&mut []).is_err());
}
