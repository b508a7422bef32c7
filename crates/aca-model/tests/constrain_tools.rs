//! Forced tool calls on the real Qwen3 tokenizer: a random-logits model under the constraint always
//! writes Qwen3 `<tool_call>` blocks that parse as calls to the offered tools with valid arguments.

mod constrain_support;

use aca_model::constrain::{ConstraintError, ToolCallCount, ToolCallSpec, ToolSchema};
use aca_model::text::parse_assistant_reply;
use constrain_support::{Pick, qwen3_factory, run_random_model, token_id};
use serde_json::{Value, json};

fn weather() -> ToolSchema {
    ToolSchema {
        name: "get_weather".into(),
        parameters: Some(json!({
            "type": "object",
            "properties": {
                "city": {"enum": ["Hangzhou", "Beijing"]},
                "days": {"type": "integer", "minimum": 1, "maximum": 7}
            },
            "required": ["city", "days"],
            "additionalProperties": false
        })),
        strict: false,
    }
}

fn create_vpc() -> ToolSchema {
    ToolSchema {
        name: "create_vpc".into(),
        parameters: Some(json!({
            "type": "object",
            "properties": {"cidr": {"enum": ["10.0.0.0/8", "192.168.0.0/16"]}},
            "required": ["cidr"]
        })),
        strict: true,
    }
}

fn check_arguments(name: &str, arguments: &Value) {
    let schema = match name {
        "get_weather" => weather().parameters.unwrap(),
        "create_vpc" => json!({
            "type": "object",
            "properties": {"cidr": {"enum": ["10.0.0.0/8", "192.168.0.0/16"]}},
            "required": ["cidr"],
            "additionalProperties": false
        }),
        other => panic!("a call to a tool that was not offered: {other}"),
    };
    let validator = jsonschema::validator_for(&schema).unwrap();
    if let Err(error) = validator.validate(arguments) {
        panic!("{name} arguments {arguments} do not match: {error}");
    }
}

#[test]
fn a_required_call_is_one_or_more_valid_calls_to_the_offered_tools() {
    let spec = ToolCallSpec {
        tools: vec![weather(), create_vpc()],
        count: ToolCallCount::OneOrMore,
    };
    let mut names = Vec::new();
    for seed in 1..=6 {
        let pick = if seed % 2 == 0 { Pick::Sample } else { Pick::Argmax };
        let mut constraint = qwen3_factory().tool_calls(&spec).expect("tool constraint");
        let run = run_random_model(&mut constraint, seed, pick, 600);
        assert!(constraint.is_finished(), "seed {seed}: unfinished: {}", run.text);
        assert_eq!(run.tokens[0], token_id("<tool_call>"), "the tag is the special token");
        let reply = parse_assistant_reply(&run.text).unwrap_or_else(|e| panic!("{e}: {}", run.text));
        assert!(!reply.tool_calls.is_empty(), "{}", run.text);
        assert_eq!(reply.content, "", "only tool calls: {}", run.text);
        for call in reply.tool_calls {
            check_arguments(&call.name, &Value::Object(call.arguments));
            names.push(call.name);
        }
    }
    assert!(names.iter().any(|n| n == "get_weather") || names.iter().any(|n| n == "create_vpc"));
}

#[test]
fn a_named_function_is_exactly_one_call_to_it() {
    let spec = ToolCallSpec {
        tools: vec![create_vpc()],
        count: ToolCallCount::One,
    };
    for seed in 1..=4 {
        let mut constraint = qwen3_factory().tool_calls(&spec).expect("tool constraint");
        let run = run_random_model(&mut constraint, seed, Pick::Sample, 300);
        assert!(constraint.is_finished(), "seed {seed}: unfinished: {}", run.text);
        let reply = parse_assistant_reply(&run.text).unwrap_or_else(|e| panic!("{e}: {}", run.text));
        assert_eq!(reply.tool_calls.len(), 1, "{}", run.text);
        assert_eq!(reply.tool_calls[0].name, "create_vpc");
        check_arguments("create_vpc", &Value::Object(reply.tool_calls[0].arguments.clone()));
        assert!(
            run.text
                .starts_with("<tool_call>\n{\"name\": \"create_vpc\", \"arguments\": {"),
            "{}",
            run.text
        );
    }
}

#[test]
fn bad_tool_specs_are_typed_errors() {
    let none = ToolCallSpec {
        tools: Vec::new(),
        count: ToolCallCount::OneOrMore,
    };
    assert!(matches!(
        qwen3_factory().tool_calls(&none),
        Err(ConstraintError::InvalidToolChoice(_))
    ));
    let broken = ToolCallSpec {
        tools: vec![ToolSchema {
            name: "broken".into(),
            parameters: Some(json!({"type": 7})),
            strict: false,
        }],
        count: ToolCallCount::One,
    };
    match qwen3_factory().tool_calls(&broken) {
        Err(ConstraintError::InvalidSchema { location, .. }) => assert!(location.contains("broken"), "{location}"),
        other => panic!("expected an invalid schema naming the tool, got {other:?}"),
    }
    let not_an_object = ToolCallSpec {
        tools: vec![ToolSchema {
            name: "list".into(),
            parameters: Some(json!({"type": "array"})),
            strict: false,
        }],
        count: ToolCallCount::One,
    };
    assert!(qwen3_factory().tool_calls(&not_an_object).is_err());
}
