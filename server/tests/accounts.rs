//! `aca accounts` as an operator runs it against an emulator: accounts created through the admin
//! API and added from a credentials file, listed, their keys rotated through RAM (the old key stops
//! working, the new one works), and leftovers of earlier runs found, reported and cleaned.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;
use std::time::Duration;

use aca_console::ConsoleConfig;
use aca_provision::emulator::Client;
use aca_provision::emulator::local::LocalEmulator;
use aca_provision::pool::AccountPool;
use common::text;

async fn aca(pool: &Path, args: &[&str]) -> Output {
    common::aca_async()
        .arg("accounts")
        .arg("--pool")
        .arg(pool)
        .args(args)
        .output()
        .await
        .expect("aca runs")
}

/// Adds an account of the emulator at `url` to the pool, under each name.
async fn add_emulator_accounts(pool: &Path, url: &str, names: &[&str]) {
    for name in names {
        let added = aca(
            pool,
            &["add", "--emulator", url, "--admin-token", "test-admin", "--name", name],
        )
        .await;
        assert!(added.status.success(), "{}", text(&added));
    }
}

/// An emulator and a pool (in a temporary folder) holding an account of it under each name.
async fn pool_of_emulator_accounts(names: &[&str]) -> (LocalEmulator, tempfile::TempDir, std::path::PathBuf) {
    let emulator = LocalEmulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let pool_path = dir.path().join("pool.db");
    add_emulator_accounts(&pool_path, &emulator.url, names).await;
    (emulator, dir, pool_path)
}

/// `aca verify PAGE --pool POOL --out OUT` with the emulator's admin token, without screenshots.
async fn verify_in_pool(page: &Path, pool: &Path, out: &Path) -> Output {
    common::aca_async()
        .arg("verify")
        .arg(page)
        .args(["--no-screenshots", "--admin-token", "test-admin", "--pool"])
        .arg(pool)
        .arg("--out")
        .arg(out)
        .output()
        .await
        .expect("aca runs")
}

fn ram() -> &'static str {
    aca_console::products::by_code("ram").unwrap().version
}

#[tokio::test]
async fn accounts_are_added_listed_rotated_and_cleaned() {
    let emulator = LocalEmulator::start(ConsoleConfig::for_tests()).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let pool_path = dir.path().join("pool.db");
    let url = emulator.url.as_str();

    let added = aca(
        &pool_path,
        &[
            "add",
            "--emulator",
            url,
            "--admin-token",
            "test-admin",
            "--count",
            "2",
            "--name",
            "ci",
        ],
    )
    .await;
    assert!(added.status.success(), "{}", text(&added));
    let refused = aca(&pool_path, &["add", "--emulator", url, "--admin-token", "wrong"]).await;
    assert!(!refused.status.success());
    assert!(
        text(&refused).contains("InvalidAdminToken") || text(&refused).contains("wrong admin token"),
        "{}",
        text(&refused)
    );

    // A "real" account from a credentials file (here: a third emulator account's key).
    let third = emulator.account("real").unwrap();
    let credentials = dir.path().join("creds.json");
    std::fs::write(
        &credentials,
        serde_json::json!({ "accessKeyId": third.access_key_id, "accessKeySecret": third.access_key_secret })
            .to_string(),
    )
    .unwrap();
    let real = aca(
        &pool_path,
        &[
            "add",
            "--endpoint",
            url,
            "--credentials",
            credentials.to_str().unwrap(),
            "--name",
            "prod-1",
            "--account-id",
            &third.account_id,
        ],
    )
    .await;
    assert!(real.status.success(), "{}", text(&real));

    let listed = aca(&pool_path, &["list"]).await;
    let listing = text(&listed);
    assert!(listed.status.success(), "{listing}");
    assert_eq!(listing.matches(" free ").count(), 3, "{listing}");
    assert!(
        listing.contains("ci-1") && listing.contains("ci-2") && listing.contains("prod-1"),
        "{listing}"
    );

    let pool = AccountPool::open(&pool_path, Duration::from_secs(60)).unwrap();
    let accounts = pool.list().unwrap();
    let ci1 = accounts
        .iter()
        .find(|a| a.account.name == "ci-1")
        .unwrap()
        .account
        .clone();

    // Rotation: the new key works, the old one is gone.
    let rotated = aca(&pool_path, &["rotate", &ci1.id]).await;
    assert!(rotated.status.success(), "{}", text(&rotated));
    let after = pool.list().unwrap();
    let new_key = after
        .iter()
        .find(|a| a.account.id == ci1.id)
        .unwrap()
        .account
        .key
        .clone();
    assert_ne!(new_key.access_key_id, ci1.key.access_key_id);
    assert!(text(&rotated).contains(&new_key.access_key_id), "{}", text(&rotated));
    let none = BTreeMap::new();
    let old = Client::new(url, ci1.key.clone()).unwrap();
    assert!(
        old.rpc(ram(), "ListAccessKeys", "cn-hangzhou", &none).await.is_err(),
        "the old key is deleted"
    );
    let new = Client::new(url, new_key.clone()).unwrap();
    new.rpc(ram(), "ListAccessKeys", "cn-hangzhou", &none).await.unwrap();
    let nothing_due = aca(&pool_path, &["rotate", "--older-than-days", "30"]).await;
    assert!(text(&nothing_due).contains("no key is due"), "{}", text(&nothing_due));

    // A leftover VPC of an earlier run: health reports it (with the balance and the quotas), --clean
    // deletes it.
    let vpc = new
        .rpc(
            aca_console::products::by_code("vpc").unwrap().version,
            "CreateVpc",
            "cn-hangzhou",
            &BTreeMap::from([("VpcName".to_owned(), "left-behind".to_owned())]),
        )
        .await
        .unwrap();
    let vpc_id = vpc["VpcId"].as_str().unwrap().to_owned();
    let unhealthy = aca(&pool_path, &["health", "--admin-token", "test-admin"]).await;
    let report = text(&unhealthy);
    assert_eq!(unhealthy.status.code(), Some(1), "{report}");
    assert!(report.contains(&vpc_id) && report.contains("left-behind"), "{report}");
    assert!(report.contains("balance 10000.00"), "{report}");
    assert!(report.contains("500 of 500 pay-as-you-go vCPUs free"), "{report}");
    assert_eq!(report.matches("no leftovers").count(), 2, "{report}");

    let cleaned = aca(&pool_path, &["health", "--clean"]).await;
    assert!(cleaned.status.success(), "{}", text(&cleaned));
    assert!(text(&cleaned).contains("cleaned"), "{}", text(&cleaned));
    let healthy = aca(&pool_path, &["health", &ci1.id]).await;
    assert!(healthy.status.success(), "{}", text(&healthy));
    assert!(text(&healthy).contains("no leftovers"), "{}", text(&healthy));
    let listing = text(&aca(&pool_path, &["list"]).await);
    assert_eq!(
        listing.matches(" free ").count(),
        3,
        "cleaning returned the account: {listing}"
    );

    let missing = aca(&pool_path, &["health", "nobody"]).await;
    assert!(
        text(&missing).contains("no account nobody in the pool"),
        "{}",
        text(&missing)
    );
}

#[tokio::test]
async fn pages_run_in_leased_pool_accounts_which_come_back_clean() {
    let (emulator, dir, pool_path) = pool_of_emulator_accounts(&["qa"]).await;
    let out = dir.path().join("out");
    let page = common::corpus("vpc/delete-vswitch.md");
    let verify = |out: std::path::PathBuf| {
        let (page, pool_path) = (page.clone(), pool_path.clone());
        async move { verify_in_pool(&page, &pool_path, &out).await }
    };
    let ran = verify(out.clone()).await;
    assert!(ran.status.success(), "{}", common::show(&ran));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("vpc-delete-vswitch/report.json")).unwrap()).unwrap();
    assert_eq!(report["verdict"], "pass", "{report:#}");
    assert_eq!(report["console"]["url"], emulator.url.as_str());
    let pool = AccountPool::open(&pool_path, Duration::from_secs(60)).unwrap();
    let status = pool.list().unwrap().remove(0);
    assert_eq!(
        status.state,
        aca_provision::pool::AccountState::Free,
        "the account came back"
    );
    let left = emulator.console.snapshot_account(&status.account.id).unwrap().resources;
    assert!(left.is_empty(), "the run's resources are gone: {left:#?}");

    // Every account is leased: the page is an error that says so, not a wait.
    let _held = pool.lease("another run").unwrap();
    let refused = verify(dir.path().join("out2")).await;
    assert_eq!(refused.status.code(), Some(2), "{}", common::show(&refused));
    assert!(text(&refused).contains("no account of the pool"), "{}", text(&refused));
}

/// A run that leaves something the cleanup cannot remove (a subscription Tair instance, which
/// cannot be released before it expires) takes its account out of the pool, and the report says so.
#[tokio::test]
async fn an_account_a_run_leaves_uncleanable_is_quarantined_and_the_report_says_so() {
    let (_emulator, dir, pool_path) = pool_of_emulator_accounts(&["qa"]).await;
    let out = dir.path().join("out");
    let page = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/real-pages/tair/enable-auto-renewal.md");
    let ran = verify_in_pool(&page, &pool_path, &out).await;
    assert_ne!(ran.status.code(), Some(2), "{}", common::show(&ran));
    let report = common::the_report_under(&out, &ran);
    let pool = AccountPool::open(&pool_path, Duration::from_secs(60)).unwrap();
    let status = pool.list().unwrap().remove(0);
    assert_eq!(
        status.state,
        aca_provision::pool::AccountState::Quarantined,
        "{report:#}"
    );
    assert!(status.note.contains("kvstore"), "the note names what is left: {}", status.note);
    let failure = report["failure"].as_str().unwrap_or_default();
    assert!(
        failure.contains(&format!("the pool account {} was quarantined", status.account.id)),
        "{report:#}"
    );
    // Nothing can lease it until a person puts it back.
    assert!(pool.lease("next run").is_err());
}

/// `aca server --pool`: two workers each lease an account of the pool for a page, and both
/// accounts come back free and clean.
#[tokio::test]
async fn a_server_runs_queued_pages_in_leased_pool_accounts() {
    let (emulator, dir, pool_path) = pool_of_emulator_accounts(&["qa-1", "qa-2"]).await;
    let docs = dir.path().join("docs/vpc");
    std::fs::create_dir_all(&docs).unwrap();
    for slug in ["delete-vswitch", "create-vpc"] {
        for file in [format!("{slug}.md"), format!("{slug}.task.toml")] {
            std::fs::copy(common::corpus("vpc").join(&file), docs.join(&file)).unwrap();
        }
    }
    let db = format!("sqlite:{}", dir.path().join("results.db").display());
    let (mut server, url) = common::start_service(
        dir.path(),
        &[
            "server",
            "--listen",
            "127.0.0.1:0",
            "--db",
            &db,
            "--workers",
            "2",
            "--admin-token",
            "server-admin",
            "--pool",
            pool_path.to_str().unwrap(),
            "--pool-admin-token",
            "test-admin",
            "--no-screenshots",
        ],
        &[],
        "aca server ready at ",
    );
    let client = reqwest::Client::new();
    let submitted = client
        .post(format!("{url}/v1/jobs"))
        .bearer_auth("server-admin")
        .json(&serde_json::json!({"tree": "vpc", "sources": [dir.path().join("docs").to_str().unwrap()]}))
        .send()
        .await
        .unwrap();
    assert_eq!(submitted.status(), 201);
    let deadline = std::time::Instant::now() + Duration::from_secs(300);
    let jobs = loop {
        let jobs: Vec<serde_json::Value> = client
            .get(format!("{url}/v1/jobs"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if jobs.len() == 2 && jobs.iter().all(|j| j["state"] != "queued" && j["state"] != "running") {
            break jobs;
        }
        assert!(std::time::Instant::now() < deadline, "the jobs did not end: {jobs:#?}");
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    let _ = server.kill();
    let _ = server.wait();
    assert!(jobs.iter().all(|j| j["state"] == "done"), "{jobs:#?}");
    let results = aca_platform::Results::new(std::sync::Arc::new(
        aca_platform::Db::open(&db.parse().unwrap()).unwrap(),
    ));
    let runs = results.runs(Some("vpc"), 10).unwrap();
    assert_eq!(runs.len(), 2);
    assert!(runs.iter().all(|r| r.verdict == "pass"), "{runs:#?}");
    for run in &runs {
        let report = results.report(&run.id).unwrap();
        assert_eq!(report.console.url, emulator.url, "the page ran in a pool account");
    }
    let pool = AccountPool::open(&pool_path, Duration::from_secs(60)).unwrap();
    for status in pool.list().unwrap() {
        assert_eq!(status.state, aca_provision::pool::AccountState::Free, "{status:?}");
        let left = emulator.console.snapshot_account(&status.account.id).unwrap().resources;
        assert!(left.is_empty(), "the run's resources are gone: {left:#?}");
    }
}
