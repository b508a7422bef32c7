//! The emulator applier: interprets a META's configuration against the signed OpenAPI (of the
//! bundled emulator, or any endpoint that speaks it), in dependency order, waiting out asynchronous
//! states, and destroys in reverse order, also after a failed apply.

use std::collections::BTreeSet;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::applier::{Applier, DestroyReport, Meta, Plan, VerifyReport};
use crate::config::{Mode, ResourceBlock, Scope};
use crate::error::{DestroyFailure, ProvisionError, Result};
use crate::graph::{Graph, Node};
use crate::state::{Done, ProvisionState, ResourceRecord};

mod checks;
pub mod client;
pub mod local;
mod plan;
pub mod types;
mod verify;

use checks::{call_error, check_argument_values, count_of, evaluation, prepare, unknown_type};
pub use client::{AccessKey, CallError, Client};
use types::{Attrs, Cx, ResourceType, data_source, resource_type, scalar};

/// How long and how often to poll for asynchronous states.
#[derive(Debug, Clone, Copy)]
pub struct WaitPolicy {
    pub interval: Duration,
    pub timeout: Duration,
}

impl Default for WaitPolicy {
    fn default() -> Self {
        Self {
            interval: Duration::from_millis(100),
            timeout: Duration::from_secs(120),
        }
    }
}

/// What the applier is doing, for a caller that shows progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Progress {
    /// A create call is about to be made.
    Creating {
        address: String,
        operation: String,
    },
    /// Waiting for `attribute` to reach one of `states`.
    Waiting {
        address: String,
        attribute: String,
        states: Vec<String>,
    },
    Created {
        address: String,
        id: String,
    },
    /// A data source was read.
    Read {
        address: String,
    },
    Destroyed {
        address: String,
    },
}

/// Receives [`Progress`] as it happens.
pub type ProgressSink = std::sync::Arc<dyn Fn(&Progress) + Send + Sync>;

/// Applies configurations through one account's AccessKey.
#[derive(Clone)]
pub struct EmulatorApplier {
    client: Client,
    wait: WaitPolicy,
    progress: Option<ProgressSink>,
}

impl std::fmt::Debug for EmulatorApplier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmulatorApplier")
            .field("client", &self.client)
            .field("wait", &self.wait)
            .finish_non_exhaustive()
    }
}

impl EmulatorApplier {
    pub fn new(endpoint: &str, key: AccessKey) -> Result<Self> {
        let client = Client::new(endpoint, key).map_err(|e| call_error("", e))?;
        Ok(Self {
            client,
            wait: WaitPolicy::default(),
            progress: None,
        })
    }

    /// Reports each step to `sink` as it happens.
    pub fn with_progress(mut self, sink: ProgressSink) -> Self {
        self.progress = Some(sink);
        self
    }

    fn report(&self, event: Progress) {
        if let Some(sink) = &self.progress {
            sink(&event);
        }
    }

    pub fn with_wait(mut self, wait: WaitPolicy) -> Self {
        self.wait = wait;
        self
    }

    fn cx<'a>(&'a self, region: &'a str) -> Cx<'a> {
        Cx {
            client: &self.client,
            region,
        }
    }

    /// Polls `read` until `attribute` is one of `states`; returns the attributes then.
    async fn wait_for(
        &self,
        kind: &dyn ResourceType,
        cx: Cx<'_>,
        address: &str,
        id: &str,
        args: &Attrs,
        (attribute, states): (String, Vec<String>),
    ) -> Result<Attrs> {
        self.report(Progress::Waiting {
            address: address.to_owned(),
            attribute: attribute.clone(),
            states: states.clone(),
        });
        let started = tokio::time::Instant::now();
        loop {
            let attrs = kind
                .read(cx, id, args)
                .await
                .map_err(|e| call_error(address, e))?
                .ok_or_else(|| ProvisionError::Protocol {
                    action: format!("reading {address}"),
                    message: format!("{id} disappeared while waiting for {attribute} {}", states.join("/")),
                })?;
            let current = attrs.get(&attribute).and_then(scalar).unwrap_or_default();
            if states.contains(&current) {
                return Ok(attrs);
            }
            if started.elapsed() >= self.wait.timeout {
                return Err(ProvisionError::StuckInTransition {
                    address: address.to_owned(),
                    id: id.to_owned(),
                    status: current,
                    wanted: states.join(" or "),
                    waited_ms: started.elapsed().as_millis() as u64,
                });
            }
            tokio::time::sleep(self.wait.interval).await;
        }
    }

    /// Creates one instance of a block; pushes its record as soon as it exists.
    async fn create_one(
        &self,
        kind: &dyn ResourceType,
        block: &ResourceBlock,
        index: Option<usize>,
        args: Attrs,
        region: &str,
        state: &mut ProvisionState,
    ) -> Result<Attrs> {
        let address = match index {
            Some(i) => format!("{}[{i}]", block.address),
            None => block.address.to_string(),
        };
        let cx = self.cx(region);
        self.report(Progress::Creating {
            address: address.clone(),
            operation: kind.operation().to_owned(),
        });
        let id = kind.create(cx, &args).await.map_err(|e| call_error(&address, e))?;
        let mut attributes = args.clone();
        attributes.insert("id".into(), Value::String(id.clone()));
        state.resources.push(ResourceRecord {
            address: address.clone(),
            kind: block.address.kind.clone(),
            name: block.address.name.clone(),
            index,
            id: id.clone(),
            region: region.to_owned(),
            product: kind.product().to_owned(),
            attributes: without_secrets(&attributes),
            done: Done::Created,
        });
        let mut current = match kind.ready(&args) {
            Some(wanted) => self.wait_for(kind, cx, &address, &id, &args, wanted).await?,
            None => Attrs::new(),
        };
        if let Some(wanted) = kind.settle(cx, &id, &args).await.map_err(|e| call_error(&address, e))? {
            current = self.wait_for(kind, cx, &address, &id, &args, wanted).await?;
        }
        if current.is_empty() {
            current = kind
                .read(cx, &id, &args)
                .await
                .map_err(|e| call_error(&address, e))?
                .unwrap_or_default();
        }
        attributes.extend(current);
        attributes.insert("id".into(), Value::String(id.clone()));
        self.report(Progress::Created { address, id });
        if let Some(record) = state.resources.last_mut() {
            record.attributes = without_secrets(&attributes);
        }
        Ok(attributes)
    }

    async fn apply_blocks(&self, meta: &Meta, prepared: (Scope, Graph), state: &mut ProvisionState) -> Result<()> {
        let (mut scope, graph) = prepared;
        let config = &meta.config;
        for node in &graph.order {
            match *node {
                Node::Local(i) => {
                    let local = &config.locals[i];
                    let value = scope
                        .evaluate(&local.expr)
                        .map_err(|m| evaluation(config, &format!("local.{}", local.name), m))?;
                    scope.set("local", &[&local.name], value);
                }
                Node::Block(i) => {
                    let block = &config.blocks[i];
                    let count = count_of(config, block, &scope)?;
                    let mut instances = Vec::new();
                    for index in count.map_or(vec![None], |n| (0..n).map(Some).collect()) {
                        let local_scope = index.map_or_else(|| scope.clone(), |i| scope.with_count_index(i));
                        let args = local_scope
                            .evaluate_body(&block.body)
                            .map_err(|m| evaluation(config, &block.address.to_string(), m))?;
                        check_argument_values(config, block, &args)?;
                        let attrs = match block.address.mode {
                            Mode::Data => self.read_data(block, index, args, &meta.region, state).await?,
                            Mode::Managed => {
                                let kind =
                                    resource_type(&block.address.kind).ok_or_else(|| unknown_type(config, block))?;
                                self.create_one(kind, block, index, args, &meta.region, state).await?
                            }
                        };
                        instances.push(Value::Object(attrs));
                    }
                    let value = match count {
                        Some(_) => Value::Array(instances),
                        None => instances.pop().unwrap_or(Value::Null),
                    };
                    match block.address.mode {
                        Mode::Data => scope.set("data", &[&block.address.kind, &block.address.name], value),
                        Mode::Managed => scope.set(&block.address.kind, &[&block.address.name], value),
                    }
                }
            }
        }
        for output in &config.outputs {
            let value = scope
                .evaluate(&output.expr)
                .map_err(|m| evaluation(config, &format!("output.{}", output.name), m))?;
            state.outputs.insert(output.name.clone(), value);
        }
        Ok(())
    }

    async fn read_data(
        &self,
        block: &ResourceBlock,
        index: Option<usize>,
        args: Attrs,
        region: &str,
        state: &mut ProvisionState,
    ) -> Result<Attrs> {
        let address = block.address.to_string();
        let source = data_source(&block.address.kind).ok_or_else(|| ProvisionError::UnknownDataSource {
            file: state.source.clone(),
            kind: block.address.kind.clone(),
            address: address.clone(),
        })?;
        let mut attrs = source
            .read(self.cx(region), &args)
            .await
            .map_err(|e| call_error(&address, e))?;
        let id = format!("{}-{}", block.address.kind, block.address.name);
        for (k, v) in args {
            attrs.entry(k).or_insert(v);
        }
        attrs.insert("id".into(), Value::String(id.clone()));
        if index.is_none_or(|i| i == 0) {
            self.report(Progress::Read {
                address: address.clone(),
            });
        }
        state.resources.push(ResourceRecord {
            address,
            kind: block.address.kind.clone(),
            name: block.address.name.clone(),
            index,
            id,
            region: region.to_owned(),
            product: "data source".into(),
            attributes: attrs.clone(),
            done: Done::Read,
        });
        Ok(attrs)
    }

    async fn destroy_one(&self, record: &ResourceRecord) -> std::result::Result<bool, String> {
        let kind = resource_type(&record.kind).ok_or_else(|| format!("unknown resource type {}", record.kind))?;
        let cx = self.cx(&record.region);
        match kind.delete(cx, &record.id, &record.attributes).await {
            Ok(()) => {}
            Err(CallError::Api(e)) if e.is_not_found() => return Ok(false),
            Err(e) => return Err(e.to_string()),
        }
        // Deletion can be asynchronous: wait until the resource is gone.
        let started = tokio::time::Instant::now();
        loop {
            match kind.read(cx, &record.id, &record.attributes).await {
                Ok(None) => return Ok(true),
                Ok(Some(_)) if started.elapsed() < self.wait.timeout => tokio::time::sleep(self.wait.interval).await,
                Ok(Some(attrs)) => {
                    let status = attrs.get("status").and_then(scalar).unwrap_or_default();
                    return Err(format!(
                        "still exists {} ms after it was deleted (status {status:?})",
                        started.elapsed().as_millis()
                    ));
                }
                Err(e) => return Err(format!("deleted, but reading it back failed: {e}")),
            }
        }
    }
}

impl Applier for EmulatorApplier {
    fn name(&self) -> &'static str {
        "emulator"
    }

    async fn plan(&self, meta: &Meta) -> Result<Plan> {
        self.plan_configuration(meta).await
    }

    async fn apply(&self, meta: &Meta) -> Result<ProvisionState> {
        // Bad templates are refused before anything is created.
        let prepared = prepare(meta)?;
        let mut state = ProvisionState {
            applier: self.name().into(),
            source: meta.config.source.clone(),
            endpoint: self.client.endpoint().to_owned(),
            region: meta.region.clone(),
            suffix: meta.suffix.to_string(),
            resources: Vec::new(),
            outputs: Map::new(),
            workdir: None,
        };
        match self.apply_blocks(meta, prepared, &mut state).await {
            Ok(()) => Ok(state),
            Err(cause) => {
                let report = self.destroy(&mut state).await;
                Err(ProvisionError::ApplyFailed {
                    cause: Box::new(cause),
                    destroyed: report.destroyed,
                    leftovers: report.failures,
                })
            }
        }
    }

    async fn verify(&self, meta: &Meta, state: &ProvisionState) -> Result<VerifyReport> {
        self.verify_state(meta, state).await
    }

    async fn gone(&self, state: &ProvisionState) -> Result<Vec<String>> {
        self.gone_from(state).await
    }

    async fn destroy(&self, state: &mut ProvisionState) -> DestroyReport {
        let mut report = DestroyReport::default();
        let created: Vec<ResourceRecord> = state.created().rev().cloned().collect();
        let mut gone = BTreeSet::new();
        for record in created {
            match self.destroy_one(&record).await {
                Ok(true) => {
                    self.report(Progress::Destroyed {
                        address: record.address.clone(),
                    });
                    report.destroyed.push(record.address.clone());
                }
                Ok(false) => report.already_gone.push(record.address.clone()),
                Err(error) => {
                    report.failures.push(DestroyFailure {
                        resource: record.address.clone(),
                        id: record.id.clone(),
                        error,
                    });
                    continue;
                }
            }
            gone.insert(record.address);
        }
        state
            .resources
            .retain(|r| r.done == Done::Created && !gone.contains(&r.address));
        report
    }
}

/// Arguments the alicloud provider marks sensitive: never kept in the records, which are written
/// to disk and shown in reports, as the Terraform path leaves them out of its state too.
const SECRET_ARGUMENTS: &[&str] = &["password", "account_password", "private_key", "secret"];

/// A resource's attributes as its record keeps them: without its secrets.
fn without_secrets(attributes: &Attrs) -> Attrs {
    let mut kept = attributes.clone();
    kept.retain(|name, _| !SECRET_ARGUMENTS.contains(&name.as_str()));
    kept
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{Attrs, without_secrets};

    #[test]
    fn a_record_keeps_no_password_or_private_key() {
        let attributes: Attrs = serde_json::from_value(json!({
            "id": "cert-1",
            "server_certificate_name": "doc-cert",
            "private_key": "-----BEGIN PRIVATE KEY-----",
            "password": "Aca#x2026x",
        }))
        .unwrap();
        let kept = without_secrets(&attributes);
        assert_eq!(kept.keys().collect::<Vec<_>>(), ["id", "server_certificate_name"]);
    }
}
