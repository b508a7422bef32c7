//! ECS resources: `alicloud_security_group`, `alicloud_security_group_rule`, `alicloud_instance`,
//! `alicloud_ecs_disk` (and `alicloud_disk`) and `alicloud_ecs_key_pair` (and `alicloud_key_pair`).

use std::collections::BTreeMap;

use serde_json::Value;

use super::{
    Arg, Attrs, Cx, Fut, IdFrom, Ready, ResourceType, RpcType, Settle, Source, TAGS, arg, list, local, required, scalar,
};
use crate::emulator::client::CallError;

pub static TYPES: &[&RpcType] = &[
    &SECURITY_GROUP,
    &INSTANCE,
    &ECS_DISK,
    &DISK,
    &ECS_KEY_PAIR,
    &KEY_PAIR,
    &ECS_SNAPSHOT,
    &SNAPSHOT,
];

pub static CUSTOM: &[&dyn ResourceType] = &[&SecurityGroupRule];

const SG_ARGS: &[Arg] = &[
    required("vpc_id", "VpcId"),
    arg("security_group_name", "SecurityGroupName"),
    arg("name", "SecurityGroupName"),
    arg("security_group_type", "SecurityGroupType"),
    arg("description", "Description"),
    arg("inner_access_policy", "InnerAccessPolicy"),
    arg("resource_group_id", "ResourceGroupId"),
    TAGS,
];

pub static SECURITY_GROUP: RpcType = RpcType {
    name: "alicloud_security_group",
    code: "ecs",
    product: "ECS",
    args: SG_ARGS,
    name_arguments: &["security_group_name", "name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "CreateSecurityGroup",
    id: IdFrom::Response("/SecurityGroupId"),
    read: "DescribeSecurityGroups",
    read_params: &[("SecurityGroupId", Source::Id)],
    item_at: "/SecurityGroups/SecurityGroup",
    match_field: Some("SecurityGroupId"),
    attributes: &[
        ("security_group_name", "/SecurityGroupName"),
        ("vpc_id", "/VpcId"),
        ("security_group_type", "/SecurityGroupType"),
        ("description", "/Description"),
        ("resource_group_id", "/ResourceGroupId"),
    ],
    gone_when: None,
    ready: None,
    settle: &[],
    delete: "DeleteSecurityGroup",
    delete_params: &[("SecurityGroupId", Source::Id)],
    purge: None,
};

const INSTANCE_ARGS: &[Arg] = &[
    required("image_id", "ImageId"),
    required("instance_type", "InstanceType"),
    required("vswitch_id", "VSwitchId"),
    list("security_groups", "SecurityGroupIds"),
    arg("availability_zone", "ZoneId"),
    arg("zone_id", "ZoneId"),
    arg("instance_name", "InstanceName"),
    arg("host_name", "HostName"),
    arg("description", "Description"),
    arg("instance_charge_type", "InstanceChargeType"),
    arg("period", "Period"),
    arg("period_unit", "PeriodUnit"),
    arg("internet_charge_type", "InternetChargeType"),
    arg("internet_max_bandwidth_out", "InternetMaxBandwidthOut"),
    arg("internet_max_bandwidth_in", "InternetMaxBandwidthIn"),
    arg("system_disk_category", "SystemDisk.Category"),
    arg("system_disk_size", "SystemDisk.Size"),
    arg("password", "Password"),
    arg("key_name", "KeyPairName"),
    arg("deletion_protection", "DeletionProtection"),
    arg("resource_group_id", "ResourceGroupId"),
    arg("private_ip", "PrivateIpAddress"),
    local("status"),
    local("force_delete"),
    TAGS,
];

pub static INSTANCE: RpcType = RpcType {
    name: "alicloud_instance",
    code: "ecs",
    product: "ECS",
    args: INSTANCE_ARGS,
    name_arguments: &["instance_name", "host_name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "RunInstances",
    id: IdFrom::Response("/InstanceIdSets/InstanceIdSet/0"),
    read: "DescribeInstances",
    read_params: &[("InstanceIds", Source::IdList)],
    item_at: "/Instances/Instance",
    match_field: Some("InstanceId"),
    attributes: &[
        ("instance_name", "/InstanceName"),
        ("host_name", "/HostName"),
        ("description", "/Description"),
        ("image_id", "/ImageId"),
        ("instance_type", "/InstanceType"),
        ("availability_zone", "/ZoneId"),
        ("zone_id", "/ZoneId"),
        ("status", "/Status"),
        ("vswitch_id", "/VpcAttributes/VSwitchId"),
        ("vpc_id", "/VpcAttributes/VpcId"),
        ("private_ip", "/VpcAttributes/PrivateIpAddress/IpAddress/0"),
        ("public_ip", "/PublicIpAddress/IpAddress/0"),
        ("security_groups", "/SecurityGroupIds/SecurityGroupId"),
        ("instance_charge_type", "/InstanceChargeType"),
        ("internet_charge_type", "/InternetChargeType"),
        ("internet_max_bandwidth_out", "/InternetMaxBandwidthOut"),
        ("key_name", "/KeyPairName"),
        ("deletion_protection", "/DeletionProtection"),
        ("os_type", "/OSType"),
        ("os_name", "/OSName"),
        ("cpu", "/Cpu"),
        ("memory", "/Memory"),
        ("resource_group_id", "/ResourceGroupId"),
    ],
    gone_when: None,
    ready: Some(Ready {
        attribute: "status",
        states: &["Running"],
    }),
    settle: &[Settle {
        argument: "status",
        value: "Stopped",
        action: "StopInstance",
        params: &[("InstanceId", Source::Id)],
        ready: Some(Ready {
            attribute: "status",
            states: &["Stopped"],
        }),
    }],
    delete: "DeleteInstance",
    delete_params: &[("InstanceId", Source::Id), ("Force", Source::Const("true"))],
    purge: None,
};

const DISK_ARGS: &[Arg] = &[
    arg("zone_id", "ZoneId"),
    arg("availability_zone", "ZoneId"),
    arg("disk_name", "DiskName"),
    arg("name", "DiskName"),
    arg("category", "DiskCategory"),
    arg("size", "Size"),
    arg("performance_level", "PerformanceLevel"),
    arg("encrypted", "Encrypted"),
    arg("snapshot_id", "SnapshotId"),
    arg("instance_id", "InstanceId"),
    arg("description", "Description"),
    arg("resource_group_id", "ResourceGroupId"),
    TAGS,
];

pub static ECS_DISK: RpcType = RpcType {
    name: "alicloud_ecs_disk",
    code: "ecs",
    product: "ECS",
    args: DISK_ARGS,
    name_arguments: &["disk_name", "name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "CreateDisk",
    id: IdFrom::Response("/DiskId"),
    read: "DescribeDisks",
    read_params: &[("DiskIds", Source::IdList)],
    item_at: "/Disks/Disk",
    match_field: Some("DiskId"),
    attributes: &[
        ("disk_name", "/DiskName"),
        ("zone_id", "/ZoneId"),
        ("availability_zone", "/ZoneId"),
        ("category", "/Category"),
        ("size", "/Size"),
        ("status", "/Status"),
        ("instance_id", "/InstanceId"),
        ("description", "/Description"),
    ],
    gone_when: None,
    ready: Some(Ready {
        attribute: "status",
        states: &["Available", "In_use"],
    }),
    settle: &[],
    delete: "DeleteDisk",
    delete_params: &[("DiskId", Source::Id)],
    purge: None,
};

/// The provider's older name for [`ECS_DISK`].
pub static DISK: RpcType = RpcType {
    name: "alicloud_disk",
    ..ECS_DISK
};

const KEY_PAIR_ARGS: &[Arg] = &[
    arg("key_pair_name", "KeyPairName"),
    arg("key_name", "KeyPairName"),
    arg("public_key", "PublicKeyBody"),
    arg("resource_group_id", "ResourceGroupId"),
    TAGS,
];

pub static ECS_KEY_PAIR: RpcType = RpcType {
    name: "alicloud_ecs_key_pair",
    code: "ecs",
    product: "ECS",
    args: KEY_PAIR_ARGS,
    name_arguments: &["key_pair_name", "key_name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "CreateKeyPair",
    id: IdFrom::Response("/KeyPairName"),
    read: "DescribeKeyPairs",
    read_params: &[("KeyPairName", Source::Id)],
    item_at: "/KeyPairs/KeyPair",
    match_field: Some("KeyPairName"),
    attributes: &[
        ("key_pair_name", "/KeyPairName"),
        ("finger_print", "/KeyPairFingerPrint"),
    ],
    gone_when: None,
    ready: None,
    settle: &[],
    delete: "DeleteKeyPairs",
    delete_params: &[("KeyPairNames", Source::IdList)],
    purge: None,
};

/// The provider's older name for [`ECS_KEY_PAIR`].
pub static KEY_PAIR: RpcType = RpcType {
    name: "alicloud_key_pair",
    ..ECS_KEY_PAIR
};

const SNAPSHOT_ARGS: &[Arg] = &[
    required("disk_id", "DiskId"),
    arg("snapshot_name", "SnapshotName"),
    arg("name", "SnapshotName"),
    arg("description", "Description"),
    arg("retention_days", "RetentionDays"),
    arg("category", "Category"),
    arg("instant_access", "InstantAccess"),
    arg("resource_group_id", "ResourceGroupId"),
    local("force"),
    TAGS,
];

pub static ECS_SNAPSHOT: RpcType = RpcType {
    name: "alicloud_ecs_snapshot",
    code: "ecs",
    product: "ECS",
    args: SNAPSHOT_ARGS,
    name_arguments: &["snapshot_name", "name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "CreateSnapshot",
    id: IdFrom::Response("/SnapshotId"),
    read: "DescribeSnapshots",
    read_params: &[("SnapshotIds", Source::IdList)],
    item_at: "/Snapshots/Snapshot",
    match_field: Some("SnapshotId"),
    attributes: &[
        ("snapshot_name", "/SnapshotName"),
        ("description", "/Description"),
        ("disk_id", "/SourceDiskId"),
        ("status", "/Status"),
        ("retention_days", "/RetentionDays"),
    ],
    gone_when: None,
    ready: Some(Ready {
        attribute: "status",
        states: &["accomplished"],
    }),
    settle: &[],
    delete: "DeleteSnapshot",
    delete_params: &[("SnapshotId", Source::Id), ("Force", Source::Const("true"))],
    purge: None,
};

/// The provider's older name for [`ECS_SNAPSHOT`].
pub static SNAPSHOT: RpcType = RpcType {
    name: "alicloud_snapshot",
    ..ECS_SNAPSHOT
};

/// `alicloud_security_group_rule`: one rule of a security group (`AuthorizeSecurityGroup` /
/// `AuthorizeSecurityGroupEgress`), id `sg:direction:protocol:ports:cidr:policy` as the provider
/// builds it.
#[derive(Debug)]
pub struct SecurityGroupRule;

const RULE_ARGS: &[Arg] = &[
    required("security_group_id", ""),
    required("type", ""),
    required("ip_protocol", "IpProtocol"),
    arg("port_range", "PortRange"),
    arg("cidr_ip", ""),
    arg("source_security_group_id", ""),
    arg("policy", "Policy"),
    arg("priority", "Priority"),
    arg("nic_type", "NicType"),
    arg("description", "Description"),
];

fn ecs_version() -> Result<&'static str, CallError> {
    aca_console::products::by_code("ecs")
        .map(|p| p.version)
        .ok_or_else(|| CallError::Protocol {
            action: "AuthorizeSecurityGroup".into(),
            message: "the emulator serves no ecs product".into(),
        })
}

/// The rule's API parameters and its direction (`ingress` / `egress`).
fn rule_params(args: &Attrs) -> (BTreeMap<String, String>, bool) {
    let text = |name: &str| args.get(name).and_then(scalar);
    let ingress = text("type").as_deref() != Some("egress");
    let mut params = BTreeMap::new();
    if let Some(sg) = text("security_group_id") {
        params.insert("SecurityGroupId".to_owned(), sg);
    }
    let protocol = text("ip_protocol").unwrap_or_else(|| "all".into());
    let ports = text("port_range").unwrap_or_else(|| "-1/-1".into());
    params.insert("IpProtocol".to_owned(), protocol);
    params.insert("PortRange".to_owned(), ports);
    let (cidr_param, group_param) = if ingress {
        ("SourceCidrIp", "SourceGroupId")
    } else {
        ("DestCidrIp", "DestGroupId")
    };
    if let Some(cidr) = text("cidr_ip") {
        params.insert(cidr_param.to_owned(), cidr);
    }
    if let Some(group) = text("source_security_group_id") {
        params.insert(group_param.to_owned(), group);
    }
    for (name, param) in [
        ("policy", "Policy"),
        ("priority", "Priority"),
        ("nic_type", "NicType"),
        ("description", "Description"),
    ] {
        if let Some(value) = text(name) {
            params.insert(param.to_owned(), value);
        }
    }
    (params, ingress)
}

impl ResourceType for SecurityGroupRule {
    fn name(&self) -> &'static str {
        "alicloud_security_group_rule"
    }

    fn product(&self) -> &'static str {
        "ECS"
    }

    fn operation(&self) -> &'static str {
        "AuthorizeSecurityGroup"
    }

    fn arguments(&self) -> &'static [Arg] {
        RULE_ARGS
    }

    fn name_arguments(&self) -> &'static [&'static str] {
        &[]
    }

    fn computed(&self) -> Vec<&'static str> {
        vec!["security_group_rule_id"]
    }

    fn ready(&self, _args: &Attrs) -> Option<(String, Vec<String>)> {
        None
    }

    fn create<'a>(&'a self, cx: Cx<'a>, args: &'a Attrs) -> Fut<'a, String> {
        Box::pin(async move {
            let (params, ingress) = rule_params(args);
            let action = if ingress {
                "AuthorizeSecurityGroup"
            } else {
                "AuthorizeSecurityGroupEgress"
            };
            cx.client.rpc(ecs_version()?, action, cx.region, &params).await?;
            let part = |k: &str| params.get(k).cloned().unwrap_or_default();
            let peer = if ingress {
                format!("{}{}", part("SourceCidrIp"), part("SourceGroupId"))
            } else {
                format!("{}{}", part("DestCidrIp"), part("DestGroupId"))
            };
            Ok(format!(
                "{}:{}:{}:{}:{peer}:{}",
                part("SecurityGroupId"),
                if ingress { "ingress" } else { "egress" },
                part("IpProtocol"),
                part("PortRange"),
                params.get("Policy").map_or("accept", String::as_str)
            ))
        })
    }

    fn read<'a>(&'a self, cx: Cx<'a>, _id: &'a str, attrs: &'a Attrs) -> Fut<'a, Option<Attrs>> {
        Box::pin(async move {
            let (params, ingress) = rule_params(attrs);
            let mut query = BTreeMap::new();
            query.insert(
                "SecurityGroupId".to_owned(),
                params.get("SecurityGroupId").cloned().unwrap_or_default(),
            );
            let body = match cx
                .client
                .rpc(ecs_version()?, "DescribeSecurityGroupAttribute", cx.region, &query)
                .await
            {
                Ok(body) => body,
                Err(CallError::Api(e)) if e.is_not_found() => return Ok(None),
                Err(e) => return Err(e),
            };
            let direction = if ingress { "ingress" } else { "egress" };
            let wanted_protocol = params.get("IpProtocol").map(|p| p.to_ascii_lowercase());
            let rules = body
                .pointer("/Permissions/Permission")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let found = rules.into_iter().find(|rule| {
                let field = |k: &str| rule.get(k).and_then(scalar).unwrap_or_default();
                let peer_matches = if ingress {
                    params.get("SourceCidrIp").is_none_or(|c| &field("SourceCidrIp") == c)
                        && params.get("SourceGroupId").is_none_or(|g| &field("SourceGroupId") == g)
                } else {
                    params.get("DestCidrIp").is_none_or(|c| &field("DestCidrIp") == c)
                        && params.get("DestGroupId").is_none_or(|g| &field("DestGroupId") == g)
                };
                field("Direction") == direction
                    && Some(field("IpProtocol").to_ascii_lowercase()) == wanted_protocol
                    && params.get("PortRange").is_none_or(|p| &field("PortRange") == p)
                    && peer_matches
            });
            Ok(found.map(|rule| {
                let mut out = Attrs::new();
                let field = |k: &str| rule.get(k).cloned().unwrap_or(Value::Null);
                out.insert("security_group_rule_id".into(), field("SecurityGroupRuleId"));
                out.insert("ip_protocol".into(), field("IpProtocol"));
                out.insert("port_range".into(), field("PortRange"));
                out.insert(
                    "policy".into(),
                    Value::String(scalar(&field("Policy")).unwrap_or_default().to_ascii_lowercase()),
                );
                out.insert("priority".into(), field("Priority"));
                out.insert("description".into(), field("Description"));
                out
            }))
        })
    }

    fn delete<'a>(&'a self, cx: Cx<'a>, _id: &'a str, attrs: &'a Attrs) -> Fut<'a, ()> {
        Box::pin(async move {
            let (params, ingress) = rule_params(attrs);
            let action = if ingress {
                "RevokeSecurityGroup"
            } else {
                "RevokeSecurityGroupEgress"
            };
            cx.client.rpc(ecs_version()?, action, cx.region, &params).await?;
            Ok(())
        })
    }
}
