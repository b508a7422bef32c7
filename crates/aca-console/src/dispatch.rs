//! Runs one authenticated API call against its account and records it in ActionTrail.
//!
//! The same path serves the signed OpenAPI, the console front end and buy pages; only the
//! [`Caller`] differs (user agent, event type), exactly as on the real cloud, where the console is a
//! client of the same APIs.

use aca_core::{EventType, IdentityType, TrailEvent, UserIdentity};
use serde_json::{Map, Value};

use crate::Console;
use crate::catalog::{Effect, OpCtx, Operation, Product};
use crate::clock::iso8601;
use crate::error::ApiError;
use crate::model::request_id;
use crate::params::Params;
use crate::products::ram;
use crate::state::{AccountState, StoredEvent};
use crate::store::Changes;

/// Who is calling, and how the call should appear in the audit log.
#[derive(Debug, Clone)]
pub struct Caller {
    pub account_id: String,
    pub access_key_id: String,
    /// The RAM user, or `None` for the account itself.
    pub user_name: Option<String>,
    pub user_agent: String,
    pub source_ip: String,
    /// `ApiCall` for SDK and console calls; buy pages record `ConsoleOperation`.
    pub event_type: EventType,
    /// Replaces the event name (buy-page purchases are recorded as `Create`).
    pub event_name: Option<String>,
}

/// A call's result: the response body (with `RequestId`) or the error, and the request id either way.
#[derive(Debug)]
pub struct Outcome {
    pub request_id: String,
    pub result: Result<Value, ApiError>,
}

impl Console {
    /// Runs `action` of `product` for `caller`. Unknown actions and failures are recorded as failed events.
    pub fn call(&self, product: &'static Product, action: &str, params: &Params, caller: &Caller) -> Outcome {
        let request_id = request_id();
        let Some(shared) = self.store.account(&caller.account_id) else {
            return Outcome {
                request_id,
                result: Err(ApiError::access_key_not_found()),
            };
        };
        let mut state = shared.lock();
        let now_ms = self.clock.now_ms();
        let region = params
            .get("RegionId")
            .map(str::to_owned)
            .unwrap_or_else(|| self.config.default_region.clone());
        let operation = product.operation(action);

        if let Some(op) = operation.filter(|op| op.throttled)
            && !self
                .limiter
                .admit(&caller.account_id, op.name, now_ms, self.config.lookup_qps)
        {
            return Outcome {
                request_id,
                result: Err(ApiError::throttling()),
            };
        }

        // A RAM user's call must be allowed by the policies attached to the user or its groups.
        let refused = match (&caller.user_name, operation) {
            (Some(user), Some(op)) => {
                let ram_action = format!("{}:{}", ram::authorize::action_namespace(product), op.name);
                ram::authorize::authorize(&state, user, &ram_action).err()
            }
            _ => None,
        };
        let (result, mut changes, referenced) = match (operation, refused) {
            (None, _) => (
                Err(ApiError::action_not_found(action)),
                Changes::default(),
                Default::default(),
            ),
            (Some(_), Some(refusal)) => (Err(refusal), Changes::default(), Default::default()),
            (Some(op), None) => run(&state, &self.config, op, params, caller, region.clone(), now_ms),
        };

        let audited = operation.is_none_or(|op| op.audited);
        if audited {
            let event = self.event(
                product,
                operation,
                action,
                params,
                caller,
                &region,
                &request_id,
                &result,
                referenced,
                now_ms,
            );
            changes.events.push(StoredEvent {
                time_ms: now_ms,
                visible_ms: now_ms + self.config.delivery_delay_ms,
                event,
            });
        }
        let result = match self.store.commit(&mut state, changes) {
            Ok(()) => result,
            Err(e) => {
                tracing::error!(error = %e, account = %caller.account_id, action, "commit failed");
                Err(ApiError::internal(
                    "The request processing has failed due to some unknown error.",
                ))
            }
        };
        let result = result.map(|body| with_request_id(body, &request_id));
        Outcome { request_id, result }
    }

    #[allow(clippy::too_many_arguments)]
    fn event(
        &self,
        product: &Product,
        operation: Option<&Operation>,
        action: &str,
        params: &Params,
        caller: &Caller,
        region: &str,
        request_id: &str,
        result: &Result<Value, ApiError>,
        referenced: aca_core::ReferencedResources,
        now_ms: i64,
    ) -> TrailEvent {
        let rw = operation.map_or(aca_core::EventRw::Read, |op| op.rw);
        let service_name = operation.and_then(|op| op.service_name).unwrap_or(product.service_name);
        let (response_elements, error_code, error_message) = match result {
            Ok(body) => (masked(with_request_id(body.clone(), request_id)), None, None),
            Err(e) => (Value::Null, Some(e.code.clone()), Some(e.message.clone())),
        };
        let principal_id = match &caller.user_name {
            Some(user) => principal_of(&caller.account_id, user),
            None => caller.account_id.clone(),
        };
        TrailEvent {
            event_id: uuid::Uuid::new_v4().to_string().to_uppercase(),
            event_version: 1,
            event_name: caller.event_name.clone().unwrap_or_else(|| action.to_owned()),
            event_type: caller.event_type,
            event_rw: rw,
            event_source: product.endpoint_in(region),
            service_name: service_name.to_owned(),
            acs_region: region.to_owned(),
            event_time: iso8601(now_ms),
            request_id: request_id.to_owned(),
            api_version: product.version.to_owned(),
            request_parameters: params.operation_params(),
            response_elements,
            error_code,
            error_message,
            user_identity: UserIdentity {
                kind: if caller.user_name.is_some() {
                    IdentityType::RamUser
                } else {
                    IdentityType::Root
                },
                account_id: caller.account_id.clone(),
                access_key_id: caller.access_key_id.clone(),
                principal_id,
                user_name: caller.user_name.clone().unwrap_or_else(|| "root".to_owned()),
            },
            user_agent: caller.user_agent.clone(),
            source_ip_address: caller.source_ip.clone(),
            referenced_resources: referenced,
            recipient_account_id: caller.account_id.clone(),
        }
    }
}

/// Runs the handler against an overlay of the state and turns its writes into [`Changes`].
fn run(
    state: &AccountState,
    config: &crate::config::ConsoleConfig,
    op: &Operation,
    params: &Params,
    caller: &Caller,
    region: String,
    now_ms: i64,
) -> (Result<Value, ApiError>, Changes, aca_core::ReferencedResources) {
    let mut ctx = OpCtx::new(state, config, region, now_ms);
    ctx.caller_user = caller.user_name.clone();
    let result = (op.handler)(&mut ctx, params);
    let (overlay, effects, referenced) = ctx.into_parts();
    let mut changes = Changes::default();
    if result.is_ok() {
        for (id, version) in overlay {
            match version {
                Some(resource) => changes.upserts.push(resource),
                None => changes.deletes.push(id),
            }
        }
        for effect in effects {
            match effect {
                Effect::PutAccessKey(key) => changes.keys.push(key),
                Effect::DeleteAccessKey(id) => changes.key_deletes.push(id),
            }
        }
    }
    (result, changes, referenced)
}

/// A RAM user's principal id: stable for the user within its account.
pub fn principal_of(account_id: &str, user_name: &str) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(format!("{account_id}/{user_name}").as_bytes());
    let n = u64::from_be_bytes(digest[..8].try_into().unwrap_or_default()) % 10u64.pow(15);
    format!("2{n:015}")
}

/// A response as the audit log keeps it: secrets (a new AccessKey's secret, a virtual MFA device's
/// setup key and the QR code that holds it) and passwords masked, as they are in its request
/// parameters.
fn masked(mut body: Value) -> Value {
    fn mask(value: &mut Value) {
        match value {
            Value::Object(map) => {
                for (key, item) in map.iter_mut() {
                    if crate::params::is_secret(key) && item.is_string() {
                        *item = Value::String("******".into());
                    } else {
                        mask(item);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(mask),
            _ => {}
        }
    }
    mask(&mut body);
    body
}

fn with_request_id(body: Value, request_id: &str) -> Value {
    let mut map = match body {
        Value::Object(map) => map,
        other => {
            let mut map = Map::new();
            map.insert("Data".into(), other);
            map
        }
    };
    map.insert("RequestId".into(), Value::String(request_id.to_owned()));
    Value::Object(map)
}

impl Console {
    /// Records a request that failed before it reached its operation (a bad signature, an expired
    /// timestamp) as a failed event of the caller's account. Returns the request id.
    pub fn record_failure(
        &self,
        product: &'static Product,
        action: &str,
        params: &Params,
        caller: &Caller,
        error: &ApiError,
    ) -> String {
        let request_id = request_id();
        let Some(shared) = self.store.account(&caller.account_id) else {
            return request_id;
        };
        let mut state = shared.lock();
        let now_ms = self.clock.now_ms();
        let region = params
            .get("RegionId")
            .map(str::to_owned)
            .unwrap_or_else(|| self.config.default_region.clone());
        let operation = product.operation(action);
        let event = self.event(
            product,
            operation,
            action,
            params,
            caller,
            &region,
            &request_id,
            &Err(error.clone()),
            Default::default(),
            now_ms,
        );
        let changes = Changes {
            events: vec![StoredEvent {
                time_ms: now_ms,
                visible_ms: now_ms + self.config.delivery_delay_ms,
                event,
            }],
            ..Changes::default()
        };
        if let Err(e) = self.store.commit(&mut state, changes) {
            tracing::error!(error = %e, "could not record a failed request");
        }
        request_id
    }
}
