//! The one interface both appliers implement (plan, apply, verify, destroy), and the META a
//! provisioning starts from: a parsed configuration, its key attributes, the run's suffix and region.

use std::collections::BTreeMap;
use std::future::Future;

use aca_core::{KeyAttribute, ResourceMeta};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::config::Configuration;
use crate::error::{DestroyFailure, ProvisionError, Result};
use crate::secret::{SECRET_VARIABLES, Secret};
use crate::state::ProvisionState;
use crate::suffix::Suffix;

/// A META ready to provision: D, K and the configuration (C_create / C_destroy), with the values
/// of this run (the unique suffix, the region, other variables).
#[derive(Debug, Clone)]
pub struct Meta {
    pub description: String,
    pub key_attributes: Vec<KeyAttribute>,
    pub config: Configuration,
    pub region: String,
    pub suffix: Suffix,
    /// Variable values besides `suffix`.
    pub variables: BTreeMap<String, Value>,
    /// Values of the secret variables the configuration declares (`password`), made for this run.
    pub secrets: BTreeMap<String, Secret>,
}

impl Meta {
    /// Parses the META's configuration; `source` names it in errors (the task file).
    pub fn new(source: &str, meta: &ResourceMeta, region: &str, suffix: Suffix) -> Result<Self> {
        let config = Configuration::parse(source, &meta.terraform)?;
        let region = config.provider_region.clone().unwrap_or_else(|| region.to_owned());
        let secrets = config
            .variables
            .iter()
            .filter(|v| SECRET_VARIABLES.iter().any(|(name, _)| *name == v.name))
            .map(|v| (v.name.clone(), Secret::generate()))
            .collect();
        Ok(Self {
            description: meta.description.clone(),
            key_attributes: meta.key_attributes.clone(),
            config,
            region,
            suffix,
            variables: BTreeMap::new(),
            secrets,
        })
    }

    /// Every variable value of this run: `suffix`, `region`, then the given ones, then defaults.
    pub fn variable_values(&self) -> Result<BTreeMap<String, Value>> {
        let mut given = self.variables.clone();
        given.insert("suffix".to_owned(), Value::String(self.suffix.to_string()));
        for (name, secret) in &self.secrets {
            given.insert(name.clone(), Value::String(secret.expose().to_owned()));
        }
        if self.config.variables.iter().any(|v| v.name == "region") {
            given
                .entry("region".to_owned())
                .or_insert_with(|| Value::String(self.region.clone()));
        }
        self.config.variable_values(&given)
    }

    /// Key attributes must name resources the configuration creates.
    pub fn check_key_attributes(&self) -> Result<()> {
        for key in &self.key_attributes {
            let block = key.resource.split('[').next().unwrap_or(&key.resource);
            if self.config.resources().all(|b| b.address.to_string() != block) {
                return Err(ProvisionError::Invalid {
                    file: self.config.source.clone(),
                    message: format!(
                        "the key attribute {}.{} names a resource the configuration does not create",
                        key.resource, key.attribute
                    ),
                });
            }
        }
        Ok(())
    }
}

/// What an apply would do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub region: String,
    pub suffix: String,
    pub steps: Vec<PlannedStep>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlannedStep {
    pub address: String,
    /// `create` or `read`.
    pub action: String,
    /// The API operation the emulator applier calls (empty for the Terraform applier).
    pub operation: String,
    /// The arguments as far as they are known before apply (`(known after apply)` otherwise).
    pub arguments: serde_json::Map<String, Value>,
    pub depends_on: Vec<String>,
}

impl Plan {
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "Plan: {} to create in {} (suffix {})\n",
            self.steps.iter().filter(|s| s.action == "create").count(),
            self.region,
            self.suffix
        );
        for step in &self.steps {
            out.push_str(&format!("  {} {}", step.action, step.address));
            if !step.operation.is_empty() {
                out.push_str(&format!(" ({})", step.operation));
            }
            if !step.depends_on.is_empty() {
                out.push_str(&format!(" after {}", step.depends_on.join(", ")));
            }
            out.push('\n');
        }
        out
    }
}

/// The key attributes that were checked, all holding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerifyReport {
    /// Resources found to exist.
    pub resources: Vec<String>,
    /// (resource, attribute, value) of every key attribute checked.
    pub checked: Vec<(String, String, String)>,
}

/// What a destroy removed and what it could not.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DestroyReport {
    pub destroyed: Vec<String>,
    /// Resources that were already gone (a destroy run twice finds them so).
    pub already_gone: Vec<String>,
    pub failures: Vec<DestroyFailure>,
}

impl DestroyReport {
    pub fn into_result(self) -> Result<Self> {
        if self.failures.is_empty() {
            Ok(self)
        } else {
            Err(ProvisionError::Destroy {
                failures: self.failures,
            })
        }
    }
}

/// Applies, verifies and destroys a META: against the emulator's OpenAPI or with Terraform.
pub trait Applier: Send + Sync {
    /// `emulator` or `terraform`.
    fn name(&self) -> &'static str;

    /// What apply would do, without changing anything.
    fn plan(&self, meta: &Meta) -> impl Future<Output = Result<Plan>> + Send;

    /// Creates every resource in dependency order and waits for their ready states. On failure,
    /// destroys what it had created and returns [`ProvisionError::ApplyFailed`].
    fn apply(&self, meta: &Meta) -> impl Future<Output = Result<ProvisionState>> + Send;

    /// Checks that every created resource exists and that every key attribute holds.
    fn verify(&self, meta: &Meta, state: &ProvisionState) -> impl Future<Output = Result<VerifyReport>> + Send;

    /// Destroys in reverse dependency order, removing each destroyed resource from `state`; keeps
    /// going past failures and reports them all. Running it again is harmless.
    fn destroy(&self, state: &mut ProvisionState) -> impl Future<Output = DestroyReport> + Send;

    /// The addresses of `state`'s created resources that no longer exist: the procedure itself
    /// deleted them (a page's Method 1 revokes what its Method 2 revokes again).
    fn gone(&self, state: &ProvisionState) -> impl Future<Output = Result<Vec<String>>> + Send;
}
