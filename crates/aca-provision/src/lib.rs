//! Provisioning of Resource META: the resources a procedure needs, created before its episode with
//! unique names, verified through the API, and destroyed afterwards.
//!
//! A META's C_create / C_destroy is a Terraform configuration for the `alicloud` provider.
//! [`config`] reads it with `hcl-rs` and [`graph`] orders its blocks; an [`Applier`] applies,
//! verifies and destroys it: [`EmulatorApplier`] interprets it against the signed OpenAPI (the
//! bundled emulator by default), [`TerraformApplier`] runs a real `terraform`/`tofu` binary.
//! [`identity`] is the RAM user the provisioner acts as in a run's account, so that its calls are
//! told apart from the procedure's in ActionTrail; [`run`] is one run's provisioning there
//! (identity, META, the agent's requests, teardown) through either applier, for `aca verify` and
//! for the companion API's runs (aca-service). [`report`] turns the result into bindings for
//! the success rules and a resource report for the agent's prompt; [`state`] keeps it on disk
//! between commands; [`task`] finds a page's META; [`pool`] lends isolated accounts, checks them and cleans them before they go back; [`coder`]
//! writes the META of pages that have none, offline and at the agent's request during a run.

pub mod applier;
pub mod coder;
pub mod config;
pub mod emulator;
pub mod error;
pub mod graph;
pub mod identity;
pub mod pool;
pub mod report;
pub mod run;
pub mod secret;
pub mod state;
pub mod suffix;
pub mod task;
pub mod terraform;

pub use applier::{Applier, DestroyReport, Meta, Plan, VerifyReport};
pub use coder::{CoderError, PageContext, ResourceCoder};
pub use emulator::{AccessKey, EmulatorApplier, Progress, WaitPolicy};
pub use error::{ApiFailure, DestroyFailure, ProvisionError, VerifyFailure};
pub use identity::{IdentityError, ProvisionerIdentity};
pub use report::{ResourceReport, bindings};
pub use run::{RunApplier, RunError, RunPlace, RunProvisioning, Told};
pub use secret::{RunSecrets, Secret};
pub use state::{ProvisionState, ResourceRecord};
pub use suffix::Suffix;
pub use terraform::TerraformApplier;

/// The resource types the emulator applier can create, sorted.
pub fn supported_resource_types() -> Vec<&'static str> {
    let mut names: Vec<&str> = emulator::types::resource_types().iter().map(|t| t.name()).collect();
    names.sort_unstable();
    names
}
