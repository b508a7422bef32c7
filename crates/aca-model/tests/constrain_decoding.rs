//! A random-logits model driven under a constraint on the real Qwen3 tokenizer always ends in valid JSON,
//! and end-of-sequence is refused until the JSON is complete.

mod constrain_support;

use aca_model::constrain::{ConstraintError, JsonSpec};
use constrain_support::{Pick, QWEN3_LOGITS_WIDTH, qwen3_eos_ids, qwen3_factory, qwen3_tokenizer, run_random_model};
use serde_json::{Value, json};

fn instance_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": { "type": "string", "maxLength": 24 },
            "status": { "enum": ["Running", "Stopped", "Pending"] },
            "cpu": { "type": "integer", "minimum": 1, "maximum": 64 },
            "disks": {
                "type": "array",
                "maxItems": 3,
                "items": {
                    "type": "object",
                    "properties": {
                        "category": { "enum": ["cloud_essd", "cloud_ssd"] },
                        "sizes": {
                            "type": "array",
                            "maxItems": 4,
                            "items": { "type": "integer", "minimum": 20, "maximum": 32768 }
                        }
                    },
                    "required": ["category", "sizes"],
                    "additionalProperties": false
                }
            }
        },
        "required": ["name", "status", "cpu", "disks"],
        "additionalProperties": false
    })
}

fn assert_valid(text: &str, schema: &Value) -> Value {
    let value: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    let validator = jsonschema::validator_for(schema).expect("test schema compiles");
    if let Err(error) = validator.validate(&value) {
        panic!("{text} does not match the schema: {error}");
    }
    value
}

#[test]
fn json_object_runs_end_in_a_json_object() {
    let factory = qwen3_factory();
    for seed in 1..=4 {
        let pick = if seed % 2 == 0 { Pick::Sample } else { Pick::Argmax };
        let mut constraint = factory.json_object().expect("json_object constraint");
        let run = run_random_model(&mut constraint, seed, pick, 3000);
        assert!(
            constraint.is_finished(),
            "seed {seed}: not finished after {} tokens: {}",
            run.tokens.len(),
            run.text
        );
        let value = assert_valid(&run.text, &json!({ "type": "object" }));
        assert!(value.is_object(), "seed {seed}: {value}");
    }
}

#[test]
fn schema_runs_end_in_values_valid_against_the_schema() {
    let factory = qwen3_factory();
    let schema = instance_schema();
    for seed in 10..=15 {
        let pick = if seed % 2 == 0 { Pick::Sample } else { Pick::Argmax };
        let mut constraint = factory.json_schema(&schema, true).expect("schema constraint");
        let run = run_random_model(&mut constraint, seed, pick, 3000);
        assert!(
            constraint.is_finished(),
            "seed {seed}: not finished after {} tokens: {}",
            run.tokens.len(),
            run.text
        );
        let value = assert_valid(&run.text, &schema);
        let cpu = value["cpu"].as_i64().expect("cpu is an integer");
        assert!((1..=64).contains(&cpu), "seed {seed}: cpu {cpu}");
    }
}

#[test]
fn strict_mode_forbids_properties_the_schema_does_not_list() {
    let factory = qwen3_factory();
    let open = json!({
        "type": "object",
        "properties": { "id": { "type": "integer" }, "tags": { "type": "object", "properties": { "env": { "type": "string" } } } },
        "required": ["id"]
    });
    let closed = json!({
        "type": "object",
        "properties": {
            "id": { "type": "integer" },
            "tags": { "type": "object", "properties": { "env": { "type": "string" } }, "additionalProperties": false }
        },
        "required": ["id"],
        "additionalProperties": false
    });
    for seed in 20..=23 {
        let mut constraint = factory.json_schema(&open, true).expect("strict constraint");
        let run = run_random_model(&mut constraint, seed, Pick::Sample, 3000);
        assert!(constraint.is_finished(), "seed {seed}: {}", run.text);
        assert_valid(&run.text, &closed);
    }

    // Without strict the schema's own (open) meaning holds: a listed-nowhere property is accepted.
    let tokenizer = qwen3_tokenizer();
    let extra = tokenizer
        .encode(r#"{"id": 1, "zone": "cn-hangzhou-h"}"#, false)
        .expect("encode");
    let mut lenient = factory.json_schema(&open, false).expect("lenient constraint");
    for &token in extra.get_ids() {
        lenient
            .advance(token)
            .expect("an extra property is allowed without strict");
    }
    assert!(lenient.can_end());
    let mut strict = factory.json_schema(&open, true).expect("strict constraint");
    let refused = extra.get_ids().iter().find_map(|&token| strict.advance(token).err());
    assert!(
        matches!(refused, Some(ConstraintError::TokenNotAllowed { .. })),
        "strict mode let an unlisted property through: {refused:?}"
    );
}

#[test]
fn end_of_sequence_is_refused_until_the_json_is_complete() {
    let factory = qwen3_factory();
    let tokenizer = qwen3_tokenizer();
    let eos = qwen3_eos_ids();
    let schema = json!({
        "type": "object",
        "properties": { "count": { "type": "integer" }, "zone": { "type": "string" } },
        "required": ["count", "zone"]
    });
    let mut constraint = factory.json_schema(&schema, false).expect("constraint");
    let encoding = tokenizer
        .encode(r#"{"count": 12, "zone": "cn-beijing"}"#, false)
        .expect("encode");
    let tokens = encoding.get_ids();
    assert!(tokens.len() > 4, "the text splits into several tokens: {tokens:?}");
    let mut logits = vec![0.0f32; QWEN3_LOGITS_WIDTH];

    for (position, &token) in tokens.iter().enumerate() {
        assert!(!constraint.can_end(), "complete after only {position} tokens");
        logits.fill(0.0);
        constraint.mask(&mut logits).expect("mask");
        for &id in &eos {
            assert_eq!(
                logits[id as usize],
                f32::NEG_INFINITY,
                "end-of-sequence {id} allowed at {position}"
            );
            match constraint.advance(id) {
                Err(ConstraintError::TokenNotAllowed { token, .. }) => assert_eq!(token, id),
                other => panic!("end-of-sequence at {position} gave {other:?}"),
            }
        }
        assert!(
            logits[token as usize].is_finite(),
            "the text's own token {token} was masked at {position}"
        );
        constraint
            .advance(token)
            .expect("the refused end-of-sequence left the constraint usable");
    }

    assert!(constraint.can_end(), "the object is complete");
    assert!(
        constraint.is_finished(),
        "nothing but end-of-sequence can follow the closing brace"
    );
    let mut only_eos = eos.clone();
    only_eos.sort_unstable();
    assert_eq!(constraint.allowed_tokens().expect("allowed"), only_eos);
    logits.fill(0.0);
    constraint.mask(&mut logits).expect("mask");
    for &id in &eos {
        assert_eq!(
            logits[id as usize], 0.0,
            "end-of-sequence {id} masked after the complete object"
        );
    }
    assert!(
        logits[tokenizer.token_to_id(",").expect("comma") as usize].is_infinite(),
        "a comma after the closing brace"
    );
    constraint
        .advance(eos[0])
        .expect("end-of-sequence after the complete object");
    assert!(constraint.is_finished());
    assert!(matches!(constraint.advance(eos[0]), Err(ConstraintError::Ended(_))));
}

#[test]
fn padded_vocabulary_ids_are_never_allowed_and_short_rows_are_refused() {
    let factory = qwen3_factory();
    let vocab_size = factory.vocab_size();
    assert!(
        vocab_size < QWEN3_LOGITS_WIDTH,
        "Qwen3's logits are padded beyond its {vocab_size} tokens"
    );
    let mut constraint = factory.json_object().expect("constraint");
    let mut logits = vec![1.0f32; QWEN3_LOGITS_WIDTH];
    constraint.mask(&mut logits).expect("mask");
    assert!(logits[vocab_size..].iter().all(|&logit| logit == f32::NEG_INFINITY));
    assert!(logits[..vocab_size].contains(&1.0), "something is allowed");
    let allowed = constraint.allowed_tokens().expect("allowed");
    let finite = logits.iter().filter(|logit| logit.is_finite()).count();
    assert_eq!(allowed.len(), finite, "allowed_tokens agrees with the mask");
    assert!(matches!(
        constraint.advance(vocab_size as u32 + 3),
        Err(ConstraintError::TokenNotAllowed { .. })
    ));
    // Special tokens such as <|im_start|> and <tool_call> never appear inside JSON.
    let tokenizer = qwen3_tokenizer();
    for special in ["<|im_start|>", "<tool_call>", "<think>"] {
        let id = tokenizer.token_to_id(special).expect("special token") as usize;
        assert_eq!(logits[id], f32::NEG_INFINITY, "{special} allowed");
    }

    let mut short = vec![0.0f32; vocab_size - 1];
    assert!(matches!(
        constraint.mask(&mut short),
        Err(ConstraintError::LogitsTooShort { .. })
    ));
}

#[test]
fn a_refused_token_leaves_the_constraint_as_it_was() {
    let factory = qwen3_factory();
    let tokenizer = qwen3_tokenizer();
    let mut constraint = factory
        .json_schema(&json!({ "enum": ["Running", "Stopped"] }), false)
        .expect("enum");
    let letter_x = tokenizer.token_to_id("x").expect("x");
    assert!(matches!(
        constraint.advance(letter_x),
        Err(ConstraintError::TokenNotAllowed { .. })
    ));
    let quote = tokenizer.token_to_id("\"").expect("quote");
    constraint.advance(quote).expect("the opening quote");
    let mut running = constraint.clone();
    for &token in tokenizer.encode("Stopped\"", false).expect("encode").get_ids() {
        constraint.advance(token).expect("the enum value");
    }
    assert!(constraint.can_end());
    assert!(!running.can_end(), "a clone does not follow the original");
    for &token in tokenizer.encode("Running\"", false).expect("encode").get_ids() {
        running.advance(token).expect("the clone takes the other enum value");
    }
    assert!(running.can_end());
}

#[test]
fn response_format_values_map_to_specs() {
    assert_eq!(
        JsonSpec::from_response_format(&json!({ "type": "text" })).expect("text"),
        None
    );
    assert_eq!(
        JsonSpec::from_response_format(&json!({ "type": "json_object" })).expect("json_object"),
        Some(JsonSpec::AnyObject)
    );
    let schema = json!({ "type": "object", "properties": { "a": { "type": "string" } } });
    let format = json!({ "type": "json_schema", "json_schema": { "name": "a", "strict": true, "schema": schema } });
    assert_eq!(
        JsonSpec::from_response_format(&format).expect("json_schema"),
        Some(JsonSpec::Schema { schema, strict: true })
    );
    for bad in [
        json!({ "type": "xml" }),
        json!({}),
        json!({ "type": "json_schema" }),
        json!({ "type": "json_schema", "json_schema": { "schema": {}, "strict": "yes" } }),
    ] {
        assert!(
            matches!(
                JsonSpec::from_response_format(&bad),
                Err(ConstraintError::InvalidResponseFormat(_))
            ),
            "{bad} was accepted"
        );
    }
}
