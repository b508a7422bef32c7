//! The chat client against a real HTTP endpoint that misbehaves on purpose.

use std::time::{Duration, Instant};

use aca_chat::fake::{FakeModel, FakeResponse};
use aca_chat::{ChatClient, ChatConfig, ChatError, ChatRequest, Message, Price};

fn config(base_url: &str) -> ChatConfig {
    let mut config = ChatConfig::new(base_url, "qwen3-vl-32b");
    config.backoff = Duration::from_millis(10);
    config.timeout = Duration::from_millis(500);
    config.api_key = Some("sk-test".into());
    config
}

fn request() -> ChatRequest {
    ChatRequest {
        messages: vec![Message::system("act"), Message::user("click the button")],
        temperature: Some(0.0),
        ..Default::default()
    }
}

#[tokio::test]
async fn a_reply_carries_its_usage_and_cost_and_the_request_names_the_model() {
    let fake = FakeModel::start([FakeResponse::Reply("Action: click(3)".into())])
        .await
        .unwrap();
    let mut config = config(&fake.base_url);
    config.price = Some(Price {
        input_per_mtok: 2.0,
        output_per_mtok: 8.0,
    });
    let reply = ChatClient::new(config).unwrap().complete(&request()).await.unwrap();
    assert_eq!(reply.text, "Action: click(3)");
    assert_eq!(reply.usage.prompt_tokens, 4);
    assert_eq!(reply.usage.completion_tokens, 2);
    let cost = reply.cost_usd.unwrap();
    assert!((cost - (4.0 * 2.0 + 2.0 * 8.0) / 1e6).abs() < 1e-12, "{cost}");
    assert_eq!(reply.attempts, 1);
    let sent = &fake.requests()[0];
    assert_eq!(sent["model"], "qwen3-vl-32b");
    assert_eq!(sent["messages"][1]["content"], "click the button");
    assert_eq!(sent["stream"], false);
}

#[tokio::test]
async fn transient_failures_are_retried_with_backoff() {
    let fake = FakeModel::start([
        FakeResponse::Error {
            status: 503,
            message: "overloaded".into(),
        },
        FakeResponse::Error {
            status: 429,
            message: "slow down".into(),
        },
        FakeResponse::Reply("ok".into()),
    ])
    .await
    .unwrap();
    let reply = ChatClient::new(config(&fake.base_url))
        .unwrap()
        .complete(&request())
        .await
        .unwrap();
    assert_eq!(reply.text, "ok");
    assert_eq!(reply.attempts, 3);
}

#[tokio::test]
async fn a_refused_key_is_not_retried() {
    let fake = FakeModel::start([
        FakeResponse::Error {
            status: 401,
            message: "invalid api key".into(),
        },
        FakeResponse::Reply("never".into()),
    ])
    .await
    .unwrap();
    let error = ChatClient::new(config(&fake.base_url))
        .unwrap()
        .complete(&request())
        .await
        .unwrap_err();
    assert!(matches!(&error, ChatError::Auth { status: 401, message, .. } if message == "invalid api key"));
    assert_eq!(fake.remaining(), 1);
}

#[tokio::test]
async fn a_slow_endpoint_times_out_and_retries_stop() {
    let slow = || FakeResponse::Slow(Duration::from_secs(3), "late".into());
    let fake = FakeModel::start([slow(), slow()]).await.unwrap();
    let mut config = config(&fake.base_url);
    config.max_retries = 1;
    let error = ChatClient::new(config).unwrap().complete(&request()).await.unwrap_err();
    match error {
        ChatError::RetriesExhausted { attempts, last } => {
            assert_eq!(attempts, 2);
            assert!(matches!(*last, ChatError::Timeout { .. }));
        }
        other => panic!("expected exhausted retries, got {other}"),
    }
}

#[tokio::test]
async fn a_dead_server_fails_fast_with_its_address() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    drop(listener);
    let mut config = config(&url);
    config.max_retries = 0;
    let started = Instant::now();
    let error = ChatClient::new(config).unwrap().complete(&request()).await.unwrap_err();
    assert!(
        matches!(&error, ChatError::Unreachable { url: u, .. } if u.starts_with(&url)),
        "{error}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test]
async fn a_body_that_is_not_a_completion_is_a_typed_error() {
    let fake = FakeModel::start([FakeResponse::Raw("<html>gateway</html>".into())])
        .await
        .unwrap();
    let error = ChatClient::new(config(&fake.base_url))
        .unwrap()
        .complete(&request())
        .await
        .unwrap_err();
    assert!(matches!(error, ChatError::BadReply(_)), "{error}");
}
