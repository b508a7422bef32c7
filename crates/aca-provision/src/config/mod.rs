//! A Terraform configuration for the `alicloud` provider, read with `hcl-rs`: its variables, locals,
//! data sources, resources (with `count` and `depends_on`), outputs and provider region.

use std::collections::{BTreeMap, BTreeSet};

use hcl::{Body, Expression, Structure};

use crate::error::{ProvisionError, Result};

mod eval;
mod functions;
mod refs;

pub use eval::{Scope, to_json};

/// Whether a block manages a resource or reads a data source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mode {
    Managed,
    Data,
}

/// `alicloud_vpc.main` or `data.alicloud_zones.default`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Address {
    pub mode: Mode,
    /// The resource type: `alicloud_vpc`.
    pub kind: String,
    /// The block's name label: `main`.
    pub name: String,
}

impl std::fmt::Display for Address {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.mode {
            Mode::Managed => write!(f, "{}.{}", self.kind, self.name),
            Mode::Data => write!(f, "data.{}.{}", self.kind, self.name),
        }
    }
}

/// One `resource` or `data` block.
#[derive(Debug, Clone)]
pub struct ResourceBlock {
    pub address: Address,
    /// The arguments and nested blocks, without the meta-arguments (`count`, `depends_on`,
    /// `lifecycle`, `provider`).
    pub body: Body,
    pub count: Option<Expression>,
    /// The graph nodes (`var.x`, `local.y`, `alicloud_vpc.main`, `data.alicloud_zones.z`) this block
    /// refers to, `depends_on` included.
    pub depends_on: BTreeSet<String>,
}

/// One `variable` block.
#[derive(Debug, Clone)]
pub struct Variable {
    pub name: String,
    pub default: Option<serde_json::Value>,
    pub description: String,
}

/// One entry of a `locals` block.
#[derive(Debug, Clone)]
pub struct Local {
    pub name: String,
    pub expr: Expression,
    pub depends_on: BTreeSet<String>,
}

/// One `output` block.
#[derive(Debug, Clone)]
pub struct Output {
    pub name: String,
    pub expr: Expression,
    pub depends_on: BTreeSet<String>,
}

/// A whole configuration, as written (nothing evaluated yet).
#[derive(Debug, Clone)]
pub struct Configuration {
    /// Where the configuration came from, for error messages: a file name.
    pub source: String,
    /// The HCL text itself (the Terraform applier writes it out unchanged).
    pub text: String,
    pub variables: Vec<Variable>,
    pub locals: Vec<Local>,
    pub blocks: Vec<ResourceBlock>,
    pub outputs: Vec<Output>,
    /// `provider "alicloud" { region = "…" }`, when given as a literal.
    pub provider_region: Option<String>,
}

const META_ARGUMENTS: &[&str] = &["count", "depends_on", "provider", "for_each"];
const META_BLOCKS: &[&str] = &["lifecycle", "timeouts", "provisioner", "connection"];

impl Configuration {
    /// Parses `text` (from `source`, a file name used in errors).
    pub fn parse(source: &str, text: &str) -> Result<Self> {
        let body = hcl::parse(text).map_err(|e| ProvisionError::Syntax {
            file: source.to_owned(),
            message: e.to_string(),
        })?;
        let invalid = |message: String| ProvisionError::Invalid {
            file: source.to_owned(),
            message,
        };
        let mut config = Self {
            source: source.to_owned(),
            text: text.to_owned(),
            variables: Vec::new(),
            locals: Vec::new(),
            blocks: Vec::new(),
            outputs: Vec::new(),
            provider_region: None,
        };
        for structure in body.into_inner() {
            let block = match structure {
                Structure::Block(block) => block,
                Structure::Attribute(attr) => {
                    return Err(invalid(format!(
                        "unexpected top-level argument {}: only blocks belong at the top",
                        attr.key
                    )));
                }
            };
            let labels: Vec<String> = block.labels.iter().map(|l| l.as_str().to_owned()).collect();
            match (block.identifier.as_str(), labels.as_slice()) {
                ("resource", [kind, name]) | ("data", [kind, name]) => {
                    let mode = if block.identifier.as_str() == "data" {
                        Mode::Data
                    } else {
                        Mode::Managed
                    };
                    let address = Address {
                        mode,
                        kind: kind.clone(),
                        name: name.clone(),
                    };
                    config.blocks.push(resource_block(source, address, block.body)?);
                }
                ("variable", [name]) => config.variables.push(variable(source, name, &block.body)?),
                ("locals", []) => {
                    for structure in block.body.into_inner() {
                        if let Structure::Attribute(attr) = structure {
                            let depends_on = refs::references(&attr.expr);
                            config.locals.push(Local {
                                name: attr.key.to_string(),
                                expr: attr.expr,
                                depends_on,
                            });
                        }
                    }
                }
                ("output", [name]) => {
                    let value = block
                        .body
                        .attributes()
                        .find(|a| a.key.as_str() == "value")
                        .ok_or_else(|| invalid(format!("output {name} has no value")))?;
                    config.outputs.push(Output {
                        name: name.clone(),
                        depends_on: refs::references(&value.expr),
                        expr: value.expr.clone(),
                    });
                }
                ("provider", [name]) if name == "alicloud" => {
                    config.provider_region =
                        block
                            .body
                            .attributes()
                            .find(|a| a.key.as_str() == "region")
                            .and_then(|a| match &a.expr {
                                Expression::String(s) => Some(s.clone()),
                                _ => None,
                            });
                }
                ("provider", _) | ("terraform", _) => {}
                (other, labels) => {
                    return Err(invalid(format!(
                        "unexpected block {other} {}",
                        labels.iter().map(|l| format!("{l:?}")).collect::<Vec<_>>().join(" ")
                    )));
                }
            }
        }
        let mut seen = BTreeSet::new();
        for block in &config.blocks {
            if !seen.insert(block.address.to_string()) {
                return Err(invalid(format!("{} is declared twice", block.address)));
            }
        }
        Ok(config)
    }

    /// The block with this address (`alicloud_vpc.main`, `data.alicloud_zones.z`).
    pub fn block(&self, address: &str) -> Option<&ResourceBlock> {
        self.blocks.iter().find(|b| b.address.to_string() == address)
    }

    /// The managed resources, in declaration order.
    pub fn resources(&self) -> impl Iterator<Item = &ResourceBlock> {
        self.blocks.iter().filter(|b| b.address.mode == Mode::Managed)
    }

    /// Values for every declared variable: `given` first, then the default; a variable with
    /// neither is a [`ProvisionError::MissingVariable`]. Values given for undeclared variables are
    /// kept (the suffix is passed to every template whether it declares it or not).
    pub fn variable_values(
        &self,
        given: &BTreeMap<String, serde_json::Value>,
    ) -> Result<BTreeMap<String, serde_json::Value>> {
        let mut values = given.clone();
        for variable in &self.variables {
            if values.contains_key(&variable.name) {
                continue;
            }
            match &variable.default {
                Some(default) => {
                    values.insert(variable.name.clone(), default.clone());
                }
                None => {
                    return Err(ProvisionError::MissingVariable {
                        file: self.source.clone(),
                        name: variable.name.clone(),
                    });
                }
            }
        }
        Ok(values)
    }
}

fn resource_block(source: &str, address: Address, body: Body) -> Result<ResourceBlock> {
    let mut kept = Vec::new();
    let mut count = None;
    let mut depends_on = BTreeSet::new();
    for structure in body.into_inner() {
        match structure {
            Structure::Attribute(attr) if attr.key.as_str() == "depends_on" => {
                let Expression::Array(items) = &attr.expr else {
                    return Err(ProvisionError::Invalid {
                        file: source.to_owned(),
                        message: format!("{address}: depends_on must be a list of resource addresses"),
                    });
                };
                for item in items {
                    depends_on.extend(refs::references(item));
                }
            }
            Structure::Attribute(attr) if attr.key.as_str() == "count" => {
                depends_on.extend(refs::references(&attr.expr));
                count = Some(attr.expr);
            }
            Structure::Attribute(attr) if attr.key.as_str() == "for_each" => {
                return Err(ProvisionError::Invalid {
                    file: source.to_owned(),
                    message: format!("{address}: for_each is not supported; use count"),
                });
            }
            Structure::Attribute(attr) if META_ARGUMENTS.contains(&attr.key.as_str()) => {}
            Structure::Block(block) if META_BLOCKS.contains(&block.identifier.as_str()) => {}
            Structure::Attribute(attr) => {
                depends_on.extend(refs::references(&attr.expr));
                kept.push(Structure::Attribute(attr));
            }
            Structure::Block(block) => {
                depends_on.extend(refs::body_references(&block.body));
                kept.push(Structure::Block(block));
            }
        }
    }
    Ok(ResourceBlock {
        address,
        body: Body::from(kept),
        count,
        depends_on,
    })
}

fn variable(source: &str, name: &str, body: &Body) -> Result<Variable> {
    let mut default = None;
    let mut description = String::new();
    for attr in body.attributes() {
        match attr.key.as_str() {
            "default" => {
                let value =
                    eval::Scope::empty()
                        .evaluate(&attr.expr)
                        .map_err(|message| ProvisionError::Evaluation {
                            file: source.to_owned(),
                            address: format!("var.{name}"),
                            message,
                        })?;
                default = Some(value);
            }
            "description" => {
                if let Expression::String(s) = &attr.expr {
                    description = s.clone();
                }
            }
            _ => {}
        }
    }
    Ok(Variable {
        name: name.to_owned(),
        default,
        description,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"
variable "suffix" {}
variable "zone" { default = "cn-hangzhou-h" }
locals { prefix = "doc-${var.suffix}" }
provider "alicloud" { region = "cn-hangzhou" }
data "alicloud_zones" "default" { available_resource_creation = "VSwitch" }
resource "alicloud_vpc" "main" {
  vpc_name   = "${local.prefix}-vpc"
  cidr_block = "192.168.0.0/16"
}
resource "alicloud_vswitch" "main" {
  vpc_id     = alicloud_vpc.main.id
  zone_id    = data.alicloud_zones.default.zones[0].id
  cidr_block = cidrsubnet(alicloud_vpc.main.cidr_block, 8, 1)
  depends_on = [alicloud_vpc.main]
  lifecycle { ignore_changes = [tags] }
}
output "vswitch" { value = alicloud_vswitch.main.id }
"#;

    #[test]
    fn reads_blocks_references_and_meta_arguments() {
        let config = Configuration::parse("t.tf", TEXT).unwrap();
        assert_eq!(config.variables.len(), 2);
        assert_eq!(config.provider_region.as_deref(), Some("cn-hangzhou"));
        let vsw = config.block("alicloud_vswitch.main").unwrap();
        assert_eq!(
            vsw.depends_on.iter().map(String::as_str).collect::<Vec<_>>(),
            ["alicloud_vpc.main", "data.alicloud_zones.default"]
        );
        assert!(
            vsw.body.blocks().next().is_none(),
            "the lifecycle meta-block is not an argument"
        );
        assert_eq!(
            config.locals[0].depends_on.iter().next().map(String::as_str),
            Some("var.suffix")
        );
        assert_eq!(config.outputs[0].name, "vswitch");
    }

    #[test]
    fn variables_take_given_values_then_defaults() {
        let config = Configuration::parse("t.tf", TEXT).unwrap();
        let missing = config.variable_values(&BTreeMap::new()).unwrap_err();
        assert!(
            matches!(&missing, ProvisionError::MissingVariable { name, file } if name == "suffix" && file == "t.tf"),
            "{missing}"
        );
        let given = BTreeMap::from([("suffix".to_owned(), serde_json::json!("ab12cd"))]);
        let values = config.variable_values(&given).unwrap();
        assert_eq!(values["zone"], "cn-hangzhou-h");
        assert_eq!(values["suffix"], "ab12cd");
    }

    #[test]
    fn bad_hcl_and_duplicates_are_typed_errors() {
        let err = Configuration::parse("bad.tf", "resource \"alicloud_vpc\" {").unwrap_err();
        assert!(
            matches!(err, ProvisionError::Syntax { ref file, .. } if file == "bad.tf"),
            "{err}"
        );
        let twice = "resource \"alicloud_vpc\" \"a\" {}\nresource \"alicloud_vpc\" \"a\" {}";
        let err = Configuration::parse("dup.tf", twice).unwrap_err();
        assert!(err.to_string().contains("alicloud_vpc.a is declared twice"), "{err}");
    }
}
