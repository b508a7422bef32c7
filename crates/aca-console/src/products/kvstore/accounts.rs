//! Accounts of a Tair instance: the default account named after the instance, accounts created
//! beside it, and their passwords (kept as digests, checked when a password is changed).

use sha2::Digest;

use super::*;

pub(super) const ACCOUNT: &str = "kvstore.account";
const PRIVILEGES: &[&str] = &["RoleReadOnly", "RoleReadWrite", "RoleRepl"];

fn account_id(instance_id: &str, name: &str) -> String {
    format!("{instance_id}/account/{name}")
}

fn digest(password: &str) -> String {
    hex::encode(sha2::Sha256::digest(password.as_bytes()))
}

/// The account every instance starts with, named after it, with the password the instance was
/// created with (none: password-free access).
pub(super) fn default_account(instance: &Resource, password: Option<&str>, now_ms: i64) -> Resource {
    let mut account = Resource::new(
        ACCOUNT,
        account_id(&instance.id, &instance.id),
        &instance.region,
        &instance.id,
        "Available",
        now_ms,
    )
    .with("AccountType", "Super")
    .with("AccountPrivilege", "RoleReadWrite")
    .with("AccountDescription", "")
    .with("PasswordDigest", password.map(digest).unwrap_or_default());
    account.parent = Some(instance.id.clone());
    account
}

/// Names as Tair takes them: 1 to 100 lowercase letters, digits and underscores, starting with a
/// lowercase letter.
fn check_account_name(name: &str) -> Result<(), ApiError> {
    let ok = (1..=100).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if ok {
        Ok(())
    } else {
        Err(ApiError::invalid_parameter(
            "AccountName",
            "the name must start with a lowercase letter and contain only lowercase letters, digits and underscores (_), at most 100 characters",
        ))
    }
}

fn account_not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "InvalidAccountName.NotFound",
        "The specified account does not exist.",
    )
}

fn find_account(ctx: &OpCtx<'_>, instance: &Resource, p: &Params) -> Result<Resource, ApiError> {
    let name = p.required("AccountName")?;
    ctx.find(ACCOUNT, &account_id(&instance.id, name), "AccountName")
        .map_err(|_| account_not_found())
}

pub(super) fn create_account(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let name = p.required("AccountName")?;
    let password = p.required("AccountPassword")?;
    check_account_name(name)?;
    check_password("AccountPassword", password)?;
    let privilege = p.one_of("AccountPrivilege", PRIVILEGES)?.unwrap_or("RoleReadWrite");
    p.one_of("AccountType", &["Normal"])?;
    let description = p.get("AccountDescription").unwrap_or("");
    if description.chars().count() > 256 {
        return Err(ApiError::invalid_parameter(
            "AccountDescription",
            "at most 256 characters",
        ));
    }
    require_normal(&instance)?;
    let id = account_id(&instance.id, name);
    if ctx.get(&id).is_some() {
        return Err(ApiError::already_exists(
            "InvalidAccountName.Duplicate",
            "The specified account name already exists in this instance.",
        ));
    }
    let mut account = Resource::new(ACCOUNT, id, &instance.region, name, "Available", ctx.now_ms)
        .with("AccountType", "Normal")
        .with("AccountPrivilege", privilege)
        .with("AccountDescription", description)
        .with("PasswordDigest", digest(password));
    account.parent = Some(instance.id.clone());
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.put(account);
    // The real response spells the field this way.
    Ok(json!({ "InstanceId": instance.id, "AcountName": name }))
}

pub(super) fn describe_accounts(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let name = p.get("AccountName");
    let items: Vec<Value> = ctx
        .children(ACCOUNT, &instance.id)
        .into_iter()
        .filter(|a| name.is_none_or(|n| a.name == n))
        .map(|a| {
            json!({
                "InstanceId": instance.id,
                "AccountName": a.name,
                "AccountStatus": a.status,
                "AccountType": a.attr_str("AccountType"),
                "AccountDescription": a.attr_str("AccountDescription"),
                "DatabasePrivileges": { "DatabasePrivilege": [{ "AccountPrivilege": a.attr_str("AccountPrivilege") }] },
            })
        })
        .collect();
    ctx.reference(INSTANCE_TYPE, &instance.id);
    Ok(json!({ "Accounts": { "Account": items } }))
}

pub(super) fn modify_account_password(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let mut account = find_account(ctx, &instance, p)?;
    let old = p.required("OldAccountPassword")?;
    let new = p.required("NewAccountPassword")?;
    check_password("NewAccountPassword", new)?;
    if account.attr_str("PasswordDigest") != digest(old) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "InvalidOldAccountPassword",
            "The current password of the account is incorrect.",
        ));
    }
    require_normal(&instance)?;
    account.set("PasswordDigest", digest(new));
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.put(account);
    Ok(json!({}))
}

pub(super) fn reset_account_password(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let mut account = find_account(ctx, &instance, p)?;
    let password = p.required("AccountPassword")?;
    check_password("AccountPassword", password)?;
    require_normal(&instance)?;
    account.set("PasswordDigest", digest(password));
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.put(account);
    Ok(json!({}))
}

pub(super) fn delete_account(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let account = find_account(ctx, &instance, p)?;
    if account.name == instance.id {
        return Err(ApiError::incorrect_status(
            "InvalidAccountName.Default",
            "The default account of the instance cannot be deleted.",
        ));
    }
    require_normal(&instance)?;
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.delete(&account.id);
    Ok(json!({}))
}
