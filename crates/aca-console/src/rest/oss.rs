//! Object Storage Service: buckets (ACL, lifecycle, versioning, static website hosting) and objects over OSS's REST protocol, signed with
//! OSS signature V1, answered in OSS's XML shapes.

use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use md5::Digest as _;
use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::Console;
use crate::catalog::{OpCtx, Operation, Product};
use crate::clock::{Millis, iso8601};
use crate::error::ApiError;
use crate::model::{Resource, request_id};
use crate::params::Params;
use crate::products::regions::{REGIONS, region};
use crate::rest::xml::{self, Malformed};
use crate::rest::{GLOBAL_NAMES, RestRequest, access_key, caller_of, owner_of, parse_http_date};
use aca_openapi::sign::{rest_signature, signatures_match};

/// The `Authorization` scheme of OSS signature V4, which this emulator refuses.
pub const V4_SCHEME: &str = "OSS4-HMAC-SHA256";
/// Objects are kept in the account's resource store, so their size is capped.
pub const MAX_OBJECT_BYTES: usize = 5 * 1024 * 1024;
/// The most buckets one account may own (the real default quota).
pub const MAX_BUCKETS: usize = 100;

pub const BUCKET: &str = "oss.bucket";
pub const OBJECT: &str = "oss.object";
const BUCKET_TYPE: &str = "ACS::OSS::Bucket";

const OPERATIONS: &[Operation] = &[
    Operation::write("PutBucket", put_bucket),
    Operation::read("ListBuckets", list_buckets),
    Operation::read("GetBucketInfo", get_bucket_info),
    Operation::read("GetBucketLocation", get_bucket_location),
    Operation::write("DeleteBucket", delete_bucket),
    Operation::write("PutBucketAcl", put_bucket_acl),
    Operation::read("GetBucketAcl", get_bucket_acl),
    Operation::write("PutBucketLifecycle", put_bucket_lifecycle),
    Operation::read("GetBucketLifecycle", get_bucket_lifecycle),
    Operation::write("DeleteBucketLifecycle", delete_bucket_lifecycle),
    Operation::write("PutBucketVersioning", put_bucket_versioning),
    Operation::read("GetBucketVersioning", get_bucket_versioning),
    Operation::write("PutBucketWebsite", put_bucket_website),
    Operation::read("GetBucketWebsite", get_bucket_website),
    Operation::write("DeleteBucketWebsite", delete_bucket_website),
    Operation::write("PutObject", put_object),
    Operation::read("GetObject", get_object),
    Operation::read("HeadObject", head_object),
    Operation::write("DeleteObject", delete_object),
    Operation::read("ListObjects", list_objects),
    Operation::write("PutObjectACL", put_object_acl),
    Operation::read("GetObjectACL", get_object_acl),
];

/// OSS has no OpenAPI version; this marker can never match an RPC `Version`.
pub const VERSION: &str = "OSS";

/// The product; its events name the bucket's region in `eventSource`.
pub static PRODUCT: Product = Product {
    code: "oss",
    name: "Object Storage Service",
    service_name: "Oss",
    version: VERSION,
    endpoint: "oss-{region}.aliyuncs.com",
    console_agent: "oss.console.aliyun.com",
    operations: OPERATIONS,
};

/// A bucket's resource id: its ARN, unique within the account whatever other products hold.
pub fn bucket_id(account_id: &str, bucket: &str) -> String {
    format!("acs:oss:*:{account_id}:{bucket}")
}

pub fn object_id(account_id: &str, bucket: &str, key: &str) -> String {
    format!("acs:oss:*:{account_id}:{bucket}/{key}")
}

fn oss_error(status: StatusCode, code: &str, message: impl Into<String>) -> ApiError {
    ApiError::new(status, code, message)
}

fn no_such_bucket() -> ApiError {
    oss_error(
        StatusCode::NOT_FOUND,
        "NoSuchBucket",
        "The specified bucket does not exist.",
    )
}

fn no_such_key() -> ApiError {
    oss_error(StatusCode::NOT_FOUND, "NoSuchKey", "The specified key does not exist.")
}

fn invalid_argument(message: impl Into<String>) -> ApiError {
    oss_error(StatusCode::BAD_REQUEST, "InvalidArgument", message)
}

fn malformed_xml() -> ApiError {
    oss_error(
        StatusCode::BAD_REQUEST,
        "MalformedXML",
        "The XML you provided was not well-formed or did not validate against our published schema.",
    )
}

fn access_denied(message: &str) -> ApiError {
    oss_error(StatusCode::FORBIDDEN, "AccessDenied", message)
}

/// 3–63 characters: lowercase letters, digits and hyphens, starting and ending with a letter or digit.
pub fn check_bucket_name(name: &str) -> Result<(), ApiError> {
    let allowed = name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    let edges = !name.starts_with('-') && !name.ends_with('-');
    if (3..=63).contains(&name.len()) && allowed && edges {
        Ok(())
    } else {
        Err(oss_error(
            StatusCode::BAD_REQUEST,
            "InvalidBucketName",
            "The specified bucket is not valid.",
        ))
    }
}

/// 1–1023 bytes of UTF-8, not starting with `/` or `\`.
pub fn check_object_name(key: &str) -> Result<(), ApiError> {
    if key.is_empty() || key.len() > 1023 || key.starts_with('/') || key.starts_with('\\') {
        Err(oss_error(
            StatusCode::BAD_REQUEST,
            "InvalidObjectName",
            "The specified object is not valid.",
        ))
    } else {
        Ok(())
    }
}

/// `2026-11-30T14:01:05.000Z`, the timestamp form of OSS's XML (the SDKs parse exactly this).
fn oss_time(ms: Millis) -> String {
    let iso = iso8601(ms);
    format!("{}.000Z", iso.trim_end_matches('Z'))
}

/// `Mon, 30 Nov 2026 14:01:05 GMT`, for `Last-Modified` and `Date`.
pub fn http_date(ms: Millis) -> String {
    let t = time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000)).unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    let format = time::macros::format_description!(
        "[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT"
    );
    t.format(&format).unwrap_or_default()
}

fn owner_json(ctx: &OpCtx<'_>) -> Value {
    let id = &ctx.account().id;
    json!({ "ID": id, "DisplayName": id })
}

fn own_bucket(ctx: &OpCtx<'_>, p: &Params) -> Result<Resource, ApiError> {
    let name = p.required("BucketName")?;
    let id = bucket_id(&ctx.account().id, name);
    ctx.get(&id).filter(|r| r.kind == BUCKET).ok_or_else(no_such_bucket)
}

fn own_object(ctx: &OpCtx<'_>, p: &Params) -> Result<(Resource, Resource), ApiError> {
    let bucket = own_bucket(ctx, p)?;
    let key = p.required("ObjectName")?;
    let id = object_id(&ctx.account().id, &bucket.name, key);
    let object = ctx.get(&id).filter(|r| r.kind == OBJECT).ok_or_else(no_such_key)?;
    Ok((bucket, object))
}

fn bucket_acl(p: &Params, default: Option<&str>) -> Result<String, ApiError> {
    match p.get("x-oss-acl").or(default) {
        Some(acl @ ("private" | "public-read" | "public-read-write")) => Ok(acl.to_owned()),
        Some(other) => Err(invalid_argument(format!(
            "no such bucket access control exists: {other}"
        ))),
        None => Err(invalid_argument("the x-oss-acl header is required")),
    }
}

fn put_bucket(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("BucketName")?;
    check_bucket_name(name)?;
    let region_id = region(&ctx.region)?.id;
    let account_id = ctx.account().id.clone();
    let id = bucket_id(&account_id, name);
    if ctx.get(&id).is_some() {
        return Err(bucket_already_exists());
    }
    if ctx.list_all(BUCKET).len() >= MAX_BUCKETS {
        return Err(oss_error(
            StatusCode::BAD_REQUEST,
            "TooManyBuckets",
            "You have attempted to create more buckets than allowed.",
        ));
    }
    let acl = bucket_acl(p, Some("private"))?;
    let storage_class = storage_class(p.get("StorageClass").unwrap_or("Standard"))?;
    let redundancy = match p.get("DataRedundancyType").unwrap_or("LRS") {
        kind @ ("LRS" | "ZRS") => kind,
        other => return Err(invalid_argument(format!("invalid DataRedundancyType: {other}"))),
    };
    let bucket = Resource::new(BUCKET, id, region_id, name, "Normal", ctx.now_ms)
        .with("Acl", acl)
        .with("StorageClass", storage_class)
        .with("DataRedundancyType", redundancy)
        .with(
            "ResourceGroupId",
            p.get("x-oss-resource-group-id").unwrap_or("rg-default"),
        );
    ctx.reference(BUCKET_TYPE, name);
    ctx.put(bucket);
    Ok(json!({ "Headers": { "Location": format!("/{name}") } }))
}

pub fn bucket_already_exists() -> ApiError {
    oss_error(
        StatusCode::CONFLICT,
        "BucketAlreadyExists",
        "The requested bucket name is not available. The bucket namespace is shared by all users of the OSS system. \
         Please select a different name and try again.",
    )
}

fn bucket_summary(bucket: &Resource) -> Value {
    json!({
        "CreationDate": oss_time(bucket.created_ms),
        "ExtranetEndpoint": format!("oss-{}.aliyuncs.com", bucket.region),
        "IntranetEndpoint": format!("oss-{}-internal.aliyuncs.com", bucket.region),
        "Location": format!("oss-{}", bucket.region),
        "Name": bucket.name,
        "Region": bucket.region,
        "StorageClass": bucket.attr_str("StorageClass"),
    })
}

fn max_keys(p: &Params) -> Result<usize, ApiError> {
    match p.get("max-keys") {
        None => Ok(100),
        Some(v) => match v.parse::<usize>() {
            Ok(n) if (1..=1000).contains(&n) => Ok(n),
            _ => Err(invalid_argument(format!(
                "max-keys must be an integer from 1 to 1000, not {v:?}"
            ))),
        },
    }
}

fn list_buckets(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let prefix = p.get("prefix").unwrap_or("");
    let marker = p.get("marker").unwrap_or("");
    let limit = max_keys(p)?;
    let mut buckets: Vec<Resource> = ctx
        .list_all(BUCKET)
        .into_iter()
        .filter(|b| b.name.starts_with(prefix) && b.name.as_str() > marker)
        .collect();
    buckets.sort_by(|a, b| a.name.cmp(&b.name));
    let truncated = buckets.len() > limit;
    buckets.truncate(limit);
    let mut result = Map::new();
    let paged = ["prefix", "marker", "max-keys"].iter().any(|k| p.get(k).is_some());
    if paged {
        result.insert("Prefix".into(), json!(prefix));
        result.insert("Marker".into(), json!(marker));
        result.insert("MaxKeys".into(), json!(limit));
        result.insert("IsTruncated".into(), json!(truncated));
        if truncated {
            result.insert(
                "NextMarker".into(),
                json!(buckets.last().map(|b| b.name.clone()).unwrap_or_default()),
            );
        }
    }
    result.insert("Owner".into(), owner_json(ctx));
    result.insert(
        "Buckets".into(),
        json!({ "Bucket": buckets.iter().map(bucket_summary).collect::<Vec<_>>() }),
    );
    Ok(json!({ "ListAllMyBucketsResult": result }))
}

fn get_bucket_info(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let bucket = own_bucket(ctx, p)?;
    ctx.reference(BUCKET_TYPE, &bucket.name);
    Ok(json!({ "BucketInfo": { "Bucket": {
        "AccessMonitor": "Disabled",
        "CreationDate": oss_time(bucket.created_ms),
        "ExtranetEndpoint": format!("oss-{}.aliyuncs.com", bucket.region),
        "IntranetEndpoint": format!("oss-{}-internal.aliyuncs.com", bucket.region),
        "Location": format!("oss-{}", bucket.region),
        "StorageClass": bucket.attr_str("StorageClass"),
        "TransferAcceleration": "Disabled",
        "CrossRegionReplication": "Disabled",
        "DataRedundancyType": bucket.attr_str("DataRedundancyType"),
        "Name": bucket.name,
        "ResourceGroupId": bucket.attr_str("ResourceGroupId"),
        "Owner": owner_json(ctx),
        "AccessControlList": { "Grant": bucket.attr_str("Acl") },
        "Comment": "",
    } } }))
}

fn get_bucket_location(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let bucket = own_bucket(ctx, p)?;
    ctx.reference(BUCKET_TYPE, &bucket.name);
    Ok(json!({ "LocationConstraint": format!("oss-{}", bucket.region) }))
}

fn delete_bucket(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let bucket = own_bucket(ctx, p)?;
    if !ctx.children(OBJECT, &bucket.id).is_empty() {
        return Err(oss_error(
            StatusCode::CONFLICT,
            "BucketNotEmpty",
            "The bucket you tried to delete is not empty.",
        ));
    }
    ctx.reference(BUCKET_TYPE, &bucket.name);
    ctx.delete(&bucket.id);
    Ok(json!({}))
}

fn put_bucket_acl(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut bucket = own_bucket(ctx, p)?;
    let acl = bucket_acl(p, None)?;
    bucket.set("Acl", acl);
    ctx.reference(BUCKET_TYPE, &bucket.name);
    ctx.put(bucket);
    Ok(json!({}))
}

fn get_bucket_acl(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let bucket = own_bucket(ctx, p)?;
    ctx.reference(BUCKET_TYPE, &bucket.name);
    Ok(json!({ "AccessControlPolicy": {
        "Owner": owner_json(ctx),
        "AccessControlList": { "Grant": bucket.attr_str("Acl") },
    } }))
}

/// Checks the rules given as `Rule.N.ID`, `Rule.N.Prefix`, `Rule.N.Status`, `Rule.N.Expiration.Days`
/// (or `Rule.N.Expiration.CreatedBeforeDate`) and returns them in the stored form.
fn lifecycle_rules(ctx: &OpCtx<'_>, p: &Params) -> Result<Vec<Value>, ApiError> {
    let rules = p.object_list("Rule");
    if rules.is_empty() || rules.len() > 1000 {
        return Err(malformed_xml());
    }
    let mut ids: Vec<String> = Vec::new();
    let mut stored = Vec::new();
    for rule in rules {
        let field = |name: &str| rule.get(name).map(String::as_str).filter(|v| !v.is_empty());
        let id = field("ID").map_or_else(|| ctx.new_id("rule"), str::to_owned);
        if id.len() > 255 {
            return Err(invalid_argument("the rule ID must be at most 255 characters long"));
        }
        if ids.contains(&id) {
            return Err(invalid_argument(format!("duplicate rule ID: {id}")));
        }
        let status = match field("Status") {
            Some(s @ ("Enabled" | "Disabled")) => s,
            _ => return Err(malformed_xml()),
        };
        let expiration = match (field("Expiration.Days"), field("Expiration.CreatedBeforeDate")) {
            (Some(days), None) => match days.parse::<u32>() {
                Ok(d) if d > 0 => json!({ "Days": d }),
                _ => {
                    return Err(invalid_argument(format!(
                        "Expiration Days must be a positive integer, not {days:?}"
                    )));
                }
            },
            (None, Some(date)) => {
                let midnight = date.len() == 24 && date.ends_with("T00:00:00.000Z");
                if !midnight {
                    return Err(invalid_argument(
                        "CreatedBeforeDate must be midnight UTC, as 2026-01-01T00:00:00.000Z",
                    ));
                }
                json!({ "CreatedBeforeDate": date })
            }
            _ => return Err(malformed_xml()),
        };
        ids.push(id.clone());
        let mut stored_rule =
            json!({ "ID": id, "Prefix": field("Prefix").unwrap_or(""), "Status": status, "Expiration": expiration });
        let tags = rule_tags(&rule)?;
        if !tags.is_empty() {
            stored_rule["Tag"] = Value::Array(tags);
        }
        stored.push(stored_rule);
    }
    Ok(stored)
}

/// A rule's tags, given as `Tag.M.Key` and `Tag.M.Value`: objects it applies to carry them all.
fn rule_tags(rule: &BTreeMap<String, String>) -> Result<Vec<Value>, ApiError> {
    let mut tags: BTreeMap<u32, (Option<&str>, Option<&str>)> = BTreeMap::new();
    for (name, value) in rule {
        let Some((m, part)) = name.strip_prefix("Tag.").and_then(|rest| rest.split_once('.')) else {
            continue;
        };
        let Ok(m) = m.parse::<u32>() else { continue };
        let entry = tags.entry(m).or_default();
        match part {
            "Key" => entry.0 = Some(value.as_str()),
            "Value" => entry.1 = Some(value.as_str()),
            _ => return Err(malformed_xml()),
        }
    }
    let mut keys: Vec<&str> = Vec::new();
    let mut stored = Vec::new();
    for (key, value) in tags.into_values() {
        let key = key.unwrap_or("");
        if key.is_empty() && value.unwrap_or("").is_empty() {
            continue;
        }
        if key.is_empty() || key.len() > 128 || value.unwrap_or("").len() > 256 {
            return Err(invalid_argument(
                "a tag key must be 1 to 128 characters long and its value at most 256",
            ));
        }
        if keys.contains(&key) {
            return Err(invalid_argument(format!("duplicate tag key in a rule: {key}")));
        }
        keys.push(key);
        stored.push(json!({ "Key": key, "Value": value.unwrap_or("") }));
    }
    Ok(stored)
}

fn put_bucket_lifecycle(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut bucket = own_bucket(ctx, p)?;
    let rules = lifecycle_rules(ctx, p)?;
    bucket.set("LifecycleRules", Value::Array(rules));
    ctx.reference(BUCKET_TYPE, &bucket.name);
    ctx.put(bucket);
    Ok(json!({}))
}

fn get_bucket_lifecycle(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let bucket = own_bucket(ctx, p)?;
    ctx.reference(BUCKET_TYPE, &bucket.name);
    match bucket.attrs.get("LifecycleRules") {
        Some(Value::Array(rules)) if !rules.is_empty() => Ok(json!({ "LifecycleConfiguration": { "Rule": rules } })),
        _ => Err(oss_error(
            StatusCode::NOT_FOUND,
            "NoSuchLifecycle",
            "No Row found in Lifecycle Table.",
        )),
    }
}

fn delete_bucket_lifecycle(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut bucket = own_bucket(ctx, p)?;
    bucket.attrs.remove("LifecycleRules");
    ctx.reference(BUCKET_TYPE, &bucket.name);
    ctx.put(bucket);
    Ok(json!({}))
}

/// `Enabled` or `Suspended`; a bucket whose versioning was never enabled cannot be suspended.
fn put_bucket_versioning(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut bucket = own_bucket(ctx, p)?;
    let status = match p.get("Status") {
        Some(s @ ("Enabled" | "Suspended")) => s,
        _ => return Err(malformed_xml()),
    };
    if status == "Suspended" && bucket.attrs.get("Versioning").is_none() {
        return Err(oss_error(
            StatusCode::BAD_REQUEST,
            "InvalidArgument",
            "Versioning of the bucket has never been enabled, so it cannot be suspended.",
        ));
    }
    bucket.set("Versioning", status);
    ctx.reference(BUCKET_TYPE, &bucket.name);
    ctx.put(bucket);
    Ok(json!({}))
}

/// A bucket whose versioning was never enabled answers an empty configuration, as OSS does.
fn get_bucket_versioning(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let bucket = own_bucket(ctx, p)?;
    ctx.reference(BUCKET_TYPE, &bucket.name);
    Ok(match bucket.attrs.get("Versioning") {
        Some(status) => json!({ "VersioningConfiguration": { "Status": status } }),
        None => json!({ "VersioningConfiguration": {} }),
    })
}

/// The default homepage (`IndexDocument.Suffix`, required), whether subfolders have their own
/// (`IndexDocument.SupportSubDir`) and the default 404 page (`ErrorDocument.Key`).
fn put_bucket_website(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut bucket = own_bucket(ctx, p)?;
    let suffix = p.get("IndexDocument.Suffix").filter(|s| !s.is_empty());
    let Some(suffix) = suffix else {
        return Err(invalid_argument(
            "the default homepage (IndexDocument Suffix) is required",
        ));
    };
    if suffix.contains('/') {
        return Err(invalid_argument(
            "the default homepage must be an object in the root directory",
        ));
    }
    let sub_dir = match p.get("IndexDocument.SupportSubDir").unwrap_or("false") {
        v @ ("true" | "false") => v == "true",
        other => {
            return Err(invalid_argument(format!(
                "SupportSubDir must be true or false, not {other:?}"
            )));
        }
    };
    let mut website = json!({ "IndexDocument": { "Suffix": suffix, "SupportSubDir": sub_dir.to_string() } });
    if let Some(key) = p.get("ErrorDocument.Key").filter(|k| !k.is_empty()) {
        website["ErrorDocument"] = json!({ "Key": key });
    }
    bucket.set("Website", website);
    ctx.reference(BUCKET_TYPE, &bucket.name);
    ctx.put(bucket);
    Ok(json!({}))
}

fn get_bucket_website(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let bucket = own_bucket(ctx, p)?;
    ctx.reference(BUCKET_TYPE, &bucket.name);
    match bucket.attrs.get("Website") {
        Some(website) => Ok(json!({ "WebsiteConfiguration": website })),
        None => Err(oss_error(
            StatusCode::NOT_FOUND,
            "NoSuchWebsiteConfiguration",
            "The specified bucket does not have a website configuration.",
        )),
    }
}

fn delete_bucket_website(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut bucket = own_bucket(ctx, p)?;
    bucket.attrs.remove("Website");
    ctx.reference(BUCKET_TYPE, &bucket.name);
    ctx.put(bucket);
    Ok(json!({}))
}

fn object_acl(p: &Params, default: Option<&str>) -> Result<String, ApiError> {
    match p.get("x-oss-object-acl").or(default) {
        Some(acl @ ("default" | "private" | "public-read" | "public-read-write")) => Ok(acl.to_owned()),
        Some(other) => Err(invalid_argument(format!(
            "no such object access control exists: {other}"
        ))),
        None => Err(invalid_argument("the x-oss-object-acl header is required")),
    }
}

/// A storage class OSS knows, or InvalidStorageClass.
fn storage_class(class: &str) -> Result<&str, ApiError> {
    match class {
        "Standard" | "IA" | "Archive" | "ColdArchive" | "DeepColdArchive" => Ok(class),
        other => Err(oss_error(
            StatusCode::BAD_REQUEST,
            "InvalidStorageClass",
            format!("The storage class you specified is not valid: {other}"),
        )),
    }
}

fn put_object(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let bucket = own_bucket(ctx, p)?;
    let key = p.required("ObjectName")?;
    check_object_name(key)?;
    let body = crate::rest::request_body();
    if body.len() > MAX_OBJECT_BYTES {
        return Err(oss_error(
            StatusCode::BAD_REQUEST,
            "EntityTooLarge",
            format!(
                "Your proposed upload exceeds the maximum allowed size of this emulator ({MAX_OBJECT_BYTES} bytes)."
            ),
        ));
    }
    let digest: [u8; 16] = md5::Md5::digest(&body).into();
    let base64 = base64::engine::general_purpose::STANDARD;
    if let Some(given) = p.get("Content-MD5")
        && given != base64.encode(digest)
    {
        return Err(oss_error(
            StatusCode::BAD_REQUEST,
            "InvalidDigest",
            "The Content-MD5 you specified is not valid.",
        ));
    }
    let acl = object_acl(p, Some("default"))?;
    let storage_class = match p.get("x-oss-storage-class") {
        Some(class) => storage_class(class)?,
        None => bucket.attr_str("StorageClass"),
    }
    .to_owned();
    let encryption = match p.get("x-oss-server-side-encryption") {
        None => None,
        Some(method @ ("AES256" | "KMS" | "SM4")) => Some(method),
        Some(other) => {
            return Err(invalid_argument(format!(
                "The x-oss-server-side-encryption header is not valid: {other} (AES256, KMS or SM4)"
            )));
        }
    };
    let etag = hex::encode_upper(digest);
    // OSS's `x-oss-hash-crc64ecma` is CRC-64/XZ (ECMA-182 polynomial, reflected, inverted).
    let crc = crc::Crc::<u64>::new(&crc::CRC_64_XZ).checksum(&body).to_string();
    let meta: Map<String, Value> = p
        .as_map()
        .iter()
        .filter(|(k, _)| k.starts_with("x-oss-meta-"))
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    let id = object_id(&ctx.account().id, &bucket.name, key);
    let mut object = Resource::new(OBJECT, id, &bucket.region, key, "Normal", ctx.now_ms)
        .with("Body", base64.encode(&body))
        .with("Size", body.len() as i64)
        .with("ETag", etag.clone())
        .with("Crc64", crc.clone())
        .with(
            "ContentType",
            p.get("Content-Type").unwrap_or("application/octet-stream"),
        )
        .with("Acl", acl)
        .with("StorageClass", storage_class)
        .with("Meta", Value::Object(meta));
    if let Some(method) = encryption {
        object = object.with("ServerSideEncryption", method);
    }
    object.parent = Some(bucket.id.clone());
    ctx.reference(BUCKET_TYPE, &bucket.name);
    ctx.put(object);
    Ok(json!({ "Headers": {
        "ETag": format!("\"{etag}\""),
        "Content-MD5": base64.encode(digest),
        "x-oss-hash-crc64ecma": crc,
    } }))
}

/// The response headers that describe an object (GetObject and HeadObject).
fn object_headers(object: &Resource) -> Value {
    let mut headers = Map::new();
    headers.insert("Content-Type".into(), json!(object.attr_str("ContentType")));
    headers.insert("ETag".into(), json!(format!("\"{}\"", object.attr_str("ETag"))));
    headers.insert("Last-Modified".into(), json!(http_date(object.created_ms)));
    headers.insert("x-oss-object-type".into(), json!("Normal"));
    headers.insert("x-oss-storage-class".into(), json!(object.attr_str("StorageClass")));
    headers.insert("x-oss-hash-crc64ecma".into(), json!(object.attr_str("Crc64")));
    if let Some(method) = object.attrs.get("ServerSideEncryption") {
        headers.insert("x-oss-server-side-encryption".into(), method.clone());
    }
    if let Some(Value::Object(meta)) = object.attrs.get("Meta") {
        headers.extend(meta.clone());
    }
    Value::Object(headers)
}

fn get_object(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let (bucket, object) = own_object(ctx, p)?;
    let body = base64::engine::general_purpose::STANDARD
        .decode(object.attr_str("Body"))
        .map_err(|e| ApiError::internal(format!("stored object body is corrupt: {e}")))?;
    crate::rest::set_response_body(body);
    ctx.reference(BUCKET_TYPE, &bucket.name);
    Ok(json!({ "Headers": object_headers(&object) }))
}

fn head_object(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let (bucket, object) = own_object(ctx, p)?;
    let mut headers = object_headers(&object);
    headers["Content-Length"] = json!(object.attr_i64("Size").unwrap_or(0).to_string());
    ctx.reference(BUCKET_TYPE, &bucket.name);
    Ok(json!({ "Headers": headers }))
}

fn delete_object(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let bucket = own_bucket(ctx, p)?;
    let key = p.required("ObjectName")?;
    let id = object_id(&ctx.account().id, &bucket.name, key);
    if ctx.get(&id).is_some_and(|r| r.kind == OBJECT) {
        ctx.delete(&id);
    }
    ctx.reference(BUCKET_TYPE, &bucket.name);
    Ok(json!({}))
}

fn list_objects(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let bucket = own_bucket(ctx, p)?;
    let prefix = p.get("prefix").unwrap_or("");
    let marker = p.get("marker").unwrap_or("");
    let delimiter = p.get("delimiter").unwrap_or("");
    let limit = max_keys(p)?;
    let mut objects: Vec<Resource> = ctx
        .children(OBJECT, &bucket.id)
        .into_iter()
        .filter(|o| o.name.starts_with(prefix) && o.name.as_str() > marker)
        .collect();
    objects.sort_by(|a, b| a.name.cmp(&b.name));
    let mut contents = Vec::new();
    let mut common_prefixes: Vec<String> = Vec::new();
    let mut next_marker = String::new();
    let mut truncated = false;
    for object in &objects {
        let rolled_up = if delimiter.is_empty() {
            None
        } else {
            object.name[prefix.len()..]
                .find(delimiter)
                .map(|at| object.name[..prefix.len() + at + delimiter.len()].to_owned())
        };
        if let Some(common) = &rolled_up
            && common_prefixes.last() == Some(common)
        {
            continue;
        }
        if contents.len() + common_prefixes.len() == limit {
            truncated = true;
            break;
        }
        match rolled_up {
            Some(common) => {
                next_marker = common.clone();
                common_prefixes.push(common);
            }
            None => {
                next_marker = object.name.clone();
                contents.push(json!({
                    "Key": object.name,
                    "LastModified": oss_time(object.created_ms),
                    "ETag": format!("\"{}\"", object.attr_str("ETag")),
                    "Type": "Normal",
                    "Size": object.attr_i64("Size").unwrap_or(0),
                    "StorageClass": object.attr_str("StorageClass"),
                    "Owner": owner_json(ctx),
                }));
            }
        }
    }
    let mut result = Map::new();
    result.insert("Name".into(), json!(bucket.name));
    result.insert("Prefix".into(), json!(prefix));
    result.insert("Marker".into(), json!(marker));
    result.insert("MaxKeys".into(), json!(limit));
    result.insert("Delimiter".into(), json!(delimiter));
    result.insert("IsTruncated".into(), json!(truncated));
    if truncated {
        result.insert("NextMarker".into(), json!(next_marker));
    }
    result.insert("Contents".into(), Value::Array(contents));
    let prefixes: Vec<Value> = common_prefixes.into_iter().map(|p| json!({ "Prefix": p })).collect();
    result.insert("CommonPrefixes".into(), Value::Array(prefixes));
    ctx.reference(BUCKET_TYPE, &bucket.name);
    Ok(json!({ "ListBucketResult": result }))
}

fn put_object_acl(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let (bucket, mut object) = own_object(ctx, p)?;
    object.set("Acl", object_acl(p, None)?);
    ctx.reference(BUCKET_TYPE, &bucket.name);
    ctx.put(object);
    Ok(json!({}))
}

fn get_object_acl(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let (bucket, object) = own_object(ctx, p)?;
    ctx.reference(BUCKET_TYPE, &bucket.name);
    Ok(json!({ "AccessControlPolicy": {
        "Owner": owner_json(ctx),
        "AccessControlList": { "Grant": object.attr_str("Acl") },
    } }))
}

// ---------------------------------------------------------------------------------------------
// The HTTP side: which operation a request is, its signature, its parameters, its response.

/// The query parameters that are sub-resources: they are part of the signed resource.
const SUB_RESOURCES: &[&str] = &[
    "acl",
    "append",
    "bucketInfo",
    "callback",
    "callback-var",
    "comp",
    "continuation-token",
    "cors",
    "delete",
    "encryption",
    "endTime",
    "group",
    "inventory",
    "inventoryId",
    "lifecycle",
    "link",
    "live",
    "location",
    "logging",
    "objectInfo",
    "objectMeta",
    "partNumber",
    "policy",
    "position",
    "qos",
    "referer",
    "replication",
    "replicationLocation",
    "replicationProgress",
    "requestPayment",
    "resourceGroup",
    "response-cache-control",
    "response-content-disposition",
    "response-content-encoding",
    "response-content-language",
    "response-content-type",
    "response-expires",
    "restore",
    "security-token",
    "sequential",
    "startTime",
    "stat",
    "status",
    "style",
    "styleName",
    "symlink",
    "tagging",
    "transferAcceleration",
    "uploadId",
    "uploads",
    "versionId",
    "versioning",
    "versions",
    "vod",
    "website",
    "worm",
    "wormExtend",
    "wormId",
    "x-oss-process",
    "x-oss-traffic-limit",
];

/// The sub-resources this emulator answers; any other one is `NotImplemented`.
const SUPPORTED_SUB_RESOURCES: &[&str] = &["acl", "lifecycle", "versioning", "website", "bucketInfo", "location"];

/// What a request addresses: `/`, `/<bucket>` or `/<bucket>/<key>`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Target {
    bucket: Option<String>,
    key: Option<String>,
    action: &'static str,
}

fn not_implemented() -> ApiError {
    oss_error(
        StatusCode::NOT_IMPLEMENTED,
        "NotImplemented",
        "This operation is not supported by this OSS endpoint.",
    )
}

fn target(req: &RestRequest) -> Result<Target, ApiError> {
    let path = req.uri.path().trim_start_matches('/');
    let (bucket, key) = match path.split_once('/') {
        Some((bucket, key)) => (bucket, key),
        None => (path, ""),
    };
    let decode = |s: &str| {
        percent_encoding::percent_decode_str(s)
            .decode_utf8()
            .map(|c| c.into_owned())
            .map_err(|_| {
                oss_error(
                    StatusCode::BAD_REQUEST,
                    "InvalidObjectName",
                    "The specified object is not valid.",
                )
            })
    };
    let bucket = Some(decode(bucket)?).filter(|b| !b.is_empty());
    let key = Some(decode(key)?).filter(|k| !k.is_empty());
    let query = req.query();
    let sub: Vec<&str> = query
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| SUB_RESOURCES.contains(k))
        .collect();
    if sub.iter().any(|k| !SUPPORTED_SUB_RESOURCES.contains(k)) || sub.len() > 1 {
        return Err(not_implemented());
    }
    let sub = sub.first().copied();
    let action = match (&req.method, bucket.is_some(), key.is_some(), sub) {
        (&Method::GET, false, false, None) => "ListBuckets",
        (&Method::PUT, true, false, None) => "PutBucket",
        (&Method::PUT, true, false, Some("acl")) => "PutBucketAcl",
        (&Method::PUT, true, false, Some("lifecycle")) => "PutBucketLifecycle",
        (&Method::PUT, true, false, Some("versioning")) => "PutBucketVersioning",
        (&Method::PUT, true, false, Some("website")) => "PutBucketWebsite",
        (&Method::GET, true, false, None) => "ListObjects",
        (&Method::GET, true, false, Some("acl")) => "GetBucketAcl",
        (&Method::GET, true, false, Some("lifecycle")) => "GetBucketLifecycle",
        (&Method::GET, true, false, Some("versioning")) => "GetBucketVersioning",
        (&Method::GET, true, false, Some("website")) => "GetBucketWebsite",
        (&Method::GET, true, false, Some("bucketInfo")) => "GetBucketInfo",
        (&Method::GET, true, false, Some("location")) => "GetBucketLocation",
        (&Method::DELETE, true, false, None) => "DeleteBucket",
        (&Method::DELETE, true, false, Some("lifecycle")) => "DeleteBucketLifecycle",
        (&Method::DELETE, true, false, Some("website")) => "DeleteBucketWebsite",
        (&Method::PUT, true, true, None) if req.header("x-oss-copy-source").is_none() => "PutObject",
        (&Method::PUT, true, true, Some("acl")) => "PutObjectACL",
        (&Method::GET, true, true, None) => "GetObject",
        (&Method::GET, true, true, Some("acl")) => "GetObjectACL",
        (&Method::HEAD, true, true, None) => "HeadObject",
        (&Method::DELETE, true, true, None) => "DeleteObject",
        _ => return Err(not_implemented()),
    };
    Ok(Target { bucket, key, action })
}

/// The signature V1 string to sign: verb, `Content-MD5`, `Content-Type`, `Date` (a presigned URL's
/// `Expires`), the `x-oss-` headers (lower-case, sorted, `name:value\n` each) and the canonical
/// resource (`/bucket/key?sub-resources`).
pub(crate) fn string_to_sign(req: &RestRequest, bucket: Option<&str>, key: Option<&str>, time: &str) -> String {
    let header = |name: &str| req.header(name).unwrap_or("").to_owned();
    let mut oss_headers: Vec<(String, String)> = req
        .headers
        .iter()
        .map(|(n, v)| {
            (
                n.as_str().to_ascii_lowercase(),
                v.to_str().unwrap_or("").trim().to_owned(),
            )
        })
        .filter(|(n, _)| n.starts_with("x-oss-"))
        .collect();
    oss_headers.sort();
    let canonical_headers: String = oss_headers.iter().map(|(n, v)| format!("{n}:{v}\n")).collect();
    let mut sub: Vec<(String, String)> = req
        .query()
        .into_iter()
        .filter(|(k, _)| SUB_RESOURCES.contains(&k.as_str()))
        .collect();
    sub.sort();
    let mut resource = match bucket {
        None => "/".to_owned(),
        Some(bucket) => format!("/{bucket}/{}", key.unwrap_or("")),
    };
    if !sub.is_empty() {
        let parts: Vec<String> = sub
            .iter()
            .map(|(k, v)| if v.is_empty() { k.clone() } else { format!("{k}={v}") })
            .collect();
        resource.push('?');
        resource.push_str(&parts.join("&"));
    }
    format!(
        "{}\n{}\n{}\n{}\n{canonical_headers}{resource}",
        req.method.as_str(),
        header("content-md5"),
        header("content-type"),
        time
    )
}

/// Why a request was refused before its operation ran.
struct Refusal {
    error: ApiError,
    /// The authenticated (or at least identified) key: the refusal is then an event of its account.
    key: Option<Box<crate::model::AccessKey>>,
    /// More elements of the XML error (`StringToSign` for a bad signature).
    extras: Vec<(&'static str, String)>,
}

impl From<ApiError> for Refusal {
    fn from(error: ApiError) -> Self {
        Self {
            error,
            key: None,
            extras: Vec::new(),
        }
    }
}

/// Checks signature V1, given in the `Authorization` header (with `Date`) or in a presigned URL's
/// query (`OSSAccessKeyId`, `Expires`, `Signature`), against the AccessKey's secret.
fn authenticate(console: &Console, req: &RestRequest, target: &Target) -> Result<crate::model::AccessKey, Refusal> {
    let authorization = req.header("authorization").unwrap_or("");
    if authorization.starts_with(V4_SCHEME) {
        return Err(access_denied(
            "Signature version 4 is not supported by this endpoint; sign requests with OSS signature V1.",
        )
        .into());
    }
    let query = req.query();
    let query_value = |name: &str| query.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    let (access_key_id, given, expires) = if authorization.is_empty() {
        match (
            query_value("OSSAccessKeyId"),
            query_value("Signature"),
            query_value("Expires"),
        ) {
            (Some(ak), Some(signature), Some(expires)) => (ak, signature, Some(expires)),
            _ => return Err(access_denied("Anonymous access is forbidden for this operation.").into()),
        }
    } else {
        let Some((ak, signature)) = authorization
            .strip_prefix("OSS ")
            .and_then(|c| c.trim().split_once(':'))
        else {
            return Err(invalid_argument("Authorization header is invalid.").into());
        };
        (ak.to_owned(), signature.to_owned(), None)
    };
    let unknown = || {
        oss_error(
            StatusCode::FORBIDDEN,
            "InvalidAccessKeyId",
            "The OSS Access Key Id you provided does not exist in our records.",
        )
    };
    let key = access_key(console, &access_key_id).ok_or_else(unknown)?;
    if !key.active {
        return Err(oss_error(
            StatusCode::FORBIDDEN,
            "InvalidAccessKeyId",
            "The OSS Access Key Id you provided is disabled.",
        )
        .into());
    }
    let audited = |error: ApiError, extras: Vec<(&'static str, String)>| Refusal {
        error,
        key: Some(Box::new(key.clone())),
        extras,
    };
    let now_ms = console.clock.now_ms();
    // A presigned URL signs its expiry time where a header-signed request signs its Date.
    let signed_time = match expires {
        Some(expires) => {
            let Ok(seconds) = expires.parse::<i64>() else {
                return Err(audited(
                    access_denied(&format!("Invalid Expires: {expires}")),
                    Vec::new(),
                ));
            };
            if seconds.saturating_mul(1000) < now_ms {
                let extras = vec![("Expires", oss_time(seconds * 1000)), ("ServerTime", oss_time(now_ms))];
                return Err(audited(access_denied("Request has expired."), extras));
            }
            expires
        }
        None => {
            let Some(date) = req.header("date") else {
                return Err(audited(access_denied("The Date header is required."), Vec::new()));
            };
            let Some(at) = parse_http_date(date) else {
                return Err(audited(
                    access_denied(&format!("Invalid date string: {date}")),
                    Vec::new(),
                ));
            };
            if (now_ms - at).abs() > console.config.max_clock_skew_ms {
                let error = oss_error(
                    StatusCode::FORBIDDEN,
                    "RequestTimeTooSkewed",
                    "The difference between the request time and the current time is too large.",
                );
                let extras = vec![("RequestTime", date.to_owned()), ("ServerTime", oss_time(now_ms))];
                return Err(audited(error, extras));
            }
            date.to_owned()
        }
    };
    let string_to_sign = string_to_sign(req, target.bucket.as_deref(), target.key.as_deref(), &signed_time);
    if !signatures_match(&rest_signature(&key.secret, &string_to_sign), &given) {
        let error = oss_error(
            StatusCode::FORBIDDEN,
            "SignatureDoesNotMatch",
            "The request signature we calculated does not match the signature you provided. \
             Check your key and signing method.",
        );
        let extras = vec![
            ("OSSAccessKeyId", access_key_id.clone()),
            ("SignatureProvided", given.clone()),
            ("StringToSign", string_to_sign),
        ];
        return Err(audited(error, extras));
    }
    Ok(key)
}

/// The operation's parameters: the bucket and key, the headers and query values it reads, and the
/// XML configuration bodies flattened (`StorageClass`, `Rule.1.ID`, `Rule.1.Expiration.Days`, …).
fn params_of(req: &RestRequest, target: &Target) -> Result<Params, ApiError> {
    let mut params = Params::default();
    if let Some(bucket) = &target.bucket {
        params.insert("BucketName", bucket);
    }
    if let Some(key) = &target.key {
        params.insert("ObjectName", key);
    }
    for (name, value) in &req.headers {
        let name = name.as_str();
        let wanted = matches!(
            name,
            "x-oss-acl"
                | "x-oss-object-acl"
                | "x-oss-storage-class"
                | "x-oss-server-side-encryption"
                | "x-oss-resource-group-id"
        ) || name.starts_with("x-oss-meta-");
        if wanted {
            params.insert(name, value.to_str().unwrap_or(""));
        }
    }
    if target.action == "PutObject" {
        for (header, param) in [("content-type", "Content-Type"), ("content-md5", "Content-MD5")] {
            if let Some(value) = req.header(header) {
                params.insert(param, value);
            }
        }
    }
    if matches!(target.action, "ListBuckets" | "ListObjects") {
        for (k, v) in req.query() {
            if matches!(k.as_str(), "prefix" | "marker" | "max-keys" | "delimiter") {
                params.insert(k, v);
            }
        }
    }
    let body = std::str::from_utf8(&req.body).map_err(|_| malformed_xml());
    match target.action {
        "PutBucket" if !req.body.is_empty() => {
            let body = body?;
            let config = single(body, "CreateBucketConfiguration")?;
            for field in ["StorageClass", "DataRedundancyType"] {
                if let Some(value) = xml::text(config, field).map_err(|Malformed| malformed_xml())? {
                    params.insert(field, value);
                }
            }
        }
        "PutBucketLifecycle" => {
            let config = single(body?, "LifecycleConfiguration")?;
            let rules = xml::elements(config, "Rule").map_err(|Malformed| malformed_xml())?;
            for (n, rule) in rules.iter().enumerate() {
                let n = n + 1;
                for field in ["ID", "Prefix", "Status"] {
                    if let Some(value) = xml::text(rule, field).map_err(|Malformed| malformed_xml())? {
                        params.insert(format!("Rule.{n}.{field}"), value);
                    }
                }
                for (m, tag) in xml::elements(rule, "Tag")
                    .map_err(|Malformed| malformed_xml())?
                    .iter()
                    .enumerate()
                {
                    for field in ["Key", "Value"] {
                        if let Some(value) = xml::text(tag, field).map_err(|Malformed| malformed_xml())? {
                            params.insert(format!("Rule.{n}.Tag.{}.{field}", m + 1), value);
                        }
                    }
                }
                for expiration in xml::elements(rule, "Expiration").map_err(|Malformed| malformed_xml())? {
                    for field in ["Days", "CreatedBeforeDate"] {
                        if let Some(value) = xml::text(expiration, field).map_err(|Malformed| malformed_xml())? {
                            params.insert(format!("Rule.{n}.Expiration.{field}"), value);
                        }
                    }
                }
            }
        }
        "PutBucketVersioning" => {
            let config = single(body?, "VersioningConfiguration")?;
            if let Some(status) = xml::text(config, "Status").map_err(|Malformed| malformed_xml())? {
                params.insert("Status", status);
            }
        }
        "PutBucketWebsite" => {
            let config = single(body?, "WebsiteConfiguration")?;
            for (element, fields) in [
                ("IndexDocument", &["Suffix", "SupportSubDir"][..]),
                ("ErrorDocument", &["Key"][..]),
            ] {
                for part in xml::elements(config, element).map_err(|Malformed| malformed_xml())? {
                    for field in fields {
                        if let Some(value) = xml::text(part, field).map_err(|Malformed| malformed_xml())? {
                            params.insert(format!("{element}.{field}"), value);
                        }
                    }
                }
            }
        }
        _ => {}
    }
    Ok(params)
}

fn single<'a>(body: &'a str, root: &str) -> Result<&'a str, ApiError> {
    match xml::elements(body, root)
        .map_err(|Malformed| malformed_xml())?
        .as_slice()
    {
        [one] => Ok(one),
        _ => Err(malformed_xml()),
    }
}

/// The region a bucket request is served in: the bucket's, or for a new bucket the one its `Host`
/// names (`oss-<region>.aliyuncs.com`), else the emulator's default.
fn region_of_host(console: &Console, req: &RestRequest) -> String {
    let host = req.header("host").unwrap_or("");
    REGIONS
        .iter()
        .find(|r| host.contains(&format!("oss-{}.", r.id)) || host.contains(&format!("oss-{}-internal.", r.id)))
        .map_or_else(|| console.config.default_region.clone(), |r| r.id.to_owned())
}

/// Serves one OSS request end to end.
pub(crate) fn serve(console: &Console, req: &RestRequest) -> Response {
    let target = match target(req) {
        Ok(t) => t,
        Err(e) => return error_response(&e, &request_id(), None, None, "", &[]),
    };
    let (bucket, key) = (target.bucket.as_deref(), target.key.as_deref());
    let refuse = |refusal: Refusal, params: &Params, region: &str| {
        let request_id = match &refusal.key {
            Some(k) => console.record_failure(&PRODUCT, target.action, params, &caller_of(k, req), &refusal.error),
            None => request_id(),
        };
        error_response(&refusal.error, &request_id, bucket, key, region, &refusal.extras)
    };
    let mut params = Params::default();
    params.insert("RegionId", console.config.default_region.clone());
    if let Some(b) = bucket {
        params.insert("BucketName", b);
    }
    let access_key = match authenticate(console, req, &target) {
        Ok(k) => k,
        Err(refusal) => return refuse(refusal, &params, &console.config.default_region),
    };
    let audited = |error: ApiError| Refusal {
        error,
        key: Some(Box::new(access_key.clone())),
        extras: Vec::new(),
    };

    // Buckets are global: find the bucket's owner (and so its region) before running the operation.
    let _names_guard = (target.action == "PutBucket").then(|| GLOBAL_NAMES.lock());
    let owner = bucket.and_then(|b| owner_of(console, |account_id| bucket_id(account_id, b)));
    let region = match (&owner, target.action) {
        (Some((_, resource)), _) => resource.region.clone(),
        (None, "PutBucket") => region_of_host(console, req),
        (None, _) => console.config.default_region.clone(),
    };
    params.insert("RegionId", region.clone());
    let mut full = match params_of(req, &target) {
        Ok(p) => p,
        Err(e) => return refuse(audited(e), &params, &region),
    };
    full.insert("RegionId", region.clone());
    if let Some((owner_id, _)) = &owner
        && *owner_id != access_key.account_id
    {
        let error = if target.action == "PutBucket" {
            bucket_already_exists()
        } else {
            access_denied("The bucket you access does not belong to you.")
        };
        return refuse(audited(error), &full, &region);
    }
    let caller = caller_of(&access_key, req);
    let product = &PRODUCT;
    let (outcome, raw_body) = crate::rest::with_body(req.body.clone(), || {
        console.call(product, target.action, &full, &caller)
    });
    match outcome.result {
        Ok(body) => success_response(target.action, &outcome.request_id, body, raw_body),
        Err(e) => error_response(&e, &outcome.request_id, bucket, key, &region, &[]),
    }
}

fn common_headers(headers: &mut HeaderMap, request_id: &str) {
    if let Ok(v) = HeaderValue::from_str(request_id) {
        headers.insert("x-oss-request-id", v);
    }
    headers.insert(header::SERVER, HeaderValue::from_static("AliyunOSS"));
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as Millis);
    if let Ok(v) = HeaderValue::from_str(&http_date(now)) {
        headers.insert(header::DATE, v);
    }
}

/// The operation's JSON becomes the response: `Headers` are response headers, the one other key (if
/// any) is the XML document's root element, and a raw body set by the operation is sent as is.
fn success_response(action: &str, request_id: &str, body: Value, raw_body: Option<Vec<u8>>) -> Response {
    let mut map = match body {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    map.remove("RequestId");
    let extra_headers = map.remove("Headers");
    let status = if action.starts_with("Delete") {
        StatusCode::NO_CONTENT
    } else {
        StatusCode::OK
    };
    let (content, content_type) = match (raw_body, map.into_iter().next()) {
        (Some(raw), _) => (raw, None),
        (None, Some((root, value))) => (xml::document(&root, &value).into_bytes(), Some("application/xml")),
        (None, None) => (Vec::new(), None),
    };
    let mut response = (status, content).into_response();
    let headers = response.headers_mut();
    headers.remove(header::CONTENT_TYPE);
    if let Some(ct) = content_type {
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(ct));
    }
    if let Some(Value::Object(extra)) = extra_headers {
        for (name, value) in extra {
            let value = value.as_str().map_or_else(|| value.to_string(), str::to_owned);
            if let (Ok(n), Ok(v)) = (HeaderName::from_bytes(name.as_bytes()), HeaderValue::from_str(&value)) {
                headers.insert(n, v);
            }
        }
    }
    common_headers(headers, request_id);
    response
}

/// OSS's XML error; `HostId` names the regional endpoint (`region` empty: the default one).
fn error_response(
    e: &ApiError,
    request_id: &str,
    bucket: Option<&str>,
    key: Option<&str>,
    region: &str,
    extras: &[(&str, String)],
) -> Response {
    let mut doc = Map::new();
    doc.insert("Code".into(), json!(e.code));
    doc.insert("Message".into(), json!(e.message));
    doc.insert("RequestId".into(), json!(request_id));
    let endpoint = PRODUCT.endpoint_in(region);
    let host = match bucket {
        Some(b) => format!("{b}.{endpoint}"),
        None => endpoint.to_owned(),
    };
    doc.insert("HostId".into(), json!(host));
    if let Some(b) = bucket {
        doc.insert("BucketName".into(), json!(b));
    }
    if let (Some(k), "NoSuchKey") = (key, e.code.as_str()) {
        doc.insert("Key".into(), json!(k));
    }
    for (name, value) in extras {
        doc.insert((*name).to_owned(), json!(value));
    }
    let mut response = (e.status, xml::document("Error", &Value::Object(doc))).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/xml"));
    common_headers(headers, request_id);
    response
}

pub(crate) fn internal_error(message: &str) -> Response {
    error_response(&ApiError::internal(message), &request_id(), None, None, "", &[])
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::rest::test_request as request;

    /// The request of the OSS signature V1 documentation's example; the expected signature was computed
    /// independently with Python's `hmac` module.
    #[test]
    fn signs_like_the_sdks() {
        let req = request(
            Method::PUT,
            "/examplebucket/nelson",
            &[
                ("content-md5", "eB5eJF1ptWaXm4bijSPyxw=="),
                ("content-type", "text/html"),
                ("date", "Wed, 28 Dec 2022 10:27:41 GMT"),
                ("x-oss-meta-author", "alice"),
                ("x-oss-magic", "abracadabra"),
            ],
        );
        let sts = string_to_sign(
            &req,
            Some("examplebucket"),
            Some("nelson"),
            "Wed, 28 Dec 2022 10:27:41 GMT",
        );
        assert_eq!(
            sts,
            "PUT\neB5eJF1ptWaXm4bijSPyxw==\ntext/html\nWed, 28 Dec 2022 10:27:41 GMT\n\
             x-oss-magic:abracadabra\nx-oss-meta-author:alice\n/examplebucket/nelson"
        );
        assert_eq!(
            rest_signature("yourAccessKeySecret", &sts),
            "AaYUkeA6IH/qBaGsNRkLE2B5kbQ="
        );
    }

    #[test]
    fn sub_resources_are_signed_and_routed() {
        let req = request(Method::GET, "/b1?acl&prefix=x", &[("date", "d")]);
        assert!(string_to_sign(&req, Some("b1"), None, "d").ends_with("\n/b1/?acl"));
        assert_eq!(target(&req).unwrap().action, "GetBucketAcl");
        assert_eq!(target(&request(Method::GET, "/", &[])).unwrap().action, "ListBuckets");
        let put = target(&request(Method::PUT, "/b1/dir/a%20b.txt", &[])).unwrap();
        assert_eq!((put.action, put.key.as_deref()), ("PutObject", Some("dir/a b.txt")));
        assert_eq!(
            target(&request(Method::GET, "/b1?cors", &[])).unwrap_err().code,
            "NotImplemented"
        );
    }

    #[test]
    fn bucket_names_follow_the_rules() {
        assert!(check_bucket_name("my-bucket-01").is_ok());
        for bad in ["ab", "My-Bucket", "-bucket", "bucket-", "under_score", &"a".repeat(64)] {
            assert_eq!(check_bucket_name(bad).unwrap_err().code, "InvalidBucketName", "{bad}");
        }
    }
}
