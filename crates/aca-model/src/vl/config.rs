//! The Qwen3-VL configuration read from a checkpoint's `config.json`: the text decoder's, the vision
//! encoder's, the placeholder token ids and the multimodal rotary sections.

use std::path::Path;

use serde_json::{Map, Value};

use crate::config::{FieldReader, Qwen3Config, Scope};
use crate::error::ModelError;
use crate::vl::processor::ProcessedImage;

/// The M-RoPE sections `transformers` uses when a config names none.
const DEFAULT_MROPE_SECTION: [usize; 3] = [24, 20, 20];
/// The vision encoder's rotary base when its config names none.
const DEFAULT_VISION_ROPE_THETA: f64 = 10_000.0;

/// The activation of the vision encoder's MLP blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VisionActivation {
    /// `gelu_pytorch_tanh`: the tanh approximation of GELU (what Qwen3-VL checkpoints use).
    GeluTanh,
    /// `gelu`: the exact, erf-based GELU.
    Gelu,
}

/// The hyper-parameters of the Qwen3-VL vision encoder (`vision_config`).
#[derive(Debug, Clone, PartialEq)]
pub struct VisionConfig {
    /// Number of transformer blocks (`depth`).
    pub depth: usize,
    pub hidden_size: usize,
    pub intermediate_size: usize,
    pub num_heads: usize,
    pub in_channels: usize,
    /// Side of one square patch in pixels.
    pub patch_size: usize,
    /// Frames per patch: a still image is repeated this many times.
    pub temporal_patch_size: usize,
    /// Side of the square of patches merged into one language-model token.
    pub spatial_merge_size: usize,
    /// Width of the merged tokens: the language model's hidden size.
    pub out_hidden_size: usize,
    /// Rows of the learned position table, a square number (`side²`).
    pub num_position_embeddings: usize,
    /// Blocks whose outputs are merged and added to the first language-model layers (DeepStack).
    pub deepstack_visual_indexes: Vec<usize>,
    pub hidden_act: VisionActivation,
    pub rope_theta: f64,
}

impl VisionConfig {
    /// Width of one attention head.
    pub fn head_dim(&self) -> usize {
        self.hidden_size / self.num_heads
    }

    /// Values in one flattened patch: channels × frames × patch × patch.
    pub fn patch_values(&self) -> usize {
        self.in_channels * self.temporal_patch_size * self.patch_size * self.patch_size
    }

    /// Side of the square learned position table.
    pub fn position_grid_side(&self) -> usize {
        self.num_position_embeddings.isqrt()
    }

    /// Width of a merged 2×2 (merge × merge) group of patch features.
    pub fn merged_width(&self) -> usize {
        self.hidden_size * self.spatial_merge_size * self.spatial_merge_size
    }
}

/// A Qwen3-VL checkpoint's configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Qwen3VlConfig {
    /// The text decoder (`text_config`).
    pub text: Qwen3Config,
    pub vision: VisionConfig,
    /// The placeholder token that an image's merged features replace, one per token.
    pub image_token_id: u32,
    pub video_token_id: u32,
    pub vision_start_token_id: u32,
    pub vision_end_token_id: u32,
    /// How many rotary frequencies follow the temporal, height and width positions, interleaved
    /// (`rope_scaling.mrope_section` or `rope_parameters.mrope_section` of the text config).
    pub mrope_section: [usize; 3],
}

impl Qwen3VlConfig {
    /// Reads and validates `config.json` at `path`.
    pub fn from_file(path: &Path) -> Result<Self, ModelError> {
        let text = std::fs::read_to_string(path).map_err(|source| ModelError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::from_json_str(&text).map_err(|error| match error {
            ModelError::Config { problems, .. } => ModelError::Config {
                path: Some(path.to_path_buf()),
                problems,
            },
            other => other,
        })
    }

    /// Parses and validates a Qwen3-VL `config.json`; every problem found is reported at once.
    pub fn from_json_str(text: &str) -> Result<Self, ModelError> {
        let root = match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(root)) => root,
            Ok(_) => return Err(config_error("the top level is not a JSON object".to_string())),
            Err(error) => return Err(config_error(format!("not valid JSON: {error}"))),
        };
        let text_config = Qwen3Config::from_json_str(text);
        let mut reader = FieldReader::default();
        let mut problems = match &text_config {
            Err(ModelError::Config { problems, .. }) => problems.clone(),
            _ => Vec::new(),
        };
        match root.get("model_type").and_then(Value::as_str) {
            Some("qwen3_vl") => {}
            other => reader.problems.push(format!(
                "`model_type` is {other:?}; a Qwen3-VL checkpoint has \"qwen3_vl\""
            )),
        }
        let vision = match root.get("vision_config") {
            Some(Value::Object(fields)) => read_vision(&mut reader, fields, &root),
            _ => {
                reader.problems.push("missing object `vision_config`".to_string());
                None
            }
        };
        let top = Scope {
            fields: &root,
            root: &root,
            section: None,
            fall_back_to_root: false,
        };
        let token = |reader: &mut FieldReader, field: &str, default: u32| match top.get(field) {
            None | Some(Value::Null) => Some(default),
            Some(value) => match value.as_u64().and_then(|id| u32::try_from(id).ok()) {
                Some(id) => Some(id),
                None => {
                    reader
                        .problems
                        .push(format!("`{field}` must be a token id, found {value}"));
                    None
                }
            },
        };
        let image_token_id = token(&mut reader, "image_token_id", 151_655);
        let video_token_id = token(&mut reader, "video_token_id", 151_656);
        let vision_start_token_id = token(&mut reader, "vision_start_token_id", 151_652);
        let vision_end_token_id = token(&mut reader, "vision_end_token_id", 151_653);
        let text_fields = match root.get("text_config") {
            Some(Value::Object(fields)) => Some(fields),
            _ => {
                reader.problems.push("missing object `text_config`".to_string());
                None
            }
        };
        let mrope_section = text_fields.and_then(|fields| read_mrope_section(&mut reader, fields));
        problems.append(&mut reader.problems);

        let (Ok(text), Some(vision), Some(image), Some(video), Some(start), Some(end), Some(section)) = (
            text_config,
            vision,
            image_token_id,
            video_token_id,
            vision_start_token_id,
            vision_end_token_id,
            mrope_section,
        ) else {
            return Err(ModelError::Config { path: None, problems });
        };
        check_consistency(&text, &vision, [image, video, start, end], section, &mut problems);
        if !problems.is_empty() {
            return Err(ModelError::Config { path: None, problems });
        }
        Ok(Self {
            text,
            vision,
            image_token_id: image,
            video_token_id: video,
            vision_start_token_id: start,
            vision_end_token_id: end,
            mrope_section: section,
        })
    }

    /// How many language-model tokens an image of `grid_h × grid_w` patches becomes.
    pub fn merged_tokens(&self, grid_h: usize, grid_w: usize) -> usize {
        let merge = self.vision.spatial_merge_size;
        (grid_h / merge) * (grid_w / merge)
    }

    /// How many placeholder tokens `image` takes in a prompt.
    pub fn image_token_count(&self, image: &ProcessedImage) -> usize {
        self.merged_tokens(image.grid.h, image.grid.w)
    }

    /// Expands the image placeholders of a prompt to the number of tokens each image takes, as the
    /// reference processor does. Each run of placeholder tokens stands for one image, in order: a single
    /// placeholder (what a chat template writes, `<|image_pad|>`) becomes the image's token count, and a
    /// run already that long is kept; any other run, or a run count other than the image count, is refused.
    pub fn expand_image_placeholders(&self, tokens: &[u32], images: &[ProcessedImage]) -> Result<Vec<u32>, ModelError> {
        let placeholder = self.image_token_id;
        let runs = placeholder_runs(tokens, placeholder);
        if runs.len() != images.len() {
            return Err(ModelError::Input(format!(
                "the prompt holds {} image placeholders for {} images",
                runs.len(),
                images.len()
            )));
        }
        let mut expanded = Vec::with_capacity(tokens.len());
        let mut copied = 0;
        for (number, ((first, length), image)) in runs.into_iter().zip(images).enumerate() {
            let count = self.image_token_count(image);
            if length != 1 && length != count {
                return Err(ModelError::Input(format!(
                    "image {number} ({}×{} patches) takes {count} placeholder tokens; the prompt has a run of {length} (write one placeholder, or exactly {count})",
                    image.grid.h, image.grid.w
                )));
            }
            expanded.extend_from_slice(&tokens[copied..first]);
            expanded.extend(std::iter::repeat_n(placeholder, count));
            copied = first + length;
        }
        expanded.extend_from_slice(&tokens[copied..]);
        Ok(expanded)
    }
}

/// `(first index, length)` of each run of `placeholder` in `tokens`.
pub(crate) fn placeholder_runs(tokens: &[u32], placeholder: u32) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut index = 0;
    while index < tokens.len() {
        if tokens[index] == placeholder {
            let length = tokens[index..]
                .iter()
                .take_while(|&&token| token == placeholder)
                .count();
            runs.push((index, length));
            index += length;
        } else {
            index += 1;
        }
    }
    runs
}

fn config_error(problem: String) -> ModelError {
    ModelError::Config {
        path: None,
        problems: vec![problem],
    }
}

fn read_vision(
    reader: &mut FieldReader,
    fields: &Map<String, Value>,
    root: &Map<String, Value>,
) -> Option<VisionConfig> {
    let scope = Scope {
        fields,
        root,
        section: Some("vision_config"),
        fall_back_to_root: false,
    };
    let depth = reader.positive(&scope, "depth");
    let hidden_size = reader.positive(&scope, "hidden_size");
    let intermediate_size = reader.positive(&scope, "intermediate_size");
    let num_heads = reader.positive(&scope, "num_heads");
    let in_channels = match scope.get("in_channels") {
        None => Some(3),
        Some(_) => reader.positive(&scope, "in_channels"),
    };
    let patch_size = reader.positive(&scope, "patch_size");
    let temporal_patch_size = reader.positive(&scope, "temporal_patch_size");
    let spatial_merge_size = reader.positive(&scope, "spatial_merge_size");
    let out_hidden_size = reader.positive(&scope, "out_hidden_size");
    let num_position_embeddings = reader.positive(&scope, "num_position_embeddings");
    let deepstack_visual_indexes = match scope.get("deepstack_visual_indexes") {
        Some(Value::Array(items)) => {
            let indexes: Option<Vec<usize>> = items
                .iter()
                .map(|item| item.as_u64().and_then(|index| usize::try_from(index).ok()))
                .collect();
            if indexes.is_none() {
                reader.problems.push(format!(
                    "`{}` must hold block indexes, found {items:?}",
                    scope.label("deepstack_visual_indexes")
                ));
            }
            indexes
        }
        other => {
            reader.problems.push(format!(
                "`{}` must be a list of block indexes, found {other:?}",
                scope.label("deepstack_visual_indexes")
            ));
            None
        }
    };
    let hidden_act = match scope.get("hidden_act").and_then(Value::as_str) {
        Some("gelu_pytorch_tanh") | None => Some(VisionActivation::GeluTanh),
        Some("gelu") => Some(VisionActivation::Gelu),
        Some(other) => {
            reader.problems.push(format!(
                "`{}` is {other:?}; supported: gelu_pytorch_tanh, gelu",
                scope.label("hidden_act")
            ));
            None
        }
    };
    let rope_theta = match scope.get("rope_parameters") {
        Some(Value::Object(parameters)) => match parameters.get("rope_theta") {
            Some(value) => reader.positive_float_value(value, "vision_config.rope_parameters.rope_theta"),
            None => Some(DEFAULT_VISION_ROPE_THETA),
        },
        _ => Some(DEFAULT_VISION_ROPE_THETA),
    };
    Some(VisionConfig {
        depth: depth?,
        hidden_size: hidden_size?,
        intermediate_size: intermediate_size?,
        num_heads: num_heads?,
        in_channels: in_channels?,
        patch_size: patch_size?,
        temporal_patch_size: temporal_patch_size?,
        spatial_merge_size: spatial_merge_size?,
        out_hidden_size: out_hidden_size?,
        num_position_embeddings: num_position_embeddings?,
        deepstack_visual_indexes: deepstack_visual_indexes?,
        hidden_act: hidden_act?,
        rope_theta: rope_theta?,
    })
}

/// `mrope_section` in `text_config.rope_scaling` or `text_config.rope_parameters`, else the default.
fn read_mrope_section(reader: &mut FieldReader, fields: &Map<String, Value>) -> Option<[usize; 3]> {
    for holder in ["rope_scaling", "rope_parameters"] {
        let Some(Value::Object(parameters)) = fields.get(holder) else {
            continue;
        };
        let Some(section) = parameters.get("mrope_section") else {
            continue;
        };
        let parsed: Option<Vec<usize>> = section.as_array().and_then(|items| {
            items
                .iter()
                .map(|item| item.as_u64().and_then(|value| usize::try_from(value).ok()))
                .collect()
        });
        return match parsed.as_deref() {
            Some(&[temporal, height, width]) => Some([temporal, height, width]),
            _ => {
                reader.problems.push(format!(
                    "`text_config.{holder}.mrope_section` must be three counts, found {section}"
                ));
                None
            }
        };
    }
    Some(DEFAULT_MROPE_SECTION)
}

fn check_consistency(
    text: &Qwen3Config,
    vision: &VisionConfig,
    token_ids: [u32; 4],
    section: [usize; 3],
    problems: &mut Vec<String>,
) {
    if !vision.hidden_size.is_multiple_of(vision.num_heads) {
        problems.push(format!(
            "vision_config.hidden_size ({}) is not a multiple of vision_config.num_heads ({})",
            vision.hidden_size, vision.num_heads
        ));
    } else if !vision.head_dim().is_multiple_of(4) {
        problems.push(format!(
            "the vision head width ({}) must be a multiple of 4 for its two-axis rotary embedding",
            vision.head_dim()
        ));
    }
    let side = vision.position_grid_side();
    if side * side != vision.num_position_embeddings {
        problems.push(format!(
            "vision_config.num_position_embeddings ({}) is not a square number",
            vision.num_position_embeddings
        ));
    }
    if vision.out_hidden_size != text.hidden_size {
        problems.push(format!(
            "vision_config.out_hidden_size ({}) differs from the text hidden_size ({})",
            vision.out_hidden_size, text.hidden_size
        ));
    }
    for (position, &index) in vision.deepstack_visual_indexes.iter().enumerate() {
        if index >= vision.depth {
            problems.push(format!(
                "vision_config.deepstack_visual_indexes names block {index}, but depth is {}",
                vision.depth
            ));
        }
        if vision.deepstack_visual_indexes[..position].contains(&index) {
            problems.push(format!(
                "vision_config.deepstack_visual_indexes names block {index} twice"
            ));
        }
    }
    if vision.deepstack_visual_indexes.len() > text.num_hidden_layers {
        problems.push(format!(
            "{} DeepStack features but only {} text layers to add them to",
            vision.deepstack_visual_indexes.len(),
            text.num_hidden_layers
        ));
    }
    if section.iter().sum::<usize>() != text.head_dim / 2 {
        problems.push(format!(
            "mrope_section {section:?} must add up to half the text head_dim ({})",
            text.head_dim / 2
        ));
    }
    let names = [
        "image_token_id",
        "video_token_id",
        "vision_start_token_id",
        "vision_end_token_id",
    ];
    for (name, id) in names.iter().zip(token_ids) {
        if id as usize >= text.vocab_size {
            problems.push(format!(
                "`{name}` ({id}) is outside the vocabulary of {} ids",
                text.vocab_size
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Value {
        serde_json::json!({
            "model_type": "qwen3_vl",
            "image_token_id": 252, "video_token_id": 253,
            "vision_start_token_id": 250, "vision_end_token_id": 251,
            "tie_word_embeddings": false,
            "text_config": {
                "model_type": "qwen3_vl_text", "vocab_size": 256, "hidden_size": 64,
                "intermediate_size": 128, "num_hidden_layers": 3, "num_attention_heads": 4,
                "num_key_value_heads": 2, "head_dim": 16, "max_position_embeddings": 512,
                "rms_norm_eps": 1e-6, "eos_token_id": 255,
                "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0,
                                    "mrope_section": [4, 2, 2], "mrope_interleaved": true}
            },
            "vision_config": {
                "model_type": "qwen3_vl", "depth": 3, "hidden_size": 32, "intermediate_size": 64,
                "num_heads": 2, "in_channels": 3, "patch_size": 16, "spatial_merge_size": 2,
                "temporal_patch_size": 2, "out_hidden_size": 64, "num_position_embeddings": 16,
                "deepstack_visual_indexes": [0, 2], "hidden_act": "gelu_pytorch_tanh"
            }
        })
    }

    fn problems_of(value: &Value) -> String {
        match Qwen3VlConfig::from_json_str(&value.to_string()) {
            Err(ModelError::Config { problems, .. }) => problems.join("\n"),
            other => panic!("expected a config error, got {other:?}"),
        }
    }

    #[test]
    fn reads_the_text_and_vision_parts_and_the_token_ids() {
        let config = Qwen3VlConfig::from_json_str(&tiny().to_string()).unwrap();
        assert_eq!(config.mrope_section, [4, 2, 2]);
        assert_eq!(config.image_token_id, 252);
        assert_eq!(config.vision_end_token_id, 251);
        assert_eq!(config.text.hidden_size, 64);
        assert!(config.text.nested_text_config);
        assert_eq!(config.vision.deepstack_visual_indexes, vec![0, 2]);
        assert_eq!(config.vision.patch_values(), 3 * 2 * 16 * 16);
        assert_eq!(config.vision.position_grid_side(), 4);
        assert_eq!(config.vision.rope_theta, DEFAULT_VISION_ROPE_THETA);
        assert_eq!(config.merged_tokens(4, 6), 6);
    }

    #[test]
    fn reads_the_sections_from_rope_scaling_as_released_checkpoints_write_them() {
        let mut value = tiny();
        let text = value["text_config"].as_object_mut().unwrap();
        text.remove("rope_parameters");
        text.insert("rope_theta".into(), 5e6.into());
        text.insert(
            "rope_scaling".into(),
            serde_json::json!({"rope_type": "default", "mrope_section": [2, 3, 3], "mrope_interleaved": true}),
        );
        let config = Qwen3VlConfig::from_json_str(&value.to_string()).unwrap();
        assert_eq!(config.mrope_section, [2, 3, 3]);
        assert_eq!(config.text.rope_theta, 5e6);
    }

    #[test]
    fn reports_text_and_vision_problems_together() {
        let mut value = tiny();
        value["text_config"].as_object_mut().unwrap().remove("head_dim");
        let vision = value["vision_config"].as_object_mut().unwrap();
        vision.remove("patch_size");
        vision.insert("hidden_act".into(), "relu".into());
        let problems = problems_of(&value);
        assert!(problems.contains("missing field `head_dim`"), "{problems}");
        assert!(problems.contains("missing field `patch_size`"), "{problems}");
        assert!(problems.contains("\"relu\""), "{problems}");
    }

    #[test]
    fn refuses_inconsistent_shapes_and_ids() {
        let mut value = tiny();
        value["image_token_id"] = 900.into();
        value["vision_config"]["out_hidden_size"] = 48.into();
        value["vision_config"]["num_position_embeddings"] = 15.into();
        value["vision_config"]["deepstack_visual_indexes"] = serde_json::json!([1, 5]);
        value["text_config"]["rope_parameters"]["mrope_section"] = serde_json::json!([4, 2, 1]);
        let problems = problems_of(&value);
        for expected in [
            "`image_token_id` (900) is outside the vocabulary",
            "out_hidden_size (48) differs",
            "not a square number",
            "names block 5, but depth is 3",
            "must add up to half the text head_dim (8)",
        ] {
            assert!(problems.contains(expected), "{expected:?} not in {problems}");
        }
    }

    #[test]
    fn a_plain_qwen3_config_is_not_a_vision_language_one() {
        let plain = r#"{"model_type": "qwen3", "vocab_size": 320, "hidden_size": 48,
            "intermediate_size": 96, "num_hidden_layers": 2, "num_attention_heads": 4,
            "num_key_value_heads": 2, "head_dim": 16, "rope_theta": 10000.0, "rms_norm_eps": 1e-6,
            "max_position_embeddings": 128}"#;
        assert!(Qwen3Config::from_json_str(plain).is_ok());
        let problems = problems_of(&serde_json::from_str(plain).unwrap());
        assert!(problems.contains("\"qwen3_vl\""), "{problems}");
        assert!(problems.contains("vision_config"), "{problems}");
    }
}
