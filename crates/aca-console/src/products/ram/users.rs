//! RAM users and their logon profiles (console access).

use super::*;

pub(super) fn user_json(user: &Resource) -> Value {
    json!({
        "UserId": user.id,
        "UserName": user.name,
        "DisplayName": user.attr_str("DisplayName"),
        "MobilePhone": user.attr_str("MobilePhone"),
        "Email": user.attr_str("Email"),
        "Comments": user.attr_str("Comments"),
        "CreateDate": iso8601(user.created_ms),
        "UpdateDate": user.attr_str("UpdateDate"),
        "Tags": { "Tag": user.attrs.get("Tags").cloned().unwrap_or_else(|| json!([])) },
    })
}

pub(super) fn create_user(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("UserName")?;
    check_user_name("UserName", name)?;
    let display_name = p.get("DisplayName").unwrap_or("");
    check_display_name("DisplayName", display_name)?;
    if let Some(phone) = p.get("MobilePhone") {
        check_mobile_phone("MobilePhone", phone)?;
    }
    if let Some(email) = p.get("Email") {
        check_email("Email", email)?;
    }
    let comments = p.get("Comments").unwrap_or("");
    check_comments("Comments", comments)?;
    // The console tags a user as it creates it (create-ram-user.md).
    let tags = crate::products::tags::tags(p)?;
    if by_name(ctx, USER, name).is_some() {
        return Err(already_exists("User", "The user does already EXIST."));
    }
    let now = iso8601(ctx.now_ms);
    let user = Resource::new(USER, numeric_id(), GLOBAL, name, "Active", ctx.now_ms)
        .with("Tags", tags)
        .with("DisplayName", display_name)
        .with("MobilePhone", p.get("MobilePhone").unwrap_or(""))
        .with("Email", p.get("Email").unwrap_or(""))
        .with("Comments", comments)
        .with("UpdateDate", now);
    let body = json!({ "User": user_json(&user) });
    ctx.reference(USER_TYPE, name);
    ctx.put(user);
    Ok(body)
}

pub(super) fn get_user(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("UserName")?;
    let user = find_user(ctx, name)?;
    ctx.reference(USER_TYPE, name);
    Ok(json!({ "User": user_json(&user) }))
}

pub(super) fn list_users(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let (page, next) = marker_page(ctx.list_all(USER), p, |u| u.id.clone())?;
    let users: Vec<Value> = page.iter().map(user_json).collect();
    Ok(with_marker(json!({ "Users": { "User": users } }), next))
}

pub(super) fn update_user(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("UserName")?;
    let mut user = find_user(ctx, name)?;
    if let Some(display_name) = p.get("NewDisplayName") {
        check_display_name("NewDisplayName", display_name)?;
        user.set("DisplayName", display_name);
    }
    if let Some(phone) = p.get("NewMobilePhone") {
        check_mobile_phone("NewMobilePhone", phone)?;
        user.set("MobilePhone", phone);
    }
    if let Some(email) = p.get("NewEmail") {
        check_email("NewEmail", email)?;
        user.set("Email", email);
    }
    if let Some(comments) = p.get("NewComments") {
        check_comments("NewComments", comments)?;
        user.set("Comments", comments);
    }
    if let Some(new_name) = p.get("NewUserName").filter(|n| *n != name) {
        check_user_name("NewUserName", new_name)?;
        if by_name(ctx, USER, new_name).is_some() {
            return Err(already_exists("User", "The user does already EXIST."));
        }
        rename_user(ctx, name, new_name);
        user.name = new_name.to_owned();
        ctx.reference(USER_TYPE, new_name);
    }
    user.set("UpdateDate", iso8601(ctx.now_ms));
    ctx.reference(USER_TYPE, name);
    let body = json!({ "User": user_json(&user) });
    ctx.put(user);
    Ok(body)
}

/// Carries a user's memberships, policy attachments and AccessKeys over to its new name.
pub(super) fn rename_user(ctx: &mut OpCtx<'_>, old: &str, new: &str) {
    for mut membership in memberships(ctx).into_iter().filter(|m| m.attr_str("UserName") == old) {
        membership.set("UserName", new);
        ctx.put(membership);
    }
    for mut attachment in attachments_of(ctx, Principal::User, old) {
        attachment.set("PrincipalName", new);
        ctx.put(attachment);
    }
    let keys: Vec<AccessKey> = ctx
        .access_keys()
        .filter(|k| k.user_name.as_deref() == Some(old))
        .cloned()
        .collect();
    for mut key in keys {
        key.user_name = Some(new.to_owned());
        ctx.effect(Effect::PutAccessKey(key));
    }
}

pub(super) fn delete_user(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("UserName")?;
    let user = find_user(ctx, name)?;
    if memberships(ctx).iter().any(|m| m.attr_str("UserName") == name) {
        return Err(delete_conflict(
            "User.Group",
            "The user CAN NOT be in any group while deleting the user.",
        ));
    }
    if ctx.access_keys().any(|k| k.user_name.as_deref() == Some(name) && k.recycled_ms.is_none()) {
        return Err(delete_conflict(
            "User.AccessKey",
            "The user CAN NOT has any access key while deleting the user.",
        ));
    }
    if user.attrs.contains_key("LoginProfile") {
        return Err(delete_conflict(
            "User.LoginProfile",
            "The user CAN NOT has any login profile while deleting the user.",
        ));
    }
    if !attachments_of(ctx, Principal::User, name).is_empty() {
        return Err(delete_conflict(
            "User.Policy",
            "The user CAN NOT has any attached policy while deleting the user.",
        ));
    }
    // The pairs in the user's recycle bin go with the user.
    let recycled: Vec<String> = ctx
        .access_keys()
        .filter(|k| k.user_name.as_deref() == Some(name))
        .map(|k| k.id.clone())
        .collect();
    for id in recycled {
        ctx.effect(Effect::DeleteAccessKey(id));
    }
    // The user's virtual MFA device stays, free to be bound again.
    if let Some(mut device) = device_of(ctx, name) {
        unbound(ctx, &mut device);
    }
    ctx.reference(USER_TYPE, name);
    ctx.delete(&user.id);
    Ok(json!({}))
}

// ---------------------------------------------------------------------------------------------
// Logon profiles (console access of a RAM user).

pub(super) fn login_profile_json(user: &Resource) -> Value {
    let mut profile = user.attrs.get("LoginProfile").cloned().unwrap_or_else(|| json!({}));
    profile["UserName"] = json!(user.name);
    profile
}

pub(super) fn create_login_profile(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("UserName")?;
    let password = p.required("Password")?;
    let reset_required = p.bool("PasswordResetRequired")?.unwrap_or(false);
    let mfa_required = p.bool("MFABindRequired")?.unwrap_or(false);
    let mut user = find_user(ctx, name)?;
    if user.attrs.contains_key("LoginProfile") {
        return Err(already_exists(
            "User.LoginProfile",
            "The user login profile does already EXIST.",
        ));
    }
    check_password(password)?;
    user.set(
        "LoginProfile",
        json!({
            "PasswordResetRequired": reset_required,
            "MFABindRequired": mfa_required,
            "CreateDate": iso8601(ctx.now_ms),
        }),
    );
    let body = json!({ "LoginProfile": login_profile_json(&user) });
    ctx.reference(USER_TYPE, name);
    ctx.put(user);
    Ok(body)
}

/// The default password policy: 8 to 32 characters, no whitespace.
fn check_password(password: &str) -> Result<(), ApiError> {
    let length = password.chars().count();
    if !(8..=32).contains(&length) || password.chars().any(char::is_whitespace) {
        return Err(ram_error(
            StatusCode::BAD_REQUEST,
            "InvalidParameter.Password.TooWeak",
            "The parameter - \"Password\" is not compliant with the password policy.",
        ));
    }
    Ok(())
}

/// UpdateLoginProfile: a new password (left as it is when none is given) and the logon settings,
/// for a user whose console logon is enabled.
pub(super) fn update_login_profile(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("UserName")?;
    let mut user = find_user(ctx, name)?;
    let Some(mut profile) = user.attrs.get("LoginProfile").cloned() else {
        return Err(not_exist("User.LoginProfile", "The user login profile does not exist."));
    };
    if let Some(password) = p.get("Password") {
        check_password(password)?;
    }
    for flag in ["PasswordResetRequired", "MFABindRequired"] {
        if let Some(value) = p.bool(flag)? {
            profile[flag] = json!(value);
        }
    }
    profile["UpdateDate"] = json!(iso8601(ctx.now_ms));
    user.set("LoginProfile", profile);
    let body = json!({ "LoginProfile": login_profile_json(&user) });
    ctx.reference(USER_TYPE, name);
    ctx.put(user);
    Ok(body)
}

pub(super) fn get_login_profile(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("UserName")?;
    let user = find_user(ctx, name)?;
    if !user.attrs.contains_key("LoginProfile") {
        return Err(not_exist("User.LoginProfile", "The user login profile does not exist."));
    }
    ctx.reference(USER_TYPE, name);
    Ok(json!({ "LoginProfile": login_profile_json(&user) }))
}

pub(super) fn delete_login_profile(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("UserName")?;
    let mut user = find_user(ctx, name)?;
    if user.attrs.remove("LoginProfile").is_none() {
        return Err(not_exist("User.LoginProfile", "The user login profile does not exist."));
    }
    ctx.reference(USER_TYPE, name);
    ctx.put(user);
    Ok(json!({}))
}
