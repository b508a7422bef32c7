//! RAM user groups and their membership.

use super::*;

pub(super) fn group_json(group: &Resource) -> Value {
    json!({
        "GroupName": group.name,
        "DisplayName": group.attr_str("DisplayName"),
        "Comments": group.attr_str("Comments"),
        "CreateDate": iso8601(group.created_ms),
        "UpdateDate": group.attr_str("UpdateDate"),
    })
}

pub(super) fn check_group_name(param: &str, name: &str) -> Result<(), ApiError> {
    check_name(param, name, 64, group_or_policy_name_char)
}

pub(super) fn create_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("GroupName")?;
    check_group_name("GroupName", name)?;
    let comments = p.get("Comments").unwrap_or("");
    check_comments("Comments", comments)?;
    if by_name(ctx, GROUP, name).is_some() {
        return Err(already_exists("Group", "The group does already EXIST."));
    }
    // IMS CreateGroup: an optional display name of at most 24 characters.
    let display_name = p.get("DisplayName").unwrap_or(name);
    if display_name.chars().count() > 24 {
        return Err(too_long("DisplayName"));
    }
    let group = Resource::new(GROUP, ctx.new_id("g"), GLOBAL, name, "Active", ctx.now_ms)
        .with("Comments", comments)
        .with("DisplayName", display_name)
        .with("UpdateDate", iso8601(ctx.now_ms));
    let body = json!({ "Group": group_json(&group) });
    ctx.reference(GROUP_TYPE, name);
    ctx.put(group);
    Ok(body)
}

pub(super) fn get_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("GroupName")?;
    let group = find_group(ctx, name)?;
    ctx.reference(GROUP_TYPE, name);
    Ok(json!({ "Group": group_json(&group) }))
}

pub(super) fn list_groups(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let (page, next) = marker_page(ctx.list_all(GROUP), p, |g| g.id.clone())?;
    let groups: Vec<Value> = page.iter().map(group_json).collect();
    Ok(with_marker(json!({ "Groups": { "Group": groups } }), next))
}

pub(super) fn delete_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("GroupName")?;
    let group = find_group(ctx, name)?;
    if memberships(ctx).iter().any(|m| m.attr_str("GroupName") == name) {
        return Err(delete_conflict(
            "Group.User",
            "The group CAN NOT has any user member while deleting the group.",
        ));
    }
    if !attachments_of(ctx, Principal::Group, name).is_empty() {
        return Err(delete_conflict(
            "Group.Policy",
            "The entity CAN NOT has any attached policy while deleting the group.",
        ));
    }
    ctx.reference(GROUP_TYPE, name);
    ctx.delete(&group.id);
    Ok(json!({}))
}

pub(super) fn membership_of(ctx: &OpCtx<'_>, user: &str, group: &str) -> Option<Resource> {
    memberships(ctx)
        .into_iter()
        .find(|m| m.attr_str("UserName") == user && m.attr_str("GroupName") == group)
}

pub(super) fn add_user_to_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let group_name = p.required("GroupName")?;
    let user_name = p.required("UserName")?;
    let group = find_group(ctx, group_name)?;
    find_user(ctx, user_name)?;
    if membership_of(ctx, user_name, group_name).is_some() {
        return Err(already_exists("User.Group", "The user has already joined the group."));
    }
    let mut membership = Resource::new(
        MEMBERSHIP,
        ctx.new_id("gm"),
        GLOBAL,
        &format!("{group_name}/{user_name}"),
        "Active",
        ctx.now_ms,
    )
    .with("UserName", user_name)
    .with("GroupName", group_name);
    membership.parent = Some(group.id);
    ctx.reference(GROUP_TYPE, group_name);
    ctx.reference(USER_TYPE, user_name);
    ctx.put(membership);
    Ok(json!({}))
}

pub(super) fn remove_user_from_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let group_name = p.required("GroupName")?;
    let user_name = p.required("UserName")?;
    find_group(ctx, group_name)?;
    find_user(ctx, user_name)?;
    let membership = membership_of(ctx, user_name, group_name)
        .ok_or_else(|| not_exist("User.Group", "The user has not joined the group."))?;
    ctx.reference(GROUP_TYPE, group_name);
    ctx.reference(USER_TYPE, user_name);
    ctx.delete(&membership.id);
    Ok(json!({}))
}

pub(super) fn list_groups_for_user(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let user_name = p.required("UserName")?;
    find_user(ctx, user_name)?;
    let groups: Vec<Value> = memberships(ctx)
        .into_iter()
        .filter(|m| m.attr_str("UserName") == user_name)
        .filter_map(|m| {
            let group = by_name(ctx, GROUP, m.attr_str("GroupName"))?;
            Some(json!({
                "GroupName": group.name,
                "Comments": group.attr_str("Comments"),
                "JoinDate": iso8601(m.created_ms),
            }))
        })
        .collect();
    ctx.reference(USER_TYPE, user_name);
    Ok(json!({ "Groups": { "Group": groups } }))
}

pub(super) fn list_users_for_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let group_name = p.required("GroupName")?;
    find_group(ctx, group_name)?;
    let members: Vec<(Resource, Resource)> = memberships(ctx)
        .into_iter()
        .filter(|m| m.attr_str("GroupName") == group_name)
        .filter_map(|m| Some((by_name(ctx, USER, m.attr_str("UserName"))?, m)))
        .collect();
    let (page, next) = marker_page(members, p, |(user, _)| user.id.clone())?;
    let users: Vec<Value> = page
        .iter()
        .map(|(user, m)| {
            json!({
                "UserName": user.name,
                "DisplayName": user.attr_str("DisplayName"),
                "JoinDate": iso8601(m.created_ms),
            })
        })
        .collect();
    ctx.reference(GROUP_TYPE, group_name);
    Ok(with_marker(json!({ "Users": { "User": users } }), next))
}
