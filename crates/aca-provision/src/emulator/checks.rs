//! Before anything is created: variable values, the graph, and the static checks of a
//! configuration (known types, known and present arguments, key attributes); and the typed errors
//! evaluation and API calls turn into.

use hcl::Structure;
use serde_json::Value;

use super::CallError;
use super::types::{Attrs, data_source, resource_type, resource_types};
use crate::applier::Meta;
use crate::config::{Configuration, Mode, ResourceBlock, Scope};
use crate::error::{ProvisionError, Result};
use crate::graph::Graph;

/// Variable values, the graph, and the static checks (types, arguments, key attributes).
pub(super) fn prepare(meta: &Meta) -> Result<(Scope, Graph)> {
    let config = &meta.config;
    let values = meta.variable_values()?;
    for block in &config.blocks {
        check_block(config, block)?;
    }
    meta.check_key_attributes()?;
    let graph = Graph::build(config, &values.keys().cloned().collect())?;
    let mut scope = Scope::empty();
    for (name, value) in values {
        scope.set("var", &[&name], value);
    }
    Ok((scope, graph))
}

pub(super) fn unknown_type(config: &Configuration, block: &ResourceBlock) -> ProvisionError {
    let mut supported: Vec<&str> = resource_types().iter().map(|t| t.name()).collect();
    supported.sort_unstable();
    ProvisionError::UnknownResourceType {
        file: config.source.clone(),
        kind: block.address.kind.clone(),
        address: block.address.to_string(),
        supported: supported.join(", "),
    }
}

/// The block's type exists, it has no unknown argument and every required argument is there.
pub(super) fn check_block(config: &Configuration, block: &ResourceBlock) -> Result<()> {
    let present: Vec<String> = block
        .body
        .iter()
        .map(|s| match s {
            Structure::Attribute(a) => a.key.to_string(),
            Structure::Block(b) => b.identifier.to_string(),
        })
        .collect();
    let unknown_argument = |argument: &str| ProvisionError::UnknownArgument {
        file: config.source.clone(),
        address: block.address.to_string(),
        argument: argument.to_owned(),
    };
    match block.address.mode {
        Mode::Data => {
            let source = data_source(&block.address.kind).ok_or_else(|| ProvisionError::UnknownDataSource {
                file: config.source.clone(),
                kind: block.address.kind.clone(),
                address: block.address.to_string(),
            })?;
            if let Some(unknown) = present.iter().find(|p| !source.arguments().contains(&p.as_str())) {
                return Err(unknown_argument(unknown));
            }
        }
        Mode::Managed => {
            let kind = resource_type(&block.address.kind).ok_or_else(|| unknown_type(config, block))?;
            if let Some(unknown) = present
                .iter()
                .find(|p| !kind.arguments().iter().any(|a| a.name == p.as_str()))
            {
                return Err(unknown_argument(unknown));
            }
            for required in kind.arguments().iter().filter(|a| a.required) {
                if !present.iter().any(|p| p == required.name) {
                    return Err(ProvisionError::MissingArgument {
                        file: config.source.clone(),
                        address: block.address.to_string(),
                        argument: required.name.to_owned(),
                    });
                }
            }
        }
    }
    Ok(())
}

/// Required arguments must not evaluate to null.
pub(super) fn check_argument_values(config: &Configuration, block: &ResourceBlock, args: &Attrs) -> Result<()> {
    if block.address.mode == Mode::Data {
        return Ok(());
    }
    let Some(kind) = resource_type(&block.address.kind) else {
        return Ok(());
    };
    for required in kind.arguments().iter().filter(|a| a.required) {
        if args.get(required.name).is_none_or(Value::is_null) {
            return Err(ProvisionError::MissingArgument {
                file: config.source.clone(),
                address: block.address.to_string(),
                argument: required.name.to_owned(),
            });
        }
    }
    Ok(())
}

pub(super) fn count_of(config: &Configuration, block: &ResourceBlock, scope: &Scope) -> Result<Option<usize>> {
    let Some(expr) = &block.count else { return Ok(None) };
    let value = scope
        .evaluate(expr)
        .map_err(|m| evaluation(config, &block.address.to_string(), m))?;
    match value.as_u64() {
        Some(n) if n <= 100 => Ok(Some(n as usize)),
        _ => Err(ProvisionError::InvalidArgument {
            file: config.source.clone(),
            address: block.address.to_string(),
            argument: "count".into(),
            message: format!("{value} is not a whole number from 0 to 100"),
        }),
    }
}

pub(super) fn evaluation(config: &Configuration, address: &str, message: String) -> ProvisionError {
    ProvisionError::Evaluation {
        file: config.source.clone(),
        address: address.to_owned(),
        message,
    }
}

pub(super) fn call_error(address: &str, error: CallError) -> ProvisionError {
    match error {
        CallError::Api(source) => ProvisionError::Api {
            address: address.to_owned(),
            source,
        },
        CallError::Transport { endpoint, message } => ProvisionError::Transport { endpoint, message },
        CallError::Protocol { action, message } => ProvisionError::Protocol { action, message },
    }
}
