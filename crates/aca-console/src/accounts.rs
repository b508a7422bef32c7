//! Creating, resetting and snapshotting accounts.

use serde::{Deserialize, Serialize};

use crate::Console;
use crate::error::ConsoleError;
use crate::model::{AccessKey, Account, access_key_pair, account_id};
use crate::profile::ProfileId;
use crate::state::AccountState;

/// What a new account's owner needs: the console login and the root AccessKey pair.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Credentials {
    pub account_id: String,
    pub account_name: String,
    pub profile: ProfileId,
    pub login: String,
    pub password: String,
    pub access_key_id: String,
    pub access_key_secret: String,
}

/// A summary of one account, as `aca console accounts list` prints it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AccountSummary {
    pub account_id: String,
    pub account_name: String,
    pub profile: ProfileId,
    pub login: String,
    pub resources: usize,
    pub events: usize,
    pub balance_cents: i64,
}

/// A whole account, as the admin API's snapshot returns it and restore takes it back.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Snapshot {
    pub account: Account,
    pub resources: Vec<crate::model::Resource>,
    pub access_keys: Vec<AccessKey>,
    pub events: Vec<crate::state::StoredEvent>,
}

impl Console {
    /// Creates an account with a root AccessKey and returns its credentials.
    pub fn create_account(&self, name: &str, profile: Option<ProfileId>) -> Result<Credentials, ConsoleError> {
        let id = account_id();
        let (ak, secret) = access_key_pair();
        let (_, password) = access_key_pair();
        let now_ms = self.clock.now_ms();
        let account = Account {
            id: id.clone(),
            name: name.to_owned(),
            login: format!("{name}@{id}.onaliyun.com"),
            password: password[..16].to_owned(),
            profile: profile.unwrap_or(self.config.default_profile),
            balance_cents: 1_000_000,
            created_ms: now_ms,
        };
        let mut state = AccountState::new(account.clone());
        state.access_keys.insert(
            ak.clone(),
            AccessKey {
                id: ak.clone(),
                secret: secret.clone(),
                account_id: id.clone(),
                user_name: None,
                active: true,
                created_ms: now_ms,
                recycled_ms: None,
            },
        );
        self.store.insert_account(state)?;
        Ok(credentials(&account, &ak, &secret))
    }

    pub fn account_summaries(&self) -> Vec<AccountSummary> {
        self.store
            .account_ids()
            .into_iter()
            .filter_map(|id| self.store.account(&id))
            .map(|shared| {
                let s = shared.lock();
                AccountSummary {
                    account_id: s.account.id.clone(),
                    account_name: s.account.name.clone(),
                    profile: s.account.profile,
                    login: s.account.login.clone(),
                    resources: s.resources().len(),
                    events: s.events.len(),
                    balance_cents: s.account.balance_cents,
                }
            })
            .collect()
    }

    /// The account's credentials (login and its first active root key).
    pub fn credentials(&self, account_id: &str) -> Result<Credentials, ConsoleError> {
        let shared = self
            .store
            .account(account_id)
            .ok_or_else(|| ConsoleError::NoSuchAccount(account_id.to_owned()))?;
        let s = shared.lock();
        let key = s.access_keys.values().find(|k| k.user_name.is_none() && k.active);
        let (ak, secret) = key.map(|k| (k.id.as_str(), k.secret.as_str())).unwrap_or(("", ""));
        Ok(credentials(&s.account, ak, secret))
    }

    /// Removes every resource and event of an account; keeps its identity, root keys and profile.
    pub fn reset_account(&self, account_id: &str, profile: Option<ProfileId>) -> Result<(), ConsoleError> {
        let shared = self
            .store
            .account(account_id)
            .ok_or_else(|| ConsoleError::NoSuchAccount(account_id.to_owned()))?;
        let fresh = {
            let s = shared.lock();
            let mut account = s.account.clone();
            if let Some(profile) = profile {
                account.profile = profile;
            }
            account.balance_cents = 1_000_000;
            let mut fresh = AccountState::new(account);
            fresh.access_keys = s
                .access_keys
                .iter()
                .filter(|(_, k)| k.user_name.is_none())
                .map(|(i, k)| (i.clone(), k.clone()))
                .collect();
            fresh
        };
        self.store.replace_account(fresh)
    }

    pub fn snapshot_account(&self, account_id: &str) -> Result<Snapshot, ConsoleError> {
        let shared = self
            .store
            .account(account_id)
            .ok_or_else(|| ConsoleError::NoSuchAccount(account_id.to_owned()))?;
        let s = shared.lock();
        Ok(Snapshot {
            account: s.account.clone(),
            resources: s.resources().values().cloned().collect(),
            access_keys: s.access_keys.values().cloned().collect(),
            events: s.events.clone(),
        })
    }

    /// Puts an account back exactly as a snapshot captured it (creating it if it is gone).
    pub fn restore_account(&self, snapshot: Snapshot) -> Result<(), ConsoleError> {
        let mut state = AccountState::new(snapshot.account);
        for resource in snapshot.resources {
            state.insert_resource(resource);
        }
        state.access_keys = snapshot.access_keys.into_iter().map(|k| (k.id.clone(), k)).collect();
        state.events = snapshot.events;
        self.store.replace_account(state)
    }
}

fn credentials(account: &Account, ak: &str, secret: &str) -> Credentials {
    Credentials {
        account_id: account.id.clone(),
        account_name: account.name.clone(),
        profile: account.profile,
        login: account.login.clone(),
        password: account.password.clone(),
        access_key_id: ak.to_owned(),
        access_key_secret: secret.to_owned(),
    }
}
