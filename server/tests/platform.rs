//! The platform service for real: `aca verify --all --jobs 2` and `aca server` running queued pages
//! in headless Chromium against the bundled console, recording every run in SQLite and in a real
//! PostgreSQL server; a server killed mid-run, a browser that fails, a database that goes away.

mod common;
#[path = "../../crates/aca-platform/tests/support/postgres.rs"]
mod postgres;

use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use aca_platform::{Db, DbUrl, Queue, Results};
use common::{ACA, aca, corpus, show, without_caller_env};
use serde_json::{Value, json};

const TOKEN: &str = "platform-admin-token";

/// `dir/docs/PRODUCT/PAGE.md` with its sidecar, for each `product/slug`.
fn docs(dir: &Path, pages: &[&str]) -> PathBuf {
    let docs = dir.join("docs");
    for page in pages {
        let (product, slug) = page.split_once('/').unwrap();
        std::fs::create_dir_all(docs.join(product)).unwrap();
        for file in [format!("{slug}.md"), format!("{slug}.task.toml")] {
            std::fs::copy(corpus(product).join(&file), docs.join(product).join(&file)).unwrap();
        }
    }
    docs
}

/// A running `aca server`, killed with the browsers it started when dropped.
struct Server {
    child: Child,
    url: String,
    client: reqwest::blocking::Client,
}

impl Server {
    fn start(dir: &Path, db: &str, extra: &[&str]) -> Self {
        let mut child = without_caller_env(Command::new(ACA))
            .args([
                "server",
                "--listen",
                "127.0.0.1:0",
                "--db",
                db,
                "--admin-token",
                TOKEN,
                "--out",
            ])
            .arg(dir.join("reports"))
            .args(extra)
            .current_dir(dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            // Its own process group, so that killing it kills its browsers too.
            .process_group(0)
            .spawn()
            .expect("aca server starts");
        use std::io::BufRead as _;
        let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
        let url = loop {
            let line = lines.next().expect("aca server exited before it was ready").unwrap();
            if let Some(url) = line.strip_prefix("aca server ready at ") {
                break url.trim().to_owned();
            }
        };
        std::thread::spawn(move || lines.for_each(drop));
        Self {
            child,
            url,
            client: reqwest::blocking::Client::builder()
                .timeout(Duration::from_secs(30))
                .build()
                .unwrap(),
        }
    }

    fn get(&self, path: &str) -> (u16, Value) {
        self.get_with(path, &[])
    }

    fn get_with(&self, path: &str, query: &[(&str, &str)]) -> (u16, Value) {
        let response = self
            .client
            .get(format!("{}{path}", self.url))
            .query(query)
            .send()
            .unwrap();
        let status = response.status().as_u16();
        (status, response.json().unwrap_or(Value::Null))
    }

    fn send(&self, method: reqwest::Method, path: &str, body: Value, token: Option<&str>) -> (u16, Value) {
        let mut request = self.client.request(method, format!("{}{path}", self.url)).json(&body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().unwrap();
        let status = response.status().as_u16();
        (status, response.json().unwrap_or(Value::Null))
    }

    fn metrics(&self) -> String {
        self.client
            .get(format!("{}/metrics", self.url))
            .send()
            .unwrap()
            .text()
            .unwrap()
    }

    /// The jobs, once every one has ended.
    fn wait_for_jobs(&self, within: Duration) -> Vec<Value> {
        let deadline = Instant::now() + within;
        loop {
            let (status, jobs) = self.get("/v1/jobs?limit=1000");
            if status == 200 {
                let jobs = jobs.as_array().unwrap().clone();
                if !jobs.is_empty() && jobs.iter().all(|j| j["state"] != "queued" && j["state"] != "running") {
                    return jobs;
                }
            }
            assert!(
                Instant::now() < deadline,
                "the jobs did not end within {within:?}: {jobs:#}"
            );
            std::thread::sleep(Duration::from_millis(500));
        }
    }

    /// Waits until a job is running.
    fn wait_for_running(&self) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let (_, jobs) = self.get("/v1/jobs?state=running");
            if let Some(job) = jobs.as_array().and_then(|j| j.first()) {
                return job.clone();
            }
            assert!(Instant::now() < deadline, "no job started running");
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// SIGKILL to the server and every browser it started.
    fn kill(self) {
        drop(self);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn results(db: &str) -> (Results, Queue) {
    let db = Arc::new(Db::open(&db.parse::<DbUrl>().unwrap()).unwrap());
    (Results::new(db.clone()), Queue::new(db))
}

#[test]
fn verify_all_with_two_jobs_runs_every_page_once_and_records_each_run() {
    let dir = tempfile::tempdir().unwrap();
    let docs = docs(dir.path(), &["vpc/create-vpc", "vpc/modify-vpc", "vpc/create-vswitch"]);
    let db = format!("sqlite:{}", dir.path().join("results.db").display());
    let out = aca(
        dir.path(),
        &[
            "verify",
            "--all",
            docs.to_str().unwrap(),
            "--jobs",
            "2",
            "--db",
            &db,
            "--tree",
            "vpc-guide",
            "--out",
            "out",
        ],
    );
    assert!(out.status.success(), "{}", show(&out));
    let text = common::text(&out);
    assert!(text.contains("3 pages with 2 at once"), "{text}");
    assert!(text.contains("3/3 pages passed"), "{text}");
    assert!(text.contains("results: 3 run(s) recorded"), "{text}");
    let (results, _) = results(&db);
    let runs = results.runs(Some("vpc-guide"), 10).unwrap();
    assert_eq!(runs.len(), 3);
    assert!(
        runs.iter()
            .all(|r| r.verdict == "pass" && r.product.as_deref() == Some("vpc")),
        "{runs:#?}"
    );
    let mut pages: Vec<&str> = runs.iter().map(|r| r.page.as_str()).collect();
    pages.sort_unstable();
    pages.dedup();
    assert_eq!(pages.len(), 3, "each page ran once");
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out/summary.json")).unwrap()).unwrap();
    assert_eq!(summary.as_array().unwrap().len(), 3);

    // A real account's console cannot be shared by runs at once.
    let refused = aca(
        dir.path(),
        &[
            "verify",
            "--all",
            docs.to_str().unwrap(),
            "--jobs",
            "2",
            "--console",
            "http://127.0.0.1:9",
            "--login",
            "a",
            "--password",
            "b",
            "--access-key-id",
            "x",
            "--access-key-secret",
            "y",
        ],
    );
    assert_eq!(refused.status.code(), Some(2), "{}", show(&refused));
    assert!(
        common::text(&refused).contains("one isolated account per page"),
        "{}",
        show(&refused)
    );
}

/// Queueing, answering and counting through the API, on the database given.
fn queued_pages_are_run_and_answered_for(db: &str) {
    let dir = tempfile::tempdir().unwrap();
    let docs = docs(dir.path(), &["vpc/create-vpc", "vpc/create-vpc-2024"]);
    let server = Server::start(dir.path(), db, &["--workers", "2"]);
    let body = json!({"tree": "vpc", "sources": [docs.to_str().unwrap()]});
    let (status, _) = server.send(reqwest::Method::POST, "/v1/jobs", body.clone(), None);
    assert_eq!(status, 401, "queueing needs the admin token");
    let (status, _) = server.send(reqwest::Method::POST, "/v1/jobs", body.clone(), Some("wrong"));
    assert_eq!(status, 401);
    let (status, submitted) = server.send(reqwest::Method::POST, "/v1/jobs", body, Some(TOKEN));
    assert_eq!(status, 201, "{submitted}");
    assert_eq!(submitted["ids"].as_array().unwrap().len(), 2);

    let jobs = server.wait_for_jobs(Duration::from_secs(300));
    assert!(
        jobs.iter().all(|j| j["state"] == "done" && j["attempts"] == 1),
        "{jobs:#?}"
    );
    let (_, runs) = server.get("/v1/results/runs?tree=vpc");
    let runs = runs.as_array().unwrap();
    assert_eq!(runs.len(), 2);
    // The 2024 page runs against the 2024 console its sidecar names: both pass.
    assert!(runs.iter().all(|r| r["verdict"] == "pass"), "{runs:#?}");
    let (status, report) = server.get(&format!("/v1/results/runs/{}", runs[0]["id"].as_str().unwrap()));
    assert_eq!(status, 200);
    assert_eq!(report["verdict"], "pass");
    assert!(!report["steps"].as_array().unwrap().is_empty());
    // The run's marked screenshots are served from its own report folder, and nothing outside it.
    let shot = report["screenshots"][0]["path"]
        .as_str()
        .expect("a run keeps its screenshots");
    let run_id = runs[0]["id"].as_str().unwrap();
    let png = server
        .client
        .get(format!("{}/v1/results/runs/{run_id}/files/{shot}", server.url))
        .send()
        .unwrap();
    assert_eq!(png.headers()["content-type"], "image/png");
    assert!(png.bytes().unwrap().starts_with(b"\x89PNG"));
    let (status, _) = server.get(&format!("/v1/results/runs/{run_id}/files/..%2F..%2Fresults.db"));
    assert!(status == 400 || status == 404, "{status}");
    let page = runs[0]["page"].as_str().unwrap();
    let (_, history) = server.get_with("/v1/results/history", &[("page", page)]);
    assert_eq!(history.as_array().unwrap().len(), 1);

    let metrics = server.metrics();
    assert!(
        metrics.contains("aca_platform_runs_total{verdict=\"pass\"} 2"),
        "{metrics}"
    );
    assert!(metrics.contains("aca_platform_jobs{state=\"queued\"} 0"), "{metrics}");
    assert!(metrics.contains("aca_platform_jobs{state=\"done\"} 2"), "{metrics}");
    assert!(
        metrics.contains("aca_platform_run_duration_seconds_count 2"),
        "{metrics}"
    );
}

#[test]
fn queued_pages_are_run_and_answered_for_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    queued_pages_are_run_and_answered_for(&format!("sqlite:{}", dir.path().join("results.db").display()));
}

#[test]
fn queued_pages_are_run_and_answered_for_on_postgres() {
    let postgres = postgres::Postgres::start();
    queued_pages_are_run_and_answered_for(&postgres.url());
}

#[test]
fn jobs_are_cancelled_schedules_kept_and_bad_requests_refused() {
    let dir = tempfile::tempdir().unwrap();
    let docs = docs(dir.path(), &["vpc/create-vpc", "vpc/modify-vpc"]);
    let db = format!("sqlite:{}", dir.path().join("results.db").display());
    // No workers: the queue holds what is submitted.
    let server = Server::start(dir.path(), &db, &["--workers", "0"]);
    let page = docs.join("vpc/create-vpc.md");
    let (status, submitted) = server.send(
        reqwest::Method::POST,
        "/v1/jobs",
        json!({"tree": "vpc", "sources": [docs.to_str().unwrap()], "priority": 2}),
        Some(TOKEN),
    );
    assert_eq!(status, 201, "{submitted}");
    let (_, again) = server.send(
        reqwest::Method::POST,
        "/v1/jobs",
        json!({"tree": "vpc", "sources": [page.to_str().unwrap()]}),
        Some(TOKEN),
    );
    assert_eq!(again["already_queued"].as_array().unwrap().len(), 1, "{again}");
    let id = submitted["ids"][0].as_str().unwrap();
    let (status, _) = server.send(reqwest::Method::DELETE, &format!("/v1/jobs/{id}"), json!({}), None);
    assert_eq!(status, 401);
    let (status, cancelled) = server.send(
        reqwest::Method::DELETE,
        &format!("/v1/jobs/{id}"),
        json!({}),
        Some(TOKEN),
    );
    assert_eq!(
        (status, cancelled["state"].as_str()),
        (200, Some("cancelled")),
        "{cancelled}"
    );
    let (_, job) = server.get(&format!("/v1/jobs/{id}"));
    assert_eq!(job["state"], "cancelled");
    assert!(job["cause"].as_str().unwrap().contains("cancelled by"));
    let (status, _) = server.get("/v1/jobs/no-such-job");
    assert_eq!(status, 404);
    let metrics = server.metrics();
    assert!(metrics.contains("aca_platform_jobs{state=\"queued\"} 1"), "{metrics}");

    let (status, missing) = server.send(
        reqwest::Method::POST,
        "/v1/jobs",
        json!({"tree": "vpc", "sources": [dir.path().join("nowhere").to_str().unwrap()]}),
        Some(TOKEN),
    );
    assert_eq!(status, 400, "{missing}");
    assert!(
        missing["Message"].as_str().unwrap().contains("neither a folder"),
        "{missing}"
    );

    let (status, saved) = server.send(
        reqwest::Method::PUT,
        "/v1/schedules/vpc",
        json!({"cron": "0 3 * * *", "sources": [docs.to_str().unwrap()]}),
        Some(TOKEN),
    );
    assert_eq!(status, 200, "{saved}");
    assert!(saved["next_ms"].as_i64().unwrap() > 0);
    let (status, bad) = server.send(
        reqwest::Method::PUT,
        "/v1/schedules/ecs",
        json!({"cron": "every night", "sources": ["docs"]}),
        Some(TOKEN),
    );
    assert_eq!(status, 400, "{bad}");
    let (_, schedules) = server.get("/v1/schedules");
    assert_eq!(schedules.as_array().unwrap().len(), 1);
    let (status, _) = server.send(reqwest::Method::DELETE, "/v1/schedules/vpc", json!({}), Some(TOKEN));
    assert_eq!(status, 200);
    let (status, _) = server.send(reqwest::Method::DELETE, "/v1/schedules/vpc", json!({}), Some(TOKEN));
    assert_eq!(status, 404);

    users_rerun_and_sign_in_but_only_the_admin_queues(&server, id);
}

/// A user's token re-runs but does not queue; the dashboard's sign-in gives a user (never the
/// admin) a session cookie that signs only requests saying they come from the dashboard.
fn users_rerun_and_sign_in_but_only_the_admin_queues(server: &Server, job: &str) {
    let (status, made) = server.send(
        reqwest::Method::POST,
        "/admin/users",
        json!({"name": "dana", "accounts": []}),
        Some(TOKEN),
    );
    assert_eq!(status, 201, "{made}");
    let user = made["token"].as_str().unwrap();
    let rerun = format!("/v1/jobs/{job}/rerun");
    let (status, refused) = server.send(
        reqwest::Method::POST,
        "/v1/jobs",
        json!({"tree": "vpc", "sources": ["docs"]}),
        Some(user),
    );
    assert_eq!(
        (status, refused["Code"].as_str()),
        (403, Some("AdminOnly")),
        "{refused}"
    );
    let (status, _) = server.send(reqwest::Method::POST, &rerun, json!({}), Some(user));
    assert_eq!(status, 200);

    let (status, refused) = server.send(reqwest::Method::POST, "/v1/session", json!({"token": TOKEN}), None);
    assert_eq!((status, refused["Code"].as_str()), (403, Some("AdminCannotSignIn")));
    let (status, _) = server.send(reqwest::Method::POST, "/v1/session", json!({"token": "aca_u_0"}), None);
    assert_eq!(status, 401);
    let signed = server
        .client
        .post(format!("{}/v1/session", server.url))
        .json(&json!({"token": user}))
        .send()
        .unwrap();
    assert_eq!(signed.status(), 200);
    let set_cookie = signed.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(
        set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Strict") && !set_cookie.contains(user),
        "{set_cookie}"
    );
    let cookie = set_cookie.split(';').next().unwrap().to_owned();
    let with_cookie = |method: reqwest::Method, path: &str, from_dashboard: bool| {
        let mut request = server
            .client
            .request(method, format!("{}{path}", server.url))
            .header("cookie", &cookie)
            .json(&json!({}));
        if from_dashboard {
            request = request.header("x-requested-with", "aca-dashboard");
        }
        let response = request.send().unwrap();
        let status = response.status().as_u16();
        (status, response.json::<Value>().unwrap_or(Value::Null))
    };
    let (status, who) = with_cookie(reqwest::Method::GET, "/v1/session", false);
    assert_eq!((status, who["user"].as_str()), (200, Some("dana")));
    let (status, refused) = with_cookie(reqwest::Method::POST, &rerun, false);
    assert_eq!(
        (status, refused["Code"].as_str()),
        (403, Some("Forbidden.NotFromDashboard")),
        "a page of another site cannot re-run with the cookie"
    );
    let (status, _) = with_cookie(reqwest::Method::POST, &rerun, true);
    assert_eq!(status, 200);
    let (status, _) = with_cookie(reqwest::Method::PUT, "/v1/schedules/vpc", true);
    assert_eq!(status, 403, "a signed-in user is not the admin");
    let (status, _) = with_cookie(reqwest::Method::DELETE, "/v1/session", true);
    assert_eq!(status, 200);
    let (status, _) = with_cookie(reqwest::Method::GET, "/v1/session", false);
    assert_eq!(status, 401, "signing out ends the session on the server");
    let (status, _) = with_cookie(reqwest::Method::POST, &rerun, true);
    assert_eq!(status, 401);
}

#[test]
fn a_server_killed_mid_run_resumes_and_counts_no_run_twice() {
    let dir = tempfile::tempdir().unwrap();
    let docs = docs(dir.path(), &["vpc/create-vpc", "vpc/modify-vpc"]);
    let db = format!("sqlite:{}", dir.path().join("results.db").display());
    let server = Server::start(dir.path(), &db, &["--workers", "1", "--name", "node-a"]);
    let (status, _) = server.send(
        reqwest::Method::POST,
        "/v1/jobs",
        json!({"tree": "vpc", "sources": [docs.to_str().unwrap()]}),
        Some(TOKEN),
    );
    assert_eq!(status, 201);
    let running = server.wait_for_running();
    server.kill();

    let (_, queue) = results(&db);
    let held = queue.get(running["id"].as_str().unwrap()).unwrap();
    assert_eq!(
        held.state,
        aca_platform::JobState::Running,
        "the killed server's claim is still there"
    );

    let restarted = Server::start(dir.path(), &db, &["--workers", "1", "--name", "node-a"]);
    let jobs = restarted.wait_for_jobs(Duration::from_secs(300));
    assert_eq!(jobs.len(), 2);
    assert!(
        jobs.iter().all(|j| j["state"] == "done" && j["attempts"] == 1),
        "{jobs:#?}"
    );
    let (results, _) = results(&db);
    let runs = results.runs(None, 10).unwrap();
    assert_eq!(runs.len(), 2, "one run per job, none lost or doubled: {runs:#?}");
    assert!(runs.iter().all(|r| r.verdict == "pass"), "{runs:#?}");
}

#[test]
fn a_browser_that_fails_to_start_is_an_environment_failure_tried_again() {
    // Exits at once, the first time it is started.
    a_broken_browser_is_an_environment_failure_tried_again("echo 'crashed' >&2; exit 133");
}

#[test]
fn a_browser_that_crashes_mid_run_is_an_environment_failure_tried_again() {
    // Starts, and is killed a few seconds into the run (the page takes longer than that).
    a_broken_browser_is_an_environment_failure_tried_again(
        "/usr/bin/chromium \"$@\" & browser=$!; (sleep 3; kill -9 $browser) & wait $browser; exit 137",
    );
}

/// A job whose browser breaks (as `first_start`, a shell command, does) the first time it starts
/// and is Chromium after that: its first run is the environment's failure, and the second passes.
fn a_broken_browser_is_an_environment_failure_tried_again(first_start: &str) {
    let dir = tempfile::tempdir().unwrap();
    let docs = docs(dir.path(), &["vpc/create-vpc"]);
    let db = format!("sqlite:{}", dir.path().join("results.db").display());
    let broke_once = dir.path().join("broke-once");
    let chromium = dir.path().join("chromium");
    std::fs::write(
        &chromium,
        format!(
            "#!/bin/sh\nif [ ! -e '{0}' ]; then touch '{0}'; {first_start}; fi\nexec /usr/bin/chromium \"$@\"\n",
            broke_once.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&chromium, std::fs::Permissions::from_mode(0o755)).unwrap();
    let server = Server::start(
        dir.path(),
        &db,
        &[
            "--workers",
            "1",
            "--attempts",
            "2",
            "--retry-pause-s",
            "0",
            "--chromium",
            chromium.to_str().unwrap(),
        ],
    );
    let (status, _) = server.send(
        reqwest::Method::POST,
        "/v1/jobs",
        json!({"tree": "vpc", "sources": [docs.to_str().unwrap()]}),
        Some(TOKEN),
    );
    assert_eq!(status, 201);
    let jobs = server.wait_for_jobs(Duration::from_secs(300));
    assert_eq!(
        (jobs[0]["state"].as_str(), jobs[0]["attempts"].as_i64()),
        (Some("done"), Some(2)),
        "{jobs:#?}"
    );
    let page = docs.join("vpc/create-vpc.md");
    let (_, history) = server.get_with("/v1/results/history", &[("page", page.to_str().unwrap())]);
    let history = history.as_array().unwrap();
    assert_eq!(
        history
            .iter()
            .map(|r| r["verdict"].as_str().unwrap())
            .collect::<Vec<_>>(),
        vec!["environment_failure", "pass"],
        "{history:#?}"
    );
    assert!(
        history[0]["summary"].as_str().unwrap().contains("Chromium"),
        "{history:#?}"
    );
}

#[test]
fn a_results_database_that_goes_away_mid_run_gets_the_run_when_it_is_back() {
    let postgres = postgres::Postgres::start();
    let dir = tempfile::tempdir().unwrap();
    let docs = docs(dir.path(), &["vpc/create-vpc"]);
    let server = Server::start(dir.path(), &postgres.url(), &["--workers", "1", "--lease-s", "600"]);
    let (status, _) = server.send(
        reqwest::Method::POST,
        "/v1/jobs",
        json!({"tree": "vpc", "sources": [docs.to_str().unwrap()]}),
        Some(TOKEN),
    );
    assert_eq!(status, 201);
    server.wait_for_running();
    postgres.halt();
    let (status, refused) = server.get("/v1/jobs");
    assert_eq!(status, 503, "{refused}");
    // Long enough for the run to end while the database is away.
    std::thread::sleep(Duration::from_secs(25));
    postgres.resume();
    let jobs = server.wait_for_jobs(Duration::from_secs(300));
    assert_eq!(
        (jobs[0]["state"].as_str(), jobs[0]["attempts"].as_i64()),
        (Some("done"), Some(1)),
        "{jobs:#?}"
    );
    let (results, _) = results(&postgres.url());
    assert_eq!(results.runs(None, 10).unwrap().len(), 1);
}

/// Two servers on one PostgreSQL: a tree's schedule comes due, its pages are queued once, both
/// servers' workers take from the one queue, and each page is run and recorded once.
#[test]
fn two_servers_on_one_postgres_share_a_scheduled_tree_and_run_each_page_once() {
    let postgres = postgres::Postgres::start();
    let db = postgres.url();
    let dir = tempfile::tempdir().unwrap();
    let pages = [
        "vpc/create-vpc",
        "vpc/modify-vpc",
        "vpc/create-vswitch",
        "vpc/delete-vpc",
    ];
    let docs = docs(dir.path(), &pages);
    let node_a = Server::start(dir.path(), &db, &["--workers", "1", "--name", "node-a"]);
    let node_b = Server::start(dir.path(), &db, &["--workers", "1", "--name", "node-b"]);
    let (status, saved) = node_a.send(
        reqwest::Method::PUT,
        "/v1/schedules/vpc-guide",
        json!({"cron": "0 3 * * *", "sources": [docs.to_str().unwrap()]}),
        Some(TOKEN),
    );
    assert_eq!(status, 200, "{saved}");
    // 03:00 comes: the schedule is due now.
    let handle = Arc::new(Db::open(&db.parse::<DbUrl>().unwrap()).unwrap());
    handle
        .transaction(|sql| sql.execute("UPDATE schedules SET next_ms = 0 WHERE tree = 'vpc-guide'", &[]))
        .unwrap();

    let jobs = node_b.wait_for_jobs(Duration::from_secs(300));
    assert_eq!(jobs.len(), pages.len(), "{jobs:#?}");
    assert!(
        jobs.iter()
            .all(|j| j["state"] == "done" && j["attempts"] == 1 && j["tree"] == "vpc-guide"),
        "{jobs:#?}"
    );
    let servers: std::collections::BTreeSet<&str> = jobs
        .iter()
        .filter_map(|j| j["worker"].as_str())
        .map(|w| w.split('/').next().unwrap())
        .collect();
    assert_eq!(
        servers.into_iter().collect::<Vec<_>>(),
        ["node-a", "node-b"],
        "both servers take from the one queue: {jobs:#?}"
    );
    let (results, _) = results(&db);
    let runs = results.runs(Some("vpc-guide"), 100).unwrap();
    assert_eq!(runs.len(), pages.len(), "{runs:#?}");
    let mut ran: Vec<_> = runs.iter().map(|r| r.job_id.clone().unwrap()).collect();
    ran.sort();
    ran.dedup();
    assert_eq!(ran.len(), pages.len(), "each job's run is recorded once");
    assert!(runs.iter().all(|r| r.verdict == "pass"), "{runs:#?}");
    let (_, schedules) = node_a.get("/v1/schedules");
    assert!(
        schedules[0]["next_ms"].as_i64().unwrap() > aca_platform::now_ms(),
        "the schedule moved on to its next time: {schedules}"
    );

    // A user made on one server is known to the other, which started before the user existed.
    let (status, made) = node_a.send(
        reqwest::Method::POST,
        "/admin/users",
        json!({"name": "erin", "accounts": []}),
        Some(TOKEN),
    );
    assert_eq!(status, 201, "{made}");
    let erin = made["token"].as_str().unwrap();
    let rerun = format!("/v1/jobs/{}/rerun", jobs[0]["id"].as_str().unwrap());
    let (status, answer) = node_b.send(reqwest::Method::POST, &rerun, json!({}), Some(erin));
    assert_eq!(status, 200, "{answer}");
    let (status, answer) = node_b.send(reqwest::Method::POST, "/v1/session", json!({"token": erin}), None);
    assert_eq!(status, 200, "{answer}");
    let (status, refused) = node_b.send(
        reqwest::Method::POST,
        "/admin/users",
        json!({"name": "erin", "accounts": []}),
        Some(TOKEN),
    );
    assert_eq!(
        (status, refused["Code"].as_str()),
        (409, Some("UserNotCreated")),
        "one erin for every server: {refused}"
    );
    let (_, listed) = node_b.send(reqwest::Method::GET, "/admin/users", Value::Null, Some(TOKEN));
    assert_eq!(listed[0]["name"], "erin", "{listed}");
}

/// What a Kubernetes pod does with its run's files: `aca verify --upload-to` sends them to the
/// server with its attempt's token, and the server keeps them for that attempt only.
#[test]
fn a_runner_sends_its_report_files_back_with_its_attempts_token() {
    let dir = tempfile::tempdir().unwrap();
    let docs = docs(dir.path(), &["vpc/create-vpc"]);
    let db = format!("sqlite:{}", dir.path().join("results.db").display());
    let server = Server::start(dir.path(), &db, &["--workers", "0"]);
    let handle = Arc::new(Db::open(&db.parse::<DbUrl>().unwrap()).unwrap());
    let tokens = aca_platform::UploadTokens::open(&handle).unwrap();
    let upload_url = format!("{}/v1/uploads/job-e2e/1", server.url);

    let refused = server
        .client
        .put(format!("{upload_url}/shots/x.png"))
        .bearer_auth(tokens.token("job-e2e", 2))
        .body("png")
        .send()
        .unwrap();
    assert_eq!(refused.status(), 403, "another attempt's token");
    let outside = server
        .client
        .put(format!("{upload_url}/..%2F..%2Fx.png"))
        .bearer_auth(tokens.token("job-e2e", 1))
        .body("png")
        .send()
        .unwrap();
    assert!(
        outside.status() == 400 || outside.status() == 404,
        "{}",
        outside.status()
    );

    let token = tokens.token("job-e2e", 1);
    let out = without_caller_env(Command::new(ACA))
        .args(["verify"])
        .arg(docs.join("vpc/create-vpc.md"))
        .args(["--out", "pod-out", "--report-stdout"])
        .env("ACA_UPLOAD_URL", &upload_url)
        .env("ACA_UPLOAD_TOKEN", &token)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", show(&out));
    let said = common::text(&out);
    assert!(!said.contains(&token), "the token is never printed");
    let staged = dir.path().join("reports/.uploads/job-e2e/1");
    let shots: Vec<_> = std::fs::read_dir(staged.join("shots"))
        .unwrap_or_else(|e| panic!("no screenshots came back ({e}): {said}"))
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(!shots.is_empty());
    let sent = std::fs::read_dir(dir.path().join("pod-out/vpc-create-vpc/shots"))
        .unwrap()
        .count();
    assert_eq!(shots.len(), sent, "every screenshot came back");
    assert!(staged.join("report.json").is_file());
}
