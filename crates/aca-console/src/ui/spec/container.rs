//! The Container Service for Kubernetes console: its first-use gate (the activation page, then the
//! prompt to authorize the service roles in RAM) and its Clusters list.

use super::*;

pub fn ack() -> ProductSpec {
    let mut clusters = page(
        "clusters",
        "Clusters",
        "DescribeClustersV1",
        "clusters",
        "cluster_id",
        "name",
    );
    clusters.total_path = None;
    clusters.columns = vec![
        col("Cluster Name/ID", "name", ColumnKind::Text),
        col("Status", "state", ColumnKind::Status),
    ];
    ProductSpec {
        gate: Some(Gate {
            activation: Some(Activation {
                heading: s("Container Service for Kubernetes"),
                terms: s("Container Service for Kubernetes Terms of Service"),
                button: s("Activate Now"),
                action: s("OpenAckService"),
                fixed: pairs(&[("type", crate::products::cs::CONSOLE_TYPE)]),
                activated: |state| crate::products::cs::activated(state, crate::products::cs::CONSOLE_TYPE),
            }),
            roles: Some(RolesPrompt {
                message: s(
                    "When you use Container Service for Kubernetes for the first time, you must assign roles to ACK with your Alibaba Cloud account.",
                ),
                button: s("Go to RAM console"),
                service: s("cs.aliyuncs.com"),
            }),
        }),
        code: s("ack"),
        api: s("cs"),
        name: s("Container Service for Kubernetes"),
        nav: nav(&[("", &[("Clusters", "clusters")])]),
        pages: vec![clusters],
    }
}
