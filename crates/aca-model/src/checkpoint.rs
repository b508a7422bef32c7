//! The safetensors files of a Hugging Face checkpoint: one `model.safetensors` or the shards named by
//! `model.safetensors.index.json`, read header-first so a mismatch is reported before any weight is read.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use burn::tensor::TensorData;
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

/// A tensor read on the host in the checkpoint's own dtype and layout: converted once, if at all,
/// to the dtype the model holds it in, never through f32 on the way.
#[derive(Debug, Clone)]
pub struct HostTensor {
    pub shape: Vec<usize>,
    values: HostValues,
}

#[derive(Debug, Clone)]
enum HostValues {
    F32(Vec<f32>),
    Bf16(Vec<half::bf16>),
    F16(Vec<half::f16>),
}

impl HostTensor {
    /// A tensor of f32 values made on the host (a random checkpoint's, say).
    pub fn from_f32(shape: Vec<usize>, values: Vec<f32>) -> Self {
        Self {
            shape,
            values: HostValues::F32(values),
        }
    }

    /// Its values as burn data of `shape` (as many values), in the checkpoint's dtype.
    pub fn into_data(self, shape: impl Into<burn::tensor::Shape>) -> TensorData {
        match self.values {
            HostValues::F32(values) => TensorData::new(values, shape),
            HostValues::Bf16(values) => TensorData::new(values, shape),
            HostValues::F16(values) => TensorData::new(values, shape),
        }
    }

    /// Its values, taken as `[rows, columns]` row-major, as `[columns, rows]` row-major.
    pub fn transposed(&self, rows: usize, columns: usize) -> TensorData {
        match &self.values {
            HostValues::F32(values) => TensorData::new(transpose(values, rows, columns), [columns, rows]),
            HostValues::Bf16(values) => TensorData::new(transpose(values, rows, columns), [columns, rows]),
            HostValues::F16(values) => TensorData::new(transpose(values, rows, columns), [columns, rows]),
        }
    }

    /// How many values it holds.
    pub fn len(&self) -> usize {
        match &self.values {
            HostValues::F32(values) => values.len(),
            HostValues::Bf16(values) => values.len(),
            HostValues::F16(values) => values.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// `[rows, columns]` row-major → `[columns, rows]` row-major.
pub(crate) fn transpose<T: Copy + Default>(values: &[T], rows: usize, columns: usize) -> Vec<T> {
    let mut transposed = vec![T::default(); values.len()];
    for (row, chunk) in values.chunks_exact(columns.max(1)).enumerate() {
        for (column, value) in chunk.iter().enumerate() {
            transposed[column * rows + row] = *value;
        }
    }
    transposed
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

    /// Reads the weight files one at a time and hands each wanted tensor, in its own dtype, to `accept`.
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
                let values = host_values(view.dtype(), view.data()).ok_or_else(|| {
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

fn host_values(dtype: Dtype, bytes: &[u8]) -> Option<HostValues> {
    match dtype {
        Dtype::F32 => Some(HostValues::F32(
            bytes
                .chunks_exact(4)
                .map(|chunk| f32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]))
                .collect(),
        )),
        Dtype::BF16 => Some(HostValues::Bf16(
            bytes
                .chunks_exact(2)
                .map(|chunk| half::bf16::from_le_bytes([chunk[0], chunk[1]]))
                .collect(),
        )),
        Dtype::F16 => Some(HostValues::F16(
            bytes
                .chunks_exact(2)
                .map(|chunk| half::f16::from_le_bytes([chunk[0], chunk[1]]))
                .collect(),
        )),
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

#[cfg(test)]
mod tests {
    use burn::tensor::DType;

    use super::*;

    /// A bf16 checkpoint's tensor comes to the host as bf16, unchanged, and its transpose too.
    #[test]
    fn a_tensor_is_read_in_its_own_dtype() {
        let dir = tempfile::tempdir().unwrap();
        let values: Vec<half::bf16> = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]
            .iter()
            .map(|v| half::bf16::from_f32(*v))
            .collect();
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let view = safetensors::tensor::TensorView::new(Dtype::BF16, vec![2, 3], &bytes).unwrap();
        safetensors::serialize_to_file([("w", view)], None, &dir.path().join(SINGLE_FILE)).unwrap();
        let files = CheckpointFiles::open(dir.path()).unwrap();
        let mut read = Vec::new();
        files
            .load(
                |_| true,
                |_, host| {
                    read.push(host);
                    Ok(())
                },
            )
            .unwrap();
        let host = read.pop().unwrap();
        let transposed = host.transposed(2, 3);
        assert_eq!(transposed.dtype(), DType::BF16);
        let as_read: Vec<half::bf16> = transposed.try_to_vec().unwrap();
        let expected: Vec<half::bf16> = [1.0f32, 4.0, 2.0, 5.0, 3.0, 6.0]
            .iter()
            .map(|v| half::bf16::from_f32(*v))
            .collect();
        assert_eq!(as_read, expected);
        let data = host.into_data([2, 3]);
        assert_eq!(data.dtype(), DType::BF16);
        assert_eq!(data.try_to_vec::<half::bf16>().unwrap(), values);
    }
}
