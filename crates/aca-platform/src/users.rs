//! The users every server on the database knows: a name, the SHA-256 of their token (never the
//! token) and the accounts they may run in, so that a user made on one server signs in on all.

use std::sync::Arc;

use crate::PlatformError;
use crate::db::Db;

/// One user as the database keeps them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserRow {
    pub name: String,
    pub token_sha256: [u8; 32],
    pub accounts: Vec<String>,
}

/// The users of one database.
#[derive(Debug, Clone)]
pub struct UserRows {
    db: Arc<Db>,
}

impl UserRows {
    pub fn new(db: Arc<Db>) -> Self {
        Self { db }
    }

    /// Every user, by name.
    pub fn all(&self) -> Result<Vec<UserRow>, PlatformError> {
        let rows = self
            .db
            .transaction(|sql| sql.query("SELECT name, token_sha256, accounts FROM users ORDER BY name", &[]))?;
        rows.iter()
            .map(|row| {
                let name = row.text(0);
                let unreadable = |what: &str| PlatformError::Database(format!("user {name}'s {what} is unreadable"));
                let token_sha256 = hex::decode(row.text(1))
                    .ok()
                    .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
                    .ok_or_else(|| unreadable("token digest"))?;
                let accounts = serde_json::from_str(&row.text(2)).map_err(|_| unreadable("accounts"))?;
                Ok(UserRow {
                    name,
                    token_sha256,
                    accounts,
                })
            })
            .collect()
    }

    /// Keeps a new user; `false` when one of that name exists already (nothing is changed then).
    pub fn insert(&self, user: &UserRow, now_ms: i64) -> Result<bool, PlatformError> {
        let accounts = serde_json::to_string(&user.accounts).map_err(|e| PlatformError::Database(e.to_string()))?;
        let added = self.db.transaction(|sql| {
            sql.execute(
                "INSERT INTO users (name, token_sha256, accounts, created_ms) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (name) DO NOTHING",
                &[
                    user.name.as_str().into(),
                    hex::encode(user.token_sha256).as_str().into(),
                    accounts.as_str().into(),
                    now_ms.into(),
                ],
            )
        })?;
        Ok(added == 1)
    }
}
