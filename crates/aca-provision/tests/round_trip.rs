//! Apply → verify → destroy against the emulator on a real port, through the signed OpenAPI.

mod common;

use aca_provision::{Applier, ProvisionError, ProvisionState, ResourceReport, VerifyFailure, bindings};
use common::{Setup, TYPICAL, key, meta, typical_keys};
use serde_json::Value;

#[tokio::test]
async fn the_typical_meta_applies_verifies_and_destroys_leaving_nothing() {
    let setup = Setup::new().await;
    let account = setup.account();
    let applier = setup.applier(&account);
    let meta = meta(TYPICAL, typical_keys());
    let suffix = meta.suffix.to_string();

    let plan = applier.plan(&meta).await.unwrap();
    let order: Vec<&str> = plan.steps.iter().map(|s| s.address.as_str()).collect();
    assert_eq!(
        order,
        [
            "alicloud_vpc.vpc",
            "alicloud_vswitch.vswitch",
            "alicloud_security_group.sg",
            "alicloud_instance.web"
        ]
    );
    assert_eq!(
        plan.steps[3].depends_on,
        ["alicloud_security_group.sg", "alicloud_vswitch.vswitch"]
    );
    assert_eq!(plan.steps[3].operation, "RunInstances");
    assert_eq!(setup.resources(&account), 0, "planning creates nothing");

    let mut state = applier.apply(&meta).await.unwrap();
    let instance = state.resource("alicloud_instance.web").unwrap();
    assert!(instance.id.starts_with("i-"), "{}", instance.id);
    assert_eq!(instance.attribute("status").as_deref(), Some("Running"));
    let vswitch = state.resource("alicloud_vswitch.vswitch").unwrap();
    assert_eq!(vswitch.attribute("cidr_block").as_deref(), Some("192.168.1.0/24"));

    // The instance really exists in the account, with the suffixed name.
    let described = setup
        .call(
            &account,
            "ecs",
            "DescribeInstances",
            &[("InstanceIds", &format!("[\"{}\"]", instance.id))],
        )
        .await;
    assert_eq!(
        described
            .pointer("/Instances/Instance/0/InstanceName")
            .and_then(Value::as_str),
        Some(format!("web-{suffix}").as_str())
    );

    let verified = applier.verify(&meta, &state).await.unwrap();
    assert_eq!(verified.resources.len(), 4);
    assert_eq!(verified.checked.len(), typical_keys().len());

    let b = bindings(&state);
    assert_eq!(b["web_id"], instance.id);
    assert_eq!(b["web_name"], format!("web-{suffix}"));
    assert_eq!(b["vpc_name"], format!("doc-vpc-{suffix}"));
    assert_eq!(b["sg_name"], format!("doc-sg-{suffix}"));
    assert_eq!(b["suffix"], suffix);
    let report = ResourceReport::new(&meta.description, &state, &meta.key_attributes).to_text();
    assert!(
        report.contains(&format!(
            "ECS alicloud_instance: id {}, name web-{suffix}, zone cn-hangzhou-h",
            instance.id
        )),
        "{report}"
    );
    assert!(report.contains("status Running"), "{report}");

    let destroyed = applier.destroy(&mut state).await;
    assert!(destroyed.failures.is_empty(), "{:?}", destroyed.failures);
    assert_eq!(
        destroyed.destroyed,
        [
            "alicloud_instance.web",
            "alicloud_security_group.sg",
            "alicloud_vswitch.vswitch",
            "alicloud_vpc.vpc"
        ],
        "destroyed in reverse dependency order"
    );
    assert_eq!(setup.resources(&account), 0, "the account holds nothing afterwards");
    assert!(state.resources.is_empty());

    let again = applier.destroy(&mut state).await;
    assert!(
        again.failures.is_empty() && again.destroyed.is_empty(),
        "destroy is idempotent"
    );
}

#[tokio::test]
async fn verify_names_the_attribute_that_no_longer_holds() {
    let setup = Setup::new().await;
    let account = setup.account();
    let applier = setup.applier(&account);
    let meta = meta(TYPICAL, typical_keys());
    let mut state = applier.apply(&meta).await.unwrap();
    let instance = state.resource("alicloud_instance.web").unwrap().id.clone();
    setup
        .call(&account, "ecs", "StopInstance", &[("InstanceId", &instance)])
        .await;

    let err = applier.verify(&meta, &state).await.unwrap_err();
    let ProvisionError::Verify { failures } = &err else {
        panic!("{err}")
    };
    assert_eq!(
        failures,
        &[VerifyFailure::Mismatch {
            resource: "alicloud_instance.web".into(),
            attribute: "status".into(),
            expected: "Running".into(),
            found: "Stopped".into(),
        }]
    );
    assert!(
        err.to_string()
            .contains("alicloud_instance.web: status is \"Stopped\", expected \"Running\""),
        "{err}"
    );

    let vpc = state.resource("alicloud_vpc.vpc").unwrap().id.clone();
    let report = applier.destroy(&mut state).await;
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let err = applier
        .verify(&meta, &{
            let mut gone = state.clone();
            gone.resources.push(aca_provision::ResourceRecord {
                address: "alicloud_vpc.vpc".into(),
                kind: "alicloud_vpc".into(),
                name: "vpc".into(),
                index: None,
                id: vpc.clone(),
                region: "cn-hangzhou".into(),
                product: "VPC".into(),
                attributes: serde_json::Map::new(),
                done: aca_provision::state::Done::Created,
            });
            gone
        })
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains(&format!("alicloud_vpc.vpc ({vpc}) does not exist")),
        "{err}"
    );
}

#[tokio::test]
async fn a_stopped_instance_is_asked_for_with_status() {
    let setup = Setup::new().await;
    let account = setup.account();
    let applier = setup.applier(&account);
    let stopped = TYPICAL.replace(
        "instance_charge_type = \"PostPaid\"",
        "instance_charge_type = \"PostPaid\"\n  status = \"Stopped\"",
    );
    let meta = meta(&stopped, vec![key("alicloud_instance.web", "status", "Stopped")]);
    let mut state = applier.apply(&meta).await.unwrap();
    applier.verify(&meta, &state).await.unwrap();
    assert!(applier.destroy(&mut state).await.failures.is_empty());
    assert_eq!(setup.resources(&account), 0);
}

#[tokio::test]
async fn a_failed_apply_destroys_what_it_created_and_reports_the_api_error() {
    let setup = Setup::new().await;
    let account = setup.account();
    let applier = setup.applier(&account);
    let broken = TYPICAL.replace("cidrsubnet(alicloud_vpc.vpc.cidr_block, 8, 1)", "\"10.0.0.0/24\"");
    let err = applier.apply(&meta(&broken, Vec::new())).await.unwrap_err();
    let ProvisionError::ApplyFailed {
        cause,
        destroyed,
        leftovers,
    } = &err
    else {
        panic!("{err}")
    };
    let api = err.api_failure().expect("the API error is kept");
    assert_eq!(
        (api.action.as_str(), api.code.as_str()),
        ("CreateVSwitch", "InvalidParameter")
    );
    assert!(matches!(cause.as_ref(), ProvisionError::Api { address, .. } if address == "alicloud_vswitch.vswitch"));
    assert_eq!(destroyed, &["alicloud_vpc.vpc"]);
    assert!(leftovers.is_empty());
    assert!(err.to_string().contains("not inside the VPC's CIDR block"), "{err}");
    assert_eq!(setup.resources(&account), 0, "nothing leaks");

    // A failure at the last resource destroys the three before it, newest first.
    let broken = TYPICAL.replace("ecs.g7.large", "ecs.nonexistent.large");
    let err = applier.apply(&meta(&broken, Vec::new())).await.unwrap_err();
    let ProvisionError::ApplyFailed { destroyed, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(
        destroyed,
        &[
            "alicloud_security_group.sg",
            "alicloud_vswitch.vswitch",
            "alicloud_vpc.vpc"
        ]
    );
    assert_eq!(
        err.api_failure().map(|a| a.code.as_str()),
        Some("InvalidInstanceType.ValueNotSupported")
    );
    assert_eq!(setup.resources(&account), 0, "nothing leaks");
}

#[tokio::test]
async fn a_destroy_failure_is_reported_and_the_rest_is_still_destroyed() {
    let setup = Setup::new().await;
    let account = setup.account();
    let applier = setup.applier(&account);
    let meta = meta(TYPICAL, Vec::new());
    let mut state = applier.apply(&meta).await.unwrap();
    // Someone else's vSwitch in the VPC keeps the VPC from being deleted.
    let vpc = state.resource("alicloud_vpc.vpc").unwrap().id.clone();
    let extra = setup
        .call(
            &account,
            "vpc",
            "CreateVSwitch",
            &[
                ("VpcId", &vpc),
                ("ZoneId", "cn-hangzhou-i"),
                ("CidrBlock", "192.168.9.0/24"),
            ],
        )
        .await;
    let report = applier.destroy(&mut state).await;
    assert_eq!(report.destroyed.len(), 3);
    assert_eq!(report.failures.len(), 1);
    assert_eq!(report.failures[0].resource, "alicloud_vpc.vpc");
    assert!(
        report.failures[0].error.contains("DependencyViolation"),
        "{}",
        report.failures[0].error
    );
    assert_eq!(
        state.resources.len(),
        1,
        "the VPC stays in the state for a later destroy"
    );
    let err = report.clone().into_result().unwrap_err();
    assert!(
        err.to_string()
            .contains("destroy left resources behind: alicloud_vpc.vpc"),
        "{err}"
    );

    let extra = extra["VSwitchId"].as_str().unwrap().to_owned();
    setup
        .call(&account, "vpc", "DeleteVSwitch", &[("VSwitchId", &extra)])
        .await;
    let retry = applier.destroy(&mut state).await;
    assert_eq!(retry.destroyed, ["alicloud_vpc.vpc"]);
    assert_eq!(setup.resources(&account), 0);
}

#[tokio::test]
async fn the_state_file_lets_a_later_process_verify_and_destroy() {
    let setup = Setup::new().await;
    let account = setup.account();
    let meta = meta(TYPICAL, typical_keys());
    let state = setup.applier(&account).apply(&meta).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    state.save(&path).unwrap();

    let mut loaded = ProvisionState::load(&path).unwrap();
    assert_eq!(loaded, state);
    let later = setup.applier(&account);
    later.verify(&meta, &loaded).await.unwrap();
    assert!(later.destroy(&mut loaded).await.failures.is_empty());
    assert_eq!(setup.resources(&account), 0);
}

#[tokio::test]
async fn a_resource_stuck_in_a_transition_is_a_typed_error() {
    let config = aca_console::ConsoleConfig {
        transition_delay_ms: 60_000,
        ..aca_console::ConsoleConfig::for_tests()
    };
    let setup = Setup::with(config).await;
    let account = setup.account();
    let applier = setup.applier(&account).with_wait(aca_provision::WaitPolicy {
        interval: std::time::Duration::from_millis(20),
        timeout: std::time::Duration::from_millis(200),
    });
    let err = applier.apply(&meta(TYPICAL, Vec::new())).await.unwrap_err();
    let ProvisionError::ApplyFailed { cause, leftovers, .. } = &err else {
        panic!("{err}")
    };
    match cause.as_ref() {
        ProvisionError::StuckInTransition {
            address,
            status,
            wanted,
            ..
        } => {
            assert_eq!(address, "alicloud_vpc.vpc");
            assert_eq!(status, "Pending");
            assert_eq!(wanted, "Available");
        }
        other => panic!("{other}"),
    }
    // A Pending VPC cannot be deleted yet: the leftover is reported, not hidden.
    assert_eq!(leftovers.len(), 1, "{err}");
    assert_eq!(leftovers[0].resource, "alicloud_vpc.vpc");
}

#[tokio::test]
async fn a_quota_error_is_typed_with_its_code_and_nothing_leaks() {
    let setup = Setup::new().await;
    let account = setup.account();
    let applier = setup.applier(&account);
    // A /29 vSwitch holds 4 usable private addresses: the fifth instance exceeds the quota.
    let crowded = TYPICAL
        .replace("cidrsubnet(alicloud_vpc.vpc.cidr_block, 8, 1)", "\"192.168.1.0/29\"")
        .replace(
            "resource \"alicloud_instance\" \"web\" {",
            "resource \"alicloud_instance\" \"web\" {\n  count                = 5",
        )
        .replace(
            "instance_name        = \"web-${var.suffix}\"",
            "instance_name        = \"web-${count.index}-${var.suffix}\"",
        );
    assert!(crowded.contains("count                = 5"), "{crowded}");
    let err = applier.apply(&meta(&crowded, Vec::new())).await.unwrap_err();
    let api = err.api_failure().expect("the API error is kept");
    assert_eq!(
        (api.action.as_str(), api.code.as_str()),
        ("RunInstances", "QuotaExceeded.PrivateIpAddress"),
        "{err}"
    );
    let ProvisionError::ApplyFailed {
        destroyed, leftovers, ..
    } = &err
    else {
        panic!("{err}")
    };
    assert!(
        destroyed
            .iter()
            .filter(|a| a.starts_with("alicloud_instance.web"))
            .count()
            == 4,
        "{destroyed:?}"
    );
    assert!(leftovers.is_empty(), "{leftovers:?}");
    assert_eq!(setup.resources(&account), 0, "nothing leaks");
}
