//! The sampler: greedy, seeded determinism, the distribution it draws from, top-k/top-p, padded ids, logprobs.

use aca_model::sample::{SampleError, Sampler, SamplingParams};

fn params(temperature: f32, top_k: Option<usize>, top_p: f32, seed: u64) -> SamplingParams {
    SamplingParams {
        temperature,
        top_k,
        top_p,
        seed: Some(seed),
        top_logprobs: 0,
    }
}

/// Sample frequencies of each id over `draws` draws.
fn frequencies(sampler: &mut Sampler, logits: &[f32], draws: usize) -> Vec<f64> {
    let mut counts = vec![0usize; logits.len()];
    for _ in 0..draws {
        counts[sampler.sample(logits).unwrap().id as usize] += 1;
    }
    counts.into_iter().map(|count| count as f64 / draws as f64).collect()
}

fn assert_close(got: &[f64], want: &[f64], tolerance: f64) {
    for (index, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= tolerance,
            "id {index}: frequency {g:.4}, expected {w:.4} (all: {got:?})"
        );
    }
}

fn ln(probabilities: &[f64]) -> Vec<f32> {
    probabilities.iter().map(|p| p.ln() as f32).collect()
}

#[test]
fn temperature_zero_is_greedy_with_raw_logprobs() {
    let logits = [1.0, 3.0, 3.0, -2.0];
    let mut sampler = Sampler::new(
        SamplingParams {
            top_logprobs: 2,
            ..SamplingParams::greedy()
        },
        4,
    )
    .unwrap();
    let token = sampler.sample(&logits).unwrap();
    assert_eq!(token.id, 1, "ties go to the lower id");
    let normaliser = logits.iter().map(|&x| f64::from(x).exp()).sum::<f64>().ln();
    assert!(
        (f64::from(token.logprob) - (3.0 - normaliser)).abs() < 1e-5,
        "{}",
        token.logprob
    );
    let top: Vec<u32> = token.top_logprobs.iter().map(|entry| entry.id).collect();
    assert_eq!(top, [1, 2]);
}

#[test]
fn the_same_seed_gives_the_same_tokens_and_another_seed_does_not() {
    let logits: Vec<f32> = (0..64).map(|i| ((i * 37) % 11) as f32 * 0.3).collect();
    let run = |seed| {
        let mut sampler = Sampler::new(params(0.9, Some(40), 0.95, seed), logits.len()).unwrap();
        (0..300)
            .map(|_| sampler.sample(&logits).unwrap().id)
            .collect::<Vec<_>>()
    };
    assert_eq!(run(7), run(7));
    assert_ne!(run(7), run(8));
}

#[test]
fn draws_follow_the_softmax_and_temperature_sharpens_it() {
    let logits = ln(&[0.5, 0.3, 0.2]);
    let mut sampler = Sampler::new(params(1.0, None, 1.0, 1), 3).unwrap();
    assert_close(&frequencies(&mut sampler, &logits, 40_000), &[0.5, 0.3, 0.2], 0.015);

    // p^(1/T) renormalised: T = 0.5 squares the probabilities.
    let squared = [0.25 / 0.38, 0.09 / 0.38, 0.04 / 0.38];
    let mut sampler = Sampler::new(params(0.5, None, 1.0, 2), 3).unwrap();
    assert_close(&frequencies(&mut sampler, &logits, 40_000), &squared, 0.015);
}

#[test]
fn top_k_keeps_only_the_k_most_likely_renormalised() {
    let logits = ln(&[0.4, 0.1, 0.3, 0.2]);
    let mut sampler = Sampler::new(params(1.0, Some(2), 1.0, 3), 4).unwrap();
    let got = frequencies(&mut sampler, &logits, 40_000);
    assert_eq!(got[1], 0.0);
    assert_eq!(got[3], 0.0);
    assert_close(&got, &[4.0 / 7.0, 0.0, 3.0 / 7.0, 0.0], 0.015);
}

#[test]
fn top_p_keeps_the_smallest_set_reaching_p() {
    let logits = ln(&[0.5, 0.3, 0.15, 0.05]);
    // 0.5 + 0.3 = 0.8 ≥ 0.7: the nucleus is {0, 1}.
    let mut sampler = Sampler::new(params(1.0, None, 0.7, 4), 4).unwrap();
    let got = frequencies(&mut sampler, &logits, 40_000);
    assert_eq!((got[2], got[3]), (0.0, 0.0));
    assert_close(&got, &[0.625, 0.375, 0.0, 0.0], 0.015);

    // 0.5 alone reaches 0.5.
    let mut sampler = Sampler::new(params(1.0, None, 0.5, 5), 4).unwrap();
    assert_eq!(frequencies(&mut sampler, &logits, 2_000), [1.0, 0.0, 0.0, 0.0]);
}

#[test]
fn top_p_over_a_large_vocabulary_sorts_past_its_first_guess() {
    // 2,000 equally likely tokens (0.0005 each): the nucleus of 0.89975 is the first 1,800 ids (ties go by
    // id), with half a token of margin against rounding.
    let logits = vec![0.0f32; 2_000];
    let mut sampler = Sampler::new(params(1.0, None, 0.89975, 6), logits.len()).unwrap();
    let ids: Vec<u32> = (0..5_000).map(|_| sampler.sample(&logits).unwrap().id).collect();
    assert!(ids.iter().all(|&id| id < 1_800), "max id {:?}", ids.iter().max());
    assert!(ids.iter().any(|&id| id >= 1_500), "the nucleus is not cut short");
}

#[test]
fn padded_vocabulary_ids_are_never_sampled_or_reported() {
    // Ids 3 and 4 are padding with huge logits (model vocab 5, tokenizer knows 3).
    let logits = [0.0, 0.1, 0.2, 50.0, 60.0];
    for sampling in [
        SamplingParams::greedy(),
        params(1.5, None, 1.0, 9),
        params(1.0, Some(4), 0.99, 9),
    ] {
        let mut sampler = Sampler::new(
            SamplingParams {
                top_logprobs: 5,
                ..sampling
            },
            3,
        )
        .unwrap();
        for _ in 0..500 {
            let token = sampler.sample(&logits).unwrap();
            assert!(token.id < 3, "sampled padded id {}", token.id);
            assert_eq!(token.top_logprobs.len(), 3);
            assert!(token.top_logprobs.iter().all(|entry| entry.id < 3));
        }
    }
}

#[test]
fn logprobs_are_the_tempered_log_softmax_and_stay_finite_for_huge_logits() {
    let logits = [1.0e4f32, 1.0e4 - 1.0, 1.0e4 - 3.0, f32::NEG_INFINITY];
    let temperature = 0.7f32;
    let mut sampler = Sampler::new(
        SamplingParams {
            top_logprobs: 4,
            ..params(temperature, None, 1.0, 10)
        },
        4,
    )
    .unwrap();
    let token = sampler.sample(&logits).unwrap();
    let scaled: Vec<f64> = [0.0f64, -1.0, -3.0]
        .iter()
        .map(|x| x / f64::from(temperature))
        .collect();
    let normaliser = scaled.iter().map(|x| x.exp()).sum::<f64>().ln();
    for entry in &token.top_logprobs[..3] {
        let want = scaled[entry.id as usize] - normaliser;
        assert!(
            (f64::from(entry.logprob) - want).abs() < 1e-5,
            "id {}: {} vs {want}",
            entry.id,
            entry.logprob
        );
    }
    assert_eq!(token.top_logprobs[3].logprob, f32::NEG_INFINITY, "the masked token");
    let chosen = token.top_logprobs.iter().find(|entry| entry.id == token.id).unwrap();
    assert_eq!(chosen.logprob, token.logprob);
    assert_ne!(token.id, 3, "a masked token is never drawn");
    let total: f64 = token
        .top_logprobs
        .iter()
        .map(|entry| f64::from(entry.logprob).exp())
        .sum();
    assert!((total - 1.0).abs() < 1e-5, "{total}");
}

#[test]
fn bad_logits_and_bad_parameters_are_named_errors() {
    let mut sampler = Sampler::new(params(1.0, None, 1.0, 11), 4).unwrap();
    let error = sampler.sample(&[0.0, f32::NAN, 0.0]).unwrap_err();
    assert!(
        matches!(error, SampleError::NonFiniteLogit { id: 1, value } if value.is_nan()),
        "{error}"
    );
    let error = sampler.sample(&[0.0, 0.0, f32::INFINITY]).unwrap_err();
    assert!(matches!(error, SampleError::NonFiniteLogit { id: 2, .. }), "{error}");
    assert_eq!(
        sampler.sample(&[f32::NEG_INFINITY; 3]).unwrap_err(),
        SampleError::NoCandidate
    );
    assert!(matches!(sampler.sample(&[]).unwrap_err(), SampleError::EmptyRow { .. }));

    for (bad, name) in [
        (params(-1.0, None, 1.0, 0), "temperature"),
        (params(f32::NAN, None, 1.0, 0), "temperature"),
        (params(1.0, Some(0), 1.0, 0), "top_k"),
        (params(1.0, None, 0.0, 0), "top_p"),
        (params(1.0, None, 1.5, 0), "top_p"),
    ] {
        let error = Sampler::new(bad, 4).unwrap_err();
        assert!(
            matches!(error, SampleError::InvalidParameter { name: got, .. } if got == name),
            "{error}"
        );
    }
    assert!(Sampler::new(SamplingParams::default(), 0).is_err());
}

#[test]
fn top_k_and_top_logprobs_over_a_large_vocabulary_order_ties_by_id() {
    let mut logits = vec![0.0f32; 1_000];
    logits[500] = 5.0;
    logits[999] = 4.0;
    logits[20] = 4.0;
    let mut sampler = Sampler::new(
        SamplingParams {
            top_logprobs: 4,
            ..params(1.0, Some(3), 1.0, 12)
        },
        logits.len(),
    )
    .unwrap();
    let token = sampler.sample(&logits).unwrap();
    let top: Vec<u32> = token.top_logprobs.iter().map(|entry| entry.id).collect();
    assert_eq!(top, [500, 20, 999, 0]);
    let ids: std::collections::BTreeSet<u32> = (0..2_000).map(|_| sampler.sample(&logits).unwrap().id).collect();
    assert_eq!(ids, [20, 500, 999].into());
}
