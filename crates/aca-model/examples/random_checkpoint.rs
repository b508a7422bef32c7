//! Writes the tests' small random Qwen3 checkpoint, with Qwen3's real tokenizer and chat template,
//! into a folder that `aca serve --model` takes: a model that answers in the right format and knows
//! nothing, for measuring the serving and benchmark paths end to end without real weights.
//!
//! ```text
//! cargo run -p aca-model --example random_checkpoint -- OUT_DIR [SEED]
//! ```

use std::path::{Path, PathBuf};

use aca_model::random::{RandomShape, write_random_checkpoint};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut arguments = std::env::args().skip(1);
    let out: PathBuf = arguments
        .next()
        .ok_or("usage: random_checkpoint OUT_DIR [SEED]")?
        .into();
    let seed: u64 = arguments.next().map_or(Ok(11), |s| s.parse())?;
    write_random_checkpoint(&out, &RandomShape::small(), seed)?;
    let text = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/text/qwen3");
    for file in ["tokenizer.json.gz", "tokenizer_config.json"] {
        std::fs::copy(text.join(file), out.join(file))?;
    }
    println!("{}: a random Qwen3 (2 layers, hidden 64, seed {seed})", out.display());
    Ok(())
}
