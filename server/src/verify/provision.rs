//! The resources a page needs, provisioned before its episode from the page's Resource META and
//! destroyed after it, whatever happened in between.

use aca_agent::ResourceReport;
use aca_core::TaskSpec;
use aca_provision::report::resource_name;
use aca_provision::{AccessKey, Applier, EmulatorApplier, Meta, ProvisionState, Suffix, TerraformApplier};

use super::target::RunAccount;

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

/// Applies and verifies the task's META. `Ok(None)` when the page needs nothing.
pub async fn provision(
    provider: &Provider,
    account: &RunAccount,
    source: &str,
    task: &TaskSpec,
) -> Result<Option<Provisioned>, String> {
    let Some(resource_meta) = &task.meta else {
        return Ok(None);
    };
    let meta = Meta::new(source, resource_meta, &task.region, Suffix::random()).map_err(|e| e.to_string())?;
    let state = match provider {
        Provider::Emulator(endpoint) => {
            let applier = EmulatorApplier::new(endpoint, key(account)).map_err(|e| e.to_string())?;
            apply_and_verify(&applier, &meta).await?
        }
        Provider::Terraform(workspace) => apply_and_verify(&TerraformApplier::new(workspace), &meta).await?,
    };
    let structured = aca_provision::ResourceReport::new(&meta.description, &state, &meta.key_attributes);
    let names = state.created().filter_map(resource_name).collect();
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
pub async fn destroy(provider: &Provider, account: &RunAccount, mut provisioned: Provisioned) -> Vec<String> {
    let report = match provider {
        Provider::Emulator(endpoint) => match EmulatorApplier::new(endpoint, key(account)) {
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

fn key(account: &RunAccount) -> AccessKey {
    AccessKey {
        access_key_id: account.access_key_id.clone(),
        access_key_secret: account.access_key_secret.clone(),
    }
}
