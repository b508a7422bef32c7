//! A generated META proven before it is kept: parsed, planned, created, verified and destroyed in a
//! scratch account; the destroy runs whatever happened before it.

use std::time::{Duration, Instant};

use aca_core::ResourceMeta;
use serde::Serialize;

use crate::applier::{Applier, Meta};
use crate::error::ProvisionError;
use crate::suffix::Suffix;

/// What a validation did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Validation {
    /// The addresses created, in order.
    pub created: Vec<String>,
    /// (resource, attribute, value) of every key attribute found to hold.
    pub checked: Vec<(String, String, String)>,
    pub destroyed: usize,
    /// The names of the bindings it gives a run (`vpc_id`, `bucket_name`, …), for its success rules.
    pub bindings: Vec<String>,
    pub took: Duration,
}

/// Why a META did not validate; `stage` is `parse`, `plan`, `apply`, `verify` or `destroy`.
#[derive(Debug, thiserror::Error)]
#[error("the generated META failed at {stage}: {error}")]
pub struct ValidationError {
    pub stage: &'static str,
    pub error: ProvisionError,
}

/// Creates, verifies and destroys `meta` with `applier` (a scratch account's).
pub async fn validate(
    applier: &impl Applier,
    source: &str,
    meta: &ResourceMeta,
    region: &str,
) -> Result<Validation, ValidationError> {
    let started = Instant::now();
    let at = |stage: &'static str| move |error: ProvisionError| ValidationError { stage, error };
    let meta = Meta::new(source, meta, region, Suffix::random()).map_err(at("parse"))?;
    meta.check_key_attributes().map_err(at("parse"))?;
    applier.plan(&meta).await.map_err(at("plan"))?;
    let mut state = applier.apply(&meta).await.map_err(at("apply"))?;
    let verified = applier.verify(&meta, &state).await;
    let created = state.created().map(|r| r.address.clone()).collect();
    let bindings = crate::report::bindings(&state).into_keys().collect();
    let destroyed = applier.destroy(&mut state).await;
    let verified = verified.map_err(at("verify"))?;
    let destroyed = destroyed.into_result().map_err(at("destroy"))?;
    Ok(Validation {
        created,
        checked: verified.checked,
        destroyed: destroyed.destroyed.len(),
        bindings,
        took: started.elapsed(),
    })
}
