//! Streaming detokenisation: only complete characters are emitted, and the pieces add up to the full decode.

mod text_support;

use aca_model::text::IncrementalDecoder;
use text_support::{qwen3, reference};

fn stream(ids: &[u32], skip_special_tokens: bool) -> Vec<String> {
    let tokenizer = &qwen3().tokenizer;
    let mut decoder = IncrementalDecoder::new(skip_special_tokens);
    let mut pieces: Vec<String> = ids.iter().map(|&id| decoder.push(tokenizer, id).unwrap()).collect();
    pieces.push(decoder.finish(tokenizer).unwrap());
    pieces
}

#[test]
fn an_emoji_split_over_two_tokens_comes_out_whole_once_both_arrived() {
    let tokenizer = &qwen3().tokenizer;
    let ids = tokenizer.encode("ok 👍 ok").unwrap();
    assert_eq!(
        ids[1..3],
        [61804, 235],
        "a space and half the emoji, then the rest of it"
    );
    let pieces = stream(&ids, false);
    assert_eq!(pieces[..3], ["ok", "", " 👍"], "half an emoji is held back");
    assert_eq!(pieces.concat(), "ok 👍 ok");
}

#[test]
fn chinese_and_emoji_stream_without_replacement_characters() {
    let tokenizer = &qwen3().tokenizer;
    let texts = [
        "在杭州地域创建一个专有网络，网段为 192.168.0.0/16。",
        "Emoji: 👍🏽 🇨🇳 👨‍👩‍👧‍👦 ✅ 完成！",
        "混合 text, 数字 42 和符号 ½ ² ∑ — “引号”",
        "𠜎𠜱𠝹𠱓 rare CJK extension B",
    ];
    for text in texts {
        let ids = tokenizer.encode(text).unwrap();
        let pieces = stream(&ids, false);
        assert!(
            pieces.iter().all(|piece| !piece.contains('\u{FFFD}')),
            "{text:?} streamed as {pieces:?}"
        );
        assert_eq!(pieces.concat(), tokenizer.decode(&ids, false).unwrap());
        assert_eq!(pieces.concat(), text);
    }
}

#[test]
fn every_reference_string_streams_to_its_full_decode() {
    let tokenizer = &qwen3().tokenizer;
    for case in reference("qwen3_token_ids.json")["cases"].as_array().expect("cases") {
        let ids: Vec<u32> = serde_json::from_value(case["ids"].clone()).expect("ids");
        for skip in [false, true] {
            let pieces = stream(&ids, skip);
            assert_eq!(
                pieces.concat(),
                tokenizer.decode(&ids, skip).unwrap(),
                "{case} skip={skip}"
            );
        }
    }
}

#[test]
fn skipped_special_tokens_add_no_text() {
    let tokenizer = &qwen3().tokenizer;
    let ids = tokenizer.encode("好<|im_end|>").unwrap();
    assert_eq!(stream(&ids, true).concat(), "好");
    assert_eq!(stream(&ids, false).concat(), "好<|im_end|>");
}

#[test]
fn an_unfinished_character_at_the_end_is_flushed_lossily() {
    let tokenizer = &qwen3().tokenizer;
    let mut decoder = IncrementalDecoder::new(false);
    assert_eq!(
        decoder.push(tokenizer, 61804).unwrap(),
        "",
        "a space and the first half of 👍"
    );
    assert!(decoder.has_pending());
    assert_eq!(decoder.finish(tokenizer).unwrap(), " \u{FFFD}");
    assert!(!decoder.has_pending());
}

#[test]
fn context_ids_are_never_emitted() {
    let tokenizer = &qwen3().tokenizer;
    let prompt = tokenizer.encode("<|im_start|>assistant\n").unwrap();
    let mut decoder = IncrementalDecoder::with_context(&prompt, false);
    let answer = tokenizer.encode("你好").unwrap();
    let text: String = answer.iter().map(|&id| decoder.push(tokenizer, id).unwrap()).collect();
    assert_eq!(text + &decoder.finish(tokenizer).unwrap(), "你好");
}

#[test]
fn an_id_outside_the_vocabulary_is_an_error_not_a_panic() {
    let tokenizer = &qwen3().tokenizer;
    let mut decoder = IncrementalDecoder::new(false);
    let error = decoder.push(tokenizer, 151_900).unwrap_err();
    assert!(error.to_string().contains("151900"), "{error}");
}
