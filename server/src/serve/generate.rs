//! `POST /v1/generate`: token ids (and the images they hold) in, the sampled ids and the logprob each
//! was sampled with out, so that RL rollouts train on exactly what the model produced.

use std::sync::Arc;
use std::time::Instant;

use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::response::{IntoResponse, Response};

use aca_model::engine::{GenerationEvent, GenerationRequest};
use aca_model::sample::StopConditions;

use super::App;
use super::chat::{refusal, sampling_params};
use super::error::ApiError;
use super::protocol::{GenerateReply, GenerateRequest, Usage};

const ROUTE: &str = "/v1/generate";

pub async fn generate(State(app): State<Arc<App>>, request: Result<Json<GenerateRequest>, JsonRejection>) -> Response {
    let started = Instant::now();
    let response = match request {
        Err(rejection) => ApiError::rejected(rejection).into_response(),
        Ok(Json(request)) => match run(&app, request).await {
            Ok(reply) => {
                app.metrics.latency.observe(started.elapsed().as_secs_f64());
                Json(reply).into_response()
            }
            Err(e) => e.into_response(),
        },
    };
    app.metrics.count(ROUTE, response.status().as_u16());
    response
}

async fn run(app: &App, request: GenerateRequest) -> Result<GenerateReply, ApiError> {
    if request.input_ids.is_empty() {
        return Err(ApiError::invalid("input_ids must not be empty", Some("input_ids")));
    }
    let urls = (request.images.iter().enumerate())
        .map(|(k, url)| (format!("images[{k}]"), url.clone()))
        .collect();
    let images = app
        .images
        .load_request(app.model.image_processor(), urls, "images")
        .await?;
    let prompt = app
        .model
        .expand_images(request.input_ids, &images)
        .map_err(|e| ApiError::invalid(format!("input_ids do not fit the images: {e}"), Some("input_ids")))?;
    let context = app.model.max_context;
    let room = context.saturating_sub(prompt.ids.len());
    if room == 0 {
        return Err(ApiError::context_length(format!(
            "input_ids hold {} tokens (images expanded); this model's context is {context}",
            prompt.ids.len()
        )));
    }
    let sampling = sampling_params(&request.sampling, 0)?;
    let max_tokens = match request.max_tokens {
        Some(0) => return Err(ApiError::invalid("max_tokens must be at least 1", Some("max_tokens"))),
        Some(max) => max as usize,
        None => room,
    };
    let prompt_tokens = prompt.ids.len() as u64;
    let image_tokens = app.model.image_processor().map(|_| prompt.image_tokens as u64);
    let prompt_ids = (!images.is_empty()).then(|| prompt.ids.clone());
    let job = GenerationRequest {
        prompt: prompt.ids,
        images,
        sampling,
        stop: StopConditions {
            stop_token_ids: request.stop_token_ids,
            stop_strings: Vec::new(),
            max_tokens: Some(max_tokens),
        },
        constraint: None,
    };
    let mut events = app.model.submit(job).map_err(refusal)?;
    app.metrics.running.inc();
    let mut output_ids = Vec::new();
    let mut logprobs = Vec::new();
    let result = loop {
        match events.recv().await {
            Some(GenerationEvent::Token { token, .. }) => {
                output_ids.push(token.id);
                logprobs.push(token.logprob);
            }
            Some(GenerationEvent::Finished { reason, .. }) => break Ok(reason),
            Some(GenerationEvent::Failed(message)) => {
                break Err(ApiError::internal(format!("generation failed: {message}")));
            }
            None => {
                break Err(ApiError::internal(
                    "generation ended without finishing (the model worker stopped)",
                ));
            }
        }
    };
    app.metrics.running.dec();
    let reason = result?;
    let completion_tokens = output_ids.len() as u64;
    app.metrics.tokens(prompt_tokens, image_tokens, completion_tokens);
    Ok(GenerateReply {
        prompt_ids,
        output_ids,
        logprobs,
        finish_reason: reason.as_openai(),
        usage: Usage::new(prompt_tokens, completion_tokens).with_image_tokens(image_tokens),
    })
}
