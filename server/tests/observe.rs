//! `aca observe` as a user runs it: against a running `aca console`, logging on first, printing the
//! text tree or JSON and saving a marked screenshot; and the errors when something is missing.

mod common;

use std::path::Path;

use common::{RunningConsole, aca, stdout_of};
use serde_json::Value;

/// A running `aca console` and its first account's logon.
struct Console {
    url: String,
    login: String,
    password: String,
    _running: RunningConsole,
}

fn start_console(dir: &Path) -> Console {
    let running = RunningConsole::start(dir, &[]);
    let creds = RunningConsole::credentials(dir);
    Console {
        url: running.url.clone(),
        login: creds["login"].as_str().unwrap().to_owned(),
        password: creds["password"].as_str().unwrap().to_owned(),
        _running: running,
    }
}

#[test]
fn observe_logs_on_prints_the_tree_and_saves_a_marked_screenshot() {
    let dir = tempfile::tempdir().unwrap();
    let console = start_console(dir.path());
    let page = format!("{}/console/vpc/vpcs?region=cn-hangzhou", console.url);

    let text = stdout_of(&aca(
        dir.path(),
        &[
            "observe",
            &page,
            "--login",
            &console.login,
            "--password",
            &console.password,
            "--screenshot",
            "vpcs.png",
        ],
    ));
    assert!(
        text.starts_with(&format!("URL: {}/console/vpc/vpcs", console.url)),
        "{text}"
    );
    assert!(text.contains("\"Create VPC\""), "{text}");
    assert!(text.contains("<navigation"), "{text}");
    let png = std::fs::read(dir.path().join("vpcs.png")).expect("the screenshot was written");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG file");
    assert!(png.len() > 10_000, "a real capture, {} bytes", png.len());

    let json = stdout_of(&aca(
        dir.path(),
        &[
            "observe",
            &page,
            "--json",
            "--login",
            &console.login,
            "--password",
            &console.password,
        ],
    ));
    let observation: Value = serde_json::from_str(&json).expect("JSON");
    let elements = observation["elements"].as_array().expect("elements");
    assert!(elements.iter().any(|e| e["name"] == "Create VPC"), "{json}");
    assert!(
        elements
            .iter()
            .all(|e| e["index"].as_u64().is_some() && e["role"].is_string())
    );

    // Without logging on, the console shows its logon form.
    let logon = stdout_of(&aca(dir.path(), &["observe", &page]));
    assert!(logon.contains("\"Log On\""), "{logon}");

    let refused = aca(
        dir.path(),
        &[
            "observe",
            &page,
            "--login",
            &console.login,
            "--password",
            "wrong-password",
        ],
    );
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("logging on"));
}

#[test]
fn observe_names_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let no_chromium = aca(
        dir.path(),
        &["observe", "http://127.0.0.1:9/", "--chromium", "/nonexistent/chromium"],
    );
    assert_eq!(no_chromium.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&no_chromium.stderr).contains("apt-get install chromium"));

    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let no_page_side = aca(
        dir.path(),
        &["observe", "http://127.0.0.1:9/", "--page-side", empty.to_str().unwrap()],
    );
    assert_eq!(no_page_side.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&no_page_side.stderr).contains("scripts/build-wasm"));

    let bad_url = aca(dir.path(), &["observe", "not a url"]);
    assert_eq!(bad_url.status.code(), Some(2));
}
