//! Everything that can go wrong while planning, applying, verifying or destroying a META, typed so
//! that a caller can tell bad templates from cloud errors and from missing tools.

use std::path::PathBuf;

/// An error the cloud (or the emulator) answered with.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{action}: {code} (HTTP {status}): {message}")]
pub struct ApiFailure {
    /// The API operation, e.g. `CreateVSwitch`.
    pub action: String,
    pub status: u16,
    pub code: String,
    pub message: String,
}

impl ApiFailure {
    /// Whether the error says that the resource itself does not exist (any more), rather than
    /// something the request named along the way (a region, zone, image, action or key).
    pub fn is_not_found(&self) -> bool {
        const ABOUT_THE_REQUEST: &[&str] = &["Region", "Zone", "Image", "Action", "Product", "AccessKey"];
        let says_missing = [
            "NotFound",
            "NotExist",
            "NoExist",
            "NoSuch",
            "Nonexist",
            "NotBelongToUser",
        ]
        .iter()
        .any(|marker| self.code.contains(marker));
        says_missing && !ABOUT_THE_REQUEST.iter().any(|other| self.code.contains(other))
    }
}

/// One key attribute that does not hold after apply.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyFailure {
    #[error("{resource}: {attribute} is {found:?}, expected {expected:?}")]
    Mismatch {
        resource: String,
        attribute: String,
        expected: String,
        found: String,
    },
    #[error("{resource}: the resource has no attribute {attribute} (expected {expected:?})")]
    NoSuchAttribute {
        resource: String,
        attribute: String,
        expected: String,
    },
    #[error("{resource} ({id}) does not exist")]
    Missing { resource: String, id: String },
    #[error("{resource}: the key attribute names a resource the configuration does not create")]
    NotInConfiguration { resource: String },
    #[error("{resource}: reading it failed: {error}")]
    ReadFailed { resource: String, error: String },
}

/// One resource that could not be destroyed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
#[error("{resource} ({id}): {error}")]
pub struct DestroyFailure {
    pub resource: String,
    pub id: String,
    pub error: String,
}

#[derive(Debug, thiserror::Error)]
pub enum ProvisionError {
    #[error("{file}: not valid HCL: {message}")]
    Syntax { file: String, message: String },
    #[error("{file}: {message}")]
    Invalid { file: String, message: String },
    #[error("{file}: unknown resource type {kind} (in {address}); supported: {supported}")]
    UnknownResourceType {
        file: String,
        kind: String,
        address: String,
        supported: String,
    },
    #[error("{file}: unknown data source {kind} (in {address})")]
    UnknownDataSource {
        file: String,
        kind: String,
        address: String,
    },
    #[error("{file}: {address} has an unknown argument {argument}")]
    UnknownArgument {
        file: String,
        address: String,
        argument: String,
    },
    #[error("{file}: {address} needs the argument {argument}")]
    MissingArgument {
        file: String,
        address: String,
        argument: String,
    },
    #[error("{file}: {address}: {argument}: {message}")]
    InvalidArgument {
        file: String,
        address: String,
        argument: String,
        message: String,
    },
    #[error("{file}: the variable {name} has no value and no default")]
    MissingVariable { file: String, name: String },
    #[error("{file}: {address} refers to {reference}, which the configuration does not declare")]
    UnknownReference {
        file: String,
        address: String,
        reference: String,
    },
    #[error("{file}: dependency cycle: {}", cycle.join(" -> "))]
    Cycle { file: String, cycle: Vec<String> },
    #[error("{file}: {address}: cannot evaluate: {message}")]
    Evaluation {
        file: String,
        address: String,
        message: String,
    },
    #[error("applying {address} failed: {source}")]
    Api {
        address: String,
        #[source]
        source: ApiFailure,
    },
    #[error("{address} ({id}) is still {status:?} after {waited_ms} ms (waiting for {wanted})")]
    StuckInTransition {
        address: String,
        id: String,
        status: String,
        wanted: String,
        waited_ms: u64,
    },
    #[error("cannot reach {endpoint}: {message}")]
    Transport { endpoint: String, message: String },
    #[error("{action}: unexpected response: {message}")]
    Protocol { action: String, message: String },
    /// An apply failed; what it had created was destroyed (`destroyed`), except `leftovers`.
    #[error("{cause} (cleaned up: {} destroyed{})", destroyed.len(), leftover_note(leftovers))]
    ApplyFailed {
        cause: Box<ProvisionError>,
        destroyed: Vec<String>,
        leftovers: Vec<DestroyFailure>,
    },
    #[error("verification failed: {}", list(failures))]
    Verify { failures: Vec<VerifyFailure> },
    #[error("destroy left resources behind: {}", list(failures))]
    Destroy { failures: Vec<DestroyFailure> },
    #[error(
        "neither terraform nor tofu is installed (looked for them on PATH); install Terraform >= 1.5 or OpenTofu, \
         or apply with the emulator applier"
    )]
    ToolMissing,
    #[error("{tool} {command} failed (exit status {status}): {stderr}")]
    Tool {
        tool: String,
        command: String,
        status: String,
        stderr: String,
    },
    #[error("{path}: {message}")]
    File { path: PathBuf, message: String },
}

fn list<T: std::fmt::Display>(items: &[T]) -> String {
    items.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}

fn leftover_note(leftovers: &[DestroyFailure]) -> String {
    if leftovers.is_empty() {
        String::new()
    } else {
        format!(", left behind: {}", list(leftovers))
    }
}

impl ProvisionError {
    /// The API error behind this one, if the cloud refused a call.
    pub fn api_failure(&self) -> Option<&ApiFailure> {
        match self {
            Self::Api { source, .. } => Some(source),
            Self::ApplyFailed { cause, .. } => cause.api_failure(),
            _ => None,
        }
    }
}

pub type Result<T, E = ProvisionError> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    fn failure(code: &str) -> ApiFailure {
        ApiFailure {
            action: "Describe".into(),
            status: 404,
            code: code.into(),
            message: String::new(),
        }
    }

    #[test]
    fn not_found_means_the_resource_not_the_request() {
        for code in [
            "InvalidVpcId.NotFound",
            "EntityNotExist.User",
            "NoSuchBucket",
            "ProjectNotExist",
            "InvalidDomainName.NoExist",
            "DomainRecordNotBelongToUser",
            "Forbidden.KeyNotFound",
        ] {
            assert!(failure(code).is_not_found(), "{code}");
        }
        for code in [
            "InvalidRegionId.NotFound",
            "InvalidZoneId.NotFound",
            "InvalidImageId.NotFound",
            "Throttling",
        ] {
            assert!(!failure(code).is_not_found(), "{code}");
        }
    }
}
