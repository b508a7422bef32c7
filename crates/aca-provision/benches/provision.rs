//! Provision + verify + destroy of the typical META (VPC, vSwitch, security group, running ECS
//! instance) against the emulator on a local port, one at a time and eight in parallel in separate
//! accounts. Target: ≤ 300 ms for one.
//!
//! `cargo bench -p aca-provision --bench provision`

use std::sync::Arc;
use std::time::{Duration, Instant};

use aca_console::ConsoleConfig;
use aca_core::{KeyAttribute, ResourceMeta};
use aca_provision::emulator::local::{LocalEmulator, access_key};
use aca_provision::{Applier, EmulatorApplier, Meta, Suffix, WaitPolicy};

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
  instance_name     = "bench-${var.suffix}"
  instance_type     = "ecs.g7.large"
  image_id          = "aliyun_3_x64_20G_alibase_20240528.vhd"
  availability_zone = "cn-hangzhou-h"
  vswitch_id        = alicloud_vswitch.vswitch.id
  security_groups   = [alicloud_security_group.sg.id]
}
"#;

fn meta() -> Meta {
    let keys = vec![
        KeyAttribute {
            resource: "alicloud_instance.web".into(),
            attribute: "status".into(),
            value: "Running".into(),
        },
        KeyAttribute {
            resource: "alicloud_vswitch.vswitch".into(),
            attribute: "zone_id".into(),
            value: "cn-hangzhou-h".into(),
        },
    ];
    let resource_meta = ResourceMeta {
        description: "A running ECS instance in a VPC.".into(),
        key_attributes: keys,
        terraform: TYPICAL.into(),
    };
    match Meta::new("bench.tf", &resource_meta, "cn-hangzhou", Suffix::random()) {
        Ok(meta) => meta,
        Err(e) => panic!("the benchmark's META does not parse: {e}"),
    }
}

/// One provision + verify + destroy in a fresh account; returns (apply, verify, destroy) times.
async fn once(emulator: &LocalEmulator) -> (Duration, Duration, Duration) {
    let account = emulator.account("bench").unwrap_or_else(|e| panic!("{e}"));
    let applier = EmulatorApplier::new(&emulator.url, access_key(&account))
        .unwrap_or_else(|e| panic!("{e}"))
        .with_wait(WaitPolicy {
            interval: Duration::from_millis(10),
            timeout: Duration::from_secs(30),
        });
    let meta = meta();
    let started = Instant::now();
    let mut state = applier.apply(&meta).await.unwrap_or_else(|e| panic!("{e}"));
    let applied = started.elapsed();
    applier.verify(&meta, &state).await.unwrap_or_else(|e| panic!("{e}"));
    let verified = started.elapsed() - applied;
    let report = applier.destroy(&mut state).await;
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let destroyed = started.elapsed() - applied - verified;
    (applied, verified, destroyed)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn median(mut values: Vec<Duration>) -> Duration {
    values.sort();
    values[values.len() / 2]
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    runtime.block_on(async {
        let emulator = Arc::new(
            LocalEmulator::start(ConsoleConfig::for_tests())
                .await
                .unwrap_or_else(|e| panic!("{e}")),
        );
        once(&emulator).await; // warm up connections and caches
        let runs = 20;
        let mut totals = Vec::new();
        let (mut applies, mut verifies, mut destroys) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..runs {
            let (a, v, d) = once(&emulator).await;
            applies.push(a);
            verifies.push(v);
            destroys.push(d);
            totals.push(a + v + d);
        }
        let total = median(totals.clone());
        println!("typical META (VPC, vSwitch, security group, running instance), {runs} runs, medians:");
        println!("  apply   {:7.1} ms", ms(median(applies)));
        println!("  verify  {:7.1} ms", ms(median(verifies)));
        println!("  destroy {:7.1} ms", ms(median(destroys)));
        println!(
            "  total   {:7.1} ms (max {:.1} ms; target <= 300 ms: {})",
            ms(total),
            ms(totals.iter().copied().max().unwrap_or_default()),
            if total <= Duration::from_millis(300) {
                "met"
            } else {
                "MISSED"
            }
        );

        let started = Instant::now();
        let mut tasks = Vec::new();
        for _ in 0..8 {
            let emulator = emulator.clone();
            tasks.push(tokio::spawn(async move { once(&emulator).await }));
        }
        let mut each = Vec::new();
        for task in tasks {
            let (a, v, d) = task.await.unwrap_or_else(|e| panic!("{e}"));
            each.push(a + v + d);
        }
        println!(
            "8 in parallel (separate accounts): wall {:.1} ms, slowest {:.1} ms, median {:.1} ms",
            ms(started.elapsed()),
            ms(each.iter().copied().max().unwrap_or_default()),
            ms(median(each))
        );
    });
}
