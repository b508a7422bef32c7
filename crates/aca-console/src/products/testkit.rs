//! Test scaffolding for the product modules: an in-memory console on a hand-moved clock with a first account
//! to act as, other accounts and RAM users to call as, one-line calls, and the events they record.

use std::sync::Arc;

use aca_core::{EventType, TrailEvent};
use serde_json::Value;

use crate::catalog::Product;
use crate::clock::{ManualClock, Millis};
use crate::dispatch::Caller;
use crate::error::ApiError;
use crate::model::Resource;
use crate::params::Params;
use crate::products::vpc;
use crate::store::Store;
use crate::{Console, ConsoleConfig};

/// 2026-11-30T14:01:05Z: where test clocks start unless a test picks its own start.
pub const START_MS: Millis = 1_796_047_265_000;
/// 2026-11-30T14:00:00Z: a start on the hour, for tests that compute expiry dates.
pub const ON_THE_HOUR_MS: Millis = 1_796_047_200_000;

/// A console with its clock in the test's hand and a first account, `tester`.
pub struct TestConsole {
    pub console: Console,
    pub clock: Arc<ManualClock>,
    /// The root identity of the first account: whom [`TestConsole::call`], `ok` and `err` act as.
    pub caller: Caller,
}

impl TestConsole {
    /// Asynchronous states settle at once.
    pub fn new() -> Self {
        Self::with_transition_delay(0)
    }

    /// Asynchronous states (`Starting`, `Stopping`, `Pending`, …) last `delay_ms` of test time.
    pub fn with_transition_delay(delay_ms: Millis) -> Self {
        Self::with_config(ConsoleConfig {
            transition_delay_ms: delay_ms,
            ..ConsoleConfig::for_tests()
        })
    }

    /// Asynchronous states settle at once; the clock starts at `start_ms`.
    pub fn starting_at(start_ms: Millis) -> Self {
        Self::with_config_at(ConsoleConfig::for_tests(), start_ms)
    }

    /// A console with this configuration, its clock at [`START_MS`].
    pub fn with_config(config: ConsoleConfig) -> Self {
        Self::with_config_at(config, START_MS)
    }

    /// A console with this configuration, its clock at `start_ms`.
    pub fn with_config_at(config: ConsoleConfig, start_ms: Millis) -> Self {
        let clock = Arc::new(ManualClock::new(start_ms));
        let console = Console::new(config, Store::in_memory(), clock.clone());
        let caller = root_caller(&console, "tester");
        Self { console, clock, caller }
    }

    /// Creates another account and returns a caller acting as its root identity through the OpenAPI.
    pub fn account(&self, name: &str) -> Caller {
        root_caller(&self.console, name)
    }

    /// A caller acting as the RAM user `user_name` of the caller's account.
    pub fn ram_user(&self, of: &Caller, user_name: &str) -> Caller {
        Caller {
            access_key_id: String::new(),
            user_name: Some(user_name.to_owned()),
            ..of.clone()
        }
    }

    /// A call as the first account.
    pub fn call(&self, product: &'static Product, action: &str, params: &[(&str, &str)]) -> Result<Value, ApiError> {
        self.call_as(&self.caller, product, action, params)
    }

    /// The response of a call as the first account that must succeed.
    #[track_caller]
    pub fn ok(&self, product: &'static Product, action: &str, params: &[(&str, &str)]) -> Value {
        self.ok_as(&self.caller, product, action, params)
    }

    /// The error of a call as the first account that must fail.
    #[track_caller]
    pub fn err(&self, product: &'static Product, action: &str, params: &[(&str, &str)]) -> ApiError {
        self.err_as(&self.caller, product, action, params)
    }

    /// A call as `caller`.
    pub fn call_as(
        &self,
        caller: &Caller,
        product: &'static Product,
        action: &str,
        params: &[(&str, &str)],
    ) -> Result<Value, ApiError> {
        let params = Params::from_pairs(params.iter().copied());
        self.console.call(product, action, &params, caller).result
    }

    /// The response of a call as `caller` that must succeed.
    #[track_caller]
    pub fn ok_as(&self, caller: &Caller, product: &'static Product, action: &str, params: &[(&str, &str)]) -> Value {
        match self.call_as(caller, product, action, params) {
            Ok(body) => body,
            Err(e) => panic!("{action} failed: {e}"),
        }
    }

    /// The error of a call as `caller` that must fail.
    #[track_caller]
    pub fn err_as(
        &self,
        caller: &Caller,
        product: &'static Product,
        action: &str,
        params: &[(&str, &str)],
    ) -> ApiError {
        match self.call_as(caller, product, action, params) {
            Ok(body) => panic!("{action} succeeded but should have failed: {body}"),
            Err(e) => e,
        }
    }

    /// Moves the clock forward.
    pub fn advance(&self, ms: Millis) {
        self.clock.advance(ms);
    }

    /// Puts a resource straight into the first account (for resources of products written elsewhere).
    pub fn insert(&self, resource: Resource) {
        let shared = self
            .console
            .store
            .account(&self.caller.account_id)
            .expect("the first account exists");
        shared.lock().insert_resource(resource);
    }

    /// A VPC with one vSwitch `192.168.1.0/24` in `cn-hangzhou-h` in the first account: (VpcId, VSwitchId).
    pub fn network(&self) -> (String, String) {
        let vpc = self.ok(
            &vpc::PRODUCT,
            "CreateVpc",
            &[("CidrBlock", "192.168.0.0/16"), ("VpcName", "test")],
        );
        let vpc_id = text(&vpc, "/VpcId").to_owned();
        let vsw = self.ok(
            &vpc::PRODUCT,
            "CreateVSwitch",
            &[
                ("VpcId", &vpc_id),
                ("ZoneId", "cn-hangzhou-h"),
                ("CidrBlock", "192.168.1.0/24"),
            ],
        );
        (vpc_id, text(&vsw, "/VSwitchId").to_owned())
    }

    /// Every event recorded for the first account, oldest first (delivery delay ignored).
    pub fn events(&self) -> Vec<TrailEvent> {
        self.events_of(&self.caller)
    }

    /// Every event recorded for the caller's account, oldest first (delivery delay ignored).
    pub fn events_of(&self, caller: &Caller) -> Vec<TrailEvent> {
        match self.console.store.account(&caller.account_id) {
            Some(shared) => shared.lock().events.iter().map(|stored| stored.event.clone()).collect(),
            None => Vec::new(),
        }
    }

    /// The newest event with this name in the first account.
    #[track_caller]
    pub fn last_event(&self, event_name: &str) -> TrailEvent {
        self.last_event_of(&self.caller, event_name)
    }

    /// The newest event with this name in the caller's account.
    #[track_caller]
    pub fn last_event_of(&self, caller: &Caller, event_name: &str) -> TrailEvent {
        self.events_of(caller)
            .into_iter()
            .rev()
            .find(|e| e.event_name == event_name)
            .unwrap_or_else(|| panic!("no {event_name} event was recorded"))
    }

    /// The newest event of the first account, whatever its name.
    #[track_caller]
    pub fn newest_event(&self) -> TrailEvent {
        self.events().pop().expect("an event was recorded")
    }
}

impl Default for TestConsole {
    fn default() -> Self {
        Self::new()
    }
}

/// A new account of the console, and a caller acting as its root identity through the OpenAPI.
fn root_caller(console: &Console, name: &str) -> Caller {
    let credentials = console
        .create_account(name, None)
        .expect("an in-memory account can always be created");
    Caller {
        account_id: credentials.account_id,
        access_key_id: credentials.access_key_id,
        user_name: None,
        user_agent: "AlibabaCloud (Linux; x86_64) aca-console-tests".to_owned(),
        source_ip: "192.0.2.10".to_owned(),
        event_type: EventType::ApiCall,
        event_name: None,
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
