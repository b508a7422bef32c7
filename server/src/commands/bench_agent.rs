//! `aca bench agent`: the benchmark protocol. A task set run by one or more policies, K independent
//! runs per task in fresh accounts, scored by the audit-log rule channel only (`verify::agent_score`),
//! and, given judges, their agreement with it (`verify::judge_agreement`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use aca_agent::{LlmConfig, Pricing};
use aca_chat::{ChatClient, Price};
use aca_core::{ActionOutcome, Report, Verdict};
use aca_docs::split::SplitSet;
use anyhow::{Context, anyhow, bail};
use clap::{Args, ValueEnum};

use super::bench::{ModelCallArgs, PageRunArgs, in_page_order, run_once, write_figures};
use super::task_set::{self, Releases, Task};
use crate::verify::agent_score::{self, AgentFigures, AgentRun, DEFAULT_RESAMPLES, FailureCategory};
use crate::verify::judge_agreement::{self, Agreement, JudgedRun};
use crate::verify::target::ConsoleTarget;
use crate::verify::{PolicyChoice, Settings};

/// Run a task set with one or more policies, K times each, and score it as the paper does.
///
/// Each task is an example page (with its sidecar) on one console release: the release it was
/// written for (nothing to report: the operation must happen) and, with --releases both or other,
/// the other release (the operation must still happen, and each known difference should be
/// reported). Every run starts in a fresh account of the bundled console. Only the audit log's
/// rule channel decides whether a run passed.
///
/// Prints and writes OUT/agent.json and OUT/agent.html: pass@1 as mean ± std over the K runs,
/// pass@K, both by product and by difficulty, steps, tokens, time and cost per step and per task,
/// failure categories, drift recall and precision at the defect level (a difference counts as found
/// only when the step, the kind and both labels match), the pass rate of untouched pages, and for
/// every two policies a paired bootstrap 95% confidence interval of the pass@1 difference with its
/// p-value. With --judges, each run the rule channel decided is also put to the two judges, and
/// their agreement with it is printed. Every run's report is under OUT/<policy>/run-<k>/<release>/.
///
/// Exit status: 0 when the benchmark ran, 2 on an error.
///
/// Examples:
///   aca bench agent                                    # scripted, test split, 3 runs
///   aca bench agent --runs 1 --split all --jobs 2
///   aca bench agent --policy scripted --model-url http://127.0.0.1:8000/v1 --model qwen3 --price 0.2,0.6
///   aca bench agent --runs 1 --judges judges.toml
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct AgentBenchArgs {
    /// The task pages (each with its `<page>.task.toml`), a folder searched recursively, with its
    /// split.toml.
    #[arg(long, default_value = "tests/corpus")]
    tasks: PathBuf,
    /// Which tasks of the folder's split.toml are run: test (scored by default, never trained on),
    /// train, or all.
    #[arg(long, value_enum, default_value_t = SplitArg::Test)]
    split: SplitArg,
    /// The scripted policy (no model); given with --model-url, both are compared. Scripted is the
    /// default when neither is given.
    #[arg(long = "policy", value_enum)]
    policies: Vec<PolicyArg>,
    /// An OpenAI-compatible API base to run as a policy (repeatable; the n-th --model names the
    /// n-th endpoint's model).
    #[arg(long = "model-url", value_name = "URL")]
    model_urls: Vec<String>,
    /// The model of the n-th --model-url.
    #[arg(long = "model", value_name = "NAME")]
    models: Vec<String>,
    /// Price of the n-th --model-url in USD per million tokens, as INPUT,OUTPUT (default 0,0).
    #[arg(long = "price", value_name = "IN,OUT")]
    prices: Vec<String>,
    #[command(flatten)]
    model: ModelCallArgs,
    /// Independent runs per task and policy, each in a fresh account.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=20))]
    runs: u32,
    /// The console releases a page runs on: its own, the other one (its known drift), or both.
    #[arg(long, value_enum, default_value_t = Releases::Both)]
    releases: Releases,
    /// Bootstrap resamples of each comparison.
    #[arg(long, default_value_t = DEFAULT_RESAMPLES)]
    resamples: usize,
    /// The bootstrap's seed.
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// Two judges (a TOML file, see `aca server --help`): each run the rule channel decided is
    /// also put to them, to measure how often they agree with the audit log.
    #[arg(long, value_name = "FILE")]
    judges: Option<PathBuf>,
    /// Where agent.json, agent.html and the runs' reports are written.
    #[arg(long, default_value = "out/bench-agent")]
    out: PathBuf,
    #[command(flatten)]
    run: PageRunArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum SplitArg {
    Test,
    Train,
    All,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum PolicyArg {
    Scripted,
}

/// One policy under test.
struct Contender {
    /// `scripted` or `llm:<model>`.
    name: String,
    policy: PolicyChoice,
    model: Option<ChatClient>,
}

/// One run to make.
struct Job<'a> {
    contender: &'a Contender,
    task: &'a Task,
    run: u32,
}

/// One finished run: the scored facts and, given judges, what they said.
struct Done {
    run: AgentRun,
    judged: Option<JudgedRun>,
    line: String,
}

pub async fn run(args: AgentBenchArgs) -> anyhow::Result<ExitCode> {
    let contenders = contenders(&args)?;
    let tasks = tasks(&args).await?;
    let judges = match &args.judges {
        Some(path) => Some(Arc::new(aca_service::judges::load(path).map_err(|e| anyhow!(e))?)),
        None => None,
    };
    let mut jobs: Vec<Job> = Vec::new();
    for contender in &contenders {
        for run in 0..args.runs {
            jobs.extend(tasks.iter().map(|task| Job { contender, task, run }));
        }
    }
    let target = ConsoleTarget::bundled().await?;
    eprintln!(
        "bench agent: {} task(s) × {} run(s) × {} polic{} = {} runs on {} ({} at a time)",
        tasks.len(),
        args.runs,
        contenders.len(),
        if contenders.len() == 1 { "y" } else { "ies" },
        jobs.len(),
        target.url(),
        args.run.jobs
    );
    let started = std::time::Instant::now();
    let done = in_page_order(
        &jobs,
        args.run.jobs,
        |job| run_job(&args, &target, judges.as_deref(), job),
        |done: &Done| done.line.clone(),
    )
    .await;
    let runs: Vec<AgentRun> = done.iter().map(|d| d.run.clone()).collect();
    let judged: Vec<JudgedRun> = done.iter().filter_map(|d| d.judged.clone()).collect();
    let figures = agent_score::score(&runs, args.resamples, args.seed);
    let agreement = judges.as_ref().map(|_| judge_agreement::agreement(&judged));

    println!("{}", agent_score::render_table(&figures));
    if let Some(agreement) = &agreement {
        println!("{}", judge_agreement::render(agreement));
    }
    let json = serde_json::json!({
        "tasks": args.tasks,
        "split": format!("{:?}", args.split).to_lowercase(),
        "releases": format!("{:?}", args.releases).to_lowercase(),
        "runsPerTask": args.runs,
        "jobs": args.run.jobs,
        "wallSeconds": started.elapsed().as_secs_f64(),
        "figures": figures,
        "judgeAgreement": agreement,
        "runs": runs,
        "judged": judged,
    });
    write_figures(&args.out.join("agent.json"), &json)?;
    let html = html_page(&figures, agreement.as_ref());
    let html_path = args.out.join("agent.html");
    std::fs::write(&html_path, html).with_context(|| format!("writing {}", html_path.display()))?;
    println!("page:    {}", html_path.display());
    Ok(ExitCode::SUCCESS)
}

fn contenders(args: &AgentBenchArgs) -> anyhow::Result<Vec<Contender>> {
    if args.models.len() != args.model_urls.len() {
        bail!(
            "{} --model-url but {} --model: name the model of each endpoint, in the same order",
            args.model_urls.len(),
            args.models.len()
        );
    }
    if args.prices.len() > args.model_urls.len() {
        bail!("more --price than --model-url: each price belongs to the endpoint given in the same place");
    }
    let mut contenders = Vec::new();
    if args.policies.contains(&PolicyArg::Scripted) || args.model_urls.is_empty() {
        contenders.push(Contender {
            name: "scripted".into(),
            policy: PolicyChoice::Scripted,
            model: None,
        });
    }
    for (i, (url, model)) in args.model_urls.iter().zip(&args.models).enumerate() {
        let (input, output) = match args.prices.get(i) {
            Some(price) => parse_price(price)?,
            None => (0.0, 0.0),
        };
        let mut config = args.model.config(url, model);
        config.price = Some(Price {
            input_per_mtok: input,
            output_per_mtok: output,
        });
        let name = format!("llm:{model}");
        if contenders.iter().any(|c: &Contender| c.name == name) {
            bail!("two endpoints serve model {model}: each compared policy needs its own name");
        }
        contenders.push(Contender {
            name,
            policy: PolicyChoice::Llm(LlmConfig {
                model: model.clone(),
                pricing: Pricing {
                    input_per_million: input,
                    output_per_million: output,
                },
                max_tokens: args.model.max_tokens,
                ..LlmConfig::default()
            }),
            model: Some(ChatClient::new(config).with_context(|| format!("the endpoint {url}"))?),
        });
    }
    Ok(contenders)
}

fn parse_price(text: &str) -> anyhow::Result<(f64, f64)> {
    let parsed = text
        .split_once(',')
        .and_then(|(i, o)| Some((i.trim().parse::<f64>().ok()?, o.trim().parse::<f64>().ok()?)))
        .filter(|(i, o)| *i >= 0.0 && *o >= 0.0);
    parsed.ok_or_else(|| anyhow!("--price {text}: give INPUT,OUTPUT in USD per million tokens, e.g. 0.2,0.6"))
}

/// The split's pages, each on the releases asked for.
async fn tasks(args: &AgentBenchArgs) -> anyhow::Result<Vec<Task>> {
    let set = match args.split {
        SplitArg::All => None,
        SplitArg::Test => Some(SplitSet::Test),
        SplitArg::Train => Some(SplitSet::Train),
    };
    task_set::load(&args.tasks, set, args.releases, args.run.pages).await
}

async fn run_job(
    args: &AgentBenchArgs,
    target: &ConsoleTarget,
    judges: Option<&aca_reward::Judges>,
    job: &Job<'_>,
) -> Done {
    let out = args
        .out
        .join(policy_folder(&job.contender.name))
        .join(format!("run-{}", job.run + 1))
        .join(job.task.profile.to_string());
    let settings = Settings {
        policy: job.contender.policy.clone(),
        model: job.contender.model.clone(),
        ..args.run.scripted_settings(job.task.profile, &out)
    };
    let (result, _, report) = run_once(target, &job.task.input, &settings).await;
    let run = agent_run(job, report.as_ref());
    let judged = match (judges, report.as_ref()) {
        (Some(judges), Some(report)) => match report.rule.as_ref().and_then(|r| r.matched) {
            Some(rule_met) => {
                let case = aca_run::report::judge_case_of_report(report);
                let answers = judges.judge(&case, "measuring the judges against the rule channel").await;
                Some(JudgedRun {
                    task: job.task.id.clone(),
                    policy: job.contender.name.clone(),
                    rule_met,
                    judges: answers,
                })
            }
            None => None,
        },
        _ => None,
    };
    let line = format!(
        "{} run {} {}: {}{}",
        job.contender.name,
        job.run + 1,
        job.task.id,
        if run.passed { "passed" } else { "not passed" },
        match (&result.error, report.as_ref()) {
            (Some(error), _) => format!(" (error: {error})"),
            (None, Some(report)) => format!(" ({}, {:.1} s)", result.verdict_label(), report.duration_ms as f64 / 1e3),
            (None, None) => String::new(),
        }
    );
    Done { run, judged, line }
}

/// The scored facts of one run; a run that errored before its report passed nothing.
fn agent_run(job: &Job<'_>, report: Option<&Report>) -> AgentRun {
    let passed = report.is_some_and(|r| r.rule.as_ref().and_then(|rule| rule.matched) == Some(true));
    AgentRun {
        policy: job.contender.name.clone(),
        task: job.task.id.clone(),
        product: job.task.product.clone(),
        difficulty: job.task.difficulty,
        run: job.run,
        passed,
        steps: report.map_or(0, |r| r.turns.len() as u32),
        tokens_in: report.map_or(0, |r| r.usage.prompt_tokens),
        tokens_out: report.map_or(0, |r| r.usage.completion_tokens),
        duration_ms: report.map_or(0, |r| r.duration_ms),
        cost: report.and_then(|r| r.usage.cost_usd).unwrap_or(0.0),
        failure: (!passed).then(|| report.map_or(FailureCategory::Environment, failure_category)),
        findings: report.map(|r| r.defects.clone()).unwrap_or_default(),
        expected: job.task.expected.clone(),
    }
}

/// Why a run did not pass, in the paper's failure categories: resources that could not be made,
/// an action the page would not take (the last action failed on the page), or the agent's own
/// decision (it chose wrongly, stopped, or never found its way); anything else outside the page
/// is the environment's.
fn failure_category(report: &Report) -> FailureCategory {
    if report.verdict == Verdict::EnvironmentFailure {
        let why = report.failure.as_deref().unwrap_or_default().to_lowercase();
        return if why.contains("provision") || why.contains("resource") {
            FailureCategory::Provisioning
        } else {
            FailureCategory::Environment
        };
    }
    let last_gui = report
        .turns
        .iter()
        .rev()
        .find(|t| matches!(t.action, aca_core::Action::Gui(_)));
    match last_gui.and_then(|t| t.outcome.as_ref()) {
        Some(
            ActionOutcome::ElementNotFound { .. }
            | ActionOutcome::NotActionable { .. }
            | ActionOutcome::Timeout { .. }
            | ActionOutcome::Failed { .. },
        ) => FailureCategory::UiInteraction,
        _ => FailureCategory::AgentDecision,
    }
}

fn policy_folder(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '.' { c } else { '-' })
        .collect()
}

/// The figures as a page: a table of the policies' headline figures, then every figure as the
/// terminal shows it, and the judges' agreement.
fn html_page(figures: &AgentFigures, agreement: Option<&Agreement>) -> String {
    let percent = agent_score::optional_percent;
    maud::html! {
        (maud::DOCTYPE)
        html {
            head {
                meta charset="utf-8";
                title { "aca bench agent" }
                style { "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}\
                    td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}td:first-child{text-align:left}\
                    pre{background:#f6f6f6;padding:1em}" }
            }
            body {
                h1 { "Agent benchmark" }
                table {
                    tr {
                        th { "policy" } th { "tasks" } th { "pass@1 (mean ± std over runs)" } th { "pass@k" }
                        th { "drift recall" } th { "drift precision" } th { "untouched pages passing" }
                    }
                    @for policy in &figures.policies {
                        tr {
                            td { (policy.policy) }
                            td { (policy.overall.tasks) }
                            td { (format!("{:.1}% ± {:.1}%", policy.overall.pass_at_1.mean * 100.0, policy.overall.pass_at_1.std * 100.0)) }
                            td { (format!("{:.1}%", policy.overall.pass_at_k * 100.0)) }
                            td { (percent(policy.drift.drift_recall)) }
                            td { (percent(policy.drift.drift_precision)) }
                            td { (percent(policy.drift.untouched_pass_rate)) }
                        }
                    }
                }
                h2 { "Every figure" }
                pre { (agent_score::render_table(figures)) }
                @if let Some(agreement) = agreement {
                    h2 { "Judges against the rule channel" }
                    pre { (judge_agreement::render(agreement)) }
                }
            }
        }
    }
    .into_string()
}
