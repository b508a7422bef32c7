//! The model behind an engine: a Qwen3 text checkpoint or a Qwen3-VL one, chosen by its `config.json`,
//! with the calls the engine makes whichever it is.

use std::path::Path;

use serde_json::Value;

use crate::cache::KvCache;
use crate::config::Qwen3Config;
use crate::dtype::WeightDtype;
use crate::quantization::Precision;
use crate::error::ModelError;
use crate::model::{CONFIG_FILE, Qwen3Model, SequenceStep};
use crate::vl::{ProcessedImage, Qwen3VlModel};

/// What an [`super::Engine`] runs (boxed: a model holds its weights' handles and kernels inline).
#[derive(Debug, Clone)]
pub enum EngineModel {
    /// Reads text only.
    Text(Box<Qwen3Model>),
    /// Reads text and images.
    Vision(Box<Qwen3VlModel>),
}

impl From<Qwen3Model> for EngineModel {
    fn from(model: Qwen3Model) -> Self {
        EngineModel::Text(Box::new(model))
    }
}

impl From<Qwen3VlModel> for EngineModel {
    fn from(model: Qwen3VlModel) -> Self {
        EngineModel::Vision(Box::new(model))
    }
}

impl EngineModel {
    /// Loads the checkpoint in `directory` onto `device`: a Qwen3-VL model when its `config.json` has a
    /// `vision_config`, a Qwen3 text model otherwise. The weights are converted to f32.
    pub fn load(directory: &Path, device: &burn::tensor::Device) -> Result<Self, ModelError> {
        Self::load_as(directory, device, WeightDtype::F32)
    }

    /// Like [`Self::load`], with the weights, activations and KV cache in the precision's dtype (see
    /// [`crate::dtype`]) and the layers' projections quantised as it says (see [`crate::quantization`]);
    /// a bare [`WeightDtype`] quantises nothing.
    pub fn load_as(
        directory: &Path,
        device: &burn::tensor::Device,
        precision: impl Into<Precision>,
    ) -> Result<Self, ModelError> {
        let precision = precision.into();
        if is_multimodal_checkpoint(directory)? {
            Qwen3VlModel::load_as(directory, device, precision).map(Self::from)
        } else {
            Qwen3Model::load_as(directory, device, precision).map(Self::from)
        }
    }

    /// The text decoder's configuration (vocabulary, context, end ids).
    pub fn text_config(&self) -> &Qwen3Config {
        match self {
            EngineModel::Text(model) => model.config(),
            EngineModel::Vision(model) => &model.config().text,
        }
    }

    /// The vision-language model, when this one reads images.
    pub fn vision(&self) -> Option<&Qwen3VlModel> {
        match self {
            EngineModel::Text(_) => None,
            EngineModel::Vision(model) => Some(model),
        }
    }

    pub(crate) fn new_cache(&self) -> KvCache {
        match self {
            EngineModel::Text(model) => model.new_cache(),
            EngineModel::Vision(model) => model.new_cache(),
        }
    }

    /// Text tokens of any set of sequences together: decode steps and prompts without images.
    pub(crate) fn forward(&self, batch: &mut [SequenceStep<'_>]) -> Result<Vec<Vec<f32>>, ModelError> {
        match self {
            EngineModel::Text(model) => model.forward(batch),
            EngineModel::Vision(model) => model.forward(batch),
        }
    }

    /// One prompt holding images into its fresh cache; the logits at its last token.
    pub(crate) fn prefill_with_images(
        &self,
        tokens: &[u32],
        images: &[ProcessedImage],
        cache: &mut KvCache,
    ) -> Result<Vec<f32>, ModelError> {
        match self {
            EngineModel::Text(_) => Err(ModelError::Input(format!(
                "this model reads text only; the prompt holds {} images",
                images.len()
            ))),
            EngineModel::Vision(model) => model.prefill(tokens, images, cache),
        }
    }
}

/// Whether the checkpoint's `config.json` describes a vision-language model (it has a `vision_config`).
pub fn is_multimodal_checkpoint(directory: &Path) -> Result<bool, ModelError> {
    let path = directory.join(CONFIG_FILE);
    let text = std::fs::read_to_string(&path).map_err(|source| ModelError::Io {
        path: path.clone(),
        source,
    })?;
    let root: Value = serde_json::from_str(&text).map_err(|error| ModelError::Config {
        path: Some(path),
        problems: vec![format!("not valid JSON: {error}")],
    })?;
    Ok(root.get("vision_config").is_some_and(Value::is_object))
}
