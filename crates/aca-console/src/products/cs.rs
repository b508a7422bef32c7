//! Container Service for Kubernetes (CS, API 2015-12-15): the activation of the service
//! (`OpenAckService`, which places the activation order) and the cluster list (`DescribeClustersV1`).
//!
//! The real API is ROA (`POST /service/open?type=propayasgo`, `GET /api/v1/clusters`); the emulator
//! serves the same operations, parameters and response fields through its RPC dispatch. Clusters
//! cannot be created here, so the list is the account's clusters as provisioning left them: none.
//! Events carry `serviceName: CS` and `eventSource: cs.aliyuncs.com`.

use serde_json::{Value, json};

use crate::catalog::{OpCtx, Operation, Product};
use crate::error::ApiError;
use crate::model::Resource;
use crate::params::Params;
use crate::products::provisioning::order_id;
use crate::state::AccountState;

pub static PRODUCT: Product = Product {
    code: "cs",
    name: "Container Service for Kubernetes",
    service_name: "CS",
    version: "2015-12-15",
    endpoint: "cs.aliyuncs.com",
    console_agent: "cs.console.aliyun.com",
    operations: &[
        Operation::write("OpenAckService", open_ack_service),
        Operation::read("DescribeClustersV1", describe_clusters),
    ],
};

/// An activated billing method of the service (its `type`), one per method.
pub const ACTIVATION: &str = "cs.activation";
/// A cluster.
pub const CLUSTER: &str = "cs.cluster";
/// The billing methods `OpenAckService` accepts: ACK, and ACK Edge.
const TYPES: &[&str] = &["propayasgo", "edgepayasgo"];
/// The method the console's activation page orders.
pub const CONSOLE_TYPE: &str = "propayasgo";

/// Whether the account has activated the service with this billing method.
pub fn activated(state: &AccountState, kind: &str) -> bool {
    state.stored_of(ACTIVATION).any(|r| r.id == kind)
}

fn open_ack_service(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let kind = p
        .one_of("type", TYPES)?
        .ok_or_else(|| ApiError::missing_parameter("type"))?;
    let order = order_id();
    if !ctx.list_all(ACTIVATION).iter().any(|r| r.id == kind) {
        let activation = Resource::new(ACTIVATION, kind.to_owned(), "global", kind, "Opened", ctx.now_ms)
            .with("OrderId", order.clone());
        ctx.put(activation);
    }
    Ok(json!({ "order_id": order }))
}

fn describe_clusters(ctx: &mut OpCtx<'_>, p: &Params) -> Result<Value, ApiError> {
    let page_size = p.int_in("page_size", 1..=100, 10)?;
    let page_number = p.int_in("page_number", 1..=i64::MAX, 1)?;
    let clusters: Vec<Value> = ctx
        .list(CLUSTER)
        .iter()
        .map(|c| json!({ "cluster_id": c.id, "name": c.name, "state": c.status, "region_id": c.region }))
        .collect();
    let total = clusters.len();
    let start = usize::try_from((page_number - 1).saturating_mul(page_size)).unwrap_or(usize::MAX);
    let page: Vec<Value> = clusters
        .into_iter()
        .skip(start)
        .take(usize::try_from(page_size).unwrap_or(10))
        .collect();
    Ok(json!({
        "clusters": page,
        "page_info": { "page_number": page_number, "page_size": page_size, "total_count": total },
    }))
}

#[cfg(test)]
mod tests;
