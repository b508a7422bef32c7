//! The tokenizer as the grammar engine sees it: the bytes each token id stands for, built once per tokenizer.

use std::sync::Arc;

use llguidance::toktrie::{TokEnv, TokRxInfo, TokTrie, TokenId, TokenizerEnv};
use tokenizers::Tokenizer;

use super::ConstraintError;

/// The tokenizer's vocabulary as byte strings, with its end-of-sequence ids, for the grammar engine.
pub(crate) struct Vocabulary {
    tokenizer: Tokenizer,
    trie: TokTrie,
}

impl Vocabulary {
    /// Maps every token id of `tokenizer` to its bytes. Added tokens that are special, or look like
    /// markup (`<tool_call>`, `<think>`), become special tokens: the grammar never emits them as text.
    pub(crate) fn build(tokenizer: &Tokenizer, eos_token_ids: &[u32]) -> Result<TokEnv, ConstraintError> {
        let json = tokenizer
            .to_string(false)
            .map_err(|e| ConstraintError::Tokenizer(format!("cannot serialise the tokenizer: {e}")))?;
        let json: serde_json::Value = serde_json::from_str(&json)
            .map_err(|e| ConstraintError::Tokenizer(format!("the serialised tokenizer is not JSON: {e}")))?;
        let mut token_bytes = llguidance::token_bytes_from_tokenizer_json(&json)
            .map_err(|e| ConstraintError::Tokenizer(e.to_string()))?;

        let vocab_size = tokenizer.get_vocab_size(true).max(token_bytes.len());
        token_bytes.resize(vocab_size, Vec::new());
        for (id, added) in tokenizer.get_added_tokens_decoder() {
            let looks_like_markup = added.content.starts_with('<') && added.content.ends_with('>');
            if (added.special || looks_like_markup)
                && let Some(slot) = token_bytes.get_mut(id as usize)
            {
                let mut bytes = Vec::with_capacity(added.content.len() + 1);
                bytes.push(TokTrie::SPECIAL_TOKEN_MARKER);
                bytes.extend_from_slice(added.content.as_bytes());
                *slot = bytes;
            }
        }

        let (&first_eos, _) = eos_token_ids.split_first().ok_or(ConstraintError::NoEosToken)?;
        if let Some(&id) = eos_token_ids.iter().find(|&&id| id as usize >= vocab_size) {
            return Err(ConstraintError::EosOutOfVocabulary { id, vocab_size });
        }
        let vocab_size_u32 = u32::try_from(vocab_size)
            .map_err(|_| ConstraintError::Tokenizer(format!("vocabulary of {vocab_size} tokens is too large")))?;
        let mut trie = TokTrie::from(&TokRxInfo::new(vocab_size_u32, first_eos), &token_bytes);
        if eos_token_ids.len() > 1 {
            trie = trie.with_eos_tokens(eos_token_ids);
        }
        Ok(Arc::new(Vocabulary {
            tokenizer: tokenizer.clone(),
            trie,
        }))
    }
}

impl TokenizerEnv for Vocabulary {
    fn tok_trie(&self) -> &TokTrie {
        &self.trie
    }

    fn tokenize_bytes(&self, bytes: &[u8]) -> Vec<TokenId> {
        self.trie
            .tokenize_with_greedy_fallback(bytes, |text| match self.tokenizer.encode(text, false) {
                Ok(encoding) => encoding.get_ids().to_vec(),
                Err(_) => self.trie.greedy_tokenize(text.as_bytes()),
            })
    }
}
