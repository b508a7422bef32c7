//! Certificate Management Service (SSL Certificates Service, API 2020-04-07): the account's
//! uploaded certificates, which CLB lists as Alibaba Cloud Certificates. Certificates are global:
//! the service has no regions of its own, only endpoints.

use rand::Rng;
use serde_json::{Value, json};

use crate::catalog::{OpCtx, Operation, Product};
use crate::clock::iso8601;
use crate::error::ApiError;
use crate::model::Resource;
use crate::params::Params;
use crate::products::pem::{check_certificate, check_private_key, sha1};

pub static PRODUCT: Product = Product {
    code: "cas",
    name: "Certificate Management Service",
    service_name: "cas",
    version: "2020-04-07",
    endpoint: "cas.aliyuncs.com",
    console_agent: "yundun.console.aliyun.com",
    operations: &[
        Operation::write("UploadUserCertificate", upload_user_certificate),
        Operation::read("ListUserCertificateOrder", list_user_certificate_order),
        Operation::read("GetUserCertificateDetail", get_user_certificate_detail),
        Operation::write("DeleteUserCertificate", delete_user_certificate),
    ],
};

pub const CERTIFICATE: &str = "cas.certificate";

/// `Name`: at most 64 characters, unique in the account.
fn check_name(ctx: &OpCtx<'_>, name: &str) -> Result<(), ApiError> {
    if name.trim().is_empty() || name.chars().count() > 64 {
        return Err(ApiError::invalid_parameter("Name", "1 to 64 characters"));
    }
    if ctx.list_all(CERTIFICATE).iter().any(|c| c.name == name) {
        return Err(ApiError::new(
            axum::http::StatusCode::BAD_REQUEST,
            "NameRepeat",
            "The certificate name already exists.",
        ));
    }
    Ok(())
}

/// The certificate's SHA-1 fingerprint, in the upper-case hex `Fingerprint` shows.
fn fingerprint(cert: &str) -> String {
    sha1(cert).iter().map(|b| format!("{b:02X}")).collect()
}

/// `UploadUserCertificate`: a certificate and its private key; the key is kept by the service and
/// never returned nor shown.
fn upload_user_certificate(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("Name")?;
    check_name(ctx, name)?;
    let cert = p.required("Cert")?;
    check_certificate("Cert", cert)?;
    check_private_key("Key", p.required("Key")?)?;
    let id: i64 = rand::rng().random_range(10_000_000..100_000_000);
    let created = ctx.now_ms;
    let resource = Resource::new(CERTIFICATE, id.to_string(), "", name, "ISSUED", created)
        .with("Fingerprint", fingerprint(cert))
        .with("ResourceGroupId", p.get("ResourceGroupId").unwrap_or("rg-default"));
    ctx.put(resource);
    Ok(json!({ "CertId": id }))
}

fn certificate_json(cert: &Resource) -> Value {
    json!({
        "CertificateId": cert.id.parse::<i64>().unwrap_or_default(),
        "Name": cert.name,
        "Fingerprint": cert.attr_str("Fingerprint"),
        "Status": cert.status,
        "Upload": true,
        "ResourceGroupId": cert.attr_str("ResourceGroupId"),
        "StartDate": iso8601(cert.created_ms),
    })
}

/// `ListUserCertificateOrder` with `OrderType=UPLOAD` (the default here): the uploaded ones.
fn list_user_certificate_order(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    if let Some(kind) = p.get("OrderType")
        && !["UPLOAD", "CERT", "BUY", "CPACK"].contains(&kind)
    {
        return Err(ApiError::invalid_parameter("OrderType", "one of UPLOAD, CERT, BUY, CPACK"));
    }
    let uploaded = p.get("OrderType").is_none_or(|k| k == "UPLOAD" || k == "CERT");
    let keyword = p.get("Keyword");
    let page = p.int_in("CurrentPage", 1..=i64::MAX, 1)?;
    let size = p.int_in("ShowSize", 1..=100, 50)?;
    let all: Vec<Value> = ctx
        .list_all(CERTIFICATE)
        .iter()
        .filter(|_| uploaded)
        .filter(|c| keyword.is_none_or(|k| c.name.contains(k)))
        .map(certificate_json)
        .collect();
    let total = all.len();
    let start = usize::try_from((page - 1) * size).unwrap_or(usize::MAX);
    let items: Vec<Value> = all.into_iter().skip(start).take(usize::try_from(size).unwrap_or(50)).collect();
    Ok(json!({
        "CertificateOrderList": items,
        "TotalCount": total,
        "CurrentPage": page,
        "ShowSize": size,
    }))
}

/// The certificate `CertId` names, or the real API's not-found error.
fn find(ctx: &OpCtx<'_>, p: &Params) -> Result<Resource, ApiError> {
    let id = p.required("CertId")?;
    ctx.find(CERTIFICATE, id, "CertId")
}

fn get_user_certificate_detail(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let cert = find(ctx, p)?;
    Ok(json!({
        "Id": cert.id.parse::<i64>().unwrap_or_default(),
        "Name": cert.name,
        "Fingerprint": cert.attr_str("Fingerprint"),
        "Status": cert.status,
        "ResourceGroupId": cert.attr_str("ResourceGroupId"),
        "StartDate": iso8601(cert.created_ms),
    }))
}

fn delete_user_certificate(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let cert = find(ctx, p)?;
    ctx.delete(&cert.id);
    Ok(json!({}))
}

/// A certificate of the service by id, for the products that deploy it (CLB's
/// `AliCloudCertificateId`).
pub fn certificate(ctx: &OpCtx<'_>, id: &str, param: &str) -> Result<Resource, ApiError> {
    ctx.find(CERTIFICATE, id, param)
}

#[cfg(test)]
mod tests;
