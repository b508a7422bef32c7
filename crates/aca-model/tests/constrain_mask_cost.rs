//! Prints what constraining costs on the Qwen3 vocabulary: building the factory, and each mask call
//! (run with `--nocapture`; figures are printed, not asserted).

mod constrain_support;

use std::time::{Duration, Instant};

use aca_model::constrain::ConstraintFactory;
use constrain_support::{QWEN3_LOGITS_WIDTH, Rng, qwen3_eos_ids, qwen3_tokenizer};
use serde_json::json;

#[test]
fn mask_cost_on_the_qwen3_vocabulary() {
    let tokenizer = qwen3_tokenizer();
    let started = Instant::now();
    let factory = ConstraintFactory::new(tokenizer, &qwen3_eos_ids()).expect("factory");
    println!("factory for {} tokens: {:?}", factory.vocab_size(), started.elapsed());

    let schema = json!({
        "type": "object",
        "properties": {
            "name": { "type": "string" },
            "status": { "enum": ["Running", "Stopped"] },
            "cpu": { "type": "integer", "minimum": 1, "maximum": 64 },
            "tags": { "type": "array", "items": { "type": "string" } }
        },
        "required": ["name", "status", "cpu", "tags"],
        "additionalProperties": false
    });
    for (label, spec_schema) in [("json_object", None), ("json_schema", Some(&schema))] {
        let started = Instant::now();
        let mut constraint = match spec_schema {
            None => factory.json_object(),
            Some(schema) => factory.json_schema(schema, true),
        }
        .expect("constraint");
        let build = started.elapsed();
        let mut rng = Rng::new(7);
        let mut logits = vec![0.0f32; QWEN3_LOGITS_WIDTH];
        let mut times = Vec::new();
        let eos = qwen3_eos_ids();
        for step in 0..400 {
            if constraint.is_finished() {
                break;
            }
            logits.iter_mut().for_each(|logit| *logit = rng.next_f32());
            if step > 60 {
                eos.iter().for_each(|&id| logits[id as usize] = 10.0);
            }
            let started = Instant::now();
            constraint.mask(&mut logits).expect("mask");
            times.push(started.elapsed());
            let token = (0..logits.len()).fold(0, |best, id| if logits[id] > logits[best] { id } else { best });
            constraint.advance(token as u32).expect("advance");
            if eos.contains(&(token as u32)) {
                break;
            }
        }
        times.sort();
        let total: Duration = times.iter().sum();
        println!(
            "{label}: constraint built in {build:?}; {} mask calls over a {}-wide row: mean {:?}, median {:?}, p90 {:?}, max {:?}",
            times.len(),
            QWEN3_LOGITS_WIDTH,
            total / times.len().max(1) as u32,
            times[times.len() / 2],
            times[times.len() * 9 / 10],
            times[times.len() - 1],
        );
    }
}
