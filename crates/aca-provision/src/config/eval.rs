//! Evaluating expressions and bodies with `hcl-rs`, against what is known so far: variables, locals,
//! the attributes of resources already created and data sources already read.

use std::collections::BTreeMap;

use hcl::eval::{Context, Evaluate};
use hcl::{Body, Expression, Structure};
use serde_json::{Map, Value};

use super::functions;

/// The named values an expression can see, by root name (`var`, `local`, `data`, `count`,
/// `alicloud_vpc`, …), as JSON.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    roots: BTreeMap<String, Value>,
}

impl Scope {
    pub fn empty() -> Self {
        Self::default()
    }

    /// Sets `root.path[0].path[1]…` to `value`, creating objects on the way.
    pub fn set(&mut self, root: &str, path: &[&str], value: Value) {
        let mut slot = self
            .roots
            .entry(root.to_owned())
            .or_insert_with(|| Value::Object(Map::new()));
        for key in path {
            if !slot.is_object() {
                *slot = Value::Object(Map::new());
            }
            let Value::Object(map) = slot else { return };
            slot = map
                .entry((*key).to_owned())
                .or_insert_with(|| Value::Object(Map::new()));
        }
        *slot = value;
    }

    /// A copy with `count.index` set, for one instance of a counted block.
    pub fn with_count_index(&self, index: usize) -> Self {
        let mut scope = self.clone();
        scope.set("count", &["index"], Value::from(index));
        scope
    }

    fn context(&self) -> Result<Context<'static>, String> {
        let mut ctx = Context::new();
        for (root, value) in &self.roots {
            let value = hcl::to_value(value).map_err(|e| format!("{root}: {e}"))?;
            ctx.declare_var(root.as_str(), value);
        }
        functions::declare(&mut ctx);
        Ok(ctx)
    }

    /// The JSON value of one expression.
    pub fn evaluate(&self, expr: &Expression) -> Result<Value, String> {
        let ctx = self.context()?;
        let value = expr.evaluate(&ctx).map_err(|e| e.to_string())?;
        Ok(to_json(&value))
    }

    /// A body as a JSON object: arguments by name, nested blocks as arrays of objects by block name.
    pub fn evaluate_body(&self, body: &Body) -> Result<Map<String, Value>, String> {
        let ctx = self.context()?;
        evaluate_body_in(&ctx, body)
    }
}

fn evaluate_body_in(ctx: &Context<'_>, body: &Body) -> Result<Map<String, Value>, String> {
    let mut out = Map::new();
    for structure in body.iter() {
        match structure {
            Structure::Attribute(attr) => {
                let value = attr.expr.evaluate(ctx).map_err(|e| format!("{}: {e}", attr.key))?;
                out.insert(attr.key.to_string(), to_json(&value));
            }
            Structure::Block(block) => {
                let nested = evaluate_body_in(ctx, &block.body)?;
                let entry = out
                    .entry(block.identifier.to_string())
                    .or_insert_with(|| Value::Array(Vec::new()));
                if let Value::Array(items) = entry {
                    items.push(Value::Object(nested));
                }
            }
        }
    }
    Ok(out)
}

/// An HCL value as JSON (numbers stay integers where they are).
pub fn to_json(value: &hcl::Value) -> Value {
    match value {
        hcl::Value::Null => Value::Null,
        hcl::Value::Bool(b) => Value::Bool(*b),
        hcl::Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::from(i)
            } else if let Some(u) = n.as_u64() {
                Value::from(u)
            } else {
                n.as_f64().map_or(Value::Null, Value::from)
            }
        }
        hcl::Value::String(s) => Value::String(s.clone()),
        hcl::Value::Array(items) => Value::Array(items.iter().map(to_json).collect()),
        hcl::Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), to_json(v))).collect()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn evaluates_references_templates_and_nested_blocks() {
        let mut scope = Scope::empty();
        scope.set("var", &["suffix"], json!("k3x9q2"));
        scope.set(
            "alicloud_vpc",
            &["main"],
            json!({ "id": "vpc-1", "cidr_block": "10.0.0.0/8" }),
        );
        let body = hcl::parse(
            r#"
name   = "doc-${var.suffix}"
vpc_id = alicloud_vpc.main.id
size   = 20 + 20
rule { port = "22/22" }
rule { port = "80/80" }
"#,
        )
        .unwrap();
        let out = scope.evaluate_body(&body).unwrap();
        assert_eq!(out["name"], "doc-k3x9q2");
        assert_eq!(out["vpc_id"], "vpc-1");
        assert_eq!(out["size"], 40);
        assert_eq!(out["rule"], json!([{ "port": "22/22" }, { "port": "80/80" }]));
    }

    #[test]
    fn unknown_names_are_errors_naming_them() {
        let body = hcl::parse("x = alicloud_vpc.gone.id").unwrap();
        let err = Scope::empty().evaluate_body(&body).unwrap_err();
        assert!(err.contains("alicloud_vpc"), "{err}");
    }
}
