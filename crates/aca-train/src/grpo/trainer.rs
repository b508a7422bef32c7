//! The GRPO trainer: groups of scored rollouts in, one AdamW update of the policy out, against a frozen
//! copy of the starting weights; checkpoints `aca serve` loads and the trainer resumes from.
//!
//! Collecting rollouts (running episodes in the console) is the driver's work: it samples with
//! [`GrpoTrainer::sampler`] and [`GrpoTrainer::sample_settings`], has the reward service score each
//! rollout, and hands the groups to [`GrpoTrainer::step`].

use std::path::{Path, PathBuf};
use std::time::Instant;

use aca_model::text::CheckpointText;
use burn::optim::{AdamWConfig, GradientsAccumulator, GradientsParams, ModuleOptimizer};
use burn::tensor::Device;
use serde::Serialize;

use crate::error::TrainError;
use crate::grpo::advantage::{AdvantageCounts, RolloutReward, advantages};
use crate::grpo::batch::{UsedRollout, combine, token_batch};
use crate::grpo::config::GrpoConfig;
use crate::grpo::logprobs::{LogprobSettings, RolloutTokens};
use crate::grpo::objective::{ObjectiveFigures, objective};
use crate::grpo::sample::{Completion, PolicySampler, SampleSettings};
use crate::grpo::state::{GRPO_STATE_FILE, GrpoState};
use crate::model::{Qwen3Params, TextFiles, TrainableQwen3};
use crate::sft::{OPTIMIZER_FILE, TrainableIds, clip_global_norm};

/// One model turn of a rollout: the prompt the policy saw and what it sampled.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    pub prompt_ids: Vec<u32>,
    pub completion: Completion,
}

/// One rollout (an episode): its model turns, each trained with the rollout's advantage, and what the
/// reward service said about the whole of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Rollout {
    pub turns: Vec<Turn>,
    pub reward: RolloutReward,
}

impl Rollout {
    /// A rollout of one model turn.
    pub fn single(prompt_ids: Vec<u32>, completion: Completion, reward: RolloutReward) -> Rollout {
        Rollout {
            turns: vec![Turn { prompt_ids, completion }],
            reward,
        }
    }
}

/// The rollouts of one task, compared with each other.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    pub task: String,
    pub rollouts: Vec<Rollout>,
}

/// What one step did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepReport {
    /// Steps done, this one included.
    pub step: usize,
    /// Why the weights were left alone this step; `None` when they were updated.
    pub skipped: Option<String>,
    /// The loss of the update (0 when skipped).
    pub loss: f32,
    /// KL to the reference, clipped share, ratio and the sampler/trainer mismatch, over the step's tokens.
    pub figures: ObjectiveFigures,
    /// Groups skipped (equal or thin) and rollouts dropped (invalid, environment failures).
    pub counts: AdvantageCounts,
    /// Rollouts that carried an advantage and a completion token.
    pub used_rollouts: usize,
    /// Their model turns with a completion token: the rows the loss ran over.
    pub used_turns: usize,
    /// Global gradient norm before clipping.
    pub grad_norm: f32,
    pub learning_rate: f64,
    /// Completion tokens that carried the loss.
    pub completion_tokens: usize,
    /// Tokens through the policy (prompts and completions), per second of the step.
    pub tokens_per_second: f64,
    /// The configured validation interval has come round.
    pub validate_due: bool,
    /// The checkpoint written after this step, if any.
    pub checkpoint: Option<PathBuf>,
}

/// A GRPO run over one model.
pub struct GrpoTrainer {
    config: GrpoConfig,
    /// The policy, on the autodiff device.
    policy: TrainableQwen3,
    /// The starting weights, without autodiff.
    reference: TrainableQwen3,
    /// Where the reference weights live (recorded in the state for a resumed run).
    reference_dir: PathBuf,
    /// The tokenizer files of the start, written into every checkpoint.
    text_files: TextFiles,
    /// The ids the sampler can draw lie below this bound.
    valid_vocab: usize,
    optimizer: ModuleOptimizer,
    trainable: TrainableIds,
    device: Device,
    step: usize,
}

impl std::fmt::Debug for GrpoTrainer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GrpoTrainer")
            .field("config", &self.config)
            .field("reference_dir", &self.reference_dir)
            .field("step", &self.step)
            .finish_non_exhaustive()
    }
}

impl GrpoTrainer {
    /// Starts from the checkpoint in `start` on `device` (autodiff is enabled for the policy). When `start`
    /// holds a `grpo_state.json` (a checkpoint this trainer saved), the run resumes: its step, optimizer
    /// moments and reference model (the run's first checkpoint) are restored after checking that `config`
    /// shapes the run as the saved one did.
    pub fn new(config: GrpoConfig, start: &Path, device: &Device) -> Result<Self, TrainError> {
        config.validate()?;
        let inner = device.clone().without_autodiff();
        let device = inner.clone().autodiff();
        let policy = TrainableQwen3::from_checkpoint(start, &device)?;
        let text = CheckpointText::load(start)?;
        let valid_vocab = text.tokenizer.id_bound().min(policy.config.vocab_size);
        let mut optimizer = AdamWConfig::new()
            .with_beta_1(config.beta_1)
            .with_beta_2(config.beta_2)
            .with_epsilon(config.epsilon)
            .with_weight_decay(config.weight_decay)
            .init();
        let (reference, reference_dir, step) = if start.join(GRPO_STATE_FILE).is_file() {
            let state = GrpoState::read(start)?;
            config.check_same_run(&state.config)?;
            let reference =
                TrainableQwen3::from_checkpoint(&state.reference, &inner).map_err(|error| TrainError::State {
                    path: start.join(GRPO_STATE_FILE),
                    problem: format!("the reference model cannot be loaded: {error}"),
                })?;
            if reference.config != policy.config {
                return Err(TrainError::State {
                    path: start.join(GRPO_STATE_FILE),
                    problem: "the reference model has another architecture than the checkpoint".to_string(),
                });
            }
            let path = start.join(OPTIMIZER_FILE);
            if path.is_file() {
                optimizer = optimizer.load(&path).map_err(|error| TrainError::State {
                    path: path.clone(),
                    problem: format!("{error:?}"),
                })?;
            }
            (reference, state.reference, state.step)
        } else {
            let reference_dir = std::path::absolute(start).map_err(|source| TrainError::Io {
                path: start.to_path_buf(),
                source,
            })?;
            (policy.valid(), reference_dir, 0)
        };
        Ok(Self {
            trainable: TrainableIds::of(&policy.params),
            config,
            policy,
            reference,
            reference_dir,
            text_files: TextFiles::read(start)?,
            valid_vocab,
            optimizer,
            device,
            step,
        })
    }

    pub fn config(&self) -> &GrpoConfig {
        &self.config
    }

    /// The policy being trained.
    pub fn policy(&self) -> &TrainableQwen3 {
        &self.policy
    }

    /// Steps done so far (a resumed run starts at its checkpoint's).
    pub fn steps_done(&self) -> usize {
        self.step
    }

    /// The log-probability settings that match the sampler's: its temperature and vocabulary bound.
    pub fn logprob_settings(&self) -> LogprobSettings {
        LogprobSettings {
            temperature: self.config.temperature,
            valid_vocab: self.valid_vocab,
        }
    }

    /// An engine over the current policy weights, written into `scratch` (see [`PolicySampler::new`]),
    /// decoding one oversampled group at a time.
    pub fn sampler(&self, scratch: &Path) -> Result<PolicySampler, TrainError> {
        PolicySampler::new(&self.policy, &self.text_files, scratch, self.config.rollouts_per_group())
    }

    /// The sampling settings of group `group` of the next step: the configured temperature, top-p and
    /// completion limit, and a seed drawn from the run's seed, the step and the group.
    pub fn sample_settings(&self, group: usize) -> SampleSettings {
        let seed = self
            .config
            .seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add((self.step as u64) << 32)
            .wrapping_add((group as u64) << 16);
        SampleSettings {
            temperature: self.config.temperature,
            top_p: self.config.top_p,
            max_tokens: self.config.max_completion_tokens,
            seed,
            extra_stop_ids: Vec::new(),
        }
    }

    /// One GRPO step over `groups`: advantages, the objective over every rollout that has one, and one
    /// clipped AdamW update. A batch where no rollout carries an advantage leaves the weights alone and
    /// says why. Rollouts that carry one but cannot be scored (a completion over the limit, a prompt over
    /// the context, logprobs that do not match the ids) are refused, named by group and place.
    pub fn step(&mut self, groups: Vec<Group>) -> Result<StepReport, TrainError> {
        let started = Instant::now();
        let rewards: Vec<Vec<RolloutReward>> = groups
            .iter()
            .map(|group| group.rollouts.iter().map(|rollout| rollout.reward.clone()).collect())
            .collect();
        let advantages = advantages(&rewards);
        let mut used = Vec::new();
        let mut used_rollouts = 0;
        for (group_index, (group, group_advantages)) in groups.iter().zip(&advantages.groups).enumerate() {
            for (index, (rollout, advantage)) in group.rollouts.iter().zip(group_advantages).enumerate() {
                let Some(advantage) = *advantage else { continue };
                if rollout.turns.iter().any(|turn| !turn.completion.ids.is_empty()) {
                    used_rollouts += 1;
                }
                for (number, turn) in rollout.turns.iter().enumerate() {
                    self.check(turn).map_err(|problem| TrainError::Rollout {
                        group: group_index,
                        rollout: index,
                        problem: format!("task `{}`, turn {}: {problem}", group.task, number + 1),
                    })?;
                    if !turn.completion.ids.is_empty() {
                        used.push(UsedRollout { turn, advantage });
                    }
                }
            }
        }
        let learning_rate = self.config.schedule().rate(self.step);
        self.step += 1;
        let mut report = StepReport {
            step: self.step,
            skipped: None,
            loss: 0.0,
            figures: ObjectiveFigures::default(),
            counts: advantages.counts,
            used_rollouts,
            used_turns: used.len(),
            grad_norm: 0.0,
            learning_rate,
            completion_tokens: 0,
            tokens_per_second: 0.0,
            validate_due: self.config.validate_every > 0 && self.step.is_multiple_of(self.config.validate_every),
            checkpoint: None,
        };
        if used.is_empty() {
            report.skipped = Some(skip_reason(&report.counts));
        } else {
            self.update(&used, learning_rate, &mut report)?;
        }
        let sequence_tokens: usize = used
            .iter()
            .map(|u| u.turn.prompt_ids.len() + u.turn.completion.ids.len())
            .sum();
        report.tokens_per_second = sequence_tokens as f64 / started.elapsed().as_secs_f64().max(1e-9);

        let at_end = self.step >= self.config.total_steps;
        if let Some(output) = self.config.output_dir.clone()
            && ((self.config.save_every > 0 && self.step.is_multiple_of(self.config.save_every)) || at_end)
        {
            let directory = output.join(format!("checkpoint-{}", self.step));
            self.save(&directory)?;
            report.checkpoint = Some(directory);
        }
        Ok(report)
    }

    /// The objective over `used` in micro-batches whose gradients add up to the whole batch's (each
    /// loss is weighted by its share of the tokens), then clipping and the optimizer step.
    fn update(
        &mut self,
        used: &[UsedRollout<'_>],
        learning_rate: f64,
        report: &mut StepReport,
    ) -> Result<(), TrainError> {
        let total: usize = used.iter().map(|u| u.turn.completion.ids.len()).sum();
        let settings = self.logprob_settings();
        let objective_config = self.config.objective();
        let mut accumulator = GradientsAccumulator::<Qwen3Params>::new();
        let mut loss = 0.0f64;
        for chunk in used.chunks(self.config.micro_batch_rollouts) {
            let (batch, tokens) = token_batch(&self.policy, &self.reference, chunk, &settings, &self.device)?;
            let result = objective(&batch, &objective_config);
            let share = tokens as f64 / total as f64;
            let weighted = result.loss.mul_scalar(share);
            loss += f64::from(weighted.clone().into_scalar::<f32>());
            let gradients = weighted.backward();
            accumulator.accumulate(
                &self.policy.params,
                GradientsParams::from_grads(gradients, &self.policy.params),
            );
            combine(&mut report.figures, &result.figures);
        }
        let mut gradients = accumulator.grads();
        report.grad_norm = clip_global_norm(&mut gradients, &self.trainable, self.config.max_grad_norm);
        let params = self.policy.params.clone();
        self.policy.params = self.optimizer.step(learning_rate, params, gradients);
        report.loss = loss as f32;
        report.completion_tokens = total;
        Ok(())
    }

    /// Why a turn of a rollout that carries an advantage cannot be trained on, if it cannot.
    fn check(&self, turn: &Turn) -> Result<(), String> {
        let completion = &turn.completion;
        if completion.logprobs.len() != completion.ids.len() {
            return Err(format!(
                "the completion has {} ids but {} logprobs",
                completion.ids.len(),
                completion.logprobs.len()
            ));
        }
        if completion.ids.len() > self.config.max_completion_tokens {
            return Err(format!(
                "the completion has {} tokens, more than max_completion_tokens ({})",
                completion.ids.len(),
                self.config.max_completion_tokens
            ));
        }
        if let Some(value) = completion.logprobs.iter().find(|v| !v.is_finite() || **v > 0.0) {
            return Err(format!("the sampler's logprob {value} is not a log-probability"));
        }
        let tokens = RolloutTokens {
            prompt: &turn.prompt_ids,
            completion: &completion.ids,
        };
        match tokens.problem(&self.policy.config, self.valid_vocab) {
            Some(problem) => Err(problem),
            None => Ok(()),
        }
    }

    /// Writes the policy's weights as a Hugging Face checkpoint with its tokenizer files (what a policy
    /// server loads), without the run's state. Refuses the reference model's own directory.
    pub fn save_weights(&self, directory: &Path) -> Result<(), TrainError> {
        let target = std::path::absolute(directory).map_err(|source| TrainError::Io {
            path: directory.to_path_buf(),
            source,
        })?;
        if target == self.reference_dir {
            return Err(TrainError::Config(format!(
                "{} holds the reference model; save the policy elsewhere",
                directory.display()
            )));
        }
        self.policy.save(directory, Some(&self.text_files))
    }

    /// Writes the policy as a Hugging Face checkpoint with its tokenizer files, `grpo_state.json` and the
    /// optimizer moments into `directory`. Refuses the reference model's own directory.
    pub fn save(&self, directory: &Path) -> Result<(), TrainError> {
        self.save_weights(directory)?;
        GrpoState {
            step: self.step,
            seed: self.config.seed,
            reference: self.reference_dir.clone(),
            config: self.config.clone(),
        }
        .write(directory)?;
        let path = directory.join(OPTIMIZER_FILE);
        self.optimizer.save(&path).map_err(|error| TrainError::State {
            path: path.clone(),
            problem: format!("{error:?}"),
        })
    }
}

/// Why a batch taught nothing, from its counts.
fn skip_reason(counts: &AdvantageCounts) -> String {
    if counts.groups == 0 {
        return "no groups were given".to_string();
    }
    format!(
        "no rollout carries an advantage: {} groups, {} with equal rewards, {} with fewer than two scored \
         rollouts; {} invalid and {} environment-failed rollouts dropped (or every scored completion is empty)",
        counts.groups, counts.equal_groups, counts.thin_groups, counts.invalid, counts.environment
    )
}
