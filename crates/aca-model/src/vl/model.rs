//! A loaded Qwen3-VL model: its text decoder, vision encoder and image processor, the prefill of a
//! sequence holding images, and text decoding through the same caches as the text model.

use std::path::Path;

use burn::tensor::{Device, Tensor};

use crate::cache::KvCache;
use crate::checkpoint::CheckpointFiles;
use crate::device::on_cpu_workers;
use crate::dtype::{WeightDtype, check_device_computes};
use crate::quantization::Precision;
use crate::error::ModelError;
use crate::generate::argmax;
use crate::layout::TensorLayout;
use crate::model::{CONFIG_FILE, DecoderInput, Qwen3Model, Rows, SequenceStep};
use crate::rope::RotaryTables;
use crate::vl::config::{Qwen3VlConfig, placeholder_runs};
use crate::vl::positions::{ImageSpan, multimodal_positions};
use crate::vl::processor::{ImageProcessor, ImageProcessorConfig, PREPROCESSOR_FILE, ProcessedImage};
use crate::vl::vision::{ImageFeatures, check_image, encode_image};
use crate::vl::vision_weights::{VisionWeights, vision_problems};
use crate::weights::Qwen3Weights;

/// A loaded Qwen3-VL model on one device.
#[derive(Debug, Clone)]
pub struct Qwen3VlModel {
    config: Qwen3VlConfig,
    text: Qwen3Model,
    vision: VisionWeights,
    processor: ImageProcessor,
}

impl Qwen3VlModel {
    /// Loads the checkpoint in `directory` (`config.json`, `preprocessor_config.json`, and
    /// `model.safetensors` or a sharded index) onto `device`. Every tensor of both towers is checked
    /// against the configuration before any weight is read; all problems are reported together. The
    /// weights are converted to f32.
    pub fn load(directory: &Path, device: &Device) -> Result<Self, ModelError> {
        Self::load_as(directory, device, WeightDtype::F32)
    }

    /// Like [`Self::load`], with both towers' weights, their activations and the KV cache in the
    /// precision's dtype (see [`crate::dtype`]) and the text decoder's layer projections quantised as it
    /// says (see [`crate::quantization`]).
    pub fn load_as(directory: &Path, device: &Device, precision: impl Into<Precision>) -> Result<Self, ModelError> {
        let Precision { dtype, quantization } = precision.into();
        let config = Qwen3VlConfig::from_file(&directory.join(CONFIG_FILE))?;
        let processor_path = directory.join(PREPROCESSOR_FILE);
        let processor_config = ImageProcessorConfig::from_file(&processor_path)?;
        check_processor(&config, &processor_config).map_err(|problems| ModelError::Config {
            path: Some(processor_path),
            problems,
        })?;
        let files = CheckpointFiles::open(directory)?;
        let layout = TensorLayout::for_config(&config.text);
        let mut problems = match layout.validate(&config.text, &files) {
            Ok(()) => Vec::new(),
            Err(ModelError::Checkpoint { problems }) => problems,
            Err(other) => return Err(other),
        };
        problems.extend(vision_problems(&config.vision, &files));
        if !problems.is_empty() {
            return Err(ModelError::Checkpoint { problems });
        }
        let dtype = dtype.resolve_for(&files);
        check_device_computes(device, dtype)?;
        let text_weights = Qwen3Weights::load(&config.text, &layout, &files, device, dtype, quantization)?;
        let vision = VisionWeights::load(&config.vision, &files, device, dtype)?;
        Ok(Self {
            text: Qwen3Model::from_weights(config.text.clone(), text_weights, device),
            config,
            vision,
            processor: ImageProcessor::new(processor_config),
        })
    }

    /// Runs one processed image through the vision encoder alone and returns what replaces its
    /// placeholder tokens: `[merged tokens, text hidden size]` values, row by row, in f32. For
    /// measuring and inspecting the encoder; [`Self::prefill`] encodes its images itself.
    pub fn encode_image(&self, image: &ProcessedImage) -> Result<Vec<f32>, ModelError> {
        check_image(&self.config.vision, image)?;
        let device = self.text.device();
        let features = on_cpu_workers(device, || {
            encode_image(&self.config.vision, &self.vision, image, device)
        });
        features
            .embeds
            .cast(burn::tensor::DType::F32)
            .into_data()
            .try_into_vec::<f32>()
            .map_err(|error| ModelError::Compute(format!("reading the image embeddings: {error:?}")))
    }

    pub fn config(&self) -> &Qwen3VlConfig {
        &self.config
    }

    /// The checkpoint's image processor: turns PNG or JPEG images into [`ProcessedImage`]s.
    pub fn processor(&self) -> &ImageProcessor {
        &self.processor
    }

    /// The text decoder alone (text-only sequences run through it unchanged).
    pub fn text_model(&self) -> &Qwen3Model {
        &self.text
    }

    /// An empty cache for one new sequence.
    pub fn new_cache(&self) -> KvCache {
        self.text.new_cache()
    }

    /// The tokens standing for `image` in a prompt: vision start, one placeholder per merged token, vision end.
    pub fn image_tokens(&self, image: &ProcessedImage) -> Vec<u32> {
        let count = self.config.image_token_count(image);
        let mut tokens = Vec::with_capacity(count + 2);
        tokens.push(self.config.vision_start_token_id);
        tokens.extend(std::iter::repeat_n(self.config.image_token_id, count));
        tokens.push(self.config.vision_end_token_id);
        tokens
    }

    /// Expands the image placeholders of a templated prompt to each image's token count (see
    /// [`Qwen3VlConfig::expand_image_placeholders`]).
    pub fn expand_image_placeholders(&self, tokens: &[u32], images: &[ProcessedImage]) -> Result<Vec<u32>, ModelError> {
        self.config.expand_image_placeholders(tokens, images)
    }

    /// Appends a prompt that may hold images to `cache` and returns the logits at its last token.
    ///
    /// Image `k` replaces the `k`-th run of image placeholder tokens in `tokens`, which must be exactly
    /// as long as the image's merged token count (see [`Self::image_tokens`]).
    pub fn prefill(
        &self,
        tokens: &[u32],
        images: &[ProcessedImage],
        cache: &mut KvCache,
    ) -> Result<Vec<f32>, ModelError> {
        let mut rows = self.prefill_rows(tokens, images, cache, Rows::Last)?;
        rows.pop()
            .ok_or_else(|| ModelError::Compute("no logits came back".to_string()))
    }

    /// Like [`Self::prefill`], but returns the logits at every new token: `[token][vocab]`.
    pub fn prefill_all_positions(
        &self,
        tokens: &[u32],
        images: &[ProcessedImage],
        cache: &mut KvCache,
    ) -> Result<Vec<Vec<f32>>, ModelError> {
        self.prefill_rows(tokens, images, cache, Rows::All)
    }

    /// The `[temporal, height, width]` rotary positions a fresh cache's prefill of `tokens` and `images`
    /// gives each token (the reference's `get_rope_index`).
    pub fn rope_positions(&self, tokens: &[u32], images: &[ProcessedImage]) -> Result<Vec<[usize; 3]>, ModelError> {
        let spans = self.image_spans(tokens, images)?;
        Ok(multimodal_positions(tokens.len(), &spans, 0).positions)
    }

    /// Runs text tokens of any set of sequences (decode steps, or prompts without images) together,
    /// as [`Qwen3Model::forward`]; positions continue after each sequence's images.
    pub fn forward(&self, batch: &mut [SequenceStep<'_>]) -> Result<Vec<Vec<f32>>, ModelError> {
        for (index, step) in batch.iter().enumerate() {
            if step.tokens.contains(&self.config.image_token_id) {
                return Err(ModelError::Input(format!(
                    "sequence {index} holds image placeholder tokens: give its images to `prefill`"
                )));
            }
        }
        self.text.forward(batch)
    }

    /// Greedy continuation of a prompt with images: at most `max_new_tokens` tokens, ending after the
    /// first token in `stop_ids` (included).
    pub fn generate_greedy(
        &self,
        tokens: &[u32],
        images: &[ProcessedImage],
        max_new_tokens: usize,
        stop_ids: &[u32],
    ) -> Result<Vec<u32>, ModelError> {
        let mut generated = Vec::new();
        if max_new_tokens == 0 {
            return Ok(generated);
        }
        let mut cache = self.new_cache();
        let mut logits = self.prefill(tokens, images, &mut cache)?;
        loop {
            let token = argmax(&logits).ok_or_else(|| ModelError::Compute("empty logits row".to_string()))?;
            generated.push(token);
            if stop_ids.contains(&token) || generated.len() >= max_new_tokens {
                return Ok(generated);
            }
            logits = self
                .forward(&mut [SequenceStep {
                    tokens: &[token],
                    cache: &mut cache,
                }])?
                .pop()
                .unwrap_or_default();
        }
    }

    fn prefill_rows(
        &self,
        tokens: &[u32],
        images: &[ProcessedImage],
        cache: &mut KvCache,
        rows: Rows,
    ) -> Result<Vec<Vec<f32>>, ModelError> {
        let mut batch = [SequenceStep { tokens, cache }];
        let spans = self.text.check_batch(&batch)?;
        let start = spans[0].start;
        let image_spans = self.image_spans(tokens, images)?;
        for image in images {
            check_image(&self.config.vision, image)?;
        }
        let device = self.text.device();
        let features: Vec<ImageFeatures> = on_cpu_workers(device, || {
            images
                .iter()
                .map(|image| encode_image(&self.config.vision, &self.vision, image, device))
                .collect()
        });

        let first_position = batch[0].cache.position_of(start);
        let layout = multimodal_positions(tokens.len(), &image_spans, first_position);
        let text = &self.config.text;
        let rotary = RotaryTables::multimodal(
            &layout.positions,
            text.head_dim,
            text.rope_theta,
            self.config.mrope_section,
            device,
        )
        .cast(self.text.dtype());
        let mut hidden = self.text.embed(tokens);
        for (span, image) in image_spans.iter().zip(&features) {
            let range = [span.first..span.first + span.tokens, 0..text.hidden_size];
            hidden = hidden.slice_assign(range, image.embeds.clone());
        }
        let additions: Vec<Vec<(usize, Tensor<2>)>> = (0..self.vision.deepstack_mergers.len())
            .map(|layer| {
                image_spans
                    .iter()
                    .zip(&features)
                    .map(|(span, image)| (span.first, image.deepstack[layer].clone()))
                    .collect()
            })
            .collect();
        let input = DecoderInput {
            hidden,
            rotary,
            additions,
        };
        let mut logits = self.text.run_embedded(input, &spans, &mut batch, rows)?;
        for (after, shift) in layout.shifts_after_images {
            batch[0].cache.shift_positions_from(start + after, shift);
        }
        Ok(logits.pop().unwrap_or_default())
    }

    /// The runs of image placeholders in `tokens`, matched one to one with `images`.
    fn image_spans(&self, tokens: &[u32], images: &[ProcessedImage]) -> Result<Vec<ImageSpan>, ModelError> {
        let merge = self.config.vision.spatial_merge_size;
        let runs = placeholder_runs(tokens, self.config.image_token_id);
        if runs.len() != images.len() {
            return Err(ModelError::Input(format!(
                "the prompt holds {} runs of image placeholder tokens for {} images",
                runs.len(),
                images.len()
            )));
        }
        runs.iter()
            .zip(images)
            .enumerate()
            .map(|(number, (&(first, length), image))| {
                let expected = self.config.image_token_count(image);
                if length != expected {
                    return Err(ModelError::Input(format!(
                        "image {number} ({}×{} patches) takes {expected} placeholder tokens, the prompt has {length}",
                        image.grid.h, image.grid.w
                    )));
                }
                Ok(ImageSpan {
                    first,
                    tokens: length,
                    rows: image.grid.h / merge,
                    columns: image.grid.w / merge,
                })
            })
            .collect()
    }
}

/// The processor must cut patches the way the vision encoder reads them.
fn check_processor(config: &Qwen3VlConfig, processor: &ImageProcessorConfig) -> Result<(), Vec<String>> {
    let vision = &config.vision;
    let mut problems = Vec::new();
    for (field, processor_value, model_value, model_field) in [
        ("patch_size", processor.patch_size, vision.patch_size, "patch_size"),
        (
            "temporal_patch_size",
            processor.temporal_patch_size,
            vision.temporal_patch_size,
            "temporal_patch_size",
        ),
        (
            "merge_size",
            processor.merge_size,
            vision.spatial_merge_size,
            "spatial_merge_size",
        ),
    ] {
        if processor_value != model_value {
            problems.push(format!(
                "`{field}` is {processor_value}, but vision_config.{model_field} is {model_value}"
            ));
        }
    }
    if vision.in_channels != 3 {
        problems.push(format!(
            "the processor makes RGB patches, but vision_config.in_channels is {}",
            vision.in_channels
        ));
    }
    if problems.is_empty() { Ok(()) } else { Err(problems) }
}
