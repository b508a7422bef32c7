//! Broken Qwen3-VL checkpoints and bad inputs, built from the tiny fixture: every problem is a typed error
//! naming the tensors, fields or tokens at fault.

mod vl_support;

use std::collections::BTreeMap;
use std::path::Path;

use aca_model::{Device, ImageGrid, ModelError, ProcessedImage, Qwen3VlModel};
use safetensors::{Dtype, SafeTensors, tensor::TensorView};
use vl_support::{ReferenceTensors, fixture_dir, load_model, model_reference};

fn copy_fixture() -> tempfile::TempDir {
    let directory = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(fixture_dir("vl_tiny")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, directory.path().join(path.file_name().unwrap())).unwrap();
    }
    directory
}

type Tensors = BTreeMap<String, (Dtype, Vec<usize>, Vec<u8>)>;

fn rewrite_weights(directory: &Path, change: impl FnOnce(&mut Tensors)) {
    let path = directory.join("model.safetensors");
    let bytes = std::fs::read(&path).unwrap();
    let mut tensors: Tensors = SafeTensors::deserialize(&bytes)
        .unwrap()
        .iter()
        .map(|(name, view)| {
            (
                name.to_string(),
                (view.dtype(), view.shape().to_vec(), view.data().to_vec()),
            )
        })
        .collect();
    change(&mut tensors);
    let views: Vec<(String, TensorView<'_>)> = tensors
        .iter()
        .map(|(name, (dtype, shape, bytes))| (name.clone(), TensorView::new(*dtype, shape.clone(), bytes).unwrap()))
        .collect();
    safetensors::serialize_to_file(views, None, &path).unwrap();
}

fn load_error(directory: &Path) -> (ModelError, String) {
    match Qwen3VlModel::load(directory, &Device::flex()) {
        Ok(_) => panic!("the broken checkpoint in {} loaded", directory.display()),
        Err(error) => {
            let message = error.to_string();
            (error, message)
        }
    }
}

#[test]
fn missing_tensors_of_both_towers_are_all_named() {
    let directory = copy_fixture();
    rewrite_weights(directory.path(), |tensors| {
        tensors.remove("model.visual.blocks.1.attn.qkv.weight");
        tensors.remove("model.visual.deepstack_merger_list.1.norm.bias");
        tensors.remove("model.language_model.layers.2.mlp.up_proj.weight");
        tensors.remove("lm_head.weight");
    });
    let (error, message) = load_error(directory.path());
    assert!(matches!(error, ModelError::Checkpoint { .. }), "{message}");
    for name in [
        "missing tensor `model.visual.blocks.1.attn.qkv.weight` (expected shape [96, 32])",
        "missing tensor `model.visual.deepstack_merger_list.1.norm.bias` (expected shape [128])",
        "missing tensor `model.language_model.layers.2.mlp.up_proj.weight`",
        "missing tensor `lm_head.weight`",
    ] {
        assert!(message.contains(name), "{name} not in {message}");
    }
}

#[test]
fn wrong_shapes_and_stray_vision_tensors_are_refused() {
    let directory = copy_fixture();
    rewrite_weights(directory.path(), |tensors| {
        tensors.insert(
            "model.visual.pos_embed.weight".into(),
            (Dtype::F32, vec![9, 32], vec![0; 9 * 32 * 4]),
        );
        tensors.insert(
            "model.visual.blocks.3.norm1.weight".into(),
            (Dtype::F32, vec![32], vec![0; 32 * 4]),
        );
    });
    let (_, message) = load_error(directory.path());
    assert!(
        message.contains("`model.visual.pos_embed.weight` has shape [9, 32], expected [16, 32]"),
        "{message}"
    );
    assert!(
        message.contains("unexpected tensor `model.visual.blocks.3.norm1.weight`"),
        "{message}"
    );
}

#[test]
fn a_processor_that_cuts_other_patches_or_none_at_all_is_refused() {
    let directory = copy_fixture();
    let path = directory.path().join("preprocessor_config.json");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("\"patch_size\": 16", "\"patch_size\": 14");
    std::fs::write(&path, text).unwrap();
    let (error, message) = load_error(directory.path());
    assert!(matches!(error, ModelError::Config { .. }), "{message}");
    assert!(
        message.contains("`patch_size` is 14, but vision_config.patch_size is 16"),
        "{message}"
    );
    std::fs::remove_file(&path).unwrap();
    let (error, _) = load_error(directory.path());
    assert!(matches!(error, ModelError::Io { .. }));
}

#[test]
fn prompts_that_do_not_fit_their_images_are_input_errors() {
    let model = load_model();
    let tensors = ReferenceTensors::open("vl_tiny");
    let grids = model_reference().image_grids;
    let wide = tensors.processed_image("wide.png", grids["wide.png"]);
    let case = &model_reference().cases[0];
    let input_error = |result: Result<Vec<f32>, ModelError>| match result {
        Err(ModelError::Input(message)) => message,
        other => panic!("expected an input error, got {other:?}"),
    };

    let no_images = input_error(model.prefill(&case.prompt_ids, &[], &mut model.new_cache()));
    assert!(
        no_images.contains("1 runs of image placeholder tokens for 0 images"),
        "{no_images}"
    );
    let mut short = case.prompt_ids.clone();
    short.retain(|&token| token != model.config().image_token_id);
    short.splice(3..3, [model.config().image_token_id; 5]);
    let wrong = input_error(model.prefill(&short, std::slice::from_ref(&wide), &mut model.new_cache()));
    assert!(
        wrong.contains("takes 6 placeholder tokens, the prompt has 5"),
        "{wrong}"
    );

    let truncated = ProcessedImage {
        pixel_values: wide.pixel_values[..100].to_vec(),
        grid: wide.grid,
    };
    let pixels = input_error(model.prefill(&case.prompt_ids, &[truncated], &mut model.new_cache()));
    assert!(pixels.contains("needs 36864 pixel values"), "{pixels}");
    let video = ProcessedImage {
        pixel_values: [wide.pixel_values.clone(), wide.pixel_values.clone()].concat(),
        grid: ImageGrid { t: 2, ..wide.grid },
    };
    let frames = input_error(model.prefill(&case.prompt_ids, &[video], &mut model.new_cache()));
    assert!(frames.contains("only still images"), "{frames}");

    let mut cache = model.new_cache();
    let decode = model.forward(&mut [aca_model::SequenceStep {
        tokens: &case.prompt_ids,
        cache: &mut cache,
    }]);
    assert!(matches!(decode, Err(ModelError::Input(message)) if message.contains("give its images to `prefill`")));
    assert!(cache.is_empty(), "a refused call must leave the cache alone");
}

#[test]
fn single_placeholders_expand_to_each_images_token_count() {
    let model = load_model();
    let tensors = ReferenceTensors::open("vl_tiny");
    let grids = model_reference().image_grids;
    let images = [
        tensors.processed_image("tall.png", grids["tall.png"]),
        tensors.processed_image("wide.png", grids["wide.png"]),
    ];
    let config = model.config();
    let (start, pad, end) = (
        config.vision_start_token_id,
        config.image_token_id,
        config.vision_end_token_id,
    );
    let templated = [5, start, pad, end, 77, 12, start, pad, end, 200, 31, 9];
    let expanded = model.expand_image_placeholders(&templated, &images).unwrap();
    assert_eq!(expanded, model_reference().cases[1].prompt_ids);
    assert_eq!(model.image_tokens(&images[1]).len(), 6 + 2);
    assert!(matches!(
        model.expand_image_placeholders(&templated, &images[..1]),
        Err(ModelError::Input(_))
    ));
    // A prompt already expanded (as the reference processor writes it) is kept as it is.
    let already = &model_reference().cases[1].prompt_ids;
    assert_eq!(&model.expand_image_placeholders(already, &images).unwrap(), already);
    let short = [5, start, pad, pad, end, 77, 12, start, pad, end];
    let error = model
        .expand_image_placeholders(&short, &images)
        .unwrap_err()
        .to_string();
    assert!(error.contains("a run of 2") && error.contains("exactly 8"), "{error}");
}
