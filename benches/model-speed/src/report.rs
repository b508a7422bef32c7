//! The printed table: one row per implementation, the ratios, the engine's load levels and the
//! bandwidth line.

use crate::bandwidth::effective_gbps;
use crate::engine_load::LoadResult;
use crate::protocol::{Agreement, Measurement};

/// One row of the implementations table.
#[derive(Debug)]
pub struct Row {
    pub name: String,
    pub figures: Result<Measurement, String>,
    /// The row the others' greedy tokens are compared with.
    pub is_reference: bool,
}

pub fn print_implementations(rows: &[Row], reference: &Measurement) {
    println!(
        "{:<52} {:>14} {:>14}  greedy tokens vs aca-model",
        "implementation", "prefill tok/s", "decode tok/s"
    );
    for row in rows {
        match &row.figures {
            Ok(figures) => println!(
                "{:<52} {:>14.1} {:>14.1}  {}",
                row.name,
                figures.prefill_tokens_per_second(),
                figures.decode_tokens_per_second(),
                if row.is_reference {
                    "(reference)".to_string()
                } else {
                    Agreement::between(&reference.greedy, &figures.greedy).describe()
                }
            ),
            Err(reason) => println!("{:<52} not measured: {reason}", row.name),
        }
    }
}

/// `aca-model / other` for prefill and decode tokens per second.
pub fn print_ratio(label: &str, aca: &Measurement, other: &Result<Measurement, String>) {
    match other {
        Ok(other) => println!(
            "ratio aca-model / {label}: prefill {:.2}, decode {:.2}",
            aca.prefill_tokens_per_second() / other.prefill_tokens_per_second(),
            aca.decode_tokens_per_second() / other.decode_tokens_per_second()
        ),
        Err(_) => println!("ratio aca-model / {label}: not measured"),
    }
}

pub fn print_load(results: &[LoadResult]) {
    let base = results
        .iter()
        .find(|result| result.concurrency == 1)
        .map(LoadResult::tokens_per_second);
    println!(
        "{:>10} {:>13} {:>8} {:>15} {:>14} {:>17}",
        "concurrent", "total tok/s", "vs 1", "latency mean", "latency max", "first token mean"
    );
    for result in results {
        let ratio = base.map_or("-".to_string(), |base| {
            format!("{:.2}x", result.tokens_per_second() / base)
        });
        println!(
            "{:>10} {:>13.1} {:>8} {:>13.2} s {:>12.2} s {:>15.2} s",
            result.concurrency,
            result.tokens_per_second(),
            ratio,
            result.mean_latency().as_secs_f64(),
            result.max_latency().as_secs_f64(),
            result.mean_first_token().as_secs_f64()
        );
    }
}

/// The host memory's read bandwidth, measured in this run, and how many threads read it.
#[derive(Debug, Clone, Copy)]
pub struct HostBandwidth {
    pub gbps: f64,
    pub threads: usize,
}

/// The batch-1 decode against the memory-bandwidth bound: on the CPU against `host`, measured in
/// this run; on a GPU against `--bandwidth-gbps` when given, else its effective rate alone.
pub fn print_bandwidth(
    host: Option<HostBandwidth>,
    bytes_per_token: u64,
    aca: &Measurement,
    bandwidth_gbps: Option<f64>,
) {
    let seconds = aca.seconds_per_token();
    let effective = effective_gbps(bytes_per_token, seconds);
    let megabytes = bytes_per_token as f64 / 1e6;
    if let Some(host) = host {
        let bound = bytes_per_token as f64 / (host.gbps * 1e9);
        println!(
            "CPU bandwidth bound: {megabytes:.1} MB of weights / {:.1} GB/s (host memory read by {} threads, \
             measured in this run) = {:.3} ms per token; measured {:.3} ms per token (batch 1) = \
             {effective:.1} GB/s = {:.1}% of the bound",
            host.gbps,
            host.threads,
            bound * 1e3,
            seconds * 1e3,
            100.0 * bound / seconds
        );
        return;
    }
    match bandwidth_gbps {
        Some(bandwidth) => {
            let bound = bytes_per_token as f64 / (bandwidth * 1e9);
            println!(
                "GPU bandwidth bound: {megabytes:.1} MB of weights / {bandwidth:.0} GB/s = {:.3} ms per token; \
                 measured {:.3} ms per token (batch 1) = {effective:.1} GB/s = {:.1}% of the bound",
                bound * 1e3,
                seconds * 1e3,
                100.0 * bound / seconds
            );
        }
        None => println!(
            "GPU bandwidth bound: {megabytes:.1} MB of weights per token in {:.3} ms = {effective:.1} GB/s \
             effective; pass --bandwidth-gbps (the GPU's memory bandwidth) for the fraction of the bound",
            seconds * 1e3
        ),
    }
}
