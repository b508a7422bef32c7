//! The Qwen3 tokenizer gives the same ids as Hugging Face `tokenizers`, and finds its chat markers by name.

mod text_support;

use aca_model::text::{TextError, TextTokenizer};
use text_support::{fixtures, qwen3, reference};

#[test]
fn known_strings_encode_to_the_reference_ids() {
    let tokenizer = &qwen3().tokenizer;
    assert_eq!(tokenizer.encode("Hello, world!").unwrap(), [9707, 11, 1879, 0]);
    assert_eq!(
        tokenizer.encode("云服务器 ECS 实例的状态为“运行中”。").unwrap(),
        [
            99718, 89047, 87664, 92293, 26355, 106293, 17714, 2073, 104001, 15946, 55807
        ]
    );
    assert_eq!(
        tokenizer
            .encode("<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n")
            .unwrap(),
        [151644, 872, 198, 6023, 151645, 198, 151644, 77091, 198]
    );
    // After a space, the thumbs-up emoji is split over two byte-level pieces; alone it is one.
    assert_eq!(tokenizer.encode(" 👍").unwrap(), [61804, 235]);
    assert_eq!(tokenizer.encode("👍").unwrap(), [144349]);
}

#[test]
fn every_reference_string_round_trips_with_the_reference_ids() {
    let tokenizer = &qwen3().tokenizer;
    let cases = reference("qwen3_token_ids.json");
    let cases = cases["cases"].as_array().expect("cases");
    assert!(cases.len() >= 10);
    for case in cases {
        let text = case["text"].as_str().expect("text");
        let expected: Vec<u32> = serde_json::from_value(case["ids"].clone()).expect("ids");
        assert_eq!(tokenizer.encode(text).unwrap(), expected, "ids of {text:?}");
        assert_eq!(tokenizer.decode(&expected, false).unwrap(), text, "decode of {text:?}");
    }
}

#[test]
fn chat_markers_are_looked_up_by_name() {
    let text = qwen3();
    let special = text.tokenizer.special_tokens();
    assert_eq!(special.im_start, Some(151644));
    assert_eq!(special.im_end, Some(151645));
    assert_eq!(special.end_of_text, Some(151643));
    assert_eq!(special.tool_call_start, Some(151657));
    assert_eq!(special.tool_call_end, Some(151658));
    assert_eq!(special.think_start, Some(151667));
    assert_eq!(special.think_end, Some(151668));
    assert_eq!(text.tokenizer.token_id("<|vision_start|>").unwrap(), 151652);
    // tokenizer_config.json's eos_token; the fixture has no generation_config.json.
    assert_eq!(text.stop_token_ids, [151645]);
}

#[test]
fn the_id_bound_excludes_padded_model_vocabulary() {
    let tokenizer = &qwen3().tokenizer;
    // Qwen3 configs say vocab_size 151936; the tokenizer knows ids up to </think> = 151668.
    assert_eq!(tokenizer.id_bound(), 151669);
    let error = tokenizer.decode(&[9707, 151700], false).unwrap_err();
    assert!(matches!(error, TextError::Decode { .. }), "{error}");
    assert!(error.to_string().contains("151700"), "{error}");
}

#[test]
fn skipping_special_tokens_drops_turn_markers_but_keeps_tool_and_think_tags() {
    let tokenizer = &qwen3().tokenizer;
    let ids = tokenizer
        .encode("<think>\nx\n</think>\n\n<tool_call>\n{}\n</tool_call><|im_end|>")
        .unwrap();
    assert_eq!(
        tokenizer.decode(&ids, true).unwrap(),
        "<think>\nx\n</think>\n\n<tool_call>\n{}\n</tool_call>"
    );
    assert!(tokenizer.is_special(151645));
    assert!(!tokenizer.is_special(151657));
}

#[test]
fn unknown_tokens_and_broken_files_are_named_errors() {
    let tokenizer = &qwen3().tokenizer;
    let error = tokenizer.token_id("<|no_such_token|>").unwrap_err();
    assert!(error.to_string().contains("<|no_such_token|>"), "{error}");

    let error = TextTokenizer::from_json(b"{\"model\": 3}", "broken.json").unwrap_err();
    assert!(matches!(error, TextError::InvalidTokenizer { .. }), "{error}");
    assert!(error.to_string().contains("broken.json"), "{error}");

    let missing = fixtures().join("no-such-dir/tokenizer.json");
    let error = TextTokenizer::from_file(&missing).unwrap_err();
    assert!(matches!(error, TextError::Io { .. }), "{error}");
}
