//! The queue and the results on both databases: the same scenario on a SQLite file and on a real
//! PostgreSQL server.

mod support;

use std::sync::Arc;

use aca_core::Report;
use aca_platform::queue::{Finished, JobState};
use aca_platform::results::DefectState;
use aca_platform::{Db, DbUrl, NewJob, PlatformError, Queue, Results, RunRecord};

const T0: i64 = 1_796_545_404_000;

fn report(page: &str, verdict: &str, defects: &[(&str, &str, &str)]) -> Report {
    let defects: Vec<serde_json::Value> = defects
        .iter()
        .map(|(step, documented, observed)| {
            serde_json::json!({"kind": "renamed_label", "step": step, "documented": documented,
                "observed": observed, "confidence": "confirmed"})
        })
        .collect();
    serde_json::from_value(serde_json::json!({
        "page": page, "title": "Create a VPC", "policy": "scripted", "verdict": verdict,
        "summary": format!("{verdict} summary"),
        "console": {"url": "http://127.0.0.1:1", "region": "cn-hangzhou", "profile": "2026"},
        "steps": [
            {"text": "Log on to the VPC console.", "grade": {"step": "1", "status": "pass"}},
            {"text": "Click **Create VPC**.", "grade": {"step": "2", "status": "warning"}}
        ],
        "defects": defects,
        "screenshots": [{"turn": 1, "step": "2", "path": "shots/turn-01.png"}],
        "usage": {"calls": 4, "prompt_tokens": 1200, "completion_tokens": 80, "cost_usd": 0.01,
                  "images": 2, "image_tokens": 700},
        "started_at": "2026-12-06T08:23:24Z", "duration_ms": 5000
    }))
    .unwrap()
}

fn job(tree: &str, page: &str, priority: i64) -> NewJob {
    NewJob {
        tree: tree.into(),
        page: page.into(),
        priority,
        max_attempts: 2,
    }
}

fn exercise(url: &DbUrl) {
    let db = Arc::new(Db::open(url).unwrap());
    let mut queue = Queue::new(db.clone());
    queue.retry_pause_ms = 1_000;
    let results = Results::new(db.clone());

    // Priority first, then the order pages were given in; a page already waiting is not queued twice.
    let first = queue
        .submit(
            &[job("vpc", "a.md", 0), job("vpc", "b.md", 0), job("vpc", "urgent.md", 5)],
            T0,
        )
        .unwrap();
    assert_eq!(first.ids.len(), 3);
    let again = queue.submit(&[job("vpc", "a.md", 0)], T0 + 1).unwrap();
    assert_eq!(again.already_queued, vec!["a.md".to_owned()]);
    assert_eq!(queue.depth().unwrap().queued, 3);

    let urgent = queue.claim("server-1/0", T0).unwrap().unwrap();
    assert_eq!((urgent.job.page.as_str(), urgent.attempt), ("urgent.md", 1));
    let a = queue.claim("server-1/1", T0).unwrap().unwrap();
    assert_eq!(a.job.page, "a.md");
    assert!(queue.renew(&a.job.id, "server-1/1", T0 + 10).unwrap());
    assert!(!queue.renew(&a.job.id, "someone-else", T0 + 10).unwrap());

    // An environment failure is tried again after a pause, with its cause kept.
    let outcome = queue
        .finish(
            &a,
            &RunRecord::new("vpc", report("a.md", "environment_failure", &[])),
            Some("quota exceeded"),
            T0 + 20,
        )
        .unwrap();
    assert_eq!(outcome, Finished::Retried { next_attempt: 2 });
    let waiting = queue.get(&a.job.id).unwrap();
    assert_eq!(waiting.state, JobState::Queued);
    assert!(waiting.cause.as_deref().unwrap().contains("quota exceeded"));
    let b = queue.claim("server-1/1", T0 + 30).unwrap().unwrap();
    assert_eq!(b.job.page, "b.md", "a.md waits out its retry pause");
    assert!(queue.claim("server-1/2", T0 + 30).unwrap().is_none());
    let a2 = queue.claim("server-1/2", T0 + 2_000).unwrap().unwrap();
    assert_eq!((a2.job.id.as_str(), a2.attempt), (a.job.id.as_str(), 2));
    let done = queue
        .finish(
            &a2,
            &RunRecord::new("vpc", report("a.md", "doc_defect", &[("2", "OK", "Confirm")])),
            None,
            T0 + 2_100,
        )
        .unwrap();
    assert_eq!(done, Finished::Done);
    // The same attempt finished twice (a second worker after a lost lease) is recorded once.
    let twice = queue
        .finish(
            &a2,
            &RunRecord::new("vpc", report("a.md", "doc_defect", &[])),
            None,
            T0 + 2_200,
        )
        .unwrap();
    assert_eq!(twice, Finished::AlreadyRecorded);

    // The server dies with urgent.md and b.md running: its restart queues them again under the
    // same attempt, and nothing is counted twice.
    assert_eq!(queue.recover(Some("server-1/"), T0 + 3_000).unwrap(), 2);
    let depth = queue.depth().unwrap();
    assert_eq!((depth.queued, depth.running, depth.done), (2, 0, 1));
    let again = queue.claim("server-2/0", T0 + 3_000).unwrap().unwrap();
    assert_eq!((again.job.page.as_str(), again.attempt), ("urgent.md", 1));
    queue
        .finish(
            &again,
            &RunRecord::new("vpc", report("urgent.md", "pass", &[])),
            None,
            T0 + 3_100,
        )
        .unwrap();

    // A lease that runs out is taken back by any server.
    let b_again = queue.claim("server-2/1", T0 + 4_000).unwrap().unwrap();
    assert_eq!(queue.recover(None, T0 + 4_000 + queue.lease_ms - 1).unwrap(), 0);
    assert_eq!(queue.recover(None, T0 + 4_000 + queue.lease_ms + 1).unwrap(), 1);
    assert!(
        !queue
            .renew(&b_again.job.id, "server-2/1", T0 + 4_000 + queue.lease_ms + 2)
            .unwrap()
    );

    // Cancelling: a queued job at once; a running one stops at its next renewal, and a run it
    // finished anyway is kept without another attempt.
    assert_eq!(
        queue.cancel(&b_again.job.id, "ann", T0 + 5_000).unwrap(),
        JobState::Cancelled
    );
    queue.submit(&[job("ecs", "c.md", 0)], T0 + 5_000).unwrap();
    let c = queue.claim("server-2/0", T0 + 5_000).unwrap().unwrap();
    assert_eq!(queue.cancel(&c.job.id, "ann", T0 + 5_100).unwrap(), JobState::Running);
    assert!(!queue.renew(&c.job.id, "server-2/0", T0 + 5_200).unwrap());
    let stopped = queue
        .finish(
            &c,
            &RunRecord::new("ecs", report("c.md", "environment_failure", &[])),
            Some("cancelled"),
            T0 + 5_300,
        )
        .unwrap();
    assert_eq!(stopped, Finished::Cancelled);
    assert_eq!(queue.get(&c.job.id).unwrap().state, JobState::Cancelled);
    assert!(matches!(queue.get("no-such-job"), Err(PlatformError::NotFound(_))));

    // The results: four runs, one per attempt (the flaky page's come later).
    let totals = results.totals().unwrap();
    assert_eq!(totals.runs, 4);
    assert_eq!(
        totals.by_verdict,
        vec![
            ("doc_defect".into(), 1),
            ("environment_failure".into(), 2),
            ("pass".into(), 1)
        ]
    );
    assert_eq!(totals.prompt_tokens, 4 * 1200);
    assert_eq!((totals.images, totals.image_tokens), (4 * 2, 4 * 700));
    assert!((totals.cost_usd - 0.04).abs() < 1e-9);
    let history = results.page_history("a.md").unwrap();
    assert_eq!(
        history
            .iter()
            .map(|r| (r.attempt, r.verdict.as_str()))
            .collect::<Vec<_>>(),
        vec![(1, "environment_failure"), (2, "doc_defect")]
    );
    assert_eq!(history[1].defects, 1);
    let report_back = results.report(&history[1].id).unwrap();
    assert_eq!(report_back.defects[0].observed, "Confirm");
    let ecs = results.runs(Some("ecs"), 10).unwrap();
    assert_eq!((ecs.len(), ecs[0].image_tokens), (1, 700));

    let latest = results.latest(None).unwrap();
    assert_eq!(
        latest
            .iter()
            .map(|r| (r.page.as_str(), r.verdict.as_str()))
            .collect::<Vec<_>>(),
        vec![
            ("a.md", "doc_defect"),
            ("c.md", "environment_failure"),
            ("urgent.md", "pass")
        ]
    );
    assert_eq!(results.latest(Some("ecs")).unwrap().len(), 1);
    let days = results.runs_per_day(0).unwrap();
    assert_eq!(days.iter().map(|d| d.runs).sum::<i64>(), 4);
    assert!(days.iter().all(|d| d.day_ms == 1_796_515_200_000), "{days:?}");

    // The same text passing once and failing once is flaky; a changed text is drift, not flakiness.
    let run = |digest: &str, verdict: &str, at: &str| {
        let mut report = report("flaky.md", verdict, &[]);
        report.started_at = at.into();
        let mut record = RunRecord::new("vpc", report);
        record.page_digest = Some(digest.into());
        results.record(&record).unwrap();
    };
    run("text-1", "pass", "2026-12-07T01:00:00Z");
    run("text-1", "agent_failure", "2026-12-07T02:00:00Z");
    run("text-2", "doc_defect", "2026-12-07T03:00:00Z");
    run("text-2", "environment_failure", "2026-12-07T04:00:00Z");
    let flaky = results.flaky_pages().unwrap();
    assert_eq!(flaky.len(), 1, "{flaky:?}");
    assert_eq!((flaky[0].page_digest.as_str(), flaky[0].verdicts), ("text-1", 2));

    let defects = results.current_defects().unwrap();
    assert_eq!(defects.len(), 1);
    assert_eq!(defects[0].state, DefectState::New);
    results.mark_known("a.md", "renamed_label", "2", "OK", "ann").unwrap();
    assert_eq!(results.current_defects().unwrap()[0].state, DefectState::Known);

    // The page runs again without the defect: it is fixed, and said to be.
    let mut later = report("a.md", "pass", &[]);
    later.started_at = "2026-12-08T00:00:00Z".into();
    results.record(&RunRecord::new("vpc", later)).unwrap();
    let defects = results.current_defects().unwrap();
    assert_eq!(defects.len(), 1, "{defects:?}");
    assert_eq!(
        (defects[0].state, defects[0].documented.as_str()),
        (DefectState::Fixed, "OK")
    );
    // A run the environment broke neither fixes a page's defects nor hides them.
    let mut found = report("d.md", "doc_defect", &[("3", "Create", "Create Now")]);
    found.started_at = "2026-12-08T00:00:00Z".into();
    results.record(&RunRecord::new("vpc", found)).unwrap();
    let mut broken = report("d.md", "environment_failure", &[]);
    broken.started_at = "2026-12-09T00:00:00Z".into();
    results.record(&RunRecord::new("vpc", broken)).unwrap();
    let defects = results.current_defects().unwrap();
    let of_d: Vec<_> = defects.iter().filter(|d| d.page == "d.md").collect();
    assert_eq!(of_d.len(), 1, "{defects:?}");
    assert_eq!(
        (of_d[0].state, of_d[0].documented.as_str()),
        (DefectState::New, "Create")
    );

    // Sessions: kept as digests, found until they end, on both databases.
    let sessions = aca_platform::Sessions::new(db.clone());
    let id = sessions.open("dana", T0, 60_000).unwrap();
    assert_eq!(sessions.find(&id, T0 + 1).unwrap().unwrap().user, "dana");
    assert_eq!(sessions.find(&id, T0 + 60_000).unwrap(), None);
    assert!(sessions.close(&id).unwrap());

    // Users: one set for every server on the database; a name is taken once, the first keeps it.
    let users = aca_platform::UserRows::new(db.clone());
    let dana = aca_platform::UserRow {
        name: "dana".into(),
        token_sha256: [7; 32],
        accounts: vec!["1001".into(), "2002".into()],
    };
    assert!(users.insert(&dana, T0).unwrap());
    let impostor = aca_platform::UserRow {
        token_sha256: [9; 32],
        accounts: vec![],
        ..dana.clone()
    };
    assert!(!users.insert(&impostor, T0 + 1).unwrap(), "a second dana is refused");
    assert_eq!(users.all().unwrap(), [dana]);
}

#[test]
fn the_queue_and_results_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    exercise(&DbUrl::Sqlite(dir.path().join("results.db")));
}

#[test]
fn the_queue_and_results_on_postgres() {
    let server = support::postgres::Postgres::start();
    exercise(&server.url().parse().unwrap());
}

#[test]
fn a_postgres_that_goes_away_and_comes_back_is_used_again() {
    let server = support::postgres::Postgres::start();
    let db = Arc::new(Db::open(&server.url().parse().unwrap()).unwrap());
    let queue = Queue::new(db);
    queue.submit(&[job("vpc", "a.md", 0)], T0).unwrap();
    server.halt();
    match queue.depth() {
        Err(PlatformError::Unavailable(why)) => assert!(!why.is_empty()),
        other => panic!("a stopped database must read as unavailable, not {other:?}"),
    }
    server.resume();
    assert_eq!(queue.depth().unwrap().queued, 1, "nothing was lost while it was away");
}

/// A team's server does many things at once: a transaction that takes its time (a worker's record)
/// does not hold up another call (the dashboard's read) on PostgreSQL, whose connections are pooled.
#[test]
fn a_slow_transaction_on_postgres_does_not_hold_up_another_call() {
    let server = support::postgres::Postgres::start();
    let db = Arc::new(Db::open(&server.url().parse().unwrap()).unwrap());
    let (inside, release) = (std::sync::mpsc::channel(), std::sync::mpsc::channel::<()>());
    let slow = {
        let (db, inside) = (db.clone(), inside.0);
        let release = release.1;
        std::thread::spawn(move || {
            db.transaction(|sql| {
                sql.query("SELECT 1", &[])?;
                inside.send(()).unwrap();
                release.recv().unwrap();
                Ok(())
            })
        })
    };
    inside.1.recv().unwrap();
    let (answered, answer) = std::sync::mpsc::channel();
    {
        let db = db.clone();
        std::thread::spawn(move || {
            let read = db.transaction(|sql| sql.query("SELECT count(*) FROM jobs", &[]));
            answered.send(read.map(|rows| rows.len())).unwrap();
        });
    }
    let read = answer.recv_timeout(std::time::Duration::from_secs(20));
    release.0.send(()).unwrap();
    slow.join().unwrap().unwrap();
    assert_eq!(
        read.expect("the read waited for the other transaction to end").unwrap(),
        1
    );
}
