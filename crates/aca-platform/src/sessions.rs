//! Dashboard sign-ins: a user who showed their token once gets a random session id (sent back as a
//! cookie the page's scripts cannot read); the database keeps only its SHA-256, the user and when it
//! expires, so every server sharing the database knows it and a restart keeps it.

use std::sync::Arc;

use rand::RngCore as _;
use sha2::{Digest as _, Sha256};

use crate::PlatformError;
use crate::db::Db;

/// The prefix of every session id, so a leaked one is recognisable.
pub const SESSION_PREFIX: &str = "aca_s_";

/// A signed-in user, as [`Sessions::find`] sees them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub user: String,
    pub expires_ms: i64,
}

/// The sessions of one database.
#[derive(Debug, Clone)]
pub struct Sessions {
    db: Arc<Db>,
}

fn digest(id: &str) -> String {
    hex::encode(Sha256::digest(id.as_bytes()))
}

impl Sessions {
    pub fn new(db: Arc<Db>) -> Self {
        Self { db }
    }

    /// Opens a session for `user` lasting `ttl_ms`; its id, which exists nowhere else.
    pub fn open(&self, user: &str, now_ms: i64, ttl_ms: i64) -> Result<String, PlatformError> {
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        let id = format!("{SESSION_PREFIX}{}", hex::encode(bytes));
        let hashed = digest(&id);
        self.db.transaction(|sql| {
            sql.execute("DELETE FROM sessions WHERE expires_ms <= $1", &[now_ms.into()])?;
            sql.execute(
                "INSERT INTO sessions (id_sha256, user_name, created_ms, expires_ms) VALUES ($1, $2, $3, $4)",
                &[
                    hashed.as_str().into(),
                    user.into(),
                    now_ms.into(),
                    (now_ms + ttl_ms).into(),
                ],
            )?;
            Ok(())
        })?;
        Ok(id)
    }

    /// The session `id` names, unless it expired or never existed.
    pub fn find(&self, id: &str, now_ms: i64) -> Result<Option<Session>, PlatformError> {
        if !id.starts_with(SESSION_PREFIX) {
            return Ok(None);
        }
        let hashed = digest(id);
        let rows = self.db.transaction(|sql| {
            sql.query(
                "SELECT user_name, expires_ms FROM sessions WHERE id_sha256 = $1 AND expires_ms > $2",
                &[hashed.as_str().into(), now_ms.into()],
            )
        })?;
        Ok(rows.first().map(|r| Session {
            user: r.text(0),
            expires_ms: r.int(1),
        }))
    }

    /// Ends the session `id` (signing out); whether there was one.
    pub fn close(&self, id: &str) -> Result<bool, PlatformError> {
        let hashed = digest(id);
        let removed = self
            .db
            .transaction(|sql| sql.execute("DELETE FROM sessions WHERE id_sha256 = $1", &[hashed.as_str().into()]))?;
        Ok(removed > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DbUrl;

    fn sessions() -> Sessions {
        let db = Db::open(&DbUrl::SqliteMemory).unwrap();
        Sessions::new(Arc::new(db))
    }

    #[test]
    fn a_session_names_its_user_until_it_expires_or_is_closed() {
        let sessions = sessions();
        let id = sessions.open("alice", 1_000, 500).unwrap();
        assert!(id.starts_with(SESSION_PREFIX) && id.len() > 60);
        assert_eq!(sessions.find(&id, 1_200).unwrap().unwrap().user, "alice");
        assert_eq!(sessions.find(&id, 1_500).unwrap(), None, "expired");
        let other = sessions.open("bob", 2_000, 500).unwrap();
        assert_ne!(other, id);
        assert!(sessions.close(&other).unwrap());
        assert_eq!(sessions.find(&other, 2_100).unwrap(), None, "closed");
        assert!(!sessions.close(&other).unwrap());
    }

    #[test]
    fn ids_are_kept_only_as_digests_and_strangers_find_nothing() {
        let sessions = sessions();
        let id = sessions.open("alice", 0, 10_000).unwrap();
        let rows = sessions
            .db
            .transaction(|sql| sql.query("SELECT id_sha256 FROM sessions", &[]))
            .unwrap();
        assert_eq!(rows.len(), 1);
        assert_ne!(rows[0].text(0), id);
        assert_eq!(sessions.find("aca_s_00", 1).unwrap(), None);
        assert_eq!(sessions.find("not-a-session", 1).unwrap(), None);
    }
}
