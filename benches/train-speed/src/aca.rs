//! aca-train's side: the SFT step's own pieces (the reply-only loss, backward, AdamW) on the workload.

use std::path::Path;
use std::time::Instant;

use aca_model::DeviceChoice;
use aca_train::model::TrainableQwen3;
use aca_train::sft::{TokenizedSample, batch_loss};
use anyhow::{Result, anyhow};
use burn::optim::{AdamWConfig, GradientsParams};

use crate::{Device, Measurement, Workload, peak_rss};

/// Times `workload` on aca-train.
pub fn measure(checkpoint: &Path, workload: &Workload, device: Device) -> Result<Measurement> {
    let choice = match device {
        Device::Cpu => DeviceChoice::Cpu,
        Device::Wgpu => DeviceChoice::Wgpu,
        Device::Cuda => DeviceChoice::Cuda,
    };
    let device = choice.open().map_err(|e| anyhow!(e))?.autodiff();
    let mut model = TrainableQwen3::from_checkpoint(checkpoint, &device).map_err(|e| anyhow!(e))?;
    // PyTorch's AdamW defaults: epsilon 1e-8 (burn's is 1e-5), no weight decay here.
    let mut optimizer = AdamWConfig::new().with_weight_decay(0.0).with_epsilon(1e-8).init();
    let samples: Vec<TokenizedSample> = workload
        .sequences
        .iter()
        .map(|ids| TokenizedSample {
            ids: ids.clone(),
            completion_start: workload.reply_start,
            truncated: false,
        })
        .collect();
    let batch: Vec<&TokenizedSample> = samples.iter().collect();
    let learned: usize = samples.iter().map(TokenizedSample::learned_count).sum();
    let mut losses = Vec::new();
    let mut timed = 0.0;
    for step in 0..workload.warmup + workload.steps {
        let started = Instant::now();
        let loss = batch_loss(&model, &batch, 0, &device);
        let mean = loss.sum.div_scalar(learned as f64);
        let value = f64::from(mean.clone().into_scalar::<f32>());
        let gradients = GradientsParams::from_grads(mean.backward(), &model.params);
        let params = model.params.clone();
        model.params = optimizer.step(workload.learning_rate, params, gradients);
        // Reading the loss waited for the forward; wait for the update too before the clock stops.
        let _ = model.params.embed_tokens.val().slice([0..1, 0..1]).into_data();
        if step >= workload.warmup {
            timed += started.elapsed().as_secs_f64();
        }
        losses.push(value);
    }
    Ok(Measurement {
        seconds_per_step: timed / workload.steps as f64,
        first_loss: losses.first().copied().unwrap_or_default(),
        last_loss: losses.last().copied().unwrap_or_default(),
        peak_rss_bytes: peak_rss(),
        versions: format!("burn 0.22, {}", choice.name()),
    })
}
