//! Bad schemas and bad factory inputs give typed errors that name what is wrong.

mod constrain_support;

use aca_model::constrain::{ConstraintError, ConstraintFactory};
use constrain_support::{qwen3_factory, qwen3_tokenizer};
use serde_json::json;

#[test]
fn a_schema_breaking_the_meta_schema_is_invalid_and_says_where() {
    let factory = qwen3_factory();
    let cases = [
        (json!({ "type": "objekt" }), "/type"),
        (
            json!({ "type": "object", "properties": { "size": { "minimum": "five" } } }),
            "/properties/size/minimum",
        ),
        (json!({ "type": "object", "required": "name" }), "/required"),
    ];
    for (schema, expected_location) in cases {
        match factory.json_schema(&schema, false) {
            Err(ConstraintError::InvalidSchema { location, message }) => {
                assert_eq!(location, expected_location, "{schema}: {message}");
                assert!(!message.is_empty());
            }
            Err(other) => panic!("{schema} gave {other}"),
            Ok(_) => panic!("{schema} was accepted"),
        }
    }
    assert!(matches!(
        factory.json_schema(&json!(42), false),
        Err(ConstraintError::InvalidSchema { .. })
    ));
}

#[test]
fn a_dangling_reference_is_invalid() {
    let schema = json!({ "type": "object", "properties": { "a": { "$ref": "#/$defs/missing" } } });
    match qwen3_factory().json_schema(&schema, false) {
        Err(ConstraintError::InvalidSchema { message, .. }) => assert!(message.contains("missing"), "{message}"),
        Err(other) => panic!("gave {other}"),
        Ok(_) => panic!("accepted"),
    }
}

#[test]
fn an_unsupported_keyword_is_named() {
    let factory = qwen3_factory();
    let cases = [
        (
            json!({ "type": "object", "properties": { "a": { "not": { "type": "string" } } } }),
            "not",
        ),
        // oneOf is enforced only where its branches are provably disjoint (then it equals anyOf).
        (
            json!({ "oneOf": [{ "type": "string", "maxLength": 5 }, { "type": "string", "minLength": 3 }] }),
            "oneOf",
        ),
        (
            json!({ "type": "object", "properties": { "a": { "type": "string", "format": "ipv9" } } }),
            "ipv9",
        ),
    ];
    for (schema, feature_named) in cases {
        match factory.json_schema(&schema, false) {
            Err(ConstraintError::UnsupportedSchema { feature }) => {
                assert!(feature.contains(feature_named), "{schema}: {feature}")
            }
            Err(other) => panic!("{schema} gave {other}"),
            Ok(_) => panic!("{schema} was accepted"),
        }
    }
}

#[test]
fn an_unsatisfiable_schema_is_reported_as_such() {
    let schema = json!({ "type": "object", "properties": { "n": { "type": "integer", "minimum": 10, "maximum": 3 } }, "required": ["n"] });
    match qwen3_factory().json_schema(&schema, false) {
        Err(ConstraintError::UnsatisfiableSchema { reason }) => assert!(!reason.is_empty()),
        Err(other) => panic!("gave {other}"),
        Ok(_) => panic!("accepted"),
    }
}

#[test]
fn factory_inputs_are_checked() {
    let tokenizer = qwen3_tokenizer();
    assert!(matches!(
        ConstraintFactory::new(tokenizer, &[]),
        Err(ConstraintError::NoEosToken)
    ));
    match ConstraintFactory::new(tokenizer, &[151_645, 9_999_999]) {
        Err(ConstraintError::EosOutOfVocabulary { id, vocab_size }) => {
            assert_eq!(id, 9_999_999);
            assert_eq!(vocab_size, 151_669);
        }
        Err(other) => panic!("gave {other}"),
        Ok(_) => panic!("accepted"),
    }
}

#[test]
fn factories_and_constraints_cross_threads() {
    fn shareable<T: Send + Sync>() {}
    fn movable<T: Send>() {}
    shareable::<ConstraintFactory>();
    movable::<aca_model::constrain::Constraint>();
}
