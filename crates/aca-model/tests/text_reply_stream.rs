//! Streaming reply parsing gives, delta by delta, exactly what the whole-reply parser gives.

mod text_support;

use aca_model::text::{
    AssistantReply, IncrementalDecoder, ParsedToolCall, ReplyDelta, ReplyStream, TextError, parse_assistant_reply,
};
use text_support::qwen3;

const REPLIES: [&str; 7] = [
    "<think>\nThe user wants a VPC in 杭州.\n\nI'll call create_vpc.\n</think>\n\nCreating it now 👍\n<tool_call>\n{\"name\": \"create_vpc\", \"arguments\": {\"RegionId\": \"cn-hangzhou\", \"VpcName\": \"测试\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"describe_vpcs\", \"arguments\": {}}\n</tool_call>",
    "<think>\n\n</think>\n\n你好！有什么可以帮你？",
    "Plain answer with a < sign and <b>markup</b> and a <tool_ mention.",
    "  \n<tool_call>\n{\"name\": \"only_call\", \"arguments\": {\"n\": 1}}\n</tool_call>\n",
    "Before.\n<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>\nAfter the call.\n\nSecond paragraph.",
    "<think>\nstill thinking when the limit hit",
    "",
];

/// Collects the deltas of a stream into the shape of a parsed reply.
fn collect(deltas: impl IntoIterator<Item = ReplyDelta>) -> AssistantReply {
    let mut reasoning = String::new();
    let mut reply = AssistantReply::default();
    for delta in deltas {
        match delta {
            ReplyDelta::Reasoning(text) => reasoning.push_str(&text),
            ReplyDelta::Content(text) => reply.content.push_str(&text),
            ReplyDelta::ToolCall(call) => reply.tool_calls.push(call),
        }
    }
    reply.reasoning = (!reasoning.is_empty()).then_some(reasoning);
    reply
}

fn stream_pieces(pieces: &[String]) -> Result<AssistantReply, TextError> {
    let mut stream = ReplyStream::new(false);
    let mut deltas = Vec::new();
    for piece in pieces {
        deltas.extend(stream.push(piece)?);
    }
    deltas.extend(stream.finish()?);
    Ok(collect(deltas))
}

#[test]
fn streaming_real_qwen3_tokens_matches_the_whole_reply_parse() {
    let text = qwen3();
    for reply in REPLIES {
        let ids = text.tokenizer.encode(reply).unwrap();
        let mut decoder = IncrementalDecoder::new(true);
        let mut pieces: Vec<String> = ids
            .iter()
            .map(|&id| decoder.push(&text.tokenizer, id).unwrap())
            .collect();
        pieces.push(decoder.finish(&text.tokenizer).unwrap());
        assert_eq!(
            stream_pieces(&pieces).unwrap(),
            parse_assistant_reply(reply).unwrap(),
            "{reply:?}"
        );
    }
}

#[test]
fn streaming_one_character_at_a_time_matches_the_whole_reply_parse() {
    for reply in REPLIES {
        let pieces: Vec<String> = reply.chars().map(String::from).collect();
        assert_eq!(
            stream_pieces(&pieces).unwrap(),
            parse_assistant_reply(reply).unwrap(),
            "{reply:?}"
        );
    }
}

#[test]
fn a_tool_call_is_sent_once_its_closing_tag_arrives_and_no_tag_text_leaks() {
    let mut stream = ReplyStream::new(false);
    assert_eq!(
        stream.push("Checking.\n<tool").unwrap(),
        [ReplyDelta::Content("Checking.".into())]
    );
    assert_eq!(stream.push("_call>\n{\"name\": \"f\", ").unwrap(), []);
    let deltas = stream.push("\"arguments\": {\"a\": 1}}\n</tool_call>").unwrap();
    let ReplyDelta::ToolCall(ParsedToolCall { name, arguments }) = &deltas[0] else {
        panic!("{deltas:?}")
    };
    assert_eq!(name, "f");
    assert_eq!(arguments["a"], 1);
    assert_eq!(stream.finish().unwrap(), []);
}

#[test]
fn a_prompt_that_opened_think_starts_the_reply_as_reasoning() {
    let mut stream = ReplyStream::new(true);
    let mut deltas = stream.push("plan it\n</thi").unwrap();
    deltas.extend(stream.push("nk>\n\nanswer").unwrap());
    deltas.extend(stream.finish().unwrap());
    assert_eq!(
        deltas,
        [
            ReplyDelta::Reasoning("plan it".into()),
            ReplyDelta::Content("answer".into())
        ]
    );
}

#[test]
fn malformed_and_unclosed_tool_calls_are_named_errors() {
    let mut stream = ReplyStream::new(false);
    let error = stream.push("<tool_call>{\"name\": 3}</tool_call>").unwrap_err();
    assert!(
        matches!(error, TextError::MalformedToolCall { index: 0, .. }),
        "{error}"
    );

    let mut stream = ReplyStream::new(false);
    stream
        .push("<tool_call>{\"name\": \"f\"}</tool_call><tool_call>{\"name\"")
        .unwrap();
    let error = stream.finish().unwrap_err();
    assert!(
        matches!(error, TextError::MalformedToolCall { index: 1, .. }),
        "{error}"
    );
    assert!(error.to_string().contains("no closing </tool_call>"), "{error}");
}

#[test]
fn a_reply_cut_by_the_token_limit_keeps_its_unfinished_tool_call_as_text() {
    let mut stream = ReplyStream::new(false);
    let mut deltas = stream
        .push("Calling.\n<tool_call>{\"name\": \"f\"}</tool_call>\n<tool_call>\n{\"name\": \"create_vpc\", \"argu")
        .unwrap();
    deltas.extend(stream.finish_cut());
    let reply = collect(deltas);
    assert_eq!(reply.tool_calls.len(), 1, "the finished call is kept");
    assert_eq!(
        reply.content,
        "Calling.\n\n<tool_call>\n{\"name\": \"create_vpc\", \"argu"
    );
    // Cut anywhere else, it ends as `finish` does.
    let mut stream = ReplyStream::new(false);
    let mut deltas = stream.push("<think>\nstill thinking").unwrap();
    deltas.extend(stream.finish_cut());
    assert_eq!(collect(deltas).reasoning.as_deref(), Some("still thinking"));
}
