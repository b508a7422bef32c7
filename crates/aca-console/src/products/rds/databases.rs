//! Databases of an RDS instance.

use super::*;

pub(super) fn database_id(instance_id: &str, name: &str) -> String {
    format!("{instance_id}/database/{name}")
}

pub(super) fn account_id(instance_id: &str, name: &str) -> String {
    format!("{instance_id}/account/{name}")
}

/// Database names: 2–64 characters of lowercase letters, digits, `_` and `-`, starting with a letter
/// and ending with a letter or digit.
pub(super) fn check_db_name(name: &str) -> Result<(), ApiError> {
    let ok = (2..=64).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.ends_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
    if ok {
        Ok(())
    } else {
        Err(ApiError::invalid_parameter(
            "DBName",
            "the name must be 2 to 64 lowercase letters, digits, underscores or hyphens, start with a letter \
             and end with a letter or digit",
        ))
    }
}

pub(super) fn check_character_set(engine: &str, charset: &str) -> Result<(), ApiError> {
    let ok = match engine {
        "SQLServer" => [
            "Chinese_PRC_CI_AS",
            "Chinese_PRC_CS_AS",
            "SQL_Latin1_General_CP1_CI_AS",
            "SQL_Latin1_General_CP1_CS_AS",
            "Chinese_PRC_BIN",
        ]
        .contains(&charset),
        // `UTF8` or `UTF8,C,en_US.utf8`: the character set, then optional collate and ctype.
        "PostgreSQL" => charset.split(',').next().is_some_and(|set| {
            !set.is_empty()
                && set
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        }),
        _ => ["utf8", "gbk", "latin1", "utf8mb4"].contains(&charset),
    };
    if ok {
        Ok(())
    } else {
        Err(ApiError::invalid_parameter(
            "CharacterSetName",
            format!("{charset:?} is not a character set of {engine}"),
        ))
    }
}

pub(super) fn create_database(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let name = p.required("DBName")?;
    let charset = p.required("CharacterSetName")?;
    check_db_name(name)?;
    check_character_set(instance.attr_str("Engine"), charset)?;
    require_running(&instance)?;
    let id = database_id(&instance.id, name);
    if ctx.get(&id).is_some() {
        return Err(ApiError::already_exists(
            "InvalidDBName.Duplicate",
            "Specified DB name already exists in this instance.",
        ));
    }
    let description = p.get("DBDescription").unwrap_or("");
    if !description.is_empty() {
        check_description("DBDescription", description)?;
    }
    let mut database = Resource::new(DATABASE, id, &instance.region, name, "Creating", ctx.now_ms)
        .with("CharacterSetName", charset)
        .with("DBDescription", description);
    database.parent = Some(instance.id.clone());
    ctx.begin_transition(&mut database, "Creating", "Running");
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.put(database);
    Ok(json!({}))
}

/// One account's privilege on one database, as stored on the account.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct Privilege {
    pub(super) db_name: String,
    pub(super) privilege: String,
}

pub(super) fn privileges_of(account: &Resource) -> Result<Vec<Privilege>, ApiError> {
    match account.attrs.get("DatabasePrivileges") {
        None => Ok(Vec::new()),
        Some(v) => {
            serde_json::from_value(v.clone()).map_err(|e| ApiError::internal(format!("corrupt privileges: {e}")))
        }
    }
}

pub(super) fn set_privileges(account: &mut Resource, privileges: &[Privilege]) -> Result<(), ApiError> {
    let value = serde_json::to_value(privileges).map_err(|e| ApiError::internal(e.to_string()))?;
    account.set("DatabasePrivileges", value);
    Ok(())
}

/// What a privilege name grants on MySQL, as DescribeAccounts reports it in `AccountPrivilegeDetail`.
pub(super) fn privilege_detail(privilege: &str) -> &'static str {
    match privilege {
        "ReadWrite" => {
            "SELECT,INSERT,UPDATE,DELETE,CREATE,DROP,REFERENCES,INDEX,ALTER,CREATE TEMPORARY TABLES,LOCK TABLES,\
             EXECUTE,CREATE VIEW,SHOW VIEW,CREATE ROUTINE,ALTER ROUTINE,EVENT,TRIGGER"
        }
        "ReadOnly" => "SELECT,LOCK TABLES,SHOW VIEW",
        "DDLOnly" => {
            "CREATE,DROP,INDEX,ALTER,CREATE TEMPORARY TABLES,LOCK TABLES,CREATE VIEW,SHOW VIEW,\
             CREATE ROUTINE,ALTER ROUTINE"
        }
        "DMLOnly" => "SELECT,INSERT,UPDATE,DELETE,CREATE TEMPORARY TABLES,LOCK TABLES,EXECUTE,SHOW VIEW,EVENT,TRIGGER",
        _ => "",
    }
}

pub(super) fn describe_databases(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let name = p.get("DBName");
    let status = p.get("DBStatus");
    let accounts = ctx.children(ACCOUNT, &instance.id);
    let mut items = Vec::new();
    for db in ctx.children(DATABASE, &instance.id) {
        if name.is_some_and(|n| db.name != n) || status.is_some_and(|s| db.status != s) {
            continue;
        }
        let mut grants = Vec::new();
        for account in &accounts {
            for privilege in privileges_of(account)?.into_iter().filter(|g| g.db_name == db.name) {
                grants.push(json!({
                    "Account": account.name,
                    "AccountPrivilege": privilege.privilege,
                    "AccountPrivilegeDetail": privilege_detail(&privilege.privilege),
                }));
            }
        }
        items.push(json!({
            "DBName": db.name,
            "DBInstanceId": instance.id,
            "Engine": instance.attr_str("Engine"),
            "DBStatus": db.status,
            "CharacterSetName": db.attr_str("CharacterSetName"),
            "DBDescription": db.attr_str("DBDescription"),
            "Accounts": { "AccountPrivilegeInfo": grants },
        }));
    }
    ctx.reference(INSTANCE_TYPE, &instance.id);
    Ok(json!({ "Databases": { "Database": items } }))
}

pub(super) fn db_not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "InvalidDBName.NotFound",
        "Specified one or more DB name does not exist or DB status does not support.",
    )
}

pub(super) fn delete_database(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let instance = find_instance(ctx, p)?;
    let name = p.required("DBName")?;
    require_running(&instance)?;
    let id = database_id(&instance.id, name);
    ctx.find(DATABASE, &id, "DBName").map_err(|_| db_not_found())?;
    for mut account in ctx.children(ACCOUNT, &instance.id) {
        let privileges = privileges_of(&account)?;
        if privileges.iter().any(|g| g.db_name == name) {
            let kept: Vec<Privilege> = privileges.into_iter().filter(|g| g.db_name != name).collect();
            set_privileges(&mut account, &kept)?;
            ctx.put(account);
        }
    }
    ctx.reference(INSTANCE_TYPE, &instance.id);
    ctx.delete(&id);
    Ok(json!({}))
}
