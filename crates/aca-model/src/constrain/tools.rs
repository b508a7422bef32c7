//! Forced tool calls (OpenAI's `tool_choice` `"required"` or a named function): a grammar that admits
//! only Qwen3's `<tool_call>\n{"name": …, "arguments": …}\n</tool_call>` blocks, each naming one of the
//! offered tools with arguments valid against that tool's parameters schema.

use serde_json::{Value, json};

use super::ConstraintError;
use super::spec::{JsonSpec, check_against_meta_schema};
use crate::text::reply::{TOOL_CALL_END, TOOL_CALL_START};

/// One tool the model may call: its name and the JSON Schema of its arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSchema {
    pub name: String,
    /// The function's `parameters`; `None` means any object.
    pub parameters: Option<Value>,
    /// OpenAI's `function.strict`: objects admit no properties beyond those they list.
    pub strict: bool,
}

/// How many tool-call blocks the reply must hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolCallCount {
    /// Exactly one (a named function, or `parallel_tool_calls: false`).
    One,
    /// One or more, one block after another.
    OneOrMore,
}

/// A reply made only of tool calls to `tools`.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCallSpec {
    pub tools: Vec<ToolSchema>,
    pub count: ToolCallCount,
}

/// How the grammar writes a tag such as `<tool_call>`: the tokenizer's own special token when it has
/// one (the model can only write the tag that way), else the literal text.
pub(crate) type TagSpelling<'a> = &'a dyn Fn(&str) -> String;

impl ToolCallSpec {
    /// The Lark grammar (llguidance's dialect) for this spec. Fails with a typed error naming the tool
    /// whose parameters are not a valid JSON Schema, or when no tool is offered.
    pub(crate) fn lark_grammar(&self, tag: TagSpelling<'_>) -> Result<String, ConstraintError> {
        if self.tools.is_empty() {
            return Err(ConstraintError::InvalidToolChoice(
                "a tool call is required but no tools are offered".to_string(),
            ));
        }
        let mut grammar = String::new();
        grammar.push_str(match self.count {
            ToolCallCount::One => "start: call\n",
            ToolCallCount::OneOrMore => "start: call (\"\\n\" call)*\n",
        });
        grammar.push_str(&format!(
            "call: {} \"\\n\" body \"\\n\" {}\n",
            tag(TOOL_CALL_START),
            tag(TOOL_CALL_END)
        ));
        let alternatives: Vec<String> = (0..self.tools.len()).map(|i| format!("tool_{i}")).collect();
        grammar.push_str(&format!("body: {}\n", alternatives.join(" | ")));
        for (index, tool) in self.tools.iter().enumerate() {
            let arguments = arguments_schema(tool)?;
            // Qwen3 writes `{"name": "X", "arguments": {…}}` with Python's json.dumps spacing.
            let name = serde_json::to_string(&tool.name).map_err(|e| ConstraintError::Engine(e.to_string()))?;
            let opening = format!("{{\"name\": {name}, \"arguments\": ");
            let opening = serde_json::to_string(&opening).map_err(|e| ConstraintError::Engine(e.to_string()))?;
            grammar.push_str(&format!("tool_{index}: {opening} %json {arguments} \"}}\"\n"));
        }
        Ok(grammar)
    }
}

/// The tool's arguments schema as the grammar compiles it: validated, always an object, closed when
/// strict, with the same JSON layout options as `response_format`.
fn arguments_schema(tool: &ToolSchema) -> Result<Value, ConstraintError> {
    let named = |error: ConstraintError| match error {
        ConstraintError::InvalidSchema { location, message } => ConstraintError::InvalidSchema {
            location: format!("tool `{}` parameters{location}", tool.name),
            message,
        },
        other => other,
    };
    let mut schema = match &tool.parameters {
        None => json!({ "type": "object" }),
        Some(schema) => {
            check_against_meta_schema(schema).map_err(named)?;
            schema.clone()
        }
    };
    match &mut schema {
        Value::Object(keywords) if !keywords.contains_key("type") => {
            keywords.insert("type".to_string(), json!("object"));
        }
        Value::Object(keywords) if keywords.get("type") == Some(&json!("object")) => {}
        Value::Bool(true) => schema = json!({ "type": "object" }),
        _ => {
            return Err(ConstraintError::InvalidSchema {
                location: format!("tool `{}` parameters", tool.name),
                message: "a tool's parameters must be an object schema".to_string(),
            });
        }
    }
    JsonSpec::Schema {
        schema,
        strict: tool.strict,
    }
    .compiled_schema()
}
