//! `aca train grpo`: GRPO against the reward service. Each step, every task of a batch of train-split
//! tasks is run by the current policy several times in fresh emulator accounts; each episode's reward
//! comes from the audit log's rule (or the judges), and every model turn of it trains on exactly the
//! tokens the policy sampled (`train::policy_server`). Validation runs the test split.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use aca_agent::LlmConfig;
use aca_chat::{ChatClient, ChatConfig};
use aca_docs::split::SplitSet;
use aca_model::DeviceChoice;
use aca_train::grpo::advantage::RolloutReward;
use aca_train::grpo::sample::Completion;
use aca_train::grpo::{Group, GrpoConfig, GrpoTrainer, Rollout, StepReport, Turn};
use anyhow::{Context, anyhow};
use clap::Args;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use tokio::sync::Mutex;

use super::bench::{PageRunArgs, in_page_order, run_once};
use super::serve::DeviceArg;
use super::task_set::{self, Releases, Task};
use crate::train::policy_server::{POLICY_MODEL, PolicyServer};
use crate::train::reward::reward_of;
use crate::verify::target::ConsoleTarget;
use crate::verify::{PolicyChoice, Settings};

/// Train the policy with GRPO against the audit-log reward.
///
/// Starts from a checkpoint (an SFT result: any Qwen3 `aca serve` loads) or resumes a checkpoint
/// this command wrote. Each step takes --tasks-per-step tasks of the train split (never the test
/// split), runs each --group × 1.25 times (oversampling, so that --group scored episodes remain) in
/// fresh accounts of the bundled console with the current weights served in process, and scores
/// every episode with the reward service: 1 when the audit log shows the documented operation, 0
/// when it does not, invalid when the judges disagree, and never a score when the environment
/// failed (dropped and counted). Every model turn of an episode carries its episode's advantage
/// (normalised within the task's group, then over the batch); groups whose rewards are all equal are
/// skipped and counted. The loss is the clipped surrogate (--clip) with a KL penalty to the starting
/// weights (--kl-beta, k3 estimator) over the model's own tokens only, and the trainer's
/// log-probabilities of the sampled tokens are compared with the sampler's (the mismatch line).
///
/// Every --validate-every steps the test split runs once per task, greedily; its pass@1 is printed
/// and the best checkpoint is kept in OUT/best (training oscillates). Checkpoints go to
/// OUT/checkpoint-STEP; OUT/grpo.jsonl holds one line of figures per step.
///
/// Exit status: 0 when training finished, 2 on an error.
///
/// Examples:
///   aca train grpo --model out/sft/checkpoint-300 --steps 50 --out out/grpo
///   aca train grpo --model out/sft/checkpoint-300 --group 4 --tasks-per-step 2 --jobs 2
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct GrpoArgs {
    /// The checkpoint to start from, or one this command wrote (the run resumes).
    #[arg(long, value_name = "DIR")]
    model: PathBuf,
    /// The task pages and their split.toml: the train set is trained on, the test set validates.
    #[arg(long, default_value = "tests/corpus")]
    tasks: PathBuf,
    /// The console releases a page runs on.
    #[arg(long, value_enum, default_value_t = Releases::Own)]
    releases: Releases,
    /// Optimizer steps.
    #[arg(long, default_value_t = 20)]
    steps: usize,
    /// Tasks per step.
    #[arg(long, default_value_t = 2)]
    tasks_per_step: usize,
    /// Scored episodes compared per task.
    #[arg(long, default_value_t = 16)]
    group: usize,
    #[arg(long, default_value_t = 1e-6)]
    lr: f64,
    #[arg(long, default_value_t = 0.2)]
    clip: f64,
    #[arg(long, default_value_t = 0.1)]
    kl_beta: f64,
    /// Limit on the global gradient norm (0: measure without clipping).
    #[arg(long, default_value_t = 1.0)]
    max_grad_norm: f32,
    /// Sampling temperature of the episodes (the trainer reads log-probabilities at the same one).
    #[arg(long, default_value_t = 1.0)]
    temperature: f32,
    /// Longest reply per turn, in tokens.
    #[arg(long, default_value_t = 256)]
    max_tokens: usize,
    /// Context the policy is served with, in tokens.
    #[arg(long, default_value_t = 8192)]
    max_context: usize,
    /// Validate on the test split every N steps and at the end (0: never).
    #[arg(long, default_value_t = 10)]
    validate_every: usize,
    /// Save a checkpoint every N steps (and at the end; 0: only at the end).
    #[arg(long, default_value_t = 0)]
    save_every: usize,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[arg(long, value_enum, default_value_t = DeviceArg::Cpu)]
    device: DeviceArg,
    #[arg(long, default_value = "out/grpo")]
    out: PathBuf,
    #[command(flatten)]
    run: PageRunArgs,
}

/// One episode to run: a task, and which of its group it is.
struct Job<'a> {
    task: &'a Task,
    index: usize,
}

/// One finished episode.
struct Episode {
    task: String,
    turns: Vec<Turn>,
    reward: RolloutReward,
    line: String,
}

pub async fn run(args: GrpoArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        args.group >= 2 && args.tasks_per_step >= 1 && args.steps >= 1,
        "--group must be at least 2, --tasks-per-step and --steps at least 1"
    );
    let train = task_set::load(&args.tasks, Some(SplitSet::Train), args.releases, args.run.pages).await?;
    let test = if args.validate_every > 0 {
        task_set::load(&args.tasks, Some(SplitSet::Test), Releases::Own, args.run.pages).await?
    } else {
        Vec::new()
    };
    let config = GrpoConfig {
        group_size: args.group,
        clip_epsilon: args.clip,
        kl_beta: args.kl_beta,
        learning_rate: args.lr,
        min_learning_rate: 0.0,
        total_steps: args.steps,
        max_grad_norm: (args.max_grad_norm > 0.0).then_some(args.max_grad_norm),
        max_completion_tokens: args.max_tokens,
        temperature: args.temperature,
        seed: args.seed,
        validate_every: args.validate_every,
        save_every: args.save_every,
        output_dir: Some(args.out.clone()),
        ..GrpoConfig::default()
    };
    let choice = DeviceChoice::from(args.device);
    let device = choice.open().map_err(|e| anyhow!(e))?;
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let (start, start_device) = (args.model.clone(), device.clone());
    let mut trainer = tokio::task::spawn_blocking(move || GrpoTrainer::new(config, &start, &start_device))
        .await
        .context("loading the policy stopped")?
        .map_err(|e| anyhow!(e))?;
    let target = ConsoleTarget::bundled().await?;
    let per_group = trainer.config().rollouts_per_group();
    eprintln!(
        "train grpo: {} train task(s), {} step(s) of {} task(s) × {} episodes, on {} ({} at a time)",
        train.len(),
        args.steps,
        args.tasks_per_step,
        per_group,
        choice.name(),
        args.run.jobs
    );
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = rand::rngs::StdRng::seed_from_u64(args.seed);
    let mut cursor = order.len();
    let mut best: Option<f64> = None;
    let log_path = args.out.join("grpo.jsonl");
    while trainer.steps_done() < args.steps {
        let step = trainer.steps_done() + 1;
        let policy_dir = args.out.join("policy");
        let servers = serve_policy(&trainer, &policy_dir, &device, args.max_context, args.run.jobs).await?;
        let mut batch = Vec::with_capacity(args.tasks_per_step);
        for _ in 0..args.tasks_per_step.min(train.len()) {
            if cursor == order.len() {
                order.shuffle(&mut rng);
                cursor = 0;
            }
            batch.push(&train[order[cursor]]);
            cursor += 1;
        }
        let jobs: Vec<Job> = batch
            .iter()
            .flat_map(|task| (0..per_group).map(move |index| Job { task, index }))
            .collect();
        let settings = EpisodeSettings {
            args: &args,
            temperature: args.temperature,
            out: args.out.join("episodes").join(format!("step-{step}")),
        };
        let episodes = in_page_order(
            &jobs,
            args.run.jobs,
            |job| episode(&settings, &target, &servers, job),
            |e: &Episode| e.line.clone(),
        )
        .await;
        drop(servers);
        let groups = groups(episodes, args.group);
        let (returned, report) = tokio::task::spawn_blocking(move || {
            let report = trainer.step(groups);
            (trainer, report)
        })
        .await
        .context("the training step stopped")?;
        trainer = returned;
        let report = report.map_err(|e| anyhow!(e))?;
        println!("{}", step_line(&report));
        let mut figures = serde_json::to_value(&report)?;
        if report.validate_due && !test.is_empty() {
            let pass = validate(&args, &trainer, &target, &device, &test, step).await?;
            println!(
                "validation at step {step}: pass@1 {:.1}% on {} test task(s)",
                pass * 100.0,
                test.len()
            );
            figures["validation_pass_at_1"] = serde_json::json!(pass);
            if best.is_none_or(|b| pass > b) {
                best = Some(pass);
                trainer.save(&args.out.join("best")).map_err(|e| anyhow!(e))?;
                println!("best so far: {}", args.out.join("best").display());
            }
        }
        append_line(&log_path, &figures)?;
    }
    println!("figures: {}", log_path.display());
    Ok(ExitCode::SUCCESS)
}

/// What every episode of a step shares.
struct EpisodeSettings<'a> {
    args: &'a GrpoArgs,
    temperature: f32,
    out: PathBuf,
}

/// The current weights served `jobs` times (one server per concurrent episode, so each server's
/// generations are one episode's).
async fn serve_policy(
    trainer: &GrpoTrainer,
    dir: &Path,
    device: &aca_model::Device,
    max_context: usize,
    jobs: u16,
) -> anyhow::Result<Mutex<Vec<PolicyServer>>> {
    trainer.save_weights(dir).map_err(|e| anyhow!(e))?;
    let mut servers = Vec::with_capacity(usize::from(jobs));
    for _ in 0..jobs {
        servers.push(PolicyServer::start(dir, device, max_context).await?);
    }
    Ok(Mutex::new(servers))
}

async fn episode(
    settings: &EpisodeSettings<'_>,
    target: &ConsoleTarget,
    servers: &Mutex<Vec<PolicyServer>>,
    job: &Job<'_>,
) -> Episode {
    let server = servers.lock().await.pop();
    let Some(server) = server else {
        return Episode {
            task: job.task.id.clone(),
            turns: Vec::new(),
            reward: RolloutReward::Environment("no policy server was free".into()),
            line: format!("{} #{}: no policy server was free", job.task.id, job.index + 1),
        };
    };
    server.take();
    let (result, report) = run_with(settings, target, &server, job).await;
    let turns = server
        .take()
        .into_iter()
        .map(|g| Turn {
            prompt_ids: g.prompt_ids,
            completion: Completion {
                ids: g.completion_ids,
                logprobs: g.logprobs,
                finished: g.finished,
            },
        })
        .collect::<Vec<_>>();
    servers.lock().await.push(server);
    let reward = reward_of(report.as_ref(), result.as_deref());
    let line = format!(
        "{} #{}: {reward:?} after {} model turn(s)",
        job.task.id,
        job.index + 1,
        turns.len()
    );
    Episode {
        task: job.task.id.clone(),
        turns,
        reward,
        line,
    }
}

/// One episode of `job` by the policy `server` serves: its error, if any, and its report.
async fn run_with(
    settings: &EpisodeSettings<'_>,
    target: &ConsoleTarget,
    server: &PolicyServer,
    job: &Job<'_>,
) -> (Option<String>, Option<aca_core::Report>) {
    let client = match ChatClient::new(ChatConfig::new(server.url(), POLICY_MODEL.to_owned())) {
        Ok(client) => client,
        Err(e) => return (Some(format!("the policy client: {e}")), None),
    };
    let out = settings.out.join(format!("{}", job.index + 1));
    let run_settings = Settings {
        policy: PolicyChoice::Llm(LlmConfig {
            model: POLICY_MODEL.to_owned(),
            temperature: settings.temperature,
            max_tokens: settings.args.max_tokens as u32,
            ..LlmConfig::default()
        }),
        model: Some(client),
        ..settings.args.run.scripted_settings(job.task.profile, &out)
    };
    let (result, _, report) = run_once(target, &job.task.input, &run_settings).await;
    (result.error, report)
}

/// The episodes grouped by task in batch order, each group cut to `size` scored episodes (the
/// oversampled rest beyond them is dropped; unscored ones stay, to be counted).
fn groups(episodes: Vec<Episode>, size: usize) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for episode in episodes {
        if groups.last().is_none_or(|g| g.task != episode.task) {
            groups.push(Group {
                task: episode.task.clone(),
                rollouts: Vec::new(),
            });
        }
        let Some(group) = groups.last_mut() else { continue };
        let scored = group
            .rollouts
            .iter()
            .filter(|r| matches!(r.reward, RolloutReward::Scored(_)))
            .count();
        if matches!(episode.reward, RolloutReward::Scored(_)) && scored >= size {
            continue;
        }
        group.rollouts.push(Rollout {
            turns: episode.turns,
            reward: episode.reward,
        });
    }
    groups
}

/// Pass@1 of the test split by the current weights, greedily.
async fn validate(
    args: &GrpoArgs,
    trainer: &GrpoTrainer,
    target: &ConsoleTarget,
    device: &aca_model::Device,
    test: &[Task],
    step: usize,
) -> anyhow::Result<f64> {
    let servers = serve_policy(
        trainer,
        &args.out.join("policy"),
        device,
        args.max_context,
        args.run.jobs,
    )
    .await?;
    let settings = EpisodeSettings {
        args,
        temperature: 0.0,
        out: args.out.join("validation").join(format!("step-{step}")),
    };
    let jobs: Vec<Job> = test.iter().map(|task| Job { task, index: 0 }).collect();
    let episodes = in_page_order(
        &jobs,
        args.run.jobs,
        |job| episode(&settings, target, &servers, job),
        |e: &Episode| e.line.clone(),
    )
    .await;
    let passed = episodes
        .iter()
        .filter(|e| e.reward == RolloutReward::Scored(1.0))
        .count();
    Ok(passed as f64 / test.len().max(1) as f64)
}

fn step_line(report: &StepReport) -> String {
    let c = &report.counts;
    let f = &report.figures;
    let head = match &report.skipped {
        Some(why) => format!("step {}: no update ({why})", report.step),
        None => format!(
            "step {}: loss {:.4} kl {:.4} clipped {:.1}% grad-norm {:.3} lr {:.2e}",
            report.step,
            report.loss,
            f.kl,
            f.clipped * 100.0,
            report.grad_norm,
            report.learning_rate
        ),
    };
    format!(
        "{head} | reward {} | {} episode(s), {} model turn(s) used; groups skipped: {} equal, {} thin; dropped: {} invalid, {} environment | sampler/trainer logprob gap mean {:.2e} max {:.2e}",
        c.mean_reward.map_or("-".to_owned(), |r| format!("{r:.3}")),
        report.used_rollouts,
        report.used_turns,
        c.equal_groups,
        c.thin_groups,
        c.invalid,
        c.environment,
        f.mismatch_mean,
        f.mismatch_max
    )
}

fn append_line(path: &Path, value: &serde_json::Value) -> anyhow::Result<()> {
    use std::io::Write as _;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    writeln!(file, "{value}").with_context(|| format!("writing {}", path.display()))
}
