//! One run's provisioning in an account: the provisioner's own RAM user, the META applied before
//! the episode, what the agent asks for during it (written and applied by the ResourceCoder), and
//! the teardown of all of it afterwards, whatever happened in between.
//!
//! Where the account's APIs are decides how resources are made ([`RunPlace`]): every API at one
//! address that speaks the signed OpenAPI (the bundled emulator, one started separately) is applied
//! to directly; the real cloud's per-product endpoints are Terraform's, signing as the provisioner.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::applier::{Applier, Meta};
use crate::coder::{CoderError, PageContext, ResourceCoder, offer_candidate};
use crate::applier::{DestroyReport, Plan, VerifyReport};
use crate::emulator::{AccessKey, EmulatorApplier};
use crate::terraform::TerraformApplier;
use crate::identity::{IdentityError, ProvisionerIdentity};
use crate::report::{ResourceReport, bindings, resource_name};
use crate::secret::{RunSecrets, Secret, secrets_of};
use aca_core::SecretKind;
use crate::state::{ProvisionState, ResourceRecord};
use crate::suffix::Suffix;

/// How the report introduces what a request provisioned during the episode.
pub const RUNTIME_NOTE: &str = "Provisioned at run time for";

/// What the agent is told exists: the text for its prompt and the names and ids its table rows
/// show (the shape of `aca_agent::ResourceReport`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Told {
    pub text: String,
    pub names: Vec<String>,
    /// Secrets the run made for the resources, by placeholder.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secrets: Vec<aca_core::SecretRef>,
}

/// Why a run's provisioning failed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Identity(#[from] IdentityError),
    #[error("the resources the page needs could not be provisioned: {0}")]
    Meta(String),
    #[error("the resource could not be provisioned at run time: {0}")]
    Request(#[from] CoderError),
}

/// Where a run's account takes its resources.
#[derive(Debug, Clone)]
pub enum RunPlace {
    /// Every API at this one address, speaking the signed OpenAPI.
    OpenApi { endpoint: String },
    /// The real cloud: the provisioner's user is made through RAM at `ram_endpoint`, resources
    /// by Terraform working under `workspace` (its state holds secrets: keep it private).
    Terraform { ram_endpoint: String, workspace: PathBuf },
}

impl RunPlace {
    /// The place of an account whose APIs `endpoints` resolves: one address, or the real cloud
    /// (Terraform working under `workspace`).
    pub fn of(endpoints: &aca_openapi::Endpoints, region: &str, workspace: &Path) -> Self {
        match endpoints.override_url() {
            Some(url) => Self::OpenApi { endpoint: url.to_owned() },
            None => Self::Terraform {
                ram_endpoint: endpoints.resolve("ram", region),
                workspace: workspace.to_owned(),
            },
        }
    }

    fn ram_endpoint(&self) -> &str {
        match self {
            Self::OpenApi { endpoint } => endpoint,
            Self::Terraform { ram_endpoint, .. } => ram_endpoint,
        }
    }
}

/// The applier of a run: the signed OpenAPI's, or Terraform's.
pub enum RunApplier {
    OpenApi(EmulatorApplier),
    Terraform(TerraformApplier),
}

impl Applier for RunApplier {
    fn name(&self) -> &'static str {
        match self {
            Self::OpenApi(a) => a.name(),
            Self::Terraform(a) => a.name(),
        }
    }

    async fn plan(&self, meta: &Meta) -> crate::error::Result<Plan> {
        match self {
            Self::OpenApi(a) => a.plan(meta).await,
            Self::Terraform(a) => a.plan(meta).await,
        }
    }

    async fn apply(&self, meta: &Meta) -> crate::error::Result<ProvisionState> {
        match self {
            Self::OpenApi(a) => a.apply(meta).await,
            Self::Terraform(a) => a.apply(meta).await,
        }
    }

    async fn verify(&self, meta: &Meta, state: &ProvisionState) -> crate::error::Result<VerifyReport> {
        match self {
            Self::OpenApi(a) => a.verify(meta, state).await,
            Self::Terraform(a) => a.verify(meta, state).await,
        }
    }

    async fn destroy(&self, state: &mut ProvisionState) -> DestroyReport {
        match self {
            Self::OpenApi(a) => a.destroy(state).await,
            Self::Terraform(a) => a.destroy(state).await,
        }
    }

    async fn gone(&self, state: &ProvisionState) -> crate::error::Result<Vec<String>> {
        match self {
            Self::OpenApi(a) => a.gone(state).await,
            Self::Terraform(a) => a.gone(state).await,
        }
    }
}

/// The provisioner's user and the applier that signs as it, made when first needed.
struct Acting {
    identity: ProvisionerIdentity,
    applier: RunApplier,
}

/// The provisioning of one run in one account.
pub struct RunProvisioning {
    place: RunPlace,
    root: AccessKey,
    /// `None` until something is to be made: a run that needs nothing makes no RAM user.
    acting: Option<Acting>,
    coder: ResourceCoder,
    page: PageContext,
    /// What the META made before the episode, and its report.
    before: Option<ProvisionState>,
    meta_report: Option<String>,
    /// What each request made during it.
    created: Vec<ProvisionState>,
    told: Option<Told>,
    /// One line per request, for the report.
    notes: Vec<String>,
    /// The secrets the applies made (passwords), for the driver to type; never written anywhere.
    secrets: RunSecrets,
}

impl RunProvisioning {
    /// Provisioning in the account whose root key is `root`, with every API at `endpoint`.
    pub async fn start(endpoint: &str, root: AccessKey, page: PageContext) -> Result<Self, RunError> {
        let place = RunPlace::OpenApi {
            endpoint: endpoint.to_owned(),
        };
        Self::start_in(&place, root, page).await
    }

    /// Provisioning in the account whose root key is `root`, at `place`. Nothing is made yet: the
    /// provisioner's RAM user comes with the first thing to make.
    pub async fn start_in(place: &RunPlace, root: AccessKey, page: PageContext) -> Result<Self, RunError> {
        Ok(Self {
            place: place.clone(),
            root,
            acting: None,
            coder: ResourceCoder::rule_based(),
            page,
            before: None,
            meta_report: None,
            created: Vec::new(),
            told: None,
            notes: Vec::new(),
            secrets: RunSecrets::default(),
        })
    }

    /// Makes the provisioner's RAM user and its applier, once.
    async fn act(&mut self) -> Result<&Acting, RunError> {
        if self.acting.is_none() {
            let identity =
                ProvisionerIdentity::create(self.place.ram_endpoint(), self.root.clone(), &Suffix::random()).await?;
            let applier = match &self.place {
                RunPlace::OpenApi { endpoint } => {
                    EmulatorApplier::new(endpoint, identity.key.clone()).map(RunApplier::OpenApi)
                }
                RunPlace::Terraform { workspace, .. } => Ok(RunApplier::Terraform(
                    TerraformApplier::new(workspace).with_key(&identity.key),
                )),
            };
            match applier {
                Ok(applier) => self.acting = Some(Acting { identity, applier }),
                Err(e) => {
                    let _ = identity.remove().await;
                    return Err(RunError::Meta(e.to_string()));
                }
            }
        }
        self.acting
            .as_ref()
            .ok_or_else(|| RunError::Meta("the provisioner's user was not made".into()))
    }

    /// Uses `coder` for the agent's requests (a model-backed fallback, say).
    pub fn with_coder(mut self, coder: ResourceCoder) -> Self {
        self.coder = coder;
        self
    }

    /// The RAM user the provisioner acts as, once it made something.
    pub fn user_name(&self) -> Option<&str> {
        self.acting.as_ref().map(|a| a.identity.user_name.as_str())
    }

    /// What the agent is told exists so far.
    pub fn told(&self) -> Option<&Told> {
        self.told.as_ref()
    }

    /// The secrets the run made, for the driver to put in where the agent types their placeholders.
    pub fn secrets(&self) -> &RunSecrets {
        &self.secrets
    }

    /// Keeps the secrets an apply made and tells the agent of them (placeholders only).
    fn keep_secrets(&mut self, made: Vec<(SecretKind, String, Secret)>, told: &mut Told) {
        for (kind, resource, secret) in made {
            let reference = self.secrets.add(kind, &resource, secret);
            told.text.push('\n');
            told.text.push_str(&reference.describe());
            told.secrets.push(reference);
        }
    }

    /// Applies and verifies `meta` before the episode; a META that does not hold is destroyed again.
    pub async fn apply_meta(&mut self, meta: &Meta) -> Result<Told, RunError> {
        let applier = &self.act().await?.applier;
        let mut state = applier.apply(meta).await.map_err(|e| RunError::Meta(e.to_string()))?;
        if let Err(e) = applier.verify(meta, &state).await {
            let destroyed = applier.destroy(&mut state).await;
            let mut message = format!("the provisioned resources do not hold: {e}");
            if !destroyed.failures.is_empty() {
                message.push_str(&format!(" (and {} could not be destroyed)", destroyed.failures.len()));
            }
            return Err(RunError::Meta(message));
        }
        let report = ResourceReport::new(&meta.description, &state, &meta.key_attributes);
        let mut told = Told {
            text: report.to_text(),
            names: names_and_ids(&state),
            secrets: Vec::new(),
        };
        let made = secrets_of(meta, &state);
        self.keep_secrets(made, &mut told);
        self.before = Some(state);
        self.meta_report = Some(told.text.clone());
        self.told = Some(told.clone());
        Ok(told)
    }

    /// The ResourceCoder writes the page's META from the page alone (validated in this account first)
    /// and applies it; `Ok(None)` when the page needs nothing.
    pub async fn generate_and_apply(&mut self) -> Result<Option<Told>, RunError> {
        // The provisioner's RAM user is made with the first thing to make, never for nothing.
        if self.coder.needs_nothing(&self.page) {
            return Ok(None);
        }
        self.act().await?;
        let Some(acting) = &self.acting else {
            return Err(RunError::Meta("the provisioner's user was not made".into()));
        };
        let generated = match self.coder.generate(&self.page, &acting.applier).await {
            Ok(generated) => generated,
            Err(CoderError::NothingNeeded { .. }) => return Ok(None),
            Err(e) => return Err(RunError::Meta(e.to_string())),
        };
        let meta = Meta::new(&self.page.source, &generated.meta, &self.page.region, Suffix::random())
            .map_err(|e| RunError::Meta(e.to_string()))?;
        self.apply_meta(&meta).await.map(Some)
    }

    /// Answers the agent's `request_resource`: a configuration for what is missing, applied and
    /// verified; the template is offered to the META library in `candidates` when given. Returns
    /// everything the agent is now told, the new resources' names first.
    pub async fn request(&mut self, description: &str, candidates: Option<(&Path, &str)>) -> Result<Told, RunError> {
        self.act().await?;
        let Some(acting) = &self.acting else {
            return Err(RunError::Meta("the provisioner's user was not made".into()));
        };
        // What the procedure itself deleted (an earlier method revoked the policy) is missing again.
        let mut gone = Vec::new();
        for state in self.before.iter().chain(&self.created) {
            gone.extend(
                acting
                    .applier
                    .gone(state)
                    .await
                    .map_err(|e| RunError::Meta(e.to_string()))?,
            );
        }
        let existing: Vec<ResourceRecord> = self
            .existing()
            .filter(|r| !gone.contains(&r.address))
            .cloned()
            .collect();
        let provided = match self.coder.provide(&self.page, description, &existing, &acting.applier).await {
            Ok(provided) => provided,
            // Everything a step that looked for a resource acts on exists: the agent is told so and
            // looks again (the page may have led it elsewhere), rather than the run ending as the
            // environment's failure. A request for something else (a control the resource at hand
            // disables, a secret) that nothing can provide still ends the run.
            Err(CoderError::NothingMissing { existing: described, .. }) if looks_for_a_resource(description) => {
                self.notes.push(format!(
                    "{RUNTIME_NOTE} \"{description}\": nothing was missing ({described} exist already)"
                ));
                let mut told = self.told.clone().unwrap_or_default();
                for record in &existing {
                    told.names.push(record.id.clone());
                    told.names.extend(resource_name(record));
                }
                told.names.dedup();
                if !told.text.is_empty() {
                    told.text.push('\n');
                }
                told.text.push_str(&format!("Everything the step acts on exists already: {described}."));
                self.told = Some(told.clone());
                return Ok(told);
            }
            Err(e) => return Err(e.into()),
        };
        let text = provided.report.to_text();
        self.notes.push(format!("{RUNTIME_NOTE} \"{description}\":\n{text}"));
        if let Some((dir, slug)) = candidates
            && let Err(e) = offer_candidate(dir, slug, description, &provided.template)
        {
            tracing::warn!("cannot offer the template to the META library: {e}");
        }
        let mut names = names_and_ids(&provided.state);
        let before = self.told.take().unwrap_or_default();
        names.extend(before.names);
        let mut told = before.text;
        if !told.is_empty() {
            told.push('\n');
        }
        told.push_str(&text);
        self.created.push(provided.state);
        let mut told = Told {
            text: told,
            names,
            secrets: before.secrets,
        };
        self.keep_secrets(provided.secrets, &mut told);
        self.told = Some(told.clone());
        Ok(told)
    }

    /// `${suffix}`, `${vpc_id}`, … of everything provisioned, for the success rule and the
    /// procedure's values. `${suffix}` and `${region}` are the META's when there was one.
    pub fn bindings(&self) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        for state in &self.created {
            out.extend(bindings(state));
        }
        if let Some(before) = &self.before {
            out.extend(bindings(before));
        }
        out
    }

    /// The report's resources section: what the META made, then one note per request.
    pub fn report_text(&self) -> Option<String> {
        let mut text = self.meta_report.clone().unwrap_or_default();
        for note in &self.notes {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(note);
        }
        (!text.is_empty()).then_some(text)
    }

    fn existing(&self) -> impl Iterator<Item = &ResourceRecord> {
        self.before
            .iter()
            .chain(&self.created)
            .flat_map(ProvisionState::created)
    }

    /// Destroys what the requests and the META made (newest first) and removes the provisioner's
    /// user; returns what could not be destroyed, in words. What a request made may still be held
    /// by what the procedure made on an older resource (a server certificate that an HTTPS listener
    /// of the META's CLB instance uses), which goes with that resource: whatever could not go is
    /// tried once more when the rest is gone.
    pub async fn finish(mut self) -> Vec<String> {
        // Nothing was made without the provisioner's user.
        let Some(acting) = self.acting.take() else {
            return Vec::new();
        };
        let mut held = Vec::new();
        for (at, state) in self.created.iter_mut().rev().chain(self.before.iter_mut()).enumerate() {
            if !acting.applier.destroy(state).await.failures.is_empty() {
                held.push(at);
            }
        }
        let mut left = Vec::new();
        for (at, state) in self.created.iter_mut().rev().chain(self.before.iter_mut()).enumerate() {
            if !held.contains(&at) {
                continue;
            }
            let destroyed = acting.applier.destroy(state).await;
            left.extend(
                destroyed
                    .failures
                    .iter()
                    .map(|f| format!("{} {}: {}", f.resource, f.id, f.error)),
            );
        }
        if let Err(e) = acting.identity.remove().await {
            left.push(e.to_string());
        }
        left
    }
}

/// Applies and verifies `meta`; a META that does not hold is destroyed again. The error in words.
pub async fn apply_and_verify(applier: &impl Applier, meta: &Meta) -> Result<ProvisionState, String> {
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

/// The ids and names the resources' table rows show. The resource a procedure acts on is created
/// last: it comes first, its id before its name (consoles search by id by default).
/// Whether the agent asked because it could not find a resource ("Step 3 acts on an existing
/// resource: …", "… chooses an existing resource in the drop-down list …").
fn looks_for_a_resource(description: &str) -> bool {
    ["acts on an existing resource", "chooses an existing resource"]
        .iter()
        .any(|phrase| description.contains(phrase))
}

pub fn names_and_ids(state: &ProvisionState) -> Vec<String> {
    state
        .created()
        .rev()
        .flat_map(|r| std::iter::once(r.id.clone()).chain(resource_name(r)))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{RunPlace, looks_for_a_resource};

    #[test]
    fn one_address_is_applied_to_directly_and_the_real_cloud_is_terraforms() {
        let one = aca_openapi::Endpoints::pointed_at("http://127.0.0.1:8080/").unwrap();
        assert!(matches!(
            RunPlace::of(&one, "cn-hangzhou", Path::new("/w")),
            RunPlace::OpenApi { endpoint } if endpoint == "http://127.0.0.1:8080"
        ));
        let cloud = aca_openapi::Endpoints::real_cloud();
        let RunPlace::Terraform { ram_endpoint, workspace } = RunPlace::of(&cloud, "eu-central-1", Path::new("/w"))
        else {
            panic!("the real cloud is not Terraform's");
        };
        assert_eq!((ram_endpoint.as_str(), workspace.as_path()), ("https://ram.aliyuncs.com", Path::new("/w")));
    }

    #[test]
    fn only_a_request_for_a_resource_not_found_is_answered_with_what_exists() {
        assert!(looks_for_a_resource(
            "Step 3 acts on an existing resource: On the Policies page, find the policy."
        ));
        assert!(looks_for_a_resource(
            "Step 2 chooses an existing resource in the drop-down list \"VPC\", which lists none: …"
        ));
        assert!(!looks_for_a_resource(
            "Step 2 turns on \"Automatic renewal\", which the console disables for the resource the run has"
        ));
        assert!(!looks_for_a_resource(
            "Step 5 needs the old password of the account it changes, a secret the page leaves to its reader"
        ));
    }
}
