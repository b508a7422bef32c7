//! Application Load Balancer: `alicloud_alb_load_balancer` (an instance in two or more zones of a
//! VPC) and `alicloud_alb_server_group`, with the provider's argument names and nested blocks.

use super::{
    Arg, BlockField, IdFrom, Ready, RpcType, Source, TAGS, arg, block, block_field, block_mapped, blocks, local,
    required,
};

pub static TYPES: &[&RpcType] = &[&ALB_LOAD_BALANCER, &ALB_SERVER_GROUP];

/// The provider's `pay_type` and the API's `PayType`: ALB instances are pay-as-you-go.
const PAY_TYPES: &[(&str, &str)] = &[("PayAsYouGo", "PostPay")];

const ZONE_MAPPING: &[BlockField] = &[
    block_field("zone_id", "ZoneId"),
    block_field("vswitch_id", "VSwitchId"),
    block_field("allocation_id", "AllocationId"),
    block_field("intranet_address", "IntranetAddress"),
];

const BILLING: &[BlockField] = &[block_mapped("pay_type", "PayType", PAY_TYPES)];

const LOAD_BALANCER_ARGS: &[Arg] = &[
    arg("load_balancer_name", "LoadBalancerName"),
    required("vpc_id", "VpcId"),
    required("address_type", "AddressType"),
    required("load_balancer_edition", "LoadBalancerEdition"),
    Arg {
        required: true,
        ..block("load_balancer_billing_config", "LoadBalancerBillingConfig", BILLING)
    },
    Arg {
        required: true,
        ..blocks("zone_mappings", "ZoneMappings", ZONE_MAPPING)
    },
    arg("address_allocated_mode", "AddressAllocatedMode"),
    arg("address_ip_version", "AddressIpVersion"),
    arg("resource_group_id", "ResourceGroupId"),
    local("deletion_protection_enabled"),
    local("dry_run"),
    TAGS,
];

pub static ALB_LOAD_BALANCER: RpcType = RpcType {
    name: "alicloud_alb_load_balancer",
    code: "alb",
    product: "ALB",
    args: LOAD_BALANCER_ARGS,
    name_arguments: &["load_balancer_name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "CreateLoadBalancer",
    id: IdFrom::Response("/LoadBalancerId"),
    read: "GetLoadBalancerAttribute",
    read_params: &[("LoadBalancerId", Source::Id)],
    item_at: "",
    match_field: None,
    attributes: &[
        ("load_balancer_name", "/LoadBalancerName"),
        ("vpc_id", "/VpcId"),
        ("address_type", "/AddressType"),
        ("address_ip_version", "/AddressIpVersion"),
        ("load_balancer_edition", "/LoadBalancerEdition"),
        ("dns_name", "/DNSName"),
        ("resource_group_id", "/ResourceGroupId"),
        ("create_time", "/CreateTime"),
        ("status", "/LoadBalancerStatus"),
    ],
    gone_when: None,
    ready: Some(Ready {
        attribute: "status",
        states: &["Active"],
    }),
    settle: &[],
    delete: "DeleteLoadBalancer",
    delete_params: &[("LoadBalancerId", Source::Id)],
    purge: None,
};

const HEALTH_CHECK: &[BlockField] = &[
    block_field("health_check_enabled", "HealthCheckEnabled"),
    block_field("health_check_protocol", "HealthCheckProtocol"),
    block_field("health_check_path", "HealthCheckPath"),
    block_field("health_check_method", "HealthCheckMethod"),
    block_field("health_check_codes", "HealthCheckCodes"),
    block_field("health_check_connect_port", "HealthCheckConnectPort"),
    block_field("health_check_interval", "HealthCheckInterval"),
    block_field("health_check_timeout", "HealthCheckTimeout"),
    block_field("healthy_threshold", "HealthyThreshold"),
    block_field("unhealthy_threshold", "UnhealthyThreshold"),
];

const STICKY_SESSION: &[BlockField] = &[
    block_field("sticky_session_enabled", "StickySessionEnabled"),
    block_field("sticky_session_type", "StickySessionType"),
    block_field("cookie_timeout", "CookieTimeout"),
    block_field("cookie", "Cookie"),
];

const SERVER_GROUP_ARGS: &[Arg] = &[
    required("server_group_name", "ServerGroupName"),
    arg("server_group_type", "ServerGroupType"),
    arg("vpc_id", "VpcId"),
    arg("protocol", "Protocol"),
    arg("scheduler", "Scheduler"),
    arg("resource_group_id", "ResourceGroupId"),
    Arg {
        required: true,
        ..block("health_check_config", "HealthCheckConfig", HEALTH_CHECK)
    },
    block("sticky_session_config", "StickySessionConfig", STICKY_SESSION),
    local("dry_run"),
    TAGS,
];

pub static ALB_SERVER_GROUP: RpcType = RpcType {
    name: "alicloud_alb_server_group",
    code: "alb",
    product: "ALB",
    args: SERVER_GROUP_ARGS,
    name_arguments: &["server_group_name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "CreateServerGroup",
    id: IdFrom::Response("/ServerGroupId"),
    read: "ListServerGroups",
    read_params: &[("ServerGroupIds.1", Source::Id)],
    item_at: "/ServerGroups",
    match_field: Some("ServerGroupId"),
    attributes: &[
        ("server_group_name", "/ServerGroupName"),
        ("server_group_type", "/ServerGroupType"),
        ("vpc_id", "/VpcId"),
        ("protocol", "/Protocol"),
        ("scheduler", "/Scheduler"),
        ("resource_group_id", "/ResourceGroupId"),
        ("status", "/ServerGroupStatus"),
    ],
    gone_when: None,
    ready: Some(Ready {
        attribute: "status",
        states: &["Available"],
    }),
    settle: &[],
    delete: "DeleteServerGroup",
    delete_params: &[("ServerGroupId", Source::Id)],
    purge: None,
};
