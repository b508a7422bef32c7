//! System and custom policies, and their attachment to users, groups and roles.

use super::*;

/// A policy as the API shows it, system or custom.
pub(super) struct PolicyView {
    name: String,
    policy_type: &'static str,
    description: String,
    document: String,
    create_date: String,
    update_date: String,
}

impl PolicyView {
    fn system(policy: &SystemPolicy) -> Self {
        let document = json!({
            "Version": "1",
            "Statement": [{ "Action": policy.actions, "Resource": "*", "Effect": "Allow" }],
        });
        Self {
            name: policy.name.to_owned(),
            policy_type: "System",
            description: policy.description.to_owned(),
            document: serde_json::to_string_pretty(&document).unwrap_or_default(),
            create_date: SYSTEM_POLICY_DATE.to_owned(),
            update_date: SYSTEM_POLICY_DATE.to_owned(),
        }
    }

    fn custom(policy: &Resource) -> Self {
        Self {
            name: policy.name.clone(),
            policy_type: "Custom",
            description: policy.attr_str("Description").to_owned(),
            document: policy.attr_str("PolicyDocument").to_owned(),
            create_date: iso8601(policy.created_ms),
            update_date: policy.attr_str("UpdateDate").to_owned(),
        }
    }

    fn summary(&self, attachment_count: usize) -> Value {
        json!({
            "PolicyName": self.name,
            "PolicyType": self.policy_type,
            "Description": self.description,
            "DefaultVersion": "v1",
            "CreateDate": self.create_date,
            "UpdateDate": self.update_date,
            "AttachmentCount": attachment_count,
        })
    }
}

pub(super) fn policy_type_param(p: &Params) -> Result<&str, ApiError> {
    let value = p.required("PolicyType")?;
    if matches!(value, "System" | "Custom") {
        Ok(value)
    } else {
        Err(ram_error(
            StatusCode::BAD_REQUEST,
            "InvalidParameter.PolicyType",
            "The parameter - \"PolicyType\" is incorrect.",
        ))
    }
}

pub(super) fn custom_policy(ctx: &OpCtx<'_>, name: &str) -> Option<Resource> {
    by_name(ctx, POLICY, name)
}

/// A policy of the given type, or `EntityNotExist.Policy`.
pub(super) fn find_policy(ctx: &OpCtx<'_>, policy_type: &str, name: &str) -> Result<PolicyView, ApiError> {
    let found = match policy_type {
        "System" => SYSTEM_POLICIES.iter().find(|s| s.name == name).map(PolicyView::system),
        _ => custom_policy(ctx, name).map(|r| PolicyView::custom(&r)),
    };
    found.ok_or_else(|| not_exist("Policy", "The policy does not exist."))
}

pub(super) fn attachment_count(ctx: &OpCtx<'_>, policy_type: &str, name: &str) -> usize {
    ctx.list_all(ATTACHMENT)
        .iter()
        .filter(|a| a.attr_str("PolicyType") == policy_type && a.attr_str("PolicyName") == name)
        .count()
}

pub(super) fn create_policy(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("PolicyName")?;
    check_name("PolicyName", name, 128, group_or_policy_name_char)?;
    let document = p.required("PolicyDocument")?;
    check_policy_document("PolicyDocument", document, DocumentKind::Permissions)?;
    let description = p.get("Description").unwrap_or("");
    if description.len() > 1024 {
        return Err(too_long("Description"));
    }
    if custom_policy(ctx, name).is_some() || SYSTEM_POLICIES.iter().any(|s| s.name == name) {
        return Err(already_exists("Policy", "The policy does already EXIST."));
    }
    let policy = Resource::new(POLICY, ctx.new_id("policy"), GLOBAL, name, "Active", ctx.now_ms)
        .with("Description", description)
        .with("PolicyDocument", document)
        .with("UpdateDate", iso8601(ctx.now_ms));
    let view = PolicyView::custom(&policy);
    ctx.reference(POLICY_TYPE, name);
    ctx.put(policy);
    Ok(json!({
        "Policy": {
            "PolicyName": view.name,
            "PolicyType": view.policy_type,
            "Description": view.description,
            "DefaultVersion": "v1",
            "CreateDate": view.create_date,
        }
    }))
}

pub(super) fn get_policy(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("PolicyName")?;
    let policy_type = policy_type_param(p)?;
    let view = find_policy(ctx, policy_type, name)?;
    let mut policy = view.summary(attachment_count(ctx, policy_type, name));
    policy["PolicyDocument"] = json!(view.document);
    ctx.reference(POLICY_TYPE, name);
    Ok(json!({
        "Policy": policy,
        "DefaultPolicyVersion": {
            "VersionId": "v1",
            "IsDefaultVersion": true,
            "PolicyDocument": view.document,
            "CreateDate": view.create_date,
        },
    }))
}

pub(super) fn list_policies(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let wanted = match p.get("PolicyType") {
        None => None,
        Some(_) => Some(policy_type_param(p)?),
    };
    let mut views: Vec<PolicyView> = Vec::new();
    if wanted.is_none_or(|t| t == "System") {
        views.extend(SYSTEM_POLICIES.iter().map(PolicyView::system));
    }
    if wanted.is_none_or(|t| t == "Custom") {
        views.extend(ctx.list_all(POLICY).iter().map(PolicyView::custom));
    }
    let (page, next) = marker_page(views, p, |v| format!("{}/{}", v.policy_type, v.name))?;
    let policies: Vec<Value> = page
        .iter()
        .map(|v| v.summary(attachment_count(ctx, v.policy_type, &v.name)))
        .collect();
    Ok(with_marker(json!({ "Policies": { "Policy": policies } }), next))
}

pub(super) fn delete_policy(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("PolicyName")?;
    let policy = custom_policy(ctx, name).ok_or_else(|| not_exist("Policy", "The policy does not exist."))?;
    let attached_to = |principal: Principal| {
        ctx.list_all(ATTACHMENT).iter().any(|a| {
            a.attr_str("PolicyType") == "Custom"
                && a.attr_str("PolicyName") == name
                && a.attr_str("PrincipalType") == principal.label()
        })
    };
    if attached_to(Principal::User) {
        return Err(delete_conflict(
            "Policy.User",
            "The policy CAN NOT been attached to any user while deleting the policy.",
        ));
    }
    if attached_to(Principal::Group) {
        return Err(delete_conflict(
            "Policy.Group",
            "The policy CAN NOT been attached to any group while deleting the policy.",
        ));
    }
    if attached_to(Principal::Role) {
        return Err(delete_conflict(
            "Role.Policy",
            "The policy CAN NOT been attached to any role while deleting the policy.",
        ));
    }
    ctx.reference(POLICY_TYPE, name);
    ctx.delete(&policy.id);
    Ok(json!({}))
}

// ---------------------------------------------------------------------------------------------
// Policy attachments: the same three operations for users, groups and roles.

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Principal {
    User,
    Group,
    Role,
}

impl Principal {
    /// As in error codes (`EntityAlreadyExists.User.Policy`) and in the stored attachment.
    fn label(self) -> &'static str {
        match self {
            Principal::User => "User",
            Principal::Group => "Group",
            Principal::Role => "Role",
        }
    }

    fn name_param(self) -> &'static str {
        match self {
            Principal::User => "UserName",
            Principal::Group => "GroupName",
            Principal::Role => "RoleName",
        }
    }

    fn resource_type(self) -> &'static str {
        match self {
            Principal::User => USER_TYPE,
            Principal::Group => GROUP_TYPE,
            Principal::Role => ROLE_TYPE,
        }
    }

    fn find(self, ctx: &OpCtx<'_>, name: &str) -> Result<Resource, ApiError> {
        match self {
            Principal::User => find_user(ctx, name),
            Principal::Group => find_group(ctx, name),
            Principal::Role => find_role(ctx, name),
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Principal::User => "user",
            Principal::Group => "group",
            Principal::Role => "role",
        }
    }
}

pub(super) fn attachments_of(ctx: &OpCtx<'_>, principal: Principal, name: &str) -> Vec<Resource> {
    ctx.list_all(ATTACHMENT)
        .into_iter()
        .filter(|a| a.attr_str("PrincipalType") == principal.label() && a.attr_str("PrincipalName") == name)
        .collect()
}

pub(super) fn attach(ctx: &mut OpCtx<'_>, p: &Params, principal: Principal) -> Result<Value, ApiError> {
    let policy_type = policy_type_param(p)?;
    let policy_name = p.required("PolicyName")?;
    let principal_name = p.required(principal.name_param())?;
    let target = principal.find(ctx, principal_name)?;
    find_policy(ctx, policy_type, policy_name)?;
    let already = attachments_of(ctx, principal, principal_name)
        .iter()
        .any(|a| a.attr_str("PolicyType") == policy_type && a.attr_str("PolicyName") == policy_name);
    if already {
        return Err(already_exists(
            &format!("{}.Policy", principal.label()),
            &format!("The {} has already been attached this policy.", principal.noun()),
        ));
    }
    let mut attachment = Resource::new(
        ATTACHMENT,
        ctx.new_id("pa"),
        GLOBAL,
        &format!("{}/{principal_name}/{policy_type}/{policy_name}", principal.label()),
        "Active",
        ctx.now_ms,
    )
    .with("PrincipalType", principal.label())
    .with("PrincipalName", principal_name)
    .with("PolicyType", policy_type)
    .with("PolicyName", policy_name);
    attachment.parent = Some(target.id);
    ctx.reference(principal.resource_type(), principal_name);
    ctx.reference(POLICY_TYPE, policy_name);
    ctx.put(attachment);
    Ok(json!({}))
}

pub(super) fn detach(ctx: &mut OpCtx<'_>, p: &Params, principal: Principal) -> Result<Value, ApiError> {
    let policy_type = policy_type_param(p)?;
    let policy_name = p.required("PolicyName")?;
    let principal_name = p.required(principal.name_param())?;
    principal.find(ctx, principal_name)?;
    find_policy(ctx, policy_type, policy_name)?;
    let attachment = attachments_of(ctx, principal, principal_name)
        .into_iter()
        .find(|a| a.attr_str("PolicyType") == policy_type && a.attr_str("PolicyName") == policy_name)
        .ok_or_else(|| {
            not_exist(
                &format!("{}.Policy", principal.label()),
                &format!("The indicate policy of the {} does not exist.", principal.noun()),
            )
        })?;
    ctx.reference(principal.resource_type(), principal_name);
    ctx.reference(POLICY_TYPE, policy_name);
    ctx.delete(&attachment.id);
    Ok(json!({}))
}

pub(super) fn list_attached(ctx: &mut OpCtx<'_>, p: &Params, principal: Principal) -> Result<Value, ApiError> {
    let principal_name = p.required(principal.name_param())?;
    principal.find(ctx, principal_name)?;
    let policies: Vec<Value> = attachments_of(ctx, principal, principal_name)
        .iter()
        .filter_map(|a| {
            let view = find_policy(ctx, a.attr_str("PolicyType"), a.attr_str("PolicyName")).ok()?;
            Some(json!({
                "PolicyName": view.name,
                "PolicyType": view.policy_type,
                "Description": view.description,
                "DefaultVersion": "v1",
                "AttachDate": iso8601(a.created_ms),
            }))
        })
        .collect();
    ctx.reference(principal.resource_type(), principal_name);
    Ok(json!({ "Policies": { "Policy": policies } }))
}

/// The account's grants, as the RAM console's Grants page lists them. The operation is Resource
/// Management's `ListPolicyAttachments` (authorised as `ram:ListPolicyAttachments`), served here
/// beside the identities it lists; principal types use its names (`IMSUser`, `IMSGroup`,
/// `ServiceRole`).
pub(super) fn list_policy_attachments(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let principal_type = |label: &str| match label {
        "User" => "IMSUser",
        "Group" => "IMSGroup",
        _ => "ServiceRole",
    };
    let wanted = |name: &str, value: &str| p.get(name).is_none_or(|w| w.is_empty() || w == value);
    let mut records: Vec<Value> = ctx
        .list_all(ATTACHMENT)
        .iter()
        .filter(|a| {
            wanted("PolicyType", a.attr_str("PolicyType"))
                && wanted("PolicyName", a.attr_str("PolicyName"))
                && wanted("PrincipalType", principal_type(a.attr_str("PrincipalType")))
                && wanted("PrincipalName", a.attr_str("PrincipalName"))
        })
        .filter_map(|a| {
            let view = find_policy(ctx, a.attr_str("PolicyType"), a.attr_str("PolicyName")).ok()?;
            Some(json!({
                "PrincipalName": a.attr_str("PrincipalName"),
                "PrincipalType": principal_type(a.attr_str("PrincipalType")),
                "PolicyName": view.name,
                "PolicyType": view.policy_type,
                "Description": view.description,
                "ResourceGroupId": ctx.account().id,
                "AttachDate": iso8601(a.created_ms),
            }))
        })
        .collect();
    let total = records.len();
    let size = p.int_in("PageSize", 1..=100, 10)? as usize;
    let number = p.int_in("PageNumber", 1..=i64::MAX, 1)? as usize;
    let page: Vec<Value> = records.drain(..).skip((number - 1) * size).take(size).collect();
    Ok(json!({
        "PageNumber": number,
        "PageSize": size,
        "TotalCount": total,
        "PolicyAttachments": { "PolicyAttachment": page },
    }))
}

pub(super) fn attach_policy_to_user(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    attach(ctx, p, Principal::User)
}

pub(super) fn detach_policy_from_user(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    detach(ctx, p, Principal::User)
}

pub(super) fn list_policies_for_user(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    list_attached(ctx, p, Principal::User)
}

pub(super) fn attach_policy_to_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    attach(ctx, p, Principal::Group)
}

pub(super) fn detach_policy_from_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    detach(ctx, p, Principal::Group)
}

pub(super) fn list_policies_for_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    list_attached(ctx, p, Principal::Group)
}

pub(super) fn attach_policy_to_role(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    attach(ctx, p, Principal::Role)
}

pub(super) fn detach_policy_from_role(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    detach(ctx, p, Principal::Role)
}

pub(super) fn list_policies_for_role(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    list_attached(ctx, p, Principal::Role)
}
