//! The real `aca` binary, run in fresh temporary directories: the console emulator, its accounts,
//! signed API calls and the demo, as a user types them.

mod common;

use std::path::Path;

use common::{RunningConsole, aca, json_stdout};
use serde_json::Value;

fn start_console(dir: &Path, db: &str) -> RunningConsole {
    RunningConsole::start(dir, &["--db", db, "--admin-token", "s3cret"])
}

#[test]
fn console_accounts_and_signed_calls_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("console.db");
    let db = db.to_str().unwrap();
    let vpc_id;
    {
        let emu = start_console(dir.path(), db);
        let creds: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join("creds.json")).unwrap()).unwrap();
        assert!(creds["accessKeyId"].as_str().unwrap().starts_with("LTAI"));
        assert!(creds["login"].as_str().unwrap().ends_with(".onaliyun.com"));

        let created = json_stdout(&aca(
            dir.path(),
            &[
                "console",
                "accounts",
                "create",
                "--url",
                &emu.url,
                "--admin-token",
                "s3cret",
                "--name",
                "qa",
                "--profile",
                "2024",
            ],
        ));
        assert_eq!(created["profile"], "2024");
        let listed = json_stdout(&aca(
            dir.path(),
            &[
                "console",
                "accounts",
                "list",
                "--url",
                &emu.url,
                "--admin-token",
                "s3cret",
            ],
        ));
        assert_eq!(listed.as_array().unwrap().len(), 2);

        let denied = aca(
            dir.path(),
            &[
                "console",
                "accounts",
                "list",
                "--url",
                &emu.url,
                "--admin-token",
                "wrong",
            ],
        );
        assert_eq!(denied.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&denied.stderr).contains("admin API refused"));

        let vpc = json_stdout(&aca(
            dir.path(),
            &[
                "api",
                "--endpoint",
                &emu.url,
                "--credentials",
                "creds.json",
                "vpc",
                "CreateVpc",
                "RegionId=cn-hangzhou",
                "VpcName=web",
                "CidrBlock=192.168.0.0/16",
            ],
        ));
        vpc_id = vpc["VpcId"].as_str().unwrap().to_owned();

        let bad = aca(
            dir.path(),
            &[
                "api",
                "--endpoint",
                &emu.url,
                "--credentials",
                "creds.json",
                "vpc",
                "CreateVSwitch",
                "RegionId=cn-hangzhou",
            ],
        );
        assert_eq!(bad.status.code(), Some(1), "an API error exits 1");
        assert!(String::from_utf8_lossy(&bad.stderr).contains("MissingParameter"));
    }
    let emu = start_console(dir.path(), db);
    let vpcs = json_stdout(&aca(
        dir.path(),
        &[
            "api",
            "--endpoint",
            &emu.url,
            "--credentials",
            "creds.json",
            "vpc",
            "DescribeVpcs",
            "RegionId=cn-hangzhou",
        ],
    ));
    assert_eq!(
        vpcs["Vpcs"]["Vpc"][0]["VpcId"],
        vpc_id.as_str(),
        "state survives a restart"
    );
    let events = json_stdout(&aca(
        dir.path(),
        &[
            "api",
            "--endpoint",
            &emu.url,
            "--credentials",
            "creds.json",
            "actiontrail",
            "LookupEvents",
            "LookupAttribute.1.Key=EventName",
            "LookupAttribute.1.Value=CreateVpc",
        ],
    ));
    let event = &events["Events"][0];
    assert_eq!(
        (event["eventName"].as_str(), event["serviceName"].as_str()),
        (Some("CreateVpc"), Some("Vpc"))
    );
    assert!(event["userAgent"].as_str().unwrap().starts_with("aca/"));
}

#[test]
fn usage_errors_are_clear_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("creds.json"),
        r#"{"accessKeyId":"LTAIx","accessKeySecret":"y"}"#,
    )
    .unwrap();
    let unknown = aca(
        dir.path(),
        &["api", "--credentials", "creds.json", "nosuch", "Describe"],
    );
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("unknown product"));
    let dead = aca(
        dir.path(),
        &[
            "api",
            "--endpoint",
            "http://127.0.0.1:9",
            "--credentials",
            "creds.json",
            "vpc",
            "DescribeVpcs",
        ],
    );
    assert_eq!(dead.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&dead.stderr).contains("calling DescribeVpcs at http://127.0.0.1:9"));
    let missing = aca(
        dir.path(),
        &["api", "--credentials", "nope.json", "vpc", "DescribeVpcs"],
    );
    assert!(String::from_utf8_lossy(&missing.stderr).contains("nope.json"));
    let bad_profile = aca(dir.path(), &["console", "--profile", "1999"]);
    assert_eq!(bad_profile.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad_profile.stderr).contains("unknown UI profile"));
    // Each server's user command goes where that server listens by default.
    for (command, address) in [("console", "127.0.0.1:8080"), ("server", "127.0.0.1:8090")] {
        let unreached = aca(
            dir.path(),
            &[command, "users", "create", "--admin-token", "t", "--name", "dana"],
        );
        let said = String::from_utf8_lossy(&unreached.stderr);
        assert!(
            !unreached.status.success() && said.contains(&format!("cannot reach the server at http://{address}")),
            "{said}"
        );
    }
}

#[test]
fn demo_creates_resources_and_prints_their_audit_events() {
    let dir = tempfile::tempdir().unwrap();
    let out = aca(dir.path(), &["demo", "--out", "demo"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "demo failed: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("/Vpcs/Vpc/0/Status = Available"), "{stdout}");
    let events: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("demo/events.json")).unwrap()).unwrap();
    let names: Vec<&str> = events
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["eventName"].as_str())
        .collect();
    assert!(
        names.contains(&"CreateVpc") && names.contains(&"CreateVSwitch"),
        "{names:?}"
    );
}

#[test]
fn drift_lists_the_differences_between_profiles_in_both_directions() {
    let dir = tempfile::tempdir().unwrap();
    let forward = json_stdout(&aca(
        dir.path(),
        &["console", "drift", "--from", "2024", "--to", "2026"],
    ));
    let backward = json_stdout(&aca(
        dir.path(),
        &["console", "drift", "--from", "2026", "--to", "2024"],
    ));
    let forward = forward.as_array().unwrap();
    let products: std::collections::BTreeSet<&str> = forward.iter().filter_map(|d| d["product"].as_str()).collect();
    assert!(
        forward.len() >= 25 && products.len() >= 8,
        "{} differences over {products:?}",
        forward.len()
    );
    for (f, b) in forward.iter().zip(backward.as_array().unwrap()) {
        assert_eq!(
            (&f["before"], &f["after"]),
            (&b["after"], &b["before"]),
            "the way back undoes the way forward"
        );
    }
    let same = json_stdout(&aca(
        dir.path(),
        &["console", "drift", "--from", "2026", "--to", "2026"],
    ));
    assert_eq!(same.as_array().unwrap().len(), 0);
}

#[test]
fn docs_parse_shows_what_the_agent_will_execute_and_refuses_non_procedures() {
    let dir = tempfile::tempdir().unwrap();
    let page = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../crates/aca-docs/tests/pages/ecs-stop-instance.md"
    );
    let out = aca(dir.path(), &["docs", "parse", page]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("menu: Instances & Images > Instances"), "{text}");
    assert!(text.contains("in: Dialog \"Stop Instance\""), "{text}");
    let json = json_stdout(&aca(dir.path(), &["docs", "parse", "--json", page]));
    assert_eq!(json["task"], "Stop an instance");

    std::fs::write(dir.path().join("notes.md"), "# Meeting notes\n\nNothing to do here.\n").unwrap();
    let refused = aca(dir.path(), &["docs", "parse", "notes.md"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not a readable procedure page"));
}
