//! Management and monitoring consoles: ActionTrail and CloudMonitor.

use super::*;
use crate::profile::Placement::{Inline, More};

pub fn actiontrail() -> ProductSpec {
    let mut events = page(
        "events",
        "Event Query",
        "LookupEvents",
        "Events",
        "eventId",
        "eventName",
    );
    events.total_path = None;
    events.in_frame = true;
    events.page_size = 50;
    events.list_params = pairs(&[("MaxResults", "50")]);
    events.columns = vec![
        col("Event Time", "eventTime", ColumnKind::Time),
        col("User Name", "userIdentity.userName", ColumnKind::Text),
        col("Event Name", "eventName", ColumnKind::Text),
        col("Service Name", "serviceName", ColumnKind::Text),
        col("Event Type", "eventType", ColumnKind::Text),
        col("Region", "acsRegion", ColumnKind::Text),
        col("Error Code", "errorCode", ColumnKind::Text),
    ];
    events.search = vec![
        SearchOption {
            label: s("Event Name"),
            params: pairs(&[
                ("LookupAttribute.1.Key", "EventName"),
                ("LookupAttribute.1.Value", "{q}"),
            ]),
        },
        SearchOption {
            label: s("User Name"),
            params: pairs(&[
                ("LookupAttribute.1.Key", "UserName"),
                ("LookupAttribute.1.Value", "{q}"),
            ]),
        },
        SearchOption {
            label: s("Service Name"),
            params: pairs(&[
                ("LookupAttribute.1.Key", "ServiceName"),
                ("LookupAttribute.1.Value", "{q}"),
            ]),
        },
        SearchOption {
            label: s("Resource Name"),
            params: pairs(&[
                ("LookupAttribute.1.Key", "ResourceName"),
                ("LookupAttribute.1.Value", "{q}"),
            ]),
        },
    ];

    let mut trails = page("trails", "Trails", "DescribeTrails", "TrailList", "Name", "Name");
    trails.total_path = None;
    trails.id_param = s("NameList");
    trails.columns = vec![
        col("Trail Name", "Name", ColumnKind::IdName),
        col("Status", "Status", ColumnKind::Status),
        col("Event Type", "EventRW", ColumnKind::Text),
        col("Trail Region", "TrailRegion", ColumnKind::Text),
        col("OSS Bucket", "OssBucketName", ColumnKind::Text),
        col("Created At", "CreateTime", ColumnKind::Time),
    ];
    // create-trail.md (2026-02-06) and create-multi-account-trail.md (2026-02-14): Create Trail
    // opens the Quickly Create Trail page; Create Trail at its top opens the page with every
    // parameter. A trail created in the console delivers the events of all regions by default.
    let trail_name = || {
        field("Trail Name", "Name", FieldKind::Text)
            .required()
            .rule("trail")
            .help(
                "6 to 36 characters: lowercase letters, digits, hyphens (-) and underscores (_), \
                 starting with a letter.",
            )
    };
    let event_type = || {
        field(
            "Trail Event Type",
            "EventRW",
            radio(&[("All", "All"), ("Write", "Write"), ("Read", "Read")]),
        )
        .default("All")
    };
    let oss_bucket = || field("OSS Bucket", "OssBucketName", FieldKind::Text).placeholder("Deliver events to an OSS bucket");
    trails.creates = vec![
        form(
            "quick-create-trail",
            "Create Trail",
            "Quickly Create Trail",
            Container::Page,
            "CreateTrail",
            vec![step("Basic Information", vec![trail_name(), event_type(), oss_bucket()])],
        )
        .fuller("create-trail")
        .fixed(&[("TrailRegion", "All")])
        .submit("Create")
        .success("The trail is created."),
        form(
            "create-trail",
            "Create Trail",
            "Create Trail",
            Container::Page,
            "CreateTrail",
            vec![step(
                "Basic Information",
                vec![
                    trail_name(),
                    event_type(),
                    field(
                        "Trail Region",
                        "TrailRegion",
                        radio(&[("All", "All Regions"), ("{region}", "Current Region")]),
                    )
                    .default("All")
                    .not_sent(),
                    oss_bucket(),
                ],
            )],
        )
        .compose("TrailRegion", "{TrailRegion}")
        .submit("Create")
        .success("The trail is created."),
    ];
    trails.row_actions = vec![
        details(Inline),
        call(
            "Enable Logging",
            More,
            "StartLogging",
            "Name",
            confirm(
                "Enable Logging",
                "Events will be delivered to the trail's destinations.",
            ),
        )
        .disabled_when(
            "Status",
            DisableWhen::Is(vec![s("Enable")]),
            "Logging is already enabled.",
        ),
        call(
            "Disable Logging",
            More,
            "StopLogging",
            "Name",
            confirm("Disable Logging", "Events will no longer be delivered."),
        )
        .disabled_when(
            "Status",
            DisableWhen::IsNot(vec![s("Enable")]),
            "Logging is already disabled.",
        ),
        call(
            "Delete",
            Inline,
            "DeleteTrail",
            "Name",
            confirm("Delete Trail", "Are you sure you want to delete the trail?").ok("Confirm"),
        ),
    ];
    trails.tabs = vec![basic(&[
        ("Trail Name", "Name"),
        ("Status", "Status"),
        ("Event Type", "EventRW"),
        ("Trail Region", "TrailRegion"),
        ("Home Region", "HomeRegion"),
        ("OSS Bucket", "OssBucketName"),
        ("Created At", "CreateTime"),
    ])];

    ProductSpec {

        gate: None,
        code: s("actiontrail"),
        api: s("actiontrail"),
        name: s("ActionTrail"),
        nav: nav(&[("Events", &[("Event Query", "events")]), ("", &[("Trails", "trails")])]),
        pages: vec![events, trails],
    }
}

pub fn cms() -> ProductSpec {
    let mut rules = page(
        "alert-rules",
        "Alert Rules",
        "DescribeMetricRuleList",
        "Alarms.Alarm",
        "RuleId",
        "RuleName",
    );
    rules.total_path = Some(s("Total"));
    rules.page_param = s("Page");
    rules.id_param = s("RuleIds");
    rules.columns = vec![
        col("Rule Name", "RuleId", ColumnKind::IdName),
        col("Status", "AlertState", ColumnKind::Status),
        col("Enabled", "EnableState", ColumnKind::Text),
        col("Product", "Namespace", ColumnKind::Text),
        col("Metric", "MetricName", ColumnKind::Text),
        col("Alert Contact Group", "ContactGroups", ColumnKind::Text),
    ];
    rules.creates = vec![
        form(
            "create-alert-rule",
            "Create Alert Rule",
            "Create Alert Rule",
            Container::Drawer,
            "PutResourceMetricRule",
            // create-alert-rule.md (2026-02-27): the product and the resource range, then the
            // rule conditions, each added with Add Rule (a drop-down menu of metric types) in a
            // Configure Rule Description panel with its Critical level.
            vec![
                step(
                    "",
                    vec![
                        field("Rule ID", "RuleId", FieldKind::Generated(Generate::Id)),
                        field(
                            "Product",
                            "Namespace",
                            select(&[
                                ("acs_ecs_dashboard", "Elastic Compute Service (ECS)"),
                                ("acs_rds_dashboard", "ApsaraDB RDS"),
                                ("acs_slb_dashboard", "Server Load Balancer"),
                            ]),
                        )
                        .required()
                        .default("acs_ecs_dashboard"),
                        // All Resources: every resource of the product, new ones included.
                        // Application Groups is not emulated.
                        field(
                            "Resource Range",
                            "Resources",
                            select(&[(r#"[{"resource":"_ALL"}]"#, "All Resources")]),
                        )
                        .required()
                        .default(r#"[{"resource":"_ALL"}]"#),
                        field("Alert Contact Group", "ContactGroups", FieldKind::Text)
                            .required()
                            .placeholder("Default Contact Group"),
                    ],
                )
                .in_panel(
                    "Rule Description",
                    "Add Rule",
                    "Configure Rule Description",
                    // Only simple metrics are emulated.
                    ("MetricType", &[("simple", "Simple Metric")]),
                    vec![
                        field("Alert Rule", "RuleName", FieldKind::Text).required(),
                        field("Metric Type", "MetricType", radio(&[("simple", "Simple Metric")]))
                            .default("simple")
                            .not_sent(),
                        field(
                            "Metric",
                            "MetricName",
                            // create-alert-rule.md (2026-02-27): "select Instance Dimension >
                            // (ECS) CPU Utilization".
                            grouped_select(&[(
                                "Instance Dimension",
                                &[
                                    ("CPUUtilization", "(ECS) CPU Utilization"),
                                    ("memory_usedutilization", "(ECS) Memory Usage"),
                                    ("DiskReadBPS", "(ECS) Disk Read BPS"),
                                ],
                            )]),
                        )
                        .required()
                        .default("CPUUtilization"),
                        field(
                            "Consecutive Periods",
                            "Escalations.Critical.Times",
                            select(&[("1", "1 Period"), ("3", "3 Consecutive Periods"), ("5", "5 Consecutive Periods")]),
                        )
                        .default("3")
                        .in_section("Critical"),
                        field(
                            "Statistics",
                            "Escalations.Critical.Statistics",
                            select(&[("Maximum", "Maximum"), ("Average", "Average"), ("Minimum", "Minimum")]),
                        )
                        .default("Average")
                        .in_section("Critical"),
                        field(
                            "Comparison",
                            "Escalations.Critical.ComparisonOperator",
                            select(&[
                                ("GreaterThanThreshold", ">"),
                                ("GreaterThanOrEqualToThreshold", ">="),
                                ("LessThanThreshold", "<"),
                            ]),
                        )
                        .default("GreaterThanThreshold")
                        .in_section("Critical"),
                        field("Threshold", "Escalations.Critical.Threshold", FieldKind::Number)
                            .required()
                            .default("80")
                            .rule("number")
                            .in_section("Critical"),
                    ],
                ),
            ],
        )
        .success("The alert rule is created."),
    ];
    rules.search = search(&[("Rule Name", "RuleName"), ("Metric", "MetricName")]);
    rules.row_actions = vec![
        call(
            "Delete",
            Inline,
            "DeleteMetricRules",
            "Id.1",
            confirm("Delete Alert Rule", "Are you sure you want to delete the alert rule?"),
        ),
        call(
            "Disable",
            More,
            "DisableMetricRules",
            "RuleId.1",
            confirm("Disable Alert Rule", "Are you sure you want to disable the alert rule?"),
        )
        .disabled_when(
            "EnableState",
            DisableWhen::Is(vec![s("false")]),
            "The alert rule is already disabled.",
        ),
        call(
            "Enable",
            More,
            "EnableMetricRules",
            "RuleId.1",
            confirm("Enable Alert Rule", "Are you sure you want to enable the alert rule?"),
        )
        .disabled_when(
            "EnableState",
            DisableWhen::Is(vec![s("true")]),
            "The alert rule is already enabled.",
        ),
    ];
    rules.batch_actions = vec![batch_call(
        "Delete",
        "DeleteMetricRules",
        "Id.1",
        confirm(
            "Delete Alert Rule",
            "Are you sure you want to delete the selected alert rules?",
        ),
    )];
    rules.tabs = vec![basic(&[
        ("Rule ID", "RuleId"),
        ("Rule Name", "RuleName"),
        ("Product", "Namespace"),
        ("Metric", "MetricName"),
        ("Status", "AlertState"),
        ("Alert Contact Group", "ContactGroups"),
    ])];
    ProductSpec {
        gate: None,
        code: s("cms"),
        api: s("cms"),
        // create-alert-rule.md (2026-02-27): "the Cloud Monitor console".
        name: s("Cloud Monitor"),
        nav: nav(&[(
            "Alert Service",
            &[("Alert Rules", "alert-rules"), ("Alert Contacts", "alert-contacts")],
        )]),
        pages: vec![rules, alert_contacts()],
    }
}

/// The Alert Contacts page (create-alert-contact.md, undated; its group is Alert Service, as the newer
/// create-alert-rule.md names it): the Alert Contacts tab, and Create Alert Contact opening the Set
/// Alert Contact panel. CloudMonitor's contacts are global.
fn alert_contacts() -> PageSpec {
    let mut contacts = page(
        "alert-contacts",
        "Alert Contacts",
        "DescribeContactList",
        "Contacts.Contact",
        "Name",
        "Name",
    );
    contacts.regional = false;
    contacts.total_path = Some(s("Total"));
    contacts.id_param = s("ContactName");
    contacts.list_tabs = vec![list_tab("Alert Contacts")];
    contacts.columns = vec![
        col("Name", "Name", ColumnKind::Text),
        col("Email", "Channels.Mail", ColumnKind::Text),
        col("WebHook", "Channels.DingWebHook", ColumnKind::Mono),
    ];
    contacts.creates = vec![
        form(
            "set-alert-contact",
            "Create Alert Contact",
            "Set Alert Contact",
            Container::Drawer,
            "PutContact",
            vec![step(
                "",
                vec![
                    field("Name", "ContactName", FieldKind::Text)
                        .required()
                        .help("At most 40 characters."),
                    field("Email", "Channels.Mail", FieldKind::Text),
                    field("WebHook", "Channels.DingWebHook", FieldKind::Text)
                        .placeholder("https://"),
                    // Automatic sends no language: CloudMonitor picks the account's.
                    field(
                        "Language of Alert Notifications",
                        "Lang",
                        select(&[("", "Automatic"), ("zh-cn", "Simplified Chinese"), ("en", "English")]),
                    ),
                ],
            )],
        )
        .compose("Describe", "{ContactName}")
        .success("The alert contact is saved."),
    ];
    contacts.search = search(&[("Name", "ContactName")]);
    contacts.row_actions = vec![call(
        "Delete",
        Inline,
        "DeleteContact",
        "ContactName",
        confirm("Delete Alert Contact", "Are you sure you want to delete the alert contact?"),
    )];
    contacts
}
