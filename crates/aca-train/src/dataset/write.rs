//! Writing a dataset folder: the samples split into train and validation by page, as JSONL in the
//! OpenAI chat format and as Parquet in the shapes verl and TRL read, next to the dataset card.
//!
//! ```text
//! DIR/train.jsonl, validation.jsonl              {"messages": [...], "metadata": {...}}
//! DIR/verl/{train,validation}.parquet            data_source, prompt, ability, reward_model, extra_info
//! DIR/trl/messages/{train,validation}.parquet    messages (conversational language modelling)
//! DIR/trl/prompt-completion/{…}.parquet          prompt, completion (conversational prompt-completion)
//! DIR/README.md, card.json                       the dataset card
//! ```

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use aca_agent::ChatMessage;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use serde_arrow::_impl::arrow::datatypes::FieldRef;
use serde_arrow::schema::{SchemaLike, TracingOptions};

use super::{Sample, SampleMeta};

/// The value of verl's `data_source` column.
pub const DATA_SOURCE: &str = "aliyun-console-agent";

/// Why a dataset could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}: {problem}")]
    Parquet { path: PathBuf, problem: String },
    #[error("{path}: {problem}")]
    Json { path: PathBuf, problem: String },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> DatasetError + '_ {
    move |source| DatasetError::Io {
        path: path.to_owned(),
        source,
    }
}

/// The two parts of a dataset.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Parts {
    pub train: Vec<Sample>,
    pub validation: Vec<Sample>,
}

/// Splits samples by documentation page, so no validation page was trained on: the pages are
/// shuffled with `seed` and the first `validation_fraction` of them (at least one, when there are
/// two pages or more and the fraction is not zero) hold out. Each part is in sample-id order.
pub fn split(mut samples: Vec<Sample>, seed: u64, validation_fraction: f64) -> Parts {
    samples.sort_by(|a, b| a.id.cmp(&b.id));
    let pages: BTreeSet<&str> = samples.iter().map(|s| s.meta.page.as_str()).collect();
    let mut pages: Vec<String> = pages.into_iter().map(str::to_owned).collect();
    pages.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    let fraction = validation_fraction.clamp(0.0, 1.0);
    let mut held = (pages.len() as f64 * fraction).round() as usize;
    if fraction > 0.0 && held == 0 && pages.len() >= 2 {
        held = 1;
    }
    let held: BTreeSet<&String> = pages.iter().take(held.min(pages.len().saturating_sub(1))).collect();
    let (validation, train) = samples.into_iter().partition(|s| held.contains(&s.meta.page));
    Parts { train, validation }
}

/// One line of the JSONL files: the OpenAI chat conversation and where it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatLine {
    pub messages: Vec<ChatMessage>,
    pub metadata: LineMetadata,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LineMetadata {
    pub id: String,
    #[serde(flatten)]
    pub meta: SampleMeta,
}

impl ChatLine {
    pub fn of(sample: &Sample) -> ChatLine {
        ChatLine {
            messages: sample.conversation(),
            metadata: LineMetadata {
                id: sample.id.clone(),
                meta: sample.meta.clone(),
            },
        }
    }
}

/// A row of verl's RL and SFT datasets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerlRow {
    pub data_source: String,
    /// The prompt's messages (system, user).
    pub prompt: Vec<ChatMessage>,
    pub ability: String,
    pub reward_model: VerlReward,
    pub extra_info: VerlExtra,
}

/// What a step-level reward compares a sampled reply with: the teacher's action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerlReward {
    /// `rule`: the reply's `Action:` call is compared with `ground_truth`.
    pub style: String,
    pub ground_truth: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerlExtra {
    pub split: String,
    pub index: u64,
    pub id: String,
    /// The teacher's whole reply (verl's SFT `response_key`).
    pub answer: String,
    pub task: String,
    pub page: String,
    pub product: String,
    pub release: String,
    pub teacher: String,
    pub outcome: String,
    pub turn: u64,
    pub step: Option<String>,
}

/// A row of TRL's conversational language-modelling dataset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrlMessagesRow {
    pub messages: Vec<ChatMessage>,
}

/// A row of TRL's conversational prompt-completion dataset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrlPromptCompletionRow {
    pub prompt: Vec<ChatMessage>,
    pub completion: Vec<ChatMessage>,
}

fn verl_row(sample: &Sample, split: &str, index: usize) -> VerlRow {
    let meta = &sample.meta;
    VerlRow {
        data_source: DATA_SOURCE.to_owned(),
        prompt: sample.messages.clone(),
        ability: "console".to_owned(),
        reward_model: VerlReward {
            style: "rule".to_owned(),
            ground_truth: meta.action.clone(),
        },
        extra_info: VerlExtra {
            split: split.to_owned(),
            index: index as u64,
            id: sample.id.clone(),
            answer: sample.reply.clone(),
            task: meta.task.clone(),
            page: meta.page.clone(),
            product: meta.product.clone(),
            release: meta.release.clone(),
            teacher: meta.teacher.clone(),
            outcome: serde_json::to_value(meta.outcome)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
            turn: meta.turn as u64,
            step: meta.step.clone(),
        },
    }
}

/// Writes every file of the dataset but the card into `dir`; returns the paths written.
pub fn write_parts(dir: &Path, parts: &Parts) -> Result<Vec<PathBuf>, DatasetError> {
    let mut written = Vec::new();
    for (name, samples) in [("train", &parts.train), ("validation", &parts.validation)] {
        let path = dir.join(format!("{name}.jsonl"));
        write_jsonl(&path, samples)?;
        written.push(path);

        let verl: Vec<VerlRow> = samples.iter().enumerate().map(|(i, s)| verl_row(s, name, i)).collect();
        let path = dir.join("verl").join(format!("{name}.parquet"));
        write_parquet(&path, &verl)?;
        written.push(path);

        let messages: Vec<TrlMessagesRow> = samples
            .iter()
            .map(|s| TrlMessagesRow {
                messages: s.conversation(),
            })
            .collect();
        let path = dir.join("trl").join("messages").join(format!("{name}.parquet"));
        write_parquet(&path, &messages)?;
        written.push(path);

        let prompt_completion: Vec<TrlPromptCompletionRow> = samples
            .iter()
            .map(|s| TrlPromptCompletionRow {
                prompt: s.messages.clone(),
                completion: vec![ChatMessage::assistant(s.reply.clone())],
            })
            .collect();
        let path = dir
            .join("trl")
            .join("prompt-completion")
            .join(format!("{name}.parquet"));
        write_parquet(&path, &prompt_completion)?;
        written.push(path);
    }
    Ok(written)
}

fn write_jsonl(path: &Path, samples: &[Sample]) -> Result<(), DatasetError> {
    let file = File::create(path).map_err(io(path))?;
    let mut out = BufWriter::new(file);
    for sample in samples {
        let line = serde_json::to_string(&ChatLine::of(sample)).map_err(|e| DatasetError::Json {
            path: path.to_owned(),
            problem: e.to_string(),
        })?;
        writeln!(out, "{line}").map_err(io(path))?;
    }
    out.flush().map_err(io(path))
}

fn write_parquet<T: Serialize + for<'de> Deserialize<'de>>(path: &Path, rows: &[T]) -> Result<(), DatasetError> {
    let problem = |e: &dyn std::fmt::Display| DatasetError::Parquet {
        path: path.to_owned(),
        problem: e.to_string(),
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(io(parent))?;
    }
    let fields = Vec::<FieldRef>::from_type::<T>(TracingOptions::default()).map_err(|e| problem(&e))?;
    let batch = serde_arrow::to_record_batch(&fields, &rows).map_err(|e| problem(&e))?;
    let file = File::create(path).map_err(io(path))?;
    let properties = WriterProperties::builder().set_compression(Compression::SNAPPY).build();
    let mut writer = ArrowWriter::try_new(file, batch.schema(), Some(properties)).map_err(|e| problem(&e))?;
    writer.write(&batch).map_err(|e| problem(&e))?;
    writer.close().map_err(|e| problem(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests;
