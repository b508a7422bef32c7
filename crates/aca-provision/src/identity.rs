//! The provisioner's own identity in an emulator account: a RAM user made for one run, with its own
//! AccessKey, so that every call the provisioner makes is recorded in ActionTrail under a name the
//! rule channel can tell apart from the procedure's (see `aca_reward::ProvisionerCalls`).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::emulator::{AccessKey, CallError, Client};
use crate::suffix::Suffix;

/// Every provisioner user's name starts with this.
pub const USER_PREFIX: &str = "aca-provisioner-";
/// The system policy the provisioner holds: it creates whatever a procedure needs.
const POLICY: &str = "AdministratorAccess";
/// RAM is global; its calls carry this region.
const RAM_REGION: &str = "cn-hangzhou";

fn ram_version() -> &'static str {
    aca_console::products::by_code("ram").map_or("2015-05-01", |p| p.version)
}

/// Why the provisioner's identity could not be made or removed.
#[derive(Debug, thiserror::Error)]
#[error("the provisioner's RAM user {user}: {step} failed: {error}")]
pub struct IdentityError {
    pub user: String,
    pub step: &'static str,
    #[source]
    pub error: CallError,
}

/// A RAM user of the run's account that the provisioner acts as; [`ProvisionerIdentity::remove`]
/// deletes it again.
#[derive(Debug, Clone)]
pub struct ProvisionerIdentity {
    pub user_name: String,
    /// The user's AccessKey: what the appliers sign with.
    pub key: AccessKey,
    endpoint: String,
    owner: AccessKey,
}

impl ProvisionerIdentity {
    /// Creates the user with `owner` (the account's root key), grants it administrator access and
    /// gives it an AccessKey. What was made before a failing step is removed again.
    pub async fn create(endpoint: &str, owner: AccessKey, suffix: &Suffix) -> Result<Self, IdentityError> {
        let user_name = format!("{USER_PREFIX}{suffix}");
        let fail = |step: &'static str| {
            let user = user_name.clone();
            move |error: CallError| IdentityError { user, step, error }
        };
        let client = Client::new(endpoint, owner.clone()).map_err(fail("connecting"))?;
        let user = BTreeMap::from([("UserName".to_owned(), user_name.clone())]);
        let mut created = user.clone();
        created.insert("DisplayName".into(), "ACA provisioner".into());
        created.insert(
            "Comments".into(),
            "Creates the resources of one verification run".into(),
        );
        client
            .rpc(ram_version(), "CreateUser", RAM_REGION, &created)
            .await
            .map_err(fail("CreateUser"))?;
        let mut identity = Self {
            user_name: user_name.clone(),
            key: AccessKey {
                access_key_id: String::new(),
                access_key_secret: String::new(),
            },
            endpoint: endpoint.to_owned(),
            owner,
        };
        let made = async {
            let mut attach = user.clone();
            attach.insert("PolicyType".into(), "System".into());
            attach.insert("PolicyName".into(), POLICY.into());
            client
                .rpc(ram_version(), "AttachPolicyToUser", RAM_REGION, &attach)
                .await
                .map_err(fail("AttachPolicyToUser"))?;
            let answer = client
                .rpc(ram_version(), "CreateAccessKey", RAM_REGION, &user)
                .await
                .map_err(fail("CreateAccessKey"))?;
            let field = |k: &str| answer.pointer(&format!("/AccessKey/{k}")).and_then(Value::as_str);
            match (field("AccessKeyId"), field("AccessKeySecret")) {
                (Some(id), Some(secret)) => Ok(AccessKey {
                    access_key_id: id.to_owned(),
                    access_key_secret: secret.to_owned(),
                }),
                _ => Err(IdentityError {
                    user: user_name.clone(),
                    step: "CreateAccessKey",
                    error: CallError::Protocol {
                        action: "CreateAccessKey".into(),
                        message: format!("no AccessKey in {answer}"),
                    },
                }),
            }
        }
        .await;
        match made {
            Ok(key) => {
                identity.key = key;
                Ok(identity)
            }
            Err(e) => {
                let _ = identity.remove().await;
                Err(e)
            }
        }
    }

    /// Deletes the user's AccessKey, its policy and the user, each step tried whatever the one
    /// before did; the first failure is returned.
    pub async fn remove(&self) -> Result<(), IdentityError> {
        let fail = |step: &'static str| {
            let user = self.user_name.clone();
            move |error: CallError| IdentityError { user, step, error }
        };
        let client = Client::new(&self.endpoint, self.owner.clone()).map_err(fail("connecting"))?;
        let user = BTreeMap::from([("UserName".to_owned(), self.user_name.clone())]);
        let mut first = None;
        if !self.key.access_key_id.is_empty() {
            let mut key = user.clone();
            key.insert("UserAccessKeyId".into(), self.key.access_key_id.clone());
            if let Err(e) = client.rpc(ram_version(), "DeleteAccessKey", RAM_REGION, &key).await {
                first.get_or_insert(fail("DeleteAccessKey")(e));
            }
        }
        let mut detach = user.clone();
        detach.insert("PolicyType".into(), "System".into());
        detach.insert("PolicyName".into(), POLICY.into());
        if let Err(e) = client
            .rpc(ram_version(), "DetachPolicyFromUser", RAM_REGION, &detach)
            .await
        {
            let not_attached = matches!(&e, CallError::Api(a) if a.code.contains("NotExist"));
            if !not_attached {
                first.get_or_insert(fail("DetachPolicyFromUser")(e));
            }
        }
        if let Err(e) = client.rpc(ram_version(), "DeleteUser", RAM_REGION, &user).await {
            first.get_or_insert(fail("DeleteUser")(e));
        }
        first.map_or(Ok(()), Err)
    }
}
