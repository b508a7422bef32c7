//! Samples to token ids as the server will see them: the prompt rendered by the checkpoint's chat
//! template with the generation prompt, then the reply and the end-of-turn token, which alone carry loss.

use aca_model::text::{CheckpointText, RenderOptions};

use crate::error::TrainError;
use crate::sft::data::ChatSample;

/// The end-of-turn marker that closes an assistant reply in the Qwen chat format.
pub const END_OF_TURN: &str = "<|im_end|>";

/// One sample's ids and which of them are learned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenizedSample {
    /// Prompt ids followed by completion ids, cut at the maximum length.
    pub ids: Vec<u32>,
    /// Index of the first completion id: ids before it are the prompt and carry no loss.
    pub completion_start: usize,
    /// Whether the maximum length cut the sample.
    pub truncated: bool,
}

impl TokenizedSample {
    /// Whether position `index` of `ids` is a learned (assistant) token.
    pub fn is_learned(&self, index: usize) -> bool {
        index >= self.completion_start && index < self.ids.len()
    }

    /// How many learned tokens the sample has.
    pub fn learned_count(&self) -> usize {
        self.ids.len().saturating_sub(self.completion_start)
    }
}

/// Renders, tokenises and cuts samples for one checkpoint's text files.
#[derive(Debug)]
pub struct SampleTokenizer<'a> {
    text: &'a CheckpointText,
    end_of_turn: u32,
    max_length: usize,
    enable_thinking: Option<bool>,
}

impl<'a> SampleTokenizer<'a> {
    /// Fails when the tokenizer has no `<|im_end|>` token.
    pub fn new(text: &'a CheckpointText, max_length: usize, enable_thinking: Option<bool>) -> Result<Self, TrainError> {
        Ok(Self {
            end_of_turn: text.tokenizer.token_id(END_OF_TURN)?,
            text,
            max_length,
            enable_thinking,
        })
    }

    /// The ids of the prompt the model is asked to answer, ending with the opening of the assistant turn.
    pub fn prompt_ids(&self, sample: &ChatSample) -> Result<Vec<u32>, TrainError> {
        let options = RenderOptions {
            add_generation_prompt: true,
            enable_thinking: self.enable_thinking,
            ..RenderOptions::default()
        };
        let prompt = self.text.template.render(&sample.prompt, &options)?;
        Ok(self.text.tokenizer.encode(&prompt)?)
    }

    /// `sample` as ids, cut at the maximum length.
    pub fn tokenize(&self, sample: &ChatSample) -> Result<TokenizedSample, TrainError> {
        let mut ids = self.prompt_ids(sample)?;
        let completion_start = ids.len();
        ids.extend(self.text.tokenizer.encode(&sample.reply)?);
        ids.push(self.end_of_turn);
        let truncated = ids.len() > self.max_length;
        ids.truncate(self.max_length);
        Ok(TokenizedSample {
            completion_start: completion_start.min(ids.len()),
            ids,
            truncated,
        })
    }

    /// Every sample, each error naming the sample's index.
    pub fn tokenize_all(&self, samples: &[ChatSample]) -> Result<Vec<TokenizedSample>, TrainError> {
        samples
            .iter()
            .enumerate()
            .map(|(index, sample)| {
                self.tokenize(sample).map_err(|error| TrainError::Tokenize {
                    index,
                    problem: error.to_string(),
                })
            })
            .collect()
    }
}
