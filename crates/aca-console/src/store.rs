//! Where accounts live: in memory for speed, mirrored to SQLite so a restart (or a crash) loses
//! nothing that a caller was told had succeeded.
//!
//! Each account has its own lock; a call holds it from reading the state to committing its writes,
//! so concurrent writes to one account are serialised and different accounts never wait on each
//! other (except for the short database commit).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use parking_lot::{Mutex, RwLock};
use rusqlite::{Connection, params};

use crate::error::ConsoleError;
use crate::model::{AccessKey, Account, Resource};
use crate::state::{AccountState, StoredEvent};

/// The writes of one successful call, committed in one transaction.
#[derive(Debug, Default)]
pub struct Changes {
    pub account: Option<Account>,
    pub upserts: Vec<Resource>,
    pub deletes: Vec<String>,
    pub keys: Vec<AccessKey>,
    pub key_deletes: Vec<String>,
    pub events: Vec<StoredEvent>,
}

impl Changes {
    pub fn is_empty(&self) -> bool {
        self.account.is_none()
            && self.upserts.is_empty()
            && self.deletes.is_empty()
            && self.keys.is_empty()
            && self.key_deletes.is_empty()
            && self.events.is_empty()
    }
}

pub type SharedAccount = Arc<Mutex<AccountState>>;

pub struct Store {
    db: Option<Mutex<Connection>>,
    accounts: RwLock<HashMap<String, SharedAccount>>,
    /// AccessKey id → account id, for signature checks.
    keys: RwLock<HashMap<String, String>>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("persistent", &self.db.is_some()).finish()
    }
}

const SCHEMA: &str = "
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
CREATE TABLE IF NOT EXISTS accounts (id TEXT PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS resources (account_id TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL,
    PRIMARY KEY (account_id, id));
CREATE TABLE IF NOT EXISTS access_keys (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (account_id TEXT NOT NULL, seq INTEGER PRIMARY KEY AUTOINCREMENT,
    body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS events_by_account ON events (account_id, seq);
";

impl Store {
    /// An emulator that forgets everything when it stops.
    pub fn in_memory() -> Self {
        Self {
            db: None,
            accounts: RwLock::default(),
            keys: RwLock::default(),
        }
    }

    /// Opens (or creates) the database at `path` and loads every account from it.
    pub fn open(path: &Path) -> Result<Self, ConsoleError> {
        let db_err = |source| ConsoleError::Database {
            path: path.display().to_string(),
            source,
        };
        // Accounts' passwords and AccessKey secrets live here: the owner's only.
        aca_openapi::private_file::prepare(path)?;
        let conn = Connection::open(path).map_err(db_err)?;
        conn.execute_batch(SCHEMA).map_err(db_err)?;
        let mut states: HashMap<String, AccountState> = HashMap::new();
        {
            let mut stmt = conn.prepare("SELECT body FROM accounts")?;
            for body in stmt.query_map([], |row| row.get::<_, String>(0))? {
                let account: Account = serde_json::from_str(&body?)?;
                states.insert(account.id.clone(), AccountState::new(account));
            }
            let mut stmt = conn.prepare("SELECT account_id, body FROM resources")?;
            for row in stmt.query_map([], |row| Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?)))? {
                let (account_id, body) = row?;
                let resource: Resource = serde_json::from_str(&body)?;
                if let Some(state) = states.get_mut(&account_id) {
                    state.insert_resource(resource);
                }
            }
            let mut stmt = conn.prepare("SELECT account_id, body FROM access_keys")?;
            for row in stmt.query_map([], |row| Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?)))? {
                let (account_id, body) = row?;
                let key: AccessKey = serde_json::from_str(&body)?;
                if let Some(state) = states.get_mut(&account_id) {
                    state.access_keys.insert(key.id.clone(), key);
                }
            }
            let mut stmt = conn.prepare("SELECT account_id, body FROM events ORDER BY seq")?;
            for row in stmt.query_map([], |row| Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?)))? {
                let (account_id, body) = row?;
                let event: StoredEvent = serde_json::from_str(&body)?;
                if let Some(state) = states.get_mut(&account_id) {
                    state.events.push(event);
                }
            }
        }
        let store = Self {
            db: Some(Mutex::new(conn)),
            accounts: RwLock::default(),
            keys: RwLock::default(),
        };
        for (_, state) in states {
            store.index(state);
        }
        Ok(store)
    }

    fn index(&self, state: AccountState) {
        let id = state.account.id.clone();
        {
            let mut keys = self.keys.write();
            for key in state.access_keys.keys() {
                keys.insert(key.clone(), id.clone());
            }
        }
        self.accounts.write().insert(id, Arc::new(Mutex::new(state)));
    }

    /// Adds a new account with its keys.
    pub fn insert_account(&self, state: AccountState) -> Result<(), ConsoleError> {
        let changes = Changes {
            account: Some(state.account.clone()),
            keys: state.access_keys.values().cloned().collect(),
            upserts: state.resources().values().cloned().collect(),
            events: state.events.clone(),
            ..Changes::default()
        };
        self.persist(&state.account.id, &changes)?;
        self.index(state);
        Ok(())
    }

    /// Replaces an account's whole state (reset, restore from snapshot).
    pub fn replace_account(&self, state: AccountState) -> Result<(), ConsoleError> {
        let id = state.account.id.clone();
        if let Some(db) = &self.db {
            let mut conn = db.lock();
            let tx = conn.transaction()?;
            tx.execute("DELETE FROM resources WHERE account_id = ?1", params![id])?;
            tx.execute("DELETE FROM access_keys WHERE account_id = ?1", params![id])?;
            tx.execute("DELETE FROM events WHERE account_id = ?1", params![id])?;
            tx.commit()?;
        }
        let old_keys: Vec<String> = match self.account(&id) {
            Some(shared) => shared.lock().access_keys.keys().cloned().collect(),
            None => Vec::new(),
        };
        {
            let mut keys = self.keys.write();
            for key in old_keys {
                keys.remove(&key);
            }
        }
        self.insert_account(state)
    }

    pub fn account(&self, id: &str) -> Option<SharedAccount> {
        self.accounts.read().get(id).cloned()
    }

    /// Account ids, sorted.
    pub fn account_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self.accounts.read().keys().cloned().collect();
        ids.sort();
        ids
    }

    /// The account owning an AccessKey id.
    pub fn account_of_key(&self, access_key_id: &str) -> Option<String> {
        self.keys.read().get(access_key_id).cloned()
    }

    /// The account whose console login this is.
    pub fn account_by_login(&self, login: &str) -> Option<SharedAccount> {
        self.accounts
            .read()
            .values()
            .find(|a| a.lock().account.login == login)
            .cloned()
    }

    /// Writes `changes` to the database, then to `state` (which the caller holds locked).
    pub fn commit(&self, state: &mut AccountState, changes: Changes) -> Result<(), ConsoleError> {
        if changes.is_empty() {
            return Ok(());
        }
        self.persist(&state.account.id, &changes)?;
        {
            let mut keys = self.keys.write();
            for key in &changes.keys {
                keys.insert(key.id.clone(), state.account.id.clone());
            }
            for key in &changes.key_deletes {
                keys.remove(key);
            }
        }
        if let Some(account) = changes.account {
            state.account = account;
        }
        for resource in changes.upserts {
            state.insert_resource(resource);
        }
        for id in changes.deletes {
            state.remove_resource(&id);
        }
        for key in changes.keys {
            state.access_keys.insert(key.id.clone(), key);
        }
        for id in changes.key_deletes {
            state.access_keys.remove(&id);
        }
        state.events.extend(changes.events);
        Ok(())
    }

    fn persist(&self, account_id: &str, changes: &Changes) -> Result<(), ConsoleError> {
        let Some(db) = &self.db else { return Ok(()) };
        let mut conn = db.lock();
        let tx = conn.transaction()?;
        if let Some(account) = &changes.account {
            tx.execute(
                "INSERT INTO accounts (id, body) VALUES (?1, ?2) ON CONFLICT(id) DO UPDATE SET body = excluded.body",
                params![account.id, serde_json::to_string(account)?],
            )?;
        }
        {
            let mut upsert = tx.prepare_cached(
                "INSERT INTO resources (account_id, id, body) VALUES (?1, ?2, ?3)
                 ON CONFLICT(account_id, id) DO UPDATE SET body = excluded.body",
            )?;
            for r in &changes.upserts {
                upsert.execute(params![account_id, r.id, serde_json::to_string(r)?])?;
            }
            let mut delete = tx.prepare_cached("DELETE FROM resources WHERE account_id = ?1 AND id = ?2")?;
            for id in &changes.deletes {
                delete.execute(params![account_id, id])?;
            }
            let mut key = tx.prepare_cached(
                "INSERT INTO access_keys (id, account_id, body) VALUES (?1, ?2, ?3)
                 ON CONFLICT(id) DO UPDATE SET body = excluded.body",
            )?;
            for k in &changes.keys {
                key.execute(params![k.id, account_id, serde_json::to_string(k)?])?;
            }
            let mut key_delete = tx.prepare_cached("DELETE FROM access_keys WHERE id = ?1")?;
            for id in &changes.key_deletes {
                key_delete.execute(params![id])?;
            }
            let mut event = tx.prepare_cached("INSERT INTO events (account_id, body) VALUES (?1, ?2)")?;
            for e in &changes.events {
                event.execute(params![account_id, serde_json::to_string(e)?])?;
            }
        }
        tx.commit()?;
        Ok(())
    }
}
