//! The runtime on small fixture pages: a strict CSP and a cross-origin frame, a CSS hover menu that
//! only trusted input opens, a handler that checks `isTrusted`, and every way an action can go wrong
//! (a vanished element, a disabled button, a navigation during the action, a page that never
//! settles, a crashed tab, a server that does not answer).

mod common;

use std::time::Duration;

use aca_core::{ActionOutcome, GuiAction, NotActionable, PlaceKind, Role};
use axum::response::Html;
use axum::routing::get;
use common::{click, element, observe, request, runner, serve};

const INNER: &str =
    "<title>Inner frame</title><button onclick=\"this.textContent='Clicked inside'\">Inside frame</button>";

const HOVER: &str = "<title>Hover</title><style>.list{display:none}.menu:hover .list{display:block}</style>\
    <div class=menu><button>More</button><div class=list role=menu><a href=#release role=menuitem>Release</a></div></div>";

const ACTIONS: &str = "<title>Actions</title>\
    <button disabled title='No quota left'>Create</button>\
    <button id=gone>Vanishing</button>\
    <a href=/next>Go next</a>\
    <button onclick=\"setTimeout(() => location.href = '/next', 30)\">Later</button>\
    <button onclick=\"fetch('/slow')\">Busy</button>";

const TRUSTED: &str = "<title>Trusted</title>\
    <button onclick=\"this.textContent = event.isTrusted ? 'Pressed by a person' : 'Pressed by a script'\">Press</button>\
    <button onclick=\"history.pushState({}, '', '/routed')\">Route</button>\
    <div class=mask style='position:fixed;left:0;top:0;width:36px;height:100px;background:#fff'>Tab</div>";

async fn site() -> String {
    let other = serve(axum::Router::new().route("/inner", get(|| async { Html(INNER) }))).await;
    // The frame's origin differs by host name, so Chromium puts it in a process of its own.
    let other = other.replace("127.0.0.1", "localhost");
    let strict = format!(
        "<title>Strict</title><h1>Strict page</h1><button>Top button</button>\
         <iframe src='{other}/inner' width=400 height=150 style='margin-left:200px'></iframe>"
    );
    let app = axum::Router::new()
        .route(
            "/strict",
            get(move || {
                let body = strict.clone();
                async move {
                    (
                        [("content-security-policy", "default-src 'self'; frame-src *")],
                        Html(body),
                    )
                }
            }),
        )
        .route("/hover", get(|| async { Html(HOVER) }))
        .route("/trusted", get(|| async { Html(TRUSTED) }))
        .route("/actions", get(|| async { Html(ACTIONS) }))
        .route(
            "/next",
            get(|| async { Html("<title>Next</title><h1>Next page</h1><button>Back</button>") }),
        )
        .route(
            "/slow",
            get(|| async {
                tokio::time::sleep(Duration::from_secs(30)).await;
                "late"
            }),
        );
    serve(app).await
}

/// The fixture site, a launched browser and a tab on its `/actions` page.
async fn on_the_actions_page() -> (String, aca_runner::Runner, aca_runner::Session) {
    let base = site().await;
    let runner = runner().await;
    let session = aca_runner::Session::open(&runner, &format!("{base}/actions"))
        .await
        .unwrap();
    (base, runner, session)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_strict_csp_and_a_cross_origin_frame_are_observed_and_acted_on() {
    let base = site().await;
    let runner = runner().await;
    let mut session = aca_runner::Session::open(&runner, &format!("{base}/strict"))
        .await
        .unwrap();
    // The page's own scripts see nothing of the page side.
    let hidden = session
        .evaluate("typeof globalThis.__acaDom === 'undefined' && typeof globalThis.wasm_bindgen === 'undefined'")
        .await
        .unwrap();
    assert_eq!(hidden, serde_json::Value::Bool(true));

    // The cross-origin frame attaches as its own target; settling waits until it has its page side.
    assert!(session.wait_settled(Duration::from_secs(5)).await.unwrap());
    let observation = observe(&mut session).await;
    element(&observation, Role::Button, "Top button");
    let inside = element(&observation, Role::Button, "Inside frame").clone();
    assert_eq!(
        inside.places.first().map(|p| p.kind),
        Some(PlaceKind::Frame),
        "{inside:?}"
    );
    let frame_box: Vec<f64> = serde_json::from_value(
        session
            .evaluate("(() => { const r = document.querySelector('iframe').getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })()")
            .await
            .unwrap(),
    )
    .unwrap();
    let rect = inside.rect.expect("a box");
    assert!(
        rect.x >= frame_box[0] && rect.y >= frame_box[1] && rect.x + rect.width <= frame_box[2],
        "the frame's button {rect:?} lies inside the frame {frame_box:?}"
    );
    assert!(
        observation.unwalked_frames.is_empty(),
        "{:?}",
        observation.unwalked_frames
    );

    let outcome = session.act(request(GuiAction::Click { index: inside.index })).await;
    assert_eq!(outcome, ActionOutcome::Done { reresolved: false });
    let after = observe(&mut session).await;
    element(&after, Role::Button, "Clicked inside");
    runner.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hover_moves_the_real_pointer_so_css_hover_menus_open() {
    let base = site().await;
    let runner = runner().await;
    let mut session = aca_runner::Session::open(&runner, &format!("{base}/hover"))
        .await
        .unwrap();
    // A synthetic mouseover does not make CSS :hover match.
    let synthetic = session
        .evaluate(
            "(() => { document.querySelector('.menu').dispatchEvent(new MouseEvent('mouseover', {bubbles: true})); \
             return getComputedStyle(document.querySelector('.list')).display; })()",
        )
        .await
        .unwrap();
    assert_eq!(synthetic, "none");
    let observation = observe(&mut session).await;
    assert!(aca_runner::find::by_name(&observation, Role::Menuitem, "Release").is_none());
    let more = element(&observation, Role::Button, "More").index;
    let outcome = session.act(request(GuiAction::Hover { index: more })).await;
    assert!(outcome.succeeded(), "{outcome:?}");
    let opened = observe(&mut session).await;
    element(&opened, Role::Menuitem, "Release");
    runner.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clicks_are_real_pointer_input_and_route_changes_count_as_navigation() {
    let base = site().await;
    let runner = runner().await;
    let mut session = aca_runner::Session::open(&runner, &format!("{base}/trusted"))
        .await
        .unwrap();
    // A fixed tab covers the button's left half and centre: the click must land on the button all the same.
    let outcome = click(&mut session, Role::Button, "Press").await;
    assert_eq!(outcome, ActionOutcome::Done { reresolved: false });
    element(&observe(&mut session).await, Role::Button, "Pressed by a person");

    // A single-page route change (no frame navigation) is reported as one.
    let outcome = click(&mut session, Role::Button, "Route").await;
    assert_eq!(
        outcome,
        ActionOutcome::Navigated {
            url: format!("{base}/routed")
        }
    );
    runner.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_actions_become_typed_outcomes() {
    let (base, runner, mut session) = on_the_actions_page().await;

    // A disabled button says why (after waiting for it to become enabled).
    let observation = observe(&mut session).await;
    let mut disabled = request(GuiAction::Click {
        index: element(&observation, Role::Button, "Create").index,
    });
    disabled.timeout_ms = 1_000;
    let outcome = session.act(disabled).await;
    assert!(
        matches!(
            outcome,
            ActionOutcome::NotActionable {
                reason: NotActionable::Disabled { .. },
                ..
            }
        ),
        "{outcome:?}"
    );

    // An element that went away after the observation.
    let observation = observe(&mut session).await;
    let vanishing = element(&observation, Role::Button, "Vanishing").index;
    session
        .evaluate("document.getElementById('gone').remove()")
        .await
        .unwrap();
    let mut stale = request(GuiAction::Click { index: vanishing });
    stale.timeout_ms = 1_000;
    let outcome = session.act(stale).await;
    assert!(
        matches!(outcome, ActionOutcome::ElementNotFound { index } if index == vanishing),
        "{outcome:?}"
    );

    // A page that never settles (a request that does not finish).
    let observation = observe(&mut session).await;
    let busy = element(&observation, Role::Button, "Busy").index;
    let mut slow = request(GuiAction::Click { index: busy });
    slow.timeout_ms = 1_500;
    let outcome = session.act(slow).await;
    assert!(matches!(outcome, ActionOutcome::Timeout { .. }), "{outcome:?}");

    // A navigation the page starts a little after the click is reported, and the new page observed.
    session.goto(&format!("{base}/actions")).await.unwrap();
    let outcome = click(&mut session, Role::Button, "Later").await;
    assert_eq!(
        outcome,
        ActionOutcome::Navigated {
            url: format!("{base}/next")
        }
    );
    element(&observe(&mut session).await, Role::Button, "Back");

    // So is a link's.
    session.goto(&format!("{base}/actions")).await.unwrap();
    let outcome = click(&mut session, Role::Link, "Go next").await;
    assert_eq!(
        outcome,
        ActionOutcome::Navigated {
            url: format!("{base}/next")
        }
    );

    // A crashed tab (its renderer killed) fails every action with a message, and observing it is an
    // error.
    let renderers: Vec<u32> = runner
        .process_ids()
        .into_iter()
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|cmdline| String::from_utf8_lossy(&cmdline).contains("--type=renderer"))
        })
        .collect();
    assert!(!renderers.is_empty(), "a renderer process");
    aca_runner::process::kill_all(&renderers);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let outcome = session.act(request(GuiAction::Click { index: 1 })).await;
    assert!(
        matches!(&outcome, ActionOutcome::Failed { message } if message.contains("crashed")),
        "{outcome:?}"
    );
    assert!(session.observe(&Default::default()).await.is_err());
    runner.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_killed_under_a_session_fails_its_calls_at_once_and_says_so() {
    let (base, runner, mut session) = on_the_actions_page().await;
    observe(&mut session).await;
    aca_runner::process::kill_all(&runner.process_ids());
    let started = std::time::Instant::now();
    let observed = loop {
        // The first call may still reach the dying browser; none waits out the request timeout.
        match session.observe(&Default::default()).await {
            Ok(_) if started.elapsed() < Duration::from_secs(5) => tokio::time::sleep(Duration::from_millis(50)).await,
            other => break other,
        }
    };
    let error = observed.expect_err("a page observed in a browser that is gone").to_string();
    assert!(error.contains("Chromium is gone"), "{error}");
    let outcome = session.act(request(GuiAction::Click { index: 1 })).await;
    assert!(
        matches!(&outcome, ActionOutcome::Failed { message } if message.contains("Chromium is gone")),
        "{outcome:?}"
    );
    let loaded = session.goto(&format!("{base}/actions")).await;
    assert!(
        loaded.as_ref().is_err_and(|e| e.to_string().contains("Chromium is gone")),
        "{loaded:?}"
    );
    for failed in [
        session.capture(true, None).await.map(|_| ()),
        session.evaluate("1").await.map(|_| ()),
        session.url().await.map(|_| ()),
    ] {
        assert!(
            failed.as_ref().is_err_and(|e| e.to_string().contains("Chromium is gone")),
            "{failed:?}"
        );
    }
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the calls gave up only after {:?}",
        started.elapsed()
    );
    runner.close().await;
}

/// A screenshot in flight when the browser dies ends at once: its command, sent as the connection
/// broke, is never answered, and chromiumoxide's own timeout needs a live connection.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_screenshot_the_browser_dies_under_fails_at_once() {
    let (_, runner, mut session) = on_the_actions_page().await;
    observe(&mut session).await;
    let pids = runner.process_ids();
    let started = std::time::Instant::now();
    let (shot, ()) = tokio::join!(session.capture(true, None), async {
        tokio::time::sleep(Duration::from_millis(5)).await;
        aca_runner::process::kill_all(&pids);
    });
    let waited = started.elapsed();
    // It may have finished before the kill; if not, it says why.
    if let Err(error) = &shot {
        assert!(error.to_string().contains("Chromium is gone"), "{error}");
    }
    assert!(waited < Duration::from_secs(10), "the screenshot gave up only after {waited:?}");
    runner.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_marked_screenshot_draws_the_marks_only_for_the_capture() {
    let (_, runner, mut session) = on_the_actions_page().await;
    observe(&mut session).await;
    let dir = tempfile::tempdir().unwrap();
    let (plain, marked) = (dir.path().join("plain.png"), dir.path().join("marked.png"));
    let nodes = "document.querySelectorAll('*').length";
    let before = session.evaluate(nodes).await.unwrap();
    session.screenshot(&plain, false).await.unwrap();
    session.screenshot(&marked, true).await.unwrap();
    assert_eq!(session.evaluate(nodes).await.unwrap(), before, "the overlay is removed");
    let (plain, marked) = (std::fs::read(plain).unwrap(), std::fs::read(marked).unwrap());
    for png in [&plain, &marked] {
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
        // The IHDR chunk: width and height of the capture, the configured viewport.
        assert_eq!(u32::from_be_bytes([png[16], png[17], png[18], png[19]]), 1280);
        assert_eq!(u32::from_be_bytes([png[20], png[21], png[22], png[23]]), 800);
    }
    assert_ne!(plain, marked, "the marks are in the capture");

    // Fitted for a model: scaled down to fit the box, keeping the viewport's proportions; never up.
    let size = |png: &[u8]| {
        (
            u32::from_be_bytes([png[16], png[17], png[18], png[19]]),
            u32::from_be_bytes([png[20], png[21], png[22], png[23]]),
        )
    };
    let fitted = session.capture(true, Some((640, 640))).await.unwrap();
    assert_eq!(size(&fitted), (640, 400));
    let wide = session.capture(true, Some((1280, 720))).await.unwrap();
    assert_eq!(size(&wide), (1152, 720));
    let larger = session.capture(false, Some((4000, 4000))).await.unwrap();
    assert_eq!(size(&larger), (1280, 800));
    assert_eq!(session.evaluate(nodes).await.unwrap(), before, "the overlay is removed");

    // A path that cannot be written is an error naming it.
    let error = session
        .screenshot(&dir.path().join("missing/shot.png"), false)
        .await
        .unwrap_err();
    assert!(error.to_string().contains("missing/shot.png"), "{error}");
    runner.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_whose_server_is_gone_is_an_error_not_a_page() {
    // An address nothing listens on any more.
    let dead = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", listener.local_addr().unwrap())
    };
    let page = format!("<title>Links</title><a href='{dead}/console'>Console</a>");
    let links = get(move || {
        let page = page.clone();
        async move { Html(page) }
    });
    let base = serve(axum::Router::new().route("/links", links)).await;
    let runner = runner().await;
    let mut session = aca_runner::Session::open(&runner, &format!("{base}/links"))
        .await
        .unwrap();
    let outcome = click(&mut session, Role::Link, "Console").await;
    assert!(matches!(outcome, ActionOutcome::Navigated { .. }), "{outcome:?}");
    let observed = session.observe(&aca_runner::ObserveOptions::default()).await;
    let Err(error) = observed else {
        panic!("the browser's error page was observed as a page of the site: {observed:?}");
    };
    assert_eq!(
        error.to_string(),
        format!("{dead}/console could not be reached (ERR_CONNECTION_REFUSED)")
    );
    let loading = session.goto(&format!("{dead}/home")).await;
    assert_eq!(
        loading.map_err(|e| e.to_string()),
        Err(format!("{dead}/home could not be reached (ERR_CONNECTION_REFUSED)"))
    );
    // Once the page loads again, it is observed as before.
    session.goto(&format!("{base}/links")).await.unwrap();
    element(&observe(&mut session).await, Role::Link, "Console");
    runner.close().await;
}
