//! VPC resources: `alicloud_vpc`, `alicloud_vswitch`, `alicloud_eip_address` (and its older name
//! `alicloud_eip`) and `alicloud_nat_gateway`.

use super::{Arg, IdFrom, Ready, RpcType, Source, TAGS, arg, local, required};

const AVAILABLE: Option<Ready> = Some(Ready {
    attribute: "status",
    states: &["Available"],
});

pub static TYPES: &[&RpcType] = &[&VPC, &VSWITCH, &EIP_ADDRESS, &EIP, &NAT_GATEWAY];

const VPC_ARGS: &[Arg] = &[
    arg("vpc_name", "VpcName"),
    arg("name", "VpcName"),
    arg("cidr_block", "CidrBlock"),
    arg("description", "Description"),
    arg("resource_group_id", "ResourceGroupId"),
    TAGS,
];

pub static VPC: RpcType = RpcType {
    name: "alicloud_vpc",
    code: "vpc",
    product: "VPC",
    args: VPC_ARGS,
    name_arguments: &["vpc_name", "name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "CreateVpc",
    id: IdFrom::Response("/VpcId"),
    read: "DescribeVpcs",
    read_params: &[("VpcId", Source::Id)],
    item_at: "/Vpcs/Vpc",
    match_field: Some("VpcId"),
    attributes: &[
        ("vpc_name", "/VpcName"),
        ("cidr_block", "/CidrBlock"),
        ("description", "/Description"),
        ("status", "/Status"),
        ("router_id", "/VRouterId"),
        ("resource_group_id", "/ResourceGroupId"),
    ],
    gone_when: None,
    ready: AVAILABLE,
    settle: &[],
    delete: "DeleteVpc",
    delete_params: &[("VpcId", Source::Id)],
    purge: None,
};

const VSWITCH_ARGS: &[Arg] = &[
    required("vpc_id", "VpcId"),
    required("cidr_block", "CidrBlock"),
    arg("zone_id", "ZoneId"),
    arg("availability_zone", "ZoneId"),
    arg("vswitch_name", "VSwitchName"),
    arg("name", "VSwitchName"),
    arg("description", "Description"),
    TAGS,
];

pub static VSWITCH: RpcType = RpcType {
    name: "alicloud_vswitch",
    code: "vpc",
    product: "VPC",
    args: VSWITCH_ARGS,
    name_arguments: &["vswitch_name", "name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "CreateVSwitch",
    id: IdFrom::Response("/VSwitchId"),
    read: "DescribeVSwitches",
    read_params: &[("VSwitchId", Source::Id)],
    item_at: "/VSwitches/VSwitch",
    match_field: Some("VSwitchId"),
    attributes: &[
        ("vswitch_name", "/VSwitchName"),
        ("vpc_id", "/VpcId"),
        ("cidr_block", "/CidrBlock"),
        ("zone_id", "/ZoneId"),
        ("availability_zone", "/ZoneId"),
        ("description", "/Description"),
        ("status", "/Status"),
    ],
    gone_when: None,
    ready: AVAILABLE,
    settle: &[],
    delete: "DeleteVSwitch",
    delete_params: &[("VSwitchId", Source::Id)],
    purge: None,
};

const EIP_ARGS: &[Arg] = &[
    arg("address_name", "Name"),
    arg("name", "Name"),
    arg("bandwidth", "Bandwidth"),
    arg("internet_charge_type", "InternetChargeType"),
    arg("isp", "ISP"),
    arg("payment_type", "InstanceChargeType"),
    arg("description", "Description"),
    arg("resource_group_id", "ResourceGroupId"),
    TAGS,
];

const EIP_ATTRIBUTES: &[(&str, &str)] = &[
    ("address_name", "/Name"),
    ("ip_address", "/IpAddress"),
    ("bandwidth", "/Bandwidth"),
    ("internet_charge_type", "/InternetChargeType"),
    ("status", "/Status"),
    ("description", "/Description"),
];

pub static EIP_ADDRESS: RpcType = RpcType {
    name: "alicloud_eip_address",
    code: "vpc",
    product: "Elastic IP Address",
    args: EIP_ARGS,
    name_arguments: &["address_name", "name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "AllocateEipAddress",
    id: IdFrom::Response("/AllocationId"),
    read: "DescribeEipAddresses",
    read_params: &[("AllocationId", Source::Id)],
    item_at: "/EipAddresses/EipAddress",
    match_field: Some("AllocationId"),
    attributes: EIP_ATTRIBUTES,
    gone_when: None,
    ready: AVAILABLE,
    settle: &[],
    delete: "ReleaseEipAddress",
    delete_params: &[("AllocationId", Source::Id)],
    purge: None,
};

/// The provider's older name for [`EIP_ADDRESS`].
pub static EIP: RpcType = RpcType {
    name: "alicloud_eip",
    ..EIP_ADDRESS
};

const NAT_ARGS: &[Arg] = &[
    required("vpc_id", "VpcId"),
    arg("vswitch_id", "VSwitchId"),
    arg("nat_gateway_name", "Name"),
    arg("name", "Name"),
    arg("nat_type", "NatType"),
    arg("payment_type", "InstanceChargeType"),
    arg("internet_charge_type", "InternetChargeType"),
    arg("description", "Description"),
    arg("deletion_protection", "DeletionProtection"),
    local("force"),
    TAGS,
];

pub static NAT_GATEWAY: RpcType = RpcType {
    name: "alicloud_nat_gateway",
    code: "vpc",
    product: "NAT Gateway",
    args: NAT_ARGS,
    name_arguments: &["nat_gateway_name", "name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "CreateNatGateway",
    id: IdFrom::Response("/NatGatewayId"),
    read: "DescribeNatGateways",
    read_params: &[("NatGatewayId", Source::Id)],
    item_at: "/NatGateways/NatGateway",
    match_field: Some("NatGatewayId"),
    attributes: &[
        ("nat_gateway_name", "/Name"),
        ("vpc_id", "/VpcId"),
        ("vswitch_id", "/NatGatewayPrivateInfo/VswitchId"),
        ("nat_type", "/NatType"),
        ("status", "/Status"),
        ("snat_table_ids", "/SnatTableIds/SnatTableId/0"),
        ("description", "/Description"),
    ],
    gone_when: None,
    ready: AVAILABLE,
    settle: &[],
    delete: "DeleteNatGateway",
    delete_params: &[("NatGatewayId", Source::Id), ("Force", Source::Const("true"))],
    purge: None,
};
