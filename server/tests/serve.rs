//! `aca serve` as clients use it: a Qwen3-shaped checkpoint (random weights, the real Qwen3 tokenizer
//! and chat template) served over HTTP, called with plain HTTP and with the official OpenAI Python
//! client: chat, streaming, JSON output enforced while decoding, token-level generation, errors.

mod common;

use std::path::Path;
use std::process::Command;

use common::serve::{Server, TOKEN, checkpoint, post, sse};
use serde_json::{Value, json};

fn serve(model: &Path) -> Server {
    common::serve::serve(model, &["--max-batch", "4", "--max-context", "2048"])
}

fn chat(messages_text: &str, extra: Value) -> Value {
    let mut body = json!({"messages": [{"role": "user", "content": messages_text}]});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    body
}

#[test]
fn chat_streaming_json_output_generation_and_errors_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let server = serve(&checkpoint(dir.path()));

    // Greedy decoding is deterministic, and the reply is whole.
    let request = chat("Name a colour.", json!({"max_tokens": 8, "temperature": 0}));
    let (status, first) = post(&server, "/v1/chat/completions", &request);
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["object"], "chat.completion");
    assert_eq!(first["model"], "qwen3-tiny");
    let choice = &first["choices"][0];
    assert!(
        matches!(choice["finish_reason"].as_str(), Some("length" | "stop")),
        "{first}"
    );
    let usage = &first["usage"];
    assert!(usage["prompt_tokens"].as_u64().unwrap() > 5, "{first}");
    assert!(usage["completion_tokens"].as_u64().unwrap() <= 8);
    assert_eq!(
        usage["total_tokens"].as_u64().unwrap(),
        usage["prompt_tokens"].as_u64().unwrap() + usage["completion_tokens"].as_u64().unwrap()
    );
    let (_, again) = post(&server, "/v1/chat/completions", &request);
    assert_eq!(again["choices"][0]["message"], choice["message"]);

    // The stream carries the same reply, then usage, then [DONE].
    let mut streamed = request.clone();
    streamed["stream"] = json!(true);
    streamed["stream_options"] = json!({"include_usage": true});
    let events = sse(&server, &streamed);
    assert_eq!(events.last().map(String::as_str), Some("[DONE]"), "{events:?}");
    let chunks: Vec<Value> = events[..events.len() - 1]
        .iter()
        .map(|e| serde_json::from_str(e).unwrap())
        .collect();
    assert_eq!(chunks[0]["choices"][0]["delta"]["role"], "assistant");
    let mut content = String::new();
    let mut reasoning = String::new();
    for chunk in &chunks {
        for choice in chunk["choices"].as_array().unwrap() {
            content.push_str(choice["delta"]["content"].as_str().unwrap_or_default());
            reasoning.push_str(choice["delta"]["reasoning_content"].as_str().unwrap_or_default());
        }
    }
    let message = &choice["message"];
    assert_eq!(content, message["content"].as_str().unwrap_or_default());
    assert_eq!(reasoning, message["reasoning_content"].as_str().unwrap_or_default());
    let last = chunks.last().unwrap();
    assert!(last["choices"].as_array().unwrap().is_empty());
    assert_eq!(last["usage"]["completion_tokens"], usage["completion_tokens"]);

    // n choices with a seed: reproducible, and each its own sequence.
    let sampled = chat(
        "Say something.",
        json!({"max_tokens": 6, "temperature": 1.0, "seed": 5, "n": 3}),
    );
    let (_, one) = post(&server, "/v1/chat/completions", &sampled);
    let (_, two) = post(&server, "/v1/chat/completions", &sampled);
    assert_eq!(one["choices"].as_array().unwrap().len(), 3);
    assert_eq!(one["choices"], two["choices"]);

    // JSON output is enforced while decoding: even random weights write a valid object.
    let schema = json!({
        "type": "object",
        "properties": {"size": {"enum": ["small", "large"]}, "count": {"type": "integer", "minimum": 1, "maximum": 9}},
        "required": ["size", "count"],
        "additionalProperties": false
    });
    for seed in [1, 2, 3] {
        let structured = chat(
            "Order.",
            json!({"max_tokens": 40, "temperature": 0.9, "seed": seed,
                   "response_format": {"type": "json_schema", "json_schema": {"name": "order", "schema": schema}}}),
        );
        let (status, reply) = post(&server, "/v1/chat/completions", &structured);
        assert_eq!(status, 200, "{reply}");
        assert_eq!(reply["choices"][0]["finish_reason"], "stop", "{reply}");
        let text = reply["choices"][0]["message"]["content"].as_str().unwrap();
        let value: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert!(["small", "large"].contains(&value["size"].as_str().unwrap()), "{value}");
        assert!((1..=9).contains(&value["count"].as_i64().unwrap()), "{value}");
    }

    // Token ids in, sampled ids and their logprobs out.
    let (status, generated) = post(
        &server,
        "/v1/generate",
        &json!({"input_ids": [151644, 872, 198, 9707], "max_tokens": 5, "temperature": 0.7, "seed": 9}),
    );
    assert_eq!(status, 200, "{generated}");
    let ids = generated["output_ids"].as_array().unwrap();
    let logprobs = generated["logprobs"].as_array().unwrap();
    assert_eq!(ids.len(), logprobs.len());
    assert!(!ids.is_empty() && ids.len() <= 5);
    assert!(logprobs.iter().all(|l| l.as_f64().unwrap() <= 0.0), "{generated}");

    // A text model says what it reads, counts no image tokens and refuses images on either route.
    let (_, models) = common::serve::get(&server, "/v1/models");
    assert_eq!(models["data"][0]["input_modalities"], json!(["text"]), "{models}");
    assert!(usage.get("prompt_tokens_details").is_none(), "{first}");
    let with_image = json!({"messages": [{"role": "user", "content": [
        {"type": "text", "text": "What is this?"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}]}]});
    let (status, error) = post(&server, "/v1/chat/completions", &with_image);
    assert_eq!(status, 400, "{error}");
    assert_eq!(
        error["error"]["message"],
        "messages[0].content[1]: this server's model reads text only, not images"
    );
    let (status, error) = post(
        &server,
        "/v1/generate",
        &json!({"input_ids": [1, 2], "images": ["data:image/png;base64,AAAA"]}),
    );
    assert_eq!(status, 400, "{error}");
    assert_eq!(error["error"]["param"], "images", "{error}");

    // Errors in OpenAI's shape, with the status clients map to their exceptions.
    let (status, error) = post(&server, "/v1/chat/completions", &chat("x", json!({"n": 0})));
    assert_eq!(status, 400);
    assert_eq!(error["error"]["param"], "n");
    let (status, error) = post(
        &server,
        "/v1/chat/completions",
        &chat("x", json!({"max_tokens": 100_000})),
    );
    assert_eq!(status, 400);
    assert_eq!(error["error"]["code"], "context_length_exceeded");
    let (status, error) = post(
        &server,
        "/v1/chat/completions",
        &chat(
            "x",
            json!({"response_format": {"type": "json_schema", "json_schema": {"schema": {"type": 7}}}}),
        ),
    );
    assert_eq!(status, 400, "{error}");
    assert_eq!(error["error"]["param"], "response_format");
    let (status, error) = post(&server, "/v1/chat/completions", &json!({"messages": "not a list"}));
    assert_eq!(status, 400, "{error}");
    assert_eq!(error["error"]["type"], "invalid_request_error");
    let refused = reqwest::blocking::Client::new()
        .get(format!("{}/v1/models", server.base))
        .send()
        .unwrap();
    assert_eq!(refused.status().as_u16(), 401);
    let big = "x".repeat(5 * 1024 * 1024);
    let (status, _) = post(&server, "/v1/chat/completions", &chat(&big, json!({})));
    assert_eq!(status, 413);

    // Probes stay open; metrics count what happened.
    let health: Value = reqwest::blocking::get(format!("{}/health", server.base))
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(health["status"], "ok");
    let metrics = reqwest::blocking::get(format!("{}/metrics", server.base))
        .unwrap()
        .text()
        .unwrap();
    assert!(
        metrics.contains(r#"aca_serve_requests_total{route="/v1/chat/completions",status="200"}"#),
        "{metrics}"
    );
    assert!(metrics.contains("aca_serve_completion_tokens_total"), "{metrics}");
}

fn tools() -> Value {
    json!([
        {"type": "function", "function": {"name": "get_weather", "description": "Weather for a city",
            "parameters": {"type": "object",
                "properties": {"city": {"enum": ["Hangzhou", "Beijing"]}, "days": {"type": "integer", "minimum": 1, "maximum": 7}},
                "required": ["city", "days"], "additionalProperties": false}}},
        {"type": "function", "function": {"name": "create_vpc", "description": "Create a VPC", "strict": true,
            "parameters": {"type": "object", "properties": {"cidr": {"enum": ["10.0.0.0/8", "192.168.0.0/16"]}},
                "required": ["cidr"]}}}
    ])
}

/// Checks one returned tool call against the test's tools: a known name, arguments valid for it.
fn assert_valid_call(call: &Value) -> String {
    assert_eq!(call["type"], "function", "{call}");
    let name = call["function"]["name"].as_str().unwrap().to_owned();
    let text = call["function"]["arguments"].as_str().unwrap();
    let arguments: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    match name.as_str() {
        "get_weather" => {
            assert!(
                ["Hangzhou", "Beijing"].contains(&arguments["city"].as_str().unwrap()),
                "{arguments}"
            );
            assert!((1..=7).contains(&arguments["days"].as_i64().unwrap()), "{arguments}");
            assert_eq!(arguments.as_object().unwrap().len(), 2, "{arguments}");
        }
        "create_vpc" => {
            assert!(
                ["10.0.0.0/8", "192.168.0.0/16"].contains(&arguments["cidr"].as_str().unwrap()),
                "{arguments}"
            );
            assert_eq!(
                arguments.as_object().unwrap().len(),
                1,
                "strict: no other properties: {arguments}"
            );
        }
        other => panic!("a call to a tool that was not offered: {other}"),
    }
    name
}

#[test]
fn tool_choice_required_and_named_force_valid_tool_calls_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let server = serve(&checkpoint(dir.path()));

    // "required": random weights still write one or more valid calls, and nothing else.
    for seed in [1, 2, 3] {
        let request = chat(
            "What is the weather?",
            json!({"tools": tools(), "tool_choice": "required", "max_tokens": 120, "temperature": 0.9, "seed": seed}),
        );
        let (status, reply) = post(&server, "/v1/chat/completions", &request);
        assert_eq!(status, 200, "{reply}");
        let choice = &reply["choices"][0];
        assert_eq!(choice["finish_reason"], "tool_calls", "{reply}");
        assert!(choice["message"]["content"].is_null(), "{reply}");
        let calls = choice["message"]["tool_calls"].as_array().unwrap();
        assert!(!calls.is_empty(), "{reply}");
        calls.iter().for_each(|call| {
            assert_valid_call(call);
        });
    }

    // A named function: exactly one call, to it; also when streamed.
    let named = json!({"type": "function", "function": {"name": "create_vpc"}});
    let request = chat(
        "Make a network.",
        json!({"tools": tools(), "tool_choice": named, "max_tokens": 60, "temperature": 1.0, "seed": 4}),
    );
    let (status, reply) = post(&server, "/v1/chat/completions", &request);
    assert_eq!(status, 200, "{reply}");
    let calls = reply["choices"][0]["message"]["tool_calls"].as_array().unwrap();
    assert_eq!(calls.len(), 1, "{reply}");
    assert_eq!(assert_valid_call(&calls[0]), "create_vpc");
    let mut streamed = request.clone();
    streamed["stream"] = json!(true);
    let events = sse(&server, &streamed);
    let chunks: Vec<Value> = events[..events.len() - 1]
        .iter()
        .map(|e| serde_json::from_str(e).unwrap())
        .collect();
    let streamed_calls: Vec<&Value> = chunks
        .iter()
        .flat_map(|c| c["choices"].as_array().unwrap())
        .filter_map(|choice| choice["delta"]["tool_calls"].as_array())
        .flatten()
        .collect();
    assert_eq!(streamed_calls.len(), 1, "{events:?}");
    assert_eq!(streamed_calls[0]["function"], calls[0]["function"], "{events:?}");

    // A forced call cut off by max_tokens is no server error: the reply says `length` and keeps the
    // unfinished call as text, as the token limit is the client's choice.
    let cut = chat(
        "Make a network.",
        json!({"tools": tools(), "tool_choice": named, "max_tokens": 5, "temperature": 0}),
    );
    let (status, reply) = post(&server, "/v1/chat/completions", &cut);
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["choices"][0]["finish_reason"], "length", "{reply}");
    assert!(
        reply["choices"][0]["message"]["content"]
            .as_str()
            .is_some_and(|c| c.starts_with("<tool_call>")),
        "{reply}"
    );
    let mut cut_streamed = cut.clone();
    cut_streamed["stream"] = json!(true);
    let events = sse(&server, &cut_streamed);
    assert_eq!(events.last().map(String::as_str), Some("[DONE]"), "{events:?}");
    assert!(
        events.iter().any(|e| e.contains("\"finish_reason\":\"length\"")),
        "{events:?}"
    );

    // "none": the tools stay out of the prompt and the reply is a message.
    let plain = chat("Hi", json!({"max_tokens": 4, "temperature": 0}));
    let (_, without) = post(&server, "/v1/chat/completions", &plain);
    let mut none = plain.clone();
    none["tools"] = tools();
    none["tool_choice"] = json!("none");
    let (status, reply) = post(&server, "/v1/chat/completions", &none);
    assert_eq!(status, 200, "{reply}");
    assert_eq!(
        reply["usage"]["prompt_tokens"], without["usage"]["prompt_tokens"],
        "{reply}"
    );
    assert!(reply["choices"][0]["message"]["tool_calls"].is_null(), "{reply}");

    // What cannot be forced is refused up front.
    let unknown = json!({"type": "function", "function": {"name": "delete_everything"}});
    for (extra, what) in [
        (json!({"tools": tools(), "tool_choice": unknown}), "not among the tools"),
        (json!({"tool_choice": "required"}), "needs at least one tool"),
        (
            json!({"tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": 7}}}], "tool_choice": "required"}),
            "invalid JSON schema",
        ),
        (
            json!({"tools": tools(), "tool_choice": "required", "response_format": {"type": "json_object"}}),
            "cannot be combined",
        ),
    ] {
        let (status, error) = post(&server, "/v1/chat/completions", &chat("x", extra));
        assert_eq!(status, 400, "{error}");
        let message = error["error"]["message"].as_str().unwrap();
        assert!(message.contains(what), "{what}: {message}");
    }
}

#[test]
fn serve_refuses_a_checkpoint_that_does_not_fit_and_devices_not_built() {
    let dir = tempfile::tempdir().unwrap();
    let model = checkpoint(dir.path());
    let run = |args: &[&str]| {
        let output = Command::new(common::ACA)
            .args(["serve", "--listen", "127.0.0.1:0"])
            .arg("--model")
            .arg(&model)
            .args(args)
            .output()
            .unwrap();
        (
            output.status.success(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    // 2 layers × 2 kv heads × 16 dims × 2 (k, v) × 4 bytes = 512 bytes per token: 8 × 1024 tokens = 4 MiB
    // of cache, plus ~74 MiB of f32 weights (Qwen3's vocabulary × 64, and the tied output head's copy).
    let (ok, stderr) = run(&["--device-memory", "16MiB", "--max-batch", "8", "--max-context", "1024"]);
    assert!(!ok, "{stderr}");
    assert!(stderr.contains("does not fit the cpu"), "{stderr}");
    assert!(stderr.contains("16.0 MiB are available"), "{stderr}");
    assert!(
        stderr.contains("4.0 MiB of KV cache for 8 sequences × 1024 tokens"),
        "{stderr}"
    );
    let (ok, stderr) = run(&["--device-memory", "lots"]);
    assert!(!ok && stderr.contains("not a byte count"), "{stderr}");
    if !cfg!(feature = "wgpu") {
        let (ok, stderr) = run(&["--device", "wgpu"]);
        assert!(!ok, "{stderr}");
        assert!(stderr.contains("--features wgpu"), "{stderr}");
    }
    if !cfg!(feature = "cuda") {
        let (ok, stderr) = run(&["--device", "cuda"]);
        assert!(!ok, "{stderr}");
        assert!(stderr.contains("--features cuda"), "{stderr}");
    }
}

#[test]
fn weights_held_in_bf16_or_int8_need_fewer_bytes_and_still_answer() {
    let dir = tempfile::tempdir().unwrap();
    let model = checkpoint(dir.path());
    let check = |dtype: &str, memory: &str| {
        let mut arguments: Vec<&str> = dtype.split(' ').collect();
        arguments.insert(0, "--weights-dtype");
        let output = Command::new(common::ACA)
            .args(["serve", "--check-memory", "--max-batch", "8", "--max-context", "1024"])
            .args(arguments)
            .args(["--device-memory", memory])
            .arg("--model")
            .arg(&model)
            .output()
            .unwrap();
        (output.status.code(), String::from_utf8_lossy(&output.stdout).into_owned())
    };
    // About 74 MiB of weights (Qwen3's vocabulary × 64, and the tied output head's own copy) and
    // 4 MiB of cache in f32; half of each in bf16.
    let (code, f32_report) = check("f32", "48MiB");
    assert_eq!(code, Some(1), "{f32_report}");
    assert!(f32_report.contains("f32 weights: ") && f32_report.contains("does not fit"), "{f32_report}");
    let (code, bf16_report) = check("bf16", "48MiB");
    assert_eq!(code, Some(0), "{bf16_report}");
    assert!(bf16_report.contains("bf16 weights: "), "{bf16_report}");
    assert!(
        bf16_report.contains("bf16 KV cache for 8 sequences × 1024 tokens: 2.0 MiB"),
        "{bf16_report}"
    );
    assert!(bf16_report.contains("the largest --max-batch at --max-context 1024 that fits:"), "{bf16_report}");
    // The report says how the layers' projections are held (their bytes are checked in aca-model:
    // this checkpoint's are a sliver beside its embeddings).
    let (code, int8_report) = check("bf16 --quantize int8", "48MiB");
    assert_eq!(code, Some(0), "{int8_report}");
    assert!(
        int8_report.contains("bf16 weights, the layers' projections in int8: "),
        "{int8_report}"
    );

    // Served in bf16, the model answers as a client expects.
    let server = common::serve::serve(&model, &["--weights-dtype", "bf16", "--max-batch", "2"]);
    let (status, reply) = post(&server, "/v1/chat/completions", &chat("Say hello.", json!({"max_tokens": 4})));
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["choices"][0]["message"]["role"], "assistant");
    assert!(reply["usage"]["completion_tokens"].as_u64().unwrap() >= 1, "{reply}");
    drop(server);

    // So does it with int8 projections.
    let server = common::serve::serve(&model, &["--weights-dtype", "bf16", "--quantize", "int8", "--max-batch", "2"]);
    let (status, reply) = post(&server, "/v1/chat/completions", &chat("Say hello.", json!({"max_tokens": 4})));
    assert_eq!(status, 200, "{reply}");
    assert!(reply["usage"]["completion_tokens"].as_u64().unwrap() >= 1, "{reply}");
}

#[test]
fn the_official_openai_client_works_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let server = serve(&checkpoint(dir.path()));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/serve/openai_client.py");
    let output = Command::new("python3")
        .arg(&script)
        .args([&format!("{}/v1", server.base), TOKEN, "qwen3-tiny"])
        .output()
        .expect("python3 runs (scripts/setup installs the openai package)");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let out: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(out["stream"]["content"], out["chat"]["content"], "{out}");
    assert_eq!(
        out["stream"]["completion_tokens"], out["chat"]["completion_tokens"],
        "{out}"
    );
    assert_eq!(out["stream"]["finish_reason"], out["chat"]["finish_reason"], "{out}");
    assert!(
        out["tools"]["prompt_tokens"].as_u64().unwrap() > out["chat"]["prompt_tokens"].as_u64().unwrap() + 20,
        "the tools reach the prompt through the template: {out}"
    );
    assert_eq!(out["forced"]["name"], "pick_region", "{out}");
    assert_eq!(out["forced"]["calls"], 1, "{out}");
    assert_eq!(out["forced"]["finish_reason"], "tool_calls", "{out}");
    assert!(
        ["cn-hangzhou", "cn-beijing"].contains(&out["forced"]["arguments"]["region"].as_str().unwrap()),
        "{out}"
    );
    let structured: Value = serde_json::from_str(out["json_schema"]["content"].as_str().unwrap()).unwrap();
    assert!(structured["size"].is_string() && structured["count"].is_i64(), "{out}");
    let logprobs = out["logprobs"].as_array().unwrap();
    assert!(!logprobs.is_empty());
    for token in logprobs {
        let top = token["top"].as_array().unwrap();
        assert_eq!(top.len(), 2, "{out}");
        // Greedy: the chosen token is the most likely one.
        assert!(
            (token["logprob"].as_f64().unwrap() - top[0].as_f64().unwrap()).abs() < 1e-4,
            "{out}"
        );
    }
    assert_eq!(out["wrong_model"], "model_not_found");
    assert_eq!(out["wrong_token"], "refused");
}
