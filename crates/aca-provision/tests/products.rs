//! Every product's resource types round-trip through the emulator: apply, verify the key
//! attributes, destroy, and the account is empty again.

mod common;

use std::collections::BTreeMap;

use aca_core::KeyAttribute;
use aca_provision::{Applier, ProvisionState, bindings};
use common::{Setup, key, meta};

/// Applies, verifies and destroys `terraform`; returns the bindings and the applied state.
async fn round_trip(terraform: &str, keys: Vec<KeyAttribute>) -> (BTreeMap<String, String>, ProvisionState) {
    round_trip_leaving(terraform, keys, 0).await
}

/// [`round_trip`] for types whose destroy leaves `left` resources (a KMS key waits out its
/// deletion window, as on the real cloud).
async fn round_trip_leaving(
    terraform: &str,
    keys: Vec<KeyAttribute>,
    left: usize,
) -> (BTreeMap<String, String>, ProvisionState) {
    let setup = Setup::new().await;
    let account = setup.account();
    let applier = setup.applier(&account);
    let meta = meta(terraform, keys);
    let mut state = applier.apply(&meta).await.unwrap_or_else(|e| panic!("{e}"));
    let applied = state.clone();
    applier.verify(&meta, &state).await.unwrap_or_else(|e| panic!("{e}"));
    let b = bindings(&state);
    let report = applier.destroy(&mut state).await;
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    assert_eq!(setup.resources(&account), left, "the account is empty after destroy");
    (b, applied)
}

#[tokio::test]
async fn oss_buckets_and_log_projects_and_logstores() {
    let (b, state) = round_trip(
        r#"
resource "alicloud_oss_bucket" "logs" {
  bucket        = "doc-logs-${var.suffix}"
  acl           = "public-read"
  storage_class = "IA"
}
resource "alicloud_log_project" "project" {
  project_name = "doc-project-${var.suffix}"
  description  = "for the docs"
}
resource "alicloud_log_store" "store" {
  project          = alicloud_log_project.project.project_name
  logstore_name    = "access-log"
  retention_period = 7
  shard_count      = 2
}
"#,
        vec![
            key("alicloud_oss_bucket.logs", "acl", "public-read"),
            key("alicloud_oss_bucket.logs", "storage_class", "IA"),
            key("alicloud_log_store.store", "retention_period", "7"),
            key("alicloud_log_project.project", "description", "for the docs"),
        ],
    )
    .await;
    assert_eq!(b["logs_name"], format!("doc-logs-{}", state.suffix));
    assert_eq!(b["logs_id"], b["logs_name"], "a bucket's id is its name");
    assert_eq!(b["store_id"], format!("doc-project-{}:access-log", state.suffix));
    assert_eq!(
        state
            .resource("alicloud_oss_bucket.logs")
            .unwrap()
            .attribute("location")
            .as_deref(),
        Some("oss-cn-hangzhou")
    );
}

#[tokio::test]
async fn ram_users_groups_roles_and_policies() {
    let (b, state) = round_trip(
        r#"
resource "alicloud_ram_user" "user" {
  name         = "doc-user-${var.suffix}"
  display_name = "Doc user"
}
resource "alicloud_ram_group" "group" {
  group_name = "doc-group-${var.suffix}"
  comments   = "readers"
}
resource "alicloud_ram_role" "role" {
  role_name   = "doc-role-${var.suffix}"
  document    = "{\"Statement\":[{\"Action\":\"sts:AssumeRole\",\"Effect\":\"Allow\",\"Principal\":{\"Service\":[\"ecs.aliyuncs.com\"]}}],\"Version\":\"1\"}"
  description = "for ECS"
}
resource "alicloud_ram_policy" "policy" {
  policy_name     = "doc-policy-${var.suffix}"
  policy_document = "{\"Statement\":[{\"Action\":\"oss:GetObject\",\"Effect\":\"Allow\",\"Resource\":\"*\"}],\"Version\":\"1\"}"
}
resource "alicloud_ram_user_policy_attachment" "user_policy" {
  user_name   = alicloud_ram_user.user.name
  policy_name = alicloud_ram_policy.policy.policy_name
  policy_type = "Custom"
}
resource "alicloud_ram_access_key" "key" {
  user_name = alicloud_ram_user.user.name
  status    = "Inactive"
}
resource "alicloud_ram_user_group_attachment" "member" {
  group_name = alicloud_ram_group.group.group_name
  user_name  = alicloud_ram_user.user.name
}
resource "alicloud_ram_role_policy_attachment" "role_policy" {
  role_name   = alicloud_ram_role.role.role_name
  policy_name = "AliyunOSSReadOnlyAccess"
  policy_type = "System"
}
"#,
        vec![
            key("alicloud_ram_user.user", "display_name", "Doc user"),
            key("alicloud_ram_group.group", "comments", "readers"),
            key("alicloud_ram_policy.policy", "type", "Custom"),
            key("alicloud_ram_user_policy_attachment.user_policy", "policy_type", "Custom"),
            key("alicloud_ram_role_policy_attachment.role_policy", "policy_name", "AliyunOSSReadOnlyAccess"),
            key("alicloud_ram_access_key.key", "status", "Inactive"),
        ],
    )
    .await;
    // The key's secret is nowhere in the state.
    let record = state.resource("alicloud_ram_access_key.key").unwrap();
    assert!(record.id.starts_with("LTAI"), "{}", record.id);
    let kept = serde_json::to_string(&record.attributes).unwrap();
    assert!(!kept.to_lowercase().contains("secret"), "{kept}");
    let suffix = &state.suffix;
    assert_eq!(b["user_name"], format!("doc-user-{suffix}"));
    assert_ne!(b["user_id"], b["user_name"], "a user's id is its UserId");
    assert_eq!(b["group_name"], format!("doc-group-{suffix}"));
    // The membership is read back from the group's users.
    let member = state.resource("alicloud_ram_user_group_attachment.member").unwrap();
    assert_eq!(member.id, format!("doc-user-{suffix}"));
    assert_eq!(b["role_name"], format!("doc-role-{suffix}"));
    assert_eq!(b["policy_name"], format!("doc-policy-{suffix}"));
}

#[tokio::test]
async fn kms_keys_and_aliases_with_a_disabled_state() {
    let (b, state) = round_trip_leaving(
        r#"
resource "alicloud_kms_key" "key" {
  description            = "doc-key-${var.suffix}"
  pending_window_in_days = 7
  status                 = "Disabled"
}
resource "alicloud_kms_alias" "alias" {
  alias_name = "alias/doc-${var.suffix}"
  key_id     = alicloud_kms_key.key.id
}
"#,
        vec![
            key("alicloud_kms_key.key", "status", "Disabled"),
            key("alicloud_kms_alias.alias", "key_id", ""),
        ]
        .into_iter()
        .filter(|k| !k.value.is_empty())
        .collect(),
        1,
    )
    .await;
    assert!(state.resource("alicloud_kms_key.key").unwrap().id.len() > 8);
    assert_eq!(b["alias_name"], format!("alias/doc-{}", state.suffix));
}

#[tokio::test]
async fn dns_domains_and_records_and_cloudmonitor_contacts() {
    let (b, state) = round_trip(
        r#"
resource "alicloud_alidns_domain" "domain" {
  domain_name = "doc-${var.suffix}.com"
}
resource "alicloud_alidns_record" "www" {
  domain_name = alicloud_alidns_domain.domain.domain_name
  rr          = "www"
  type        = "A"
  value       = "47.96.1.1"
  ttl         = 600
}
resource "alicloud_cms_alarm_contact" "ops" {
  alarm_contact_name = "ops-${var.suffix}"
  describe           = "on call"
  channels_mail      = "ops@example.com"
}
resource "alicloud_cms_alarm_contact_group" "team" {
  alarm_contact_group_name = "team-${var.suffix}"
  contacts                 = [alicloud_cms_alarm_contact.ops.alarm_contact_name]
}
"#,
        vec![
            key("alicloud_alidns_record.www", "value", "47.96.1.1"),
            key("alicloud_alidns_record.www", "ttl", "600"),
            key("alicloud_cms_alarm_contact.ops", "channels_mail", "ops@example.com"),
        ],
    )
    .await;
    assert_eq!(b["domain_name"], format!("doc-{}.com", state.suffix));
    assert_eq!(b["www_name"], "www");
    assert_eq!(b["team_name"], format!("team-{}", state.suffix));
}

#[tokio::test]
async fn databases_caches_and_load_balancers_in_a_vswitch() {
    let (b, state) = round_trip(
        r#"
resource "alicloud_vpc" "vpc" {
  vpc_name   = "db-vpc-${var.suffix}"
  cidr_block = "172.16.0.0/16"
}
resource "alicloud_vswitch" "vsw" {
  vpc_id     = alicloud_vpc.vpc.id
  cidr_block = "172.16.1.0/24"
  zone_id    = "cn-hangzhou-h"
}
resource "alicloud_db_instance" "rds" {
  engine           = "MySQL"
  engine_version   = "8.0"
  instance_type    = "mysql.n2.medium.1"
  instance_storage = 20
  instance_name    = "doc-rds-${var.suffix}"
  vswitch_id       = alicloud_vswitch.vsw.id
  security_ips     = ["10.0.0.0/8"]
}
resource "alicloud_db_database" "db" {
  instance_id = alicloud_db_instance.rds.id
  name        = "orders"
}
resource "alicloud_kvstore_instance" "redis" {
  db_instance_name = "doc-redis-${var.suffix}"
  instance_class   = "redis.master.small.default"
  engine_version   = "7.0"
  vswitch_id       = alicloud_vswitch.vsw.id
  zone_id          = "cn-hangzhou-h"
}
resource "alicloud_slb_load_balancer" "clb" {
  load_balancer_name   = "doc-clb-${var.suffix}"
  address_type         = "intranet"
  load_balancer_spec   = "slb.s1.small"
  vswitch_id           = alicloud_vswitch.vsw.id
  payment_type         = "PayAsYouGo"
  internet_charge_type = "PayByTraffic"
}
"#,
        vec![
            key("alicloud_db_instance.rds", "status", "Running"),
            key("alicloud_db_instance.rds", "engine", "MySQL"),
            key("alicloud_kvstore_instance.redis", "status", "Normal"),
            key("alicloud_slb_load_balancer.clb", "status", "active"),
            key("alicloud_slb_load_balancer.clb", "address_type", "intranet"),
        ],
    )
    .await;
    assert_eq!(b["rds_name"], format!("doc-rds-{}", state.suffix));
    assert_eq!(b["db_id"], format!("{}:orders", b["rds_id"]));
    assert_eq!(b["redis_name"], format!("doc-redis-{}", state.suffix));
    assert_eq!(b["clb_name"], format!("doc-clb-{}", state.suffix));
}

#[tokio::test]
async fn data_sources_count_and_compute_extras() {
    let (b, state) = round_trip(
        r#"
data "alicloud_zones" "default" {
  available_resource_creation = "VSwitch"
}
data "alicloud_images" "linux" {
  name_regex  = "^aliyun_3_x64"
  owners      = "system"
  most_recent = true
}
locals {
  zone = data.alicloud_zones.default.zones[0].id
}
resource "alicloud_vpc" "vpc" {
  vpc_name   = "vpc-${var.suffix}"
  cidr_block = "10.0.0.0/8"
}
resource "alicloud_vswitch" "zone" {
  count        = 2
  vswitch_name = "vsw-${count.index}-${var.suffix}"
  vpc_id       = alicloud_vpc.vpc.id
  cidr_block   = cidrsubnet(alicloud_vpc.vpc.cidr_block, 8, count.index)
  zone_id      = local.zone
}
resource "alicloud_security_group" "sg" {
  vpc_id = alicloud_vpc.vpc.id
}
resource "alicloud_security_group_rule" "ssh" {
  type              = "ingress"
  ip_protocol       = "tcp"
  port_range        = "22/22"
  cidr_ip           = "10.0.0.0/8"
  security_group_id = alicloud_security_group.sg.id
}
resource "alicloud_ecs_key_pair" "key" {
  key_pair_name = "key-${var.suffix}"
}
resource "alicloud_ecs_disk" "data" {
  zone_id  = local.zone
  category = "cloud_essd"
  size     = 40
}
resource "alicloud_ecs_snapshot" "backup" {
  disk_id       = alicloud_ecs_disk.data.id
  snapshot_name = "backup-${var.suffix}"
}
resource "alicloud_eip_address" "eip" {
  address_name = "eip-${var.suffix}"
  bandwidth    = "5"
}
resource "alicloud_instance" "web" {
  instance_type     = "ecs.g7.large"
  image_id          = data.alicloud_images.linux.images[0].id
  vswitch_id        = alicloud_vswitch.zone[1].id
  security_groups   = [alicloud_security_group.sg.id]
  instance_name     = "web-${var.suffix}"
  key_name          = alicloud_ecs_key_pair.key.key_pair_name
}
output "zone" {
  value = local.zone
}
"#,
        vec![
            key("alicloud_vswitch.zone[1]", "cidr_block", "10.1.0.0/16"),
            key("alicloud_security_group_rule.ssh", "port_range", "22/22"),
            key("alicloud_ecs_snapshot.backup", "status", "accomplished"),
            key("alicloud_instance.web", "key_name", ""),
        ]
        .into_iter()
        .filter(|k| !k.value.is_empty())
        .collect(),
    )
    .await;
    let zone = &b["zone"];
    assert!(zone.starts_with("cn-hangzhou-"), "{zone}");
    assert_eq!(b["zone_0_name"], format!("vsw-0-{}", state.suffix));
    assert_eq!(b["zone_1_name"], format!("vsw-1-{}", state.suffix));
    assert_eq!(b["zone_id"], b["zone_0_id"], "the first of a count is also NAME_id");
    let web = state.resource("alicloud_instance.web").unwrap();
    assert_eq!(web.attribute("vswitch_id"), Some(b["zone_1_id"].clone()));
    assert!(web.attribute("image_id").unwrap().starts_with("aliyun_3_x64"));
    assert_eq!(web.attribute("key_name"), Some(format!("key-{}", state.suffix)));
    assert!(
        state
            .resource("alicloud_security_group_rule.ssh")
            .unwrap()
            .id
            .contains(":ingress:tcp:22/22:10.0.0.0/8")
    );
}

#[tokio::test]
async fn nat_gateways_and_trails() {
    round_trip(
        r#"
resource "alicloud_vpc" "vpc" {
  vpc_name   = "nat-vpc-${var.suffix}"
  cidr_block = "192.168.0.0/16"
}
resource "alicloud_vswitch" "vsw" {
  vpc_id     = alicloud_vpc.vpc.id
  cidr_block = "192.168.0.0/24"
  zone_id    = "cn-hangzhou-h"
}
resource "alicloud_nat_gateway" "nat" {
  vpc_id           = alicloud_vpc.vpc.id
  vswitch_id       = alicloud_vswitch.vsw.id
  nat_gateway_name = "nat-${var.suffix}"
  nat_type         = "Enhanced"
}
resource "alicloud_oss_bucket" "trail" {
  bucket = "trail-${var.suffix}"
}
resource "alicloud_actiontrail_trail" "trail" {
  trail_name      = "trail-${var.suffix}"
  oss_bucket_name = alicloud_oss_bucket.trail.bucket
  event_rw        = "All"
  status          = "Enable"
}
"#,
        vec![
            key("alicloud_nat_gateway.nat", "status", "Available"),
            key("alicloud_actiontrail_trail.trail", "status", "Enable"),
            key("alicloud_actiontrail_trail.trail", "event_rw", "All"),
        ],
    )
    .await;
}

#[tokio::test]
async fn cloudmonitor_alarms_with_escalations_and_a_disabled_state() {
    let (b, state) = round_trip(
        r#"
resource "alicloud_cms_alarm_contact_group" "group" {
  alarm_contact_group_name = "ops-${var.suffix}"
}
resource "alicloud_cms_alarm" "alarm" {
  name           = "cpu-high-${var.suffix}"
  project        = "acs_ecs_dashboard"
  metric         = "CPUUtilization"
  contact_groups = [alicloud_cms_alarm_contact_group.group.alarm_contact_group_name]
  enabled        = false

  escalations_critical {
    statistics          = "Average"
    comparison_operator = ">"
    threshold           = "90"
    times               = 3
  }
}
"#,
        vec![
            key("alicloud_cms_alarm.alarm", "enabled", "false"),
            key("alicloud_cms_alarm.alarm", "metric", "CPUUtilization"),
        ],
    )
    .await;
    assert_eq!(b["alarm_name"], format!("cpu-high-{}", state.suffix));
    assert_eq!(b["alarm_id"].len(), 36, "the rule id is a UUID the provider makes");
}

#[tokio::test]
async fn bucket_objects_and_force_destroy_of_a_bucket_with_objects_left_in_it() {
    let setup = Setup::new().await;
    let account = setup.account();
    let applier = setup.applier(&account);
    let meta = meta(
        r#"
resource "alicloud_oss_bucket" "bucket" {
  bucket        = "docs-${var.suffix}"
  force_destroy = true
}
resource "alicloud_oss_bucket_object" "object" {
  bucket  = alicloud_oss_bucket.bucket.bucket
  key     = "reports/q3.txt"
  content = "quarterly report"
}
"#,
        vec![key("alicloud_oss_bucket_object.object", "content", "quarterly report")],
    );
    let mut state = applier.apply(&meta).await.unwrap();
    applier.verify(&meta, &state).await.unwrap();
    assert_eq!(bindings(&state)["object_name"], "reports/q3.txt");
    // The episode uploads an object of its own; force_destroy removes it with the bucket.
    let bucket = state.resource("alicloud_oss_bucket.bucket").unwrap().id.clone();
    let extra = meta_with_object(&bucket);
    let extra_state = applier.apply(&extra).await.unwrap();
    assert_eq!(extra_state.resources.len(), 1);
    let report = applier.destroy(&mut state).await;
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    assert_eq!(setup.resources(&account), 0);
}

fn meta_with_object(bucket: &str) -> aca_provision::Meta {
    meta(
        &format!(
            r#"
resource "alicloud_oss_bucket_object" "upload" {{
  bucket  = "{bucket}"
  key     = "uploaded-by-the-agent.txt"
  content = "hello"
}}
"#
        ),
        Vec::new(),
    )
}

#[tokio::test]
async fn alb_instances_across_two_zones_and_server_groups() {
    let (b, state) = round_trip(
        r#"
resource "alicloud_vpc" "vpc" {
  vpc_name   = "vpc-${var.suffix}"
  cidr_block = "192.168.0.0/16"
}
resource "alicloud_vswitch" "h" {
  vpc_id     = alicloud_vpc.vpc.id
  cidr_block = "192.168.1.0/24"
  zone_id    = "cn-hangzhou-h"
}
resource "alicloud_vswitch" "i" {
  vpc_id     = alicloud_vpc.vpc.id
  cidr_block = "192.168.2.0/24"
  zone_id    = "cn-hangzhou-i"
}
resource "alicloud_alb_load_balancer" "alb" {
  load_balancer_name    = "doc-alb-${var.suffix}"
  vpc_id                = alicloud_vpc.vpc.id
  address_type          = "Intranet"
  load_balancer_edition = "Basic"
  load_balancer_billing_config {
    pay_type = "PayAsYouGo"
  }
  zone_mappings {
    zone_id    = alicloud_vswitch.h.zone_id
    vswitch_id = alicloud_vswitch.h.id
  }
  zone_mappings {
    zone_id    = alicloud_vswitch.i.zone_id
    vswitch_id = alicloud_vswitch.i.id
  }
  tags = { team = "docs" }
}
resource "alicloud_alb_server_group" "web" {
  server_group_name = "doc-sgp-${var.suffix}"
  vpc_id            = alicloud_vpc.vpc.id
  protocol          = "HTTPS"
  health_check_config {
    health_check_enabled = true
    health_check_codes   = ["http_2xx"]
  }
}
"#,
        vec![
            key("alicloud_alb_load_balancer.alb", "status", "Active"),
            key("alicloud_alb_load_balancer.alb", "load_balancer_edition", "Basic"),
            key("alicloud_alb_server_group.web", "status", "Available"),
            key("alicloud_alb_server_group.web", "protocol", "HTTPS"),
        ],
    )
    .await;
    assert_eq!(b["alb_name"], format!("doc-alb-{}", state.suffix));
    assert!(b["alb_id"].starts_with("alb-"), "{b:?}");
    assert!(b["web_id"].starts_with("sgp-"), "{b:?}");
}
