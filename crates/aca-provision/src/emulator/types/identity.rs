//! Identity, keys and audit: `alicloud_ram_user`, `alicloud_ram_group`, `alicloud_ram_role`,
//! `alicloud_ram_policy` (RAM), `alicloud_kms_key`, `alicloud_kms_alias` (KMS) and
//! `alicloud_actiontrail_trail` (ActionTrail).

use super::{Arg, IdFrom, Ready, RpcType, Settle, Source, TAGS, arg, local, required};

pub static TYPES: &[&RpcType] = &[
    &RAM_USER,
    &RAM_GROUP,
    &RAM_ROLE,
    &RAM_POLICY,
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
};

const KMS_KEY_ARGS: &[Arg] = &[
    arg("description", "Description"),
    arg("key_spec", "KeySpec"),
    arg("key_usage", "KeyUsage"),
    arg("protection_level", "ProtectionLevel"),
    arg("origin", "Origin"),
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
};
