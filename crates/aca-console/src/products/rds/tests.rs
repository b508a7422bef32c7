//! Tests of RDS driven through the console.

use super::*;
use crate::products::testkit::{ON_THE_HOUR_MS, TestConsole};

fn create_mysql(h: &TestConsole, vpc_id: &str, vswitch_id: &str) -> String {
    let body = h.ok(
        &PRODUCT,
        "CreateDBInstance",
        &[
            ("Engine", "MySQL"),
            ("EngineVersion", "8.0"),
            ("DBInstanceClass", "mysql.n2.medium.1"),
            ("DBInstanceStorage", "100"),
            ("DBInstanceStorageType", "cloud_essd"),
            ("PayType", "Postpaid"),
            ("SecurityIPList", "10.0.0.0/8"),
            ("DBInstanceNetType", "Intranet"),
            ("VPCId", vpc_id),
            ("VSwitchId", vswitch_id),
            ("ZoneId", "cn-hangzhou-h"),
            ("DBInstanceDescription", "orders-db"),
        ],
    );
    body["DBInstanceId"].as_str().expect("DBInstanceId").to_owned()
}

#[test]
fn creates_and_describes_an_instance() {
    let h = TestConsole::new();
    let (vpc_id, vsw_id) = h.network();
    let body = h.ok(
        &PRODUCT,
        "CreateDBInstance",
        &[
            ("Engine", "MySQL"),
            ("EngineVersion", "8.0"),
            ("DBInstanceClass", "mysql.n2.medium.1"),
            ("DBInstanceStorage", "100"),
            ("PayType", "Postpaid"),
            ("SecurityIPList", "10.0.0.0/8,192.168.1.5"),
            ("DBInstanceNetType", "Intranet"),
            ("VPCId", &vpc_id),
            ("VSwitchId", &vsw_id),
        ],
    );
    let id = body["DBInstanceId"].as_str().unwrap();
    assert!(id.starts_with("rm-bp1"), "{id}");
    assert_eq!(body["ConnectionString"], format!("{id}.mysql.rds.aliyuncs.com"));
    assert_eq!(body["Port"], "3306");
    let event = h.newest_event();
    assert_eq!(
        (event.service_name.as_str(), event.event_name.as_str()),
        ("Rds", "CreateDBInstance")
    );
    assert_eq!(event.referenced_resources["ACS::RDS::DBInstance"], [id.to_owned()]);

    let list = h.ok(&PRODUCT, "DescribeDBInstances", &[]);
    assert_eq!(list["TotalRecordCount"], 1);
    let item = &list["Items"]["DBInstance"][0];
    assert_eq!(item["DBInstanceId"], id);
    assert_eq!(item["DBInstanceStatus"], "Running");
    assert_eq!(item["ZoneId"], "cn-hangzhou-h");
    assert_eq!(item["InstanceNetworkType"], "VPC");
    assert_eq!(item["DBInstanceStorageType"], "cloud_essd");

    let attr = h.ok(&PRODUCT, "DescribeDBInstanceAttribute", &[("DBInstanceId", id)]);
    let attr = &attr["Items"]["DBInstanceAttribute"][0];
    assert_eq!(attr["DBInstanceStorage"], 100);
    assert_eq!(attr["DBInstanceCPU"], "2");
    assert_eq!(attr["DBInstanceMemory"], 4096);
    assert_eq!(attr["SecurityIPList"], "10.0.0.0/8,192.168.1.5");
    assert!(attr["IPAddress"].as_str().unwrap().starts_with("192.168.1."));

    let none = h.ok(&PRODUCT, "DescribeDBInstances", &[("Engine", "PostgreSQL")]);
    assert_eq!(none["TotalRecordCount"], 0);
}

#[test]
fn instance_states_follow_the_clock() {
    let h = TestConsole::with_transition_delay(5_000);
    let (vpc_id, vsw_id) = h.network();
    h.clock.advance(5_000);
    let id = create_mysql(&h, &vpc_id, &vsw_id);
    let status = |h: &TestConsole| {
        let body = h.ok(&PRODUCT, "DescribeDBInstanceAttribute", &[("DBInstanceId", &id)]);
        body["Items"]["DBInstanceAttribute"][0]["DBInstanceStatus"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(status(&h), "Creating");
    let e = h.err(&PRODUCT, "RestartDBInstance", &[("DBInstanceId", &id)]);
    assert_eq!(e.code, "IncorrectDBInstanceState");
    let e = h.err(
        &PRODUCT,
        "CreateDatabase",
        &[
            ("DBInstanceId", &id),
            ("DBName", "shop"),
            ("CharacterSetName", "utf8mb4"),
        ],
    );
    assert_eq!(e.code, "IncorrectDBInstanceState");
    h.clock.advance(4_999);
    assert_eq!(status(&h), "Creating");
    h.clock.advance(1);
    assert_eq!(status(&h), "Running");
    h.ok(&PRODUCT, "RestartDBInstance", &[("DBInstanceId", &id)]);
    assert_eq!(status(&h), "Rebooting");
    h.clock.advance(5_000);
    assert_eq!(status(&h), "Running");
}

#[test]
fn databases_accounts_and_privileges() {
    let h = TestConsole::new();
    let (vpc_id, vsw_id) = h.network();
    let id = create_mysql(&h, &vpc_id, &vsw_id);
    h.ok(
        &PRODUCT,
        "CreateDatabase",
        &[
            ("DBInstanceId", &id),
            ("DBName", "shop"),
            ("CharacterSetName", "utf8mb4"),
        ],
    );
    let e = h.err(
        &PRODUCT,
        "CreateDatabase",
        &[("DBInstanceId", &id), ("DBName", "shop"), ("CharacterSetName", "utf8")],
    );
    assert_eq!(e.code, "InvalidDBName.Duplicate");
    let e = h.err(
        &PRODUCT,
        "CreateDatabase",
        &[("DBInstanceId", &id), ("DBName", "Shop"), ("CharacterSetName", "utf8")],
    );
    assert!(e.message.contains("\"DBName\""), "{e}");
    let e = h.err(
        &PRODUCT,
        "CreateDatabase",
        &[
            ("DBInstanceId", &id),
            ("DBName", "blog"),
            ("CharacterSetName", "ebcdic"),
        ],
    );
    assert!(e.message.contains("\"CharacterSetName\""), "{e}");
    let e = h.err(&PRODUCT, "CreateDatabase", &[("DBInstanceId", &id), ("DBName", "blog")]);
    assert_eq!(e.code, "MissingParameter");
    assert!(e.message.contains("\"CharacterSetName\""));

    let e = h.err(
        &PRODUCT,
        "CreateAccount",
        &[
            ("DBInstanceId", &id),
            ("AccountName", "app"),
            ("AccountPassword", "password"),
        ],
    );
    assert!(e.message.contains("\"AccountPassword\""), "{e}");
    h.ok(
        &PRODUCT,
        "CreateAccount",
        &[
            ("DBInstanceId", &id),
            ("AccountName", "app"),
            ("AccountPassword", "Str0ng!Pass"),
            ("AccountType", "Normal"),
        ],
    );
    let e = h.err(
        &PRODUCT,
        "CreateAccount",
        &[
            ("DBInstanceId", &id),
            ("AccountName", "app"),
            ("AccountPassword", "Str0ng!Pass"),
        ],
    );
    assert_eq!(e.code, "InvalidAccountName.Duplicate");

    let e = h.err(
        &PRODUCT,
        "GrantAccountPrivilege",
        &[
            ("DBInstanceId", &id),
            ("AccountName", "app"),
            ("DBName", "missing"),
            ("AccountPrivilege", "ReadWrite"),
        ],
    );
    assert_eq!(e.code, "InvalidDBName.NotFound");
    let e = h.err(
        &PRODUCT,
        "GrantAccountPrivilege",
        &[
            ("DBInstanceId", &id),
            ("AccountName", "app"),
            ("DBName", "shop"),
            ("AccountPrivilege", "DBOwner"),
        ],
    );
    assert!(e.message.contains("\"AccountPrivilege\""), "{e}");
    h.ok(
        &PRODUCT,
        "GrantAccountPrivilege",
        &[
            ("DBInstanceId", &id),
            ("AccountName", "app"),
            ("DBName", "shop"),
            ("AccountPrivilege", "ReadOnly"),
        ],
    );

    let accounts = h.ok(&PRODUCT, "DescribeAccounts", &[("DBInstanceId", &id)]);
    let account = &accounts["Accounts"]["DBInstanceAccount"][0];
    assert_eq!(account["AccountName"], "app");
    assert_eq!(account["AccountStatus"], "Available");
    assert_eq!(account["AccountType"], "Normal");
    assert_eq!(
        account["DatabasePrivileges"]["DatabasePrivilege"][0]["AccountPrivilege"],
        "ReadOnly"
    );

    let dbs = h.ok(&PRODUCT, "DescribeDatabases", &[("DBInstanceId", &id)]);
    let db = &dbs["Databases"]["Database"][0];
    assert_eq!(
        (db["DBName"].as_str(), db["DBStatus"].as_str()),
        (Some("shop"), Some("Running"))
    );
    assert_eq!(db["Accounts"]["AccountPrivilegeInfo"][0]["Account"], "app");

    h.ok(&PRODUCT, "DeleteDatabase", &[("DBInstanceId", &id), ("DBName", "shop")]);
    let accounts = h.ok(&PRODUCT, "DescribeAccounts", &[("DBInstanceId", &id)]);
    assert_eq!(
        accounts["Accounts"]["DBInstanceAccount"][0]["DatabasePrivileges"]["DatabasePrivilege"],
        json!([])
    );
    let e = h.err(&PRODUCT, "DeleteDatabase", &[("DBInstanceId", &id), ("DBName", "shop")]);
    assert_eq!(e.code, "InvalidDBName.NotFound");
    h.ok(
        &PRODUCT,
        "DeleteAccount",
        &[("DBInstanceId", &id), ("AccountName", "app")],
    );
    let e = h.err(
        &PRODUCT,
        "DeleteAccount",
        &[("DBInstanceId", &id), ("AccountName", "app")],
    );
    assert_eq!(e.code, "InvalidAccountName.NotFound");
}

#[test]
fn whitelist_cover_append_delete() {
    let h = TestConsole::new();
    let (vpc_id, vsw_id) = h.network();
    let id = create_mysql(&h, &vpc_id, &vsw_id);
    let lists = |h: &TestConsole| -> Vec<(String, String)> {
        let body = h.ok(&PRODUCT, "DescribeDBInstanceIPArrayList", &[("DBInstanceId", &id)]);
        body["Items"]["DBInstanceIPArray"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                (
                    g["DBInstanceIPArrayName"].as_str().unwrap().to_owned(),
                    g["SecurityIPList"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    assert_eq!(lists(&h), [("default".to_owned(), "10.0.0.0/8".to_owned())]);

    h.ok(
        &PRODUCT,
        "ModifySecurityIps",
        &[("DBInstanceId", &id), ("SecurityIps", "192.168.1.10")],
    );
    assert_eq!(lists(&h), [("default".to_owned(), "192.168.1.10".to_owned())]);
    h.ok(
        &PRODUCT,
        "ModifySecurityIps",
        &[
            ("DBInstanceId", &id),
            ("SecurityIps", "192.168.1.11,192.168.1.10"),
            ("ModifyMode", "Append"),
        ],
    );
    assert_eq!(
        lists(&h),
        [("default".to_owned(), "192.168.1.10,192.168.1.11".to_owned())]
    );
    h.ok(
        &PRODUCT,
        "ModifySecurityIps",
        &[
            ("DBInstanceId", &id),
            ("SecurityIps", "192.168.1.10"),
            ("ModifyMode", "Delete"),
        ],
    );
    assert_eq!(lists(&h), [("default".to_owned(), "192.168.1.11".to_owned())]);
    h.ok(
        &PRODUCT,
        "ModifySecurityIps",
        &[
            ("DBInstanceId", &id),
            ("SecurityIps", "192.168.1.11"),
            ("ModifyMode", "Delete"),
        ],
    );
    assert_eq!(lists(&h), [("default".to_owned(), "127.0.0.1".to_owned())]);

    h.ok(
        &PRODUCT,
        "ModifySecurityIps",
        &[
            ("DBInstanceId", &id),
            ("SecurityIps", "172.16.0.0/12"),
            ("DBInstanceIPArrayName", "office"),
        ],
    );
    assert_eq!(lists(&h).len(), 2);
    h.ok(
        &PRODUCT,
        "ModifySecurityIps",
        &[
            ("DBInstanceId", &id),
            ("SecurityIps", "172.16.0.0/12"),
            ("DBInstanceIPArrayName", "office"),
            ("ModifyMode", "Delete"),
        ],
    );
    assert_eq!(lists(&h), [("default".to_owned(), "127.0.0.1".to_owned())]);

    let e = h.err(
        &PRODUCT,
        "ModifySecurityIps",
        &[("DBInstanceId", &id), ("SecurityIps", "10.0.0.300")],
    );
    assert!(e.message.contains("\"SecurityIps\""), "{e}");
    let e = h.err(
        &PRODUCT,
        "ModifySecurityIps",
        &[
            ("DBInstanceId", &id),
            ("SecurityIps", "10.0.0.1"),
            ("ModifyMode", "Merge"),
        ],
    );
    assert!(e.message.contains("\"ModifyMode\""), "{e}");
}

#[test]
fn auto_renewal_only_for_subscriptions() {
    let h = TestConsole::starting_at(ON_THE_HOUR_MS);
    let base = [
        ("Engine", "PostgreSQL"),
        ("EngineVersion", "16.0"),
        ("DBInstanceClass", "pg.n2.small.1"),
        ("DBInstanceStorage", "50"),
        ("SecurityIPList", "127.0.0.1"),
        ("DBInstanceNetType", "Intranet"),
    ];
    let e = h.err(
        &PRODUCT,
        "CreateDBInstance",
        &[&base[..], &[("PayType", "Prepaid")][..]].concat(),
    );
    assert!(e.message.contains("\"Period\""), "{e}");
    let prepaid = h.ok(
        &PRODUCT,
        "CreateDBInstance",
        &[
            &base[..],
            &[("PayType", "Prepaid"), ("Period", "Month"), ("UsedTime", "3")][..],
        ]
        .concat(),
    );
    let prepaid = prepaid["DBInstanceId"].as_str().unwrap().to_owned();
    let postpaid = h.ok(
        &PRODUCT,
        "CreateDBInstance",
        &[&base[..], &[("PayType", "Postpaid")][..]].concat(),
    );
    let postpaid = postpaid["DBInstanceId"].as_str().unwrap().to_owned();
    assert_eq!(
        h.ok(&PRODUCT, "DescribeDBInstanceAttribute", &[("DBInstanceId", &prepaid)])["Items"]["DBInstanceAttribute"][0]
            ["ExpireTime"],
        "2027-02-28T14:00:00Z"
    );

    let e = h.err(
        &PRODUCT,
        "ModifyInstanceAutoRenewalAttribute",
        &[("DBInstanceId", &prepaid), ("AutoRenew", "True")],
    );
    assert!(e.message.contains("\"Duration\""), "{e}");
    let e = h.err(
        &PRODUCT,
        "ModifyInstanceAutoRenewalAttribute",
        &[("DBInstanceId", &postpaid), ("AutoRenew", "True"), ("Duration", "1")],
    );
    assert_eq!(e.code, "OperationDenied");
    h.ok(
        &PRODUCT,
        "ModifyInstanceAutoRenewalAttribute",
        &[("DBInstanceId", &prepaid), ("AutoRenew", "True"), ("Duration", "6")],
    );
    let body = h.ok(&PRODUCT, "DescribeInstanceAutoRenewalAttribute", &[]);
    assert_eq!(body["TotalRecordCount"], 1);
    let item = &body["Items"]["Item"][0];
    assert_eq!(
        (
            item["DBInstanceId"].as_str(),
            item["AutoRenew"].as_str(),
            item["Duration"].as_i64()
        ),
        (Some(prepaid.as_str()), Some("True"), Some(6))
    );

    let e = h.err(&PRODUCT, "DeleteDBInstance", &[("DBInstanceId", &prepaid)]);
    assert_eq!(e.code, "OperationDenied");
    h.ok(&PRODUCT, "DeleteDBInstance", &[("DBInstanceId", &postpaid)]);
    assert_eq!(h.ok(&PRODUCT, "DescribeDBInstances", &[])["TotalRecordCount"], 1);
}

#[test]
fn bad_parameters_and_unknown_ids() {
    let h = TestConsole::new();
    let e = h.err(
        &PRODUCT,
        "DescribeDBInstanceAttribute",
        &[("DBInstanceId", "rm-bp1doesnotexist")],
    );
    assert_eq!(e.code, "InvalidDBInstanceId.NotFound");
    let e = h.err(&PRODUCT, "RestartDBInstance", &[]);
    assert_eq!(e.code, "MissingParameter");
    assert!(e.message.contains("\"DBInstanceId\""));
    let full = [
        ("Engine", "MySQL"),
        ("EngineVersion", "8.0"),
        ("DBInstanceClass", "mysql.n2.medium.1"),
        ("DBInstanceStorage", "100"),
        ("PayType", "Postpaid"),
        ("SecurityIPList", "127.0.0.1"),
        ("DBInstanceNetType", "Intranet"),
    ];
    for (name, _) in full {
        let without: Vec<(&str, &str)> = full.iter().copied().filter(|(k, _)| *k != name).collect();
        let e = h.err(&PRODUCT, "CreateDBInstance", &without);
        assert_eq!(e.code, "MissingParameter", "{name}");
        assert!(e.message.contains(&format!("\"{name}\"")), "{e}");
    }
    let with = |k: &'static str, v: &'static str| -> Vec<(&'static str, &'static str)> {
        full.iter()
            .copied()
            .map(|(a, b)| if a == k { (a, v) } else { (a, b) })
            .collect()
    };
    for (name, value) in [
        ("Engine", "Oracle"),
        ("EngineVersion", "9.9"),
        ("DBInstanceClass", "pg.n2.medium.1"),
        ("DBInstanceStorage", "5"),
        ("PayType", "Monthly"),
        ("SecurityIPList", "everyone"),
    ] {
        let e = h.err(&PRODUCT, "CreateDBInstance", &with(name, value));
        assert_eq!(e.code, "InvalidParameter", "{name}");
        assert!(e.message.contains(&format!("\"{name}\"")), "{e}");
    }
    let e = h.err(
        &PRODUCT,
        "CreateDBInstance",
        &[&full[..], &[("VPCId", "vpc-bp1nope"), ("VSwitchId", "vsw-bp1nope")][..]].concat(),
    );
    assert_eq!(e.code, "InvalidVPCId.NotFound");
    let (vpc_id, vsw_id) = h.network();
    let e = h.err(
        &PRODUCT,
        "CreateDBInstance",
        &[
            &full[..],
            &[
                ("VPCId", vpc_id.as_str()),
                ("VSwitchId", vsw_id.as_str()),
                ("ZoneId", "cn-hangzhou-i"),
            ][..],
        ]
        .concat(),
    );
    assert!(e.message.contains("\"ZoneId\""), "{e}");
}

#[test]
fn routes_by_unique_api_version() {
    use crate::products::{PRODUCTS, by_version};
    for (version, code) in [("2014-08-15", "rds"), ("2014-05-15", "slb"), ("2015-01-01", "kvstore")] {
        assert_eq!(by_version(version).map(|p| p.code), Some(code));
    }
    let mut versions: Vec<&str> = PRODUCTS.iter().map(|p| p.version).collect();
    versions.sort_unstable();
    versions.dedup();
    assert_eq!(versions.len(), PRODUCTS.len(), "two products share an API version");
}

#[test]
fn accounts_are_isolated() {
    let h = TestConsole::new();
    let (vpc_id, vsw_id) = h.network();
    let id = create_mysql(&h, &vpc_id, &vsw_id);
    let other = h.account("other");
    let e = h
        .call_as(
            &other,
            &PRODUCT,
            "DescribeDBInstanceAttribute",
            &[("DBInstanceId", &id)],
        )
        .unwrap_err();
    assert_eq!(e.code, "InvalidDBInstanceId.NotFound");
    let list = h.call_as(&other, &PRODUCT, "DescribeDBInstances", &[]).unwrap();
    assert_eq!(list["TotalRecordCount"], 0);
    let e = h
        .call_as(&other, &PRODUCT, "DeleteDBInstance", &[("DBInstanceId", &id)])
        .unwrap_err();
    assert_eq!(e.code, "InvalidDBInstanceId.NotFound");
    h.ok(
        &PRODUCT,
        "ModifyDBInstanceDescription",
        &[("DBInstanceId", &id), ("DBInstanceDescription", "orders-primary")],
    );
    assert_eq!(
        h.ok(&PRODUCT, "DescribeDBInstances", &[])["Items"]["DBInstance"][0]["DBInstanceDescription"],
        "orders-primary"
    );
}
