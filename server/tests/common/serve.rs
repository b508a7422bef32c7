//! A running `aca serve` for the serving tests: a checkpoint served on a free port behind a bearer
//! token, called over plain HTTP, killed when dropped.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use aca_model::random::{RandomShape, write_random_checkpoint};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{ACA, without_caller_env};

/// The bearer token every served model in the tests requires.
pub const TOKEN: &str = "serve-test-token";

pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`, without `/v1`.
    pub base: String,
    /// The line `aca serve` printed when it was ready.
    pub banner: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The small random Qwen3 model with Qwen3's real tokenizer and chat template, written under `dir`.
pub fn checkpoint(dir: &Path) -> PathBuf {
    let model = dir.join("qwen3-tiny");
    write_random_checkpoint(&model, &RandomShape::small(), 11).unwrap();
    let text = Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/aca-model/tests/fixtures/text/qwen3");
    for file in ["tokenizer.json.gz", "tokenizer_config.json"] {
        std::fs::copy(text.join(file), model.join(file)).unwrap();
    }
    model
}

/// `aca serve --model MODEL --listen 127.0.0.1:0 ARGS…`, once it printed its address.
pub fn serve(model: &Path, args: &[&str]) -> Server {
    let mut child = without_caller_env(Command::new(ACA))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .arg("--model")
        .arg(model)
        .args(args)
        .env("ACA_SERVE_TOKEN", TOKEN)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("aca starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let deadline = Instant::now() + Duration::from_secs(120);
    let (base, banner) = loop {
        assert!(Instant::now() < deadline, "aca serve printed no address within 120 s");
        let line = lines.next().expect("aca serve exited before it was ready").unwrap();
        if let Some(rest) = line.strip_prefix("serving ") {
            let url = rest.split(" at ").nth(1).unwrap().split_whitespace().next().unwrap();
            break (url.trim_end_matches("/v1").to_owned(), line.clone());
        }
    };
    // Keep draining stdout so the child never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    Server { child, base, banner }
}

/// POSTs `body` as JSON with the token; the status and the JSON reply (null when it is not JSON).
pub fn post(server: &Server, path: &str, body: &Value) -> (u16, Value) {
    let response = reqwest::blocking::Client::new()
        .post(format!("{}{path}", server.base))
        .bearer_auth(TOKEN)
        .json(body)
        .send()
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().unwrap_or(Value::Null))
}

/// GETs `path` with the token; the status and the JSON reply.
pub fn get(server: &Server, path: &str) -> (u16, Value) {
    let response = reqwest::blocking::Client::new()
        .get(format!("{}{path}", server.base))
        .bearer_auth(TOKEN)
        .send()
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().unwrap_or(Value::Null))
}

/// The `data:` payloads of the server-sent event stream a chat request answers with.
pub fn sse(server: &Server, body: &Value) -> Vec<String> {
    let text = reqwest::blocking::Client::new()
        .post(format!("{}/v1/chat/completions", server.base))
        .bearer_auth(TOKEN)
        .json(body)
        .send()
        .unwrap()
        .text()
        .unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix("data: ").or_else(|| l.strip_prefix("data:")))
        .map(str::to_owned)
        .collect()
}
