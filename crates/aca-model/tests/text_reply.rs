//! Generated Qwen3 replies split into reasoning, content and tool calls; malformed calls are named errors.

use aca_model::text::{TextError, parse_assistant_reply};
use serde_json::json;

#[test]
fn reasoning_content_and_two_tool_calls_are_separated() {
    let reply = parse_assistant_reply(concat!(
        "<think>\nThe user wants a VPC.\n</think>\n\nCreating it now.\n",
        "<tool_call>\n{\"name\": \"create_vpc\", \"arguments\": {\"RegionId\": \"cn-hangzhou\", \"CidrBlock\": \"192.168.0.0/16\"}}\n</tool_call>\n",
        "<tool_call>\n{\"name\": \"describe_vpcs\", \"arguments\": {\"PageSize\": 10}}\n</tool_call>"
    ))
    .unwrap();
    assert_eq!(reply.reasoning.as_deref(), Some("The user wants a VPC."));
    assert_eq!(reply.content, "Creating it now.");
    assert_eq!(reply.tool_calls.len(), 2);
    assert_eq!(reply.tool_calls[0].name, "create_vpc");
    assert_eq!(
        json!(reply.tool_calls[0].arguments),
        json!({"RegionId": "cn-hangzhou", "CidrBlock": "192.168.0.0/16"})
    );
    assert_eq!(reply.tool_calls[1].arguments_json(), r#"{"PageSize":10}"#);
}

#[test]
fn a_reply_without_tags_is_all_content() {
    let reply = parse_assistant_reply("Just text.").unwrap();
    assert_eq!(reply.reasoning, None);
    assert_eq!(reply.content, "Just text.");
    assert!(reply.tool_calls.is_empty());
}

#[test]
fn a_closing_think_without_opening_tag_still_separates_reasoning() {
    // Thinking checkpoints put `<think>\n` in the prompt; the reply starts inside it.
    let reply = parse_assistant_reply("plan it\n</think>\n\nanswer").unwrap();
    assert_eq!(reply.reasoning.as_deref(), Some("plan it"));
    assert_eq!(reply.content, "answer");
}

#[test]
fn empty_thinking_is_no_reasoning_and_unfinished_thinking_is_all_reasoning() {
    let reply = parse_assistant_reply("<think>\n\n</think>\n\nhello").unwrap();
    assert_eq!(reply.reasoning, None);
    assert_eq!(reply.content, "hello");

    let reply = parse_assistant_reply("<think>\nstill thinking when the limit hit").unwrap();
    assert_eq!(reply.reasoning.as_deref(), Some("still thinking when the limit hit"));
    assert_eq!(reply.content, "");
}

#[test]
fn arguments_given_as_a_json_string_or_missing_are_accepted() {
    let reply =
        parse_assistant_reply("<tool_call>{\"name\": \"f\", \"arguments\": \"{\\\"a\\\": 1}\"}</tool_call>").unwrap();
    assert_eq!(json!(reply.tool_calls[0].arguments), json!({"a": 1}));
    let reply = parse_assistant_reply("<tool_call>{\"name\": \"g\"}</tool_call>").unwrap();
    assert!(reply.tool_calls[0].arguments.is_empty());
}

#[test]
fn malformed_tool_calls_are_errors_naming_the_block_and_the_fault() {
    let cases = [
        (
            "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": 1}\n</tool_call>",
            0,
            "invalid JSON",
        ),
        ("<tool_call>{\"arguments\": {}}</tool_call>", 0, "no \"name\""),
        ("<tool_call>{\"name\": \"\"}</tool_call>", 0, "non-empty string"),
        (
            "<tool_call>{\"name\": \"f\", \"arguments\": [1]}</tool_call>",
            0,
            "must be a JSON object",
        ),
        ("<tool_call>[1, 2]</tool_call>", 0, "expected a JSON object"),
        (
            "<tool_call>{\"name\": \"f\"}</tool_call><tool_call>{\"name\": \"g\"",
            1,
            "no closing </tool_call>",
        ),
    ];
    for (text, index, reason) in cases {
        let error = parse_assistant_reply(text).unwrap_err();
        let TextError::MalformedToolCall { index: got, .. } = &error else {
            panic!("{text}: {error}")
        };
        assert_eq!(*got, index, "{text}");
        assert!(error.to_string().contains(reason), "{text}: {error}");
    }
}
