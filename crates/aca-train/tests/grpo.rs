//! GRPO steps on a tiny random Qwen3 with the real Qwen3 tokenizer and fake rewards: the loss a hand
//! computation predicts, no KL and no train/sample mismatch at the first step, completions that become
//! more or less likely by their advantage, groups that teach nothing leaving the weights alone, refused
//! rollouts, and checkpoints that `aca_model::Qwen3Model::load` reads and the trainer resumes from.

use std::path::{Path, PathBuf};
use std::time::Instant;

use aca_model::random::RandomShape;
use aca_model::text::CheckpointText;
use aca_model::{Device, Qwen3Model};
use aca_train::TrainError;
use aca_train::grpo::advantage::{RolloutReward, advantages};
use aca_train::grpo::logprobs::{RolloutTokens, completion_logprobs};
use aca_train::grpo::sample::Completion;
use aca_train::grpo::{Group, GrpoConfig, GrpoTrainer, Rollout, StepReport, Turn};
use aca_train::model::{TextFiles, TrainableQwen3};

fn tokenizer_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../aca-model/tests/fixtures/text/qwen3")
}

/// A random small Qwen3 (2 layers, hidden 64, Qwen3's vocabulary) saved with the tokenizer files.
fn start_checkpoint(context: usize) -> tempfile::TempDir {
    let directory = tempfile::tempdir().unwrap();
    let shape = RandomShape {
        max_position_embeddings: context,
        ..RandomShape::small()
    };
    let model = TrainableQwen3::random(&shape, 21, &Device::flex()).unwrap();
    model.save(directory.path(), Some(&TextFiles::read(&tokenizer_dir()).unwrap())).unwrap();
    directory
}

fn config() -> GrpoConfig {
    GrpoConfig {
        group_size: 2,
        learning_rate: 2e-3,
        warmup_steps: 0,
        total_steps: 10,
        max_completion_tokens: 8,
        micro_batch_rollouts: 2,
        validate_every: 2,
        save_every: 0,
        seed: 9,
        ..GrpoConfig::default()
    }
}

fn prompt_ids(task: &str) -> Vec<u32> {
    let text = CheckpointText::load(&tokenizer_dir()).unwrap();
    let prompt = format!("<|im_start|>user\n{task}<|im_end|>\n<|im_start|>assistant\n");
    text.tokenizer.encode(&prompt).unwrap()
}

/// The policy's own log-probabilities of `completions` after `prompt`, one row per completion.
fn policy_logprobs(trainer: &GrpoTrainer, prompt: &[u32], completions: &[&[u32]]) -> Vec<Vec<f32>> {
    let model = trainer.policy().valid();
    let tokens: Vec<RolloutTokens<'_>> = completions
        .iter()
        .map(|completion| RolloutTokens { prompt, completion })
        .collect();
    let result = completion_logprobs(&model, &tokens, &trainer.logprob_settings()).unwrap();
    let [_, width] = result.values.dims();
    let values = result.values.into_data().try_into_vec::<f32>().unwrap();
    completions
        .iter()
        .enumerate()
        .map(|(row, completion)| values[row * width..row * width + completion.len()].to_vec())
        .collect()
}

/// Rollouts of fixed completions, their sampler logprobs those of the current policy (on-policy).
fn on_policy_group(trainer: &GrpoTrainer, prompt: &[u32], scored: &[(&[u32], RolloutReward)]) -> Group {
    let completions: Vec<&[u32]> = scored.iter().map(|(completion, _)| *completion).collect();
    let logprobs = policy_logprobs(trainer, prompt, &completions);
    Group {
        task: "create a VPC".to_string(),
        rollouts: scored
            .iter()
            .zip(logprobs)
            .map(|((ids, reward), logprobs)| {
                Rollout::single(
                    prompt.to_vec(),
                    Completion {
                        ids: ids.to_vec(),
                        logprobs,
                        finished: true,
                    },
                    reward.clone(),
                )
            })
            .collect(),
    }
}

fn sum(values: &[f32]) -> f32 {
    values.iter().sum()
}

#[test]
fn steps_follow_the_advantages_from_sampled_rollouts_and_a_resumed_run_continues_the_same() {
    let start = start_checkpoint(256);
    let output = tempfile::tempdir().unwrap();
    let mut trainer = GrpoTrainer::new(config(), start.path(), &Device::flex()).unwrap();
    let prompt = prompt_ids("Create a VPC named prod");

    // Sample from the trainer's own weights; the first rollout is the good one.
    let scratch = tempfile::tempdir().unwrap();
    let sampler = trainer.sampler(scratch.path()).unwrap();
    let settings = trainer.sample_settings(0);
    let started = Instant::now();
    let sampled = sampler.sample_many(&[&prompt, &prompt, &prompt], &settings).unwrap();
    let sampled_tokens: usize = sampled.iter().map(|c| c.ids.len()).sum();
    eprintln!(
        "sampling: {:.0} tokens/s",
        sampled_tokens as f64 / started.elapsed().as_secs_f64()
    );
    let rewards = [1.0, 0.0, 0.0];
    let group = Group {
        task: "create a VPC".to_string(),
        rollouts: sampled
            .iter()
            .zip(rewards)
            .map(|(completion, reward)| {
                Rollout::single(prompt.clone(), completion.clone(), RolloutReward::Scored(reward))
            })
            .collect(),
    };
    let started = Instant::now();
    let first = trainer.step(vec![group]).unwrap();
    eprintln!(
        "GRPO step: {:.2}s, {:.0} tokens/s",
        started.elapsed().as_secs_f64(),
        first.tokens_per_second
    );

    // Policy = reference = sampler: no KL, ratio 1, nothing clipped, no mismatch beyond float noise, so the
    // loss is −Σ advantage × completion length / tokens.
    assert!(first.skipped.is_none(), "{first:?}");
    assert_eq!(first.used_rollouts, 3);
    let f = first.figures;
    assert!(
        f.kl.abs() < 1e-6 && f.clipped == 0.0 && (f.ratio - 1.0).abs() < 1e-4,
        "{f:?}"
    );
    assert!(
        f.mismatch_max < 1e-4,
        "sampler and trainer differ by {}",
        f.mismatch_max
    );
    let lengths: Vec<usize> = sampled.iter().map(|c| c.ids.len()).collect();
    let tokens: usize = lengths.iter().sum();
    assert_eq!((first.completion_tokens, f.tokens), (tokens, tokens as f64));
    let by_hand = advantages(&[rewards.iter().map(|&r| RolloutReward::Scored(r)).collect()]);
    let expected: f64 = by_hand.groups[0]
        .iter()
        .zip(&lengths)
        .map(|(advantage, &n)| -advantage.unwrap() * n as f64)
        .sum::<f64>()
        / tokens as f64;
    assert!(
        (f64::from(first.loss) - expected).abs() < 1e-4,
        "loss {} by hand {expected}",
        first.loss
    );
    assert!(first.grad_norm > 0.0);
    assert_eq!((first.step, first.learning_rate), (1, config().schedule().rate(0)));
    assert!(!first.validate_due);

    // Two more steps on the same completions, each with fresh on-policy logprobs: the good completion
    // grows more likely, the others less, and the policy drifts from the reference.
    let good: &[u32] = &sampled[0].ids;
    let bad: &[u32] = &sampled[1].ids;
    let before = policy_logprobs(&trainer, &prompt, &[good, bad]);
    let scored = [(good, RolloutReward::Scored(1.0)), (bad, RolloutReward::Scored(0.0))];
    let second = trainer.step(vec![on_policy_group(&trainer, &prompt, &scored)]).unwrap();
    assert!(second.validate_due);
    assert!(second.figures.kl > 0.0, "{:?}", second.figures);
    let saved = output.path().join("checkpoint-2");
    trainer.save(&saved).unwrap();
    let third_group = on_policy_group(&trainer, &prompt, &scored);
    let third = trainer.step(vec![third_group.clone()]).unwrap();
    let after = policy_logprobs(&trainer, &prompt, &[good, bad]);
    assert!(
        sum(&after[0]) > sum(&before[0]) + 0.1,
        "good {:?} → {:?}",
        before[0],
        after[0]
    );
    assert!(
        sum(&after[1]) < sum(&before[1]) - 0.1,
        "bad {:?} → {:?}",
        before[1],
        after[1]
    );

    // The checkpoint is what `aca serve` loads, with the policy's numbers.
    let served = Qwen3Model::load(&saved, &Device::flex()).unwrap();
    assert_eq!(served.config().num_hidden_layers, 2);
    assert!(saved.join("tokenizer.json.gz").is_file() && saved.join("grpo_state.json").is_file());

    // Resumed at step 2 with the reference of step 0 and the optimizer's moments, the third step is the same.
    let mut resumed = GrpoTrainer::new(config(), &saved, &Device::flex()).unwrap();
    assert_eq!(resumed.steps_done(), 2);
    let again = resumed.step(vec![third_group]).unwrap();
    assert_eq!(again.step, 3);
    assert_eq!(again.learning_rate, third.learning_rate);
    assert!((again.loss - third.loss).abs() < 1e-5, "{again:?} vs {third:?}");
    assert!(
        (again.figures.kl - third.figures.kl).abs() < 1e-6,
        "the reference is the starting model"
    );
    let resumed_after = policy_logprobs(&resumed, &prompt, &[good, bad]);
    for (a, b) in resumed_after.iter().flatten().zip(after.iter().flatten()) {
        assert!((a - b).abs() < 1e-4, "{resumed_after:?} vs {after:?}");
    }

    // Another run's settings do not resume this one; the reference's own directory is never overwritten.
    let other = GrpoConfig {
        kl_beta: 0.5,
        ..config()
    };
    assert!(matches!(
        GrpoTrainer::new(other, &saved, &Device::flex()),
        Err(TrainError::Config(_))
    ));
    assert!(matches!(resumed.save(start.path()), Err(TrainError::Config(_))));
}

fn report_only(trainer: &mut GrpoTrainer, groups: Vec<Group>) -> StepReport {
    trainer.step(groups).unwrap()
}

#[test]
fn groups_that_teach_nothing_leave_the_weights_alone_and_unscored_rollouts_are_counted() {
    let start = start_checkpoint(256);
    let mut trainer = GrpoTrainer::new(config(), start.path(), &Device::flex()).unwrap();
    let prompt = prompt_ids("Open the VPC list");
    let (a, b, c): (&[u32], &[u32], &[u32]) = (&[40, 1079, 151_645], &[9707, 11, 151_645], &[13]);
    let before = policy_logprobs(&trainer, &prompt, &[a, b]);

    // All equal, plus an invalid and an environment-failed rollout: no advantage anywhere, no update.
    let equal = on_policy_group(
        &trainer,
        &prompt,
        &[
            (a, RolloutReward::Scored(1.0)),
            (b, RolloutReward::Scored(1.0)),
            (c, RolloutReward::Invalid),
            (c, RolloutReward::Environment("quota".to_string())),
        ],
    );
    let report = report_only(&mut trainer, vec![equal.clone()]);
    assert!(
        report.skipped.as_deref().unwrap().contains("1 with equal rewards"),
        "{report:?}"
    );
    assert_eq!((report.used_rollouts, report.loss, report.grad_norm), (0, 0.0, 0.0));
    let c = &report.counts;
    assert_eq!((c.equal_groups, c.scored, c.invalid, c.environment), (1, 2, 1, 1));
    assert_eq!(policy_logprobs(&trainer, &prompt, &[a, b]), before);
    let nothing = report_only(&mut trainer, Vec::new());
    assert_eq!(nothing.skipped.as_deref(), Some("no groups were given"));
    let empty = report_only(
        &mut trainer,
        vec![Group {
            task: "empty".to_string(),
            rollouts: Vec::new(),
        }],
    );
    assert_eq!(empty.counts.thin_groups, 1);
    assert_eq!(policy_logprobs(&trainer, &prompt, &[a, b]), before);
    assert_eq!(trainer.steps_done(), 3);

    // The equal group next to a useful one: only the useful one's scored rollouts count; the unscored
    // ones are dropped even though their logprobs are garbage.
    let mut useful = on_policy_group(
        &trainer,
        &prompt,
        &[
            (a, RolloutReward::Scored(1.0)),
            (b, RolloutReward::Scored(0.0)),
            (b, RolloutReward::Invalid),
        ],
    );
    useful.rollouts[2].turns[0].completion.logprobs.clear();
    let report = report_only(&mut trainer, vec![equal, useful]);
    assert!(report.skipped.is_none());
    assert_eq!(report.used_rollouts, 2);
    assert_eq!(report.completion_tokens, a.len() + b.len());
    let c = &report.counts;
    assert_eq!((c.groups, c.equal_groups, c.invalid, c.environment), (2, 1, 2, 1));
    assert_ne!(policy_logprobs(&trainer, &prompt, &[a, b]), before);
}

#[test]
fn rollouts_that_cannot_be_trained_on_are_refused_by_group_and_place() {
    let start = start_checkpoint(24);
    let mut trainer = GrpoTrainer::new(config(), start.path(), &Device::flex()).unwrap();
    let prompt = prompt_ids("Delete the VPC");
    let short: &[u32] = &[40, 1079];
    // (prompt, completion, the sampler's logprobs when not one per id, the words of the refusal)
    type Case = (Vec<u32>, Vec<u32>, Option<Vec<f32>>, &'static str);
    let cases: [Case; 4] = [
        (prompt.clone(), vec![13; 9], None, "more than max_completion_tokens (8)"),
        (vec![40; 20], vec![13; 6], None, "context of 24"),
        (prompt.clone(), short.to_vec(), Some(vec![-1.0]), "2 ids but 1 logprobs"),
        (
            prompt.clone(),
            short.to_vec(),
            Some(vec![-1.0, f32::NAN]),
            "not a log-probability",
        ),
    ];
    for (prompt_ids, ids, logprobs, words) in cases {
        let good = Rollout::single(
            prompt.clone(),
            Completion {
                ids: short.to_vec(),
                logprobs: vec![-1.0, -2.0],
                finished: true,
            },
            RolloutReward::Scored(0.0),
        );
        let bad = Rollout::single(
            prompt_ids,
            Completion {
                logprobs: logprobs.unwrap_or_else(|| vec![-1.0; ids.len()]),
                ids,
                finished: false,
            },
            RolloutReward::Scored(1.0),
        );
        let groups = vec![
            Group {
                task: "fine".to_string(),
                rollouts: vec![good.clone(), good.clone()],
            },
            Group {
                task: "delete".to_string(),
                rollouts: vec![good, bad],
            },
        ];
        match trainer.step(groups) {
            Err(TrainError::Rollout {
                group: 1,
                rollout: 1,
                problem,
            }) => assert!(problem.contains(words) && problem.contains("delete"), "{problem}"),
            other => panic!("expected rollout 1 of group 1 to be refused ({words}), got {other:?}"),
        }
    }
    assert_eq!(trainer.steps_done(), 0);
    assert!(matches!(
        GrpoTrainer::new(
            GrpoConfig {
                group_size: 0,
                ..config()
            },
            start.path(),
            &Device::flex()
        ),
        Err(TrainError::Config(_))
    ));
}

/// An episode's model turns all carry its advantage: two turns of the rewarded episode both become
/// more likely, two of the unrewarded one both less, and the report counts episodes and turns apart.
#[test]
fn every_turn_of_an_episode_trains_with_the_episode_advantage() {
    let start = start_checkpoint(256);
    let mut trainer = GrpoTrainer::new(config(), start.path(), &Device::flex()).unwrap();
    let prompts = [prompt_ids("Create a VPC"), prompt_ids("Now name it prod")];
    let (good, bad): ([&[u32]; 2], [&[u32]; 2]) = ([&[17, 18], &[19]], [&[27, 28], &[29]]);
    let episode = |trainer: &GrpoTrainer, ids: [&[u32]; 2], reward: f64| Rollout {
        turns: prompts
            .iter()
            .zip(ids)
            .map(|(prompt, ids)| Turn {
                prompt_ids: prompt.clone(),
                completion: Completion {
                    ids: ids.to_vec(),
                    logprobs: policy_logprobs(trainer, prompt, &[ids]).remove(0),
                    finished: true,
                },
            })
            .collect(),
        reward: RolloutReward::Scored(reward),
    };
    let totals = |trainer: &GrpoTrainer| -> Vec<f32> {
        [good, bad]
            .iter()
            .flat_map(|ids| {
                prompts
                    .iter()
                    .zip(ids.iter())
                    .map(|(p, i)| sum(&policy_logprobs(trainer, p, &[i])[0]))
            })
            .collect()
    };
    let before = totals(&trainer);
    let mut report = None;
    for _ in 0..3 {
        let groups = vec![Group {
            task: "two turns".to_string(),
            rollouts: vec![episode(&trainer, good, 1.0), episode(&trainer, bad, 0.0)],
        }];
        report = Some(trainer.step(groups).unwrap());
    }
    let report = report.unwrap();
    assert_eq!((report.used_rollouts, report.used_turns), (2, 4), "{report:?}");
    let after = totals(&trainer);
    for turn in 0..2 {
        assert!(
            after[turn] > before[turn],
            "rewarded turn {turn}: {before:?} → {after:?}"
        );
        assert!(
            after[2 + turn] < before[2 + turn],
            "unrewarded turn {turn}: {before:?} → {after:?}"
        );
    }
}
