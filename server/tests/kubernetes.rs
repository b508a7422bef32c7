//! Pages run as Kubernetes Jobs (`platform::kubernetes`), against a fake Kubernetes API server that
//! keeps its Jobs and pods and plays each Job's part (succeed with a log, fail, never find a node, fail
//! to pull its image, run forever): the Job a page becomes, the report read back from the pod's log,
//! failures and what they leave behind, a restarted server following its Job, orphans cleaned up.
//! The deployment's manifests are checked against the API's types. One test runs on a real cluster
//! when `ACA_TEST_KUBECONFIG` is set.

#![cfg(feature = "kubernetes")]

#[path = "../src/platform/kubernetes.rs"]
mod kubernetes;

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use aca_core::{Report, Verdict};
use axum::Router;
use axum::extract::{Path, Query, Request, State};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use kubernetes::{
    ATTEMPT_LABEL, FailureKind, JOB_ID_LABEL, JobTemplate, KubernetesRunner, MANAGED_BY, MANAGED_BY_LABEL,
    REPORT_LINE_PREFIX, RunFailure, TemplateError, job_name,
};
use serde_json::{Value, json};

const NAMESPACE: &str = "aca-runs";
const SECRET: &str = "aca-runner-env";
/// What the Secret holds in a real cluster; the runner must never see or repeat it.
const SECRET_VALUES: &[&str] = &["console-password-9f3a", "sk-model-key-77c1"];
const PAGE: &str = "/docs/vpc/create-vpc.md";

/// How a Job the fake holds plays out.
#[derive(Clone)]
enum Script {
    /// Running at the first look, then complete with this log (exit 0).
    Succeed { log: String },
    /// Running at the first look, then failed with this condition, exit code and log.
    Fail {
        reason: &'static str,
        message: &'static str,
        exit_code: i32,
        log: String,
    },
    /// Its pod stays pending: no node has room.
    NeverSchedule,
    /// Its pod is scheduled but its image cannot be pulled.
    ImagePullError,
    /// Running until deleted.
    RunForever,
}

struct FakeJob {
    job: Value,
    script: Script,
    looks: u32,
}

#[derive(Default)]
struct FakeState {
    jobs: BTreeMap<String, FakeJob>,
    script: Option<Script>,
    /// Looks at a Job answered 500 before the next one is answered.
    failing_looks: u32,
    /// `METHOD path?query` of every request.
    requests: Vec<String>,
    /// The bodies of the POSTs that created a Job.
    created: Vec<Value>,
    /// The Jobs deleted, with the DeleteOptions sent.
    deleted: Vec<(String, Value)>,
}

type Shared = Arc<Mutex<FakeState>>;

/// The fake Kubernetes API server, on a port of its own.
struct Fake {
    state: Shared,
    url: String,
}

impl Fake {
    async fn start() -> Self {
        let state = Shared::default();
        let jobs = "/apis/batch/v1/namespaces/{ns}/jobs";
        let app = Router::new()
            .route(jobs, get(list_jobs).post(create_job))
            .route(&format!("{jobs}/{{name}}"), get(get_job).delete(delete_job))
            .route("/api/v1/namespaces/{ns}/pods", get(list_pods))
            .route("/api/v1/namespaces/{ns}/pods/{pod}/log", get(pod_log))
            .fallback(not_served)
            .layer(middleware::from_fn_with_state(state.clone(), record))
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Self { state, url }
    }

    fn client(&self) -> kube::Client {
        kube::Client::try_from(kube::Config::new(self.url.parse().unwrap())).unwrap()
    }

    /// The Jobs created from now on play `script`.
    fn plays(&self, script: Script) {
        self.state.lock().unwrap().script = Some(script);
    }

    /// The next `looks` reads of a Job fail with 500 Internal Server Error.
    fn fail_looks(&self, looks: u32) {
        self.state.lock().unwrap().failing_looks = looks;
    }

    /// A Job someone else made, with these labels.
    fn add_job(&self, name: &str, labels: Value) {
        let job = json!({
            "apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"name": name, "namespace": NAMESPACE, "labels": labels},
            "spec": {"template": {"spec": {"containers": [{"name": "other"}]}}}
        });
        let fake_job = FakeJob {
            job: with_server_fields(job),
            script: Script::RunForever,
            looks: 0,
        };
        self.state.lock().unwrap().jobs.insert(name.to_owned(), fake_job);
    }

    fn job_names(&self) -> Vec<String> {
        self.state.lock().unwrap().jobs.keys().cloned().collect()
    }

    fn created(&self) -> Vec<Value> {
        self.state.lock().unwrap().created.clone()
    }

    fn deleted(&self) -> Vec<(String, Value)> {
        self.state.lock().unwrap().deleted.clone()
    }

    fn posts(&self) -> usize {
        let state = self.state.lock().unwrap();
        state.requests.iter().filter(|r| r.starts_with("POST ")).count()
    }

    fn requests(&self) -> Vec<String> {
        self.state.lock().unwrap().requests.clone()
    }
}

async fn record(State(state): State<Shared>, request: Request, next: Next) -> Response {
    let line = format!("{} {}", request.method(), request.uri());
    state.lock().unwrap().requests.push(line);
    next.run(request).await
}

async fn not_served(request: Request) -> Response {
    status(
        StatusCode::NOT_FOUND,
        "NotFound",
        &format!("the fake does not serve {}", request.uri()),
    )
}

async fn create_job(State(state): State<Shared>, Path(ns): Path<String>, body: String) -> Response {
    let job: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(ns, NAMESPACE);
    assert_eq!(job["metadata"]["namespace"], NAMESPACE);
    let name = job["metadata"]["name"].as_str().unwrap().to_owned();
    let mut state = state.lock().unwrap();
    if state.jobs.contains_key(&name) {
        return status(
            StatusCode::CONFLICT,
            "AlreadyExists",
            &format!("jobs.batch \"{name}\" already exists"),
        );
    }
    state.created.push(job.clone());
    let script = state.script.clone().expect("the test says how the Job plays out");
    let job = with_server_fields(job);
    state.jobs.insert(
        name,
        FakeJob {
            job: job.clone(),
            script,
            looks: 0,
        },
    );
    (StatusCode::CREATED, axum::Json(job)).into_response()
}

async fn get_job(State(state): State<Shared>, Path((_, name)): Path<(String, String)>) -> Response {
    let mut state = state.lock().unwrap();
    if state.failing_looks > 0 {
        state.failing_looks -= 1;
        return status(
            StatusCode::INTERNAL_SERVER_ERROR,
            "InternalError",
            "etcdserver: request timed out",
        );
    }
    match state.jobs.get_mut(&name) {
        Some(job) => {
            job.looks += 1;
            axum::Json(job_now(job)).into_response()
        }
        None => status(
            StatusCode::NOT_FOUND,
            "NotFound",
            &format!("jobs.batch \"{name}\" not found"),
        ),
    }
}

async fn list_jobs(State(state): State<Shared>, Query(query): Query<HashMap<String, String>>) -> axum::Json<Value> {
    let state = state.lock().unwrap();
    let selector = query.get("labelSelector").cloned().unwrap_or_default();
    let items: Vec<Value> = state
        .jobs
        .values()
        .map(job_now)
        .filter(|job| selects(&selector, &job["metadata"]["labels"]))
        .collect();
    axum::Json(
        json!({"apiVersion": "batch/v1", "kind": "JobList", "metadata": {"resourceVersion": "7"}, "items": items}),
    )
}

async fn delete_job(State(state): State<Shared>, Path((_, name)): Path<(String, String)>, body: String) -> Response {
    let mut state = state.lock().unwrap();
    match state.jobs.remove(&name) {
        Some(job) => {
            let options = serde_json::from_str(&body).unwrap_or(Value::Null);
            state.deleted.push((name, options));
            axum::Json(job.job).into_response()
        }
        None => status(
            StatusCode::NOT_FOUND,
            "NotFound",
            &format!("jobs.batch \"{name}\" not found"),
        ),
    }
}

async fn list_pods(State(state): State<Shared>, Query(query): Query<HashMap<String, String>>) -> axum::Json<Value> {
    let state = state.lock().unwrap();
    let selector = query.get("labelSelector").cloned().unwrap_or_default();
    let items: Vec<Value> = state
        .jobs
        .iter()
        .map(|(name, job)| pod_now(name, job))
        .filter(|pod| selects(&selector, &pod["metadata"]["labels"]))
        .collect();
    axum::Json(json!({"apiVersion": "v1", "kind": "PodList", "metadata": {"resourceVersion": "7"}, "items": items}))
}

async fn pod_log(
    State(state): State<Shared>,
    Path((_, pod)): Path<(String, String)>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    assert_eq!(query.get("container").map(String::as_str), Some("aca"));
    let state = state.lock().unwrap();
    let log = state.jobs.iter().find_map(|(name, job)| {
        (pod_name(name) == pod).then(|| match &job.script {
            Script::Succeed { log } | Script::Fail { log, .. } => log.clone(),
            _ => String::new(),
        })
    });
    match log {
        Some(log) => log.into_response(),
        None => status(StatusCode::NOT_FOUND, "NotFound", &format!("pods \"{pod}\" not found")),
    }
}

fn status(code: StatusCode, reason: &str, message: &str) -> Response {
    let body = json!({
        "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": message, "reason": reason, "code": code.as_u16()
    });
    (code, axum::Json(body)).into_response()
}

/// `a=b,c=d` (the only selectors the runner sends) against an object's labels.
fn selects(selector: &str, labels: &Value) -> bool {
    selector.split(',').filter(|s| !s.is_empty()).all(|term| {
        let (key, value) = term.split_once('=').expect("an equality selector");
        labels[key] == value
    })
}

fn with_server_fields(mut job: Value) -> Value {
    let metadata = &mut job["metadata"];
    metadata["uid"] = json!(format!("uid-{}", metadata["name"].as_str().unwrap()));
    metadata["resourceVersion"] = json!("1");
    metadata["creationTimestamp"] = json!("2026-01-01T00:00:00Z");
    job
}

fn pod_name(job: &str) -> String {
    format!("{job}-x7k2p")
}

/// Where a Job's script is at: a Job that ends is seen running at its first look.
enum Stage<'a> {
    Pending,
    PullError,
    Running,
    Succeeded,
    Failed {
        reason: &'a str,
        message: &'a str,
        exit_code: i32,
    },
}

fn stage(job: &FakeJob) -> Stage<'_> {
    match &job.script {
        Script::NeverSchedule => Stage::Pending,
        Script::ImagePullError => Stage::PullError,
        Script::RunForever => Stage::Running,
        _ if job.looks <= 1 => Stage::Running,
        Script::Succeed { .. } => Stage::Succeeded,
        Script::Fail {
            reason,
            message,
            exit_code,
            ..
        } => Stage::Failed {
            reason,
            message,
            exit_code: *exit_code,
        },
    }
}

fn job_now(job: &FakeJob) -> Value {
    let status = match stage(job) {
        Stage::Succeeded => json!({"succeeded": 1, "conditions": [
            {"type": "SuccessCriteriaMet", "status": "True"},
            {"type": "Complete", "status": "True"}
        ]}),
        Stage::Failed { reason, message, .. } => json!({"failed": 1, "conditions": [
            {"type": "FailureTarget", "status": "True", "reason": reason, "message": message},
            {"type": "Failed", "status": "True", "reason": reason, "message": message}
        ]}),
        _ => json!({"active": 1}),
    };
    let mut value = job.job.clone();
    value["status"] = status;
    value
}

fn pod_now(name: &str, job: &FakeJob) -> Value {
    let scheduled = json!({"type": "PodScheduled", "status": "True"});
    let container = |state: Value| json!([{"name": "aca", "image": "runner", "imageID": "", "ready": false, "restartCount": 0, "state": state}]);
    let status = match stage(job) {
        Stage::Pending => json!({"phase": "Pending", "conditions": [{
            "type": "PodScheduled", "status": "False", "reason": "Unschedulable",
            "message": "0/3 nodes are available: 3 Insufficient memory."
        }]}),
        Stage::PullError => {
            json!({"phase": "Pending", "conditions": [scheduled], "containerStatuses": container(json!({
                "waiting": {"reason": "ErrImagePull", "message": "failed to pull image \"registry.example.com/aca/runner:9.9\": not found"}
            }))})
        }
        Stage::Running => {
            json!({"phase": "Running", "conditions": [scheduled], "containerStatuses": container(json!({"running": {}}))})
        }
        Stage::Succeeded => {
            json!({"phase": "Succeeded", "conditions": [scheduled], "containerStatuses": container(json!({
                "terminated": {"exitCode": 0, "reason": "Completed"}
            }))})
        }
        Stage::Failed { exit_code, .. } => {
            json!({"phase": "Failed", "conditions": [scheduled], "containerStatuses": container(json!({
                "terminated": {"exitCode": exit_code, "reason": "Error"}
            }))})
        }
    };
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {
            "name": pod_name(name), "namespace": NAMESPACE, "creationTimestamp": "2026-01-01T00:00:01Z",
            "labels": {"batch.kubernetes.io/job-name": name, "job-name": name}
        },
        "spec": {"containers": [{"name": "aca"}]},
        "status": status
    })
}

/// The template the operator writes, with `extra` lines added at its top level.
fn template(extra: &str) -> JobTemplate {
    JobTemplate::from_toml(&template_text(extra)).unwrap()
}

fn template_text(extra: &str) -> String {
    format!(
        r#"
namespace = "{NAMESPACE}"
image = "registry.example.com/aca/runner:0.1.0"
image_pull_policy = "Always"
active_deadline_s = 1800
ttl_after_finished_s = 600
service_account = "aca-runner"
env_secret = "{SECRET}"
verify_args = ["--policy", "llm", "--model", "qwen3-vl-32b"]
{extra}

[resources.requests]
cpu = "1"
memory = "2Gi"

[resources.limits]
cpu = "2"
memory = "4Gi"

[node_selector]
"kubernetes.io/arch" = "amd64"

[[volume]]
name = "docs"
claim = "aca-docs"
mount_path = "/docs"

[[volume]]
name = "judges"
config_map = "aca-judges"
mount_path = "/etc/aca"
"#
    )
}

fn runner(fake: &Fake, template: JobTemplate) -> KubernetesRunner {
    KubernetesRunner::new(fake.client(), template)
        .unwrap()
        .with_poll(Duration::from_millis(20))
}

fn report(verdict: &str) -> Report {
    serde_json::from_value(json!({
        "page": PAGE, "title": "Create a VPC",
        "console": {"url": "http://127.0.0.1:8080", "region": "cn-hangzhou"},
        "policy": "llm:qwen3-vl-32b", "verdict": verdict, "summary": "The procedure ran as written.",
        "steps": [], "started_at": "2026-01-01T00:00:05Z", "duration_ms": 61234
    }))
    .unwrap()
}

/// What `aca verify --report-stdout` prints, the report line among the rest.
fn log_with(report: &Report) -> String {
    format!(
        "console: http://127.0.0.1:8080\n{:?}: {}\n{REPORT_LINE_PREFIX}{}\nreport: /tmp/aca-out/create-vpc/report.html\n",
        report.verdict,
        report.summary,
        serde_json::to_string(report).unwrap()
    )
}

/// A run that takes longer than this is a test failure, not a hang.
async fn within<T>(run: impl Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(30), run)
        .await
        .expect("the run ends within 30 s")
}

const JOB_ID: &str = "5f0e2c1a-8d4b-4e8a-9a51-0c7f3e2b9d16";

#[tokio::test]
async fn a_successful_job_returns_the_report_from_its_log_and_carries_the_template() {
    let fake = Fake::start().await;
    let expected = report("pass");
    fake.plays(Script::Succeed {
        log: log_with(&expected),
    });
    let runner = runner(&fake, template(""));
    assert_eq!(runner.namespace(), NAMESPACE);
    let got = within(runner.run(JOB_ID, 2, PAGE)).await.unwrap();
    assert_eq!(got, expected);

    let created = fake.created();
    assert_eq!(created.len(), 1);
    let job = &created[0];
    let name = job_name(JOB_ID, 2);
    assert_eq!(job["metadata"]["name"], name);
    let labels = json!({MANAGED_BY_LABEL: MANAGED_BY, JOB_ID_LABEL: JOB_ID, ATTEMPT_LABEL: "2"});
    assert_eq!(job["metadata"]["labels"], labels);
    let spec = &job["spec"];
    assert_eq!(spec["backoffLimit"], 0);
    assert_eq!(spec["activeDeadlineSeconds"], 1800);
    assert_eq!(spec["ttlSecondsAfterFinished"], 600);
    assert_eq!(spec["template"]["metadata"]["labels"], labels);
    let pod = &spec["template"]["spec"];
    assert_eq!(pod["restartPolicy"], "Never");
    assert_eq!(pod["serviceAccountName"], "aca-runner");
    assert_eq!(pod["automountServiceAccountToken"], false);
    assert_eq!(pod["securityContext"]["runAsNonRoot"], true);
    assert_eq!(pod["nodeSelector"], json!({"kubernetes.io/arch": "amd64"}));
    let containers = pod["containers"].as_array().unwrap();
    assert_eq!(containers.len(), 1);
    let container = &containers[0];
    assert_eq!(container["image"], "registry.example.com/aca/runner:0.1.0");
    assert_eq!(container["imagePullPolicy"], "Always");
    assert_eq!(
        container["command"],
        json!([
            "aca",
            "verify",
            PAGE,
            "--out",
            "/tmp/aca-out",
            "--report-stdout",
            "--policy",
            "llm",
            "--model",
            "qwen3-vl-32b"
        ])
    );
    assert_eq!(
        container["resources"],
        json!({"requests": {"cpu": "1", "memory": "2Gi"}, "limits": {"cpu": "2", "memory": "4Gi"}})
    );
    assert_eq!(
        container["envFrom"],
        json!([{"secretRef": {"name": SECRET, "optional": false}}])
    );
    assert!(container.get("env").is_none(), "no variable is set in the spec itself");
    let mounts = container["volumeMounts"].as_array().unwrap();
    assert!(mounts.contains(&json!({"name": "docs", "mountPath": "/docs", "readOnly": true})));
    assert!(mounts.contains(&json!({"name": "judges", "mountPath": "/etc/aca", "readOnly": true})));
    assert!(mounts.contains(&json!({"name": "dev-shm", "mountPath": "/dev/shm"})));
    let volumes = pod["volumes"].as_array().unwrap();
    assert!(
        volumes
            .contains(&json!({"name": "docs", "persistentVolumeClaim": {"claimName": "aca-docs", "readOnly": true}}))
    );
    assert!(volumes.contains(&json!({"name": "judges", "configMap": {"name": "aca-judges"}})));

    assert!(fake.deleted().is_empty(), "a Job with a report is left to its TTL");
    assert_eq!(fake.job_names(), [name]);
}

#[tokio::test]
async fn a_failed_job_is_a_run_failure_with_its_cause_and_is_deleted() {
    let fake = Fake::start().await;
    fake.plays(Script::Fail {
        reason: "BackoffLimitExceeded",
        message: "Job has reached the specified backoff limit",
        exit_code: 2,
        log: "error: Chromium could not be started\n".into(),
    });
    let failure = within(runner(&fake, template("")).run(JOB_ID, 1, PAGE))
        .await
        .unwrap_err();
    let name = job_name(JOB_ID, 1);
    assert_eq!(failure.kind, FailureKind::JobFailed);
    assert_eq!(failure.job, name);
    let cause = failure.to_string();
    for words in [
        name.as_str(),
        "BackoffLimitExceeded: Job has reached the specified backoff limit",
        "the container exited with code 2 (Error)",
        "has no `ACA-REPORT` line",
    ] {
        assert!(cause.contains(words), "{cause:?} says {words:?}");
    }
    assert_eq!(fake.deleted(), [(name, json!({"propagationPolicy": "Background"}))]);
    assert!(fake.job_names().is_empty());
}

#[tokio::test]
async fn a_page_that_did_not_pass_fails_its_job_but_its_report_comes_back() {
    let fake = Fake::start().await;
    let expected = report("doc_defect");
    fake.plays(Script::Fail {
        reason: "BackoffLimitExceeded",
        message: "Job has reached the specified backoff limit",
        exit_code: 1,
        log: log_with(&expected),
    });
    let got = within(runner(&fake, template("")).run(JOB_ID, 1, PAGE)).await.unwrap();
    assert_eq!(got.verdict, Verdict::DocDefect);
    assert_eq!(got, expected);
    assert!(fake.deleted().is_empty());
}

#[tokio::test]
async fn a_job_without_a_report_line_is_a_failure() {
    let fake = Fake::start().await;
    fake.plays(Script::Succeed {
        log: "console: http://127.0.0.1:8080\nPASS: done\n".into(),
    });
    let failure = within(runner(&fake, template("")).run("no-line", 1, PAGE))
        .await
        .unwrap_err();
    assert_eq!(failure.kind, FailureKind::NoReport);
    assert!(
        failure
            .cause
            .contains("completed but its log (2 lines) has no `ACA-REPORT` line"),
        "{failure}"
    );
    assert_eq!(fake.deleted().len(), 1);

    fake.plays(Script::Succeed {
        log: format!("{REPORT_LINE_PREFIX}{{\"page\": \"cut off\n"),
    });
    let failure = within(runner(&fake, template("")).run("cut-line", 1, PAGE))
        .await
        .unwrap_err();
    assert_eq!(failure.kind, FailureKind::NoReport);
    assert!(
        failure.cause.contains("its `ACA-REPORT` line is not a report"),
        "{failure}"
    );
    assert_eq!(fake.deleted().len(), 2);
    assert!(fake.job_names().is_empty());
}

#[tokio::test]
async fn a_pod_no_node_takes_is_given_up_after_the_schedule_timeout() {
    let fake = Fake::start().await;
    fake.plays(Script::NeverSchedule);
    let started = Instant::now();
    let failure = within(runner(&fake, template("schedule_timeout_s = 1")).run(JOB_ID, 1, PAGE))
        .await
        .unwrap_err();
    assert!(started.elapsed() >= Duration::from_secs(1));
    assert_eq!(failure.kind, FailureKind::NotStarted);
    assert!(
        failure
            .cause
            .contains("no node took its pod within 1 s: 0/3 nodes are available: 3 Insufficient memory."),
        "{failure}"
    );
    assert_eq!(fake.deleted().len(), 1);
    assert!(fake.job_names().is_empty());
}

#[tokio::test]
async fn an_image_that_cannot_be_pulled_fails_the_run_at_once() {
    let fake = Fake::start().await;
    fake.plays(Script::ImagePullError);
    let started = Instant::now();
    let failure = within(runner(&fake, template("")).run(JOB_ID, 1, PAGE))
        .await
        .unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "not after the 300 s schedule timeout"
    );
    assert_eq!(failure.kind, FailureKind::NotStarted);
    assert!(
        failure
            .cause
            .contains("the container cannot start (ErrImagePull: failed to pull image"),
        "{failure}"
    );
    assert!(fake.job_names().is_empty());
}

#[tokio::test]
async fn a_job_past_its_deadline_is_a_deadline_failure() {
    let fake = Fake::start().await;
    fake.plays(Script::Fail {
        reason: "DeadlineExceeded",
        message: "Job was active longer than specified deadline",
        exit_code: 137,
        log: "verifying…\n".into(),
    });
    let failure = within(runner(&fake, template("")).run("ended-by-kubernetes", 1, PAGE))
        .await
        .unwrap_err();
    assert_eq!(failure.kind, FailureKind::DeadlineExceeded);
    assert!(failure.cause.ends_with("ran past its deadline of 1800 s"), "{failure}");
    assert_eq!(fake.deleted().len(), 1);

    // A cluster that does not end the Job itself: the runner gives up once the deadline is past.
    fake.plays(Script::RunForever);
    let short = JobTemplate {
        active_deadline_s: 1,
        ..template("")
    };
    let started = Instant::now();
    let failure = within(
        runner(&fake, short)
            .with_deadline_grace(Duration::ZERO)
            .run("never-ended", 1, PAGE),
    )
    .await
    .unwrap_err();
    assert!(started.elapsed() >= Duration::from_secs(1));
    assert_eq!(failure.kind, FailureKind::DeadlineExceeded);
    assert!(failure.cause.ends_with("ran past its deadline of 1 s"), "{failure}");
    assert_eq!(fake.deleted().len(), 2);
    assert!(fake.job_names().is_empty());
}

#[tokio::test]
async fn a_restarted_server_follows_the_job_it_already_created() {
    let fake = Fake::start().await;
    let expected = report("pass");
    fake.plays(Script::Succeed {
        log: log_with(&expected),
    });
    let first = within(runner(&fake, template("")).run(JOB_ID, 1, PAGE)).await.unwrap();
    let after_restart = within(runner(&fake, template("")).run(JOB_ID, 1, PAGE)).await.unwrap();
    assert_eq!(first, expected);
    assert_eq!(after_restart, expected);
    assert_eq!(fake.created().len(), 1, "one Job for one attempt");
    assert_eq!(fake.posts(), 2, "the second POST was answered 409 AlreadyExists");
    assert_eq!(fake.job_names(), [job_name(JOB_ID, 1)]);

    within(runner(&fake, template("")).run(JOB_ID, 2, PAGE)).await.unwrap();
    assert_eq!(fake.created().len(), 2, "another attempt is another Job");
}

#[tokio::test]
async fn a_job_of_the_same_name_made_by_someone_else_is_not_taken_or_deleted() {
    let fake = Fake::start().await;
    let name = job_name(JOB_ID, 1);
    fake.add_job(&name, json!({"app": "other"}));
    fake.plays(Script::Succeed {
        log: log_with(&report("pass")),
    });
    let failure = within(runner(&fake, template("")).run(JOB_ID, 1, PAGE))
        .await
        .unwrap_err();
    assert_eq!(failure.kind, FailureKind::Api);
    assert!(failure.cause.contains("this server did not create"), "{failure}");
    assert_eq!(fake.job_names(), [name]);
    assert!(fake.deleted().is_empty());
}

#[tokio::test]
async fn secrets_stay_in_their_secret() {
    let fake = Fake::start().await;
    // A runner that prints its environment when it fails: its log must not reach the failure.
    let leaky_log = format!(
        "ACA_PASSWORD={}\nACA_MODEL_API_KEY={}\nerror: the console refused the logon\n",
        SECRET_VALUES[0], SECRET_VALUES[1]
    );
    fake.plays(Script::Fail {
        reason: "BackoffLimitExceeded",
        message: "Job has reached the specified backoff limit",
        exit_code: 2,
        log: leaky_log,
    });
    let failure = within(runner(&fake, template("")).run(JOB_ID, 1, PAGE))
        .await
        .unwrap_err();
    let said = format!("{failure} {failure:?}");
    let spec = fake.created()[0].to_string();
    for secret in SECRET_VALUES {
        assert!(!said.contains(secret), "the failure repeats a secret: {said}");
        assert!(!spec.contains(secret));
    }
    assert!(spec.contains(&format!("\"secretRef\":{{\"name\":\"{SECRET}\"")));
    assert!(!spec.contains("\"env\":"), "only envFrom, by the Secret's name");
    let requests = fake.requests();
    assert!(
        requests.iter().all(|r| !r.contains("/secrets")),
        "the runner never reads a Secret: {requests:?}"
    );
}

#[tokio::test]
async fn cancel_deletes_the_running_job_and_ends_its_run() {
    let fake = Fake::start().await;
    fake.plays(Script::RunForever);
    let runner = Arc::new(runner(&fake, template("")));
    // On a task of its own, as a worker loop may run it.
    let running = tokio::spawn({
        let runner = runner.clone();
        async move { runner.run(JOB_ID, 1, PAGE).await }
    });
    within(async {
        while fake.job_names().is_empty() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    runner.cancel(JOB_ID, 1).await.unwrap();
    let failure = within(running).await.unwrap().unwrap_err();
    assert_eq!(failure.kind, FailureKind::Vanished);
    assert!(failure.cause.contains("was deleted before it ended"), "{failure}");
    assert!(fake.job_names().is_empty());
    runner.cancel(JOB_ID, 1).await.expect("a Job already gone is fine");
}

#[tokio::test]
async fn a_few_failed_looks_are_borne_but_not_more() {
    let fake = Fake::start().await;
    let expected = report("pass");
    fake.plays(Script::Succeed {
        log: log_with(&expected),
    });
    fake.fail_looks(2);
    let got = within(runner(&fake, template("")).run("borne", 1, PAGE)).await.unwrap();
    assert_eq!(got, expected);

    fake.fail_looks(3);
    let failure = within(runner(&fake, template("")).run("given-up", 1, PAGE))
        .await
        .unwrap_err();
    assert_eq!(failure.kind, FailureKind::Api);
    assert!(
        failure.cause.contains("the Kubernetes API failed following the Job")
            && failure
                .cause
                .contains("etcdserver: request timed out (500 InternalError)"),
        "{failure}"
    );
    assert_eq!(fake.deleted().len(), 1);
}

#[tokio::test]
async fn cleanup_deletes_only_the_managed_jobs_of_runs_no_longer_live() {
    let fake = Fake::start().await;
    fake.plays(Script::Succeed {
        log: log_with(&report("pass")),
    });
    let runner = runner(&fake, template(""));
    for id in ["live-job", "dead-job"] {
        within(runner.run(id, 1, PAGE)).await.unwrap();
    }
    within(runner.run("live-job", 2, PAGE)).await.unwrap();
    fake.add_job("someone-elses", json!({JOB_ID_LABEL: "dead-job"}));

    let deleted = within(runner.cleanup_orphans(&["live-job".to_owned()])).await.unwrap();
    assert_eq!(deleted, [job_name("dead-job", 1)]);
    let mut left = vec![
        job_name("live-job", 1),
        job_name("live-job", 2),
        "someone-elses".to_owned(),
    ];
    left.sort();
    assert_eq!(fake.job_names(), left);
    assert!(
        fake.requests()
            .iter()
            .any(|r| r.starts_with("GET /apis/batch/v1/namespaces/aca-runs/jobs?")
                && r.contains("labelSelector=app.kubernetes.io%2Fmanaged-by%3Daca-server")),
        "only this server's Jobs are listed"
    );
}

#[test]
fn job_names_are_stable_dns_labels_that_tell_runs_apart() {
    let uuid = job_name(JOB_ID, 1);
    assert!(uuid.starts_with("aca-5f0e2c1a-8d4b-4e8a-9a51-0c7f3e2b9d16-"), "{uuid}");
    assert_eq!(uuid, job_name(JOB_ID, 1));
    assert_ne!(uuid, job_name(JOB_ID, 2));
    let long = "J".repeat(300);
    let names = [
        uuid.clone(),
        job_name("Nightly_Run/VPC", 3),
        job_name("nightly-run-vpc", 3),
        job_name(&long, i64::MAX),
        job_name("---", 1),
        job_name("", 1),
    ];
    for name in &names {
        assert!(name.len() <= 63, "{name}");
        assert!(
            name.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
            "{name}"
        );
        assert!(!name.ends_with('-') && name.starts_with("aca"), "{name}");
    }
    assert_ne!(names[1], names[2], "ids that read alike stay apart");
    assert_ne!(names[4], names[5]);
}

/// Every manifest under `deploy/kubernetes` reads as its kind's API type and says nothing that type
/// lacks: read into the type and written back, each document is what the file says (a misspelt or
/// misplaced field would be dropped on the way).
#[test]
fn the_deployment_manifests_are_valid_kubernetes_objects() {
    use k8s_openapi::api::{apps, core, rbac};

    fn round_trip<T: serde::de::DeserializeOwned + serde::Serialize>(document: &Value) -> Result<Value, String> {
        let typed: T = serde_json::from_value(document.clone()).map_err(|e| e.to_string())?;
        serde_json::to_value(typed).map_err(|e| e.to_string())
    }
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/kubernetes");
    let mut kinds = Vec::new();
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "yaml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let documents: Vec<Value> =
            serde_saphyr::from_multiple(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for document in documents.into_iter().filter(|d| !d.is_null()) {
            let kind = document["kind"].as_str().unwrap_or_default().to_owned();
            let read = match kind.as_str() {
                "Namespace" => round_trip::<core::v1::Namespace>(&document),
                "ServiceAccount" => round_trip::<core::v1::ServiceAccount>(&document),
                "Secret" => round_trip::<core::v1::Secret>(&document),
                "Service" => round_trip::<core::v1::Service>(&document),
                "PersistentVolumeClaim" => round_trip::<core::v1::PersistentVolumeClaim>(&document),
                "ConfigMap" => round_trip::<core::v1::ConfigMap>(&document),
                "Deployment" => round_trip::<apps::v1::Deployment>(&document),
                "Role" => round_trip::<rbac::v1::Role>(&document),
                "RoleBinding" => round_trip::<rbac::v1::RoleBinding>(&document),
                other => panic!("{}: a {other:?} this test does not know", path.display()),
            };
            let read = read.unwrap_or_else(|e| panic!("{}: the {kind} does not read: {e}", path.display()));
            assert_eq!(read, document, "{}: the {kind} says what its type lacks", path.display());
            kinds.push(kind);
        }
    }
    kinds.sort();
    for kind in ["Deployment", "Namespace", "Role", "RoleBinding", "Secret", "Service", "ServiceAccount"] {
        assert!(kinds.iter().any(|k| k == kind), "no {kind} among {kinds:?}");
    }
}

#[tokio::test]
async fn templates_are_checked_with_clear_errors() {
    let example = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/kubernetes/job-template.toml");
    let loaded = JobTemplate::load(&example).unwrap();
    assert_eq!(loaded.namespace, "aca");
    assert!(matches!(
        JobTemplate::load(std::path::Path::new("/nonexistent/job-template.toml")),
        Err(TemplateError::Read { .. })
    ));

    let cases = [
        (
            template_text("").replace(NAMESPACE, "Aca_Runs"),
            "namespace \"Aca_Runs\" is not a DNS-1123 label",
        ),
        (
            template_text("").replace("ttl_after_finished_s = 600", "ttl_after_finished_s = 0"),
            "ttl_after_finished_s is 0: at least 60",
        ),
        (
            template_text("").replace("active_deadline_s = 1800", "active_deadline_s = 0"),
            "active_deadline_s is 0",
        ),
        (
            template_text("").replace("memory = \"2Gi\"", "memory = \"8Gi\""),
            "resources.requests.memory is more than resources.limits.memory",
        ),
        (
            template_text("").replace("cpu = \"2\"", "cpu = \"2 cores\""),
            "resources.limits.cpu \"2 cores\" is not a Kubernetes quantity",
        ),
        (
            template_text("").replace("claim = \"aca-docs\"", "claim = \"aca-docs\"\nconfig_map = \"docs\""),
            "volume \"docs\": it needs exactly one of `claim`",
        ),
        (
            template_text("").replace("mount_path = \"/docs\"", "mount_path = \"/tmp/docs\""),
            "volume \"docs\": mount_path /tmp/docs covers the runner's own files",
        ),
        (
            template_text("").replace("name = \"judges\"", "name = \"docs\""),
            "volume \"docs\": its name is used twice",
        ),
        (
            template_text("").replace("\"qwen3-vl-32b\"]", "\"qwen3-vl-32b\", \"--out=/x\"]"),
            "verify_args sets --out, which the runner sets itself",
        ),
        (
            template_text("").replace("env_secret = \"aca-runner-env\"", "env_secret = \"\""),
            "env_secret \"\" is not a valid Secret name",
        ),
        (
            template_text("").replace("image_pull_policy = \"Always\"", "image_pull_policy = \"Sometimes\""),
            "unknown variant `Sometimes`",
        ),
        (template_text("cpus = 4"), "unknown field `cpus`"),
        (
            template_text("").replace("env_secret = \"aca-runner-env\"\n", ""),
            "missing field `env_secret`",
        ),
    ];
    for (text, expected) in cases {
        let error = JobTemplate::from_toml(&text).unwrap_err().to_string();
        assert!(error.starts_with("the job template is not valid: "), "{error}");
        assert!(error.contains(expected), "{error:?} should say {expected:?}");
    }

    let unchecked = JobTemplate {
        ttl_after_finished_s: 5,
        ..template("")
    };
    let client = kube::Client::try_from(kube::Config::new("http://127.0.0.1:9".parse().unwrap())).unwrap();
    let refused = KubernetesRunner::new(client, unchecked);
    assert!(matches!(refused, Err(TemplateError::Invalid(_))));
}

/// On a real cluster. Runs only when `ACA_TEST_KUBECONFIG` names a kubeconfig file and
/// `ACA_TEST_RUNNER_IMAGE` a runner image built from deploy/Dockerfile that the cluster can pull;
/// otherwise it prints why it is skipped and passes. In the namespace `ACA_TEST_NAMESPACE` (default
/// `default`) it makes a ConfigMap holding a corpus page and a Secret with a placeholder key, verifies
/// the page against the bundled console in a Job, and removes all three.
#[tokio::test]
async fn on_a_real_cluster_a_page_runs_as_a_job() {
    use k8s_openapi::api::core::v1::{ConfigMap, Secret};
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
    use kube::api::{Api, DeleteParams, PostParams};

    let (Ok(kubeconfig), Ok(image)) = (
        std::env::var("ACA_TEST_KUBECONFIG"),
        std::env::var("ACA_TEST_RUNNER_IMAGE"),
    ) else {
        eprintln!(
            "skipped: set ACA_TEST_KUBECONFIG (a kubeconfig file) and ACA_TEST_RUNNER_IMAGE (a runner image the cluster can pull) to run on a real cluster"
        );
        return;
    };
    let namespace = std::env::var("ACA_TEST_NAMESPACE").unwrap_or_else(|_| "default".into());
    let kubeconfig = kube::config::Kubeconfig::read_from(&kubeconfig).unwrap();
    let config = kube::Config::from_custom_kubeconfig(kubeconfig, &kube::config::KubeConfigOptions::default())
        .await
        .unwrap();
    let client = kube::Client::try_from(config).unwrap();

    let run_id = format!("real-{}", uuid::Uuid::new_v4());
    let resource = format!("aca-test-{}", &run_id[5..13]);
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus/vpc");
    let page_files: BTreeMap<String, String> = ["create-vpc.md", "create-vpc.task.toml"]
        .into_iter()
        .map(|file| (file.to_owned(), std::fs::read_to_string(corpus.join(file)).unwrap()))
        .collect();
    let metadata = ObjectMeta {
        name: Some(resource.clone()),
        ..ObjectMeta::default()
    };
    let config_maps: Api<ConfigMap> = Api::namespaced(client.clone(), &namespace);
    let secrets: Api<Secret> = Api::namespaced(client.clone(), &namespace);
    config_maps
        .create(
            &PostParams::default(),
            &ConfigMap {
                metadata: metadata.clone(),
                data: Some(page_files),
                ..ConfigMap::default()
            },
        )
        .await
        .unwrap();
    secrets
        .create(
            &PostParams::default(),
            &Secret {
                metadata,
                string_data: Some(BTreeMap::from([("ACA_PLACEHOLDER".to_owned(), "unused".to_owned())])),
                ..Secret::default()
            },
        )
        .await
        .unwrap();

    let template = JobTemplate::from_toml(&format!(
        r#"
namespace = "{namespace}"
image = "{image}"
active_deadline_s = 900
ttl_after_finished_s = 600
env_secret = "{resource}"

[[volume]]
name = "docs"
config_map = "{resource}"
mount_path = "/docs"
"#
    ))
    .unwrap();
    let runner = KubernetesRunner::new(client, template).unwrap();
    let outcome: Result<Report, RunFailure> = runner.run(&run_id, 1, "/docs/create-vpc.md").await;
    let cancelled = runner.cancel(&run_id, 1).await;
    let _ = config_maps.delete(&resource, &DeleteParams::default()).await;
    let _ = secrets.delete(&resource, &DeleteParams::default()).await;

    let report = outcome.unwrap();
    assert!(report.page.ends_with("create-vpc.md"), "{}", report.page);
    assert!(
        !report.steps.is_empty(),
        "the page's steps were run: {}",
        report.summary
    );
    cancelled.unwrap();
}

#[tokio::test]
async fn with_uploads_a_pod_is_told_where_to_send_its_files_with_a_token_for_its_attempt_only() {
    let fake = Fake::start().await;
    fake.plays(Script::Succeed {
        log: log_with(&report("pass")),
    });
    let dir = tempfile::tempdir().unwrap();
    let db =
        std::sync::Arc::new(aca_platform::Db::open(&aca_platform::DbUrl::Sqlite(dir.path().join("r.db"))).unwrap());
    let tokens = aca_platform::UploadTokens::open(&db).unwrap();
    let runner = runner(&fake, template("")).with_uploads("http://10.0.0.7:8090/", tokens.clone());
    within(runner.run(JOB_ID, 3, PAGE)).await.unwrap();
    let env = fake.created()[0]["spec"]["template"]["spec"]["containers"][0]["env"].clone();
    let value = |name: &str| {
        env.as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == name)
            .and_then(|v| v["value"].as_str())
            .unwrap_or_else(|| panic!("{name} is not set: {env}"))
            .to_owned()
    };
    assert_eq!(
        value("ACA_UPLOAD_URL"),
        format!("http://10.0.0.7:8090/v1/uploads/{JOB_ID}/3")
    );
    let token = value("ACA_UPLOAD_TOKEN");
    assert!(tokens.check(JOB_ID, 3, &token));
    assert!(
        !tokens.check(JOB_ID, 2, &token),
        "another attempt's files are not this pod's to send"
    );
}
