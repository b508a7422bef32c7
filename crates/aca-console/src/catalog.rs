//! The product catalog: what an API operation is, and the context it runs in.
//!
//! An operation is a plain function from ([`OpCtx`], [`Params`]) to a JSON response. It reads the
//! caller's account through the context and writes through it too; writes land in an overlay that
//! the dispatcher commits (database first, then memory) only when the operation succeeds, so a
//! failed call changes nothing.

use std::collections::BTreeMap;

use aca_core::{EventRw, ReferencedResources};
use serde_json::Value;

use crate::clock::Millis;
use crate::config::ConsoleConfig;
use crate::error::ApiError;
use crate::model::{AccessKey, Account, Resource, Transition, resource_id};
use crate::params::Params;
use crate::state::{AccountState, StoredEvent};

pub type Handler = fn(&mut OpCtx<'_>, &Params) -> Result<Value, ApiError>;

/// One RPC API operation of a product.
#[derive(Debug, Clone, Copy)]
pub struct Operation {
    pub name: &'static str,
    pub rw: EventRw,
    pub handler: Handler,
    /// ActionTrail's `serviceName` when it differs from the product's (RAM user operations are `Ims`).
    pub service_name: Option<&'static str>,
    /// Whether the call becomes an ActionTrail event (LookupEvents itself does not).
    pub audited: bool,
    /// Whether the call counts against the per-account QPS limit (`ConsoleConfig::lookup_qps`).
    pub throttled: bool,
}

impl Operation {
    pub const fn write(name: &'static str, handler: Handler) -> Self {
        Self {
            name,
            rw: EventRw::Write,
            handler,
            service_name: None,
            audited: true,
            throttled: false,
        }
    }

    pub const fn read(name: &'static str, handler: Handler) -> Self {
        Self {
            name,
            rw: EventRw::Read,
            handler,
            service_name: None,
            audited: true,
            throttled: false,
        }
    }

    pub const fn service(mut self, service_name: &'static str) -> Self {
        self.service_name = Some(service_name);
        self
    }

    pub const fn unaudited(mut self) -> Self {
        self.audited = false;
        self
    }

    pub const fn throttled(mut self) -> Self {
        self.throttled = true;
        self
    }
}

/// One RPC-style product: its API version routes requests to it.
#[derive(Debug)]
pub struct Product {
    /// Short code used in console URLs and resource kinds: `ecs`, `vpc`, `ram`, …
    pub code: &'static str,
    /// The product's full name as the console shows it: `Elastic Compute Service`.
    pub name: &'static str,
    /// ActionTrail's `serviceName`: `Ecs`, `Vpc`, `Ram`, …
    pub service_name: &'static str,
    /// The OpenAPI version string (`2014-05-26` for ECS).
    pub version: &'static str,
    /// The public endpoint: the event's `eventSource`. Regional products write `{region}` where the
    /// region goes (`oss-{region}.aliyuncs.com`).
    pub endpoint: &'static str,
    /// The console's user agent on events the console front end causes: `ecs.console.aliyun.com`.
    pub console_agent: &'static str,
    pub operations: &'static [Operation],
}

impl Product {
    /// The endpoint serving `region`: the `eventSource` of the product's events there.
    pub fn endpoint_in(&self, region: &str) -> String {
        self.endpoint.replace("{region}", region)
    }

    pub fn operation(&self, name: &str) -> Option<&Operation> {
        self.operations.iter().find(|op| op.name == name)
    }
}

/// Side effects beyond resources that the dispatcher applies after a successful call.
#[derive(Debug, Clone)]
pub enum Effect {
    PutAccessKey(AccessKey),
    DeleteAccessKey(String),
}

/// Everything an operation may read and write.
pub struct OpCtx<'a> {
    pub now_ms: Millis,
    /// The request's region (`RegionId`, or the console default).
    pub region: String,
    pub config: &'a ConsoleConfig,
    /// The RAM user making the call, or `None` for the account itself.
    pub caller_user: Option<String>,
    state: &'a AccountState,
    /// id → new version (`Some`) or deletion (`None`).
    overlay: BTreeMap<String, Option<Resource>>,
    effects: Vec<Effect>,
    referenced: ReferencedResources,
}

impl<'a> OpCtx<'a> {
    pub fn new(state: &'a AccountState, config: &'a ConsoleConfig, region: String, now_ms: Millis) -> Self {
        Self {
            now_ms,
            region,
            config,
            caller_user: None,
            state,
            overlay: BTreeMap::new(),
            effects: Vec::new(),
            referenced: ReferencedResources::new(),
        }
    }

    pub fn account(&self) -> &Account {
        &self.state.account
    }

    pub fn access_keys(&self) -> impl Iterator<Item = &AccessKey> {
        self.state.access_keys.values()
    }

    /// Events visible to ActionTrail queries now, oldest first.
    pub fn events(&self) -> &[StoredEvent] {
        &self.state.events
    }

    pub fn new_id(&self, prefix: &str) -> String {
        resource_id(prefix)
    }

    /// A resource by id, as this call sees it (its own writes included).
    pub fn get(&self, id: &str) -> Option<Resource> {
        match self.overlay.get(id) {
            Some(version) => version.clone(),
            None => self.state.resource(id, self.now_ms),
        }
    }

    /// A resource of the given kind, or the real API's not-found error (`Invalid<what>.NotFound`).
    pub fn find(&self, kind: &str, id: &str, what: &str) -> Result<Resource, ApiError> {
        self.get(id)
            .filter(|r| r.kind == kind)
            .ok_or_else(|| ApiError::not_found(what, id))
    }

    /// All resources of a kind in every region, oldest first.
    pub fn list_all(&self, kind: &str) -> Vec<Resource> {
        let mut out: Vec<Resource> = self
            .state
            .resources_of(kind, self.now_ms)
            .into_iter()
            .filter(|r| !self.overlay.contains_key(&r.id))
            .collect();
        out.extend(self.overlay.values().flatten().filter(|r| r.kind == kind).cloned());
        out.sort_by(|a, b| a.created_ms.cmp(&b.created_ms).then_with(|| a.id.cmp(&b.id)));
        out
    }

    /// Resources of a kind in the request's region.
    pub fn list(&self, kind: &str) -> Vec<Resource> {
        self.list_all(kind)
            .into_iter()
            .filter(|r| r.region == self.region)
            .collect()
    }

    /// Children of a resource (vSwitches of a VPC, databases of an instance).
    pub fn children(&self, kind: &str, parent_id: &str) -> Vec<Resource> {
        self.list_all(kind)
            .into_iter()
            .filter(|r| r.parent.as_deref() == Some(parent_id))
            .collect()
    }

    pub fn put(&mut self, resource: Resource) {
        self.overlay.insert(resource.id.clone(), Some(resource));
    }

    pub fn delete(&mut self, id: &str) {
        self.overlay.insert(id.to_owned(), None);
    }

    /// Shows `via` now and `to` after the configured transition delay (`Starting` → `Running`).
    pub fn begin_transition(&self, resource: &mut Resource, via: &str, to: &str) {
        let delay = self.config.transition_delay_ms;
        if delay == 0 {
            resource.status = to.to_owned();
            resource.transition = None;
        } else {
            resource.status = via.to_owned();
            resource.transition = Some(Transition {
                to: to.to_owned(),
                at_ms: self.now_ms + delay,
            });
        }
    }

    /// Names a resource in the event's `referencedResources` (`ACS::ECS::Instance` → id).
    pub fn reference(&mut self, resource_type: &str, id: &str) {
        let ids = self.referenced.entry(resource_type.to_owned()).or_default();
        if !ids.iter().any(|existing| existing == id) {
            ids.push(id.to_owned());
        }
    }

    pub fn effect(&mut self, effect: Effect) {
        self.effects.push(effect);
    }

    /// Hands the call's writes to the dispatcher.
    pub fn into_parts(self) -> (BTreeMap<String, Option<Resource>>, Vec<Effect>, ReferencedResources) {
        (self.overlay, self.effects, self.referenced)
    }
}

/// A page of a list, with the real API's paging fields (`PageNumber`, `PageSize`, `TotalCount`).
pub fn paginate<T>(items: Vec<T>, params: &Params, max_page_size: i64) -> Result<(Vec<T>, i64, i64, i64), ApiError> {
    let page_number = params.int_in("PageNumber", 1..=i64::from(u32::MAX), 1)?;
    let page_size = params.int_in("PageSize", 1..=max_page_size, 10)?;
    let total = items.len() as i64;
    let start = ((page_number - 1) * page_size).min(total) as usize;
    let page = items.into_iter().skip(start).take(page_size as usize).collect();
    Ok((page, page_number, page_size, total))
}
