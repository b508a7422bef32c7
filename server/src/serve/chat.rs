//! `POST /v1/chat/completions`: a request becomes one job per choice on the model; their token events
//! become one reply, or a stream of chunks ending in `[DONE]`.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures::StreamExt as _;
use serde_json::Value;
use tokio::sync::mpsc;

use super::App;
use super::backend::{ChatMessage, ChatPrompt, Event, FinishReason, Job, JsonConstraint, Refusal, Sampled, Sampling};
use super::error::ApiError;
use super::protocol::{
    ChatCompletion, ChatCompletionChunk, ChatCompletionRequest, Choice, ChoiceLogprobs, ChunkChoice, Delta,
    ReplyMessage, ResponseFormat, TokenLogprob, ToolCallDelta, ToolChoice, TopLogprob, Usage,
};
use super::reply::{Piece, ReplySplitter};

const ROUTE: &str = "/v1/chat/completions";
/// Most choices one request may ask for.
const MAX_N: u32 = 16;
/// Most alternatives per token (OpenAI's limit).
const MAX_TOP_LOGPROBS: u8 = 20;

/// What a validated request asks of the model.
struct Plan {
    id: String,
    created: u64,
    model: String,
    jobs: Vec<Job>,
    tools: bool,
    logprobs: bool,
    include_usage: bool,
    prompt_tokens: u64,
}

pub async fn completions(
    State(app): State<Arc<App>>,
    request: Result<Json<ChatCompletionRequest>, JsonRejection>,
) -> Response {
    let started = Instant::now();
    let response = match request {
        Err(rejection) => Err(ApiError::rejected(rejection)),
        Ok(Json(request)) => match plan(&app, request) {
            Err(e) => Err(e),
            Ok((plan, stream)) => match submit(&app, &plan) {
                Err(e) => Err(e),
                Ok(receivers) if stream => Ok(streamed(app.clone(), plan, receivers, started)),
                Ok(receivers) => whole(&app, plan, receivers, started).await,
            },
        },
    };
    let response = response.unwrap_or_else(IntoResponse::into_response);
    app.metrics.count(ROUTE, response.status().as_u16());
    response
}

fn plan(app: &App, request: ChatCompletionRequest) -> Result<(Plan, bool), ApiError> {
    let backend = &app.backend;
    if let Some(model) = &request.model
        && model != backend.model_id()
    {
        return Err(ApiError::not_found(format!(
            "the model `{model}` does not exist here; this server serves `{}`",
            backend.model_id()
        )));
    }
    if request.messages.is_empty() {
        return Err(ApiError::invalid("messages must not be empty", Some("messages")));
    }
    let n = request.n.unwrap_or(1);
    if !(1..=MAX_N).contains(&n) {
        return Err(ApiError::invalid(format!("n must be between 1 and {MAX_N}"), Some("n")));
    }
    let temperature = request.temperature.unwrap_or(1.0);
    if !(0.0..=2.0).contains(&temperature) {
        return Err(ApiError::invalid(
            "temperature must be between 0 and 2",
            Some("temperature"),
        ));
    }
    let top_p = request.top_p.unwrap_or(1.0);
    if !(top_p > 0.0 && top_p <= 1.0) {
        return Err(ApiError::invalid("top_p must be in (0, 1]", Some("top_p")));
    }
    let logprobs = request.logprobs.unwrap_or(false);
    let top_logprobs = request.top_logprobs.unwrap_or(0);
    if top_logprobs > 0 && !logprobs {
        return Err(ApiError::invalid(
            "top_logprobs needs logprobs: true",
            Some("top_logprobs"),
        ));
    }
    if top_logprobs > MAX_TOP_LOGPROBS {
        return Err(ApiError::invalid(
            format!("top_logprobs must be at most {MAX_TOP_LOGPROBS}"),
            Some("top_logprobs"),
        ));
    }
    let offer_tools = match &request.tool_choice {
        None => !request.tools.is_empty(),
        Some(ToolChoice::Mode(mode)) if mode == "auto" => !request.tools.is_empty(),
        Some(ToolChoice::Mode(mode)) if mode == "none" => false,
        Some(ToolChoice::Mode(mode)) if mode == "required" => {
            return Err(ApiError::invalid(
                "tool_choice \"required\" is not supported; use \"auto\"",
                Some("tool_choice"),
            ));
        }
        Some(ToolChoice::Mode(mode)) => {
            return Err(ApiError::invalid(
                format!("unknown tool_choice {mode:?}: use \"none\" or \"auto\""),
                Some("tool_choice"),
            ));
        }
        Some(ToolChoice::Named { .. }) => {
            return Err(ApiError::invalid(
                "forcing a named tool is not supported; use tool_choice \"auto\"",
                Some("tool_choice"),
            ));
        }
    };
    let json = match request.response_format {
        None | Some(ResponseFormat::Text) => None,
        Some(ResponseFormat::JsonObject) => Some(JsonConstraint::Object),
        Some(ResponseFormat::JsonSchema { json_schema }) => match json_schema.schema {
            Some(schema) => Some(JsonConstraint::Schema(schema)),
            None => {
                return Err(ApiError::invalid(
                    "response_format json_schema needs json_schema.schema",
                    Some("response_format"),
                ));
            }
        },
    };
    let mut messages = Vec::with_capacity(request.messages.len());
    for (i, message) in request.messages.into_iter().enumerate() {
        if !matches!(
            message.role.as_str(),
            "system" | "developer" | "user" | "assistant" | "tool"
        ) {
            return Err(ApiError::invalid(
                format!(
                    "messages[{i}].role {:?} is not system, user, assistant or tool",
                    message.role
                ),
                Some("messages"),
            ));
        }
        let content = match &message.content {
            Some(content) => content
                .text()
                .map_err(|e| ApiError::invalid(format!("messages[{i}].content: {e}"), Some("messages")))?,
            None => String::new(),
        };
        let tool_calls = message
            .tool_calls
            .iter()
            .map(|call| {
                let arguments = serde_json::from_str::<Value>(&call.function.arguments)
                    .unwrap_or_else(|_| Value::String(call.function.arguments.clone()));
                serde_json::json!({"name": call.function.name, "arguments": arguments})
            })
            .collect();
        messages.push(ChatMessage {
            // Qwen3's template knows `system`; OpenAI's newer `developer` role means the same.
            role: if message.role == "developer" {
                "system".into()
            } else {
                message.role
            },
            content,
            reasoning_content: message.reasoning_content,
            tool_calls,
            tool_call_id: message.tool_call_id,
            name: message.name,
        });
    }
    let prompt = ChatPrompt {
        messages,
        tools: if offer_tools {
            request
                .tools
                .iter()
                .map(|tool| serde_json::to_value(tool).unwrap_or(Value::Null))
                .collect()
        } else {
            Vec::new()
        },
        template_kwargs: request.chat_template_kwargs.unwrap_or_default(),
    };
    let ids = backend.render_chat(&prompt).map_err(|e| {
        ApiError::invalid(
            format!("the chat template refused these messages: {e}"),
            Some("messages"),
        )
    })?;
    let context = backend.max_context();
    let room = context.saturating_sub(ids.len());
    if room == 0 {
        return Err(ApiError::context_length(format!(
            "the prompt is {} tokens; this model's context is {context}",
            ids.len()
        )));
    }
    let max_tokens = match request.max_completion_tokens.or(request.max_tokens) {
        Some(0) => return Err(ApiError::invalid("max_tokens must be at least 1", Some("max_tokens"))),
        Some(max) if max as usize > room => {
            return Err(ApiError::context_length(format!(
                "the prompt is {} tokens and max_tokens {max} asks for more than the {context} the context holds",
                ids.len()
            )));
        }
        Some(max) => max,
        None => u32::try_from(room).unwrap_or(u32::MAX),
    };
    let stop_strings = request.stop.map(|s| s.into_vec()).unwrap_or_default();
    if stop_strings.iter().any(String::is_empty) {
        return Err(ApiError::invalid("stop strings must not be empty", Some("stop")));
    }
    let prompt_tokens = ids.len() as u64;
    let jobs = (0..n)
        .map(|i| Job {
            prompt: ids.clone(),
            sampling: Sampling {
                temperature,
                top_p,
                top_k: request.top_k,
                seed: request.seed.map(|seed| seed.wrapping_add(u64::from(i))),
            },
            max_tokens,
            stop_strings: stop_strings.clone(),
            stop_token_ids: Vec::new(),
            logprobs: logprobs.then_some(top_logprobs),
            json: json.clone(),
        })
        .collect();
    let created = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    Ok((
        Plan {
            id: format!("chatcmpl-{}", uuid::Uuid::new_v4().simple()),
            created,
            model: backend.model_id().to_owned(),
            jobs,
            tools: offer_tools,
            logprobs,
            include_usage: request.stream_options.is_some_and(|o| o.include_usage),
            prompt_tokens,
        },
        request.stream,
    ))
}

fn submit(app: &App, plan: &Plan) -> Result<Vec<mpsc::Receiver<Event>>, ApiError> {
    plan.jobs
        .iter()
        .map(|job| app.backend.submit(job.clone()).map_err(refusal))
        .collect()
}

pub fn refusal(refusal: Refusal) -> ApiError {
    match refusal {
        Refusal::TooLong {
            prompt,
            max_tokens,
            context,
        } => ApiError::context_length(format!(
            "the prompt is {prompt} tokens and max_tokens is {max_tokens}: more than the {context} the context holds"
        )),
        Refusal::Busy => ApiError::overloaded("the server is generating at capacity; retry shortly"),
        Refusal::Unsupported(what) => ApiError::invalid(what, None),
    }
}

/// One choice's events, read to the end.
struct Collected {
    tokens: Vec<Sampled>,
    reason: FinishReason,
    completion_tokens: u64,
}

async fn collect(mut events: mpsc::Receiver<Event>) -> Result<Collected, ApiError> {
    let mut tokens = Vec::new();
    while let Some(event) = events.recv().await {
        match event {
            Event::Token(token) => tokens.push(token),
            Event::Done {
                reason,
                completion_tokens,
                ..
            } => {
                return Ok(Collected {
                    tokens,
                    reason,
                    completion_tokens,
                });
            }
            Event::Failed(message) => return Err(ApiError::internal(format!("generation failed: {message}"))),
        }
    }
    Err(ApiError::internal(
        "generation ended without finishing (the model worker stopped)",
    ))
}

async fn whole(
    app: &App,
    plan: Plan,
    receivers: Vec<mpsc::Receiver<Event>>,
    started: Instant,
) -> Result<Response, ApiError> {
    app.metrics.running.inc();
    let results = futures::future::join_all(receivers.into_iter().map(collect)).await;
    app.metrics.running.dec();
    let mut choices = Vec::with_capacity(results.len());
    let mut completion_tokens = 0;
    for (index, result) in results.into_iter().enumerate() {
        let collected = result?;
        completion_tokens += collected.completion_tokens;
        let mut splitter = ReplySplitter::new(plan.tools, format!("call_{}_{index}", &plan.id[9..17]));
        let text: String = collected.tokens.iter().map(|t| t.text.as_str()).collect();
        let mut pieces = splitter.push(&text);
        let (rest, calls) = splitter.finish();
        pieces.extend(rest);
        let tool_calls = calls.map_err(|e| ApiError::internal(e.to_string()))?;
        let (reasoning, content) = split(pieces);
        let finish_reason = if tool_calls.is_empty() {
            collected.reason.as_str()
        } else {
            "tool_calls"
        };
        choices.push(Choice {
            index: index as u32,
            message: ReplyMessage {
                role: "assistant",
                content: if content.is_empty() && !tool_calls.is_empty() {
                    None
                } else {
                    Some(content)
                },
                reasoning_content: (!reasoning.is_empty()).then_some(reasoning),
                tool_calls,
            },
            logprobs: plan.logprobs.then(|| logprobs(app, &collected.tokens)),
            finish_reason,
        });
    }
    app.metrics.prompt_tokens.inc_by(plan.prompt_tokens);
    app.metrics.completion_tokens.inc_by(completion_tokens);
    app.metrics.latency.observe(started.elapsed().as_secs_f64());
    Ok(Json(ChatCompletion {
        id: plan.id,
        object: "chat.completion",
        created: plan.created,
        model: plan.model,
        choices,
        usage: Usage::new(plan.prompt_tokens, completion_tokens),
    })
    .into_response())
}

fn split(pieces: Vec<Piece>) -> (String, String) {
    let (mut reasoning, mut content) = (String::new(), String::new());
    for piece in pieces {
        match piece {
            Piece::Reasoning(t) => reasoning.push_str(&t),
            Piece::Content(t) => content.push_str(&t),
        }
    }
    (reasoning, content)
}

fn logprobs(app: &App, tokens: &[Sampled]) -> ChoiceLogprobs {
    let backend = &app.backend;
    ChoiceLogprobs {
        content: tokens
            .iter()
            .map(|t| TokenLogprob {
                token: backend.token_text(t.id),
                logprob: t.logprob,
                bytes: backend.token_bytes(t.id),
                top_logprobs: t
                    .top
                    .iter()
                    .map(|&(id, logprob)| TopLogprob {
                        token: backend.token_text(id),
                        logprob,
                        bytes: backend.token_bytes(id),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// The stream: one task merges the choices' events into chunks; the client going away drops the
/// channel, which drops the jobs' receivers, which cancels them.
fn streamed(app: Arc<App>, plan: Plan, receivers: Vec<mpsc::Receiver<Event>>, started: Instant) -> Response {
    let (tx, rx) = mpsc::channel::<SseEvent>(64);
    tokio::spawn(async move {
        app.metrics.running.inc();
        let _ = stream_chunks(&app, &plan, receivers, &tx, started).await;
        app.metrics.running.dec();
    });
    let stream = futures::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|event| (Ok::<_, Infallible>(event), rx))
    });
    Sse::new(stream).keep_alive(KeepAlive::default()).into_response()
}

struct ChoiceStream {
    splitter: Option<ReplySplitter>,
    done: bool,
}

async fn stream_chunks(
    app: &App,
    plan: &Plan,
    receivers: Vec<mpsc::Receiver<Event>>,
    tx: &mpsc::Sender<SseEvent>,
    started: Instant,
) -> Result<(), ()> {
    let chunk = |choices: Vec<ChunkChoice>, usage: Option<Option<Usage>>| ChatCompletionChunk {
        id: plan.id.clone(),
        object: "chat.completion.chunk",
        created: plan.created,
        model: plan.model.clone(),
        choices,
        usage,
    };
    let usage_slot = plan.include_usage.then_some(None);
    let send = |c: ChatCompletionChunk| async move {
        let data = serde_json::to_string(&c).map_err(|_| ())?;
        tx.send(SseEvent::default().data(data)).await.map_err(|_| ())
    };
    let first: Vec<ChunkChoice> = (0..receivers.len())
        .map(|index| ChunkChoice {
            index: index as u32,
            delta: Delta {
                role: Some("assistant"),
                content: Some(String::new()),
                ..Delta::default()
            },
            logprobs: None,
            finish_reason: None,
        })
        .collect();
    send(chunk(first, usage_slot)).await?;

    let mut states: Vec<ChoiceStream> = (0..receivers.len())
        .map(|index| ChoiceStream {
            splitter: Some(ReplySplitter::new(
                plan.tools,
                format!("call_{}_{index}", &plan.id[9..17]),
            )),
            done: false,
        })
        .collect();
    let tagged = receivers.into_iter().enumerate().map(|(index, rx)| {
        futures::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|e| (e, rx)) })
            .map(move |event| (index, event))
            .boxed()
    });
    let mut merged = futures::stream::select_all(tagged);
    let mut completion_tokens = 0;
    while let Some((index, event)) = merged.next().await {
        let state = &mut states[index];
        match event {
            Event::Token(token) => {
                let Some(splitter) = state.splitter.as_mut() else {
                    continue;
                };
                let pieces = splitter.push(&token.text);
                let logprobs = plan.logprobs.then(|| logprobs(app, std::slice::from_ref(&token)));
                let choices = pieces_to_choices(index, pieces, logprobs);
                if !choices.is_empty() {
                    send(chunk(choices, usage_slot)).await?;
                }
            }
            Event::Done {
                reason,
                completion_tokens: used,
                ..
            } => {
                completion_tokens += used;
                state.done = true;
                let Some(splitter) = state.splitter.take() else {
                    continue;
                };
                let (rest, calls) = splitter.finish();
                let mut choices = pieces_to_choices(index, rest, None);
                let finish_reason = match calls {
                    Ok(calls) if !calls.is_empty() => {
                        choices.push(ChunkChoice {
                            index: index as u32,
                            delta: Delta {
                                tool_calls: calls
                                    .into_iter()
                                    .enumerate()
                                    .map(|(i, call)| ToolCallDelta {
                                        index: i as u32,
                                        id: call.id,
                                        kind: "function",
                                        function: call.function,
                                    })
                                    .collect(),
                                ..Delta::default()
                            },
                            logprobs: None,
                            finish_reason: None,
                        });
                        "tool_calls"
                    }
                    Ok(_) => reason.as_str(),
                    Err(e) => {
                        send_error(tx, ApiError::internal(e.to_string())).await?;
                        return Err(());
                    }
                };
                choices.push(ChunkChoice {
                    index: index as u32,
                    delta: Delta::default(),
                    logprobs: None,
                    finish_reason: Some(finish_reason),
                });
                send(chunk(choices, usage_slot)).await?;
            }
            Event::Failed(message) => {
                send_error(tx, ApiError::internal(format!("generation failed: {message}"))).await?;
                return Err(());
            }
        }
    }
    if states.iter().any(|s| !s.done) {
        send_error(
            tx,
            ApiError::internal("generation ended without finishing (the model worker stopped)"),
        )
        .await?;
        return Err(());
    }
    app.metrics.prompt_tokens.inc_by(plan.prompt_tokens);
    app.metrics.completion_tokens.inc_by(completion_tokens);
    app.metrics.latency.observe(started.elapsed().as_secs_f64());
    if plan.include_usage {
        send(chunk(
            Vec::new(),
            Some(Some(Usage::new(plan.prompt_tokens, completion_tokens))),
        ))
        .await?;
    }
    tx.send(SseEvent::default().data("[DONE]")).await.map_err(|_| ())
}

async fn send_error(tx: &mpsc::Sender<SseEvent>, error: ApiError) -> Result<(), ()> {
    tx.send(SseEvent::default().data(error.body().to_string()))
        .await
        .map_err(|_| ())?;
    tx.send(SseEvent::default().data("[DONE]")).await.map_err(|_| ())
}

fn pieces_to_choices(index: usize, pieces: Vec<Piece>, logprobs: Option<ChoiceLogprobs>) -> Vec<ChunkChoice> {
    let mut logprobs = logprobs;
    let mut choices: Vec<ChunkChoice> = pieces
        .into_iter()
        .map(|piece| {
            let delta = match piece {
                Piece::Content(text) => Delta {
                    content: Some(text),
                    ..Delta::default()
                },
                Piece::Reasoning(text) => Delta {
                    reasoning_content: Some(text),
                    ..Delta::default()
                },
            };
            ChunkChoice {
                index: index as u32,
                delta,
                logprobs: logprobs.take(),
                finish_reason: None,
            }
        })
        .collect();
    // A token whose text is held back still reports its logprob.
    if let Some(logprobs) = logprobs {
        choices.push(ChunkChoice {
            index: index as u32,
            delta: Delta::default(),
            logprobs: Some(logprobs),
            finish_reason: None,
        });
    }
    choices
}
