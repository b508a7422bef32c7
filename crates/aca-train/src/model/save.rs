//! Writing the trainable model as a Hugging Face checkpoint directory that `aca_model::Qwen3Model::load`
//! and `aca serve` read unchanged: `config.json`, f32 `model.safetensors`, and the tokenizer files.

use std::collections::HashMap;
use std::path::Path;

use aca_model::layout::{LM_HEAD, TensorLayout};
use burn::module::Module;
use burn::tensor::Tensor;
use safetensors::{Dtype, tensor::TensorView};

use crate::error::TrainError;
use crate::model::TrainableQwen3;
use crate::model::params::Projection;

/// The text files copied from the source checkpoint when it has them.
pub const TEXT_FILES: &[&str] = &[
    "tokenizer.json",
    "tokenizer.json.gz",
    "tokenizer_config.json",
    "generation_config.json",
    "chat_template.jinja",
];

/// A checkpoint's text files ([`TEXT_FILES`], those it has), read once: a run writes them into
/// every checkpoint it saves, whatever becomes of the folder it started from.
#[derive(Debug, Clone)]
pub struct TextFiles {
    files: Vec<(&'static str, Vec<u8>)>,
}

impl TextFiles {
    pub fn read(directory: &Path) -> Result<Self, TrainError> {
        let mut files = Vec::new();
        for name in TEXT_FILES {
            let path = directory.join(name);
            if path.is_file() {
                let bytes = std::fs::read(&path).map_err(|source| TrainError::Io { path, source })?;
                files.push((*name, bytes));
            }
        }
        Ok(Self { files })
    }

    fn write_into(&self, directory: &Path) -> Result<(), TrainError> {
        for (name, bytes) in &self.files {
            let path = directory.join(name);
            std::fs::write(&path, bytes).map_err(|source| TrainError::Io { path, source })?;
        }
        Ok(())
    }
}

impl TrainableQwen3 {
    /// Writes the checkpoint into `directory` (created if needed). LoRA adapters are merged into the
    /// weights they adapt; projections go back to the `[out, in]` layout. The text files are
    /// written when given.
    pub fn save(&self, directory: &Path, text_files: Option<&TextFiles>) -> Result<(), TrainError> {
        std::fs::create_dir_all(directory).map_err(TrainError::io(directory))?;
        let config_path = directory.join("config.json");
        let text = serde_json::to_string_pretty(&self.config_json).map_err(|error| TrainError::Checkpoint {
            problem: format!("encoding config.json: {error}"),
        })?;
        std::fs::write(&config_path, text).map_err(TrainError::io(&config_path))?;

        let tensors = self.host_tensors()?;
        let mut names: Vec<&String> = tensors.keys().collect();
        names.sort();
        let views = names
            .into_iter()
            .map(|name| {
                let (shape, bytes) = &tensors[name];
                TensorView::new(Dtype::F32, shape.clone(), bytes)
                    .map(|view| (name.clone(), view))
                    .map_err(|error| TrainError::Checkpoint {
                        problem: format!("laying out {name}: {error}"),
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let weights_path = directory.join("model.safetensors");
        let metadata = HashMap::from([("format".to_string(), "pt".to_string())]);
        safetensors::serialize_to_file(views, Some(metadata), &weights_path).map_err(|error| {
            TrainError::Checkpoint {
                problem: format!("writing {}: {error}", weights_path.display()),
            }
        })?;

        if let Some(text_files) = text_files {
            text_files.write_into(directory)?;
        }
        Ok(())
    }

    /// Every tensor by its checkpoint name: shape as stored and little-endian f32 bytes.
    fn host_tensors(&self) -> Result<HashMap<String, HostBytes>, TrainError> {
        let layout = TensorLayout::for_config(&self.config);
        let merged = self.params.valid().materialize();
        let mut out = HashMap::new();
        out.insert(layout.embed_tokens(), host(merged.embed_tokens.val())?);
        out.insert(layout.final_norm(), host(merged.norm.val())?);
        if let Some(head) = &merged.lm_head {
            out.insert(LM_HEAD.to_string(), host(head.val().transpose())?);
        }
        for (index, layer) in merged.layers.iter().enumerate() {
            let name = |suffix: &str| layout.layer_tensor(index, suffix);
            let attention = &layer.self_attn;
            let projections: [(&str, &Projection); 7] = [
                ("self_attn.q_proj", &attention.q_proj),
                ("self_attn.k_proj", &attention.k_proj),
                ("self_attn.v_proj", &attention.v_proj),
                ("self_attn.o_proj", &attention.o_proj),
                ("mlp.gate_proj", &layer.mlp.gate_proj),
                ("mlp.up_proj", &layer.mlp.up_proj),
                ("mlp.down_proj", &layer.mlp.down_proj),
            ];
            for (stem, projection) in projections {
                out.insert(
                    name(&format!("{stem}.weight")),
                    host(projection.weight.val().transpose())?,
                );
                if let Some(bias) = &projection.bias {
                    out.insert(name(&format!("{stem}.bias")), host(bias.val())?);
                }
            }
            out.insert(name("self_attn.q_norm.weight"), host(attention.q_norm.val())?);
            out.insert(name("self_attn.k_norm.weight"), host(attention.k_norm.val())?);
            out.insert(name("input_layernorm.weight"), host(layer.input_layernorm.val())?);
            out.insert(
                name("post_attention_layernorm.weight"),
                host(layer.post_attention_layernorm.val())?,
            );
        }
        Ok(out)
    }
}

/// A tensor's shape and its values as little-endian f32 bytes.
type HostBytes = (Vec<usize>, Vec<u8>);

/// A tensor's shape and f32 bytes, read back from its device.
fn host<const D: usize>(tensor: Tensor<D>) -> Result<HostBytes, TrainError> {
    let shape = tensor.dims().to_vec();
    let values = tensor
        .try_into_data()
        .map_err(|error| TrainError::Checkpoint {
            problem: format!("reading a tensor: {error:?}"),
        })?
        .convert::<f32>()
        .try_into_vec::<f32>()
        .map_err(|error| TrainError::Checkpoint {
            problem: format!("reading a tensor: {error:?}"),
        })?;
    Ok((shape, values.iter().flat_map(|value| value.to_le_bytes()).collect()))
}
