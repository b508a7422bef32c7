//! The resources a page needs, provisioned before its episode from the page's Resource META and
//! destroyed after it, whatever happened in between; and what the agent asks for during the
//! episode, written and applied by the ResourceCoder.
//!
//! In an emulator account this is aca-provision's [`RunProvisioning`] (the provisioner acts as its
//! own RAM user, so the rule channel can leave its calls out); in a real account Terraform applies
//! the META with its own credentials, and requests during the episode are refused.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use aca_agent::ResourceReport;
use aca_core::TaskSpec;
use aca_provision::coder::ModelGenerator;
use aca_provision::run::{apply_and_verify, names_and_ids};
use aca_provision::{
    AccessKey, Applier, EmulatorApplier, Meta, PageContext, ProvisionState, ResourceCoder, RunProvisioning, Suffix,
    TerraformApplier, Told,
};
use aca_reward::ProvisionerCalls;

use super::drive::{Provide, Provisioner};
use super::target::RunAccount;

pub use aca_provision::run::RUNTIME_NOTE;

/// What was created for one run with [`provision`].
pub struct Provisioned {
    pub state: ProvisionState,
    /// `${suffix}`, `${vpc_id}`, … for the success rule and the procedure's values.
    pub bindings: BTreeMap<String, String>,
    /// What the agent is told exists.
    pub report: ResourceReport,
}

/// Which applier creates the resources.
pub enum Provider {
    /// The bundled emulator's signed OpenAPI at this endpoint.
    Emulator(String),
    /// A real `terraform`/`tofu` binary (for a real cloud account).
    Terraform(PathBuf),
}

/// The applier for an account: its emulator's OpenAPI, or Terraform (working in `report_dir`).
pub fn provider(account: &RunAccount, report_dir: &Path) -> Provider {
    if account.emulator {
        Provider::Emulator(account.console_url.clone())
    } else {
        Provider::Terraform(report_dir.join("terraform"))
    }
}

/// Applies and verifies the task's META, signing with `key`. `Ok(None)` when the page needs nothing.
pub async fn provision(
    provider: &Provider,
    key: &AccessKey,
    source: &str,
    task: &TaskSpec,
) -> Result<Option<Provisioned>, String> {
    let Some(resource_meta) = &task.meta else {
        return Ok(None);
    };
    let meta = Meta::new(source, resource_meta, &task.region, Suffix::random()).map_err(|e| e.to_string())?;
    let state = match provider {
        Provider::Emulator(endpoint) => {
            let applier = EmulatorApplier::new(endpoint, key.clone()).map_err(|e| e.to_string())?;
            apply_and_verify(&applier, &meta).await?
        }
        Provider::Terraform(workspace) => apply_and_verify(&TerraformApplier::new(workspace).with_key(key), &meta).await?,
    };
    let structured = aca_provision::ResourceReport::new(&meta.description, &state, &meta.key_attributes);
    Ok(Some(Provisioned {
        bindings: aca_provision::bindings(&state),
        report: ResourceReport {
            text: structured.to_text(),
            names: names_and_ids(&state),
            secrets: Vec::new(),
        },
        state,
    }))
}

/// Destroys what [`provision`] created; returns what could not be destroyed, in words.
pub async fn destroy(provider: &Provider, key: &AccessKey, mut provisioned: Provisioned) -> Vec<String> {
    let report = match provider {
        Provider::Emulator(endpoint) => match EmulatorApplier::new(endpoint, key.clone()) {
            Ok(applier) => applier.destroy(&mut provisioned.state).await,
            Err(e) => return vec![e.to_string()],
        },
        Provider::Terraform(workspace) => {
            TerraformApplier::new(workspace)
                .with_key(key)
                .destroy(&mut provisioned.state)
                .await
        }
    };
    report
        .failures
        .iter()
        .map(|f| format!("{} {}: {}", f.resource, f.id, f.error))
        .collect()
}

/// The account's own (root) AccessKey.
pub fn root_key(account: &RunAccount) -> AccessKey {
    AccessKey {
        access_key_id: account.access_key_id.clone(),
        access_key_secret: account.access_key_secret.clone(),
    }
}

fn told(t: &Told) -> ResourceReport {
    ResourceReport {
        text: t.text.clone(),
        names: t.names.clone(),
        secrets: t.secrets.clone(),
    }
}

/// Who provisions one run's resources.
pub enum RunResources {
    /// An emulator account, as the provisioner's own RAM user: the META before the episode and the
    /// agent's requests during it (when `runtime` is on).
    Emulator { run: Box<RunProvisioning>, runtime: bool },
    /// A real account, with Terraform: the META before the episode only.
    Terraform {
        provider: Provider,
        key: AccessKey,
        provisioned: Option<Box<Provisioned>>,
    },
    /// Nothing to provision, and requests during the episode are refused.
    Nothing,
}

impl RunResources {
    /// Sets up the provisioning of a run in `account`: `needs_meta` when the page's META will be
    /// applied, `runtime` when the agent's requests are answered; `model` helps the ResourceCoder
    /// with requests its rules do not understand.
    pub async fn start(
        account: &RunAccount,
        page: PageContext,
        report_dir: &Path,
        needs_meta: bool,
        runtime: bool,
        model: Option<&aca_chat::ChatClient>,
    ) -> Result<Self, String> {
        match provider(account, report_dir) {
            Provider::Emulator(endpoint) if needs_meta || runtime => {
                let mut coder = ResourceCoder::rule_based();
                coder.fallback = model.map(|client| ModelGenerator::new(client.clone()));
                let run = RunProvisioning::start(&endpoint, root_key(account), page)
                    .await
                    .map_err(|e| format!("the provisioner cannot act in the account: {e}"))?;
                Ok(Self::Emulator {
                    run: Box::new(run.with_coder(coder)),
                    runtime,
                })
            }
            Provider::Emulator(_) => Ok(Self::Nothing),
            provider @ Provider::Terraform(_) => Ok(Self::Terraform {
                provider,
                key: root_key(account),
                provisioned: None,
            }),
        }
    }

    /// Applies the task's META before the episode.
    pub async fn before_run(&mut self, source: &str, task: &TaskSpec) -> Result<(), String> {
        match self {
            Self::Emulator { run, .. } => {
                let Some(resource_meta) = &task.meta else {
                    return Ok(());
                };
                let meta =
                    Meta::new(source, resource_meta, &task.region, Suffix::random()).map_err(|e| e.to_string())?;
                run.apply_meta(&meta).await.map(|_| ()).map_err(|e| e.to_string())
            }
            Self::Terraform {
                provider,
                key,
                provisioned,
            } => {
                *provisioned = provision(provider, key, source, task).await?.map(Box::new);
                Ok(())
            }
            Self::Nothing => Ok(()),
        }
    }

    /// The secrets provisioning made, for typing them where the agent typed their placeholders.
    pub fn secrets(&self) -> Option<&aca_provision::RunSecrets> {
        match self {
            Self::Emulator { run, .. } => Some(run.secrets()),
            _ => None,
        }
    }

    /// What the agent is told exists before the episode.
    pub fn told(&self) -> Option<ResourceReport> {
        match self {
            Self::Emulator { run, .. } => run.told().map(told),
            Self::Terraform { provisioned, .. } => provisioned.as_ref().map(|p| p.report.clone()),
            Self::Nothing => None,
        }
    }

    /// `${suffix}`, `${vpc_id}`, … of everything provisioned so far.
    pub fn bindings(&self) -> BTreeMap<String, String> {
        match self {
            Self::Emulator { run, .. } => run.bindings(),
            Self::Terraform { provisioned, .. } => provisioned.as_ref().map(|p| p.bindings.clone()).unwrap_or_default(),
            Self::Nothing => BTreeMap::new(),
        }
    }

    /// The calls that are the provisioner's, not the procedure's.
    pub fn calls(&self) -> ProvisionerCalls {
        match self {
            Self::Emulator { run, .. } => ProvisionerCalls::of_user(run.user_name()),
            _ => ProvisionerCalls::none(),
        }
    }

    /// The report's resources section.
    pub fn report_text(&self) -> Option<String> {
        match self {
            Self::Emulator { run, .. } => run.report_text(),
            Self::Terraform { provisioned, .. } => provisioned.as_ref().map(|p| p.report.text.clone()),
            Self::Nothing => None,
        }
    }

    /// What answers the agent's requests during the episode; templates that worked are offered to
    /// the META library in `candidates` as `<slug>.meta.toml`.
    pub fn runtime<'a>(&'a mut self, slug: &'a str, candidates: &'a Path) -> RuntimeProvisioner<'a> {
        let refusal = match self {
            Self::Emulator { runtime: false, .. } | Self::Nothing => "run-time provisioning is off for this run",
            _ => {
                "run-time provisioning works in emulator accounts only; give the page a Resource META \
                 (<page>.task.toml with [meta]) to provision a real account before the run"
            }
        };
        let run = match self {
            Self::Emulator { run, runtime: true } => Some(run.as_mut()),
            _ => None,
        };
        RuntimeProvisioner {
            run,
            refusal,
            slug,
            candidates,
        }
    }

    /// Destroys everything provisioned (and the provisioner's user); returns what could not be
    /// destroyed, in words.
    pub async fn finish(self) -> Vec<String> {
        match self {
            Self::Emulator { run, .. } => run.finish().await,
            Self::Terraform {
                provider,
                key,
                provisioned: Some(provisioned),
            } => destroy(&provider, &key, *provisioned).await,
            _ => Vec::new(),
        }
    }
}

/// Answers the agent's `request_resource` during the episode: in an emulator account the
/// ResourceCoder writes and applies a configuration for what is missing.
pub struct RuntimeProvisioner<'a> {
    run: Option<&'a mut RunProvisioning>,
    /// Why requests are refused when there is no run to provision in.
    refusal: &'static str,
    slug: &'a str,
    candidates: &'a Path,
}

impl Provisioner for RuntimeProvisioner<'_> {
    fn provide<'a>(&'a mut self, description: &'a str) -> Provide<'a> {
        Box::pin(async move {
            let Some(run) = self.run.as_deref_mut() else {
                return Err(self.refusal.to_owned());
            };
            run.request(description, Some((self.candidates, self.slug)))
                .await
                .map(|t| told(&t))
                .map_err(|e| e.to_string())
        })
    }
}
