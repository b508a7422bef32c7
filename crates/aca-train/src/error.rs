//! The crate's error type for training: bad input named by file and line, checkpoints that cannot be
//! read or written, and configurations that cannot train.

use std::path::{Path, PathBuf};

/// Why training (or reading its inputs, or writing its checkpoints) failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TrainError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}:{line}: {problem}", path.display())]
    Sample {
        path: PathBuf,
        line: usize,
        problem: String,
    },
    #[error("{}: holds no samples", path.display())]
    EmptyFile { path: PathBuf },
    #[error("sample {index}: {problem}")]
    Tokenize { index: usize, problem: String },
    #[error("checkpoint: {problem}")]
    Checkpoint { problem: String },
    #[error(transparent)]
    Model(#[from] aca_model::ModelError),
    #[error(transparent)]
    Text(#[from] aca_model::text::TextError),
    #[error("invalid configuration: {0}")]
    Config(String),
    #[error("{}: {problem}", path.display())]
    State { path: PathBuf, problem: String },
    /// A rollout the trainer cannot score: named by its group and its place in the group.
    #[error("group {group}, rollout {rollout}: {problem}")]
    Rollout {
        group: usize,
        rollout: usize,
        problem: String,
    },
    /// The in-process sampler refused a request or failed while generating.
    #[error("sampling: {0}")]
    Sampling(String),
}

impl TrainError {
    /// For `map_err`: an I/O failure on `path`.
    pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> TrainError + '_ {
        move |source| TrainError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}
