//! Observation speed and size.
//!
//! 1. Speed: the page side's own `bench_observe` on a generated console-like page of about 2,000
//!    DOM nodes (navigation pane, a 100-row table with action menus, a dialog, a portal select),
//!    and the runtime's full `Session::observe` round trip over CDP on the same page: p50 / p99.
//! 2. Size: on the emulator's list, wizard (buy) and dialog pages, the tokens of `to_text()` against
//!    a plain serialisation of every visible interactive element with all its attributes and text
//!    (`<tag attr="…">text</tag>`, one per line), side by side with the ratio (target ≤ 0.5).
//!    Tokens are counted two ways: characters / 4, and a split into words and single punctuation
//!    marks (`\w+|[^\w\s]`); the ratio uses the split.
//! 3. Coverage: every element a procedure step on those pages needs is in the observation.
//!
//! Run: `cargo bench -p aca-runner --bench observe` (needs Chromium and `scripts/build-wasm`).

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use aca_console::ConsoleConfig;
use aca_core::{Observation, Role};
use aca_e2e::Emulator;
use aca_runner::{ObserveOptions, Runner, RunnerConfig, Session, find};
use axum::response::Html;
use axum::routing::get;

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let missing = runtime.block_on(run());
    if missing > 0 {
        eprintln!("{missing} needed elements missing from the observations");
        std::process::exit(1);
    }
}

async fn run() -> usize {
    let runner = match Runner::launch(RunnerConfig::default()).await {
        Ok(runner) => runner,
        Err(e) => {
            eprintln!("cannot run the benchmark: {e}");
            std::process::exit(2);
        }
    };
    speed(&runner).await;
    let missing = size_and_coverage(&runner).await;
    runner.close().await;
    missing
}

/// A console-like page: top bar, a navigation pane of 10 groups, a table of `rows` rows each with a
/// checkbox, name link, id, status, zone, CIDR, three action links and a More menu, pagination, a
/// hidden dialog form and a portal select's options.
fn generated_page(rows: usize) -> String {
    let mut html = String::from(
        "<!doctype html><html><head><title>VPCs - Generated console</title><style>\
         body{font:13px sans-serif;margin:0}.top{height:50px;background:#222;color:#fff}\
         .nav{position:fixed;top:50px;left:0;width:200px;bottom:0;overflow:auto}\
         .main{margin-left:210px}.menu-list{display:none}.more:hover .menu-list{display:block}\
         .dialog{display:none}</style></head><body>\
         <header class=top><a href=/>Alibaba Cloud</a> <input placeholder=Search aria-label=Search>\
         <a href=#>Billing</a> <a href=#>Tickets</a> <button>Account</button></header><nav class=nav>",
    );
    for group in 0..10 {
        let _ = write!(html, "<div class=group><h4>Group {group}</h4><ul>");
        for item in 0..5 {
            let _ = write!(html, "<li><a href='#g{group}i{item}'>Item {group}.{item}</a></li>");
        }
        html.push_str("</ul></div>");
    }
    html.push_str(
        "</nav><main class=main><h1>VPCs</h1><div class=toolbar><a class=btn href=#create role=button>Create VPC</a> \
         <input aria-label='Search by name' placeholder='VPC name'> <button>Search</button> <button>Refresh</button></div>\
         <table><thead><tr><th><input type=checkbox aria-label='Select all'></th><th>Name/ID</th><th>Status</th>\
         <th>Zone</th><th>IPv4 CIDR Block</th><th>Actions</th></tr></thead><tbody>",
    );
    for row in 0..rows {
        let _ = write!(
            html,
            "<tr><td><input type=checkbox aria-label='Select vpc-{row:04}'></td>\
             <td><a href='#vpc-{row:04}'>web-vpc-{row}</a><div class=id>vpc-bp1{row:08}</div></td>\
             <td><span class=status>Available</span></td><td>Hangzhou Zone {}</td><td>192.168.{}.0/24</td>\
             <td><a href=#m>Manage</a> <a href=#e>Edit</a> <a href=#d>Delete</a>\
             <span class=more><button>More</button><span class=menu-list role=menu>\
             <a role=menuitem href=#t>Tags</a><a role=menuitem href=#c>Cloud Enterprise Network</a></span></span></td></tr>",
            ["H", "I", "J", "K"][row % 4],
            row % 250
        );
    }
    html.push_str(
        "</tbody></table><div class=pagination><button>Previous</button><button>1</button><button>2</button>\
         <button>Next</button></div></main>\
         <div class=dialog role=dialog aria-label='Create vSwitch'><h2>Create vSwitch</h2><form>\
         <label>Name <input name=VSwitchName></label><label>Zone <div role=combobox tabindex=0>Select a zone</div></label>\
         <button>OK</button><button>Cancel</button></form></div>\
         <div class=portal role=listbox style='display:none'><div role=option>Hangzhou Zone H</div>\
         <div role=option>Hangzhou Zone I</div></div></body></html>",
    );
    html
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

async fn speed(runner: &Runner) {
    let rows = 100;
    let page = generated_page(rows);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let base = format!("http://{}", listener.local_addr().expect("an address"));
    let app = axum::Router::new().route("/", get(move || std::future::ready(Html(page.clone()))));
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    let mut session = Session::open(runner, &base).await.expect("the generated page opens");
    let nodes = session
        .evaluate("document.getElementsByTagName('*').length")
        .await
        .expect("a node count");
    println!("== observation speed: generated console-like page, {nodes} DOM nodes ({rows} table rows)");
    let options = serde_json::to_string(&ObserveOptions::default()).expect("options");
    let runs = 200;
    let expression = format!(
        "(async () => (await globalThis.__acaDom).bench_observe({}, {runs}))()",
        serde_json::Value::String(options)
    );
    match session.evaluate_isolated(&expression).await {
        Ok(answer) => {
            let report: serde_json::Value = answer
                .as_str()
                .and_then(|text| serde_json::from_str(text).ok())
                .unwrap_or(answer);
            println!(
                "page side bench_observe ({} runs, {} elements): p50 {:.2} ms, p99 {:.2} ms (mean {:.2}, max {:.2})",
                report["runs"],
                report["elements"],
                report["p50_ms"].as_f64().unwrap_or(f64::NAN),
                report["p99_ms"].as_f64().unwrap_or(f64::NAN),
                report["mean_ms"].as_f64().unwrap_or(f64::NAN),
                report["max_ms"].as_f64().unwrap_or(f64::NAN),
            );
        }
        Err(e) => println!("page side bench_observe failed: {e}"),
    }
    let mut round_trips = Vec::new();
    let mut elements = 0;
    for _ in 0..50 {
        let started = Instant::now();
        let observation = session
            .observe(&ObserveOptions::default())
            .await
            .expect("an observation");
        round_trips.push(started.elapsed().as_secs_f64() * 1_000.0);
        elements = observation.elements.len();
    }
    round_trips.sort_by(f64::total_cmp);
    println!(
        "Session::observe over CDP (50 runs, {elements} elements): p50 {:.2} ms, p99 {:.2} ms",
        percentile(&round_trips, 50.0),
        percentile(&round_trips, 99.0)
    );
    let _ = session.close().await;
}

/// Every visible interactive element with all its attributes and its text, one per line.
const PLAIN_SERIALISATION: &str = r#"(() => {
  const interactive = 'a[href], button, input:not([type=hidden]), select, textarea, [role], [onclick], [tabindex], [contenteditable=true]';
  const lines = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) walk(el.shadowRoot);
      if (el.tagName === 'IFRAME') { try { if (el.contentDocument) walk(el.contentDocument); } catch (e) {} }
      if (!el.matches(interactive)) continue;
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden' || style.display === 'none') continue;
      const tag = el.tagName.toLowerCase();
      const attrs = [...el.attributes].map(a => ` ${a.name}="${a.value}"`).join('');
      const text = (el.innerText || el.value || '').trim().replace(/\s+/g, ' ').slice(0, 80);
      lines.push(`<${tag}${attrs}>${text}</${tag}>`);
    }
  };
  walk(document);
  return lines.join('\n');
})()"#;

fn split_tokens(text: &str) -> usize {
    let mut count = 0;
    let mut in_word = false;
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' {
            if !in_word {
                count += 1;
            }
            in_word = true;
        } else {
            in_word = false;
            if !c.is_whitespace() {
                count += 1;
            }
        }
    }
    count
}

/// What a procedure step on the page must be able to find: (role, name).
struct Needs {
    page: &'static str,
    elements: &'static [(&'static [Role], &'static str)],
}

const LIST_NEEDS: Needs = Needs {
    page: "list (VPCs)",
    elements: &[
        (&[Role::Link, Role::Button], "Create VPC"),
        (&[Role::Link], "vSwitch"),
        (&[Role::Link], "Console home"),
    ],
};
const WIZARD_NEEDS: Needs = Needs {
    page: "wizard (ECS Custom Launch)",
    elements: &[
        (&[Role::Radio], "Pay-as-you-go"),
        (&[Role::Radio], "Subscription"),
        (&[Role::Combobox], "Zone"),
        (&[Role::Combobox], "Instance Type"),
        (&[Role::Combobox], "Image"),
        (&[Role::Button], "Next"),
    ],
};
const DIALOG_NEEDS: Needs = Needs {
    page: "dialog (Create vSwitch)",
    elements: &[
        (&[Role::Combobox], "VPC"),
        (&[Role::Textbox], "Name"),
        (&[Role::Combobox], "Zone"),
        (&[Role::Textbox], "IPv4 CIDR Block"),
        (&[Role::Button], "OK"),
        (&[Role::Button], "Cancel"),
    ],
};

fn missing(observation: &Observation, needs: &Needs) -> Vec<String> {
    needs
        .elements
        .iter()
        .filter(|(roles, name)| {
            !roles
                .iter()
                .any(|role| find::by_name(observation, *role, name).is_some())
        })
        .map(|(roles, name)| format!("{} {name:?}", roles[0].as_str()))
        .collect()
}

async fn size_and_coverage(runner: &Runner) -> usize {
    let emulator = Emulator::start(ConsoleConfig::for_tests())
        .await
        .expect("the emulator starts");
    let base = emulator.url.clone();
    let mut session = Session::open(runner, "about:blank").await.expect("a tab");
    aca_runner::logon::log_on(
        &mut session,
        &format!("{base}/login"),
        &emulator.account.login,
        &emulator.account.password,
    )
    .await
    .expect("logging on");
    println!("\n== observation size: tokens of to_text() vs a plain serialisation of visible interactive elements");
    println!(
        "{:<28} {:>10} {:>10} {:>12} {:>12} {:>7}",
        "page", "text ch/4", "text split", "plain ch/4", "plain split", "ratio"
    );
    let mut missing_total = 0;
    let pages: [(&Needs, String, Option<&str>); 3] = [
        (&LIST_NEEDS, format!("{base}/console/vpc/vpcs?region=cn-hangzhou"), None),
        (
            &WIZARD_NEEDS,
            format!("{base}/console/ecs/instances/buy/buy-instance?region=cn-hangzhou"),
            None,
        ),
        (
            &DIALOG_NEEDS,
            format!("{base}/console/vpc/vswitches?region=cn-hangzhou"),
            Some("Create vSwitch"),
        ),
    ];
    for (needs, url, opener) in pages {
        session.goto(&url).await.expect("the page loads");
        if let Some(opener) = opener {
            let observation = session
                .observe(&ObserveOptions::default())
                .await
                .expect("an observation");
            let button = find::by_name(&observation, Role::Button, opener).expect("the dialog's opener");
            let request = aca_core::ActRequest {
                action: aca_core::GuiAction::Click { index: button.index },
                fingerprint: None,
                timeout_ms: 5_000,
            };
            let outcome = session.act(request).await;
            assert!(outcome.succeeded(), "opening the dialog: {outcome:?}");
        }
        let _ = session.wait_settled(Duration::from_secs(3)).await;
        let observation = session
            .observe(&ObserveOptions::default())
            .await
            .expect("an observation");
        let text = observation.to_text();
        let plain = session
            .evaluate(PLAIN_SERIALISATION)
            .await
            .expect("the plain serialisation")
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let (text_split, plain_split) = (split_tokens(&text), split_tokens(&plain));
        println!(
            "{:<28} {:>10} {:>10} {:>12} {:>12} {:>7.2}",
            needs.page,
            text.chars().count() / 4,
            text_split,
            plain.chars().count() / 4,
            plain_split,
            text_split as f64 / plain_split.max(1) as f64
        );
        let gaps = missing(&observation, needs);
        if !gaps.is_empty() {
            println!("   missing on {}: {}", needs.page, gaps.join(", "));
            println!("{text}");
        }
        missing_total += gaps.len();
    }
    println!("(ratio = text split / plain split; target <= 0.50)");
    let _ = session.close().await;
    missing_total
}
