//! The resources a page needs, provisioned before its episode from the page's Resource META and
//! destroyed after it, whatever happened in between; and what the agent asks for during the
//! episode, written and applied by the ResourceCoder.
//!
//! This is aca-provision's [`RunProvisioning`] in every account (the provisioner acts as its own
//! RAM user, so the rule channel can leave its calls out): through the account's one OpenAPI
//! address (an emulator), or with Terraform in the real cloud.

use std::collections::BTreeMap;
use std::path::Path;

use aca_agent::ResourceReport;
use aca_core::TaskSpec;
use aca_provision::coder::ModelGenerator;
use aca_provision::{
    AccessKey, Meta, PageContext, ResourceCoder, RunPlace, RunProvisioning, Suffix, Told,
};
use aca_reward::ProvisionerCalls;

use super::drive::{Provide, Provisioner};
use super::target::RunAccount;

pub use aca_provision::run::RUNTIME_NOTE;

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
    /// The provisioner's own RAM user in the account: the META before the episode and the agent's
    /// requests during it (when `runtime` is on), made through the account's one OpenAPI address
    /// or, in the real cloud, by Terraform.
    Run {
        run: Box<RunProvisioning>,
        runtime: bool,
        /// Terraform's working folder, private to this process (its state holds secrets); kept
        /// when something could not be destroyed, so a person can finish the job.
        terraform: Option<tempfile::TempDir>,
    },
    /// Nothing to provision, and requests during the episode are refused.
    Nothing,
}

impl RunResources {
    /// Sets up the provisioning of a run in `account`: `needs_meta` when the page's META will be
    /// applied, `runtime` when the agent's requests are answered; `model` helps the ResourceCoder
    /// with requests its rules do not understand. Terraform works in a private temporary folder.
    pub async fn start(
        account: &RunAccount,
        page: PageContext,
        needs_meta: bool,
        runtime: bool,
        model: Option<&aca_chat::ChatClient>,
    ) -> Result<Self, String> {
        if !needs_meta && !runtime {
            return Ok(Self::Nothing);
        }
        let mut coder = ResourceCoder::rule_based();
        coder.fallback = model.map(|client| ModelGenerator::new(client.clone()));
        let terraform = match account.endpoints.override_url() {
            Some(_) => None,
            None => Some(
                tempfile::Builder::new()
                    .prefix("aca-terraform-")
                    .tempdir()
                    .map_err(|e| format!("cannot make Terraform's working folder: {e}"))?,
            ),
        };
        let workspace = terraform.as_ref().map_or_else(std::env::temp_dir, |t| t.path().to_owned());
        let place = RunPlace::of(&account.endpoints, &page.region, &workspace);
        let run = RunProvisioning::start_in(&place, root_key(account), page)
            .await
            .map_err(|e| format!("the provisioner cannot act in the account: {e}"))?;
        Ok(Self::Run {
            run: Box::new(run.with_coder(coder)),
            runtime,
            terraform,
        })
    }

    /// Applies the task's META before the episode.
    pub async fn before_run(&mut self, source: &str, task: &TaskSpec) -> Result<(), String> {
        let (Self::Run { run, .. }, Some(resource_meta)) = (self, &task.meta) else {
            return Ok(());
        };
        let meta = Meta::new(source, resource_meta, &task.region, Suffix::random()).map_err(|e| e.to_string())?;
        run.apply_meta(&meta).await.map(|_| ()).map_err(|e| e.to_string())
    }

    fn run(&self) -> Option<&RunProvisioning> {
        match self {
            Self::Run { run, .. } => Some(run),
            Self::Nothing => None,
        }
    }

    /// The secrets provisioning made, for typing them where the agent typed their placeholders.
    pub fn secrets(&self) -> Option<&aca_provision::RunSecrets> {
        self.run().map(RunProvisioning::secrets)
    }

    /// What the agent is told exists before the episode.
    pub fn told(&self) -> Option<ResourceReport> {
        self.run().and_then(RunProvisioning::told).map(told)
    }

    /// `${suffix}`, `${vpc_id}`, … of everything provisioned so far.
    pub fn bindings(&self) -> BTreeMap<String, String> {
        self.run().map(RunProvisioning::bindings).unwrap_or_default()
    }

    /// The calls that are the provisioner's, not the procedure's.
    pub fn calls(&self) -> ProvisionerCalls {
        self.run()
            .and_then(RunProvisioning::user_name)
            .map_or_else(ProvisionerCalls::none, ProvisionerCalls::of_user)
    }

    /// The report's resources section.
    pub fn report_text(&self) -> Option<String> {
        self.run().and_then(RunProvisioning::report_text)
    }

    /// What answers the agent's requests during the episode; templates that worked are offered to
    /// the META library in `candidates` as `<slug>.meta.toml`.
    pub fn runtime<'a>(&'a mut self, slug: &'a str, candidates: &'a Path) -> RuntimeProvisioner<'a> {
        let run = match self {
            Self::Run { run, runtime: true, .. } => Some(run.as_mut()),
            _ => None,
        };
        RuntimeProvisioner {
            run,
            refusal: "run-time provisioning is off for this run",
            slug,
            candidates,
        }
    }

    /// Destroys everything provisioned (and the provisioner's user); returns what could not be
    /// destroyed, in words.
    pub async fn finish(self) -> Vec<String> {
        match self {
            Self::Run { run, terraform, .. } => {
                let mut left = run.finish().await;
                if let Some(folder) = terraform.filter(|_| !left.is_empty()) {
                    let kept = folder.keep();
                    left.push(format!("Terraform's state for them is kept in {}", kept.display()));
                }
                left
            }
            Self::Nothing => Vec::new(),
        }
    }
}

/// Answers the agent's `request_resource` during the episode: the ResourceCoder writes and applies a
/// configuration for what is missing.
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
