//! The resources a page needs, provisioned before its episode from the page's Resource META and
//! destroyed after it, whatever happened in between; and what the agent asks for during the
//! episode, written and applied by the ResourceCoder.

use aca_agent::ResourceReport;
use aca_core::TaskSpec;
use aca_provision::coder::offer_candidate;
use aca_provision::report::resource_name;
use aca_provision::{
    AccessKey, Applier, EmulatorApplier, Meta, PageContext, ProvisionState, ResourceCoder, Suffix, TerraformApplier,
};

use super::drive::{Provide, Provisioner};
use super::target::RunAccount;

/// How the report's resources section introduces what a request provisioned during the episode.
pub const RUNTIME_NOTE: &str = "Provisioned at run time for";

/// What was created for one run.
pub struct Provisioned {
    pub state: ProvisionState,
    /// `${suffix}`, `${vpc_id}`, … for the success rule and the procedure's values.
    pub bindings: std::collections::BTreeMap<String, String>,
    /// What the agent is told exists.
    pub report: ResourceReport,
}

/// Which applier creates the resources.
pub enum Provider {
    /// The bundled emulator's signed OpenAPI at this endpoint.
    Emulator(String),
    /// A real `terraform`/`tofu` binary (for a real cloud account).
    Terraform(std::path::PathBuf),
}

/// The applier for a console: the bundled emulator's OpenAPI, or Terraform (working in `report_dir`).
pub fn provider(target: &super::target::ConsoleTarget, report_dir: &std::path::Path) -> Provider {
    match target {
        super::target::ConsoleTarget::Bundled { serving, .. } => Provider::Emulator(serving.url.clone()),
        super::target::ConsoleTarget::Remote { .. } => Provider::Terraform(report_dir.join("terraform")),
    }
}

/// Applies and verifies the task's META. `Ok(None)` when the page needs nothing.
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
        Provider::Terraform(workspace) => apply_and_verify(&TerraformApplier::new(workspace), &meta).await?,
    };
    let structured = aca_provision::ResourceReport::new(&meta.description, &state, &meta.key_attributes);
    let names = names_and_ids(&state);
    Ok(Some(Provisioned {
        bindings: aca_provision::bindings(&state),
        report: ResourceReport {
            text: structured.to_text(),
            names,
        },
        state,
    }))
}

async fn apply_and_verify(applier: &impl Applier, meta: &Meta) -> Result<ProvisionState, String> {
    let mut state = applier.apply(meta).await.map_err(|e| e.to_string())?;
    if let Err(e) = applier.verify(meta, &state).await {
        let destroyed = applier.destroy(&mut state).await;
        let mut message = format!("the provisioned resources do not hold: {e}");
        if !destroyed.failures.is_empty() {
            message.push_str(&format!(" (and {} could not be destroyed)", destroyed.failures.len()));
        }
        return Err(message);
    }
    Ok(state)
}

/// Destroys what [`provision`] created; returns what could not be destroyed, in words.
pub async fn destroy(provider: &Provider, key: &AccessKey, mut provisioned: Provisioned) -> Vec<String> {
    let report = match provider {
        Provider::Emulator(endpoint) => match EmulatorApplier::new(endpoint, key.clone()) {
            Ok(applier) => applier.destroy(&mut provisioned.state).await,
            Err(e) => return vec![e.to_string()],
        },
        Provider::Terraform(workspace) => TerraformApplier::new(workspace).destroy(&mut provisioned.state).await,
    };
    report
        .failures
        .iter()
        .map(|f| format!("{} {}: {}", f.resource, f.id, f.error))
        .collect()
}

/// The ids and names the resources' table rows show. The resource a procedure acts on is created
/// last: it comes first, its id before its name (consoles search by id by default).
fn names_and_ids(state: &ProvisionState) -> Vec<String> {
    state
        .created()
        .rev()
        .flat_map(|r| std::iter::once(r.id.clone()).chain(resource_name(r)))
        .collect()
}

/// The account's own (root) AccessKey.
pub fn root_key(account: &RunAccount) -> AccessKey {
    AccessKey {
        access_key_id: account.access_key_id.clone(),
        access_key_secret: account.access_key_secret.clone(),
    }
}

/// Answers the agent's `request_resource` during the episode: in an emulator account the
/// ResourceCoder writes and applies a configuration for what is missing; what it created is
/// destroyed after the episode and the templates that worked are offered to the META library.
pub struct RuntimeProvisioner {
    /// The applier of the run's account; `None` where run-time provisioning is not possible.
    applier: Option<EmulatorApplier>,
    /// Why requests are refused when there is no applier.
    refusal: String,
    coder: ResourceCoder,
    page: PageContext,
    slug: String,
    /// Resources provisioned before the run (the page's META).
    before: Vec<aca_provision::ResourceRecord>,
    /// What the agent was told before the run.
    told: Option<ResourceReport>,
    /// What each request created.
    created: Vec<ProvisionState>,
    candidates: std::path::PathBuf,
    /// One line per request, for the report.
    notes: Vec<String>,
}

impl RuntimeProvisioner {
    /// The provisioner of one run, signing with `key` (`None`: run-time provisioning is off);
    /// `candidates` is the folder templates are offered to.
    pub fn for_run(
        provider: &Provider,
        key: Option<&AccessKey>,
        page: &super::page::PageInput,
        product: &str,
        region: &str,
        provisioned: Option<&Provisioned>,
        candidates: std::path::PathBuf,
    ) -> Self {
        let (applier, refusal) = match (provider, key) {
            (Provider::Emulator(_), None) => (None, "run-time provisioning is off for this run".to_owned()),
            (Provider::Emulator(endpoint), Some(key)) => match EmulatorApplier::new(endpoint, key.clone()) {
                Ok(applier) => (Some(applier), String::new()),
                Err(e) => (None, format!("run-time provisioning is unavailable: {e}")),
            },
            (Provider::Terraform(_), _) => (
                None,
                "run-time provisioning works in emulator accounts only; give the page a Resource META \
                 (<page>.task.toml with [meta]) to provision a real account before the run"
                    .into(),
            ),
        };
        Self {
            applier,
            refusal,
            coder: ResourceCoder::rule_based(),
            page: PageContext {
                procedure: page.procedure.clone(),
                product: Some(product.to_owned()),
                region: region.to_owned(),
                source: page.source.clone(),
            },
            slug: page.slug.clone(),
            before: provisioned
                .map(|p| p.state.created().cloned().collect())
                .unwrap_or_default(),
            told: provisioned.map(|p| p.report.clone()),
            created: Vec::new(),
            candidates,
            notes: Vec::new(),
        }
    }

    /// Lets a model write what the rules do not understand (the LLM policy's model, when there is one).
    pub fn with_model(mut self, model: Option<&aca_chat::ChatClient>) -> Self {
        self.coder.fallback = model.map(|client| aca_provision::coder::ModelGenerator::new(client.clone()));
        self
    }

    /// `${instance_id}`, … of what the requests created, for the success rule. `${suffix}` and
    /// `${region}` stay those of the META provisioned before the run, when there was one.
    pub fn bindings(&self) -> std::collections::BTreeMap<String, String> {
        self.created
            .iter()
            .flat_map(aca_provision::bindings)
            .filter(|(name, _)| self.before.is_empty() || (name != "suffix" && name != "region"))
            .collect()
    }

    /// Destroys what the requests created and notes it in the report (what was provisioned, what
    /// could not be destroyed).
    pub async fn finish(&mut self, report: &mut aca_core::Report) {
        let mut left = Vec::new();
        if let Some(applier) = &self.applier {
            for state in self.created.iter_mut().rev() {
                let destroyed = applier.destroy(state).await;
                left.extend(
                    destroyed
                        .failures
                        .iter()
                        .map(|f| format!("{} {}: {}", f.resource, f.id, f.error)),
                );
            }
        }
        if !self.notes.is_empty() {
            let mut text = report.resources.take().unwrap_or_default();
            for note in &self.notes {
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(note);
            }
            report.resources = Some(text);
        }
        if !left.is_empty() {
            let note = format!("cleanup of run-time resources left: {}", left.join("; "));
            report.failure = Some(match report.failure.take() {
                Some(f) => format!("{f}; {note}"),
                None => note,
            });
        }
    }

    async fn provide_now(&mut self, description: &str) -> Result<ResourceReport, String> {
        let Some(applier) = &self.applier else {
            return Err(self.refusal.clone());
        };
        let mut existing = self.before.clone();
        existing.extend(self.created.iter().flat_map(|s| s.created().cloned()));
        let provided = self
            .coder
            .provide(&self.page, description, &existing, applier)
            .await
            .map_err(|e| format!("the resource could not be provisioned at run time: {e}"))?;
        let text = provided.report.to_text();
        self.notes.push(format!("{RUNTIME_NOTE} \"{description}\":\n{text}"));
        if let Err(e) = offer_candidate(&self.candidates, &self.slug, description, &provided.template) {
            tracing::warn!("cannot offer the template to the META library: {e}");
        }
        // What was just created is what the agent looks for: its names first, the acted-on last-made one
        // at the head.
        let mut names = names_and_ids(&provided.state);
        names.extend(self.told.as_ref().map(|t| t.names.clone()).unwrap_or_default());
        let mut told = self.told.as_ref().map(|t| t.text.clone()).unwrap_or_default();
        if !told.is_empty() {
            told.push('\n');
        }
        told.push_str(&text);
        self.created.push(provided.state);
        let report = ResourceReport { text: told, names };
        self.told = Some(report.clone());
        Ok(report)
    }
}

impl Provisioner for RuntimeProvisioner {
    fn provide<'a>(&'a mut self, description: &'a str) -> Provide<'a> {
        Box::pin(self.provide_now(description))
    }
}
