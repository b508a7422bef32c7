//! `POST /v1/chat/completions`: a request (its images loaded first) becomes one job per choice on the
//! model; their token events become one reply, or a stream of chunks ending in `[DONE]`.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures::StreamExt as _;
use tokio::sync::mpsc;

use aca_model::ProcessedImage;
use aca_model::constrain::{JsonSpec, ToolCallCount, ToolCallSpec, ToolSchema};
use aca_model::engine::{GenerationEvent, GenerationRequest, SubmitError};
use aca_model::sample::{FinishReason, SampledToken, SamplingParams, StopConditions};
use aca_model::text::{
    ChatMessage, ContentPart, MessageContent, ParsedToolCall, RenderOptions, ReplyDelta, ReplyStream, TextError,
};

use super::{App, Generation};
use super::error::ApiError;
use super::model::Prompt;
use super::protocol::{
    ChatCompletion, ChatCompletionChunk, ChatCompletionRequest, Choice, ChoiceLogprobs, ChunkChoice, Delta,
    FunctionCall, ReplyMessage, SamplingFields, TokenLogprob, ToolCall, ToolCallDelta, ToolChoice, TopLogprob, Usage,
};

const ROUTE: &str = "/v1/chat/completions";
/// Most choices one request may ask for.
const MAX_N: u32 = 16;
/// Most alternatives per token (OpenAI's limit).
const MAX_TOP_LOGPROBS: u8 = 20;

type Events = mpsc::UnboundedReceiver<GenerationEvent>;

/// What a validated request asks of the model.
struct Plan {
    id: String,
    created: u64,
    model: String,
    jobs: Vec<GenerationRequest>,
    logprobs: bool,
    include_usage: bool,
    prompt_tokens: u64,
    /// Of `prompt_tokens`, those the images fill; `None` for a model that reads text only.
    image_tokens: Option<u64>,
    /// The prompt opened `<think>`: replies start as reasoning.
    reasoning_open: bool,
    /// Tools were offered: `<tool_call>` blocks in replies become `tool_calls`.
    parse_tool_calls: bool,
}

/// What `tools` and `tool_choice` ask for.
enum ToolPlan {
    /// No tools, or `tool_choice: "none"`: tools are not shown to the model and replies hold none.
    NoTools,
    /// `"auto"` (the default with tools): the model may call any of them.
    Offered,
    /// `"required"` or a named function: the reply is tool calls, enforced while decoding.
    Forced(ToolCallSpec),
}

impl ToolPlan {
    fn offered(&self) -> bool {
        !matches!(self, ToolPlan::NoTools)
    }
}

/// Reads `tools`, `tool_choice` and `parallel_tool_calls` as OpenAI does: `none` hides the tools and the
/// reply is a message; `required` forces one or more calls (one with `parallel_tool_calls: false`); a
/// named function forces exactly one call to it.
fn tool_plan(request: &ChatCompletionRequest) -> Result<ToolPlan, ApiError> {
    let schemas = || -> Vec<ToolSchema> {
        request
            .tools
            .iter()
            .map(|tool| ToolSchema {
                name: tool.function.name.clone(),
                parameters: tool.function.parameters.clone(),
                strict: tool.function.strict.unwrap_or(false),
            })
            .collect()
    };
    let needs_tools = |what: &str| {
        ApiError::invalid(
            format!("tool_choice {what} needs at least one tool in `tools`"),
            Some("tool_choice"),
        )
    };
    match &request.tool_choice {
        None => Ok(if request.tools.is_empty() {
            ToolPlan::NoTools
        } else {
            ToolPlan::Offered
        }),
        Some(ToolChoice::Mode(mode)) if mode == "none" => Ok(ToolPlan::NoTools),
        Some(ToolChoice::Mode(mode)) if mode == "auto" => Ok(if request.tools.is_empty() {
            ToolPlan::NoTools
        } else {
            ToolPlan::Offered
        }),
        Some(ToolChoice::Mode(mode)) if mode == "required" => {
            if request.tools.is_empty() {
                return Err(needs_tools("\"required\""));
            }
            let count = if request.parallel_tool_calls == Some(false) {
                ToolCallCount::One
            } else {
                ToolCallCount::OneOrMore
            };
            Ok(ToolPlan::Forced(ToolCallSpec {
                tools: schemas(),
                count,
            }))
        }
        Some(ToolChoice::Mode(mode)) => Err(ApiError::invalid(
            format!("unknown tool_choice {mode:?}: use \"none\", \"auto\", \"required\" or a function"),
            Some("tool_choice"),
        )),
        Some(ToolChoice::Named { function }) => {
            if request.tools.is_empty() {
                return Err(needs_tools(&format!("naming `{}`", function.name)));
            }
            let tool = schemas()
                .into_iter()
                .find(|tool| tool.name == function.name)
                .ok_or_else(|| {
                    ApiError::invalid(
                        format!(
                            "tool_choice names the function `{}`, which is not among the tools offered",
                            function.name
                        ),
                        Some("tool_choice"),
                    )
                })?;
            Ok(ToolPlan::Forced(ToolCallSpec {
                tools: vec![tool],
                count: ToolCallCount::One,
            }))
        }
    }
}

pub async fn completions(
    State(app): State<Arc<App>>,
    request: Result<Json<ChatCompletionRequest>, JsonRejection>,
) -> Response {
    let started = Instant::now();
    let response = match request {
        Err(rejection) => Err(ApiError::rejected(rejection)),
        Ok(Json(request)) => match request_images(&app, &request.messages).await {
            Err(e) => Err(e),
            Ok(images) => match plan(&app, request, images) {
                Err(e) => Err(e),
                Ok((plan, stream)) => match submit(&app, &plan) {
                    Err(e) => Err(e),
                    Ok(receivers) if stream => Ok(streamed(app.clone(), plan, receivers, started)),
                    Ok(receivers) => whole(&app, plan, receivers, started).await,
                },
            },
        },
    };
    let response = response.unwrap_or_else(IntoResponse::into_response);
    app.metrics.count(ROUTE, response.status().as_u16());
    response
}

/// The images of the messages' `image_url` (or `image`) parts, in order, loaded for the model.
async fn request_images(app: &App, messages: &[ChatMessage]) -> Result<Vec<ProcessedImage>, ApiError> {
    let mut urls = Vec::new();
    for (i, message) in messages.iter().enumerate() {
        let MessageContent::Parts(parts) = &message.content else {
            continue;
        };
        for (j, part) in parts.iter().enumerate() {
            let url = match part {
                ContentPart::ImageUrl { image_url } => &image_url.url,
                ContentPart::Image { image } => image,
                ContentPart::Text { .. } => continue,
            };
            urls.push((format!("messages[{i}].content[{j}]"), url.clone()));
        }
    }
    app.images
        .load_request(app.model.image_processor(), urls, "messages")
        .await
}

fn plan(app: &App, request: ChatCompletionRequest, images: Vec<ProcessedImage>) -> Result<(Plan, bool), ApiError> {
    let model = &app.model;
    if let Some(name) = &request.model
        && name != &model.id
    {
        return Err(ApiError::not_found(format!(
            "the model `{name}` does not exist here; this server serves `{}`",
            model.id
        )));
    }
    if request.messages.is_empty() {
        return Err(ApiError::invalid("messages must not be empty", Some("messages")));
    }
    let n = request.n.unwrap_or(1);
    if !(1..=MAX_N).contains(&n) {
        return Err(ApiError::invalid(format!("n must be between 1 and {MAX_N}"), Some("n")));
    }
    let logprobs = request.logprobs.unwrap_or(false);
    let top_logprobs = request.top_logprobs.unwrap_or(0);
    let sampling = sampling_params(&request.sampling, usize::from(top_logprobs))?;
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
    let tools = tool_plan(&request)?;
    let json = match &request.response_format {
        None => None,
        Some(format) => JsonSpec::from_response_format(format)
            .map_err(|e| ApiError::invalid(e.to_string(), Some("response_format")))?,
    };
    let constraint = match (&json, &tools) {
        (Some(_), ToolPlan::Forced(_)) => {
            return Err(ApiError::invalid(
                "a forced tool call and response_format cannot be combined: the reply is the tool call",
                Some("response_format"),
            ));
        }
        (Some(spec), _) => Some(
            model
                .constraint(spec)
                .map_err(|e| ApiError::invalid(e.to_string(), Some("response_format")))?,
        ),
        (None, ToolPlan::Forced(spec)) => Some(
            model
                .tool_constraint(spec)
                .map_err(|e| ApiError::invalid(e.to_string(), Some("tool_choice")))?,
        ),
        (None, _) => None,
    };
    let mut extra = request.chat_template_kwargs.unwrap_or_default();
    let enable_thinking = match extra.remove("enable_thinking") {
        Some(serde_json::Value::Bool(on)) => Some(on),
        // A constrained reply is the JSON itself: no reasoning before it.
        _ if constraint.is_some() => Some(false),
        _ => None,
    };
    let options = RenderOptions {
        tools: if tools.offered() {
            request
                .tools
                .iter()
                .map(|tool| serde_json::to_value(tool).unwrap_or(serde_json::Value::Null))
                .collect()
        } else {
            Vec::new()
        },
        add_generation_prompt: true,
        enable_thinking,
        extra,
    };
    let messages: Vec<_> = request
        .messages
        .into_iter()
        .map(|m| m.with_parsed_tool_arguments())
        .collect();
    let prompt = model.render(&messages, &options).map_err(|e| {
        ApiError::invalid(
            format!("the chat template refused these messages: {e}"),
            Some("messages"),
        )
    })?;
    let expanded = model.expand_images(prompt.ids, &images).map_err(|e| {
        ApiError::invalid(
            format!("the rendered prompt does not fit the images: {e}"),
            Some("messages"),
        )
    })?;
    let prompt = Prompt {
        ids: expanded.ids,
        ..prompt
    };
    let context = model.max_context;
    let room = context.saturating_sub(prompt.ids.len());
    if room == 0 {
        return Err(ApiError::context_length(format!(
            "the prompt is {} tokens; this model's context is {context}",
            prompt.ids.len()
        )));
    }
    let max_tokens = match request.max_completion_tokens.or(request.max_tokens) {
        Some(0) => return Err(ApiError::invalid("max_tokens must be at least 1", Some("max_tokens"))),
        Some(max) if max as usize > room => {
            return Err(ApiError::context_length(format!(
                "the prompt is {} tokens and max_tokens {max} asks for more than the {context} the context holds",
                prompt.ids.len()
            )));
        }
        Some(max) => max as usize,
        None => room,
    };
    let stop_strings = request.stop.map(|s| s.into_vec()).unwrap_or_default();
    if stop_strings.iter().any(String::is_empty) {
        return Err(ApiError::invalid("stop strings must not be empty", Some("stop")));
    }
    let prompt_tokens = prompt.ids.len() as u64;
    let jobs = (0..n)
        .map(|i| GenerationRequest {
            prompt: prompt.ids.clone(),
            images: images.clone(),
            sampling: SamplingParams {
                seed: sampling.seed.map(|seed| seed.wrapping_add(u64::from(i))),
                ..sampling.clone()
            },
            stop: StopConditions {
                stop_token_ids: Vec::new(),
                stop_strings: stop_strings.clone(),
                max_tokens: Some(max_tokens),
            },
            constraint: constraint.clone(),
        })
        .collect();
    let created = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    Ok((
        Plan {
            id: format!("chatcmpl-{}", uuid::Uuid::new_v4().simple()),
            created,
            model: model.id.clone(),
            jobs,
            logprobs,
            include_usage: request.stream_options.is_some_and(|o| o.include_usage),
            prompt_tokens,
            image_tokens: model.image_processor().map(|_| expanded.image_tokens as u64),
            reasoning_open: prompt.reasoning_open,
            parse_tool_calls: tools.offered(),
        },
        request.stream,
    ))
}

/// The sampler's settings, with OpenAI's bounds and defaults (temperature 1, top_p 1).
pub(super) fn sampling_params(fields: &SamplingFields, top_logprobs: usize) -> Result<SamplingParams, ApiError> {
    let temperature = fields.temperature.unwrap_or(1.0);
    if !(0.0..=2.0).contains(&temperature) {
        return Err(ApiError::invalid(
            "temperature must be between 0 and 2",
            Some("temperature"),
        ));
    }
    let top_p = fields.top_p.unwrap_or(1.0);
    if !(top_p > 0.0 && top_p <= 1.0) {
        return Err(ApiError::invalid("top_p must be in (0, 1]", Some("top_p")));
    }
    Ok(SamplingParams {
        temperature,
        top_k: fields.top_k.map(|k| k as usize),
        top_p,
        seed: fields.seed,
        top_logprobs,
    })
}

fn submit(app: &App, plan: &Plan) -> Result<Vec<Events>, ApiError> {
    plan.jobs
        .iter()
        .map(|job| app.model.submit(job.clone()).map_err(refusal))
        .collect()
}

pub fn refusal(refusal: SubmitError) -> ApiError {
    match refusal {
        SubmitError::TooLong { .. } => ApiError::context_length(refusal.to_string()),
        SubmitError::Busy(_) => ApiError::overloaded(refusal.to_string()),
        SubmitError::EmptyPrompt | SubmitError::Invalid(_) | SubmitError::TextOnly(_) => {
            ApiError::invalid(refusal.to_string(), None)
        }
        SubmitError::Stopped => ApiError::internal(refusal.to_string()),
    }
}

/// One choice's events, read to the end.
struct Collected {
    tokens: Vec<SampledToken>,
    text: String,
    reason: FinishReason,
    completion_tokens: u64,
}

async fn collect(mut events: Events) -> Result<Collected, ApiError> {
    let mut tokens = Vec::new();
    let mut text = String::new();
    while let Some(event) = events.recv().await {
        match event {
            GenerationEvent::Token { token, text: piece } => {
                tokens.push(token);
                text.push_str(&piece);
            }
            GenerationEvent::Finished {
                reason,
                completion_tokens,
                ..
            } => {
                return Ok(Collected {
                    tokens,
                    text,
                    reason,
                    completion_tokens: completion_tokens as u64,
                });
            }
            GenerationEvent::Failed(message) => {
                return Err(ApiError::internal(format!("generation failed: {message}")));
            }
        }
    }
    Err(ApiError::internal(
        "generation ended without finishing (the model worker stopped)",
    ))
}

/// The reply parser for one choice of `plan`.
fn reply_stream(plan: &Plan) -> ReplyStream {
    let stream = ReplyStream::new(plan.reasoning_open);
    if plan.parse_tool_calls {
        stream
    } else {
        stream.without_tool_calls()
    }
}

fn tool_call(plan: &Plan, choice: usize, number: usize, call: ParsedToolCall) -> ToolCall {
    ToolCall {
        id: format!("call_{}_{choice}_{number}", &plan.id[9..21]),
        kind: "function".into(),
        function: FunctionCall {
            arguments: call.arguments_json(),
            name: call.name,
        },
    }
}

/// Ends a reply: one cut off by the token limit keeps an unfinished tool call as text.
fn end_reply(stream: &mut ReplyStream, reason: &FinishReason) -> Result<Vec<ReplyDelta>, TextError> {
    if *reason == FinishReason::Length {
        Ok(stream.finish_cut())
    } else {
        stream.finish()
    }
}

/// OpenAI's `finish_reason`: a reply cut by the token limit says so even after complete tool calls.
fn finish_reason(reason: &FinishReason, tool_calls: usize) -> &'static str {
    match reason {
        FinishReason::Length => "length",
        _ if tool_calls > 0 => "tool_calls",
        other => other.as_openai(),
    }
}

async fn whole(app: &App, plan: Plan, receivers: Vec<Events>, started: Instant) -> Result<Response, ApiError> {
    app.metrics.running.inc();
    let results = futures::future::join_all(receivers.into_iter().map(collect)).await;
    app.metrics.running.dec();
    let mut choices = Vec::with_capacity(results.len());
    let mut completion_tokens = 0;
    for (index, result) in results.into_iter().enumerate() {
        let collected = result?;
        completion_tokens += collected.completion_tokens;
        if let (Some(log), Some(job)) = (&app.generations, plan.jobs.get(index)) {
            log.push(Generation {
                prompt_ids: job.prompt.clone(),
                completion_ids: collected.tokens.iter().map(|t| t.id).collect(),
                logprobs: collected.tokens.iter().map(|t| t.logprob).collect(),
                finished: !matches!(collected.reason, FinishReason::Length),
            });
        }
        let mut stream = reply_stream(&plan);
        let mut deltas = stream
            .push(&collected.text)
            .map_err(|e| ApiError::internal(e.to_string()))?;
        deltas.extend(end_reply(&mut stream, &collected.reason).map_err(|e| ApiError::internal(e.to_string()))?);
        let (mut reasoning, mut content, mut tool_calls) = (String::new(), String::new(), Vec::new());
        for delta in deltas {
            match delta {
                ReplyDelta::Reasoning(text) => reasoning.push_str(&text),
                ReplyDelta::Content(text) => content.push_str(&text),
                ReplyDelta::ToolCall(call) => tool_calls.push(tool_call(&plan, index, tool_calls.len(), call)),
            }
        }
        let finish_reason = finish_reason(&collected.reason, tool_calls.len());
        choices.push(Choice {
            index: index as u32,
            message: ReplyMessage {
                role: "assistant",
                content: (!content.is_empty() || tool_calls.is_empty()).then_some(content),
                reasoning_content: (!reasoning.is_empty()).then_some(reasoning),
                tool_calls,
            },
            logprobs: plan.logprobs.then(|| logprobs(app, &collected.tokens)),
            finish_reason,
        });
    }
    app.metrics
        .tokens(plan.prompt_tokens, plan.image_tokens, completion_tokens);
    app.metrics.latency.observe(started.elapsed().as_secs_f64());
    Ok(Json(ChatCompletion {
        id: plan.id,
        object: "chat.completion",
        created: plan.created,
        model: plan.model,
        choices,
        usage: Usage::new(plan.prompt_tokens, completion_tokens).with_image_tokens(plan.image_tokens),
    })
    .into_response())
}

fn logprobs(app: &App, tokens: &[SampledToken]) -> ChoiceLogprobs {
    let model = &app.model;
    ChoiceLogprobs {
        content: tokens
            .iter()
            .map(|t| {
                let (token, bytes) = model.token_text(t.id);
                TokenLogprob {
                    token,
                    logprob: t.logprob,
                    bytes,
                    top_logprobs: t
                        .top_logprobs
                        .iter()
                        .map(|top| {
                            let (token, bytes) = model.token_text(top.id);
                            TopLogprob {
                                token,
                                logprob: top.logprob,
                                bytes,
                            }
                        })
                        .collect(),
                }
            })
            .collect(),
    }
}

/// The stream: one task merges the choices' events into chunks; the client going away drops the
/// channel, which drops the jobs' receivers, which cancels them.
fn streamed(app: Arc<App>, plan: Plan, receivers: Vec<Events>, started: Instant) -> Response {
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

/// The client is gone (or the chunk could not be encoded): stop streaming.
struct Gone;

async fn stream_chunks(
    app: &App,
    plan: &Plan,
    receivers: Vec<Events>,
    tx: &mpsc::Sender<SseEvent>,
    started: Instant,
) -> Result<(), Gone> {
    let usage_slot = plan.include_usage.then_some(None);
    let chunk = |choices: Vec<ChunkChoice>, usage: Option<Option<Usage>>| ChatCompletionChunk {
        id: plan.id.clone(),
        object: "chat.completion.chunk",
        created: plan.created,
        model: plan.model.clone(),
        choices,
        usage,
    };
    let send = |c: ChatCompletionChunk| async move {
        let data = serde_json::to_string(&c).map_err(|_| Gone)?;
        tx.send(SseEvent::default().data(data)).await.map_err(|_| Gone)
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

    let mut streams: Vec<(ReplyStream, usize, bool)> =
        (0..receivers.len()).map(|_| (reply_stream(plan), 0, false)).collect();
    let tagged = receivers.into_iter().enumerate().map(|(index, rx)| {
        futures::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|e| (e, rx)) })
            .map(move |event| (index, event))
            .boxed()
    });
    let mut merged = futures::stream::select_all(tagged);
    let mut completion_tokens = 0;
    while let Some((index, event)) = merged.next().await {
        let (reply, calls, done) = &mut streams[index];
        match event {
            GenerationEvent::Token { token, text } => {
                let deltas = match reply.push(&text) {
                    Ok(deltas) => deltas,
                    Err(e) => return fail(tx, ApiError::internal(e.to_string())).await,
                };
                let logprobs = plan.logprobs.then(|| logprobs(app, std::slice::from_ref(&token)));
                let choices = chunk_choices(plan, index, deltas, calls, logprobs);
                if !choices.is_empty() {
                    send(chunk(choices, usage_slot)).await?;
                }
            }
            GenerationEvent::Finished {
                reason,
                completion_tokens: used,
                ..
            } => {
                completion_tokens += used as u64;
                *done = true;
                let deltas = match end_reply(reply, &reason) {
                    Ok(deltas) => deltas,
                    Err(e) => return fail(tx, ApiError::internal(e.to_string())).await,
                };
                let mut choices = chunk_choices(plan, index, deltas, calls, None);
                choices.push(ChunkChoice {
                    index: index as u32,
                    delta: Delta::default(),
                    logprobs: None,
                    finish_reason: Some(finish_reason(&reason, *calls)),
                });
                send(chunk(choices, usage_slot)).await?;
            }
            GenerationEvent::Failed(message) => {
                return fail(tx, ApiError::internal(format!("generation failed: {message}"))).await;
            }
        }
    }
    if streams.iter().any(|(_, _, done)| !done) {
        return fail(
            tx,
            ApiError::internal("generation ended without finishing (the model worker stopped)"),
        )
        .await;
    }
    app.metrics
        .tokens(plan.prompt_tokens, plan.image_tokens, completion_tokens);
    app.metrics.latency.observe(started.elapsed().as_secs_f64());
    if plan.include_usage {
        send(chunk(
            Vec::new(),
            Some(Some(
                Usage::new(plan.prompt_tokens, completion_tokens).with_image_tokens(plan.image_tokens),
            )),
        ))
        .await?;
    }
    tx.send(SseEvent::default().data("[DONE]")).await.map_err(|_| Gone)
}

/// An error in OpenAI's shape as the stream's last event (official clients raise it), then `[DONE]`.
async fn fail(tx: &mpsc::Sender<SseEvent>, error: ApiError) -> Result<(), Gone> {
    tx.send(SseEvent::default().data(error.body().to_string()))
        .await
        .map_err(|_| Gone)?;
    tx.send(SseEvent::default().data("[DONE]")).await.map_err(|_| Gone)
}

fn chunk_choices(
    plan: &Plan,
    index: usize,
    deltas: Vec<ReplyDelta>,
    calls: &mut usize,
    logprobs: Option<ChoiceLogprobs>,
) -> Vec<ChunkChoice> {
    let mut logprobs = logprobs;
    let mut choices: Vec<ChunkChoice> = deltas
        .into_iter()
        .map(|delta| {
            let delta = match delta {
                ReplyDelta::Content(text) => Delta {
                    content: Some(text),
                    ..Delta::default()
                },
                ReplyDelta::Reasoning(text) => Delta {
                    reasoning_content: Some(text),
                    ..Delta::default()
                },
                ReplyDelta::ToolCall(call) => {
                    let number = *calls;
                    *calls += 1;
                    let call = tool_call(plan, index, number, call);
                    Delta {
                        tool_calls: vec![ToolCallDelta {
                            index: number as u32,
                            id: call.id,
                            kind: "function",
                            function: call.function,
                        }],
                        ..Delta::default()
                    }
                }
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
