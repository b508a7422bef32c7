//! The vision encoder's tensors: the names and shapes a Qwen3-VL checkpoint must hold under
//! `model.visual.`, the check that it holds exactly those, and loading them onto a device.

use std::collections::{BTreeMap, HashMap};

use burn::tensor::{DType, Device, Tensor};

use crate::checkpoint::{CheckpointFiles, HostTensor, SUPPORTED_DTYPES};
use crate::error::ModelError;
use crate::vl::config::VisionConfig;
use crate::weights::Projection;

/// Prefix of every vision tensor in a Hugging Face Qwen3-VL checkpoint.
pub const VISION_PREFIX: &str = "model.visual.";

/// LayerNorm's scale and shift.
#[derive(Debug, Clone)]
pub(crate) struct LayerNormWeights {
    pub weight: Tensor<1>,
    pub bias: Tensor<1>,
}

#[derive(Debug, Clone)]
pub(crate) struct VisionBlockWeights {
    pub norm1: LayerNormWeights,
    /// `[hidden, 3·hidden]`: queries, keys and values side by side.
    pub qkv: Projection,
    pub proj: Projection,
    pub norm2: LayerNormWeights,
    pub fc1: Projection,
    pub fc2: Projection,
}

/// Merges each 2×2 (merge × merge) group of patch features into one language-model token.
#[derive(Debug, Clone)]
pub(crate) struct MergerWeights {
    /// Over the merged width (DeepStack mergers) or over one patch's width (the final merger).
    pub norm: LayerNormWeights,
    pub norm_after_merging: bool,
    pub fc1: Projection,
    pub fc2: Projection,
}

#[derive(Debug, Clone)]
pub(crate) struct VisionWeights {
    /// The patch convolution as a linear map `[patch_values, hidden]`.
    pub patch_embed: Projection,
    /// `[num_position_embeddings, hidden]`.
    pub pos_embed: Tensor<2>,
    pub blocks: Vec<VisionBlockWeights>,
    pub merger: MergerWeights,
    pub deepstack_mergers: Vec<MergerWeights>,
}

fn name(suffix: &str) -> String {
    format!("{VISION_PREFIX}{suffix}")
}

/// Every vision tensor the configuration requires, with its shape as stored.
pub fn expected_vision_tensors(config: &VisionConfig) -> BTreeMap<String, Vec<usize>> {
    let hidden = config.hidden_size;
    let merged = config.merged_width();
    let mut expected = BTreeMap::new();
    let mut add = |suffix: String, shape: Vec<usize>| {
        expected.insert(name(&suffix), shape);
    };
    add(
        "patch_embed.proj.weight".into(),
        vec![
            hidden,
            config.in_channels,
            config.temporal_patch_size,
            config.patch_size,
            config.patch_size,
        ],
    );
    add("patch_embed.proj.bias".into(), vec![hidden]);
    add("pos_embed.weight".into(), vec![config.num_position_embeddings, hidden]);
    let linear = |add: &mut dyn FnMut(String, Vec<usize>), prefix: &str, input: usize, output: usize| {
        add(format!("{prefix}.weight"), vec![output, input]);
        add(format!("{prefix}.bias"), vec![output]);
    };
    for block in 0..config.depth {
        let prefix = format!("blocks.{block}");
        for norm in ["norm1", "norm2"] {
            add(format!("{prefix}.{norm}.weight"), vec![hidden]);
            add(format!("{prefix}.{norm}.bias"), vec![hidden]);
        }
        linear(&mut add, &format!("{prefix}.attn.qkv"), hidden, 3 * hidden);
        linear(&mut add, &format!("{prefix}.attn.proj"), hidden, hidden);
        linear(
            &mut add,
            &format!("{prefix}.mlp.linear_fc1"),
            hidden,
            config.intermediate_size,
        );
        linear(
            &mut add,
            &format!("{prefix}.mlp.linear_fc2"),
            config.intermediate_size,
            hidden,
        );
    }
    let mergers = std::iter::once(("merger".to_string(), hidden)).chain(
        (0..config.deepstack_visual_indexes.len()).map(|index| (format!("deepstack_merger_list.{index}"), merged)),
    );
    for (prefix, norm_width) in mergers {
        add(format!("{prefix}.norm.weight"), vec![norm_width]);
        add(format!("{prefix}.norm.bias"), vec![norm_width]);
        linear(&mut add, &format!("{prefix}.linear_fc1"), merged, merged);
        linear(
            &mut add,
            &format!("{prefix}.linear_fc2"),
            merged,
            config.out_hidden_size,
        );
    }
    expected
}

/// The problems with the checkpoint's vision tensors: missing ones, wrong shapes or dtypes, and tensors
/// under `model.visual.` the configuration has no place for.
pub fn vision_problems(config: &VisionConfig, files: &CheckpointFiles) -> Vec<String> {
    let expected = expected_vision_tensors(config);
    let mut problems = Vec::new();
    for (name, shape) in &expected {
        match files.tensors.get(name) {
            None => problems.push(format!("missing tensor `{name}` (expected shape {shape:?})")),
            Some(entry) if &entry.shape != shape => problems.push(format!(
                "tensor `{name}` has shape {:?}, expected {shape:?}",
                entry.shape
            )),
            Some(entry) if !SUPPORTED_DTYPES.contains(&entry.dtype.as_str()) => problems.push(format!(
                "tensor `{name}` has dtype {}, supported: {}",
                entry.dtype,
                SUPPORTED_DTYPES.join(", ")
            )),
            Some(_) => {}
        }
    }
    for (name, entry) in &files.tensors {
        if name.starts_with(VISION_PREFIX) && !expected.contains_key(name) {
            problems.push(format!(
                "unexpected tensor `{name}` (shape {:?}) in {}",
                entry.shape,
                entry.file.display()
            ));
        }
    }
    problems
}

impl VisionWeights {
    /// Reads a validated checkpoint's vision tensors onto `device`, each converted to `dtype`.
    pub fn load(
        config: &VisionConfig,
        files: &CheckpointFiles,
        device: &Device,
        dtype: DType,
    ) -> Result<Self, ModelError> {
        let mut host: HashMap<String, HostTensor> = HashMap::new();
        files.load(
            |tensor| tensor.starts_with(VISION_PREFIX),
            |tensor, values| {
                host.insert(tensor.to_string(), values);
                Ok(())
            },
        )?;
        let mut store = HostStore { host, device, dtype };
        let blocks = (0..config.depth)
            .map(|block| {
                let prefix = format!("blocks.{block}");
                Ok(VisionBlockWeights {
                    norm1: store.layer_norm(&format!("{prefix}.norm1"))?,
                    qkv: store.linear(&format!("{prefix}.attn.qkv"))?,
                    proj: store.linear(&format!("{prefix}.attn.proj"))?,
                    norm2: store.layer_norm(&format!("{prefix}.norm2"))?,
                    fc1: store.linear(&format!("{prefix}.mlp.linear_fc1"))?,
                    fc2: store.linear(&format!("{prefix}.mlp.linear_fc2"))?,
                })
            })
            .collect::<Result<Vec<_>, ModelError>>()?;
        let merger = store.merger("merger", false)?;
        let deepstack_mergers = (0..config.deepstack_visual_indexes.len())
            .map(|index| store.merger(&format!("deepstack_merger_list.{index}"), true))
            .collect::<Result<Vec<_>, ModelError>>()?;
        Ok(Self {
            patch_embed: store.linear("patch_embed.proj")?,
            pos_embed: store.matrix("pos_embed.weight", false)?,
            blocks,
            merger,
            deepstack_mergers,
        })
    }
}

/// Host tensors by name, moved to the device (in `dtype`) as they are assembled.
struct HostStore<'a> {
    host: HashMap<String, HostTensor>,
    device: &'a Device,
    dtype: DType,
}

impl HostStore<'_> {
    fn take(&mut self, suffix: &str) -> Result<HostTensor, ModelError> {
        let full = name(suffix);
        self.host.remove(&full).ok_or_else(|| ModelError::Checkpoint {
            problems: vec![format!("tensor `{full}` was not found while loading")],
        })
    }

    fn vector(&mut self, suffix: &str) -> Result<Tensor<1>, ModelError> {
        let tensor = self.take(suffix)?;
        let length = tensor.len();
        Ok(Tensor::from_data(tensor.into_data([length]), (self.device, self.dtype)))
    }

    /// A matrix whose first dimension is kept and the rest flattened; transposed for `x · W` when asked.
    fn matrix(&mut self, suffix: &str, transposed: bool) -> Result<Tensor<2>, ModelError> {
        let tensor = self.take(suffix)?;
        let rows = tensor.shape.first().copied().unwrap_or(0);
        let columns = tensor.len().checked_div(rows).unwrap_or(0);
        let data = if transposed {
            tensor.transposed(rows, columns)
        } else {
            tensor.into_data([rows, columns])
        };
        Ok(Tensor::from_data(data, (self.device, self.dtype)))
    }

    fn linear(&mut self, prefix: &str) -> Result<Projection, ModelError> {
        Ok(Projection::new(
            self.matrix(&format!("{prefix}.weight"), true)?,
            Some(self.vector(&format!("{prefix}.bias"))?),
        ))
    }

    fn layer_norm(&mut self, prefix: &str) -> Result<LayerNormWeights, ModelError> {
        Ok(LayerNormWeights {
            weight: self.vector(&format!("{prefix}.weight"))?,
            bias: self.vector(&format!("{prefix}.bias"))?,
        })
    }

    fn merger(&mut self, prefix: &str, norm_after_merging: bool) -> Result<MergerWeights, ModelError> {
        Ok(MergerWeights {
            norm: self.layer_norm(&format!("{prefix}.norm"))?,
            norm_after_merging,
            fc1: self.linear(&format!("{prefix}.linear_fc1"))?,
            fc2: self.linear(&format!("{prefix}.linear_fc2"))?,
        })
    }
}
