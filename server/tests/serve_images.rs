//! `aca serve` with images: the tiny Qwen3-VL checkpoint of aca-model's fixtures served over HTTP, sent
//! its reference images as `image_url` parts (plain HTTP and the official OpenAI Python client) and as
//! `/v1/generate` images, answering the `transformers` reference's greedy tokens; every bad image is a
//! 400 that names it; remote images only when allowed.

mod common;

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

use base64::Engine as _;
use common::serve::{Server, TOKEN, get, post, serve, sse};
use serde::Deserialize;
use serde_json::{Value, json};

const IMAGE_PAD: u32 = 252;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/aca-model/tests/fixtures/vl_tiny")
}

/// One prompt of the fixture's `reference.json`: ids (images expanded), image files, greedy tokens.
#[derive(Debug, Deserialize)]
struct Case {
    name: String,
    prompt_ids: Vec<u32>,
    images: Vec<String>,
    greedy: Vec<u32>,
}

fn cases() -> Vec<Case> {
    #[derive(Deserialize)]
    struct Reference {
        cases: Vec<Case>,
    }
    let text = std::fs::read_to_string(fixture().join("reference.json")).unwrap();
    serde_json::from_str::<Reference>(&text).unwrap().cases
}

/// The fixture's checkpoint with a text side of its own, which the fixture leaves out: a word-level
/// tokenizer in which the word `tN` is id N (so a message can spell the reference's prompt ids),
/// Qwen's vision and chat markers as ids 250–255, and a chat template in Qwen3-VL's shape (image parts
/// become `<|vision_start|><|image_pad|><|vision_end|>`) that writes nothing but the messages' parts.
fn checkpoint(dir: &Path) -> PathBuf {
    let model = dir.join("qwen3-vl-tiny");
    std::fs::create_dir_all(&model).unwrap();
    for file in [
        "config.json",
        "generation_config.json",
        "model.safetensors",
        "preprocessor_config.json",
    ] {
        std::fs::copy(fixture().join(file), model.join(file)).unwrap();
    }
    let mut vocab: serde_json::Map<String, Value> = (0..249).map(|id| (format!("▁t{id}"), json!(id))).collect();
    vocab.insert("<unk>".into(), json!(249));
    let markers = [
        "<|vision_start|>",
        "<|vision_end|>",
        "<|image_pad|>",
        "<|video_pad|>",
        "<|im_start|>",
        "<|im_end|>",
    ];
    let added: Vec<Value> = (markers.iter().enumerate())
        .map(|(k, content)| {
            json!({"id": 250 + k, "content": content, "single_word": false, "lstrip": false,
                   "rstrip": false, "normalized": false, "special": true})
        })
        .collect();
    let tokenizer = json!({
        "version": "1.0", "truncation": null, "padding": null, "added_tokens": added, "normalizer": null,
        "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": true},
        "post_processor": null,
        "decoder": {"type": "Sequence", "decoders": [
            {"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
            {"type": "ByteFallback"}, {"type": "Fuse"},
            {"type": "Strip", "content": " ", "start": 1, "stop": 0}]},
        "model": {"type": "WordLevel", "vocab": vocab, "unk_token": "<unk>"}
    });
    let template = "{%- for message in messages %}\
        {%- if message.content is string %}{{- message.content }}\
        {%- else %}{%- for content in message.content %}\
        {%- if content.type == 'image' or 'image' in content or 'image_url' in content %}<|vision_start|><|image_pad|><|vision_end|>\
        {%- elif 'text' in content %}{{- content.text }}{%- endif %}\
        {%- endfor %}{%- endif %}{%- endfor %}";
    let config = json!({"eos_token": "<|im_end|>", "chat_template": template});
    std::fs::write(model.join("tokenizer.json"), tokenizer.to_string()).unwrap();
    std::fs::write(model.join("tokenizer_config.json"), config.to_string()).unwrap();
    model
}

fn data_url(media_type: &str, bytes: &[u8]) -> String {
    format!(
        "data:{media_type};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

fn fixture_image(file: &str) -> String {
    data_url("image/png", &std::fs::read(fixture().join(file)).unwrap())
}

/// The words of `ids` (`t11 t42`).
fn words(ids: &[u32]) -> String {
    ids.iter().map(|id| format!("t{id}")).collect::<Vec<_>>().join(" ")
}

/// The case's prompt as one user message: its text as words, each image as an `image_url` part.
fn message_parts(case: &Case) -> Value {
    let mut parts = Vec::new();
    let mut text = Vec::new();
    let mut images = case.images.iter();
    let mut ids = case.prompt_ids.iter().copied().peekable();
    while let Some(id) = ids.next() {
        match id {
            // Markers the template writes around each image.
            250 | 251 => {}
            IMAGE_PAD => {
                while ids.peek() == Some(&IMAGE_PAD) {
                    ids.next();
                }
                if !text.is_empty() {
                    parts.push(json!({"type": "text", "text": words(&std::mem::take(&mut text))}));
                }
                let url = fixture_image(images.next().unwrap());
                parts.push(json!({"type": "image_url", "image_url": {"url": url}}));
            }
            id => text.push(id),
        }
    }
    if !text.is_empty() {
        parts.push(json!({"type": "text", "text": words(&text)}));
    }
    json!([{"role": "user", "content": parts}])
}

/// The prompt as a chat template writes it: one placeholder per image.
fn templated(ids: &[u32]) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::with_capacity(ids.len());
    for &id in ids {
        if !(id == IMAGE_PAD && out.last() == Some(&IMAGE_PAD)) {
            out.push(id);
        }
    }
    out
}

fn image_tokens(case: &Case) -> usize {
    case.prompt_ids.iter().filter(|&&id| id == IMAGE_PAD).count()
}

/// The ids of a reply's tokens, read back from their logprob entries (`t163` is id 163).
fn reply_ids(reply: &Value) -> Vec<u32> {
    reply["choices"][0]["logprobs"]["content"]
        .as_array()
        .unwrap_or_else(|| panic!("no logprobs: {reply}"))
        .iter()
        .map(|entry| entry["token"].as_str().unwrap()[1..].parse().unwrap())
        .collect()
}

fn serve_vl(model: &Path, extra: &[&str]) -> Server {
    let mut args = vec!["--max-batch", "4", "--max-context", "256"];
    args.extend_from_slice(extra);
    serve(model, &args)
}

#[test]
fn images_in_chat_and_generate_give_the_reference_greedy_tokens() {
    let dir = tempfile::tempdir().unwrap();
    let server = serve_vl(&checkpoint(dir.path()), &[]);
    assert!(server.banner.contains("inputs text and image"), "{}", server.banner);
    let (status, models) = get(&server, "/v1/models");
    assert_eq!(status, 200, "{models}");
    assert_eq!(models["data"][0]["input_modalities"], json!(["text", "image"]));

    // Chat: the template's single placeholder per image expands to the processor's grid, and the
    // greedy tokens are the reference's; all three cases at once share the engine's batch.
    let cases = cases();
    let replies: Vec<(u16, Value)> = std::thread::scope(|scope| {
        let handles: Vec<_> = cases
            .iter()
            .map(|case| {
                let body = json!({"messages": message_parts(case), "max_tokens": case.greedy.len(),
                                  "temperature": 0, "logprobs": true});
                let server = &server;
                scope.spawn(move || post(server, "/v1/chat/completions", &body))
            })
            .collect();
        handles.into_iter().map(|handle| handle.join().unwrap()).collect()
    });
    for (case, (status, reply)) in cases.iter().zip(&replies) {
        assert_eq!(*status, 200, "{}: {reply}", case.name);
        assert_eq!(reply_ids(reply), case.greedy, "{}: {reply}", case.name);
        assert_eq!(reply["choices"][0]["message"]["content"], words(&case.greedy));
        let usage = &reply["usage"];
        assert_eq!(
            usage["prompt_tokens"],
            json!(case.prompt_ids.len()),
            "{}: {reply}",
            case.name
        );
        assert_eq!(
            usage["prompt_tokens_details"]["image_tokens"],
            json!(image_tokens(case)),
            "{}: {reply}",
            case.name
        );
    }

    // Streamed, the usage chunk counts the image tokens too.
    let two_images = &cases[1];
    let body = json!({"messages": message_parts(two_images), "max_tokens": 6, "temperature": 0,
                      "stream": true, "stream_options": {"include_usage": true}});
    let events = sse(&server, &body);
    assert_eq!(events.last().map(String::as_str), Some("[DONE]"), "{events:?}");
    let usage: Value = serde_json::from_str(&events[events.len() - 2]).unwrap();
    assert_eq!(usage["usage"]["prompt_tokens_details"]["image_tokens"], json!(14));

    // Token ids in: one placeholder per image (the server expands it) or already expanded.
    for case in &cases {
        let images: Vec<String> = case.images.iter().map(|file| fixture_image(file)).collect();
        for input_ids in [templated(&case.prompt_ids), case.prompt_ids.clone()] {
            let body = json!({"input_ids": input_ids, "images": images, "max_tokens": 6, "temperature": 0});
            let (status, reply) = post(&server, "/v1/generate", &body);
            assert_eq!(status, 200, "{}: {reply}", case.name);
            assert_eq!(reply["output_ids"], json!(case.greedy), "{}: {reply}", case.name);
            assert_eq!(
                reply["usage"]["prompt_tokens_details"]["image_tokens"],
                json!(image_tokens(case))
            );
            if case.images.is_empty() {
                assert!(reply.get("prompt_ids").is_none(), "{reply}");
            } else {
                assert_eq!(reply["prompt_ids"], json!(case.prompt_ids), "{reply}");
            }
        }
    }

    // Chat 6 + 14, streamed 14, generated twice 6 + 14.
    let metrics = reqwest::blocking::get(format!("{}/metrics", server.base))
        .unwrap()
        .text()
        .unwrap();
    assert!(metrics.contains("aca_serve_image_tokens_total 74"), "{metrics}");
}

/// A PNG of `width × height` grey pixels.
fn png(width: u32, height: u32) -> Vec<u8> {
    let mut bytes = Vec::new();
    image::DynamicImage::new_rgb8(width, height)
        .write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png)
        .unwrap();
    bytes
}

/// A valid PNG whose header claims `width × height` pixels that its data does not hold (what a
/// decompression bomb's header looks like).
fn png_claiming(width: u32, height: u32) -> Vec<u8> {
    let mut bytes = png(8, 8);
    // Signature (8), IHDR length (4) and type (4), then width and height; the CRC covers type and data.
    bytes[16..20].copy_from_slice(&width.to_be_bytes());
    bytes[20..24].copy_from_slice(&height.to_be_bytes());
    let crc = crc32(&bytes[12..29]);
    bytes[29..33].copy_from_slice(&crc.to_be_bytes());
    bytes
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = u32::MAX;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A chat request whose one message holds the text `t11 t42` and then an image at `url`.
fn one_image(url: &str) -> Value {
    json!({"messages": [{"role": "user", "content": [
        {"type": "text", "text": "t11 t42"},
        {"type": "image_url", "image_url": {"url": url}}]}], "max_tokens": 2})
}

#[track_caller]
fn assert_refused(server: &Server, body: &Value, code: &str, words: &[&str]) {
    let (status, error) = post(server, "/v1/chat/completions", body);
    assert_eq!(status, 400, "{error}");
    assert_eq!(error["error"]["type"], "invalid_request_error", "{error}");
    assert_eq!(error["error"]["code"], code, "{error}");
    let message = error["error"]["message"].as_str().unwrap();
    for word in words {
        assert!(message.contains(word), "{word:?} not in {message:?}");
    }
}

#[test]
fn bad_images_and_remote_urls_are_refused_with_clear_400s() {
    let dir = tempfile::tempdir().unwrap();
    let model = checkpoint(dir.path());
    let server = serve_vl(
        &model,
        &["--max-images-per-request", "2", "--max-image-pixels", "10000"],
    );
    let at = "messages[0].content[1]: ";
    let wide = std::fs::read(fixture().join("wide.png")).unwrap();
    let refusals: Vec<(Value, &str, Vec<&str>)> = vec![
        (
            one_image("data:image/png;base64,iVBORw0KG@@@"),
            "invalid_image",
            vec![at, "base64 is corrupt"],
        ),
        (
            one_image(&data_url("image/png", b"just some text")),
            "invalid_image",
            vec![at, "neither PNG nor JPEG"],
        ),
        (
            one_image(&data_url("image/jpeg", &wide)),
            "invalid_image",
            vec![at, "declared as image/jpeg but the bytes are image/png"],
        ),
        (
            one_image(&data_url("image/gif", b"GIF89a")),
            "invalid_image",
            vec![at, "`image/gif` is not one this server reads"],
        ),
        (
            one_image("data:image/png,notbase64"),
            "invalid_image",
            vec![at, "not base64-encoded"],
        ),
        (
            one_image(&data_url("image/png", &png(101, 100))),
            "image_too_large",
            vec![at, "101×100 = 10100 pixels", "at most 10000 pixels per image"],
        ),
        (
            one_image(&data_url("image/png", &png_claiming(100_000, 100_000))),
            "image_too_large",
            vec![at, "100000×100000"],
        ),
        (
            one_image(&data_url("image/png", &png(1, 300))),
            "invalid_image",
            vec![at, "image processor refused it", "aspect ratio"],
        ),
        (
            one_image("https://example.com/screenshot.png"),
            "remote_image_refused",
            vec![at, "--allow-remote-images"],
        ),
        (
            one_image("file:///etc/passwd"),
            "invalid_image",
            vec![at, "not an image URL this server reads"],
        ),
    ];
    for (body, code, words) in &refusals {
        assert_refused(&server, body, code, words);
    }
    let three = json!({"messages": [{"role": "user", "content": [
        {"type": "image_url", "image_url": {"url": data_url("image/png", &wide)}},
        {"type": "image_url", "image_url": {"url": data_url("image/png", &wide)}},
        {"type": "text", "text": "t5"},
        {"type": "image_url", "image_url": {"url": data_url("image/png", &wide)}}]}]});
    assert_refused(
        &server,
        &three,
        "too_many_images",
        &["holds 3 images", "at most 2 per request"],
    );

    // /v1/generate names the image by its place in `images`, and refuses ids that do not fit them.
    let (status, error) = post(
        &server,
        "/v1/generate",
        &json!({"input_ids": [11, 250, 252, 251], "images": ["data:image/png;base64,%%%"]}),
    );
    assert_eq!(status, 400, "{error}");
    assert_eq!(error["error"]["param"], "images");
    assert!(
        error["error"]["message"].as_str().unwrap().starts_with("images[0]: "),
        "{error}"
    );
    let image = data_url("image/png", &wide);
    for (input_ids, words) in [
        (json!([11, 250, 252, 251]), "1 image placeholders for 2 images"),
        (json!([11, 250, 252, 252, 251, 250, 252, 251]), "a run of 2"),
    ] {
        let body = json!({"input_ids": input_ids, "images": [image, image]});
        let (status, error) = post(&server, "/v1/generate", &body);
        assert_eq!(status, 400, "{error}");
        assert_eq!(error["error"]["param"], "input_ids");
        assert!(error["error"]["message"].as_str().unwrap().contains(words), "{error}");
    }

    // Nothing above hurt the server: a good image still gets its reference answer.
    let case = &cases()[0];
    let body =
        json!({"input_ids": case.prompt_ids, "images": [fixture_image("wide.png")], "max_tokens": 6, "temperature": 0});
    let (status, reply) = post(&server, "/v1/generate", &body);
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["output_ids"], json!(case.greedy));
}

/// Serves `responses` in order, one connection each, on a free local port; returns its address.
fn one_shot_http(responses: Vec<Vec<u8>>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for response in responses {
            let Ok((mut stream, _)) = listener.accept() else { return };
            let mut request = [0u8; 4096];
            let _ = stream.read(&mut request);
            let _ = stream.write_all(&response);
        }
    });
    address
}

fn http_response(status: &str, content_type: &str, body: &[u8]) -> Vec<u8> {
    let mut response = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    response.extend_from_slice(body);
    response
}

#[test]
fn remote_images_are_fetched_only_when_allowed_and_within_the_size_limit() {
    let dir = tempfile::tempdir().unwrap();
    let server = serve_vl(
        &checkpoint(dir.path()),
        &["--allow-remote-images", "--max-request-bytes", "20000"],
    );
    let wide = std::fs::read(fixture().join("wide.png")).unwrap();
    assert!(wide.len() < 20_000);
    let address = one_shot_http(vec![
        http_response("200 OK", "image/png", &wide),
        http_response("404 Not Found", "text/plain", b"gone"),
        http_response("200 OK", "image/png", &[0; 30_000]),
    ]);
    let case = &cases()[0];
    let body = json!({"input_ids": case.prompt_ids, "images": [format!("{address}/wide.png")],
                      "max_tokens": 6, "temperature": 0});
    let (status, reply) = post(&server, "/v1/generate", &body);
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["output_ids"], json!(case.greedy), "{reply}");
    assert_refused(
        &server,
        &one_image(&format!("{address}/missing.png")),
        "image_fetch_failed",
        &["404"],
    );
    assert_refused(
        &server,
        &one_image(&format!("{address}/huge.png")),
        "image_too_large",
        &["larger than 20000 bytes"],
    );
}

#[test]
fn the_official_openai_client_sends_an_image() {
    let dir = tempfile::tempdir().unwrap();
    let server = serve_vl(&checkpoint(dir.path()), &[]);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/serve/openai_images.py");
    let case = &cases()[0];
    let output = Command::new("python3")
        .arg(&script)
        .arg(format!("{}/v1", server.base))
        .arg(TOKEN)
        .arg("qwen3-vl-tiny")
        .arg(fixture().join("wide.png"))
        .arg(words(&templated(&case.prompt_ids)[..3]))
        .arg(words(&case.prompt_ids[case.prompt_ids.len() - 4..]))
        .output()
        .expect("python3 runs (scripts/setup installs the openai package)");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let out: Value = serde_json::from_slice(&output.stdout).unwrap();
    let ids: Vec<u32> = out["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|token| token.as_str().unwrap()[1..].parse().unwrap())
        .collect();
    assert_eq!(ids, case.greedy, "{out}");
    assert_eq!(out["content"], words(&case.greedy), "{out}");
    assert_eq!(out["prompt_tokens"], json!(case.prompt_ids.len()), "{out}");
    assert_eq!(out["image_tokens"], json!(image_tokens(case)), "{out}");
    assert_eq!(out["modalities"], json!(["text", "image"]), "{out}");
    assert_eq!(out["remote"]["status"], 400, "{out}");
    assert_eq!(out["remote"]["code"], "remote_image_refused", "{out}");
}
