//! `POST /v1/reward`: the reward service for any window of an account assigned to the caller, read
//! with the server's own credentials for it.

use std::sync::Arc;

use aca_reward::Judges;
use aca_reward::lookup::LookupConfig;
use aca_reward::service::{self, AuditAccess, FailureKind, RewardRequest, RewardResponse};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::error::refuse;
use crate::{AccountAccess, Caller, Companion};

/// Decides `request` in `account` through its region's ActionTrail endpoint, or by `judges` when
/// no rule applies.
pub async fn decide_for(account: &AccountAccess, request: &RewardRequest, judges: Option<&Judges>) -> RewardResponse {
    let access = AuditAccess {
        endpoint: account.endpoints.resolve("actiontrail", &request.region),
        key: account.key.clone(),
        lookup: if account.emulator {
            LookupConfig::emulator()
        } else {
            LookupConfig::real_cloud()
        },
    };
    service::decide(request, &access, judges).await
}

pub async fn decide(
    State(companion): State<Arc<Companion>>,
    caller: Caller,
    Json(request): Json<RewardRequest>,
) -> Response {
    if !caller.may_use(&request.account_id) {
        return refuse(
            StatusCode::FORBIDDEN,
            "AccountNotAssigned",
            format!("account {} is not assigned to {}", request.account_id, caller.name()),
        );
    }
    let Some(account) = companion.access(&request.account_id) else {
        return Json(RewardResponse::failed(
            FailureKind::BadRequest,
            format!("this server holds no credentials for account {}", request.account_id),
        ))
        .into_response();
    };
    Json(decide_for(&account, &request, companion.judges()).await).into_response()
}
