//! The model `aca serve` serves: a Qwen3 or Qwen3-VL checkpoint on burn with its tokenizer, chat
//! template, JSON constraints, image processor and the continuous-batching engine, loaded once and
//! shared by every request.

use std::path::Path;
use std::sync::Arc;

use aca_model::constrain::{Constraint, ConstraintError, ConstraintFactory, JsonSpec, ToolCallSpec};
use aca_model::engine::{Engine, EngineConfig, EngineModel, GenerationEvent, GenerationRequest, SubmitError};
use aca_model::text::{ChatMessage, CheckpointText, RenderOptions, TextTokenizer};
use aca_model::{Device, ImageProcessor, Precision, ProcessedImage, Qwen3VlConfig, WeightDtype};
use anyhow::Context;
use tokio::sync::mpsc;

pub struct ServedModel {
    pub id: String,
    pub max_context: usize,
    engine: Engine,
    tokenizer: Arc<TextTokenizer>,
    template: aca_model::text::ChatTemplate,
    constraints: ConstraintFactory,
    /// What turns images into prompt tokens, for a model that reads them.
    vision: Option<Vision>,
}

/// A vision-language model's image side, as requests need it before they reach the engine.
struct Vision {
    config: Qwen3VlConfig,
    processor: ImageProcessor,
}

/// A prompt's ids with its images' placeholders expanded, ready for the engine.
pub struct ImagePrompt {
    pub ids: Vec<u32>,
    /// Placeholder tokens the images fill (part of `ids`).
    pub image_tokens: usize,
}

/// A rendered conversation, ready to generate from.
pub struct Prompt {
    pub ids: Vec<u32>,
    /// The template opened `<think>` for the model: its reply starts as reasoning.
    pub reasoning_open: bool,
}

impl ServedModel {
    /// Loads the checkpoint in `dir` (config, weights, tokenizer, template; a Qwen3-VL checkpoint's
    /// image processor too) onto `device`, its weights in f32. `max_context` is capped by the
    /// checkpoint's own `max_position_embeddings`.
    pub fn load(dir: &Path, device: &Device, id: String, max_batch: usize, max_context: usize) -> anyhow::Result<Self> {
        Self::load_as(dir, device, WeightDtype::F32, id, max_batch, max_context)
    }

    /// Like [`Self::load`], with the weights, activations and KV cache in the precision's dtype and the
    /// layers' projections quantised as it says.
    pub fn load_as(
        dir: &Path,
        device: &Device,
        precision: impl Into<Precision>,
        id: String,
        max_batch: usize,
        max_context: usize,
    ) -> anyhow::Result<Self> {
        let model = EngineModel::load_as(dir, device, precision)
            .with_context(|| format!("cannot load the checkpoint in {}", dir.display()))?;
        let text =
            CheckpointText::load(dir).with_context(|| format!("cannot load the tokenizer in {}", dir.display()))?;
        let vision = model.vision().map(|model| Vision {
            config: model.config().clone(),
            processor: model.processor().clone(),
        });
        let max_context = max_context.min(model.text_config().max_position_embeddings);
        let mut end_ids = text.stop_token_ids.clone();
        for id in &model.text_config().eos_token_ids {
            if !end_ids.contains(id) {
                end_ids.push(*id);
            }
        }
        let constraints = ConstraintFactory::new(text.tokenizer.inner(), &end_ids)
            .context("cannot prepare JSON output constraints for this tokenizer")?;
        let tokenizer = Arc::new(text.tokenizer);
        let engine = Engine::start(
            model,
            tokenizer.clone(),
            end_ids,
            EngineConfig {
                max_batch,
                max_waiting: max_batch * 8,
                max_context,
            },
        )
        .map_err(anyhow::Error::msg)?;
        Ok(ServedModel {
            id,
            max_context,
            engine,
            tokenizer,
            template: text.template,
            constraints,
            vision,
        })
    }

    /// The checkpoint's image processor, when the model reads images.
    pub fn image_processor(&self) -> Option<&ImageProcessor> {
        self.vision.as_ref().map(|vision| &vision.processor)
    }

    /// What the model reads, in `/v1/models`' words.
    pub fn input_modalities(&self) -> Vec<&'static str> {
        if self.vision.is_some() {
            vec!["text", "image"]
        } else {
            vec!["text"]
        }
    }

    /// Expands each image's placeholder in `ids` (one `<|image_pad|>`, as the chat template writes it,
    /// or a run already as long as the image's token count) for `images`, in order.
    pub fn expand_images(&self, ids: Vec<u32>, images: &[ProcessedImage]) -> Result<ImagePrompt, String> {
        let Some(vision) = &self.vision else {
            return match images.len() {
                0 => Ok(ImagePrompt { ids, image_tokens: 0 }),
                count => Err(format!(
                    "this server's model reads text only; the request holds {count} images"
                )),
            };
        };
        let ids = vision
            .config
            .expand_image_placeholders(&ids, images)
            .map_err(|error| match error {
                aca_model::ModelError::Input(message) => message,
                other => other.to_string(),
            })?;
        let image_tokens = images.iter().map(|image| vision.config.image_token_count(image)).sum();
        Ok(ImagePrompt { ids, image_tokens })
    }

    pub fn render(&self, messages: &[ChatMessage], options: &RenderOptions) -> Result<Prompt, String> {
        let text = self.template.render(messages, options).map_err(|e| e.to_string())?;
        let ids = self.tokenizer.encode(&text).map_err(|e| e.to_string())?;
        let reasoning_open = text.trim_end().ends_with("<think>");
        Ok(Prompt { ids, reasoning_open })
    }

    pub fn constraint(&self, spec: &JsonSpec) -> Result<Constraint, ConstraintError> {
        self.constraints.constraint(spec)
    }

    /// The constraint that makes a reply only the tool calls `spec` asks for.
    pub fn tool_constraint(&self, spec: &ToolCallSpec) -> Result<Constraint, ConstraintError> {
        self.constraints.tool_calls(spec)
    }

    pub fn submit(&self, request: GenerationRequest) -> Result<mpsc::UnboundedReceiver<GenerationEvent>, SubmitError> {
        self.engine.submit(request)
    }

    /// One token as text (lossy where a byte-level piece is part of a character) and its UTF-8 bytes.
    pub fn token_text(&self, id: u32) -> (String, Vec<u8>) {
        let text = self.tokenizer.decode(&[id], false).unwrap_or_default();
        let bytes = text.as_bytes().to_vec();
        (text, bytes)
    }
}
