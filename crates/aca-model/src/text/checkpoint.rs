//! Loading a checkpoint directory's text files: tokenizer, chat template and the ids that end a reply.

use std::path::Path;

use serde_json::Value;

use crate::text::{ChatTemplate, TemplateSpecialTokens, TextError, TextTokenizer};

/// The text side of a checkpoint: what turns messages into prompt ids and sampled ids into text.
#[derive(Debug)]
pub struct CheckpointText {
    pub tokenizer: TextTokenizer,
    pub template: ChatTemplate,
    /// Ids that end generation: `generation_config.json`'s `eos_token_id` (one id or a list) and
    /// `tokenizer_config.json`'s `eos_token`, deduplicated, in that order.
    pub stop_token_ids: Vec<u32>,
}

impl CheckpointText {
    /// Reads `dir/tokenizer.json` (or `tokenizer.json.gz`), `dir/tokenizer_config.json` and the chat
    /// template, which is looked for in `chat_template.jinja`, then `chat_template.json` (multimodal
    /// processors), then `tokenizer_config.json`'s `chat_template`; `generation_config.json` is optional.
    pub fn load(dir: &Path) -> Result<Self, TextError> {
        let tokenizer_path = [dir.join("tokenizer.json"), dir.join("tokenizer.json.gz")]
            .into_iter()
            .find(|path| path.is_file())
            .unwrap_or_else(|| dir.join("tokenizer.json"));
        let tokenizer = TextTokenizer::from_file(&tokenizer_path)?;

        let config_path = dir.join("tokenizer_config.json");
        let config = read_json(&config_path)?.unwrap_or(Value::Null);
        let special = TemplateSpecialTokens {
            bos_token: token_string(&config, "bos_token"),
            eos_token: token_string(&config, "eos_token"),
            pad_token: token_string(&config, "pad_token"),
            unk_token: token_string(&config, "unk_token"),
        };
        let template = load_template(dir, &config, special.clone())?;

        let mut stop_token_ids = Vec::new();
        let generation_path = dir.join("generation_config.json");
        if let Some(generation) = read_json(&generation_path)? {
            stop_token_ids.extend(eos_ids(&generation, &generation_path)?);
        }
        if let Some(eos) = &special.eos_token {
            stop_token_ids.push(tokenizer.token_id(eos)?);
        }
        let mut seen = std::collections::HashSet::new();
        stop_token_ids.retain(|id| seen.insert(*id));

        Ok(Self {
            tokenizer,
            template,
            stop_token_ids,
        })
    }
}

fn load_template(dir: &Path, config: &Value, special: TemplateSpecialTokens) -> Result<ChatTemplate, TextError> {
    let jinja_path = dir.join("chat_template.jinja");
    if jinja_path.is_file() {
        let source = std::fs::read_to_string(&jinja_path).map_err(|source| TextError::Io {
            path: jinja_path.clone(),
            source,
        })?;
        return ChatTemplate::new(&source, special);
    }
    let processor_path = dir.join("chat_template.json");
    if let Some(processor) = read_json(&processor_path)?
        && let Some(template) = processor
            .get("chat_template")
            .and_then(|value| ChatTemplate::from_config_value(value, special.clone()))
    {
        return template;
    }
    config
        .get("chat_template")
        .and_then(|value| ChatTemplate::from_config_value(value, special))
        .unwrap_or_else(|| Err(TextError::NoChatTemplate { dir: dir.to_path_buf() }))
}

/// A JSON file's value, `None` when the file does not exist.
fn read_json(path: &Path) -> Result<Option<Value>, TextError> {
    if !path.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(path).map_err(|source| TextError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|error| TextError::InvalidConfig {
            path: path.to_path_buf(),
            message: error.to_string(),
        })
}

/// A special token in `tokenizer_config.json`: a string, or an `AddedToken` object with `content`.
fn token_string(config: &Value, key: &str) -> Option<String> {
    match config.get(key)? {
        Value::String(text) => Some(text.clone()),
        Value::Object(token) => token.get("content")?.as_str().map(str::to_string),
        _ => None,
    }
}

fn eos_ids(generation: &Value, path: &Path) -> Result<Vec<u32>, TextError> {
    let invalid = |what: &Value| TextError::InvalidConfig {
        path: path.to_path_buf(),
        message: format!("eos_token_id must be a token id or a list of them, not {what}"),
    };
    let as_id = |value: &Value| {
        value
            .as_u64()
            .and_then(|id| u32::try_from(id).ok())
            .ok_or_else(|| invalid(value))
    };
    match generation.get("eos_token_id") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(ids)) => ids.iter().map(as_id).collect(),
        Some(single) => Ok(vec![as_id(single)?]),
    }
}
