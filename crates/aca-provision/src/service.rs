//! The provisioning API served beside the emulator's admin API (same bearer token), for clients that
//! cannot provision themselves (the browser extension): a run's provisioning is started for an
//! account (the ResourceCoder writes and applies the page's META), answers the agent's requests, and
//! is torn down at the end.
//!
//! - `POST /admin/accounts/{id}/provisions` `{procedure, product?, region, source}` →
//!   `201 {id, user_name, told, bindings}` (`told` is `null` when the page needs nothing)
//! - `POST /admin/provisions/{id}/requests` `{description}` → `{told, bindings}`
//! - `DELETE /admin/provisions/{id}` → `{left}`, what could not be destroyed

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use aca_console::Console;
use aca_console::api::admin::{admin_error, require_admin};
use aca_core::Procedure;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::Mutex;

use crate::coder::PageContext;
use crate::emulator::AccessKey;
use crate::run::{RunError, RunProvisioning};

/// The runs being provisioned, by id.
struct Service {
    console: Arc<Console>,
    /// The console's own URL: provisioning calls its signed OpenAPI like any client.
    endpoint: String,
    runs: Mutex<HashMap<String, Arc<Mutex<Option<RunProvisioning>>>>>,
}

/// The routes, for `aca_console::Serving::start_with`.
pub fn routes(console: Arc<Console>, endpoint: &str) -> Router {
    let service = Arc::new(Service {
        console: console.clone(),
        endpoint: endpoint.to_owned(),
        runs: Mutex::new(HashMap::new()),
    });
    Router::new()
        .route("/admin/accounts/{id}/provisions", post(start))
        .route("/admin/provisions/{id}/requests", post(request))
        .route("/admin/provisions/{id}", delete(finish))
        .route_layer(middleware::from_fn_with_state(console, require_admin))
        .with_state(service)
}

#[derive(Debug, Deserialize)]
struct StartRun {
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
struct Request {
    description: String,
}

fn failed(error: &RunError) -> Response {
    let (status, code) = match error {
        RunError::Request(_) => (StatusCode::UNPROCESSABLE_ENTITY, "ResourceUnavailable"),
        _ => (StatusCode::BAD_GATEWAY, "ProvisioningFailed"),
    };
    admin_error(status, code, &error.to_string())
}

fn no_run(id: &str) -> Response {
    admin_error(
        StatusCode::NOT_FOUND,
        "ProvisioningNotFound",
        &format!("no run is being provisioned as {id}"),
    )
}

async fn start(
    State(service): State<Arc<Service>>,
    Path(account): Path<String>,
    Json(body): Json<StartRun>,
) -> Response {
    let credentials = match service.console.credentials(&account) {
        Ok(c) => c,
        Err(e) => return admin_error(StatusCode::NOT_FOUND, "AccountNotFound", &e.to_string()),
    };
    let root = AccessKey {
        access_key_id: credentials.access_key_id,
        access_key_secret: credentials.access_key_secret,
    };
    let page = PageContext {
        procedure: body.procedure,
        product: body.product,
        region: body.region,
        source: body.source,
    };
    let mut run = match RunProvisioning::start(&service.endpoint, root, page).await {
        Ok(run) => run,
        Err(e) => return failed(&e),
    };
    let told = match run.generate_and_apply().await {
        Ok(told) => told,
        Err(e) => {
            let left = run.finish().await;
            let mut message = e.to_string();
            if !left.is_empty() {
                message.push_str(&format!("; cleanup left: {}", left.join("; ")));
            }
            return admin_error(StatusCode::BAD_GATEWAY, "ProvisioningFailed", &message);
        }
    };
    let id = uuid::Uuid::new_v4().to_string();
    let answer = json!({
        "id": id,
        "user_name": run.user_name(),
        "told": told,
        "bindings": run.bindings(),
    });
    service.runs.lock().await.insert(id, Arc::new(Mutex::new(Some(run))));
    (StatusCode::CREATED, Json(answer)).into_response()
}

async fn request(State(service): State<Arc<Service>>, Path(id): Path<String>, Json(body): Json<Request>) -> Response {
    let Some(run) = service.runs.lock().await.get(&id).cloned() else {
        return no_run(&id);
    };
    let mut run = run.lock().await;
    let Some(run) = run.as_mut() else {
        return no_run(&id);
    };
    match run.request(&body.description, None).await {
        Ok(told) => Json(json!({ "told": told, "bindings": run.bindings() })).into_response(),
        Err(e) => failed(&e),
    }
}

async fn finish(State(service): State<Arc<Service>>, Path(id): Path<String>) -> Response {
    let Some(run) = service.runs.lock().await.remove(&id) else {
        return no_run(&id);
    };
    let Some(run) = run.lock().await.take() else {
        return no_run(&id);
    };
    let left: Vec<String> = run.finish().await;
    let report: BTreeMap<&str, Vec<String>> = BTreeMap::from([("left", left)]);
    Json(report).into_response()
}
