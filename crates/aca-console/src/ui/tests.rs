//! Tests of the UI: every profile difference is visible in the rendered pages, pages render fast,
//! and the HTTP surface enforces logon and records the console's calls.

use axum::body::Body;
use axum::http::Request;
use serde_json::{Map, Value, json};
use tower::ServiceExt;

use super::render::{self, ListData, ListQuery, SelectOptions, View};
use super::spec::{self, ProductSpec};
use crate::profile::{CHANGES_2024, Change, DifferenceKind, ProfileId, drift};
use crate::{Console, ConsoleConfig};

fn set_path(item: &mut Value, path: &str, value: Value) {
    let mut node = item;
    let keys: Vec<&str> = path.split('.').collect();
    for key in &keys[..keys.len() - 1] {
        node = node
            .as_object_mut()
            .unwrap()
            .entry(key.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    node.as_object_mut()
        .unwrap()
        .insert(keys[keys.len() - 1].to_owned(), value);
}

/// A resource with a value at every path the page shows.
fn sample_item(page: &spec::PageSpec) -> Value {
    let mut item = json!({});
    for column in page.columns.iter().filter(|column| !column.path.is_empty()) {
        set_path(&mut item, &column.path, json!("sample"));
    }
    for tab in page.tabs.iter().chain(&page.summary).flat_map(spec::Tab::leaves) {
        if let spec::Tab::Basic { fields, .. } = tab {
            for (_, path) in fields {
                set_path(&mut item, path, json!("sample"));
            }
        }
    }
    set_path(&mut item, &page.id_field, json!("res-1"));
    item
}

fn view<'a>(profile: ProfileId, product: &'a ProductSpec) -> View<'a> {
    View {
        profile,
        product,
        account_name: "alice@1234567890123456.onaliyun.com",
        account_id: "1234567890123456",
        region: "cn-hangzhou",
        resource_group: "",
        parent_id: "bucket-1",
    }
}

/// Everything a page shows under a profile: the list, the details page, its buy pages, its frame.
fn render_page(profile: ProfileId, product: &str, page_id: &str) -> String {
    let spec = spec::product(profile, product).unwrap();
    let page_id = if page_id == "nav" || page_id == "product" {
        spec.home()
    } else {
        page_id
    };
    let page = spec
        .page(page_id)
        .unwrap_or_else(|| panic!("{product} has no page {page_id}"));
    let v = view(profile, spec);
    let item = sample_item(page);
    let data = ListData {
        items: vec![item.clone()],
        total: Some(1),
        page_number: 1,
        error: None,
        next_marker: None,
    };
    let options = SelectOptions::new();
    let mut html = render::list_page(&v, page, &data, &ListQuery::default(), &options).into_string();
    if !page.tabs.is_empty() {
        html.push_str(&render::details_page(&v, page, &item, &[], &options).into_string());
    }
    for form in page
        .creates
        .iter()
        .filter(|f| render::form_page_path(page, f).is_some())
    {
        html.push_str(&render::form_page(&v, page, form, &options).into_string());
    }
    if page.in_frame {
        html.push_str(&render::frame_page(&v, page, &data, &ListQuery::default()).into_string());
    }
    html
}

fn nav_of(html: &str) -> &str {
    let start = html.find("<aside").unwrap();
    let end = html[start..].find("</aside>").unwrap() + start;
    &html[start..end]
}

fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn text(label: &str) -> String {
    format!(">{}<", esc(label))
}

fn steps_of(html: &str, form: &str) -> Vec<String> {
    let marker = format!("data-ui-step=\"{}:", esc(form));
    let mut out: Vec<String> = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find(&marker) {
        rest = &rest[i + marker.len()..];
        let end = rest.find('"').unwrap();
        let step = rest[..end].replace("&amp;", "&");
        if out.contains(&step) {
            break;
        }
        out.push(step);
    }
    out
}

/// Asserts `more` shows the label more often than `less` (a renamed label may also appear, unchanged,
/// elsewhere on the page: the panel is renamed, the button that opens it is not).
fn shown_more_in(label: &str, more: &str, less: &str, what: &str) {
    let (a, b) = (more.matches(label).count(), less.matches(label).count());
    assert!(
        a > b,
        "{what}: {label} shown {a} times where it belongs, {b} times where it does not"
    );
}

/// Asserts `present` shows `needle` and `absent` does not.
fn shown_only_in(needle: &str, present: &str, absent: &str, what: &str) {
    assert!(present.contains(needle), "{what}: {needle} missing where it belongs");
    assert!(
        !absent.contains(needle),
        "{what}: {needle} shown where it does not belong"
    );
}

#[test]
fn every_difference_is_visible_in_the_rendered_pages() {
    for change in CHANGES_2024 {
        let html_2024 = render_page(ProfileId::Y2024, change.product(), change.page());
        let html_2026 = render_page(ProfileId::Y2026, change.product(), change.page());
        let what = format!("{change:?}");
        match *change {
            Change::Rename {
                page: "nav",
                in_2024,
                in_2026,
                ..
            } => {
                shown_more_in(&text(in_2024), nav_of(&html_2024), nav_of(&html_2026), &what);
                shown_more_in(&text(in_2026), nav_of(&html_2026), nav_of(&html_2024), &what);
            }
            Change::Rename { in_2024, in_2026, .. } => {
                shown_more_in(&text(in_2024), &html_2024, &html_2026, &what);
                shown_more_in(&text(in_2026), &html_2026, &html_2024, &what);
            }
            Change::MoveAction {
                action,
                in_2024,
                in_2026,
                ..
            } => {
                let at = |p: crate::profile::Placement| {
                    format!(
                        "data-ui-action=\"{}\" data-ui-placement=\"{}\"",
                        esc(action),
                        p.as_str()
                    )
                };
                shown_only_in(&at(in_2024), &html_2024, &html_2026, &what);
                shown_only_in(&at(in_2026), &html_2026, &html_2024, &what);
            }
            Change::NewRequiredField { field, .. } => {
                shown_only_in(
                    &format!("data-ui-field=\"{}\"", esc(field)),
                    &html_2026,
                    &html_2024,
                    &what,
                );
            }
            Change::RemovedBatchButton { label, .. } => {
                shown_only_in(
                    &format!("data-ui-batch=\"{}\"", esc(label)),
                    &html_2024,
                    &html_2026,
                    &what,
                );
            }
            Change::ReorderSteps {
                form, in_2024, in_2026, ..
            } => {
                assert_eq!(steps_of(&html_2024, form), in_2024, "{what}");
                assert_eq!(steps_of(&html_2026, form), in_2026, "{what}");
            }
            Change::RegroupMenu {
                item, in_2024, in_2026, ..
            } => {
                let path = |group: &str| {
                    let p = if group.is_empty() {
                        item.to_owned()
                    } else {
                        format!("{group} > {item}")
                    };
                    format!("data-ui-nav=\"{}\"", esc(&p))
                };
                shown_only_in(&path(in_2024), &html_2024, &html_2026, &what);
                shown_only_in(&path(in_2026), &html_2026, &html_2024, &what);
            }
        }
    }
}

#[test]
fn ecs_instance_actions_sit_where_todays_help_pages_put_them() {
    let html = render_page(ProfileId::Y2026, "ecs", "instances");
    let submenu = |name: &str| {
        let start = html
            .find(&format!("data-ui-submenu=\"{name}\""))
            .unwrap_or_else(|| panic!("no {name} submenu"));
        let end = html[start..].find("</div></div>").map_or(html.len(), |e| start + e);
        html[start..end].to_owned()
    };
    // More > Instance Status > Release (release-instance.md); ⋯ > Instance Attributes > Reset
    // Instance Password (reset-password.md).
    let status = submenu("Instance Status");
    for action in ["Start", "Stop", "Release"] {
        assert!(
            status.contains(&format!("data-ui-action=\"{action}\"")),
            "{action} not in Instance Status"
        );
    }
    assert!(submenu("Instance Attributes").contains("data-ui-action=\"Reset Instance Password\""));
    // The details page: Restart in the upper-right corner, and All Actions with a search box
    // listing Stop (stop-instance.md, restart-instance.md).
    let header = &html[html.find("class=\"header-actions\"").expect("no header actions")..];
    let restart = header.find("data-ui-action=\"Restart\"").expect("no Restart button");
    assert!(restart < header.find("All Actions").unwrap());
    let pane = &header[header.find("aria-label=\"All Actions\"").unwrap()..];
    assert!(pane.contains("Search for an action") && pane.contains("data-ui-action=\"Stop\""));
    // The dialogs the pages describe.
    for (form, labels) in [
        (
            "stop-instance",
            &["Stopped By", "Force Stop", "Stop Mode", "Standard Mode", "Confirm"][..],
        ),
        ("restart-instance", &["Force Restart", "Confirm"]),
        ("release-instance", &["Release Now", "Scheduled Release", "Next", "OK"]),
        (
            "reset-instance-password",
            &["Logon Username", "New Password", "Confirm Password", "Online Reset"],
        ),
    ] {
        let start = html
            .find(&format!("id=\"{form}\""))
            .unwrap_or_else(|| panic!("no {form} dialog"));
        let dialog = &html[start..start + html[start..].find("</form>").unwrap()];
        for label in labels {
            assert!(dialog.contains(&text(label)), "{form}: no {label}");
        }
    }
    // The choices only the console uses are never sent.
    let reset = &html[html.find("id=\"reset-instance-password\"").unwrap()..];
    let confirm_password = &reset[reset.find("name=\"ConfirmPassword\"").unwrap()..];
    assert!(confirm_password[..confirm_password.find('>').unwrap()].contains("data-not-sent"));
}

#[test]
fn drift_lists_every_change_in_both_directions() {
    let forward = drift(ProfileId::Y2024, ProfileId::Y2026);
    let backward = drift(ProfileId::Y2026, ProfileId::Y2024);
    assert!(drift(ProfileId::Y2026, ProfileId::Y2026).is_empty());
    assert_eq!(forward.len(), CHANGES_2024.len());
    assert!(forward.len() >= 25);
    let products: std::collections::BTreeSet<&str> = forward.iter().map(|d| d.product.as_str()).collect();
    assert!(products.len() >= 8, "{products:?}");
    for (f, b) in forward.iter().zip(&backward) {
        assert_eq!((&f.before, &f.after), (&b.after, &b.before));
        assert!(!(f.before.is_empty() && f.after.is_empty()), "{f:?}");
    }
    let ok = forward
        .iter()
        .find(|d| d.product == "vpc" && d.page == "vpcs" && d.kind == DifferenceKind::RenamedLabel)
        .unwrap();
    assert_eq!((ok.before.as_str(), ok.after.as_str()), ("Confirm", "OK"));
    let field = forward
        .iter()
        .find(|d| d.kind == DifferenceKind::NewRequiredField && d.product == "ecs")
        .unwrap();
    assert_eq!(field.after, "Logon Password (required)");
    assert!(backward.iter().any(|d| d.kind == DifferenceKind::RemovedField));
    let json = serde_json::to_value(&forward[0]).unwrap();
    assert_eq!(json["kind"], "renamed_label");
}

#[test]
fn every_page_of_every_product_renders_under_both_profiles() {
    for profile in ProfileId::ALL {
        for product in spec::products(profile) {
            for page in &product.pages {
                let html = render_page(profile, &product.code, &page.id);
                assert!(html.contains(&text(&page.title)), "{} {}", product.code, page.id);
            }
        }
    }
}

#[test]
/// How fast it renders is `benches/console.rs`'s concern; this is that every row is shown.
fn a_list_page_shows_every_row_it_is_given() {
    let spec = spec::product(ProfileId::Y2026, "vpc").unwrap();
    let page = spec.page("vpcs").unwrap();
    let items: Vec<Value> = (0..50)
        .map(|i| {
            json!({
                "VpcId": format!("vpc-{i}"),
                "VpcName": format!("vpc {i}"),
                "CidrBlock": "192.168.0.0/16",
                "Status": "Available",
                "VSwitchIds": {"VSwitchId": ["vsw-1"]},
                "CreationTime": "2026-01-01T00:00:00Z",
            })
        })
        .collect();
    let data = ListData {
        items,
        total: Some(50),
        page_number: 1,
        error: None,
        next_marker: None,
    };
    let v = view(ProfileId::Y2026, spec);
    let html = render::list_page(&v, page, &data, &ListQuery::default(), &SelectOptions::new()).into_string();
    for i in 0..50 {
        assert!(html.contains(&format!(">vpc-{i}<")), "row vpc-{i} is not shown");
    }
}

pub(super) fn console() -> std::sync::Arc<Console> {
    std::sync::Arc::new(Console::in_memory(ConsoleConfig::for_tests()))
}

pub(super) async fn send(app: &axum::Router, request: Request<Body>) -> (axum::http::StatusCode, axum::http::HeaderMap, String) {
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let body = axum::body::to_bytes(response.into_body(), 1 << 22).await.unwrap();
    (status, headers, String::from_utf8_lossy(&body).into_owned())
}

/// The page at `path` as the signed-in browser holding `cookie` gets it, which must be 200 OK.
pub(super) async fn page(app: &axum::Router, cookie: &str, path: &str) -> String {
    let request = Request::get(path).header("cookie", cookie).body(Body::empty()).unwrap();
    let (status, _, html) = send(app, request).await;
    assert_eq!(status, axum::http::StatusCode::OK, "{path}");
    html
}

/// A console with an account `name` (the current profile), its app, and the cookie of a browser
/// signed in to it.
pub(super) async fn signed_in(name: &str) -> (std::sync::Arc<Console>, axum::Router, String) {
    let console = console();
    let creds = console.create_account(name, None).unwrap();
    let app = crate::app(console.clone());
    let cookie = logged_on(&app, &creds.login, &creds.password).await;
    (console, app, cookie)
}

pub(super) async fn logged_on(app: &axum::Router, login: &str, password: &str) -> String {
    let body = format!(
        "login={}&password={}",
        percent_encoding::utf8_percent_encode(login, percent_encoding::NON_ALPHANUMERIC),
        password
    );
    let request = Request::post("/login")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(body))
        .unwrap();
    let (status, headers, _) = send(app, request).await;
    assert!(status.is_redirection(), "{status}");
    let cookie = headers.get("set-cookie").unwrap().to_str().unwrap();
    cookie.split(';').next().unwrap().to_owned()
}

#[tokio::test]
async fn pages_need_a_session_and_calls_are_recorded_with_the_console_agent() {
    let console = console();
    let creds = console.create_account("alice", None).unwrap();
    let app = crate::app(console.clone());

    let (status, headers, _) = send(&app, Request::get("/console/vpc/vpcs").body(Body::empty()).unwrap()).await;
    assert!(status.is_redirection());
    assert!(
        headers
            .get("location")
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with("/login?next=")
    );

    let bad = "login=alice%40x.onaliyun.com&password=nope";
    let request = Request::post("/login")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(bad))
        .unwrap();
    assert_eq!(send(&app, request).await.0, axum::http::StatusCode::UNAUTHORIZED);

    let cookie = logged_on(&app, &creds.login, &creds.password).await;
    let create = Request::post("/console/api/vpc/CreateVpc")
        .header("cookie", &cookie)
        .header("content-type", "application/json")
        .body(Body::from(
            r#"{"RegionId":"cn-shanghai","VpcName":"ui-vpc","CidrBlock":"10.0.0.0/8"}"#,
        ))
        .unwrap();
    let (status, _, body) = send(&app, create).await;
    assert_eq!(status, axum::http::StatusCode::OK, "{body}");
    let vpc_id = serde_json::from_str::<Value>(&body).unwrap()["VpcId"]
        .as_str()
        .unwrap()
        .to_owned();

    let bad_cidr = Request::post("/console/api/vpc/CreateVpc")
        .header("cookie", &cookie)
        .header("content-type", "application/json")
        .body(Body::from(r#"{"CidrBlock":"10.0.0.0/40"}"#))
        .unwrap();
    let (status, _, body) = send(&app, bad_cidr).await;
    assert_eq!(status, axum::http::StatusCode::BAD_REQUEST);
    assert!(body.contains("CidrBlock"), "{body}");

    let buy = Request::post("/console/buy/vpc/CreateVpc")
        .header("cookie", &cookie)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from("VpcName=bought&CidrBlock=172.16.0.0%2F12"))
        .unwrap();
    assert_eq!(send(&app, buy).await.0, axum::http::StatusCode::OK);

    let list = Request::get("/console/vpc/vpcs?region=cn-shanghai")
        .header("cookie", &cookie)
        .body(Body::empty())
        .unwrap();
    let (status, _, html) = send(&app, list).await;
    assert_eq!(status, axum::http::StatusCode::OK);
    assert!(
        html.contains(&vpc_id) && html.contains("ui-vpc"),
        "the list shows the VPC"
    );
    let details = Request::get(format!("/console/vpc/vpcs/{vpc_id}?region=cn-shanghai"))
        .header("cookie", &cookie)
        .body(Body::empty())
        .unwrap();
    let (status, _, html) = send(&app, details).await;
    assert_eq!(status, axum::http::StatusCode::OK);
    assert!(html.contains("Basic Information") && html.contains("10.0.0.0/8"));

    // The Create vSwitch dialog shows the chosen VPC's block (create-vswitch.md): the page holds each
    // VPC's blocks for the select that follows the VPC one, and sends none of them.
    let vswitches = Request::get("/console/vpc/vswitches?region=cn-shanghai")
        .header("cookie", &cookie)
        .body(Body::empty())
        .unwrap();
    let (_, _, html) = send(&app, vswitches).await;
    let at = html
        .find("data-ui-select=\"VpcCidrBlock\"")
        .expect("the VPC's IPv4 CIDR Block");
    let follower = &html[at..at + html[at..].find("<input").unwrap()];
    assert!(follower.contains("data-follows=\"VpcId\""), "{follower}");
    assert!(
        follower.contains(&esc(&format!(r#""{vpc_id}":[["10.0.0.0/8","10.0.0.0/8"]]"#))),
        "{follower}"
    );
    let hidden = &html[at..];
    let hidden = &hidden[hidden.find("<input").unwrap()..];
    assert!(
        hidden[..hidden.find('>').unwrap()].contains("data-not-sent"),
        "{hidden}"
    );

    let account = console.store.account(&creds.account_id).unwrap();
    let state = account.lock();
    let events: Vec<&aca_core::TrailEvent> = state.events.iter().map(|e| &e.event).collect();
    let created = events
        .iter()
        .find(|e| e.event_name == "CreateVpc" && e.error_code.is_none())
        .unwrap();
    assert_eq!(created.user_agent, "vpc.console.aliyun.com");
    assert_eq!(created.event_type, aca_core::EventType::ApiCall);
    assert_eq!(created.acs_region, "cn-shanghai");
    let bought = events.iter().find(|e| e.event_name == "Create").unwrap();
    assert_eq!(bought.event_type, aca_core::EventType::ConsoleOperation);
    assert!(
        events.iter().any(|e| e.event_name == "DescribeVpcs"),
        "page views read through the API"
    );
}

#[tokio::test]
async fn a_product_without_its_api_shows_an_unavailable_page() {
    let console = console();
    let creds = console.create_account("alice", None).unwrap();
    let app = crate::app(console);
    let cookie = logged_on(&app, &creds.login, &creds.password).await;
    for product in spec::products(ProfileId::Y2026) {
        // Pages in the navigation pane; the others are shown inside a resource (DNS records of a domain).
        let in_nav = |id: &str| product.nav.iter().flat_map(|g| &g.items).any(|i| i.page == id);
        for page in product.pages.iter().filter(|p| in_nav(&p.id)) {
            let mut urls = vec![format!("/console/{}/{}", product.code, page.id)];
            if page.in_frame {
                urls.push(format!("/console/{}/frame/{}", product.code, page.id));
            }
            for form in page.creates.iter() {
                if let Some(path) = render::form_page_path(page, form) {
                    urls.push(format!("/console/{}/{path}", product.code));
                }
            }
            for url in urls {
                let (status, _, html) = send(
                    &app,
                    Request::get(&url)
                        .header("cookie", &cookie)
                        .body(Body::empty())
                        .unwrap(),
                )
                .await;
                if super::api_product(&product.api).is_some() {
                    // The page's list call succeeded: the API accepted the parameters the page sends.
                    assert_eq!(status, axum::http::StatusCode::OK, "{url}");
                    assert!(
                        !html.contains("alert-error"),
                        "{url}: {}",
                        &html[html.find("alert-error").unwrap()..][..300]
                    );
                } else {
                    assert_eq!(status, axum::http::StatusCode::SERVICE_UNAVAILABLE, "{url}");
                    assert!(html.contains("is unavailable"), "{url}");
                }
            }
        }
    }
    let missing = Request::get("/console/nosuch/things")
        .header("cookie", &cookie)
        .body(Body::empty())
        .unwrap();
    assert_eq!(send(&app, missing).await.0, axum::http::StatusCode::NOT_FOUND);
}

#[test]
fn zones_have_console_names() {
    assert_eq!(render::zone_label("cn-hangzhou-h"), "Hangzhou Zone H");
    assert_eq!(render::zone_label("ap-southeast-1a"), "Singapore Zone A");
    assert_eq!(render::zone_label("eu-central-1a"), "Frankfurt Zone A");
    assert_eq!(render::zone_label("us-west-1b"), "Silicon Valley Zone B");
}

#[tokio::test]
async fn requests_signed_for_oss_reach_the_oss_protocol_even_on_console_paths() {
    let app = crate::app(console());
    let signed = Request::get("/console/vpc")
        .header("authorization", "OSS LTAInobody:c2lnbmF0dXJl")
        .body(Body::empty())
        .unwrap();
    let (status, _, body) = send(&app, signed).await;
    assert!(
        !status.is_redirection(),
        "a bucket named console is not the console: {status}"
    );
    assert!(body.contains("<Error>") && body.contains("<Code>"), "{body}");
    let browser = Request::get("/console/vpc").body(Body::empty()).unwrap();
    assert!(send(&app, browser).await.0.is_redirection());
}

#[tokio::test]
async fn oss_buckets_and_sls_projects_are_created_through_the_console_endpoint() {
    let console = console();
    let creds = console.create_account("alice", None).unwrap();
    let app = crate::app(console.clone());
    let cookie = logged_on(&app, &creds.login, &creds.password).await;
    let post = |path: &str, body: &str| {
        Request::post(path)
            .header("cookie", &cookie)
            .header("content-type", "application/json")
            .body(Body::from(body.to_owned()))
            .unwrap()
    };
    let bucket = format!("ui-bucket-{}", &creds.account_id[..8]);
    let body =
        format!(r#"{{"BucketName":"{bucket}","RegionId":"cn-shanghai","StorageClass":"IA","x-oss-acl":"private"}}"#);
    let (status, _, text) = send(&app, post("/console/api/oss/PutBucket", &body)).await;
    assert_eq!(status, axum::http::StatusCode::OK, "{text}");
    let project = format!("ui-project-{}", &creds.account_id[..8]);
    let body = format!(r#"{{"projectName":"{project}","RegionId":"cn-shanghai"}}"#);
    let (status, _, text) = send(&app, post("/console/api/sls/CreateProject", &body)).await;
    assert_eq!(status, axum::http::StatusCode::OK, "{text}");

    let page = |path: &str| {
        Request::get(path)
            .header("cookie", &cookie)
            .body(Body::empty())
            .unwrap()
    };
    let (_, _, html) = send(&app, page("/console/oss/buckets")).await;
    assert!(
        html.contains(&bucket) && html.contains("China (Shanghai)"),
        "the bucket list shows the bucket"
    );
    // enable-versioning.md: Configure in the Versioning column opens the bucket's Versioning page.
    let configure = html
        .find("data-ui-configure=\"Versioning\"")
        .expect("a Configure link in the Versioning column");
    let link = &html[html[..configure].rfind("<a ").unwrap()..configure];
    assert!(
        link.contains(&format!("/console/oss/buckets/{bucket}/versioning")),
        "{link}"
    );
    let (_, _, html) = send(&app, page("/console/sls/projects")).await;
    assert!(html.contains(&project), "the project list shows the project");

    let account = console.store.account(&creds.account_id).unwrap();
    let state = account.lock();
    let put = state
        .events
        .iter()
        .map(|e| &e.event)
        .find(|e| e.event_name == "PutBucket")
        .unwrap();
    assert_eq!(put.user_agent, "oss.console.aliyun.com");
    assert_eq!(put.acs_region, "cn-shanghai");
    assert_eq!(put.event_source, "oss-cn-shanghai.aliyuncs.com");
    assert!(put.error_code.is_none(), "{:?}", put.error_message);
    let created = state
        .events
        .iter()
        .map(|e| &e.event)
        .find(|e| e.event_name == "CreateProject")
        .unwrap();
    assert_eq!(created.user_agent, "sls.console.aliyun.com");
}

#[tokio::test]
async fn a_buckets_objects_acl_and_lifecycle_and_a_projects_logstores_are_managed_from_their_pages() {
    let console = console();
    let creds = console.create_account("bob", None).unwrap();
    let app = crate::app(console.clone());
    let cookie = logged_on(&app, &creds.login, &creds.password).await;
    let post = |action: &str, body: Value| {
        Request::post(format!("/console/api/{action}"))
            .header("cookie", &cookie)
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .unwrap()
    };
    let page = |path: &str| {
        Request::get(path)
            .header("cookie", &cookie)
            .body(Body::empty())
            .unwrap()
    };
    let ok = |(status, _, text): (axum::http::StatusCode, axum::http::HeaderMap, String)| {
        assert_eq!(status, axum::http::StatusCode::OK, "{text}");
        text
    };
    let bucket = format!("objects-{}", &creds.account_id[..8]);
    ok(send(
        &app,
        post(
            "oss/PutBucket",
            json!({ "BucketName": bucket, "RegionId": "cn-hangzhou" }),
        ),
    )
    .await);

    // The bucket's details page has the bucket's own navigation pane.
    let html = ok(send(&app, page(&format!("/console/oss/buckets/{bucket}"))).await);
    for path in [
        "Files &gt; Files",
        "Permission Control &gt; ACL",
        "Basic Settings &gt; Static Pages",
        "Basic Settings &gt; Lifecycle",
        "Redundancy for Fault Tolerance &gt; Versioning",
        "Delete Bucket",
    ] {
        assert!(html.contains(&format!("data-ui-nav=\"{path}\"")), "{path}");
    }
    assert!(html.contains(&format!("href=\"/console/oss/buckets/{bucket}/objects?region=")));

    // Objects: a directory, an upload with content, prefix search, marker paging, deletion.
    ok(send(
        &app,
        post("oss/PutObject", json!({ "BucketName": bucket, "ObjectName": "docs/" })),
    )
    .await);
    ok(send(
        &app,
        post(
            "oss/PutObject",
            json!({ "BucketName": bucket, "ObjectName": "docs/hello.txt", "Body": "hello, world", "Content-Type": "text/plain" }),
        ),
    )
    .await);
    {
        let account = console.store.account(&creds.account_id).unwrap();
        let state = account.lock();
        let id = crate::rest::oss::object_id(&creds.account_id, &bucket, "docs/hello.txt");
        let object = state.resources().get(&id).expect("the object is stored");
        assert_eq!(
            object.attr_i64("Size"),
            Some(12),
            "the typed content is the object's body"
        );
    }
    let objects = format!("/console/oss/buckets/{bucket}/objects");
    let html = ok(send(&app, page(&objects)).await);
    // The top shows the directory, which opens to show the object by its name within it.
    assert!(
        html.contains("data-ui-folder=\"docs/\"") && !html.contains("data-row-id=\"docs/hello.txt\""),
        "{html}"
    );
    let docs = ok(send(&app, page(&format!("{objects}?dir=docs%2F"))).await);
    assert!(docs.contains("data-row-id=\"docs/hello.txt\"") && docs.contains(">hello.txt<"));
    assert!(
        !docs.contains("data-row-id=\"docs/\""),
        "a directory is not a row of itself"
    );
    assert!(
        docs.contains("data-prefix=\"docs/\""),
        "names typed here are made in the directory"
    );
    assert!(
        html.contains(&format!("[&quot;BucketName&quot;,&quot;{bucket}&quot;]")),
        "calls carry the bucket"
    );
    assert!(html.contains("data-suffix=\"/\""), "directory names end with a slash");
    for n in 0..25 {
        ok(send(
            &app,
            post(
                "oss/PutObject",
                json!({ "BucketName": bucket, "ObjectName": format!("logs/{n:02}.log"), "Body": "x" }),
            ),
        )
        .await);
    }
    let html = ok(send(&app, page(&format!("{objects}?key=0&q=lo"))).await);
    assert!(!html.contains("data-ui-folder=\"docs/\"") && html.contains("data-ui-folder=\"logs/\""));
    let html = ok(send(&app, page(&format!("{objects}?dir=logs%2F"))).await);
    assert!(html.contains(">00.log<") && html.contains(">19.log<") && !html.contains(">20.log<"));
    assert!(
        html.contains("dir=logs%2F") && html.contains("marker=logs%2F19%2Elog"),
        "a next page starts after the last row"
    );
    let html = ok(send(&app, page(&format!("{objects}?dir=logs%2F&marker=logs%2F19.log"))).await);
    assert!(html.contains(">20.log<") && !html.contains(">19.log<"));
    let html = ok(send(&app, page(&format!("{objects}?dir=logs%2F&key=0&q=1"))).await);
    assert!(
        html.contains(">10.log<") && !html.contains(">00.log<"),
        "a search looks within the directory"
    );
    ok(send(
        &app,
        post(
            "oss/DeleteObject",
            json!({ "BucketName": bucket, "ObjectName": "docs/hello.txt" }),
        ),
    )
    .await);
    let html = ok(send(&app, page(&format!("{objects}?dir=docs%2F"))).await);
    assert!(!html.contains("data-row-id=\"docs/hello.txt\""));

    // ACL.
    let acl = format!("/console/oss/buckets/{bucket}/bucket-acl");
    assert!(ok(send(&app, page(&acl)).await).contains(">Private<"));
    ok(send(
        &app,
        post(
            "oss/PutBucketAcl",
            json!({ "BucketName": bucket, "x-oss-acl": "public-read" }),
        ),
    )
    .await);
    assert!(ok(send(&app, page(&acl)).await).contains(">Public Read<"));

    // Lifecycle: no rules is an empty list; a new rule comes after the ones the page shows.
    let lifecycle = format!("/console/oss/buckets/{bucket}/lifecycle");
    let html = ok(send(&app, page(&lifecycle)).await);
    assert!(html.contains("No data") && !html.contains("NoSuchLifecycle"));
    assert!(html.contains("name=\"Rule.1.Expiration.Days\""));
    // The Create Rule dialog's Tagging field (configure-lifecycle-rule.md).
    assert!(html.contains("name=\"Rule.1.Tag.1.Key\"") && html.contains("name=\"Rule.1.Tag.1.Value\""));
    let rule = json!({ "BucketName": bucket, "Rule.1.ID": "expire-logs", "Rule.1.Prefix": "logs/",
        "Rule.1.Status": "Enabled", "Rule.1.Expiration.Days": "30",
        "Rule.1.Tag.1.Key": "env", "Rule.1.Tag.1.Value": "test" });
    ok(send(&app, post("oss/PutBucketLifecycle", rule)).await);
    let html = ok(send(&app, page(&lifecycle)).await);
    assert!(html.contains(">expire-logs<") && html.contains(">30<"));
    assert!(html.contains("name=\"Rule.2.Expiration.Days\""));
    assert!(
        html.contains("[&quot;Rule.1.ID&quot;,&quot;expire-logs&quot;]"),
        "the existing rule is kept"
    );
    assert!(
        html.contains("[&quot;Rule.1.Tag.1.Key&quot;,&quot;env&quot;]")
            && html.contains("[&quot;Rule.1.Tag.1.Value&quot;,&quot;test&quot;]"),
        "with its tags"
    );
    let duplicate = json!({ "BucketName": bucket, "Rule.1.Status": "Enabled", "Rule.1.Expiration.Days": "30",
        "Rule.1.Tag.1.Key": "env", "Rule.1.Tag.2.Key": "env" });
    let refused = send(&app, post("oss/PutBucketLifecycle", duplicate)).await;
    assert!(!refused.0.is_success(), "a rule with the same tag key twice is refused");
    assert!(
        html.contains("data-call=\"PutBucketLifecycle\"")
            && html.contains("data-config-prefix=\"Rule\" data-config-clear=\"DeleteBucketLifecycle\""),
        "deleting a rule saves the others, or deletes the configuration"
    );

    // Logstores of a project.
    let project = format!("logs-{}", &creds.account_id[..8]);
    ok(send(
        &app,
        post(
            "sls/CreateProject",
            json!({ "projectName": project, "RegionId": "cn-hangzhou" }),
        ),
    )
    .await);
    let html = ok(send(&app, page(&format!("/console/sls/projects/{project}"))).await);
    assert!(html.contains("data-ui-nav=\"Log Storage &gt; Logstores\""));
    ok(send(
        &app,
        post(
            "sls/CreateLogStore",
            json!({ "projectName": project, "logstoreName": "app-logs", "ttl": "7", "shardCount": "3" }),
        ),
    )
    .await);
    let logstores = format!("/console/sls/projects/{project}/logstores");
    // A project opens on its Logstores tab, whose + opens the Create Logstore page.
    let html = ok(send(&app, page("/console/sls/projects")).await);
    assert!(html.contains(&format!("href=\"{logstores}?region=cn-hangzhou\"")), "{html}");
    let html = ok(send(&app, page(&logstores)).await);
    assert!(
        html.contains(">app-logs<") && html.contains(">7<") && html.contains(">3<"),
        "{html}"
    );
    let create = format!("{logstores}/create/create-logstore");
    assert!(html.contains("data-ui-create=\"+\"") && html.contains(&create), "{html}");
    let form = ok(send(&app, page(&create)).await);
    for label in ["Create Logstore", "Logstore Type", "Billing Mode", "Pay-as-you-go (cannot be changed)", "Pay-by-ingested-data"] {
        assert!(form.contains(&text(label)), "{label}: {form}");
    }
    assert!(form.contains(&esc(&format!(r#"["projectName","{project}"]"#))), "the page creates in the project");
    assert!(form.contains("data-ui-nav=\"Log Storage &gt; Logstores\""), "under the project's pane");
    // The Logstore's icon menu holds Modify and Delete.
    assert!(html.contains("aria-label=\"Modify a Logstore\"") && html.contains(">Delete<"));
    // A Logstore opens on its Search & Analysis page: Index Attributes > Attributes, Enable.
    let search = ok(send(&app, page(&format!("{logstores}/app-logs"))).await);
    for label in ["Search & Analysis", "Index Attributes", "Attributes", "Enable", "LogReduce", "Full Text Index", "Case Sensitive", "Include Chinese", "Delimiter"] {
        assert!(search.contains(&text(label)), "{label}: {search}");
    }
    assert!(search.contains("data-url=\"/console/api/sls/CreateIndex\""));
    ok(send(
        &app,
        post(
            "sls/CreateIndex",
            json!({
                "projectName": project, "logstoreName": "app-logs", "line.enabled": "true",
                "line.caseSensitive": "true", "line.token": crate::rest::sls::DEFAULT_TOKENS,
            }),
        ),
    )
    .await);
    let (status, _, _) = send(&app, page(&format!("{logstores}/nowhere"))).await;
    assert_eq!(status, axum::http::StatusCode::NOT_FOUND);
    ok(send(
        &app,
        post(
            "sls/UpdateLogStore",
            json!({ "projectName": project, "logstoreName": "app-logs", "ttl": "90" }),
        ),
    )
    .await);
    assert!(ok(send(&app, page(&logstores)).await).contains(">90<"));
    ok(send(
        &app,
        post(
            "sls/DeleteLogStore",
            json!({ "projectName": project, "logstoreName": "app-logs" }),
        ),
    )
    .await);
    assert!(!ok(send(&app, page(&logstores)).await).contains(">app-logs<"));

    // A nested page is only reached under its parent.
    let (status, _, _) = send(&app, page("/console/oss/objects")).await;
    assert_eq!(status, axum::http::StatusCode::NOT_FOUND);

    let account = console.store.account(&creds.account_id).unwrap();
    let state = account.lock();
    for (name, agent) in [
        ("PutObject", "oss.console.aliyun.com"),
        ("DeleteObject", "oss.console.aliyun.com"),
        ("PutBucketAcl", "oss.console.aliyun.com"),
        ("PutBucketLifecycle", "oss.console.aliyun.com"),
        ("CreateLogStore", "sls.console.aliyun.com"),
        ("UpdateLogStore", "sls.console.aliyun.com"),
        ("CreateIndex", "sls.console.aliyun.com"),
        ("DeleteLogStore", "sls.console.aliyun.com"),
    ] {
        let event = state
            .events
            .iter()
            .map(|e| &e.event)
            .find(|e| e.event_name == name)
            .unwrap_or_else(|| panic!("{name} is recorded"));
        assert_eq!(event.user_agent, agent, "{name}");
        assert!(event.error_code.is_none(), "{name}: {:?}", event.error_message);
    }
}

#[tokio::test]
async fn a_users_page_lists_its_access_keys_and_groups_and_their_actions_name_the_user() {
    let (_, app, cookie) = signed_in("ursula").await;
    let call = |action: &str, body: &str| {
        Request::post(format!("/console/api/ram/{action}"))
            .header("cookie", &cookie)
            .header("content-type", "application/json")
            .body(Body::from(body.to_owned()))
            .unwrap()
    };
    for (action, body) in [
        ("CreateUser", r#"{"UserName":"alice","DisplayName":"Alice"}"#),
        ("CreateGroup", r#"{"GroupName":"devs"}"#),
        ("AddUserToGroup", r#"{"GroupName":"devs","UserName":"alice"}"#),
        ("CreateAccessKey", r#"{"UserName":"alice"}"#),
    ] {
        let (status, _, body) = send(&app, call(action, body)).await;
        assert_eq!(status, axum::http::StatusCode::OK, "{action}: {body}");
    }
    let page = |path: &str| {
        Request::get(path.to_owned())
            .header("cookie", &cookie)
            .body(Body::empty())
            .unwrap()
    };
    let (status, _, html) = send(&app, page("/console/ram/users/alice")).await;
    assert_eq!(status, axum::http::StatusCode::OK, "{html}");
    for tab in ["Authentication", "Groups", "Modify Basic Information"] {
        assert!(html.contains(tab), "the user's page shows {tab}");
    }
    // The AccessKey's Disable and the group's Remove from Group send the user's name too.
    let user_param = esc(r#"["UserName","alice"]"#);
    for action in ["UpdateAccessKey", "RemoveUserFromGroup"] {
        let at = html
            .find(&format!("data-call=\"{action}\""))
            .unwrap_or_else(|| panic!("no {action} call on the user's page"));
        let button = &html[at..at + html[at..].find('>').unwrap()];
        assert!(button.contains(&user_param), "{action} names the user: {button}");
    }
    assert!(html.contains("devs"), "the Groups tab lists the user's group");

    let (status, _, html) = send(&app, page("/console/ram/groups/devs")).await;
    assert_eq!(status, axum::http::StatusCode::OK, "{html}");
    assert!(html.contains("Group Members") && html.contains("Remove from User Group"));
    assert!(
        html.contains(&esc(r#"["GroupName","devs"]"#)),
        "member actions name the group"
    );
}

#[test]
fn a_details_tab_shows_its_lists_create_buttons_and_a_panel_with_steps() {
    let spec = spec::product(ProfileId::Y2026, "slb").unwrap();
    let page = spec.page("instances").unwrap();
    let child = spec.page("default-server-group").unwrap().bound_to("lb-1");
    let v = view(ProfileId::Y2026, spec);
    let data = ListData {
        items: Vec::new(),
        total: None,
        page_number: 1,
        error: None,
        next_marker: None,
    };
    let html =
        render::details_page(&v, page, &sample_item(page), &[(child, data)], &SelectOptions::new()).into_string();
    let tab = &html[html.find("Default Server Group").unwrap()..];
    assert!(tab.contains("data-ui-create=\"Add\""), "the tab's Add button");
    // The Servers panel: the servers, then their weights, and Add sends them with the instance.
    let panel = &html[html.find("id=\"add-backend-servers\"").unwrap()..];
    let panel = &panel[..panel.find("</form>").unwrap()];
    assert!(panel.contains("drawer") && panel.contains("Ports/Weights") && panel.contains("data-step-next"));
    assert!(panel.contains("LoadBalancerId") && panel.contains("lb-1"), "{panel}");
    assert!(panel.contains("data-compose"));
}

#[test]
fn a_form_whose_operation_names_a_field_calls_one_per_option() {
    let slb = spec::product(ProfileId::Y2026, "slb").unwrap();
    let wizard = slb
        .page("instances")
        .unwrap()
        .row_actions
        .iter()
        .find_map(|a| match &a.kind {
            spec::ActionKind::Form(form) if form.id == "listener-wizard" => Some(form.as_ref()),
            _ => None,
        })
        .expect("the listener wizard");
    assert_eq!(
        wizard.actions(),
        [
            "CreateLoadBalancerTCPListener",
            "CreateLoadBalancerUDPListener",
            "CreateLoadBalancerHTTPListener",
            "CreateLoadBalancerHTTPSListener"
        ]
    );
}

#[tokio::test]
async fn a_policy_is_created_from_its_editor_and_granted_from_its_grants_tab() {
    let (_, app, cookie) = signed_in("petra").await;
    let get = |path: &str| {
        Request::get(path.to_owned())
            .header("cookie", &cookie)
            .body(Body::empty())
            .unwrap()
    };
    let (status, _, html) = send(&app, get("/console/ram/policies")).await;
    assert_eq!(status, axum::http::StatusCode::OK, "{html}");
    assert!(html.contains("data-ui-create=\"Create Policy\""), "the Policies page's Create Policy");
    let (status, _, html) = send(&app, get("/console/ram/policies/create/create-policy")).await;
    assert_eq!(status, axum::http::StatusCode::OK, "{html}");
    for label in ["Create Policy", "Visual Editor", "JSON Editor", "Policy Name", "Description"] {
        assert!(html.contains(label), "the Create Policy page shows {label}");
    }
    // The editors are tabs, the chosen one's value held for the fields it shows.
    assert!(
        html.contains(r#"role="tab" aria-selected="true" data-field-tab="visual">Visual Editor</button>"#)
            && html.contains(r#"role="tab" aria-selected="false" data-field-tab="json">JSON Editor</button>"#)
            && html.contains(r#"<input type="hidden" name="Editor" value="visual" data-not-sent>"#),
        "{html}"
    );
    assert!(!html.contains(r#"type="radio" name="Editor""#), "no radio buttons for the editors");
    // The Visual Editor's service is a statement the chosen effect completes: what the page sends.
    let spec = spec::product(ProfileId::Y2026, "ram").unwrap();
    let form = &spec.page("policies").unwrap().creates[0];
    let service = form.fields().find(|f| f.param == "Service").unwrap();
    let Some(spec::OptionSource::Static(options)) = service.kind.options() else {
        panic!("the services are listed")
    };
    let document = options[0].0.replace("{Effect}", "Allow");
    assert_eq!(
        form.compose,
        [("PolicyDocument".to_owned(), "{PolicyJson|Service}".to_owned())]
    );
    let body = serde_json::json!({"PolicyName": "read-all", "Description": "d", "PolicyDocument": document});
    let request = Request::post("/console/api/ram/CreatePolicy")
        .header("cookie", &cookie)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let (status, _, body) = send(&app, request).await;
    assert_eq!(status, axum::http::StatusCode::OK, "CreatePolicy: {body}");

    // The policy's Grants tab: Grant Permission sends the policy's name and type and calls the
    // attach operation of the principal type chosen.
    let (status, _, html) = send(&app, get("/console/ram/policies/read-all")).await;
    assert_eq!(status, axum::http::StatusCode::OK, "{html}");
    let panel = &html[html.find("id=\"grant-policy\"").expect("the Grant Permission panel")..];
    let panel = &panel[..panel.find("</form>").unwrap()];
    assert!(panel.contains("AttachPolicyTo{PrincipalKind}"), "{panel}");
    for sent in [r#"["PolicyName","read-all"]"#, r#"["PolicyType","Custom"]"#] {
        assert!(panel.contains(&esc(sent)), "the panel sends {sent}: {panel}");
    }
}

#[test]
fn section_actions_sit_in_the_first_section_with_the_row_they_act_on() {
    let html = render_page(ProfileId::Y2026, "kms", "keys");
    let details = &html[html.find("class=\"page-header\"").unwrap()..];
    let section = &details[details.find("class=\"card-title\"").unwrap()..];
    let section = &section[..section.find("</div></div>").unwrap()];
    assert!(section.contains(">Key Details<"), "{section}");
    for action in ["Enable Deletion Protection", "Disable Deletion Protection"] {
        assert!(
            section.contains(&format!("data-ui-action=\"{action}\" data-ui-placement=\"section\"")),
            "{action} in the Key Details section: {section}"
        );
    }
    assert!(section.contains("data-row-id=\"res-1\""), "{section}");
    // Not in the header's own buttons, only in the All Actions pane beside them.
    let header = &details[..details.find("class=\"all-actions-menu\"").unwrap()];
    assert!(!header.contains("Enable Deletion Protection"), "{header}");
}

#[test]
fn a_grouped_select_files_each_option_under_its_heading() {
    let html = render_page(ProfileId::Y2026, "cms", "alert-rules");
    let select = &html[html.find("data-ui-select=\"MetricName\"").expect("the Metric list")..];
    let options = &select[..select.find('>').unwrap()];
    assert!(
        options.contains(&esc(
            r#"["CPUUtilization","(ECS) CPU Utilization","Instance Dimension"]"#
        )),
        "{options}"
    );
}

#[test]
fn a_summary_section_above_the_tabs_holds_the_section_actions() {
    let html = render_page(ProfileId::Y2026, "ram", "users");
    let details = &html[html.find("class=\"page-header\"").unwrap()..];
    let summary_at = details
        .find("class=\"details-summary\" aria-label=\"Basic Information\"")
        .expect("the user's Basic Information section");
    let tabs_at = details.find("role=\"tablist\"").unwrap();
    assert!(summary_at < tabs_at, "the section comes before the tabs");
    let summary = &details[summary_at..tabs_at];
    assert!(
        summary.contains("data-ui-action=\"Modify Basic Information\" data-ui-placement=\"section\""),
        "{summary}"
    );
    assert!(
        summary.contains(">UID<") && summary.contains(">Display Name<"),
        "{summary}"
    );
    // No tab repeats it.
    let tabs = &details[tabs_at..details.find("role=\"tabpanel\"").unwrap()];
    assert!(!tabs.contains("Basic Information"), "{tabs}");
}

#[test]
fn a_page_form_whose_zones_follow_its_own_region_field_reloads_in_that_region() {
    let vpc = render_page(ProfileId::Y2026, "vpc", "vpcs");
    let form = &vpc[vpc.find("class=\"buy-form card\"").unwrap()..];
    let form = &form[..form.find('>').unwrap()];
    assert!(form.contains("data-region-reloads"), "{form}");
    // The OSS bucket form picks its region but lists nothing by region.
    let oss = render_page(ProfileId::Y2026, "oss", "buckets");
    assert!(!oss.contains("data-region-reloads"));
}

#[tokio::test]
async fn the_browsers_address_is_told_to_a_signed_in_browser_only() {
    let console = console();
    let creds = console.create_account("alice", None).unwrap();
    let app = crate::app(console.clone());
    let ask = |cookie: Option<&str>| {
        let mut request = Request::get("/console/client-ip");
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        request.body(Body::empty()).unwrap()
    };
    assert_eq!(send(&app, ask(None)).await.0, axum::http::StatusCode::UNAUTHORIZED);
    let cookie = logged_on(&app, &creds.login, &creds.password).await;
    let (status, _, body) = send(&app, ask(Some(&cookie))).await;
    assert_eq!(status, axum::http::StatusCode::OK, "{body}");
    // Without a socket (this in-process request) the console counts the browser as local.
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["ip"], "127.0.0.1");
}

#[test]
fn a_status_area_shows_its_switch_actions_as_switches() {
    let html = render_page(ProfileId::Y2026, "tair", "instances");
    let area = &html[html.find("aria-label=\"Instance Status\"").unwrap()..];
    let area = &area[..area.find("</a>").unwrap()];
    assert!(area.contains("role=\"switch\""), "{area}");
    assert!(area.contains("aria-checked=\"false\""), "{area}");
    assert!(area.contains("data-ui-action=\"Automatic renewal\""), "{area}");
}

#[tokio::test]
async fn create_trail_opens_the_quick_page_whose_header_opens_the_page_with_every_parameter() {
    let (_, app, cookie) = signed_in("alice").await;
    let list = page(&app, &cookie, "/console/actiontrail/trails?region=cn-hangzhou").await;
    let create_buttons: Vec<&str> = list.match_indices("data-ui-create=\"Create Trail\"").map(|(at, _)| &list[..at]).collect();
    assert_eq!(create_buttons.len(), 1, "one Create Trail button on the list");
    assert!(
        create_buttons[0].ends_with("href=\"/console/actiontrail/trails/create/quick-create-trail?region=cn-hangzhou\" "),
        "{}",
        &create_buttons[0][create_buttons[0].len().saturating_sub(200)..]
    );
    let quick = page(&app, &cookie, "/console/actiontrail/trails/create/quick-create-trail?region=cn-hangzhou").await;
    let header = &quick[quick.find("class=\"page-header\"").unwrap()..];
    let header = &header[..header.find("</div>").unwrap()];
    assert!(header.contains("<h1>Quickly Create Trail</h1>"), "{header}");
    assert!(
        header.contains("href=\"/console/actiontrail/trails/create/create-trail?region=cn-hangzhou\""),
        "{header}"
    );
    assert!(!quick.contains("name=\"TrailRegion\""), "the quick page leaves the region to the default");
    let full = page(&app, &cookie, "/console/actiontrail/trails/create/create-trail?region=cn-hangzhou").await;
    assert!(full.contains("<h1>Create Trail</h1>") && full.contains("name=\"TrailRegion\""), "{full}");
}

#[tokio::test]
async fn single_view_lists_show_the_tab_their_pages_name() {
    let (_, app, cookie) = signed_in("kemal").await;
    // create-key.md: "On the Keys page, click the Default Key tab"; create-secret.md: Generic Secrets.
    for (path, tab) in [
        ("/console/kms/keys?region=cn-hangzhou", "Default Key"),
        ("/console/kms/secrets?region=cn-hangzhou", "Generic Secrets"),
    ] {
        let request = Request::get(path).header("cookie", &cookie).body(Body::empty()).unwrap();
        let (status, _, html) = send(&app, request).await;
        assert_eq!(status, axum::http::StatusCode::OK, "{html}");
        assert!(
            html.contains(r#"role="tab" aria-selected="true""#)
                && html.contains(&format!(r#"data-ui-tab="{tab}">{tab}</a>"#)),
            "{path} shows the {tab} tab, chosen: {html}"
        );
    }
}
