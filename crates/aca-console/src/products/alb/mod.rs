//! Application Load Balancer (ALB; API 2020-06-16, product code `Alb`): Layer 7 instances deployed in
//! two or more zones of a VPC, their server groups, and the HTTP/HTTPS/QUIC listeners that forward to
//! them.
//!
//! ALB's `CreateLoadBalancer` shares its name with CLB's, but it is a product of its own: its events
//! carry `serviceName: Alb` and `eventSource: alb.<region>.aliyuncs.com`, and its resources are
//! `ACS::ALB::*`. Lists page with `NextToken`/`MaxResults`; creations are asynchronous
//! (`Provisioning` → `Active` for instances, `Provisioning` → `Running` for listeners, `Creating` →
//! `Available` for server groups).

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::catalog::{OpCtx, Operation, Product};
use crate::clock::iso8601;
use crate::error::ApiError;
use crate::model::Resource;
use crate::params::Params;

mod listeners;
mod load_balancers;
mod server_groups;

use self::listeners::*;
use self::load_balancers::*;
use self::server_groups::*;

pub static PRODUCT: Product = Product {
    code: "alb",
    name: "Application Load Balancer",
    service_name: "Alb",
    version: "2020-06-16",
    endpoint: "alb.{region}.aliyuncs.com",
    // The ALB console is a part of the SLB console (slb.console.aliyun.com/alb).
    console_agent: "slb.console.aliyun.com",
    operations: &[
        Operation::write("CreateLoadBalancer", create_load_balancer),
        Operation::read("ListLoadBalancers", list_load_balancers),
        Operation::read("GetLoadBalancerAttribute", get_load_balancer_attribute),
        Operation::write("DeleteLoadBalancer", delete_load_balancer),
        Operation::write("CreateServerGroup", create_server_group),
        Operation::read("ListServerGroups", list_server_groups),
        Operation::write("DeleteServerGroup", delete_server_group),
        Operation::write("CreateListener", create_listener),
        Operation::read("ListListeners", list_listeners),
        Operation::write("DeleteListener", delete_listener),
    ],
};

pub const LOAD_BALANCER: &str = "alb.loadbalancer";
pub const SERVER_GROUP: &str = "alb.servergroup";
pub const LISTENER: &str = "alb.listener";
const LOAD_BALANCER_TYPE: &str = "ACS::ALB::LoadBalancer";
const SERVER_GROUP_TYPE: &str = "ACS::ALB::ServerGroup";
const LISTENER_TYPE: &str = "ACS::ALB::Listener";

/// `ResourceNotFound.<What>`: ALB's error for an id the account does not hold.
fn not_found(what: &str, id: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!("ResourceNotFound.{what}"),
        format!("The specified resource {id} is not found."),
    )
}

/// `IncorrectStatus.<What>`: the resource is not in a state that allows the call (still
/// provisioning, for example).
fn incorrect_status(what: &str, resource: &Resource) -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        format!("IncorrectStatus.{what}"),
        format!("The status of {} [{}] is incorrect.", resource.id, resource.status),
    )
}

/// A resource of `kind`, or ALB's not-found error.
fn find(ctx: &OpCtx<'_>, kind: &str, id: &str, what: &str) -> Result<Resource, ApiError> {
    ctx.get(id)
        .filter(|r| r.kind == kind && r.region == ctx.region)
        .ok_or_else(|| not_found(what, id))
}

/// With `DryRun=true` the call is only checked: ALB answers `DryRunOperation`.
fn dry_run(p: &Params) -> Result<(), ApiError> {
    if p.bool("DryRun")? == Some(true) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "DryRunOperation",
            "Request validation has been passed with DryRun flag set.",
        ));
    }
    Ok(())
}

/// The `JobId` an asynchronous ALB call returns.
fn job_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// Names of instances and server groups: 2 to 128 characters, starting with a letter, a Chinese
/// character or a digit, then letters, digits, periods, underscores, hyphens and spaces.
fn check_name(param: &str, name: &str) -> Result<(), ApiError> {
    let len = name.chars().count();
    let starts_ok = name.chars().next().is_some_and(char::is_alphanumeric);
    let chars_ok = name
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | ' '));
    if (2..=128).contains(&len) && starts_ok && chars_ok {
        Ok(())
    } else {
        Err(ApiError::invalid_parameter(
            param,
            "the name must be 2 to 128 characters long, start with a letter, a Chinese character or a digit, \
             and contain only letters, digits, periods (.), underscores (_), hyphens (-) and spaces",
        ))
    }
}

/// `Tag.N.Key`/`Tag.N.Value` as ALB returns them: `[{Key, Value}]`.
fn tags_of(p: &Params) -> Result<Value, ApiError> {
    let tags = crate::products::tags::tags(p)?;
    Ok(Value::Array(
        tags.iter()
            .map(|t| json!({ "Key": t["TagKey"], "Value": t["TagValue"] }))
            .collect(),
    ))
}

/// A page of an ALB list: `MaxResults` (1–100, default 20) items after the `NextToken` offset, and
/// the token of the next page (empty on the last).
fn token_page(items: Vec<Value>, p: &Params) -> Result<(Vec<Value>, i64, String, usize), ApiError> {
    let max = p.int_in("MaxResults", 1..=100, 20)?;
    let start = match p.get("NextToken").filter(|t| !t.is_empty()) {
        None => 0,
        Some(token) => token
            .parse::<usize>()
            .ok()
            .filter(|at| *at <= items.len())
            .ok_or_else(|| ApiError::invalid_parameter("NextToken", "not a token this API returned"))?,
    };
    let total = items.len();
    let end = (start + max as usize).min(total);
    let next = if end < total { end.to_string() } else { String::new() };
    Ok((items[start..end].to_vec(), max, next, total))
}

fn created(r: &Resource) -> String {
    iso8601(r.created_ms)
}

#[cfg(test)]
mod tests;
