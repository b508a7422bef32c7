//! `aca provision`, run as a user types it: a page's META applied, verified and destroyed in three
//! separate invocations sharing the in-process emulator's database and a state directory.

mod common;

use std::path::Path;
use std::process::Command;

use common::{ACA, aca, text};

const TASK: &str = r#"
profile = "2026"
product = "ecs"

[[rule.events]]
event_name = "StartInstance"
service_name = "Ecs"

[meta]
description = "A stopped ECS instance in a VPC."
terraform = '''
variable "suffix" {
  type = string
}
resource "alicloud_vpc" "vpc" {
  vpc_name   = "cli-vpc-${var.suffix}"
  cidr_block = "192.168.0.0/16"
}
resource "alicloud_vswitch" "vswitch" {
  vpc_id     = alicloud_vpc.vpc.id
  cidr_block = "192.168.1.0/24"
  zone_id    = "cn-hangzhou-h"
}
resource "alicloud_security_group" "sg" {
  vpc_id = alicloud_vpc.vpc.id
}
resource "alicloud_instance" "web" {
  instance_name   = "web-${var.suffix}"
  instance_type   = "ecs.g7.large"
  image_id        = "aliyun_3_x64_20G_alibase_20240528.vhd"
  vswitch_id      = alicloud_vswitch.vswitch.id
  security_groups = [alicloud_security_group.sg.id]
  status          = "Stopped"
}
'''

[[meta.key_attributes]]
resource = "alicloud_instance.web"
attribute = "status"
value = "Stopped"
"#;

fn page(dir: &Path, task: &str) {
    std::fs::write(dir.join("start-instance.md"), "# Start an instance\n").unwrap();
    std::fs::write(dir.join("start-instance.task.toml"), task).unwrap();
}

#[test]
fn apply_verify_and_destroy_in_separate_invocations() {
    let dir = tempfile::tempdir().unwrap();
    page(dir.path(), TASK);
    let common = ["start-instance.md", "--emulator-db", "emu.db", "--state", "state"];
    let with = |verb: &str| {
        let mut args = vec!["provision", verb];
        args.extend(common);
        aca(dir.path(), &args)
    };

    let plan = with("plan");
    assert!(plan.status.success(), "{}", text(&plan));
    assert!(
        text(&plan).contains(
            "create alicloud_instance.web (RunInstances) after alicloud_security_group.sg, alicloud_vswitch.vswitch"
        ),
        "{}",
        text(&plan)
    );

    let apply = with("apply");
    let out = text(&apply);
    assert!(apply.status.success(), "{out}");
    let suffix = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("suffix = "))
        .expect("the bindings name the suffix")
        .to_owned();
    assert!(out.contains(&format!("web_name = web-{suffix}")), "{out}");
    assert!(out.contains("web_id = i-"), "{out}");
    assert!(
        out.contains("Provisioned resources (A stopped ECS instance in a VPC):"),
        "{out}"
    );
    assert!(out.contains("status Stopped (created for this task)"), "{out}");
    let state = dir.path().join("state/start-instance.state.json");
    assert!(state.exists());

    let again = with("apply");
    assert_eq!(
        again.status.code(),
        Some(2),
        "a second apply over a live state is refused"
    );
    assert!(text(&again).contains("holds an earlier apply"), "{}", text(&again));

    let verify = with("verify");
    assert!(verify.status.success(), "{}", text(&verify));
    assert!(
        text(&verify).contains("✓ alicloud_instance.web status = Stopped"),
        "{}",
        text(&verify)
    );

    let destroy = with("destroy");
    assert!(destroy.status.success(), "{}", text(&destroy));
    let out = text(&destroy);
    let order: Vec<&str> = out
        .lines()
        .filter_map(|l| l.trim().strip_prefix("destroyed "))
        .filter(|l| l.starts_with("alicloud_"))
        .collect();
    assert_eq!(
        order,
        [
            "alicloud_instance.web",
            "alicloud_security_group.sg",
            "alicloud_vswitch.vswitch",
            "alicloud_vpc.vpc"
        ]
    );
    assert!(!state.exists(), "the state file goes with the resources");

    let verify = with("verify");
    assert_eq!(verify.status.code(), Some(2));
    assert!(
        text(&verify).contains("no state of an earlier apply"),
        "{}",
        text(&verify)
    );
}

#[test]
fn bad_templates_and_missing_tools_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    page(
        dir.path(),
        &TASK.replace("alicloud_security_group\" \"sg\"", "alicloud_firewall\" \"sg\""),
    );
    let out = aca(
        dir.path(),
        &["provision", "apply", "start-instance.md", "--state", "state"],
    );
    assert_eq!(out.status.code(), Some(2));
    let message = text(&out);
    assert!(
        message.contains("start-instance.task.toml: unknown resource type alicloud_firewall"),
        "{message}"
    );
    assert!(!dir.path().join("state/start-instance.state.json").exists());

    page(dir.path(), TASK);
    let out = Command::new(ACA)
        .args(["provision", "plan", "start-instance.md", "--applier", "terraform"])
        .current_dir(dir.path())
        .env("PATH", dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).contains("neither terraform nor tofu is installed"),
        "{}",
        text(&out)
    );

    std::fs::write(
        dir.path().join("start-instance.task.toml"),
        "profile = \"2026\"\nproduct = \"vpc\"\n[[rule.events]]\nevent_name = \"CreateVpc\"\n",
    )
    .unwrap();
    let out = aca(dir.path(), &["provision", "apply", "start-instance.md"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("declares no [meta]"), "{}", text(&out));
}
