//! `aca train collect`: runs the train split's tasks with a teacher, records every turn's exact
//! model messages, keeps the runs the reward service confirmed and the turns that moved them forward,
//! and writes the dataset folder (`aca_train::dataset`).

use std::path::PathBuf;
use std::process::ExitCode;

use aca_agent::{LlmConfig, Recordings};
use aca_chat::ChatClient;
use aca_core::{Confidence, JudgesDecision, Report, Verdict};
use aca_docs::split::SplitSet;
use aca_train::dataset::card::{self, Collection, Measure};
use aca_train::dataset::select::{self, Dropped, RecordedRun, Selection, Teacher};
use aca_train::dataset::{Confirmed, Sample, write};
use anyhow::{Context, anyhow};
use clap::Args;

use super::bench::{ModelCallArgs, PageRunArgs, in_page_order, run_once};
use super::task_set::{self, Releases, Task};
use crate::verify::agent_score::finding_matches;
use crate::verify::target::ConsoleTarget;
use crate::verify::{PolicyChoice, Settings};

/// Record training samples from runs of the train split's tasks.
///
/// Every task of the folder's split.toml train set (never the test set) runs on the bundled
/// console, on the release its page was written for and on the other one (its known drift), in a
/// fresh account each time. A teacher decides every action: the scripted policy, or with
/// --teacher-url a chat model (distillation). At each turn the exact messages the LLM policy is
/// given there are recorded, with the teacher's reply in the ReAct format.
///
/// A run is kept only when its outcome is confirmed: the audit log's success rule matched (or both
/// judges said so), which also confirms any defect the run reported on the other release; or the
/// operation could not happen and every defect reported is one the task is known to have. A defect
/// on the page's own release is never right. A kept run's turns are
/// left out when the action failed on the page, typed a secret, or was a detour (the page came back
/// to where the turn started). The card says how many of each.
///
/// Writes OUT/train.jsonl and OUT/validation.jsonl (OpenAI chat: messages plus metadata),
/// OUT/verl/*.parquet (data_source, prompt, ability, reward_model, extra_info), OUT/trl/messages/
/// and OUT/trl/prompt-completion/*.parquet (TRL's conversational formats), and the dataset card
/// OUT/README.md and OUT/card.json. Pages are split into train and validation with --seed; the
/// same runs give the same files. Each run's report is under OUT/reports/.
///
/// Exit status: 0 when the dataset was written, 2 on an error (and when no run was confirmed).
///
/// Examples:
///   aca train collect --out out/dataset
///   aca train collect --runs 2 --releases own --tokenizer models/qwen3-0.6b
///   aca train collect --teacher-url http://127.0.0.1:8000/v1 --teacher-model qwen3-max
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct CollectArgs {
    /// The task pages (each with its `<page>.task.toml`) and their split.toml; only the train set runs.
    #[arg(long, default_value = "tests/corpus")]
    tasks: PathBuf,
    /// Runs per task, each in a fresh account.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=20))]
    runs: u32,
    /// The console releases a page runs on: its own, the other one (its known drift), or both.
    #[arg(long, value_enum, default_value_t = Releases::Both)]
    releases: Releases,
    /// A chat model as the teacher (an OpenAI-compatible API base); the scripted policy without it.
    #[arg(long, value_name = "URL", requires = "teacher_model")]
    teacher_url: Option<String>,
    /// The teacher endpoint's model.
    #[arg(long, value_name = "NAME", requires = "teacher_url")]
    teacher_model: Option<String>,
    #[command(flatten)]
    model: ModelCallArgs,
    /// Seed of the train/validation split by page.
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// Share of the pages held out for validation.
    #[arg(long, default_value_t = 0.1)]
    validation: f64,
    /// A checkpoint directory whose chat template and tokenizer measure the samples in tokens
    /// (characters without it).
    #[arg(long, value_name = "DIR")]
    tokenizer: Option<PathBuf>,
    /// The dataset folder.
    #[arg(long, default_value = "out/dataset")]
    out: PathBuf,
    #[command(flatten)]
    run: PageRunArgs,
}

/// One run to make.
struct Job<'a> {
    task: &'a Task,
    run: u32,
}

/// What one run gave.
struct Collected {
    selection: Selection,
    /// Why the run is not confirmed, when it is not.
    unconfirmed: Option<String>,
    line: String,
}

pub async fn run(args: CollectArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        (0.0..1.0).contains(&args.validation),
        "--validation {}: give the share of pages held out, at least 0 and below 1",
        args.validation
    );
    let text = match &args.tokenizer {
        Some(dir) => Some(
            aca_model::text::CheckpointText::load(dir).map_err(|e| anyhow!("--tokenizer {}: {e}", dir.display()))?,
        ),
        None => None,
    };
    let (teacher, policy, model) = teacher(&args)?;
    let tasks = task_set::load(&args.tasks, Some(SplitSet::Train), args.releases, args.run.pages).await?;
    let jobs: Vec<Job> = (0..args.runs)
        .flat_map(|run| tasks.iter().map(move |task| Job { task, run }))
        .collect();
    let target = ConsoleTarget::bundled().await?;
    eprintln!(
        "train collect: {} task(s) × {} run(s) = {} runs with the {} teacher on {} ({} at a time)",
        tasks.len(),
        args.runs,
        jobs.len(),
        teacher.name(),
        target.url(),
        args.run.jobs
    );
    let collected = in_page_order(
        &jobs,
        args.run.jobs,
        |job| collect(&args, &target, &teacher, &policy, model.as_ref(), job),
        |c: &Collected| c.line.clone(),
    )
    .await;

    let mut collection = Collection {
        runs: collected.len(),
        seed: args.seed,
        validation_fraction: args.validation,
        tasks: args.tasks.display().to_string(),
        split: "train".to_owned(),
        ..Collection::default()
    };
    let mut samples: Vec<Sample> = Vec::new();
    for c in collected {
        match c.unconfirmed {
            Some(why) => *collection.unconfirmed.entry(why).or_default() += 1,
            None => collection.confirmed_runs += 1,
        }
        for (reason, count) in c.selection.dropped {
            *collection.dropped.entry(reason).or_default() += count;
        }
        samples.extend(c.selection.samples);
    }
    anyhow::ensure!(
        !samples.is_empty(),
        "no run was confirmed by the reward service, so there is nothing to train on: {:?}",
        collection.unconfirmed
    );
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let parts = write::split(samples, args.seed, args.validation);
    write::write_parts(&args.out, &parts)?;
    let measure = match &text {
        Some(text) => Measure::Tokens(text),
        None => Measure::Characters,
    };
    let card = card::card(collection, &parts, &measure).map_err(|e| anyhow!("measuring the samples: {e}"))?;
    card::write_card(&args.out, &card)?;
    println!(
        "runs: {} made, {} confirmed by the reward service",
        card.collection.runs, card.collection.confirmed_runs
    );
    for (why, runs) in &card.collection.unconfirmed {
        println!("  not confirmed ({runs}): {why}");
    }
    let dropped: Vec<String> = card
        .collection
        .dropped
        .iter()
        .map(|(reason, n)| format!("{n} {}", dropped_name(*reason)))
        .collect();
    println!(
        "samples: {} train ({} pages), {} validation ({} pages); turns left out: {}",
        card.train.samples,
        card.train.pages,
        card.validation.samples,
        card.validation.pages,
        if dropped.is_empty() {
            "none".to_owned()
        } else {
            dropped.join(", ")
        }
    );
    println!("dataset: {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}

fn dropped_name(reason: Dropped) -> String {
    serde_json::to_value(reason)
        .ok()
        .and_then(|v| v.as_str().map(|s| s.replace('_', " ")))
        .unwrap_or_default()
}

/// The teacher, the policy it runs as, and its endpoint.
fn teacher(args: &CollectArgs) -> anyhow::Result<(Teacher, PolicyChoice, Option<ChatClient>)> {
    let (Some(url), Some(model)) = (&args.teacher_url, &args.teacher_model) else {
        return Ok((Teacher::Scripted, PolicyChoice::Scripted, None));
    };
    let client =
        ChatClient::new(args.model.config(url, model)).with_context(|| format!("the teacher endpoint {url}"))?;
    let policy = PolicyChoice::Llm(LlmConfig {
        model: model.clone(),
        max_tokens: args.model.max_tokens,
        ..LlmConfig::default()
    });
    Ok((Teacher::Model(model.clone()), policy, Some(client)))
}

async fn collect(
    args: &CollectArgs,
    target: &ConsoleTarget,
    teacher: &Teacher,
    policy: &PolicyChoice,
    model: Option<&ChatClient>,
    job: &Job<'_>,
) -> Collected {
    let recordings = Recordings::default();
    let out = args
        .out
        .join("reports")
        .join(format!("run-{}", job.run + 1))
        .join(job.task.profile.to_string());
    let settings = Settings {
        policy: policy.clone(),
        model: model.cloned(),
        recordings: Some(recordings.clone()),
        ..args.run.scripted_settings(job.task.profile, &out)
    };
    let (result, _, report) = run_once(target, &job.task.input, &settings).await;
    let outcome = confirm(report.as_ref(), job.task);
    let run = RecordedRun {
        task: job.task.id.clone(),
        page: job.task.input.source.clone(),
        product: job.task.product.clone(),
        release: job.task.profile.to_string(),
        run: job.run,
        teacher: teacher.clone(),
        outcome: outcome.clone(),
        turns: report.map(|r| r.turns).unwrap_or_default(),
        recorded: recordings.take(),
    };
    let selection = select::select(&run);
    let line = format!(
        "run {} {}: {}",
        job.run + 1,
        job.task.id,
        match (&outcome, &result.error) {
            (_, Some(error)) => format!("not confirmed (error: {error})"),
            (Ok(confirmed), None) => format!("{confirmed:?}, {} sample(s)", selection.samples.len()),
            (Err(why), None) => format!("not confirmed: {why}"),
        }
    );
    Collected {
        selection,
        unconfirmed: outcome.err(),
        line,
    }
}

/// How a run's outcome is confirmed, or why it is not. The operation happened (the audit log's
/// rule matched, or both judges said so): a success, or a documentation defect when the run reported
/// defects, which the audit log then confirms (the console took another way than the page's). The
/// operation did not happen: a documentation defect only when every defect reported is one the task
/// is known to have. On the release a page was written for, no defect is right.
fn confirm(report: Option<&Report>, task: &Task) -> Result<Confirmed, String> {
    let report = report.ok_or("the run ended before its report")?;
    let happened = report.rule.as_ref().and_then(|r| r.matched) == Some(true)
        || report.judges.as_ref().map(|j| j.decision()) == Some(JudgesDecision::Success);
    if let Some(defect) = report.defects.first()
        && !task.drifted
    {
        return Err(format!(
            "a defect on the release the page was written for ({:?} at step {})",
            defect.kind, defect.step
        ));
    }
    let verdict = serde_json::to_value(report.verdict)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    if happened {
        return match report.verdict {
            Verdict::Pass => Ok(Confirmed::Success),
            Verdict::DocDefect if report.defects.is_empty() => Ok(Confirmed::Success),
            Verdict::DocDefect if report.defects.iter().all(|d| d.confidence == Confidence::Confirmed) => {
                Ok(Confirmed::DocDefect)
            }
            _ => Err(format!("verdict {verdict} although the operation happened")),
        };
    }
    if report.verdict != Verdict::DocDefect || report.defects.is_empty() {
        return Err(format!("verdict {verdict} without the operation confirmed"));
    }
    match report
        .defects
        .iter()
        .find(|d| !task.expected.iter().any(|e| finding_matches(e, d)))
    {
        Some(unknown) => Err(format!(
            "the operation did not happen and a defect is not one the task is known to have ({:?} at step {})",
            unknown.kind, unknown.step
        )),
        None => Ok(Confirmed::DocDefect),
    }
}
