//! The Qwen3 chat template renders exactly what `transformers`' `apply_chat_template` renders.

mod text_support;

use aca_model::text::{
    ChatMessage, ChatTemplate, CheckpointText, ContentPart, FunctionCall, ImageUrl, MessageContent, RenderOptions,
    TemplateSpecialTokens, TextError, ToolCall,
};
use serde_json::{Value, json};
use text_support::{fixtures, qwen3, reference};

fn options(case: &Value) -> RenderOptions {
    RenderOptions {
        tools: case["tools"].as_array().cloned().unwrap_or_default(),
        add_generation_prompt: case["add_generation_prompt"].as_bool().expect("add_generation_prompt"),
        enable_thinking: case.get("enable_thinking").and_then(Value::as_bool),
        extra: Default::default(),
    }
}

#[test]
fn every_reference_conversation_renders_as_transformers_renders_it() {
    let text = qwen3();
    let cases = reference("qwen3_chat.json");
    let cases = cases["cases"].as_array().expect("cases");
    assert!(cases.len() >= 8);
    for case in cases {
        let name = case["name"].as_str().expect("name");
        let messages: Vec<ChatMessage> = serde_json::from_value(case["messages"].clone()).expect("messages");
        let prompt = text
            .template
            .render(&messages, &options(case))
            .unwrap_or_else(|error| panic!("{name}: {error}"));
        assert_eq!(prompt, case["prompt"].as_str().expect("prompt"), "prompt of {name}");
        let ids: Vec<u32> = serde_json::from_value(case["prompt_ids"].clone()).expect("ids");
        assert_eq!(text.tokenizer.encode(&prompt).unwrap(), ids, "prompt ids of {name}");
    }
}

#[test]
fn a_conversation_built_in_rust_renders_tools_calls_and_responses() {
    let tools = vec![json!({
        "type": "function",
        "function": {"name": "get_weather", "description": "天气", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}
    })];
    let mut call = ChatMessage::assistant("");
    call.tool_calls = vec![ToolCall {
        id: Some("c1".into()),
        kind: "function".into(),
        function: FunctionCall::from_json_arguments("get_weather", r#"{"city":"杭州","days":2.0}"#),
    }];
    let messages = vec![
        ChatMessage::system("Be brief."),
        ChatMessage::user("Weather in Hangzhou?"),
        call,
        ChatMessage::tool("c1", "sunny"),
    ];
    let options = RenderOptions {
        tools,
        add_generation_prompt: true,
        enable_thinking: Some(false),
        ..Default::default()
    };
    let prompt = qwen3().template.render(&messages, &options).unwrap();
    let expected = concat!(
        "<|im_start|>system\nBe brief.\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n",
        "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n",
        r#"{"type": "function", "function": {"name": "get_weather", "description": "天气", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}"#,
        "\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n",
        "<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call><|im_end|>\n",
        "<|im_start|>user\nWeather in Hangzhou?<|im_end|>\n",
        "<|im_start|>assistant\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"杭州\", \"days\": 2.0}}\n</tool_call><|im_end|>\n",
        "<|im_start|>user\n<tool_response>\nsunny\n</tool_response><|im_end|>\n",
        "<|im_start|>assistant\n<think>\n\n</think>\n\n",
    );
    assert_eq!(prompt, expected);
}

#[test]
fn arguments_that_are_not_a_json_object_are_kept_verbatim() {
    let call = FunctionCall::from_json_arguments("f", "not json");
    assert_eq!(call.arguments, Value::String("not json".into()));
    let call = FunctionCall::from_json_arguments("f", r#"{"a": [1]}"#);
    assert_eq!(call.arguments, json!({"a": [1]}));
}

#[test]
fn template_errors_name_the_template_and_the_cause() {
    let error = ChatTemplate::new("{% for m in messages %}", TemplateSpecialTokens::default()).unwrap_err();
    assert!(matches!(error, TextError::TemplateSyntax { .. }), "{error}");

    let refusing = ChatTemplate::new(
        "{% if messages[0].role != 'user' %}{{ raise_exception('Conversations must start with the user') }}{% endif %}ok",
        TemplateSpecialTokens::default(),
    )
    .unwrap();
    let error = refusing
        .render(&[ChatMessage::assistant("hi")], &RenderOptions::default())
        .unwrap_err();
    assert!(matches!(error, TextError::TemplateRender { .. }), "{error}");
    assert!(
        error.to_string().contains("Conversations must start with the user"),
        "{error}"
    );
    assert_eq!(
        refusing
            .render(&[ChatMessage::user("hi")], &RenderOptions::default())
            .unwrap(),
        "ok"
    );

    let calling_unknown = ChatTemplate::new("{{ messages[0].content.no_such_method() }}", Default::default()).unwrap();
    let error = calling_unknown
        .render(&[ChatMessage::user("hi")], &RenderOptions::default())
        .unwrap_err();
    assert!(error.to_string().contains("no_such_method"), "{error}");
}

#[test]
fn special_tokens_extra_variables_and_tojson_indent_reach_the_template() {
    let special = TemplateSpecialTokens {
        bos_token: Some("<s>".into()),
        ..Default::default()
    };
    let template = ChatTemplate::new(
        "{{ bos_token }}{{ custom }}|{{ messages[0] | tojson(indent=2) }}",
        special,
    )
    .unwrap();
    let mut options = RenderOptions::default();
    options.extra.insert("custom".into(), json!("X"));
    let rendered = template.render(&[ChatMessage::user("a<b>&'")], &options).unwrap();
    assert_eq!(rendered, "<s>X|{\n  \"role\": \"user\",\n  \"content\": \"a<b>&'\"\n}");
}

#[test]
fn named_templates_pick_tool_use_when_tools_are_given() {
    let config = json!([
        {"name": "default", "template": "plain"},
        {"name": "tool_use", "template": "tools:{{ tools | length }}"}
    ]);
    let template = ChatTemplate::from_config_value(&config, Default::default())
        .unwrap()
        .unwrap();
    let messages = [ChatMessage::user("hi")];
    assert_eq!(template.render(&messages, &RenderOptions::default()).unwrap(), "plain");
    let with_tools = RenderOptions {
        tools: vec![json!({"type": "function"})],
        ..Default::default()
    };
    assert_eq!(template.render(&messages, &with_tools).unwrap(), "tools:1");
}

#[test]
fn a_checkpoint_directory_prefers_chat_template_jinja_and_reads_generation_eos_ids() {
    let dir = tempfile::tempdir().unwrap();
    let source = fixtures().join("qwen3");
    std::fs::copy(source.join("tokenizer.json.gz"), dir.path().join("tokenizer.json.gz")).unwrap();
    std::fs::copy(
        source.join("tokenizer_config.json"),
        dir.path().join("tokenizer_config.json"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("chat_template.jinja"),
        "{{ messages | length }} {{ eos_token }}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("generation_config.json"),
        r#"{"eos_token_id": [151643, 151645]}"#,
    )
    .unwrap();

    let text = CheckpointText::load(dir.path()).unwrap();
    let rendered = text
        .template
        .render(&[ChatMessage::user("hi")], &RenderOptions::default())
        .unwrap();
    assert_eq!(rendered, "1 <|im_end|>");
    assert_eq!(text.stop_token_ids, [151643, 151645]);

    std::fs::write(dir.path().join("generation_config.json"), r#"{"eos_token_id": "x"}"#).unwrap();
    let error = CheckpointText::load(dir.path()).unwrap_err();
    assert!(matches!(error, TextError::InvalidConfig { .. }), "{error}");
    assert!(error.to_string().contains("generation_config.json"), "{error}");
}

#[test]
fn a_checkpoint_without_any_template_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let source = fixtures().join("qwen3");
    std::fs::copy(source.join("tokenizer.json.gz"), dir.path().join("tokenizer.json.gz")).unwrap();
    std::fs::write(
        dir.path().join("tokenizer_config.json"),
        r#"{"eos_token": "<|im_end|>"}"#,
    )
    .unwrap();
    let error = CheckpointText::load(dir.path()).unwrap_err();
    assert!(matches!(error, TextError::NoChatTemplate { .. }), "{error}");
}

#[test]
fn openai_messages_deserialize_with_null_content_and_image_parts() {
    let messages: Vec<ChatMessage> = serde_json::from_value(json!([
        {"role": "user", "content": [
            {"type": "text", "text": "What is on screen?"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
        ]},
        {"role": "assistant", "content": null, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "click", "arguments": "{\"x\": 1}"}}
        ]}
    ]))
    .unwrap();
    assert_eq!(
        messages[0].content,
        MessageContent::Parts(vec![
            ContentPart::Text {
                text: "What is on screen?".into()
            },
            ContentPart::ImageUrl {
                image_url: ImageUrl {
                    url: "data:image/png;base64,AAAA".into()
                }
            },
        ])
    );
    assert_eq!(messages[1].content, MessageContent::Text(String::new()));
    // A template sees the parts in the OpenAI shape.
    let template = ChatTemplate::new(
        "{% for part in messages[0].content %}{% if 'image_url' in part %}<img>{% else %}{{ part.text }}{% endif %}{% endfor %}",
        Default::default(),
    )
    .unwrap();
    assert_eq!(
        template.render(&messages, &RenderOptions::default()).unwrap(),
        "What is on screen?<img>"
    );
    let error = serde_json::from_value::<ChatMessage>(json!({"role": "robot", "content": "x"})).unwrap_err();
    assert!(error.to_string().contains("robot"), "{error}");
}

#[test]
fn string_arguments_parsed_back_render_with_the_models_own_spacing() {
    let message: ChatMessage = serde_json::from_value(json!({
        "role": "assistant", "content": null,
        "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": "{\"a\":1,\"b\":[true]}"}}]
    }))
    .unwrap();
    let verbatim = qwen3()
        .template
        .render(std::slice::from_ref(&message), &RenderOptions::default())
        .unwrap();
    assert!(verbatim.contains(r#""arguments": {"a":1,"b":[true]}}"#), "{verbatim}");
    let parsed = qwen3()
        .template
        .render(&[message.with_parsed_tool_arguments()], &RenderOptions::default())
        .unwrap();
    assert!(parsed.contains(r#""arguments": {"a": 1, "b": [true]}}"#), "{parsed}");
}
