//! Secrets the run made while provisioning (the password an instance was created with), as the
//! agent sees them: a placeholder it types, never the value, which only the driver holds and puts
//! in at the last moment.

use serde::{Deserialize, Serialize};

/// What kind of secret a placeholder stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SecretKind {
    /// The password a resource (and the account it starts with) was created with: the old or
    /// current password a change-password form asks for.
    Password,
}

/// One secret the agent may type, by placeholder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecretRef {
    pub kind: SecretKind,
    /// The id of the resource the secret belongs to.
    pub resource: String,
    /// What the agent types in its place (`{{secret:1}}`).
    pub placeholder: String,
}

impl SecretRef {
    /// The placeholder of the run's `n`-th secret.
    pub fn placeholder_for(n: usize) -> String {
        format!("{{{{secret:{n}}}}}")
    }

    /// The report's line for it, for the prompt.
    pub fn describe(&self) -> String {
        match self.kind {
            SecretKind::Password => format!(
                "The password {} and its first account were created with is known to the run: type {} where the console asks for it (the current or old password).",
                self.resource, self.placeholder
            ),
        }
    }
}
