//! Database resources: `alicloud_db_instance`, `alicloud_db_database`, `alicloud_db_account`
//! (ApsaraDB RDS) and `alicloud_kvstore_instance` (Tair / ApsaraDB for Redis).

use super::{Arg, IdFrom, Ready, RpcType, Source, TAGS, arg, joined, local, mapped, required};

pub static TYPES: &[&RpcType] = &[&DB_INSTANCE, &DB_DATABASE, &DB_ACCOUNT, &KVSTORE_INSTANCE];

/// The provider's charge types and RDS's `PayType`.
const RDS_PAYMENT_TYPES: &[(&str, &str)] = &[
    ("PayAsYouGo", "Postpaid"),
    ("PostPaid", "Postpaid"),
    ("Subscription", "Prepaid"),
    ("PrePaid", "Prepaid"),
];

const DB_INSTANCE_ARGS: &[Arg] = &[
    required("engine", "Engine"),
    required("engine_version", "EngineVersion"),
    required("instance_type", "DBInstanceClass"),
    required("instance_storage", "DBInstanceStorage"),
    arg("instance_name", "DBInstanceDescription"),
    arg("db_instance_storage_type", "DBInstanceStorageType"),
    arg("category", "Category"),
    arg("vswitch_id", "VSwitchId"),
    arg("vpc_id", "VPCId"),
    arg("zone_id", "ZoneId"),
    mapped("instance_charge_type", "PayType", RDS_PAYMENT_TYPES),
    mapped("payment_type", "PayType", RDS_PAYMENT_TYPES),
    arg("period", "UsedTime"),
    arg("instance_network_type", "InstanceNetworkType"),
    arg("resource_group_id", "ResourceGroupId"),
    joined("security_ips", "SecurityIPList"),
    local("monitoring_period"),
    local("deletion_protection"),
    TAGS,
];

pub static DB_INSTANCE: RpcType = RpcType {
    name: "alicloud_db_instance",
    code: "rds",
    product: "ApsaraDB RDS",
    args: DB_INSTANCE_ARGS,
    name_arguments: &["instance_name"],
    fixed: &[
        ("SecurityIPList", "127.0.0.1"),
        ("DBInstanceNetType", "Intranet"),
        ("PayType", "Postpaid"),
    ],
    vpc_of_vswitch: Some("VPCId"),
    create: "CreateDBInstance",
    id: IdFrom::Response("/DBInstanceId"),
    read: "DescribeDBInstanceAttribute",
    read_params: &[("DBInstanceId", Source::Id)],
    item_at: "/Items/DBInstanceAttribute",
    match_field: Some("DBInstanceId"),
    attributes: &[
        ("instance_name", "/DBInstanceDescription"),
        ("engine", "/Engine"),
        ("engine_version", "/EngineVersion"),
        ("instance_type", "/DBInstanceClass"),
        ("instance_storage", "/DBInstanceStorage"),
        ("db_instance_storage_type", "/DBInstanceStorageType"),
        ("category", "/Category"),
        ("zone_id", "/ZoneId"),
        ("vswitch_id", "/VSwitchId"),
        ("vpc_id", "/VpcId"),
        ("instance_charge_type", "/PayType"),
        ("status", "/DBInstanceStatus"),
        ("port", "/Port"),
        ("connection_string", "/ConnectionString"),
        ("security_ips", "/SecurityIPList"),
    ],
    gone_when: None,
    ready: Some(Ready {
        attribute: "status",
        states: &["Running"],
    }),
    settle: &[],
    delete: "DeleteDBInstance",
    delete_params: &[("DBInstanceId", Source::Id)],
    purge: None,
};

const DB_DATABASE_ARGS: &[Arg] = &[
    required("instance_id", "DBInstanceId"),
    arg("name", "DBName"),
    arg("data_base_name", "DBName"),
    arg("character_set", "CharacterSetName"),
    arg("description", "DBDescription"),
];

/// Databases are named by `instance_id:name`, as the provider does.
pub static DB_DATABASE: RpcType = RpcType {
    name: "alicloud_db_database",
    code: "rds",
    product: "ApsaraDB RDS",
    args: DB_DATABASE_ARGS,
    name_arguments: &["name", "data_base_name"],
    fixed: &[("CharacterSetName", "utf8")],
    vpc_of_vswitch: None,
    create: "CreateDatabase",
    id: IdFrom::Arguments(&[
        Source::Attr("instance_id"),
        Source::AnyAttr(&["name", "data_base_name"]),
    ]),
    read: "DescribeDatabases",
    read_params: &[
        ("DBInstanceId", Source::Attr("instance_id")),
        ("DBName", Source::AnyAttr(&["name", "data_base_name"])),
    ],
    item_at: "/Databases/Database",
    match_field: None,
    attributes: &[
        ("name", "/DBName"),
        ("character_set", "/CharacterSetName"),
        ("description", "/DBDescription"),
        ("status", "/DBStatus"),
    ],
    gone_when: None,
    ready: None,
    settle: &[],
    delete: "DeleteDatabase",
    delete_params: &[
        ("DBInstanceId", Source::Attr("instance_id")),
        ("DBName", Source::AnyAttr(&["name", "data_base_name"])),
    ],
    purge: None,
};

const DB_ACCOUNT_ARGS: &[Arg] = &[
    required("db_instance_id", "DBInstanceId"),
    arg("account_name", "AccountName"),
    arg("name", "AccountName"),
    arg("account_password", "AccountPassword"),
    arg("password", "AccountPassword"),
    arg("account_type", "AccountType"),
    arg("account_description", "AccountDescription"),
];

pub static DB_ACCOUNT: RpcType = RpcType {
    name: "alicloud_db_account",
    code: "rds",
    product: "ApsaraDB RDS",
    args: DB_ACCOUNT_ARGS,
    name_arguments: &["account_name", "name"],
    fixed: &[],
    vpc_of_vswitch: None,
    create: "CreateAccount",
    id: IdFrom::Arguments(&[
        Source::Attr("db_instance_id"),
        Source::AnyAttr(&["account_name", "name"]),
    ]),
    read: "DescribeAccounts",
    read_params: &[
        ("DBInstanceId", Source::Attr("db_instance_id")),
        ("AccountName", Source::AnyAttr(&["account_name", "name"])),
    ],
    item_at: "/Accounts/DBInstanceAccount",
    match_field: None,
    attributes: &[
        ("account_name", "/AccountName"),
        ("account_type", "/AccountType"),
        ("account_description", "/AccountDescription"),
        ("status", "/AccountStatus"),
    ],
    gone_when: None,
    ready: None,
    settle: &[],
    delete: "DeleteAccount",
    delete_params: &[
        ("DBInstanceId", Source::Attr("db_instance_id")),
        ("AccountName", Source::AnyAttr(&["account_name", "name"])),
    ],
    purge: None,
};

const KVSTORE_ARGS: &[Arg] = &[
    arg("db_instance_name", "InstanceName"),
    arg("instance_name", "InstanceName"),
    required("instance_class", "InstanceClass"),
    arg("instance_type", "InstanceType"),
    arg("engine_version", "EngineVersion"),
    arg("zone_id", "ZoneId"),
    arg("availability_zone", "ZoneId"),
    arg("secondary_zone_id", "SecondaryZoneId"),
    arg("vswitch_id", "VSwitchId"),
    arg("vpc_id", "VpcId"),
    arg("payment_type", "ChargeType"),
    arg("instance_charge_type", "ChargeType"),
    arg("period", "Period"),
    arg("port", "Port"),
    arg("password", "Password"),
    arg("resource_group_id", "ResourceGroupId"),
    joined("security_ips", "SecurityIps"),
    TAGS,
];

pub static KVSTORE_INSTANCE: RpcType = RpcType {
    name: "alicloud_kvstore_instance",
    code: "kvstore",
    product: "Tair (Redis OSS-compatible)",
    args: KVSTORE_ARGS,
    name_arguments: &["db_instance_name", "instance_name"],
    fixed: &[],
    vpc_of_vswitch: Some("VpcId"),
    create: "CreateInstance",
    id: IdFrom::Response("/InstanceId"),
    read: "DescribeInstances",
    read_params: &[("InstanceIds", Source::Id)],
    item_at: "/Instances/KVStoreInstance",
    match_field: Some("InstanceId"),
    attributes: &[
        ("db_instance_name", "/InstanceName"),
        ("instance_class", "/InstanceClass"),
        ("instance_type", "/InstanceType"),
        ("engine_version", "/EngineVersion"),
        ("zone_id", "/ZoneId"),
        ("vswitch_id", "/VSwitchId"),
        ("vpc_id", "/VpcId"),
        ("payment_type", "/ChargeType"),
        ("status", "/InstanceStatus"),
        ("port", "/Port"),
        ("connection_domain", "/ConnectionDomain"),
        ("private_ip", "/PrivateIp"),
    ],
    gone_when: None,
    ready: Some(Ready {
        attribute: "status",
        states: &["Normal"],
    }),
    settle: &[],
    delete: "DeleteInstance",
    delete_params: &[("InstanceId", Source::Id)],
    // A released instance waits in the recycle bin; destroyed, nothing is left.
    purge: Some("DestroyInstance"),
};
