//! `aca observe` as a user runs it: against a running `aca console`, logging on first, printing the
//! text tree or JSON and saving a marked screenshot; and the errors when something is missing.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const ACA: &str = env!("CARGO_BIN_EXE_aca");

/// A running `aca console`, killed when dropped.
struct Console {
    child: Child,
    url: String,
    login: String,
    password: String,
}

impl Drop for Console {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_console(dir: &Path) -> Console {
    let mut child = Command::new(ACA)
        .args(["console", "--listen", "127.0.0.1:0", "--credentials"])
        .arg(dir.join("creds.json"))
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("aca starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let deadline = Instant::now() + Duration::from_secs(20);
    let url = loop {
        assert!(Instant::now() < deadline, "aca console printed no URL within 20 s");
        let line = lines.next().expect("aca console exited before it was ready").unwrap();
        if let Some(url) = line.strip_prefix("console emulator ready at ") {
            break url.trim().to_owned();
        }
    };
    std::thread::spawn(move || lines.for_each(drop));
    let creds: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("creds.json")).unwrap()).unwrap();
    Console {
        child,
        url,
        login: creds["login"].as_str().unwrap().to_owned(),
        password: creds["password"].as_str().unwrap().to_owned(),
    }
}

fn aca(dir: &Path, args: &[&str]) -> Output {
    Command::new(ACA)
        .args(args)
        .current_dir(dir)
        .env_remove("ACA_PASSWORD")
        .output()
        .expect("aca runs")
}

fn stdout_of(out: &Output) -> String {
    assert!(
        out.status.success(),
        "aca failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
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
