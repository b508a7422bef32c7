//! A throw-away PostgreSQL server for tests: `initdb` in a temporary folder, started on a free
//! local port, stopped (and its files removed) when dropped. It needs Debian's `postgresql`
//! package, which `scripts/test` installs; as root the server runs as the `postgres` user.

use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Postgres {
    dir: tempfile::TempDir,
    bin: PathBuf,
    port: u16,
}

impl Postgres {
    pub fn start() -> Self {
        let bin = bin_dir().unwrap_or_else(|| {
            panic!(
                "PostgreSQL is needed for this test and was not found (/usr/lib/postgresql/*/bin): \
                 apt-get install postgresql, as scripts/test does"
            )
        });
        let dir = tempfile::Builder::new()
            .prefix("aca-pg-")
            .tempdir()
            .expect("a temporary folder");
        if as_root() {
            run(Command::new("chown").arg("postgres").arg(dir.path()), "chown");
        }
        let data = dir.path().join("data");
        run(
            as_owner(&bin.join("initdb"))
                .args(["-A", "trust", "-U", "aca", "-E", "UTF8", "--no-sync", "-D"])
                .arg(&data),
            "initdb",
        );
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let server = Self { dir, bin, port };
        server.resume();
        server
    }

    /// `postgres://aca@127.0.0.1:PORT/postgres`.
    pub fn url(&self) -> String {
        format!("postgres://aca@127.0.0.1:{}/postgres", self.port)
    }

    /// Stops the server (its data stays): the database has gone away.
    pub fn halt(&self) {
        run(
            as_owner(&self.bin.join("pg_ctl"))
                .args(["-D"])
                .arg(self.data())
                .args(["-m", "fast", "-w", "stop"]),
            "pg_ctl stop",
        );
    }

    /// Starts it again on the same port with the same data.
    pub fn resume(&self) {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            self.port,
            self.dir.path().display()
        );
        run(
            as_owner(&self.bin.join("pg_ctl"))
                .args(["-D"])
                .arg(self.data())
                .args(["-o", &options, "-l"])
                .arg(self.dir.path().join("log"))
                .args(["-w", "start"]),
            "pg_ctl start",
        );
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let _ = as_owner(&self.bin.join("pg_ctl"))
            .args(["-D"])
            .arg(self.data())
            .args(["-m", "immediate", "stop"])
            .output();
    }
}

fn bin_dir() -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|bin| bin.join("initdb").exists())
        .collect();
    found.sort();
    found.pop()
}

fn as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// PostgreSQL refuses to run as root: run its programs as `postgres` then.
fn as_owner(program: &Path) -> Command {
    if as_root() {
        let mut command = Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(program);
        command
    } else {
        Command::new(program)
    }
}

fn run(command: &mut Command, what: &str) {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{what} could not start: {e}"));
    assert!(
        output.status.success(),
        "{what} failed: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
