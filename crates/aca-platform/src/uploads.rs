//! Report files that a run elsewhere (a Kubernetes pod) sends back: the token that lets one attempt
//! of one job, and nothing else, upload its files. Tokens are signed (HMAC-SHA256) with a key the
//! database makes once and keeps, so every server sharing the database accepts them and a restart
//! changes nothing; no token is stored.

use std::sync::Arc;

use hmac::{Hmac, Mac as _};
use rand::RngCore as _;
use sha2::Sha256;

use crate::PlatformError;
use crate::db::Db;

const KEY_NAME: &str = "upload";

/// Makes and checks the upload tokens of one database's runs.
#[derive(Clone)]
pub struct UploadTokens {
    key: [u8; 32],
}

impl std::fmt::Debug for UploadTokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("UploadTokens { key: <hidden> }")
    }
}

impl UploadTokens {
    /// The database's upload key, made on first use.
    pub fn open(db: &Arc<Db>) -> Result<Self, PlatformError> {
        let mut fresh = [0u8; 32];
        rand::rng().fill_bytes(&mut fresh);
        let rows = db.transaction(|sql| {
            sql.execute(
                "INSERT INTO platform_keys (name, key_hex) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
                &[KEY_NAME.into(), hex::encode(fresh).into()],
            )?;
            sql.query("SELECT key_hex FROM platform_keys WHERE name = $1", &[KEY_NAME.into()])
        })?;
        let stored = rows
            .first()
            .map(|r| r.text(0))
            .ok_or_else(|| PlatformError::Database("the upload key was not kept".into()))?;
        let key = hex::decode(&stored)
            .ok()
            .and_then(|k| <[u8; 32]>::try_from(k).ok())
            .ok_or_else(|| PlatformError::Database("the stored upload key is not 32 bytes".into()))?;
        Ok(Self { key })
    }

    fn mac(&self, job_id: &str, attempt: i64) -> Hmac<Sha256> {
        let mut mac = <Hmac<Sha256>>::new_from_slice(&self.key).expect("HMAC takes a key of any length");
        mac.update(format!("upload\n{job_id}\n{attempt}").as_bytes());
        mac
    }

    /// The token for the report files of `attempt` of `job_id`.
    pub fn token(&self, job_id: &str, attempt: i64) -> String {
        hex::encode(self.mac(job_id, attempt).finalize().into_bytes())
    }

    /// Whether `token` is that attempt's, compared in constant time.
    pub fn check(&self, job_id: &str, attempt: i64, token: &str) -> bool {
        match hex::decode(token.trim()) {
            Ok(given) => self.mac(job_id, attempt).verify_slice(&given).is_ok(),
            Err(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DbUrl;

    #[test]
    fn a_token_lets_one_attempt_of_one_job_upload_and_the_key_outlives_the_connection() {
        let dir = tempfile::tempdir().unwrap();
        let url = DbUrl::Sqlite(dir.path().join("results.db"));
        let tokens = UploadTokens::open(&Arc::new(Db::open(&url).unwrap())).unwrap();
        let token = tokens.token("job-1", 2);
        assert!(tokens.check("job-1", 2, &token));
        assert!(!tokens.check("job-1", 3, &token));
        assert!(!tokens.check("job-2", 2, &token));
        assert!(!tokens.check("job-1", 2, "not hex"));
        assert!(!tokens.check("job-1", 2, &token[..10]));
        let again = UploadTokens::open(&Arc::new(Db::open(&url).unwrap())).unwrap();
        assert!(again.check("job-1", 2, &token), "a restarted server accepts the token");
    }
}
