//! Eight provisionings of the same template at once, each in its own account: unique names, no
//! account sees another's resources, every destroy leaves its account empty.

mod common;

use aca_provision::{Applier, bindings};
use common::{Setup, TYPICAL, meta, typical_keys};
use serde_json::Value;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn eight_provisionings_in_parallel_do_not_see_each_other() {
    let setup = std::sync::Arc::new(Setup::new().await);
    let mut runs = Vec::new();
    for _ in 0..8 {
        let setup = setup.clone();
        runs.push(tokio::spawn(async move {
            let account = setup.account();
            let applier = setup.applier(&account);
            let meta = meta(TYPICAL, typical_keys());
            let state = applier.apply(&meta).await.unwrap_or_else(|e| panic!("{e}"));
            applier.verify(&meta, &state).await.unwrap_or_else(|e| panic!("{e}"));
            (account, meta, state)
        }));
    }
    let mut provisioned = Vec::new();
    for run in runs {
        provisioned.push(run.await.unwrap());
    }
    let mut suffixes: Vec<String> = provisioned.iter().map(|(_, m, _)| m.suffix.to_string()).collect();
    suffixes.sort();
    suffixes.dedup();
    assert_eq!(suffixes.len(), 8, "every run has its own suffix");

    for (account, meta, state) in &provisioned {
        // Each account lists exactly its own VPC and instance.
        let vpcs = setup.call(account, "vpc", "DescribeVpcs", &[]).await;
        let names: Vec<&str> = vpcs
            .pointer("/Vpcs/Vpc")
            .and_then(Value::as_array)
            .unwrap()
            .iter()
            .filter_map(|v| v["VpcName"].as_str())
            .collect();
        assert_eq!(names, [format!("doc-vpc-{}", meta.suffix)]);
        let instances = setup.call(account, "ecs", "DescribeInstances", &[]).await;
        let ids: Vec<&str> = instances
            .pointer("/Instances/Instance")
            .and_then(Value::as_array)
            .unwrap()
            .iter()
            .filter_map(|i| i["InstanceId"].as_str())
            .collect();
        assert_eq!(ids, [bindings(state)["web_id"].as_str()]);
    }

    let mut destroys = Vec::new();
    for (account, _, mut state) in provisioned {
        let setup = setup.clone();
        destroys.push(tokio::spawn(async move {
            let report = setup.applier(&account).destroy(&mut state).await;
            assert!(report.failures.is_empty(), "{:?}", report.failures);
            assert_eq!(setup.resources(&account), 0);
        }));
    }
    for destroy in destroys {
        destroy.await.unwrap();
    }
}
