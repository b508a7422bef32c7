//! Shared by the constrain tests: the real Qwen3 tokenizer, one factory for it, and a random-logits "model".

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::OnceLock;

use aca_model::constrain::{Constraint, ConstraintFactory};
use aca_model::text::TextTokenizer;
use tokenizers::Tokenizer;

/// Qwen3's checkpoints pad the output layer beyond the tokenizer's 151,669 ids.
pub const QWEN3_LOGITS_WIDTH: usize = 151_936;

/// The real Qwen3 tokenizer the repository ships (gzip-compressed) with the text tests.
pub fn qwen3_tokenizer() -> &'static Tokenizer {
    static TOKENIZER: OnceLock<TextTokenizer> = OnceLock::new();
    TOKENIZER
        .get_or_init(|| {
            let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/text/qwen3/tokenizer.json.gz");
            TextTokenizer::from_file(&path).unwrap_or_else(|e| panic!("cannot load {}: {e}", path.display()))
        })
        .inner()
}

pub fn token_id(text: &str) -> u32 {
    qwen3_tokenizer()
        .token_to_id(text)
        .unwrap_or_else(|| panic!("Qwen3 has no token {text:?}"))
}

/// `<|im_end|>` and `<|endoftext|>`: the ids that end a Qwen3 chat reply.
pub fn qwen3_eos_ids() -> Vec<u32> {
    vec![token_id("<|im_end|>"), token_id("<|endoftext|>")]
}

pub fn qwen3_factory() -> &'static ConstraintFactory {
    static FACTORY: OnceLock<ConstraintFactory> = OnceLock::new();
    FACTORY.get_or_init(|| {
        ConstraintFactory::new(qwen3_tokenizer(), &qwen3_eos_ids()).expect("a factory for the Qwen3 tokenizer")
    })
}

/// A seeded xorshift generator: the random "model" behind the logits.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in [0, 1).
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// How the random model picks among the allowed tokens.
#[derive(Clone, Copy, Debug)]
pub enum Pick {
    Argmax,
    Sample,
}

/// What a random-model run produced.
pub struct Run {
    pub tokens: Vec<u32>,
    pub text: String,
    pub ended_with_eos: bool,
}

/// Ids whose text contains a closing character: after `wrap_up_after` steps the random model favours
/// them (and end-of-sequence) so that random JSON finishes in reasonable time.
fn closers() -> &'static Vec<bool> {
    static CLOSERS: OnceLock<Vec<bool>> = OnceLock::new();
    CLOSERS.get_or_init(|| {
        let tokenizer = qwen3_tokenizer();
        (0..QWEN3_LOGITS_WIDTH as u32)
            .map(|id| {
                tokenizer
                    .id_to_token(id)
                    .is_some_and(|text| text.contains(['}', ']', '"']))
            })
            .collect()
    })
}

/// Drives `constraint` with seeded random logits until it ends or `max_steps` pass: each step masks a
/// full (padded) logits row, picks a token, checks the pick was allowed, and commits it.
pub fn run_random_model(constraint: &mut Constraint, seed: u64, pick: Pick, max_steps: usize) -> Run {
    let mut rng = Rng::new(seed);
    let eos = qwen3_eos_ids();
    let closers = closers();
    let wrap_up_after = 40;
    let mut tokens = Vec::new();
    let mut ended_with_eos = false;
    let mut logits = vec![0.0f32; QWEN3_LOGITS_WIDTH];
    for step in 0..max_steps {
        if constraint.is_finished() {
            break;
        }
        let wrap_up = step.saturating_sub(wrap_up_after) as f32 * 0.5;
        for (id, logit) in logits.iter_mut().enumerate() {
            let favoured = closers[id] || eos.contains(&(id as u32));
            *logit = rng.next_f32() * 4.0 + if favoured { wrap_up } else { 0.0 };
        }
        constraint.mask(&mut logits).expect("mask");
        let choice = match pick {
            Pick::Argmax => argmax(&logits),
            Pick::Sample => sample(&logits, &mut rng),
        };
        assert!(logits[choice].is_finite(), "picked a masked token {choice}");
        let token = choice as u32;
        let could_end = constraint.can_end();
        constraint
            .advance(token)
            .unwrap_or_else(|e| panic!("advance({token}) after mask: {e}"));
        if eos.contains(&token) {
            assert!(could_end, "end-of-sequence was allowed before the JSON was complete");
            ended_with_eos = true;
            break;
        }
        tokens.push(token);
    }
    let text = qwen3_tokenizer().decode(&tokens, false).expect("decode");
    Run {
        tokens,
        text,
        ended_with_eos,
    }
}

fn argmax(logits: &[f32]) -> usize {
    let mut best = 0;
    for (id, &logit) in logits.iter().enumerate() {
        if logit > logits[best] {
            best = id;
        }
    }
    best
}

/// Softmax sampling at temperature 1.
fn sample(logits: &[f32], rng: &mut Rng) -> usize {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let weights: Vec<f32> = logits.iter().map(|&logit| (logit - max).exp()).collect();
    let total: f32 = weights.iter().sum();
    let mut target = rng.next_f32() * total;
    for (id, &weight) in weights.iter().enumerate() {
        if weight > 0.0 {
            if target < weight {
                return id;
            }
            target -= weight;
        }
    }
    argmax(logits)
}
