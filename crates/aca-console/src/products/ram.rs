//! Resource Access Management (API 2015-05-01): RAM users, AccessKeys, logon profiles, groups, policies and roles.
//!
//! RAM is global: nothing here depends on the request's region. User, group, policy and role names are
//! the keys callers use, so every lookup goes by name. ActionTrail records identity operations (users,
//! their AccessKeys and logon profiles, groups and group membership) under the service name `Ims`, and
//! policy and role operations under `Ram`, as the real audit log does. An AccessKey created here is a
//! working key: it is registered with the emulator's signature checks.

use axum::http::StatusCode;
use rand::Rng;
use serde_json::{Value, json};

use crate::catalog::{Effect, OpCtx, Operation, Product};
use crate::clock::iso8601;
use crate::error::ApiError;
use crate::model::{AccessKey, Resource, access_key_pair};
use crate::params::Params;

pub static PRODUCT: Product = Product {
    code: "ram",
    name: "Resource Access Management",
    service_name: "Ram",
    version: "2015-05-01",
    endpoint: "ram.aliyuncs.com",
    console_agent: "ram.console.aliyun.com",
    operations: &[
        Operation::write("CreateUser", create_user).service(IMS),
        Operation::read("GetUser", get_user).service(IMS),
        Operation::read("ListUsers", list_users).service(IMS),
        Operation::write("UpdateUser", update_user).service(IMS),
        Operation::write("DeleteUser", delete_user).service(IMS),
        Operation::write("CreateLoginProfile", create_login_profile).service(IMS),
        Operation::read("GetLoginProfile", get_login_profile).service(IMS),
        Operation::write("DeleteLoginProfile", delete_login_profile).service(IMS),
        Operation::write("CreateAccessKey", create_access_key).service(IMS),
        Operation::read("ListAccessKeys", list_access_keys).service(IMS),
        Operation::write("UpdateAccessKey", update_access_key).service(IMS),
        Operation::write("DeleteAccessKey", delete_access_key).service(IMS),
        Operation::write("CreateGroup", create_group).service(IMS),
        Operation::read("GetGroup", get_group).service(IMS),
        Operation::read("ListGroups", list_groups).service(IMS),
        Operation::write("DeleteGroup", delete_group).service(IMS),
        Operation::write("AddUserToGroup", add_user_to_group).service(IMS),
        Operation::write("RemoveUserFromGroup", remove_user_from_group).service(IMS),
        Operation::read("ListGroupsForUser", list_groups_for_user).service(IMS),
        Operation::read("ListUsersForGroup", list_users_for_group).service(IMS),
        Operation::write("CreatePolicy", create_policy),
        Operation::read("GetPolicy", get_policy),
        Operation::read("ListPolicies", list_policies),
        Operation::write("DeletePolicy", delete_policy),
        Operation::write("AttachPolicyToUser", attach_policy_to_user),
        Operation::write("DetachPolicyFromUser", detach_policy_from_user),
        Operation::read("ListPoliciesForUser", list_policies_for_user),
        Operation::write("AttachPolicyToGroup", attach_policy_to_group),
        Operation::write("DetachPolicyFromGroup", detach_policy_from_group),
        Operation::read("ListPoliciesForGroup", list_policies_for_group),
        Operation::write("AttachPolicyToRole", attach_policy_to_role),
        Operation::write("DetachPolicyFromRole", detach_policy_from_role),
        Operation::read("ListPoliciesForRole", list_policies_for_role),
        Operation::write("CreateRole", create_role),
        Operation::read("GetRole", get_role),
        Operation::read("ListRoles", list_roles),
        Operation::write("DeleteRole", delete_role),
    ],
};

/// ActionTrail's service name for RAM identity operations.
const IMS: &str = "Ims";

pub const USER: &str = "ram.user";
pub const GROUP: &str = "ram.group";
pub const POLICY: &str = "ram.policy";
pub const ROLE: &str = "ram.role";
/// A user's membership of a group.
pub const MEMBERSHIP: &str = "ram.group_membership";
/// A policy attached to a user, group or role.
pub const ATTACHMENT: &str = "ram.policy_attachment";

const USER_TYPE: &str = "ACS::RAM::User";
const GROUP_TYPE: &str = "ACS::RAM::Group";
const ROLE_TYPE: &str = "ACS::RAM::Role";
const POLICY_TYPE: &str = "ACS::RAM::Policy";

/// RAM resources belong to no region.
const GLOBAL: &str = "global";
/// The most AccessKeys a RAM user (or the account itself) may hold.
const MAX_ACCESS_KEYS: usize = 2;
const MAX_POLICY_DOCUMENT_BYTES: usize = 6144;

/// A system policy: maintained by Alibaba Cloud, attachable by every account, never editable.
struct SystemPolicy {
    name: &'static str,
    description: &'static str,
    actions: &'static [&'static str],
}

/// A selection of the real system policies, with the actions their documents allow.
const SYSTEM_POLICIES: &[SystemPolicy] = &[
    SystemPolicy {
        name: "AdministratorAccess",
        description: "Provides full access to Alibaba Cloud services and resources.",
        actions: &["*"],
    },
    SystemPolicy {
        name: "ReadOnlyAccess",
        description: "Provides read-only access to Alibaba Cloud services and resources.",
        actions: &[
            "*:Describe*",
            "*:List*",
            "*:Get*",
            "*:BatchGet*",
            "*:Query*",
            "*:BatchQuery*",
        ],
    },
    SystemPolicy {
        name: "AliyunECSFullAccess",
        description: "Provides full access to Elastic Compute Service(ECS) via Management Console.",
        actions: &["ecs:*"],
    },
    SystemPolicy {
        name: "AliyunECSReadOnlyAccess",
        description: "Provides read-only access to Elastic Compute Service(ECS) via Management Console.",
        actions: &["ecs:Describe*", "ecs:List*"],
    },
    SystemPolicy {
        name: "AliyunOSSFullAccess",
        description: "Provides full access to Object Storage Service(OSS) via Management Console.",
        actions: &["oss:*"],
    },
    SystemPolicy {
        name: "AliyunOSSReadOnlyAccess",
        description: "Provides read-only access to Object Storage Service(OSS) via Management Console.",
        actions: &["oss:Get*", "oss:List*"],
    },
    SystemPolicy {
        name: "AliyunVPCFullAccess",
        description: "Provides full access to Virtual Private Cloud(VPC) via Management Console.",
        actions: &["vpc:*"],
    },
    SystemPolicy {
        name: "AliyunVPCReadOnlyAccess",
        description: "Provides read-only access to Virtual Private Cloud(VPC) via Management Console.",
        actions: &["vpc:Describe*", "vpc:Get*"],
    },
    SystemPolicy {
        name: "AliyunRDSFullAccess",
        description: "Provides full access to ApsaraDB for RDS via Management Console.",
        actions: &["rds:*"],
    },
    SystemPolicy {
        name: "AliyunSLBFullAccess",
        description: "Provides full access to Server Load Balancer(SLB) via Management Console.",
        actions: &["slb:*"],
    },
    SystemPolicy {
        name: "AliyunRAMFullAccess",
        description: "Provides full access to Resource Access Management(RAM).",
        actions: &["ram:*"],
    },
    SystemPolicy {
        name: "AliyunRAMReadOnlyAccess",
        description: "Provides read-only access to Resource Access Management(RAM).",
        actions: &["ram:Get*", "ram:List*"],
    },
    SystemPolicy {
        name: "AliyunKMSFullAccess",
        description: "Provides full access to Key Management Service(KMS).",
        actions: &["kms:*"],
    },
    SystemPolicy {
        name: "AliyunDNSFullAccess",
        description: "Provides full access to Alibaba Cloud DNS via Management Console.",
        actions: &["alidns:*", "dns:*"],
    },
    SystemPolicy {
        name: "AliyunCloudMonitorFullAccess",
        description: "Provides full access to CloudMonitor via Management Console.",
        actions: &["cms:*"],
    },
    SystemPolicy {
        name: "AliyunActionTrailFullAccess",
        description: "Provides full access to ActionTrail via Management Console.",
        actions: &["actiontrail:*"],
    },
    SystemPolicy {
        name: "AliyunLogFullAccess",
        description: "Provides full access to Log Service(Log) via Management Console.",
        actions: &["log:*"],
    },
];

/// System policies predate every account; they all carry the same creation date.
const SYSTEM_POLICY_DATE: &str = "2015-04-28T16:12:49Z";

// ---------------------------------------------------------------------------------------------
// Errors and validation, with the real RAM error codes and messages.

fn ram_error(status: StatusCode, code: &str, message: impl Into<String>) -> ApiError {
    ApiError::new(status, code, message)
}

fn invalid_chars(param: &str) -> ApiError {
    ram_error(
        StatusCode::BAD_REQUEST,
        &format!("InvalidParameter.{param}.InvalidChars"),
        format!("The parameter - \"{param}\" contains invalid chars."),
    )
}

fn too_long(param: &str) -> ApiError {
    ram_error(
        StatusCode::BAD_REQUEST,
        &format!("InvalidParameter.{param}.Length"),
        format!("The parameter - \"{param}\" beyond the length limit."),
    )
}

fn bad_format(param: &str) -> ApiError {
    ram_error(
        StatusCode::BAD_REQUEST,
        &format!("InvalidParameter.{param}.Format"),
        format!("The format of the parameter - \"{param}\" is incorrect."),
    )
}

fn not_exist(what: &str, message: &str) -> ApiError {
    ram_error(StatusCode::NOT_FOUND, &format!("EntityNotExist.{what}"), message)
}

fn already_exists(what: &str, message: &str) -> ApiError {
    ram_error(StatusCode::CONFLICT, &format!("EntityAlreadyExists.{what}"), message)
}

fn delete_conflict(what: &str, message: &str) -> ApiError {
    ram_error(StatusCode::CONFLICT, &format!("DeleteConflict.{what}"), message)
}

fn malformed_document(why: impl std::fmt::Display) -> ApiError {
    ram_error(StatusCode::BAD_REQUEST, "MalformedPolicyDocument", why.to_string())
}

/// A name of 1..=`max` characters drawn from `allowed`.
fn check_name(param: &str, value: &str, max: usize, allowed: fn(char) -> bool) -> Result<(), ApiError> {
    if value.chars().count() > max {
        return Err(too_long(param));
    }
    if !value.chars().all(allowed) {
        return Err(invalid_chars(param));
    }
    Ok(())
}

fn user_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '@')
}

fn group_or_policy_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-'
}

fn role_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '-')
}

fn check_user_name(param: &str, value: &str) -> Result<(), ApiError> {
    check_name(param, value, 64, user_name_char)
}

fn check_display_name(param: &str, value: &str) -> Result<(), ApiError> {
    if value.chars().count() > 128 {
        return Err(too_long(param));
    }
    if value.chars().any(char::is_control) {
        return Err(invalid_chars(param));
    }
    Ok(())
}

fn check_comments(param: &str, value: &str) -> Result<(), ApiError> {
    if value.chars().count() > 128 {
        Err(too_long(param))
    } else {
        Ok(())
    }
}

/// `86-13800000000` (country code, hyphen, number) or a bare number.
fn check_mobile_phone(param: &str, value: &str) -> Result<(), ApiError> {
    let (country, number) = value.split_once('-').unwrap_or(("86", value));
    let digits = |s: &str, range: std::ops::RangeInclusive<usize>| {
        range.contains(&s.len()) && s.chars().all(|c| c.is_ascii_digit())
    };
    if digits(country, 1..=4) && digits(number, 5..=15) {
        Ok(())
    } else {
        Err(bad_format(param))
    }
}

fn check_email(param: &str, value: &str) -> Result<(), ApiError> {
    let valid = value.split_once('@').is_some_and(|(local, domain)| {
        !local.is_empty()
            && domain.contains('.')
            && !domain.starts_with('.')
            && !domain.ends_with('.')
            && !value.chars().any(char::is_whitespace)
            && !domain.contains('@')
    });
    if valid { Ok(()) } else { Err(bad_format(param)) }
}

/// What a policy document grants: permissions (`Resource`) or who may assume a role (`Principal`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum DocumentKind {
    Permissions,
    Trust,
}

/// Parses and checks a policy document the way RAM does: `Version` "1" and a non-empty `Statement`
/// list whose entries have an `Effect`, an `Action`, and a `Resource` (or a `Principal` for trust policies).
fn check_policy_document(param: &str, document: &str, kind: DocumentKind) -> Result<Value, ApiError> {
    if document.len() > MAX_POLICY_DOCUMENT_BYTES {
        return Err(too_long(param));
    }
    let parsed: Value =
        serde_json::from_str(document).map_err(|e| malformed_document(format!("{param} is not valid JSON: {e}")))?;
    if parsed.get("Version").and_then(Value::as_str) != Some("1") {
        return Err(malformed_document(format!("{param}: \"Version\" must be \"1\"")));
    }
    let statements = parsed
        .get("Statement")
        .and_then(Value::as_array)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| malformed_document(format!("{param}: \"Statement\" must be a non-empty list")))?;
    for (index, statement) in statements.iter().enumerate() {
        let effect = statement.get("Effect").and_then(Value::as_str);
        if !matches!(effect, Some("Allow" | "Deny")) {
            return Err(malformed_document(format!(
                "{param}: Statement {index} needs \"Effect\" Allow or Deny"
            )));
        }
        let is_text_or_list = |v: &Value| match v {
            Value::String(s) => !s.is_empty(),
            Value::Array(items) => !items.is_empty() && items.iter().all(|i| i.as_str().is_some_and(|s| !s.is_empty())),
            _ => false,
        };
        if !statement.get("Action").is_some_and(is_text_or_list) {
            return Err(malformed_document(format!(
                "{param}: Statement {index} needs an \"Action\""
            )));
        }
        match kind {
            DocumentKind::Permissions if !statement.get("Resource").is_some_and(is_text_or_list) => {
                return Err(malformed_document(format!(
                    "{param}: Statement {index} needs a \"Resource\""
                )));
            }
            DocumentKind::Trust if !statement.get("Principal").is_some_and(Value::is_object) => {
                return Err(malformed_document(format!(
                    "{param}: Statement {index} needs a \"Principal\" object"
                )));
            }
            _ => {}
        }
    }
    Ok(parsed)
}

/// 16 decimal digits, the shape of real RAM user and role ids.
fn numeric_id() -> String {
    let mut rng = rand::rng();
    let mut id = rng.random_range(1..=9u8).to_string();
    id.extend((0..15).map(|_| char::from(b'0' + rng.random_range(0..10u8))));
    id
}

// ---------------------------------------------------------------------------------------------
// Lookups by name.

fn by_name(ctx: &OpCtx<'_>, kind: &str, name: &str) -> Option<Resource> {
    ctx.list_all(kind).into_iter().find(|r| r.name == name)
}

fn find_user(ctx: &OpCtx<'_>, name: &str) -> Result<Resource, ApiError> {
    by_name(ctx, USER, name).ok_or_else(|| not_exist("User", "The user does not exist."))
}

fn find_group(ctx: &OpCtx<'_>, name: &str) -> Result<Resource, ApiError> {
    by_name(ctx, GROUP, name).ok_or_else(|| not_exist("Group", "The group does not exist."))
}

fn find_role(ctx: &OpCtx<'_>, name: &str) -> Result<Resource, ApiError> {
    by_name(ctx, ROLE, name).ok_or_else(|| not_exist("Role", "The role does not exist."))
}

fn memberships(ctx: &OpCtx<'_>) -> Vec<Resource> {
    ctx.list_all(MEMBERSHIP)
}

/// A page of a RAM list: `MaxItems` entries starting at the entry whose key is `Marker`.
/// Returns the page and, when more remain, the marker of the next page.
fn marker_page<T>(items: Vec<T>, p: &Params, key: impl Fn(&T) -> String) -> Result<(Vec<T>, Option<String>), ApiError> {
    let max_items = p.int_in("MaxItems", 1..=1000, 100)? as usize;
    let start = match p.get("Marker") {
        None => 0,
        Some(marker) => items
            .iter()
            .position(|item| key(item) == marker)
            .ok_or_else(|| ApiError::invalid_parameter("Marker", "the marker does not belong to this list"))?,
    };
    let mut rest = items.into_iter().skip(start);
    let page: Vec<T> = rest.by_ref().take(max_items).collect();
    let next = rest.next().map(|item| key(&item));
    Ok((page, next))
}

/// The paging fields of a RAM list response.
fn with_marker(mut body: Value, next: Option<String>) -> Value {
    body["IsTruncated"] = json!(next.is_some());
    if let Some(marker) = next {
        body["Marker"] = json!(marker);
    }
    body
}

// ---------------------------------------------------------------------------------------------
// Users.

fn user_json(user: &Resource) -> Value {
    json!({
        "UserId": user.id,
        "UserName": user.name,
        "DisplayName": user.attr_str("DisplayName"),
        "MobilePhone": user.attr_str("MobilePhone"),
        "Email": user.attr_str("Email"),
        "Comments": user.attr_str("Comments"),
        "CreateDate": iso8601(user.created_ms),
        "UpdateDate": user.attr_str("UpdateDate"),
    })
}

fn create_user(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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
    if by_name(ctx, USER, name).is_some() {
        return Err(already_exists("User", "The user does already EXIST."));
    }
    let now = iso8601(ctx.now_ms);
    let user = Resource::new(USER, numeric_id(), GLOBAL, name, "Active", ctx.now_ms)
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

fn get_user(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("UserName")?;
    let user = find_user(ctx, name)?;
    ctx.reference(USER_TYPE, name);
    Ok(json!({ "User": user_json(&user) }))
}

fn list_users(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let (page, next) = marker_page(ctx.list_all(USER), p, |u| u.id.clone())?;
    let users: Vec<Value> = page.iter().map(user_json).collect();
    Ok(with_marker(json!({ "Users": { "User": users } }), next))
}

fn update_user(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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
fn rename_user(ctx: &mut OpCtx<'_>, old: &str, new: &str) {
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

fn delete_user(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("UserName")?;
    let user = find_user(ctx, name)?;
    if memberships(ctx).iter().any(|m| m.attr_str("UserName") == name) {
        return Err(delete_conflict(
            "User.Group",
            "The user CAN NOT be in any group while deleting the user.",
        ));
    }
    if ctx.access_keys().any(|k| k.user_name.as_deref() == Some(name)) {
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
    ctx.reference(USER_TYPE, name);
    ctx.delete(&user.id);
    Ok(json!({}))
}

// ---------------------------------------------------------------------------------------------
// Logon profiles (console access of a RAM user).

fn login_profile_json(user: &Resource) -> Value {
    let mut profile = user.attrs.get("LoginProfile").cloned().unwrap_or_else(|| json!({}));
    profile["UserName"] = json!(user.name);
    profile
}

fn create_login_profile(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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
    // The default password policy: 8 to 32 characters, no whitespace.
    let length = password.chars().count();
    if !(8..=32).contains(&length) || password.chars().any(char::is_whitespace) {
        return Err(ram_error(
            StatusCode::BAD_REQUEST,
            "InvalidParameter.Password.TooWeak",
            "The parameter - \"Password\" is not compliant with the password policy.",
        ));
    }
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

fn get_login_profile(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("UserName")?;
    let user = find_user(ctx, name)?;
    if !user.attrs.contains_key("LoginProfile") {
        return Err(not_exist("User.LoginProfile", "The user login profile does not exist."));
    }
    ctx.reference(USER_TYPE, name);
    Ok(json!({ "LoginProfile": login_profile_json(&user) }))
}

fn delete_login_profile(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("UserName")?;
    let mut user = find_user(ctx, name)?;
    if user.attrs.remove("LoginProfile").is_none() {
        return Err(not_exist("User.LoginProfile", "The user login profile does not exist."));
    }
    ctx.reference(USER_TYPE, name);
    ctx.put(user);
    Ok(json!({}))
}

// ---------------------------------------------------------------------------------------------
// AccessKeys. Without `UserName` the operations act on the caller's own keys (the root's, or the
// calling RAM user's).

fn key_owner(ctx: &OpCtx<'_>, p: &Params) -> Result<Option<String>, ApiError> {
    match p.get("UserName") {
        None => Ok(ctx.caller_user.clone()),
        Some(name) => {
            find_user(ctx, name)?;
            Ok(Some(name.to_owned()))
        }
    }
}

fn access_key_status(key: &AccessKey) -> &'static str {
    if key.active { "Active" } else { "Inactive" }
}

fn create_access_key(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

fn list_access_keys(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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
fn find_key(ctx: &OpCtx<'_>, owner: &Option<String>, id: &str) -> Result<AccessKey, ApiError> {
    ctx.access_keys()
        .find(|k| k.id == id && &k.user_name == owner)
        .cloned()
        .ok_or_else(|| not_exist("User.AccessKey", "The user access key does not exist."))
}

fn update_access_key(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

fn delete_access_key(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let id = p.required("UserAccessKeyId")?;
    let owner = key_owner(ctx, p)?;
    let key = find_key(ctx, &owner, id)?;
    if let Some(user) = &owner {
        ctx.reference(USER_TYPE, user);
    }
    ctx.effect(Effect::DeleteAccessKey(key.id));
    Ok(json!({}))
}

// ---------------------------------------------------------------------------------------------
// Groups and membership.

fn group_json(group: &Resource) -> Value {
    json!({
        "GroupName": group.name,
        "Comments": group.attr_str("Comments"),
        "CreateDate": iso8601(group.created_ms),
        "UpdateDate": group.attr_str("UpdateDate"),
    })
}

fn check_group_name(param: &str, name: &str) -> Result<(), ApiError> {
    check_name(param, name, 64, group_or_policy_name_char)
}

fn create_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("GroupName")?;
    check_group_name("GroupName", name)?;
    let comments = p.get("Comments").unwrap_or("");
    check_comments("Comments", comments)?;
    if by_name(ctx, GROUP, name).is_some() {
        return Err(already_exists("Group", "The group does already EXIST."));
    }
    let group = Resource::new(GROUP, ctx.new_id("g"), GLOBAL, name, "Active", ctx.now_ms)
        .with("Comments", comments)
        .with("UpdateDate", iso8601(ctx.now_ms));
    let body = json!({ "Group": group_json(&group) });
    ctx.reference(GROUP_TYPE, name);
    ctx.put(group);
    Ok(body)
}

fn get_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("GroupName")?;
    let group = find_group(ctx, name)?;
    ctx.reference(GROUP_TYPE, name);
    Ok(json!({ "Group": group_json(&group) }))
}

fn list_groups(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let (page, next) = marker_page(ctx.list_all(GROUP), p, |g| g.id.clone())?;
    let groups: Vec<Value> = page.iter().map(group_json).collect();
    Ok(with_marker(json!({ "Groups": { "Group": groups } }), next))
}

fn delete_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

fn membership_of(ctx: &OpCtx<'_>, user: &str, group: &str) -> Option<Resource> {
    memberships(ctx)
        .into_iter()
        .find(|m| m.attr_str("UserName") == user && m.attr_str("GroupName") == group)
}

fn add_user_to_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

fn remove_user_from_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

fn list_groups_for_user(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

fn list_users_for_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

// ---------------------------------------------------------------------------------------------
// Policies.

/// A policy as the API shows it, system or custom.
struct PolicyView {
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

fn policy_type_param(p: &Params) -> Result<&str, ApiError> {
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

fn custom_policy(ctx: &OpCtx<'_>, name: &str) -> Option<Resource> {
    by_name(ctx, POLICY, name)
}

/// A policy of the given type, or `EntityNotExist.Policy`.
fn find_policy(ctx: &OpCtx<'_>, policy_type: &str, name: &str) -> Result<PolicyView, ApiError> {
    let found = match policy_type {
        "System" => SYSTEM_POLICIES.iter().find(|s| s.name == name).map(PolicyView::system),
        _ => custom_policy(ctx, name).map(|r| PolicyView::custom(&r)),
    };
    found.ok_or_else(|| not_exist("Policy", "The policy does not exist."))
}

fn attachment_count(ctx: &OpCtx<'_>, policy_type: &str, name: &str) -> usize {
    ctx.list_all(ATTACHMENT)
        .iter()
        .filter(|a| a.attr_str("PolicyType") == policy_type && a.attr_str("PolicyName") == name)
        .count()
}

fn create_policy(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

fn get_policy(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

fn list_policies(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

fn delete_policy(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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
enum Principal {
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

fn attachments_of(ctx: &OpCtx<'_>, principal: Principal, name: &str) -> Vec<Resource> {
    ctx.list_all(ATTACHMENT)
        .into_iter()
        .filter(|a| a.attr_str("PrincipalType") == principal.label() && a.attr_str("PrincipalName") == name)
        .collect()
}

fn attach(ctx: &mut OpCtx<'_>, p: &Params, principal: Principal) -> Result<Value, ApiError> {
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

fn detach(ctx: &mut OpCtx<'_>, p: &Params, principal: Principal) -> Result<Value, ApiError> {
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

fn list_attached(ctx: &mut OpCtx<'_>, p: &Params, principal: Principal) -> Result<Value, ApiError> {
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

fn attach_policy_to_user(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    attach(ctx, p, Principal::User)
}

fn detach_policy_from_user(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    detach(ctx, p, Principal::User)
}

fn list_policies_for_user(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    list_attached(ctx, p, Principal::User)
}

fn attach_policy_to_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    attach(ctx, p, Principal::Group)
}

fn detach_policy_from_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    detach(ctx, p, Principal::Group)
}

fn list_policies_for_group(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    list_attached(ctx, p, Principal::Group)
}

fn attach_policy_to_role(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    attach(ctx, p, Principal::Role)
}

fn detach_policy_from_role(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    detach(ctx, p, Principal::Role)
}

fn list_policies_for_role(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    list_attached(ctx, p, Principal::Role)
}

// ---------------------------------------------------------------------------------------------
// Roles.

fn role_json(role: &Resource) -> Value {
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

fn create_role(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

fn get_role(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let name = p.required("RoleName")?;
    let role = find_role(ctx, name)?;
    ctx.reference(ROLE_TYPE, name);
    Ok(json!({ "Role": role_json(&role) }))
}

fn list_roles(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let (page, next) = marker_page(ctx.list_all(ROLE), p, |r| r.id.clone())?;
    let roles: Vec<Value> = page.iter().map(role_json).collect();
    Ok(with_marker(json!({ "Roles": { "Role": roles } }), next))
}

fn delete_role(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
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

/// Drives products through [`crate::Console::call`] in tests: one console, any number of accounts.
#[cfg(test)]
pub(crate) mod harness {
    use aca_core::TrailEvent;
    use serde_json::Value;

    use crate::catalog::Product;
    use crate::dispatch::Caller;
    use crate::error::ApiError;
    use crate::params::Params;
    use crate::{Console, ConsoleConfig, Credentials};

    pub struct Harness {
        pub console: Console,
        /// The first account; [`Harness::call`] acts as it.
        pub account: Credentials,
    }

    impl Harness {
        pub fn new() -> Self {
            let console = Console::in_memory(ConsoleConfig::for_tests());
            let account = console.create_account("tester", None).expect("create account");
            Self { console, account }
        }

        pub fn another_account(&self, name: &str) -> Credentials {
            self.console.create_account(name, None).expect("create account")
        }

        pub fn call_as(
            &self,
            who: &Credentials,
            product: &'static Product,
            action: &str,
            pairs: &[(&str, &str)],
        ) -> Result<Value, ApiError> {
            let caller = Caller {
                account_id: who.account_id.clone(),
                access_key_id: who.access_key_id.clone(),
                user_name: None,
                user_agent: product.console_agent.to_owned(),
                source_ip: "192.0.2.10".to_owned(),
                event_type: aca_core::EventType::ApiCall,
                event_name: None,
            };
            let params = Params::from_pairs(pairs.iter().map(|(k, v)| (*k, *v)));
            self.console.call(product, action, &params, &caller).result
        }

        pub fn call(&self, product: &'static Product, action: &str, pairs: &[(&str, &str)]) -> Result<Value, ApiError> {
            self.call_as(&self.account, product, action, pairs)
        }

        /// A call that must succeed.
        pub fn ok(&self, product: &'static Product, action: &str, pairs: &[(&str, &str)]) -> Value {
            self.call(product, action, pairs)
                .unwrap_or_else(|e| panic!("{action} failed: {e}"))
        }

        /// A call that must fail.
        pub fn err(&self, product: &'static Product, action: &str, pairs: &[(&str, &str)]) -> ApiError {
            match self.call(product, action, pairs) {
                Ok(body) => panic!("{action} should have failed, returned {body}"),
                Err(e) => e,
            }
        }

        /// The first account's events, oldest first.
        pub fn events(&self) -> Vec<TrailEvent> {
            let shared = self
                .console
                .store
                .account(&self.account.account_id)
                .expect("account exists");
            let state = shared.lock();
            state.events.iter().map(|e| e.event.clone()).collect()
        }

        pub fn last_event(&self, name: &str) -> TrailEvent {
            self.events()
                .into_iter()
                .rev()
                .find(|e| e.event_name == name)
                .unwrap_or_else(|| panic!("no {name} event"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::harness::Harness;
    use super::*;

    fn user(h: &Harness, name: &str) -> Value {
        h.ok(
            &PRODUCT,
            "CreateUser",
            &[("UserName", name), ("DisplayName", "Alice Liu")],
        )
    }

    const READ_OSS: &str = r#"{"Version":"1","Statement":[{"Effect":"Allow","Action":"oss:Get*","Resource":"*"}]}"#;

    #[test]
    fn create_user_is_an_ims_event_naming_the_user() {
        let h = Harness::new();
        let body = user(&h, "alice");
        let created = &body["User"];
        assert_eq!(created["UserName"], "alice");
        assert_eq!(created["DisplayName"], "Alice Liu");
        let id = created["UserId"].as_str().unwrap();
        assert!(id.len() == 16 && id.chars().all(|c| c.is_ascii_digit()), "{id}");
        let event = h.last_event("CreateUser");
        assert_eq!(event.service_name, "Ims");
        assert_eq!(event.event_source, "ram.aliyuncs.com");
        assert_eq!(event.referenced_resources["ACS::RAM::User"], ["alice"]);
        h.ok(
            &PRODUCT,
            "CreatePolicy",
            &[("PolicyName", "read-oss"), ("PolicyDocument", READ_OSS)],
        );
        assert_eq!(h.last_event("CreatePolicy").service_name, "Ram");
        assert_eq!(
            h.ok(&PRODUCT, "GetUser", &[("UserName", "alice")])["User"]["UserId"],
            id
        );
        assert_eq!(
            h.err(&PRODUCT, "CreateUser", &[("UserName", "alice")]).code,
            "EntityAlreadyExists.User"
        );
    }

    #[test]
    fn user_parameters_are_checked_and_named() {
        let h = Harness::new();
        let e = h.err(&PRODUCT, "CreateUser", &[("DisplayName", "x")]);
        assert_eq!(e.code, "MissingParameter");
        assert!(e.message.contains("\"UserName\""));
        let e = h.err(&PRODUCT, "CreateUser", &[("UserName", "bad name!")]);
        assert_eq!(e.code, "InvalidParameter.UserName.InvalidChars");
        let e = h.err(
            &PRODUCT,
            "CreateUser",
            &[("UserName", "bob"), ("Email", "not-an-email")],
        );
        assert_eq!(e.code, "InvalidParameter.Email.Format");
        let e = h.err(
            &PRODUCT,
            "CreateUser",
            &[("UserName", "bob"), ("MobilePhone", "86-abc")],
        );
        assert_eq!(e.code, "InvalidParameter.MobilePhone.Format");
        h.ok(
            &PRODUCT,
            "CreateUser",
            &[
                ("UserName", "bob"),
                ("MobilePhone", "86-13800000000"),
                ("Email", "bob@example.com"),
            ],
        );
        assert_eq!(
            h.err(&PRODUCT, "GetUser", &[("UserName", "nobody")]).code,
            "EntityNotExist.User"
        );
    }

    #[test]
    fn a_created_access_key_works_and_can_be_deactivated() {
        let h = Harness::new();
        user(&h, "alice");
        let body = h.ok(&PRODUCT, "CreateAccessKey", &[("UserName", "alice")]);
        let key = &body["AccessKey"];
        let id = key["AccessKeyId"].as_str().unwrap();
        assert!(id.starts_with("LTAI"));
        assert_eq!(key["Status"], "Active");
        assert_eq!(key["AccessKeySecret"].as_str().unwrap().len(), 30);
        assert_eq!(h.console.store.account_of_key(id), Some(h.account.account_id.clone()));
        {
            let shared = h.console.store.account(&h.account.account_id).unwrap();
            let state = shared.lock();
            let stored = &state.access_keys[id];
            assert_eq!((stored.user_name.as_deref(), stored.active), (Some("alice"), true));
            assert_eq!(stored.secret, key["AccessKeySecret"].as_str().unwrap());
        }

        h.ok(
            &PRODUCT,
            "UpdateAccessKey",
            &[("UserName", "alice"), ("UserAccessKeyId", id), ("Status", "Inactive")],
        );
        {
            let shared = h.console.store.account(&h.account.account_id).unwrap();
            assert!(!shared.lock().access_keys[id].active);
        }
        let listed = h.ok(&PRODUCT, "ListAccessKeys", &[("UserName", "alice")]);
        assert_eq!(listed["AccessKeys"]["AccessKey"][0]["Status"], "Inactive");
        let e = h.err(
            &PRODUCT,
            "UpdateAccessKey",
            &[("UserName", "alice"), ("UserAccessKeyId", id), ("Status", "Off")],
        );
        assert!(e.message.contains("\"Status\""));

        h.ok(
            &PRODUCT,
            "DeleteAccessKey",
            &[("UserName", "alice"), ("UserAccessKeyId", id)],
        );
        assert_eq!(h.console.store.account_of_key(id), None);
        let e = h.err(
            &PRODUCT,
            "DeleteAccessKey",
            &[("UserName", "alice"), ("UserAccessKeyId", id)],
        );
        assert_eq!(e.code, "EntityNotExist.User.AccessKey");
    }

    /// A signed `ListUsers` request over the emulator's HTTP surface: (HTTP status, body).
    async fn signed_list_users(console: std::sync::Arc<crate::Console>, key_id: &str, secret: &str) -> (u16, Value) {
        use std::collections::BTreeMap;

        use axum::body::Body;
        use axum::extract::ConnectInfo;
        use tower::ServiceExt as _;

        use crate::api::signature::{percent_encode, rpc_signature, rpc_string_to_sign};

        let mut params: BTreeMap<String, String> = [
            ("Action", "ListUsers"),
            ("Version", "2015-05-01"),
            ("Format", "JSON"),
            ("AccessKeyId", key_id),
            ("SignatureMethod", "HMAC-SHA1"),
            ("SignatureVersion", "1.0"),
            ("SignatureNonce", "5f1a3c8e-0d6b-4a43-9d7e-2b8c6a1f0e11"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        params.insert("Timestamp".into(), iso8601(console.clock.now_ms()));
        let signature = rpc_signature(secret, &rpc_string_to_sign("GET", &params));
        params.insert("Signature".into(), signature);
        let query: Vec<String> = params
            .iter()
            .map(|(k, v)| format!("{}={}", percent_encode(k), percent_encode(v)))
            .collect();
        let mut request = axum::http::Request::get(format!("/?{}", query.join("&")))
            .body(Body::empty())
            .unwrap();
        request
            .extensions_mut()
            .insert(ConnectInfo(std::net::SocketAddr::from(([192, 0, 2, 10], 40000))));
        let response = crate::app(console).oneshot(request).await.unwrap();
        let status = response.status().as_u16();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20).await.unwrap();
        (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
    }

    #[tokio::test]
    async fn a_created_access_key_signs_requests_as_its_user() {
        let console = std::sync::Arc::new(crate::Console::in_memory(crate::ConsoleConfig::for_tests()));
        let account = console.create_account("tester", None).unwrap();
        let caller = crate::dispatch::Caller {
            account_id: account.account_id.clone(),
            access_key_id: account.access_key_id.clone(),
            user_name: None,
            user_agent: PRODUCT.console_agent.to_owned(),
            source_ip: "192.0.2.10".to_owned(),
            event_type: aca_core::EventType::ApiCall,
            event_name: None,
        };
        let call = |action: &str, pairs: &[(&str, &str)]| {
            let params = Params::from_pairs(pairs.iter().map(|(k, v)| (*k, *v)));
            console.call(&PRODUCT, action, &params, &caller).result.unwrap()
        };
        call("CreateUser", &[("UserName", "alice")]);
        let created = call("CreateAccessKey", &[("UserName", "alice")]);
        let id = created["AccessKey"]["AccessKeyId"].as_str().unwrap().to_owned();
        let secret = created["AccessKey"]["AccessKeySecret"].as_str().unwrap().to_owned();

        let (status, body) = signed_list_users(console.clone(), &id, &secret).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["Users"]["User"][0]["UserName"], "alice");
        let event = {
            let shared = console.store.account(&account.account_id).unwrap();
            let state = shared.lock();
            state.events.last().unwrap().event.clone()
        };
        assert_eq!(event.event_name, "ListUsers");
        assert_eq!(
            (
                event.user_identity.access_key_id.as_str(),
                event.user_identity.user_name.as_str()
            ),
            (id.as_str(), "alice")
        );

        call(
            "UpdateAccessKey",
            &[("UserName", "alice"), ("UserAccessKeyId", &id), ("Status", "Inactive")],
        );
        let (status, body) = signed_list_users(console.clone(), &id, &secret).await;
        assert_eq!(
            (status, body["Code"].as_str()),
            (400, Some("InvalidAccessKeyId.Inactive"))
        );
    }

    #[test]
    fn a_user_holds_at_most_two_access_keys() {
        let h = Harness::new();
        user(&h, "alice");
        h.ok(&PRODUCT, "CreateAccessKey", &[("UserName", "alice")]);
        h.ok(&PRODUCT, "CreateAccessKey", &[("UserName", "alice")]);
        let e = h.err(&PRODUCT, "CreateAccessKey", &[("UserName", "alice")]);
        assert_eq!(
            (e.code.as_str(), e.status.as_u16()),
            ("LimitExceeded.User.AccessKey", 409)
        );
        let keys = h.ok(&PRODUCT, "ListAccessKeys", &[("UserName", "alice")]);
        assert_eq!(keys["AccessKeys"]["AccessKey"].as_array().unwrap().len(), 2);
        // The account's own keys are a separate list.
        let root = h.ok(&PRODUCT, "ListAccessKeys", &[]);
        assert_eq!(
            root["AccessKeys"]["AccessKey"][0]["AccessKeyId"],
            h.account.access_key_id
        );
    }

    #[test]
    fn delete_user_fails_while_dependants_exist() {
        let h = Harness::new();
        user(&h, "alice");
        h.ok(
            &PRODUCT,
            "CreateGroup",
            &[("GroupName", "dev"), ("Comments", "developers")],
        );
        h.ok(
            &PRODUCT,
            "AddUserToGroup",
            &[("GroupName", "dev"), ("UserName", "alice")],
        );
        let key = h.ok(&PRODUCT, "CreateAccessKey", &[("UserName", "alice")]);
        let key_id = key["AccessKey"]["AccessKeyId"].as_str().unwrap().to_owned();
        h.ok(
            &PRODUCT,
            "AttachPolicyToUser",
            &[
                ("PolicyType", "System"),
                ("PolicyName", "AliyunECSFullAccess"),
                ("UserName", "alice"),
            ],
        );

        let delete = || h.err(&PRODUCT, "DeleteUser", &[("UserName", "alice")]).code;
        assert_eq!(delete(), "DeleteConflict.User.Group");
        assert_eq!(
            h.err(&PRODUCT, "DeleteGroup", &[("GroupName", "dev")]).code,
            "DeleteConflict.Group.User"
        );
        h.ok(
            &PRODUCT,
            "RemoveUserFromGroup",
            &[("GroupName", "dev"), ("UserName", "alice")],
        );
        assert_eq!(delete(), "DeleteConflict.User.AccessKey");
        h.ok(
            &PRODUCT,
            "DeleteAccessKey",
            &[("UserName", "alice"), ("UserAccessKeyId", &key_id)],
        );
        assert_eq!(delete(), "DeleteConflict.User.Policy");
        h.ok(
            &PRODUCT,
            "DetachPolicyFromUser",
            &[
                ("PolicyType", "System"),
                ("PolicyName", "AliyunECSFullAccess"),
                ("UserName", "alice"),
            ],
        );
        h.ok(
            &PRODUCT,
            "CreateLoginProfile",
            &[("UserName", "alice"), ("Password", "Sup3r-secret!")],
        );
        assert_eq!(delete(), "DeleteConflict.User.LoginProfile");
        h.ok(&PRODUCT, "DeleteLoginProfile", &[("UserName", "alice")]);
        h.ok(&PRODUCT, "DeleteUser", &[("UserName", "alice")]);
        assert_eq!(
            h.err(&PRODUCT, "GetUser", &[("UserName", "alice")]).code,
            "EntityNotExist.User"
        );
        h.ok(&PRODUCT, "DeleteGroup", &[("GroupName", "dev")]);
    }

    #[test]
    fn group_membership_is_listed_both_ways() {
        let h = Harness::new();
        user(&h, "alice");
        h.ok(&PRODUCT, "CreateGroup", &[("GroupName", "ops")]);
        h.ok(
            &PRODUCT,
            "AddUserToGroup",
            &[("GroupName", "ops"), ("UserName", "alice")],
        );
        let e = h.err(
            &PRODUCT,
            "AddUserToGroup",
            &[("GroupName", "ops"), ("UserName", "alice")],
        );
        assert_eq!(e.code, "EntityAlreadyExists.User.Group");
        let groups = h.ok(&PRODUCT, "ListGroupsForUser", &[("UserName", "alice")]);
        assert_eq!(groups["Groups"]["Group"][0]["GroupName"], "ops");
        let users = h.ok(&PRODUCT, "ListUsersForGroup", &[("GroupName", "ops")]);
        assert_eq!(users["Users"]["User"][0]["UserName"], "alice");
        assert_eq!(h.last_event("AddUserToGroup").service_name, "Ims");
        let e = h.err(&PRODUCT, "CreateGroup", &[("GroupName", "ops team")]);
        assert_eq!(e.code, "InvalidParameter.GroupName.InvalidChars");
    }

    #[test]
    fn policies_are_validated_attached_and_protected_from_deletion() {
        let h = Harness::new();
        let e = h.err(
            &PRODUCT,
            "CreatePolicy",
            &[("PolicyName", "p1"), ("PolicyDocument", "{not json")],
        );
        assert_eq!(e.code, "MalformedPolicyDocument");
        let no_effect = r#"{"Version":"1","Statement":[{"Action":"oss:*","Resource":"*"}]}"#;
        let e = h.err(
            &PRODUCT,
            "CreatePolicy",
            &[("PolicyName", "p1"), ("PolicyDocument", no_effect)],
        );
        assert!(e.message.contains("Effect"), "{}", e.message);
        let body = h.ok(
            &PRODUCT,
            "CreatePolicy",
            &[
                ("PolicyName", "read-oss"),
                ("PolicyDocument", READ_OSS),
                ("Description", "OSS reads"),
            ],
        );
        assert_eq!(body["Policy"]["PolicyType"], "Custom");
        assert_eq!(body["Policy"]["DefaultVersion"], "v1");

        let all = h.ok(&PRODUCT, "ListPolicies", &[]);
        let names: Vec<&str> = all["Policies"]["Policy"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|p| p["PolicyName"].as_str())
            .collect();
        for expected in [
            "AdministratorAccess",
            "AliyunECSFullAccess",
            "AliyunOSSReadOnlyAccess",
            "AliyunVPCFullAccess",
            "read-oss",
        ] {
            assert!(names.contains(&expected), "{expected} missing from {names:?}");
        }
        let custom = h.ok(&PRODUCT, "ListPolicies", &[("PolicyType", "Custom")]);
        assert_eq!(custom["Policies"]["Policy"].as_array().unwrap().len(), 1);

        h.ok(
            &PRODUCT,
            "CreateRole",
            &[("RoleName", "ecs-reader"), ("AssumeRolePolicyDocument", TRUST_ECS)],
        );
        h.ok(
            &PRODUCT,
            "AttachPolicyToRole",
            &[
                ("PolicyType", "Custom"),
                ("PolicyName", "read-oss"),
                ("RoleName", "ecs-reader"),
            ],
        );
        let got = h.ok(
            &PRODUCT,
            "GetPolicy",
            &[("PolicyType", "Custom"), ("PolicyName", "read-oss")],
        );
        assert_eq!(got["Policy"]["AttachmentCount"], 1);
        assert_eq!(got["DefaultPolicyVersion"]["PolicyDocument"], READ_OSS);
        assert_eq!(
            h.err(&PRODUCT, "DeletePolicy", &[("PolicyName", "read-oss")]).code,
            "DeleteConflict.Role.Policy"
        );
        assert_eq!(
            h.err(&PRODUCT, "DeleteRole", &[("RoleName", "ecs-reader")]).code,
            "DeleteConflict.Role.Policy"
        );
        h.ok(
            &PRODUCT,
            "DetachPolicyFromRole",
            &[
                ("PolicyType", "Custom"),
                ("PolicyName", "read-oss"),
                ("RoleName", "ecs-reader"),
            ],
        );
        h.ok(&PRODUCT, "DeletePolicy", &[("PolicyName", "read-oss")]);
        h.ok(&PRODUCT, "DeleteRole", &[("RoleName", "ecs-reader")]);
    }

    #[test]
    fn attaching_checks_policy_type_and_existence() {
        let h = Harness::new();
        user(&h, "alice");
        let attach = |kind: &str, name: &str| {
            h.call(
                &PRODUCT,
                "AttachPolicyToUser",
                &[("PolicyType", kind), ("PolicyName", name), ("UserName", "alice")],
            )
        };
        assert_eq!(
            attach("Managed", "AdministratorAccess").unwrap_err().code,
            "InvalidParameter.PolicyType"
        );
        assert_eq!(
            attach("System", "NoSuchPolicy").unwrap_err().code,
            "EntityNotExist.Policy"
        );
        attach("System", "AliyunOSSReadOnlyAccess").unwrap();
        let event = h.last_event("AttachPolicyToUser");
        assert_eq!(
            event.referenced_resources["ACS::RAM::Policy"],
            ["AliyunOSSReadOnlyAccess"]
        );
        assert_eq!(event.referenced_resources["ACS::RAM::User"], ["alice"]);
        assert_eq!(
            attach("System", "AliyunOSSReadOnlyAccess").unwrap_err().code,
            "EntityAlreadyExists.User.Policy"
        );
        let listed = h.ok(&PRODUCT, "ListPoliciesForUser", &[("UserName", "alice")]);
        assert_eq!(listed["Policies"]["Policy"][0]["PolicyName"], "AliyunOSSReadOnlyAccess");
        let e = h.err(
            &PRODUCT,
            "DetachPolicyFromUser",
            &[
                ("PolicyType", "System"),
                ("PolicyName", "AdministratorAccess"),
                ("UserName", "alice"),
            ],
        );
        assert_eq!(e.code, "EntityNotExist.User.Policy");
    }

    const TRUST_ECS: &str = r#"{"Statement":[{"Action":"sts:AssumeRole","Effect":"Allow",
        "Principal":{"Service":["ecs.aliyuncs.com"]}}],"Version":"1"}"#;

    #[test]
    fn roles_carry_their_arn() {
        let h = Harness::new();
        let body = h.ok(
            &PRODUCT,
            "CreateRole",
            &[("RoleName", "EcsAdmin"), ("AssumeRolePolicyDocument", TRUST_ECS)],
        );
        let arn = format!("acs:ram::{}:role/ecsadmin", h.account.account_id);
        assert_eq!(body["Role"]["Arn"], arn);
        assert_eq!(body["Role"]["MaxSessionDuration"], 3600);
        let no_principal = r#"{"Version":"1","Statement":[{"Action":"sts:AssumeRole","Effect":"Allow"}]}"#;
        let e = h.err(
            &PRODUCT,
            "CreateRole",
            &[("RoleName", "r2"), ("AssumeRolePolicyDocument", no_principal)],
        );
        assert_eq!(e.code, "MalformedPolicyDocument");
        let e = h.err(&PRODUCT, "CreateRole", &[("RoleName", "r2")]);
        assert!(e.message.contains("\"AssumeRolePolicyDocument\""));
        let listed = h.ok(&PRODUCT, "ListRoles", &[]);
        assert_eq!(listed["Roles"]["Role"][0]["RoleName"], "EcsAdmin");
        assert_eq!(
            h.ok(&PRODUCT, "GetRole", &[("RoleName", "EcsAdmin")])["Role"]["Arn"],
            arn
        );
    }

    #[test]
    fn list_users_pages_with_markers() {
        let h = Harness::new();
        for name in ["u1", "u2", "u3"] {
            user(&h, name);
        }
        let first = h.ok(&PRODUCT, "ListUsers", &[("MaxItems", "2")]);
        assert_eq!(first["IsTruncated"], true);
        assert_eq!(first["Users"]["User"].as_array().unwrap().len(), 2);
        let marker = first["Marker"].as_str().unwrap().to_owned();
        let second = h.ok(&PRODUCT, "ListUsers", &[("MaxItems", "2"), ("Marker", &marker)]);
        assert_eq!(second["IsTruncated"], false);
        assert_eq!(second["Users"]["User"].as_array().unwrap().len(), 1);
        let mut seen: Vec<&str> = first["Users"]["User"]
            .as_array()
            .unwrap()
            .iter()
            .chain(second["Users"]["User"].as_array().unwrap())
            .filter_map(|u| u["UserName"].as_str())
            .collect();
        seen.sort();
        assert_eq!(seen, ["u1", "u2", "u3"]);
    }

    #[test]
    fn renaming_a_user_keeps_its_keys_and_groups() {
        let h = Harness::new();
        user(&h, "alice");
        h.ok(&PRODUCT, "CreateGroup", &[("GroupName", "dev")]);
        h.ok(
            &PRODUCT,
            "AddUserToGroup",
            &[("GroupName", "dev"), ("UserName", "alice")],
        );
        let key = h.ok(&PRODUCT, "CreateAccessKey", &[("UserName", "alice")]);
        let body = h.ok(
            &PRODUCT,
            "UpdateUser",
            &[
                ("UserName", "alice"),
                ("NewUserName", "alice2"),
                ("NewDisplayName", "Alice L"),
            ],
        );
        assert_eq!(body["User"]["UserName"], "alice2");
        let keys = h.ok(&PRODUCT, "ListAccessKeys", &[("UserName", "alice2")]);
        assert_eq!(
            keys["AccessKeys"]["AccessKey"][0]["AccessKeyId"],
            key["AccessKey"]["AccessKeyId"]
        );
        let groups = h.ok(&PRODUCT, "ListGroupsForUser", &[("UserName", "alice2")]);
        assert_eq!(groups["Groups"]["Group"][0]["GroupName"], "dev");
        assert_eq!(
            h.err(&PRODUCT, "GetUser", &[("UserName", "alice")]).code,
            "EntityNotExist.User"
        );
    }

    #[test]
    fn accounts_do_not_see_each_others_users() {
        let h = Harness::new();
        user(&h, "alice");
        let other = h.another_account("other");
        let listed = h.call_as(&other, &PRODUCT, "ListUsers", &[]).unwrap();
        assert!(listed["Users"]["User"].as_array().unwrap().is_empty());
        let e = h
            .call_as(&other, &PRODUCT, "CreateAccessKey", &[("UserName", "alice")])
            .unwrap_err();
        assert_eq!(e.code, "EntityNotExist.User");
        // The same name is free in another account.
        h.call_as(&other, &PRODUCT, "CreateUser", &[("UserName", "alice")])
            .unwrap();
    }

    #[test]
    fn a_ram_user_without_user_name_manages_its_own_keys() {
        let h = Harness::new();
        h.ok(&PRODUCT, "CreateUser", &[("UserName", "alice")]);
        let caller = crate::dispatch::Caller {
            account_id: h.account.account_id.clone(),
            access_key_id: String::new(),
            user_name: Some("alice".to_owned()),
            user_agent: "test".to_owned(),
            source_ip: "192.0.2.10".to_owned(),
            event_type: aca_core::EventType::ApiCall,
            event_name: None,
        };
        let created = h.console.call(&PRODUCT, "CreateAccessKey", &Params::default(), &caller).result.unwrap();
        let id = created["AccessKey"]["AccessKeyId"].as_str().unwrap();
        let listed = h.ok(&PRODUCT, "ListAccessKeys", &[("UserName", "alice")]);
        assert_eq!(listed["AccessKeys"]["AccessKey"][0]["AccessKeyId"], id, "the key belongs to alice, not the root");
    }
}
