//! Classic Load Balancer (CLB, formerly Server Load Balancer; API 2014-05-15): instances, TCP/UDP/HTTP/HTTPS
//! listeners, backend ECS servers and their health, vServer groups, and the server certificates of
//! HTTPS listeners.

use axum::http::StatusCode;
use rand::Rng;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::catalog::{OpCtx, Operation, Product, paginate};
use crate::clock::iso8601;
use crate::error::ApiError;
use crate::model::Resource;
use crate::params::Params;
use crate::products::provisioning::{add_months, order_id, place_in_vswitch, primary_zone};
use crate::products::regions::{check_zone, region};

mod backends;
mod certificates;
mod listeners;
mod load_balancers;
mod vserver_groups;

use self::backends::*;
use self::certificates::*;
use self::listeners::*;
use self::load_balancers::*;
use self::vserver_groups::*;

pub static PRODUCT: Product = Product {
    code: "slb",
    name: "Classic Load Balancer",
    service_name: "Slb",
    version: "2014-05-15",
    endpoint: "slb.aliyuncs.com",
    console_agent: "slb.console.aliyun.com",
    operations: &[
        Operation::write("CreateLoadBalancer", create_load_balancer),
        Operation::read("DescribeLoadBalancers", describe_load_balancers),
        Operation::read("DescribeLoadBalancerAttribute", describe_load_balancer_attribute),
        Operation::write("SetLoadBalancerName", set_load_balancer_name),
        Operation::write("SetLoadBalancerStatus", set_load_balancer_status),
        Operation::write("SetLoadBalancerDeleteProtection", set_load_balancer_delete_protection),
        Operation::write("DeleteLoadBalancer", delete_load_balancer),
        Operation::write("CreateLoadBalancerTCPListener", create_tcp_listener),
        Operation::write("CreateLoadBalancerUDPListener", create_udp_listener),
        Operation::write("CreateLoadBalancerHTTPListener", create_http_listener),
        Operation::write("CreateLoadBalancerHTTPSListener", create_https_listener),
        Operation::write("StartLoadBalancerListener", start_listener),
        Operation::write("StopLoadBalancerListener", stop_listener),
        Operation::read("DescribeLoadBalancerListeners", describe_listeners),
        Operation::write("DeleteLoadBalancerListener", delete_listener),
        Operation::write("AddBackendServers", add_backend_servers),
        Operation::write("RemoveBackendServers", remove_backend_servers),
        Operation::read("DescribeHealthStatus", describe_health_status),
        Operation::write("CreateVServerGroup", create_vserver_group),
        Operation::read("DescribeVServerGroups", describe_vserver_groups),
        Operation::read("DescribeVServerGroupAttribute", describe_vserver_group_attribute),
        Operation::write("AddVServerGroupBackendServers", add_vserver_group_backend_servers),
        Operation::write("RemoveVServerGroupBackendServers", remove_vserver_group_backend_servers),
        Operation::write("DeleteVServerGroup", delete_vserver_group),
        Operation::write("UploadServerCertificate", upload_server_certificate),
        Operation::read("DescribeServerCertificates", describe_server_certificates),
        Operation::write("DeleteServerCertificate", delete_server_certificate),
    ],
};

pub const LOAD_BALANCER: &str = "slb.loadbalancer";
pub const LISTENER: &str = "slb.listener";
pub const VSERVER_GROUP: &str = "slb.vservergroup";
pub const SERVER_CERTIFICATE: &str = "slb.servercertificate";
/// Backend servers are ECS instances; the kind belongs to the ECS product.
const ECS_INSTANCE: &str = "ecs.instance";
const LOAD_BALANCER_TYPE: &str = "ACS::SLB::LoadBalancer";
const ECS_INSTANCE_TYPE: &str = "ACS::ECS::Instance";

const SPECS: &[&str] = &[
    "slb.s1.small",
    "slb.s2.small",
    "slb.s2.medium",
    "slb.s3.small",
    "slb.s3.medium",
    "slb.s3.large",
    "slb.s4.large",
];
const SCHEDULERS: &[&str] = &["wrr", "wlc", "rr", "sch", "tch", "qch"];
const MAX_BACKENDS_PER_CALL: usize = 20;

/// Names as CLB enforces them: 1–80 characters, starting with a letter (or a Chinese character), then
/// letters, digits, periods, underscores and hyphens.
fn check_load_balancer_name(name: &str) -> Result<(), ApiError> {
    let starts_ok = name.chars().next().is_some_and(char::is_alphabetic);
    let chars_ok = name
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if starts_ok && chars_ok && name.chars().count() <= 80 {
        Ok(())
    } else {
        Err(ApiError::invalid_parameter(
            "LoadBalancerName",
            "the name must be 1 to 80 characters, start with a letter, and contain only letters, digits, \
             periods (.), underscores (_) and hyphens (-)",
        ))
    }
}

fn on_off(p: &Params, name: &str, default: &'static str) -> Result<String, ApiError> {
    Ok(p.one_of(name, &["on", "off"])?.unwrap_or(default).to_owned())
}

fn required_on_off(p: &Params, name: &str) -> Result<String, ApiError> {
    p.one_of(name, &["on", "off"])?
        .map(str::to_owned)
        .ok_or_else(|| ApiError::missing_parameter(name))
}

fn required_int(p: &Params, name: &str, range: std::ops::RangeInclusive<i64>) -> Result<i64, ApiError> {
    p.required(name)?;
    p.int_in(name, range.clone(), *range.start())
}

/// A public address of the region's CLB pool (47.96.0.0/11 in the emulator).
fn public_address() -> String {
    let mut rng = rand::rng();
    format!(
        "47.{}.{}.{}",
        rng.random_range(96..128),
        rng.random_range(0..256),
        rng.random_range(1..255)
    )
}

/// A classic-network private address (10.0.0.0/8).
fn classic_address() -> String {
    let mut rng = rand::rng();
    format!(
        "10.{}.{}.{}",
        rng.random_range(0..256),
        rng.random_range(0..256),
        rng.random_range(1..255)
    )
}

#[cfg(test)]
mod tests;
