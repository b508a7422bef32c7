//! Verifies one queued page as a Kubernetes Job running `aca verify` in the runner image, and reads
//! the run's report back from the pod's log.
//!
//! The Job is named after the queue's job id and attempt, so a restarted server finds the Job it
//! created before instead of starting a second one. A run that ends without a report (the Job
//! failed, ran past its deadline, its pod never started) is a [`RunFailure`] and its Job is deleted;
//! a Job that produced a report is left to Kubernetes' TTL. Secrets reach the pod only by the name
//! of the Secret whose keys become its environment; the one exception is the upload token of the
//! attempt (good for sending that run's screenshots back to this server, and for nothing else).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::{Duration, Instant};

use aca_core::Report;
use k8s_openapi::api::batch::v1::{Job, JobSpec};
use k8s_openapi::api::core::v1::{
    Capabilities, ConfigMapVolumeSource, Container, EmptyDirVolumeSource, EnvFromSource, EnvVar,
    PersistentVolumeClaimVolumeSource, Pod, PodSecurityContext, PodSpec, PodTemplateSpec, ResourceRequirements,
    SeccompProfile, SecretEnvSource, SecurityContext, Volume as PodVolume, VolumeMount,
};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::api::{Api, DeleteParams, ListParams, LogParams, PostParams};
use serde::Deserialize;
use sha2::{Digest as _, Sha256};

/// The label every Job this server creates carries (`app.kubernetes.io/managed-by=aca-server`).
pub const MANAGED_BY_LABEL: &str = "app.kubernetes.io/managed-by";
pub const MANAGED_BY: &str = "aca-server";
/// The label naming the queue's job a Kubernetes Job runs.
pub const JOB_ID_LABEL: &str = "aca.dev/job-id";
pub const ATTEMPT_LABEL: &str = "aca.dev/attempt";
/// The line of the runner's stdout that carries its report: this prefix, then the report as
/// compact JSON.
pub const REPORT_LINE_PREFIX: &str = "ACA-REPORT ";

/// The label Kubernetes puts on the pods of a Job.
const POD_JOB_NAME_LABEL: &str = "batch.kubernetes.io/job-name";
const CONTAINER_NAME: &str = "aca";
/// Where `aca verify` writes its report files inside the pod.
const OUT_DIR: &str = "/tmp/aca-out";
/// Chromium's shared memory; a container's default of 64 MiB crashes its renderers.
const SHM_VOLUME: &str = "dev-shm";
const SHM_SIZE: &str = "1Gi";
/// Kubernetes' longest name for a Job whose pods carry it as a label.
const MAX_JOB_NAME: usize = 63;
/// A successful Job must outlive a few polls, or its log is gone before it is read.
const MIN_TTL_AFTER_FINISHED_S: i32 = 60;
/// Consecutive failed looks at a running Job before the run is given up.
const MAX_POLL_ERRORS: u32 = 3;
/// Waiting reasons of a container that will not start without someone changing something.
const STUCK_REASONS: &[&str] = &[
    "ErrImagePull",
    "ImagePullBackOff",
    "InvalidImageName",
    "ErrImageNeverPull",
    "CreateContainerConfigError",
    "CreateContainerError",
];

/// How verification Jobs are made, as the operator writes it in a TOML file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobTemplate {
    /// The namespace the Jobs run in.
    pub namespace: String,
    /// The runner image: `aca`, Chromium and the page side.
    pub image: String,
    #[serde(default)]
    pub image_pull_policy: PullPolicy,
    #[serde(default)]
    pub resources: Resources,
    /// Kubernetes ends a Job that runs longer than this.
    pub active_deadline_s: i64,
    /// Kubernetes removes a finished Job (and its pod and log) this long after it ended.
    pub ttl_after_finished_s: i32,
    /// How long a Job's pod may wait for a node before the run is given up.
    #[serde(default = "default_schedule_timeout_s")]
    pub schedule_timeout_s: u64,
    /// The service account the runner pods use (they are given no API token).
    #[serde(default)]
    pub service_account: Option<String>,
    /// The Secret whose keys become the runner's environment: console credentials, the model's
    /// API key.
    pub env_secret: String,
    #[serde(default, rename = "volume")]
    pub volumes: Vec<Volume>,
    #[serde(default)]
    pub node_selector: BTreeMap<String, String>,
    /// More arguments for `aca verify`, after the page and the runner's own.
    #[serde(default)]
    pub verify_args: Vec<String>,
}

fn default_schedule_timeout_s() -> u64 {
    300
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub enum PullPolicy {
    Always,
    #[default]
    IfNotPresent,
    Never,
}

impl PullPolicy {
    fn as_str(self) -> &'static str {
        match self {
            Self::Always => "Always",
            Self::IfNotPresent => "IfNotPresent",
            Self::Never => "Never",
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resources {
    #[serde(default)]
    pub requests: CpuMemory,
    #[serde(default)]
    pub limits: CpuMemory,
}

/// Kubernetes quantities: `cpu = "500m"`, `memory = "2Gi"`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CpuMemory {
    pub cpu: Option<String>,
    pub memory: Option<String>,
}

/// A volume mounted into the runner: a PersistentVolumeClaim (`claim`) or a ConfigMap
/// (`config_map`) holding the documentation tree, say.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Volume {
    pub name: String,
    pub mount_path: String,
    #[serde(default = "read_only_by_default")]
    pub read_only: bool,
    pub claim: Option<String>,
    pub config_map: Option<String>,
}

fn read_only_by_default() -> bool {
    true
}

#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    #[error("cannot read the job template {path}: {source}")]
    Read { path: String, source: std::io::Error },
    #[error("the job template is not valid: {0}")]
    Parse(String),
    #[error("the job template is not valid: {0}")]
    Invalid(String),
}

impl JobTemplate {
    /// Reads and checks the template file.
    pub fn load(path: &Path) -> Result<Self, TemplateError> {
        let text = std::fs::read_to_string(path).map_err(|source| TemplateError::Read {
            path: path.display().to_string(),
            source,
        })?;
        Self::from_toml(&text)
    }

    /// Parses and checks a template.
    pub fn from_toml(text: &str) -> Result<Self, TemplateError> {
        let template: Self = toml::from_str(text).map_err(|e| TemplateError::Parse(e.to_string()))?;
        template.validate()?;
        Ok(template)
    }

    /// Checks what Kubernetes would refuse, and what would keep a run's report from coming back.
    pub fn validate(&self) -> Result<(), TemplateError> {
        let invalid = |problem: String| Err(TemplateError::Invalid(problem));
        if !is_dns_label(&self.namespace) {
            return invalid(format!(
                "namespace {:?} is not a DNS-1123 label (lower-case letters, digits and '-', at most 63)",
                self.namespace
            ));
        }
        if self.image.trim().is_empty() || self.image.chars().any(char::is_whitespace) {
            return invalid(format!("image {:?} is not an image reference", self.image));
        }
        self.resources.validate()?;
        if self.active_deadline_s < 1 {
            return invalid(format!(
                "active_deadline_s is {}: a Job needs at least one second to run",
                self.active_deadline_s
            ));
        }
        if self.ttl_after_finished_s < MIN_TTL_AFTER_FINISHED_S {
            return invalid(format!(
                "ttl_after_finished_s is {}: at least {MIN_TTL_AFTER_FINISHED_S}, or a finished Job's log may be gone before its report is read",
                self.ttl_after_finished_s
            ));
        }
        if self.schedule_timeout_s < 1 {
            return invalid("schedule_timeout_s is 0: a pod needs some time to find a node".into());
        }
        if let Some(account) = &self.service_account
            && !is_dns_subdomain(account)
        {
            return invalid(format!("service_account {account:?} is not a valid name"));
        }
        if !is_dns_subdomain(&self.env_secret) {
            return invalid(format!("env_secret {:?} is not a valid Secret name", self.env_secret));
        }
        self.validate_volumes()?;
        for (key, value) in &self.node_selector {
            if !is_label_key(key) || !is_label_value(value) {
                return invalid(format!("node_selector {key:?} = {value:?} is not a valid label"));
            }
        }
        for arg in &self.verify_args {
            let flag = arg.split('=').next().unwrap_or(arg);
            if ["--out", "--report-stdout", "--all"].contains(&flag) {
                return invalid(format!(
                    "verify_args sets {flag}, which the runner sets itself (one page, its report on stdout)"
                ));
            }
        }
        Ok(())
    }

    fn validate_volumes(&self) -> Result<(), TemplateError> {
        let mut names = BTreeSet::from([SHM_VOLUME]);
        for volume in &self.volumes {
            let problem = if !is_dns_label(&volume.name) {
                Some("its name is not a DNS-1123 label".to_owned())
            } else if !names.insert(&volume.name) {
                Some("its name is used twice (or is the runner's own dev-shm)".to_owned())
            } else if !volume.mount_path.starts_with('/') {
                Some("mount_path is not an absolute path".to_owned())
            } else if ["/dev/shm", "/tmp", OUT_DIR]
                .iter()
                .any(|own| Path::new(&volume.mount_path).starts_with(own))
            {
                Some(format!(
                    "mount_path {} covers the runner's own files",
                    volume.mount_path
                ))
            } else {
                match (&volume.claim, &volume.config_map) {
                    (Some(name), None) | (None, Some(name)) if is_dns_subdomain(name) => None,
                    (Some(_), None) | (None, Some(_)) => {
                        Some("the claim or config map it names is not a valid name".to_owned())
                    }
                    _ => Some("it needs exactly one of `claim` (a PersistentVolumeClaim) and `config_map`".to_owned()),
                }
            };
            if let Some(problem) = problem {
                return Err(TemplateError::Invalid(format!("volume {:?}: {problem}", volume.name)));
            }
        }
        Ok(())
    }
}

impl Resources {
    fn validate(&self) -> Result<(), TemplateError> {
        for (kind, request, limit) in [
            ("cpu", &self.requests.cpu, &self.limits.cpu),
            ("memory", &self.requests.memory, &self.limits.memory),
        ] {
            let value = |side: &str, text: &Option<String>| match text {
                None => Ok(None),
                Some(text) => quantity_value(text).map(Some).ok_or_else(|| {
                    TemplateError::Invalid(format!(
                        "resources.{side}.{kind} {text:?} is not a Kubernetes quantity (e.g. \"500m\", \"2Gi\")"
                    ))
                }),
            };
            if let (Some(request), Some(limit)) = (value("requests", request)?, value("limits", limit)?)
                && request > limit
            {
                return Err(TemplateError::Invalid(format!(
                    "resources.requests.{kind} is more than resources.limits.{kind}"
                )));
            }
        }
        Ok(())
    }

    fn requirements(&self) -> Option<ResourceRequirements> {
        let quantities = |side: &CpuMemory| {
            let map: BTreeMap<String, Quantity> = [("cpu", &side.cpu), ("memory", &side.memory)]
                .into_iter()
                .filter_map(|(kind, value)| Some((kind.to_owned(), Quantity(value.clone()?))))
                .collect();
            (!map.is_empty()).then_some(map)
        };
        let (requests, limits) = (quantities(&self.requests), quantities(&self.limits));
        (requests.is_some() || limits.is_some()).then(|| ResourceRequirements {
            requests,
            limits,
            ..ResourceRequirements::default()
        })
    }
}

/// Why a page's Job gave no report. The cause is in words and never holds the pod's log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{cause}")]
pub struct RunFailure {
    pub kind: FailureKind,
    /// The Kubernetes Job's name; empty when the failure concerns no one Job.
    pub job: String,
    pub cause: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureKind {
    /// A call to the Kubernetes API failed or was refused.
    Api,
    /// The Job ended failed and its pod printed no report.
    JobFailed,
    /// The Job ran past its deadline.
    DeadlineExceeded,
    /// The pod never ran: no node took it, or its image or configuration could not be used.
    NotStarted,
    /// The Job ended without a report line in its pod's log.
    NoReport,
    /// The Job was deleted before it ended (cancelled, or removed by someone else).
    Vanished,
}

impl RunFailure {
    fn new(kind: FailureKind, job: &str, cause: String) -> Self {
        Self {
            kind,
            job: job.to_owned(),
            cause,
        }
    }

    fn api(job: &str, doing: &str, error: &kube::Error) -> Self {
        Self::new(
            FailureKind::Api,
            job,
            format!("the Kubernetes API failed {doing}: {}", api_error_words(error)),
        )
    }
}

/// Runs pages as Kubernetes Jobs made from a [`JobTemplate`].
pub struct KubernetesRunner {
    client: kube::Client,
    template: JobTemplate,
    poll: Duration,
    deadline_grace: Duration,
    /// Where pods send their report files back (this server, as pods reach it), and the tokens
    /// they do it with.
    uploads: Option<(String, aca_platform::UploadTokens)>,
}

impl KubernetesRunner {
    /// A runner making Jobs from `template` (checked here), looking at them every 5 s.
    pub fn new(client: kube::Client, template: JobTemplate) -> Result<Self, TemplateError> {
        template.validate()?;
        Ok(Self {
            client,
            template,
            poll: Duration::from_secs(5),
            deadline_grace: Duration::from_secs(60),
            uploads: None,
        })
    }

    /// Has each pod send its run's report files (the marked screenshots) to `server_url`
    /// (`PUT /v1/uploads/…`), with a token for its attempt only.
    pub fn with_uploads(mut self, server_url: &str, tokens: aca_platform::UploadTokens) -> Self {
        self.uploads = Some((server_url.trim_end_matches('/').to_owned(), tokens));
        self
    }

    /// How often a running Job is looked at.
    #[allow(
        dead_code,
        reason = "the server polls a real cluster at the default; a fake one is faster"
    )]
    pub fn with_poll(mut self, poll: Duration) -> Self {
        self.poll = poll;
        self
    }

    /// How long past the template's deadline the runner waits for Kubernetes to end the Job
    /// before it gives up on it itself (60 s unless set).
    #[allow(dead_code, reason = "the server waits the default; the tests' deadlines are seconds")]
    pub fn with_deadline_grace(mut self, grace: Duration) -> Self {
        self.deadline_grace = grace;
        self
    }

    /// The namespace its Jobs run in.
    pub fn namespace(&self) -> &str {
        &self.template.namespace
    }

    /// Verifies `page` (a path or URL as the runner image sees it) in a Job for this attempt of the
    /// queue's job, and returns the run's report. A Job of the same attempt that already exists (the
    /// server restarted) is followed instead of creating another.
    pub async fn run(&self, job_id: &str, attempt: i64, page: &str) -> Result<Report, RunFailure> {
        let name = job_name(job_id, attempt);
        self.create_or_adopt(&name, job_id, attempt, page).await?;
        let mut outcome = self.follow(&name).await;
        if let Err(failure) = &mut outcome
            && let Err(e) = self.delete_job(&name).await
        {
            failure
                .cause
                .push_str(&format!("; the Job could not be deleted: {}", api_error_words(&e)));
        }
        outcome
    }

    /// Deletes the Job of this attempt (the queue's job was cancelled); a Job already gone is fine.
    pub async fn cancel(&self, job_id: &str, attempt: i64) -> Result<(), RunFailure> {
        let name = job_name(job_id, attempt);
        self.delete_job(&name)
            .await
            .map_err(|e| RunFailure::api(&name, &format!("deleting the Job {name}"), &e))
    }

    /// Deletes the Jobs this server made whose queue job is not among `live_job_ids` (after a
    /// restart: runs nobody will follow any more). Returns the names of the Jobs deleted.
    pub async fn cleanup_orphans(&self, live_job_ids: &[String]) -> Result<Vec<String>, RunFailure> {
        let live: BTreeSet<String> = live_job_ids.iter().map(|id| job_id_label(id)).collect();
        let managed = ListParams::default().labels(&format!("{MANAGED_BY_LABEL}={MANAGED_BY}"));
        let jobs = self
            .jobs()
            .list(&managed)
            .await
            .map_err(|e| RunFailure::api("", "listing this server's Jobs", &e))?;
        let mut deleted = Vec::new();
        for job in jobs {
            let Some(name) = job.metadata.name else { continue };
            let labels = job.metadata.labels.unwrap_or_default();
            if !labels.get(JOB_ID_LABEL).is_some_and(|id| live.contains(id)) {
                self.delete_job(&name)
                    .await
                    .map_err(|e| RunFailure::api(&name, &format!("deleting the orphan Job {name}"), &e))?;
                deleted.push(name);
            }
        }
        Ok(deleted)
    }

    fn jobs(&self) -> Api<Job> {
        Api::namespaced(self.client.clone(), &self.template.namespace)
    }

    fn pods(&self) -> Api<Pod> {
        Api::namespaced(self.client.clone(), &self.template.namespace)
    }

    async fn create_or_adopt(&self, name: &str, job_id: &str, attempt: i64, page: &str) -> Result<(), RunFailure> {
        let job = self.job(name, job_id, attempt, page);
        match self.jobs().create(&PostParams::default(), &job).await {
            Ok(_) => Ok(()),
            Err(kube::Error::Api(status)) if status.is_already_exists() => {
                let existing = self
                    .jobs()
                    .get(name)
                    .await
                    .map_err(|e| RunFailure::api(name, &format!("reading the existing Job {name}"), &e))?;
                let labels = existing.metadata.labels.unwrap_or_default();
                if labels.get(JOB_ID_LABEL) == Some(&job_id_label(job_id))
                    && labels.get(MANAGED_BY_LABEL).map(String::as_str) == Some(MANAGED_BY)
                {
                    Ok(())
                } else {
                    Err(RunFailure::new(
                        FailureKind::Api,
                        name,
                        format!("a Job named {name} exists that this server did not create for this run"),
                    ))
                }
            }
            Err(e) => Err(RunFailure::api(name, &format!("creating the Job {name}"), &e)),
        }
    }

    /// Looks at the Job until it ends, then reads the report from its pod's log.
    async fn follow(&self, name: &str) -> Result<Report, RunFailure> {
        let started = Instant::now();
        let deadline = Duration::from_secs(self.template.active_deadline_s.unsigned_abs()) + self.deadline_grace;
        let schedule_timeout = Duration::from_secs(self.template.schedule_timeout_s);
        let mut poll_errors = 0;
        loop {
            match self.look(name).await {
                Ok(Look::Gone) => {
                    return Err(RunFailure::new(
                        FailureKind::Vanished,
                        name,
                        format!("the Job {name} was deleted before it ended"),
                    ));
                }
                Ok(Look::Ended(ending)) => return self.conclude(name, ending).await,
                Ok(Look::Running(pods)) => {
                    poll_errors = 0;
                    if let Some(cause) = pods.iter().find_map(stuck_container) {
                        return Err(not_started(name, cause));
                    }
                    if started.elapsed() >= schedule_timeout && !pods.iter().any(is_scheduled) {
                        return Err(not_started(name, unscheduled_cause(&pods, schedule_timeout)));
                    }
                }
                Err(e) => {
                    poll_errors += 1;
                    if poll_errors >= MAX_POLL_ERRORS {
                        return Err(RunFailure::api(name, &format!("following the Job {name}"), &e));
                    }
                }
            }
            if started.elapsed() >= deadline {
                return Err(deadline_exceeded(name, self.template.active_deadline_s));
            }
            tokio::time::sleep(self.poll).await;
        }
    }

    async fn look(&self, name: &str) -> Result<Look, kube::Error> {
        let Some(job) = self.jobs().get_opt(name).await? else {
            return Ok(Look::Gone);
        };
        if let Some(ending) = ending_of(&job) {
            return Ok(Look::Ended(ending));
        }
        Ok(Look::Running(self.pods_of(name).await?))
    }

    async fn pods_of(&self, name: &str) -> Result<Vec<Pod>, kube::Error> {
        let of_job = ListParams::default().labels(&format!("{POD_JOB_NAME_LABEL}={name}"));
        Ok(self.pods().list(&of_job).await?.items)
    }

    /// The report of an ended Job, or why there is none. A Job that failed may still hold a report:
    /// `aca verify` exits 1 when the page did not pass.
    async fn conclude(&self, name: &str, ending: Ending) -> Result<Report, RunFailure> {
        let pods = self
            .pods_of(name)
            .await
            .map_err(|e| RunFailure::api(name, &format!("listing the pods of the Job {name}"), &e))?;
        let pod = pods
            .iter()
            .max_by_key(|pod| (phase(pod) == Some("Succeeded"), pod.metadata.creation_timestamp.clone()));
        let no_report = match pod {
            None => "the Job has no pod left to read a report from".to_owned(),
            Some(pod) => match self.log_of(pod).await {
                Ok(log) => match report_in_log(&log) {
                    Ok(report) => return Ok(report),
                    Err(why) => why,
                },
                Err(e) => format!("its log could not be read: {}", api_error_words(&e)),
            },
        };
        let exit = pod
            .and_then(container_exit)
            .map(|e| format!("; {e}"))
            .unwrap_or_default();
        Err(match ending {
            Ending::Complete => RunFailure::new(
                FailureKind::NoReport,
                name,
                format!("the Job {name} completed but {no_report}{exit}"),
            ),
            Ending::Failed { reason, .. } if reason == "DeadlineExceeded" => {
                deadline_exceeded(name, self.template.active_deadline_s)
            }
            Ending::Failed { reason, message } => RunFailure::new(
                FailureKind::JobFailed,
                name,
                format!("the Job {name} failed ({reason}: {message}){exit}; {no_report}"),
            ),
        })
    }

    async fn log_of(&self, pod: &Pod) -> Result<String, kube::Error> {
        let params = LogParams {
            container: Some(CONTAINER_NAME.to_owned()),
            ..LogParams::default()
        };
        self.pods()
            .logs(pod.metadata.name.as_deref().unwrap_or_default(), &params)
            .await
    }

    async fn delete_job(&self, name: &str) -> Result<(), kube::Error> {
        match self.jobs().delete(name, &DeleteParams::background()).await {
            Ok(_) => Ok(()),
            Err(kube::Error::Api(status)) if status.is_not_found() => Ok(()),
            Err(e) => Err(e),
        }
    }

    fn job(&self, name: &str, job_id: &str, attempt: i64, page: &str) -> Job {
        let labels = BTreeMap::from([
            (MANAGED_BY_LABEL.to_owned(), MANAGED_BY.to_owned()),
            (JOB_ID_LABEL.to_owned(), job_id_label(job_id)),
            (ATTEMPT_LABEL.to_owned(), attempt.to_string()),
        ]);
        Job {
            metadata: ObjectMeta {
                name: Some(name.to_owned()),
                namespace: Some(self.template.namespace.clone()),
                labels: Some(labels.clone()),
                ..ObjectMeta::default()
            },
            spec: Some(JobSpec {
                backoff_limit: Some(0),
                active_deadline_seconds: Some(self.template.active_deadline_s),
                ttl_seconds_after_finished: Some(self.template.ttl_after_finished_s),
                template: PodTemplateSpec {
                    metadata: Some(ObjectMeta {
                        labels: Some(labels),
                        ..ObjectMeta::default()
                    }),
                    spec: Some(self.pod_spec(page, job_id, attempt)),
                },
                ..JobSpec::default()
            }),
            status: None,
        }
    }

    fn pod_spec(&self, page: &str, job_id: &str, attempt: i64) -> PodSpec {
        let template = &self.template;
        let mut volumes = vec![PodVolume {
            name: SHM_VOLUME.to_owned(),
            empty_dir: Some(EmptyDirVolumeSource {
                medium: Some("Memory".to_owned()),
                size_limit: Some(Quantity(SHM_SIZE.to_owned())),
            }),
            ..PodVolume::default()
        }];
        let mut mounts = vec![VolumeMount {
            name: SHM_VOLUME.to_owned(),
            mount_path: "/dev/shm".to_owned(),
            ..VolumeMount::default()
        }];
        for volume in &template.volumes {
            volumes.push(pod_volume(volume));
            mounts.push(VolumeMount {
                name: volume.name.clone(),
                mount_path: volume.mount_path.clone(),
                read_only: Some(volume.read_only),
                ..VolumeMount::default()
            });
        }
        let mut command: Vec<String> = ["aca", "verify", page, "--out", OUT_DIR, "--report-stdout"]
            .into_iter()
            .map(str::to_owned)
            .collect();
        command.extend(template.verify_args.iter().cloned());
        PodSpec {
            restart_policy: Some("Never".to_owned()),
            service_account_name: template.service_account.clone(),
            automount_service_account_token: Some(false),
            node_selector: (!template.node_selector.is_empty()).then(|| template.node_selector.clone()),
            security_context: Some(PodSecurityContext {
                run_as_non_root: Some(true),
                seccomp_profile: Some(SeccompProfile {
                    type_: "RuntimeDefault".to_owned(),
                    ..SeccompProfile::default()
                }),
                ..PodSecurityContext::default()
            }),
            containers: vec![Container {
                name: CONTAINER_NAME.to_owned(),
                image: Some(template.image.clone()),
                image_pull_policy: Some(template.image_pull_policy.as_str().to_owned()),
                command: Some(command),
                env: self.uploads.as_ref().map(|(server, tokens)| {
                    vec![
                        EnvVar {
                            name: "ACA_UPLOAD_URL".to_owned(),
                            value: Some(format!("{server}/v1/uploads/{job_id}/{attempt}")),
                            ..EnvVar::default()
                        },
                        EnvVar {
                            name: "ACA_UPLOAD_TOKEN".to_owned(),
                            value: Some(tokens.token(job_id, attempt)),
                            ..EnvVar::default()
                        },
                    ]
                }),
                env_from: Some(vec![EnvFromSource {
                    secret_ref: Some(SecretEnvSource {
                        name: template.env_secret.clone(),
                        optional: Some(false),
                    }),
                    ..EnvFromSource::default()
                }]),
                resources: template.resources.requirements(),
                volume_mounts: Some(mounts),
                security_context: Some(SecurityContext {
                    allow_privilege_escalation: Some(false),
                    capabilities: Some(Capabilities {
                        drop: Some(vec!["ALL".to_owned()]),
                        ..Capabilities::default()
                    }),
                    ..SecurityContext::default()
                }),
                ..Container::default()
            }],
            volumes: Some(volumes),
            ..PodSpec::default()
        }
    }
}

/// The Kubernetes Job name of an attempt of a queue's job: a DNS-1123 label of at most 63
/// characters, the same every time for the same job id and attempt, different for different ones.
pub fn job_name(job_id: &str, attempt: i64) -> String {
    let digest = hex::encode(&Sha256::digest(job_id.as_bytes())[..4]);
    let suffix = format!("-{digest}-{}", attempt.unsigned_abs());
    let room = MAX_JOB_NAME - "aca-".len() - suffix.len();
    let slug = dns_slug(job_id, room);
    if slug.is_empty() {
        format!("aca{suffix}")
    } else {
        format!("aca-{slug}{suffix}")
    }
}

/// Lower-case letters, digits and single dashes, at most `max` characters, no dash at either end.
fn dns_slug(text: &str, max: usize) -> String {
    let mut slug = String::new();
    for c in text.chars().map(|c| c.to_ascii_lowercase()) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            slug.push(c);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    slug.truncate(max);
    slug.trim_end_matches('-').to_owned()
}

/// The job id as a label value; an id that cannot be one is labelled by its digest.
fn job_id_label(job_id: &str) -> String {
    if !job_id.is_empty() && is_label_value(job_id) {
        job_id.to_owned()
    } else {
        format!("sha256-{}", hex::encode(&Sha256::digest(job_id.as_bytes())[..20]))
    }
}

/// The report the runner printed, from the last report line of its log.
fn report_in_log(log: &str) -> Result<Report, String> {
    let line = log
        .lines()
        .rev()
        .find_map(|line| line.trim_end_matches('\r').strip_prefix(REPORT_LINE_PREFIX))
        .ok_or_else(|| {
            format!(
                "its log ({} lines) has no `{}` line",
                log.lines().count(),
                REPORT_LINE_PREFIX.trim_end()
            )
        })?;
    serde_json::from_str(line)
        .map_err(|e| format!("its `{}` line is not a report ({e})", REPORT_LINE_PREFIX.trim_end()))
}

enum Look {
    Gone,
    Running(Vec<Pod>),
    Ended(Ending),
}

enum Ending {
    Complete,
    Failed { reason: String, message: String },
}

fn ending_of(job: &Job) -> Option<Ending> {
    let conditions = job.status.as_ref()?.conditions.as_ref()?;
    conditions
        .iter()
        .filter(|c| c.status == "True")
        .find_map(|c| match c.type_.as_str() {
            "Complete" => Some(Ending::Complete),
            "Failed" => Some(Ending::Failed {
                reason: c.reason.clone().unwrap_or_else(|| "no reason given".into()),
                message: c.message.clone().unwrap_or_default(),
            }),
            _ => None,
        })
}

fn phase(pod: &Pod) -> Option<&str> {
    pod.status.as_ref()?.phase.as_deref()
}

fn is_scheduled(pod: &Pod) -> bool {
    matches!(phase(pod), Some("Running" | "Succeeded" | "Failed"))
        || pod
            .status
            .as_ref()
            .and_then(|s| s.conditions.as_ref())
            .is_some_and(|conditions| {
                conditions
                    .iter()
                    .any(|c| c.type_ == "PodScheduled" && c.status == "True")
            })
}

/// A container waiting for something that will not come by itself: its image, its configuration.
fn stuck_container(pod: &Pod) -> Option<String> {
    let statuses = pod.status.as_ref()?.container_statuses.as_ref()?;
    statuses.iter().find_map(|status| {
        let waiting = status.state.as_ref()?.waiting.as_ref()?;
        let reason = waiting.reason.as_deref()?;
        STUCK_REASONS.contains(&reason).then(|| {
            format!(
                "the container cannot start ({reason}: {})",
                waiting.message.as_deref().unwrap_or("no message")
            )
        })
    })
}

fn unscheduled_cause(pods: &[Pod], waited: Duration) -> String {
    let why = pods
        .iter()
        .filter_map(|pod| pod.status.as_ref()?.conditions.as_ref())
        .flatten()
        .find(|c| c.type_ == "PodScheduled" && c.status != "True")
        .and_then(|c| c.message.clone())
        .unwrap_or_else(|| "no pod was made for it (a quota or an admission policy may refuse it)".into());
    format!("no node took its pod within {} s: {why}", waited.as_secs())
}

/// How the runner's container ended, when it did.
fn container_exit(pod: &Pod) -> Option<String> {
    let statuses = pod.status.as_ref()?.container_statuses.as_ref()?;
    let status = statuses.iter().find(|s| s.name == CONTAINER_NAME)?;
    let terminated = status.state.as_ref()?.terminated.as_ref()?;
    let reason = terminated.reason.as_deref().unwrap_or("no reason given");
    Some(match terminated.signal {
        Some(signal) => format!("the container was killed by signal {signal} ({reason})"),
        None => format!("the container exited with code {} ({reason})", terminated.exit_code),
    })
}

fn not_started(name: &str, cause: String) -> RunFailure {
    RunFailure::new(
        FailureKind::NotStarted,
        name,
        format!("the pod of the Job {name} did not start: {cause}"),
    )
}

fn deadline_exceeded(name: &str, seconds: i64) -> RunFailure {
    RunFailure::new(
        FailureKind::DeadlineExceeded,
        name,
        format!("the Job {name} ran past its deadline of {seconds} s"),
    )
}

fn pod_volume(volume: &Volume) -> PodVolume {
    PodVolume {
        name: volume.name.clone(),
        persistent_volume_claim: volume.claim.as_ref().map(|claim| PersistentVolumeClaimVolumeSource {
            claim_name: claim.clone(),
            read_only: Some(volume.read_only),
        }),
        config_map: volume.config_map.as_ref().map(|name| ConfigMapVolumeSource {
            name: name.clone(),
            ..ConfigMapVolumeSource::default()
        }),
        ..PodVolume::default()
    }
}

/// An API error as a sentence: the API server's own message, or what kept the call from it.
fn api_error_words(error: &kube::Error) -> String {
    match error {
        kube::Error::Api(status) => {
            let message = if status.message.is_empty() {
                "no message"
            } else {
                &status.message
            };
            format!("{message} ({} {})", status.code, status.reason)
        }
        other => other.to_string(),
    }
}

fn is_dns_label(text: &str) -> bool {
    (1..=63).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !text.starts_with('-')
        && !text.ends_with('-')
}

fn is_dns_subdomain(text: &str) -> bool {
    text.len() <= 253 && text.split('.').all(is_dns_label)
}

fn is_label_value(text: &str) -> bool {
    text.len() <= 63
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        && text.bytes().next().is_none_or(|b| b.is_ascii_alphanumeric())
        && text.bytes().last().is_none_or(|b| b.is_ascii_alphanumeric())
}

/// `name` or `prefix/name`, the prefix a DNS subdomain.
fn is_label_key(key: &str) -> bool {
    let (prefix, name) = match key.rsplit_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    prefix.is_none_or(is_dns_subdomain) && !name.is_empty() && is_label_value(name)
}

/// A Kubernetes quantity's value in base units (cores, bytes), when the text is one.
fn quantity_value(text: &str) -> Option<f64> {
    const SUFFIXES: &[(&str, f64)] = &[
        ("Ki", 1024.0),
        ("Mi", 1048576.0),
        ("Gi", 1073741824.0),
        ("Ti", 1099511627776.0),
        ("Pi", 1125899906842624.0),
        ("Ei", 1152921504606846976.0),
        ("m", 1e-3),
        ("k", 1e3),
        ("M", 1e6),
        ("G", 1e9),
        ("T", 1e12),
        ("P", 1e15),
        ("E", 1e18),
    ];
    let (number, scale) = SUFFIXES
        .iter()
        .find_map(|(suffix, scale)| Some((text.strip_suffix(suffix)?, *scale)))
        .unwrap_or((text, 1.0));
    let numeric = |c: char| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-');
    if number.is_empty() || !number.chars().all(numeric) {
        return None;
    }
    let value: f64 = number.parse().ok()?;
    (value.is_finite() && value >= 0.0).then_some(value * scale)
}
