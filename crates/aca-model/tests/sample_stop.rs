//! Stop conditions: stop strings straddling tokens, stop token ids and the token budget.

mod text_support;

use aca_model::sample::{FinishReason, SampleError, StopChecker, StopConditions};
use aca_model::text::IncrementalDecoder;
use text_support::qwen3;

fn checker(stop_strings: &[&str], stop_token_ids: &[u32], max_tokens: Option<usize>) -> StopChecker {
    StopChecker::new(StopConditions {
        stop_token_ids: stop_token_ids.to_vec(),
        stop_strings: stop_strings.iter().map(|stop| stop.to_string()).collect(),
        max_tokens,
    })
    .unwrap()
}

/// Feeds `(id, text)` pairs until the checker finishes; returns the sent text and the reason.
fn run(checker: &mut StopChecker, tokens: &[(u32, &str)]) -> (String, Option<FinishReason>) {
    let mut sent = String::new();
    for (id, text) in tokens {
        let step = checker.push(*id, text);
        sent.push_str(&step.text);
        if step.finished.is_some() {
            return (sent, step.finished);
        }
    }
    sent.push_str(&checker.flush());
    (sent, None)
}

#[test]
fn a_stop_string_split_over_three_tokens_is_cut_with_the_text_before_it_sent() {
    let mut stop = checker(&["STOP"], &[], None);
    let first = stop.push(1, "Hello wor");
    assert_eq!(first.text, "Hello wor");
    let second = stop.push(2, "ld! S");
    assert_eq!(second.text, "ld! ", "the S might begin STOP: held back");
    let third = stop.push(3, "TO");
    assert_eq!(third.text, "");
    let fourth = stop.push(4, "P and more");
    assert_eq!(fourth.text, "");
    assert_eq!(fourth.finished, Some(FinishReason::StopString("STOP".into())));
    assert_eq!(fourth.finished.as_ref().map(FinishReason::as_openai), Some("stop"));
    assert_eq!(stop.generated(), 4);
}

#[test]
fn held_text_is_sent_once_it_cannot_be_a_stop_string() {
    let mut stop = checker(&["STOP", "\n\nUser:"], &[], None);
    assert_eq!(stop.push(1, "a ST").text, "a ");
    assert_eq!(stop.push(2, "ILL\n").text, "STILL");
    assert_eq!(stop.push(3, "\nUse").text, "");
    assert_eq!(stop.push(4, "d it").text, "\n\nUsed it");
}

#[test]
fn the_earliest_stop_string_wins_and_text_after_it_is_dropped() {
    let mut stop = checker(&["world", "lo"], &[], None);
    let step = stop.push(1, "hello world");
    assert_eq!(step.text, "hel");
    assert_eq!(step.finished, Some(FinishReason::StopString("lo".into())));
    assert_eq!(stop.push(2, "more").text, "", "tokens after the end are ignored");
}

#[test]
fn a_stop_token_ends_generation_and_releases_held_text() {
    let mut stop = checker(&["STOP"], &[151645], None);
    let (sent, reason) = run(&mut stop, &[(1, "answer ST"), (151645, ""), (2, "never")]);
    assert_eq!(sent, "answer ST");
    assert_eq!(reason, Some(FinishReason::StopToken(151645)));
}

#[test]
fn max_tokens_ends_with_length_and_sends_everything() {
    let mut stop = checker(&["STOP"], &[], Some(3));
    let (sent, reason) = run(&mut stop, &[(1, "one "), (2, "two "), (3, "ST"), (4, "OP")]);
    assert_eq!(sent, "one two ST");
    assert_eq!(reason, Some(FinishReason::Length));
    assert_eq!(reason.as_ref().map(FinishReason::as_openai), Some("length"));
}

#[test]
fn a_multibyte_stop_string_matches_across_real_qwen3_tokens() {
    let text = qwen3();
    let ids = text.tokenizer.encode("第一步完成。👍下一步：删除").unwrap();
    let mut decoder = IncrementalDecoder::new(true);
    let mut stop = checker(&["👍下"], &text.stop_token_ids, Some(100));
    let mut sent = String::new();
    let mut reason = None;
    for &id in &ids {
        let piece = decoder.push(&text.tokenizer, id).unwrap();
        let step = stop.push(id, &piece);
        sent.push_str(&step.text);
        if step.finished.is_some() {
            reason = step.finished;
            break;
        }
    }
    assert_eq!(sent, "第一步完成。");
    assert_eq!(reason, Some(FinishReason::StopString("👍下".into())));
}

#[test]
fn qwen3_end_of_turn_stops_a_real_stream() {
    let text = qwen3();
    let ids = text.tokenizer.encode("好的。<|im_end|>\n<|im_start|>user").unwrap();
    let mut decoder = IncrementalDecoder::new(true);
    let mut stop = checker(&[], &text.stop_token_ids, None);
    let mut sent = String::new();
    let mut reason = None;
    for &id in &ids {
        let step = stop.push(id, &decoder.push(&text.tokenizer, id).unwrap());
        sent.push_str(&step.text);
        if step.finished.is_some() {
            reason = step.finished;
            break;
        }
    }
    assert_eq!(sent, "好的。");
    assert_eq!(
        reason,
        Some(FinishReason::StopToken(text.tokenizer.token_id("<|im_end|>").unwrap()))
    );
}

#[test]
fn empty_stop_strings_and_a_zero_budget_are_refused() {
    let error = StopChecker::new(StopConditions {
        stop_strings: vec![String::new()],
        ..Default::default()
    })
    .unwrap_err();
    assert!(
        matches!(error, SampleError::InvalidParameter { name: "stop", .. }),
        "{error}"
    );
    let error = StopChecker::new(StopConditions {
        max_tokens: Some(0),
        ..Default::default()
    })
    .unwrap_err();
    assert!(
        matches!(error, SampleError::InvalidParameter { name: "max_tokens", .. }),
        "{error}"
    );
}
