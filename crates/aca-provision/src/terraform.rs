//! The Terraform applier: runs a real `terraform` (or `tofu`) binary on the META's configuration,
//! for the real cloud. Without either on `PATH` every operation is [`ProvisionError::ToolMissing`].

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};
use tokio::process::Command;

use crate::applier::{Applier, DestroyReport, Meta, Plan, PlannedStep, VerifyReport};
use crate::error::{DestroyFailure, ProvisionError, Result, VerifyFailure};
use crate::state::{Done, ProvisionState, ResourceRecord};

/// Where the Terraform applier works and with which credentials.
#[derive(Clone)]
pub struct TerraformApplier {
    /// The binary: `terraform` or `tofu` found on `PATH`, or `None`.
    binary: Option<PathBuf>,
    /// Where each apply gets its own working directory.
    workspace: PathBuf,
    /// Extra environment (`ALICLOUD_ACCESS_KEY`, `ALICLOUD_SECRET_KEY`, …).
    env: Vec<(String, String)>,
}

/// Finds an executable called `name` on `PATH`.
pub fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// Names the environment it sets, never the values (they hold the secret key).
impl std::fmt::Debug for TerraformApplier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TerraformApplier")
            .field("binary", &self.binary)
            .field("workspace", &self.workspace)
            .field("env", &self.env.iter().map(|(name, _)| name).collect::<Vec<_>>())
            .finish()
    }
}

impl TerraformApplier {
    /// Uses `terraform`, else `tofu`, from `PATH`; working directories go under `workspace`.
    pub fn new(workspace: &Path) -> Self {
        Self {
            binary: find_on_path("terraform").or_else(|| find_on_path("tofu")),
            workspace: workspace.to_owned(),
            env: Vec::new(),
        }
    }

    /// Uses this binary instead of looking on `PATH`.
    pub fn with_binary(mut self, binary: Option<PathBuf>) -> Self {
        self.binary = binary;
        self
    }

    /// Credentials and settings for the provider, as environment variables.
    pub fn with_env(mut self, name: &str, value: &str) -> Self {
        self.env.push((name.to_owned(), value.to_owned()));
        self
    }

    /// Signs as `key` (the provider's `ALICLOUD_ACCESS_KEY` and `ALICLOUD_SECRET_KEY`), whatever
    /// credentials the environment holds.
    pub fn with_key(self, key: &crate::AccessKey) -> Self {
        self.with_env("ALICLOUD_ACCESS_KEY", &key.access_key_id)
            .with_env("ALICLOUD_SECRET_KEY", &key.access_key_secret)
    }

    fn binary(&self) -> Result<&Path> {
        self.binary.as_deref().ok_or(ProvisionError::ToolMissing)
    }

    fn tool_name(&self) -> String {
        self.binary
            .as_ref()
            .and_then(|b| b.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "terraform".into())
    }

    async fn run(&self, dir: &Path, args: &[&str]) -> Result<String> {
        self.run_with(dir, args, &[]).await
    }

    /// [`Self::run`] with `TF_VAR_*` values that must not be written to the working directory
    /// (the run's secrets).
    async fn run_with(&self, dir: &Path, args: &[&str], secrets: &[(String, String)]) -> Result<String> {
        let binary = self.binary()?;
        let output = Command::new(binary)
            .args(args)
            .current_dir(dir)
            .env("TF_IN_AUTOMATION", "1")
            .env("TF_INPUT", "0")
            .envs(self.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .envs(secrets.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .output()
            .await
            .map_err(|e| ProvisionError::Tool {
                tool: self.tool_name(),
                command: args.join(" "),
                status: "not started".into(),
                stderr: e.to_string(),
            })?;
        if !output.status.success() {
            return Err(ProvisionError::Tool {
                tool: self.tool_name(),
                command: args.join(" "),
                status: output.status.to_string(),
                stderr: String::from_utf8_lossy(&output.stderr).trim().to_owned(),
            });
        }
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    }

    /// Writes `main.tf` and `terraform.tfvars.json` into a fresh directory and runs `init`.
    async fn prepare(&self, meta: &Meta) -> Result<PathBuf> {
        self.binary()?;
        let dir = self.workspace.join(format!("meta-{}", meta.suffix));
        let file_error = |e: std::io::Error| ProvisionError::File {
            path: dir.clone(),
            message: e.to_string(),
        };
        std::fs::create_dir_all(&dir).map_err(file_error)?;
        // The state Terraform writes here holds what the provider marks sensitive (an AccessKey's
        // secret): only the owner may read it.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).map_err(file_error)?;
        }
        let mut text = meta.config.text.clone();
        if !text.contains("required_providers") {
            text.push_str(
                "\nterraform {\n  required_providers {\n    alicloud = {\n      source = \"aliyun/alicloud\"\n    }\n  }\n}\n",
            );
        }
        if !meta.config.variables.iter().any(|v| v.name == "suffix") {
            text.push_str("\nvariable \"suffix\" {\n  type = string\n}\n");
        }
        if meta.config.provider_region.is_none() && !text.contains("provider \"alicloud\"") {
            text.push_str(&format!(
                "\nprovider \"alicloud\" {{\n  region = \"{}\"\n}}\n",
                meta.region
            ));
        }
        std::fs::write(dir.join("main.tf"), text).map_err(file_error)?;
        // Secrets go to the commands that need them as `TF_VAR_*`, never into this file.
        let mut values = meta.variable_values()?;
        values.retain(|name, _| !meta.secrets.contains_key(name));
        let variables = serde_json::to_string_pretty(&values).map_err(|e| ProvisionError::File {
            path: dir.join("terraform.tfvars.json"),
            message: e.to_string(),
        })?;
        std::fs::write(dir.join("terraform.tfvars.json"), variables).map_err(file_error)?;
        self.run(&dir, &["init", "-input=false", "-no-color"]).await?;
        Ok(dir)
    }

    /// The state's resources as the cloud has them now (a refresh-only apply, then the state read).
    async fn refreshed(&self, state: &ProvisionState) -> Result<Vec<ResourceRecord>> {
        let dir = PathBuf::from(state.workdir.clone().unwrap_or_default());
        self.run(
            &dir,
            &["apply", "-refresh-only", "-auto-approve", "-input=false", "-no-color"],
        )
        .await?;
        self.records(&dir, &state.region).await
    }

    /// The resources Terraform's state holds, as records.
    async fn records(&self, dir: &Path, region: &str) -> Result<Vec<ResourceRecord>> {
        let shown = self.run(dir, &["show", "-json", "-no-color"]).await?;
        let state: Value = serde_json::from_str(&shown).map_err(|e| ProvisionError::Protocol {
            action: "show -json".into(),
            message: e.to_string(),
        })?;
        Ok(records_of_state(&state, region))
    }
}

/// The META's secrets as Terraform reads them from the environment.
fn secret_env(meta: &Meta) -> Vec<(String, String)> {
    meta.secrets
        .iter()
        .map(|(name, secret)| (format!("TF_VAR_{name}"), secret.expose().to_owned()))
        .collect()
}

/// The resources of `terraform show -json`, as records. Values the provider marks sensitive (an
/// AccessKey's secret, a password) are left out: the state file keeps them, the records never do.
fn records_of_state(state: &Value, region: &str) -> Vec<ResourceRecord> {
    let resources = state
        .pointer("/values/root_module/resources")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    resources
        .iter()
        .map(|r| {
            let text = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
            let mut attributes = r.get("values").and_then(Value::as_object).cloned().unwrap_or_default();
            if let Some(sensitive) = r.get("sensitive_values").and_then(Value::as_object) {
                attributes.retain(|name, _| sensitive.get(name) != Some(&Value::Bool(true)));
            }
            ResourceRecord {
                address: text("address"),
                kind: text("type"),
                name: text("name"),
                index: r.get("index").and_then(Value::as_u64).map(|i| i as usize),
                id: attributes.get("id").and_then(Value::as_str).unwrap_or("").to_owned(),
                region: region.to_owned(),
                product: crate::emulator::types::resource_type(&text("type"))
                    .map_or_else(|| "alicloud".to_owned(), |t| t.product().to_owned()),
                attributes,
                done: if text("mode") == "data" {
                    Done::Read
                } else {
                    Done::Created
                },
            }
        })
        .collect()
}

impl Applier for TerraformApplier {
    fn name(&self) -> &'static str {
        "terraform"
    }

    async fn plan(&self, meta: &Meta) -> Result<Plan> {
        let dir = self.prepare(meta).await?;
        self.run_with(
            &dir,
            &["plan", "-input=false", "-no-color", "-out=tfplan"],
            &secret_env(meta),
        )
        .await?;
        let shown = self.run(&dir, &["show", "-json", "-no-color", "tfplan"]).await?;
        let plan: Value = serde_json::from_str(&shown).map_err(|e| ProvisionError::Protocol {
            action: "show -json tfplan".into(),
            message: e.to_string(),
        })?;
        let steps = plan
            .get("resource_changes")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|change| PlannedStep {
                address: change.get("address").and_then(Value::as_str).unwrap_or("").to_owned(),
                action: change
                    .pointer("/change/actions/0")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned(),
                operation: String::new(),
                arguments: change
                    .pointer("/change/after")
                    .and_then(Value::as_object)
                    .cloned()
                    .unwrap_or_default(),
                depends_on: Vec::new(),
            })
            .collect();
        Ok(Plan {
            region: meta.region.clone(),
            suffix: meta.suffix.to_string(),
            steps,
        })
    }

    async fn apply(&self, meta: &Meta) -> Result<ProvisionState> {
        let dir = self.prepare(meta).await?;
        let mut state = ProvisionState {
            applier: self.name().into(),
            source: meta.config.source.clone(),
            endpoint: String::new(),
            region: meta.region.clone(),
            suffix: meta.suffix.to_string(),
            resources: Vec::new(),
            outputs: Map::new(),
            workdir: Some(dir.to_string_lossy().into_owned()),
        };
        if let Err(cause) = self
            .run_with(
                &dir,
                &["apply", "-auto-approve", "-input=false", "-no-color"],
                &secret_env(meta),
            )
            .await
        {
            let report = self.destroy(&mut state).await;
            return Err(ProvisionError::ApplyFailed {
                cause: Box::new(cause),
                destroyed: report.destroyed,
                leftovers: report.failures,
            });
        }
        state.resources = self.records(&dir, &meta.region).await?;
        let outputs = self.run(&dir, &["output", "-json", "-no-color"]).await?;
        if let Ok(Value::Object(map)) = serde_json::from_str::<Value>(&outputs) {
            for (name, output) in map {
                state
                    .outputs
                    .insert(name, output.get("value").cloned().unwrap_or(Value::Null));
            }
        }
        Ok(state)
    }

    async fn verify(&self, meta: &Meta, state: &ProvisionState) -> Result<VerifyReport> {
        let records = self.refreshed(state).await?;
        let mut failures = Vec::new();
        let mut checked = Vec::new();
        for expected in state.created() {
            if !records.iter().any(|r| r.address == expected.address) {
                failures.push(VerifyFailure::Missing {
                    resource: expected.address.clone(),
                    id: expected.id.clone(),
                });
            }
        }
        for key in &meta.key_attributes {
            let Some(record) = records.iter().find(|r| r.address == key.resource) else {
                failures.push(VerifyFailure::NotInConfiguration {
                    resource: key.resource.clone(),
                });
                continue;
            };
            match record.attribute(&key.attribute) {
                None => failures.push(VerifyFailure::NoSuchAttribute {
                    resource: key.resource.clone(),
                    attribute: key.attribute.clone(),
                    expected: key.value.clone(),
                }),
                Some(found) if found == key.value => {
                    checked.push((key.resource.clone(), key.attribute.clone(), key.value.clone()))
                }
                Some(found) => failures.push(VerifyFailure::Mismatch {
                    resource: key.resource.clone(),
                    attribute: key.attribute.clone(),
                    expected: key.value.clone(),
                    found,
                }),
            }
        }
        if failures.is_empty() {
            Ok(VerifyReport {
                resources: records.iter().map(|r| r.address.clone()).collect(),
                checked,
            })
        } else {
            Err(ProvisionError::Verify { failures })
        }
    }

    async fn gone(&self, state: &ProvisionState) -> Result<Vec<String>> {
        let records = self.refreshed(state).await?;
        Ok(state
            .created()
            .filter(|expected| !records.iter().any(|r| r.address == expected.address))
            .map(|r| r.address.clone())
            .collect())
    }

    async fn destroy(&self, state: &mut ProvisionState) -> DestroyReport {
        let mut report = DestroyReport::default();
        let Some(dir) = state.workdir.clone().map(PathBuf::from) else {
            return report;
        };
        match self
            .run(&dir, &["destroy", "-auto-approve", "-input=false", "-no-color"])
            .await
        {
            Ok(_) => {
                report.destroyed = state.created().map(|r| r.address.clone()).collect();
                state.resources.clear();
            }
            Err(e) => report.failures.push(DestroyFailure {
                resource: "(all)".into(),
                id: dir.to_string_lossy().into_owned(),
                error: e.to_string(),
            }),
        }
        report
    }
}

#[cfg(test)]
mod tests {
    use aca_core::ResourceMeta;

    use super::*;
    use crate::suffix::Suffix;

    #[test]
    fn what_the_provider_marks_sensitive_never_reaches_the_records() {
        let shown = serde_json::json!({
            "values": { "root_module": { "resources": [{
                "address": "alicloud_ram_access_key.key",
                "mode": "managed",
                "type": "alicloud_ram_access_key",
                "name": "key",
                "values": {
                    "id": "LTAI5tExample",
                    "secret": "s3cr3tValueThatMustNotLeak",
                    "status": "Active",
                    "user_name": "doc-user",
                    "tags": {}
                },
                "sensitive_values": { "secret": true, "tags": {} }
            }]}}
        });
        let records = records_of_state(&shown, "cn-hangzhou");
        let key = &records[0];
        assert_eq!(key.id, "LTAI5tExample");
        assert!(!key.attributes.contains_key("secret"), "{:?}", key.attributes);
        assert!(key.attributes.contains_key("status") && key.attributes.contains_key("tags"));
    }

    /// A META of one VPC.
    fn vpc_meta() -> Meta {
        Meta::new(
            "t.tf",
            &ResourceMeta {
                description: "A VPC.".into(),
                key_attributes: Vec::new(),
                terraform: "resource \"alicloud_vpc\" \"v\" { vpc_name = \"v-${var.suffix}\" }".into(),
            },
            "cn-hangzhou",
            Suffix::random(),
        )
        .unwrap()
    }

    #[tokio::test]
    async fn without_a_binary_every_operation_says_the_tool_is_missing() {
        let workspace = tempfile::tempdir().unwrap();
        let applier = TerraformApplier::new(workspace.path()).with_binary(None);
        let meta = vpc_meta();
        let err = applier.apply(&meta).await.unwrap_err();
        assert!(matches!(err, ProvisionError::ToolMissing), "{err}");
        assert!(
            err.to_string().contains("neither terraform nor tofu is installed"),
            "{err}"
        );
        assert!(matches!(applier.plan(&meta).await, Err(ProvisionError::ToolMissing)));
        assert!(
            std::fs::read_dir(workspace.path()).unwrap().next().is_none(),
            "nothing is written without a binary"
        );
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn the_binary_signs_as_the_given_key_and_debug_output_never_shows_it() {
        use std::os::unix::fs::PermissionsExt;
        // A stand-in for terraform (no provider can be downloaded here): it writes down the
        // credentials it was started with, then fails `init`.
        let workspace = tempfile::tempdir().unwrap();
        let seen = workspace.path().join("seen");
        let binary = workspace.path().join("terraform");
        std::fs::write(
            &binary,
            format!(
                "#!/bin/sh\necho \"$ALICLOUD_ACCESS_KEY $ALICLOUD_SECRET_KEY\" > {}\nexit 1\n",
                seen.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o700)).unwrap();
        let key = crate::AccessKey {
            access_key_id: "LTAI5tRunKey".into(),
            access_key_secret: "secretOfTheRun".into(),
        };
        let applier = TerraformApplier::new(&workspace.path().join("work"))
            .with_binary(Some(binary))
            .with_key(&key);
        let meta = vpc_meta();
        assert!(applier.apply(&meta).await.is_err());
        assert_eq!(std::fs::read_to_string(&seen).unwrap().trim(), "LTAI5tRunKey secretOfTheRun");
        let shown = format!("{applier:?}");
        assert!(shown.contains("ALICLOUD_SECRET_KEY") && !shown.contains("secretOfTheRun"), "{shown}");
    }
}
