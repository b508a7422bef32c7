//! The pool's accounts and leases in SQLite: one task per account at a time, leases that expire
//! (so a crashed holder's account comes back), releases that only the lease's holder can make, and
//! quarantine for accounts that could not be cleaned.

use std::path::Path;
use std::time::Duration;

use parking_lot::Mutex;
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use crate::emulator::AccessKey;

/// Why the pool could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    #[error("the account pool is exhausted: all {total} accounts are leased or quarantined")]
    Exhausted { total: usize },
    #[error("lease {lease_id} of account {account_id} is no longer held (it expired or was released)")]
    LeaseLost { account_id: String, lease_id: String },
    #[error("no account {0} in the pool")]
    NoSuchAccount(String),
    #[error("account pool database: {0}")]
    Database(String),
}

impl From<rusqlite::Error> for PoolError {
    fn from(e: rusqlite::Error) -> Self {
        Self::Database(e.to_string())
    }
}

/// An account the pool lends: where its API is and its AccessKey.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PoolAccount {
    pub id: String,
    pub name: String,
    /// The OpenAPI endpoint (the emulator's address, or a real cloud endpoint).
    pub endpoint: String,
    pub key: AccessKey,
}

/// Whether an account can be leased.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AccountState {
    Free,
    Leased,
    /// Taken out of rotation until a person looks (cleanup failed, leftovers remained).
    Quarantined,
}

impl AccountState {
    fn as_str(self) -> &'static str {
        match self {
            Self::Free => "free",
            Self::Leased => "leased",
            Self::Quarantined => "quarantined",
        }
    }

    fn parse(s: &str) -> Self {
        match s {
            "leased" => Self::Leased,
            "quarantined" => Self::Quarantined,
            _ => Self::Free,
        }
    }
}

/// One account as `aca accounts list` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountStatus {
    pub account: PoolAccount,
    pub state: AccountState,
    pub holder: Option<String>,
    pub lease_expires_ms: Option<i64>,
    pub note: String,
}

/// A held account. Renew it before `expires_ms`, release it when done.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lease {
    pub lease_id: String,
    pub account: PoolAccount,
    pub holder: String,
    pub expires_ms: i64,
}

/// The pool, persisted in SQLite (one file, or in memory).
#[derive(Debug)]
pub struct AccountPool {
    db: Mutex<Connection>,
    lease_timeout: Duration,
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS pool_accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    access_key_id TEXT NOT NULL,
    access_key_secret TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'free',
    lease_id TEXT,
    holder TEXT,
    expires_ms INTEGER,
    note TEXT NOT NULL DEFAULT '',
    added_ms INTEGER NOT NULL,
    key_since_ms INTEGER NOT NULL DEFAULT 0
);
";

impl AccountPool {
    /// Opens (or creates) the pool database at `path`; it holds AccessKey secrets, so it is readable
    /// by its owner only.
    pub fn open(path: &Path, lease_timeout: Duration) -> Result<Self, PoolError> {
        aca_openapi::private_file::prepare(path)
            .map_err(|e| PoolError::Database(format!("{}: {e}", path.display())))?;
        Self::with(Connection::open(path)?, lease_timeout)
    }

    pub fn in_memory(lease_timeout: Duration) -> Result<Self, PoolError> {
        Self::with(Connection::open_in_memory()?, lease_timeout)
    }

    fn with(conn: Connection, lease_timeout: Duration) -> Result<Self, PoolError> {
        conn.busy_timeout(Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)?;
        Ok(Self {
            db: Mutex::new(conn),
            lease_timeout,
        })
    }

    /// Adds an account (or updates its endpoint and key), free to lease.
    pub fn add(&self, account: &PoolAccount) -> Result<(), PoolError> {
        self.db.lock().execute(
            "INSERT INTO pool_accounts (id, name, endpoint, access_key_id, access_key_secret, added_ms, key_since_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)
             ON CONFLICT(id) DO UPDATE SET name = ?2, endpoint = ?3, access_key_id = ?4, access_key_secret = ?5",
            params![
                account.id,
                account.name,
                account.endpoint,
                account.key.access_key_id,
                account.key.access_key_secret,
                now_ms()
            ],
        )?;
        Ok(())
    }

    pub fn list(&self) -> Result<Vec<AccountStatus>, PoolError> {
        let db = self.db.lock();
        let mut statement = db.prepare(
            "SELECT id, name, endpoint, access_key_id, access_key_secret, state, holder, expires_ms, note
             FROM pool_accounts ORDER BY added_ms, id",
        )?;
        let rows = statement.query_map([], |row| {
            Ok(AccountStatus {
                account: PoolAccount {
                    id: row.get(0)?,
                    name: row.get(1)?,
                    endpoint: row.get(2)?,
                    key: AccessKey {
                        access_key_id: row.get(3)?,
                        access_key_secret: row.get(4)?,
                    },
                },
                state: AccountState::parse(&row.get::<_, String>(5)?),
                holder: row.get(6)?,
                lease_expires_ms: row.get(7)?,
                note: row.get(8)?,
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// Leases a free account (or one whose lease expired: its holder crashed) to `holder`.
    pub fn lease(&self, holder: &str) -> Result<Lease, PoolError> {
        self.lease_where(holder, None)
    }

    /// Leases one particular account, when it is free (for rotation and checks).
    pub fn lease_account(&self, account_id: &str, holder: &str) -> Result<Lease, PoolError> {
        self.lease_where(holder, Some(account_id))
    }

    fn lease_where(&self, holder: &str, only: Option<&str>) -> Result<Lease, PoolError> {
        let now = now_ms();
        let expires = now + self.lease_timeout.as_millis() as i64;
        let lease_id = uuid::Uuid::new_v4().to_string();
        let db = self.db.lock();
        // One statement picks and takes the account, so two processes sharing the file cannot both
        // take it.
        let taken = db
            .query_row(
                "UPDATE pool_accounts SET state = 'leased', lease_id = ?1, holder = ?2, expires_ms = ?3
                 WHERE id = (
                     SELECT id FROM pool_accounts
                     WHERE (state = 'free' OR (state = 'leased' AND expires_ms < ?4))
                       AND (?5 IS NULL OR id = ?5)
                     ORDER BY state = 'leased', added_ms, id LIMIT 1
                 )
                 RETURNING id, name, endpoint, access_key_id, access_key_secret",
                params![lease_id, holder, expires, now, only],
                |row| {
                    Ok(PoolAccount {
                        id: row.get(0)?,
                        name: row.get(1)?,
                        endpoint: row.get(2)?,
                        key: AccessKey {
                            access_key_id: row.get(3)?,
                            access_key_secret: row.get(4)?,
                        },
                    })
                },
            )
            .optional()?;
        match taken {
            Some(account) => Ok(Lease {
                lease_id,
                account,
                holder: holder.to_owned(),
                expires_ms: expires,
            }),
            None => {
                let total: i64 = db.query_row("SELECT COUNT(*) FROM pool_accounts", [], |r| r.get(0))?;
                Err(PoolError::Exhausted { total: total as usize })
            }
        }
    }

    /// Replaces the account's AccessKey (after a rotation); only the lease's holder can.
    pub fn set_key(&self, lease: &mut Lease, key: &AccessKey) -> Result<(), PoolError> {
        let changed = self.db.lock().execute(
            "UPDATE pool_accounts SET access_key_id = ?1, access_key_secret = ?2, key_since_ms = ?3
             WHERE id = ?4 AND lease_id = ?5 AND state = 'leased'",
            params![
                key.access_key_id,
                key.access_key_secret,
                now_ms(),
                lease.account.id,
                lease.lease_id
            ],
        )?;
        if changed == 0 {
            return Err(self.lost(lease));
        }
        lease.account.key = key.clone();
        Ok(())
    }

    /// The free accounts whose AccessKey is older than `age`.
    pub fn keys_older_than(&self, age: Duration) -> Result<Vec<String>, PoolError> {
        let before = now_ms() - age.as_millis() as i64;
        let db = self.db.lock();
        let mut statement =
            db.prepare("SELECT id FROM pool_accounts WHERE state = 'free' AND key_since_ms <= ?1 ORDER BY id")?;
        let ids = statement.query_map(params![before], |row| row.get::<_, String>(0))?;
        Ok(ids.collect::<Result<Vec<_>, _>>()?)
    }

    /// Extends a lease by the lease timeout; fails if the lease was lost.
    pub fn renew(&self, lease: &mut Lease) -> Result<(), PoolError> {
        let expires = now_ms() + self.lease_timeout.as_millis() as i64;
        let changed = self.db.lock().execute(
            "UPDATE pool_accounts SET expires_ms = ?1 WHERE id = ?2 AND lease_id = ?3 AND state = 'leased'",
            params![expires, lease.account.id, lease.lease_id],
        )?;
        if changed == 0 {
            return Err(self.lost(lease));
        }
        lease.expires_ms = expires;
        Ok(())
    }

    /// Returns the account to the pool. Only the current lease can release it.
    pub fn release(&self, lease: &Lease) -> Result<(), PoolError> {
        self.finish(lease, AccountState::Free, "")
    }

    /// Takes the account out of rotation with a reason (cleanup failed, leftovers remained).
    pub fn quarantine(&self, lease: &Lease, reason: &str) -> Result<(), PoolError> {
        self.finish(lease, AccountState::Quarantined, reason)
    }

    /// Puts a quarantined account back into rotation (after a person cleaned it).
    pub fn restore(&self, account_id: &str) -> Result<(), PoolError> {
        let changed = self.db.lock().execute(
            "UPDATE pool_accounts SET state = 'free', note = '' WHERE id = ?1 AND state = 'quarantined'",
            params![account_id],
        )?;
        if changed == 0 {
            return Err(PoolError::NoSuchAccount(account_id.to_owned()));
        }
        Ok(())
    }

    fn finish(&self, lease: &Lease, state: AccountState, note: &str) -> Result<(), PoolError> {
        let changed = self.db.lock().execute(
            "UPDATE pool_accounts SET state = ?1, lease_id = NULL, holder = NULL, expires_ms = NULL, note = ?2
             WHERE id = ?3 AND lease_id = ?4 AND state = 'leased'",
            params![state.as_str(), note, lease.account.id, lease.lease_id],
        )?;
        if changed == 0 {
            return Err(self.lost(lease));
        }
        Ok(())
    }

    fn lost(&self, lease: &Lease) -> PoolError {
        PoolError::LeaseLost {
            account_id: lease.account.id.clone(),
            lease_id: lease.lease_id.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn account(n: usize) -> PoolAccount {
        PoolAccount {
            id: format!("acct-{n}"),
            name: format!("pool-{n}"),
            endpoint: "http://127.0.0.1:1".into(),
            key: AccessKey {
                access_key_id: format!("LTAI{n}"),
                access_key_secret: format!("secret{n}"),
            },
        }
    }

    #[test]
    fn concurrent_leases_never_share_an_account() {
        let pool = std::sync::Arc::new(AccountPool::in_memory(Duration::from_secs(60)).unwrap());
        for n in 0..5 {
            pool.add(&account(n)).unwrap();
        }
        let threads: Vec<_> = (0..8)
            .map(|t| {
                let pool = pool.clone();
                std::thread::spawn(move || pool.lease(&format!("task-{t}")))
            })
            .collect();
        let results: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        let mut leased: Vec<String> = results
            .iter()
            .filter_map(|r| r.as_ref().ok())
            .map(|l| l.account.id.clone())
            .collect();
        leased.sort();
        leased.dedup();
        assert_eq!(leased.len(), 5, "five accounts, five distinct leases");
        let exhausted = results
            .iter()
            .filter(|r| matches!(r, Err(PoolError::Exhausted { total: 5 })))
            .count();
        assert_eq!(exhausted, 3);
    }

    #[test]
    fn an_expired_lease_comes_back_and_its_old_holder_cannot_release_it() {
        let pool = AccountPool::in_memory(Duration::from_millis(30)).unwrap();
        pool.add(&account(0)).unwrap();
        let crashed = pool.lease("crashed-task").unwrap();
        assert!(matches!(pool.lease("next"), Err(PoolError::Exhausted { .. })));
        std::thread::sleep(Duration::from_millis(60));
        let next = pool.lease("next").unwrap();
        assert_eq!(next.account.id, crashed.account.id);
        let err = pool.release(&crashed).unwrap_err();
        assert!(matches!(err, PoolError::LeaseLost { .. }), "{err}");
        let mut next = next;
        pool.renew(&mut next).unwrap();
        pool.release(&next).unwrap();
        assert_eq!(pool.list().unwrap()[0].state, AccountState::Free);
    }

    #[test]
    fn leases_survive_a_restart_and_quarantine_takes_an_account_out() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pool.db");
        let held = {
            let pool = AccountPool::open(&path, Duration::from_secs(60)).unwrap();
            pool.add(&account(0)).unwrap();
            pool.add(&account(1)).unwrap();
            pool.lease("before-restart").unwrap()
        };
        let pool = AccountPool::open(&path, Duration::from_secs(60)).unwrap();
        let other = pool.lease("after-restart").unwrap();
        assert_ne!(
            other.account.id, held.account.id,
            "a restarted pool does not double-lease"
        );
        pool.quarantine(&other, "2 leftovers: vpc-1, i-2").unwrap();
        assert!(matches!(pool.lease("x"), Err(PoolError::Exhausted { total: 2 })));
        let listed = pool.list().unwrap();
        let quarantined = listed.iter().find(|a| a.account.id == other.account.id).unwrap();
        assert_eq!(quarantined.state, AccountState::Quarantined);
        assert_eq!(quarantined.note, "2 leftovers: vpc-1, i-2");
        pool.restore(&other.account.id).unwrap();
        assert_eq!(pool.lease("x").unwrap().account.id, other.account.id);
    }
}
