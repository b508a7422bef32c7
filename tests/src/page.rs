//! Acting on console pages in Chromium as a person would: waiting for elements, typing, choosing
//! from portal selects, reaching into shadow roots and iframes. Every wait gives up after 10 s with
//! a message naming what it waited for.

use std::time::{Duration, Instant};

use chromiumoxide::element::Element;
use chromiumoxide::layout::Point;
use chromiumoxide::page::Page;

/// Polls until `selector` matches an element, or fails after 10 s.
pub async fn wait_for(page: &Page, selector: &str) -> Element {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Ok(el) = page.find_element(selector).await {
            return el;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {selector}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

pub async fn wait_xpath(page: &Page, xpath: &str) -> Element {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Ok(el) = page.find_xpath(xpath).await {
            return el;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {xpath}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

pub async fn eval_string(page: &Page, js: &str) -> String {
    page.evaluate(js)
        .await
        .unwrap()
        .into_value::<String>()
        .unwrap_or_default()
}

/// Polls a JS expression until it returns true.
pub async fn wait_true(page: &Page, js: &str, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let ok = page
            .evaluate(js)
            .await
            .ok()
            .and_then(|v| v.into_value::<bool>().ok())
            .unwrap_or(false);
        if ok {
            return;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Clicks the inner input of a shadow-DOM CIDR component at its on-screen position, then types.
pub async fn type_into_cidr(page: &Page, host_selector: &str, text: &str) {
    let js = format!(
        "(() => {{ const r = document.querySelector({}).shadowRoot.querySelector('input').getBoundingClientRect(); \
         return [r.left + r.width / 2, r.top + r.height / 2]; }})()",
        serde_json::to_string(host_selector).unwrap()
    );
    let point: Vec<f64> = page.evaluate(js.as_str()).await.unwrap().into_value().unwrap();
    page.click(Point {
        x: point[0],
        y: point[1],
    })
    .await
    .unwrap();
    let host = page.find_element(host_selector).await.unwrap();
    host.type_str(text).await.unwrap();
}

pub async fn log_on(page: &Page, base: &str, login: &str, password: &str) {
    page.goto(format!("{base}/login")).await.unwrap();
    wait_for(page, "#login")
        .await
        .click()
        .await
        .unwrap()
        .type_str(login)
        .await
        .unwrap();
    wait_for(page, "#password")
        .await
        .click()
        .await
        .unwrap()
        .type_str(password)
        .await
        .unwrap();
    wait_xpath(page, "//button[normalize-space()='Log On']")
        .await
        .click()
        .await
        .unwrap();
    wait_true(page, "location.pathname === '/console'", "the console home after logon").await;
}

pub async fn choose(page: &Page, scope: &str, select: &str, value: &str) {
    let trigger = format!("{scope} [data-ui-select='{select}'] .ui-select-trigger");
    wait_for(page, &trigger).await.click().await.unwrap();
    // The options are not inside the form: they render in a portal at the end of <body>.
    wait_for(page, &format!("body > .ui-select-portal [data-value='{value}']"))
        .await
        .click()
        .await
        .unwrap();
}

/// Clicks the centre of an element inside the page's first iframe (same origin), by screen position.
pub async fn click_in_frame(page: &Page, selector: &str) {
    let js = format!(
        "(() => {{ const f = document.querySelector('iframe'); const fr = f.getBoundingClientRect(); \
         const r = f.contentDocument.querySelector({}).getBoundingClientRect(); \
         return [fr.left + r.left + r.width / 2, fr.top + r.top + r.height / 2]; }})()",
        serde_json::to_string(selector).unwrap()
    );
    let point: Vec<f64> = page.evaluate(js.as_str()).await.unwrap().into_value().unwrap();
    page.click(Point {
        x: point[0],
        y: point[1],
    })
    .await
    .unwrap();
}

/// Waits for the element matching `selector` and clicks it once it can be clicked: an element that
/// is in the DOM but not laid out yet (a panel still rendering) is found again until it is.
pub async fn click(page: &Page, selector: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match wait_for(page, selector).await.click().await {
            Ok(_) => return,
            Err(e) if Instant::now() > deadline => panic!("could not click {selector}: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// Waits for the element matching `xpath` and clicks it once it can be clicked, as [`click`] does.
pub async fn click_xpath(page: &Page, xpath: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match wait_xpath(page, xpath).await.click().await {
            Ok(_) => return,
            Err(e) if Instant::now() > deadline => panic!("could not click {xpath}: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// Clicks into the empty field matching `selector` and types `text` as a person would, typing again
/// if the field does not end up holding it: a panel still opening may move the focus to its first
/// field while the keys arrive, and a person would see that and retype.
pub async fn type_into(page: &Page, selector: &str, text: &str) {
    let quoted = serde_json::to_string(selector).unwrap();
    let value = format!("document.querySelector({quoted}).value");
    let clear = format!(
        "(() => {{ const field = document.querySelector({quoted}); field.value = ''; \
         field.dispatchEvent(new Event('input', {{ bubbles: true }})); }})()"
    );
    for _ in 0..3 {
        wait_for(page, selector)
            .await
            .click()
            .await
            .unwrap()
            .type_str(text)
            .await
            .unwrap();
        let held: String = page
            .evaluate(value.as_str())
            .await
            .unwrap()
            .into_value()
            .unwrap_or_default();
        if held == text {
            return;
        }
        page.evaluate(clear.as_str()).await.unwrap();
    }
    panic!("{selector} never held {text:?} after three tries");
}
