//! Building the trainable parameters from Hugging Face tensors: read from a checkpoint directory or
//! drawn from a seed exactly as `aca_model::random::write_random_checkpoint` draws them.

use std::collections::HashMap;
use std::path::Path;

use aca_model::Qwen3Config;
use aca_model::checkpoint::{CheckpointFiles, HostTensor};
use aca_model::layout::{LM_HEAD, TensorLayout};
use burn::tensor::{DType, Device, Tensor};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::error::TrainError;
use crate::model::params::{DecoderLayer, Mlp, ParamIds, Projection, Qwen3Params, SelfAttention};

/// Reads every decoder tensor of the validated checkpoint in `directory`, in its own dtype.
pub(crate) fn read_checkpoint(
    directory: &Path,
    config: &Qwen3Config,
) -> Result<HashMap<String, HostTensor>, TrainError> {
    let layout = TensorLayout::for_config(config);
    let files = CheckpointFiles::open(directory)?;
    layout.validate(config, &files)?;
    let mut tensors = HashMap::new();
    files.load(
        |name| layout.is_decoder_tensor(config, name),
        |name, tensor| {
            tensors.insert(name.to_string(), tensor);
            Ok(())
        },
    )?;
    Ok(tensors)
}

/// Seeded tensors in the checkpoint's names and layout: projections uniform with Qwen3's initialiser
/// standard deviation (0.02), norms ones, drawn in name order, as the random checkpoints of aca-model.
pub(crate) fn random_tensors(config: &Qwen3Config, seed: u64) -> HashMap<String, HostTensor> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let bound = 0.02_f32 * 3.0_f32.sqrt();
    let layout = TensorLayout::for_config(config);
    layout
        .expected(config)
        .into_iter()
        .map(|(name, shape)| {
            let count: usize = shape.iter().product();
            let values = if name.ends_with("norm.weight") {
                vec![1.0; count]
            } else {
                (0..count).map(|_| rng.random_range(-bound..bound)).collect()
            };
            (name, HostTensor::from_f32(shape, values))
        })
        .collect()
}

/// Moves the named tensors onto `device` as parameters; projections are transposed to `[in, out]`.
pub(crate) fn assemble(
    config: &Qwen3Config,
    mut tensors: HashMap<String, HostTensor>,
    device: &Device,
) -> Result<Qwen3Params, TrainError> {
    let layout = TensorLayout::for_config(config);
    let mut ids = ParamIds::default();
    let mut take = |name: &str| {
        tensors.remove(name).ok_or_else(|| TrainError::Checkpoint {
            problem: format!("tensor `{name}` is missing"),
        })
    };
    let embed_tokens = ids.param(matrix(take(&layout.embed_tokens())?, device));
    let mut layers = Vec::with_capacity(config.num_hidden_layers);
    for layer in 0..config.num_hidden_layers {
        let name = |suffix: &str| layout.layer_tensor(layer, suffix);
        let mut projection = |stem: &str| -> Result<Projection, TrainError> {
            let weight = ids.param(matrix(take(&name(&format!("{stem}.weight")))?, device).transpose());
            let bias = if config.attention_bias && stem.starts_with("self_attn.") {
                Some(ids.param(vector(take(&name(&format!("{stem}.bias")))?, device)))
            } else {
                None
            };
            Ok(Projection { weight, bias })
        };
        let q_proj = projection("self_attn.q_proj")?;
        let k_proj = projection("self_attn.k_proj")?;
        let v_proj = projection("self_attn.v_proj")?;
        let o_proj = projection("self_attn.o_proj")?;
        let gate_proj = projection("mlp.gate_proj")?;
        let up_proj = projection("mlp.up_proj")?;
        let down_proj = projection("mlp.down_proj")?;
        let self_attn = SelfAttention {
            q_proj,
            k_proj,
            v_proj,
            o_proj,
            q_norm: ids.param(vector(take(&name("self_attn.q_norm.weight"))?, device)),
            k_norm: ids.param(vector(take(&name("self_attn.k_norm.weight"))?, device)),
        };
        layers.push(DecoderLayer {
            input_layernorm: ids.param(vector(take(&name("input_layernorm.weight"))?, device)),
            self_attn,
            post_attention_layernorm: ids.param(vector(take(&name("post_attention_layernorm.weight"))?, device)),
            mlp: Mlp {
                gate_proj,
                up_proj,
                down_proj,
            },
        });
    }
    let norm = ids.param(vector(take(&layout.final_norm())?, device));
    let lm_head = if config.tie_word_embeddings {
        None
    } else {
        Some(ids.param(matrix(take(LM_HEAD)?, device).transpose()))
    };
    Ok(Qwen3Params {
        embed_tokens,
        layers,
        norm,
        lm_head,
    })
}

/// Parameters are trained in f32, whatever dtype the checkpoint stores.
fn matrix(tensor: HostTensor, device: &Device) -> Tensor<2> {
    let shape = [tensor.shape[0], tensor.shape[1]];
    Tensor::from_data(tensor.into_data(shape), (device, DType::F32))
}

fn vector(tensor: HostTensor, device: &Device) -> Tensor<1> {
    let shape = [tensor.len()];
    Tensor::from_data(tensor.into_data(shape), (device, DType::F32))
}
