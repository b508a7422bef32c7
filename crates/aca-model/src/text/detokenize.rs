//! Incremental detokenisation: sampled ids in, only complete UTF-8 text out, for streaming.
//!
//! Byte-level BPE pieces can end inside a multibyte character (a Chinese character or an emoji is
//! often two or three tokens). Decoding each token alone would print replacement characters, so the
//! decoder keeps a small window of ids: it decodes the window, and emits the text past what it already
//! emitted only when that text does not end in an unfinished character. The streamed pieces
//! concatenated equal the decode of all ids at once.

use crate::text::{TextError, TextTokenizer};

/// What an unfinished UTF-8 sequence decodes to (lossy decoding) until its last bytes arrive.
const REPLACEMENT: char = '\u{FFFD}';

/// Streaming state for one sequence. It holds no reference to the tokenizer (pass it to each call),
/// so it can live in a request's state next to its KV cache.
#[derive(Clone, Debug, Default)]
pub struct IncrementalDecoder {
    /// Ids from the start of the current window; earlier ids are dropped once emitted.
    window: Vec<u32>,
    /// Ids at the front of `window` whose text has been emitted (or belongs to the context).
    emitted: usize,
    skip_special_tokens: bool,
}

impl IncrementalDecoder {
    /// A decoder for a fresh sequence. With `skip_special_tokens`, special tokens (`<|im_end|>`) add no
    /// text.
    pub fn new(skip_special_tokens: bool) -> Self {
        Self {
            window: Vec::new(),
            emitted: 0,
            skip_special_tokens,
        }
    }

    /// A decoder that continues after `context` (the last few prompt ids), which is never emitted.
    /// Tokenizers that drop a leading space from the first decoded token (SentencePiece) need it; for
    /// byte-level BPE (Qwen) it changes nothing.
    pub fn with_context(context: &[u32], skip_special_tokens: bool) -> Self {
        Self {
            window: context.to_vec(),
            emitted: context.len(),
            skip_special_tokens,
        }
    }

    /// Adds one sampled id; returns the text it completes (empty while a character is unfinished).
    pub fn push(&mut self, tokenizer: &TextTokenizer, id: u32) -> Result<String, TextError> {
        self.window.push(id);
        let before = tokenizer.decode(&self.window[..self.emitted], self.skip_special_tokens)?;
        let all = tokenizer.decode(&self.window, self.skip_special_tokens)?;
        if all.len() <= before.len() || all.ends_with(REPLACEMENT) {
            return Ok(String::new());
        }
        let fresh = new_suffix(&before, &all).to_string();
        // The window restarts at the ids just emitted: the next decode needs them only as context.
        self.window.drain(..self.emitted);
        self.emitted = self.window.len();
        Ok(fresh)
    }

    /// The text still held back (an unfinished character at the end of the sequence), decoded lossily.
    /// Call once when the sequence ends; the decoder is then empty.
    pub fn finish(&mut self, tokenizer: &TextTokenizer) -> Result<String, TextError> {
        let before = tokenizer.decode(&self.window[..self.emitted], self.skip_special_tokens)?;
        let all = tokenizer.decode(&self.window, self.skip_special_tokens)?;
        let rest = new_suffix(&before, &all).to_string();
        self.window.clear();
        self.emitted = 0;
        Ok(rest)
    }

    /// Whether some ids wait for the rest of a character.
    pub fn has_pending(&self) -> bool {
        self.window.len() > self.emitted
    }
}

/// The part of `all` after `before`. Decoding is prefix-stable for the tokenizers used here, so `all`
/// starts with `before`; if a decoder ever breaks that, the text after the common prefix is returned.
fn new_suffix<'a>(before: &str, all: &'a str) -> &'a str {
    if let Some(rest) = all.strip_prefix(before) {
        return rest;
    }
    let common = before
        .char_indices()
        .zip(all.chars())
        .find(|((_, a), b)| a != b)
        .map_or(before.len().min(all.len()), |((index, _), _)| index);
    all.get(common..).unwrap_or_default()
}
