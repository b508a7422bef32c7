//! Key Management Service (API 2016-01-20): KMS instances, customer master keys, their life cycle
//! and their aliases, and generic secrets.
//!
//! Keys are regional. A key scheduled for deletion stays visible, in state `PendingDeletion`, until its
//! pending window ends; from then on it is gone, as are the aliases that pointed at it.
//!
//! A KMS instance is bought through the billing API (BssOpenApi `CreateInstance`, [`crate::products::bss`])
//! and is `Uninitialized` until `ConnectKmsInstance` enables it in a VPC. Keys created with
//! `DKMSInstanceId` and every secret belong to an enabled instance; a secret is encrypted by a
//! symmetric key of its instance. Releasing an instance releases its keys and secrets.

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
        Operation::write("SetDeletionProtection", set_deletion_protection),
        Operation::write("CreateAlias", create_alias),
        Operation::read("ListAliases", list_aliases),
        Operation::read("ListAliasesByKeyId", list_aliases_by_key_id),
        Operation::write("UpdateAlias", update_alias),
        Operation::write("DeleteAlias", delete_alias),
        Operation::read("ListKmsInstances", list_kms_instances),
        Operation::read("GetKmsInstance", get_kms_instance),
        Operation::write("ConnectKmsInstance", connect_kms_instance),
        Operation::write("ReleaseKmsInstance", release_kms_instance),
        Operation::write("CreateSecret", create_secret),
        Operation::read("ListSecrets", list_secrets),
        Operation::read("DescribeSecret", describe_secret),
        Operation::read("GetSecretValue", get_secret_value),
        Operation::write("DeleteSecret", delete_secret),
    ],
};

pub const KEY: &str = "kms.key";
pub const ALIAS: &str = "kms.alias";
pub const INSTANCE: &str = "kms.instance";
pub const SECRET: &str = "kms.secret";
const KEY_TYPE: &str = "ACS::KMS::Key";
const ALIAS_TYPE: &str = "ACS::KMS::Alias";
const INSTANCE_TYPE: &str = "ACS::KMS::Instance";
const SECRET_TYPE: &str = "ACS::KMS::Secret";

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
        "DKMSInstanceId": key.attr_str("DKMSInstanceId"),
        "DeletionProtection": if protected(key) { "Enabled" } else { "Disabled" },
        "DeletionProtectionDescription": key.attr_str("DeletionProtectionDescription"),
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
    let instance = match p.get("DKMSInstanceId").filter(|v| !v.is_empty()) {
        Some(instance_id) => Some(connected_instance(ctx, instance_id)?),
        None => None,
    };
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
        .with("PrimaryKeyVersion", uuid::Uuid::new_v4().to_string())
        .with("DKMSInstanceId", instance.as_ref().map_or("", |i| i.id.as_str()));
    let body = json!({ "KeyMetadata": key_metadata(&key) });
    if let Some(instance) = &instance {
        ctx.reference(INSTANCE_TYPE, &instance.id);
    }
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

fn protected(key: &Resource) -> bool {
    key.attrs.get("DeletionProtection").and_then(Value::as_bool) == Some(true)
}

fn schedule_key_deletion(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    p.required("PendingWindowInDays")?;
    let days = p.int_in("PendingWindowInDays", 7..=366, 30)?;
    let mut key = resolve_key(ctx, "KeyId", p)?;
    if key.status == "PendingDeletion" {
        return Err(rejected_state(&key.status));
    }
    if protected(&key) {
        // The documented rule (SetDeletionProtection, 2025-07-30); the code is the emulator's own,
        // no page names the real one.
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "Forbidden.DeletionProtection",
            "The key is protected from deletion. Disable deletion protection first.",
        ));
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

/// Turns deletion protection on or off for a key named by `ProtectedResourceArn` (or `KeyId`).
fn set_deletion_protection(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    p.required("EnableDeletionProtection")?;
    let enable = p.bool("EnableDeletionProtection")?.unwrap_or(false);
    let param = if p.get("ProtectedResourceArn").is_some() {
        "ProtectedResourceArn"
    } else {
        "KeyId"
    };
    let mut key = resolve_key(ctx, param, p)?;
    if key.status == "PendingDeletion" {
        return Err(rejected_state(&key.status));
    }
    key.set("DeletionProtection", enable);
    let description = if enable {
        p.get("DeletionProtectionDescription").unwrap_or("")
    } else {
        ""
    };
    key.set("DeletionProtectionDescription", description);
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

// KMS instances.

fn instance_not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "Forbidden.ResourceNotFound",
        "The specified KMS instance is not found.",
    )
}

/// A KMS instance of the request's region.
fn find_instance(ctx: &OpCtx<'_>, id: &str) -> Result<Resource, ApiError> {
    ctx.get(id)
        .filter(|i| i.kind == INSTANCE && i.region == ctx.region)
        .ok_or_else(instance_not_found)
}

/// An instance that keys and secrets can be created in: one that is enabled.
fn connected_instance(ctx: &OpCtx<'_>, id: &str) -> Result<Resource, ApiError> {
    let instance = find_instance(ctx, id)?;
    if instance.status != "Connected" {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "Rejected.InstanceNotConnected",
            format!("The KMS instance {id} is not enabled (its status is {}).", instance.status),
        ));
    }
    Ok(instance)
}

pub(crate) fn instance_arn(account_id: &str, region: &str, id: &str) -> String {
    format!("acs:kms:{region}:{account_id}:keystore/{id}")
}

fn list_kms_instances(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let (page, number, size, total) = paginate(ctx.list(INSTANCE), p, 100)?;
    let instances: Vec<Value> = page
        .iter()
        .map(|i| json!({ "KmsInstanceId": i.id, "KmsInstanceArn": i.attr_str("Arn") }))
        .collect();
    Ok(json!({
        "TotalCount": total, "PageNumber": number, "PageSize": size,
        "KmsInstances": { "KmsInstance": instances },
    }))
}

fn get_kms_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p.required("KmsInstanceId")?)?;
    ctx.reference(INSTANCE_TYPE, &instance.id);
    Ok(json!({ "KmsInstance": {
        "InstanceId": instance.id,
        "InstanceName": instance.name,
        "Status": instance.status,
        "CreateTime": iso8601(instance.created_ms),
        "ProductVersion": instance.attr_str("ProductVersion"),
        "ChargeType": instance.attr_str("ChargeType"),
        "Spec": instance.attr_i64("Spec").unwrap_or(1000),
        "KeyNum": instance.attr_i64("KeyNum").unwrap_or(1000),
        "SecretNum": instance.attr_i64("SecretNum").unwrap_or(0).to_string(),
        "VpcNum": instance.attr_i64("VpcNum").unwrap_or(1),
        "VpcId": instance.attr_str("VpcId"),
        "ZoneIds": instance.attr_str("ZoneIds"),
        "VswitchIds": instance.attr_str("VswitchIds"),
        "KmsInstanceArn": instance.attr_str("Arn"),
    }}))
}

fn connect_kms_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut instance = find_instance(ctx, p.required("KmsInstanceId")?)?;
    let vpc_id = p.required("VpcId")?;
    let zone_ids = p.required("ZoneIds")?;
    let vswitch_ids = p.required("VSwitchIds")?;
    p.one_of("KMProvider", &["Aliyun"])?;
    p.required("KMProvider")?;
    if instance.status != "Uninitialized" {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "Rejected.InstanceConnected",
            "The KMS instance is already enabled.",
        ));
    }
    instance.status = "Connected".to_owned();
    instance.set("VpcId", vpc_id);
    instance.set("ZoneIds", zone_ids);
    instance.set("VswitchIds", vswitch_ids);
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.put(instance);
    Ok(json!({}))
}

fn release_kms_instance(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p.required("KmsInstanceId")?)?;
    p.bool("ForceDeleteWithoutBackup")?;
    if instance.attr_str("ChargeType") != "PayAsYouGo" {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "Forbidden.SubscriptionInstance",
            "Subscription instances cannot be released; unsubscribe from them instead.",
        ));
    }
    // Everything in the instance is released with it.
    for key in ctx.list(KEY).into_iter().filter(|k| k.attr_str("DKMSInstanceId") == instance.id) {
        for alias in ctx.list(ALIAS).into_iter().filter(|a| a.parent.as_deref() == Some(key.id.as_str())) {
            ctx.delete(&alias.id);
        }
        ctx.delete(&key.id);
    }
    for secret in ctx.list(SECRET).into_iter().filter(|s| s.attr_str("DKMSInstanceId") == instance.id) {
        ctx.delete(&secret.id);
    }
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.delete(&instance.id);
    Ok(json!({}))
}

// Secrets.

fn secret_not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "Forbidden.ResourceNotFound",
        "The specified secret is not found.",
    )
}

/// Whether a secret still exists: one scheduled for deletion is gone once its window has passed.
fn secret_live(secret: &Resource, now_ms: Millis) -> bool {
    secret.attr_i64("DeleteAtMs").is_none_or(|at| at > now_ms)
}

fn secrets_here(ctx: &OpCtx<'_>) -> Vec<Resource> {
    ctx.list(SECRET).into_iter().filter(|s| secret_live(s, ctx.now_ms)).collect()
}

fn find_secret(ctx: &OpCtx<'_>, name: &str) -> Result<Resource, ApiError> {
    secrets_here(ctx)
        .into_iter()
        .find(|s| s.name == name)
        .ok_or_else(secret_not_found)
}

/// Up to 192 letters, digits and `_/+=.@-`; `acs/` is reserved for managed secrets.
fn check_secret_name(name: &str) -> Result<(), ApiError> {
    if name.is_empty() || name.chars().count() > 192 {
        return Err(ApiError::invalid_parameter(
            "SecretName",
            "the name must be 1 to 192 characters long",
        ));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '/' | '+' | '=' | '.' | '@' | '-'))
    {
        return Err(ApiError::invalid_parameter(
            "SecretName",
            "only letters, digits, underscores (_), forward slashes (/), plus signs (+), equal signs (=), periods (.), hyphens (-) and at signs (@) are allowed",
        ));
    }
    if name.starts_with("acs/") {
        return Err(ApiError::invalid_parameter(
            "SecretName",
            "the name of a generic secret cannot start with acs/",
        ));
    }
    Ok(())
}

fn secret_planned_delete(secret: &Resource) -> String {
    secret.attr_i64("DeleteAtMs").map(iso8601).unwrap_or_default()
}

fn create_secret(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let name = p.required("SecretName")?;
    check_secret_name(name)?;
    let data = p.required("SecretData")?;
    if data.len() > 30720 {
        return Err(ApiError::invalid_parameter(
            "SecretData",
            "the secret value cannot exceed 30,720 bytes",
        ));
    }
    let data_type = p.one_of("SecretDataType", &["text", "binary"])?.unwrap_or("text");
    let version = p.required("VersionId")?;
    if version.is_empty() || version.chars().count() > 64 {
        return Err(ApiError::invalid_parameter("VersionId", "the version must be 1 to 64 characters long"));
    }
    p.one_of("SecretType", &["Generic"])?;
    let description = p.get("Description").unwrap_or("");
    // The key and the secret belong to one KMS instance, and the key is symmetric.
    let key = match p.get("EncryptionKeyId").filter(|v| !v.is_empty()) {
        Some(_) => Some(resolve_key(ctx, "EncryptionKeyId", p)?),
        None => None,
    };
    let instance_id = p
        .get("DKMSInstanceId")
        .filter(|v| !v.is_empty())
        .map(str::to_owned)
        .or_else(|| key.as_ref().map(|k| k.attr_str("DKMSInstanceId").to_owned()).filter(|v| !v.is_empty()))
        .ok_or_else(|| ApiError::missing_parameter("DKMSInstanceId"))?;
    let instance = connected_instance(ctx, &instance_id)?;
    let Some(key) = key else {
        return Err(ApiError::missing_parameter("EncryptionKeyId"));
    };
    if key.attr_str("DKMSInstanceId") != instance.id {
        return Err(ApiError::invalid_parameter(
            "EncryptionKeyId",
            "the key and the secret must belong to the same KMS instance",
        ));
    }
    if key.status != "Enabled" {
        return Err(rejected_state(&key.status));
    }
    if key.attr_str("KeyUsage") != "ENCRYPT/DECRYPT" || key.attr_str("KeySpec").starts_with("RSA") || key.attr_str("KeySpec").starts_with("EC") {
        return Err(ApiError::invalid_parameter("EncryptionKeyId", "the key must be a symmetric key"));
    }
    if secrets_here(ctx).iter().any(|s| s.name == name) {
        return Err(ApiError::already_exists(
            "Rejected.ResourceExist",
            "The resource already exists.",
        ));
    }
    let region_id = ctx.region.clone();
    let arn = format!("acs:kms:{region_id}:{}:secret/{name}", ctx.account().id);
    let secret = Resource::new(SECRET, ctx.new_id("secret"), &region_id, name, "Available", ctx.now_ms)
        .with("Arn", arn.clone())
        .with("SecretType", "Generic")
        .with("SecretData", data)
        .with("SecretDataType", data_type)
        .with("VersionId", version)
        .with("Description", description)
        .with("EncryptionKeyId", key.id.clone())
        .with("DKMSInstanceId", instance.id.clone());
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.reference(KEY_TYPE, &key.id);
    ctx.reference(SECRET_TYPE, name);
    ctx.put(secret);
    Ok(json!({
        "Arn": arn,
        "VersionId": version,
        "SecretName": name,
        "SecretType": "Generic",
        "AutomaticRotation": "Disabled",
        "DKMSInstanceId": instance.id,
    }))
}

/// `Filters` of ListSecrets: `[{"Key":"SecretName","Values":["a"]}]`; an item matches when every
/// filter has a value its field contains.
fn secret_filters(p: &Params) -> Result<Vec<(String, Vec<String>)>, ApiError> {
    let Some(text) = p.get("Filters").filter(|t| !t.is_empty()) else {
        return Ok(Vec::new());
    };
    let parsed: Vec<Value> = serde_json::from_str(text)
        .map_err(|e| ApiError::invalid_parameter("Filters", format!("not a JSON list of filters: {e}")))?;
    parsed
        .iter()
        .map(|f| {
            let key = f["Key"].as_str().unwrap_or_default();
            if !matches!(key, "SecretName" | "Description" | "DKMSInstanceId") {
                return Err(ApiError::invalid_parameter("Filters", format!("unknown filter key {key:?}")));
            }
            let values = f["Values"]
                .as_array()
                .map(|v| v.iter().filter_map(|x| x.as_str().map(str::to_owned)).collect())
                .unwrap_or_default();
            Ok((key.to_owned(), values))
        })
        .collect()
}

fn list_secrets(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    region(&ctx.region)?;
    let filters = secret_filters(p)?;
    let matching: Vec<Resource> = secrets_here(ctx)
        .into_iter()
        .filter(|s| {
            filters.iter().all(|(key, values)| {
                let field = if key == "SecretName" { s.name.as_str() } else { s.attr_str(key) };
                values.is_empty() || values.iter().any(|v| field.contains(v.as_str()))
            })
        })
        .collect();
    let (page, number, size, total) = paginate(matching, p, 100)?;
    let secrets: Vec<Value> = page
        .iter()
        .map(|s| {
            json!({
                "SecretName": s.name,
                "SecretType": s.attr_str("SecretType"),
                "CreateTime": iso8601(s.created_ms),
                "UpdateTime": iso8601(s.created_ms),
                "PlannedDeleteTime": secret_planned_delete(s),
                "DKMSInstanceId": s.attr_str("DKMSInstanceId"),
                "EncryptionKeyId": s.attr_str("EncryptionKeyId"),
            })
        })
        .collect();
    Ok(json!({ "TotalCount": total, "PageNumber": number, "PageSize": size, "SecretList": { "Secret": secrets } }))
}

fn describe_secret(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let secret = find_secret(ctx, p.required("SecretName")?)?;
    ctx.reference(SECRET_TYPE, &secret.name);
    Ok(json!({
        "Arn": secret.attr_str("Arn"),
        "SecretName": secret.name,
        "SecretType": secret.attr_str("SecretType"),
        "Description": secret.attr_str("Description"),
        "EncryptionKeyId": secret.attr_str("EncryptionKeyId"),
        "DKMSInstanceId": secret.attr_str("DKMSInstanceId"),
        "CreateTime": iso8601(secret.created_ms),
        "UpdateTime": iso8601(secret.created_ms),
        "PlannedDeleteTime": secret_planned_delete(&secret),
        "AutomaticRotation": "Disabled",
    }))
}

fn get_secret_value(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let secret = find_secret(ctx, p.required("SecretName")?)?;
    let version = p.get("VersionId").filter(|v| !v.is_empty());
    let stage = p.get("VersionStage").filter(|v| !v.is_empty());
    if version.is_some_and(|v| v != secret.attr_str("VersionId")) || stage.is_some_and(|s| s != "ACSCurrent") {
        return Err(secret_not_found());
    }
    ctx.reference(SECRET_TYPE, &secret.name);
    Ok(json!({
        "SecretName": secret.name,
        "SecretType": secret.attr_str("SecretType"),
        "SecretData": secret.attr_str("SecretData"),
        "SecretDataType": secret.attr_str("SecretDataType"),
        "VersionId": secret.attr_str("VersionId"),
        "CreateTime": iso8601(secret.created_ms),
        "VersionStages": { "VersionStage": ["ACSCurrent"] },
    }))
}

fn delete_secret(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let mut secret = find_secret(ctx, p.required("SecretName")?)?;
    let force = p.bool("ForceDeleteWithoutRecovery")?.unwrap_or(false);
    ctx.reference(SECRET_TYPE, &secret.name);
    if force {
        ctx.delete(&secret.id);
        return Ok(json!({ "SecretName": secret.name }));
    }
    let days = p.int_in("RecoveryWindowInDays", 7..=30, 30)?;
    let at = ctx.now_ms + days * DAY_MS;
    secret.set("DeleteAtMs", at);
    let name = secret.name.clone();
    ctx.put(secret);
    Ok(json!({ "SecretName": name, "PlannedDeleteTime": iso8601(at) }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::products::testkit::TestConsole;

    fn new_key(h: &TestConsole) -> String {
        let body = h.ok(
            &PRODUCT,
            "CreateKey",
            &[("Description", "orders"), ("KeySpec", "Aliyun_AES_256")],
        );
        body["KeyMetadata"]["KeyId"].as_str().unwrap().to_owned()
    }

    fn state(h: &TestConsole, key: &str) -> String {
        let body = h.ok(&PRODUCT, "DescribeKey", &[("KeyId", key)]);
        body["KeyMetadata"]["KeyState"].as_str().unwrap().to_owned()
    }

    #[test]
    fn create_key_returns_its_metadata_and_event() {
        let h = TestConsole::new();
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
            format!("acs:kms:cn-hangzhou:{}:key/{id}", h.caller.account_id)
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
        let h = TestConsole::new();
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
        let h = TestConsole::new();
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
    fn a_protected_key_cannot_be_scheduled_for_deletion() {
        let h = TestConsole::new();
        let key = new_key(&h);
        let described = h.ok(&PRODUCT, "DescribeKey", &[("KeyId", &key)]);
        let arn = described["KeyMetadata"]["Arn"].as_str().unwrap().to_owned();
        h.ok(
            &PRODUCT,
            "SetDeletionProtection",
            &[
                ("ProtectedResourceArn", &arn),
                ("EnableDeletionProtection", "true"),
                ("DeletionProtectionDescription", "in use"),
            ],
        );
        let described = h.ok(&PRODUCT, "DescribeKey", &[("KeyId", &key)]);
        assert_eq!(described["KeyMetadata"]["DeletionProtection"], "Enabled");
        assert_eq!(described["KeyMetadata"]["DeletionProtectionDescription"], "in use");
        let refused = h.err(
            &PRODUCT,
            "ScheduleKeyDeletion",
            &[("KeyId", &key), ("PendingWindowInDays", "7")],
        );
        assert_eq!(refused.code, "Forbidden.DeletionProtection");
        assert_eq!(state(&h, &key), "Enabled");
        let bad = h.err(
            &PRODUCT,
            "SetDeletionProtection",
            &[("KeyId", &key), ("EnableDeletionProtection", "yes")],
        );
        assert_eq!(bad.code, "InvalidParameter");
        h.ok(
            &PRODUCT,
            "SetDeletionProtection",
            &[("KeyId", &key), ("EnableDeletionProtection", "false")],
        );
        let described = h.ok(&PRODUCT, "DescribeKey", &[("KeyId", &key)]);
        assert_eq!(described["KeyMetadata"]["DeletionProtection"], "Disabled");
        h.ok(&PRODUCT, "ScheduleKeyDeletion", &[("KeyId", &key), ("PendingWindowInDays", "7")]);
    }

    #[test]
    fn a_key_is_gone_once_its_window_has_passed() {
        let h = TestConsole::new();
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
        h.advance(7 * DAY_MS - 1);
        assert_eq!(state(&h, &key), "PendingDeletion");
        h.advance(1);
        assert_eq!(
            h.err(&PRODUCT, "DescribeKey", &[("KeyId", &key)]).code,
            "Forbidden.KeyNotFound"
        );
        assert_eq!(h.ok(&PRODUCT, "ListKeys", &[])["TotalCount"], 0);
        assert_eq!(h.ok(&PRODUCT, "ListAliases", &[])["TotalCount"], 0);
    }

    #[test]
    fn aliases_name_keys() {
        let h = TestConsole::new();
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
        let arn = format!("acs:kms:cn-hangzhou:{}:alias/orders", h.caller.account_id);
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
        let h = TestConsole::new();
        let key = new_key(&h);
        let other = h.account("other");
        let e = h
            .call_as(&other, &PRODUCT, "DescribeKey", &[("KeyId", &key)])
            .unwrap_err();
        assert_eq!(e.code, "Forbidden.KeyNotFound");
        assert_eq!(h.call_as(&other, &PRODUCT, "ListKeys", &[]).unwrap()["TotalCount"], 0);
        let e = h.err(&PRODUCT, "DescribeKey", &[("KeyId", &key), ("RegionId", "cn-beijing")]);
        assert_eq!(e.code, "Forbidden.KeyNotFound");
    }

    /// A KMS instance bought through BssOpenApi and enabled in a VPC.
    fn new_instance(h: &TestConsole) -> String {
        let body = h.ok(
            &crate::products::bss::PRODUCT,
            "CreateInstance",
            &[
                ("ProductCode", "kms"),
                ("SubscriptionType", "PayAsYouGo"),
                ("Parameter.1.Code", "ProductVersion"),
                ("Parameter.1.Value", "3"),
            ],
        );
        let id = body["Data"]["InstanceId"].as_str().unwrap().to_owned();
        assert!(id.starts_with("kst-"), "{id}");
        h.ok(
            &PRODUCT,
            "ConnectKmsInstance",
            &[
                ("KmsInstanceId", &id),
                ("VpcId", "vpc-1"),
                ("ZoneIds", "cn-hangzhou-k,cn-hangzhou-j"),
                ("VSwitchIds", "vsw-1"),
                ("KMProvider", "Aliyun"),
            ],
        );
        id
    }

    fn key_in(h: &TestConsole, instance: &str) -> String {
        let body = h.ok(&PRODUCT, "CreateKey", &[("DKMSInstanceId", instance)]);
        assert_eq!(body["KeyMetadata"]["DKMSInstanceId"], instance);
        body["KeyMetadata"]["KeyId"].as_str().unwrap().to_owned()
    }

    #[test]
    fn instances_are_bought_then_enabled() {
        let h = TestConsole::new();
        let body = h.ok(
            &crate::products::bss::PRODUCT,
            "CreateInstance",
            &[("ProductCode", "kms"), ("SubscriptionType", "PayAsYouGo")],
        );
        let id = body["Data"]["InstanceId"].as_str().unwrap().to_owned();
        let got = h.ok(&PRODUCT, "GetKmsInstance", &[("KmsInstanceId", &id)]);
        assert_eq!(got["KmsInstance"]["Status"], "Uninitialized");
        // Keys need an enabled instance.
        let e = h.err(&PRODUCT, "CreateKey", &[("DKMSInstanceId", &id)]);
        assert_eq!(e.code, "Rejected.InstanceNotConnected");
        let listed = h.ok(&PRODUCT, "ListKmsInstances", &[]);
        assert_eq!(listed["KmsInstances"]["KmsInstance"][0]["KmsInstanceId"], id);
        assert_eq!(
            listed["KmsInstances"]["KmsInstance"][0]["KmsInstanceArn"],
            format!("acs:kms:cn-hangzhou:{}:keystore/{id}", h.caller.account_id)
        );
        let enabled = new_instance(&h);
        let got = h.ok(&PRODUCT, "GetKmsInstance", &[("KmsInstanceId", &enabled)]);
        assert_eq!(got["KmsInstance"]["Status"], "Connected");
        assert_eq!(got["KmsInstance"]["VpcId"], "vpc-1");
        assert_eq!(
            h.last_event("ConnectKmsInstance").referenced_resources["ACS::KMS::Instance"],
            [enabled.as_str()]
        );
        let e = h.err(&crate::products::bss::PRODUCT, "CreateInstance", &[("ProductCode", "ecs"), ("SubscriptionType", "PayAsYouGo")]);
        assert!(e.message.contains("\"ProductCode\""), "{}", e.message);
    }

    #[test]
    fn generic_secrets_are_created_in_an_instance_with_its_key() {
        let h = TestConsole::new();
        let instance = new_instance(&h);
        let key = key_in(&h, &instance);
        let outside = new_key(&h);
        let params = |key: &str| {
            vec![
                ("SecretName", "db-password".to_owned()),
                ("SecretData", "{\"user\":\"admin\"}".to_owned()),
                ("VersionId", "v1".to_owned()),
                ("EncryptionKeyId", key.to_owned()),
                ("DKMSInstanceId", instance.clone()),
            ]
        };
        let as_refs = |v: &Vec<(&'static str, String)>| v.iter().map(|(k, v)| (*k, v.clone())).collect::<Vec<_>>();
        let outside_params = as_refs(&params(&outside));
        let refs: Vec<(&str, &str)> = outside_params.iter().map(|(k, v)| (*k, v.as_str())).collect();
        assert!(h.err(&PRODUCT, "CreateSecret", &refs).message.contains("\"EncryptionKeyId\""));
        let good = as_refs(&params(&key));
        let refs: Vec<(&str, &str)> = good.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let body = h.ok(&PRODUCT, "CreateSecret", &refs);
        assert_eq!(body["SecretName"], "db-password");
        assert_eq!(body["VersionId"], "v1");
        assert_eq!(body["DKMSInstanceId"], instance);
        assert_eq!(
            body["Arn"],
            format!("acs:kms:cn-hangzhou:{}:secret/db-password", h.caller.account_id)
        );
        let event = h.last_event("CreateSecret");
        assert_eq!(event.referenced_resources["ACS::KMS::Secret"], ["db-password"]);
        assert_eq!(h.err(&PRODUCT, "CreateSecret", &refs).code, "Rejected.ResourceExist");
        let e = h.err(
            &PRODUCT,
            "CreateSecret",
            &[("SecretName", "acs/x"), ("SecretData", "a"), ("VersionId", "v1"), ("EncryptionKeyId", &key)],
        );
        assert!(e.message.contains("\"SecretName\""));

        let filter = format!("[{{\"Key\":\"DKMSInstanceId\",\"Values\":[\"{instance}\"]}}]");
        let listed = h.ok(&PRODUCT, "ListSecrets", &[("Filters", &filter)]);
        assert_eq!(listed["TotalCount"], 1);
        assert_eq!(listed["SecretList"]["Secret"][0]["SecretName"], "db-password");
        let none = h.ok(&PRODUCT, "ListSecrets", &[("Filters", "[{\"Key\":\"DKMSInstanceId\",\"Values\":[\"kst-none\"]}]")]);
        assert_eq!(none["TotalCount"], 0);
        let described = h.ok(&PRODUCT, "DescribeSecret", &[("SecretName", "db-password")]);
        assert_eq!(described["EncryptionKeyId"], key);
        let value = h.ok(&PRODUCT, "GetSecretValue", &[("SecretName", "db-password")]);
        assert_eq!(value["SecretData"], "{\"user\":\"admin\"}");
        assert_eq!(value["SecretDataType"], "text");
        assert_eq!(value["VersionStages"]["VersionStage"][0], "ACSCurrent");

        h.ok(&PRODUCT, "DeleteSecret", &[("SecretName", "db-password"), ("RecoveryWindowInDays", "7")]);
        assert!(h.ok(&PRODUCT, "DescribeSecret", &[("SecretName", "db-password")])["PlannedDeleteTime"].as_str().is_some_and(|t| !t.is_empty()));
        h.advance(7 * DAY_MS);
        assert_eq!(h.err(&PRODUCT, "GetSecretValue", &[("SecretName", "db-password")]).code, "Forbidden.ResourceNotFound");
    }

    #[test]
    fn releasing_an_instance_releases_its_keys_and_secrets() {
        let h = TestConsole::new();
        let instance = new_instance(&h);
        let key = key_in(&h, &instance);
        h.ok(
            &PRODUCT,
            "CreateSecret",
            &[("SecretName", "token"), ("SecretData", "t"), ("VersionId", "v1"), ("EncryptionKeyId", &key)],
        );
        h.ok(&PRODUCT, "ReleaseKmsInstance", &[("KmsInstanceId", &instance)]);
        assert_eq!(h.ok(&PRODUCT, "ListKmsInstances", &[])["TotalCount"], 0);
        assert_eq!(h.ok(&PRODUCT, "ListSecrets", &[])["TotalCount"], 0);
        assert_eq!(h.err(&PRODUCT, "DescribeKey", &[("KeyId", &key)]).code, "Forbidden.KeyNotFound");
        assert_eq!(
            h.err(&PRODUCT, "GetKmsInstance", &[("KmsInstanceId", &instance)]).code,
            "Forbidden.ResourceNotFound"
        );
    }

}
