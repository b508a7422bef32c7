//! Virtual Private Cloud (API 2016-04-28): VPCs, vSwitches, EIPs, NAT gateways and SNAT entries.

use axum::http::StatusCode;
use rand::Rng;
use serde_json::{Value, json};

use crate::catalog::{OpCtx, Operation, Product, paginate};
use crate::clock::iso8601;
use crate::error::ApiError;
use crate::model::Resource;
use crate::params::Params;
use crate::products::ecs;
use crate::products::regions::{check_zone, cidr_contains, parse_cidr, region};

mod eips;
mod nat;
mod vpcs;
mod vswitches;

pub(crate) use self::eips::detach_eip;
pub use self::eips::eips_of;
use self::eips::*;
use self::nat::*;
use self::vpcs::*;
use self::vswitches::*;

pub static PRODUCT: Product = Product {
    code: "vpc",
    name: "Virtual Private Cloud",
    service_name: "Vpc",
    version: "2016-04-28",
    endpoint: "vpc.aliyuncs.com",
    console_agent: "vpc.console.aliyun.com",
    operations: &[
        Operation::write("CreateVpc", create_vpc),
        Operation::read("DescribeVpcs", describe_vpcs),
        Operation::write("ModifyVpcAttribute", modify_vpc_attribute),
        Operation::write("DeleteVpc", delete_vpc),
        Operation::write("CreateVSwitch", create_vswitch),
        Operation::read("DescribeVSwitches", describe_vswitches),
        Operation::write("DeleteVSwitch", delete_vswitch),
        Operation::write("AllocateEipAddress", allocate_eip_address),
        Operation::read("DescribeEipAddresses", describe_eip_addresses),
        Operation::write("AssociateEipAddress", associate_eip_address),
        Operation::write("UnassociateEipAddress", unassociate_eip_address),
        Operation::write("ReleaseEipAddress", release_eip_address),
        Operation::write("CreateNatGateway", create_nat_gateway),
        Operation::read("DescribeNatGateways", describe_nat_gateways),
        Operation::write("DeleteNatGateway", delete_nat_gateway),
        Operation::write("CreateSnatEntry", create_snat_entry),
        Operation::read("DescribeSnatTableEntries", describe_snat_table_entries),
        Operation::write("DeleteSnatEntry", delete_snat_entry),
    ],
};

pub const VPC: &str = "vpc.vpc";
pub const VSWITCH: &str = "vpc.vswitch";
pub const EIP: &str = "vpc.eip";
pub const NAT_GATEWAY: &str = "vpc.natgateway";
pub const SNAT_ENTRY: &str = "vpc.snatentry";
const VPC_TYPE: &str = "ACS::VPC::VPC";
const VSWITCH_TYPE: &str = "ACS::VPC::VSwitch";
const EIP_TYPE: &str = "ACS::VPC::EIP";
const NAT_GATEWAY_TYPE: &str = "ACS::VPC::NatGateway";
const SNAT_ENTRY_TYPE: &str = "ACS::VPC::SnatEntry";

/// Resource kinds that live in a vSwitch (their `VSwitchId` attribute) and block its deletion.
const VSWITCH_TENANTS: &[&str] = &[
    ecs::INSTANCE,
    "rds.instance",
    "slb.loadbalancer",
    NAT_GATEWAY,
    "kvstore.instance",
];
/// Resource kinds that hold a private address of their vSwitch (their `PrivateIpAddress` attribute).
const PRIVATE_IP_HOLDERS: &[&str] = &[ecs::INSTANCE, NAT_GATEWAY];

/// Names as the VPC console enforces them: 1–128 characters, starting with a letter, no `http://`.
pub fn check_name(param: &str, name: &str) -> Result<(), ApiError> {
    let starts_ok = name.chars().next().is_some_and(|c| c.is_alphabetic());
    if name.is_empty() {
        return Ok(());
    }
    if !starts_ok || name.chars().count() > 128 || name.starts_with("http://") || name.starts_with("https://") {
        return Err(ApiError::invalid_parameter(
            param,
            "the name must be 1 to 128 characters long, start with a letter and not start with http:// or https://",
        ));
    }
    Ok(())
}

/// A resource of the given kind in the request's region, or the real API's not-found error.
pub(crate) fn find_in_region(ctx: &OpCtx<'_>, kind: &str, id: &str, what: &str) -> Result<Resource, ApiError> {
    ctx.get(id)
        .filter(|r| r.kind == kind && r.region == ctx.region)
        .ok_or_else(|| ApiError::not_found(what, id))
}

// Addresses shared with ECS: the private addresses of a vSwitch and the public addresses of an account.

/// The private addresses already taken in a vSwitch.
pub fn used_private_ips(ctx: &OpCtx<'_>, vswitch_id: &str) -> Vec<String> {
    PRIVATE_IP_HOLDERS
        .iter()
        .flat_map(|kind| ctx.list_all(kind))
        .filter(|r| r.attr_str("VSwitchId") == vswitch_id)
        .map(|r| r.attr_str("PrivateIpAddress").to_owned())
        .filter(|ip| !ip.is_empty())
        .collect()
}

/// The lowest free private address of a vSwitch. The first address of the block and the last three
/// are reserved, as on the real cloud.
pub fn allocate_private_ip(ctx: &OpCtx<'_>, vswitch: &Resource) -> Result<String, ApiError> {
    let (address, prefix) = parse_cidr("CidrBlock", vswitch.attr_str("CidrBlock"))?;
    let mask = if prefix == 0 {
        0
    } else {
        u32::MAX << (32 - u32::from(prefix))
    };
    let network = address & mask;
    let size = 1u64 << (32 - u32::from(prefix));
    let used = used_private_ips(ctx, &vswitch.id);
    (1..size.saturating_sub(3))
        .map(|offset| std::net::Ipv4Addr::from(network.wrapping_add(offset as u32)).to_string())
        .find(|ip| !used.contains(ip))
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "QuotaExceeded.PrivateIpAddress",
                "Don't have enough private IPs in this switch",
            )
        })
}

/// A public address that no EIP or instance of the account holds, from 47.96.0.0/11 (an Alibaba Cloud block).
pub fn allocate_public_ip(ctx: &OpCtx<'_>) -> String {
    let mut taken: Vec<String> = ctx
        .list_all(EIP)
        .iter()
        .map(|e| e.attr_str("IpAddress").to_owned())
        .collect();
    taken.extend(
        ctx.list_all(ecs::INSTANCE)
            .iter()
            .map(|i| i.attr_str("PublicIpAddress").to_owned()),
    );
    let mut rng = rand::rng();
    loop {
        let ip = format!(
            "47.{}.{}.{}",
            rng.random_range(96..=127u8),
            rng.random_range(0..=255u8),
            rng.random_range(1..=254u8)
        );
        if !taken.contains(&ip) {
            return ip;
        }
    }
}

#[cfg(test)]
mod tests;
