//! Database accounts of an RDS instance and their privileges on databases.

use super::*;

pub(super) const RESERVED_ACCOUNT_NAMES: &[&str] = &[
    "root",
    "admin",
    "eagleye",
    "master",
    "aurora",
    "sa",
    "sysadmin",
    "administrator",
    "mssqld",
    "public",
    "system",
    "postgres",
];

/// Account names: 2–32 characters of letters, digits and `_`, starting with a letter and ending with a
/// letter or digit, not a reserved name.
pub(super) fn check_account_name(name: &str) -> Result<(), ApiError> {
    let ok = (2..=32).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !ok {
        return Err(ApiError::invalid_parameter(
            "AccountName",
            "the name must be 2 to 32 letters, digits or underscores, start with a letter and end with a \
             letter or digit",
        ));
    }
    if RESERVED_ACCOUNT_NAMES.contains(&name.to_ascii_lowercase().as_str()) {
        return Err(ApiError::invalid_parameter(
            "AccountName",
            format!("{name:?} is a reserved account name"),
        ));
    }
    Ok(())
}

/// Passwords as RDS and Tair require them: 8–32 characters from at least three of uppercase letters,
/// lowercase letters, digits and the special characters `!@#$%^&*()_+-=`.
pub(crate) fn check_password(param: &str, password: &str) -> Result<(), ApiError> {
    const SPECIAL: &str = "!@#$%^&*()_+-=";
    let classes = [
        password.chars().any(|c| c.is_ascii_uppercase()),
        password.chars().any(|c| c.is_ascii_lowercase()),
        password.chars().any(|c| c.is_ascii_digit()),
        password.chars().any(|c| SPECIAL.contains(c)),
    ];
    let allowed = password
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || SPECIAL.contains(c));
    if (8..=32).contains(&password.len()) && allowed && classes.iter().filter(|&&b| b).count() >= 3 {
        Ok(())
    } else {
        Err(ApiError::invalid_parameter(
            param,
            "the password must be 8 to 32 characters long and contain at least three of: uppercase letters, \
             lowercase letters, digits, special characters (!@#$%^&*()_+-=)",
        ))
    }
}

pub(super) fn create_account(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let name = p.required("AccountName")?;
    let password = p.required("AccountPassword")?;
    check_account_name(name)?;
    check_password("AccountPassword", password)?;
    let account_type = p
        .one_of("AccountType", &["Normal", "Super", "Sysadmin"])?
        .unwrap_or("Normal");
    let description = p.get("AccountDescription").unwrap_or("");
    if !description.is_empty() {
        check_description("AccountDescription", description)?;
    }
    require_running(&instance)?;
    let id = account_id(&instance.id, name);
    let clash = ctx
        .children(ACCOUNT, &instance.id)
        .into_iter()
        .any(|a| a.name.eq_ignore_ascii_case(name));
    if ctx.get(&id).is_some() || clash {
        return Err(ApiError::already_exists(
            "InvalidAccountName.Duplicate",
            "Specified account name already exists in this instance.",
        ));
    }
    let mut account = Resource::new(ACCOUNT, id, &instance.region, name, "Unavailable", ctx.now_ms)
        .with("AccountType", account_type)
        .with("AccountDescription", description);
    account.parent = Some(instance.id.clone());
    set_privileges(&mut account, &[])?;
    ctx.begin_transition(&mut account, "Unavailable", "Available");
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.put(account);
    Ok(json!({}))
}

pub(super) fn account_not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "InvalidAccountName.NotFound",
        "Specified account does not exist.",
    )
}

pub(super) fn describe_accounts(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let name = p.get("AccountName");
    let mut items = Vec::new();
    for account in ctx.children(ACCOUNT, &instance.id) {
        if name.is_some_and(|n| account.name != n) {
            continue;
        }
        let privileges: Vec<Value> = privileges_of(&account)?
            .into_iter()
            .map(|g| {
                json!({
                    "DBName": g.db_name,
                    "AccountPrivilege": g.privilege,
                    "AccountPrivilegeDetail": privilege_detail(&g.privilege),
                })
            })
            .collect();
        items.push(json!({
            "DBInstanceId": instance.id,
            "AccountName": account.name,
            "AccountStatus": account.status,
            "AccountType": account.attr_str("AccountType"),
            "AccountDescription": account.attr_str("AccountDescription"),
            "PrivExceeded": "0",
            "DatabasePrivileges": { "DatabasePrivilege": privileges },
        }));
    }
    ctx.reference(INSTANCE_TYPE, &instance.id);
    Ok(json!({ "Accounts": { "DBInstanceAccount": items } }))
}

pub(super) fn delete_account(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let name = p.required("AccountName")?;
    let id = account_id(&instance.id, name);
    ctx.find(ACCOUNT, &id, "AccountName").map_err(|_| account_not_found())?;
    require_running(&instance)?;
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.delete(&id);
    Ok(json!({}))
}

pub(super) fn grant_account_privilege(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let name = p.required("AccountName")?;
    let db_names = p.list("DBName")?;
    if db_names.is_empty() {
        return Err(ApiError::missing_parameter("DBName"));
    }
    let privileges = p.list("AccountPrivilege")?;
    if privileges.is_empty() {
        return Err(ApiError::missing_parameter("AccountPrivilege"));
    }
    if privileges.len() != db_names.len() {
        return Err(ApiError::invalid_parameter(
            "AccountPrivilege",
            format!(
                "{} privileges were given for {} databases; give one per database, in order",
                privileges.len(),
                db_names.len()
            ),
        ));
    }
    let engine_name = instance.attr_str("Engine").to_owned();
    let allowed = engine(&engine_name).map_or(&[][..], |e| e.privileges);
    if let Some(bad) = privileges.iter().find(|g| !allowed.contains(&g.as_str())) {
        return Err(ApiError::invalid_parameter(
            "AccountPrivilege",
            format!("{bad:?} is not a {engine_name} privilege ({})", allowed.join(", ")),
        ));
    }
    let mut account = ctx
        .find(ACCOUNT, &account_id(&instance.id, name), "AccountName")
        .map_err(|_| account_not_found())?;
    require_running(&instance)?;
    let mut granted = privileges_of(&account)?;
    for (db_name, privilege) in db_names.iter().zip(&privileges) {
        ctx.find(DATABASE, &database_id(&instance.id, db_name), "DBName")
            .map_err(|_| db_not_found())?;
        granted.retain(|g| &g.db_name != db_name);
        granted.push(Privilege {
            db_name: db_name.clone(),
            privilege: privilege.clone(),
        });
    }
    set_privileges(&mut account, &granted)?;
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.put(account);
    Ok(json!({}))
}
