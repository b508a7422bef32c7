//! The errors of loading a checkpoint and running the model.

use std::path::PathBuf;

/// What went wrong loading a checkpoint or running the model; each variant names the file, field or tensor at fault.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ModelError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("invalid model configuration{}: {}", path_suffix(path), problems.join("; "))]
    Config {
        path: Option<PathBuf>,
        problems: Vec<String>,
    },
    #[error("{directory} holds no model.safetensors nor model.safetensors.index.json")]
    NoWeights { directory: PathBuf },
    #[error("invalid safetensors index {path}: {problem}")]
    Index { path: PathBuf, problem: String },
    #[error("invalid safetensors file {path}: {problem}")]
    Safetensors { path: PathBuf, problem: String },
    #[error("the checkpoint does not match its configuration: {}", problems.join("; "))]
    Checkpoint { problems: Vec<String> },
    #[error("invalid image: {problem}")]
    Image { problem: String },
    #[error("invalid input: {0}")]
    Input(String),
    #[error("the model computation failed: {0}")]
    Compute(String),
    #[error("the device cannot compute in {0}: hold the weights in f32, or in another dtype it computes in")]
    UnsupportedDtype(&'static str),
}

fn path_suffix(path: &Option<PathBuf>) -> String {
    path.as_ref()
        .map(|path| format!(" in {}", path.display()))
        .unwrap_or_default()
}
