//! Identity and security consoles: Resource Access Management and Key Management Service.

use super::*;
use crate::profile::Placement::{Inline, More, Section};

/// A logon password as the console sets one: made up by the console (never shown) or typed; on the
/// Create User page behind the Console Access check box, with its reset and MFA settings.
fn logon_password_fields(create_user: bool) -> Vec<Field> {
    let mut fields = Vec::new();
    if create_user {
        fields.push(field("Console Access", "ConsoleAccess", FieldKind::Checkbox).not_sent());
    }
    let label = if create_user {
        "Set Console Password"
    } else {
        "Logon Password"
    };
    fields.extend([
        field(
            label,
            "PasswordMode",
            radio(&[
                ("auto", "Automatically Regenerate Default Password"),
                ("custom", "Reset Custom Password"),
            ]),
        )
        .default("auto")
        .not_sent(),
        field("Custom Password", "CustomPassword", FieldKind::Password)
            .help("8 to 32 characters, for Reset Custom Password.")
            .not_sent(),
        field(
            "Default Password",
            "DefaultPassword",
            FieldKind::Generated(Generate::Password),
        )
        .not_sent(),
    ]);
    if create_user {
        fields.extend([
            field(
                "Password Reset",
                "PasswordResetRequired",
                radio(&[("true", "Required at Next Logon"), ("false", "Not Required")]),
            )
            .default("false"),
            field(
                "Enable MFA",
                "MFABindRequired",
                radio(&[("true", "Required at Next Logon"), ("false", "Not Required")]),
            )
            .default("false"),
        ]);
    } else {
        fields.push(field(
            "Require Password Reset at Next Logon",
            "PasswordResetRequired",
            FieldKind::Checkbox,
        ));
    }
    fields
}

pub fn ram() -> ProductSpec {
    let mut users = page("users", "Users", "ListUsers", "Users.User", "UserName", "DisplayName");
    users.regional = false;
    users.total_path = None;
    users.page_size = 100;
    users.list_params = pairs(&[("MaxItems", "100")]);
    users.columns = vec![
        col("User Logon Name/Display Name", "UserName", ColumnKind::IdName),
        col("Note", "Comments", ColumnKind::Text),
        col("UID", "UserId", ColumnKind::Mono),
        col("Created At", "CreateDate", ColumnKind::Time),
    ];
    // create-ram-user.md (2023-12-25): the Create User page, its User Account Information section
    // with a Tag, and its Access Mode section, whose Console Access sets a logon password (a call of
    // its own once the user exists).
    users.creates = vec![
        form(
            "create-user",
            "Create User",
            "Create User",
            Container::Page,
            "CreateUser",
            vec![
                step(
                    "User Account Information",
                    vec![
                        field("Logon Name", "UserName", FieldKind::Text)
                            .required()
                            .rule("username")
                            .help("1 to 64 characters: letters, digits, periods (.), hyphens (-) and underscores (_)."),
                        field("Display Name", "DisplayName", FieldKind::Text)
                            .required()
                            .placeholder("Enter a display name"),
                        field("Tag", "Tag", FieldKind::Tag),
                    ],
                )
                // "You can click Add User to create multiple RAM users at a time."
                .repeated("Add User", &["UserName", "DisplayName"]),
                step("Access Mode", logon_password_fields(true))
                    .then("CreateLoginProfile", &[("UserName", "User.UserName")])
                    .then_if("ConsoleAccess")
                    .then_compose("Password", "{CustomPassword|DefaultPassword}"),
            ],
        )
        .success("The RAM user is created."),
    ];
    users.search = vec![SearchOption {
        label: s("User Logon Name"),
        params: Vec::new(),
    }];
    users.row_actions = vec![
        row_form(
            "Add to Group",
            Inline,
            form(
                "add-to-group",
                "Add to Group",
                "Add User to Group",
                Container::Drawer,
                "AddUserToGroup",
                vec![step(
                    "",
                    vec![field("User Group", "GroupName", resources("ram", "groups")).required()],
                )],
            )
            .submit("Add User to Group")
            .finish("Close")
            .for_row("UserName")
            .success("The RAM user is added to the group."),
        ),
        row_form(
            "Add Permissions",
            Inline,
            form(
                "grant-permission",
                "Add Permissions",
                "Grant Permission",
                Container::Drawer,
                "AttachPolicyToUser",
                // grant-permissions-to-user.md, Method 1 step 4: Resource Scope, then the
                // Principal (the row's user, selected already), then the Policy.
                vec![step(
                    "",
                    vec![
                        super::ram_policy::resource_scope(),
                        field("Principal", "Principal", FieldKind::ReadOnly)
                            .prefilled_from("UserName")
                            .not_sent(),
                        field(
                            "Policy",
                            "PolicyName",
                            select(&[
                                ("AdministratorAccess", "AdministratorAccess"),
                                ("ReadOnlyAccess", "ReadOnlyAccess"),
                                ("AliyunECSFullAccess", "AliyunECSFullAccess"),
                                ("AliyunOSSFullAccess", "AliyunOSSFullAccess"),
                                ("AliyunVPCFullAccess", "AliyunVPCFullAccess"),
                            ]),
                        )
                        .required()
                        .placeholder("Select a policy"),
                    ],
                )],
            )
            .fixed(&[("PolicyType", "System")])
            .for_row("UserName")
            .success("The permissions are granted."),
        ),
        // "In the Basic Information section, click Modify Basic Information" (modify-ram-user.md,
        // 2026-03-13).
        row_form(
            "Modify Basic Information",
            Section,
            form(
                "modify-user",
                "Modify Basic Information",
                "Modify Basic Information",
                Container::Drawer,
                "UpdateUser",
                vec![step(
                    "",
                    vec![
                        field("Display Name", "NewDisplayName", FieldKind::Text)
                            .required()
                            .prefilled_from("DisplayName"),
                        field("Note", "NewComments", FieldKind::Textarea).prefilled_from("Comments"),
                    ],
                )],
            )
            .for_row("UserName")
            .success("The basic information is modified."),
        ),
        call(
            "Delete",
            Inline,
            "DeleteUser",
            "UserName",
            confirm("Delete User", "Are you sure you want to delete the RAM user?")
                .ok("I fully understand the risks and confirm the deletion"),
        ),
    ];
    users.tabs = vec![
        // disable-accesskey.md (2026-03-01): the Authentication tab's AccessKey section. It is the
        // tab a user's page opens on: create-accesskey.md goes from the username straight to
        // the AccessKey section.
        //
        // enable-mfa.md (archived, the current flow): "click the Authentication tab. Then, click
        // the Virtual MFA Device tab", so the Authentication tab holds tabs of its own; the
        // AccessKey list stays the one it opens on.
        tab_group(
            "Authentication",
            vec![
                children("AccessKey", "ram", "user-access-keys", "UserName"),
                // delete-accesskey.md: "in the AccessKey Pair Recycle Bin section": the pairs
                // deleted from the AccessKey list (the IMS operations name the user by UserId).
                children_by(
                    "AccessKey Pair Recycle Bin",
                    "ram",
                    "user-access-key-recycle-bin",
                    "UserId",
                    "UserId",
                ),
                children("Virtual MFA Device", "ram", "user-mfa-device", "UserName"),
            ],
        ),
        // remove-user-from-group.md: the Groups tab with Remove from Group.
        children("Groups", "ram", "user-groups", "UserName"),
        // revoke-permissions-from-user.md: the Permissions tab with Revoke Permission.
        children("Permissions", "ram", "user-policies", "UserName"),
    ];
    // modify-ram-user.md (2026-03-13): "In the Basic Information section, click Modify Basic
    // Information": a section of the user's page above its tabs.
    users.summary = Some(basic(&[
        ("Logon Name", "UserName"),
        ("Display Name", "DisplayName"),
        ("UID", "UserId"),
        ("Note", "Comments"),
        ("Created At", "CreateDate"),
    ]));
    let user_policies =
        attached_policies("user-policies", "ListPoliciesForUser", "DetachPolicyFromUser").under("users", "UserName");

    let mut access_keys = page(
        "user-access-keys",
        "AccessKey",
        "ListAccessKeys",
        "AccessKeys.AccessKey",
        "AccessKeyId",
        "AccessKeyId",
    )
    .under("users", "UserName");
    access_keys.total_path = None;
    access_keys.columns = vec![
        col("AccessKey ID", "AccessKeyId", ColumnKind::Mono),
        col("Status", "Status", ColumnKind::Status),
        col("Created At", "CreateDate", ColumnKind::Time),
    ];
    // reset-user-password.md (2025-08-08): on the Authentication tab, Enable Console Logon (for a
    // user without console logon) opens the Modify Logon Settings panel; its Set Logon Password
    // section has the console make up a password (never shown here) or takes the one typed.
    access_keys.creates = vec![
        form(
            "enable-console-logon",
            "Enable Console Logon",
            "Modify Logon Settings",
            Container::Drawer,
            "CreateLoginProfile",
            vec![step("Set Logon Password", logon_password_fields(false))],
        )
        .compose("Password", "{CustomPassword|DefaultPassword}")
        .shown_if("GetLoginProfile", "UserName", false)
        .success("Console logon is enabled."),
        // "If a password already exists, click Modify Logon Settings to change it": its Set Logon
        // Password section keeps the password, has the console make up one, or takes the one typed.
        form(
            "modify-logon-settings",
            "Modify Logon Settings",
            "Modify Logon Settings",
            Container::Drawer,
            "UpdateLoginProfile",
            vec![step(
                "Set Logon Password",
                vec![
                    field(
                        "Logon Password",
                        "PasswordMode",
                        radio(&[
                            ("keep", "Keep Current Password Unchanged"),
                            ("auto", "Automatically Regenerate Default Password"),
                            ("custom", "Reset Custom Password"),
                        ]),
                    )
                    .default("keep")
                    .not_sent(),
                    field("Custom Password", "CustomPassword", FieldKind::Password)
                        .required()
                        .help("8 to 32 characters.")
                        .shown_when("PasswordMode", "custom")
                        .not_sent(),
                    field("Default Password", "DefaultPassword", FieldKind::Generated(Generate::Password))
                        .shown_when("PasswordMode", "auto")
                        .not_sent(),
                ],
            )],
        )
        .compose("Password", "{CustomPassword|DefaultPassword}")
        .shown_if("GetLoginProfile", "UserName", true)
        .success("The logon settings are modified."),
        // create-accesskey.md: Create AccessKey shows the new pair in the View AccessKey Secret
        // dialog, this once, with Download CSV File and Copy.
        form(
            "create-access-key",
            "Create AccessKey",
            "View AccessKey Secret",
            Container::Dialog,
            "CreateAccessKey",
            Vec::new(),
        )
        .submitted_on_open(
            &[
                ("AccessKey ID", "AccessKey.AccessKeyId"),
                ("AccessKey Secret", "AccessKey.AccessKeySecret"),
            ],
            "OK",
        )
        .success("The AccessKey pair is created. Its AccessKey secret is shown only now: save it."),
    ];
    access_keys.row_actions = vec![
        call(
            "Disable",
            Inline,
            "UpdateAccessKey",
            "UserAccessKeyId",
            confirm(
                "Disable",
                "Are you sure you want to disable the AccessKey pair? Applications that use it can no longer call APIs.",
            )
            .ok("Disable"),
        )
        .with_fixed(&[("Status", "Inactive")])
        .disabled_when(
            "Status",
            DisableWhen::Is(vec![s("Inactive")]),
            "The AccessKey pair is already disabled.",
        ),
        call(
            "Enable",
            Inline,
            "UpdateAccessKey",
            "UserAccessKeyId",
            confirm("Enable", "Are you sure you want to enable the AccessKey pair?").ok("Enable"),
        )
        .with_fixed(&[("Status", "Active")])
        .disabled_when(
            "Status",
            DisableWhen::Is(vec![s("Active")]),
            "The AccessKey pair is already enabled.",
        ),
        // delete-accesskey.md: Delete, once the pair is disabled, asks for the AccessKey ID and
        // moves the pair to the recycle bin.
        call(
            "Delete",
            Inline,
            "DeleteAccessKey",
            "UserAccessKeyId",
            confirm(
                "Delete",
                "The AccessKey pair is moved to the recycle bin and purged after 30 days. Applications that use it can no longer call APIs.",
            )
            .typed("Enter the AccessKey ID")
            .ok("Move to Recycle Bin"),
        )
        .disabled_when(
            "Status",
            DisableWhen::Is(vec![s("Active")]),
            "Disable the AccessKey pair before you delete it.",
        ),
    ];

    let user_mfa_device = super::ram_mfa::user_mfa_device();
    let recycled_keys = access_key_recycle_bin();

    let mut user_groups = page(
        "user-groups",
        "Groups",
        "ListGroupsForUser",
        "Groups.Group",
        "GroupName",
        "Comments",
    )
    .under("users", "UserName");
    user_groups.total_path = None;
    user_groups.columns = vec![
        col("Group Name", "GroupName", ColumnKind::Text),
        col("Note", "Comments", ColumnKind::Text),
        col("Joined At", "JoinDate", ColumnKind::Time),
    ];
    user_groups.row_actions = vec![call(
        "Remove from Group",
        Inline,
        "RemoveUserFromGroup",
        "GroupName",
        confirm(
            "Remove from Group",
            "Are you sure you want to remove the RAM user from the user group?",
        ),
    )];

    let mut groups = page(
        "groups",
        "Groups",
        "ListGroups",
        "Groups.Group",
        "GroupName",
        "Comments",
    );
    groups.regional = false;
    groups.total_path = None;
    groups.page_size = 100;
    groups.list_params = pairs(&[("MaxItems", "100")]);
    groups.columns = vec![
        col("Group Name", "GroupName", ColumnKind::IdName),
        col("Created At", "CreateDate", ColumnKind::Time),
    ];
    groups.creates = vec![
        form(
            "create-group",
            "Create User Group",
            "Create Group",
            Container::Page,
            "CreateGroup",
            vec![step(
                "",
                vec![
                    field("Group Name", "GroupName", FieldKind::Text)
                        .required()
                        .rule("username"),
                    field("Display Name", "DisplayName", FieldKind::Text),
                    field("Note", "Comments", FieldKind::Textarea),
                ],
            )],
        )
        .submit("OK")
        .success("The user group is created."),
    ];
    groups.search = vec![SearchOption {
        label: s("Group Name"),
        params: Vec::new(),
    }];
    // remove-user-from-group.md: the group's Group Members tab with Remove from User Group.
    groups.tabs = vec![
        basic(&[
            ("Group Name", "GroupName"),
            ("Display Name", "DisplayName"),
            ("Note", "Comments"),
        ]),
        children("Group Members", "ram", "group-members", "GroupName"),
    ];
    let mut members = page(
        "group-members",
        "Group Members",
        "ListUsersForGroup",
        "Users.User",
        "UserName",
        "DisplayName",
    )
    .under("groups", "GroupName");
    members.total_path = None;
    members.columns = vec![
        col("User Logon Name", "UserName", ColumnKind::Text),
        col("Display Name", "DisplayName", ColumnKind::Text),
        col("Joined At", "JoinDate", ColumnKind::Time),
    ];
    members.row_actions = vec![call(
        "Remove from User Group",
        Inline,
        "RemoveUserFromGroup",
        "UserName",
        confirm(
            "Remove from User Group",
            "Are you sure you want to remove the RAM user from the user group?",
        ),
    )];

    groups.row_actions = vec![
        row_form(
            "Add User",
            Inline,
            form(
                "add-group-member",
                "Add User",
                "Add User to Group",
                Container::Drawer,
                "AddUserToGroup",
                vec![step(
                    "",
                    vec![field("User", "UserName", resources("ram", "users")).required()],
                )],
            )
            .submit("Add User to Group")
            .finish("Close")
            .for_row("GroupName")
            .success("The RAM user is added to the group."),
        ),
        call(
            "Delete",
            Inline,
            "DeleteGroup",
            "GroupName",
            confirm("Delete Group", "Are you sure you want to delete the user group?"),
        ),
    ];

    let (roles, role_policies) = ram_roles();
    let (policies, policy_grants) = ram_policies();
    ProductSpec {
        gate: None,
        code: s("ram"),
        api: s("ram"),
        name: s("Resource Access Management"),
        nav: nav(&[
            (
                "Identities",
                &[("Users", "users"), ("Groups", "groups"), ("Roles", "roles")],
            ),
            ("Permissions", &[("Grants", "grants"), ("Policies", "policies")]),
        ]),
        pages: vec![
            users,
            access_keys,
            recycled_keys,
            user_mfa_device,
            user_groups,
            user_policies,
            groups,
            members,
            roles,
            role_policies,
            grants("grants"),
            policies,
            policy_grants,
        ],
    }
}

/// The RAM role pages, per create-ram-role.md (2026-03-12), delete-ram-role.md and
/// revoke-permissions-from-role.md (2024-01-26): the Roles list and its role's Permissions tab.
fn ram_roles() -> (PageSpec, PageSpec) {
    let mut roles = page("roles", "Roles", "ListRoles", "Roles.Role", "RoleName", "RoleName");
    roles.regional = false;
    roles.total_path = None;
    roles.page_size = 100;
    roles.list_params = pairs(&[("MaxItems", "100")]);
    roles.columns = vec![
        col("Role Name", "RoleName", ColumnKind::IdName),
        col("Note", "Description", ColumnKind::Text),
        col("Created At", "CreateDate", ColumnKind::Time),
    ];
    roles.search = vec![SearchOption {
        label: s("Role Name"),
        params: Vec::new(),
    }];
    // The Create Role page sets the principal; its OK opens the Create Role dialog for the name.
    // The console writes the trust policy from the principal chosen, unless the reader switched
    // to the policy editor and typed one in its JSON Editor (create-ram-role.md, Mar 12, 2026).
    roles.creates = vec![
        form(
            "create-role",
            "Create Role",
            "Create Role",
            Container::Page,
            "CreateRole",
            vec![
                step(
                    "",
                    vec![
                        field(
                            "Principal Type",
                            "PrincipalType",
                            radio(&[
                                ("RAM", "Cloud Account"),
                                ("Service", "Cloud Service"),
                                ("Federated", "Identity Provider"),
                            ]),
                        )
                        .default("RAM")
                        .not_sent(),
                        field(
                            "Principal Name",
                            "PrincipalAccount",
                            radio(&[("{account}", "Current Account"), ("{OtherAccountId}", "Other Account")]),
                        )
                        .default("{account}")
                        .not_sent(),
                        field("Account ID", "OtherAccountId", FieldKind::Text)
                            .placeholder("The ID of the trusted Alibaba Cloud account")
                            .not_sent(),
                        field("Switch to Policy Editor", "PolicyEditor", FieldKind::Switch).not_sent(),
                        super::ram_policy::editor_tabs("TrustEditor").shown_when("PolicyEditor", "on"),
                        super::ram_policy::policy_document(
                            "TrustPolicyJson",
                            "TrustEditor",
                            "The trust policy in JSON, per the policy structure and syntax.",
                        ),
                    ],
                ),
                step("", vec![field("Role Name", "RoleName", FieldKind::Text).required()]).in_dialog("Create Role"),
            ],
        )
        .compose(
            "AssumeRolePolicyDocument",
            r#"{"Statement":[{"Action":"sts:AssumeRole","Effect":"Allow","Principal":{"{PrincipalType}":["acs:ram::{PrincipalAccount}:root"]}}],"Version":"1"}"#,
        )
        // Composed after the principal's, so a document typed in the JSON Editor replaces it.
        .compose("AssumeRolePolicyDocument", "{TrustPolicyJson}")
        .success("The RAM role is created."),
    ];
    roles.row_actions = vec![call(
        "Delete Role",
        Inline,
        "DeleteRole",
        "RoleName",
        confirm(
            "Delete Role",
            "The RAM role is deleted, and the policies attached to it are detached.",
        )
        .ok("Delete Role")
        .typed("Enter the name of the RAM role"),
    )];
    roles.tabs = vec![
        basic(&[
            ("Role Name", "RoleName"),
            ("Note", "Description"),
            ("ARN", "Arn"),
            ("Created At", "CreateDate"),
        ]),
        children("Permissions", "ram", "role-policies", "RoleName"),
    ];
    let role_policies =
        attached_policies("role-policies", "ListPoliciesForRole", "DetachPolicyFromRole").under("roles", "RoleName");
    (roles, role_policies)
}

/// A RAM user's AccessKey Pair Recycle Bin (delete-accesskey.md): the pairs Delete moved there,
/// purged after 30 days or at once by the Actions column's Delete, which asks for the AccessKey
/// ID. The page names no other column and no restore button's label.
fn access_key_recycle_bin() -> PageSpec {
    let mut recycled = page(
        "user-access-key-recycle-bin",
        "AccessKey Pair Recycle Bin",
        "ListAccessKeysInRecycleBin",
        "AccessKeys.AccessKey",
        "AccessKeyId",
        "AccessKeyId",
    )
    .under("users", "UserName")
    .carrying_parent(&[("UserId", "UserId")]);
    recycled.total_path = None;
    recycled.columns = vec![
        col("AccessKey ID", "AccessKeyId", ColumnKind::Mono),
        col("Created At", "CreateDate", ColumnKind::Time),
    ];
    recycled.row_actions = vec![call(
        "Delete",
        Inline,
        "DeleteAccessKeyInRecycleBin",
        "UserAccessKeyId",
        confirm(
            "Delete",
            "The AccessKey pair is purged permanently and cannot be restored.",
        )
        .typed("Enter the AccessKey ID")
        .ok("Delete"),
    )];
    recycled
}

/// The policies attached to a user or role, with Revoke Permission in the Actions column.
fn attached_policies(id: &str, list: &str, detach: &str) -> PageSpec {
    let mut attached = page(id, "Permissions", list, "Policies.Policy", "PolicyName", "PolicyName");
    attached.total_path = None;
    attached.columns = vec![
        col("Policy", "PolicyName", ColumnKind::Text),
        col("Policy Type", "PolicyType", ColumnKind::Text).labels(POLICY_TYPES),
        col("Note", "Description", ColumnKind::Text),
        col("Attached At", "AttachDate", ColumnKind::Time),
    ];
    attached.row_actions = vec![revoke_permission(detach, "PolicyName").with_row(&[("PolicyType", "PolicyType")])];
    attached
}

const POLICY_TYPES: &[(&str, &str)] = &[("System", "System Policy"), ("Custom", "Custom Policy")];

fn revoke_permission(action: &str, id_param: &str) -> RowAction {
    call(
        "Revoke Permission",
        Inline,
        action,
        id_param,
        confirm("Revoke Permission", "Are you sure you want to revoke the permission?").ok("Revoke Permission"),
    )
}

/// Grant records (Permissions > Grants, and a policy's Grants tab), per revoke-permissions-from-user.md
/// and manage-policy-grants.md: revoking detaches the policy from whichever principal holds it.
fn grants(id: &str) -> PageSpec {
    let mut grants = page(
        id,
        "Grants",
        "ListPolicyAttachments",
        "PolicyAttachments.PolicyAttachment",
        "PrincipalName",
        "PrincipalName",
    );
    grants.regional = false;
    grants.columns = vec![
        col("Principal", "PrincipalName", ColumnKind::Text),
        col("Principal Type", "PrincipalType", ColumnKind::Text).labels(&[
            ("IMSUser", "RAM User"),
            ("IMSGroup", "RAM User Group"),
            ("ServiceRole", "RAM Role"),
        ]),
        col("Policy", "PolicyName", ColumnKind::Text),
        col("Policy Type", "PolicyType", ColumnKind::Text).labels(POLICY_TYPES),
        col("Resource Scope", "ResourceGroupId", ColumnKind::Text),
        col("Granted At", "AttachDate", ColumnKind::Time),
    ];
    grants.row_actions = vec![
        revoke_permission("DetachPolicyFromUser", "UserName")
            .with_row(&[("PolicyName", "PolicyName"), ("PolicyType", "PolicyType")])
            .by_row(
                "PrincipalType",
                &[
                    ("IMSUser", "DetachPolicyFromUser", "UserName"),
                    ("IMSGroup", "DetachPolicyFromGroup", "GroupName"),
                    ("ServiceRole", "DetachPolicyFromRole", "RoleName"),
                ],
            ),
    ];
    grants
}

/// Permissions > Policies and a policy's page with its Grants tab (manage-policy-grants.md).
fn ram_policies() -> (PageSpec, PageSpec) {
    let mut policies = page(
        "policies",
        "Policies",
        "ListPolicies",
        "Policies.Policy",
        "PolicyName",
        "PolicyName",
    );
    policies.regional = false;
    policies.total_path = None;
    policies.page_size = 100;
    policies.list_params = pairs(&[("MaxItems", "100")]);
    policies.columns = vec![
        col("Policy Name", "PolicyName", ColumnKind::IdName),
        col("Policy Type", "PolicyType", ColumnKind::Text).labels(POLICY_TYPES),
        col("Note", "Description", ColumnKind::Text),
        col("References", "AttachmentCount", ColumnKind::Text),
    ];
    policies.search = vec![SearchOption {
        label: s("Policy Name"),
        params: Vec::new(),
    }];
    policies.creates = vec![super::ram_policy::create_policy()];
    policies.tabs = vec![
        basic(&[
            ("Policy Name", "PolicyName"),
            ("Policy Type", "PolicyType"),
            ("Note", "Description"),
            ("Created At", "CreateDate"),
        ]),
        children("Grants", "ram", "policy-grants", "PolicyName"),
    ];
    // Under a policy every record is the policy's: the record's own name and type are the call's.
    let mut policy_grants = grants("policy-grants")
        .under("policies", "PolicyName")
        .carrying_parent(&[("PolicyType", "PolicyType")]);
    policy_grants.creates = vec![super::ram_policy::grant_policy()];
    (policies, policy_grants)
}

pub fn kms() -> ProductSpec {
    let mut keys = page("keys", "Keys", "ListKeys", "Keys.Key", "KeyId", "KeyId");
    // ListKeys gives ids and ARNs; the console describes each key for its status.
    keys.item_details = Some(s("DescribeKey"));
    keys.columns = vec![
        col("Key ID", "KeyId", ColumnKind::IdName),
        col("Status", "KeyMetadata.KeyState", ColumnKind::Status),
        col("Key ARN", "KeyArn", ColumnKind::Mono),
    ];
    keys.page_size = 20;
    // create-key.md (2025-03-03): "On the Keys page, click the Default Key tab."
    keys.list_tabs = vec![list_tab("Default Key")];
    keys.creates = vec![
        form(
            "create-key",
            "Create Key",
            "Create Key",
            Container::Dialog,
            "CreateKey",
            vec![step(
                "",
                vec![
                    field(
                        "Key Specification",
                        "KeySpec",
                        select(&[
                            ("Aliyun_AES_256", "Aliyun_AES_256"),
                            ("Aliyun_SM4", "Aliyun_SM4"),
                            ("RSA_2048", "RSA_2048"),
                            ("EC_P256", "EC_P256"),
                        ]),
                    )
                    .required()
                    .default("Aliyun_AES_256"),
                    field(
                        "Key Usage",
                        "KeyUsage",
                        radio(&[("ENCRYPT/DECRYPT", "ENCRYPT/DECRYPT"), ("SIGN/VERIFY", "SIGN/VERIFY")]),
                    )
                    .default("ENCRYPT/DECRYPT"),
                    field(
                        "Protection Level",
                        "ProtectionLevel",
                        radio(&[("SOFTWARE", "Software"), ("HSM", "HSM")]),
                    )
                    .default("SOFTWARE"),
                    field("Description", "Description", FieldKind::Textarea),
                ],
            )],
        )
        .success("The key is created."),
    ];
    keys.row_actions = vec![
        RowAction {
            label: s("Details"),
            placement: Inline,
            submenu: None,
            kind: ActionKind::Details,
            disabled: None,
        },
        // create-key.md (2025-03-03) and disable-enable-key.md: Enable and Disable in the Actions
        // column.
        call(
            "Disable",
            Inline,
            "DisableKey",
            "KeyId",
            confirm(
                "Disable Key",
                "Are you sure you want to disable the key? It can no longer be used.",
            ),
        ),
        call(
            "Enable",
            Inline,
            "EnableKey",
            "KeyId",
            confirm("Enable Key", "Are you sure you want to enable the key?"),
        ),
        row_form(
            "Schedule Key Deletion",
            More,
            form(
                "schedule-deletion",
                "Schedule Key Deletion",
                "Schedule Key Deletion",
                Container::Dialog,
                "ScheduleKeyDeletion",
                vec![step(
                    "",
                    vec![
                        field(
                            "Schedule Deletion Period (7 to 366 Days)",
                            "PendingWindowInDays",
                            FieldKind::Number,
                        )
                        .required()
                        .default("366")
                        .rule("number")
                        .help("7 to 366 days."),
                    ],
                )],
            )
            .for_row("KeyId")
            .success("The key is scheduled for deletion."),
        ),
    ];
    // enable-deletion-protection (2025-03-24): the Key Details section, with Enable Deletion
    // Protection or Disable Deletion Protection and an "Enable" message.
    let deletion_protection = |enable: bool| {
        let (label, message, verb, state) = if enable {
            ("Enable Deletion Protection", "Enable", "enable", "Enabled")
        } else {
            ("Disable Deletion Protection", "Disable", "disable", "Disabled")
        };
        call(
            label,
            Section,
            "SetDeletionProtection",
            "KeyId",
            confirm(message, &format!("Are you sure you want to {verb} deletion protection for the key?")),
        )
        .with_fixed(&[("EnableDeletionProtection", if enable { "true" } else { "false" })])
        .disabled_when(
            "KeyMetadata.DeletionProtection",
            DisableWhen::Is(vec![s(state)]),
            &format!("Deletion protection is {}.", state.to_lowercase()),
        )
    };
    keys.row_actions.extend([deletion_protection(true), deletion_protection(false)]);
    keys.tabs = vec![Tab::Basic {
        label: s("Key Details"),
        fields: pairs(&[
            ("Key ID", "KeyId"),
            ("Key ARN", "KeyArn"),
            ("Status", "KeyMetadata.KeyState"),
            ("Key Specification", "KeyMetadata.KeySpec"),
            ("Key Usage", "KeyMetadata.KeyUsage"),
            ("Deletion Protection", "KeyMetadata.DeletionProtection"),
            ("Description", "KeyMetadata.Description"),
        ]),
    }];

    // The KMS instances: what the Instance ID drop-down list of the Secrets page offers.
    let mut instances = page(
        "instances",
        "Instances",
        "ListKmsInstances",
        "KmsInstances.KmsInstance",
        "KmsInstanceId",
        "KmsInstanceId",
    );
    instances.columns = vec![
        col("Instance ID", "KmsInstanceId", ColumnKind::Text),
        col("Instance ARN", "KmsInstanceArn", ColumnKind::Mono),
    ];

    // manage-and-use-generic-secrets (2025-03-18): Resource > Secrets, the Generic Secrets tab, an
    // instance chosen from the Instance ID drop-down list, then Create Secret.
    let mut secrets = page(
        "secrets",
        "Secrets",
        "ListSecrets",
        "SecretList.Secret",
        "SecretName",
        "SecretName",
    );
    secrets.columns = vec![
        col("Secret Name", "SecretName", ColumnKind::Text),
        col("Instance ID", "DKMSInstanceId", ColumnKind::Text),
        col("Created At", "CreateTime", ColumnKind::Time),
    ];
    secrets.page_size = 20;
    secrets.list_tabs = vec![list_tab("Generic Secrets")];
    secrets.filter = Some(ListFilter {
        field: field("Instance ID", "filter", resources("kms", "instances")),
        params: pairs(&[("Filters", r#"[{"Key":"DKMSInstanceId","Values":["{v}"]}]"#)]),
    });
    secrets.creates = vec![
        form(
            "create-secret",
            "Create Secret",
            "Create Secret",
            Container::Drawer,
            "CreateSecret",
            vec![step(
                "",
                vec![
                    field("Secret Name", "SecretName", FieldKind::Text)
                        .required()
                        .help("The secret name is unique within the current region."),
                    field(
                        "",
                        "SecretValueType",
                        radio(&[("kv", "Secret Key/Value"), ("text", "Plain Text")]),
                    )
                    .default("kv")
                    .not_sent(),
                    field("Secret Value", "SecretData", FieldKind::Textarea)
                        .required()
                        .help("The value cannot exceed 30,720 bytes in length."),
                    field("Initial Version", "VersionId", FieldKind::Text)
                        .required()
                        .default("v1"),
                    field("CMK", "EncryptionKeyId", resources("kms", "keys"))
                        .required()
                        .help("The key that is used to encrypt the current value of the secret."),
                ],
            )],
        )
        .fixed(&[("SecretType", "Generic"), ("SecretDataType", "text")])
        .success("The secret is created."),
    ];
    ProductSpec {
        gate: None,
        code: s("kms"),
        api: s("kms"),
        name: s("Key Management Service"),
        nav: nav(&[("Resource", &[("Keys", "keys"), ("Secrets", "secrets")])]),
        pages: vec![keys, secrets, instances],
    }
}
