//! Resource Access Management (API 2015-05-01): RAM users, AccessKeys, logon profiles, groups, policies and roles.
//!
//! RAM is global: nothing here depends on the request's region. User, group, policy and role names are
//! the keys callers use, so every lookup goes by name. ActionTrail records identity operations (users,
//! their AccessKeys and logon profiles, groups and group membership) under the service name `Ims`, and
//! policy and role operations under `Ram`, as the real audit log does. An AccessKey created here is a
//! working key: it is registered with the emulator's signature checks. A virtual MFA device takes
//! real TOTP codes of the setup key it was created with.

use axum::http::StatusCode;
use rand::Rng;
use serde_json::{Value, json};

use crate::catalog::{Effect, OpCtx, Operation, Product};
use crate::clock::iso8601;
use crate::error::ApiError;
use crate::model::{AccessKey, Resource, access_key_pair};
use crate::params::Params;

mod access_keys;
pub mod authorize;
mod groups;
mod mfa;
mod policies;
mod roles;
pub mod service_roles;
mod users;

use self::access_keys::*;
use self::groups::*;
use self::mfa::*;
use self::policies::*;
use self::roles::*;
use self::users::*;

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
        Operation::write("UpdateLoginProfile", update_login_profile).service(IMS),
        Operation::write("DeleteLoginProfile", delete_login_profile).service(IMS),
        Operation::write("CreateAccessKey", create_access_key).service(IMS),
        Operation::read("ListAccessKeys", list_access_keys).service(IMS),
        Operation::write("UpdateAccessKey", update_access_key).service(IMS),
        Operation::write("DeleteAccessKey", delete_access_key).service(IMS),
        Operation::read("ListAccessKeysInRecycleBin", list_access_keys_in_recycle_bin).service(IMS),
        Operation::read("GetAccessKeyInfoInRecycleBin", get_access_key_info_in_recycle_bin).service(IMS),
        Operation::write("RestoreAccessKeyFromRecycleBin", restore_access_key_from_recycle_bin).service(IMS),
        Operation::write("DeleteAccessKeyInRecycleBin", delete_access_key_in_recycle_bin).service(IMS),
        Operation::write("CreateVirtualMFADevice", create_virtual_mfa_device).service(IMS),
        Operation::read("ListVirtualMFADevices", list_virtual_mfa_devices).service(IMS),
        Operation::write("DeleteVirtualMFADevice", delete_virtual_mfa_device).service(IMS),
        Operation::write("BindMFADevice", bind_mfa_device).service(IMS),
        Operation::write("UnbindMFADevice", unbind_mfa_device).service(IMS),
        Operation::read("GetUserMFAInfo", get_user_mfa_info).service(IMS),
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
        Operation::read("ListPolicyAttachments", list_policy_attachments),
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
/// A virtual MFA device, keyed by its serial number; bound to at most one user.
pub const MFA_DEVICE: &str = "ram.mfa_device";
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
    service_policy("AliyunCSDefaultRolePolicy"),
    service_policy("AliyunCSManagedKubernetesRolePolicy"),
    service_policy("AliyunCSServerlessKubernetesRolePolicy"),
    service_policy("AliyunCSKubernetesAuditRolePolicy"),
    service_policy("AliyunCSManagedNetworkRolePolicy"),
    service_policy("AliyunCSManagedCsiRolePolicy"),
    service_policy("AliyunCSManagedCsiPluginRolePolicy"),
    service_policy("AliyunCSManagedCsiProvisionerRolePolicy"),
    service_policy("AliyunCSManagedCmsRolePolicy"),
    service_policy("AliyunCSManagedLogRolePolicy"),
    service_policy("AliyunCSManagedArmsRolePolicy"),
];

/// A service system policy: dedicated to a service role ([`service_roles`]), it grants nothing to
/// the users and groups of the account.
const fn service_policy(name: &'static str) -> SystemPolicy {
    SystemPolicy {
        name,
        description: "The authorization policy dedicated to a service role.",
        actions: &[],
    }
}

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

#[cfg(test)]
mod tests;
