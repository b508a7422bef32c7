//! The service roles RAM's quick authorization (the Cloud Resource Access Authorization page)
//! creates for a cloud service: each role trusts the service, carries the system policy dedicated
//! to it, and exists at most once per account.
//!
//! The roles are those the help page "ACK roles" lists as assigned through RAM Quick Authorization
//! when ACK is used for the first time (alibabacloud.com/help/doc-detail/86483.htm, Jul 02, 2025 and
//! Mar 01, 2026); the descriptions are those of the Terraform page "Use Terraform to activate ACK
//! and assign service roles to ACK".

use crate::state::AccountState;

use super::ROLE;

/// One service role as quick authorization creates it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServiceRole {
    pub name: &'static str,
    /// The service principal the trust policy names (`cs.aliyuncs.com`).
    pub service: &'static str,
    pub description: &'static str,
    /// The system policy dedicated to the role.
    pub policy: &'static str,
}

const fn cs_role(name: &'static str, policy: &'static str, description: &'static str) -> ServiceRole {
    ServiceRole {
        name,
        service: "cs.aliyuncs.com",
        description,
        policy,
    }
}

/// Every service role quick authorization knows.
pub const SERVICE_ROLES: &[ServiceRole] = &[
    cs_role(
        "AliyunCSDefaultRole",
        "AliyunCSDefaultRolePolicy",
        "The cluster uses this role by default during cluster operations to access your resources in other cloud products.",
    ),
    cs_role(
        "AliyunCSManagedKubernetesRole",
        "AliyunCSManagedKubernetesRolePolicy",
        "The cluster uses this role by default to access your resources in other cloud products.",
    ),
    cs_role(
        "AliyunCSServerlessKubernetesRole",
        "AliyunCSServerlessKubernetesRolePolicy",
        "The cluster uses this role by default to access your resources in other cloud products.",
    ),
    cs_role(
        "AliyunCSKubernetesAuditRole",
        "AliyunCSKubernetesAuditRolePolicy",
        "The cluster audit function uses this role to access your resources in other cloud products.",
    ),
    cs_role(
        "AliyunCSManagedNetworkRole",
        "AliyunCSManagedNetworkRolePolicy",
        "The cluster network component uses this role to access your resources in other cloud products.",
    ),
    cs_role(
        "AliyunCSManagedCsiRole",
        "AliyunCSManagedCsiRolePolicy",
        "The storage component of the cluster uses this role to access your resources in other cloud products.",
    ),
    cs_role(
        "AliyunCSManagedCsiPluginRole",
        "AliyunCSManagedCsiPluginRolePolicy",
        "The storage component of the cluster uses this role to access your resources in other cloud products.",
    ),
    cs_role(
        "AliyunCSManagedCsiProvisionerRole",
        "AliyunCSManagedCsiProvisionerRolePolicy",
        "The storage component of the cluster uses this role to access your resources in other cloud products.",
    ),
    cs_role(
        "AliyunCSManagedCmsRole",
        "AliyunCSManagedCmsRolePolicy",
        "The CMS component of the cluster uses this role to access your resources in other cloud products.",
    ),
    cs_role(
        "AliyunCSManagedLogRole",
        "AliyunCSManagedLogRolePolicy",
        "The log component of the cluster uses this role to access your resources in other cloud products.",
    ),
    cs_role(
        "AliyunCSManagedArmsRole",
        "AliyunCSManagedArmsRolePolicy",
        "The cluster Arms plugin uses this role to access your resources in other cloud products.",
    ),
];

/// The service role of this name, if quick authorization knows it.
pub fn service_role(name: &str) -> Option<&'static ServiceRole> {
    SERVICE_ROLES.iter().find(|r| r.name == name)
}

/// The service roles whose trust policy names `service` (`cs.aliyuncs.com`).
pub fn roles_of(service: &str) -> impl Iterator<Item = &'static ServiceRole> + '_ {
    SERVICE_ROLES.iter().filter(move |r| r.service == service)
}

/// The trust policy of a role that `service` may assume.
pub fn trust_policy(service: &str) -> String {
    serde_json::json!({
        "Statement": [{
            "Action": "sts:AssumeRole",
            "Effect": "Allow",
            "Principal": { "Service": [service] },
        }],
        "Version": "1",
    })
    .to_string()
}

/// Whether the account has a role of this name.
pub fn has_role(state: &AccountState, name: &str) -> bool {
    state.stored_of(ROLE).any(|r| r.name == name)
}
