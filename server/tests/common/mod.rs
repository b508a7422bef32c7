//! Shared by the tests that run the real `aca` binary: a running `aca console` and a plain
//! invocation in a test's own directory, free of the caller's credentials.

#![allow(dead_code)]

pub mod serve;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

pub const ACA: &str = env!("CARGO_BIN_EXE_aca");

/// A running `aca console` (its first account's credentials in `creds.json`), killed when dropped.
pub struct RunningConsole {
    child: Child,
    pub url: String,
}

impl Drop for RunningConsole {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `aca ARGS…` in `dir` with `env` and waits until it prints `ready` followed by its URL;
/// the child and the URL.
pub fn start_service(dir: &Path, args: &[&str], env: &[(&str, &str)], ready: &str) -> (Child, String) {
    let mut child = without_caller_env(Command::new(ACA))
        .args(args)
        .envs(env.iter().copied())
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("aca starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut lines = BufReader::new(stdout).lines();
    let deadline = Instant::now() + Duration::from_secs(20);
    let url = loop {
        assert!(Instant::now() < deadline, "aca {args:?} printed no URL within 20 s");
        let line = lines.next().expect("aca exited before it was ready").unwrap();
        if let Some(url) = line.strip_prefix(ready) {
            break url.trim().to_owned();
        }
    };
    // Keep draining stdout so the child never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    (child, url)
}

impl RunningConsole {
    /// `aca console --listen 127.0.0.1:0 --credentials DIR/creds.json ARGS…`, run in `dir`, once it
    /// printed its URL.
    pub fn start(dir: &Path, args: &[&str]) -> Self {
        let creds = dir.join("creds.json");
        let mut all = vec![
            "console",
            "--listen",
            "127.0.0.1:0",
            "--credentials",
            creds.to_str().unwrap(),
        ];
        all.extend_from_slice(args);
        let (child, url) = start_service(dir, &all, &[], "console emulator ready at ");
        RunningConsole { child, url }
    }

    /// The console's first account as `aca console` wrote it: login, password, AccessKey; the file
    /// is readable by its owner only.
    pub fn credentials(dir: &Path) -> Value {
        let path = dir.join("creds.json");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&path)
                .expect("aca console wrote creds.json")
                .permissions()
                .mode();
            assert_eq!(mode & 0o077, 0, "creds.json is readable by others: {mode:o}");
        }
        let text = std::fs::read_to_string(&path).expect("aca console wrote creds.json");
        serde_json::from_str(&text).expect("creds.json is JSON")
    }
}

/// Without the caller's `ACA_*` settings and Alibaba Cloud credentials: a test must not borrow the
/// caller's accounts, tokens or model endpoint.
pub fn without_caller_env(mut command: Command) -> Command {
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if (name.starts_with("ACA_") && name != "ACA_LOG") || name.starts_with("ALIBABA_CLOUD_") {
            command.env_remove(name.as_ref());
        }
    }
    command
}

/// `aca ARGS…` run in `dir`, to completion.
pub fn aca(dir: &Path, args: &[&str]) -> Output {
    without_caller_env(Command::new(ACA))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("aca runs")
}

/// `aca` as an async command, for tests that serve something in-process while it runs.
pub fn aca_async() -> tokio::process::Command {
    tokio::process::Command::from(without_caller_env(Command::new(ACA)))
}

/// A page of the example corpus (`tests/corpus/PRODUCT/PAGE`).
pub fn corpus(page: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus").join(page)
}

/// A task folder under `dir/tasks` with corpus pages (`product/slug`, each with its sidecar) and a
/// split.toml putting `train` and `test` in their sets.
pub fn task_folder(dir: &Path, train: &[&str], test: &[&str]) -> PathBuf {
    let tasks = dir.join("tasks");
    for page in train.iter().chain(test) {
        let (product, slug) = page.split_once('/').expect("pages are product/slug");
        std::fs::create_dir_all(tasks.join(product)).unwrap();
        for file in [format!("{slug}.md"), format!("{slug}.task.toml")] {
            std::fs::copy(corpus(product).join(&file), tasks.join(product).join(&file)).unwrap();
        }
    }
    let list = |pages: &[&str]| pages.iter().map(|p| format!("\"{p}\"")).collect::<Vec<_>>().join(", ");
    std::fs::write(
        tasks.join("split.toml"),
        format!("train = [{}]\ntest = [{}]\n", list(train), list(test)),
    )
    .unwrap();
    tasks
}

/// Standard output and standard error together, for messages that may go to either.
pub fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The report of the one page a run under `out` verified, whatever its folder is named; `run` (the
/// run's output) is shown when there is none.
pub fn the_report_under(out: &Path, run: &Output) -> serde_json::Value {
    let found = std::fs::read_dir(out)
        .unwrap_or_else(|e| panic!("no folder {}: {e}", out.display()))
        .filter_map(Result::ok)
        .map(|e| e.path().join("report.json"))
        .find(|p| p.exists())
        .unwrap_or_else(|| panic!("no report under {}: {}", out.display(), show(run)));
    serde_json::from_str(&std::fs::read_to_string(&found).unwrap()).unwrap()
}

/// The exit status and both streams, for assertion messages.
pub fn show(output: &Output) -> String {
    format!("status {:?}\n{}", output.status, text(output))
}

/// The standard output of a successful run.
pub fn stdout_of(out: &Output) -> String {
    assert!(
        out.status.success(),
        "aca failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The standard output of a successful run, as JSON.
pub fn json_stdout(out: &Output) -> Value {
    let stdout = stdout_of(out);
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

/// Every file under `dir`, as text where it is text: what a run wrote, to search for secrets.
pub fn everything_written(dir: &Path) -> String {
    let mut text = String::new();
    let mut folders = vec![dir.to_owned()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else {
                text.push_str(&String::from_utf8_lossy(&std::fs::read(&path).unwrap()));
            }
        }
    }
    text
}

/// An account of an emulator started separately, used as a real account is: made through the
/// admin API (set-up only, as a person signs up), its AccessKey pair in `dir/ak.json` (owner-only),
/// and, with `log_on`, a browser profile `dir/profile` the person logged on in once.
pub struct SeparateAccount {
    /// `aca console accounts create`'s answer: accountId, login, password, AccessKey pair.
    pub account: Value,
    pub keys: PathBuf,
    pub profile: PathBuf,
}

impl SeparateAccount {
    pub fn make(dir: &Path, console_url: &str, admin_token: &str, name: &str, log_on: bool) -> Self {
        let created = aca(
            dir,
            &[
                "console",
                "accounts",
                "create",
                "--url",
                console_url,
                "--admin-token",
                admin_token,
                "--name",
                name,
            ],
        );
        assert!(created.status.success(), "{}", show(&created));
        let account: Value = serde_json::from_slice(&created.stdout).unwrap();
        let made = Self {
            account,
            keys: dir.join("ak.json"),
            profile: dir.join("profile"),
        };
        let pair = serde_json::json!({
            "accessKeyId": made.field("accessKeyId"),
            "accessKeySecret": made.field("accessKeySecret"),
        });
        aca_openapi::private_file::write(&made.keys, pair.to_string().as_bytes()).unwrap();
        if log_on {
            let home = format!("{console_url}/console");
            let logged_on = aca(
                dir,
                &[
                    "observe",
                    &home,
                    "--login",
                    &made.field("login"),
                    "--password",
                    &made.field("password"),
                    "--user-data-dir",
                    made.profile.to_str().unwrap(),
                ],
            );
            assert!(logged_on.status.success(), "{}", show(&logged_on));
        }
        made
    }

    /// One field of the account (`accountId`, `login`, `password`, `accessKeyId`, `accessKeySecret`).
    pub fn field(&self, name: &str) -> String {
        self.account[name].as_str().unwrap_or_default().to_owned()
    }
}
