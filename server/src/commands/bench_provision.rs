//! `aca bench provision`: provision + verify + destroy of the typical META (VPC, vSwitch, security
//! group, running instance) against the in-process emulator: p50/p95 of one at a time, then several
//! at once in separate accounts, each checked to see only its own resources.

use std::collections::BTreeSet;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use aca_core::{KeyAttribute, ResourceMeta};
use aca_provision::emulator::local::{LocalEmulator, access_key};
use aca_provision::pool::{self, PoolAccount};
use aca_provision::{Applier, EmulatorApplier, Meta, Suffix, WaitPolicy};
use anyhow::{Context, bail};
use clap::Args;

/// Provision + verify + destroy of the typical META, one at a time and in parallel.
#[derive(Debug, Args)]
pub struct ProvisionBenchArgs {
    /// Sequential runs (after one warm-up).
    #[arg(long, default_value_t = 30)]
    runs: usize,
    /// Runs at once, each in its own account.
    #[arg(long, default_value_t = 8)]
    parallel: usize,
    /// The target for p50 of one run, in milliseconds.
    #[arg(long, default_value_t = 300)]
    target_ms: u64,
}

/// The typical META: a VPC, a vSwitch, a security group and a running instance in the vSwitch's zone.
const TYPICAL: &str = r#"
variable "suffix" {
  type = string
}
resource "alicloud_vpc" "vpc" {
  vpc_name   = "bench-vpc-${var.suffix}"
  cidr_block = "192.168.0.0/16"
}
resource "alicloud_vswitch" "vswitch" {
  vswitch_name = "bench-vsw-${var.suffix}"
  vpc_id       = alicloud_vpc.vpc.id
  cidr_block   = "192.168.1.0/24"
  zone_id      = "cn-hangzhou-h"
}
resource "alicloud_security_group" "sg" {
  security_group_name = "bench-sg-${var.suffix}"
  vpc_id              = alicloud_vpc.vpc.id
}
resource "alicloud_instance" "web" {
  instance_name        = "bench-${var.suffix}"
  instance_type        = "ecs.g7.large"
  image_id             = "aliyun_3_x64_20G_alibase_20240528.vhd"
  availability_zone    = alicloud_vswitch.vswitch.zone_id
  vswitch_id           = alicloud_vswitch.vswitch.id
  security_groups      = [alicloud_security_group.sg.id]
  instance_charge_type = "PostPaid"
  status               = "Running"
}
"#;

fn typical() -> anyhow::Result<Meta> {
    let key = |resource: &str, attribute: &str, value: &str| KeyAttribute {
        resource: resource.into(),
        attribute: attribute.into(),
        value: value.into(),
    };
    let meta = ResourceMeta {
        description: "A running ECS instance in a VPC.".into(),
        key_attributes: vec![
            key("alicloud_instance.web", "status", "Running"),
            key("alicloud_instance.web", "availability_zone", "cn-hangzhou-h"),
            key("alicloud_vswitch.vswitch", "zone_id", "cn-hangzhou-h"),
        ],
        terraform: TYPICAL.into(),
    };
    Ok(Meta::new("typical.tf", &meta, "cn-hangzhou", Suffix::random())?)
}

/// The times of one run, and what the account saw while its resources existed.
struct Run {
    total: Duration,
    apply: Duration,
    verify: Duration,
    destroy: Duration,
    /// Ids the account listed while the run's resources existed (with what the cloud made along,
    /// such as an instance's system disk).
    listed: BTreeSet<String>,
    /// Ids the run created.
    created: BTreeSet<String>,
    left: usize,
}

async fn once(emulator: &LocalEmulator, name: &str, look: bool) -> anyhow::Result<Run> {
    let credentials = emulator.account(name)?;
    let key = access_key(&credentials);
    let applier = EmulatorApplier::new(&emulator.url, key.clone())?.with_wait(WaitPolicy {
        interval: Duration::from_millis(5),
        timeout: Duration::from_secs(30),
    });
    let meta = typical()?;
    let started = Instant::now();
    let mut state = applier.apply(&meta).await?;
    let apply = started.elapsed();
    applier.verify(&meta, &state).await?;
    let verify = started.elapsed() - apply;
    let created: BTreeSet<String> = state.created().map(|r| r.id.clone()).collect();
    let mut listed = BTreeSet::new();
    let account = PoolAccount {
        id: credentials.account_id.clone(),
        name: name.to_owned(),
        endpoint: emulator.url.clone(),
        key,
    };
    if look {
        let seen = pool::check(&account, "cn-hangzhou").await;
        if let Some(e) = seen.error {
            bail!("listing the account's resources failed: {e}");
        }
        listed = seen.leftovers.into_iter().map(|l| l.id).collect();
    }
    let before_destroy = started.elapsed();
    let destroyed = applier.destroy(&mut state).await;
    if !destroyed.failures.is_empty() {
        bail!("destroy failed: {:?}", destroyed.failures);
    }
    let destroy = started.elapsed() - before_destroy;
    let left = if look {
        pool::check(&account, "cn-hangzhou").await.leftovers.len()
    } else {
        0
    };
    Ok(Run {
        total: apply + verify + destroy,
        apply,
        verify,
        destroy,
        listed,
        created,
        left,
    })
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The value at quantile `q` (nearest rank) of `values`.
fn quantile(values: &[Duration], q: f64) -> Duration {
    let mut sorted = values.to_vec();
    sorted.sort();
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

pub async fn run_provision(args: ProvisionBenchArgs) -> anyhow::Result<ExitCode> {
    let emulator = Arc::new(
        LocalEmulator::start(aca_console::ConsoleConfig::for_tests())
            .await
            .context("starting the in-process emulator")?,
    );
    println!("typical META: VPC, vSwitch, security group, running ECS instance (in-process emulator)");
    once(&emulator, "bench-warmup", false).await?;
    let mut runs = Vec::new();
    for i in 0..args.runs.max(1) {
        runs.push(once(&emulator, &format!("bench-{i}"), false).await?);
    }
    let totals: Vec<Duration> = runs.iter().map(|r| r.total).collect();
    let part = |f: fn(&Run) -> Duration| ms(quantile(&runs.iter().map(f).collect::<Vec<_>>(), 0.5));
    let p50 = quantile(&totals, 0.5);
    println!(
        "one at a time, {} runs: p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms (apply {:.1}, verify {:.1}, destroy {:.1} at p50); target <= {} ms: {}",
        runs.len(),
        ms(p50),
        ms(quantile(&totals, 0.95)),
        ms(quantile(&totals, 1.0)),
        part(|r| r.apply),
        part(|r| r.verify),
        part(|r| r.destroy),
        args.target_ms,
        if p50 <= Duration::from_millis(args.target_ms) {
            "met"
        } else {
            "MISSED"
        }
    );

    let started = Instant::now();
    let tasks: Vec<_> = (0..args.parallel.max(1))
        .map(|i| {
            let emulator = emulator.clone();
            tokio::spawn(async move { once(&emulator, &format!("bench-parallel-{i}"), true).await })
        })
        .collect();
    let mut parallel = Vec::new();
    for task in tasks {
        parallel.push(task.await.context("a parallel run panicked")??);
    }
    let wall = started.elapsed();
    let totals: Vec<Duration> = parallel.iter().map(|r| r.total).collect();
    // Each account must list all it created, nothing another run created or saw, and nothing after
    // its destroy.
    let mut crosstalk = Vec::new();
    for (i, run) in parallel.iter().enumerate() {
        for id in run.created.difference(&run.listed) {
            crosstalk.push(format!("run {i} did not see its own {id}"));
        }
        for (j, other) in parallel.iter().enumerate().filter(|(j, _)| *j != i) {
            for id in run
                .listed
                .intersection(&other.listed.union(&other.created).cloned().collect())
            {
                crosstalk.push(format!("run {i} saw {id} of run {j}"));
            }
        }
        if run.left > 0 {
            crosstalk.push(format!("run {i} left {} resources", run.left));
        }
    }
    println!(
        "{} at once, separate accounts: wall {:.1} ms, p50 {:.1} ms, p95 {:.1} ms; cross-talk: {}",
        parallel.len(),
        ms(wall),
        ms(quantile(&totals, 0.5)),
        ms(quantile(&totals, 0.95)),
        if crosstalk.is_empty() {
            "none (each account listed its own resources only, and none after destroy)".to_owned()
        } else {
            crosstalk.join("; ")
        }
    );
    Ok(if crosstalk.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_nearest_rank() {
        let values: Vec<Duration> = (1..=20).map(Duration::from_millis).collect();
        assert_eq!(quantile(&values, 0.5), Duration::from_millis(10));
        assert_eq!(quantile(&values, 0.95), Duration::from_millis(19));
        assert_eq!(quantile(&values, 1.0), Duration::from_millis(20));
        assert_eq!(quantile(&[], 0.5), Duration::ZERO);
    }
}
