//! ResourceCoder: writes the Resource META a procedure needs when nobody wrote one.
//!
//! Offline ([`ResourceCoder::generate`]) it reads a page's procedure, drafts a META and keeps it
//! only once it was created, verified and destroyed in a scratch account. At run time
//! ([`ResourceCoder::provide`]) it answers the agent's `request_resource`: a configuration for
//! what is missing, applied, verified, retried with what went wrong (bounded), and the structured
//! [`ResourceReport`] of what it did; the template is then offered back to the META library
//! ([`offer_candidate`]). Drafts come from the deterministic [`rules`] (the default, for the
//! products the emulator knows) or from a model ([`model`]).

pub mod catalog;
pub mod model;
pub mod render;
pub mod rules;
pub mod store;
pub mod validate;

use std::path::{Path, PathBuf};

use aca_core::{Procedure, ResourceMeta};

use crate::applier::{Applier, Meta};
use crate::error::ProvisionError;
use crate::report::ResourceReport;
use crate::state::{ProvisionState, ResourceRecord};
use crate::suffix::Suffix;

pub use model::{Ask, ModelGenerator};
pub use render::meta_table;
pub use store::{Stored, store_meta};
pub use validate::{Validation, ValidationError, validate};

/// Where drafts come from.
#[derive(Debug, Clone)]
pub enum Generator {
    /// The deterministic generator over the emulator's products.
    Rules,
    /// A model through an OpenAI-compatible endpoint.
    Model(ModelGenerator),
}

impl Generator {
    pub fn name(&self) -> &'static str {
        match self {
            Self::Rules => "rules",
            Self::Model(_) => "model",
        }
    }
}

/// The page a META is written for.
#[derive(Debug, Clone)]
pub struct PageContext {
    pub procedure: Procedure,
    /// The emulator's product code (`ecs`); read from the title when `None`.
    pub product: Option<String>,
    pub region: String,
    /// Names the page in files and errors (`ecs/start-instance`).
    pub source: String,
}

impl PageContext {
    fn product(&self) -> Option<&str> {
        self.product.as_deref().or_else(|| rules::product_of(&self.procedure))
    }
}

/// Why the coder could not provide.
#[derive(Debug, thiserror::Error)]
pub enum CoderError {
    #[error("\"{task}\" starts from an empty account: nothing must exist before it")]
    NothingNeeded { task: String },
    #[error("nothing in \"{request}\" is missing: {existing} exist already")]
    NothingMissing { request: String, existing: String },
    #[error("\"{request}\" names no resource the generator knows (known: {known})")]
    Unrecognised { request: String, known: String },
    #[error(transparent)]
    Render(#[from] render::RenderError),
    #[error("the model failed: {0}")]
    Model(#[from] model::ModelError),
    #[error("no working META after {attempts} attempt(s); the last failed with: {last}")]
    GaveUp { attempts: u32, last: String },
}

/// A META that was validated offline.
#[derive(Debug, Clone)]
pub struct Generated {
    pub meta: ResourceMeta,
    pub validation: Validation,
    pub generator: &'static str,
    pub attempts: u32,
}

/// What a run-time provisioning created.
#[derive(Debug, Clone)]
pub struct Provided {
    /// The configuration that was applied (what existed already is referred to by id).
    pub meta: ResourceMeta,
    /// The same resources as a self-contained META, for the META library: what existed already is
    /// created too, so that the template works in an empty account.
    pub template: ResourceMeta,
    pub state: ProvisionState,
    pub report: ResourceReport,
    pub attempts: u32,
    /// The secrets the apply gave the new resources (kind, resource id, value): in memory only.
    pub secrets: Vec<(aca_core::SecretKind, String, crate::secret::Secret)>,
}

/// Writes, validates and applies Resource META.
#[derive(Debug, Clone)]
pub struct ResourceCoder {
    pub generator: Generator,
    /// Drafts tried before giving up (each failure is fed to the next draft).
    pub max_attempts: u32,
    /// A model the rule-based generator hands over to when a request names nothing it knows.
    pub fallback: Option<ModelGenerator>,
}

impl ResourceCoder {
    /// The deterministic generator (the default).
    pub fn rule_based() -> Self {
        Self {
            generator: Generator::Rules,
            max_attempts: 2,
            fallback: None,
        }
    }

    pub fn model_backed(model: ModelGenerator) -> Self {
        Self {
            generator: Generator::Model(model),
            max_attempts: 3,
            fallback: None,
        }
    }

    /// One draft: for the page (`request` `None`) or for the agent's request at run time.
    async fn draft(
        &self,
        page: &PageContext,
        request: Option<&str>,
        existing: &[ResourceRecord],
        conversation: &[(String, String)],
    ) -> Result<(ResourceMeta, String), CoderError> {
        match &self.generator {
            Generator::Rules => {
                let product = page.product();
                let needs = match request {
                    None => rules::needs_of_task(&page.procedure.task, product),
                    Some(request) => rules::needs_of_request(&page.procedure.task, request, product),
                };
                match (render::render(&needs, existing, &page.region)?, request, &self.fallback) {
                    (Some(meta), _, _) => {
                        let text = meta.terraform.clone();
                        Ok((meta, text))
                    }
                    (None, None, _) => Err(CoderError::NothingNeeded {
                        task: page.procedure.task.clone(),
                    }),
                    (None, Some(_), Some(model)) if needs.is_empty() => {
                        self.ask_model(model, page, request, existing, conversation).await
                    }
                    (None, Some(request), None) if needs.is_empty() => Err(CoderError::Unrecognised {
                        request: request.to_owned(),
                        known: catalog::TEMPLATES.iter().map(|t| t.kind).collect::<Vec<_>>().join(", "),
                    }),
                    (None, Some(request), _) => Err(CoderError::NothingMissing {
                        request: request.to_owned(),
                        existing: describe_existing(existing),
                    }),
                }
            }
            Generator::Model(model) => self.ask_model(model, page, request, existing, conversation).await,
        }
    }

    /// Whether the page surely needs nothing provisioned, known without a model or an account: the
    /// rules find nothing for its task. A model-based coder is only asked by [`Self::generate`].
    pub fn needs_nothing(&self, page: &PageContext) -> bool {
        matches!(self.generator, Generator::Rules)
            && rules::needs_of_task(&page.procedure.task, page.product()).is_empty()
    }

    /// The rule-based META of a request as if nothing existed.
    fn standalone(&self, page: &PageContext, request: &str) -> Option<ResourceMeta> {
        let needs = rules::needs_of_request(&page.procedure.task, request, page.product());
        render::render(&needs, &[], &page.region).ok().flatten()
    }

    async fn ask_model(
        &self,
        model: &ModelGenerator,
        page: &PageContext,
        request: Option<&str>,
        existing: &[ResourceRecord],
        conversation: &[(String, String)],
    ) -> Result<(ResourceMeta, String), CoderError> {
        let ask = Ask {
            procedure: &page.procedure,
            product: page.product(),
            region: &page.region,
            request,
            existing,
        };
        Ok(model.draft(&ask, conversation).await?)
    }

    /// Drafts a META for the page and keeps it only once it validated with `scratch` (an applier
    /// of a scratch account): created, verified, destroyed. Failures go back into the next draft.
    pub async fn generate(&self, page: &PageContext, scratch: &impl Applier) -> Result<Generated, CoderError> {
        let mut conversation = Vec::new();
        let mut last = String::new();
        for attempt in 1..=self.max_attempts.max(1) {
            let (meta, reply) = match self.draft(page, None, &[], &conversation).await {
                Ok(drafted) => drafted,
                Err(CoderError::Model(model::ModelError::Unusable { reply, why })) => {
                    last = format!("the reply is not a META: {why}");
                    conversation.push((reply, last.clone()));
                    continue;
                }
                Err(e) => return Err(e),
            };
            match validate(scratch, &page.source, &meta, &page.region).await {
                Ok(validation) => {
                    return Ok(Generated {
                        meta,
                        validation,
                        generator: self.generator.name(),
                        attempts: attempt,
                    });
                }
                Err(e) => {
                    last = e.to_string();
                    conversation.push((reply, last.clone()));
                }
            }
        }
        Err(CoderError::GaveUp {
            attempts: self.max_attempts.max(1),
            last,
        })
    }

    /// Answers the agent's `request_resource` with `applier` (the run's account): writes a
    /// configuration for what `existing` lacks, applies and verifies it, and on failure destroys
    /// what the attempt made and tries again with the error in hand.
    pub async fn provide(
        &self,
        page: &PageContext,
        request: &str,
        existing: &[ResourceRecord],
        applier: &impl Applier,
    ) -> Result<Provided, CoderError> {
        let mut conversation = Vec::new();
        let mut last = String::new();
        for attempt in 1..=self.max_attempts.max(1) {
            let (resource_meta, reply) = match self.draft(page, Some(request), existing, &conversation).await {
                Ok(drafted) => drafted,
                Err(CoderError::Model(model::ModelError::Unusable { reply, why })) => {
                    last = format!("the reply is not a META: {why}");
                    conversation.push((reply, last.clone()));
                    continue;
                }
                Err(e) => return Err(e),
            };
            match apply_verified(applier, page, &resource_meta).await {
                Ok((meta, state)) => {
                    let report = ResourceReport::new(&meta.description, &state, &meta.key_attributes);
                    let secrets = crate::secret::secrets_of(&meta, &state);
                    let template = match (&self.generator, existing.is_empty()) {
                        (Generator::Rules, false) => {
                            self.standalone(page, request).unwrap_or_else(|| resource_meta.clone())
                        }
                        _ => resource_meta.clone(),
                    };
                    return Ok(Provided {
                        meta: resource_meta,
                        template,
                        state,
                        report,
                        attempts: attempt,
                        secrets,
                    });
                }
                Err(e) => {
                    last = e.to_string();
                    conversation.push((reply, last.clone()));
                }
            }
        }
        Err(CoderError::GaveUp {
            attempts: self.max_attempts.max(1),
            last,
        })
    }
}

/// Applies and verifies; a META that does not verify is destroyed again.
async fn apply_verified(
    applier: &impl Applier,
    page: &PageContext,
    resource_meta: &ResourceMeta,
) -> Result<(Meta, ProvisionState), ProvisionError> {
    let meta = Meta::new(&page.source, resource_meta, &page.region, Suffix::random())?;
    meta.check_key_attributes()?;
    let mut state = applier.apply(&meta).await?;
    if let Err(e) = applier.verify(&meta, &state).await {
        let destroyed = applier.destroy(&mut state).await;
        return Err(match destroyed.into_result() {
            Ok(_) => e,
            Err(left) => ProvisionError::ApplyFailed {
                cause: Box::new(e),
                destroyed: Vec::new(),
                leftovers: match left {
                    ProvisionError::Destroy { failures } => failures,
                    _ => Vec::new(),
                },
            },
        });
    }
    Ok((meta, state))
}

fn describe_existing(existing: &[ResourceRecord]) -> String {
    let names: Vec<String> = existing.iter().map(|r| format!("{} {}", r.address, r.id)).collect();
    names.join(", ")
}

/// Offers a template that worked at run time to the META library: written as
/// `<dir>/<slug>.meta.toml` (`.2`, `.3`, … when one is there already; nothing is overwritten).
pub fn offer_candidate(dir: &Path, slug: &str, request: &str, meta: &ResourceMeta) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let slug: String = slug
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let mut n = 1;
    loop {
        let name = if n == 1 {
            format!("{slug}.meta.toml")
        } else {
            format!("{slug}.{n}.meta.toml")
        };
        let path = dir.join(name);
        let comment: String = request.lines().map(|l| format!("# {l}\n")).collect();
        let text = format!(
            "# A META candidate: provisioned at run time for the request below, then verified.\n{comment}\n{}",
            meta_table(meta)
        );
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(mut file) => {
                std::io::Write::write_all(&mut file, text.as_bytes())?;
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => n += 1,
            Err(e) => return Err(e),
        }
    }
}
