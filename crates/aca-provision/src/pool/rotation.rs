//! AccessKey rotation through RAM: a new key is created with the old one, proven to work, and the
//! old key is deleted with the new one; on demand for one account, or for every key past an age.

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::Value;

use super::store::{AccountPool, PoolError};
use crate::emulator::{AccessKey, CallError, Client};

#[derive(Debug, thiserror::Error)]
pub enum RotationError {
    #[error(transparent)]
    Pool(#[from] PoolError),
    #[error("rotating the key of {account}: {step}: {error}")]
    Api {
        account: String,
        step: &'static str,
        error: CallError,
    },
}

/// A rotated account: its old and new AccessKey ids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rotated {
    pub account_id: String,
    pub old_key_id: String,
    pub new_key_id: String,
}

fn ram() -> &'static str {
    aca_console::products::by_code("ram").map_or("2015-05-01", |p| p.version)
}

/// Rotates the root AccessKey of one free account. The account is leased meanwhile, so no task
/// holds the old key while it goes away.
pub async fn rotate(pool: &AccountPool, account_id: &str) -> Result<Rotated, RotationError> {
    let mut lease = pool.lease_account(account_id, "key rotation")?;
    let result = rotate_leased(pool, &mut lease).await;
    match &result {
        // The old key could not be deleted: it still works, so a person must look.
        Err(
            e @ RotationError::Api {
                step: "DeleteAccessKey",
                ..
            },
        ) => pool.quarantine(&lease, &e.to_string())?,
        // Before the new key was recorded, the account is as it was.
        _ => pool.release(&lease)?,
    }
    result
}

async fn rotate_leased(pool: &AccountPool, lease: &mut super::store::Lease) -> Result<Rotated, RotationError> {
    let account = lease.account.id.clone();
    let api = |step: &'static str| {
        let account = account.clone();
        move |error: CallError| RotationError::Api { account, step, error }
    };
    let old = lease.account.key.clone();
    let old_client = Client::new(&lease.account.endpoint, old.clone()).map_err(api("connecting"))?;
    let created = old_client
        .rpc(ram(), "CreateAccessKey", "cn-hangzhou", &BTreeMap::new())
        .await
        .map_err(api("CreateAccessKey"))?;
    let field = |k: &str| {
        created
            .pointer(&format!("/AccessKey/{k}"))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let new = AccessKey {
        access_key_id: field("AccessKeyId"),
        access_key_secret: field("AccessKeySecret"),
    };
    let new_client = Client::new(&lease.account.endpoint, new.clone()).map_err(api("connecting"))?;
    // The new key must work before the old one goes.
    new_client
        .rpc(ram(), "ListAccessKeys", "cn-hangzhou", &BTreeMap::new())
        .await
        .map_err(api("trying the new key"))?;
    pool.set_key(lease, &new)?;
    let delete = BTreeMap::from([("UserAccessKeyId".to_owned(), old.access_key_id.clone())]);
    new_client
        .rpc(ram(), "DeleteAccessKey", "cn-hangzhou", &delete)
        .await
        .map_err(api("DeleteAccessKey"))?;
    Ok(Rotated {
        account_id: account,
        old_key_id: old.access_key_id,
        new_key_id: new.access_key_id,
    })
}

/// Rotates every free account whose key is older than `max_age` (the scheduled rotation).
pub async fn rotate_due(pool: &AccountPool, max_age: Duration) -> Result<Vec<Rotated>, RotationError> {
    let mut rotated = Vec::new();
    for account_id in pool.keys_older_than(max_age)? {
        rotated.push(rotate(pool, &account_id).await?);
    }
    Ok(rotated)
}
