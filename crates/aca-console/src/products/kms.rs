//! Key Management Service (API 2016-01-20): customer master keys, their life cycle and their aliases.
//!
//! Keys are regional. A key scheduled for deletion stays visible, in state `PendingDeletion`, until its
//! pending window ends; from then on it is gone, as are the aliases that pointed at it.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::catalog::{OpCtx, Operation, Product, paginate};
use crate::clock::{Millis, iso8601};
use crate::error::ApiError;
use crate::model::Resource;
use crate::params::Params;
use crate::products::regions::region;

pub static PRODUCT: Product = Product {
    code: "kms",
    name: "Key Management Service",
    service_name: "Kms",
    version: "2016-01-20",
    endpoint: "kms.aliyuncs.com",
    console_agent: "kms.console.aliyun.com",
    operations: &[
        Operation::write("CreateKey", create_key),
        Operation::read("DescribeKey", describe_key),
        Operation::read("ListKeys", list_keys),
        Operation::write("UpdateKeyDescription", update_key_description),
        Operation::write("EnableKey", enable_key),
        Operation::write("DisableKey", disable_key),
        Operation::write("ScheduleKeyDeletion", schedule_key_deletion),
        Operation::write("CancelKeyDeletion", cancel_key_deletion),
        Operation::write("CreateAlias", create_alias),
        Operation::read("ListAliases", list_aliases),
        Operation::read("ListAliasesByKeyId", list_aliases_by_key_id),
        Operation::write("UpdateAlias", update_alias),
        Operation::write("DeleteAlias", delete_alias),
    ],
};

pub const KEY: &str = "kms.key";
pub const ALIAS: &str = "kms.alias";
const KEY_TYPE: &str = "ACS::KMS::Key";
const ALIAS_TYPE: &str = "ACS::KMS::Alias";

const DAY_MS: Millis = 24 * 60 * 60 * 1000;

/// Key specs and the usages each allows.
const KEY_SPECS: &[(&str, &[&str])] = &[
    ("Aliyun_AES_256", &["ENCRYPT/DECRYPT"]),
    ("Aliyun_AES_128", &["ENCRYPT/DECRYPT"]),
    ("Aliyun_AES_192", &["ENCRYPT/DECRYPT"]),
    ("Aliyun_SM4", &["ENCRYPT/DECRYPT"]),
    ("RSA_2048", &["ENCRYPT/DECRYPT", "SIGN/VERIFY"]),
    ("RSA_3072", &["ENCRYPT/DECRYPT", "SIGN/VERIFY"]),
    ("EC_P256", &["SIGN/VERIFY"]),
    ("EC_P256K", &["SIGN/VERIFY"]),
    ("EC_SM2", &["ENCRYPT/DECRYPT", "SIGN/VERIFY"]),
];

fn key_not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "Forbidden.KeyNotFound",
        "The specified Key is not found.",
    )
}

fn alias_not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "Forbidden.AliasNotFound",
        "The specified Alias is not found.",
    )
}

fn rejected_state(state: &str) -> ApiError {
    match state {
        "PendingDeletion" => ApiError::new(
            StatusCode::CONFLICT,
            "Rejected.PendingDeletion",
            "The request was rejected because the key state is PendingDeletion.",
        ),
        "Disabled" => ApiError::new(
            StatusCode::CONFLICT,
            "Rejected.Disabled",
            "The request was rejected because the key state is Disabled.",
        ),
        "PendingImport" => ApiError::new(
            StatusCode::CONFLICT,
            "Rejected.PendingImport",
            "The request was rejected because the key state is PendingImport.",
        ),
        _ => ApiError::new(
            StatusCode::CONFLICT,
            "Rejected.StateModifiedFailed",
            "Keystate modified failed.",
        ),
    }
}

/// Whether a key still exists: one scheduled for deletion is gone once its window has passed.
fn is_live(key: &Resource, now_ms: Millis) -> bool {
    !(key.status == "PendingDeletion" && key.attr_i64("DeleteAtMs").is_some_and(|at| at <= now_ms))
}

fn keys_here(ctx: &OpCtx<'_>) -> Vec<Resource> {
    ctx.list(KEY).into_iter().filter(|k| is_live(k, ctx.now_ms)).collect()
}

/// Aliases in the request's region whose key still exists.
fn aliases_here(ctx: &OpCtx<'_>) -> Vec<Resource> {
    let keys: Vec<String> = keys_here(ctx).into_iter().map(|k| k.id).collect();
    ctx.list(ALIAS)
        .into_iter()
        .filter(|a| a.parent.as_ref().is_some_and(|k| keys.contains(k)))
        .collect()
}

fn find_alias(ctx: &OpCtx<'_>, alias_name: &str) -> Result<Resource, ApiError> {
    aliases_here(ctx)
        .into_iter()
        .find(|a| a.name == alias_name)
        .ok_or_else(alias_not_found)
}

/// A key named by its id, its ARN or one of its aliases (`alias/…`), in the request's region.
fn resolve_key(ctx: &OpCtx<'_>, param: &str, p: &Params) -> Result<Resource, ApiError> {
    let reference = p.required(param)?;
    let id = if reference.starts_with("alias/") {
        find_alias(ctx, reference)?.parent.unwrap_or_default()
    } else if let Some(rest) = reference.strip_prefix("acs:kms:") {
        rest.rsplit_once(":key/")
            .map(|(_, id)| id.to_owned())
            .ok_or_else(key_not_found)?
    } else {
        reference.to_owned()
    };
    ctx.get(&id)
        .filter(|k| k.kind == KEY && k.region == ctx.region && is_live(k, ctx.now_ms))
        .ok_or_else(key_not_found)
}

fn key_arn(ctx: &OpCtx<'_>, region: &str, key_id: &str) -> String {
    format!("acs:kms:{region}:{}:key/{key_id}", ctx.account().id)
}

fn alias_arn(ctx: &OpCtx<'_>, region: &str, alias_name: &str) -> String {
    format!("acs:kms:{region}:{}:{alias_name}", ctx.account().id)
}

fn key_metadata(key: &Resource) -> Value {
    let mut metadata = json!({
        "KeyId": key.id,
        "Arn": key.attr_str("Arn"),
        "Description": key.attr_str("Description"),
        "KeyState": key.status,
        "KeySpec": key.attr_str("KeySpec"),
        "KeyUsage": key.attr_str("KeyUsage"),
        "ProtectionLevel": key.attr_str("ProtectionLevel"),
        "Origin": key.attr_str("Origin"),
        "Creator": key.attr_str("Creator"),
        "CreationDate": iso8601(key.created_ms),
        "PrimaryKeyVersion": key.attr_str("PrimaryKeyVersion"),
        "AutomaticRotation": "Disabled",
        "MaterialExpireTime": "",
        "LastRotationDate": iso8601(key.created_ms),
    });
    if let Some(delete_at) = key.attr_i64("DeleteAtMs").filter(|_| key.status == "PendingDeletion") {
        metadata["DeleteDate"] = json!(iso8601(delete_at));
    }
    metadata
}

fn create_key(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let spec_names: Vec<&str> = KEY_SPECS.iter().map(|(name, _)| *name).collect();
    let spec = p.one_of("KeySpec", &spec_names)?.unwrap_or("Aliyun_AES_256");
    let usage = p
        .one_of("KeyUsage", &["ENCRYPT/DECRYPT", "SIGN/VERIFY"])?
        .unwrap_or("ENCRYPT/DECRYPT");
    let allowed = KEY_SPECS
        .iter()
        .find(|(name, _)| *name == spec)
        .map_or(&[][..], |(_, usages)| *usages);
    if !allowed.contains(&usage) {
        return Err(ApiError::invalid_parameter(
            "KeyUsage",
            format!("{usage} is not supported by key spec {spec}"),
        ));
    }
    let protection = p.one_of("ProtectionLevel", &["SOFTWARE", "HSM"])?.unwrap_or("SOFTWARE");
    let origin = p.one_of("Origin", &["Aliyun_KMS", "EXTERNAL"])?.unwrap_or("Aliyun_KMS");
    let description = p.get("Description").unwrap_or("");
    if description.chars().count() > 8192 {
        return Err(ApiError::invalid_parameter(
            "Description",
            "the description is longer than 8192 characters",
        ));
    }
    let id = uuid::Uuid::new_v4().to_string();
    let region_id = ctx.region.clone();
    // A key whose material is imported waits for it.
    let state = if origin == "EXTERNAL" {
        "PendingImport"
    } else {
        "Enabled"
    };
    let key = Resource::new(KEY, id.clone(), &region_id, "", state, ctx.now_ms)
        .with("Arn", key_arn(ctx, &region_id, &id))
        .with("Description", description)
        .with("KeySpec", spec)
        .with("KeyUsage", usage)
        .with("ProtectionLevel", protection)
        .with("Origin", origin)
        .with("Creator", ctx.account().id.clone())
        .with("PrimaryKeyVersion", uuid::Uuid::new_v4().to_string());
    let body = json!({ "KeyMetadata": key_metadata(&key) });
    ctx.reference(KEY_TYPE, &id);
    ctx.put(key);
    Ok(body)
}

fn describe_key(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let key = resolve_key(ctx, "KeyId", p)?;
    ctx.reference(KEY_TYPE, &key.id);
    Ok(json!({ "KeyMetadata": key_metadata(&key) }))
}

fn list_keys(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let (page, number, size, total) = paginate(keys_here(ctx), p, 100)?;
    let keys: Vec<Value> = page
        .iter()
        .map(|k| json!({ "KeyId": k.id, "KeyArn": k.attr_str("Arn") }))
        .collect();
    Ok(json!({ "TotalCount": total, "PageNumber": number, "PageSize": size, "Keys": { "Key": keys } }))
}

fn update_key_description(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut key = resolve_key(ctx, "KeyId", p)?;
    let description = p.required("Description")?;
    key.set("Description", description);
    ctx.reference(KEY_TYPE, &key.id);
    ctx.put(key);
    Ok(json!({}))
}

/// Moves a key to `to`, allowed only from the states listed in `from`.
fn change_state(ctx: &mut OpCtx<'_>, p: &Params, from: &[&str], to: &str) -> Result<Resource, ApiError> {
    let mut key = resolve_key(ctx, "KeyId", p)?;
    if key.status != to && !from.contains(&key.status.as_str()) {
        return Err(rejected_state(&key.status));
    }
    key.status = to.to_owned();
    ctx.reference(KEY_TYPE, &key.id);
    Ok(key)
}

fn enable_key(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let key = change_state(ctx, p, &["Disabled"], "Enabled")?;
    ctx.put(key);
    Ok(json!({}))
}

fn disable_key(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let key = change_state(ctx, p, &["Enabled"], "Disabled")?;
    ctx.put(key);
    Ok(json!({}))
}

fn schedule_key_deletion(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    p.required("PendingWindowInDays")?;
    let days = p.int_in("PendingWindowInDays", 7..=366, 30)?;
    let mut key = resolve_key(ctx, "KeyId", p)?;
    if key.status == "PendingDeletion" {
        return Err(rejected_state(&key.status));
    }
    key.status = "PendingDeletion".to_owned();
    key.set("DeleteAtMs", ctx.now_ms + days * DAY_MS);
    ctx.reference(KEY_TYPE, &key.id);
    ctx.put(key);
    Ok(json!({}))
}

fn cancel_key_deletion(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut key = resolve_key(ctx, "KeyId", p)?;
    if key.status != "PendingDeletion" {
        return Err(rejected_state(&key.status));
    }
    key.status = "Enabled".to_owned();
    key.attrs.remove("DeleteAtMs");
    ctx.reference(KEY_TYPE, &key.id);
    ctx.put(key);
    Ok(json!({}))
}

/// `alias/` followed by 1–255 letters, digits, `_`, `-`, `/` or `:`; `alias/acs/` is reserved.
fn check_alias_name(name: &str) -> Result<(), ApiError> {
    let rest = name.strip_prefix("alias/").ok_or_else(|| {
        ApiError::invalid_parameter(
            "AliasName",
            "an alias name must start with alias/ (for example alias/my-key)",
        )
    })?;
    if rest.is_empty() || rest.chars().count() > 255 {
        return Err(ApiError::invalid_parameter(
            "AliasName",
            "the part after alias/ must be 1 to 255 characters long",
        ));
    }
    if !rest
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '/' | ':'))
    {
        return Err(ApiError::invalid_parameter(
            "AliasName",
            "only letters, digits, underscores (_), hyphens (-), slashes (/) and colons (:) are allowed",
        ));
    }
    if rest.starts_with("acs/") {
        return Err(ApiError::invalid_parameter(
            "AliasName",
            "the prefix alias/acs/ is reserved for cloud services",
        ));
    }
    Ok(())
}

/// The key an alias may point at: an existing key, given by id, that is not being deleted.
fn alias_target(ctx: &OpCtx<'_>, p: &Params) -> Result<Resource, ApiError> {
    let key = resolve_key(ctx, "KeyId", p)?;
    if key.status == "PendingDeletion" {
        return Err(rejected_state(&key.status));
    }
    Ok(key)
}

fn create_alias(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let alias_name = p.required("AliasName")?;
    check_alias_name(alias_name)?;
    let key = alias_target(ctx, p)?;
    if aliases_here(ctx).iter().any(|a| a.name == alias_name) {
        return Err(ApiError::already_exists(
            "AliasAlreadyExists",
            "AliasName Already Exists.",
        ));
    }
    let region_id = ctx.region.clone();
    let mut alias = Resource::new(
        ALIAS,
        ctx.new_id("alias"),
        &region_id,
        alias_name,
        "Available",
        ctx.now_ms,
    )
    .with("AliasArn", alias_arn(ctx, &region_id, alias_name));
    alias.parent = Some(key.id.clone());
    ctx.reference(KEY_TYPE, &key.id);
    ctx.reference(ALIAS_TYPE, alias_name);
    ctx.put(alias);
    Ok(json!({}))
}

fn alias_json(alias: &Resource) -> Value {
    json!({ "AliasName": alias.name, "AliasArn": alias.attr_str("AliasArn"), "KeyId": alias.parent })
}

fn list_aliases(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let (page, number, size, total) = paginate(aliases_here(ctx), p, 100)?;
    let aliases: Vec<Value> = page.iter().map(alias_json).collect();
    Ok(json!({ "TotalCount": total, "PageNumber": number, "PageSize": size, "Aliases": { "Alias": aliases } }))
}

fn list_aliases_by_key_id(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let key = resolve_key(ctx, "KeyId", p)?;
    let of_key: Vec<Resource> = aliases_here(ctx)
        .into_iter()
        .filter(|a| a.parent.as_deref() == Some(key.id.as_str()))
        .collect();
    let (page, number, size, total) = paginate(of_key, p, 100)?;
    let aliases: Vec<Value> = page.iter().map(alias_json).collect();
    ctx.reference(KEY_TYPE, &key.id);
    Ok(json!({ "TotalCount": total, "PageNumber": number, "PageSize": size, "Aliases": { "Alias": aliases } }))
}

fn update_alias(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let alias_name = p.required("AliasName")?;
    let mut alias = find_alias(ctx, alias_name)?;
    let key = alias_target(ctx, p)?;
    alias.parent = Some(key.id.clone());
    ctx.reference(KEY_TYPE, &key.id);
    ctx.reference(ALIAS_TYPE, alias_name);
    ctx.put(alias);
    Ok(json!({}))
}

fn delete_alias(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let alias_name = p.required("AliasName")?;
    let alias = find_alias(ctx, alias_name)?;
    if let Some(key) = &alias.parent {
        ctx.reference(KEY_TYPE, key);
    }
    ctx.reference(ALIAS_TYPE, alias_name);
    ctx.delete(&alias.id);
    Ok(json!({}))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::clock::ManualClock;
    use crate::products::ram::harness::Harness;
    use crate::{Console, ConsoleConfig};

    fn new_key(h: &Harness) -> String {
        let body = h.ok(
            &PRODUCT,
            "CreateKey",
            &[("Description", "orders"), ("KeySpec", "Aliyun_AES_256")],
        );
        body["KeyMetadata"]["KeyId"].as_str().unwrap().to_owned()
    }

    fn state(h: &Harness, key: &str) -> String {
        let body = h.ok(&PRODUCT, "DescribeKey", &[("KeyId", key)]);
        body["KeyMetadata"]["KeyState"].as_str().unwrap().to_owned()
    }

    #[test]
    fn create_key_returns_its_metadata_and_event() {
        let h = Harness::new();
        let body = h.ok(
            &PRODUCT,
            "CreateKey",
            &[
                ("Description", "orders"),
                ("KeyUsage", "ENCRYPT/DECRYPT"),
                ("ProtectionLevel", "SOFTWARE"),
            ],
        );
        let metadata = &body["KeyMetadata"];
        let id = metadata["KeyId"].as_str().unwrap();
        assert!(uuid::Uuid::parse_str(id).is_ok(), "{id}");
        assert_eq!(metadata["KeyState"], "Enabled");
        assert_eq!(metadata["KeySpec"], "Aliyun_AES_256");
        assert_eq!(
            metadata["Arn"],
            format!("acs:kms:cn-hangzhou:{}:key/{id}", h.account.account_id)
        );
        let event = h.last_event("CreateKey");
        assert_eq!(
            (event.service_name.as_str(), event.event_source.as_str()),
            ("Kms", "kms.aliyuncs.com")
        );
        assert_eq!(event.referenced_resources["ACS::KMS::Key"], [id]);
        let e = h.err(
            &PRODUCT,
            "CreateKey",
            &[("KeySpec", "EC_P256"), ("KeyUsage", "ENCRYPT/DECRYPT")],
        );
        assert!(e.message.contains("\"KeyUsage\""));
        let e = h.err(&PRODUCT, "CreateKey", &[("KeySpec", "AES_999")]);
        assert!(e.message.contains("\"KeySpec\""));
        let listed = h.ok(&PRODUCT, "ListKeys", &[("PageSize", "5")]);
        assert_eq!(listed["TotalCount"], 1);
        assert_eq!(listed["Keys"]["Key"][0]["KeyId"], id);
    }

    #[test]
    fn keys_are_enabled_and_disabled() {
        let h = Harness::new();
        let key = new_key(&h);
        h.ok(&PRODUCT, "DisableKey", &[("KeyId", &key)]);
        assert_eq!(state(&h, &key), "Disabled");
        h.ok(&PRODUCT, "EnableKey", &[("KeyId", &key)]);
        assert_eq!(state(&h, &key), "Enabled");
        let e = h.err(
            &PRODUCT,
            "EnableKey",
            &[("KeyId", "11111111-2222-3333-4444-555555555555")],
        );
        assert_eq!((e.code.as_str(), e.status.as_u16()), ("Forbidden.KeyNotFound", 404));
    }

    #[test]
    fn deletion_window_is_bounded_and_cancellable() {
        let h = Harness::new();
        let key = new_key(&h);
        for days in ["6", "367", "week"] {
            let e = h.err(
                &PRODUCT,
                "ScheduleKeyDeletion",
                &[("KeyId", &key), ("PendingWindowInDays", days)],
            );
            assert!(e.message.contains("\"PendingWindowInDays\""), "{days}: {}", e.message);
        }
        let e = h.err(&PRODUCT, "ScheduleKeyDeletion", &[("KeyId", &key)]);
        assert_eq!(e.code, "MissingParameter");
        h.ok(
            &PRODUCT,
            "ScheduleKeyDeletion",
            &[("KeyId", &key), ("PendingWindowInDays", "7")],
        );
        let described = h.ok(&PRODUCT, "DescribeKey", &[("KeyId", &key)]);
        assert_eq!(described["KeyMetadata"]["KeyState"], "PendingDeletion");
        assert!(described["KeyMetadata"]["DeleteDate"].is_string());
        assert_eq!(
            h.err(&PRODUCT, "DisableKey", &[("KeyId", &key)]).code,
            "Rejected.PendingDeletion"
        );
        h.ok(&PRODUCT, "CancelKeyDeletion", &[("KeyId", &key)]);
        assert_eq!(state(&h, &key), "Enabled");
        assert_eq!(
            h.err(&PRODUCT, "CancelKeyDeletion", &[("KeyId", &key)]).code,
            "Rejected.StateModifiedFailed"
        );
        h.ok(
            &PRODUCT,
            "ScheduleKeyDeletion",
            &[("KeyId", &key), ("PendingWindowInDays", "366")],
        );
    }

    #[test]
    fn a_key_is_gone_once_its_window_has_passed() {
        let clock = Arc::new(ManualClock::new(1_796_047_265_000));
        let console = Console::new(ConsoleConfig::for_tests(), crate::Store::in_memory(), clock.clone());
        let account = console.create_account("tester", None).unwrap();
        let h = Harness { console, account };
        let key = new_key(&h);
        h.ok(
            &PRODUCT,
            "CreateAlias",
            &[("AliasName", "alias/orders"), ("KeyId", &key)],
        );
        h.ok(
            &PRODUCT,
            "ScheduleKeyDeletion",
            &[("KeyId", &key), ("PendingWindowInDays", "7")],
        );
        clock.advance(7 * DAY_MS - 1);
        assert_eq!(state(&h, &key), "PendingDeletion");
        clock.advance(1);
        assert_eq!(
            h.err(&PRODUCT, "DescribeKey", &[("KeyId", &key)]).code,
            "Forbidden.KeyNotFound"
        );
        assert_eq!(h.ok(&PRODUCT, "ListKeys", &[])["TotalCount"], 0);
        assert_eq!(h.ok(&PRODUCT, "ListAliases", &[])["TotalCount"], 0);
    }

    #[test]
    fn aliases_name_keys() {
        let h = Harness::new();
        let key = new_key(&h);
        let other = new_key(&h);
        let e = h.err(&PRODUCT, "CreateAlias", &[("AliasName", "orders"), ("KeyId", &key)]);
        assert!(e.message.contains("\"AliasName\""));
        let e = h.err(
            &PRODUCT,
            "CreateAlias",
            &[("AliasName", "alias/acs/rds"), ("KeyId", &key)],
        );
        assert!(e.message.contains("reserved"));
        h.ok(
            &PRODUCT,
            "CreateAlias",
            &[("AliasName", "alias/orders"), ("KeyId", &key)],
        );
        let e = h.err(
            &PRODUCT,
            "CreateAlias",
            &[("AliasName", "alias/orders"), ("KeyId", &other)],
        );
        assert_eq!(e.code, "AliasAlreadyExists");
        assert_eq!(
            h.ok(&PRODUCT, "DescribeKey", &[("KeyId", "alias/orders")])["KeyMetadata"]["KeyId"],
            key
        );
        let listed = h.ok(&PRODUCT, "ListAliases", &[]);
        assert_eq!(listed["Aliases"]["Alias"][0]["AliasName"], "alias/orders");
        let arn = format!("acs:kms:cn-hangzhou:{}:alias/orders", h.account.account_id);
        assert_eq!(listed["Aliases"]["Alias"][0]["AliasArn"], arn);

        h.ok(
            &PRODUCT,
            "UpdateAlias",
            &[("AliasName", "alias/orders"), ("KeyId", &other)],
        );
        assert_eq!(
            h.ok(&PRODUCT, "DescribeKey", &[("KeyId", "alias/orders")])["KeyMetadata"]["KeyId"],
            other
        );
        let by_key = h.ok(&PRODUCT, "ListAliasesByKeyId", &[("KeyId", &key)]);
        assert_eq!(by_key["TotalCount"], 0);
        h.ok(&PRODUCT, "DeleteAlias", &[("AliasName", "alias/orders")]);
        assert_eq!(
            h.err(&PRODUCT, "DeleteAlias", &[("AliasName", "alias/orders")]).code,
            "Forbidden.AliasNotFound"
        );
    }

    #[test]
    fn keys_stay_in_their_account_and_region() {
        let h = Harness::new();
        let key = new_key(&h);
        let other = h.another_account("other");
        let e = h
            .call_as(&other, &PRODUCT, "DescribeKey", &[("KeyId", &key)])
            .unwrap_err();
        assert_eq!(e.code, "Forbidden.KeyNotFound");
        assert_eq!(h.call_as(&other, &PRODUCT, "ListKeys", &[]).unwrap()["TotalCount"], 0);
        let e = h.err(&PRODUCT, "DescribeKey", &[("KeyId", &key), ("RegionId", "cn-beijing")]);
        assert_eq!(e.code, "Forbidden.KeyNotFound");
    }
}
