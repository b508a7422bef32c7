//! AccessKey pairs of RAM users, or of the caller when no user is named.

use super::*;

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
    if ctx.access_keys().filter(|k| k.user_name == owner).count() >= MAX_ACCESS_KEYS {
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
    let mut keys: Vec<&AccessKey> = ctx.access_keys().filter(|k| k.user_name == owner).collect();
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
    ctx.access_keys()
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

pub(super) fn delete_access_key(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("UserAccessKeyId")?;
    let owner = key_owner(ctx, p)?;
    let key = find_key(ctx, &owner, id)?;
    if let Some(user) = &owner {
        ctx.reference(USER_TYPE, user);
    }
    ctx.effect(Effect::DeleteAccessKey(key.id));
    Ok(json!({}))
}
