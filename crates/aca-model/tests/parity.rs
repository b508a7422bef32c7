//! aca-model against the `transformers` reference: logits, greedy tokens, and KV-cache decoding.

mod common;

use aca_model::SequenceStep;
use common::{FIXTURES, assert_close, load, logits_at_every_position, reference};

#[test]
fn prompt_logits_match_the_reference() {
    for name in FIXTURES {
        let model = load(name);
        for (index, prompt) in reference(name).prompts.iter().enumerate() {
            let mut cache = model.new_cache();
            let logits = model.forward_one(&prompt.ids, &mut cache).unwrap();
            assert_close(&logits, &prompt.last_logits, &format!("{name} prompt {index}"));
            assert_eq!(cache.len(), prompt.ids.len());
        }
    }
}

#[test]
fn logits_at_every_position_match_the_reference() {
    for name in FIXTURES {
        let model = load(name);
        let full = reference(name).full;
        let rows = logits_at_every_position(&model, &full.ids);
        assert_eq!(rows.len(), full.ids.len());
        for (position, (row, expected)) in rows.iter().zip(&full.logits).enumerate() {
            assert_close(row, expected, &format!("{name} position {position}"));
        }
    }
}

#[test]
fn decoding_through_the_cache_matches_the_full_forward_and_the_reference() {
    for name in FIXTURES {
        let model = load(name);
        let reference = reference(name);
        let prompt_len = reference.prompts[0].ids.len();
        let full = &reference.full;

        let full_rows = logits_at_every_position(&model, &full.ids);

        let mut cache = model.new_cache();
        let mut logits = model.forward_one(&full.ids[..prompt_len], &mut cache).unwrap();
        let checked = full_rows.iter().zip(&full.logits).enumerate().skip(prompt_len - 1);
        for (position, (full_row, expected)) in checked {
            let what = format!("{name} decode at position {position}");
            let own_diff = common::max_abs_diff(&logits, full_row);
            assert!(
                own_diff <= 5e-5,
                "{what}: cache decode differs from the full forward by {own_diff:e}"
            );
            assert_close(&logits, expected, &what);
            if let Some(next) = full.ids.get(position + 1) {
                logits = model.forward_one(&[*next], &mut cache).unwrap();
            }
        }
        assert_eq!(cache.len(), full.ids.len());
    }
}

#[test]
fn greedy_generation_reproduces_the_reference_tokens() {
    for name in FIXTURES {
        let model = load(name);
        for prompt in reference(name).prompts {
            let tokens = model.generate_greedy(&prompt.ids, prompt.greedy.len(), &[]).unwrap();
            assert_eq!(tokens, prompt.greedy, "{name} prompt {:?}", prompt.ids);
        }
    }
}

#[test]
fn greedy_generation_stops_after_a_stop_token() {
    let model = load("tied_gqa");
    let prompt = &reference("tied_gqa").prompts[0];
    let stop = prompt.greedy[3];
    let first = prompt.greedy.iter().position(|&token| token == stop).unwrap();
    let tokens = model.generate_greedy(&prompt.ids, 8, &[stop]).unwrap();
    assert_eq!(tokens, prompt.greedy[..=first]);
    assert!(model.generate_greedy(&prompt.ids, 0, &[]).unwrap().is_empty());
}

#[test]
fn a_batch_of_prompts_decodes_as_each_alone() {
    for name in FIXTURES {
        let model = load(name);
        let reference = reference(name);
        let prompts: Vec<&[u32]> = reference.prompts.iter().map(|prompt| prompt.ids.as_slice()).collect();

        let mut caches: Vec<_> = prompts.iter().map(|_| model.new_cache()).collect();
        let mut batch: Vec<SequenceStep<'_>> = prompts
            .iter()
            .zip(caches.iter_mut())
            .map(|(tokens, cache)| SequenceStep { tokens, cache })
            .collect();
        let logits = model.forward(&mut batch).unwrap();
        for (index, (row, prompt)) in logits.iter().zip(&reference.prompts).enumerate() {
            assert_close(row, &prompt.last_logits, &format!("{name} batched prompt {index}"));
        }

        let continuations = model.generate_greedy_batch(&prompts, 8, &[]).unwrap();
        for (continuation, prompt) in continuations.iter().zip(&reference.prompts) {
            assert_eq!(continuation, &prompt.greedy, "{name} batched greedy");
        }
    }
}

#[test]
fn a_sequence_joins_and_another_leaves_between_decode_steps() {
    let name = "untied_sharded";
    let model = load(name);
    let reference = reference(name);
    let (first, second) = (&reference.prompts[0], &reference.prompts[2]);

    let mut first_cache = model.new_cache();
    let mut first_tokens = Vec::new();
    let mut next = model.forward_one(&first.ids, &mut first_cache).unwrap();
    for _ in 0..3 {
        let token = aca_model::argmax(&next).unwrap();
        first_tokens.push(token);
        next = model.forward_one(&[token], &mut first_cache).unwrap();
    }

    // The second sequence's prefill runs in the same call as the first one's decode step.
    let mut second_cache = model.new_cache();
    let mut second_tokens = Vec::new();
    let mut pending_first = vec![aca_model::argmax(&next).unwrap()];
    let mut pending_second = second.ids.clone();
    while second_tokens.len() < second.greedy.len() {
        let mut batch = Vec::new();
        let first_running = first_tokens.len() < first.greedy.len();
        if first_running {
            first_tokens.push(pending_first[0]);
            batch.push(SequenceStep {
                tokens: &pending_first,
                cache: &mut first_cache,
            });
        }
        batch.push(SequenceStep {
            tokens: &pending_second,
            cache: &mut second_cache,
        });
        let logits = model.forward(&mut batch).unwrap();
        let second_row = logits.last().unwrap();
        let token = aca_model::argmax(second_row).unwrap();
        second_tokens.push(token);
        pending_second = vec![token];
        if first_running {
            pending_first = vec![aca_model::argmax(&logits[0]).unwrap()];
        }
    }
    assert_eq!(first_tokens, first.greedy);
    assert_eq!(second_tokens, second.greedy);
    assert_eq!(second_cache.len(), second.ids.len() + second.greedy.len() - 1);
}

#[test]
fn a_cloned_cache_continues_independently_and_a_truncated_one_replays() {
    let name = "mha_bias";
    let model = load(name);
    let prompt = &reference(name).prompts[2];
    let mut cache = model.new_cache();
    let prompt_logits = model.forward_one(&prompt.ids, &mut cache).unwrap();
    let mut branch = cache.clone();

    // The original continues greedily; the branch takes another token first, then must not disturb it.
    let first = aca_model::argmax(&prompt_logits).unwrap();
    let other = (first + 1) % model.config().vocab_size as u32;
    let branch_logits = model.forward_one(&[other], &mut branch).unwrap();
    let mut tokens = vec![first];
    let mut logits = model.forward_one(&[first], &mut cache).unwrap();
    while tokens.len() < prompt.greedy.len() {
        let token = aca_model::argmax(&logits).unwrap();
        tokens.push(token);
        logits = model.forward_one(&[token], &mut cache).unwrap();
    }
    assert_eq!(tokens, prompt.greedy);
    assert_eq!(branch.len(), prompt.ids.len() + 1);

    let mut fresh = model.new_cache();
    let mut sequence = prompt.ids.clone();
    sequence.push(other);
    let expected_branch = model.forward_one(&sequence, &mut fresh).unwrap();
    assert!(common::max_abs_diff(&branch_logits, &expected_branch) <= 5e-5);

    // The branch's cached position was written after the clone by both: each kept its own.
    let branch_next = model.forward_one(&[first], &mut branch).unwrap();
    sequence.push(first);
    let expected_next = model.forward_one(&sequence, &mut model.new_cache()).unwrap();
    assert!(common::max_abs_diff(&branch_next, &expected_next) <= 5e-5);

    // Rolling the original back to the prompt and taking the branch's token gives the branch's logits.
    cache.truncate(prompt.ids.len());
    assert_eq!(cache.len(), prompt.ids.len());
    let replayed = model.forward_one(&[other], &mut cache).unwrap();
    assert!(common::max_abs_diff(&replayed, &expected_branch) <= 5e-5);
}
