//! Tests of a console's first-use gate: Container Service for Kubernetes' activation page, its
//! roles prompt and RAM's Cloud Resource Access Authorization page, driven over HTTP.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};

use crate::products::ram::service_roles::{SERVICE_ROLES, roles_of};
use crate::ui::tests::{console, logged_on, send};

fn get(path: &str, cookie: &str) -> Request<Body> {
    Request::get(path).header("cookie", cookie).body(Body::empty()).unwrap()
}

fn post(path: &str, cookie: &str, form: &str) -> Request<Body> {
    Request::post(path)
        .header("cookie", cookie)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(form.to_owned()))
        .unwrap()
}

/// A console with a new account signed in: the console, its credentials, the app and the cookie.
async fn signed_in(name: &str) -> (Arc<crate::Console>, crate::accounts::Credentials, axum::Router, String) {
    let console = console();
    let creds = console.create_account(name, None).unwrap();
    let app = crate::app(console.clone());
    let cookie = logged_on(&app, &creds.login, &creds.password).await;
    (console, creds, app, cookie)
}

fn unescape(html: &str) -> String {
    html.replace("&amp;", "&").replace("&quot;", "\"")
}

/// The `href` of the link labelled `label`.
fn href_of(html: &str, label: &str) -> String {
    let end = html.find(&format!(">{label}</a>")).unwrap_or_else(|| panic!("no link {label}: {html}"));
    let start = html[..end].rfind("href=\"").unwrap() + 6;
    let stop = start + html[start..].find('"').unwrap();
    unescape(&html[start..stop])
}

fn event_names(console: &crate::Console, account_id: &str) -> Vec<(String, String)> {
    let account = console.store.account(account_id).unwrap();
    let state = account.lock();
    state
        .events
        .iter()
        .filter(|e| e.event.error_code.is_none())
        .map(|e| (e.event.event_name.clone(), e.event.user_agent.clone()))
        .collect()
}

#[tokio::test]
async fn a_new_account_activates_ack_then_authorizes_its_roles_in_ram_and_reaches_the_clusters() {
    let (console, creds, app, cookie) = signed_in("alice").await;

    let (status, _, html) = send(&app, get("/console/ack/clusters", &cookie)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Container Service for Kubernetes Terms of Service"), "{html}");
    assert!(html.contains("Activate Now") && !html.contains("Go to RAM console"), "{html}");

    let (status, _, html) = send(&app, post("/console/ack/activate", &cookie, "")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "the terms must be selected");
    assert!(html.contains("Read and select"), "{html}");
    assert!(!event_names(&console, &creds.account_id).iter().any(|(n, _)| n == "OpenAckService"));

    let (status, headers, _) = send(&app, post("/console/ack/activate", &cookie, "terms=on")).await;
    assert!(status.is_redirection(), "{status}");
    assert!(headers["location"].to_str().unwrap().starts_with("/console/ack"));
    let events = event_names(&console, &creds.account_id);
    assert!(events.contains(&("OpenAckService".to_owned(), "cs.console.aliyun.com".to_owned())));

    let (_, _, html) = send(&app, get("/console/ack/clusters", &cookie)).await;
    assert!(!html.contains("Activate Now"), "activated once, the page is gone: {html}");
    let authorize = href_of(&html, "Go to RAM console");
    assert!(authorize.starts_with("/console/ram/authorize?request="), "{authorize}");

    let (status, _, html) = send(&app, get(&authorize, &cookie)).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    assert!(html.contains("Cloud Resource Access Authorization"));
    assert!(html.contains("Confirm Authorization Policy"));
    for role in roles_of("cs.aliyuncs.com") {
        assert!(html.contains(role.name) && html.contains(role.policy), "{}", role.name);
    }
    let request = authorize.split_once("request=").unwrap().1;
    let (status, headers, _) = send(&app, post("/console/ram/authorize", &cookie, &format!("request={request}"))).await;
    assert!(status.is_redirection(), "{status}");
    assert_eq!(headers["location"], "/console/ack");

    let events = event_names(&console, &creds.account_id);
    let count = |name: &str| events.iter().filter(|(n, a)| n == name && a == "ram.console.aliyun.com").count();
    assert_eq!(count("CreateRole"), SERVICE_ROLES.len());
    assert_eq!(count("AttachPolicyToRole"), SERVICE_ROLES.len());

    let (status, _, html) = send(&app, get("/console/ack/clusters", &cookie)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Clusters") && !html.contains("Go to RAM console"), "{html}");

    // Authorizing again creates nothing: every role exists.
    send(&app, post("/console/ram/authorize", &cookie, &format!("request={request}"))).await;
    let again = event_names(&console, &creds.account_id);
    assert_eq!(again.iter().filter(|(n, _)| n == "CreateRole").count(), SERVICE_ROLES.len());
}

#[tokio::test]
async fn a_bad_authorization_request_is_refused_and_goes_back_only_inside_the_console() {
    let (console, creds, app, cookie) = signed_in("bob").await;

    for request in ["", "request=not-json", "request=%7B%22payloads%22%3A%5B%5D%7D"] {
        let (status, _, _) = send(&app, get(&format!("/console/ram/authorize?{request}"), &cookie)).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{request}");
    }
    let unknown = r#"{"payloads":[{"roleName":"NoSuchRole"}]}"#;
    let encoded = percent_encoding::utf8_percent_encode(unknown, percent_encoding::NON_ALPHANUMERIC);
    let (status, _, html) = send(&app, post("/console/ram/authorize", &cookie, &format!("request={encoded}"))).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(html.contains("NoSuchRole"), "{html}");

    let elsewhere = r#"{"referrer":"https://example.com/","payloads":[{"roleName":"AliyunCSDefaultRole"}]}"#;
    let encoded = percent_encoding::utf8_percent_encode(elsewhere, percent_encoding::NON_ALPHANUMERIC);
    let (status, headers, _) = send(&app, post("/console/ram/authorize", &cookie, &format!("request={encoded}"))).await;
    assert!(status.is_redirection());
    assert_eq!(headers["location"], "/console/ram");
    assert!(!event_names(&console, &creds.account_id).iter().any(|(n, _)| n == "OpenAckService"));
}
