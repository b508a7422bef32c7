//! SFT on a tiny random Qwen3 with the real Qwen3 tokenizer: the assistant-only mask, a few steps that
//! lower the loss, checkpoints that `aca_model::Qwen3Model::load` (and so `aca serve`) reads, LoRA
//! merged on save, and a resumed run that ends where an uninterrupted one does.

use std::path::{Path, PathBuf};

use aca_model::random::RandomShape;
use aca_model::text::{ChatMessage, CheckpointText, RenderOptions};
use aca_model::{Device, Qwen3Model};
use aca_train::model::{TrainableQwen3, pad_batch};
use aca_train::sft::{ChatSample, LoraOptions, SampleTokenizer, SftConfig, SftProgress, SftTrainer, Start};

fn tokenizer_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../aca-model/tests/fixtures/text/qwen3")
}

fn sample(task: &str, action: &str) -> ChatSample {
    ChatSample {
        prompt: vec![
            ChatMessage::system("You operate the Alibaba Cloud console. Reply with a Thought and one Action."),
            ChatMessage::user(format!("Task: {task}\nPage: [3] Create VPC button, [7] Search box")),
        ],
        reply: format!("Thought: the page offers what the task needs.\nAction: {action}"),
    }
}

fn samples() -> Vec<ChatSample> {
    vec![
        sample("create a VPC", "click(3)"),
        sample("find the VPC named prod", "type(7, \"prod\")"),
        sample("open the VPC list", "click(3)"),
        sample("wait for the list", "wait(1)"),
    ]
}

fn start() -> Start {
    Start::Random {
        shape: RandomShape::small(),
        seed: 11,
        tokenizer_dir: tokenizer_dir(),
    }
}

fn config() -> SftConfig {
    SftConfig {
        learning_rate: 1e-2,
        min_learning_rate: 1e-3,
        warmup_steps: 1,
        micro_batch_size: 2,
        gradient_accumulation: 2,
        max_steps: Some(4),
        max_length: 256,
        eval_every: 0,
        max_new_tokens: 4,
        seed: 5,
        ..SftConfig::default()
    }
}

#[test]
fn only_the_reply_and_its_end_of_turn_carry_loss() {
    let text = CheckpointText::load(&tokenizer_dir()).unwrap();
    let tokenizer = SampleTokenizer::new(&text, 4096, None).unwrap();
    let sample = sample("create a VPC", "click(3)");
    let tokenized = tokenizer.tokenize(&sample).unwrap();
    let learned: Vec<u32> = (0..tokenized.ids.len())
        .filter(|&index| tokenized.is_learned(index))
        .map(|index| tokenized.ids[index])
        .collect();
    assert_eq!(
        text.tokenizer.decode(&learned, false).unwrap(),
        format!("{}<|im_end|>", sample.reply)
    );
    let prompt = text
        .tokenizer
        .decode(&tokenized.ids[..tokenized.completion_start], false)
        .unwrap();
    let options = RenderOptions {
        add_generation_prompt: true,
        ..RenderOptions::default()
    };
    assert_eq!(prompt, text.template.render(&sample.prompt, &options).unwrap());
    assert!(prompt.ends_with("<|im_start|>assistant\n"), "{prompt}");
    assert!(!tokenized.truncated);

    let short = SampleTokenizer::new(&text, tokenized.completion_start + 3, None).unwrap();
    let cut = short.tokenize(&sample).unwrap();
    assert!(cut.truncated);
    assert_eq!(cut.learned_count(), 3);
}

#[test]
fn a_few_steps_lower_the_loss_and_the_checkpoint_loads_for_serving() {
    let output = tempfile::tempdir().unwrap();
    let config = SftConfig {
        output_dir: Some(output.path().to_path_buf()),
        eval_every: 4,
        max_steps: Some(8),
        gradient_accumulation: 1,
        ..config()
    };
    let mut trainer = SftTrainer::new(config, start(), &Device::flex()).unwrap();
    let mut reports: Vec<SftProgress> = Vec::new();
    let train = samples();
    let summary = trainer
        .train(&train, &train[..2], &mut |progress| reports.push(progress.clone()))
        .unwrap();
    assert_eq!(reports.len(), 8);
    assert_eq!(summary.steps, 8);
    let (first, last) = (summary.first_loss.unwrap(), summary.last_loss.unwrap());
    eprintln!(
        "loss {first:.3} → {last:.3}, {:.0} tokens/s, {} tokens in {:?}",
        summary.tokens as f64 / summary.elapsed.as_secs_f64(),
        summary.tokens,
        summary.elapsed
    );
    assert!(last < first * 0.7, "loss went from {first} to {last}");
    assert!(
        reports
            .iter()
            .all(|report| report.grad_norm.is_finite() && report.grad_norm > 0.0)
    );
    assert!(reports[3].validation.is_some() && reports[2].validation.is_none());
    let validation = summary.validation.unwrap();
    assert_eq!(validation.samples, 2);
    assert!(validation.loss.is_finite());

    let checkpoint = summary.checkpoint.unwrap();
    assert_eq!(checkpoint, output.path().join("checkpoint-8"));
    assert_same_logits(trainer.model(), &checkpoint);
    assert!(CheckpointText::load(&checkpoint).is_ok());
}

#[test]
fn no_steps_save_the_starting_weights_as_checkpoint_zero() {
    let output = tempfile::tempdir().unwrap();
    let config = SftConfig {
        output_dir: Some(output.path().to_path_buf()),
        max_steps: Some(0),
        ..config()
    };
    let mut trainer = SftTrainer::new(config, start(), &Device::flex()).unwrap();
    let mut steps = 0;
    let summary = trainer.train(&samples(), &[], &mut |_| steps += 1).unwrap();
    assert_eq!((steps, summary.steps), (0, 0));
    let checkpoint = summary.checkpoint.unwrap();
    assert_eq!(checkpoint, output.path().join("checkpoint-0"));
    assert_same_logits(trainer.model(), &checkpoint);
    let seeded = TrainableQwen3::random(&RandomShape::small(), 11, &Device::flex()).unwrap();
    assert_same_logits(&seeded, &checkpoint);
}

#[test]
fn only_the_newest_checkpoints_are_kept() {
    let output = tempfile::tempdir().unwrap();
    // Not the run's own: a folder that only looks like a checkpoint by name stays.
    std::fs::write(output.path().join("checkpoint-notes"), "kept").unwrap();
    let first = SftConfig {
        output_dir: Some(output.path().to_path_buf()),
        max_steps: Some(6),
        gradient_accumulation: 1,
        save_every: 2,
        keep_checkpoints: 2,
        ..config()
    };
    let mut trainer = SftTrainer::new(first, start(), &Device::flex()).unwrap();
    trainer.train(&samples(), &[], &mut |_| {}).unwrap();
    let mut left: Vec<String> = std::fs::read_dir(output.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(left, ["checkpoint-4", "checkpoint-6", "checkpoint-notes"]);

    // A run resumed from a checkpoint it then deletes still evaluates and saves: the text files
    // were read at the start.
    let resumed = SftConfig {
        output_dir: Some(output.path().to_path_buf()),
        max_steps: Some(6),
        gradient_accumulation: 1,
        save_every: 1,
        keep_checkpoints: 1,
        eval_every: 1,
        ..config()
    };
    let mut trainer = SftTrainer::new(resumed, Start::Resume(output.path().join("checkpoint-4")), &Device::flex()).unwrap();
    let train = samples();
    let summary = trainer.train(&train, &train[..1], &mut |_| {}).unwrap();
    assert_eq!(summary.checkpoint.unwrap(), output.path().join("checkpoint-6"));
    assert!(!output.path().join("checkpoint-4").exists(), "the start was pruned");
    assert!(CheckpointText::load(&output.path().join("checkpoint-6")).is_ok());
}

/// The checkpoint in `directory`, loaded by the inference model, gives the trained model's logits.
fn assert_same_logits(model: &TrainableQwen3, directory: &Path) {
    let device = Device::flex();
    let served = Qwen3Model::load(directory, &device).unwrap();
    let tokens = [9707u32, 11, 1879, 0, 151_644, 77];
    let mut cache = served.new_cache();
    let expected = served.forward_one(&tokens, &mut cache).unwrap();
    let model = model.valid();
    let logits = model.forward(pad_batch(&[&tokens], 0, &model.device()));
    let values = logits.into_data().try_into_vec::<f32>().unwrap();
    let last = &values[values.len() - expected.len()..];
    let difference = last
        .iter()
        .zip(&expected)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    assert!(difference < 1e-4, "logits differ by {difference}");
}

#[test]
fn accumulated_micro_batches_step_like_one_batch() {
    let train = samples();
    let run = |micro_batch_size, gradient_accumulation| {
        let config = SftConfig {
            micro_batch_size,
            gradient_accumulation,
            max_steps: Some(1),
            ..config()
        };
        let mut trainer = SftTrainer::new(config, start(), &Device::flex()).unwrap();
        let mut grad_norm = 0.0;
        let summary = trainer
            .train(&train, &[], &mut |progress| grad_norm = progress.grad_norm)
            .unwrap();
        let weight = trainer.model().params.layers[1].mlp.down_proj.weight.val();
        (
            summary.first_loss.unwrap(),
            grad_norm,
            weight.into_data().try_into_vec::<f32>().unwrap(),
        )
    };
    let (whole_loss, whole_norm, whole) = run(2, 1);
    let (accumulated_loss, accumulated_norm, accumulated) = run(1, 2);
    assert!(
        (whole_loss - accumulated_loss).abs() < 1e-4,
        "{whole_loss} vs {accumulated_loss}"
    );
    // The norm sees the gradients' scale and direction: the micro-batches must add up to the whole
    // batch's gradient of the mean loss per learned token.
    assert!(
        (whole_norm - accumulated_norm).abs() < 1e-4 * whole_norm,
        "gradient norms {whole_norm} vs {accumulated_norm}"
    );
    let difference = whole
        .iter()
        .zip(&accumulated)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    // Adam's first step moves every weight by about the learning rate (1e-2) whatever its gradient's
    // size, so rounding in near-zero gradients shows at a small fraction of that, and no more.
    assert!(difference < 1e-4, "the weights differ by {difference}");
    let initial = TrainableQwen3::random(&RandomShape::small(), 11, &Device::flex()).unwrap();
    let initial = initial.params.layers[1]
        .mlp
        .down_proj
        .weight
        .val()
        .into_data()
        .try_into_vec::<f32>()
        .unwrap();
    let moved = initial
        .iter()
        .zip(&whole)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    assert!(moved > 5e-3, "one step barely moved the weights ({moved})");
}

#[test]
fn lora_trains_adapters_and_merges_them_on_save() {
    let output = tempfile::tempdir().unwrap();
    let config = SftConfig {
        lora: Some(LoraOptions { rank: 4, alpha: 8.0 }),
        output_dir: Some(output.path().to_path_buf()),
        ..config()
    };
    let mut trainer = SftTrainer::new(config, start(), &Device::flex()).unwrap();
    let summary = trainer.train(&samples(), &[], &mut |_| {}).unwrap();
    assert!(summary.last_loss.unwrap() < summary.first_loss.unwrap());
    let checkpoint = summary.checkpoint.unwrap();
    assert_same_logits(trainer.model(), &checkpoint);
    // The merged projections moved away from the seeded ones; the frozen norms and embedding did not.
    let base = TrainableQwen3::random(&RandomShape::small(), 11, &Device::flex()).unwrap();
    let saved = TrainableQwen3::from_checkpoint(&checkpoint, &Device::flex()).unwrap();
    let difference = |a: burn::tensor::Tensor<2>, b: burn::tensor::Tensor<2>| (a - b).abs().max().into_scalar::<f32>();
    let q = |model: &TrainableQwen3| model.params.layers[0].self_attn.q_proj.weight.val();
    assert!(difference(q(&base), q(&saved)) > 1e-5);
    assert_eq!(
        difference(base.params.embed_tokens.val(), saved.params.embed_tokens.val()),
        0.0
    );
}

#[test]
fn a_resumed_run_ends_where_an_uninterrupted_one_does() {
    let output = tempfile::tempdir().unwrap();
    let config = SftConfig {
        save_every: 2,
        output_dir: Some(output.path().to_path_buf()),
        ..config()
    };
    let train = samples();
    let mut whole = SftTrainer::new(config.clone(), start(), &Device::flex()).unwrap();
    let mut whole_losses = Vec::new();
    whole
        .train(&train, &[], &mut |progress| whole_losses.push(progress.loss))
        .unwrap();

    let halfway = output.path().join("checkpoint-2");
    let state = aca_train::sft::TrainerState::read(&halfway).unwrap();
    assert_eq!((state.step, state.samples_consumed, state.seed), (2, 8, 5));
    let resumed_output = tempfile::tempdir().unwrap();
    let resumed_config = SftConfig {
        output_dir: Some(resumed_output.path().to_path_buf()),
        ..config
    };
    let mut resumed = SftTrainer::new(resumed_config, Start::Resume(halfway), &Device::flex()).unwrap();
    assert_eq!(resumed.step(), 2);
    let mut resumed_losses = Vec::new();
    let summary = resumed
        .train(&train, &[], &mut |progress| {
            resumed_losses.push((progress.step, progress.loss))
        })
        .unwrap();
    assert_eq!(summary.steps, 4);
    assert_eq!(
        resumed_losses.iter().map(|(step, _)| *step).collect::<Vec<_>>(),
        vec![3, 4]
    );
    for ((_, resumed), whole) in resumed_losses.iter().zip(&whole_losses[2..]) {
        assert!((resumed - whole).abs() < 1e-4, "{resumed} vs {whole}");
    }
    assert_same_logits(whole.model(), &resumed_output.path().join("checkpoint-4"));
}

#[test]
fn training_without_samples_or_with_a_bad_configuration_is_refused() {
    let mut trainer = SftTrainer::new(config(), start(), &Device::flex()).unwrap();
    assert!(trainer.train(&[], &[], &mut |_| {}).is_err());
    let bad = SftConfig {
        micro_batch_size: 0,
        ..config()
    };
    let error = SftTrainer::new(bad, start(), &Device::flex()).unwrap_err();
    assert!(error.to_string().contains("micro_batch_size"), "{error}");
    // A tokenizer whose ids the model has no embedding for.
    let narrow = Start::Random {
        shape: RandomShape {
            vocab_size: 1_000,
            ..RandomShape::small()
        },
        seed: 1,
        tokenizer_dir: tokenizer_dir(),
    };
    let mut trainer = SftTrainer::new(config(), narrow, &Device::flex()).unwrap();
    let error = trainer.train(&samples(), &[], &mut |_| {}).unwrap_err();
    assert!(error.to_string().contains("outside the model's vocabulary"), "{error}");
}
