//! The resource templates the rule-based generator composes: one `alicloud_*` block per kind of
//! resource the emulator knows, with the blocks it depends on and the words pages use for it.

/// The self-signed certificate the certificate templates upload, as HCL string text (`\n` escapes).
macro_rules! doc_certificate {
    () => {
        r"-----BEGIN CERTIFICATE-----\nMIIBiTCCAS+gAwIBAgIUJAplj1SUY0o0B/2GB5TmxJWjjOEwCgYIKoZIzj0EAwIw\nGjEYMBYGA1UEAwwPZG9jLmV4YW1wbGUuY29tMB4XDTI2MTIwNTE5MDAzM1oXDTM2\nMTIwMjE5MDAzM1owGjEYMBYGA1UEAwwPZG9jLmV4YW1wbGUuY29tMFkwEwYHKoZI\nzj0CAQYIKoZIzj0DAQcDQgAE8josMwH5aWhcoRCxdiUJv2n4zw2gGT37JFXOIel8\n/w6mAXZwZusKELQKOdESMgzK7Dv0TCk8vl/AG3qTb8/4R6NTMFEwHQYDVR0OBBYE\nFOtFulCiCk1/JNkByZ6Uljjl41fiMB8GA1UdIwQYMBaAFOtFulCiCk1/JNkByZ6U\nljjl41fiMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSAAwRQIhALliMT0K\nz4YgIfXcmVXsXCucGnsSNhzA4XWK07WT6JNeAiBF6Z5NKlROUeDIoOcC6fFs8tnN\nhgk78u22fhZ3VbxURQ==\n-----END CERTIFICATE-----"
    };
}

/// The certificate's private key, as HCL string text. Made for these templates only; it protects
/// nothing.
macro_rules! doc_private_key {
    () => {
        r"-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgm+XjptH4Jf0TKhx8\niuBwKtsSvu5ypIBxB1urY6ZQVyyhRANCAATyOiwzAflpaFyhELF2JQm/afjPDaAZ\nPfskVc4h6Xz/DqYBdnBm6woQtAo50RIyDMrsO/RMKTy+X8AbepNvz/hH\n-----END PRIVATE KEY-----"
    };
}

/// One kind of resource the generator can write.
#[derive(Debug)]
pub struct Template {
    /// Internal key, unique across products (`ram_group`, `cms_group`).
    pub key: &'static str,
    /// The Terraform resource type.
    pub kind: &'static str,
    /// The block's local name; it gives the bindings (`instance_id`) success rules refer to.
    pub block: &'static str,
    /// Keys of the templates this one refers to (`@{vpc.id}`), created first.
    pub parents: &'static [&'static str],
    /// The block's body. `@{KEY.ATTRIBUTE}` refers to a parent: to its block when the same
    /// configuration creates it, to the existing resource's value otherwise.
    pub body: &'static str,
    /// The resource in words, for the META's description (`an ECS instance`).
    pub words: &'static str,
}

impl Template {
    pub fn address(&self) -> String {
        format!("{}.{}", self.kind, self.block)
    }
}

/// The templates in dependency order: every template's parents come before it.
pub const TEMPLATES: &[Template] = &[
    Template {
        key: "vpc",
        kind: "alicloud_vpc",
        block: "vpc",
        parents: &[],
        body: r#"  vpc_name   = "doc-vpc-${var.suffix}"
  cidr_block = "192.168.0.0/16""#,
        words: "a VPC",
    },
    Template {
        key: "vswitch",
        kind: "alicloud_vswitch",
        block: "vswitch",
        parents: &["vpc"],
        body: r#"  vswitch_name = "doc-vsw-${var.suffix}"
  vpc_id       = @{vpc.id}
  cidr_block   = "192.168.1.0/24"
  zone_id      = "cn-hangzhou-h""#,
        words: "a vSwitch",
    },
    Template {
        key: "security_group",
        kind: "alicloud_security_group",
        block: "security_group",
        parents: &["vpc"],
        body: r#"  security_group_name = "doc-sg-${var.suffix}"
  vpc_id              = @{vpc.id}"#,
        words: "a security group",
    },
    Template {
        key: "instance",
        kind: "alicloud_instance",
        block: "instance",
        parents: &["vswitch", "security_group"],
        body: r#"  instance_name        = "doc-ecs-${var.suffix}"
  instance_type        = "ecs.g7.large"
  image_id             = "aliyun_3_x64_20G_alibase_20240528.vhd"
  availability_zone    = "cn-hangzhou-h"
  vswitch_id           = @{vswitch.id}
  security_groups      = [@{security_group.id}]
  system_disk_category = "cloud_essd"
  instance_charge_type = "PostPaid""#,
        words: "an ECS instance",
    },
    Template {
        key: "eip",
        kind: "alicloud_eip_address",
        block: "eip",
        parents: &[],
        body: r#"  address_name         = "doc-eip-${var.suffix}"
  bandwidth            = "5"
  internet_charge_type = "PayByTraffic""#,
        words: "an EIP",
    },
    Template {
        key: "disk",
        kind: "alicloud_ecs_disk",
        block: "disk",
        parents: &[],
        body: r#"  disk_name = "doc-disk-${var.suffix}"
  zone_id   = "cn-hangzhou-h"
  category  = "cloud_essd"
  size      = 40"#,
        words: "an unattached data disk",
    },
    Template {
        key: "snapshot",
        kind: "alicloud_ecs_snapshot",
        block: "snapshot",
        parents: &["disk"],
        body: r#"  disk_id       = @{disk.id}
  snapshot_name = "doc-snap-${var.suffix}""#,
        words: "a snapshot of the disk",
    },
    Template {
        key: "rds",
        kind: "alicloud_db_instance",
        block: "rds",
        parents: &["vswitch"],
        body: r#"  engine           = "MySQL"
  engine_version   = "8.0"
  instance_type    = "mysql.n2.medium.1"
  instance_storage = 20
  vswitch_id       = @{vswitch.id}
  instance_name    = "doc-rds-${var.suffix}"
  security_ips     = ["192.168.0.0/16"]"#,
        words: "an ApsaraDB RDS for MySQL instance",
    },
    // A self-signed certificate for doc.example.com (EC P-256, made for these templates only), so
    // that the same configuration uploads to a real account too. Before the CLB instance, so that it
    // is destroyed after it: an HTTPS listener the procedure made on the instance still uses it.
    Template {
        key: "clb_certificate",
        kind: "alicloud_slb_server_certificate",
        block: "clb_certificate",
        parents: &[],
        body: concat!(
            "  server_certificate_name = \"doc-cert-${var.suffix}\"\n",
            "  server_certificate      = \"",
            doc_certificate!(),
            "\"\n  private_key             = \"",
            doc_private_key!(),
            "\""
        ),
        words: "a CLB server certificate",
    },
    // The same certificate uploaded to Certificate Management Service: what CLB's Add Certificate
    // lists under Alibaba Cloud Certificates.
    Template {
        key: "cas_certificate",
        kind: "alicloud_ssl_certificates_service_certificate",
        block: "cas_certificate",
        parents: &[],
        body: concat!(
            "  certificate_name = \"doc_cert_${var.suffix}\"\n",
            "  cert             = \"",
            doc_certificate!(),
            "\"\n  key              = \"",
            doc_private_key!(),
            "\""
        ),
        words: "a certificate of Certificate Management Service",
    },
    Template {
        key: "clb",
        kind: "alicloud_slb_load_balancer",
        block: "clb",
        parents: &["vswitch"],
        body: r#"  load_balancer_name = "doc-clb-${var.suffix}"
  address_type       = "intranet"
  load_balancer_spec = "slb.s1.small"
  vswitch_id         = @{vswitch.id}
  payment_type       = "PayAsYouGo""#,
        words: "a CLB instance",
    },
    // ALB instances take two zones, each with a vSwitch: the second vSwitch is in zone I.
    Template {
        key: "vswitch_b",
        kind: "alicloud_vswitch",
        block: "vswitch_b",
        parents: &["vpc"],
        body: r#"  vswitch_name = "doc-vsw-b-${var.suffix}"
  vpc_id       = @{vpc.id}
  cidr_block   = "192.168.2.0/24"
  zone_id      = "cn-hangzhou-i""#,
        words: "a vSwitch in a second zone",
    },
    Template {
        key: "alb",
        kind: "alicloud_alb_load_balancer",
        block: "alb",
        parents: &["vpc", "vswitch", "vswitch_b"],
        body: r#"  load_balancer_name    = "doc-alb-${var.suffix}"
  vpc_id                = @{vpc.id}
  address_type          = "Intranet"
  load_balancer_edition = "Standard"
  load_balancer_billing_config {
    pay_type = "PayAsYouGo"
  }
  zone_mappings {
    zone_id    = "cn-hangzhou-h"
    vswitch_id = @{vswitch.id}
  }
  zone_mappings {
    zone_id    = "cn-hangzhou-i"
    vswitch_id = @{vswitch_b.id}
  }"#,
        words: "an ALB instance",
    },
    Template {
        key: "alb_server_group",
        kind: "alicloud_alb_server_group",
        block: "alb_server_group",
        parents: &["vpc"],
        body: r#"  server_group_name = "doc-sgp-${var.suffix}"
  server_group_type = "Instance"
  vpc_id            = @{vpc.id}
  protocol          = "HTTP"
  health_check_config {
    health_check_enabled = true
  }"#,
        words: "an ALB server group",
    },
    Template {
        key: "tair",
        kind: "alicloud_kvstore_instance",
        block: "tair",
        parents: &["vswitch"],
        body: r#"  db_instance_name = "doc-tair-${var.suffix}"
  instance_type    = "Redis"
  instance_class   = "redis.master.small.default"
  engine_version   = "7.0"
  zone_id          = "cn-hangzhou-h"
  vswitch_id       = @{vswitch.id}
  payment_type     = "PostPaid"
  password         = var.password"#,
        words: "a Tair (Redis) instance",
    },
    Template {
        key: "bucket",
        kind: "alicloud_oss_bucket",
        block: "bucket",
        parents: &[],
        // The run may upload objects of its own: they go with the bucket.
        body: r#"  bucket        = "doc-bucket-${var.suffix}"
  force_destroy = true"#,
        words: "an OSS bucket",
    },
    Template {
        key: "object",
        kind: "alicloud_oss_bucket_object",
        block: "object",
        parents: &["bucket"],
        body: r#"  bucket  = @{bucket.bucket}
  key     = "example.txt"
  content = "example content""#,
        words: "an object in the bucket",
    },
    Template {
        key: "ram_user",
        kind: "alicloud_ram_user",
        block: "user",
        parents: &[],
        body: r#"  name         = "doc-user-${var.suffix}"
  display_name = "Doc user ${var.suffix}""#,
        words: "a RAM user",
    },
    Template {
        key: "ram_group",
        kind: "alicloud_ram_group",
        block: "group",
        parents: &[],
        body: r#"  name     = "doc-group-${var.suffix}"
  comments = "Created for the procedure""#,
        words: "a RAM user group",
    },
    Template {
        key: "ram_group_member",
        kind: "alicloud_ram_user_group_attachment",
        block: "group_member",
        parents: &["ram_user", "ram_group"],
        body: r#"  group_name = @{ram_group.name}
  user_name  = @{ram_user.name}"#,
        words: "the RAM user's membership of the group",
    },
    Template {
        key: "ram_user_policy",
        kind: "alicloud_ram_user_policy_attachment",
        block: "user_policy",
        parents: &["ram_user"],
        body: r#"  user_name   = @{ram_user.name}
  policy_name = "AliyunOSSReadOnlyAccess"
  policy_type = "System""#,
        words: "a system policy attached to the RAM user",
    },
    Template {
        key: "ram_access_key",
        kind: "alicloud_ram_access_key",
        block: "access_key",
        parents: &["ram_user"],
        body: r#"  user_name = @{ram_user.name}"#,
        words: "an AccessKey pair of the RAM user",
    },
    Template {
        key: "ram_policy",
        kind: "alicloud_ram_policy",
        block: "policy",
        parents: &[],
        body: r#"  policy_name     = "doc-policy-${var.suffix}"
  policy_document = "{\"Statement\":[{\"Action\":\"oss:GetObject\",\"Effect\":\"Allow\",\"Resource\":\"*\"}],\"Version\":\"1\"}"
  description     = "Created for the procedure""#,
        words: "a custom policy",
    },
    Template {
        key: "ram_policy_grant",
        kind: "alicloud_ram_user_policy_attachment",
        block: "policy_grant",
        parents: &["ram_user", "ram_policy"],
        body: r#"  user_name   = @{ram_user.name}
  policy_name = @{ram_policy.policy_name}
  policy_type = "Custom""#,
        words: "a grant of the custom policy to the RAM user",
    },
    Template {
        key: "ram_role",
        kind: "alicloud_ram_role",
        block: "role",
        parents: &[],
        body: r#"  role_name                   = "doc-role-${var.suffix}"
  assume_role_policy_document = "{\"Statement\":[{\"Action\":\"sts:AssumeRole\",\"Effect\":\"Allow\",\"Principal\":{\"Service\":[\"ecs.aliyuncs.com\"]}}],\"Version\":\"1\"}"
  description                 = "Created for the procedure""#,
        words: "a RAM role",
    },
    Template {
        key: "ram_role_policy",
        kind: "alicloud_ram_role_policy_attachment",
        block: "role_policy",
        parents: &["ram_role"],
        body: r#"  role_name   = @{ram_role.role_name}
  policy_name = "AliyunOSSReadOnlyAccess"
  policy_type = "System""#,
        words: "a system policy attached to the RAM role",
    },
    Template {
        key: "kms_key",
        kind: "alicloud_kms_key",
        block: "key",
        parents: &[],
        body: r#"  description            = "doc-key-${var.suffix}"
  key_spec               = "Aliyun_AES_256"
  key_usage              = "ENCRYPT/DECRYPT"
  protection_level       = "SOFTWARE"
  pending_window_in_days = 7"#,
        words: "a KMS key",
    },
    // A pay-as-you-go instance, so teardown can release it (subscription instances cannot be).
    Template {
        key: "kms_instance",
        kind: "alicloud_kms_instance",
        block: "kms_instance",
        parents: &["vswitch"],
        body: r#"  product_version = "3"
  payment_type    = "PayAsYouGo"
  vpc_id          = @{vswitch.vpc_id}
  zone_ids        = ["cn-hangzhou-h", "cn-hangzhou-i"]
  vswitch_ids     = [@{vswitch.id}]
  vpc_num         = 1
  key_num         = 1000
  secret_num      = 100
  spec            = 1000"#,
        words: "an enabled KMS instance",
    },
    Template {
        key: "kms_instance_key",
        kind: "alicloud_kms_key",
        block: "instance_key",
        parents: &["kms_instance"],
        body: r#"  description            = "doc-key-${var.suffix}"
  key_spec               = "Aliyun_AES_256"
  key_usage              = "ENCRYPT/DECRYPT"
  dkms_instance_id       = @{kms_instance.id}
  pending_window_in_days = 7"#,
        words: "a symmetric KMS key in the KMS instance",
    },
    Template {
        key: "log_project",
        kind: "alicloud_log_project",
        block: "project",
        parents: &[],
        body: r#"  project_name = "doc-project-${var.suffix}"
  description  = "Created for the procedure""#,
        words: "a Simple Log Service project",
    },
    Template {
        key: "logstore",
        kind: "alicloud_log_store",
        block: "logstore",
        parents: &["log_project"],
        body: r#"  project_name     = @{log_project.project_name}
  logstore_name    = "doc-logstore"
  retention_period = 30
  shard_count      = 2"#,
        words: "a Logstore in the project",
    },
    Template {
        key: "domain",
        kind: "alicloud_alidns_domain",
        block: "domain",
        parents: &[],
        body: r#"  domain_name = "doc-${var.suffix}.com""#,
        words: "a domain name in Alibaba Cloud DNS",
    },
    Template {
        key: "record",
        kind: "alicloud_alidns_record",
        block: "record",
        parents: &["domain"],
        body: r#"  domain_name = @{domain.domain_name}
  rr          = "www"
  type        = "A"
  value       = "192.0.2.10""#,
        words: "an A record of the domain",
    },
    Template {
        key: "cms_group",
        kind: "alicloud_cms_alarm_contact_group",
        block: "group",
        parents: &[],
        body: r#"  alarm_contact_group_name = "doc-ops-${var.suffix}""#,
        words: "an alert contact group",
    },
    Template {
        key: "alarm",
        kind: "alicloud_cms_alarm",
        block: "alarm",
        parents: &["cms_group"],
        body: r#"  name           = "doc-cpu-high-${var.suffix}"
  project        = "acs_ecs_dashboard"
  metric         = "CPUUtilization"
  contact_groups = [@{cms_group.alarm_contact_group_name}]
  enabled        = true

  escalations_critical {
    statistics          = "Average"
    comparison_operator = ">"
    threshold           = "90"
    times               = 3
  }"#,
        words: "an enabled CloudMonitor alert rule",
    },
    Template {
        key: "trail",
        kind: "alicloud_actiontrail_trail",
        block: "trail",
        // A trail logs only with a delivery destination.
        parents: &["bucket"],
        body: r#"  trail_name      = "doc-trail-${var.suffix}"
  event_rw        = "All"
  trail_region    = "All"
  oss_bucket_name = @{bucket.bucket}"#,
        words: "an ActionTrail trail",
    },
];

/// Bodies for several resources of one template, where one body's fixed values would clash (names,
/// address ranges); `count.index` tells them apart. With the plural words for descriptions.
const COUNTED: &[(&str, &str, &str)] = &[(
    "vswitch",
    "vSwitches",
    r#"  vswitch_name = "doc-vsw-${count.index}-${var.suffix}"
  vpc_id       = @{vpc.id}
  cidr_block   = cidrsubnet("192.168.0.0/16", 8, count.index + 1)
  zone_id      = "cn-hangzhou-h""#,
)];

/// The body and plural words for several resources of `key`; `None` when it cannot be counted.
pub fn counted_body(key: &str) -> Option<(&'static str, &'static str)> {
    COUNTED
        .iter()
        .find(|(k, _, _)| *k == key)
        .map(|(_, words, body)| (*words, *body))
}

pub fn template(key: &str) -> Option<&'static Template> {
    TEMPLATES.iter().find(|t| t.key == key)
}

pub fn template_of_kind(kind: &str) -> Option<&'static Template> {
    TEMPLATES.iter().find(|t| t.kind == kind)
}

/// What a phrase on a page refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A resource of this template.
    Resource(&'static str),
    /// A part of a resource of this template (a security group rule, a bucket's lifecycle rule):
    /// the resource must exist, the part is what the procedure makes or changes.
    PartOf(&'static str),
}

/// A phrase and what it refers to; `product` limits it to one product's pages (`None`: any).
#[derive(Debug)]
pub struct Noun {
    pub phrase: &'static str,
    pub product: Option<&'static str>,
    pub target: Target,
}

const fn noun(phrase: &'static str, product: Option<&'static str>, target: Target) -> Noun {
    Noun {
        phrase,
        product,
        target,
    }
}

use Target::{PartOf, Resource};

/// Phrases, longest first within a product, so that "security group rule" wins over
/// "security group" and "user group" over "user".
pub const NOUNS: &[Noun] = &[
    noun("security group rule", None, PartOf("security_group")),
    noun("security group", None, Resource("security_group")),
    noun("ecs instance", None, Resource("instance")),
    noun("rds instance", None, Resource("rds")),
    noun("clb instance", None, Resource("clb")),
    noun("slb instance", None, Resource("clb")),
    noun("alb instance", None, Resource("alb")),
    noun("application load balancer", None, Resource("alb")),
    noun("server group", Some("alb"), Resource("alb_server_group")),
    noun("listener", Some("alb"), PartOf("alb")),
    noun("instance", Some("alb"), Resource("alb")),
    noun("load balancer", None, Resource("clb")),
    noun("redis instance", None, Resource("tair")),
    noun("tair instance", None, Resource("tair")),
    noun("data disk", None, Resource("disk")),
    noun("elastic ip address", None, Resource("eip")),
    noun("eip", None, Resource("eip")),
    noun("vswitch", None, Resource("vswitch")),
    noun("vpc", None, Resource("vpc")),
    noun("oss bucket", None, Resource("bucket")),
    noun("bucket", None, Resource("bucket")),
    noun("lifecycle rule", Some("oss"), PartOf("bucket")),
    noun("directory", Some("oss"), PartOf("bucket")),
    noun("folder", Some("oss"), PartOf("bucket")),
    noun("acl", Some("oss"), PartOf("bucket")),
    noun("object", Some("oss"), Resource("object")),
    noun("file", Some("oss"), Resource("object")),
    // "Revoke permissions from a RAM role": the role holds a policy to revoke.
    noun("permissions from a ram role", None, Resource("ram_role_policy")),
    noun("permissions from a ram user", None, Resource("ram_user_policy")),
    // "Manage policy-based authorization": a policy that has a grant to view, revoke or add to.
    noun("policy-based authorization", Some("ram"), Resource("ram_policy_grant")),
    noun("authorization record", Some("ram"), Resource("ram_policy_grant")),
    noun("grants of a policy", Some("ram"), Resource("ram_policy_grant")),
    noun("accesskey pair", None, Resource("ram_access_key")),
    noun("accesskey", Some("ram"), Resource("ram_access_key")),
    noun("ram role", None, Resource("ram_role")),
    noun("policy", Some("ram"), Resource("ram_policy")),
    noun("role", Some("ram"), Resource("ram_role")),
    noun("user group", None, Resource("ram_group")),
    noun("ram user", None, Resource("ram_user")),
    noun("user", Some("ram"), Resource("ram_user")),
    noun("group", Some("ram"), Resource("ram_group")),
    // A KMS instance comes with a key of its own: what its secrets are encrypted with.
    noun("kms instance", None, Resource("kms_instance_key")),
    noun("instance id", Some("kms"), Resource("kms_instance_key")),
    noun("instance", Some("kms"), Resource("kms_instance_key")),
    noun("kms key", None, Resource("kms_key")),
    noun("cmk", None, Resource("kms_key")),
    noun("key", Some("kms"), Resource("kms_key")),
    noun("logstore", None, Resource("logstore")),
    noun("project", Some("sls"), Resource("log_project")),
    noun("index", Some("sls"), PartOf("logstore")),
    noun("a record", Some("dns"), Resource("record")),
    noun("dns record", None, Resource("record")),
    noun("record", Some("dns"), Resource("record")),
    noun("domain name", Some("dns"), Resource("domain")),
    noun("domain", Some("dns"), Resource("domain")),
    noun("contact group", Some("cms"), Resource("cms_group")),
    noun("alert rule", None, Resource("alarm")),
    noun("alarm rule", None, Resource("alarm")),
    noun("trail", None, Resource("trail")),
    noun("server certificate", Some("slb"), Resource("clb_certificate")),
    // Certificate Management Service's certificates, which CLB lists as Alibaba Cloud Certificates.
    noun("alibaba cloud certificate", Some("slb"), Resource("cas_certificate")),
    noun("ssl certificate", None, Resource("cas_certificate")),
    // CLB's one list named plainly "Certificate" is the Add Certificate panel's, of Certificate
    // Management Service's certificates (its listeners' lists are "Server Certificate", above).
    noun("certificate", Some("slb"), Resource("cas_certificate")),
    noun("listener", Some("slb"), PartOf("clb")),
    noun("whitelist", Some("tair"), PartOf("tair")),
    noun("whitelist", Some("rds"), PartOf("rds")),
    noun("disk", Some("ecs"), Resource("disk")),
    noun("snapshot", Some("ecs"), Resource("snapshot")),
    noun("instance", Some("ecs"), Resource("instance")),
    noun("instance", Some("rds"), Resource("rds")),
    noun("instance", Some("slb"), Resource("clb")),
    noun("instance", Some("tair"), Resource("tair")),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_is_a_type_the_emulator_creates_and_its_parents_come_first() {
        let supported = crate::supported_resource_types();
        for (i, t) in TEMPLATES.iter().enumerate() {
            assert!(supported.contains(&t.kind), "{} is not supported", t.kind);
            for parent in t.parents {
                let at = TEMPLATES.iter().position(|p| p.key == *parent);
                assert!(
                    at.is_some_and(|at| at < i),
                    "{}: parent {parent} must come first",
                    t.key
                );
            }
        }
        for n in NOUNS {
            let (Target::Resource(key) | Target::PartOf(key)) = n.target;
            assert!(template(key).is_some(), "{}: no template {key}", n.phrase);
        }
    }
}
