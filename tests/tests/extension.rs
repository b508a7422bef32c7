//! The browser extension, built by `scripts/build-extension`, loaded unpacked into headless Chromium:
//! its service worker starts under the fixed extension id and answers messages; its content script
//! (aca-dom in wasm) observes an emulator console page, and the text the side panel shows equals what
//! aca-dom's `observe_text` returns in the page's own context; step mode highlights, approves and runs
//! an action; **Verify this page** reads a documentation page and leases an account on the companion
//! server; the options page saves the server's URL and token and reports a wrong token clearly.
//! **Verify this page** on a corpus page runs the procedure in the console tab and the report shows
//! the verdict the audit log decides: pass with the matched event, or a defect at the step whose
//! label the console does not have, the same report `aca verify` writes for that page.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use aca_chat::fake::{FakeModel, FakeResponse};
use aca_console::ConsoleConfig;
use aca_e2e::Emulator;
use aca_e2e::page::{click, log_on, wait_for};
use anyhow::{Context, anyhow};
use axum::http::header;
use chromiumoxide::cdp::browser_protocol::target::GetTargetsParams;
use chromiumoxide::page::{Page, ScreenshotParams};
use chromiumoxide::{Browser, BrowserConfig};
use futures::StreamExt;
use serde_json::{Value, json};

/// Fixed by the public key in `manifest.json`.
const EXTENSION_ID: &str = "mbeagdenhcngildadfehcbhohdafkdkc";

/// A documentation page as the help site serves it.
const DOC_PAGE: &str = include_str!("../../crates/aca-docs/tests/pages/ecs-stop-instance.scraped.html");

/// The unpacked extension: `$ACA_EXTENSION_DIR`, else `web/extension` in the target directory this
/// test was built in. Fails with what to run when it is missing or older than `manifest.json`.
fn built_extension() -> PathBuf {
    let dir = std::env::var_os("ACA_EXTENSION_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_TARGET_TMPDIR"))
                .parent()
                .expect("CARGO_TARGET_TMPDIR lies in the target directory")
                .join("web/extension")
        });
    let built = std::fs::read_to_string(dir.join("manifest.json")).unwrap_or_else(|_| {
        panic!(
            "the extension is not built at {}: run scripts/build-extension (with the same CARGO_TARGET_DIR)",
            dir.display()
        )
    });
    let source = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../manifest.json")).unwrap();
    assert_eq!(
        built,
        source,
        "the extension at {} is stale (its manifest.json differs): run scripts/build-extension",
        dir.display()
    );
    for file in [
        "sw.js",
        "sidepanel.html",
        "options.html",
        "pkg/aca_extension_bg.wasm",
        "aca-dom/aca_dom.js",
    ] {
        assert!(
            dir.join(file).exists(),
            "{file} is missing from {}: run scripts/build-extension",
            dir.display()
        );
    }
    dir
}

/// Headless Chromium with the extension loaded unpacked and a throw-away profile.
struct ExtensionBrowser {
    browser: Browser,
    handler: tokio::task::JoinHandle<()>,
    _profile: tempfile::TempDir,
}

impl ExtensionBrowser {
    async fn launch(extension: &Path) -> anyhow::Result<Self> {
        let executable = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".to_owned());
        anyhow::ensure!(
            Path::new(&executable).exists(),
            "Chromium is not installed at {executable}: run scripts/setup (apt-get install chromium) or set CHROMIUM"
        );
        let profile = tempfile::tempdir()?;
        let extension = extension.display().to_string();
        let config = BrowserConfig::builder()
            .chrome_executable(&executable)
            .new_headless_mode()
            .no_sandbox()
            .user_data_dir(profile.path())
            .window_size(1440, 900)
            .viewport(None)
            .extension(&extension)
            .args([
                format!("--disable-extensions-except={extension}"),
                "--disable-gpu".into(),
                "--disable-quic".into(),
                "--no-first-run".into(),
                "--disable-background-networking".into(),
                "--disable-component-update".into(),
                "--disable-sync".into(),
            ])
            .build()
            .map_err(|e| anyhow!("browser config: {e}"))?;
        let (browser, mut events) = Browser::launch(config).await.context("launching Chromium")?;
        let handler = tokio::spawn(async move { while events.next().await.is_some() {} });
        Ok(Self {
            browser,
            handler,
            _profile: profile,
        })
    }

    async fn close(mut self) {
        let _ = self.browser.close().await;
        let _ = self.browser.wait().await;
        self.handler.abort();
    }

    async fn open(&self, url: &str) -> Page {
        self.browser.new_page(url).await.unwrap()
    }
}

fn extension_url(path: &str) -> String {
    format!("chrome-extension://{EXTENSION_ID}/{path}")
}

/// Evaluates `js` (awaiting a promise) and returns its JSON value.
async fn eval(page: &Page, js: &str) -> Value {
    page.evaluate_expression(js)
        .await
        .unwrap_or_else(|e| panic!("evaluating {js}: {e}"))
        .into_value::<Value>()
        .unwrap_or(Value::Null)
}

/// Polls `js` until it returns a value `accept` takes, or fails after `secs` seconds saying `what`.
async fn poll(page: &Page, js: &str, secs: u64, what: &str, accept: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(secs);
    let mut last = Value::Null;
    loop {
        if let Ok(result) = page.evaluate_expression(js).await {
            last = result.into_value::<Value>().unwrap_or(Value::Null);
            if accept(&last) {
                return last;
            }
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}; last value: {last}"
        );
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

/// The text of `selector` in an extension page once it is non-empty; on a timeout, the failure
/// names the errors the page shows.
async fn text_of(page: &Page, selector: &str, what: &str) -> String {
    let js = format!(
        "(() => {{ const text = document.querySelector({})?.textContent ?? ''; \
         return text.trim() ? text : null; }})()",
        json!(selector)
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(result) = page.evaluate_expression(js.as_str()).await
            && let Ok(text) = result.into_value::<String>()
        {
            return text;
        }
        if Instant::now() > deadline {
            let errors = eval(page, "[...document.querySelectorAll('.error')].map(e => e.textContent)").await;
            let state = ask(page, json!({"kind": "state"})).await;
            let verification = &state["run"]["verification"];
            panic!(
                "timed out waiting for {what} ({selector}); the page shows these errors: {errors}; \
                 the run's activity: {}; its report's summary and failure: {} / {}",
                verification["activity"], verification["report"]["summary"], verification["report"]["failure"]
            );
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

/// A request to the service worker from an extension page, and its reply.
async fn ask(page: &Page, request: Value) -> Value {
    eval(page, &format!("chrome.runtime.sendMessage({request})")).await
}

/// Sets an input's value as typing would (leptos listens to `input`).
async fn fill(page: &Page, selector: &str, value: &str) {
    let js = format!(
        "(() => {{ const el = document.querySelector({}); el.value = {}; \
         el.dispatchEvent(new Event('input', {{ bubbles: true }})); return true; }})()",
        json!(selector),
        json!(value)
    );
    assert_eq!(eval(page, &js).await, json!(true), "no {selector}");
}

/// The browser's id of the tab showing a URL that starts with `prefix`.
async fn tab_id(extension_page: &Page, prefix: &str) -> i64 {
    let js = format!(
        "chrome.tabs.query({{}}).then(tabs => (tabs.find(t => (t.url || '').startsWith({})) || {{}}).id ?? null)",
        json!(prefix)
    );
    poll(extension_page, &js, 10, &format!("a tab at {prefix}"), Value::is_number)
        .await
        .as_i64()
        .unwrap()
}

/// Whether CDP lists a service worker at `url`.
async fn service_worker_running(browser: &Browser, url: &str) -> bool {
    let targets = browser.execute(GetTargetsParams::default()).await.unwrap();
    targets
        .target_infos
        .iter()
        .any(|t| t.r#type == "service_worker" && t.url == url)
}

/// A file served with CORS, so that a page of another origin may fetch it.
fn cors_file(content_type: &'static str, body: Vec<u8>) -> axum::routing::MethodRouter {
    axum::routing::get(move || {
        let body = body.clone();
        async move {
            (
                [
                    (header::CONTENT_TYPE, content_type),
                    (header::ACCESS_CONTROL_ALLOW_ORIGIN, "*"),
                ],
                body,
            )
        }
    })
}

/// Serves the documentation page, and aca-dom's files for the console page's own context.
async fn serve_help_site(extension: &Path) -> (String, tokio::task::JoinHandle<()>) {
    let dom_wasm = std::fs::read(extension.join("aca-dom/aca_dom_bg.wasm")).unwrap();
    let app = axum::Router::new()
        .route(
            "/help/ecs-stop-instance.html",
            axum::routing::get(|| async { axum::response::Html(DOC_PAGE) }),
        )
        .route("/aca-dom/aca_dom_bg.wasm", cors_file("application/wasm", dom_wasm));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let server = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (url, server)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_extension_observes_verifies_and_steps_through_the_console() {
    let extension = built_extension();
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let base = emulator.url.clone();
    let (help, help_server) = serve_help_site(&extension).await;
    let chromium = ExtensionBrowser::launch(&extension).await.unwrap();

    // The service worker runs under the id the manifest's key fixes.
    let worker_url = extension_url("sw.js");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !service_worker_running(&chromium.browser, &worker_url).await {
        let targets = chromium.browser.execute(GetTargetsParams::default()).await.unwrap();
        let seen: Vec<_> = targets
            .target_infos
            .iter()
            .map(|t| format!("{} {}", t.r#type, t.url))
            .collect();
        assert!(
            Instant::now() < deadline,
            "no service worker at {worker_url}; targets: {seen:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // A console page, logged on, and the documentation page in tabs of their own.
    let console = chromium.open("about:blank").await;
    log_on(&console, &base, &emulator.account.login, &emulator.account.password).await;
    console
        .goto(format!("{base}/console/vpc/vpcs?region=cn-hangzhou"))
        .await
        .unwrap();
    wait_for(&console, "[data-ui-nav='Virtual Private Cloud > VPCs']").await;
    let doc = chromium.open(&format!("{help}/help/ecs-stop-instance.html")).await;

    // The service worker (wasm) answers a message.
    let options = chromium.open(&extension_url("options.html")).await;
    let pong = poll(
        &options,
        "chrome.runtime.sendMessage({kind: 'ping'})",
        10,
        "a pong",
        |v| v["kind"] == "pong",
    )
    .await;
    assert_eq!(pong["version"], env!("CARGO_PKG_VERSION"));
    let refused = ask(&options, json!({"kind": "launch"})).await;
    assert_eq!(refused["kind"], "error", "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .starts_with("not a request the service worker understands"),
        "{refused}"
    );
    let console_tab = tab_id(&options, &format!("{base}/console/vpc/vpcs")).await;
    let doc_tab = tab_id(&options, &format!("{help}/help/")).await;

    // Options: a wrong token is reported with the server's own words; the right one connects.
    wait_for(&options, "#server-url").await;
    fill(&options, "#server-url", &format!("{base}/")).await;
    fill(&options, "#token", "wrong").await;
    click(&options, "#save").await;
    let saved = text_of(&options, "#status", "the settings to be saved").await;
    assert_eq!(saved, format!("Saved: {base}"));
    click(&options, "#check").await;
    let refused = poll(
        &options,
        "document.querySelector('#status.error')?.textContent ?? ''",
        10,
        "the refused connection check",
        |v| v.as_str().is_some_and(|s| !s.is_empty()),
    )
    .await;
    let refused = refused.as_str().unwrap();
    assert!(
        refused.contains("HTTP 401") && refused.contains("InvalidToken"),
        "{refused}"
    );
    // A server that is not there is named as such.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    fill(&options, "#server-url", &format!("http://{closed}")).await;
    click(&options, "#check").await;
    poll(
        &options,
        "document.querySelector('#status.error')?.textContent ?? ''",
        10,
        "the unreachable server's error",
        |v| {
            v.as_str()
                .is_some_and(|s| s.starts_with(&format!("cannot reach the aca server at http://{closed}/v1/me")))
        },
    )
    .await;
    // The user's own token names them and the account the server assigns them.
    let token = emulator
        .companion
        .create_user("writer", vec![emulator.account.account_id.clone()])
        .unwrap();
    fill(&options, "#server-url", &base).await;
    fill(&options, "#token", &token).await;
    click(&options, "#check").await;
    let connected = poll(
        &options,
        "document.querySelector('#status.ok')?.textContent ?? ''",
        10,
        "the connection check",
        |v| v.as_str().is_some_and(|s| s.starts_with("connected")),
    )
    .await;
    assert_eq!(
        connected,
        json!(format!(
            "connected to {base} as writer: you verify in account {} ({})",
            emulator.account.account_id, emulator.account.login
        ))
    );

    // The side panel, opened as a tab for the console tab: its controls and the live observation.
    let panel = chromium
        .open(&extension_url(&format!("sidepanel.html?tab={console_tab}")))
        .await;
    wait_for(&panel, "button#verify").await;
    let shown = text_of(&panel, "#observation", "the console tab's observation").await;
    assert!(
        shown.contains("\"Create VPC\""),
        "the observation lacks Create VPC:\n{shown}"
    );

    // The text the extension shows is the text aca-dom gives in the page's own context.
    let observed = ask(&panel, json!({"kind": "observe"})).await;
    assert_eq!(observed["kind"], "observed", "{observed}");
    let in_extension = observed["observed"]["text"].as_str().unwrap().to_owned();
    let dom_js = std::fs::read_to_string(extension.join("aca-dom/aca_dom.js")).unwrap();
    console.evaluate_expression(dom_js.as_str()).await.unwrap();
    let in_page = eval(
        &console,
        &format!(
            "wasm_bindgen({{ module_or_path: {} }}).then(() => wasm_bindgen.observe_text('{{}}'))",
            json!(format!("{help}/aca-dom/aca_dom_bg.wasm"))
        ),
    )
    .await;
    assert_eq!(in_page.as_str(), Some(in_extension.as_str()));

    // Step mode: a click on Create VPC is proposed, highlighted with its reason, approved and run.
    let elements = observed["observed"]["observation"]["elements"].as_array().unwrap();
    let create = elements
        .iter()
        .find(|e| (e["role"] == "button" || e["role"] == "link") && e["name"] == "Create VPC")
        .unwrap_or_else(|| panic!("no Create VPC element in {in_extension}"));
    let index = create["index"].as_u64().unwrap();
    fill(
        &panel,
        "#action-json",
        &json!({"action": "click", "index": index}).to_string(),
    )
    .await;
    fill(&panel, "#reason", "Step 1 says: click Create VPC").await;
    click(&panel, "#propose").await;
    let pending = text_of(&panel, "#pending-action", "the proposal").await;
    assert_eq!(pending, format!("click({index})"));
    let target = text_of(&panel, "#pending-target", "the proposal's target").await;
    assert_eq!(
        target,
        format!("[{index}] {} \"Create VPC\"", create["role"].as_str().unwrap())
    );
    assert_eq!(
        text_of(&panel, "#pending-reason", "the reason").await,
        "Step 1 says: click Create VPC"
    );
    let marks = "document.getElementById('aca-dom-marks') !== null";
    assert_eq!(
        eval(&console, marks).await,
        json!(true),
        "the proposal is marked on the page"
    );
    assert_eq!(
        eval(&console, "[...document.getElementById('aca-dom-marks').children].map(m => m.textContent)").await,
        json!([index.to_string()]),
        "the proposal's element alone is outlined"
    );
    click(&panel, "#approve").await;
    let logged = text_of(&panel, "#step-log li", "the approved step in the log").await;
    assert!(logged.starts_with(&format!("click({index})")), "{logged}");
    assert!(
        logged.contains("\"outcome\":\"done\"") || logged.contains("\"outcome\":\"navigated\""),
        "{logged}"
    );
    poll(&console, "location.pathname", 10, "the Create VPC page", |v| {
        v == "/console/vpc/vpcs/create/create-vpc"
    })
    .await;
    // The panel follows the console tab to its new page.
    poll(
        &panel,
        "document.querySelector('#observation-summary')?.textContent ?? ''",
        10,
        "the observation of the Create VPC page",
        |v| v.as_str().is_some_and(|s| s.contains("/create/create-vpc")),
    )
    .await;

    assert_eq!(
        eval(&console, marks).await,
        json!(false),
        "the marks are gone once decided"
    );

    // Edit replaces a proposal before it runs; Skip and Take over run nothing.
    let observed = ask(&panel, json!({"kind": "observe"})).await;
    let textbox = observed["observed"]["observation"]["elements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["role"] == "textbox")
        .unwrap_or_else(|| panic!("no textbox on the Create VPC page: {}", observed["observed"]["text"]))["index"]
        .as_u64()
        .unwrap();
    let typing = |text: &str| json!({"action": "type", "index": textbox, "text": text}).to_string();
    fill(&panel, "#action-json", &typing("web-vpc")).await;
    fill(&panel, "#reason", "Enter a name").await;
    click(&panel, "#propose").await;
    wait_for(&panel, "#edit").await;
    click(&panel, "#edit").await;
    poll(
        &panel,
        "document.querySelector('#action-json').value",
        10,
        "the action to edit",
        |v| v.as_str().is_some_and(|s| s.contains("web-vpc")),
    )
    .await;
    // The edit form changes the text, and the person picks another field by clicking it on the
    // console tab: the click chooses the element and never reaches the page.
    let js = "(() => { const t = document.querySelector('#edit-text'); t.value = 'edited-vpc'; \
              t.dispatchEvent(new Event('change', { bubbles: true })); return true; })()";
    poll(&panel, js, 10, "the edit form's text", |v| v == &json!(true)).await;
    let other = observed["observed"]["observation"]["elements"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["role"] == "textbox" && e["index"].as_u64() != Some(textbox))
        .find(|e| e["rect"].is_object())
        .unwrap_or_else(|| panic!("no second textbox: {}", observed["observed"]["text"]))
        .clone();
    let picked_index = other["index"].as_u64().unwrap();
    click(&panel, "#pick").await;
    poll(&panel, "document.querySelector('#picked')?.textContent ?? ''", 10, "the pick to start", |v| {
        v.as_str().is_some_and(|s| s.starts_with("Click the element"))
    })
    .await;
    let marks_up = "document.getElementById('aca-dom-marks') !== null";
    poll(&console, marks_up, 10, "the marks to show for the pick", |v| v == &json!(true)).await;
    click_centre(&console, &other).await;
    let picked = text_of(&panel, "#picked", "the picked element").await;
    poll(&panel, "document.querySelector('#picked')?.textContent ?? ''", 10, "the picked element", |v| {
        v.as_str().is_some_and(|s| s.starts_with(&format!("Picked [{picked_index}] textbox")))
    })
    .await;
    assert_eq!(
        eval(&console, "document.activeElement?.tagName ?? ''").await,
        json!("BODY"),
        "the pick's click reached the page ({picked})"
    );
    click(&panel, "#propose").await;
    let textbox = picked_index;
    poll(
        &panel,
        "document.querySelector('#pending-action')?.textContent",
        10,
        "the edited proposal",
        |v| v == &json!(format!("type({textbox}, \"edited-vpc\")")),
    )
    .await;
    click(&panel, "#approve").await;
    poll(
        &console,
        "[...document.querySelectorAll('input')].some(i => i.value === 'edited-vpc')",
        10,
        "the edited text typed into the page",
        |v| v == &json!(true),
    )
    .await;
    for (button, logged) in [("#skip", "skipped"), ("#take-over", "taken over by hand")] {
        // The last decision's answer may still be on its way: Propose is disabled until then.
        poll(&panel, "!document.querySelector('#propose').disabled", 10, "Propose to be enabled", |v| {
            v == &json!(true)
        })
        .await;
        fill(
            &panel,
            "#action-json",
            &json!({"action": "hover", "index": textbox}).to_string(),
        )
        .await;
        click(&panel, "#propose").await;
        text_of(&panel, "#pending-action", "the hover proposal").await;
        click(&panel, button).await;
        poll(
            &panel,
            "document.querySelector('#step-log li:last-child')?.textContent",
            10,
            logged,
            |v| v.as_str().is_some_and(|s| s.ends_with(logged)),
        )
        .await;
    }
    let log = eval(
        &panel,
        "[...document.querySelectorAll('#step-log li')].map(li => li.textContent)",
    )
    .await;
    let log: Vec<String> = serde_json::from_value(log).unwrap();
    assert_eq!(log.len(), 5, "{log:?}");
    assert!(
        log[1].ends_with("edited") && log[2].contains("\"outcome\":\"done\""),
        "{log:?}"
    );

    // Verify this page: the documentation tab is read as a procedure.
    let choose_doc = format!(
        "(() => {{ const s = document.querySelector('#doc-tab'); s.value = '{doc_tab}'; \
         s.dispatchEvent(new Event('change', {{ bubbles: true }})); return s.value; }})()"
    );
    poll(&panel, &choose_doc, 10, "the documentation tab in the picker", |v| {
        v == &json!(doc_tab.to_string())
    })
    .await;
    click(&panel, "button#verify").await;
    let title = text_of(&panel, "#captured-title", "the captured page").await;
    let procedure = aca_docs::parse_html(DOC_PAGE).unwrap();
    assert_eq!(title, eval(&doc, "document.title").await.as_str().unwrap());
    let steps = procedure.steps.iter().flat_map(|s| s.flatten()).count();
    assert_eq!(
        text_of(&panel, "#step-count", "the step count").await,
        format!("{steps} step(s) in the procedure")
    );
    // It runs in the console tab signed in to the account the server assigns; no account is made.
    let account = text_of(&panel, "#account", "the account the run is in").await;
    assert!(
        account.contains(&emulator.account.account_id) && account.contains(&format!("{base}/console")),
        "{account}"
    );
    assert_eq!(
        emulator.console.account_summaries().len(),
        1,
        "Verify this page creates no account"
    );

    // For a person to look at: the panel after a verification and a stepped run.
    let shot = panel
        .screenshot(ScreenshotParams::builder().full_page(true).build())
        .await
        .unwrap();
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("extension-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    std::fs::write(shots.join("sidepanel.png"), shot).unwrap();
    let state = ask(&panel, json!({"kind": "state"})).await;
    // The run is in the writer's own console tab: Verify opened no tab of its own.
    assert_eq!(state["run"]["console_tab"].as_i64(), Some(console_tab), "{state}");

    help_server.abort();
    chromium.close().await;
}

/// The corpus page the verification runs: written for the console's default profile, needing no
/// resource made beforehand.
const CORPUS_PAGE: &str = include_str!("../corpus/vpc/create-vpc.md");
/// A page that deletes a vSwitch: it runs only once one exists.
const NEEDS_RESOURCES_PAGE: &str = include_str!("../corpus/vpc/delete-vswitch.md");

/// A Markdown page as a help site serves it: HTML with the page's title.
fn help_html(markdown: &str) -> String {
    let title = markdown
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .unwrap_or("Untitled")
        .to_owned();
    let mut body = String::new();
    let options = pulldown_cmark::Options::ENABLE_TABLES;
    pulldown_cmark::html::push_html(&mut body, pulldown_cmark::Parser::new_ext(markdown, options));
    format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{title}</title></head><body>{body}</body></html>"
    )
}

/// Serves `pages` (path → HTML) as a help site.
async fn serve_pages(pages: Vec<(&'static str, String)>) -> (String, tokio::task::JoinHandle<()>) {
    let mut app = axum::Router::new();
    for (path, html) in pages {
        app = app.route(
            path,
            axum::routing::get(move || {
                let html = html.clone();
                async move { axum::response::Html(html) }
            }),
        );
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let server = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (url, server)
}

/// Clicks `selector` from the page's own script: the panel tab may be in the background once the
/// run has opened the console tab, where a click through the input pipeline would wait for a frame.
async fn press(page: &Page, selector: &str) {
    wait_for(page, selector).await;
    let js = format!(
        "(() => {{ document.querySelector({}).click(); return true; }})()",
        json!(selector)
    );
    assert_eq!(eval(page, &js).await, json!(true));
}

/// Opens the page at `url` in a new tab, verifies it from the panel once Verify is enabled again,
/// and waits for the run's verdict; `watched`, the console tab, is the one its window shows while
/// the run works in it, as when a person watches it.
async fn verify_another(
    chromium: &ExtensionBrowser,
    panel: &Page,
    url: &str,
    watched: Option<&Page>,
) -> (String, Vec<String>) {
    let _doc = chromium.open(url).await;
    let tab = tab_id(panel, url.trim_end_matches(".html")).await;
    choose_doc_tab(panel, tab).await;
    poll(
        panel,
        "document.querySelector('button#verify')?.disabled === false",
        10,
        "Verify to be enabled again",
        |v| v == &json!(true),
    )
    .await;
    if let Some(console) = watched {
        console.bring_to_front().await.unwrap();
    }
    press(panel, "button#verify").await;
    poll(
        panel,
        "document.querySelector('#verification')?.dataset.phase ?? ''",
        20,
        &format!("the run of {url} to start"),
        |v| v != "finished" && v != "",
    )
    .await;
    verdict_after_progress(panel, 150).await
}

/// What two reports of the same page in the same console must share: the verdict, each step's
/// status, and each defect's step, kind and documented label.
type Comparable = (aca_core::Verdict, Vec<(String, String)>, Vec<(String, String, String)>);

fn comparable(report: &aca_core::Report) -> Comparable {
    let steps = report
        .steps
        .iter()
        .map(|s| (s.grade.step.clone(), format!("{:?}", s.grade.status)))
        .collect();
    let defects = report
        .defects
        .iter()
        .map(|d| (d.step.clone(), format!("{:?}", d.kind), d.documented.clone()))
        .collect();
    (report.verdict, steps, defects)
}

/// `aca verify URL` in `account` of the console at `base`, as a real account is verified: the person
/// logged on once in a browser profile, and the run has the account's AccessKey. Uses the `aca`
/// binary the workspace's tests build beside this one.
async fn cli_report(base: &str, account: &aca_console::Credentials, url: &str) -> aca_core::Report {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().unwrap();
    let aca = target.join("debug").join("aca");
    assert!(
        aca.exists(),
        "{} is missing: build it (cargo build --bin aca; scripts/test does)",
        aca.display()
    );
    let dir = tempfile::tempdir().unwrap();
    let keys = dir.path().join("ak.json");
    let pair = json!({"accessKeyId": account.access_key_id, "accessKeySecret": account.access_key_secret});
    aca_openapi::private_file::write(&keys, pair.to_string().as_bytes()).unwrap();
    let profile = dir.path().join("profile");
    let run = |args: Vec<String>| {
        let aca = aca.clone();
        async move { tokio::process::Command::new(aca).args(args).output().await.unwrap() }
    };
    let logged_on = run(vec![
        "observe".into(),
        format!("{base}/console"),
        "--login".into(),
        account.login.clone(),
        "--password".into(),
        account.password.clone(),
        "--user-data-dir".into(),
        profile.display().to_string(),
    ])
    .await;
    assert!(logged_on.status.success(), "{}", String::from_utf8_lossy(&logged_on.stderr));
    let out = dir.path().join("out");
    let verified = run(vec![
        "verify".into(),
        url.into(),
        "--console".into(),
        base.into(),
        "--endpoint-override".into(),
        base.into(),
        "--credentials".into(),
        keys.display().to_string(),
        "--account-id".into(),
        account.account_id.clone(),
        "--user-data-dir".into(),
        profile.display().to_string(),
        "--no-screenshots".into(),
        "--rule-deadline".into(),
        "3".into(),
        "--out".into(),
        out.display().to_string(),
    ])
    .await;
    assert_ne!(verified.status.code(), Some(2), "{}", String::from_utf8_lossy(&verified.stderr));
    let folder = std::fs::read_dir(&out)
        .unwrap()
        .filter_map(Result::ok)
        .find(|e| e.path().join("report.json").exists())
        .expect("aca verify wrote a report");
    serde_json::from_str(&std::fs::read_to_string(folder.path().join("report.json")).unwrap()).unwrap()
}

/// A full-page screenshot of the side panel as it stands, kept under the test's target folder as
/// `extension-screenshots/<name>.png` for a person to look at; it must hold a real picture.
async fn snap(panel: &Page, name: &str) {
    let shot = panel
        .screenshot(ScreenshotParams::builder().full_page(true).build())
        .await
        .unwrap();
    assert!(shot.len() > 10_000, "the screenshot of {name} is nearly empty");
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("extension-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    std::fs::write(shots.join(format!("sidepanel-{name}.png")), shot).unwrap();
}

/// Makes the documentation picker of the panel choose `tab` (focusing it reloads its tab list).
async fn choose_doc_tab(panel: &Page, tab: i64) {
    let js = format!(
        "(() => {{ const s = document.querySelector('#doc-tab'); s.dispatchEvent(new Event('focus')); s.value = '{tab}'; \
         s.dispatchEvent(new Event('change', {{ bubbles: true }})); return s.value; }})()"
    );
    poll(panel, &js, 10, "the documentation tab in the picker", |v| {
        v == &json!(tab.to_string())
    })
    .await;
}

/// Waits for the run's verdict, noting the progress lines the panel showed on the way; fails with
/// what the panel shows when no verdict comes within `secs`.
async fn verdict_after_progress(panel: &Page, secs: u64) -> (String, Vec<String>) {
    let js = "(() => ({ verdict: document.querySelector('#verdict')?.textContent ?? null, \
              step: document.querySelector('#progress-step')?.textContent ?? null, \
              thought: document.querySelector('#thought')?.textContent ?? null, \
              phase: document.querySelector('#phase')?.textContent ?? null, \
              live: [...document.querySelectorAll('#doc-steps li')].map(li => li.dataset.status).join(' '), \
              activity: [...document.querySelectorAll('#activity li')].map(li => li.textContent), \
              errors: [...document.querySelectorAll('.error')].map(e => e.textContent) }))()";
    let deadline = Instant::now() + Duration::from_secs(secs);
    let mut seen: Vec<String> = Vec::new();
    let mut last = Value::Null;
    loop {
        if let Ok(result) = panel.evaluate_expression(js).await {
            last = result.into_value::<Value>().unwrap_or(Value::Null);
            for key in ["step", "thought", "live"] {
                if let Some(text) = last[key].as_str()
                    && !seen.iter().any(|s| s == text)
                {
                    seen.push(text.to_owned());
                }
            }
            if let Some(verdict) = last["verdict"].as_str() {
                return (verdict.to_owned(), seen);
            }
        }
        assert!(
            Instant::now() < deadline,
            "no verdict within {secs} s; the panel shows {last}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verify_this_page_runs_the_procedure_and_the_audit_log_decides() {
    let extension = built_extension();
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let base = emulator.url.clone();
    // The same page, and a copy whose step 4 names a button the console does not have.
    let renamed = CORPUS_PAGE.replace("click **Create VPC**", "click **Create Network**");
    assert_ne!(renamed, CORPUS_PAGE);
    let (help, help_server) = serve_pages(vec![
        ("/help/vpc/create-vpc.html", help_html(CORPUS_PAGE)),
        ("/help/vpc/create-network.html", help_html(&renamed)),
        ("/help/vpc/delete-vswitch.html", help_html(NEEDS_RESOURCES_PAGE)),
    ])
    .await;
    let chromium = ExtensionBrowser::launch(&extension).await.unwrap();
    // The writer: an account of their own that the server assigns them, and a user token for the
    // extension (never the admin token).
    let writer = emulator.console.create_account("writer", None).unwrap();
    let token = emulator
        .companion
        .create_user("writer", vec![writer.account_id.clone()])
        .unwrap();
    // Verify this page refuses a console tab that is not signed in, and never logs on itself.
    let doc = chromium.open(&format!("{help}/help/vpc/create-vpc.html")).await;
    let panel = chromium.open(&extension_url("sidepanel.html")).await;
    let saved = save_settings(&panel, json!({"server_url": base, "token": token})).await;
    assert_eq!(saved["settings"]["server_url"], json!(base));
    let doc_tab = tab_id(&panel, &format!("{help}/help/vpc/create-vpc")).await;
    let title = eval(&doc, "document.title").await;
    wait_for(&panel, "button#verify").await;
    choose_doc_tab(&panel, doc_tab).await;
    press(&panel, "button#verify").await;
    let refused = text_of(
        &panel,
        "#verify-error",
        "the refusal of a console that is not signed in",
    )
    .await;
    assert!(
        refused.contains("no tab shows a signed-in Alibaba Cloud console"),
        "{refused}"
    );

    // The writer logs on in a tab of their own, typing the password as a person does; a console
    // tab signed in to an account the server does not assign them is refused as well.
    let console = chromium.open("about:blank").await;
    log_on(&console, &base, &emulator.account.login, &emulator.account.password).await;
    wait_for(&console, ".product-card").await;
    choose_doc_tab(&panel, doc_tab).await;
    press(&panel, "button#verify").await;
    let refused = text_of(&panel, "#verify-error", "the refusal of another account's console").await;
    assert!(
        refused.contains(&format!("signed in to account {}", emulator.account.account_id))
            && refused.contains(&writer.account_id),
        "{refused}"
    );
    console
        .evaluate_expression("fetch('/logout', {method: 'POST'})")
        .await
        .unwrap();
    log_on(&console, &base, &writer.login, &writer.password).await;
    wait_for(&console, ".product-card").await;

    // Verify this page: the run opens the VPC console in the writer's tab, runs the steps, and the
    // server's reward service reads ActionTrail.
    choose_doc_tab(&panel, doc_tab).await;
    press(&panel, "button#verify").await;
    let rule = text_of(&panel, "#rule", "the success rule the run is judged by").await;
    assert!(
        rule.contains("inferred from the page") && rule.contains("CreateVpc"),
        "{rule}"
    );
    let (verdict, progress) = verdict_after_progress(&panel, 120).await;
    let summary = text_of(&panel, "#summary", "the report's summary").await;
    assert_eq!(verdict, "pass", "{summary}");
    assert!(
        progress.iter().any(|p| p.starts_with("Step ") && p.contains(" of ")),
        "the panel showed no step N of M while running: {progress:?}"
    );
    assert!(
        progress.iter().any(|p| p.starts_with("Thought:")),
        "the panel showed no Thought while running: {progress:?}"
    );
    let events = eval(
        &panel,
        "[...document.querySelectorAll('#matched-events li')].map(li => li.textContent)",
    )
    .await;
    let events: Vec<String> = serde_json::from_value(events).unwrap();
    assert!(
        events.iter().any(|e| e.starts_with("CreateVpc on Vpc (ApiCall)")),
        "{events:?}"
    );
    let statuses = eval(
        &panel,
        "[...document.querySelectorAll('#report-steps tr td.status')].map(td => td.textContent)",
    )
    .await;
    let statuses: Vec<String> = serde_json::from_value(statuses).unwrap();
    let steps = aca_docs::parse_markdown(CORPUS_PAGE)
        .unwrap()
        .steps
        .iter()
        .flat_map(|s| s.flatten())
        .count();
    assert_eq!(statuses.len(), steps, "{statuses:?}");
    assert!(statuses.iter().all(|s| s == "PASS"), "{statuses:?}");
    // The page's steps were listed with where each stood: some running while others waited, and
    // every one PASS at the end; the elapsed time is the report's.
    assert!(
        progress.iter().any(|p| p.contains("running") && p.contains("waiting")),
        "the step list never showed a step running: {progress:?}"
    );
    let listed = eval(&panel, "[...document.querySelectorAll('#doc-steps li')].map(li => li.dataset.status)").await;
    let listed: Vec<String> = serde_json::from_value(listed).unwrap();
    assert_eq!(listed.len(), steps, "{listed:?}");
    assert!(listed.iter().all(|s| s == "PASS"), "{listed:?}");
    let elapsed = text_of(&panel, "#elapsed", "the run's elapsed time").await;
    assert!(elapsed.starts_with("Elapsed 0:"), "{elapsed}");
    snap(&panel, "finished-pass").await;
    assert!(
        text_of(&panel, "#rule-origin", "where the rule came from")
            .await
            .starts_with("Inferred from the page"),
    );

    // The download is report.json in the CLI's format, the same report the service worker holds.
    let href = eval(&panel, "document.querySelector('#download').getAttribute('href')").await;
    let href = href.as_str().unwrap();
    let json = href
        .strip_prefix("data:application/json;charset=utf-8,")
        .unwrap_or_else(|| panic!("not a JSON download: {}", &href[..60.min(href.len())]));
    let decoded = eval(&panel, &format!("decodeURIComponent({})", json!(json))).await;
    let downloaded: aca_core::Report = serde_json::from_str(decoded.as_str().unwrap()).unwrap();
    assert_eq!(downloaded.verdict, aca_core::Verdict::Pass);
    assert_eq!(json!(downloaded.title), title);
    assert_eq!(downloaded.page, format!("{help}/help/vpc/create-vpc.html"));
    assert_eq!(downloaded.console.url, format!("{base}/console"));
    assert_eq!(downloaded.console.account.as_deref(), Some(writer.login.as_str()));
    assert_eq!(downloaded.console.region, "cn-hangzhou");
    let rule = downloaded.rule.as_ref().unwrap();
    assert!(rule.rule.inferred && rule.explanation.is_some() && rule.matched == Some(true));
    let state = ask(&panel, json!({"kind": "state"})).await;
    let held: aca_core::Report = serde_json::from_value(state["run"]["verification"]["report"].clone()).unwrap();
    assert_eq!(held, downloaded);
    // The audit log's event is the writer's account's own, and it ran in the writer's tab.
    assert_eq!(state["run"]["account"]["account_id"], json!(writer.account_id));
    let matched = &rule.matched_events[0];
    assert_eq!(
        (matched.event_name.as_str(), matched.service_name.as_str()),
        ("CreateVpc", "Vpc")
    );
    let console_tab = tab_id(&panel, &format!("{base}/console")).await;
    assert_eq!(state["run"]["console_tab"], json!(console_tab));
    // Nothing the extension keeps holds an AccessKey, a password or the admin token.
    let kept = eval(
        &panel,
        "Promise.all([chrome.storage.local.get(null), chrome.storage.session.get(null)]).then(JSON.stringify)",
    )
    .await;
    let kept = format!("{kept} {state}");
    for secret in [
        writer.access_key_id.as_str(),
        writer.access_key_secret.as_str(),
        writer.password.as_str(),
        emulator.account.access_key_secret.as_str(),
        "test-admin",
    ] {
        assert!(
            !kept.contains(secret),
            "the extension keeps a secret ({secret}): {kept}"
        );
    }

    // A page whose button the console does not have ends with a defect at that step, not a hang.
    let (verdict, _) = verify_another(&chromium, &panel, &format!("{help}/help/vpc/create-network.html"), None).await;
    let summary = text_of(&panel, "#summary", "the report's summary").await;
    assert_eq!(verdict, "doc_defect", "{summary}");
    let defects = eval(
        &panel,
        "[...document.querySelectorAll('#defects li')].map(li => ({step: li.dataset.step, text: li.textContent}))",
    )
    .await;
    let defects = defects.as_array().unwrap();
    assert!(
        defects
            .iter()
            .any(|d| d["step"] == "4" && d["text"].as_str().unwrap().contains("the page says \"Create Network\"")),
        "{defects:?}"
    );
    let statuses = eval(
        &panel,
        "Object.fromEntries([...document.querySelectorAll('#report-steps tr')].map(tr => [tr.dataset.step, tr.querySelector('td.status').textContent]))",
    )
    .await;
    assert_eq!(statuses["4"], "FAIL", "{statuses}");
    assert_eq!(statuses["3"], "PASS", "{statuses}");
    let order = eval(
        &panel,
        "[...document.querySelectorAll('#report h3')].map(h => h.textContent)",
    )
    .await;
    assert_eq!(order[0], "Defects", "the report leads with its defects: {order}");
    snap(&panel, "finished-defect").await;

    // The same page verified by `aca verify` in the same account, as a real account is (a profile
    // the writer logged on in, the account's AccessKey), gives the same report: the same steps, the
    // same verdict, the same defects, built by the same code.
    let state = ask(&panel, json!({"kind": "state"})).await;
    let in_extension: aca_core::Report =
        serde_json::from_value(state["run"]["verification"]["report"].clone()).unwrap();
    let in_cli = cli_report(&base, &writer, &format!("{help}/help/vpc/create-network.html")).await;
    assert_eq!(comparable(&in_cli), comparable(&in_extension), "{in_cli:#?}");

    // A page that acts on a vSwitch: the server's provisioner writes and creates what it needs in the
    // writer's account before the episode, and destroys what is left after it, its own RAM user too;
    // what the writer's account held before (the VPC the first page made) stays.
    let held = emulator.console.snapshot_account(&writer.account_id).unwrap().resources;
    let (verdict, _) = verify_another(&chromium, &panel, &format!("{help}/help/vpc/delete-vswitch.html"), None).await;
    let state = ask(&panel, json!({"kind": "state"})).await;
    let report: aca_core::Report = serde_json::from_value(state["run"]["verification"]["report"].clone()).unwrap();
    assert_eq!(verdict, "pass", "{report:#?}");
    let resources = report.resources.as_deref().unwrap_or_default();
    assert!(resources.contains("alicloud_vswitch"), "{resources}");
    assert!(report.failure.is_none(), "{:?}", report.failure);
    let left = emulator.console.snapshot_account(&writer.account_id).unwrap().resources;
    assert_eq!(
        left, held,
        "the run's resources and the provisioner's user are gone, the account's own stay"
    );

    snap(&panel, "finished-after-provisioning").await;

    // Step mode: each action the agent proposes waits with its Thought; approve, edit, skip and take
    // over apply to it, and Stop ends the run with a report that says nothing was verified.
    choose_doc_tab(&panel, doc_tab).await;
    set_step_mode(&panel, true).await;
    press(&panel, "button#verify").await;
    let log_len = "document.querySelectorAll('#step-log li').length";
    let last_logged = "document.querySelector('#step-log li:last-child')?.textContent ?? ''";
    let proposal = text_of(&panel, "#pending-action", "the agent's first proposal").await;
    let reason = text_of(&panel, "#pending-reason", "the proposal's Thought").await;
    assert!(!reason.trim().is_empty(), "{proposal} comes with no reason");
    // The proposal in words, naming its element as the page shows it; the steps around it.
    let words = text_of(&panel, "#pending-words", "the proposal in words").await;
    assert!(
        ["Click ", "Type ", "Choose ", "Point at ", "Press ", "Scroll ", "Open "]
            .iter()
            .any(|verb| words.starts_with(verb))
            && !words.contains("index"),
        "{words}"
    );
    let live = eval(&panel, "[...document.querySelectorAll('#doc-steps li')].map(li => li.dataset.status)").await;
    let live: Vec<String> = serde_json::from_value(live).unwrap();
    assert!(live.iter().any(|s| s == "running"), "{live:?}");
    snap(&panel, "step-mode-proposal").await;
    press(&panel, "#approve").await;
    poll(&panel, log_len, 20, "the approved action in the log", |v| {
        v == &json!(1)
    })
    .await;
    let ran = eval(&panel, last_logged).await;
    let ran = ran.as_str().unwrap();
    assert!(ran.starts_with(&proposal) && ran.contains("\"outcome\":"), "{ran}");
    // Edit: the proposal is replaced (here by itself) and waits again.
    let pending = text_of(&panel, "#pending-action", "the second proposal").await;
    press(&panel, "#edit").await;
    poll(
        &panel,
        "document.querySelector('#action-json').value",
        10,
        "the action to edit",
        |v| v.as_str().is_some_and(|s| s.contains("\"action\"")),
    )
    .await;
    press(&panel, "#propose").await;
    poll(&panel, last_logged, 20, "the edited proposal in the log", |v| {
        v.as_str().is_some_and(|s| s.ends_with("edited"))
    })
    .await;
    assert_eq!(text_of(&panel, "#pending-action", "the edited proposal").await, pending);
    press(&panel, "#approve").await;
    poll(&panel, log_len, 20, "the edited action run", |v| v == &json!(3)).await;
    text_of(&panel, "#pending-action", "the next proposal").await;
    press(&panel, "#skip").await;
    poll(&panel, last_logged, 20, "the skipped proposal", |v| {
        v.as_str().is_some_and(|s| s.ends_with("skipped"))
    })
    .await;
    // Take over: the run waits for the page to be handed back.
    text_of(&panel, "#pending-action", "a proposal to take over").await;
    press(&panel, "#take-over").await;
    let phase = "document.querySelector('#verification')?.dataset.phase ?? ''";
    poll(&panel, phase, 20, "the run to wait for the person", |v| {
        v == "taken_over"
    })
    .await;
    snap(&panel, "taken-over").await;
    // The person clicks a control of the console tab (trusted input); the report names it.
    let state = ask(&panel, json!({"kind": "state"})).await;
    let control = state["run"]["observed"]["observation"]["elements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["role"] == "link" && e["rect"].is_object() && !e["name"].as_str().unwrap_or_default().is_empty())
        .unwrap_or_else(|| panic!("no link to click: {}", state["run"]["observed"]["text"]))
        .clone();
    click_centre(&console, &control).await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    press(&panel, "#hand-back").await;
    poll(&panel, phase, 20, "the run to go on", |v| v == "running").await;
    text_of(&panel, "#pending-action", "a proposal after the hand-back").await;
    press(&panel, "#stop").await;
    let (verdict, _) = verdict_after_progress(&panel, 30).await;
    assert_eq!(verdict, "unverified");
    let summary = text_of(&panel, "#summary", "the stopped run's summary").await;
    assert!(
        summary.starts_with("Nothing was verified: the run was stopped by the person"),
        "{summary}"
    );
    // The report keeps what the person decided, as the panel's log showed it.
    let state = ask(&panel, json!({"kind": "state"})).await;
    let stepped: aca_core::Report = serde_json::from_value(state["run"]["verification"]["report"].clone()).unwrap();
    let decided: Vec<String> = stepped.decisions.iter().map(|d| d.decision.in_words()).collect();
    for kind in ["edited", "skipped", "taken over by hand"] {
        assert!(decided.iter().any(|d| d.starts_with(kind)), "no {kind} in {decided:?}");
    }
    let clicked = format!("taken over by hand: clicked link \"{}\"", control["name"].as_str().unwrap());
    assert!(decided.iter().any(|d| d.starts_with(&clicked)), "no {clicked:?} in {decided:?}");

    // With a model endpoint in the options, the LLM policy asks it through fetch: a malformed reply
    // is retried, and the model's own verdict ends the episode.
    let model = FakeModel::start([
        FakeResponse::Reply("I would rather not say.".into()),
        FakeResponse::Reply(
            "Thought: The VPCs page is open.\nNext: give up.\n\
             Action: task_unachievable(\"the model was told to stop here\")"
                .into(),
        ),
    ])
    .await
    .unwrap();
    let saved = ask(
        &panel,
        json!({"kind": "save_settings", "settings": {"server_url": base, "token": token,
            "model_url": model.base_url, "model": "fake-model"}}),
    )
    .await;
    assert_eq!(saved["settings"]["model"], "fake-model", "{saved}");
    set_step_mode(&panel, false).await;
    choose_doc_tab(&panel, doc_tab).await;
    press(&panel, "button#verify").await;
    poll(&panel, phase, 20, "the model's run to start", |v| {
        v != "finished" && v != ""
    })
    .await;
    verdict_after_progress(&panel, 60).await;
    let state = ask(&panel, json!({"kind": "state"})).await;
    let report: aca_core::Report = serde_json::from_value(state["run"]["verification"]["report"].clone()).unwrap();
    assert_eq!(report.policy, "llm:fake-model");
    assert_eq!(report.usage.calls, 2, "{:?}", report.usage);
    assert_eq!(
        report.failure.as_deref(),
        Some("unachievable: the model was told to stop here")
    );
    let requests = model.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0]["model"], "fake-model");
    let prompt = requests[0]["messages"].to_string();
    assert!(
        prompt.contains("Create VPC"),
        "the model was not shown the console tab: {prompt}"
    );
    help_server.abort();
    chromium.close().await;
}

/// The built extension as a person has it after ticking the options page's screenshot box and
/// allowing the capture of tabs: the manifest's grant stands in for the browser's prompt, which a
/// headless browser cannot show anyone.
fn extension_allowed_to_capture(extension: &Path, into: &Path) -> PathBuf {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let target = to.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                copy(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), target).unwrap();
            }
        }
    }
    let dir = into.join("extension");
    copy(extension, &dir);
    let path = dir.join("manifest.json");
    let mut manifest: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    manifest["host_permissions"].as_array_mut().unwrap().push(json!("<all_urls>"));
    std::fs::write(&path, manifest.to_string()).unwrap();
    dir
}

/// What [`verify_with_screenshots`] saw: the model's run, and the scripted run of a page whose
/// step names a button the console words otherwise.
struct ScreenshotRuns {
    model_run: aca_core::Report,
    activity: Vec<String>,
    defect_run: aca_core::Report,
    /// The screenshots the panel keeps for the defects' report, as the service worker holds them.
    kept: Value,
    /// The `src` of each screenshot the panel's report shows.
    shown: Vec<String>,
}

/// In `extension`, verifies the corpus page with the LLM policy over `model` (screenshots asked for
/// in the options), then, with the scripted policy, a copy whose step 7 names its button as the
/// console's other release does; the person watches the console tab throughout.
async fn verify_with_screenshots(extension: &Path, model: &FakeModel) -> ScreenshotRuns {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let base = emulator.url.clone();
    // The page as the console's other release words its last button.
    let renamed = CORPUS_PAGE.replace("7. Click **OK**.", "7. Click **Confirm**.");
    assert_ne!(renamed, CORPUS_PAGE);
    let (help, help_server) = serve_pages(vec![
        ("/help/vpc/create-vpc.html", help_html(CORPUS_PAGE)),
        ("/help/vpc/create-vpc-confirm.html", help_html(&renamed)),
    ])
    .await;
    let chromium = ExtensionBrowser::launch(extension).await.unwrap();
    let writer = emulator.console.create_account("writer", None).unwrap();
    let token = emulator
        .companion
        .create_user("writer", vec![writer.account_id.clone()])
        .unwrap();
    let panel = chromium.open(&extension_url("sidepanel.html")).await;
    let saved = save_settings(&panel, json!({"server_url": base, "token": token, "model_url": model.base_url,
        "model": "qwen3-vl", "model_screenshots": true}))
    .await;
    assert_eq!(saved["settings"]["model_screenshots"], true, "{saved}");
    let console = chromium.open("about:blank").await;
    log_on(&console, &base, &writer.login, &writer.password).await;
    wait_for(&console, ".product-card").await;
    let verify = |page: &'static str| {
        let (chromium, panel, console, help) = (&chromium, &panel, &console, &help);
        async move {
            let url = format!("{help}/help/vpc/{page}.html");
            verify_another(chromium, panel, &url, Some(console)).await;
            ask(panel, json!({"kind": "state"})).await["run"]["verification"].clone()
        }
    };
    let verification = verify("create-vpc").await;
    let model_run: aca_core::Report = serde_json::from_value(verification["report"].clone()).unwrap();
    let activity: Vec<String> = serde_json::from_value(verification["activity"].clone()).unwrap_or_default();
    save_settings(&panel, json!({"server_url": base, "token": token})).await;
    let verification = verify("create-vpc-confirm").await;
    let defect_run: aca_core::Report = serde_json::from_value(verification["report"].clone()).unwrap();
    let shown = eval(&panel, "[...document.querySelectorAll('#defects img.defect-shot')].map(i => i.src)").await;
    let shown: Vec<String> = serde_json::from_value(shown).unwrap();
    help_server.abort();
    chromium.close().await;
    ScreenshotRuns {
        model_run,
        activity,
        defect_run,
        kept: verification["shots"].clone(),
        shown,
    }
}

/// The width and height of a PNG `data:` URL.
fn png_size(url: &str) -> (u32, u32) {
    use base64::Engine;
    let data = url.strip_prefix("data:image/png;base64,").expect("a PNG data URL");
    let png = base64::engine::general_purpose::STANDARD.decode(data).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
    (
        u32::from_be_bytes([png[16], png[17], png[18], png[19]]),
        u32::from_be_bytes([png[20], png[21], png[22], png[23]]),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_that_takes_images_sees_the_console_tab_once_the_person_allows_captures() {
    let gives_up = || {
        FakeResponse::Reply(
            "Thought: The console is open.\nNext: stop.\nAction: task_unachievable(\"the model stops here\")".into(),
        )
    };
    let extension = built_extension();

    // Not allowed to capture tabs: the run says so and asks the model in words; no report keeps a
    // screenshot.
    let model = FakeModel::start_taking_images("qwen3-vl", [gives_up()]).await.unwrap();
    let runs = verify_with_screenshots(&extension, &model).await;
    assert_eq!(runs.model_run.usage.calls, 1, "{:?} {:?}", runs.model_run.failure, runs.activity);
    assert_eq!(runs.model_run.usage.images, 0);
    assert!(
        runs.activity.iter().any(|l| l.starts_with("screenshots are off")),
        "{:?}",
        runs.activity
    );
    assert!(model.requests()[0]["messages"][1]["content"].is_string());
    assert_eq!(runs.defect_run.verdict, aca_core::Verdict::DocDefect);
    assert!(runs.shown.is_empty() && runs.defect_run.screenshots.is_empty());

    // Allowed: the model's question carries the console tab with its marks, scaled to fit, and the
    // defect is shown with the marked screenshot of the page that shows it.
    let allowed = tempfile::tempdir().unwrap();
    let extension = extension_allowed_to_capture(&extension, allowed.path());
    let model = FakeModel::start_taking_images("qwen3-vl", [gives_up()]).await.unwrap();
    let runs = verify_with_screenshots(&extension, &model).await;
    assert_eq!(runs.model_run.usage.calls, 1, "{:?} {:?}", runs.model_run.failure, runs.activity);
    assert_eq!(runs.model_run.usage.images, 1, "{:?}", runs.activity);
    assert_eq!(runs.model_run.usage.image_tokens, aca_chat::fake::FAKE_IMAGE_TOKENS);
    let requests = model.requests();
    let parts = requests[0]["messages"][1]["content"]
        .as_array()
        .unwrap_or_else(|| panic!("no image in {}", requests[0]["messages"][1]));
    assert!(parts[0]["text"].as_str().unwrap().contains("BEGIN PAGE DATA"));
    let (width, height) = png_size(parts[1]["image_url"]["url"].as_str().unwrap());
    assert!(
        width <= 1280 && height <= 720 && (width == 1280 || height == 720),
        "{width}x{height}"
    );

    let report = &runs.defect_run;
    assert_eq!(report.verdict, aca_core::Verdict::DocDefect);
    let defect = &report.defects[0];
    let path = report
        .screenshot_of(defect)
        .unwrap_or_else(|| panic!("no screenshot for {defect:?} in {:?}; kept {}", report.screenshots, runs.kept));
    assert_eq!(report.screenshots.len(), 1, "only the defects' screenshots are kept");
    let kept = runs.kept.as_array().unwrap();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(kept[0]["path"], path);
    assert_eq!(runs.shown, [kept[0]["image"].as_str().unwrap().to_owned()]);
    let (width, height) = png_size(&runs.shown[0]);
    assert!(width <= 1024 && height <= 640, "{width}x{height}");
}

/// Saves `settings` as the options page does, once the service worker answers; returns its answer.
async fn save_settings(panel: &Page, settings: Value) -> Value {
    poll(
        panel,
        &format!("chrome.runtime.sendMessage({})", json!({"kind": "save_settings", "settings": settings})),
        10,
        "the settings to be saved",
        |v| v["kind"] == "settings",
    )
    .await
}

/// Ticks (`on`) or clears the side panel's step mode.
async fn set_step_mode(panel: &Page, on: bool) {
    let js = format!(
        "(() => {{ const c = document.querySelector('#step-mode'); if (c.checked !== {on}) c.click(); return c.checked; }})()"
    );
    assert_eq!(eval(panel, &js).await, json!(on));
}

/// Clicks the middle of an observed element (its JSON, with its `rect`) through the browser's input
/// pipeline, as a person's click is: trusted.
async fn click_centre(page: &Page, element: &Value) {
    let rect = &element["rect"];
    let at = |key: &str| rect[key].as_f64().unwrap();
    page.click(chromiumoxide::layout::Point {
        x: at("x") + at("width") / 2.0,
        y: at("y") + at("height") / 2.0,
    })
    .await
    .unwrap();
}

/// A writer ready to verify the create-VPC page: an account the server assigns them, logged on by
/// hand in a console tab, the page open in another, and the side panel reaching the server at
/// `server_url` with the writer's token, the page chosen.
struct WriterAtPage {
    chromium: ExtensionBrowser,
    panel: Page,
    help_server: tokio::task::JoinHandle<()>,
}

async fn writer_at_create_vpc(emulator: &Emulator, server_url: &str) -> WriterAtPage {
    let (help, help_server) = serve_pages(vec![("/help/vpc/create-vpc.html", help_html(CORPUS_PAGE))]).await;
    let chromium = ExtensionBrowser::launch(&built_extension()).await.unwrap();
    let writer = emulator.console.create_account("writer", None).unwrap();
    let token = emulator
        .companion
        .create_user("writer", vec![writer.account_id.clone()])
        .unwrap();
    let console = chromium.open("about:blank").await;
    log_on(&console, &emulator.url, &writer.login, &writer.password).await;
    wait_for(&console, ".product-card").await;
    chromium.open(&format!("{help}/help/vpc/create-vpc.html")).await;
    let panel = chromium.open(&extension_url("sidepanel.html")).await;
    let saved = save_settings(&panel, json!({"server_url": server_url, "token": token})).await;
    assert_eq!(saved["settings"]["server_url"], json!(server_url));
    let doc_tab = tab_id(&panel, &format!("{help}/help/vpc/create-vpc")).await;
    wait_for(&panel, "button#verify").await;
    choose_doc_tab(&panel, doc_tab).await;
    WriterAtPage {
        chromium,
        panel,
        help_server,
    }
}

/// A TCP relay to `target` (`host:port`) that goes away, with every connection through it, when
/// its task is aborted: a server killed mid-run as the extension sees it.
async fn relay(target: String) -> (String, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        let mut connections = tokio::task::JoinSet::new();
        while let Ok((mut inbound, _)) = listener.accept().await {
            let target = target.clone();
            connections.spawn(async move {
                if let Ok(mut outbound) = tokio::net::TcpStream::connect(&target).await {
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                }
            });
        }
    });
    (url, task)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reward_service_killed_mid_run_is_the_environments_fault_not_the_pages() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    // The extension reaches the companion server (and so the reward service) only through the relay.
    let target = emulator.url.trim_start_matches("http://").trim_end_matches('/').to_owned();
    let (server_url, server) = relay(target).await;
    let WriterAtPage {
        chromium,
        panel,
        help_server,
    } = writer_at_create_vpc(&emulator, &server_url).await;
    // Step mode holds the run at its first proposal, after the server started it.
    set_step_mode(&panel, true).await;
    press(&panel, "button#verify").await;
    text_of(&panel, "#pending-action", "the agent's first proposal").await;
    server.abort();
    let _ = server.await;
    // The person approves every action; the procedure runs, and the verdict needs the server.
    let verdict = "document.querySelector('#verdict')?.textContent ?? ''";
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if !eval(&panel, verdict).await.as_str().unwrap_or_default().is_empty() {
            break;
        }
        let pending = "!!document.querySelector('#approve')";
        if eval(&panel, pending).await == json!(true) {
            press(&panel, "#approve").await;
        }
        assert!(Instant::now() < deadline, "no verdict after the server went away");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let state = ask(&panel, json!({"kind": "state"})).await;
    let report: aca_core::Report = serde_json::from_value(state["run"]["verification"]["report"].clone()).unwrap();
    assert_eq!(report.verdict, aca_core::Verdict::EnvironmentFailure, "{report:#?}");
    let failure = report.failure.clone().unwrap_or_default();
    assert!(failure.contains("reward service"), "the failure names what failed: {failure}");
    assert!(failure.contains("cleanup"), "the clean-up that could not run is said too: {failure}");
    assert!(report.defects.is_empty(), "nothing is said against the page: {:?}", report.defects);
    let summary = text_of(&panel, "#summary", "the report's summary").await;
    assert!(!summary.contains("Nothing in the audit log"), "{summary}");
    help_server.abort();
    chromium.close().await;
}

/// The focused element as `id: accessible name` (its label, aria-label, text or title).
const FOCUSED: &str = "(() => { const e = document.activeElement; if (!e || e === document.body) return ''; \
    const name = (e.labels && e.labels[0] ? e.labels[0].textContent : '') || e.getAttribute('aria-label') \
    || e.textContent || e.title || ''; return (e.id || e.tagName.toLowerCase()) + ': ' + name.trim(); })()";

/// Presses Tab until the element `id` has the focus; returns what got the focus on the way.
async fn tab_to(page: &Page, id: &str) -> Vec<String> {
    page.bring_to_front().await.unwrap();
    let mut visited = Vec::new();
    for _ in 0..60 {
        aca_runner::press_key(page, "Tab").await.unwrap();
        let focused = eval(page, FOCUSED).await.as_str().unwrap_or_default().to_owned();
        let here = focused.split(": ").next() == Some(id);
        visited.push(focused);
        if here {
            return visited;
        }
    }
    panic!("Tab never reached #{id}; the focus went through {visited:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_side_panel_is_worked_from_the_keyboard_alone() {
    let emulator = Emulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let WriterAtPage {
        chromium,
        panel,
        help_server,
    } = writer_at_create_vpc(&emulator, &emulator.url).await;

    // Tab reaches the page chooser, step mode and Verify in reading order, and everything the focus
    // lands on says what it is.
    let visited = tab_to(&panel, "verify").await;
    let position = |id: &str| visited.iter().position(|v| v.split(": ").next() == Some(id));
    let (doc, step_mode, verify) = (position("doc-tab"), position("step-mode"), position("verify"));
    assert!(
        doc.is_some() && doc < step_mode && step_mode < verify,
        "the focus order: {visited:?}"
    );
    for focused in &visited {
        assert!(
            focused.split_once(": ").is_some_and(|(_, name)| !name.is_empty()),
            "{focused} has no accessible name (focus went through {visited:?})"
        );
    }
    // Space ticks step mode; Enter on Verify starts the run.
    tab_to(&panel, "step-mode").await;
    aca_runner::press_key(&panel, "Space").await.unwrap();
    assert_eq!(eval(&panel, "document.querySelector('#step-mode').checked").await, json!(true));
    tab_to(&panel, "verify").await;
    aca_runner::press_key(&panel, "Enter").await.unwrap();
    text_of(&panel, "#pending-action", "the agent's first proposal").await;

    // Approve the proposal from the keyboard: the action runs and is logged.
    tab_to(&panel, "approve").await;
    aca_runner::press_key(&panel, "Enter").await.unwrap();
    poll(
        &panel,
        "document.querySelectorAll('#step-log li').length",
        20,
        "the approved action in the log",
        |v| v == &json!(1),
    )
    .await;
    // Stop from the keyboard ends the run with a report that says nothing was verified.
    text_of(&panel, "#pending-action", "the next proposal").await;
    tab_to(&panel, "stop").await;
    aca_runner::press_key(&panel, "Enter").await.unwrap();
    let (verdict, _) = verdict_after_progress(&panel, 30).await;
    assert_eq!(verdict, "unverified");
    // The report's download is reachable too.
    tab_to(&panel, "download").await;
    help_server.abort();
    chromium.close().await;
}
