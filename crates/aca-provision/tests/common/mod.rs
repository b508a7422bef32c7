//! Shared pieces of the provisioning tests: the emulator on a real port, accounts, METAs.

#![allow(dead_code)]

use std::collections::BTreeMap;

use aca_console::{ConsoleConfig, Credentials};
use aca_core::{KeyAttribute, ResourceMeta};
use aca_provision::emulator::local::{LocalEmulator, access_key};
use aca_provision::emulator::{Client, WaitPolicy};
use aca_provision::{EmulatorApplier, Meta, Suffix};
use serde_json::Value;

/// The typical META: a VPC, a vSwitch in a zone, a security group and a running instance.
pub const TYPICAL: &str = r#"
variable "suffix" {
  type = string
}

resource "alicloud_vpc" "vpc" {
  vpc_name   = "doc-vpc-${var.suffix}"
  cidr_block = "192.168.0.0/16"
}

resource "alicloud_vswitch" "vswitch" {
  vswitch_name = "doc-vsw-${var.suffix}"
  vpc_id       = alicloud_vpc.vpc.id
  cidr_block   = cidrsubnet(alicloud_vpc.vpc.cidr_block, 8, 1)
  zone_id      = "cn-hangzhou-h"
}

resource "alicloud_security_group" "sg" {
  security_group_name = "doc-sg-${var.suffix}"
  vpc_id              = alicloud_vpc.vpc.id
}

resource "alicloud_instance" "web" {
  instance_name        = "web-${var.suffix}"
  instance_type        = "ecs.g7.large"
  image_id             = "aliyun_3_x64_20G_alibase_20240528.vhd"
  availability_zone    = alicloud_vswitch.vswitch.zone_id
  vswitch_id           = alicloud_vswitch.vswitch.id
  security_groups      = [alicloud_security_group.sg.id]
  instance_charge_type = "PostPaid"
}
"#;

pub fn key(resource: &str, attribute: &str, value: &str) -> KeyAttribute {
    KeyAttribute {
        resource: resource.into(),
        attribute: attribute.into(),
        value: value.into(),
    }
}

pub fn typical_keys() -> Vec<KeyAttribute> {
    vec![
        key("alicloud_instance.web", "status", "Running"),
        key("alicloud_instance.web", "instance_type", "ecs.g7.large"),
        key("alicloud_instance.web", "availability_zone", "cn-hangzhou-h"),
        key("alicloud_vswitch.vswitch", "zone_id", "cn-hangzhou-h"),
        key("alicloud_vpc.vpc", "status", "Available"),
    ]
}

pub fn meta(terraform: &str, keys: Vec<KeyAttribute>) -> Meta {
    meta_result(terraform, keys).unwrap_or_else(|e| panic!("{e}"))
}

pub fn meta_result(terraform: &str, keys: Vec<KeyAttribute>) -> Result<Meta, aca_provision::ProvisionError> {
    Meta::new(
        "meta.tf",
        &ResourceMeta {
            description: "A running ECS instance in a VPC.".into(),
            key_attributes: keys,
            terraform: terraform.into(),
        },
        "cn-hangzhou",
        Suffix::random(),
    )
}

pub struct Setup {
    pub emulator: LocalEmulator,
}

impl Setup {
    pub async fn new() -> Self {
        Self::with(ConsoleConfig::for_tests()).await
    }

    pub async fn with(config: ConsoleConfig) -> Self {
        Self {
            emulator: LocalEmulator::start(config).await.unwrap(),
        }
    }

    pub fn account(&self) -> Credentials {
        self.emulator.account("prov").unwrap()
    }

    pub fn applier(&self, account: &Credentials) -> EmulatorApplier {
        EmulatorApplier::new(&self.emulator.url, access_key(account))
            .unwrap()
            .with_wait(WaitPolicy {
                interval: std::time::Duration::from_millis(20),
                timeout: std::time::Duration::from_secs(10),
            })
    }

    pub fn client(&self, account: &Credentials) -> Client {
        Client::new(&self.emulator.url, access_key(account)).unwrap()
    }

    /// How many resources the account holds.
    pub fn resources(&self, account: &Credentials) -> usize {
        self.emulator
            .console
            .snapshot_account(&account.account_id)
            .unwrap()
            .resources
            .len()
    }

    /// A signed RPC call as `account`.
    pub async fn call(&self, account: &Credentials, code: &str, action: &str, params: &[(&str, &str)]) -> Value {
        let version = aca_console::products::by_code(code).unwrap().version;
        let params: BTreeMap<String, String> = params.iter().map(|(k, v)| ((*k).into(), (*v).into())).collect();
        self.client(account)
            .rpc(version, action, "cn-hangzhou", &params)
            .await
            .unwrap_or_else(|e| panic!("{action}: {e}"))
    }
}
