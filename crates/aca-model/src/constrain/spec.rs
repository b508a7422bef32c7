//! What a reply must be: any JSON object, or a value valid against a JSON Schema (OpenAI's `response_format`).

use serde_json::{Map, Value, json};

use super::ConstraintError;

/// The shape a constrained reply must take.
#[derive(Debug, Clone, PartialEq)]
pub enum JsonSpec {
    /// `response_format: {"type": "json_object"}`: any JSON object.
    AnyObject,
    /// `response_format: {"type": "json_schema", ...}`: a value valid against `schema`. With `strict`,
    /// objects that do not say otherwise admit no properties beyond those they list (OpenAI's strict mode,
    /// which requires `additionalProperties: false` everywhere).
    Schema { schema: Value, strict: bool },
}

impl JsonSpec {
    /// Reads an OpenAI `response_format` value: `None` for `{"type": "text"}` (no constraint).
    pub fn from_response_format(format: &Value) -> Result<Option<JsonSpec>, ConstraintError> {
        let invalid = |message: &str| ConstraintError::InvalidResponseFormat(message.to_string());
        let kind = format
            .get("type")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid("`type` must be \"text\", \"json_object\" or \"json_schema\""))?;
        match kind {
            "text" => Ok(None),
            "json_object" => Ok(Some(JsonSpec::AnyObject)),
            "json_schema" => {
                let body = format
                    .get("json_schema")
                    .and_then(Value::as_object)
                    .ok_or_else(|| invalid("`json_schema` must be an object with a `schema`"))?;
                let schema = body.get("schema").cloned().unwrap_or_else(|| json!({}));
                let strict = match body.get("strict") {
                    None | Some(Value::Null) => false,
                    Some(Value::Bool(strict)) => *strict,
                    Some(_) => return Err(invalid("`json_schema.strict` must be a boolean")),
                };
                Ok(Some(JsonSpec::Schema { schema, strict }))
            }
            other => Err(ConstraintError::InvalidResponseFormat(format!(
                "unknown `type` {other:?}; expected \"text\", \"json_object\" or \"json_schema\""
            ))),
        }
    }

    /// The JSON Schema handed to the grammar compiler, after checking it against its meta-schema.
    pub(crate) fn compiled_schema(&self) -> Result<Value, ConstraintError> {
        let mut schema = match self {
            JsonSpec::AnyObject => json!({ "type": "object" }),
            JsonSpec::Schema { schema, strict } => {
                check_against_meta_schema(schema)?;
                let mut schema = schema.clone();
                if *strict {
                    close_objects(&mut schema);
                }
                schema
            }
        };
        // One layout, Python's `json.dumps` spacing (`", "` and `": "`, what Qwen writes): no free
        // whitespace runs, so a weak model cannot wander in blank space until its token budget is
        // gone. A schema's own `x-guidance` options win.
        if let Some(object) = schema.as_object_mut()
            && !object.contains_key(GUIDANCE_OPTIONS)
        {
            object.insert(
                GUIDANCE_OPTIONS.to_owned(),
                json!({ "whitespace_flexible": false, "item_separator": ", ", "key_separator": ": " }),
            );
        }
        Ok(schema)
    }
}

/// The schema key through which llguidance takes its JSON compile options.
const GUIDANCE_OPTIONS: &str = "x-guidance";

pub(crate) fn check_against_meta_schema(schema: &Value) -> Result<(), ConstraintError> {
    if !schema.is_object() && !schema.is_boolean() {
        return Err(ConstraintError::InvalidSchema {
            location: String::new(),
            message: "a schema must be a JSON object or a boolean".to_string(),
        });
    }
    jsonschema::meta::validate(schema).map_err(|error| ConstraintError::InvalidSchema {
        location: error.instance_path().to_string(),
        message: error.to_string(),
    })
}

/// Keywords whose value is a single subschema.
const SUBSCHEMA_KEYWORDS: [&str; 10] = [
    "items",
    "additionalItems",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
];
/// Keywords whose value maps names to subschemas.
const SUBSCHEMA_MAP_KEYWORDS: [&str; 5] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];
/// Keywords whose value is a list of alternative or positional subschemas. `allOf` is left out: closing
/// each part of an intersection separately would forbid the properties the other parts list.
const SUBSCHEMA_LIST_KEYWORDS: [&str; 3] = ["anyOf", "oneOf", "prefixItems"];

/// OpenAI's strict mode: every object schema that does not state `additionalProperties` gets `false`.
fn close_objects(schema: &mut Value) {
    let Value::Object(keywords) = schema else {
        return;
    };
    for keyword in SUBSCHEMA_KEYWORDS {
        match keywords.get_mut(keyword) {
            Some(Value::Array(list)) => list.iter_mut().for_each(close_objects),
            Some(subschema) => close_objects(subschema),
            None => {}
        }
    }
    for keyword in SUBSCHEMA_MAP_KEYWORDS {
        if let Some(Value::Object(map)) = keywords.get_mut(keyword) {
            map.values_mut().for_each(close_objects);
        }
    }
    for keyword in SUBSCHEMA_LIST_KEYWORDS {
        if let Some(Value::Array(list)) = keywords.get_mut(keyword) {
            list.iter_mut().for_each(close_objects);
        }
    }
    if describes_object(keywords) && !keywords.contains_key("additionalProperties") {
        keywords.insert("additionalProperties".to_string(), Value::Bool(false));
    }
}

fn describes_object(keywords: &Map<String, Value>) -> bool {
    let typed_object = match keywords.get("type") {
        Some(Value::String(kind)) => kind == "object",
        Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == "object"),
        _ => false,
    };
    typed_object || keywords.contains_key("properties")
}

/// Sorts a grammar-compiler failure into what the caller can act on.
pub(crate) fn classify_compile_error(message: &str) -> ConstraintError {
    let first_line = message.lines().next().unwrap_or(message).trim().to_string();
    if let Some(position) = message.find("Unsatisfiable schema:") {
        let reason = message[position + "Unsatisfiable schema:".len()..]
            .lines()
            .next()
            .unwrap_or("");
        return ConstraintError::UnsatisfiableSchema {
            reason: reason.trim().to_string(),
        };
    }
    let unsupported_markers = [
        "Unimplemented keys",
        "Unknown format",
        "not supported",
        "Unknown applicator",
    ];
    if unsupported_markers.iter().any(|marker| message.contains(marker)) {
        return ConstraintError::UnsupportedSchema { feature: first_line };
    }
    ConstraintError::InvalidSchema {
        location: String::new(),
        message: message.trim().to_string(),
    }
}
