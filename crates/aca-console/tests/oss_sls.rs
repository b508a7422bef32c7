//! OSS and Simple Log Service over real HTTP: signed REST requests against a running emulator, and the
//! ActionTrail events they leave.

use std::net::SocketAddr;
use std::sync::Arc;

use aca_console::{Console, ConsoleConfig, Credentials};
use base64::Engine as _;
use hmac::{Hmac, Mac};
use reqwest::{Method, StatusCode};

struct Emulator {
    console: Arc<Console>,
    base: String,
    http: reqwest::Client,
}

async fn start() -> Emulator {
    let console = Arc::new(Console::in_memory(ConsoleConfig::for_tests()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = aca_console::app(console.clone());
    tokio::spawn(async move {
        axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
            .await
            .unwrap();
    });
    Emulator {
        console,
        base: format!("http://{addr}"),
        http: reqwest::Client::new(),
    }
}

fn hmac_sha1_base64(secret: &str, data: &str) -> String {
    let mut mac = Hmac::<sha1::Sha1>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(data.as_bytes());
    base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())
}

fn now_http_date() -> String {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    aca_console::rest::oss::http_date(ms)
}

struct Reply {
    status: StatusCode,
    headers: reqwest::header::HeaderMap,
    body: Vec<u8>,
}

impl Reply {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }

    /// The text of the first `<tag>` of an XML body.
    fn xml(&self, tag: &str) -> Option<String> {
        let text = self.text();
        let start = text.find(&format!("<{tag}>"))? + tag.len() + 2;
        let end = text[start..].find(&format!("</{tag}>"))? + start;
        Some(text[start..end].to_owned())
    }

    fn header(&self, name: &str) -> &str {
        self.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
    }
}

impl Emulator {
    /// An OSS request signed with signature V1, path-style: `resource` is `/bucket/key?sub-resource`.
    #[allow(clippy::too_many_arguments)]
    async fn oss(
        &self,
        creds: &Credentials,
        method: Method,
        path: &str,
        sub_resource: &str,
        query: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Reply {
        let date = now_http_date();
        let content_type = headers
            .iter()
            .find(|(n, _)| *n == "Content-Type")
            .map_or("", |(_, v)| *v);
        let mut oss_headers: Vec<(String, String)> = headers
            .iter()
            .filter(|(n, _)| n.starts_with("x-oss-"))
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect();
        oss_headers.sort();
        let canonical: String = oss_headers.iter().map(|(n, v)| format!("{n}:{v}\n")).collect();
        let decoded_path = percent_encoding::percent_decode_str(path).decode_utf8().unwrap();
        let mut resource = if decoded_path == "/" || decoded_path.matches('/').count() > 1 {
            decoded_path.into_owned()
        } else {
            format!("{decoded_path}/")
        };
        if !sub_resource.is_empty() {
            resource = format!("{resource}?{sub_resource}");
        }
        let string_to_sign = format!("{}\n\n{content_type}\n{date}\n{canonical}{resource}", method.as_str());
        let signature = hmac_sha1_base64(&creds.access_key_secret, &string_to_sign);
        let mut url = format!("{}{path}", self.base);
        let query: Vec<&str> = [sub_resource, query].into_iter().filter(|q| !q.is_empty()).collect();
        if !query.is_empty() {
            url = format!("{url}?{}", query.join("&"));
        }
        let mut request = self
            .http
            .request(method, url)
            .header("Date", date)
            .header("Authorization", format!("OSS {}:{signature}", creds.access_key_id))
            .body(body.to_vec());
        for (n, v) in headers {
            request = request.header(*n, *v);
        }
        let response = request.send().await.unwrap();
        Reply {
            status: response.status(),
            headers: response.headers().clone(),
            body: response.bytes().await.unwrap().to_vec(),
        }
    }

    /// An SLS request signed with the LOG signature; `project` goes in the `Host` header.
    async fn sls(
        &self,
        creds: &Credentials,
        method: Method,
        project: Option<&str>,
        path: &str,
        query: &[(&str, &str)],
        body: Option<serde_json::Value>,
    ) -> Reply {
        let date = now_http_date();
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let content_type = if body.is_empty() { "" } else { "application/json" };
        let content_md5 = "";
        let log_headers = format!(
            "x-log-apiversion:0.6.0\nx-log-bodyrawsize:{}\nx-log-signaturemethod:hmac-sha1\n",
            body.len()
        );
        let mut sorted: Vec<(&str, &str)> = query.to_vec();
        sorted.sort();
        let mut resource = path.to_owned();
        if !sorted.is_empty() {
            resource.push('?');
            resource.push_str(
                &sorted
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join("&"),
            );
        }
        let string_to_sign = format!(
            "{}\n{content_md5}\n{content_type}\n{date}\n{log_headers}{resource}",
            method.as_str()
        );
        let signature = hmac_sha1_base64(&creds.access_key_secret, &string_to_sign);
        let host = self.base.trim_start_matches("http://");
        let host = match project {
            Some(p) => format!("{p}.{host}"),
            None => host.to_owned(),
        };
        let mut request = self
            .http
            .request(method, format!("{}{path}", self.base))
            .query(query)
            .header("Host", host)
            .header("Date", date)
            .header("x-log-apiversion", "0.6.0")
            .header("x-log-bodyrawsize", body.len().to_string())
            .header("x-log-signaturemethod", "hmac-sha1")
            .header("Authorization", format!("LOG {}:{signature}", creds.access_key_id));
        if !body.is_empty() {
            request = request.header("Content-Type", content_type).body(body);
        }
        let response = request.send().await.unwrap();
        Reply {
            status: response.status(),
            headers: response.headers().clone(),
            body: response.bytes().await.unwrap().to_vec(),
        }
    }

    /// (eventName, errorCode, eventSource) of the account's events, oldest first.
    fn events(&self, account_id: &str) -> Vec<(String, Option<String>, String)> {
        let shared = self.console.store.account(account_id).unwrap();
        let state = shared.lock();
        state
            .events
            .iter()
            .map(|e| {
                (
                    e.event.event_name.clone(),
                    e.event.error_code.clone(),
                    e.event.event_source.clone(),
                )
            })
            .collect()
    }
}

#[tokio::test]
async fn buckets_and_objects_round_trip() {
    let emu = start().await;
    let alice = emu.console.create_account("alice", None).unwrap();
    let none: &[(&str, &str)] = &[];

    let created = emu
        .oss(
            &alice,
            Method::PUT,
            "/photos-2026",
            "",
            "",
            &[("x-oss-acl", "public-read")],
            b"",
        )
        .await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.text());
    assert!(!created.header("x-oss-request-id").is_empty());

    let listed = emu.oss(&alice, Method::GET, "/", "", "", none, b"").await;
    assert_eq!(listed.status, StatusCode::OK);
    assert_eq!(listed.xml("Name").as_deref(), Some("photos-2026"));
    assert_eq!(listed.xml("Location").as_deref(), Some("oss-cn-hangzhou"));

    let info = emu
        .oss(&alice, Method::GET, "/photos-2026", "bucketInfo", "", none, b"")
        .await;
    assert_eq!(info.xml("Grant").as_deref(), Some("public-read"), "{}", info.text());

    let put = emu
        .oss(
            &alice,
            Method::PUT,
            "/photos-2026/2026/cat%20photo.txt",
            "",
            "",
            &[
                ("Content-Type", "text/plain"),
                ("x-oss-meta-owner", "alice"),
                ("x-oss-storage-class", "IA"),
                ("x-oss-server-side-encryption", "AES256"),
            ],
            b"meow",
        )
        .await;
    assert_eq!(put.status, StatusCode::OK, "{}", put.text());
    for (header, value, code) in [
        ("x-oss-storage-class", "Glacier", "InvalidStorageClass"),
        ("x-oss-server-side-encryption", "AES128", "InvalidArgument"),
    ] {
        let refused = emu
            .oss(&alice, Method::PUT, "/photos-2026/refused.txt", "", "", &[(header, value)], b"x")
            .await;
        assert_eq!(
            (refused.status, refused.xml("Code").as_deref()),
            (StatusCode::BAD_REQUEST, Some(code)),
            "{}",
            refused.text()
        );
    }
    // The ETag is the upper-case hex MD5 of the body (`printf meow | md5sum`).
    assert_eq!(put.header("etag"), "\"4A4BE40C96AC6314E91D93F38043A634\"");
    emu.oss(&alice, Method::PUT, "/photos-2026/readme.md", "", "", none, b"# photos")
        .await;

    let got = emu
        .oss(
            &alice,
            Method::GET,
            "/photos-2026/2026/cat%20photo.txt",
            "",
            "",
            none,
            b"",
        )
        .await;
    assert_eq!((got.status, got.body.as_slice()), (StatusCode::OK, &b"meow"[..]));
    assert_eq!(got.header("content-type"), "text/plain");
    assert_eq!(got.header("x-oss-meta-owner"), "alice");
    assert_eq!(got.header("x-oss-storage-class"), "IA");
    assert_eq!(got.header("x-oss-server-side-encryption"), "AES256");

    let head = emu
        .oss(
            &alice,
            Method::HEAD,
            "/photos-2026/2026/cat%20photo.txt",
            "",
            "",
            none,
            b"",
        )
        .await;
    assert_eq!((head.status, head.header("content-length")), (StatusCode::OK, "4"));

    let listed = emu
        .oss(&alice, Method::GET, "/photos-2026", "", "prefix=2026%2F", none, b"")
        .await;
    assert_eq!(
        listed.xml("Key").as_deref(),
        Some("2026/cat photo.txt"),
        "{}",
        listed.text()
    );
    assert!(!listed.text().contains("readme.md"));
    let paged = emu
        .oss(&alice, Method::GET, "/photos-2026", "", "max-keys=1", none, b"")
        .await;
    assert_eq!(paged.xml("IsTruncated").as_deref(), Some("true"));
    assert_eq!(paged.xml("NextMarker").as_deref(), Some("2026/cat photo.txt"));
    let rest = emu
        .oss(
            &alice,
            Method::GET,
            "/photos-2026",
            "",
            "marker=2026%2Fcat%20photo.txt",
            none,
            b"",
        )
        .await;
    assert_eq!(rest.xml("Key").as_deref(), Some("readme.md"));

    let busy = emu.oss(&alice, Method::DELETE, "/photos-2026", "", "", none, b"").await;
    assert_eq!(
        (busy.status, busy.xml("Code").as_deref()),
        (StatusCode::CONFLICT, Some("BucketNotEmpty"))
    );

    for key in ["/photos-2026/2026/cat%20photo.txt", "/photos-2026/readme.md"] {
        let deleted = emu.oss(&alice, Method::DELETE, key, "", "", none, b"").await;
        assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    }
    let gone = emu
        .oss(&alice, Method::GET, "/photos-2026/readme.md", "", "", none, b"")
        .await;
    assert_eq!(
        (gone.status, gone.xml("Code").as_deref()),
        (StatusCode::NOT_FOUND, Some("NoSuchKey"))
    );
    let deleted = emu.oss(&alice, Method::DELETE, "/photos-2026", "", "", none, b"").await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.text());
    let listed = emu.oss(&alice, Method::GET, "/", "", "", none, b"").await;
    assert_eq!(listed.xml("Name"), None);

    let events = emu.events(&alice.account_id);
    let names: Vec<&str> = events.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(&names[..3], ["PutBucket", "ListBuckets", "GetBucketInfo"]);
    assert!(names.contains(&"PutObject") && names.contains(&"GetObject") && names.contains(&"DeleteBucket"));
    let not_empty = events
        .iter()
        .find(|(n, e, _)| n == "DeleteBucket" && e.is_some())
        .unwrap();
    assert_eq!(
        (not_empty.1.as_deref(), not_empty.2.as_str()),
        (Some("BucketNotEmpty"), "oss-cn-hangzhou.aliyuncs.com")
    );
    let shared = emu.console.store.account(&alice.account_id).unwrap();
    let put_event = shared
        .lock()
        .events
        .iter()
        .find(|e| e.event.event_name == "PutObject")
        .unwrap()
        .event
        .clone();
    assert_eq!(put_event.service_name, "Oss");
    assert_eq!(put_event.referenced_resources["ACS::OSS::Bucket"], ["photos-2026"]);
    assert!(
        !serde_json::to_string(&put_event).unwrap().contains("bWVvdw"),
        "object bodies stay out of events"
    );
}

#[tokio::test]
async fn acl_and_lifecycle_round_trip() {
    let emu = start().await;
    let alice = emu.console.create_account("alice", None).unwrap();
    let none: &[(&str, &str)] = &[];
    emu.oss(
        &alice,
        Method::PUT,
        "/logs-archive",
        "",
        "",
        none,
        b"<CreateBucketConfiguration><StorageClass>IA</StorageClass></CreateBucketConfiguration>",
    )
    .await;

    let acl = emu
        .oss(&alice, Method::GET, "/logs-archive", "acl", "", none, b"")
        .await;
    assert_eq!(acl.xml("Grant").as_deref(), Some("private"));
    assert_eq!(acl.xml("ID").as_deref(), Some(alice.account_id.as_str()));
    let set = emu
        .oss(
            &alice,
            Method::PUT,
            "/logs-archive",
            "acl",
            "",
            &[("x-oss-acl", "public-read-write")],
            b"",
        )
        .await;
    assert_eq!(set.status, StatusCode::OK, "{}", set.text());
    let acl = emu
        .oss(&alice, Method::GET, "/logs-archive", "acl", "", none, b"")
        .await;
    assert_eq!(acl.xml("Grant").as_deref(), Some("public-read-write"));
    let bad = emu
        .oss(
            &alice,
            Method::PUT,
            "/logs-archive",
            "acl",
            "",
            &[("x-oss-acl", "everyone")],
            b"",
        )
        .await;
    assert_eq!(bad.xml("Code").as_deref(), Some("InvalidArgument"));

    let info = emu
        .oss(&alice, Method::GET, "/logs-archive", "bucketInfo", "", none, b"")
        .await;
    assert_eq!(info.xml("StorageClass").as_deref(), Some("IA"));

    emu.oss(&alice, Method::PUT, "/logs-archive/a.log", "", "", none, b"x")
        .await;
    let object_acl = emu
        .oss(&alice, Method::GET, "/logs-archive/a.log", "acl", "", none, b"")
        .await;
    assert_eq!(object_acl.xml("Grant").as_deref(), Some("default"));
    emu.oss(
        &alice,
        Method::PUT,
        "/logs-archive/a.log",
        "acl",
        "",
        &[("x-oss-object-acl", "private")],
        b"",
    )
    .await;
    let object_acl = emu
        .oss(&alice, Method::GET, "/logs-archive/a.log", "acl", "", none, b"")
        .await;
    assert_eq!(object_acl.xml("Grant").as_deref(), Some("private"));

    let missing = emu
        .oss(&alice, Method::GET, "/logs-archive", "lifecycle", "", none, b"")
        .await;
    assert_eq!(
        (missing.status, missing.xml("Code").as_deref()),
        (StatusCode::NOT_FOUND, Some("NoSuchLifecycle"))
    );
    let rules = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><LifecycleConfiguration><Rule><ID>expire-tmp</ID>\
                 <Prefix>tmp/</Prefix><Status>Enabled</Status><Expiration><Days>7</Days></Expiration></Rule>\
                 </LifecycleConfiguration>";
    let put = emu
        .oss(
            &alice,
            Method::PUT,
            "/logs-archive",
            "lifecycle",
            "",
            none,
            rules.as_bytes(),
        )
        .await;
    assert_eq!(put.status, StatusCode::OK, "{}", put.text());
    let got = emu
        .oss(&alice, Method::GET, "/logs-archive", "lifecycle", "", none, b"")
        .await;
    assert_eq!(got.xml("ID").as_deref(), Some("expire-tmp"));
    assert_eq!(got.xml("Prefix").as_deref(), Some("tmp/"));
    assert_eq!(got.xml("Days").as_deref(), Some("7"));
    let broken = emu
        .oss(
            &alice,
            Method::PUT,
            "/logs-archive",
            "lifecycle",
            "",
            none,
            b"<LifecycleConfiguration><Rule>",
        )
        .await;
    assert_eq!(broken.xml("Code").as_deref(), Some("MalformedXML"));
    let zero_days = rules.replace("<Days>7</Days>", "<Days>0</Days>");
    let invalid = emu
        .oss(
            &alice,
            Method::PUT,
            "/logs-archive",
            "lifecycle",
            "",
            none,
            zero_days.as_bytes(),
        )
        .await;
    assert_eq!(invalid.xml("Code").as_deref(), Some("InvalidArgument"));
    let deleted = emu
        .oss(&alice, Method::DELETE, "/logs-archive", "lifecycle", "", none, b"")
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    let missing = emu
        .oss(&alice, Method::GET, "/logs-archive", "lifecycle", "", none, b"")
        .await;
    assert_eq!(missing.xml("Code").as_deref(), Some("NoSuchLifecycle"));

    let events = emu.events(&alice.account_id);
    let lifecycle: Vec<(&str, Option<&str>)> = events
        .iter()
        .filter(|(n, _, _)| n.contains("Lifecycle"))
        .map(|(n, e, _)| (n.as_str(), e.as_deref()))
        .collect();
    assert_eq!(
        lifecycle,
        [
            ("GetBucketLifecycle", Some("NoSuchLifecycle")),
            ("PutBucketLifecycle", None),
            ("GetBucketLifecycle", None),
            ("PutBucketLifecycle", Some("MalformedXML")),
            ("PutBucketLifecycle", Some("InvalidArgument")),
            ("DeleteBucketLifecycle", None),
            ("GetBucketLifecycle", Some("NoSuchLifecycle")),
        ]
    );
}

#[tokio::test]
async fn bucket_names_are_global_and_checked() {
    let emu = start().await;
    let alice = emu.console.create_account("alice", None).unwrap();
    let bob = emu.console.create_account("bob", None).unwrap();
    let none: &[(&str, &str)] = &[];

    assert_eq!(
        emu.oss(&alice, Method::PUT, "/shared-name", "", "", none, b"")
            .await
            .status,
        StatusCode::OK
    );
    let taken = emu.oss(&bob, Method::PUT, "/shared-name", "", "", none, b"").await;
    assert_eq!(
        (taken.status, taken.xml("Code").as_deref()),
        (StatusCode::CONFLICT, Some("BucketAlreadyExists"))
    );
    assert_eq!(taken.xml("BucketName").as_deref(), Some("shared-name"));
    let again = emu.oss(&alice, Method::PUT, "/shared-name", "", "", none, b"").await;
    assert_eq!(again.xml("Code").as_deref(), Some("BucketAlreadyExists"));

    let foreign = emu.oss(&bob, Method::GET, "/shared-name", "", "", none, b"").await;
    assert_eq!(
        (foreign.status, foreign.xml("Code").as_deref()),
        (StatusCode::FORBIDDEN, Some("AccessDenied"))
    );
    let bob_list = emu.oss(&bob, Method::GET, "/", "", "", none, b"").await;
    assert_eq!(bob_list.xml("Name"), None, "bob does not see alice's bucket");

    let missing = emu
        .oss(&bob, Method::GET, "/no-such-bucket-here", "", "", none, b"")
        .await;
    assert_eq!(
        (missing.status, missing.xml("Code").as_deref()),
        (StatusCode::NOT_FOUND, Some("NoSuchBucket"))
    );
    assert_eq!(missing.xml("BucketName").as_deref(), Some("no-such-bucket-here"));
    assert!(!missing.xml("RequestId").unwrap_or_default().is_empty() && missing.xml("HostId").is_some());
    let invalid = emu.oss(&bob, Method::PUT, "/Bad_Name", "", "", none, b"").await;
    assert_eq!(
        (invalid.status, invalid.xml("Code").as_deref()),
        (StatusCode::BAD_REQUEST, Some("InvalidBucketName"))
    );

    let bob_events = emu.events(&bob.account_id);
    let codes: Vec<(&str, Option<&str>)> = bob_events.iter().map(|(n, e, _)| (n.as_str(), e.as_deref())).collect();
    assert_eq!(
        codes,
        [
            ("PutBucket", Some("BucketAlreadyExists")),
            ("ListObjects", Some("AccessDenied")),
            ("ListBuckets", None),
            ("ListObjects", Some("NoSuchBucket")),
            ("PutBucket", Some("InvalidBucketName")),
        ]
    );
}

#[tokio::test]
async fn bad_signatures_are_refused_and_audited() {
    let emu = start().await;
    let alice = emu.console.create_account("alice", None).unwrap();
    let mut forged = alice.clone();
    forged.access_key_secret = "not-the-secret".into();
    let refused = emu.oss(&forged, Method::PUT, "/forged-bucket", "", "", &[], b"").await;
    assert_eq!(
        (refused.status, refused.xml("Code").as_deref()),
        (StatusCode::FORBIDDEN, Some("SignatureDoesNotMatch"))
    );
    assert!(
        refused
            .xml("StringToSign")
            .is_some_and(|s| s.ends_with("/forged-bucket/")),
        "{}",
        refused.text()
    );
    let events = emu.events(&alice.account_id);
    assert_eq!(
        events,
        [(
            "PutBucket".to_owned(),
            Some("SignatureDoesNotMatch".to_owned()),
            "oss-cn-hangzhou.aliyuncs.com".to_owned()
        )]
    );

    let mut unknown = alice.clone();
    unknown.access_key_id = "LTAInotakeyatall0000000".into();
    let refused = emu.oss(&unknown, Method::GET, "/", "", "", &[], b"").await;
    assert_eq!(refused.xml("Code").as_deref(), Some("InvalidAccessKeyId"));

    let anonymous = emu
        .http
        .get(format!("{}/some-bucket/key", emu.base))
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), StatusCode::FORBIDDEN);
    assert!(anonymous.text().await.unwrap().contains("<Code>AccessDenied</Code>"));

    let sls = emu.sls(&forged, Method::GET, None, "/", &[], None).await;
    assert_eq!(
        (sls.status, sls.json()["errorCode"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("SignatureNotMatch"))
    );
    assert!(!sls.header("x-log-requestid").is_empty());
    assert_eq!(
        emu.events(&alice.account_id)
            .last()
            .map(|e| (e.0.as_str(), e.1.as_deref())),
        Some(("ListProject", Some("SignatureNotMatch")))
    );
}

#[tokio::test]
async fn rpc_still_answers_on_the_root_path() {
    let emu = start().await;
    let response = emu
        .http
        .get(format!(
            "{}/?Action=DescribeVpcs&Version=2016-04-28&Format=JSON",
            emu.base
        ))
        .send()
        .await
        .unwrap();
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(
        body["Code"], "MissingParameter",
        "an unsigned RPC call is an RPC error, not an OSS one: {body}"
    );
}

#[tokio::test]
async fn projects_and_logstores_round_trip() {
    let emu = start().await;
    let alice = emu.console.create_account("alice", None).unwrap();
    let bob = emu.console.create_account("bob", None).unwrap();

    let created = emu
        .sls(
            &alice,
            Method::POST,
            Some("app-logs"),
            "/",
            &[],
            Some(serde_json::json!({ "projectName": "app-logs", "description": "web tier" })),
        )
        .await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.text());
    let project = emu.sls(&alice, Method::GET, Some("app-logs"), "/", &[], None).await;
    assert_eq!(project.json()["description"], "web tier");
    assert_eq!(project.json()["region"], "cn-hangzhou");
    let listed = emu
        .sls(
            &alice,
            Method::GET,
            None,
            "/",
            &[("offset", "0"), ("size", "100")],
            None,
        )
        .await;
    assert_eq!(
        (
            listed.json()["total"].as_i64(),
            listed.json()["projects"][0]["projectName"].as_str()
        ),
        (Some(1), Some("app-logs"))
    );

    let taken = emu
        .sls(
            &bob,
            Method::POST,
            Some("app-logs"),
            "/",
            &[],
            Some(serde_json::json!({ "projectName": "app-logs", "description": "" })),
        )
        .await;
    assert_eq!(taken.json()["errorCode"], "ProjectAlreadyExist");

    let logstore = serde_json::json!({
        "logstoreName": "nginx_access", "ttl": 30, "shardCount": 2, "autoSplit": true, "maxSplitShard": 64,
    });
    let created = emu
        .sls(
            &alice,
            Method::POST,
            Some("app-logs"),
            "/logstores",
            &[],
            Some(logstore.clone()),
        )
        .await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.text());
    let again = emu
        .sls(
            &alice,
            Method::POST,
            Some("app-logs"),
            "/logstores",
            &[],
            Some(logstore),
        )
        .await;
    assert_eq!(again.json()["errorCode"], "LogstoreAlreadyExist");
    let bad_ttl = serde_json::json!({ "logstoreName": "too_long", "ttl": 4000, "shardCount": 2 });
    let bad = emu
        .sls(&alice, Method::POST, Some("app-logs"), "/logstores", &[], Some(bad_ttl))
        .await;
    assert_eq!(
        (bad.status, bad.json()["errorCode"].as_str()),
        (StatusCode::BAD_REQUEST, Some("ParameterInvalid"))
    );

    let got = emu
        .sls(
            &alice,
            Method::GET,
            Some("app-logs"),
            "/logstores/nginx_access",
            &[],
            None,
        )
        .await;
    assert_eq!(
        (got.json()["ttl"].as_i64(), got.json()["shardCount"].as_i64()),
        (Some(30), Some(2))
    );
    let updated = emu
        .sls(
            &alice,
            Method::PUT,
            Some("app-logs"),
            "/logstores/nginx_access",
            &[],
            Some(serde_json::json!({ "logstoreName": "nginx_access", "ttl": 90 })),
        )
        .await;
    assert_eq!(updated.status, StatusCode::OK, "{}", updated.text());
    let got = emu
        .sls(
            &alice,
            Method::GET,
            Some("app-logs"),
            "/logstores/nginx_access",
            &[],
            None,
        )
        .await;
    assert_eq!(got.json()["ttl"].as_i64(), Some(90));
    let listed = emu
        .sls(
            &alice,
            Method::GET,
            Some("app-logs"),
            "/logstores",
            &[("offset", "0"), ("size", "10")],
            None,
        )
        .await;
    assert_eq!(listed.json()["logstores"], serde_json::json!(["nginx_access"]));

    let deleted = emu
        .sls(
            &alice,
            Method::DELETE,
            Some("app-logs"),
            "/logstores/nginx_access",
            &[],
            None,
        )
        .await;
    assert_eq!(deleted.status, StatusCode::OK);
    let gone = emu
        .sls(
            &alice,
            Method::GET,
            Some("app-logs"),
            "/logstores/nginx_access",
            &[],
            None,
        )
        .await;
    assert_eq!(
        (gone.status, gone.json()["errorCode"].as_str()),
        (StatusCode::NOT_FOUND, Some("LogStoreNotExist"))
    );
    let deleted = emu.sls(&alice, Method::DELETE, Some("app-logs"), "/", &[], None).await;
    assert_eq!(deleted.status, StatusCode::OK);
    let gone = emu.sls(&alice, Method::GET, Some("app-logs"), "/", &[], None).await;
    assert_eq!(
        (gone.status, gone.json()["errorCode"].as_str()),
        (StatusCode::NOT_FOUND, Some("ProjectNotExist"))
    );
    let missing = emu
        .sls(&alice, Method::GET, Some("nowhere-project"), "/logstores", &[], None)
        .await;
    assert_eq!(missing.json()["errorCode"], "ProjectNotExist");

    let events = emu.events(&alice.account_id);
    let names: Vec<&str> = events.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(
        &names[..4],
        ["CreateProject", "GetProject", "ListProject", "CreateLogStore"]
    );
    assert!(
        events
            .iter()
            .all(|(_, _, source)| source == "cn-hangzhou.log.aliyuncs.com")
    );
    assert_eq!(
        emu.events(&bob.account_id),
        [(
            "CreateProject".to_owned(),
            Some("ProjectAlreadyExist".to_owned()),
            "cn-hangzhou.log.aliyuncs.com".to_owned()
        )]
    );
}

#[tokio::test]
async fn logstore_indexes_round_trip() {
    let emu = start().await;
    let alice = emu.console.create_account("alice", None).unwrap();
    let project = serde_json::json!({ "projectName": "index-logs", "description": "" });
    let created = emu.sls(&alice, Method::POST, Some("index-logs"), "/", &[], Some(project)).await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.text());
    let logstore = serde_json::json!({
        "logstoreName": "app", "ttl": 30, "shardCount": 2, "mode": "query", "meteringMode": "ChargeByDataIngest",
    });
    let refused = emu
        .sls(&alice, Method::POST, Some("index-logs"), "/logstores", &[], Some(logstore))
        .await;
    assert_eq!(refused.json()["errorCode"], "ParameterInvalid", "query Logstores are billed by feature");
    let logstore = serde_json::json!({
        "logstoreName": "app", "ttl": 30, "shardCount": 2, "mode": "standard", "meteringMode": "ChargeByDataIngest",
    });
    let created = emu
        .sls(&alice, Method::POST, Some("index-logs"), "/logstores", &[], Some(logstore))
        .await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.text());
    let got = emu
        .sls(&alice, Method::GET, Some("index-logs"), "/logstores/app", &[], None)
        .await;
    assert_eq!(
        (got.json()["mode"].as_str(), got.json()["meteringMode"].as_str()),
        (Some("standard"), Some("ChargeByDataIngest"))
    );

    let none = emu
        .sls(&alice, Method::GET, Some("index-logs"), "/logstores/app/index", &[], None)
        .await;
    assert_eq!(none.json()["errorCode"], "IndexConfigNotExist");
    let index = serde_json::json!({
        "line": { "token": [",", " ", "\n"], "caseSensitive": true, "chn": false },
        "log_reduce": true,
    });
    let created = emu
        .sls(&alice, Method::POST, Some("index-logs"), "/logstores/app/index", &[], Some(index.clone()))
        .await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.text());
    let again = emu
        .sls(&alice, Method::POST, Some("index-logs"), "/logstores/app/index", &[], Some(index))
        .await;
    assert_eq!(again.json()["errorCode"], "IndexAlreadyExist");
    let got = emu
        .sls(&alice, Method::GET, Some("index-logs"), "/logstores/app/index", &[], None)
        .await;
    assert_eq!(got.json()["line"]["token"], serde_json::json!([",", " ", "\n"]));
    assert_eq!(
        (got.json()["line"]["caseSensitive"].as_bool(), got.json()["log_reduce"].as_bool()),
        (Some(true), Some(true))
    );
    let updated = emu
        .sls(
            &alice,
            Method::PUT,
            Some("index-logs"),
            "/logstores/app/index",
            &[],
            Some(serde_json::json!({ "line": { "token": [";"] } })),
        )
        .await;
    assert_eq!(updated.status, StatusCode::OK, "{}", updated.text());
    let got = emu
        .sls(&alice, Method::GET, Some("index-logs"), "/logstores/app/index", &[], None)
        .await;
    assert_eq!(
        (got.json()["line"]["caseSensitive"].as_bool(), got.json()["log_reduce"].as_bool()),
        (Some(false), Some(false))
    );
    let empty = emu
        .sls(&alice, Method::PUT, Some("index-logs"), "/logstores/app/index", &[], Some(serde_json::json!({})))
        .await;
    assert_eq!(empty.json()["errorCode"], "ParameterInvalid");
    let deleted = emu
        .sls(&alice, Method::DELETE, Some("index-logs"), "/logstores/app/index", &[], None)
        .await;
    assert_eq!(deleted.status, StatusCode::OK);
    let gone = emu
        .sls(&alice, Method::PUT, Some("index-logs"), "/logstores/app/index", &[], Some(serde_json::json!({ "line": { "token": [";"] } })))
        .await;
    assert_eq!(gone.json()["errorCode"], "IndexConfigNotExist");

    let events = emu.events(&alice.account_id);
    let names: Vec<&str> = events.iter().map(|(n, _, _)| n.as_str()).collect();
    for name in ["CreateIndex", "GetIndex", "UpdateIndex", "DeleteIndex"] {
        assert!(names.contains(&name), "{names:?}");
    }
}

/// Runs one of the SDK scripts in `tests/sdk/` against a running emulator; fails with an install hint
/// when the SDK is missing.
async fn run_sdk_script(
    script: &str,
    module: &str,
    package: &str,
    endpoint: &str,
    creds: &Credentials,
    name: &str,
    proxy: Option<&str>,
) -> String {
    let probe = tokio::process::Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .await;
    match probe {
        Ok(out) if out.status.success() => {}
        _ => panic!(
            "the official Python SDK is not installed: run `pip install {package}` \
             (needs python3 with `import {module}`)"
        ),
    }
    let path = format!("{}/tests/sdk/{script}", env!("CARGO_MANIFEST_DIR"));
    let mut command = tokio::process::Command::new("python3");
    command.args([
        path.as_str(),
        endpoint,
        &creds.access_key_id,
        &creds.access_key_secret,
        name,
    ]);
    command.env_remove("NO_PROXY").env_remove("no_proxy");
    if let Some(proxy) = proxy {
        command.env("HTTP_PROXY", proxy).env("http_proxy", proxy);
    }
    let out = command.output().await.unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{script} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[tokio::test]
async fn the_official_oss_sdk_works_against_the_emulator() {
    let emu = start().await;
    let alice = emu.console.create_account("alice", None).unwrap();
    let stdout = run_sdk_script("oss_sdk.py", "oss2", "oss2", &emu.base, &alice, "sdk-bucket-01", None).await;
    assert!(
        stdout.contains("delete ok") && stdout.contains("website ok"),
        "{stdout}"
    );
    let names: Vec<String> = emu.events(&alice.account_id).into_iter().map(|(n, _, _)| n).collect();
    for expected in [
        "PutBucket",
        "ListBuckets",
        "PutObject",
        "GetObject",
        "HeadObject",
        "PutBucketLifecycle",
        "PutBucketVersioning",
        "GetBucketVersioning",
        "PutBucketWebsite",
        "GetBucketWebsite",
        "DeleteBucketWebsite",
        "DeleteBucket",
    ] {
        assert!(names.iter().any(|n| n == expected), "no {expected} event in {names:?}");
    }
}

#[tokio::test]
async fn the_official_sls_sdk_works_against_the_emulator() {
    let emu = start().await;
    let alice = emu.console.create_account("alice", None).unwrap();
    // The SLS SDK puts the project in the host name (`sdk-project-01.127.0.0.1:PORT`), which does not
    // resolve; with the emulator as its HTTP proxy the request still arrives, `Host` header intact.
    let endpoint = emu.base.trim_start_matches("http://").to_owned();
    let sls = run_sdk_script(
        "sls_sdk.py",
        "aliyun.log",
        "aliyun-log-python-sdk",
        &endpoint,
        &alice,
        "sdk-project-01",
        Some(&emu.base),
    );
    let stdout = sls.await;
    assert!(stdout.contains("delete ok"), "{stdout}");
    let names: Vec<String> = emu.events(&alice.account_id).into_iter().map(|(n, _, _)| n).collect();
    assert_eq!(names.first().map(String::as_str), Some("CreateProject"), "{names:?}");
    assert!(
        names.iter().any(|n| n == "CreateLogStore") && names.iter().any(|n| n == "DeleteProject"),
        "{names:?}"
    );
}

#[tokio::test]
async fn a_bucket_lives_in_the_region_its_endpoint_names() {
    let emu = start().await;
    let alice = emu.console.create_account("alice", None).unwrap();
    let shanghai = [("Host", "oss-cn-shanghai.aliyuncs.com")];
    let created = emu.oss(&alice, Method::PUT, "/sh-bucket", "", "", &shanghai, b"").await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.text());
    let location = emu
        .oss(&alice, Method::GET, "/sh-bucket", "location", "", &[], b"")
        .await;
    assert_eq!(location.xml("LocationConstraint").as_deref(), Some("oss-cn-shanghai"));
    let missing = emu
        .oss(&alice, Method::GET, "/sh-bucket/nothing", "", "", &[], b"")
        .await;
    assert_eq!(
        missing.xml("HostId").as_deref(),
        Some("sh-bucket.oss-cn-shanghai.aliyuncs.com")
    );

    let shared = emu.console.store.account(&alice.account_id).unwrap();
    let state = shared.lock();
    let sources: Vec<(&str, &str)> = state
        .events
        .iter()
        .map(|e| (e.event.event_source.as_str(), e.event.acs_region.as_str()))
        .collect();
    assert_eq!(sources, [("oss-cn-shanghai.aliyuncs.com", "cn-shanghai"); 3]);
}

#[tokio::test]
async fn presigned_urls_work_until_they_expire() {
    let emu = start().await;
    let alice = emu.console.create_account("alice", None).unwrap();
    emu.oss(&alice, Method::PUT, "/shared-files", "", "", &[], b"").await;
    emu.oss(
        &alice,
        Method::PUT,
        "/shared-files/report.csv",
        "",
        "",
        &[],
        b"a,b\n1,2\n",
    )
    .await;
    let now_s = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let presign = |expires: i64| {
        let signature = hmac_sha1_base64(
            &alice.access_key_secret,
            &format!("GET\n\n\n{expires}\n/shared-files/report.csv"),
        );
        let signature = percent_encoding::utf8_percent_encode(&signature, percent_encoding::NON_ALPHANUMERIC);
        format!(
            "{}/shared-files/report.csv?OSSAccessKeyId={}&Expires={expires}&Signature={signature}",
            emu.base, alice.access_key_id
        )
    };
    let fresh = emu.http.get(presign(now_s + 60)).send().await.unwrap();
    assert_eq!(fresh.status(), StatusCode::OK);
    assert_eq!(fresh.bytes().await.unwrap().as_ref(), b"a,b\n1,2\n");
    let expired = emu.http.get(presign(now_s - 60)).send().await.unwrap();
    assert_eq!(expired.status(), StatusCode::FORBIDDEN);
    assert!(
        expired
            .text()
            .await
            .unwrap()
            .contains("<Message>Request has expired.</Message>")
    );
    let events = emu.events(&alice.account_id);
    let last: Vec<(&str, Option<&str>)> = events[2..].iter().map(|(n, e, _)| (n.as_str(), e.as_deref())).collect();
    assert_eq!(last, [("GetObject", None), ("GetObject", Some("AccessDenied"))]);
}
