//! The forms of RAM's policy pages: Create Policy (Permissions > Policies) and a policy's Grant
//! Permission, per the current help pages on custom policies and policy grants.

use super::*;

/// A statement the Visual Editor writes for a service: all its actions on all resources, with the
/// effect chosen beside it (`{Effect}` is filled from that field when the form is sent).
fn statement_for(service: &str) -> String {
    format!(r#"{{"Statement":[{{"Action":"{service}:*","Effect":"{{Effect}}","Resource":"*"}}],"Version":"1"}}"#)
}

/// The policy editor's two tabs, "Visual Editor" (chosen) and "JSON Editor", as the field `param`.
pub(super) fn editor_tabs(param: &str) -> Field {
    field("Editor", param, tabs(&[("visual", "Visual Editor"), ("json", "JSON Editor")]))
        .default("visual")
        .not_sent()
}

/// The JSON Editor's "Policy Document", shown while the tabs `editor` are on "JSON Editor".
pub(super) fn policy_document(param: &str, editor: &str, help: &str) -> Field {
    field("Policy Document", param, FieldKind::Textarea)
        .help(help)
        .not_sent()
        .shown_when(editor, "json")
}

/// Create a custom policy (Mar 19, 2026): the Create Policy page with its Visual Editor and JSON
/// Editor tabs; OK opens the Create Policy dialog for the policy's name and note.
pub(super) fn create_policy() -> FormSpec {
    let services: Vec<(String, String)> = [
        ("ecs", "Elastic Compute Service"),
        ("oss", "Object Storage Service"),
        ("vpc", "Virtual Private Cloud"),
        ("ram", "Resource Access Management"),
    ]
    .iter()
    .map(|(code, name)| (statement_for(code), s(name)))
    .collect();
    form(
        "create-policy",
        "Create Policy",
        "Create Policy",
        Container::Page,
        "CreatePolicy",
        vec![
            step(
                "",
                vec![
                    editor_tabs("Editor"),
                    field("Effect", "Effect", radio(&[("Allow", "Allow"), ("Deny", "Deny")]))
                        .default("Allow")
                        .not_sent()
                        .shown_when("Editor", "visual"),
                    field("Service", "Service", FieldKind::Select(OptionSource::Static(services)))
                        .placeholder("Select a service")
                        .not_sent()
                        .shown_when("Editor", "visual"),
                    field(
                        "Action",
                        "Action",
                        radio(&[("all", "All action(s)"), ("select", "Select action(s)")]),
                    )
                    .default("all")
                    .not_sent()
                    .shown_when("Editor", "visual"),
                    policy_document("PolicyJson", "Editor", "The policy in JSON, per the policy structure and syntax."),
                ],
            ),
            step(
                "",
                vec![
                    field("Policy Name", "PolicyName", FieldKind::Text).required(),
                    field("Description", "Description", FieldKind::Textarea),
                ],
            )
            .in_dialog("Create Policy"),
        ],
    )
    // The JSON Editor's document where one is typed, else the Visual Editor's statement.
    .compose("PolicyDocument", "{PolicyJson|Service}")
    .success("The policy is created.")
}

/// Where a grant takes effect, in every Grant Permission panel: the account (chosen) or a
/// resource group. Not sent: the emulator grants on the account.
pub(super) fn resource_scope() -> Field {
    field(
        "Resource Scope",
        "ResourceScope",
        radio(&[("Account", "Account"), ("ResourceGroup", "ResourceGroup")]),
    )
    .default("Account")
    .not_sent()
}

/// manage-policy-grants.md (2025-05-08): Grant Permission on a policy's Grants tab attaches the
/// policy to a RAM user, RAM user group or RAM role; the policy's name and type come from the page.
pub(super) fn grant_policy() -> FormSpec {
    let principal = |kind: &str, param: &str, page: &str| {
        field("Principal", param, resources("ram", page))
            .required()
            .shown_when("PrincipalKind", kind)
    };
    form(
        "grant-policy",
        "Grant Permission",
        "Grant Permission",
        Container::Drawer,
        "AttachPolicyTo{PrincipalKind}",
        vec![step(
            "",
            vec![
                resource_scope(),
                field(
                    "Principal Type",
                    "PrincipalKind",
                    radio(&[("User", "RAM User"), ("Group", "RAM User Group"), ("Role", "RAM Role")]),
                )
                .default("User")
                .not_sent(),
                principal("User", "UserName", "users"),
                principal("Group", "GroupName", "groups"),
                principal("Role", "RoleName", "roles"),
            ],
        )],
    )
    .success("The permissions are granted.")
}
