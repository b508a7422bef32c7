//! Tests of RAM driven through the console.

use base64::Engine;

use super::*;
use crate::clock::Clock;
use crate::products::testkit::TestConsole;

fn user(h: &TestConsole, name: &str) -> Value {
    h.ok(
        &PRODUCT,
        "CreateUser",
        &[("UserName", name), ("DisplayName", "Alice Liu")],
    )
}

const READ_OSS: &str = r#"{"Version":"1","Statement":[{"Effect":"Allow","Action":"oss:Get*","Resource":"*"}]}"#;

#[test]
fn create_user_is_an_ims_event_naming_the_user() {
    let h = TestConsole::new();
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
    let h = TestConsole::new();
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
    let h = TestConsole::new();
    user(&h, "alice");
    let body = h.ok(&PRODUCT, "CreateAccessKey", &[("UserName", "alice")]);
    let key = &body["AccessKey"];
    let id = key["AccessKeyId"].as_str().unwrap();
    assert!(id.starts_with("LTAI"));
    assert_eq!(key["Status"], "Active");
    assert_eq!(key["AccessKeySecret"].as_str().unwrap().len(), 30);
    assert_eq!(h.console.store.account_of_key(id), Some(h.caller.account_id.clone()));
    {
        let shared = h.console.store.account(&h.caller.account_id).unwrap();
        let state = shared.lock();
        let stored = &state.access_keys[id];
        assert_eq!((stored.user_name.as_deref(), stored.active), (Some("alice"), true));
        assert_eq!(stored.secret, key["AccessKeySecret"].as_str().unwrap());
    }
    // The audit log keeps the event, never the secret.
    let event = h.last_event("CreateAccessKey");
    assert_eq!(event.response_elements["AccessKey"]["AccessKeySecret"], "******");
    assert_eq!(event.response_elements["AccessKey"]["AccessKeyId"], id);

    h.ok(
        &PRODUCT,
        "UpdateAccessKey",
        &[("UserName", "alice"), ("UserAccessKeyId", id), ("Status", "Inactive")],
    );
    {
        let shared = h.console.store.account(&h.caller.account_id).unwrap();
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
    // Moved to the recycle bin: disabled, and no longer listed.
    {
        let shared = h.console.store.account(&h.caller.account_id).unwrap();
        let state = shared.lock();
        assert!(!state.access_keys[id].active && state.access_keys[id].recycled_ms.is_some());
    }
    let listed = h.ok(&PRODUCT, "ListAccessKeys", &[("UserName", "alice")]);
    assert!(listed["AccessKeys"]["AccessKey"].as_array().unwrap().is_empty());
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

    use aca_openapi::sign::{RpcRequest, percent_encode, sign_rpc};

    let mut params = BTreeMap::new();
    let request = RpcRequest {
        method: "GET",
        action: "ListUsers",
        version: "2015-05-01",
        access_key_id: key_id,
        access_key_secret: secret,
        timestamp: &iso8601(console.clock.now_ms()),
        nonce: &uuid::Uuid::new_v4().to_string(),
    };
    sign_rpc(request, &mut params);
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

    // A new user may do nothing until a policy allows it.
    let (status, body) = signed_list_users(console.clone(), &id, &secret).await;
    assert_eq!((status, body["Code"].as_str()), (403, Some("Forbidden.RAM")), "{body}");
    call(
        "AttachPolicyToUser",
        &[
            ("PolicyType", "System"),
            ("PolicyName", "AliyunRAMReadOnlyAccess"),
            ("UserName", "alice"),
        ],
    );
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

/// delete-accesskey.md: a deleted pair waits in its user's recycle bin (at most three, 30 days),
/// from which it is restored or purged.
#[test]
fn deleted_access_keys_wait_in_the_users_recycle_bin() {
    let h = TestConsole::new();
    user(&h, "alice");
    let user_id = h.ok(&PRODUCT, "GetUser", &[("UserName", "alice")])["User"]["UserId"]
        .as_str()
        .unwrap()
        .to_owned();
    let bin = || {
        let listed = h.ok(&PRODUCT, "ListAccessKeysInRecycleBin", &[("UserId", user_id.as_str())]);
        listed["AccessKeys"]["AccessKey"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k["AccessKeyId"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    let mut deleted = Vec::new();
    for _ in 0..4 {
        let id = h.ok(&PRODUCT, "CreateAccessKey", &[("UserName", "alice")])["AccessKey"]["AccessKeyId"]
            .as_str()
            .unwrap()
            .to_owned();
        h.ok(&PRODUCT, "DeleteAccessKey", &[("UserName", "alice"), ("UserAccessKeyId", &id)]);
        deleted.push(id);
        h.advance(1000);
    }
    // The fourth deletion purged the oldest; none of them is in use.
    assert_eq!(bin(), deleted[1..]);
    let live = h.ok(&PRODUCT, "ListAccessKeys", &[("UserName", "alice")]);
    assert!(live["AccessKeys"]["AccessKey"].as_array().unwrap().is_empty());
    let info = h.ok(&PRODUCT, "GetAccessKeyInfoInRecycleBin", &[("UserAccessKeyId", &deleted[1])]);
    assert_eq!(info["AccessKey"]["UserId"], user_id.as_str());

    // Restored: the user's again, disabled; purged: gone for good.
    let pair = |at: usize| [("UserId", user_id.as_str()), ("UserAccessKeyId", deleted[at].as_str())];
    h.ok(&PRODUCT, "RestoreAccessKeyFromRecycleBin", &pair(1));
    let live = h.ok(&PRODUCT, "ListAccessKeys", &[("UserName", "alice")]);
    assert_eq!(live["AccessKeys"]["AccessKey"][0]["Status"], "Inactive");
    h.ok(&PRODUCT, "DeleteAccessKeyInRecycleBin", &pair(2));
    assert_eq!(
        h.err(&PRODUCT, "RestoreAccessKeyFromRecycleBin", &pair(2)).code,
        "EntityNotExist.User.AccessKey"
    );
    // Thirty days on, what is left is purged.
    assert_eq!(bin(), deleted[3..]);
    h.advance(30 * 24 * 3600 * 1000);
    assert!(bin().is_empty());
}

#[test]
fn a_user_holds_at_most_two_access_keys() {
    let h = TestConsole::new();
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
        h.caller.access_key_id
    );
}

#[test]
fn delete_user_fails_while_dependants_exist() {
    let h = TestConsole::new();
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
    // UpdateLoginProfile keeps the password unless one is given, and checks it against the policy.
    let updated = h.ok(
        &PRODUCT,
        "UpdateLoginProfile",
        &[("UserName", "alice"), ("PasswordResetRequired", "true")],
    );
    assert_eq!(updated["LoginProfile"]["PasswordResetRequired"], true);
    let weak = h.err(&PRODUCT, "UpdateLoginProfile", &[("UserName", "alice"), ("Password", "short")]);
    assert_eq!(weak.code, "InvalidParameter.Password.TooWeak");
    h.ok(&PRODUCT, "DeleteLoginProfile", &[("UserName", "alice")]);
    let gone = h.err(&PRODUCT, "UpdateLoginProfile", &[("UserName", "alice"), ("Password", "An0ther-secret")]);
    assert_eq!(gone.code, "EntityNotExist.User.LoginProfile");
    h.ok(&PRODUCT, "DeleteUser", &[("UserName", "alice")]);
    assert_eq!(
        h.err(&PRODUCT, "GetUser", &[("UserName", "alice")]).code,
        "EntityNotExist.User"
    );
    h.ok(&PRODUCT, "DeleteGroup", &[("GroupName", "dev")]);
}

#[test]
fn group_membership_is_listed_both_ways() {
    let h = TestConsole::new();
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
    // A group's display name defaults to its name and is at most 24 characters long.
    let created = h.ok(
        &PRODUCT,
        "CreateGroup",
        &[("GroupName", "dev"), ("DisplayName", "Developers")],
    );
    assert_eq!(created["Group"]["DisplayName"], "Developers");
    let got = h.ok(&PRODUCT, "GetGroup", &[("GroupName", "ops")]);
    assert_eq!(got["Group"]["DisplayName"], "ops");
    let long = "x".repeat(25);
    let e = h.err(
        &PRODUCT,
        "CreateGroup",
        &[("GroupName", "qa"), ("DisplayName", long.as_str())],
    );
    assert_eq!(e.code, "InvalidParameter.DisplayName.Length");
}

#[test]
fn policies_are_validated_attached_and_protected_from_deletion() {
    let h = TestConsole::new();
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
    let h = TestConsole::new();
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
    let h = TestConsole::new();
    let body = h.ok(
        &PRODUCT,
        "CreateRole",
        &[("RoleName", "EcsAdmin"), ("AssumeRolePolicyDocument", TRUST_ECS)],
    );
    let arn = format!("acs:ram::{}:role/ecsadmin", h.caller.account_id);
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
    let h = TestConsole::new();
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
    let h = TestConsole::new();
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
    let h = TestConsole::new();
    user(&h, "alice");
    let other = h.account("other");
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
    let h = TestConsole::new();
    h.ok(&PRODUCT, "CreateUser", &[("UserName", "alice")]);
    h.ok(
        &PRODUCT,
        "AttachPolicyToUser",
        &[
            ("PolicyType", "System"),
            ("PolicyName", "AliyunRAMFullAccess"),
            ("UserName", "alice"),
        ],
    );
    let alice = h.ram_user(&h.caller, "alice");
    let created = h.ok_as(&alice, &PRODUCT, "CreateAccessKey", &[]);
    let id = created["AccessKey"]["AccessKeyId"].as_str().unwrap();
    let listed = h.ok(&PRODUCT, "ListAccessKeys", &[("UserName", "alice")]);
    assert_eq!(
        listed["AccessKeys"]["AccessKey"][0]["AccessKeyId"], id,
        "the key belongs to alice, not the root"
    );
}

#[test]
fn ram_users_are_limited_by_their_own_and_their_groups_policies() {
    let h = TestConsole::new();
    h.ok(&PRODUCT, "CreateUser", &[("UserName", "bob")]);
    let bob = h.ram_user(&h.caller, "bob");
    let vpc = crate::products::by_code("vpc").unwrap();
    let describe = [("RegionId", "cn-hangzhou")];
    assert_eq!(h.err_as(&bob, vpc, "DescribeVpcs", &describe).code, "Forbidden.RAM");

    // Through a group: read-only VPC access.
    h.ok(&PRODUCT, "CreateGroup", &[("GroupName", "net-readers")]);
    h.ok(
        &PRODUCT,
        "AddUserToGroup",
        &[("GroupName", "net-readers"), ("UserName", "bob")],
    );
    h.ok(
        &PRODUCT,
        "AttachPolicyToGroup",
        &[
            ("PolicyType", "System"),
            ("PolicyName", "AliyunVPCReadOnlyAccess"),
            ("GroupName", "net-readers"),
        ],
    );
    h.ok_as(&bob, vpc, "DescribeVpcs", &describe);
    let create = [("RegionId", "cn-hangzhou"), ("CidrBlock", "10.0.0.0/8")];
    let refused = h.err_as(&bob, vpc, "CreateVpc", &create);
    assert!(refused.message.contains("vpc:CreateVpc"), "{}", refused.message);

    // A custom policy on the user: allow vpc:Create*, but an explicit Deny wins over any Allow.
    let allow_create = r#"{"Version":"1","Statement":[{"Effect":"Allow","Action":"vpc:Create*","Resource":"*"}]}"#;
    h.ok(
        &PRODUCT,
        "CreatePolicy",
        &[("PolicyName", "vpc-create"), ("PolicyDocument", allow_create)],
    );
    h.ok(
        &PRODUCT,
        "AttachPolicyToUser",
        &[
            ("PolicyType", "Custom"),
            ("PolicyName", "vpc-create"),
            ("UserName", "bob"),
        ],
    );
    h.ok_as(&bob, vpc, "CreateVpc", &create);
    let deny_reads = r#"{"Version":"1","Statement":[{"Effect":"Deny","Action":["vpc:Describe*"],"Resource":"*"}]}"#;
    h.ok(
        &PRODUCT,
        "CreatePolicy",
        &[("PolicyName", "no-reads"), ("PolicyDocument", deny_reads)],
    );
    h.ok(
        &PRODUCT,
        "AttachPolicyToUser",
        &[
            ("PolicyType", "Custom"),
            ("PolicyName", "no-reads"),
            ("UserName", "bob"),
        ],
    );
    assert_eq!(h.err_as(&bob, vpc, "DescribeVpcs", &describe).code, "Forbidden.RAM");

    // The refusal is audited as a failed event of the user.
    let event = h.newest_event();
    assert_eq!(
        (event.event_name.as_str(), event.error_code.as_deref()),
        ("DescribeVpcs", Some("Forbidden.RAM"))
    );
    assert_eq!(event.user_identity.user_name, "bob");
}

#[test]
fn a_virtual_mfa_device_binds_with_two_consecutive_totp_codes_of_its_key() {
    let h = TestConsole::new();
    user(&h, "alice");
    let created = h.ok(&PRODUCT, "CreateVirtualMFADevice", &[("VirtualMFADeviceName", "alice")]);
    let device = &created["VirtualMFADevice"];
    let serial = device["SerialNumber"].as_str().unwrap();
    assert!(serial.starts_with("acs:ram::") && serial.ends_with(":mfa/alice"), "{serial}");
    let seed = device["Base32StringSeed"].as_str().unwrap();
    assert_eq!(seed.len(), 32);
    // The QR code is a PNG image that an authenticator reads as the device's otpauth URI.
    let png = base64::engine::general_purpose::STANDARD.decode(device["QRCodePNG"].as_str().unwrap()).unwrap();
    let image = image::load_from_memory_with_format(&png, image::ImageFormat::Png).unwrap().to_luma8();
    let mut prepared = rqrr::PreparedImage::prepare(image);
    let grids = prepared.detect_grids();
    assert_eq!(grids.len(), 1);
    let (_, content) = grids[0].decode().unwrap();
    assert_eq!(content, format!("otpauth://totp/alice@{}?secret={seed}", h.caller.account_id));
    // The audit log never holds the setup key, nor the QR code that carries it.
    let logged = &h.last_event("CreateVirtualMFADevice").response_elements["VirtualMFADevice"];
    assert_eq!((logged["Base32StringSeed"].as_str(), logged["QRCodePNG"].as_str()), (Some("******"), Some("******")));
    assert_eq!(
        h.err(&PRODUCT, "CreateVirtualMFADevice", &[("VirtualMFADeviceName", "alice")]).code,
        "EntityAlreadyExists.VirtualMFADevice"
    );
    assert_eq!(
        h.err(&PRODUCT, "GetUserMFAInfo", &[("UserName", "alice")]).code,
        "EntityNotExist.User.MFADevice"
    );

    let key = aca_otp::decode_key(seed).unwrap();
    let now = u64::try_from(h.clock.now_ms() / 1000).unwrap();
    let step = aca_otp::step_of(now);
    let (previous, current) = (aca_otp::code_at_step(&key, step - 1), aca_otp::code_at_step(&key, step));
    let bind = |first: &str, second: &str| {
        h.call(
            &PRODUCT,
            "BindMFADevice",
            &[
                ("SerialNumber", serial),
                ("UserName", "alice"),
                ("AuthenticationCode1", first),
                ("AuthenticationCode2", second),
            ],
        )
    };
    let e = bind(&current, &previous).unwrap_err();
    assert_eq!(e.code, "InvalidParameter.AuthenticationCode");
    assert!(e.message.contains("incorrect"));
    bind(&previous, &current).unwrap();
    let event = h.last_event("BindMFADevice");
    assert_eq!(event.service_name, "Ims");
    assert_eq!(event.referenced_resources["ACS::RAM::User"], ["alice"]);
    assert_eq!(event.request_parameters["SerialNumber"], serial);
    let info = h.ok(&PRODUCT, "GetUserMFAInfo", &[("UserName", "alice")]);
    assert_eq!((info["MFADevice"]["SerialNumber"].as_str(), info["MFADevice"]["Type"].as_str()), (Some(serial), Some("VMFA")));
    assert_eq!(
        bind(&previous, &current).unwrap_err().code,
        "EntityAlreadyExists.VirtualMFADevice.User"
    );
    assert_eq!(
        h.err(&PRODUCT, "DeleteVirtualMFADevice", &[("SerialNumber", serial)]).code,
        "DeleteConflict.VirtualMFADevice.User"
    );
    h.ok(&PRODUCT, "UnbindMFADevice", &[("UserName", "alice")]);
    h.ok(&PRODUCT, "DeleteVirtualMFADevice", &[("SerialNumber", serial)]);
    assert_eq!(
        h.err(&PRODUCT, "DeleteVirtualMFADevice", &[("SerialNumber", serial)]).code,
        "EntityNotExist.VirtualMFADevice"
    );
}

#[test]
fn codes_from_long_ago_or_a_bad_device_name_are_refused() {
    let h = TestConsole::new();
    user(&h, "bob");
    assert_eq!(
        h.err(&PRODUCT, "CreateVirtualMFADevice", &[("VirtualMFADeviceName", "bob_1")]).code,
        "InvalidParameter.VirtualMFADeviceName.InvalidChars"
    );
    let created = h.ok(&PRODUCT, "CreateVirtualMFADevice", &[("VirtualMFADeviceName", "bob")]);
    let serial = created["VirtualMFADevice"]["SerialNumber"].as_str().unwrap().to_owned();
    let key = aca_otp::decode_key(created["VirtualMFADevice"]["Base32StringSeed"].as_str().unwrap()).unwrap();
    let now = u64::try_from(h.clock.now_ms() / 1000).unwrap();
    let (first, second) = (aca_otp::code_at(&key, now), aca_otp::code_at(&key, now + 30));
    h.advance(10 * 60_000);
    let e = h.err(
        &PRODUCT,
        "BindMFADevice",
        &[("SerialNumber", &serial), ("UserName", "bob"), ("AuthenticationCode1", &first), ("AuthenticationCode2", &second)],
    );
    assert_eq!(e.code, "InvalidParameter.AuthenticationCode");
    let e = h.err(&PRODUCT, "BindMFADevice", &[("SerialNumber", &serial), ("UserName", "bob")]);
    assert_eq!(e.code, "MissingParameter");
}
