//! Local workers: up to N pages of the queue verified at once on this machine, each in its own
//! sandbox (its own headless Chromium and a fresh account from the target), each claim renewed
//! while its run lasts, each run recorded with its job in one transaction.
//!
//! A run stops when its job is cancelled. A run that ended in `environment_failure` goes back to the
//! queue while attempts are left. A result that cannot be recorded (the database went away) is held
//! and recorded when the database is back, never dropped.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::time::{Duration, Instant};

use aca_core::{Report, Verdict};
use aca_platform::queue::{Claimed, Finished};
use aca_platform::{Job, PlatformError, Queue, RunRecord, now_ms};
use futures::StreamExt as _;
use futures::stream::FuturesUnordered;

use super::blocking;
use crate::report;
use crate::verify::target::{self, ConsoleTarget};
use crate::verify::{Settings, page, verify_page};

/// When the workers stop.
pub enum Until {
    /// When nothing is queued or running any more (`aca verify --all`).
    Drained,
    /// When the flag turns true (`aca server` shutting down): runs in flight go back to the queue.
    Stopped(tokio::sync::watch::Receiver<bool>),
}

/// What became of one claimed job.
#[derive(Debug)]
pub struct Outcome {
    pub job: Job,
    /// The run's report, or why the page could not run.
    pub result: Result<Report, String>,
    /// What recording the run did to the job; `None` when the run was stopped or not recorded.
    pub finished: Option<Finished>,
    /// The report's HTML, when it was written.
    pub html: Option<std::path::PathBuf>,
    /// The run as recorded with its job.
    pub run: Option<RunRecord>,
    /// Where the job's time went.
    pub timing: Timing,
}

/// Where a job's time went: the verification, and what the platform spent around it (claiming the
/// job, reading the page, writing the report, recording the run).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Timing {
    pub verification: Duration,
    pub platform: Duration,
}

pub struct Workers<'a> {
    pub queue: Queue,
    pub sandbox: Sandbox<'a>,
    pub settings: &'a Settings,
    /// This process's name: its workers are `<name>/<slot>`, and a restart takes back what they held.
    pub name: String,
    pub slots: usize,
    /// Write `fix.diff` beside the report of a local Markdown page with renamed labels.
    pub fix_diff: bool,
    /// How often the queue is looked at when it had nothing to give.
    pub poll: Duration,
    /// Each run's report in a folder of its own (`<page>/<job>-<attempt>`), so that a retry or a
    /// re-run keeps the earlier run's files; otherwise `<page>/`, as `aca verify` writes.
    pub folder_per_run: bool,
}

impl Workers<'_> {
    /// Runs queued jobs, `slots` at a time, until `until`; `on_outcome` hears of each job as it ends.
    pub async fn run(&self, mut until: Until, on_outcome: &mut dyn FnMut(&Outcome)) -> anyhow::Result<()> {
        let mut free: Vec<usize> = (0..self.slots.max(1)).rev().collect();
        let mut held: BTreeMap<usize, Claimed> = BTreeMap::new();
        let mut running = FuturesUnordered::new();
        loop {
            while let Some(&slot) = free.last() {
                let (queue, worker) = (self.queue.clone(), self.worker(slot));
                let claiming = Instant::now();
                match blocking(move || queue.claim(&worker, now_ms())).await {
                    Ok(Some(claimed)) => {
                        free.pop();
                        held.insert(slot, claimed.clone());
                        running.push(async move { (slot, self.run_job(slot, claimed, claiming).await) });
                    }
                    Ok(None) => break,
                    Err(e) => {
                        eprintln!("the queue cannot be read ({e}); trying again");
                        break;
                    }
                }
            }
            if running.is_empty() && matches!(until, Until::Drained) && self.drained().await {
                return Ok(());
            }
            let stopped = async {
                match &mut until {
                    Until::Stopped(flag) => {
                        while !*flag.borrow_and_update() {
                            if flag.changed().await.is_err() {
                                break;
                            }
                        }
                    }
                    Until::Drained => std::future::pending().await,
                }
            };
            tokio::select! {
                Some((slot, outcome)) = running.next() => {
                    free.push(slot);
                    held.remove(&slot);
                    on_outcome(&outcome);
                }
                () = tokio::time::sleep(self.poll) => {}
                () = stopped => {
                    drop(running);
                    for claimed in held.into_values() {
                        let queue = self.queue.clone();
                        let _ = blocking(move || queue.release(&claimed, "the server stopped during the run")).await;
                    }
                    return Ok(());
                }
            }
        }
    }

    fn worker(&self, slot: usize) -> String {
        format!("{}/{slot}", self.name)
    }

    /// Nothing is left to claim now or later (a job waiting out a retry pause still counts).
    async fn drained(&self) -> bool {
        let queue = self.queue.clone();
        match blocking(move || queue.depth()).await {
            Ok(depth) => depth.queued == 0 && depth.running == 0,
            Err(e) => {
                eprintln!("the queue cannot be read ({e}); trying again");
                false
            }
        }
    }

    async fn run_job(&self, slot: usize, claimed: Claimed, claiming: Instant) -> Outcome {
        let job = claimed.job.clone();
        let label = format!("[{}] {}", slot + 1, job.page);
        let attempt_note = if claimed.attempt > 1 {
            format!(" (attempt {} of {})", claimed.attempt, job.max_attempts)
        } else {
            String::new()
        };
        eprintln!("{label}{attempt_note}");
        let mut outcome = Outcome {
            job: job.clone(),
            result: Err(String::new()),
            finished: None,
            html: None,
            run: None,
            timing: Timing::default(),
        };
        let run_folder = format!("{}-{}", job.id.get(..8).unwrap_or(&job.id), claimed.attempt);
        let input = page::load(&job.page).await.map(|mut input| {
            if self.folder_per_run {
                input.slug = format!("{}/{run_folder}", input.slug);
            }
            input
        });
        let verifying = Instant::now();
        let report = match (&self.sandbox, input) {
            (Sandbox::Local(_), Err(e)) => {
                let why = format!("{e:#}");
                eprintln!("{label}: ERROR — {why}");
                let queue = self.queue.clone();
                let (failed, cause) = (claimed.clone(), why.clone());
                if let Err(e) = blocking(move || queue.fail(&failed, &cause, now_ms())).await {
                    eprintln!("{label}: the failure could not be recorded: {e}");
                }
                outcome.result = Err(why);
                return outcome;
            }
            (Sandbox::Local(target), Ok(input)) => {
                let progress = |line: &str| {
                    eprintln!("{label}    {line}");
                    let _ = std::io::stderr().flush();
                };
                let verification = verify_page(target, &input, self.settings, &progress);
                let report = tokio::select! {
                    report = verification => report,
                    () = self.keep_claim(&claimed, slot) => {
                        self.stopped(&claimed, &label, &mut outcome).await;
                        return outcome;
                    }
                };
                let report = report.map_err(|e| format!("{e:#}"));
                let report = self.or_not_run(report, &job.page, Some(&input));
                (report, Some(input))
            }
            #[cfg(feature = "kubernetes")]
            (Sandbox::Kubernetes(runner), input) => {
                // The page may be readable only in the runner's pod (a tree mounted there).
                let input = input.ok();
                let run = runner.run(&job.id, claimed.attempt, &job.page);
                let report = tokio::select! {
                    report = run => report,
                    () = self.keep_claim(&claimed, slot) => {
                        if let Err(e) = runner.cancel(&job.id, claimed.attempt).await {
                            eprintln!("{label}: its Kubernetes Job could not be deleted: {e}");
                        }
                        self.stopped(&claimed, &label, &mut outcome).await;
                        return outcome;
                    }
                };
                let report = report.map_err(|failure| failure.to_string());
                let report = self.or_not_run(report, &job.page, input.as_ref());
                (report, input)
            }
        };
        let ((report, broke), input) = report;
        outcome.timing.verification = verifying.elapsed();
        let slug = input.as_ref().map_or(run_folder, |i| i.slug.clone());
        let dir = self.settings.out.join(&slug);
        match report::write(&report, &dir) {
            Ok(_) if broke.is_some() => {
                eprintln!("{label}: ERROR — {}", broke.as_deref().unwrap_or_default());
            }
            Ok(html) => {
                eprintln!(
                    "{label}: {} — {} ({})",
                    report::verdict_label(report.verdict),
                    report.summary,
                    html.display()
                );
                if self.fix_diff && report.verdict == Verdict::DocDefect {
                    crate::commands::verify::suggest_fix(&report, &job.page, &dir);
                }
                outcome.html = Some(html);
            }
            Err(e) => eprintln!("{label}: the report could not be written: {e:#}"),
        }
        // A run in a pod sent its screenshots back ahead of its report.
        let staged = super::uploads::staging(&self.settings.out, &job.id, claimed.attempt);
        if let Err(e) = super::uploads::collect(&staged, &dir) {
            eprintln!("{label}: the files the run sent back could not be kept: {e}");
        }
        let mut record = RunRecord::new(job.tree.clone(), report.clone());
        record.page_digest = input.as_ref().map(|i| i.digest.clone());
        record.product = input
            .as_ref()
            .and_then(|i| target::product_of(i).ok())
            .map(|p| p.code.to_owned());
        record.report_dir = Some(dir.display().to_string());
        let retry_cause = (report.verdict == Verdict::EnvironmentFailure)
            .then(|| report.failure.clone().unwrap_or_else(|| report.summary.clone()));
        outcome.finished = self.record(&claimed, record.clone(), retry_cause, &label).await;
        record.job_id = Some(job.id.clone());
        record.attempt = claimed.attempt;
        outcome.run = Some(record);
        if let Some(Finished::Retried { next_attempt }) = &outcome.finished {
            eprintln!("{label}: environment failure: queued again for attempt {next_attempt}");
        }
        outcome.result = match broke {
            Some(why) => Err(why),
            None => Ok(report),
        };
        outcome.timing.platform = claiming.elapsed().saturating_sub(outcome.timing.verification);
        outcome
    }

    /// Renews the claim while the run lasts; returns when the job must stop (it was cancelled).
    async fn keep_claim(&self, claimed: &Claimed, slot: usize) {
        let every = Duration::from_millis((self.queue.lease_ms / 3).max(100) as u64);
        loop {
            tokio::time::sleep(every).await;
            let (queue, id, worker) = (self.queue.clone(), claimed.job.id.clone(), self.worker(slot));
            match blocking(move || queue.renew(&id, &worker, now_ms())).await {
                Ok(true) => {}
                Ok(false) => return,
                // The database is away: the run goes on, and is recorded once it is back.
                Err(_) => {}
            }
        }
    }

    /// Records the run, holding it until the database takes it.
    async fn record(
        &self,
        claimed: &Claimed,
        record: RunRecord,
        retry_cause: Option<String>,
        label: &str,
    ) -> Option<Finished> {
        let mut pause = Duration::from_millis(200);
        loop {
            let (queue, claimed, record, cause) =
                (self.queue.clone(), claimed.clone(), record.clone(), retry_cause.clone());
            match blocking(move || queue.finish(&claimed, &record, cause.as_deref(), now_ms())).await {
                Ok(finished) => return Some(finished),
                Err(PlatformError::Unavailable(why)) => {
                    eprintln!(
                        "{label}: the results database is away ({why}); the run is held and recorded when it is back"
                    );
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(10));
                }
                Err(e) => {
                    eprintln!("{label}: the run could not be recorded: {e}");
                    return None;
                }
            }
        }
    }

    /// The run's report, or, for a run that broke outside its report (no account could be had, the
    /// runner's Job failed), a report of the environment's failure, recorded and tried again while
    /// attempts are left; the second value says why it broke.
    fn or_not_run(
        &self,
        report: Result<Report, String>,
        page: &str,
        input: Option<&page::PageInput>,
    ) -> (Report, Option<String>) {
        match report {
            Ok(report) => (report, None),
            Err(why) => {
                let title = input.map_or("", |i| i.procedure.title.as_str());
                let report = aca_run::report::not_run(title, why.clone(), self.facts(page, input));
                (report, Some(why))
            }
        }
    }

    /// A run stopped because its job was cancelled: the job goes back (and ends cancelled).
    async fn stopped(&self, claimed: &Claimed, label: &str, outcome: &mut Outcome) {
        let queue = self.queue.clone();
        let stopped = claimed.clone();
        let _ = blocking(move || queue.release(&stopped, "cancelled while it ran")).await;
        eprintln!("{label}: stopped (cancelled)");
        outcome.result = Err("cancelled while it ran".into());
    }

    /// What a report of a run that never started says about it.
    fn facts(&self, page: &str, input: Option<&page::PageInput>) -> aca_run::RunFacts {
        let task = input.and_then(|i| i.task.as_ref());
        aca_run::RunFacts {
            page: page.to_owned(),
            title: input.map(|i| i.procedure.title.clone()).unwrap_or_default(),
            written_for: task.map(|t| t.profile.clone()),
            console: aca_core::ConsoleRun {
                url: self.sandbox.describe(),
                profile: None,
                account: None,
                region: task.map_or("cn-hangzhou".to_owned(), |t| t.region.clone()),
            },
            policy: match &self.settings.policy {
                crate::verify::PolicyChoice::Scripted => "scripted".into(),
                crate::verify::PolicyChoice::Llm(c) => format!("llm:{}", c.model),
            },
            started_at: time::OffsetDateTime::now_utc()
                .format(&time::format_description::well_known::Rfc3339)
                .unwrap_or_default(),
            duration_ms: 0,
        }
    }
}

/// Where a worker's runs happen.
pub enum Sandbox<'a> {
    /// In this process: its own headless Chromium per run, accounts from the target.
    Local(&'a ConsoleTarget),
    /// One Kubernetes Job per run, from the operator's template.
    #[cfg(feature = "kubernetes")]
    Kubernetes(&'a super::kubernetes::KubernetesRunner),
}

impl Sandbox<'_> {
    pub fn describe(&self) -> String {
        match self {
            Self::Local(target) => target.url().to_owned(),
            #[cfg(feature = "kubernetes")]
            Self::Kubernetes(runner) => format!("Kubernetes Jobs in namespace {}", runner.namespace()),
        }
    }
}
