//! AccessKey pairs of RAM users, or of the caller when no user is named, and the recycle bin a
//! deleted pair waits in (delete-accesskey.md: at most three pairs a user, each purged after 30
//! days unless restored or purged before).

use super::*;

/// Pairs a user's recycle bin holds; a fourth deletion purges the oldest.
const RECYCLE_BIN_SIZE: usize = 3;
/// How long a deleted pair stays in the recycle bin.
const RECYCLE_RETENTION_MS: i64 = 30 * 24 * 3600 * 1000;

/// Whether `key` is in its owner's recycle bin at `now`: moved there, and not yet purged.
fn in_bin(key: &AccessKey, now: i64) -> bool {
    key.recycled_ms.is_some_and(|at| now < at + RECYCLE_RETENTION_MS)
}

/// The pairs in use (not in a recycle bin).
fn live_keys<'c>(ctx: &'c OpCtx<'_>) -> impl Iterator<Item = &'c AccessKey> {
    ctx.access_keys().filter(|k| k.recycled_ms.is_none())
}

/// The owner's pairs in the recycle bin and not yet purged, oldest deletion first.
fn recycled_keys(ctx: &OpCtx<'_>, owner: &Option<String>) -> Vec<AccessKey> {
    let mut keys: Vec<AccessKey> = ctx
        .access_keys()
        .filter(|k| &k.user_name == owner)
        .filter(|k| in_bin(k, ctx.now_ms))
        .cloned()
        .collect();
    keys.sort_by_key(|k| (k.recycled_ms, k.id.clone()));
    keys
}

pub(super) fn key_owner(ctx: &OpCtx<'_>, p: &Params) -> Result<Option<String>, ApiError> {
    match p.get("UserName") {
        None => Ok(ctx.caller_user.clone()),
        Some(name) => {
            find_user(ctx, name)?;
            Ok(Some(name.to_owned()))
        }
    }
}

pub(super) fn access_key_status(key: &AccessKey) -> &'static str {
    if key.active { "Active" } else { "Inactive" }
}

pub(super) fn create_access_key(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let owner = key_owner(ctx, p)?;
    if live_keys(ctx).filter(|k| k.user_name == owner).count() >= MAX_ACCESS_KEYS {
        return Err(ram_error(
            StatusCode::CONFLICT,
            "LimitExceeded.User.AccessKey",
            "The access key count of the user access keys beyond the current limits.",
        ));
    }
    let (id, secret) = access_key_pair();
    let key = AccessKey {
        id: id.clone(),
        secret: secret.clone(),
        account_id: ctx.account().id.clone(),
        user_name: owner.clone(),
        active: true,
        created_ms: ctx.now_ms,
        recycled_ms: None,
    };
    if let Some(user) = &owner {
        ctx.reference(USER_TYPE, user);
    }
    let body = json!({
        "AccessKey": {
            "AccessKeyId": id,
            "AccessKeySecret": secret,
            "Status": access_key_status(&key),
            "CreateDate": iso8601(key.created_ms),
        }
    });
    ctx.effect(Effect::PutAccessKey(key));
    Ok(body)
}

pub(super) fn list_access_keys(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let owner = key_owner(ctx, p)?;
    let mut keys: Vec<&AccessKey> = live_keys(ctx).filter(|k| k.user_name == owner).collect();
    keys.sort_by(|a, b| a.created_ms.cmp(&b.created_ms).then_with(|| a.id.cmp(&b.id)));
    let items: Vec<Value> = keys
        .iter()
        .map(|k| json!({ "AccessKeyId": k.id, "Status": access_key_status(k), "CreateDate": iso8601(k.created_ms) }))
        .collect();
    if let Some(user) = &owner {
        ctx.reference(USER_TYPE, user);
    }
    Ok(json!({ "AccessKeys": { "AccessKey": items } }))
}

/// The owner's key with this id, or `EntityNotExist.User.AccessKey`.
pub(super) fn find_key(ctx: &OpCtx<'_>, owner: &Option<String>, id: &str) -> Result<AccessKey, ApiError> {
    live_keys(ctx)
        .find(|k| k.id == id && &k.user_name == owner)
        .cloned()
        .ok_or_else(|| not_exist("User.AccessKey", "The user access key does not exist."))
}

pub(super) fn update_access_key(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("UserAccessKeyId")?;
    p.required("Status")?;
    let active = p.one_of("Status", &["Active", "Inactive"])? == Some("Active");
    let owner = key_owner(ctx, p)?;
    let mut key = find_key(ctx, &owner, id)?;
    key.active = active;
    if let Some(user) = &owner {
        ctx.reference(USER_TYPE, user);
    }
    ctx.effect(Effect::PutAccessKey(key));
    Ok(json!({}))
}

/// DeleteAccessKey: the pair leaves use for its owner's recycle bin (a user's; the caller's own
/// pairs are deleted at once), whose oldest pair is purged when the bin is full.
pub(super) fn delete_access_key(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("UserAccessKeyId")?;
    let owner = key_owner(ctx, p)?;
    let mut key = find_key(ctx, &owner, id)?;
    let Some(user) = &owner else {
        ctx.effect(Effect::DeleteAccessKey(key.id));
        return Ok(json!({}));
    };
    ctx.reference(USER_TYPE, user);
    let expired = ctx
        .access_keys()
        .filter(|k| k.user_name == owner && k.recycled_ms.is_some() && !in_bin(k, ctx.now_ms))
        .map(|k| k.id.clone())
        .collect::<Vec<_>>();
    let binned = recycled_keys(ctx, &owner);
    let overflow = (binned.len() + 1).saturating_sub(RECYCLE_BIN_SIZE);
    for purged in expired.into_iter().chain(binned.into_iter().take(overflow).map(|k| k.id)) {
        ctx.effect(Effect::DeleteAccessKey(purged));
    }
    key.active = false;
    key.recycled_ms = Some(ctx.now_ms);
    ctx.effect(Effect::PutAccessKey(key));
    Ok(json!({}))
}

/// The user a recycle-bin call names by `UserId`.
fn user_by_id(ctx: &OpCtx<'_>, p: &Params) -> Result<Resource, ApiError> {
    let id = p.required("UserId")?;
    ctx.get(id)
        .filter(|r| r.kind == USER)
        .ok_or_else(|| not_exist("User", "The user does not exist."))
}

/// The user's pair with this id in the recycle bin, or `EntityNotExist.User.AccessKey`.
fn recycled_key(ctx: &OpCtx<'_>, user: &Resource, id: &str) -> Result<AccessKey, ApiError> {
    recycled_keys(ctx, &Some(user.name.clone()))
        .into_iter()
        .find(|k| k.id == id)
        .ok_or_else(|| not_exist("User.AccessKey", "The user access key does not exist in the recycle bin."))
}

fn recycled_json(key: &AccessKey) -> Value {
    let recycled = key.recycled_ms.unwrap_or_default();
    json!({
        "AccessKeyId": key.id,
        "CreateDate": iso8601(key.created_ms),
        "RecycleDate": iso8601(recycled),
        "DeleteDate": iso8601(recycled + RECYCLE_RETENTION_MS),
    })
}

/// ListAccessKeysInRecycleBin: the user's pairs in the recycle bin, or every user's without `UserId`.
pub(super) fn list_access_keys_in_recycle_bin(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let owners: Vec<Option<String>> = match p.get("UserId") {
        Some(_) => {
            let user = user_by_id(ctx, p)?;
            ctx.reference(USER_TYPE, &user.name);
            vec![Some(user.name)]
        }
        None => ctx.list_all(USER).into_iter().map(|u| Some(u.name)).collect(),
    };
    let items: Vec<Value> = owners
        .iter()
        .flat_map(|owner| recycled_keys(ctx, owner))
        .map(|k| recycled_json(&k))
        .collect();
    Ok(json!({ "AccessKeys": { "AccessKey": items } }))
}

/// GetAccessKeyInfoInRecycleBin: one pair of the recycle bin and its owner.
pub(super) fn get_access_key_info_in_recycle_bin(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("UserAccessKeyId")?;
    let key = ctx
        .access_keys()
        .find(|k| k.id == id && in_bin(k, ctx.now_ms))
        .cloned()
        .ok_or_else(|| not_exist("User.AccessKey", "The user access key does not exist in the recycle bin."))?;
    let user = key.user_name.as_deref().and_then(|name| by_name(ctx, USER, name));
    let mut body = recycled_json(&key);
    body["UserId"] = json!(user.as_ref().map(|u| u.id.clone()).unwrap_or_default());
    body["UserPrincipalName"] = json!(user
        .as_ref()
        .map(|u| format!("{}@{}.onaliyun.com", u.name, ctx.account().id))
        .unwrap_or_default());
    body["UserRecycled"] = json!(false);
    Ok(json!({ "AccessKey": body }))
}

/// RestoreAccessKeyFromRecycleBin: the pair is the user's again, disabled, if the user has room.
pub(super) fn restore_access_key_from_recycle_bin(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let user = user_by_id(ctx, p)?;
    let mut key = recycled_key(ctx, &user, p.required("UserAccessKeyId")?)?;
    let owner = Some(user.name.clone());
    if live_keys(ctx).filter(|k| k.user_name == owner).count() >= MAX_ACCESS_KEYS {
        return Err(ram_error(
            StatusCode::CONFLICT,
            "LimitExceeded.User.AccessKey",
            "The access key count of the user access keys beyond the current limits.",
        ));
    }
    key.recycled_ms = None;
    ctx.reference(USER_TYPE, &user.name);
    ctx.effect(Effect::PutAccessKey(key));
    Ok(json!({}))
}

/// DeleteAccessKeyInRecycleBin: the pair is purged, never to be restored.
pub(super) fn delete_access_key_in_recycle_bin(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let user = user_by_id(ctx, p)?;
    let key = recycled_key(ctx, &user, p.required("UserAccessKeyId")?)?;
    ctx.reference(USER_TYPE, &user.name);
    ctx.effect(Effect::DeleteAccessKey(key.id));
    Ok(json!({}))
}
