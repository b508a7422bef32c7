//! The safetensors files of a Hugging Face checkpoint: one `model.safetensors` or the shards named by
//! `model.safetensors.index.json`, read header-first so a mismatch is reported before any weight is read.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use safetensors::{Dtype, SafeTensors};
use serde_json::Value;

use crate::error::ModelError;

/// The single-file weights name.
pub const SINGLE_FILE: &str = "model.safetensors";
/// The sharded weights index name.
pub const INDEX_FILE: &str = "model.safetensors.index.json";

/// A safetensors header larger than this is refused rather than read (real headers are a few MB at most).
const MAX_HEADER_BYTES: u64 = 100 * 1024 * 1024;

/// What a tensor's header says about it.
#[derive(Debug, Clone, PartialEq)]
pub struct TensorEntry {
    /// The dtype as written in the header (`BF16`, `F16`, `F32`, ...).
    pub dtype: String,
    pub shape: Vec<usize>,
    /// The file holding the tensor.
    pub file: PathBuf,
}

/// Every tensor of a checkpoint by name, with the file that holds it.
#[derive(Debug, Clone)]
pub struct CheckpointFiles {
    pub tensors: BTreeMap<String, TensorEntry>,
    /// The weight files in the order they are read.
    pub files: Vec<PathBuf>,
}

/// A tensor converted to f32 on the host, in the checkpoint's own layout (exactly, from bf16 and f16): the
/// form every tensor passes through on its way to the dtype the model holds it in.
#[derive(Debug, Clone)]
pub struct HostTensor {
    pub shape: Vec<usize>,
    pub values: Vec<f32>,
}

impl CheckpointFiles {
    /// Finds the weight files of the checkpoint in `directory` and reads their headers.
    ///
    /// A sharded index must agree with its shards: a tensor it names must be in that shard, and a shard
    /// must not hold tensors the index does not name. Every disagreement is reported at once.
    pub fn open(directory: &Path) -> Result<Self, ModelError> {
        let index_path = directory.join(INDEX_FILE);
        let single_path = directory.join(SINGLE_FILE);
        if index_path.is_file() {
            Self::open_sharded(directory, &index_path)
        } else if single_path.is_file() {
            let header = read_header(&single_path)?;
            let tensors = header
                .into_iter()
                .map(|(name, (dtype, shape))| {
                    let entry = TensorEntry {
                        dtype,
                        shape,
                        file: single_path.clone(),
                    };
                    (name, entry)
                })
                .collect();
            Ok(Self {
                tensors,
                files: vec![single_path],
            })
        } else {
            Err(ModelError::NoWeights {
                directory: directory.to_path_buf(),
            })
        }
    }

    fn open_sharded(directory: &Path, index_path: &Path) -> Result<Self, ModelError> {
        let index_error = |problem: String| ModelError::Index {
            path: index_path.to_path_buf(),
            problem,
        };
        let text = std::fs::read_to_string(index_path).map_err(|source| ModelError::Io {
            path: index_path.to_path_buf(),
            source,
        })?;
        let index: Value =
            serde_json::from_str(&text).map_err(|error| index_error(format!("not valid JSON: {error}")))?;
        let Some(weight_map) = index.get("weight_map").and_then(Value::as_object) else {
            return Err(index_error("no `weight_map` object".to_string()));
        };
        let mut shard_of: BTreeMap<String, String> = BTreeMap::new();
        let mut shard_names: Vec<String> = Vec::new();
        let mut problems = Vec::new();
        for (tensor, shard) in weight_map {
            match shard.as_str() {
                Some(shard) if is_plain_file_name(shard) => {
                    if !shard_names.iter().any(|known| known == shard) {
                        shard_names.push(shard.to_string());
                    }
                    shard_of.insert(tensor.clone(), shard.to_string());
                }
                Some(shard) => problems.push(format!("tensor `{tensor}` names shard {shard:?}, not a file name")),
                None => problems.push(format!("tensor `{tensor}` maps to {shard}, not a file name")),
            }
        }
        if !problems.is_empty() {
            return Err(index_error(problems.join("; ")));
        }
        shard_names.sort();
        let mut tensors = BTreeMap::new();
        let mut files = Vec::new();
        for shard in &shard_names {
            let path = directory.join(shard);
            if !path.is_file() {
                problems.push(format!("shard {shard} is missing"));
                continue;
            }
            for (name, (dtype, shape)) in read_header(&path)? {
                if shard_of.get(&name) != Some(shard) {
                    match shard_of.get(&name) {
                        Some(listed) => problems.push(format!(
                            "tensor `{name}` is in {shard} but the index places it in {listed}"
                        )),
                        None => problems.push(format!("tensor `{name}` is in {shard} but not in the index")),
                    }
                    continue;
                }
                tensors.insert(
                    name,
                    TensorEntry {
                        dtype,
                        shape,
                        file: path.clone(),
                    },
                );
            }
            files.push(path);
        }
        for (name, shard) in &shard_of {
            if !tensors.contains_key(name) && directory.join(shard).is_file() {
                problems.push(format!(
                    "tensor `{name}` is listed in the index but absent from {shard}"
                ));
            }
        }
        if !problems.is_empty() {
            return Err(index_error(problems.join("; ")));
        }
        Ok(Self { tensors, files })
    }

    /// Reads the weight files one at a time and hands each wanted tensor, converted to f32, to `accept`.
    ///
    /// Only one file's bytes are held at once.
    pub fn load(
        &self,
        mut wanted: impl FnMut(&str) -> bool,
        mut accept: impl FnMut(&str, HostTensor) -> Result<(), ModelError>,
    ) -> Result<(), ModelError> {
        for path in &self.files {
            let bytes = std::fs::read(path).map_err(|source| ModelError::Io {
                path: path.clone(),
                source,
            })?;
            let file_error = |problem: String| ModelError::Safetensors {
                path: path.clone(),
                problem,
            };
            let tensors = SafeTensors::deserialize(&bytes).map_err(|error| file_error(error.to_string()))?;
            for (name, view) in tensors.iter() {
                if !wanted(name) {
                    continue;
                }
                let values = to_f32(view.dtype(), view.data()).ok_or_else(|| {
                    file_error(format!(
                        "tensor `{name}` has dtype {:?}, not BF16, F16 or F32",
                        view.dtype()
                    ))
                })?;
                accept(
                    name,
                    HostTensor {
                        shape: view.shape().to_vec(),
                        values,
                    },
                )?;
            }
        }
        Ok(())
    }
}

/// The dtypes a checkpoint's tensors may be stored in.
pub const SUPPORTED_DTYPES: &[&str] = &["BF16", "F16", "F32"];

fn to_f32(dtype: Dtype, bytes: &[u8]) -> Option<Vec<f32>> {
    match dtype {
        Dtype::F32 => Some(
            bytes
                .chunks_exact(4)
                .map(|chunk| f32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]))
                .collect(),
        ),
        Dtype::BF16 => Some(
            bytes
                .chunks_exact(2)
                .map(|chunk| half::bf16::from_le_bytes([chunk[0], chunk[1]]).to_f32())
                .collect(),
        ),
        Dtype::F16 => Some(
            bytes
                .chunks_exact(2)
                .map(|chunk| half::f16::from_le_bytes([chunk[0], chunk[1]]).to_f32())
                .collect(),
        ),
        _ => None,
    }
}

/// A shard name must be a file beside the index, never a path leading elsewhere.
fn is_plain_file_name(name: &str) -> bool {
    !name.is_empty() && !name.contains(['/', '\\']) && name != "." && name != ".."
}

/// Reads only the JSON header of a safetensors file: tensor name → (dtype, shape).
fn read_header(path: &Path) -> Result<BTreeMap<String, (String, Vec<usize>)>, ModelError> {
    let io_error = |source| ModelError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file_error = |problem: String| ModelError::Safetensors {
        path: path.to_path_buf(),
        problem,
    };
    let mut file = std::fs::File::open(path).map_err(io_error)?;
    let file_length = file.metadata().map_err(io_error)?.len();
    let mut length_bytes = [0u8; 8];
    file.read_exact(&mut length_bytes)
        .map_err(|_| file_error("shorter than its 8-byte header length".to_string()))?;
    let header_length = u64::from_le_bytes(length_bytes);
    if header_length > MAX_HEADER_BYTES || header_length + 8 > file_length {
        return Err(file_error(format!(
            "header length {header_length} does not fit the file ({file_length} bytes)"
        )));
    }
    let mut header = vec![0u8; header_length as usize];
    file.read_exact(&mut header).map_err(io_error)?;
    let header: Value =
        serde_json::from_slice(&header).map_err(|error| file_error(format!("header is not valid JSON: {error}")))?;
    let Some(entries) = header.as_object() else {
        return Err(file_error("header is not a JSON object".to_string()));
    };
    let mut tensors = BTreeMap::new();
    for (name, entry) in entries {
        if name == "__metadata__" {
            continue;
        }
        let dtype = entry.get("dtype").and_then(Value::as_str);
        let shape: Option<Vec<usize>> = entry.get("shape").and_then(Value::as_array).and_then(|dims| {
            dims.iter()
                .map(|dim| dim.as_u64().and_then(|dim| usize::try_from(dim).ok()))
                .collect()
        });
        match (dtype, shape) {
            (Some(dtype), Some(shape)) => {
                tensors.insert(name.clone(), (dtype.to_string(), shape));
            }
            _ => {
                return Err(file_error(format!(
                    "header entry for `{name}` lacks a dtype or a shape"
                )));
            }
        }
    }
    Ok(tensors)
}
