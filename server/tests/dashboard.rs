//! The dashboard in real headless Chromium against `aca server` over a database whose runs the test
//! wrote: the numbers each view shows are checked against the database, each view is
//! screenshotted, a defect filter narrows the list, and a re-run is driven from the page.

mod common;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use aca_core::Report;
use aca_platform::{Db, DbUrl, NewJob, Queue, Results, RunRecord, now_ms};
use chromiumoxide::{Browser, BrowserConfig, Page};
use common::start_service;
use futures::StreamExt as _;

const TOKEN: &str = "dashboard-admin-token";

fn report(page: &str, verdict: &str, defects: &[(&str, &str, &str, &str)], at: &str) -> Report {
    let defects: Vec<serde_json::Value> = defects
        .iter()
        .map(|(kind, step, documented, observed)| {
            serde_json::json!({"kind": kind, "step": step, "documented": documented, "observed": observed,
                "confidence": "confirmed"})
        })
        .collect();
    serde_json::from_value(serde_json::json!({
        "page": page, "title": format!("Procedure of {page}"), "policy": "scripted", "verdict": verdict,
        "summary": format!("{verdict}: {page}"),
        "console": {"url": "http://127.0.0.1:1", "region": "cn-hangzhou"},
        "steps": [{"text": "Log on to the console.", "grade": {"step": "1", "status": "pass"}}],
        "defects": defects,
        "usage": {"calls": 2, "prompt_tokens": 1000, "completion_tokens": 50, "cost_usd": 0.02},
        "started_at": at, "duration_ms": 4000
    }))
    .unwrap()
}

/// Types `token` into the sign-in form and sends it.
async fn sign_in(page: &Page, token: &str) {
    wait_for(page, "#user-token").await;
    page.evaluate(format!(
        "{{ const input = document.querySelector('#user-token'); input.value = '{token}'; \
         input.dispatchEvent(new Event('input')); document.querySelector('#sign-in').requestSubmit(); }}"
    ))
    .await
    .unwrap();
}

/// The text of `selector` once it says something.
async fn message(page: &Page, selector: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let said = text(page, selector).await.unwrap_or_default();
        if !said.is_empty() {
            return said;
        }
        assert!(Instant::now() < deadline, "{selector} said nothing");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Writes the runs the dashboard is checked against; returns the job a re-run is asked for.
fn fill(db: &Arc<Db>) -> String {
    let results = Results::new(db.clone());
    let record = |tree: &str, product: &str, digest: &str, report: Report| {
        let mut run = RunRecord::new(tree, report);
        run.product = Some(product.into());
        run.page_digest = Some(digest.into());
        results.record(&run).unwrap();
    };
    // A defect an earlier run found and the latest no longer does: fixed.
    record(
        "vpc-guide",
        "vpc",
        "a0",
        report(
            "docs/vpc/create-vpc.md",
            "doc_defect",
            &[("renamed_label", "7", "OK", "Confirm")],
            "2026-11-30T08:00:00Z",
        ),
    );
    record(
        "vpc-guide",
        "vpc",
        "a1",
        report("docs/vpc/create-vpc.md", "pass", &[], "2026-12-01T08:00:00Z"),
    );
    record(
        "vpc-guide",
        "vpc",
        "b1",
        report(
            "docs/vpc/delete-vpc.md",
            "doc_defect",
            &[
                ("renamed_label", "5", "OK", "Confirm"),
                ("moved_control", "2", "Instances", "Resources"),
            ],
            "2026-12-01T09:00:00Z",
        ),
    );
    record(
        "ecs-guide",
        "ecs",
        "c1",
        report("docs/ecs/start.md", "pass", &[], "2026-12-02T08:00:00Z"),
    );
    record(
        "ecs-guide",
        "ecs",
        "d1",
        report("docs/ecs/stop.md", "environment_failure", &[], "2026-12-02T09:00:00Z"),
    );
    // The same text passing, then failing: flaky.
    record(
        "ecs-guide",
        "ecs",
        "e1",
        report("docs/ecs/flaky.md", "pass", &[], "2026-12-03T08:00:00Z"),
    );
    record(
        "ecs-guide",
        "ecs",
        "e1",
        report("docs/ecs/flaky.md", "agent_failure", &[], "2026-12-04T08:00:00Z"),
    );
    // One run of a job, so that the runs view offers its re-run.
    let queue = Queue::new(db.clone());
    let job = NewJob {
        tree: "vpc-guide".into(),
        page: "docs/vpc/modify-vpc.md".into(),
        priority: 0,
        max_attempts: 1,
    };
    queue.submit(&[job], now_ms()).unwrap();
    let claimed = queue.claim("filler/0", now_ms()).unwrap().unwrap();
    let mut run = RunRecord::new(
        "vpc-guide",
        report("docs/vpc/modify-vpc.md", "pass", &[], "2026-12-05T08:00:00Z"),
    );
    run.product = Some("vpc".into());
    queue.finish(&claimed, &run, None, now_ms()).unwrap();
    claimed.job.id
}

async fn text(page: &Page, selector: &str) -> Option<String> {
    let script = format!("document.querySelector({selector:?})?.textContent ?? null");
    page.evaluate(script.as_str())
        .await
        .ok()?
        .into_value::<Option<String>>()
        .ok()?
}

async fn count(page: &Page, selector: &str) -> usize {
    let script = format!("document.querySelectorAll({selector:?}).length");
    page.evaluate(script.as_str())
        .await
        .unwrap()
        .into_value::<usize>()
        .unwrap()
}

/// Waits until `selector` is on the page and returns its text.
async fn wait_for(page: &Page, selector: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(found) = text(page, selector).await {
            return found;
        }
        let error = text(page, "#error").await;
        assert!(error.is_none(), "the dashboard shows an error: {error:?}");
        assert!(Instant::now() < deadline, "{selector} never appeared");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn screenshot(page: &Page, path: &Path) {
    let png = page
        .screenshot(chromiumoxide::page::ScreenshotParams::builder().full_page(true).build())
        .await
        .unwrap();
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "{} is no screenshot",
        path.display()
    );
    std::fs::write(path, png).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_dashboard_shows_what_the_database_holds_and_reruns_a_page() {
    let dir = tempfile::tempdir().unwrap();
    let url = DbUrl::Sqlite(dir.path().join("results.db"));
    let db = Arc::new(Db::open(&url).unwrap());
    let job = fill(&db);
    let results = Results::new(db.clone());

    let db_arg = url.describe();
    let (mut server, base) = start_service(
        dir.path(),
        &[
            "server",
            "--listen",
            "127.0.0.1:0",
            "--db",
            &db_arg,
            "--workers",
            "0",
            "--admin-token",
            TOKEN,
        ],
        &[],
        "aca server ready at ",
    );

    let profile = tempfile::tempdir().unwrap();
    let config = BrowserConfig::builder()
        .chrome_executable(std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()))
        .no_sandbox()
        .user_data_dir(profile.path())
        .window_size(1280, 900)
        .args([
            "--headless=new",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
        ])
        .build()
        .unwrap();
    let (mut browser, mut events) = Browser::launch(config).await.unwrap();
    let handler = tokio::spawn(async move { while events.next().await.is_some() {} });
    let page = browser.new_page(format!("{base}/")).await.unwrap();

    // The overview: figures and the latest run of each page by product and by tree.
    let totals = results.totals().unwrap();
    assert_eq!(wait_for(&page, "#total-runs").await, totals.runs.to_string());
    let passed = totals.by_verdict.iter().find(|(v, _)| v == "pass").unwrap().1;
    assert_eq!(text(&page, "#total-passed").await.unwrap(), passed.to_string());
    assert_eq!(
        text(&page, "#total-cost").await.unwrap(),
        format!("${:.2}", totals.cost_usd)
    );
    let latest = results.latest(None).unwrap();
    for product in ["vpc", "ecs"] {
        let pages = latest.iter().filter(|r| r.product.as_deref() == Some(product)).count();
        let passed = latest
            .iter()
            .filter(|r| r.product.as_deref() == Some(product) && r.verdict == "pass")
            .count();
        assert_eq!(
            text(&page, &format!("#product-{product} .pages")).await.unwrap(),
            pages.to_string()
        );
        assert_eq!(
            text(&page, &format!("#product-{product} .passed")).await.unwrap(),
            passed.to_string()
        );
    }
    assert_eq!(text(&page, "#product-ecs .rate").await.unwrap(), "33.3%");
    assert_eq!(text(&page, "#tree-vpc-guide .doc_defect").await.unwrap(), "1");
    assert_eq!(text(&page, "#kind-renamed_label .new").await.unwrap(), "1");
    assert_eq!(
        text(&page, "#kind-renamed_label .fixed").await.unwrap(),
        "1",
        "{:#?}",
        results.current_defects().unwrap()
    );
    assert_eq!(count(&page, "#flaky tr").await, results.flaky_pages().unwrap().len());
    assert!(text(&page, "#flaky").await.unwrap().contains("docs/ecs/flaky.md"));
    screenshot(&page, &dir.path().join("overview.png")).await;

    // The defect list, then narrowed by type and by words.
    page.evaluate("location.hash = '#/defects'").await.unwrap();
    wait_for(&page, "#defects-shown").await;
    let defects = results.current_defects().unwrap();
    assert_eq!(count(&page, "tr.defect").await, defects.len());
    page.evaluate(
        "const kind = document.querySelector('#filter-kind'); kind.value = 'moved_control'; \
         kind.dispatchEvent(new Event('change'))",
    )
    .await
    .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(text(&page, "#defects-shown").await.unwrap(), "1 shown");
    assert!(text(&page, "tr.defect").await.unwrap().contains("Instances"));
    page.evaluate(
        "for (const [id, value] of [['#filter-kind', ''], ['#filter-state', 'fixed']]) { \
         const select = document.querySelector(id); select.value = value; \
         select.dispatchEvent(new Event('change')); }",
    )
    .await
    .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(text(&page, "#defects-shown").await.unwrap(), "1 shown");
    assert!(
        text(&page, "tr.defect.fixed")
            .await
            .unwrap()
            .contains("docs/vpc/create-vpc.md")
    );
    screenshot(&page, &dir.path().join("defects.png")).await;

    // The runs: a re-run is refused to nobody, the admin token cannot sign in, a user can.
    page.evaluate("location.hash = '#/runs'").await.unwrap();
    let rerun = format!("#rerun-{job}");
    wait_for(&page, &rerun).await;
    assert_eq!(count(&page, "tr.run").await, results.runs(None, 1000).unwrap().len());
    page.evaluate(format!("document.querySelector('{rerun}').click()"))
        .await
        .unwrap();
    let refused = message(&page, "#runs-message").await;
    assert!(refused.starts_with("Not queued: HTTP 401"), "{refused}");
    sign_in(&page, TOKEN).await;
    let refused = message(&page, "#session-message").await;
    assert!(refused.contains("does not sign in"), "{refused}");

    let made: serde_json::Value = reqwest::Client::new()
        .post(format!("{base}/admin/users"))
        .bearer_auth(TOKEN)
        .json(&serde_json::json!({"name": "dana", "accounts": []}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let user_token = made["token"].as_str().unwrap().to_owned();
    sign_in(&page, &user_token).await;
    assert_eq!(wait_for(&page, "#signed-in").await, "Signed in as dana");
    // Neither token is anywhere the page's scripts can read; the session cookie is HttpOnly.
    let readable: String = page
        .evaluate(
            "JSON.stringify([document.cookie, Object.entries(sessionStorage), Object.entries(localStorage),              document.documentElement.outerHTML])",
        )
        .await
        .unwrap()
        .into_value()
        .unwrap();
    assert!(!readable.contains(&user_token) && !readable.contains(TOKEN) && !readable.contains("aca_s_"));
    let cookies = page.get_cookies().await.unwrap();
    let session = cookies
        .iter()
        .find(|c| c.name == "aca_session")
        .expect("a session cookie");
    assert!(session.http_only, "{session:?}");
    assert_eq!(
        session.same_site,
        Some(chromiumoxide::cdp::browser_protocol::network::CookieSameSite::Strict)
    );
    page.evaluate(format!("document.querySelector('{rerun}').click()"))
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while text(&page, "#runs-message")
        .await
        .unwrap_or_default()
        .starts_with("Not queued")
    {
        assert!(Instant::now() < deadline, "the re-run got no answer");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(text(&page, "#runs-message").await.unwrap(), "Queued again.");
    assert_eq!(Queue::new(db.clone()).depth().unwrap().queued, 1);
    screenshot(&page, &dir.path().join("runs.png")).await;

    // A page's history: where its verdict changed.
    page.evaluate("location.hash = '#/history?page=docs%2Fecs%2Fflaky.md'")
        .await
        .unwrap();
    wait_for(&page, "#history tr.run").await;
    assert_eq!(count(&page, "#history tr.run").await, 2);
    screenshot(&page, &dir.path().join("history.png")).await;

    // One run's per-step report, reached from its verdict.
    page.evaluate("document.querySelector('#history tr.run .verdict a').click()")
        .await
        .unwrap();
    let verdict = wait_for(&page, "#run-verdict").await;
    assert!(verdict.starts_with("pass"), "{verdict}");
    assert_eq!(count(&page, "#run tr.step").await, 1);
    screenshot(&page, &dir.path().join("run.png")).await;

    let _ = browser.close().await;
    let _ = browser.wait().await;
    handler.abort();
    let _ = server.kill();
    let _ = server.wait();
}
