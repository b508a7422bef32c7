//! How fast the emulator is: signed OpenAPI calls per second over real HTTP (next to an unsigned
//! hello-world route on the same server and client, measured in the same run), `LookupEvents`
//! latency over a large audit trail, console page loads, and resident memory with many accounts and
//! resources.
//!
//! Run with `cargo bench -p aca-console --bench console`; it prints one table.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use aca_console::clock::iso8601;
use aca_console::dispatch::Caller;
use aca_console::params::Params;
use aca_console::state::StoredEvent;
use aca_console::store::Changes;
use aca_console::{Console, ConsoleConfig, Credentials, Store, SystemClock, products};
use aca_core::EventType;
use aca_openapi::sign::{RpcRequest, percent_encode, sign_rpc};
use axum::routing::get;

/// Concurrent HTTP clients in the throughput runs.
const CLIENTS: usize = 8;
/// How long each throughput run lasts (after a short warm-up), and how many interleaved rounds give the median.
const RUN: Duration = Duration::from_secs(1);
const WARM_UP: Duration = Duration::from_millis(300);
const ROUNDS: usize = 5;
const TRAIL_EVENTS: usize = 100_000;
const LOOKUPS: usize = 400;
const ACCOUNTS: usize = 100;
const RESOURCES_PER_ACCOUNT: usize = 100;

/// One line of the printed table.
struct Row {
    name: String,
    value: String,
    target: String,
    note: String,
}

impl Row {
    fn new(
        name: impl Into<String>,
        value: impl Into<String>,
        target: impl Into<String>,
        note: impl Into<String>,
    ) -> Self {
        Self {
            name: name.into(),
            value: value.into(),
            target: target.into(),
            note: note.into(),
        }
    }
}

fn main() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(cores)
        .enable_all()
        .build()
        .unwrap();
    let mut rows = Vec::new();

    // Memory first, in a fresh process, so later runs do not inflate it.
    rows.extend(memory_with_many_accounts());
    rows.extend(runtime.block_on(throughput()));
    rows.extend(runtime.block_on(lookup_latency()));
    rows.extend(runtime.block_on(console_pages()));

    println!();
    println!(
        "aca-console benchmark ({cores} cores, {CLIENTS} concurrent HTTP clients in the same process, median of {ROUNDS} rounds)"
    );
    print_table(&rows);
}

fn print_table(rows: &[Row]) {
    let headers = ["measurement", "value", "target", "notes"];
    let width = |column: usize, pick: fn(&Row) -> &str| {
        rows.iter()
            .map(|r| pick(r).chars().count())
            .chain([headers[column].len()])
            .max()
            .unwrap_or(0)
    };
    let widths = [width(0, |r| &r.name), width(1, |r| &r.value), width(2, |r| &r.target)];
    println!(
        "{:<w0$}  {:>w1$}  {:<w2$}  {}",
        headers[0],
        headers[1],
        headers[2],
        headers[3],
        w0 = widths[0],
        w1 = widths[1],
        w2 = widths[2]
    );
    println!("{}", "-".repeat(widths.iter().sum::<usize>() + 6 + 40));
    for r in rows {
        println!(
            "{:<w0$}  {:>w1$}  {:<w2$}  {}",
            r.name,
            r.value,
            r.target,
            r.note,
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2]
        );
    }
}

// ----- a server on a real port -----

struct Server {
    console: Arc<Console>,
    base: String,
}

/// Serves the emulator, plus an unsigned `/hello` route that only returns a constant: the reference
/// for what the same HTTP stack and client manage without any OpenAPI work.
async fn serve(console: Console) -> Server {
    let console = Arc::new(console);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = aca_console::app(console.clone()).route("/hello", get(|| async { "hello" }));
    tokio::spawn(async move {
        axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
            .await
            .unwrap();
    });
    Server {
        console,
        base: format!("http://{addr}"),
    }
}

/// A signed RPC 1.0 GET URL, as an SDK builds it.
fn signed_url(
    base: &str,
    creds: &Credentials,
    now_ms: i64,
    version: &str,
    action: &str,
    extra: &[(&str, &str)],
) -> String {
    let mut params: BTreeMap<String, String> = std::iter::once(("RegionId", "cn-hangzhou"))
        .chain(extra.iter().copied())
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    let request = RpcRequest {
        method: "GET",
        action,
        version,
        access_key_id: &creds.access_key_id,
        access_key_secret: &creds.access_key_secret,
        timestamp: &iso8601(now_ms),
        nonce: &uuid::Uuid::new_v4().to_string(),
    };
    sign_rpc(request, &mut params);
    let query: Vec<String> = params
        .iter()
        .map(|(k, v)| format!("{}={}", percent_encode(k), percent_encode(v)))
        .collect();
    format!("{base}/?{}", query.join("&"))
}

// ----- 1. throughput -----

/// Builds one request of a workload (signing it afresh each time where it is signed).
type MakeRequest = Arc<dyn Fn(&reqwest::Client) -> reqwest::RequestBuilder + Send + Sync>;

/// Runs `CLIENTS` loops of `request` for `RUN` and returns completed calls per second (all must succeed).
async fn calls_per_second(request: MakeRequest) -> f64 {
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(CLIENTS)
        .build()
        .unwrap();
    let done = Arc::new(AtomicU64::new(0));
    let counting = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stop_at = Instant::now() + WARM_UP + RUN;
    let tasks: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let (http, request, done, counting) = (http.clone(), request.clone(), done.clone(), counting.clone());
            tokio::spawn(async move {
                while Instant::now() < stop_at {
                    let response = request(&http).send().await.expect("request sent");
                    let status = response.status();
                    let body = response.bytes().await.expect("body read");
                    assert!(status.is_success(), "{status}: {}", String::from_utf8_lossy(&body));
                    if counting.load(Ordering::Relaxed) {
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                }
            })
        })
        .collect();
    tokio::time::sleep(WARM_UP).await;
    counting.store(true, Ordering::Relaxed);
    let started = Instant::now();
    for task in tasks {
        task.await.unwrap();
    }
    done.load(Ordering::Relaxed) as f64 / started.elapsed().as_secs_f64()
}

/// A signed RPC call of the VPC API, signed afresh for every request.
fn signed_vpc_call(
    server: &Server,
    creds: &Credentials,
    action: &'static str,
    extra: &'static [(&'static str, &'static str)],
) -> MakeRequest {
    let (base, creds, console) = (server.base.clone(), creds.clone(), server.console.clone());
    Arc::new(move |http: &reqwest::Client| {
        http.get(signed_url(
            &base,
            &creds,
            console.clock.now_ms(),
            "2016-04-28",
            action,
            extra,
        ))
    })
}

fn median(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

async fn throughput() -> Vec<Row> {
    let server = serve(Console::in_memory(ConsoleConfig::for_tests())).await;
    let creds = server.console.create_account("bench", None).unwrap();
    // Writes go to their own account: the thousands of VPCs they make must not slow the describes.
    let writer = server.console.create_account("writer", None).unwrap();
    // A VPC to describe, made through the API itself.
    let now = server.console.clock.now_ms();
    let created = reqwest::get(signed_url(
        &server.base,
        &creds,
        now,
        "2016-04-28",
        "CreateVpc",
        &[("VpcName", "listed")],
    ))
    .await
    .unwrap();
    assert!(
        created.status().is_success(),
        "CreateVpc: {}",
        created.text().await.unwrap_or_default()
    );

    // The same writes with every commit going to SQLite (WAL), as `aca console --db FILE` runs.
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("bench.db")).unwrap();
    let durable = serve(Console::new(ConsoleConfig::for_tests(), store, Arc::new(SystemClock))).await;
    let durable_creds = durable.console.create_account("bench", None).unwrap();

    let hello_url = format!("{}/hello", server.base);
    let workloads: Vec<MakeRequest> = vec![
        Arc::new(move |http: &reqwest::Client| http.get(&hello_url)),
        signed_vpc_call(&server, &creds, "DescribeVpcs", &[]),
        signed_vpc_call(&server, &writer, "CreateVpc", &[("VpcName", "bench")]),
        signed_vpc_call(&durable, &durable_creds, "CreateVpc", &[("VpcName", "bench")]),
    ];
    // Interleaved rounds, so that a busy neighbour on the machine slows every workload alike.
    let mut samples = vec![Vec::new(); workloads.len()];
    for _ in 0..ROUNDS {
        for (workload, samples) in workloads.iter().zip(samples.iter_mut()) {
            samples.push(calls_per_second(workload.clone()).await);
        }
    }
    let [reference, describe, create, create_durable] = [0, 1, 2, 3].map(|i| median(&mut samples[i]));

    assert_calls_did_work(&server, &writer);
    assert_calls_did_work(&durable, &durable_creds);
    let describes = server
        .console
        .store
        .account(&creds.account_id)
        .unwrap()
        .lock()
        .events
        .iter()
        .filter(|e| e.event.event_name == "DescribeVpcs")
        .count();
    assert!(describes > 0, "DescribeVpcs calls left no events");

    // How a list scales with the account: DescribeVpcs (first page of 10) in the account the writes filled.
    let filled = server
        .console
        .store
        .account(&writer.account_id)
        .unwrap()
        .lock()
        .resources()
        .len();
    let http = reqwest::Client::new();
    let mut latencies = Vec::new();
    for _ in 0..20 {
        let url = signed_url(
            &server.base,
            &writer,
            server.console.clock.now_ms(),
            "2016-04-28",
            "DescribeVpcs",
            &[],
        );
        let started = Instant::now();
        let response = http.get(url).send().await.unwrap();
        assert!(response.status().is_success());
        response.bytes().await.unwrap();
        latencies.push(ms(started.elapsed()));
    }
    let big_list_p50 = median(&mut latencies);

    let ratio = |x: f64| format!("{:.0}% of hello-world", 100.0 * x / reference);
    vec![
        Row::new(
            "unsigned hello-world (reference)",
            format!("{reference:.0}/s"),
            "",
            "same server, same client, same run",
        ),
        Row::new(
            "signed DescribeVpcs over HTTP",
            format!("{describe:.0}/s"),
            "≥ 2000/s",
            ratio(describe),
        ),
        Row::new(
            "signed CreateVpc over HTTP",
            format!("{create:.0}/s"),
            "",
            ratio(create) + ", each one stored and audited",
        ),
        Row::new(
            "signed CreateVpc over HTTP, SQLite store",
            format!("{create_durable:.0}/s"),
            "",
            ratio(create_durable) + ", each commit written to disk",
        ),
        Row::new(
            format!("DescribeVpcs p50, account with {filled} VPCs"),
            format!("{big_list_p50:.1} ms"),
            "",
            "one client; lists scan the account's resources",
        ),
    ]
}

/// Guards the throughput figures: the benchmarked calls really did their work and were audited.
fn assert_calls_did_work(server: &Server, creds: &Credentials) {
    let shared = server.console.store.account(&creds.account_id).unwrap();
    let state = shared.lock();
    let succeeded = |name: &str| {
        state
            .events
            .iter()
            .filter(|e| e.event.event_name == name && e.event.error_code.is_none())
            .count()
    };
    let vpcs = state.resources().values().filter(|r| r.kind == "vpc.vpc").count();
    assert!(
        succeeded("CreateVpc") == vpcs && vpcs > 1,
        "the benchmarked calls left no trace"
    );
}

// ----- 2. LookupEvents latency -----

async fn lookup_latency() -> Vec<Row> {
    let Some(actiontrail) = products::by_version("2020-07-06") else {
        return vec![Row::new(
            "LookupEvents p50 / p99",
            "n/a",
            "p50 ≤ 5 ms",
            "not measured: ActionTrail (API 2020-07-06) is not registered in this build",
        )];
    };
    let config = ConsoleConfig {
        lookup_qps: 1e9,
        ..ConsoleConfig::for_tests()
    };
    let server = serve(Console::in_memory(config)).await;
    let creds = server.console.create_account("trail", None).unwrap();
    let built = Instant::now();
    fill_trail(&server.console, &creds, TRAIL_EVENTS);
    let fill_s = built.elapsed().as_secs_f64();

    let now = server.console.clock.now_ms();
    let start = iso8601(now - 2 * 24 * 3600 * 1000);
    let end = iso8601(now + 60_000);
    let http = reqwest::Client::new();
    let mut first_page = Vec::with_capacity(LOOKUPS);
    let mut filtered = Vec::with_capacity(LOOKUPS);
    for i in 0..LOOKUPS * 2 {
        let by_name = i % 2 == 1;
        let mut extra = vec![
            ("StartTime", start.as_str()),
            ("EndTime", end.as_str()),
            ("MaxResults", "50"),
        ];
        if by_name {
            extra.extend([
                ("LookupAttribute.1.Key", "EventName"),
                ("LookupAttribute.1.Value", "DeleteVSwitch"),
            ]);
        }
        let url = signed_url(
            &server.base,
            &creds,
            server.console.clock.now_ms(),
            actiontrail.version,
            "LookupEvents",
            &extra,
        );
        let started = Instant::now();
        let response = http.get(url).send().await.unwrap();
        let status = response.status();
        let body: serde_json::Value = response.json().await.unwrap();
        let elapsed = started.elapsed();
        assert!(status.is_success(), "LookupEvents failed: {body}");
        let events = body["Events"].as_array().map_or(0, Vec::len);
        assert_eq!(events, 50, "a full page of 50 events: {body}");
        if by_name {
            filtered.push(elapsed)
        } else {
            first_page.push(elapsed)
        }
    }
    let row = |name: &str, samples: &mut Vec<Duration>| {
        samples.sort();
        let p = |q: f64| samples[((samples.len() as f64 * q) as usize).min(samples.len() - 1)];
        Row::new(
            name,
            format!("{:.2} / {:.2} ms", ms(p(0.50)), ms(p(0.99))),
            "p50 ≤ 5 ms",
            format!("{TRAIL_EVENTS} events in one account (built in {fill_s:.1} s), signed HTTP, MaxResults=50"),
        )
    };
    vec![
        row("LookupEvents p50 / p99 (time window)", &mut first_page),
        row("LookupEvents p50 / p99 (EventName filter)", &mut filtered),
    ]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Writes `count` events into the account directly, cloned from real ones (one VPC call of each kind)
/// with distinct ids and times spread over the last day.
fn fill_trail(console: &Console, creds: &Credentials, count: usize) {
    let caller = Caller {
        account_id: creds.account_id.clone(),
        access_key_id: creds.access_key_id.clone(),
        user_name: None,
        user_agent: "aca-console-bench".into(),
        source_ip: "127.0.0.1".into(),
        event_type: EventType::ApiCall,
        event_name: None,
    };
    let vpc = &products::vpc::PRODUCT;
    let created = console.call(vpc, "CreateVpc", &Params::from_pairs([("VpcName", "trail")]), &caller);
    let vpc_id = created.result.expect("CreateVpc")["VpcId"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let _ = console.call(
        vpc,
        "DeleteVSwitch",
        &Params::from_pairs([("VSwitchId", "vsw-gone")]),
        &caller,
    );
    let _ = console.call(
        vpc,
        "DescribeVpcs",
        &Params::from_pairs([("VpcId", vpc_id.as_str())]),
        &caller,
    );
    let shared = console.store.account(&creds.account_id).unwrap();
    let mut state = shared.lock();
    let templates: Vec<StoredEvent> = std::mem::take(&mut state.events);
    let now = console.clock.now_ms();
    let span_ms = 24 * 3600 * 1000;
    let events: Vec<StoredEvent> = (0..count)
        .map(|i| {
            let mut stored = templates[i % templates.len()].clone();
            let at = now - span_ms + (i as i64 * span_ms) / count as i64;
            stored.time_ms = at;
            stored.visible_ms = at;
            stored.event.event_time = iso8601(at);
            stored.event.event_id = uuid::Uuid::new_v4().to_string().to_uppercase();
            stored.event.request_id = uuid::Uuid::new_v4().to_string().to_uppercase();
            stored
        })
        .collect();
    console
        .store
        .commit(
            &mut state,
            Changes {
                events,
                ..Changes::default()
            },
        )
        .expect("events stored");
}

// ----- 3. console pages -----

/// Pages rendered per measurement.
const PAGE_LOADS: usize = 300;
/// VPCs in the account whose console pages are rendered (the list shows the first page of them).
const LISTED_VPCS: usize = 30;

/// The console's own pages over HTTP, logged on with a session cookie: each load runs the page's
/// Describe call (audited, as the real console's calls are) and renders the HTML.
async fn console_pages() -> Vec<Row> {
    let server = serve(Console::in_memory(ConsoleConfig::for_tests())).await;
    let creds = server.console.create_account("pages", None).unwrap();
    let caller = Caller {
        account_id: creds.account_id.clone(),
        access_key_id: creds.access_key_id.clone(),
        user_name: None,
        user_agent: "aca-console-bench".into(),
        source_ip: "127.0.0.1".into(),
        event_type: EventType::ApiCall,
        event_name: None,
    };
    let mut vpc_id = String::new();
    for i in 0..LISTED_VPCS {
        let name = format!("web-{i:02}");
        let created = server.console.call(
            &products::vpc::PRODUCT,
            "CreateVpc",
            &Params::from_pairs([("VpcName", name)]),
            &caller,
        );
        vpc_id = created.result.expect("CreateVpc")["VpcId"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
    }

    // Log on as a person would: the logon form sets the session cookie on its redirect.
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let form = format!(
        "login={}&password={}",
        percent_encode(&creds.login),
        percent_encode(&creds.password)
    );
    let logon = http
        .post(format!("{}/login", server.base))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(form)
        .send()
        .await
        .unwrap();
    let cookie = logon
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .expect("the logon sets a session cookie")
        .to_owned();

    let mut rows = Vec::new();
    // (row, URL path, text each load must show, how many times at least)
    let pages = [
        (
            "console page p50 / p99: VPC list",
            "/console/vpc/vpcs".to_owned(),
            "web-".to_owned(),
            10,
        ),
        (
            "console page p50 / p99: VPC details",
            format!("/console/vpc/vpcs/{vpc_id}"),
            vpc_id.clone(),
            1,
        ),
    ];
    for (name, path, must_show, at_least) in pages {
        let url = format!("{}{path}", server.base);
        let mut samples = Vec::with_capacity(PAGE_LOADS);
        for _ in 0..PAGE_LOADS {
            let started = Instant::now();
            let response = http.get(&url).header("cookie", &cookie).send().await.unwrap();
            let status = response.status();
            let page = response.text().await.unwrap();
            samples.push(started.elapsed());
            let shown = page.matches(must_show.as_str()).count();
            assert!(
                status.is_success() && shown >= at_least,
                "{path}: {status}, {shown} × {must_show:?}: {page:.300}"
            );
        }
        samples.sort();
        let p = |q: f64| ms(samples[((samples.len() as f64 * q) as usize).min(samples.len() - 1)]);
        let shown_path = path.replace(&vpc_id, "{VpcId}");
        rows.push(Row::new(
            name,
            format!("{:.2} / {:.2} ms", p(0.50), p(0.99)),
            "",
            format!("GET {shown_path} over HTTP, logged on, {LISTED_VPCS} VPCs in the account"),
        ));
    }
    rows
}

// ----- 4. memory -----

fn resident_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb: f64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(f64::NAN);
    kb / 1024.0
}

/// 100 accounts, each with one VPC and 99 vSwitches made through the real operations (so each
/// resource also leaves its audit event).
fn memory_with_many_accounts() -> Vec<Row> {
    let before = resident_mb();
    let console = Console::in_memory(ConsoleConfig::for_tests());
    let vpc = &products::vpc::PRODUCT;
    let mut resources = 0;
    for a in 0..ACCOUNTS {
        let creds = console.create_account(&format!("tenant{a}"), None).unwrap();
        let caller = Caller {
            account_id: creds.account_id.clone(),
            access_key_id: creds.access_key_id.clone(),
            user_name: None,
            user_agent: "aca-console-bench".into(),
            source_ip: "127.0.0.1".into(),
            event_type: EventType::ApiCall,
            event_name: None,
        };
        let created = console.call(vpc, "CreateVpc", &Params::from_pairs([("VpcName", "mem")]), &caller);
        let vpc_id = created.result.expect("CreateVpc")["VpcId"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        resources += 1;
        for v in 0..RESOURCES_PER_ACCOUNT - 1 {
            let cidr = format!("172.16.{v}.0/24");
            let name = format!("vsw-{v}");
            let params = Params::from_pairs([
                ("VpcId", vpc_id.as_str()),
                ("ZoneId", "cn-hangzhou-i"),
                ("CidrBlock", cidr.as_str()),
                ("VSwitchName", name.as_str()),
            ]);
            console
                .call(vpc, "CreateVSwitch", &params, &caller)
                .result
                .expect("CreateVSwitch");
            resources += 1;
        }
    }
    let after = resident_mb();
    let stored: usize = console.account_summaries().iter().map(|s| s.resources).sum();
    assert_eq!(stored, resources);
    vec![Row::new(
        format!("resident memory, {ACCOUNTS} accounts × {RESOURCES_PER_ACCOUNT} resources"),
        format!("{after:.0} MB"),
        "≤ 200 MB",
        format!(
            "VmRSS; {:.0} MB of it for the {resources} resources and their events",
            after - before
        ),
    )]
}
