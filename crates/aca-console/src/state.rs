//! The live state of one account, as held in memory (and mirrored to the database by [`crate::store`]).

use std::collections::BTreeMap;

use aca_core::TrailEvent;
use serde::{Deserialize, Serialize};

use crate::clock::Millis;
use crate::model::{AccessKey, Account, Resource};

/// An event as the emulator keeps it: ActionTrail shows it only from `visible_ms` on (delivery delay).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredEvent {
    pub time_ms: Millis,
    pub visible_ms: Millis,
    pub event: TrailEvent,
}

#[derive(Debug, Clone)]
pub struct AccountState {
    pub account: Account,
    /// Resource id → resource, every product together.
    pub resources: BTreeMap<String, Resource>,
    pub access_keys: BTreeMap<String, AccessKey>,
    /// In the order they happened (non-decreasing `time_ms`).
    pub events: Vec<StoredEvent>,
}

impl AccountState {
    pub fn new(account: Account) -> Self {
        Self { account, resources: BTreeMap::new(), access_keys: BTreeMap::new(), events: Vec::new() }
    }

    /// The account's resources of one kind, oldest first, with due transitions applied.
    pub fn resources_of(&self, kind: &str, now_ms: Millis) -> Vec<Resource> {
        let mut out: Vec<Resource> = self
            .resources
            .values()
            .filter(|r| r.kind == kind)
            .cloned()
            .map(|mut r| {
                r.settle(now_ms);
                r
            })
            .collect();
        out.sort_by(|a, b| a.created_ms.cmp(&b.created_ms).then_with(|| a.id.cmp(&b.id)));
        out
    }

    pub fn resource(&self, id: &str, now_ms: Millis) -> Option<Resource> {
        self.resources.get(id).cloned().map(|mut r| {
            r.settle(now_ms);
            r
        })
    }
}
