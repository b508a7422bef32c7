//! The account pool against the emulator: leases of real accounts, health checks that find what a
//! run left behind and quotas too small for another run, cleanup before release, quarantine when
//! cleanup fails or the quota is short.

mod common;

use std::time::Duration;

use aca_provision::emulator::local::access_key;
use aca_provision::pool::{AccountPool, AccountState, PoolAccount, check, return_account};
use aca_provision::{Applier, Suffix};
use common::{Setup, TYPICAL, meta, typical_keys};

fn pool_of(setup: &Setup, n: usize) -> AccountPool {
    let pool = AccountPool::in_memory(Duration::from_secs(60)).unwrap();
    for _ in 0..n {
        let credentials = setup.account();
        pool.add(&PoolAccount {
            id: credentials.account_id.clone(),
            name: credentials.account_name.clone(),
            endpoint: setup.emulator.url.clone(),
            key: access_key(&credentials),
        })
        .unwrap();
    }
    pool
}

#[tokio::test]
async fn a_leased_account_is_provisioned_checked_and_returned_clean() {
    let setup = Setup::new().await;
    let pool = pool_of(&setup, 2);
    let lease = pool.lease("verify start-instance").unwrap();
    let healthy = check(&lease.account, "cn-hangzhou").await;
    assert!(healthy.is_clean(), "{healthy:?}");
    let quotas: Vec<String> = healthy.quotas.iter().map(ToString::to_string).collect();
    assert_eq!(
        quotas,
        ["500 of 500 pay-as-you-go vCPUs free", "100 of 100 security groups free"]
    );
    assert!(healthy.shortfalls().is_empty());

    let applier = aca_provision::EmulatorApplier::new(&lease.account.endpoint, lease.account.key.clone()).unwrap();
    let meta = meta(TYPICAL, typical_keys());
    let mut state = applier.apply(&meta).await.unwrap();
    let instance = state.resource("alicloud_instance.web").unwrap().id.clone();
    let vpc = state.resource("alicloud_vpc.vpc").unwrap().id.clone();
    let busy = check(&lease.account, "cn-hangzhou").await;
    assert!(busy.reachable);
    let found: Vec<&str> = busy.leftovers.iter().map(|l| l.id.as_str()).collect();
    assert!(
        found.contains(&instance.as_str()) && found.contains(&vpc.as_str()),
        "{found:?}"
    );

    // The episode itself created a VPC that no META knows about.
    let extra = setup
        .call(
            &credentials_of(&setup, &lease.account.id),
            "vpc",
            "CreateVpc",
            &[
                ("VpcName", &format!("agent-made-{}", Suffix::random())),
                ("CidrBlock", "10.0.0.0/8"),
            ],
        )
        .await;
    let extra = extra["VpcId"].as_str().unwrap().to_owned();

    let returned = return_account(&pool, &lease, Some(&mut state), "cn-hangzhou")
        .await
        .unwrap();
    assert!(returned.released, "{returned:?}");
    assert_eq!(
        returned.cleaned.iter().map(|l| l.id.as_str()).collect::<Vec<_>>(),
        [extra.as_str()]
    );
    assert!(check(&lease.account, "cn-hangzhou").await.is_clean());
    let status = pool
        .list()
        .unwrap()
        .into_iter()
        .find(|a| a.account.id == lease.account.id)
        .unwrap();
    assert_eq!(status.state, AccountState::Free);
}

#[tokio::test]
async fn an_account_that_cannot_be_cleaned_is_quarantined_with_the_reason() {
    let setup = Setup::new().await;
    let pool = pool_of(&setup, 1);
    let lease = pool.lease("verify").unwrap();
    let applier = aca_provision::EmulatorApplier::new(&lease.account.endpoint, lease.account.key.clone()).unwrap();
    // A subscription instance cannot be released before it expires.
    let prepaid = TYPICAL.replace(
        "instance_charge_type = \"PostPaid\"",
        "instance_charge_type = \"PrePaid\"\n  period = 1",
    );
    let mut state = applier.apply(&meta(&prepaid, Vec::new())).await.unwrap();
    let returned = return_account(&pool, &lease, Some(&mut state), "cn-hangzhou")
        .await
        .unwrap();
    assert!(!returned.released);
    let reason = returned.reason.unwrap();
    assert!(reason.contains("ChargeTypeViolation"), "{reason}");
    let status = &pool.list().unwrap()[0];
    assert_eq!(status.state, AccountState::Quarantined);
    assert_eq!(status.note, reason);
    assert!(pool.lease("next").is_err(), "a quarantined account is not lent");
}

fn credentials_of(setup: &Setup, account_id: &str) -> aca_console::Credentials {
    setup.emulator.console.credentials(account_id).unwrap()
}

#[tokio::test]
async fn rotation_replaces_the_key_and_the_old_one_stops_working() {
    let setup = Setup::new().await;
    let pool = pool_of(&setup, 2);
    let before = pool.list().unwrap();
    let first = before[0].account.clone();
    let rotated = aca_provision::pool::rotate(&pool, &first.id).await.unwrap();
    assert_eq!(rotated.old_key_id, first.key.access_key_id);
    assert_ne!(rotated.new_key_id, rotated.old_key_id);

    let after = pool.list().unwrap();
    let account = &after.iter().find(|a| a.account.id == first.id).unwrap().account;
    assert_eq!(account.key.access_key_id, rotated.new_key_id);
    assert_eq!(
        after[0].state,
        AccountState::Free,
        "the account goes back after rotation"
    );
    assert!(check(account, "cn-hangzhou").await.is_clean(), "the new key works");
    let old = check(&first, "cn-hangzhou").await;
    assert!(!old.reachable, "the old key is refused");
    assert!(old.error.unwrap().contains("InvalidAccessKeyId"));

    // The scheduled rotation takes every key past its age.
    let due = aca_provision::pool::rotate_due(&pool, Duration::ZERO).await.unwrap();
    assert_eq!(due.len(), 2);
    let none = aca_provision::pool::rotate_due(&pool, Duration::from_secs(3600))
        .await
        .unwrap();
    assert!(none.is_empty());
}

#[tokio::test]
async fn an_account_whose_quota_leaves_no_room_for_a_run_is_quarantined() {
    let setup = Setup::with(aca_console::ConsoleConfig {
        ecs_quotas: aca_console::EcsQuotas {
            postpaid_vcpus: 6,
            security_groups: 100,
        },
        ..aca_console::ConsoleConfig::for_tests()
    })
    .await;
    let pool = pool_of(&setup, 1);
    let lease = pool.lease("verify start-instance").unwrap();
    let health = check(&lease.account, "cn-hangzhou").await;
    assert!(health.is_clean(), "nothing is left over: {health:?}");
    assert_eq!(
        health.shortfalls(),
        ["quota: 6 of 6 pay-as-you-go vCPUs free, a run may need 8"]
    );
    let returned = return_account(&pool, &lease, None, "cn-hangzhou").await.unwrap();
    assert!(!returned.released);
    assert!(
        returned
            .reason
            .as_deref()
            .is_some_and(|r| r.contains("pay-as-you-go vCPUs")),
        "{returned:?}"
    );
    let status = pool.list().unwrap().into_iter().next().unwrap();
    assert_eq!(status.state, AccountState::Quarantined);
}
