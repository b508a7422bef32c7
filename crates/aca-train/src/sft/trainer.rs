//! The SFT loop: seeded sample order, micro-batches accumulated into one AdamW step under the warm-up and
//! cosine schedule, global-norm clipping, periodic evaluation and checkpoints that a run resumes from.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use aca_model::random::RandomShape;
use aca_model::text::CheckpointText;
use burn::module::{Lora, Module, ParamGroup};
use burn::optim::{AdamWConfig, GradientsAccumulator, GradientsParams, ModuleOptimizer};
use burn::tensor::Device;

use crate::error::TrainError;
use crate::model::{Qwen3Params, TextFiles, TrainableQwen3};
use crate::sft::clip::{TrainableIds, clip_global_norm};
use crate::sft::config::SftConfig;
use crate::sft::data::ChatSample;
use crate::sft::eval::{Decoding, Validation, validate};
use crate::sft::loss::batch_loss;
use crate::sft::order::SampleOrder;
use crate::sft::schedule::LrSchedule;
use crate::sft::state::{OPTIMIZER_FILE, TrainerState, check_same_run};
use crate::sft::tokenize::{END_OF_TURN, SampleTokenizer, TokenizedSample};

/// Where a run's weights come from.
#[derive(Debug, Clone)]
pub enum Start {
    /// A Hugging Face Qwen3 checkpoint directory with its tokenizer files.
    Checkpoint(PathBuf),
    /// Seeded random weights of `shape`, with the tokenizer and chat template of `tokenizer_dir`.
    Random {
        shape: RandomShape,
        seed: u64,
        tokenizer_dir: PathBuf,
    },
    /// A checkpoint this trainer saved: the run goes on from its step, data position and optimizer state.
    /// A LoRA run's checkpoint holds merged weights, so it goes on with fresh adapters on them.
    Resume(PathBuf),
}

/// What the trainer reports after each optimizer step.
#[derive(Debug, Clone, PartialEq)]
pub struct SftProgress {
    /// Steps done, this one included.
    pub step: usize,
    pub total_steps: usize,
    /// Mean cross-entropy per learned token of this step's samples.
    pub loss: f32,
    pub learning_rate: f64,
    /// Global gradient norm before clipping.
    pub grad_norm: f32,
    /// Tokens (prompt and reply, padding excluded) through the model per second in this step.
    pub tokens_per_second: f64,
    /// Remaining time at the mean step time so far.
    pub eta: Duration,
    pub validation: Option<Validation>,
    /// The checkpoint written after this step, if any.
    pub checkpoint: Option<PathBuf>,
}

/// What a finished run did.
#[derive(Debug, Clone, PartialEq)]
pub struct SftSummary {
    /// Steps done (those of a resumed run's earlier part included).
    pub steps: usize,
    /// The losses of this call's first and last steps.
    pub first_loss: Option<f32>,
    pub last_loss: Option<f32>,
    /// Training samples cut at `max_length`.
    pub truncated_samples: usize,
    /// Tokens through the model in this call.
    pub tokens: usize,
    pub elapsed: Duration,
    pub validation: Option<Validation>,
    pub checkpoint: Option<PathBuf>,
}

/// An SFT run over one model.
#[derive(Debug)]
pub struct SftTrainer {
    config: SftConfig,
    model: TrainableQwen3,
    text: CheckpointText,
    /// The tokenizer files of the start, written into every checkpoint.
    text_files: TextFiles,
    optimizer: ModuleOptimizerHandle,
    device: Device,
    /// Where the run stands: the state it resumed from, then the state after the last `train` call.
    state: Option<TrainerState>,
}

/// The optimizer (it has no `Debug` of its own).
struct ModuleOptimizerHandle(ModuleOptimizer);

impl std::fmt::Debug for ModuleOptimizerHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AdamW")
    }
}

impl SftTrainer {
    /// Loads the model onto `device` (autodiff is enabled on it), attaches LoRA adapters when configured,
    /// and for [`Start::Resume`] restores the saved run after checking that `config` shapes it the same way.
    pub fn new(config: SftConfig, start: Start, device: &Device) -> Result<Self, TrainError> {
        config.validate()?;
        let device = device.clone().autodiff();
        let (model, text_dir, resumed) = match start {
            Start::Checkpoint(directory) => (TrainableQwen3::from_checkpoint(&directory, &device)?, directory, None),
            Start::Random {
                shape,
                seed,
                tokenizer_dir,
            } => (TrainableQwen3::random(&shape, seed, &device)?, tokenizer_dir, None),
            Start::Resume(directory) => {
                let state = TrainerState::read(&directory)?;
                check_same_run(&config, &state.config)?;
                (
                    TrainableQwen3::from_checkpoint(&directory, &device)?,
                    directory,
                    Some(state),
                )
            }
        };
        let text = CheckpointText::load(&text_dir)?;
        let text_files = TextFiles::read(&text_dir)?;
        let mut model = model;
        let mut optimizer = AdamWConfig::new()
            .with_beta_1(config.beta_1)
            .with_beta_2(config.beta_2)
            .with_epsilon(config.epsilon)
            .with_weight_decay(config.weight_decay)
            .init();
        if let Some(lora) = config.lora {
            device.seed(config.seed);
            let projections = ParamGroup::from_ids(model.params.projection_ids());
            model.params = model
                .params
                .apply_lora(Lora::new(lora.rank, lora.alpha).set_param_group(projections));
        } else if let Some(state) = &resumed {
            let path = text_dir.join(OPTIMIZER_FILE);
            if path.is_file() && state.step > 0 {
                optimizer = optimizer.load(&path).map_err(|error| TrainError::State {
                    path: path.clone(),
                    problem: format!("{error:?}"),
                })?;
            }
        }
        Ok(Self {
            config,
            model,
            text,
            text_files,
            optimizer: ModuleOptimizerHandle(optimizer),
            device,
            state: resumed,
        })
    }

    pub fn model(&self) -> &TrainableQwen3 {
        &self.model
    }

    /// Optimizer steps done so far (a resumed run starts at its checkpoint's).
    pub fn step(&self) -> usize {
        self.state.as_ref().map_or(0, |state| state.step)
    }

    /// Trains on `train` until the configured number of steps, evaluating on (the first `eval_samples` of)
    /// `validation` and saving checkpoints as configured; `progress` hears of every step.
    pub fn train(
        &mut self,
        train: &[ChatSample],
        validation: &[ChatSample],
        progress: &mut dyn FnMut(&SftProgress),
    ) -> Result<SftSummary, TrainError> {
        if train.is_empty() {
            return Err(TrainError::Config("there are no training samples".to_string()));
        }
        let config = self.config.clone();
        let tokenizer = SampleTokenizer::new(&self.text, config.max_length, config.enable_thinking)?;
        let tokenized = tokenizer.tokenize_all(train)?;
        let truncated_samples = tokenized.iter().filter(|sample| sample.truncated).count();
        let held_out = &validation[..validation.len().min(config.eval_samples)];
        let held_out_tokens = tokenizer.tokenize_all(held_out)?;
        let held_out_prompts = held_out
            .iter()
            .map(|sample| tokenizer.prompt_ids(sample))
            .collect::<Result<Vec<_>, _>>()?;

        check_vocabulary(&tokenized, self.model.config.vocab_size, "training")?;
        check_vocabulary(&held_out_tokens, self.model.config.vocab_size, "held-out")?;

        let total_steps = config.total_steps(train.len());
        let schedule = LrSchedule {
            peak: config.learning_rate,
            floor: config.min_learning_rate,
            warmup_steps: config.warmup_steps,
            total_steps,
        };
        let mut step = 0;
        if let Some(state) = &self.state {
            if state.train_samples != train.len() || state.total_steps != total_steps {
                return Err(TrainError::Config(format!(
                    "the checkpoint was trained on {} samples over {} steps; this run has {} samples over {} steps",
                    state.train_samples,
                    state.total_steps,
                    train.len(),
                    total_steps
                )));
            }
            step = state.step;
        }
        let pad = self.text.tokenizer.special_tokens().end_of_text.unwrap_or(0);
        let mut stop_ids = self.text.stop_token_ids.clone();
        stop_ids.push(self.text.tokenizer.token_id(END_OF_TURN)?);
        let decode_tokenizer = self.text.tokenizer.clone();
        let decoding = Decoding {
            tokenizer: &decode_tokenizer,
            stop_ids: &stop_ids,
            max_new_tokens: config.max_new_tokens,
            text_files: &self.text_files.clone(),
        };
        let trainable = TrainableIds::of(&self.model.params);
        let mut order = SampleOrder::new(train.len(), config.seed);

        let started = Instant::now();
        let first_step = step;
        let mut summary = SftSummary {
            steps: step,
            first_loss: None,
            last_loss: None,
            truncated_samples,
            tokens: 0,
            elapsed: Duration::ZERO,
            validation: None,
            checkpoint: None,
        };
        // What a checkpoint records of the run, and what this trainer keeps once it is done.
        let state_at = |step: usize, learning_rate: f64| TrainerState {
            step,
            total_steps,
            schedule,
            learning_rate,
            seed: config.seed,
            samples_consumed: step * config.samples_per_step(),
            train_samples: train.len(),
            config: config.clone(),
        };
        if total_steps == 0
            && let Some(output) = &config.output_dir
        {
            // No step to take: the starting weights are the checkpoint, the baseline a run of
            // training is measured against.
            let directory = output.join("checkpoint-0");
            self.save_checkpoint(&directory, &state_at(0, schedule.rate(0)))?;
            summary.checkpoint = Some(directory);
        }
        while step < total_steps {
            let step_started = Instant::now();
            let learning_rate = schedule.rate(step);
            let consumed = step * config.samples_per_step();
            let chosen: Vec<&TokenizedSample> = (consumed..consumed + config.samples_per_step())
                .map(|position| &tokenized[order.sample_at(position)])
                .collect();
            let outcome = self.optimizer_step(&chosen, learning_rate, &trainable, pad);
            step += 1;
            summary.tokens += outcome.tokens;
            summary.first_loss.get_or_insert(outcome.loss);
            summary.last_loss = Some(outcome.loss);

            let mut validation_result = None;
            let at_end = step == total_steps;
            if config.eval_every > 0 && !held_out.is_empty() && (step % config.eval_every == 0 || at_end) {
                let model = self.model.valid();
                let result = validate(
                    &model,
                    &held_out_prompts,
                    &held_out_tokens,
                    held_out,
                    &decoding,
                    config.micro_batch_size,
                    pad,
                )?;
                summary.validation = Some(result);
                validation_result = Some(result);
            }
            let mut checkpoint = None;
            if let Some(output) = &config.output_dir
                && ((config.save_every > 0 && step % config.save_every == 0) || at_end)
            {
                let directory = output.join(format!("checkpoint-{step}"));
                self.save_checkpoint(&directory, &state_at(step, learning_rate))?;
                prune_checkpoints(output, config.keep_checkpoints)?;
                summary.checkpoint = Some(directory.clone());
                checkpoint = Some(directory);
            }

            let step_time = step_started.elapsed().as_secs_f64();
            let mean_step = started.elapsed().as_secs_f64() / (step - first_step) as f64;
            progress(&SftProgress {
                step,
                total_steps,
                loss: outcome.loss,
                learning_rate,
                grad_norm: outcome.grad_norm,
                tokens_per_second: outcome.tokens as f64 / step_time.max(1e-9),
                eta: Duration::from_secs_f64(mean_step * (total_steps - step) as f64),
                validation: validation_result,
                checkpoint,
            });
        }
        summary.steps = step;
        summary.elapsed = started.elapsed();
        self.state = Some(state_at(step, schedule.rate(step.saturating_sub(1))));
        Ok(summary)
    }

    /// One optimizer step over `samples`, split into micro-batches whose gradients add up to the gradient
    /// of the mean loss per learned token of all of them.
    fn optimizer_step(
        &mut self,
        samples: &[&TokenizedSample],
        learning_rate: f64,
        trainable: &TrainableIds,
        pad: u32,
    ) -> StepOutcome {
        let learned: usize = samples.iter().map(|sample| sample.learned_count()).sum();
        let tokens = samples.iter().map(|sample| sample.ids.len()).sum();
        if learned == 0 {
            return StepOutcome {
                loss: 0.0,
                grad_norm: 0.0,
                tokens,
            };
        }
        let mut accumulator = GradientsAccumulator::<Qwen3Params>::new();
        let mut loss_sum = 0.0f64;
        for micro_batch in samples.chunks(self.config.micro_batch_size) {
            if micro_batch.iter().all(|sample| sample.learned_count() == 0) {
                continue;
            }
            let loss = batch_loss(&self.model, micro_batch, pad, &self.device);
            loss_sum += f64::from(loss.sum.clone().into_scalar::<f32>());
            let gradients = loss.sum.div_scalar(learned as f64).backward();
            accumulator.accumulate(
                &self.model.params,
                GradientsParams::from_grads(gradients, &self.model.params),
            );
        }
        let mut gradients = accumulator.grads();
        let grad_norm = clip_global_norm(&mut gradients, trainable, self.config.max_grad_norm);
        let params = self.model.params.clone();
        self.model.params = self.optimizer.0.step(learning_rate, params, gradients);
        StepOutcome {
            loss: (loss_sum / learned as f64) as f32,
            grad_norm,
            tokens,
        }
    }

    /// Writes the merged model, its text files, the state and (without LoRA) the optimizer moments.
    fn save_checkpoint(&self, directory: &Path, state: &TrainerState) -> Result<(), TrainError> {
        self.model.save(directory, Some(&self.text_files))?;
        state.write(directory)?;
        if self.config.lora.is_none() {
            let path = directory.join(OPTIMIZER_FILE);
            self.optimizer.0.save(&path).map_err(|error| TrainError::State {
                path: path.clone(),
                problem: format!("{error:?}"),
            })?;
        }
        Ok(())
    }
}

/// Deletes all but the `keep` newest `checkpoint-STEP` folders of `output` (none when `keep` is 0).
fn prune_checkpoints(output: &Path, keep: usize) -> Result<(), TrainError> {
    if keep == 0 {
        return Ok(());
    }
    let mut saved: Vec<(usize, PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(output).map_err(TrainError::io(output))? {
        let path = entry.map_err(TrainError::io(output))?.path();
        let step = path
            .file_name()
            .and_then(|name| name.to_str())
            .and_then(|name| name.strip_prefix("checkpoint-"))
            .and_then(|step| step.parse().ok());
        if let Some(step) = step
            && path.is_dir()
        {
            saved.push((step, path));
        }
    }
    saved.sort();
    let old = saved.len().saturating_sub(keep);
    for (_, path) in &saved[..old] {
        std::fs::remove_dir_all(path).map_err(TrainError::io(path))?;
    }
    Ok(())
}

/// Refuses ids the model has no embedding for: a tokenizer that does not fit the checkpoint.
fn check_vocabulary(samples: &[TokenizedSample], vocab: usize, which: &str) -> Result<(), TrainError> {
    for (index, sample) in samples.iter().enumerate() {
        if let Some(id) = sample.ids.iter().find(|&&id| id as usize >= vocab) {
            return Err(TrainError::Tokenize {
                index,
                problem: format!(
                    "{which} sample: token id {id} is outside the model's vocabulary of {vocab}; the tokenizer does not fit the checkpoint"
                ),
            });
        }
    }
    Ok(())
}

struct StepOutcome {
    loss: f32,
    grad_norm: f32,
    tokens: usize,
}
