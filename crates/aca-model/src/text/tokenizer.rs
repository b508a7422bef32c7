//! The checkpoint's `tokenizer.json` behind a small API: encode, decode, token lookup and the chat markers.

use std::collections::HashSet;
use std::io::Read;
use std::path::Path;

use crate::text::TextError;

/// The first two bytes of a gzip stream; a `tokenizer.json.gz` is read as transparently as a plain file.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// A Hugging Face tokenizer with the ids of the chat markers looked up once.
#[derive(Clone)]
pub struct TextTokenizer {
    inner: tokenizers::Tokenizer,
    special: SpecialTokens,
    special_ids: HashSet<u32>,
    id_bound: usize,
}

/// Ids of the markers the Qwen chat format uses, each `None` when the vocabulary lacks it.
///
/// They are looked up by their text in the tokenizer, never assumed: another checkpoint family
/// simply has `None` here.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpecialTokens {
    /// `<|im_start|>`: opens a chat turn.
    pub im_start: Option<u32>,
    /// `<|im_end|>`: closes a chat turn; the end of an assistant reply.
    pub im_end: Option<u32>,
    /// `<|endoftext|>`: end of document (Qwen's padding token).
    pub end_of_text: Option<u32>,
    /// `<tool_call>`
    pub tool_call_start: Option<u32>,
    /// `</tool_call>`
    pub tool_call_end: Option<u32>,
    /// `<think>`
    pub think_start: Option<u32>,
    /// `</think>`
    pub think_end: Option<u32>,
}

impl SpecialTokens {
    fn look_up(tokenizer: &tokenizers::Tokenizer) -> Self {
        let id = |text: &str| tokenizer.token_to_id(text);
        Self {
            im_start: id("<|im_start|>"),
            im_end: id("<|im_end|>"),
            end_of_text: id("<|endoftext|>"),
            tool_call_start: id("<tool_call>"),
            tool_call_end: id("</tool_call>"),
            think_start: id("<think>"),
            think_end: id("</think>"),
        }
    }
}

impl std::fmt::Debug for TextTokenizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextTokenizer")
            .field("id_bound", &self.id_bound)
            .field("special", &self.special)
            .finish_non_exhaustive()
    }
}

impl TextTokenizer {
    /// Reads `tokenizer.json` (or a gzip-compressed copy of it, recognised by its magic bytes).
    pub fn from_file(path: &Path) -> Result<Self, TextError> {
        let bytes = std::fs::read(path).map_err(|source| TextError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let json = if bytes.starts_with(&GZIP_MAGIC) {
            let mut plain = Vec::new();
            flate2::read::GzDecoder::new(bytes.as_slice())
                .read_to_end(&mut plain)
                .map_err(|source| TextError::Io {
                    path: path.to_path_buf(),
                    source,
                })?;
            plain
        } else {
            bytes
        };
        Self::from_json(&json, &path.display().to_string())
    }

    /// Parses the contents of a `tokenizer.json`; `origin` names it in errors.
    pub fn from_json(json: &[u8], origin: &str) -> Result<Self, TextError> {
        let inner = tokenizers::Tokenizer::from_bytes(json).map_err(|error| TextError::InvalidTokenizer {
            origin: origin.to_string(),
            message: error.to_string(),
        })?;
        let id_bound = inner
            .get_vocab(true)
            .values()
            .map(|&id| id as usize + 1)
            .max()
            .unwrap_or(0);
        let special = SpecialTokens::look_up(&inner);
        let special_ids = inner
            .get_added_tokens_decoder()
            .into_iter()
            .filter(|(_, token)| token.special)
            .map(|(id, _)| id)
            .collect();
        Ok(Self {
            inner,
            special,
            special_ids,
            id_bound,
        })
    }

    /// Token ids for `text`. Added tokens written in the text (`<|im_start|>`, `<tool_call>`…) become
    /// their single ids, as in a rendered chat prompt; no BOS/EOS is added.
    pub fn encode(&self, text: &str) -> Result<Vec<u32>, TextError> {
        let encoding = self.inner.encode(text, false).map_err(|error| TextError::Encode {
            message: error.to_string(),
        })?;
        Ok(encoding.get_ids().to_vec())
    }

    /// The text of `ids`; with `skip_special_tokens`, tokens marked special (`<|im_end|>`,
    /// `<|endoftext|>`) are left out while `<think>` and `<tool_call>` stay.
    pub fn decode(&self, ids: &[u32], skip_special_tokens: bool) -> Result<String, TextError> {
        if let Some(&bad) = ids.iter().find(|&&id| id as usize >= self.id_bound) {
            return Err(TextError::Decode {
                message: format!(
                    "token id {bad} is outside the vocabulary (ids end at {})",
                    self.id_bound
                ),
            });
        }
        self.inner
            .decode(ids, skip_special_tokens)
            .map_err(|error| TextError::Decode {
                message: error.to_string(),
            })
    }

    /// The id of a token given by its text, e.g. `"<|im_end|>"`.
    pub fn token_id(&self, token: &str) -> Result<u32, TextError> {
        self.inner.token_to_id(token).ok_or_else(|| TextError::UnknownToken {
            token: token.to_string(),
        })
    }

    /// The vocabulary entry of an id (byte-level form for BPE pieces), if there is one.
    pub fn token_text(&self, id: u32) -> Option<String> {
        self.inner.id_to_token(id)
    }

    /// One past the largest id the tokenizer knows, added tokens included. A model's `vocab_size` is
    /// often larger (padded for speed); ids at or above this bound must never be sampled.
    pub fn id_bound(&self) -> usize {
        self.id_bound
    }

    /// Whether `id` is an added token marked special (left out by `decode(_, true)`).
    pub fn is_special(&self, id: u32) -> bool {
        self.special_ids.contains(&id)
    }

    /// The chat markers' ids.
    pub fn special_tokens(&self) -> &SpecialTokens {
        &self.special
    }

    /// The underlying `tokenizers` tokenizer, for anything this API does not cover.
    pub fn inner(&self) -> &tokenizers::Tokenizer {
        &self.inner
    }
}
