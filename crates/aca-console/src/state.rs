//! The live state of one account, as held in memory (and mirrored to the database by [`crate::store`]).

use std::collections::{BTreeMap, BTreeSet, HashMap};

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
    resources: BTreeMap<String, Resource>,
    /// Kind → the ids of that kind, so listing one kind does not scan every resource.
    by_kind: HashMap<String, BTreeSet<String>>,
    pub access_keys: BTreeMap<String, AccessKey>,
    /// In the order they happened (non-decreasing `time_ms`).
    pub events: Vec<StoredEvent>,
}

impl AccountState {
    pub fn new(account: Account) -> Self {
        Self {
            account,
            resources: BTreeMap::new(),
            by_kind: HashMap::new(),
            access_keys: BTreeMap::new(),
            events: Vec::new(),
        }
    }

    /// Every resource, by id.
    pub fn resources(&self) -> &BTreeMap<String, Resource> {
        &self.resources
    }

    /// The stored resources of one kind, by reference and in id order (transitions not applied).
    pub fn stored_of<'a>(&'a self, kind: &str) -> impl Iterator<Item = &'a Resource> + 'a {
        self.by_kind
            .get(kind)
            .into_iter()
            .flatten()
            .filter_map(|id| self.resources.get(id))
    }

    /// Adds or replaces a resource.
    pub fn insert_resource(&mut self, resource: Resource) {
        if let Some(old) = self.resources.get(&resource.id).filter(|old| old.kind != resource.kind)
            && let Some(ids) = self.by_kind.get_mut(&old.kind)
        {
            ids.remove(&resource.id);
        }
        self.by_kind
            .entry(resource.kind.clone())
            .or_default()
            .insert(resource.id.clone());
        self.resources.insert(resource.id.clone(), resource);
    }

    pub fn remove_resource(&mut self, id: &str) -> Option<Resource> {
        let removed = self.resources.remove(id)?;
        if let Some(ids) = self.by_kind.get_mut(&removed.kind) {
            ids.remove(id);
        }
        Some(removed)
    }

    /// The account's resources of one kind, oldest first, with due transitions applied.
    pub fn resources_of(&self, kind: &str, now_ms: Millis) -> Vec<Resource> {
        let mut out: Vec<Resource> = self
            .stored_of(kind)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::ProfileId;

    #[test]
    fn the_kind_index_follows_inserts_replacements_and_removals() {
        let account = Account {
            id: "1".into(),
            name: "a".into(),
            login: "a@1.onaliyun.com".into(),
            password: "p".into(),
            profile: ProfileId::Y2026,
            balance_cents: 0,
            created_ms: 0,
        };
        let mut state = AccountState::new(account);
        state.insert_resource(Resource::new(
            "vpc.vpc",
            "vpc-1".into(),
            "cn-hangzhou",
            "a",
            "Available",
            1,
        ));
        state.insert_resource(Resource::new(
            "vpc.vpc",
            "vpc-2".into(),
            "cn-hangzhou",
            "b",
            "Available",
            2,
        ));
        state.insert_resource(Resource::new(
            "vpc.vswitch",
            "vsw-1".into(),
            "cn-hangzhou",
            "c",
            "Available",
            3,
        ));
        let names = |state: &AccountState, kind| {
            state
                .resources_of(kind, 0)
                .into_iter()
                .map(|r| r.name)
                .collect::<Vec<_>>()
        };
        assert_eq!(names(&state, "vpc.vpc"), ["a", "b"]);
        state.insert_resource(Resource::new(
            "vpc.vpc",
            "vpc-1".into(),
            "cn-hangzhou",
            "a2",
            "Available",
            1,
        ));
        assert_eq!(names(&state, "vpc.vpc"), ["a2", "b"]);
        assert!(state.remove_resource("vpc-2").is_some());
        assert_eq!(names(&state, "vpc.vpc"), ["a2"]);
        assert_eq!(names(&state, "vpc.vswitch"), ["c"]);
        assert!(state.remove_resource("vpc-2").is_none());
    }
}
