//! Builds constraints for one tokenizer: the costly tokenizer-derived state is made once and shared.

use std::sync::Arc;

use llguidance::api::TopLevelGrammar;
use llguidance::toktrie::TokEnv;
use llguidance::{Matcher, ParserFactory};
use serde_json::Value;
use tokenizers::Tokenizer;

use super::spec::classify_compile_error;
use super::vocabulary::Vocabulary;
use super::{Constraint, ConstraintError, JsonSpec, ToolCallSpec};

/// Makes a fresh [`Constraint`] per sequence. Build one per tokenizer (it indexes the whole vocabulary,
/// which takes a moment) and share it between requests; it is `Send + Sync`.
pub struct ConstraintFactory {
    parsers: ParserFactory,
    vocabulary: TokEnv,
    eos_token_ids: Arc<[u32]>,
}

impl ConstraintFactory {
    /// Indexes `tokenizer`'s vocabulary. `eos_token_ids` are the ids that end a sequence (for Qwen3
    /// chat, `<|im_end|>` and `<|endoftext|>`); a constraint allows them only once the JSON is complete.
    pub fn new(tokenizer: &Tokenizer, eos_token_ids: &[u32]) -> Result<Self, ConstraintError> {
        let vocabulary = Vocabulary::build(tokenizer, eos_token_ids)?;
        let mut parsers = ParserFactory::new_simple(&vocabulary).map_err(|e| ConstraintError::Engine(e.to_string()))?;
        parsers.quiet();
        Ok(ConstraintFactory {
            parsers,
            vocabulary,
            eos_token_ids: eos_token_ids.into(),
        })
    }

    /// How many token ids the tokenizer knows; logits beyond this (a padded vocabulary) are never allowed.
    pub fn vocab_size(&self) -> usize {
        self.vocabulary.tok_trie().vocab_size()
    }

    /// The ids that end a sequence.
    pub fn eos_token_ids(&self) -> &[u32] {
        &self.eos_token_ids
    }

    /// A constraint for `response_format: {"type": "json_object"}`: any JSON object.
    pub fn json_object(&self) -> Result<Constraint, ConstraintError> {
        self.constraint(&JsonSpec::AnyObject)
    }

    /// A constraint for `response_format: {"type": "json_schema"}`: a value valid against `schema`.
    pub fn json_schema(&self, schema: &Value, strict: bool) -> Result<Constraint, ConstraintError> {
        self.constraint(&JsonSpec::Schema {
            schema: schema.clone(),
            strict,
        })
    }

    /// A constraint for forced tool calls: the reply is only `<tool_call>` blocks naming the spec's tools
    /// with arguments valid against their schemas. Fails with a typed error when no tool is offered or a
    /// tool's parameters are not a schema that can be enforced.
    pub fn tool_calls(&self, spec: &ToolCallSpec) -> Result<Constraint, ConstraintError> {
        let trie = self.vocabulary.tok_trie();
        let tag = |text: &str| match trie.get_special_token(text) {
            Some(id) => format!("<[{id}]>"),
            None => serde_json::to_string(text).unwrap_or_default(),
        };
        let grammar = spec.lark_grammar(&tag)?;
        self.matcher(TopLevelGrammar::from_lark(grammar))
    }

    /// A constraint for `spec`. Fails with a typed error when the schema is invalid, uses a feature that
    /// cannot be enforced, or cannot be satisfied by any value.
    pub fn constraint(&self, spec: &JsonSpec) -> Result<Constraint, ConstraintError> {
        let schema = spec.compiled_schema()?;
        self.matcher(TopLevelGrammar::from_json_schema(schema))
    }

    fn matcher(&self, grammar: TopLevelGrammar) -> Result<Constraint, ConstraintError> {
        let parser = self
            .parsers
            .create_parser(grammar)
            .map_err(|e| classify_compile_error(&format!("{e:#}")))?;
        let matcher = Matcher::new(Ok(parser));
        if let Some(error) = matcher.get_error() {
            return Err(classify_compile_error(&error));
        }
        Ok(Constraint::new(
            matcher,
            self.vocabulary.clone(),
            self.eos_token_ids.clone(),
        ))
    }
}
