//! Compute and database consoles: Elastic Compute Service, ApsaraDB RDS and Tair.

use super::*;
use crate::profile::Placement::{AllActions, Inline, More};

fn zone() -> Field {
    field("Zone", "ZoneId", FieldKind::Select(OptionSource::Zones))
        .required()
        .placeholder("Select a zone")
}

fn billing(param: &str, postpaid: &str, prepaid: &str) -> Field {
    field(
        "Billing Method",
        param,
        radio(&[(postpaid, "Pay-as-you-go"), (prepaid, "Subscription")]),
    )
    .required()
    .default(postpaid)
}

fn vswitch() -> Field {
    field("vSwitch", "VSwitchId", resources("vpc", "vswitches"))
        .required()
        .placeholder("Select a vSwitch")
}

fn vpc() -> Field {
    field("VPC", "VpcId", resources("vpc", "vpcs"))
        .required()
        .placeholder("Select a VPC")
}

/// The Stop Instance dialog as stop-instance.md (2026-04-28) describes it.
fn stop_instance() -> FormSpec {
    form(
        "stop-instance",
        "Stop",
        "Stop Instance",
        Container::Dialog,
        "StopInstance",
        vec![step(
            "",
            vec![
                field(
                    "Stopped By",
                    "ForceStop",
                    radio(&[("false", "Stop"), ("true", "Force Stop")]),
                )
                .default("false"),
                field(
                    "Stop Mode",
                    "StoppedMode",
                    radio(&[
                        ("KeepCharging", "Standard Mode"),
                        (
                            "StopCharging",
                            "Economical Mode (formerly known as No Fees for Stopped Instances)",
                        ),
                    ]),
                )
                .default("KeepCharging"),
            ],
        )],
    )
    .for_row("InstanceId")
    .submit("Confirm")
    .success("The instance is being stopped.")
}

/// The Restart Instance dialog: Force Restart unselected restarts normally (restart-instance.md,
/// 2025-09-16; the dialog's title and Confirm are those of restart-instance-all-actions.md).
fn restart_instance() -> FormSpec {
    form(
        "restart-instance",
        "Restart",
        "Restart Instance",
        Container::Dialog,
        "RebootInstance",
        vec![step("", vec![field("Force Restart", "ForceStop", FieldKind::Checkbox)])],
    )
    .for_row("InstanceId")
    .submit("Confirm")
    .success("The instance is being restarted.")
}

/// The Release Instance dialog: the release setting, Next, then OK on the resources released with
/// the instance (release-instance.md). Scheduled release is offered and, as here only Release Now
/// is modelled, releases at once like it.
fn release_instance() -> FormSpec {
    form(
        "release-instance",
        "Release",
        "Release Instance",
        Container::Wizard,
        "DeleteInstance",
        vec![
            step(
                "Release Settings",
                vec![
                    field(
                        "Release Settings",
                        "ReleaseSetting",
                        radio(&[("now", "Release Now"), ("scheduled", "Scheduled Release")]),
                    )
                    .default("now")
                    .not_sent(),
                ],
            ),
            step("Confirm Release", vec![]),
        ],
    )
    .for_row("InstanceId")
    .submit("OK")
    .success("The instance is released.")
}

/// The Reset Instance Password dialog (reset-password.md, 2024-09-14). The API takes the new
/// password (`ModifyInstanceAttribute`); the user name, the repeated password and the reset method
/// stay in the console.
fn reset_instance_password() -> FormSpec {
    form(
        "reset-instance-password",
        "Reset Instance Password",
        "Reset Instance Password",
        Container::Dialog,
        "ModifyInstanceAttribute",
        vec![step(
            "",
            vec![
                field("Logon Username", "UserName", FieldKind::Text)
                    .default("root")
                    .not_sent(),
                field("New Password", "Password", FieldKind::Password)
                    .required()
                    .rule("password")
                    .help(
                        "8 to 30 characters, with at least three of: uppercase letters, lowercase letters, digits, \
                         special characters.",
                    ),
                field("Confirm Password", "ConfirmPassword", FieldKind::Password)
                    .required()
                    .rule("password")
                    .not_sent(),
                field(
                    "Password Reset Method",
                    "ResetMethod",
                    radio(&[("online", "Online Reset"), ("offline", "Offline Reset")]),
                )
                .default("online")
                .not_sent(),
            ],
        )],
    )
    .for_row("InstanceId")
    .success("The password is reset.")
}

pub fn ecs() -> ProductSpec {
    let mut instances = page(
        "instances",
        "Instances",
        "DescribeInstances",
        "Instances.Instance",
        "InstanceId",
        "InstanceName",
    );
    instances.id_param = s("InstanceIds");
    instances.columns = vec![
        col("Instance ID/Name", "InstanceId", ColumnKind::IdName),
        col("Zone", "ZoneId", ColumnKind::Zone),
        col(
            "IP Address",
            "VpcAttributes.PrivateIpAddress.IpAddress",
            ColumnKind::Mono,
        ),
        col("Status", "Status", ColumnKind::Status),
        col("Instance Type", "InstanceType", ColumnKind::Text),
        col("Billing Method", "InstanceChargeType", ColumnKind::Text)
            .labels(&[("PostPaid", "Pay-as-you-go"), ("PrePaid", "Subscription")]),
        col("Created At", "CreationTime", ColumnKind::Time),
    ];
    instances.creates = vec![
        form(
            "buy-instance",
            "Create Instance",
            "Custom Launch",
            Container::BuyPage,
            "RunInstances",
            vec![
                step(
                    "Basic Configurations",
                    vec![
                        billing("InstanceChargeType", "PostPaid", "PrePaid"),
                        zone(),
                        field(
                            "Instance Type",
                            "InstanceType",
                            select(&[
                                ("ecs.g7.large", "ecs.g7.large (2 vCPUs, 8 GiB)"),
                                ("ecs.c7.large", "ecs.c7.large (2 vCPUs, 4 GiB)"),
                                ("ecs.e-c1m2.large", "ecs.e-c1m2.large (2 vCPUs, 4 GiB)"),
                                ("ecs.t6-c1m1.large", "ecs.t6-c1m1.large (2 vCPUs, 2 GiB)"),
                            ]),
                        )
                        .required()
                        .placeholder("Select an instance type"),
                        field(
                            "Image",
                            "ImageId",
                            select(&[
                                (
                                    "aliyun_3_x64_20G_alibase_20240528.vhd",
                                    "Alibaba Cloud Linux 3.2104 LTS 64-bit",
                                ),
                                ("ubuntu_22_04_x64_20G_alibase_20240508.vhd", "Ubuntu 22.04 64-bit"),
                                ("centos_7_9_x64_20G_alibase_20240403.vhd", "CentOS 7.9 64-bit"),
                                (
                                    "win2022_21H2_x64_dtc_en-us_40G_alibase_20240515.vhd",
                                    "Windows Server 2022 Datacenter",
                                ),
                            ]),
                        )
                        .required()
                        .placeholder("Select an image"),
                        field(
                            "System Disk",
                            "SystemDisk.Category",
                            select(&[
                                ("cloud_essd", "ESSD"),
                                ("cloud_auto", "ESSD AutoPL"),
                                ("cloud_efficiency", "Ultra Disk"),
                            ]),
                        )
                        .default("cloud_essd"),
                    ],
                ),
                step(
                    "Networking",
                    vec![
                        vswitch(),
                        field("Security Group", "SecurityGroupId", resources("ecs", "security-groups"))
                            .required()
                            .placeholder("Select a security group"),
                        field("Peak Bandwidth (Mbit/s)", "InternetMaxBandwidthOut", FieldKind::Number)
                            .default("0")
                            .rule("number")
                            .help("0 means that no public IPv4 address is assigned."),
                    ],
                ),
                step(
                    "System Configurations",
                    vec![
                        field("Logon Password", "Password", FieldKind::Password)
                            .required()
                            .rule("password")
                            .help(
                                "8 to 30 characters, with at least three of: uppercase letters, lowercase letters, \
                                 digits, special characters.",
                            ),
                        field("Instance Name", "InstanceName", FieldKind::Text).rule("name"),
                    ],
                ),
                step(
                    "Preview",
                    vec![
                        field("Quantity", "Amount", FieldKind::Number)
                            .default("1")
                            .rule("number"),
                    ],
                ),
            ],
        )
        .submit("Confirm Order")
        .success("The order is complete. The instance is being created."),
    ];
    instances.search = search(&[
        ("Instance ID", "InstanceIds"),
        ("Instance Name", "InstanceName"),
        ("Private IP Address", "PrivateIpAddresses"),
    ]);
    let stopped = || DisableWhen::IsNot(vec![s("Stopped")]);
    let running = || DisableWhen::IsNot(vec![s("Running")]);
    instances.row_actions = vec![
        details(Inline),
        call(
            "Start",
            More,
            "StartInstance",
            "InstanceId",
            confirm("Start Instance", "Are you sure you want to start the instance?"),
        )
        .in_submenu("Instance Status")
        .disabled_when("Status", stopped(), "Only stopped instances can be started."),
        row_form("Stop", More, stop_instance())
            .in_submenu("Instance Status")
            .disabled_when("Status", running(), "Only running instances can be stopped."),
        row_form("Restart", AllActions, restart_instance()).disabled_when(
            "Status",
            running(),
            "Only running instances can be restarted.",
        ),
        row_form(
            "Modify Instance Name",
            More,
            form(
                "rename-instance",
                "Modify Instance Name",
                "Modify Instance Name",
                Container::Dialog,
                "ModifyInstanceAttribute",
                vec![step(
                    "",
                    vec![
                        field("Instance Name", "InstanceName", FieldKind::Text)
                            .rule("name")
                            .prefilled_from("InstanceName"),
                    ],
                )],
            )
            .for_row("InstanceId"),
        ),
        row_form("Reset Instance Password", More, reset_instance_password()).in_submenu("Instance Attributes"),
        row_form("Release", More, release_instance())
            .in_submenu("Instance Status")
            .with_fixed(&[("Force", "true")]),
    ];
    instances.batch_actions = vec![
        batch_call(
            "Start",
            "StartInstance",
            "InstanceId",
            confirm(
                "Start Instance",
                "Are you sure you want to start the selected instances?",
            ),
        ),
        // release-instance.md: "select the instances to be released, and click Release at the
        // bottom of the list", then the same Release Now, Next and OK.
        batch_form("Release", release_instance().fixed(&[("Force", "true")])),
        // reset-password.md (2024-09-14): "select the instances and choose ⋯ > Reset Instance
        // Password in the lower part of the Instance page".
        batch_form("Reset Instance Password", reset_instance_password()).in_menu("⋯"),
    ];
    instances.tabs = vec![basic(&[
        ("Instance ID", "InstanceId"),
        ("Instance Name", "InstanceName"),
        ("Status", "Status"),
        ("Region", "RegionId"),
        ("Zone", "ZoneId"),
        ("Instance Type", "InstanceType"),
        ("Image ID", "ImageId"),
        ("VPC", "VpcAttributes.VpcId"),
        ("vSwitch", "VpcAttributes.VSwitchId"),
        ("Billing Method", "InstanceChargeType"),
        ("Created At", "CreationTime"),
    ])];

    let mut groups = page(
        "security-groups",
        "Security Groups",
        "DescribeSecurityGroups",
        "SecurityGroups.SecurityGroup",
        "SecurityGroupId",
        "SecurityGroupName",
    );
    groups.columns = vec![
        col("Security Group ID/Name", "SecurityGroupId", ColumnKind::IdName),
        col("VPC", "VpcId", ColumnKind::Mono),
        col("Security Group Type", "SecurityGroupType", ColumnKind::Text).labels(&[
            ("normal", "Basic Security Group"),
            ("enterprise", "Advanced Security Group"),
        ]),
        col("Description", "Description", ColumnKind::Text),
        col("Created At", "CreationTime", ColumnKind::Time),
    ];
    groups.creates = vec![
        form(
            "create-security-group",
            "Create Security Group",
            "Create Security Group",
            Container::Drawer,
            "CreateSecurityGroup",
            vec![step(
                "Basic Information",
                vec![
                    field("Security Group Name", "SecurityGroupName", FieldKind::Text).rule("name"),
                    vpc(),
                    field(
                        "Security Group Type",
                        "SecurityGroupType",
                        radio(&[
                            ("normal", "Basic Security Group"),
                            ("enterprise", "Advanced Security Group"),
                        ]),
                    )
                    .default("normal"),
                    field("Description", "Description", FieldKind::Textarea),
                ],
            )],
        )
        .success("The security group is created."),
    ];
    groups.search = search(&[
        ("Security Group ID", "SecurityGroupId"),
        ("Security Group Name", "SecurityGroupName"),
        ("VPC ID", "VpcId"),
    ]);
    groups.row_actions = vec![
        RowAction {
            label: s("Manage Rules"),
            placement: Inline,
            submenu: None,
            kind: ActionKind::Details,
            disabled: None,
        },
        row_form(
            "Add Rule",
            Inline,
            form(
                "add-rule",
                "Add Rule",
                "Add Security Group Rule",
                Container::Dialog,
                "AuthorizeSecurityGroup",
                vec![step(
                    "Inbound",
                    vec![
                        field("Action", "Policy", radio(&[("accept", "Allow"), ("drop", "Deny")])).default("accept"),
                        field("Priority", "Priority", FieldKind::Number)
                            .default("1")
                            .rule("number"),
                        field(
                            "Protocol Type",
                            "IpProtocol",
                            select(&[
                                ("tcp", "Custom TCP"),
                                ("udp", "Custom UDP"),
                                ("icmp", "ICMP (IPv4)"),
                                ("all", "All"),
                            ]),
                        )
                        .required()
                        .default("tcp"),
                        field("Port Range", "PortRange", FieldKind::Text)
                            .required()
                            .placeholder("22/22"),
                        field("Authorization Object", "SourceCidrIp", FieldKind::Text)
                            .required()
                            .placeholder("0.0.0.0/0"),
                        field("Description", "Description", FieldKind::Text),
                    ],
                )],
            )
            .for_row("SecurityGroupId")
            .success("The rule is added."),
        ),
        call(
            "Delete",
            More,
            "DeleteSecurityGroup",
            "SecurityGroupId",
            confirm(
                "Delete Security Group",
                "Are you sure you want to delete the security group?",
            ),
        ),
    ];
    groups.tabs = vec![basic(&[
        ("Security Group ID", "SecurityGroupId"),
        ("Security Group Name", "SecurityGroupName"),
        ("VPC", "VpcId"),
        ("Security Group Type", "SecurityGroupType"),
        ("Description", "Description"),
        ("Created At", "CreationTime"),
    ])];

    let mut disks = page(
        "disks",
        "Block Storage",
        "DescribeDisks",
        "Disks.Disk",
        "DiskId",
        "DiskName",
    );
    disks.id_param = s("DiskIds");
    disks.columns = vec![
        col("Disk ID/Name", "DiskId", ColumnKind::IdName),
        col("Disk Category", "Category", ColumnKind::Text).labels(&[
            ("cloud_essd", "ESSD"),
            ("cloud_auto", "ESSD AutoPL"),
            ("cloud_efficiency", "Ultra Disk"),
            ("cloud_ssd", "Standard SSD"),
        ]),
        col("Status", "Status", ColumnKind::Status),
        col("Capacity (GiB)", "Size", ColumnKind::Text),
        col("Zone", "ZoneId", ColumnKind::Zone),
        col("Attached Instance", "InstanceId", ColumnKind::Mono),
        col("Created At", "CreationTime", ColumnKind::Time),
    ];
    disks.creates = vec![
        form(
            "buy-disk",
            "Create Disk",
            "Create Disk",
            Container::BuyPage,
            "CreateDisk",
            vec![step(
                "Disk",
                vec![
                    zone(),
                    field(
                        "Disk Category",
                        "DiskCategory",
                        select(&[
                            ("cloud_essd", "ESSD"),
                            ("cloud_auto", "ESSD AutoPL"),
                            ("cloud_efficiency", "Ultra Disk"),
                        ]),
                    )
                    .required()
                    .default("cloud_essd"),
                    field("Capacity (GiB)", "Size", FieldKind::Number)
                        .required()
                        .default("40")
                        .rule("number"),
                    field("Disk Name", "DiskName", FieldKind::Text).rule("name"),
                ],
            )],
        )
        .success("The order is complete. The disk is being created."),
    ];
    disks.search = search(&[
        ("Disk ID", "DiskIds"),
        ("Disk Name", "DiskName"),
        ("Instance ID", "InstanceId"),
    ]);
    disks.row_actions = vec![
        row_form(
            "Create Snapshot",
            Inline,
            form(
                "create-snapshot",
                "Create Snapshot",
                "Create Snapshot",
                Container::Dialog,
                "CreateSnapshot",
                vec![step(
                    "",
                    vec![
                        field("Snapshot Name", "SnapshotName", FieldKind::Text).rule("name"),
                        field("Description", "Description", FieldKind::Textarea),
                    ],
                )],
            )
            .for_row("DiskId")
            .success("The snapshot is being created."),
        ),
        row_form(
            "Attach",
            More,
            form(
                "attach-disk",
                "Attach",
                "Attach Disk",
                Container::Dialog,
                "AttachDisk",
                vec![step(
                    "",
                    vec![field("Destination Instance", "InstanceId", resources("ecs", "instances")).required()],
                )],
            )
            .for_row("DiskId"),
        )
        .disabled_when(
            "Status",
            DisableWhen::IsNot(vec![s("Available")]),
            "Only disks in the Unattached state can be attached.",
        ),
        call(
            "Release",
            More,
            "DeleteDisk",
            "DiskId",
            confirm("Release Disk", "Are you sure you want to release the disk?"),
        )
        .disabled_when(
            "Status",
            DisableWhen::Is(vec![s("In_use")]),
            "Detach the disk from its instance before you release it.",
        ),
    ];
    disks.tabs = vec![basic(&[
        ("Disk ID", "DiskId"),
        ("Disk Name", "DiskName"),
        ("Disk Category", "Category"),
        ("Status", "Status"),
        ("Capacity (GiB)", "Size"),
        ("Zone", "ZoneId"),
        ("Attached Instance", "InstanceId"),
    ])];

    let mut snapshots = page(
        "snapshots",
        "Snapshots",
        "DescribeSnapshots",
        "Snapshots.Snapshot",
        "SnapshotId",
        "SnapshotName",
    );
    snapshots.id_param = s("SnapshotIds");
    snapshots.columns = vec![
        col("Snapshot ID/Name", "SnapshotId", ColumnKind::IdName),
        col("Disk ID", "SourceDiskId", ColumnKind::Mono),
        col("Disk Capacity (GiB)", "SourceDiskSize", ColumnKind::Text),
        col("Status", "Status", ColumnKind::Status),
        col("Progress", "Progress", ColumnKind::Text),
        col("Created At", "CreationTime", ColumnKind::Time),
    ];
    snapshots.search = search(&[
        ("Snapshot ID", "SnapshotIds"),
        ("Snapshot Name", "SnapshotName"),
        ("Disk ID", "DiskId"),
    ]);
    snapshots.row_actions = vec![call(
        "Delete",
        Inline,
        "DeleteSnapshot",
        "SnapshotId",
        confirm("Delete Snapshot", "Are you sure you want to delete the snapshot?"),
    )];
    snapshots.batch_actions = vec![batch_call(
        "Delete",
        "DeleteSnapshot",
        "SnapshotId",
        confirm(
            "Delete Snapshot",
            "Are you sure you want to delete the selected snapshots?",
        ),
    )];

    ProductSpec {

        gate: None,
        code: s("ecs"),
        api: s("ecs"),
        name: s("Elastic Compute Service"),
        nav: nav(&[
            ("Instances & Images", &[("Instances", "instances")]),
            ("Network & Security", &[("Security Groups", "security-groups")]),
            (
                "Storage & Snapshots",
                &[("Block Storage", "disks"), ("Snapshots", "snapshots")],
            ),
        ]),
        pages: vec![instances, groups, disks, snapshots],
    }
}

pub fn rds() -> ProductSpec {
    let mut instances = page(
        "instances",
        "Instances",
        "DescribeDBInstances",
        "Items.DBInstance",
        "DBInstanceId",
        "DBInstanceDescription",
    );
    instances.total_path = Some(s("TotalRecordCount"));
    instances.columns = vec![
        col("Instance ID/Name", "DBInstanceId", ColumnKind::IdName),
        col("Status", "DBInstanceStatus", ColumnKind::Status),
        col("Database Engine", "Engine", ColumnKind::Text),
        col("Engine Version", "EngineVersion", ColumnKind::Text),
        col("Instance Type", "DBInstanceClass", ColumnKind::Text),
        col("Zone", "ZoneId", ColumnKind::Zone),
        col("Billing Method", "PayType", ColumnKind::Text)
            .labels(&[("Postpaid", "Pay-as-you-go"), ("Prepaid", "Subscription")]),
        col("Created At", "CreateTime", ColumnKind::Time),
    ];
    instances.creates = vec![
        form(
            "buy-rds",
            "Create Instance",
            "ApsaraDB RDS",
            Container::BuyPage,
            "CreateDBInstance",
            vec![
                step(
                    "Basic Configurations",
                    vec![
                        billing("PayType", "Postpaid", "Prepaid"),
                        field(
                            "Database Engine",
                            "Engine",
                            select(&[
                                ("MySQL", "MySQL"),
                                ("PostgreSQL", "PostgreSQL"),
                                ("SQLServer", "SQL Server"),
                                ("MariaDB", "MariaDB"),
                            ]),
                        )
                        .required()
                        .default("MySQL"),
                        field(
                            "Engine Version",
                            "EngineVersion",
                            select(&[("8.0", "8.0"), ("5.7", "5.7"), ("16.0", "16.0")]),
                        )
                        .required()
                        .default("8.0"),
                        zone(),
                        field(
                            "Instance Type",
                            "DBInstanceClass",
                            select(&[
                                ("mysql.n2.medium.1", "mysql.n2.medium.1 (2 cores, 4 GB)"),
                                ("mysql.n2.large.1", "mysql.n2.large.1 (4 cores, 8 GB)"),
                                ("pg.n2.medium.1", "pg.n2.medium.1 (2 cores, 4 GB)"),
                            ]),
                        )
                        .required()
                        .default("mysql.n2.medium.1"),
                        field(
                            "Storage Type",
                            "DBInstanceStorageType",
                            select(&[("cloud_essd", "ESSD PL1"), ("general_essd", "Premium ESSD")]),
                        )
                        .default("cloud_essd"),
                        field("Storage Capacity (GB)", "DBInstanceStorage", FieldKind::Number)
                            .required()
                            .default("20")
                            .rule("number"),
                    ],
                ),
                step(
                    "Instance Configuration",
                    vec![
                        field("VPC", "VPCId", resources("vpc", "vpcs"))
                            .required()
                            .placeholder("Select a VPC"),
                        vswitch(),
                        field("IP Address Whitelist", "SecurityIPList", FieldKind::Text)
                            .required()
                            .default("127.0.0.1"),
                        field("Instance Name", "DBInstanceDescription", FieldKind::Text).rule("name"),
                    ],
                ),
            ],
        )
        .fixed(&[("DBInstanceNetType", "Intranet"), ("InstanceNetworkType", "VPC")])
        .success("The order is complete. The instance is being created."),
    ];
    instances.search = search(&[("Instance ID", "DBInstanceId"), ("Instance Name", "SearchKey")]);
    instances.row_actions = vec![
        details(Inline),
        call(
            "Restart",
            More,
            "RestartDBInstance",
            "DBInstanceId",
            confirm(
                "Restart Instance",
                "Are you sure you want to restart the instance? Connections are interrupted.",
            ),
        )
        .disabled_when(
            "DBInstanceStatus",
            DisableWhen::IsNot(vec![s("Running")]),
            "Only running instances can be restarted.",
        ),
        call(
            "Release Instance",
            More,
            "DeleteDBInstance",
            "DBInstanceId",
            // release-instance.md: "In the dialog box, click Confirm".
            confirm("Release Instance", "Are you sure you want to release the instance?").ok("Confirm"),
        ),
    ];
    instances.tabs = vec![basic(&[
        ("Instance ID", "DBInstanceId"),
        ("Instance Name", "DBInstanceDescription"),
        ("Status", "DBInstanceStatus"),
        ("Database Engine", "Engine"),
        ("Engine Version", "EngineVersion"),
        ("Instance Type", "DBInstanceClass"),
        ("Zone", "ZoneId"),
        ("VPC", "VpcId"),
        ("vSwitch", "VSwitchId"),
        ("Created At", "CreateTime"),
    ])];
    // release-instance.md: the Basic Information page's Operating Status area.
    instances.status_area = Some(StatusArea {
        heading: s("Operating Status"),
        status_path: s("DBInstanceStatus"),
        actions: vec![s("Release Instance")],
        switches: Vec::new(),
    });
    // The instance's own navigation pane (create-account.md, configure-ip-whitelist.md).
    instances.sub_nav = nav(&[(
        "",
        &[
            ("Basic Information", "instances"),
            ("Accounts", "accounts"),
            ("Whitelist And SecGroup", "whitelist"),
        ],
    )]);
    ProductSpec {
        gate: None,
        code: s("rds"),
        api: s("rds"),
        name: s("ApsaraDB RDS"),
        nav: nav(&[("", &[("Instances", "instances")])]),
        pages: vec![instances, rds_accounts(), rds_whitelist()],
    }
}

/// An instance's Accounts page with Create Account (create-account.md).
fn rds_accounts() -> PageSpec {
    let mut accounts = page(
        "accounts",
        "Accounts",
        "DescribeAccounts",
        "Accounts.DBInstanceAccount",
        "AccountName",
        "AccountName",
    )
    .under("instances", "DBInstanceId");
    accounts.total_path = None;
    accounts.columns = vec![
        col("Account", "AccountName", ColumnKind::Mono),
        col("Account Type", "AccountType", ColumnKind::Text)
            .labels(&[("Super", "Privileged Account"), ("Normal", "Standard Account")]),
        col("Status", "AccountStatus", ColumnKind::Status),
        col("Description", "AccountDescription", ColumnKind::Text),
    ];
    accounts.creates = vec![
        form(
            "create-rds-account",
            "Create Account",
            "Create Account",
            Container::Drawer,
            "CreateAccount",
            vec![step(
                "",
                vec![
                    field("Database Account", "AccountName", FieldKind::Text)
                        .required()
                        .help("2 to 32 characters: lowercase letters, digits and underscores (_), starting with a letter."),
                    field(
                        "Account Type",
                        "AccountType",
                        radio(&[("Super", "Privileged Account"), ("Normal", "Standard Account")]),
                    )
                    .default("Normal"),
                    field("New Password", "AccountPassword", FieldKind::Password)
                        .required()
                        .rule("password"),
                    field("Confirm Password", "ConfirmAccountPassword", FieldKind::Password)
                        .required()
                        .not_sent(),
                    field("Description", "AccountDescription", FieldKind::Textarea),
                ],
            )],
        )
        .success("The account is created."),
    ];
    accounts
}

pub fn tair() -> ProductSpec {
    let mut instances = page(
        "instances",
        "Instances",
        "DescribeInstances",
        "Instances.KVStoreInstance",
        "InstanceId",
        "InstanceName",
    );
    instances.id_param = s("InstanceIds");
    instances.columns = vec![
        col("Instance ID/Name", "InstanceId", ColumnKind::IdName),
        // The console's names for the API's states (instance-states-and-impacts, 2024-11-14).
        col("Status", "InstanceStatus", ColumnKind::Status).labels(&[
            ("Normal", "Running"),
            ("Changing", "Changing Configuration"),
            ("Rebooting", "Restarting"),
            ("Transforming", "Converting"),
        ]),
        col("Zone", "ZoneId", ColumnKind::Zone),
        col("Instance Type", "InstanceClass", ColumnKind::Text),
        col("Engine Version", "EngineVersion", ColumnKind::Text),
        col("Billing Method", "ChargeType", ColumnKind::Text)
            .labels(&[("PostPaid", "Pay-as-you-go"), ("PrePaid", "Subscription")]),
        col("Created At", "CreateTime", ColumnKind::Time),
    ];
    instances.creates = vec![
        form(
            "buy-tair",
            "Create Instance",
            "Tair (Redis OSS-compatible) (Pay-As-You-Go)",
            Container::BuyPage,
            "CreateInstance",
            vec![
                step(
                    "Basic Configurations",
                    vec![
                        billing("ChargeType", "PostPaid", "PrePaid"),
                        field(
                            "Engine Version",
                            "EngineVersion",
                            select(&[("7.0", "7.0"), ("6.0", "6.0"), ("5.0", "5.0")]),
                        )
                        .required()
                        .default("7.0"),
                        zone(),
                        vpc(),
                        vswitch(),
                        field(
                            "Instance Type",
                            "InstanceClass",
                            select(&[
                                (
                                    "redis.master.small.default",
                                    "1 GB Standard (redis.master.small.default)",
                                ),
                                ("redis.master.mid.default", "2 GB Standard (redis.master.mid.default)"),
                                (
                                    "redis.master.stand.default",
                                    "4 GB Standard (redis.master.stand.default)",
                                ),
                                ("tair.rdb.1g", "Tair 1 GB (tair.rdb.1g)"),
                            ]),
                        )
                        .required()
                        .default("redis.master.small.default"),
                    ],
                ),
                step(
                    "Instance Configuration",
                    vec![
                        field("Instance Name", "InstanceName", FieldKind::Text).rule("name"),
                        field("Password", "Password", FieldKind::Password).rule("password"),
                    ],
                ),
            ],
        )
        .fixed(&[("InstanceType", "Redis")])
        .success("The order is complete. The instance is being created."),
    ];
    instances.search = search(&[("Instance ID", "InstanceIds"), ("Instance Name", "SearchKey")]);
    instances.row_actions =
        vec![
            details(Inline),
            row_form(
                "Set Whitelist",
                More,
                form(
                    "set-whitelist",
                    "Set Whitelist",
                    "Modify Whitelist",
                    Container::Dialog,
                    "ModifySecurityIps",
                    vec![step(
                        "",
                        vec![field("IP Addresses", "SecurityIps", FieldKind::Textarea)
                        .required()
                        .default("127.0.0.1")
                        .help("IP addresses or CIDR blocks separated by commas, for example 10.0.0.0/8,192.168.1.1.")],
                    )],
                )
                .for_row("InstanceId")
                .success("The whitelist is modified."),
            ),
            // restart-instance.md (2026-03-28): "In the Actions column for the target instance,
            // click restart", a panel with the Restart Mode and a risk notice to accept.
            row_form(
                "Restart",
                Inline,
                form(
                    "restart-tair",
                    "Restart",
                    "Restart Instance",
                    Container::Drawer,
                    "RestartInstance",
                    vec![step(
                        "",
                        vec![
                            field(
                                "Restart Mode",
                                "EffectiveTime",
                                radio(&[
                                    ("Immediately", "Restart Now"),
                                    ("MaintainTime", "Restart Within Maintenance Window"),
                                ]),
                            )
                            .default("Immediately"),
                            field(
                                "I have read the risk notice: the instance may lose data and its connections are interrupted briefly while it restarts.",
                                "RiskAccepted",
                                FieldKind::Checkbox,
                            )
                            .required()
                            .not_sent(),
                        ],
                    )],
                )
                .for_row("InstanceId")
                .success("The instance is restarting."),
            )
            .disabled_when(
                "InstanceStatus",
                DisableWhen::IsNot(vec![s("Normal")]),
                "The instance can be restarted only while it is running.",
            ),
            call(
                "Release",
                More,
                "DeleteInstance",
                "InstanceId",
                confirm(
                    "Release Instance",
                    "Are you sure you want to release the instance? Its data is deleted.",
                ),
            ),
        ];
    // renewal (2026-03-28): "In the Instance Status section, turn on Automatic renewal", a panel of
    // the same name with its own switch, a prompt and the renewal duration, and Enable Automatic
    // Renewal. Pay-as-you-go instances do not require renewal.
    instances.row_actions.push(
        row_form(
            "Automatic renewal",
            AllActions,
            form(
                "auto-renew-tair",
                "Automatic renewal",
                "Automatic renewal",
                Container::Drawer,
                "ModifyInstanceAutoRenewalAttribute",
                vec![step(
                    "",
                    vec![
                        field("Automatic renewal", "AutoRenew", FieldKind::Checkbox)
                            .required()
                            .help("The system renews the instance based on the duration you set here each renewal cycle, and charges your account for it."),
                        field(
                            "Renewal Duration",
                            "Duration",
                            select(&[
                                ("1", "1 Month"),
                                ("2", "2 Months"),
                                ("3", "3 Months"),
                                ("6", "6 Months"),
                                ("12", "12 Months"),
                            ]),
                        )
                        .required()
                        .default("1"),
                    ],
                )],
            )
            .for_row("DBInstanceId")
            .submit("Enable Automatic Renewal")
            .success("Automatic renewal is enabled."),
        )
        .disabled_when(
            "ChargeType",
            DisableWhen::IsNot(vec![s("PrePaid")]),
            "Pay-as-you-go instances do not require renewal.",
        ),
    );
    instances.tabs = vec![basic(&[
        ("Instance ID", "InstanceId"),
        ("Instance Name", "InstanceName"),
        ("Status", "InstanceStatus"),
        ("Zone", "ZoneId"),
        ("Instance Type", "InstanceClass"),
        ("Engine Version", "EngineVersion"),
        ("Created At", "CreateTime"),
    ])];
    instances.status_area = Some(StatusArea {
        heading: s("Instance Status"),
        status_path: s("InstanceStatus"),
        actions: vec![s("Automatic renewal")],
        switches: vec![s("Automatic renewal")],
    });
    // The instance's own navigation pane (change-password.md, set-whitelist.md).
    instances.sub_nav = nav(&[(
        "",
        &[
            ("Instance Information", "instances"),
            ("Account Management", "accounts"),
            ("Whitelist Settings", "whitelist"),
        ],
    )]);
    ProductSpec {
        gate: None,
        code: s("tair"),
        api: s("kvstore"),
        name: s("Tair (Redis OSS-compatible)"),
        nav: nav(&[(
            "",
            &[
                ("Instances", "instances"),
                ("IP Whitelist Templates", "whitelist-templates"),
                ("Recycle Bin", "recycle-bin"),
            ],
        )]),
        pages: vec![
            instances,
            tair_accounts(),
            tair_whitelist(),
            tair_whitelist_templates(),
            tair_recycle_bin(),
        ],
    }
}

/// The IP Whitelist Templates page (configure-a-whitelist-template): Create IP Whitelist Template
/// opens a panel with the template's name, its addresses and the instances it is associated with
/// (a transfer list of Available and Selected Instances); its OK asks once more in a dialog. The
/// template is created first, then each selected instance is associated with it, keeping the
/// templates the instance already has.
fn tair_whitelist_templates() -> PageSpec {
    let mut templates = page(
        "whitelist-templates",
        "IP Whitelist Templates",
        "DescribeGlobalSecurityIPGroup",
        "GlobalSecurityIPGroup",
        "GlobalSecurityGroupId",
        "GlobalIgName",
    );
    templates.total_path = None;
    templates.columns = vec![
        col("IP Whitelist Template Name", "GlobalIgName", ColumnKind::Text),
        col("IP Addresses in Whitelist", "GIpList", ColumnKind::Mono),
        col("Associated Instances", "DBInstances", ColumnKind::Count),
    ];
    let name_help = "2 to 120 characters: lowercase letters, digits and underscores (_), starting with a letter and ending with a letter or digit.";
    let ips_help = "IP addresses or CIDR blocks separated by commas (,). Up to 1,000 entries are supported.";
    let template_fields = || {
        vec![
            field("IP Whitelist Template Name", "GlobalIgName", FieldKind::Text)
                .required()
                .help(name_help)
                .rule("template")
                .prefilled_from("GlobalIgName"),
            field("IP Addresses in Whitelist", "GIpList", FieldKind::Textarea)
                .required()
                .help(ips_help)
                .rule("ips")
                .prefilled_from("GIpList"),
        ]
    };
    let keep = Keep {
        action: s("DescribeGlobalSecurityIPGroupRelation"),
        items_path: s("GlobalSecurityIPGroupRel"),
        field: s("GlobalSecurityGroupId"),
        param: s("GlobalSecurityGroupId"),
    };
    templates.creates = vec![
        form(
            "create-whitelist-template",
            "Create IP Whitelist Template",
            "Create IP Whitelist Template",
            Container::Drawer,
            "CreateGlobalSecurityIPGroup",
            vec![
                step("", template_fields()),
                step(
                    "",
                    vec![field(
                        "Associate Instance",
                        "DBClusterId",
                        transfer("tair", "instances", "Available Instances", "Selected Instances"),
                    )],
                )
                .then(
                    "ModifyGlobalSecurityIPGroupRelation",
                    &[("GlobalSecurityGroupId", "GlobalSecurityIPGroup.0.GlobalSecurityGroupId")],
                )
                .then_each("DBClusterId", Some(keep)),
                step("", Vec::new()).confirming(
                    "Create IP Whitelist Template",
                    "The IP addresses of the template are added to the whitelists of the instances associated with it. Continue?",
                ),
            ],
        )
        .success("The IP whitelist template is created."),
    ];
    templates.row_actions = vec![
        row_form(
            "Modify",
            Inline,
            form(
                "modify-whitelist-template",
                "Modify",
                "Modify IP Whitelist Template",
                Container::Drawer,
                "ModifyGlobalSecurityIPGroup",
                vec![step("", template_fields())],
            )
            .for_row("GlobalSecurityGroupId")
            .success("The IP whitelist template is modified."),
        ),
        call(
            "Delete",
            Inline,
            "DeleteGlobalSecurityIPGroup",
            "GlobalSecurityGroupId",
            confirm(
                "Delete IP Whitelist Template",
                "Are you sure you want to delete the IP whitelist template?",
            ),
        )
        .with_row(&[("GlobalIgName", "GlobalIgName")])
        .disabled_when(
            "DBInstances",
            DisableWhen::NonEmpty,
            "Disassociate the template from its instances first.",
        ),
    ];
    templates
}

/// The Recycle Bin page (manage-instances-in-the-recycle-bin, 2024-11-15): released and expired
/// instances with Unlock, Rebuild and Destroy in their Actions column.
fn tair_recycle_bin() -> PageSpec {
    let mut bin = page(
        "recycle-bin",
        "Recycle Bin",
        "DescribeInstances",
        "Instances.KVStoreInstance",
        "InstanceId",
        "InstanceName",
    );
    bin.id_param = s("InstanceIds");
    bin.list_params = pairs(&[("InstanceStatus", "Released")]);
    bin.columns = vec![
        col("Instance ID", "InstanceId", ColumnKind::Mono),
        col("Instance Name", "InstanceName", ColumnKind::Text),
        col("Status", "InstanceStatus", ColumnKind::Status),
        col("Zone", "ZoneId", ColumnKind::Zone),
        col("Instance Type", "InstanceClass", ColumnKind::Text),
        col("Billing Method", "ChargeType", ColumnKind::Text)
            .labels(&[("PostPaid", "Pay-as-you-go"), ("PrePaid", "Subscription")]),
    ];
    bin.search = search(&[("Instance ID", "InstanceIds"), ("Instance Name", "SearchKey")]);
    bin.row_actions = vec![
        // Unlock renews an expired subscription instance, which then runs again.
        row_form(
            "Unlock",
            Inline,
            form(
                "unlock-tair",
                "Unlock",
                "Unlock Instance",
                Container::Dialog,
                "RenewInstance",
                vec![step(
                    "",
                    vec![
                        field(
                            "Renewal Duration",
                            "Period",
                            select(&[("1", "1 Month"), ("3", "3 Months"), ("6", "6 Months"), ("12", "1 Year")]),
                        )
                        .required()
                        .default("1"),
                    ],
                )],
            )
            .for_row("InstanceId")
            .success("The instance is renewed and unlocked."),
        )
        .disabled_when(
            "ChargeType",
            DisableWhen::IsNot(vec![s("PrePaid")]),
            "Only expired subscription instances can be unlocked.",
        ),
        // Rebuild restores the instance's data and some settings (its port) into a new instance;
        // whitelists, passwords and parameters are set again.
        row_form(
            "Rebuild",
            Inline,
            form(
                "rebuild-tair",
                "Rebuild",
                "Rebuild Instance",
                Container::Drawer,
                "CreateInstance",
                vec![step(
                    "",
                    vec![
                        field("Instance Name", "InstanceName", FieldKind::Text).rule("name"),
                        field("Password", "Password", FieldKind::Password).rule("password"),
                    ],
                )],
            )
            .for_row("SrcDBInstanceId")
            .fixed(&[("InstanceType", "Redis"), ("ChargeType", "PostPaid")])
            .success("The order is complete. The instance is being created."),
        ),
        call(
            "Destroy",
            Inline,
            "DestroyInstance",
            "InstanceId",
            confirm(
                "Destroy Instance",
                "The instance and its data backups are deleted permanently and can no longer be restored. Are you sure you want to destroy the instance?",
            ),
        ),
    ];
    bin
}

/// A new password typed twice; only the first is sent.
fn password_twice(label: &str, param: &str) -> [Field; 2] {
    [
        field(label, param, FieldKind::Password)
            .required()
            .rule("password")
            .help("8 to 32 characters with at least three of: uppercase letters, lowercase letters, digits and special characters (! @ # $ % ^ & * ( ) _ + - =)."),
        field("Confirm Password", &format!("Confirm{param}"), FieldKind::Password)
            .required()
            .not_sent(),
    ]
}

/// An instance's Account Management page (change-password.md, 2026-03-11): Change Password in the
/// upper-right corner opens a panel where the account is chosen; Reset Password in an account's
/// Actions column needs no old password.
fn tair_accounts() -> PageSpec {
    let mut accounts = page(
        "accounts",
        "Account Management",
        "DescribeAccounts",
        "Accounts.Account",
        "AccountName",
        "AccountName",
    )
    .under("instances", "InstanceId");
    accounts.total_path = None;
    accounts.columns = vec![
        col("Account", "AccountName", ColumnKind::Mono),
        col("Status", "AccountStatus", ColumnKind::Status),
        col("Account Type", "AccountType", ColumnKind::Text)
            .labels(&[("Super", "Default Account"), ("Normal", "Standard Account")]),
        col("Description", "AccountDescription", ColumnKind::Text),
    ];
    let mut create = vec![
        field("Account Name", "AccountName", FieldKind::Text).required().help(
            "Starts with a lowercase letter; lowercase letters, digits and underscores (_), at most 100 characters.",
        ),
        field(
            "Permissions",
            "AccountPrivilege",
            radio(&[("RoleReadWrite", "Read/Write"), ("RoleReadOnly", "Read-only")]),
        )
        .default("RoleReadWrite"),
    ];
    create.extend(password_twice("Password", "AccountPassword"));
    create.push(field("Description", "AccountDescription", FieldKind::Textarea));
    let mut change = vec![
        field("Account", "AccountName", resources("tair", "accounts"))
            .required()
            .placeholder("Select an account"),
        field("Old Password", "OldAccountPassword", FieldKind::Password).required(),
    ];
    change.extend(password_twice("New Password", "NewAccountPassword"));
    accounts.creates = vec![
        form(
            "create-tair-account",
            "Create Account",
            "Create Account",
            Container::Drawer,
            "CreateAccount",
            vec![step("", create)],
        )
        .fixed(&[("AccountType", "Normal")])
        .success("The account is created."),
        form(
            "change-tair-password",
            "Change Password",
            "Change Password",
            Container::Drawer,
            "ModifyAccountPassword",
            vec![step("", change)],
        )
        .success("The password is changed."),
    ];
    accounts.row_actions = vec![
        row_form(
            "Reset Password",
            Inline,
            form(
                "reset-tair-password",
                "Reset Password",
                "Reset Password",
                Container::Drawer,
                "ResetAccountPassword",
                vec![step("", password_twice("New Password", "AccountPassword").to_vec())],
            )
            .for_row("AccountName")
            .success("The password is reset."),
        ),
        call(
            "Delete",
            Inline,
            "DeleteAccount",
            "AccountName",
            confirm("Delete Account", "Are you sure you want to delete the account?"),
        )
        .disabled_when(
            "AccountType",
            DisableWhen::IsNot(vec![s("Normal")]),
            "The default account cannot be deleted.",
        ),
    ];
    accounts
}

/// How a database console lists an instance's IP address whitelists and modifies them in a dialog.
struct Whitelists<'a> {
    title: &'a str,
    list_action: &'a str,
    items_path: &'a str,
    /// The parameter naming the instance, and the one naming a whitelist.
    instance_param: &'a str,
    group_param: &'a str,
    group_column: &'a str,
    /// The row field holding a whitelist's addresses.
    ips_field: &'a str,
    name_help: &'a str,
    /// The create button's form id, label and dialog title; the Modify dialog's form id.
    create: (&'a str, &'a str, &'a str),
    modify: &'a str,
    /// Whether the dialogs offer the Add Method (typed, or imported from ECS instances).
    add_method: bool,
    /// The button beside IP Addresses that adds the browser's public address, where the dialogs
    /// have one.
    load_public_ip: Option<&'a str>,
}

fn whitelist_page(w: Whitelists<'_>) -> PageSpec {
    let mut groups = page(
        "whitelist",
        w.title,
        w.list_action,
        w.items_path,
        w.group_param,
        w.group_param,
    )
    .under("instances", w.instance_param);
    groups.total_path = None;
    groups.columns = vec![
        col(w.group_column, w.group_param, ColumnKind::Mono),
        col("IP Addresses", w.ips_field, ColumnKind::Text),
    ];
    let ips = |id: &str, trigger: &str, title: &str, named: bool| {
        let mut fields = Vec::new();
        if named {
            fields.push(
                field("Whitelist Name", w.group_param, FieldKind::Text)
                    .required()
                    .help(w.name_help),
            );
        }
        if w.add_method {
            fields.push(
                field(
                    "Add Method",
                    "AddMethod",
                    radio(&[("manual", "Manually Modify"), ("ecs", "Import ECS Internal IP Address")]),
                )
                .default("manual")
                .not_sent(),
            );
        }
        let mut addresses = field("IP Addresses", "SecurityIps", FieldKind::Textarea)
            .required()
            .prefilled_from(w.ips_field)
            .help("IP addresses or CIDR blocks separated by commas (,), without spaces.");
        if let Some(label) = w.load_public_ip {
            addresses = addresses.adds_client_ip(label);
        }
        fields.push(addresses);
        form(
            id,
            trigger,
            title,
            Container::Dialog,
            "ModifySecurityIps",
            vec![step("", fields)],
        )
        .success("The whitelist is modified.")
    };
    let (create_id, create_trigger, create_title) = w.create;
    groups.creates = vec![ips(create_id, create_trigger, create_title, true)];
    groups.row_actions = vec![row_form(
        "Modify",
        Inline,
        ips(w.modify, "Modify", "Modify Whitelist", false).for_row(w.group_param),
    )];
    groups
}

/// An RDS instance's Whitelist And SecGroup page (configure-ip-whitelist.md).
fn rds_whitelist() -> PageSpec {
    whitelist_page(Whitelists {
        title: "Whitelist And SecGroup",
        list_action: "DescribeDBInstanceIPArrayList",
        items_path: "Items.DBInstanceIPArray",
        instance_param: "DBInstanceId",
        group_param: "DBInstanceIPArrayName",
        group_column: "Whitelist",
        ips_field: "SecurityIPList",
        name_help: "2 to 32 characters: lowercase letters, digits and underscores (_).",
        create: ("create-whitelist", "Create Whitelist", "Create Whitelist"),
        modify: "modify-whitelist",
        add_method: false,
        // configure-ip-whitelist.md (2025-12-01).
        load_public_ip: Some("Load Local Public IP Address"),
    })
}

/// A Tair instance's Whitelist Settings page (set-whitelist.md): the default whitelist modified
/// from its Actions column, others added with Add Whitelist.
fn tair_whitelist() -> PageSpec {
    whitelist_page(Whitelists {
        title: "Whitelist Settings",
        list_action: "DescribeSecurityIps",
        items_path: "SecurityIpGroups.SecurityIpGroup",
        instance_param: "InstanceId",
        group_param: "SecurityIpGroupName",
        group_column: "Whitelist Name",
        ips_field: "SecurityIpList",
        name_help: "2 to 32 characters: lowercase letters, digits and underscores (_), starting with a lowercase letter and ending with a lowercase letter or digit.",
        create: ("add-tair-whitelist", "Add Whitelist", "Add Whitelist"),
        modify: "modify-tair-whitelist",
        add_method: true,
        load_public_ip: None,
    })
}
