//! The Qwen3 text decoder: loading a checkpoint directory and the batched forward pass through the KV caches.

use std::path::Path;

use burn::tensor::{DType, Device, Int, Tensor, TensorData};

use crate::attention::AttentionKernels;
use crate::cache::KvCache;
use crate::checkpoint::CheckpointFiles;
use crate::config::Qwen3Config;
use crate::device::on_cpu_workers;
use crate::dtype::{WeightDtype, check_device_computes};
use crate::quantization::Precision;
use crate::error::ModelError;
use crate::gated::silu_gated;
use crate::layout::TensorLayout;
use crate::norm::rms_norm_inference;
use crate::rope::RotaryTables;
use crate::weights::{LayerWeights, Qwen3Weights};

/// The configuration file of a checkpoint directory.
pub const CONFIG_FILE: &str = "config.json";

/// A loaded Qwen3 text model on one device.
#[derive(Debug, Clone)]
pub struct Qwen3Model {
    config: Qwen3Config,
    weights: Qwen3Weights,
    device: Device,
    attention: AttentionKernels,
}

/// One sequence's part of a batched forward call: its new tokens and its cache, which they extend.
#[derive(Debug)]
pub struct SequenceStep<'a> {
    /// Tokens to append: a whole prompt (prefill), one token (decode), or any number.
    pub tokens: &'a [u32],
    pub cache: &'a mut KvCache,
}

/// Which positions' logits a forward call returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rows {
    Last,
    All,
}

/// Where each sequence's tokens sit in the flattened batch.
pub(crate) struct Span {
    /// First row of the sequence in the flattened `[tokens, …]` batch.
    pub offset: usize,
    pub length: usize,
    /// Cache index of the sequence's first new token (its cache length before the call).
    pub start: usize,
}

/// The decoder's input for a batch: embedded tokens, their rotary tables, and features added to some
/// rows after the first layers (Qwen3-VL's DeepStack; empty for text).
pub(crate) struct DecoderInput {
    /// `[tokens, hidden]`.
    pub hidden: Tensor<2>,
    pub rotary: RotaryTables,
    /// For layer `l < additions.len()`: `(first row, [rows, hidden] features)` added after that layer.
    pub additions: Vec<Vec<(usize, Tensor<2>)>>,
}

impl Qwen3Model {
    /// Loads the checkpoint in `directory` (`config.json` plus `model.safetensors` or a sharded index)
    /// onto `device`, its weights converted to f32. The checkpoint is checked against its configuration
    /// before any weight is read.
    pub fn load(directory: &Path, device: &Device) -> Result<Self, ModelError> {
        Self::load_as(directory, device, WeightDtype::F32)
    }

    /// Like [`Self::load`], with the weights, activations and KV cache in the precision's dtype (see
    /// [`crate::dtype`]) and the layers' projections quantised as it says (see [`crate::quantization`]);
    /// a bare [`WeightDtype`] quantises nothing.
    pub fn load_as(directory: &Path, device: &Device, precision: impl Into<Precision>) -> Result<Self, ModelError> {
        let Precision { dtype, quantization } = precision.into();
        let config = Qwen3Config::from_file(&directory.join(CONFIG_FILE))?;
        let layout = TensorLayout::for_config(&config);
        let files = CheckpointFiles::open(directory)?;
        layout.validate(&config, &files)?;
        let dtype = dtype.resolve_for(&files);
        check_device_computes(device, dtype)?;
        let weights = Qwen3Weights::load(&config, &layout, &files, device, dtype, quantization)?;
        Ok(Self::from_weights(config, weights, device))
    }

    pub(crate) fn from_weights(config: Qwen3Config, weights: Qwen3Weights, device: &Device) -> Self {
        Self {
            config,
            weights,
            device: device.clone(),
            attention: AttentionKernels::for_device(device),
        }
    }

    /// `[tokens, hidden]` embeddings of `ids`.
    pub(crate) fn embed(&self, ids: &[u32]) -> Tensor<2> {
        let ids: Vec<i64> = ids.iter().map(|&id| i64::from(id)).collect();
        let count = ids.len();
        let ids = Tensor::<1, Int>::from_data(TensorData::new(ids, [count]), &self.device);
        self.weights.embed_tokens.clone().select(0, ids)
    }

    pub fn config(&self) -> &Qwen3Config {
        &self.config
    }

    pub fn device(&self) -> &Device {
        &self.device
    }

    /// The dtype the weights, activations and KV cache are held in.
    pub fn dtype(&self) -> DType {
        self.weights.dtype()
    }

    /// The bytes the weights take as held (quantised projections, packing and scales included).
    pub fn weight_bytes(&self) -> u64 {
        self.weights.bytes()
    }

    /// An empty cache for one new sequence.
    pub fn new_cache(&self) -> KvCache {
        KvCache::new(self.config.num_hidden_layers)
    }

    /// Runs every sequence's new tokens through the model together, extending each cache, and returns
    /// each sequence's logits (`vocab_size` values) at its last new token, in batch order.
    pub fn forward(&self, batch: &mut [SequenceStep<'_>]) -> Result<Vec<Vec<f32>>, ModelError> {
        let mut rows = self.run(batch, Rows::Last)?;
        Ok(rows
            .iter_mut()
            .map(|sequence| sequence.pop().unwrap_or_default())
            .collect())
    }

    /// Like [`Self::forward`], but returns the logits at every new token: `[sequence][token][vocab]`.
    pub fn forward_all_positions(&self, batch: &mut [SequenceStep<'_>]) -> Result<Vec<Vec<Vec<f32>>>, ModelError> {
        self.run(batch, Rows::All)
    }

    /// One sequence alone: appends `tokens` to `cache` and returns the logits at the last of them.
    pub fn forward_one(&self, tokens: &[u32], cache: &mut KvCache) -> Result<Vec<f32>, ModelError> {
        let mut logits = self.forward(&mut [SequenceStep { tokens, cache }])?;
        logits
            .pop()
            .ok_or_else(|| ModelError::Compute("no logits came back".to_string()))
    }

    fn run(&self, batch: &mut [SequenceStep<'_>], rows: Rows) -> Result<Vec<Vec<Vec<f32>>>, ModelError> {
        let spans = self.check_batch(batch)?;
        let config = &self.config;
        let ids: Vec<u32> = batch.iter().flat_map(|step| step.tokens.iter().copied()).collect();
        let positions: Vec<usize> = batch
            .iter()
            .zip(&spans)
            .flat_map(|(step, span)| (span.start..span.start + span.length).map(|index| step.cache.position_of(index)))
            .collect();
        let input = DecoderInput {
            hidden: self.embed(&ids),
            rotary: RotaryTables::new(&positions, config.head_dim, config.rope_theta, &self.device).cast(self.dtype()),
            additions: Vec::new(),
        };
        self.run_embedded(input, &spans, batch, rows)
    }

    /// The decoder over embedded inputs: every layer (with the input's additions after the first ones),
    /// then the final norm and the output head at the requested rows. Extends every cache.
    pub(crate) fn run_embedded(
        &self,
        input: DecoderInput,
        spans: &[Span],
        batch: &mut [SequenceStep<'_>],
        rows: Rows,
    ) -> Result<Vec<Vec<Vec<f32>>>, ModelError> {
        on_cpu_workers(&self.device, || self.run_layers(input, spans, batch, rows))
    }

    fn run_layers(
        &self,
        input: DecoderInput,
        spans: &[Span],
        batch: &mut [SequenceStep<'_>],
        rows: Rows,
    ) -> Result<Vec<Vec<Vec<f32>>>, ModelError> {
        let config = &self.config;
        let DecoderInput {
            mut hidden,
            rotary,
            additions,
        } = input;
        for (index, layer) in self.weights.layers.iter().enumerate() {
            hidden = self.decoder_layer(hidden, layer, index, &rotary, spans, batch);
            for (first, features) in additions.get(index).into_iter().flatten() {
                let [count, width] = features.dims();
                let range = [*first..*first + count, 0..width];
                let updated = hidden.clone().slice(range.clone()) + features.clone();
                hidden = hidden.slice_assign(range, updated);
            }
        }
        for (step, span) in batch.iter_mut().zip(spans) {
            step.cache.advance(span.length);
        }
        let selected = match rows {
            Rows::All => hidden,
            Rows::Last => {
                let last: Vec<i64> = spans
                    .iter()
                    .map(|span| (span.offset + span.length - 1) as i64)
                    .collect();
                let count = last.len();
                hidden.select(
                    0,
                    Tensor::<1, Int>::from_data(TensorData::new(last, [count]), &self.device),
                )
            }
        };
        let normed = rms_norm_inference(selected, &self.weights.final_norm, config.rms_norm_eps);
        // [rows, vocab]
        let logits = self.weights.lm_head.forward(normed);
        let values = logits
            .cast(DType::F32)
            .try_into_data()
            .map_err(|error| ModelError::Compute(format!("reading logits: {error:?}")))?
            .try_into_vec::<f32>()
            .map_err(|error| ModelError::Compute(format!("reading logits: {error:?}")))?;
        let vocab = config.vocab_size;
        let mut rows_of_values = values.chunks_exact(vocab).map(<[f32]>::to_vec);
        Ok(spans
            .iter()
            .map(|span| {
                let count = if rows == Rows::All { span.length } else { 1 };
                rows_of_values.by_ref().take(count).collect()
            })
            .collect())
    }

    /// Refuses an empty batch, a sequence without tokens, an id outside the vocabulary or a foreign cache.
    pub(crate) fn check_batch(&self, batch: &[SequenceStep<'_>]) -> Result<Vec<Span>, ModelError> {
        if batch.is_empty() {
            return Err(ModelError::Input("the batch holds no sequence".to_string()));
        }
        let mut spans = Vec::with_capacity(batch.len());
        let mut offset = 0;
        for (index, step) in batch.iter().enumerate() {
            if step.tokens.is_empty() {
                return Err(ModelError::Input(format!(
                    "sequence {index} of the batch has no tokens"
                )));
            }
            if let Some(id) = step.tokens.iter().find(|&&id| id as usize >= self.config.vocab_size) {
                return Err(ModelError::Input(format!(
                    "sequence {index}: token id {id} is outside the vocabulary of {} ids",
                    self.config.vocab_size
                )));
            }
            if step.cache.layer_count() != self.config.num_hidden_layers {
                return Err(ModelError::Input(format!(
                    "sequence {index}: the cache has {} layers, the model {}",
                    step.cache.layer_count(),
                    self.config.num_hidden_layers
                )));
            }
            spans.push(Span {
                offset,
                length: step.tokens.len(),
                start: step.cache.len(),
            });
            offset += step.tokens.len();
        }
        Ok(spans)
    }

    /// One decoder layer over the flattened batch `[tokens, hidden]`.
    fn decoder_layer(
        &self,
        hidden: Tensor<2>,
        layer: &LayerWeights,
        index: usize,
        rotary: &RotaryTables,
        spans: &[Span],
        batch: &mut [SequenceStep<'_>],
    ) -> Tensor<2> {
        let config = &self.config;
        let eps = config.rms_norm_eps;
        let [tokens, _] = hidden.dims();
        let head_dim = config.head_dim;
        let q_width = config.num_attention_heads * head_dim;
        let kv_width = config.num_key_value_heads * head_dim;

        let normed = rms_norm_inference(hidden.clone(), &layer.input_norm, eps);
        // [tokens, q_width + 2·kv_width]
        let qkv = layer.attention.qkv.forward(normed);
        let queries = qkv
            .clone()
            .slice_dim(1, 0..q_width)
            .reshape([tokens, config.num_attention_heads, head_dim]);
        let keys = qkv.clone().slice_dim(1, q_width..q_width + kv_width).reshape([
            tokens,
            config.num_key_value_heads,
            head_dim,
        ]);
        let values = qkv.slice_dim(1, q_width + kv_width..q_width + 2 * kv_width).reshape([
            tokens,
            config.num_key_value_heads,
            head_dim,
        ]);
        let queries = rotary.apply_inference(rms_norm_inference(queries, &layer.attention.q_norm, eps));
        let keys = rotary.apply_inference(rms_norm_inference(keys, &layer.attention.k_norm, eps));

        let mut outputs = Vec::with_capacity(spans.len());
        for (step, span) in batch.iter_mut().zip(spans) {
            let own = |tensor: &Tensor<3>| {
                if spans.len() == 1 {
                    tensor.clone()
                } else {
                    tensor.clone().slice_dim(0, span.offset..span.offset + span.length)
                }
            };
            let limit = step.cache.capacity_limit;
            let cached = step.cache.layers[index].append(own(&keys), own(&values), limit);
            let kernel = self.attention.for_queries(span.length);
            outputs.push(kernel.attend(own(&queries), cached, span.start));
        }
        // [tokens, heads·head_dim]
        let attended = if outputs.len() == 1 {
            outputs.remove(0)
        } else {
            Tensor::cat(outputs, 0)
        };
        let hidden = hidden + layer.attention.output.forward(attended);

        let normed = rms_norm_inference(hidden.clone(), &layer.post_attention_norm, eps);
        let inter = config.intermediate_size;
        // [tokens, 2·intermediate]
        let gate_up = layer.mlp.gate_up.forward(normed);
        hidden + layer.mlp.down.forward(silu_gated(gate_up, inter))
    }
}
