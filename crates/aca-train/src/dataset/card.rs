//! The dataset card: what a dataset holds (samples by product, teacher, outcome and release), how
//! it was filtered, and how long its samples are, as `card.json` and a Hugging Face `README.md`.

use std::collections::BTreeMap;
use std::path::Path;

use aca_model::text::{CheckpointText, RenderOptions};
use serde::{Deserialize, Serialize};

use super::select::Dropped;
use super::write::{DatasetError, Parts};
use super::{Confirmed, Sample};

/// What was collected, before and after the filters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Collection {
    /// Runs made, and of them the ones whose outcome the reward service confirmed.
    pub runs: usize,
    pub confirmed_runs: usize,
    /// Why the other runs were not confirmed, with how many runs each.
    pub unconfirmed: BTreeMap<String, usize>,
    /// Turns left out, by reason.
    pub dropped: BTreeMap<Dropped, usize>,
    pub seed: u64,
    pub validation_fraction: f64,
    /// The task folder and the split the tasks came from.
    pub tasks: String,
    pub split: String,
}

/// The card's figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Card {
    pub collection: Collection,
    pub train: PartFigures,
    pub validation: PartFigures,
    /// `tokens` (the checkpoint's chat template and tokenizer) or `characters`.
    pub length_unit: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PartFigures {
    pub samples: usize,
    pub pages: usize,
    pub by_product: BTreeMap<String, usize>,
    pub by_teacher: BTreeMap<String, usize>,
    pub by_outcome: BTreeMap<Confirmed, usize>,
    pub by_release: BTreeMap<String, usize>,
    /// Length of each whole conversation (prompt and reply) and of the replies alone.
    pub conversation_length: Option<Lengths>,
    pub reply_length: Option<Lengths>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Lengths {
    pub min: usize,
    pub median: usize,
    pub p95: usize,
    pub max: usize,
    pub mean: f64,
}

impl Lengths {
    fn of(mut values: Vec<usize>) -> Option<Lengths> {
        if values.is_empty() {
            return None;
        }
        values.sort_unstable();
        let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
        Some(Lengths {
            min: values[0],
            median: at(0.5),
            p95: at(0.95),
            max: values[values.len() - 1],
            mean: values.iter().sum::<usize>() as f64 / values.len() as f64,
        })
    }
}

/// Measures sample lengths in tokens of a checkpoint's chat template, or in characters.
pub enum Measure<'a> {
    Tokens(&'a CheckpointText),
    Characters,
}

impl Measure<'_> {
    fn unit(&self) -> &'static str {
        match self {
            Measure::Tokens(_) => "tokens",
            Measure::Characters => "characters",
        }
    }

    /// The lengths of the whole conversation and of the reply.
    fn lengths(&self, sample: &Sample) -> Result<(usize, usize), String> {
        match self {
            Measure::Characters => {
                let prompt: usize = sample.messages.iter().map(|m| m.content.chars().count()).sum();
                let reply = sample.reply.chars().count();
                Ok((prompt + reply, reply))
            }
            Measure::Tokens(text) => {
                let conversation: Vec<aca_model::text::ChatMessage> = sample
                    .conversation()
                    .iter()
                    .map(|m| match m.role.as_str() {
                        "system" => aca_model::text::ChatMessage::system(m.content.clone()),
                        "assistant" => aca_model::text::ChatMessage::assistant(m.content.clone()),
                        _ => aca_model::text::ChatMessage::user(m.content.clone()),
                    })
                    .collect();
                let rendered = text
                    .template
                    .render(&conversation, &RenderOptions::default())
                    .map_err(|e| e.to_string())?;
                let whole = text.tokenizer.encode(&rendered).map_err(|e| e.to_string())?.len();
                let reply = text.tokenizer.encode(&sample.reply).map_err(|e| e.to_string())?.len();
                Ok((whole, reply))
            }
        }
    }
}

/// The card of `parts`.
pub fn card(collection: Collection, parts: &Parts, measure: &Measure<'_>) -> Result<Card, String> {
    Ok(Card {
        collection,
        train: figures(&parts.train, measure)?,
        validation: figures(&parts.validation, measure)?,
        length_unit: measure.unit().to_owned(),
    })
}

fn figures(samples: &[Sample], measure: &Measure<'_>) -> Result<PartFigures, String> {
    let mut figures = PartFigures {
        samples: samples.len(),
        ..PartFigures::default()
    };
    let mut pages = std::collections::BTreeSet::new();
    let mut whole = Vec::with_capacity(samples.len());
    let mut replies = Vec::with_capacity(samples.len());
    for sample in samples {
        let meta = &sample.meta;
        pages.insert(meta.page.as_str());
        *figures.by_product.entry(meta.product.clone()).or_default() += 1;
        *figures.by_teacher.entry(meta.teacher.clone()).or_default() += 1;
        *figures.by_outcome.entry(meta.outcome).or_default() += 1;
        *figures.by_release.entry(meta.release.clone()).or_default() += 1;
        let (conversation, reply) = measure.lengths(sample).map_err(|e| format!("{}: {e}", sample.id))?;
        whole.push(conversation);
        replies.push(reply);
    }
    figures.pages = pages.len();
    figures.conversation_length = Lengths::of(whole);
    figures.reply_length = Lengths::of(replies);
    Ok(figures)
}

/// Writes `card.json` and `README.md` into `dir`.
pub fn write_card(dir: &Path, card: &Card) -> Result<(), DatasetError> {
    let json_path = dir.join("card.json");
    let json = serde_json::to_string_pretty(card).unwrap_or_default();
    std::fs::write(&json_path, json + "\n").map_err(|source| DatasetError::Io {
        path: json_path.clone(),
        source,
    })?;
    let readme_path = dir.join("README.md");
    std::fs::write(&readme_path, readme(card)).map_err(|source| DatasetError::Io {
        path: readme_path.clone(),
        source,
    })
}

/// The card as a Hugging Face dataset README: YAML front matter naming the files, then the figures.
pub fn readme(card: &Card) -> String {
    use std::fmt::Write as _;
    let c = &card.collection;
    let mut out = String::from("---\nconfigs:\n");
    for (name, folder) in [
        ("chat", ""),
        ("verl", "verl/"),
        ("trl-messages", "trl/messages/"),
        ("trl-prompt-completion", "trl/prompt-completion/"),
    ] {
        let extension = if folder.is_empty() { "jsonl" } else { "parquet" };
        let _ = write!(
            out,
            "- config_name: {name}\n  data_files:\n  - split: train\n    path: {folder}train.{extension}\n  \
             - split: validation\n    path: {folder}validation.{extension}\n"
        );
    }
    out.push_str("---\n\n# AliyunConsoleAgent trajectories\n\n");
    let _ = writeln!(
        out,
        "Each sample is one turn of a console run: the system prompt and the user message the LLM policy \
         was given at that turn (page text fenced as data), and the teacher's reply in the ReAct format \
         (Thought: Progress, Observation, Next; `Doc check:` lines where the console differs from the \
         page; one `Action:`).\n"
    );
    let _ = writeln!(
        out,
        "Tasks: `{}` ({} split). Runs: {}, of which {} were confirmed by the reward service; seed {}; \
         {:.0}% of the pages held out for validation (split by page).\n",
        c.tasks,
        c.split,
        c.runs,
        c.confirmed_runs,
        c.seed,
        c.validation_fraction * 100.0
    );
    out.push_str("## Filters\n\n");
    out.push_str(
        "- Run level: kept only when the outcome is confirmed: the success rule matched the audit log \
         or both judges said so (which confirms the defects reported), or the operation could not happen \
         and every defect reported is one the task is known to have.\n",
    );
    for (why, runs) in &c.unconfirmed {
        let _ = writeln!(out, "  - {runs} run(s) not confirmed: {why}");
    }
    out.push_str("- Turn level: left out when\n");
    for (reason, count) in &c.dropped {
        let _ = writeln!(out, "  - {} ({count} turn(s))", reason.describe());
    }
    for (name, part) in [("Train", &card.train), ("Validation", &card.validation)] {
        let _ = writeln!(out, "\n## {name}: {} samples from {} pages\n", part.samples, part.pages);
        out.push_str("| | |\n|---|---|\n");
        let line = |map: &BTreeMap<String, usize>| {
            map.iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(out, "| by product | {} |", line(&part.by_product));
        let _ = writeln!(out, "| by teacher | {} |", line(&part.by_teacher));
        let outcomes: BTreeMap<String, usize> = part
            .by_outcome
            .iter()
            .map(|(k, v)| (format!("{k:?}").to_lowercase(), *v))
            .collect();
        let _ = writeln!(out, "| by confirmed outcome | {} |", line(&outcomes));
        let _ = writeln!(out, "| by console release | {} |", line(&part.by_release));
        for (what, lengths) in [
            ("conversation length", &part.conversation_length),
            ("reply length", &part.reply_length),
        ] {
            if let Some(l) = lengths {
                let _ = writeln!(
                    out,
                    "| {what} ({}) | min {}, median {}, p95 {}, max {}, mean {:.0} |",
                    card.length_unit, l.min, l.median, l.p95, l.max, l.mean
                );
            }
        }
    }
    out
}
