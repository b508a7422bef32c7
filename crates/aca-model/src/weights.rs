//! The decoder's weights on a device, laid out for the forward pass: projections as `[in, out]`,
//! q/k/v fused into one matrix and gate/up into another, the layers' projections quantised where the
//! load asks for it (see [`crate::quantization`]).

use std::collections::HashMap;
use std::sync::Arc;

use burn::tensor::quantization::{QuantScheme, QuantValue, ScaleDtype};
use burn::tensor::{DType, Device, Tensor, TensorData};
use rayon::prelude::*;

use crate::checkpoint::{CheckpointFiles, HostTensor};
use crate::config::Qwen3Config;
use crate::error::ModelError;
use crate::host;
use crate::layout::{LM_HEAD, TensorLayout};
use crate::packed::{self, PackedBf16, PackedInt8, PackedMatrix};
use crate::quantization::{BURN_BLOCK, Quantization};

/// Inputs of at most this many rows (decoding steps) are split by the weight's rows on the CPU.
const FEW_ROWS: usize = 16;

/// A linear map `x · W + b` with `W` stored as `[in, out]`.
#[derive(Debug, Clone)]
pub(crate) struct Projection {
    weight: StoredWeight,
    bias: Option<Tensor<1>>,
    /// How many blocks of the weight's rows a few-row input is computed in at once, their partial
    /// products summed: the CPU's threads, since the CPU backend computes a one-row product on one
    /// thread; 1 on a GPU. Each block is one contiguous run of weights.
    row_blocks: usize,
}

#[derive(Debug, Clone)]
#[allow(
    clippy::large_enum_variant,
    reason = "one per projection, made once at load: a box would add an indirection to every product"
)]
enum StoredWeight {
    /// Computed by burn (a quantised tensor included).
    Tensor(Tensor<2>),
    /// On the CPU: packed for this crate's own matrix-vector product.
    Packed { packed: Arc<Packed>, device: Device },
}

#[derive(Debug)]
enum Packed {
    Bf16(PackedBf16),
    Int8(PackedInt8),
}

impl Projection {
    /// A projection held in its weight's dtype.
    pub fn new(weight: Tensor<2>, bias: Option<Tensor<1>>) -> Self {
        Self::quantized(weight, bias, Quantization::None)
    }

    /// A projection whose weight is held as `quantization` says, in its dtype when not quantised.
    pub fn quantized(weight: Tensor<2>, bias: Option<Tensor<1>>, quantization: Quantization) -> Self {
        let device = weight.device();
        let on_cpu = device == Device::flex();
        let row_blocks = if on_cpu { rayon::current_num_threads() } else { 1 };
        let [inputs, outputs] = weight.dims();
        let weight = match quantization {
            Quantization::Int8 if on_cpu => match host::values_of(weight) {
                Ok(values) => StoredWeight::packed(Packed::Int8(PackedInt8::quantize(&values, inputs, outputs)), device),
                // A float tensor's values always read as f32; were they not to, burn's quantisation holds.
                Err(weight) => StoredWeight::Tensor(weight.quantize_dynamic(&burn_int8())),
            },
            Quantization::Int8 => StoredWeight::Tensor(weight.quantize_dynamic(&burn_int8())),
            Quantization::None if on_cpu && weight.dtype() == DType::BF16 => {
                let data = weight.into_data();
                match data.as_slice::<half::bf16>() {
                    Ok(values) => StoredWeight::packed(Packed::Bf16(PackedBf16::pack(values, inputs, outputs)), device),
                    Err(_) => StoredWeight::Tensor(Tensor::from_data(data, &device)),
                }
            }
            // Held `[in, out]` row-major: the CPU backend's matrix product reads a prompt's rows
            // against it about twice as fast as against a transposed `[out, in]` view.
            Quantization::None => StoredWeight::Tensor(weight),
        };
        Self {
            weight,
            bias,
            row_blocks,
        }
    }

    /// `[rows, in]` → `[rows, out]`.
    pub fn forward(&self, input: Tensor<2>) -> Tensor<2> {
        let output = match &self.weight {
            StoredWeight::Tensor(weight) => self.tensor_product(input, weight),
            StoredWeight::Packed { packed, device } => match packed.as_ref() {
                Packed::Bf16(matrix) => packed_product(input, matrix, device),
                Packed::Int8(matrix) => packed_product(input, matrix, device),
            },
        };
        match &self.bias {
            Some(bias) => output + bias.clone().unsqueeze::<2>(),
            None => output,
        }
    }

    /// The bytes the weight takes as held.
    pub fn weight_bytes(&self) -> usize {
        match &self.weight {
            StoredWeight::Tensor(weight) => {
                let [inputs, outputs] = weight.dims();
                match weight.dtype() {
                    DType::QFloat(_) => Quantization::Int8
                        .projection_bytes(inputs as u64, outputs as u64, false)
                        .map_or(0, |bytes| bytes as usize),
                    dtype => inputs * outputs * dtype.size(),
                }
            }
            StoredWeight::Packed { packed, .. } => match packed.as_ref() {
                Packed::Bf16(matrix) => matrix.bytes(),
                Packed::Int8(matrix) => matrix.bytes(),
            },
        }
    }

    fn tensor_product(&self, input: Tensor<2>, weight: &Tensor<2>) -> Tensor<2> {
        let [rows, _] = input.dims();
        let [inputs, _] = weight.dims();
        if rows <= FEW_ROWS && self.row_blocks > 1 && inputs >= 2 * BLOCK_ALIGN {
            let parts: Vec<Tensor<2>> = aligned_ranges(inputs, self.row_blocks)
                .into_par_iter()
                .map(|range| input.clone().slice_dim(1, range.clone()).matmul(weight.clone().slice_dim(0, range)))
                .collect();
            let mut parts = parts.into_iter();
            let first = parts.next().unwrap_or_else(|| input.clone().matmul(weight.clone()));
            parts.fold(first, |sum, part| sum + part)
        } else {
            input.matmul(weight.clone())
        }
    }
}

impl StoredWeight {
    fn packed(packed: Packed, device: Device) -> Self {
        StoredWeight::Packed {
            packed: Arc::new(packed),
            device,
        }
    }
}

/// burn's int8 scheme for devices other than the CPU: symmetric, a scale per block of values.
fn burn_int8() -> QuantScheme {
    QuantScheme::default()
        .with_value(QuantValue::Q8S)
        .per_block([BURN_BLOCK], ScaleDtype::F32)
}

/// A product with packed weights, in the input's dtype: few rows through the packed kernel, more (a
/// prompt) as one f32 matrix product over the weights widened for it.
fn packed_product<M: PackedMatrix>(input: Tensor<2>, packed: &M, device: &Device) -> Tensor<2> {
    let [rows, _] = input.dims();
    let [inputs, outputs] = packed.dims();
    let dtype = input.dtype();
    // A float tensor always converts to f32 values; were one not to, the widened product holds.
    let values = (rows <= FEW_ROWS)
        .then(|| input.clone().into_data().convert::<f32>().try_into_vec::<f32>().ok())
        .flatten();
    match values {
        Some(values) => {
            let output = packed::product(packed, &values, rows);
            Tensor::from_data(TensorData::new(output, [rows, outputs]), (device, dtype))
        }
        None => {
            let weight = Tensor::<2>::from_data(TensorData::new(packed::widened(packed), [inputs, outputs]), device);
            input.cast(DType::F32).matmul(weight).cast(dtype)
        }
    }
}

/// Row blocks start at multiples of this many rows (an input's 64-byte cache line of f32).
const BLOCK_ALIGN: usize = 16;

/// `0..len` cut into `blocks` ranges of nearly equal width, each starting on a multiple of
/// [`BLOCK_ALIGN`].
fn aligned_ranges(len: usize, blocks: usize) -> Vec<std::ops::Range<usize>> {
    let width = len.div_ceil(blocks).next_multiple_of(BLOCK_ALIGN);
    (0..len)
        .step_by(width)
        .map(|start| start..(start + width).min(len))
        .collect()
}

#[derive(Debug, Clone)]
pub(crate) struct AttentionWeights {
    /// q, k and v projections side by side: `[hidden, (heads + 2·kv_heads)·head_dim]`.
    pub qkv: Projection,
    /// `[heads·head_dim, hidden]`.
    pub output: Projection,
    /// Per-head RMSNorm weights, `[head_dim]`.
    pub q_norm: Tensor<1>,
    pub k_norm: Tensor<1>,
}

#[derive(Debug, Clone)]
pub(crate) struct MlpWeights {
    /// gate and up projections side by side: `[hidden, 2·intermediate]`.
    pub gate_up: Projection,
    /// `[intermediate, hidden]`.
    pub down: Projection,
}

#[derive(Debug, Clone)]
pub(crate) struct LayerWeights {
    pub input_norm: Tensor<1>,
    pub attention: AttentionWeights,
    pub post_attention_norm: Tensor<1>,
    pub mlp: MlpWeights,
}

#[derive(Debug, Clone)]
pub(crate) struct Qwen3Weights {
    /// `[vocab, hidden]`.
    pub embed_tokens: Tensor<2>,
    pub layers: Vec<LayerWeights>,
    /// `[hidden]`.
    pub final_norm: Tensor<1>,
    /// `[hidden, vocab]` (the transposed embedding when tied).
    pub lm_head: Projection,
}

impl Qwen3Weights {
    /// Reads a validated checkpoint's decoder tensors onto `device`, each converted to `dtype`, the
    /// layers' projections then held as `quantization` says.
    pub fn load(
        config: &Qwen3Config,
        layout: &TensorLayout,
        files: &CheckpointFiles,
        device: &Device,
        dtype: DType,
        quantization: Quantization,
    ) -> Result<Self, ModelError> {
        let mut store = DeviceTensors {
            tied_embedding: config.tie_word_embeddings.then(|| layout.embed_tokens()),
            quantization,
            vectors: HashMap::new(),
            matrices: HashMap::new(),
        };
        files.load(
            |name| layout.is_decoder_tensor(config, name),
            |name, host| {
                store.insert(name, host, device, dtype);
                Ok(())
            },
        )?;
        store.assemble(config, layout)
    }

    /// The dtype the weights are held and computed in.
    pub fn dtype(&self) -> DType {
        self.embed_tokens.dtype()
    }

    /// The bytes every weight takes as held.
    pub fn bytes(&self) -> u64 {
        fn tensor<const D: usize>(tensor: &Tensor<D>) -> usize {
            tensor.dims().iter().product::<usize>() * tensor.dtype().size()
        }
        fn projection(projection: &Projection) -> usize {
            projection.weight_bytes() + projection.bias.as_ref().map_or(0, tensor)
        }
        let layers: usize = self
            .layers
            .iter()
            .map(|layer| {
                let LayerWeights {
                    input_norm,
                    attention,
                    post_attention_norm,
                    mlp,
                } = layer;
                tensor(input_norm)
                    + tensor(post_attention_norm)
                    + projection(&attention.qkv)
                    + projection(&attention.output)
                    + tensor(&attention.q_norm)
                    + tensor(&attention.k_norm)
                    + projection(&mlp.gate_up)
                    + projection(&mlp.down)
            })
            .sum();
        (tensor(&self.embed_tokens) + layers + tensor(&self.final_norm) + projection(&self.lm_head)) as u64
    }
}

/// Tensors read from the checkpoint, by name, already on the device (projections transposed).
struct DeviceTensors {
    /// With tied embeddings, the embedding's name: it also becomes the (transposed, contiguous) output head.
    tied_embedding: Option<String>,
    /// How the layers' projections are held (the output head keeps the dtype).
    quantization: Quantization,
    vectors: HashMap<String, Tensor<1>>,
    matrices: HashMap<String, Tensor<2>>,
}

impl DeviceTensors {
    fn insert(&mut self, name: &str, host: HostTensor, device: &Device, dtype: DType) {
        let options = (device, dtype);
        match host.shape.clone().as_slice() {
            [length] => {
                let data = host.into_data([*length]);
                self.vectors.insert(name.to_string(), Tensor::from_data(data, options));
            }
            [rows, columns] => {
                if self.tied_embedding.as_deref() == Some(name) {
                    let head = host.transposed(*rows, *columns);
                    self.matrices
                        .insert(LM_HEAD.to_string(), Tensor::from_data(head, options));
                }
                let is_projection = name.ends_with("_proj.weight") || name == LM_HEAD;
                let data = if is_projection {
                    host.transposed(*rows, *columns)
                } else {
                    host.into_data([*rows, *columns])
                };
                self.matrices.insert(name.to_string(), Tensor::from_data(data, options));
            }
            // Validation has already refused tensors of any other rank.
            _ => {}
        }
    }

    fn vector(&mut self, name: &str) -> Result<Tensor<1>, ModelError> {
        self.vectors.remove(name).ok_or_else(|| missing(name))
    }

    fn matrix(&mut self, name: &str) -> Result<Tensor<2>, ModelError> {
        self.matrices.remove(name).ok_or_else(|| missing(name))
    }

    /// A projection's weight and, where the checkpoint has one, its bias.
    fn weight_and_bias(&mut self, name: &str, with_bias: bool) -> Result<(Tensor<2>, Option<Tensor<1>>), ModelError> {
        let weight = self.matrix(&format!("{name}.weight"))?;
        let bias = if with_bias {
            Some(self.vector(&format!("{name}.bias"))?)
        } else {
            None
        };
        Ok((weight, bias))
    }

    fn projection(&mut self, name: &str, with_bias: bool) -> Result<Projection, ModelError> {
        let (weight, bias) = self.weight_and_bias(name, with_bias)?;
        Ok(Projection::quantized(weight, bias, self.quantization))
    }

    fn assemble(mut self, config: &Qwen3Config, layout: &TensorLayout) -> Result<Qwen3Weights, ModelError> {
        let embed_tokens = self.matrix(&layout.embed_tokens())?;
        let final_norm = self.vector(&layout.final_norm())?;
        let lm_head = Projection::new(self.matrix(LM_HEAD)?, None);
        let mut layers = Vec::with_capacity(config.num_hidden_layers);
        for layer in 0..config.num_hidden_layers {
            let name = |suffix: &str| layout.layer_tensor(layer, suffix);
            let bias = config.attention_bias;
            let (q, q_bias) = self.weight_and_bias(&name("self_attn.q_proj"), bias)?;
            let (k, k_bias) = self.weight_and_bias(&name("self_attn.k_proj"), bias)?;
            let (v, v_bias) = self.weight_and_bias(&name("self_attn.v_proj"), bias)?;
            let qkv = Projection::quantized(
                Tensor::cat(vec![q, k, v], 1),
                match (q_bias, k_bias, v_bias) {
                    (Some(q), Some(k), Some(v)) => Some(Tensor::cat(vec![q, k, v], 0)),
                    _ => None,
                },
                self.quantization,
            );
            let attention = AttentionWeights {
                qkv,
                output: self.projection(&name("self_attn.o_proj"), bias)?,
                q_norm: self.vector(&name("self_attn.q_norm.weight"))?,
                k_norm: self.vector(&name("self_attn.k_norm.weight"))?,
            };
            let gate = self.matrix(&name("mlp.gate_proj.weight"))?;
            let up = self.matrix(&name("mlp.up_proj.weight"))?;
            let mlp = MlpWeights {
                gate_up: Projection::quantized(Tensor::cat(vec![gate, up], 1), None, self.quantization),
                down: self.projection(&name("mlp.down_proj"), false)?,
            };
            layers.push(LayerWeights {
                input_norm: self.vector(&name("input_layernorm.weight"))?,
                attention,
                post_attention_norm: self.vector(&name("post_attention_layernorm.weight"))?,
                mlp,
            });
        }
        Ok(Qwen3Weights {
            embed_tokens,
            layers,
            final_norm,
            lm_head,
        })
    }
}

fn missing(name: &str) -> ModelError {
    ModelError::Checkpoint {
        problems: vec![format!("tensor `{name}` was not found while loading")],
    }
}

#[cfg(test)]
mod tests {
    use burn::tensor::{Distribution, Tolerance};

    use super::*;

    #[test]
    fn row_blocks_cover_the_rows_once_and_start_aligned() {
        assert_eq!(aligned_ranges(100, 2), vec![0..64, 64..100]);
        assert_eq!(aligned_ranges(3072, 2), vec![0..1536, 1536..3072]);
        assert_eq!(aligned_ranges(40, 4), vec![0..16, 16..32, 32..40]);
        for (len, blocks) in [(8192, 2), (151_936, 3), (17, 2)] {
            let ranges = aligned_ranges(len, blocks);
            assert_eq!(ranges.first().map(|r| r.start), Some(0));
            assert_eq!(ranges.last().map(|r| r.end), Some(len));
            assert!(ranges.windows(2).all(|w| w[0].end == w[1].start));
            assert!(ranges.iter().all(|r| r.start % BLOCK_ALIGN == 0 && !r.is_empty()));
        }
    }

    #[test]
    fn a_few_rows_split_by_the_weights_rows_give_the_whole_product() {
        let device = Device::flex();
        let weight: Tensor<2> = Tensor::random([64, 100], Distribution::Normal(0.0, 1.0), &device);
        let bias: Tensor<1> = Tensor::random([100], Distribution::Normal(0.0, 1.0), &device);
        let projection = Projection {
            weight: StoredWeight::Tensor(weight.clone()),
            bias: Some(bias.clone()),
            row_blocks: 3,
        };
        for rows in [1, 4, FEW_ROWS, FEW_ROWS + 1] {
            let input: Tensor<2> = Tensor::random([rows, 64], Distribution::Normal(0.0, 1.0), &device);
            let whole = input.clone().matmul(weight.clone()) + bias.clone().unsqueeze::<2>();
            let split = projection.forward(input);
            assert_eq!(split.dims(), [rows, 100]);
            split
                .into_data()
                .assert_approx_eq::<f32>(&whole.into_data(), Tolerance::rel_abs(1e-5, 1e-5));
        }
    }

    #[test]
    fn bf16_weights_on_the_cpu_are_packed_and_give_burns_product() {
        let device = Device::flex();
        let weight = Tensor::<2>::random([48, 130], Distribution::Normal(0.0, 1.0), &device).cast(DType::BF16);
        let bias = Tensor::<1>::random([130], Distribution::Normal(0.0, 1.0), &device).cast(DType::BF16);
        let projection = Projection::new(weight.clone(), Some(bias.clone()));
        assert!(matches!(&projection.weight, StoredWeight::Packed { packed, .. } if matches!(packed.as_ref(), Packed::Bf16(matrix) if matrix.dims() == [48, 130])));
        for rows in [1, 3, FEW_ROWS, FEW_ROWS + 5] {
            let input = Tensor::<2>::random([rows, 48], Distribution::Normal(0.0, 1.0), &device).cast(DType::BF16);
            let expected = (input.clone().cast(DType::F32).matmul(weight.clone().cast(DType::F32))
                + bias.clone().cast(DType::F32).unsqueeze::<2>())
            .cast(DType::BF16);
            let output = projection.forward(input);
            assert_eq!(output.dtype(), DType::BF16, "{rows} rows");
            assert_eq!(output.dims(), [rows, 130]);
            // Both round the f32 sums to bf16; the sums' order differs.
            output
                .cast(DType::F32)
                .into_data()
                .assert_approx_eq::<f32>(&expected.cast(DType::F32).into_data(), Tolerance::rel_abs(2e-2, 2e-2));
        }
    }

    /// Off the CPU, int8 weights are burn's quantised tensors; built here on the CPU to check that the
    /// product takes them, for f32 and bf16 inputs, within the quantisation's error.
    #[test]
    fn burns_int8_weights_give_the_product_within_a_quantisation_step() {
        let device = Device::flex();
        let weight: Tensor<2> = Tensor::random([64, 96], Distribution::Uniform(-1.0, 1.0), &device);
        let projection = Projection {
            weight: StoredWeight::Tensor(weight.clone().quantize_dynamic(&burn_int8())),
            bias: None,
            row_blocks: 1,
        };
        for dtype in [DType::F32, DType::BF16] {
            let input = Tensor::<2>::random([3, 64], Distribution::Uniform(-1.0, 1.0), &device).cast(dtype);
            let exact = input.clone().cast(DType::F32).matmul(weight.clone());
            let output = projection.forward(input.clone()).cast(DType::F32);
            assert_eq!(output.dims(), [3, 96]);
            // Each weight is off by at most half a step (1/254 of its block's largest magnitude, at
            // most 1); a sum over 64 inputs of magnitude ≤ 1 by at most 64/254.
            let error = (output - exact).abs().max().into_scalar::<f32>();
            assert!(error <= 64.0 / 254.0 + 0.05, "{dtype:?}: {error}");
        }
        assert_eq!(projection.weight_bytes(), 64 * 96 + 4 * 64 * 3);
    }

    #[test]
    fn int8_weights_on_the_cpu_are_packed_and_give_the_dequantised_product() {
        let device = Device::flex();
        let weight = Tensor::<2>::random([48, 130], Distribution::Uniform(-1.0, 1.0), &device);
        let projection = Projection::quantized(weight.clone(), None, Quantization::Int8);
        let Some(Packed::Int8(matrix)) = (match &projection.weight {
            StoredWeight::Packed { packed, .. } => Some(packed.as_ref()),
            StoredWeight::Tensor(_) => None,
        }) else {
            panic!("int8 on the CPU is packed");
        };
        let dequantised = Tensor::<2>::from_data(TensorData::new(packed::widened(matrix), [48, 130]), &device);
        for rows in [1, 3, FEW_ROWS + 5] {
            let input = Tensor::<2>::random([rows, 48], Distribution::Normal(0.0, 1.0), &device);
            let expected = input.clone().matmul(dequantised.clone());
            projection
                .forward(input)
                .into_data()
                .assert_approx_eq::<f32>(&expected.into_data(), Tolerance::absolute(1e-4));
        }
        assert_eq!(projection.weight_bytes(), 3 * 64 * (48 + 4));
    }
}
