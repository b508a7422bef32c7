//! The Qwen3 text configuration read from a checkpoint's `config.json` (flat, or nested under `text_config`).

use std::path::Path;

use serde_json::{Map, Value};

use crate::error::ModelError;

/// The hyper-parameters of the Qwen3 text decoder that the architecture depends on.
#[derive(Debug, Clone, PartialEq)]
pub struct Qwen3Config {
    /// `model_type` of the text part (`qwen3`, or `qwen3_vl_text` inside a Qwen3-VL checkpoint).
    pub model_type: String,
    pub vocab_size: usize,
    pub hidden_size: usize,
    pub intermediate_size: usize,
    pub num_hidden_layers: usize,
    pub num_attention_heads: usize,
    pub num_key_value_heads: usize,
    /// Width of one attention head: read from the config, never derived from hidden/heads.
    pub head_dim: usize,
    pub rope_theta: f64,
    pub rms_norm_eps: f64,
    pub tie_word_embeddings: bool,
    /// Whether q/k/v/o projections carry a bias.
    pub attention_bias: bool,
    pub max_position_embeddings: usize,
    /// Token ids that end generation according to the config (`eos_token_id`, a number or a list).
    pub eos_token_ids: Vec<u32>,
    /// Whether the config came nested under `text_config` (a multimodal checkpoint such as Qwen3-VL).
    pub nested_text_config: bool,
}

/// Text `model_type`s whose decoder is the Qwen3 architecture implemented here.
const SUPPORTED_MODEL_TYPES: &[&str] = &["qwen3", "qwen3_vl_text"];

impl Qwen3Config {
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

    /// Parses and validates a `config.json` document; every problem found is reported at once.
    pub fn from_json_str(text: &str) -> Result<Self, ModelError> {
        let root: Value = serde_json::from_str(text).map_err(|error| ModelError::Config {
            path: None,
            problems: vec![format!("not valid JSON: {error}")],
        })?;
        let Some(root) = root.as_object() else {
            return Err(ModelError::Config {
                path: None,
                problems: vec!["the top level is not a JSON object".to_string()],
            });
        };
        let mut reader = FieldReader::default();
        let (text, nested) = match root.get("text_config") {
            Some(Value::Object(text)) => (text, true),
            Some(_) => {
                reader.problems.push("`text_config` is not an object".to_string());
                (root, false)
            }
            None => (root, false),
        };
        let scope = Scope {
            fields: text,
            root,
            section: nested.then_some("text_config"),
            fall_back_to_root: nested,
        };
        let config = reader.read_config(&scope);
        match config {
            Some(config) if reader.problems.is_empty() => Ok(config),
            _ => Err(ModelError::Config {
                path: None,
                problems: reader.problems,
            }),
        }
    }

    /// How many query heads share one key/value head.
    pub fn query_groups(&self) -> usize {
        self.num_attention_heads / self.num_key_value_heads
    }
}

/// Where fields are looked up: a section of the document (`text_config`, `vision_config`) or its top level,
/// and for a nested text config the top level after the section.
pub(crate) struct Scope<'a> {
    pub fields: &'a Map<String, Value>,
    pub root: &'a Map<String, Value>,
    /// The section's name, for messages (`text_config.head_dim`); `None` for the top level itself.
    pub section: Option<&'static str>,
    pub fall_back_to_root: bool,
}

impl Scope<'_> {
    pub fn get(&self, field: &str) -> Option<&Value> {
        self.fields.get(field).or_else(|| {
            if self.fall_back_to_root {
                self.root.get(field)
            } else {
                None
            }
        })
    }

    pub fn label(&self, field: &str) -> String {
        match self.section {
            Some(section) if self.fields.contains_key(field) => format!("{section}.{field}"),
            _ => field.to_string(),
        }
    }
}

/// Reads typed fields and collects a description of every missing or invalid one.
#[derive(Default)]
pub(crate) struct FieldReader {
    pub problems: Vec<String>,
}

impl FieldReader {
    fn read_config(&mut self, scope: &Scope<'_>) -> Option<Qwen3Config> {
        let model_type = self.model_type(scope);
        let vocab_size = self.positive(scope, "vocab_size");
        let hidden_size = self.positive(scope, "hidden_size");
        let intermediate_size = self.positive(scope, "intermediate_size");
        let num_hidden_layers = self.positive(scope, "num_hidden_layers");
        let num_attention_heads = self.positive(scope, "num_attention_heads");
        let num_key_value_heads = match scope.get("num_key_value_heads") {
            None | Some(Value::Null) => num_attention_heads,
            Some(_) => self.positive(scope, "num_key_value_heads"),
        };
        let head_dim = self.positive(scope, "head_dim");
        let rope_theta = self.rope_theta(scope);
        let rms_norm_eps = self.positive_float(scope, "rms_norm_eps");
        let tie_word_embeddings = self.flag(scope, "tie_word_embeddings", false);
        let attention_bias = self.flag(scope, "attention_bias", false);
        let max_position_embeddings = self.positive(scope, "max_position_embeddings");
        let eos_token_ids = self.token_ids(scope, "eos_token_id");
        self.check_activation(scope);
        self.check_rope_scaling(scope);
        self.check_sliding_window(scope);
        if let (Some(heads), Some(kv_heads)) = (num_attention_heads, num_key_value_heads)
            && heads % kv_heads != 0
        {
            self.problems.push(format!(
                "num_attention_heads ({heads}) is not a multiple of num_key_value_heads ({kv_heads})"
            ));
        }
        if let Some(head_dim) = head_dim
            && head_dim % 2 != 0
        {
            self.problems.push(format!(
                "head_dim ({head_dim}) must be even for rotary position embeddings"
            ));
        }
        Some(Qwen3Config {
            model_type: model_type?,
            vocab_size: vocab_size?,
            hidden_size: hidden_size?,
            intermediate_size: intermediate_size?,
            num_hidden_layers: num_hidden_layers?,
            num_attention_heads: num_attention_heads?,
            num_key_value_heads: num_key_value_heads?,
            head_dim: head_dim?,
            rope_theta: rope_theta?,
            rms_norm_eps: rms_norm_eps?,
            tie_word_embeddings: tie_word_embeddings?,
            attention_bias: attention_bias?,
            max_position_embeddings: max_position_embeddings?,
            eos_token_ids: eos_token_ids?,
            nested_text_config: scope.section.is_some(),
        })
    }

    fn model_type(&mut self, scope: &Scope<'_>) -> Option<String> {
        let Some(value) = scope.fields.get("model_type") else {
            self.problems
                .push(format!("missing field `{}`", scope.label("model_type")));
            return None;
        };
        match value.as_str() {
            Some(kind) if SUPPORTED_MODEL_TYPES.contains(&kind) => Some(kind.to_string()),
            Some(kind) => {
                self.problems.push(format!(
                    "`{}` is {kind:?}; supported: {}",
                    scope.label("model_type"),
                    SUPPORTED_MODEL_TYPES.join(", ")
                ));
                None
            }
            None => {
                self.problems.push(format!(
                    "`{}` must be a string, found {value}",
                    scope.label("model_type")
                ));
                None
            }
        }
    }

    pub fn positive(&mut self, scope: &Scope<'_>, field: &str) -> Option<usize> {
        let Some(value) = scope.get(field) else {
            self.problems.push(format!("missing field `{}`", scope.label(field)));
            return None;
        };
        match value.as_u64().and_then(|number| usize::try_from(number).ok()) {
            Some(number) if number > 0 => Some(number),
            _ => {
                self.problems.push(format!(
                    "`{}` must be a positive integer, found {value}",
                    scope.label(field)
                ));
                None
            }
        }
    }

    pub fn positive_float(&mut self, scope: &Scope<'_>, field: &str) -> Option<f64> {
        let Some(value) = scope.get(field) else {
            self.problems.push(format!("missing field `{}`", scope.label(field)));
            return None;
        };
        self.positive_float_value(value, &scope.label(field))
    }

    pub fn positive_float_value(&mut self, value: &Value, label: &str) -> Option<f64> {
        match value.as_f64() {
            Some(number) if number > 0.0 && number.is_finite() => Some(number),
            _ => {
                self.problems
                    .push(format!("`{label}` must be a positive number, found {value}"));
                None
            }
        }
    }

    pub fn flag(&mut self, scope: &Scope<'_>, field: &str, default: bool) -> Option<bool> {
        match scope.get(field) {
            None | Some(Value::Null) => Some(default),
            Some(Value::Bool(flag)) => Some(*flag),
            Some(other) => {
                self.problems
                    .push(format!("`{}` must be true or false, found {other}", scope.label(field)));
                None
            }
        }
    }

    pub fn token_ids(&mut self, scope: &Scope<'_>, field: &str) -> Option<Vec<u32>> {
        let as_id = |value: &Value| value.as_u64().and_then(|id| u32::try_from(id).ok());
        match scope.get(field) {
            None | Some(Value::Null) => Some(Vec::new()),
            Some(Value::Array(items)) => {
                let ids: Option<Vec<u32>> = items.iter().map(as_id).collect();
                if ids.is_none() {
                    self.problems.push(format!(
                        "`{}` must hold token ids, found {:?}",
                        scope.label(field),
                        items
                    ));
                }
                ids
            }
            Some(value) => match as_id(value) {
                Some(id) => Some(vec![id]),
                None => {
                    self.problems.push(format!(
                        "`{}` must be a token id or a list of them, found {value}",
                        scope.label(field)
                    ));
                    None
                }
            },
        }
    }

    /// `rope_theta` at the top of the text config, or inside `rope_parameters` (newer `transformers`).
    fn rope_theta(&mut self, scope: &Scope<'_>) -> Option<f64> {
        if let Some(value) = scope.get("rope_theta") {
            return self.positive_float_value(value, &scope.label("rope_theta"));
        }
        if let Some(Value::Object(parameters)) = scope.get("rope_parameters")
            && let Some(value) = parameters.get("rope_theta")
        {
            return self.positive_float_value(value, &format!("{}.rope_theta", scope.label("rope_parameters")));
        }
        self.problems.push(format!(
            "missing field `{}` (nor `rope_parameters.rope_theta`)",
            scope.label("rope_theta")
        ));
        None
    }

    fn check_activation(&mut self, scope: &Scope<'_>) {
        match scope.get("hidden_act") {
            None => {}
            Some(Value::String(name)) if name == "silu" => {}
            Some(other) => self.problems.push(format!(
                "`{}` is {other}; the Qwen3 MLP here is SwiGLU (silu)",
                scope.label("hidden_act")
            )),
        }
    }

    /// Only plain RoPE is implemented: `rope_type` "default" (text-only M-RoPE positions are plain RoPE).
    fn check_rope_scaling(&mut self, scope: &Scope<'_>) {
        for field in ["rope_scaling", "rope_parameters"] {
            match scope.get(field) {
                None | Some(Value::Null) => {}
                Some(Value::Object(scaling)) => {
                    let kind = scaling.get("rope_type").or_else(|| scaling.get("type"));
                    match kind.and_then(Value::as_str) {
                        None | Some("default") => {}
                        Some(other) => self.problems.push(format!(
                            "`{}` asks for rope_type {other:?}; only \"default\" is supported",
                            scope.label(field)
                        )),
                    }
                }
                Some(other) => self.problems.push(format!(
                    "`{}` must be an object or null, found {other}",
                    scope.label(field)
                )),
            }
        }
    }

    fn check_sliding_window(&mut self, scope: &Scope<'_>) {
        if let Some(Value::Bool(true)) = scope.get("use_sliding_window") {
            self.problems.push(format!(
                "`{}` is true; sliding-window attention is not supported",
                scope.label("use_sliding_window")
            ));
        }
        if let Some(Value::Array(kinds)) = scope.get("layer_types") {
            let others: Vec<&Value> = kinds
                .iter()
                .filter(|kind| kind.as_str() != Some("full_attention"))
                .collect();
            if !others.is_empty() {
                self.problems.push(format!(
                    "`{}` holds layers other than full_attention ({others:?}); only full attention is supported",
                    scope.label("layer_types")
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FLAT: &str = r#"{
        "model_type": "qwen3", "vocab_size": 320, "hidden_size": 48, "intermediate_size": 96,
        "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16,
        "rope_theta": 10000.0, "rms_norm_eps": 1e-6, "tie_word_embeddings": true,
        "max_position_embeddings": 128, "hidden_act": "silu", "eos_token_id": 3, "rope_scaling": null
    }"#;

    fn problems_of(text: &str) -> Vec<String> {
        match Qwen3Config::from_json_str(text) {
            Err(ModelError::Config { problems, .. }) => problems,
            other => panic!("expected a config error, got {other:?}"),
        }
    }

    #[test]
    fn reads_a_flat_config_with_head_dim_independent_of_hidden_size() {
        let config = Qwen3Config::from_json_str(FLAT).unwrap();
        assert_eq!(config.head_dim, 16);
        assert_eq!(config.hidden_size, 48);
        assert_eq!(config.query_groups(), 2);
        assert!(config.tie_word_embeddings);
        assert_eq!(config.eos_token_ids, vec![3]);
        assert!(!config.nested_text_config);
    }

    #[test]
    fn reads_a_config_nested_under_text_config() {
        let text: Value = serde_json::from_str(FLAT).unwrap();
        let mut text = text.as_object().unwrap().clone();
        text.insert("model_type".into(), "qwen3_vl_text".into());
        text.remove("tie_word_embeddings");
        text.remove("eos_token_id");
        text.remove("rope_theta");
        text.insert(
            "rope_scaling".into(),
            serde_json::json!({"rope_type": "default", "mrope_section": [4, 2, 2]}),
        );
        text.insert("rope_parameters".into(), serde_json::json!({"rope_theta": 5e6}));
        let root = serde_json::json!({
            "model_type": "qwen3_vl", "text_config": text, "tie_word_embeddings": false,
            "eos_token_id": [1, 2], "vision_config": {"depth": 2}
        });
        let config = Qwen3Config::from_json_str(&root.to_string()).unwrap();
        assert!(config.nested_text_config);
        assert!(!config.tie_word_embeddings);
        assert_eq!(config.eos_token_ids, vec![1, 2]);
        assert_eq!(config.rope_theta, 5e6);
    }

    #[test]
    fn reports_every_missing_and_invalid_field() {
        let problems = problems_of(
            r#"{"model_type": "qwen3", "vocab_size": 0, "hidden_size": "48", "intermediate_size": 96,
                "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 3,
                "rope_theta": 1e4, "rms_norm_eps": -1, "max_position_embeddings": 64}"#,
        );
        let joined = problems.join("\n");
        assert!(joined.contains("`vocab_size` must be a positive integer"), "{joined}");
        assert!(joined.contains("`hidden_size` must be a positive integer"), "{joined}");
        assert!(joined.contains("missing field `head_dim`"), "{joined}");
        assert!(joined.contains("`rms_norm_eps` must be a positive number"), "{joined}");
        assert!(joined.contains("not a multiple of num_key_value_heads"), "{joined}");
    }

    #[test]
    fn refuses_other_architectures_and_unsupported_rope() {
        let other = FLAT.replace("\"qwen3\"", "\"llama\"");
        assert!(problems_of(&other).join("\n").contains("supported: qwen3"));
        let yarn = FLAT.replace("\"rope_scaling\": null", "\"rope_scaling\": {\"rope_type\": \"yarn\"}");
        assert!(problems_of(&yarn).join("\n").contains("\"yarn\""));
        assert!(problems_of("[1, 2]").join("\n").contains("not a JSON object"));
        assert!(problems_of("{ not json").join("\n").contains("not valid JSON"));
    }
}
