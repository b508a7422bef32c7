//! The platform's HTTP API, served by `aca server` beside the companion API:
//!
//! - `POST /v1/jobs` `{"tree", "sources": [folder | page | sitemap URL], "priority"?, "max_attempts"?}`:
//!   queue every page of the sources; `GET /v1/jobs?state=&limit=`, `GET /v1/jobs/{id}`,
//!   `DELETE /v1/jobs/{id}` (cancel).
//! - `GET /v1/results/runs?tree=&limit=`, `GET /v1/results/runs/{id}` (the whole report),
//!   `GET /v1/results/runs/{id}/files/{path}` (its HTML and marked screenshots),
//!   `GET /v1/results/history?page=` (a page's runs in order), `GET /v1/results/defects` (each page's
//!   latest defects, new or known, and those fixed since), `POST /v1/results/defects/known`.
//! - `GET /v1/results/overview?days=`: runs per day, pass rates by product and by tree, defects by
//!   kind (new, known, fixed), flaky pages; `GET /v1/results/export/junit?tree=` and
//!   `/v1/results/export/csv?tree=`: each page's latest run for CI systems;
//!   `POST /v1/jobs/{id}/rerun`: the job's page queued again.
//! - `GET /v1/schedules`, `PUT /v1/schedules/{tree}` `{"cron", "sources", "priority"?}`,
//!   `DELETE /v1/schedules/{tree}`.
//! - `GET /metrics`: queue depth, runs by verdict, run durations, tokens and cost (Prometheus text).
//! - `PUT /v1/uploads/{job}/{attempt}/{path}`: a report file a run in a Kubernetes pod sends back,
//!   with that attempt's own token (see [`super::uploads`]).
//! - `POST /v1/session` `{"token"}`, `GET /v1/session`, `DELETE /v1/session`: the dashboard's sign-in
//!   (see [`super::auth`]).
//!
//! Reading is open to whoever reaches the server. Queueing, cancelling and scheduling need the admin
//! token; re-running and marking defects as known need a user (their token, or the dashboard's
//! session). Errors are `{"Code": …, "Message": …}`.

use std::sync::Arc;

use aca_core::results::{Group, KindCount, Overview};
use aca_platform::queue::JobState;
use aca_platform::schedule::Schedules;
use aca_platform::{NewJob, PlatformError, Queue, Results, Schedule, Sessions, now_ms};
use aca_service::{SharedUsers, refuse};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use serde::Deserialize;
use tower::ServiceExt as _;

use super::auth::{self, Admin, Signed};
use super::uploads::{self, Uploads};
use super::{blocking, sources};

/// What the platform API serves from.
pub struct Platform {
    pub queue: Queue,
    pub results: Results,
    pub schedules: Schedules,
    /// Who holds the admin token and the users' tokens (shared with the companion API).
    pub users: SharedUsers,
    /// The dashboard's signed-in users.
    pub sessions: Sessions,
    /// Report files runs in Kubernetes pods send back; `None`: this server takes none.
    pub uploads: Option<Uploads>,
    /// Attempts a job gets unless the request says otherwise.
    pub default_attempts: i64,
    /// Durations of the runs this server's workers finished.
    pub durations: Histogram,
}

impl Platform {
    pub fn new(queue: Queue, users: SharedUsers, uploads: Option<Uploads>, default_attempts: i64) -> Arc<Self> {
        let db = queue.db().clone();
        Arc::new(Self {
            results: Results::new(db.clone()),
            schedules: Schedules::new(db.clone()),
            sessions: Sessions::new(db),
            queue,
            users,
            uploads,
            default_attempts,
            durations: Histogram::new(exponential_buckets(1.0, 2.0, 12)),
        })
    }

    /// Queues every page of `sources` under `tree`.
    pub async fn submit(
        &self,
        tree: &str,
        sources_given: &[String],
        priority: i64,
        max_attempts: i64,
    ) -> Result<aca_platform::queue::Submitted, String> {
        let mut jobs = Vec::new();
        for source in sources_given {
            let pages = sources::expand(source).await.map_err(|e| format!("{e:#}"))?;
            jobs.extend(pages.into_iter().map(|page| NewJob {
                tree: tree.to_owned(),
                page,
                priority,
                max_attempts,
            }));
        }
        let queue = self.queue.clone();
        blocking(move || queue.submit(&jobs, now_ms()))
            .await
            .map_err(|e| e.to_string())
    }
}

pub fn routes(platform: Arc<Platform>) -> Router {
    Router::new()
        .route("/v1/jobs", post(submit).get(list_jobs))
        .route("/v1/jobs/{id}", get(job).delete(cancel))
        .route("/v1/results/runs", get(runs))
        .route("/v1/results/runs/{id}", get(run_report))
        .route("/v1/results/runs/{id}/files/{*path}", get(run_file))
        .route("/v1/results/history", get(history))
        .route("/v1/results/defects", get(defects))
        .route("/v1/results/defects/known", post(mark_known))
        .route("/v1/results/overview", get(overview))
        .route("/v1/results/export/junit", get(export_junit))
        .route("/v1/results/export/csv", get(export_csv))
        .route("/v1/jobs/{id}/rerun", post(rerun))
        .route("/v1/schedules", get(list_schedules))
        .route("/v1/schedules/{tree}", put(save_schedule).delete(remove_schedule))
        .route(
            "/v1/session",
            post(auth::sign_in).get(auth::current).delete(auth::sign_out),
        )
        .route(
            "/v1/uploads/{job}/{attempt}/{*path}",
            put(uploads::receive).layer(DefaultBodyLimit::max(uploads::MAX_FILE_BYTES)),
        )
        .route("/metrics", get(metrics))
        .with_state(platform)
}

type Shared = State<Arc<Platform>>;

pub(super) fn failure(e: PlatformError) -> Response {
    let (status, code) = match &e {
        PlatformError::NotFound(_) => (StatusCode::NOT_FOUND, "NotFound"),
        PlatformError::Config(_) => (StatusCode::BAD_REQUEST, "InvalidParameter"),
        PlatformError::Conflict(_) => (StatusCode::CONFLICT, "Conflict"),
        PlatformError::Unavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, "DatabaseUnavailable"),
        PlatformError::Database(_) => (StatusCode::INTERNAL_SERVER_ERROR, "DatabaseError"),
    };
    refuse(status, code, e.to_string())
}

fn answer<T: serde::Serialize>(result: Result<T, PlatformError>) -> Response {
    match result {
        Ok(value) => Json(value).into_response(),
        Err(e) => failure(e),
    }
}

#[derive(Debug, Deserialize)]
struct SubmitRequest {
    tree: String,
    sources: Vec<String>,
    #[serde(default)]
    priority: i64,
    max_attempts: Option<i64>,
}

async fn submit(State(platform): Shared, _: Admin, Json(request): Json<SubmitRequest>) -> Response {
    if request.tree.trim().is_empty() || request.sources.is_empty() {
        return refuse(
            StatusCode::BAD_REQUEST,
            "InvalidParameter",
            "name the tree and at least one source (a folder, a page or a sitemap URL)",
        );
    }
    let attempts = request.max_attempts.unwrap_or(platform.default_attempts).clamp(1, 20);
    match platform
        .submit(&request.tree, &request.sources, request.priority, attempts)
        .await
    {
        Ok(submitted) => (StatusCode::CREATED, Json(submitted)).into_response(),
        Err(why) => refuse(StatusCode::BAD_REQUEST, "InvalidSource", why),
    }
}

#[derive(Debug, Deserialize)]
struct ListQuery {
    state: Option<JobState>,
    tree: Option<String>,
    limit: Option<i64>,
}

async fn list_jobs(State(platform): Shared, Query(query): Query<ListQuery>) -> Response {
    let queue = platform.queue.clone();
    let limit = query.limit.unwrap_or(100).clamp(1, 10_000);
    answer(blocking(move || queue.list(query.state, limit)).await)
}

async fn job(State(platform): Shared, Path(id): Path<String>) -> Response {
    let queue = platform.queue.clone();
    answer(blocking(move || queue.get(&id)).await)
}

async fn cancel(State(platform): Shared, _: Admin, Path(id): Path<String>) -> Response {
    let queue = platform.queue.clone();
    answer(
        blocking(move || {
            let state = queue.cancel(&id, "the admin", now_ms())?;
            Ok(serde_json::json!({ "id": id, "state": state }))
        })
        .await,
    )
}

async fn runs(State(platform): Shared, Query(query): Query<ListQuery>) -> Response {
    let results = platform.results.clone();
    let limit = query.limit.unwrap_or(100).clamp(1, 10_000);
    answer(blocking(move || results.runs(query.tree.as_deref(), limit)).await)
}

async fn run_report(State(platform): Shared, Path(id): Path<String>) -> Response {
    let results = platform.results.clone();
    answer(blocking(move || results.report(&id)).await)
}

/// A file of a run's report folder (`report.html`, `shots/turn-03.png`); nothing outside it.
async fn run_file(
    State(platform): Shared,
    Path((id, path)): Path<(String, String)>,
    request: axum::extract::Request,
) -> Response {
    let Some(relative) = super::plain_relative(&path) else {
        return refuse(
            StatusCode::BAD_REQUEST,
            "InvalidParameter",
            "a file of the run's report folder",
        );
    };
    let results = platform.results.clone();
    let file = match blocking(move || results.report_dir(&id)).await {
        Ok(Some(folder)) => std::path::Path::new(&folder).join(relative),
        Ok(None) => return refuse(StatusCode::NOT_FOUND, "NotFound", "the run wrote no report files"),
        Err(e) => return failure(e),
    };
    if !file.is_file() {
        return refuse(StatusCode::NOT_FOUND, "NotFound", format!("the run has no file {path}"));
    }
    match tower_http::services::ServeFile::new(file).oneshot(request).await {
        Ok(served) => served.into_response(),
        Err(never) => match never {},
    }
}

#[derive(Debug, Deserialize)]
struct PageQuery {
    page: String,
}

async fn history(State(platform): Shared, Query(query): Query<PageQuery>) -> Response {
    let results = platform.results.clone();
    answer(blocking(move || results.page_history(&query.page)).await)
}

async fn defects(State(platform): Shared) -> Response {
    let results = platform.results.clone();
    answer(blocking(move || results.current_defects()).await)
}

#[derive(Debug, Deserialize)]
struct OverviewQuery {
    /// How many days of runs the daily counts cover.
    days: Option<i64>,
}

/// Everything the dashboard's first view shows, in one answer.
async fn overview(State(platform): Shared, Query(query): Query<OverviewQuery>) -> Response {
    let results = platform.results.clone();
    let since = now_ms() - query.days.unwrap_or(30).clamp(1, 3650) * 86_400_000;
    answer(
        blocking(move || {
            let latest = results.latest(None)?;
            let defects = results.current_defects()?;
            Ok(Overview {
                totals: results.totals()?,
                per_day: results.runs_per_day(since)?,
                by_product: Group::of(&latest, |r| r.product.as_deref().unwrap_or("unknown")),
                by_tree: Group::of(&latest, |r| r.tree.as_str()),
                defects_by_kind: KindCount::of(&defects),
                flaky: results.flaky_pages()?,
            })
        })
        .await,
    )
}

async fn export_junit(State(platform): Shared, Query(query): Query<ListQuery>) -> Response {
    let results = platform.results.clone();
    let tree = query.tree;
    let answer = blocking(move || Ok((results.latest(tree.as_deref())?, results.current_defects()?))).await;
    match answer {
        Ok((runs, defects)) => match super::export::junit(&runs, &defects) {
            Ok(xml) => ([(header::CONTENT_TYPE, "application/xml; charset=utf-8")], xml).into_response(),
            Err(why) => refuse(StatusCode::INTERNAL_SERVER_ERROR, "ExportError", why),
        },
        Err(e) => failure(e),
    }
}

async fn export_csv(State(platform): Shared, Query(query): Query<ListQuery>) -> Response {
    let results = platform.results.clone();
    let tree = query.tree;
    match blocking(move || results.latest(tree.as_deref())).await {
        Ok(runs) => match super::export::csv(&runs) {
            Ok(text) => ([(header::CONTENT_TYPE, "text/csv; charset=utf-8")], text).into_response(),
            Err(why) => refuse(StatusCode::INTERNAL_SERVER_ERROR, "ExportError", why),
        },
        Err(e) => failure(e),
    }
}

/// Queues a job's page again, under its tree and priority.
async fn rerun(State(platform): Shared, _: Signed, Path(id): Path<String>) -> Response {
    let queue = platform.queue.clone();
    let attempts = platform.default_attempts;
    answer(
        blocking(move || {
            let job = queue.get(&id)?;
            let again = NewJob {
                tree: job.tree,
                page: job.page,
                priority: job.priority,
                max_attempts: attempts,
            };
            queue.submit(&[again], now_ms())
        })
        .await,
    )
}

#[derive(Debug, Deserialize)]
struct KnownRequest {
    page: String,
    kind: String,
    step: String,
    documented: String,
}

async fn mark_known(State(platform): Shared, signed: Signed, Json(request): Json<KnownRequest>) -> Response {
    let results = platform.results.clone();
    answer(
        blocking(move || {
            results.mark_known(
                &request.page,
                &request.kind,
                &request.step,
                &request.documented,
                signed.name(),
            )?;
            Ok(serde_json::json!({ "known": true }))
        })
        .await,
    )
}

async fn list_schedules(State(platform): Shared) -> Response {
    let schedules = platform.schedules.clone();
    answer(blocking(move || schedules.list()).await)
}

#[derive(Debug, Deserialize)]
struct ScheduleRequest {
    cron: String,
    sources: Vec<String>,
    #[serde(default)]
    priority: i64,
}

async fn save_schedule(
    State(platform): Shared,
    _: Admin,
    Path(tree): Path<String>,
    Json(request): Json<ScheduleRequest>,
) -> Response {
    let schedules = platform.schedules.clone();
    let schedule = Schedule {
        tree,
        cron: request.cron,
        sources: request.sources,
        priority: request.priority,
        next_ms: 0,
    };
    answer(blocking(move || schedules.save(&schedule, now_ms())).await)
}

async fn remove_schedule(State(platform): Shared, _: Admin, Path(tree): Path<String>) -> Response {
    let schedules = platform.schedules.clone();
    answer(
        blocking(move || {
            schedules.remove(&tree)?;
            Ok(serde_json::json!({ "removed": tree }))
        })
        .await,
    )
}

/// Reads the figures from the database at each scrape, so every server on one database answers the
/// same, and a restart loses none of them.
async fn metrics(State(platform): Shared) -> Response {
    use prometheus_client::metrics::counter::Counter;
    use prometheus_client::metrics::family::Family;
    use prometheus_client::metrics::gauge::Gauge;

    let (queue, results) = (platform.queue.clone(), platform.results.clone());
    let figures = blocking(move || Ok((queue.depth()?, results.totals()?))).await;
    let (depth, totals) = match figures {
        Ok(figures) => figures,
        Err(e) => return failure(e),
    };
    let mut registry = prometheus_client::registry::Registry::with_prefix("aca_platform");
    let jobs = Family::<Vec<(String, String)>, Gauge>::default();
    for (state, n) in [
        ("queued", depth.queued),
        ("running", depth.running),
        ("done", depth.done),
        ("failed", depth.failed),
        ("cancelled", depth.cancelled),
    ] {
        jobs.get_or_create(&vec![("state".into(), state.into())]).set(n);
    }
    registry.register("jobs", "Jobs by state (queued is the queue's depth)", jobs);
    let runs = Family::<Vec<(String, String)>, Counter>::default();
    for (verdict, n) in &totals.by_verdict {
        runs.get_or_create(&vec![("verdict".into(), verdict.clone())])
            .inc_by(*n as u64);
    }
    registry.register("runs", "Runs recorded, by verdict", runs);
    let tokens = Family::<Vec<(String, String)>, Counter>::default();
    tokens
        .get_or_create(&vec![("kind".into(), "prompt".into())])
        .inc_by(totals.prompt_tokens as u64);
    tokens
        .get_or_create(&vec![("kind".into(), "completion".into())])
        .inc_by(totals.completion_tokens as u64);
    registry.register("model_tokens", "Model tokens over every recorded run", tokens);
    for (name, help, value) in [
        (
            "model_screenshots",
            "Screenshots shown to the model over every recorded run",
            totals.images,
        ),
        (
            "model_image_tokens",
            "Prompt tokens that were screenshots, over every recorded run (counted in model_tokens too)",
            totals.image_tokens,
        ),
    ] {
        let counter = Counter::<u64>::default();
        counter.inc_by(value as u64);
        registry.register(name, help, counter);
    }
    let cost = Counter::<f64, std::sync::atomic::AtomicU64>::default();
    cost.inc_by(totals.cost_usd);
    registry.register("model_cost_usd", "Model cost in USD over every recorded run", cost);
    let run_time = Counter::<f64, std::sync::atomic::AtomicU64>::default();
    run_time.inc_by(totals.duration_ms as f64 / 1000.0);
    registry.register("run_seconds", "Time spent in recorded runs", run_time);
    registry.register(
        "run_duration_seconds",
        "Durations of the runs this server's workers finished since it started",
        platform.durations.clone(),
    );
    let mut text = String::new();
    if let Err(e) = prometheus_client::encoding::text::encode(&mut text, &registry) {
        return refuse(StatusCode::INTERNAL_SERVER_ERROR, "MetricsError", e.to_string());
    }
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        text,
    )
        .into_response()
}
