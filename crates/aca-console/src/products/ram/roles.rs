//! RAM roles and their trust policies.

use super::*;

pub(super) fn role_json(role: &Resource) -> Value {
    json!({
        "RoleId": role.id,
        "RoleName": role.name,
        "Arn": role.attr_str("Arn"),
        "Description": role.attr_str("Description"),
        "AssumeRolePolicyDocument": role.attr_str("AssumeRolePolicyDocument"),
        "MaxSessionDuration": role.attr_i64("MaxSessionDuration"),
        "CreateDate": iso8601(role.created_ms),
        "UpdateDate": role.attr_str("UpdateDate"),
    })
}

pub(super) fn create_role(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("RoleName")?;
    check_name("RoleName", name, 64, role_name_char)?;
    let document = p.required("AssumeRolePolicyDocument")?;
    check_policy_document("AssumeRolePolicyDocument", document, DocumentKind::Trust)?;
    let description = p.get("Description").unwrap_or("");
    if description.len() > 1024 {
        return Err(too_long("Description"));
    }
    let max_session = p.int_in("MaxSessionDuration", 3600..=43200, 3600)?;
    if by_name(ctx, ROLE, name).is_some() {
        return Err(already_exists("Role", "The role does already EXIST."));
    }
    // Role ARNs carry the role name in lower case.
    let arn = format!("acs:ram::{}:role/{}", ctx.account().id, name.to_lowercase());
    let role = Resource::new(ROLE, numeric_id(), GLOBAL, name, "Active", ctx.now_ms)
        .with("Arn", arn)
        .with("Description", description)
        .with("AssumeRolePolicyDocument", document)
        .with("MaxSessionDuration", max_session)
        .with("UpdateDate", iso8601(ctx.now_ms));
    let body = json!({ "Role": role_json(&role) });
    ctx.reference(ROLE_TYPE, name);
    ctx.put(role);
    Ok(body)
}

pub(super) fn get_role(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("RoleName")?;
    let role = find_role(ctx, name)?;
    ctx.reference(ROLE_TYPE, name);
    Ok(json!({ "Role": role_json(&role) }))
}

pub(super) fn list_roles(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let (page, next) = marker_page(ctx.list_all(ROLE), p, |r| r.id.clone())?;
    let roles: Vec<Value> = page.iter().map(role_json).collect();
    Ok(with_marker(json!({ "Roles": { "Role": roles } }), next))
}

pub(super) fn delete_role(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("RoleName")?;
    let role = find_role(ctx, name)?;
    if !attachments_of(ctx, Principal::Role, name).is_empty() {
        return Err(delete_conflict(
            "Role.Policy",
            "The role CAN NOT has any attached policy while deleting the role.",
        ));
    }
    ctx.reference(ROLE_TYPE, name);
    ctx.delete(&role.id);
    Ok(json!({}))
}
