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

#[tokio::test]
async fn an_image_goes_as_a_content_part_after_the_text_and_its_tokens_are_counted_apart() {
    let fake = FakeModel::start_taking_images("qwen3-vl-32b", [FakeResponse::Reply("Action: click(3)".into())])
        .await
        .unwrap();
    let request = ChatRequest {
        messages: vec![
            Message::system("act"),
            Message::user("click the button").with_image("data:image/png;base64,iVBORw0KGgo="),
        ],
        ..Default::default()
    };
    let reply = ChatClient::new(config(&fake.base_url))
        .unwrap()
        .complete(&request)
        .await
        .unwrap();
    let sent = &fake.requests()[0]["messages"];
    assert_eq!(sent[0]["content"], "act", "a message without images stays a string");
    assert_eq!(sent[1]["content"][0]["type"], "text");
    assert_eq!(sent[1]["content"][0]["text"], "click the button");
    assert_eq!(sent[1]["content"][1]["type"], "image_url");
    assert_eq!(
        sent[1]["content"][1]["image_url"]["url"],
        "data:image/png;base64,iVBORw0KGgo="
    );
    assert_eq!(reply.usage.image_tokens, aca_chat::fake::FAKE_IMAGE_TOKENS);
    assert_eq!(reply.usage.prompt_tokens, 4 + aca_chat::fake::FAKE_IMAGE_TOKENS);
    let back: Message = serde_json::from_value(sent[1].clone()).unwrap();
    assert_eq!(back, request.messages[1], "the parts read back as the message");
}

#[tokio::test]
async fn the_inputs_a_model_takes_are_read_from_the_models_list() {
    let vision = FakeModel::start_taking_images("qwen3-vl-32b", []).await.unwrap();
    let text = FakeModel::start([]).await.unwrap();
    let inputs = |fake: &FakeModel, model: &str| {
        let mut config = config(&fake.base_url);
        config.model = model.into();
        let client = ChatClient::new(config).unwrap();
        async move { client.input_modalities().await.unwrap() }
    };
    assert_eq!(
        inputs(&vision, "qwen3-vl-32b").await,
        Some(vec!["text".to_owned(), "image".to_owned()])
    );
    assert_eq!(inputs(&text, "qwen3").await, Some(vec!["text".to_owned()]));
    assert_eq!(
        inputs(&vision, "another-model").await,
        None,
        "a model the list lacks says nothing"
    );
    let gone = ChatClient::new(config("http://127.0.0.1:9")).unwrap();
    assert!(
        matches!(gone.input_modalities().await, Err(ChatError::Unreachable { url, .. }) if url.ends_with("/models"))
    );
}
