//! The Application Load Balancer console, as create-alb-instance.md (2026-01-07),
//! create-server-group.md and add-http-listener.md (2026-04-01) describe it: Instances with the
//! Create ALB buy page and the Create Listener wizard, an instance's Listener tab, and Server Groups.

use super::*;
use crate::profile::Placement::{Inline, More};

/// A list page as ALB's List operations serve it: paged by `NextToken` (the console shows the
/// first page, no page numbers), one item picked by `<IdField>s.1` (`LoadBalancerIds.1`).
fn alb_page(id: &str, title: &str, list_action: &str, id_field: &str, name_field: &str) -> PageSpec {
    let items = list_action.strip_prefix("List").unwrap_or(list_action);
    let mut list = page(id, title, list_action, items, id_field, name_field);
    list.total_path = None;
    list.id_param = format!("{id_field}s.1");
    list
}

/// The listener wizard (add-http-listener.md): Configure Listener, with the idle timeout folded
/// under Advanced settings, then Select Server Group; Submit calls `CreateListener` with the group
/// as the default forwarding action.
fn listener_wizard(id: &str, trigger: &str) -> FormSpec {
    form(
        id,
        trigger,
        "Create Listener",
        Container::Wizard,
        "CreateListener",
        vec![
            step(
                "Configure Listener",
                vec![
                    field(
                        "Listener protocol",
                        "ListenerProtocol",
                        radio(&[("HTTP", "HTTP"), ("HTTPS", "HTTPS"), ("QUIC", "QUIC")]),
                    )
                    .required()
                    .default("HTTP"),
                    field("Listener port", "ListenerPort", FieldKind::Number)
                        .required()
                        .rule("port")
                        .placeholder("1-65535"),
                    field("Listener name", "ListenerDescription", FieldKind::Text).help(
                        "2 to 256 characters: letters, digits, hyphens (-), forward slashes (/), periods (.) and \
                         underscores (_).",
                    ),
                    field("Tag", "Tag", FieldKind::Tag),
                ],
            )
            .folded(
                "Advanced settings",
                "Modify",
                vec![
                    field("Idle connection timeout period", "IdleTimeout", FieldKind::Number)
                        .default("15")
                        .rule("number")
                        .help("Unit: seconds. Valid values: 1 to 600."),
                ],
            ),
            step(
                "Select Server Group",
                vec![
                    field(
                        "Server Group",
                        "DefaultActions.1.ForwardGroupConfig.ServerGroupTuples.1.ServerGroupId",
                        resources("alb", "server-groups"),
                    )
                    .required()
                    .placeholder("Select a server group"),
                ],
            ),
        ],
    )
    .submit("Submit")
    .fixed(&[("DefaultActions.1.Type", "ForwardGroup")])
    .success("The listener is created.")
}

/// The Create ALB buy page. create-alb-instance.md stops before its parameter table; the fields are
/// the buy page's as the older create-alb-instance-old.md and the API name them. The page lists
/// a zone and a vSwitch for each of at least two zones (`ZoneMappings.N`).
fn buy_page() -> FormSpec {
    let zone = |n: u8| {
        field(
            &format!("Zone {n}"),
            &format!("ZoneMappings.{n}.ZoneId"),
            FieldKind::Select(OptionSource::Zones),
        )
        .required()
        .placeholder("Select a zone")
    };
    let vswitch = |n: u8| {
        field(
            &format!("vSwitch {n}"),
            &format!("ZoneMappings.{n}.VSwitchId"),
            resources("vpc", "vswitches"),
        )
        .required()
        .placeholder("Select a vSwitch")
    };
    form(
        "buy-alb",
        "Create ALB",
        "Application Load Balancer (Pay-As-You-Go)",
        Container::BuyPage,
        "CreateLoadBalancer",
        // One page of settings, Buy Now at its foot: the page names no Next.
        vec![step(
            "",
            vec![
                field(
                    "Network Type",
                    "AddressType",
                    radio(&[("Internet", "Internet"), ("Intranet", "Intranet")]),
                )
                .required()
                .default("Internet"),
                field("VPC", "VpcId", resources("vpc", "vpcs"))
                    .required()
                    .placeholder("Select a VPC"),
                zone(1),
                vswitch(1),
                zone(2),
                vswitch(2),
                field(
                    "IP Version",
                    "AddressIpVersion",
                    radio(&[("IPv4", "IPv4"), ("DualStack", "Dual-stack")]),
                )
                .default("IPv4"),
                field(
                    "Edition",
                    "LoadBalancerEdition",
                    radio(&[
                        ("Basic", "Basic"),
                        ("Standard", "Standard"),
                        ("StandardWithWaf", "WAF-enabled"),
                    ]),
                )
                .required()
                .default("Standard"),
                field("Instance Name", "LoadBalancerName", FieldKind::Text).help(
                    "2 to 128 characters, starting with a letter or a digit: letters, digits, periods (.), \
                     underscores (_), hyphens (-) and spaces.",
                ),
            ],
        )],
    )
    .fixed(&[("LoadBalancerBillingConfig.PayType", "PostPay")])
    .success("The order is complete. The ALB instance is being created.")
}

/// An instance's Listener tab (add-http-listener.md): its listeners and Create Listener.
fn listeners() -> PageSpec {
    let mut listeners = alb_page(
        "listeners",
        "Listener",
        "ListListeners",
        "ListenerId",
        "ListenerDescription",
    )
    .under("instances", "LoadBalancerId");
    listeners.regional = true;
    listeners.columns = vec![
        col("Listener Name/ID", "ListenerId", ColumnKind::IdName),
        col("Protocol", "ListenerProtocol", ColumnKind::Text),
        col("Port", "ListenerPort", ColumnKind::Mono),
        col("Status", "ListenerStatus", ColumnKind::Status),
    ];
    listeners.creates = vec![listener_wizard("create-listener", "Create Listener")];
    listeners.row_actions = vec![call(
        "Delete",
        Inline,
        "DeleteListener",
        "ListenerId",
        confirm("Delete Listener", "Are you sure you want to delete the listener?"),
    )];
    listeners
}

/// Server Groups (create-server-group.md): Create Server Group with the group's type, name, VPC
/// and backend protocol, submitted with Create.
fn server_groups() -> PageSpec {
    let mut groups = alb_page(
        "server-groups",
        "Server Groups",
        "ListServerGroups",
        "ServerGroupId",
        "ServerGroupName",
    );
    groups.columns = vec![
        col("Server Group Name/ID", "ServerGroupId", ColumnKind::IdName),
        col("Server Group Type", "ServerGroupType", ColumnKind::Text).labels(&[
            ("Instance", "Instance"),
            ("Ip", "IP"),
            ("Fc", "Function Compute"),
        ]),
        col("VPC", "VpcId", ColumnKind::Mono),
        col("Backend Server Protocol", "Protocol", ColumnKind::Text),
        col("Status", "ServerGroupStatus", ColumnKind::Status),
        col("Created At", "CreateTime", ColumnKind::Time),
    ];
    groups.creates = vec![
        form(
            "create-server-group",
            "Create Server Group",
            "Create Server Group",
            Container::Dialog,
            "CreateServerGroup",
            vec![step(
                "",
                vec![
                    field(
                        "Server Group Type",
                        "ServerGroupType",
                        radio(&[("Instance", "Instance"), ("Ip", "IP")]),
                    )
                    .required()
                    .default("Instance"),
                    field("Server Group Name", "ServerGroupName", FieldKind::Text)
                        .required()
                        .help(
                            "2 to 128 characters, starting with a letter: letters, digits, periods (.), \
                             underscores (_) and hyphens (-).",
                        ),
                    field("VPC", "VpcId", resources("vpc", "vpcs"))
                        .required()
                        .placeholder("Select a VPC"),
                    field(
                        "Backend Server Protocol",
                        "Protocol",
                        radio(&[("HTTP", "HTTP"), ("HTTPS", "HTTPS")]),
                    )
                    .required()
                    .default("HTTP"),
                    field(
                        "Health Check",
                        "HealthCheckConfig.HealthCheckEnabled",
                        radio(&[("true", "Enable"), ("false", "Disable")]),
                    )
                    .default("true"),
                ],
            )],
        )
        .submit("Create")
        .success("The server group is created."),
    ];
    groups.search = search(&[
        ("Server Group Name", "ServerGroupNames.1"),
        ("Server Group ID", "ServerGroupIds.1"),
    ]);
    groups.row_actions = vec![call(
        "Delete",
        More,
        "DeleteServerGroup",
        "ServerGroupId",
        confirm(
            "Delete Server Group",
            "Are you sure you want to delete the server group?",
        ),
    )];
    groups
}

pub fn alb() -> ProductSpec {
    let mut lbs = alb_page(
        "instances",
        "Instances",
        "ListLoadBalancers",
        "LoadBalancerId",
        "LoadBalancerName",
    );
    lbs.columns = vec![
        col("Instance Name/ID", "LoadBalancerId", ColumnKind::IdName),
        col("Status", "LoadBalancerStatus", ColumnKind::Status),
        col("DNS Name", "DNSName", ColumnKind::Mono),
        col("Network Type", "AddressType", ColumnKind::Text),
        col("Edition", "LoadBalancerEdition", ColumnKind::Text).labels(&[("StandardWithWaf", "WAF-enabled")]),
        col("VPC", "VpcId", ColumnKind::Mono),
        col("Created At", "CreateTime", ColumnKind::Time),
    ];
    lbs.creates = vec![buy_page()];
    lbs.search = search(&[
        ("Instance Name", "LoadBalancerNames.1"),
        ("Instance ID", "LoadBalancerIds.1"),
    ]);
    lbs.row_actions = vec![
        row_form(
            "Create Listener",
            Inline,
            listener_wizard("listener-wizard", "Create Listener").for_row("LoadBalancerId"),
        ),
        call(
            "Delete",
            More,
            "DeleteLoadBalancer",
            "LoadBalancerId",
            confirm(
                "Delete Instance",
                "Are you sure you want to delete the ALB instance? Its listeners are deleted too.",
            ),
        ),
    ];
    lbs.tabs = vec![
        Tab::Basic {
            label: s("Instance Details"),
            fields: pairs(&[
                ("Instance ID", "LoadBalancerId"),
                ("Instance Name", "LoadBalancerName"),
                ("Status", "LoadBalancerStatus"),
                ("DNS Name", "DNSName"),
                ("Network Type", "AddressType"),
                ("Edition", "LoadBalancerEdition"),
                ("VPC", "VpcId"),
                ("Created At", "CreateTime"),
            ]),
        },
        children("Listener", "alb", "listeners", "LoadBalancerIds.1"),
    ];
    ProductSpec {
        gate: None,
        code: s("alb"),
        api: s("alb"),
        name: s("Application Load Balancer (ALB)"),
        nav: nav(&[("ALB", &[("Instances", "instances"), ("Server Groups", "server-groups")])]),
        pages: vec![lbs, listeners(), server_groups()],
    }
}
