//! Health checks of pool accounts through the API (the key works; the ECS quotas leave room for a
//! run; what resources are left from earlier runs) and the cleanup of those leftovers before an
//! account returns to the pool.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::store::{AccountPool, Lease, PoolAccount, PoolError};
use crate::applier::Applier;
use crate::emulator::types::{Cx, resource_type};
use crate::emulator::{CallError, Client, EmulatorApplier};
use crate::state::ProvisionState;

/// One kind of resource a health check looks for, in the order cleanup deletes them (what lives in
/// a vSwitch before the vSwitch, vSwitches before their VPC).
struct Scan {
    code: &'static str,
    action: &'static str,
    items: &'static str,
    id: &'static str,
    name: &'static str,
    /// The Terraform type whose delete removes it.
    kind: &'static str,
    /// The Terraform attribute the delete call reads the name from, when it is not the id.
    name_attribute: Option<&'static str>,
}

const fn scan(
    code: &'static str,
    action: &'static str,
    items: &'static str,
    id: &'static str,
    name: &'static str,
    kind: &'static str,
) -> Scan {
    Scan {
        code,
        action,
        items,
        id,
        name,
        kind,
        name_attribute: None,
    }
}

static SCANS: &[Scan] = &[
    scan(
        "ecs",
        "DescribeInstances",
        "/Instances/Instance",
        "InstanceId",
        "InstanceName",
        "alicloud_instance",
    ),
    scan(
        "slb",
        "DescribeLoadBalancers",
        "/LoadBalancers/LoadBalancer",
        "LoadBalancerId",
        "LoadBalancerName",
        "alicloud_slb_load_balancer",
    ),
    scan(
        "slb",
        "DescribeServerCertificates",
        "/ServerCertificates/ServerCertificate",
        "ServerCertificateId",
        "ServerCertificateName",
        "alicloud_slb_server_certificate",
    ),
    scan(
        "rds",
        "DescribeDBInstances",
        "/Items/DBInstance",
        "DBInstanceId",
        "DBInstanceDescription",
        "alicloud_db_instance",
    ),
    scan(
        "kvstore",
        "DescribeInstances",
        "/Instances/KVStoreInstance",
        "InstanceId",
        "InstanceName",
        "alicloud_kvstore_instance",
    ),
    scan(
        "vpc",
        "DescribeNatGateways",
        "/NatGateways/NatGateway",
        "NatGatewayId",
        "Name",
        "alicloud_nat_gateway",
    ),
    scan(
        "vpc",
        "DescribeEipAddresses",
        "/EipAddresses/EipAddress",
        "AllocationId",
        "Name",
        "alicloud_eip_address",
    ),
    scan(
        "ecs",
        "DescribeDisks",
        "/Disks/Disk",
        "DiskId",
        "DiskName",
        "alicloud_ecs_disk",
    ),
    scan(
        "ecs",
        "DescribeSecurityGroups",
        "/SecurityGroups/SecurityGroup",
        "SecurityGroupId",
        "SecurityGroupName",
        "alicloud_security_group",
    ),
    scan(
        "vpc",
        "DescribeVSwitches",
        "/VSwitches/VSwitch",
        "VSwitchId",
        "VSwitchName",
        "alicloud_vswitch",
    ),
    scan("vpc", "DescribeVpcs", "/Vpcs/Vpc", "VpcId", "VpcName", "alicloud_vpc"),
    Scan {
        name_attribute: Some("user_name"),
        ..scan(
            "ram",
            "ListUsers",
            "/Users/User",
            "UserId",
            "UserName",
            "alicloud_ram_user",
        )
    },
    scan(
        "dns",
        "DescribeDomains",
        "/Domains/Domain",
        "DomainName",
        "DomainName",
        "alicloud_alidns_domain",
    ),
];

/// A resource found in an account that should be empty.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leftover {
    /// The Terraform type it corresponds to.
    pub kind: String,
    pub id: String,
    pub name: String,
}

impl std::fmt::Display for Leftover {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.kind, self.id)?;
        if !self.name.is_empty() {
            write!(f, " ({})", self.name)?;
        }
        Ok(())
    }
}

/// What a health check found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Health {
    /// The AccessKey authenticates and the API answers.
    pub reachable: bool,
    pub error: Option<String>,
    pub leftovers: Vec<Leftover>,
    /// The region's ECS quotas and their use (empty when the service does not report them).
    #[serde(default)]
    pub quotas: Vec<Quota>,
}

/// One quota of the account in the checked region.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Quota {
    /// In words: `pay-as-you-go vCPUs`, `security groups`.
    pub name: String,
    pub limit: i64,
    pub used: i64,
    /// What one run may need: less free than this is a shortfall.
    pub needed: i64,
}

impl Quota {
    pub fn free(&self) -> i64 {
        (self.limit - self.used).max(0)
    }
}

impl std::fmt::Display for Quota {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} of {} {} free", self.free(), self.limit, self.name)
    }
}

/// Free pay-as-you-go vCPUs a run may need (two instances of 4 vCPUs).
pub const RUN_VCPUS: i64 = 8;
/// Free security groups a run may need.
pub const RUN_SECURITY_GROUPS: i64 = 2;

impl Health {
    pub fn is_clean(&self) -> bool {
        self.reachable && self.leftovers.is_empty()
    }

    /// The quotas that leave less room than a run may need, in words.
    pub fn shortfalls(&self) -> Vec<String> {
        self.quotas
            .iter()
            .filter(|q| q.free() < q.needed)
            .map(|q| format!("quota: {q}, a run may need {}", q.needed))
            .collect()
    }
}

fn client(account: &PoolAccount) -> Result<Client, CallError> {
    Client::new(&account.endpoint, account.key.clone())
}

/// Lists what the account holds in `region`, scan by scan.
pub async fn check(account: &PoolAccount, region: &str) -> Health {
    let client = match client(account) {
        Ok(c) => c,
        Err(e) => {
            return Health {
                reachable: false,
                error: Some(e.to_string()),
                leftovers: Vec::new(),
                quotas: Vec::new(),
            };
        }
    };
    let mut leftovers = Vec::new();
    for scan in SCANS {
        let Some(version) = aca_console::products::by_code(scan.code).map(|p| p.version) else {
            continue;
        };
        let params = BTreeMap::from([("PageSize".to_owned(), "50".to_owned())]);
        match client.rpc(version, scan.action, region, &params).await {
            Ok(body) => {
                let items = body
                    .pointer(scan.items)
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                for item in items {
                    let field = |k: &str| item.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
                    leftovers.push(Leftover {
                        kind: scan.kind.to_owned(),
                        id: field(scan.id),
                        name: field(scan.name),
                    });
                }
            }
            Err(e) => {
                return Health {
                    reachable: false,
                    error: Some(e.to_string()),
                    leftovers,
                    quotas: Vec::new(),
                };
            }
        }
    }
    let security_groups = leftovers.iter().filter(|l| l.kind == "alicloud_security_group").count() as i64;
    Health {
        reachable: true,
        error: None,
        quotas: quotas(&client, region, security_groups).await,
        leftovers,
    }
}

/// The region's ECS quotas (`DescribeAccountAttributes`); none when the service does not answer.
async fn quotas(client: &Client, region: &str, security_groups: i64) -> Vec<Quota> {
    let Some(version) = aca_console::products::by_code("ecs").map(|p| p.version) else {
        return Vec::new();
    };
    let names = [
        "max-postpaid-instance-vcpu-count",
        "used-postpaid-instance-vcpu-count",
        "max-security-groups",
    ];
    let params: BTreeMap<String, String> = names
        .iter()
        .enumerate()
        .map(|(i, name)| (format!("AttributeName.{}", i + 1), (*name).to_owned()))
        .collect();
    let Ok(body) = client.rpc(version, "DescribeAccountAttributes", region, &params).await else {
        return Vec::new();
    };
    let value = |name: &str| {
        body.pointer("/AccountAttributeItems/AccountAttributeItem")
            .and_then(Value::as_array)?
            .iter()
            .find(|item| item["AttributeName"] == name)?
            .pointer("/AttributeValues/ValueItem/0/Value")
            .and_then(|v| {
                v.as_str()
                    .map(str::to_owned)
                    .or_else(|| v.as_i64().map(|n| n.to_string()))
            })?
            .parse::<i64>()
            .ok()
    };
    let mut out = Vec::new();
    if let (Some(limit), Some(used)) = (value(names[0]), value(names[1])) {
        out.push(Quota {
            name: "pay-as-you-go vCPUs".into(),
            limit,
            used,
            needed: RUN_VCPUS,
        });
    }
    if let Some(limit) = value(names[2]) {
        out.push(Quota {
            name: "security groups".into(),
            limit,
            used: security_groups,
            needed: RUN_SECURITY_GROUPS,
        });
    }
    out
}

/// Deletes what a health check found, dependents first; returns what could not be deleted.
pub async fn clean(account: &PoolAccount, region: &str, leftovers: &[Leftover]) -> Vec<(Leftover, String)> {
    let mut failures = Vec::new();
    let client = match client(account) {
        Ok(c) => c,
        Err(e) => return leftovers.iter().map(|l| (l.clone(), e.to_string())).collect(),
    };
    let cx = Cx {
        client: &client,
        region,
    };
    for scan in SCANS {
        for leftover in leftovers.iter().filter(|l| l.kind == scan.kind) {
            let Some(kind) = resource_type(&leftover.kind) else {
                continue;
            };
            let mut attrs = Map::new();
            if let Some(attribute) = scan.name_attribute {
                attrs.insert(attribute.to_owned(), Value::String(leftover.name.clone()));
            }
            match kind.delete(cx, &leftover.id, &attrs).await {
                Ok(()) => {}
                Err(CallError::Api(e)) if e.is_not_found() => {}
                Err(e) => failures.push((leftover.clone(), e.to_string())),
            }
        }
    }
    failures
}

/// What happened when a lease ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Returned {
    /// Back in the pool (`true`) or quarantined.
    pub released: bool,
    /// Resources found after the run's own destroy and removed by the cleanup.
    pub cleaned: Vec<Leftover>,
    /// Why the account was quarantined, when it was.
    pub reason: Option<String>,
}

/// Ends a lease: destroys what the run provisioned (`state`), cleans any other leftovers, and
/// releases the account, or quarantines it when something could not be removed.
pub async fn return_account(
    pool: &AccountPool,
    lease: &Lease,
    state: Option<&mut ProvisionState>,
    region: &str,
) -> Result<Returned, PoolError> {
    let mut problems = Vec::new();
    if let Some(state) = state {
        match EmulatorApplier::new(&lease.account.endpoint, lease.account.key.clone()) {
            Ok(applier) => {
                let report = applier.destroy(state).await;
                problems.extend(report.failures.iter().map(ToString::to_string));
            }
            Err(e) => problems.push(e.to_string()),
        }
    }
    let health = check(&lease.account, region).await;
    let mut cleaned = Vec::new();
    let mut last = health.clone();
    if !health.reachable {
        problems.push(format!(
            "health check failed: {}",
            health.error.clone().unwrap_or_default()
        ));
    } else if !health.leftovers.is_empty() {
        let failed = clean(&lease.account, region, &health.leftovers).await;
        problems.extend(failed.iter().map(|(l, e)| format!("{l}: {e}")));
        let after = check(&lease.account, region).await;
        problems.extend(after.leftovers.iter().map(|l| format!("still there: {l}")));
        cleaned = health
            .leftovers
            .into_iter()
            .filter(|l| !after.leftovers.contains(l))
            .collect();
        last = after;
    }
    // Clean, but without room for another run: a person must raise the quota.
    problems.extend(last.shortfalls());
    if problems.is_empty() {
        pool.release(lease)?;
        Ok(Returned {
            released: true,
            cleaned,
            reason: None,
        })
    } else {
        problems.sort();
        problems.dedup();
        let reason = problems.join("; ");
        pool.quarantine(lease, &reason)?;
        Ok(Returned {
            released: false,
            cleaned,
            reason: Some(reason),
        })
    }
}
