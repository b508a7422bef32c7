//! Times prefill and decode on a random Qwen3 checkpoint written to a temporary directory, or on a
//! checkpoint directory given as an argument, with the weights held in f32 or the dtype named.
//!
//! ```text
//! cargo run -p aca-model --example decode_speed -- [CHECKPOINT_DIR] [f32|bf16|f16|auto]
//! ```
//! Without a directory the checkpoint has 8 layers, hidden 512, 8 heads (2 kv heads) of 64, vocab 8192.

use std::time::Instant;

use aca_model::random::{RandomShape, write_random_checkpoint};
use aca_model::{Device, KvCache, Qwen3Model, SequenceStep, WeightDtype};

const PROMPT_TOKENS: usize = 128;
const DECODE_STEPS: usize = 32;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let temporary = tempfile::tempdir()?;
    let (dtypes, paths): (Vec<String>, Vec<String>) = std::env::args()
        .skip(1)
        .partition(|argument| argument.parse::<WeightDtype>().is_ok());
    let dtype = dtypes.first().map_or(Ok(WeightDtype::F32), |name| name.parse())?;
    let directory = match paths.into_iter().next() {
        Some(directory) => directory.into(),
        None => {
            let shape = RandomShape {
                vocab_size: 8192,
                num_key_value_heads: 2,
                ..RandomShape::bench()
            };
            write_random_checkpoint(temporary.path(), &shape, 1)?;
            temporary.path().to_path_buf()
        }
    };
    let started = Instant::now();
    let model = Qwen3Model::load_as(&directory, &Device::flex(), dtype)?;
    let config = model.config();
    println!(
        "loaded {} layers, hidden {}, heads {}/{} of {}, vocab {} as {:?} in {:.2?}",
        config.num_hidden_layers,
        config.hidden_size,
        config.num_attention_heads,
        config.num_key_value_heads,
        config.head_dim,
        config.vocab_size,
        model.dtype(),
        started.elapsed()
    );
    let vocab = config.vocab_size as u32;
    for batch_size in [1usize, 4, 16] {
        let prompts: Vec<Vec<u32>> = (0..batch_size)
            .map(|sequence| {
                (0..PROMPT_TOKENS)
                    .map(|index| ((index * 31 + sequence * 7) as u32) % vocab)
                    .collect()
            })
            .collect();
        let mut caches: Vec<KvCache> = prompts.iter().map(|_| model.new_cache()).collect();
        let started = Instant::now();
        let mut steps: Vec<SequenceStep<'_>> = prompts
            .iter()
            .zip(caches.iter_mut())
            .map(|(tokens, cache)| SequenceStep { tokens, cache })
            .collect();
        let mut logits = model.forward(&mut steps)?;
        let prefill = started.elapsed();
        let started = Instant::now();
        for _ in 0..DECODE_STEPS {
            let next: Vec<[u32; 1]> = logits.iter().map(|row| [aca_model::argmax(row).unwrap_or(0)]).collect();
            let mut steps: Vec<SequenceStep<'_>> = next
                .iter()
                .zip(caches.iter_mut())
                .map(|(token, cache)| SequenceStep { tokens: token, cache })
                .collect();
            logits = model.forward(&mut steps)?;
        }
        let decode = started.elapsed();
        println!(
            "batch {batch_size:>2}: prefill {:>8.1} tokens/s ({PROMPT_TOKENS} tokens each), decode {:>7.1} tokens/s ({:.2} ms per step)",
            (batch_size * PROMPT_TOKENS) as f64 / prefill.as_secs_f64(),
            (batch_size * DECODE_STEPS) as f64 / decode.as_secs_f64(),
            decode.as_secs_f64() * 1000.0 / DECODE_STEPS as f64,
        );
    }
    Ok(())
}
