//! Identity, keys and audit: `alicloud_ram_user`, `alicloud_ram_group`,
//! `alicloud_ram_user_group_attachment`, `alicloud_ram_role`, `alicloud_ram_policy`,
//! `alicloud_ram_user_policy_attachment`, `alicloud_ram_role_policy_attachment`,
//! `alicloud_ram_access_key` (RAM), `alicloud_kms_key`, `alicloud_kms_alias` (KMS) and
//! `alicloud_actiontrail_trail` (ActionTrail).

use super::{Arg, IdFrom, Ready, RpcType, Settle, Source, TAGS, arg, local, required};

pub static TYPES: &[&RpcType] = &[
    &RAM_USER,
    &RAM_GROUP,
    &RAM_USER_GROUP_ATTACHMENT,
    &RAM_ROLE,
    &RAM_POLICY,
    &RAM_USER_POLICY_ATTACHMENT,
    &RAM_ROLE_POLICY_ATTACHMENT,
    &RAM_ACCESS_KEY,
    &KMS_KEY,
    &KMS_ALIAS,
    &ACTIONTRAIL_TRAIL,
];

const USER_ARGS: &[Arg] = &[
    arg("name", "UserName"),
    arg("user_name", "UserName"),
    arg("display_name", "DisplayName"),
    arg("mobile", "MobilePhone"),
    arg("email", "Email"),
    arg("comments", "Comments"),
    local("force"),
];

const USER_NAME: Source = Source::AnyAttr(&["user_name", "name"]);

pub static RAM_USER: RpcType = RpcType {
    name: "alicloud_ram_user",
    code: "ram",
    product: "RAM",
    args: USER_ARGS,
    name_arguments: &["name", "user_name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "CreateUser",
    id: IdFrom::Response("/User/UserId"),
    read: "GetUser",
    read_params: &[("UserName", USER_NAME)],
    item_at: "/User",
    match_field: None,
    attributes: &[
        ("name", "/UserName"),
        ("user_name", "/UserName"),
        ("display_name", "/DisplayName"),
        ("mobile", "/MobilePhone"),
        ("email", "/Email"),
        ("comments", "/Comments"),
    ],
    gone_when: None,
    ready: None,
    settle: &[],
    delete: "DeleteUser",
    delete_params: &[("UserName", USER_NAME)],
    purge: None,
};

const GROUP_ARGS: &[Arg] = &[
    arg("name", "GroupName"),
    arg("group_name", "GroupName"),
    arg("comments", "Comments"),
    local("force"),
];

pub static RAM_GROUP: RpcType = RpcType {
    name: "alicloud_ram_group",
    code: "ram",
    product: "RAM",
    args: GROUP_ARGS,
    name_arguments: &["group_name", "name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "CreateGroup",
    id: IdFrom::Response("/Group/GroupName"),
    read: "GetGroup",
    read_params: &[("GroupName", Source::Id)],
    item_at: "/Group",
    match_field: None,
    attributes: &[
        ("name", "/GroupName"),
        ("group_name", "/GroupName"),
        ("comments", "/Comments"),
    ],
    gone_when: None,
    ready: None,
    settle: &[],
    delete: "DeleteGroup",
    delete_params: &[("GroupName", Source::Id)],
    purge: None,
};

const ROLE_ARGS: &[Arg] = &[
    arg("name", "RoleName"),
    arg("role_name", "RoleName"),
    arg("document", "AssumeRolePolicyDocument"),
    arg("assume_role_policy_document", "AssumeRolePolicyDocument"),
    arg("description", "Description"),
    arg("max_session_duration", "MaxSessionDuration"),
    local("force"),
];

pub static RAM_ROLE: RpcType = RpcType {
    name: "alicloud_ram_role",
    code: "ram",
    product: "RAM",
    args: ROLE_ARGS,
    name_arguments: &["role_name", "name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "CreateRole",
    id: IdFrom::Response("/Role/RoleName"),
    read: "GetRole",
    read_params: &[("RoleName", Source::Id)],
    item_at: "/Role",
    match_field: None,
    attributes: &[
        ("name", "/RoleName"),
        ("role_name", "/RoleName"),
        ("role_id", "/RoleId"),
        ("arn", "/Arn"),
        ("description", "/Description"),
        ("document", "/AssumeRolePolicyDocument"),
        ("max_session_duration", "/MaxSessionDuration"),
    ],
    gone_when: None,
    ready: None,
    settle: &[],
    delete: "DeleteRole",
    delete_params: &[("RoleName", Source::Id)],
    purge: None,
};

const POLICY_ARGS: &[Arg] = &[
    arg("name", "PolicyName"),
    arg("policy_name", "PolicyName"),
    arg("document", "PolicyDocument"),
    arg("policy_document", "PolicyDocument"),
    arg("description", "Description"),
    local("force"),
];

pub static RAM_POLICY: RpcType = RpcType {
    name: "alicloud_ram_policy",
    code: "ram",
    product: "RAM",
    args: POLICY_ARGS,
    name_arguments: &["policy_name", "name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "CreatePolicy",
    id: IdFrom::Response("/Policy/PolicyName"),
    read: "GetPolicy",
    read_params: &[("PolicyName", Source::Id), ("PolicyType", Source::Const("Custom"))],
    item_at: "/Policy",
    match_field: None,
    attributes: &[
        ("name", "/PolicyName"),
        ("policy_name", "/PolicyName"),
        ("type", "/PolicyType"),
        ("description", "/Description"),
        ("document", "/PolicyDocument"),
        ("policy_document", "/PolicyDocument"),
        ("attachment_count", "/AttachmentCount"),
    ],
    gone_when: None,
    ready: None,
    settle: &[],
    delete: "DeletePolicy",
    delete_params: &[("PolicyName", Source::Id)],
    purge: None,
};

const MEMBERSHIP_ARGS: &[Arg] = &[required("group_name", "GroupName"), required("user_name", "UserName")];

/// A RAM user's membership of a group, known by the user's name among the group's users.
pub static RAM_USER_GROUP_ATTACHMENT: RpcType = RpcType {
    name: "alicloud_ram_user_group_attachment",
    code: "ram",
    product: "RAM",
    args: MEMBERSHIP_ARGS,
    name_arguments: &[],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "AddUserToGroup",
    id: IdFrom::Arguments(&[Source::Attr("user_name")]),
    read: "ListUsersForGroup",
    read_params: &[("GroupName", Source::Attr("group_name"))],
    item_at: "/Users/User",
    match_field: Some("UserName"),
    attributes: &[("user_name", "/UserName")],
    gone_when: None,
    ready: None,
    settle: &[],
    delete: "RemoveUserFromGroup",
    delete_params: &[
        ("GroupName", Source::Attr("group_name")),
        ("UserName", Source::Attr("user_name")),
    ],
    purge: None,
};

const USER_ATTACHMENT_ARGS: &[Arg] = &[
    required("policy_name", "PolicyName"),
    required("policy_type", "PolicyType"),
    required("user_name", "UserName"),
];

const ROLE_ATTACHMENT_ARGS: &[Arg] = &[
    required("policy_name", "PolicyName"),
    required("policy_type", "PolicyType"),
    required("role_name", "RoleName"),
];

/// A policy attached to a RAM user.
pub static RAM_USER_POLICY_ATTACHMENT: RpcType = policy_attachment(
    "alicloud_ram_user_policy_attachment",
    USER_ATTACHMENT_ARGS,
    ["AttachPolicyToUser", "ListPoliciesForUser", "DetachPolicyFromUser"],
    &[("UserName", Source::Attr("user_name"))],
    &[
        ("PolicyName", Source::Attr("policy_name")),
        ("PolicyType", Source::Attr("policy_type")),
        ("UserName", Source::Attr("user_name")),
    ],
);

/// A policy attached to a RAM role.
pub static RAM_ROLE_POLICY_ATTACHMENT: RpcType = policy_attachment(
    "alicloud_ram_role_policy_attachment",
    ROLE_ATTACHMENT_ARGS,
    ["AttachPolicyToRole", "ListPoliciesForRole", "DetachPolicyFromRole"],
    &[("RoleName", Source::Attr("role_name"))],
    &[
        ("PolicyName", Source::Attr("policy_name")),
        ("PolicyType", Source::Attr("policy_type")),
        ("RoleName", Source::Attr("role_name")),
    ],
);

/// A policy attached to a principal, known by the policy's name among the principal's policies
/// (attach, list and detach operations in `ops`).
const fn policy_attachment(
    name: &'static str,
    args: &'static [Arg],
    ops: [&'static str; 3],
    principal: &'static [(&'static str, Source)],
    detach: &'static [(&'static str, Source)],
) -> RpcType {
    RpcType {
        name,
        code: "ram",
        product: "RAM",
        args,
        name_arguments: &["policy_name"],
        fixed: &[],
        vpc_of_vswitch: None,
        create: ops[0],
        id: IdFrom::Arguments(&[Source::Attr("policy_name")]),
        read: ops[1],
        read_params: principal,
        item_at: "/Policies/Policy",
        match_field: Some("PolicyName"),
        attributes: &[("policy_name", "/PolicyName"), ("policy_type", "/PolicyType")],
        gone_when: None,
        ready: None,
        settle: &[],
        delete: ops[2],
        delete_params: detach,
        purge: None,
    }
}

const ACCESS_KEY_ARGS: &[Arg] = &[required("user_name", "UserName"), local("status"), local("secret_file")];

/// A RAM user's AccessKey pair. The secret in the create response is never kept: the state holds
/// the id and the status the list shows.
pub static RAM_ACCESS_KEY: RpcType = RpcType {
    name: "alicloud_ram_access_key",
    code: "ram",
    product: "RAM",
    args: ACCESS_KEY_ARGS,
    name_arguments: &[],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "CreateAccessKey",
    id: IdFrom::Response("/AccessKey/AccessKeyId"),
    read: "ListAccessKeys",
    read_params: &[("UserName", Source::Attr("user_name"))],
    item_at: "/AccessKeys/AccessKey",
    match_field: Some("AccessKeyId"),
    attributes: &[("status", "/Status")],
    gone_when: None,
    ready: None,
    settle: &[Settle {
        argument: "status",
        value: "Inactive",
        action: "UpdateAccessKey",
        params: &[
            ("UserAccessKeyId", Source::Id),
            ("UserName", Source::Attr("user_name")),
            ("Status", Source::Const("Inactive")),
        ],
        ready: Some(Ready {
            attribute: "status",
            states: &["Inactive"],
        }),
    }],
    delete: "DeleteAccessKey",
    delete_params: &[("UserAccessKeyId", Source::Id), ("UserName", Source::Attr("user_name"))],
    purge: None,
};

const KMS_KEY_ARGS: &[Arg] = &[
    arg("description", "Description"),
    arg("key_spec", "KeySpec"),
    arg("key_usage", "KeyUsage"),
    arg("protection_level", "ProtectionLevel"),
    arg("origin", "Origin"),
    arg("dkms_instance_id", "DKMSInstanceId"),
    local("pending_window_in_days"),
    local("deletion_window_in_days"),
    local("status"),
    local("automatic_rotation"),
    TAGS,
];

pub static KMS_KEY: RpcType = RpcType {
    name: "alicloud_kms_key",
    code: "kms",
    product: "KMS",
    args: KMS_KEY_ARGS,
    name_arguments: &["description"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "CreateKey",
    id: IdFrom::Response("/KeyMetadata/KeyId"),
    read: "DescribeKey",
    read_params: &[("KeyId", Source::Id)],
    item_at: "/KeyMetadata",
    match_field: None,
    attributes: &[
        ("description", "/Description"),
        ("key_spec", "/KeySpec"),
        ("key_usage", "/KeyUsage"),
        ("protection_level", "/ProtectionLevel"),
        ("origin", "/Origin"),
        ("status", "/KeyState"),
        ("arn", "/Arn"),
        ("creator", "/Creator"),
        ("dkms_instance_id", "/DKMSInstanceId"),
    ],
    gone_when: Some(("status", "PendingDeletion")),
    ready: Some(Ready {
        attribute: "status",
        states: &["Enabled", "PendingImport"],
    }),
    settle: &[Settle {
        argument: "status",
        value: "Disabled",
        action: "DisableKey",
        params: &[("KeyId", Source::Id)],
        ready: Some(Ready {
            attribute: "status",
            states: &["Disabled"],
        }),
    }],
    delete: "ScheduleKeyDeletion",
    delete_params: &[
        ("KeyId", Source::Id),
        ("PendingWindowInDays", Source::AttrOr("pending_window_in_days", "7")),
    ],
    purge: None,
};

const KMS_ALIAS_ARGS: &[Arg] = &[required("alias_name", "AliasName"), required("key_id", "KeyId")];

pub static KMS_ALIAS: RpcType = RpcType {
    name: "alicloud_kms_alias",
    code: "kms",
    product: "KMS",
    args: KMS_ALIAS_ARGS,
    name_arguments: &["alias_name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "CreateAlias",
    id: IdFrom::Arguments(&[Source::Attr("alias_name")]),
    read: "ListAliases",
    read_params: &[("PageSize", Source::Const("100"))],
    item_at: "/Aliases/Alias",
    match_field: Some("AliasName"),
    attributes: &[("alias_name", "/AliasName"), ("key_id", "/KeyId")],
    gone_when: None,
    ready: None,
    settle: &[],
    delete: "DeleteAlias",
    delete_params: &[("AliasName", Source::Id)],
    purge: None,
};

const TRAIL_ARGS: &[Arg] = &[
    arg("trail_name", "Name"),
    arg("name", "Name"),
    arg("event_rw", "EventRW"),
    arg("trail_region", "TrailRegion"),
    arg("oss_bucket_name", "OssBucketName"),
    arg("oss_key_prefix", "OssKeyPrefix"),
    arg("sls_project_arn", "SlsProjectArn"),
    arg("sls_write_role_arn", "SlsWriteRoleArn"),
    local("status"),
];

pub static ACTIONTRAIL_TRAIL: RpcType = RpcType {
    name: "alicloud_actiontrail_trail",
    code: "actiontrail",
    product: "ActionTrail",
    args: TRAIL_ARGS,
    name_arguments: &["trail_name", "name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "CreateTrail",
    id: IdFrom::Response("/Name"),
    read: "DescribeTrails",
    read_params: &[("NameList", Source::Id)],
    item_at: "/TrailList",
    match_field: Some("Name"),
    attributes: &[
        ("trail_name", "/Name"),
        ("event_rw", "/EventRW"),
        ("trail_region", "/TrailRegion"),
        ("oss_bucket_name", "/OssBucketName"),
        ("oss_key_prefix", "/OssKeyPrefix"),
        ("sls_project_arn", "/SlsProjectArn"),
        ("status", "/Status"),
    ],
    gone_when: None,
    ready: None,
    settle: &[Settle {
        argument: "status",
        value: "Enable",
        action: "StartLogging",
        params: &[("Name", Source::Id)],
        ready: Some(Ready {
            attribute: "status",
            states: &["Enable"],
        }),
    }],
    delete: "DeleteTrail",
    delete_params: &[("Name", Source::Id)],
    purge: None,
};
