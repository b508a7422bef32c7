//! The account's ECS quotas in a region: the pay-as-you-go vCPUs `RunInstances` and `CreateInstance`
//! may still allocate, the security groups `CreateSecurityGroup` may still create, and
//! `DescribeAccountAttributes`, which reports both with what is used.

use axum::http::StatusCode;
use serde_json::{Value, json};

use super::{INSTANCE, SECURITY_GROUP};
use crate::catalog::OpCtx;
use crate::error::ApiError;
use crate::params::Params;
use crate::products::regions::region;

/// The attributes this emulator reports; others are refused by name.
const ATTRIBUTES: &[&str] = &[
    "max-security-groups",
    "max-postpaid-instance-vcpu-count",
    "used-postpaid-instance-vcpu-count",
];

/// The vCPUs of the region's pay-as-you-go instances.
fn used_postpaid_vcpus(ctx: &OpCtx<'_>) -> i64 {
    ctx.list(INSTANCE)
        .iter()
        .filter(|i| i.attr_str("InstanceChargeType") == "PostPaid")
        .filter_map(|i| i.attr_i64("Cpu"))
        .sum()
}

/// Refuses a pay-as-you-go instance of `cpus` vCPUs that the region's quota no longer holds.
pub(super) fn allocate_postpaid_vcpus(ctx: &OpCtx<'_>, charge_type: &str, cpus: i64) -> Result<(), ApiError> {
    if charge_type == "PostPaid" && used_postpaid_vcpus(ctx) + cpus > ctx.config.ecs_quotas.postpaid_vcpus {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "QuotaExceed.ElasticQuota",
            "No additional quota is available for the specified ECS instance type.",
        ));
    }
    Ok(())
}

/// Refuses a security group beyond the region's quota.
pub(super) fn allocate_security_group(ctx: &OpCtx<'_>) -> Result<(), ApiError> {
    if ctx.list(SECURITY_GROUP).len() as i64 >= ctx.config.ecs_quotas.security_groups {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "QuotaExceed.SecurityGroup",
            "The maximum number of security groups is reached.",
        ));
    }
    Ok(())
}

pub(super) fn describe_account_attributes(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let asked = p.list("AttributeName")?;
    if asked.len() > 8 {
        return Err(ApiError::invalid_parameter(
            "AttributeName",
            "at most 8 attributes may be asked for",
        ));
    }
    if let Some(unknown) = asked.iter().find(|a| !ATTRIBUTES.contains(&a.as_str())) {
        return Err(ApiError::invalid_parameter(
            "AttributeName",
            format!("{unknown} is not an attribute of {}", ATTRIBUTES.join(", ")),
        ));
    }
    let quotas = &ctx.config.ecs_quotas;
    let items: Vec<Value> = ATTRIBUTES
        .iter()
        .filter(|a| asked.is_empty() || asked.iter().any(|x| x == *a))
        .map(|&name| {
            let value = match name {
                "max-security-groups" => quotas.security_groups,
                "max-postpaid-instance-vcpu-count" => quotas.postpaid_vcpus,
                _ => used_postpaid_vcpus(ctx),
            };
            json!({
                "AttributeName": name,
                "AttributeValues": { "ValueItem": [{ "Value": value.to_string(), "Count": 1 }] },
            })
        })
        .collect();
    Ok(json!({ "AccountAttributeItems": { "AccountAttributeItem": items } }))
}
