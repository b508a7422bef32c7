//! Server certificates of CLB's HTTPS listeners: uploaded third-party certificates (a PEM
//! certificate and its private key), or certificates of Certificate Management Service (Alibaba
//! Cloud Certificates) named by their id there.

use super::*;
use crate::products::pem::{check_certificate, check_private_key, sha1};

/// The certificate's SHA-1 fingerprint, colon-separated, as `Fingerprint` shows it.
fn fingerprint(certificate: &str) -> String {
    sha1(certificate).iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(":")
}

/// An id in the real form: `<16 digits>_<hex time>_<10 digits>_-1`.
fn certificate_id(now_ms: i64) -> String {
    let mut rng = rand::rng();
    format!(
        "{}_{now_ms:x}_{}_-1",
        rng.random_range(1_000_000_000_000_000_u64..10_000_000_000_000_000),
        rng.random_range(1_000_000_000_u64..10_000_000_000)
    )
}

pub(super) fn upload_server_certificate(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let (name, print, alicloud) = match p.get("AliCloudCertificateId") {
        Some(cas_id) => {
            // A certificate of Certificate Management Service keeps the service's name unless
            // `ServerCertificateName` gives one.
            let cas = crate::products::cas::certificate(ctx, cas_id, "AliCloudCertificateId")?;
            let name = p.get("ServerCertificateName").or(p.get("AliCloudCertificateName")).unwrap_or(&cas.name);
            (name.to_owned(), cas.attr_str("Fingerprint").to_owned(), Some(cas))
        }
        None => {
            let certificate = p.required("ServerCertificate")?;
            check_certificate("ServerCertificate", certificate)?;
            check_private_key("PrivateKey", p.required("PrivateKey")?)?;
            let name = p.get("ServerCertificateName").unwrap_or("");
            (name.to_owned(), fingerprint(certificate), None)
        }
    };
    if name.chars().count() > 80 {
        return Err(ApiError::invalid_parameter("ServerCertificateName", "at most 80 characters"));
    }
    let tags = crate::products::tags::tags(p)?;
    let id = certificate_id(ctx.now_ms);
    let (cas_id, cas_name) = alicloud.as_ref().map_or(("", ""), |c| (c.id.as_str(), c.name.as_str()));
    let cert = Resource::new(SERVER_CERTIFICATE, id.clone(), &ctx.region.clone(), &name, "Available", ctx.now_ms)
        .with("Fingerprint", print.clone())
        .with("IsAliCloudCertificate", i64::from(alicloud.is_some()))
        .with("AliCloudCertificateId", cas_id)
        .with("AliCloudCertificateName", cas_name)
        .with("ResourceGroupId", p.get("ResourceGroupId").unwrap_or("rg-default"))
        .with("Tags", tags);
    ctx.put(cert);
    Ok(json!({
        "ServerCertificateId": id,
        "ServerCertificateName": name,
        "Fingerprint": print,
        "RegionId": ctx.region,
        "IsAliCloudCertificate": i64::from(alicloud.is_some()),
        "AliCloudCertificateId": cas_id,
        "AliCloudCertificateName": cas_name,
        "CreateTime": iso8601(ctx.now_ms),
        "CreateTimeStamp": ctx.now_ms,
    }))
}

fn certificate_json(cert: &Resource) -> Value {
    json!({
        "ServerCertificateId": cert.id,
        "ServerCertificateName": cert.name,
        "Fingerprint": cert.attr_str("Fingerprint"),
        "RegionId": cert.region,
        "RegionIdAlias": cert.region,
        "IsAliCloudCertificate": cert.attr_i64("IsAliCloudCertificate").unwrap_or(0),
        "AliCloudCertificateId": cert.attr_str("AliCloudCertificateId"),
        "AliCloudCertificateName": cert.attr_str("AliCloudCertificateName"),
        "ResourceGroupId": cert.attr_str("ResourceGroupId"),
        "CreateTime": iso8601(cert.created_ms),
        "CreateTimeStamp": cert.created_ms,
        "Tags": { "Tag": cert.attrs.get("Tags").cloned().unwrap_or_else(|| json!([])) },
    })
}

pub(super) fn describe_server_certificates(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let id = p.get("ServerCertificateId");
    let items: Vec<Value> = ctx
        .list(SERVER_CERTIFICATE)
        .iter()
        .filter(|c| id.is_none_or(|id| c.id == id))
        .map(certificate_json)
        .collect();
    Ok(json!({ "ServerCertificates": { "ServerCertificate": items } }))
}

/// A certificate of the request's region, by `ServerCertificateId`.
pub(super) fn find_certificate(ctx: &OpCtx<'_>, p: &Params) -> Result<Resource, ApiError> {
    let id = p.required("ServerCertificateId")?;
    ctx.find(SERVER_CERTIFICATE, id, "ServerCertificateId")
        .ok()
        .filter(|c| c.region == ctx.region)
        .ok_or_else(|| ApiError::not_found("ServerCertificateId", id))
}

pub(super) fn delete_server_certificate(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let cert = find_certificate(ctx, p)?;
    let used = ctx
        .list(LISTENER)
        .iter()
        .any(|l| l.attr_str("ServerCertificateId") == cert.id);
    if used {
        return Err(ApiError::incorrect_status(
            "ServerCertificateInUse",
            "The server certificate is used by a listener.",
        ));
    }
    ctx.delete(&cert.id);
    Ok(json!({}))
}
