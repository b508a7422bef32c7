//! The emulator applier's plan: the graph walked without creating anything; data sources are read
//! (they change nothing), resources get placeholders for what is known only after apply.

use hcl::Structure;
use serde_json::{Map, Value};

use super::EmulatorApplier;
use super::checks::{prepare, unknown_type};
use super::types::resource_type;
use crate::applier::{Applier, Meta, Plan, PlannedStep};
use crate::config::Mode;
use crate::error::Result;
use crate::graph::Node;
use crate::state::ProvisionState;

const KNOWN_AFTER_APPLY: &str = "(known after apply)";

impl EmulatorApplier {
    pub(super) async fn plan_configuration(&self, meta: &Meta) -> Result<Plan> {
        let (mut scope, graph) = prepare(meta)?;
        let config = &meta.config;
        let mut steps = Vec::new();
        let mut scratch = ProvisionState {
            applier: self.name().into(),
            source: config.source.clone(),
            endpoint: self.client.endpoint().to_owned(),
            region: meta.region.clone(),
            suffix: meta.suffix.to_string(),
            resources: Vec::new(),
            outputs: Map::new(),
            workdir: None,
        };
        for node in &graph.order {
            match *node {
                Node::Local(i) => {
                    let local = &config.locals[i];
                    let value = scope
                        .evaluate(&local.expr)
                        .unwrap_or_else(|_| Value::String(KNOWN_AFTER_APPLY.into()));
                    scope.set("local", &[&local.name], value);
                }
                Node::Block(i) => {
                    let block = &config.blocks[i];
                    let address = block.address.to_string();
                    let mut arguments = Map::new();
                    for structure in block.body.iter() {
                        if let Structure::Attribute(attr) = structure {
                            let value = scope
                                .with_count_index(0)
                                .evaluate(&attr.expr)
                                .unwrap_or_else(|_| Value::String(KNOWN_AFTER_APPLY.into()));
                            arguments.insert(attr.key.to_string(), value);
                        }
                    }
                    let depends_on: Vec<String> = graph
                        .block_dependencies
                        .get(&address)
                        .map(|deps| deps.iter().cloned().collect())
                        .unwrap_or_default();
                    let (action, operation) = match block.address.mode {
                        Mode::Data => {
                            let attrs = self
                                .read_data(block, None, arguments.clone(), &meta.region, &mut scratch)
                                .await?;
                            scope.set(
                                "data",
                                &[&block.address.kind, &block.address.name],
                                Value::Object(attrs),
                            );
                            ("read", String::new())
                        }
                        Mode::Managed => {
                            let kind = resource_type(&block.address.kind).ok_or_else(|| unknown_type(config, block))?;
                            let mut placeholder = arguments.clone();
                            for name in kind.computed().into_iter().chain(["id"]) {
                                placeholder
                                    .entry(name.to_owned())
                                    .or_insert_with(|| Value::String(KNOWN_AFTER_APPLY.into()));
                            }
                            let value = match block.count {
                                Some(_) => Value::Array(vec![Value::Object(placeholder)]),
                                None => Value::Object(placeholder),
                            };
                            scope.set(&block.address.kind, &[&block.address.name], value);
                            ("create", kind.operation().to_owned())
                        }
                    };
                    steps.push(PlannedStep {
                        address,
                        action: action.into(),
                        operation,
                        arguments,
                        depends_on,
                    });
                }
            }
        }
        Ok(Plan {
            region: meta.region.clone(),
            suffix: meta.suffix.to_string(),
            steps,
        })
    }
}
