//! Test scaffolding for the product modules: an in-memory console on a hand-moved clock, accounts to
//! call as, and one-line calls that return the response body or the API error.

use std::sync::Arc;

use aca_core::{EventType, TrailEvent};
use serde_json::Value;

use crate::catalog::Product;
use crate::clock::{ManualClock, Millis};
use crate::dispatch::Caller;
use crate::error::ApiError;
use crate::params::Params;
use crate::store::Store;
use crate::{Console, ConsoleConfig};

/// 2026-11-30T14:01:05Z: where every test clock starts.
pub const START_MS: Millis = 1_796_047_265_000;

/// A console with its clock in the test's hand.
pub struct TestConsole {
    pub console: Console,
    pub clock: Arc<ManualClock>,
}

impl TestConsole {
    /// Asynchronous states settle at once.
    pub fn new() -> Self {
        Self::with_transition_delay(0)
    }

    /// Asynchronous states (`Starting`, `Stopping`, `Pending`, …) last `delay_ms` of test time.
    pub fn with_transition_delay(delay_ms: Millis) -> Self {
        let clock = Arc::new(ManualClock::new(START_MS));
        let config = ConsoleConfig {
            transition_delay_ms: delay_ms,
            ..ConsoleConfig::for_tests()
        };
        let console = Console::new(config, Store::in_memory(), clock.clone());
        Self { console, clock }
    }

    /// Creates an account and returns a caller acting as its root identity through the OpenAPI.
    pub fn account(&self, name: &str) -> Caller {
        let credentials = self
            .console
            .create_account(name, None)
            .expect("an in-memory account can always be created");
        Caller {
            account_id: credentials.account_id,
            access_key_id: credentials.access_key_id,
            user_name: None,
            user_agent: "AlibabaCloud (Linux; x86_64) aca-console-tests".to_owned(),
            source_ip: "127.0.0.1".to_owned(),
            event_type: EventType::ApiCall,
            event_name: None,
        }
    }

    pub fn call(
        &self,
        product: &'static Product,
        action: &str,
        caller: &Caller,
        params: &[(&str, &str)],
    ) -> Result<Value, ApiError> {
        let params = Params::from_pairs(params.iter().copied());
        self.console.call(product, action, &params, caller).result
    }

    /// The response of a call that must succeed.
    #[track_caller]
    pub fn ok(&self, product: &'static Product, action: &str, caller: &Caller, params: &[(&str, &str)]) -> Value {
        match self.call(product, action, caller, params) {
            Ok(body) => body,
            Err(e) => panic!("{action} failed: {e}"),
        }
    }

    /// The error of a call that must fail.
    #[track_caller]
    pub fn err(&self, product: &'static Product, action: &str, caller: &Caller, params: &[(&str, &str)]) -> ApiError {
        match self.call(product, action, caller, params) {
            Ok(body) => panic!("{action} succeeded but should have failed: {body}"),
            Err(e) => e,
        }
    }

    pub fn advance(&self, ms: Millis) {
        self.clock.advance(ms);
    }

    /// Every event recorded for the caller's account, oldest first (delivery delay ignored).
    pub fn events(&self, caller: &Caller) -> Vec<TrailEvent> {
        match self.console.store.account(&caller.account_id) {
            Some(shared) => shared.lock().events.iter().map(|stored| stored.event.clone()).collect(),
            None => Vec::new(),
        }
    }

    /// The newest event with this name in the caller's account.
    #[track_caller]
    pub fn last_event(&self, caller: &Caller, event_name: &str) -> TrailEvent {
        self.events(caller)
            .into_iter()
            .rev()
            .find(|e| e.event_name == event_name)
            .unwrap_or_else(|| panic!("no {event_name} event was recorded"))
    }
}

impl Default for TestConsole {
    fn default() -> Self {
        Self::new()
    }
}

/// A string field of a JSON body, for terse assertions.
#[track_caller]
pub fn text<'a>(body: &'a Value, pointer: &str) -> &'a str {
    body.pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no string at {pointer} in {body}"))
}

/// An array field of a JSON body (empty when absent).
pub fn items<'a>(body: &'a Value, pointer: &str) -> &'a [Value] {
    body.pointer(pointer)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}
