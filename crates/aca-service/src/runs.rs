//! One run in an account assigned to the caller: started with what the page needs provisioned (by
//! the provisioner's own RAM user, through the account's one OpenAPI address or with Terraform in
//! the real cloud), answering the agent's requests for more,
//! decided by the reward service over the run's own audit window, and torn down at the end. Only
//! the caller who started a run can see or end it.
//!
//! - `POST /v1/runs` `{account_id?, procedure, product?, region?, source?}` →
//!   `201 {id, account_id, login, console_url, region, window, provisioner, told, bindings}`
//! - `POST /v1/runs/{id}/requests` `{description}` → `{told, bindings}`
//! - `POST /v1/runs/{id}/reward` `{rule?, procedure?, deadline_ms?, judge_case?}` → a `RewardResponse`
//! - `DELETE /v1/runs/{id}` → `{left}`: what could not be destroyed

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use aca_core::{Procedure, SuccessRule};
use aca_provision::coder::PageContext;
use aca_provision::emulator::AccessKey;
use aca_provision::run::{RunError, RunPlace, RunProvisioning};
use aca_reward::service::{AuditWindow, RewardRequest};
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::Mutex;

use crate::error::refuse;
use crate::{AccountAccess, Caller, Companion};

/// One run the service keeps.
pub struct Run {
    /// The caller who started it.
    owner: String,
    account: AccountAccess,
    region: String,
    window: AuditWindow,
    provisioning: Option<RunProvisioning>,
    /// Terraform's working folder for the run (removed at its end).
    workspace: std::path::PathBuf,
}

/// The runs in progress, by id.
#[derive(Default)]
pub struct Runs {
    by_id: HashMap<String, Arc<Mutex<Run>>>,
}

#[derive(Debug, Deserialize)]
pub struct StartRun {
    /// Which assigned account; may be left out when the caller has exactly one.
    #[serde(default)]
    account_id: Option<String>,
    procedure: Procedure,
    #[serde(default)]
    product: Option<String>,
    #[serde(default = "default_region")]
    region: String,
    /// Names the page in errors and reports.
    #[serde(default)]
    source: String,
}

fn default_region() -> String {
    "cn-hangzhou".into()
}

#[derive(Debug, Deserialize)]
pub struct ResourceRequest {
    description: String,
}

#[derive(Debug, Default, Deserialize)]
pub struct RunReward {
    #[serde(default)]
    rule: Option<SuccessRule>,
    #[serde(default)]
    procedure: Option<Procedure>,
    #[serde(default)]
    deadline_ms: Option<u64>,
    /// What the judges are shown when no rule applies.
    #[serde(default)]
    judge_case: Option<aca_reward::JudgeCase>,
    /// Stretches of the run (a person's take-overs) whose events the answer lists apart (read
    /// within the run's own window only).
    #[serde(default)]
    attribute: Vec<AuditWindow>,
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The account a run of `caller` goes to; `Err` is the refusal to answer with.
#[allow(clippy::result_large_err)]
fn account_for(companion: &Companion, caller: &Caller, asked: Option<&str>) -> Result<AccountAccess, Response> {
    let id = match (asked, caller) {
        (Some(id), _) => id.to_owned(),
        (None, Caller::User(user)) if user.accounts.len() == 1 => user.accounts[0].clone(),
        (None, _) => {
            return Err(refuse(
                StatusCode::BAD_REQUEST,
                "AccountRequired",
                "name the account_id to run in (you may use several)",
            ));
        }
    };
    if !caller.may_use(&id) {
        return Err(refuse(
            StatusCode::FORBIDDEN,
            "AccountNotAssigned",
            format!("account {id} is not assigned to {}", caller.name()),
        ));
    }
    companion.access(&id).ok_or_else(|| {
        refuse(
            StatusCode::NOT_FOUND,
            "AccountNotFound",
            format!("this server holds no credentials for account {id}"),
        )
    })
}

fn provisioning_failed(error: &RunError) -> Response {
    let (status, code) = match error {
        RunError::Request(_) => (StatusCode::UNPROCESSABLE_ENTITY, "ResourceUnavailable"),
        _ => (StatusCode::BAD_GATEWAY, "ProvisioningFailed"),
    };
    refuse(status, code, error.to_string())
}

/// `POST /v1/runs`.
pub async fn start(State(companion): State<Arc<Companion>>, caller: Caller, Json(body): Json<StartRun>) -> Response {
    let account = match account_for(&companion, &caller, body.account_id.as_deref()) {
        Ok(a) => a,
        Err(refused) => return refused,
    };
    let id = uuid::Uuid::new_v4().to_string();
    let root = AccessKey {
        access_key_id: account.key.access_key_id.clone(),
        access_key_secret: account.key.access_key_secret.clone(),
    };
    let page = PageContext {
        procedure: body.procedure,
        product: body.product,
        region: body.region.clone(),
        source: body.source,
    };
    // Terraform's state holds secrets: each apply's folder under this one is the server's only.
    let workspace = std::env::temp_dir().join("aca-companion-runs").join(&id);
    let place = RunPlace::of(&account.endpoints, &body.region, &workspace);
    let mut run = match RunProvisioning::start_in(&place, root, page).await {
        Ok(run) => run,
        Err(e) => return provisioning_failed(&e),
    };
    let told = match run.generate_and_apply().await {
        Ok(told) => told,
        Err(e) => {
            let left = run.finish().await;
            let mut message = e.to_string();
            if left.is_empty() {
                let _ = std::fs::remove_dir_all(&workspace);
            } else {
                message.push_str(&format!("; cleanup left: {}", left.join("; ")));
            }
            return refuse(StatusCode::BAD_GATEWAY, "ProvisioningFailed", message);
        }
    };
    let provisioning = Some(run);
    // The window opens once what the page needs exists: the episode starts now.
    let window = AuditWindow::of_run(now_ms());
    let answer = json!({
        "id": id,
        "account_id": account.account_id,
        "login": account.login,
        "console_url": account.console_url,
        "region": body.region,
        "window": window,
        "provisioner": provisioning.as_ref().and_then(RunProvisioning::user_name),
        "told": told,
        "bindings": provisioning.as_ref().map(RunProvisioning::bindings).unwrap_or_default(),
    });
    let run = Run {
        owner: caller.name().to_owned(),
        account,
        region: body.region,
        window,
        provisioning,
        workspace,
    };
    companion.runs.lock().await.by_id.insert(id, Arc::new(Mutex::new(run)));
    (StatusCode::CREATED, Json(answer)).into_response()
}

/// The caller's run `id`; another caller's run is as unknown as a missing one.
#[allow(clippy::result_large_err)]
async fn owned(companion: &Companion, caller: &Caller, id: &str) -> Result<Arc<Mutex<Run>>, Response> {
    let missing = || {
        refuse(
            StatusCode::NOT_FOUND,
            "RunNotFound",
            format!("no run {id} of {} is in progress", caller.name()),
        )
    };
    let run = companion.runs.lock().await.by_id.get(id).cloned().ok_or_else(missing)?;
    let owner = run.lock().await.owner.clone();
    if owner != caller.name() && *caller != Caller::Admin {
        return Err(missing());
    }
    Ok(run)
}

/// `POST /v1/runs/{id}/requests`.
pub async fn request(
    State(companion): State<Arc<Companion>>,
    caller: Caller,
    Path(id): Path<String>,
    Json(body): Json<ResourceRequest>,
) -> Response {
    let run = match owned(&companion, &caller, &id).await {
        Ok(run) => run,
        Err(refused) => return refused,
    };
    let mut run = run.lock().await;
    let Some(provisioning) = run.provisioning.as_mut() else {
        return refuse(
            StatusCode::UNPROCESSABLE_ENTITY,
            "ResourceUnavailable",
            "this run provisions nothing",
        );
    };
    match provisioning.request(&body.description, None).await {
        Ok(told) => Json(json!({
            "told": told,
            "bindings": provisioning.bindings(),
            "provisioner": provisioning.user_name(),
        }))
        .into_response(),
        Err(e) => provisioning_failed(&e),
    }
}

/// `POST /v1/runs/{id}/reward`: the reward service over the run's account, region, window,
/// bindings and provisioner.
pub async fn reward(
    State(companion): State<Arc<Companion>>,
    caller: Caller,
    Path(id): Path<String>,
    body: Option<Json<RunReward>>,
) -> Response {
    let run = match owned(&companion, &caller, &id).await {
        Ok(run) => run,
        Err(refused) => return refused,
    };
    let body = body.map(|Json(b)| b).unwrap_or_default();
    let (request, account) = {
        let run = run.lock().await;
        let request = RewardRequest {
            account_id: run.account.account_id.clone(),
            region: run.region.clone(),
            window: run.window,
            rule: body.rule,
            procedure: body.procedure,
            bindings: run
                .provisioning
                .as_ref()
                .map(RunProvisioning::bindings)
                .unwrap_or_else(BTreeMap::new),
            exclude_users: run
                .provisioning
                .iter()
                .filter_map(RunProvisioning::user_name)
                .map(str::to_owned)
                .collect(),
            deadline_ms: body.deadline_ms,
            judge_case: body.judge_case,
            attribute: body.attribute,
        };
        (request, run.account.clone())
    };
    Json(crate::reward::decide_for(&account, &request, companion.judges()).await).into_response()
}

/// `DELETE /v1/runs/{id}`.
pub async fn finish(State(companion): State<Arc<Companion>>, caller: Caller, Path(id): Path<String>) -> Response {
    if let Err(refused) = owned(&companion, &caller, &id).await {
        return refused;
    }
    let Some(run) = companion.runs.lock().await.by_id.remove(&id) else {
        return refuse(
            StatusCode::NOT_FOUND,
            "RunNotFound",
            format!("no run {id} is in progress"),
        );
    };
    let (provisioning, workspace) = {
        let mut run = run.lock().await;
        (run.provisioning.take(), run.workspace.clone())
    };
    let left = match provisioning {
        Some(p) => p.finish().await,
        None => Vec::new(),
    };
    // Its state is kept while something could not be destroyed: a person may need it.
    if left.is_empty() {
        let _ = std::fs::remove_dir_all(&workspace);
    }
    Json(json!({ "left": left })).into_response()
}
