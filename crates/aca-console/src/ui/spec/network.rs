//! Networking consoles: Virtual Private Cloud (with its Elastic IP Address pages), Server Load
//! Balancer (CLB) and Alibaba Cloud DNS.

use super::*;
use crate::profile::Placement::{AllActions, Inline, More};

pub fn vpc() -> ProductSpec {
    let mut vpcs = page("vpcs", "VPCs", "DescribeVpcs", "Vpcs.Vpc", "VpcId", "VpcName");
    vpcs.page_size = 10;
    vpcs.columns = vec![
        col("Instance ID/Name", "VpcId", ColumnKind::IdName),
        col("IPv4 CIDR Block", "CidrBlock", ColumnKind::Mono),
        col("Status", "Status", ColumnKind::Status),
        col("vSwitch", "VSwitchIds.VSwitchId", ColumnKind::Count),
        col("Resource Group", "ResourceGroupId", ColumnKind::Text),
        col("Created At", "CreationTime", ColumnKind::Time),
    ];
    vpcs.creates = vec![
        form(
            "create-vpc",
            "Create VPC",
            "Create VPC",
            Container::Page,
            "CreateVpc",
            vec![
                step(
                    "VPC",
                    vec![
                    // create-vpc.md (2025-11-04): the section starts with the region; another
                    // region reloads the page there (its zones).
                    field("Region", "RegionId", FieldKind::Select(OptionSource::Regions)).required(),
                    field("Name", "VpcName", FieldKind::Text)
                        .rule("name")
                        .placeholder("Enter a name")
                        .help(
                            "The name must be 1 to 128 characters in length and cannot start with http:// or https://.",
                        ),
                    // create-vpc.md (2025-11-04) writes the VPC's field in lower case; the vSwitch
                    // section's and the Create vSwitch dialog's read "IPv4 CIDR Block".
                    field("IPv4 CIDR block", "CidrBlock", FieldKind::Cidr { suggest: true })
                        .required()
                        .rule("cidr")
                        .default("192.168.0.0/16")
                        .help("We recommend 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16, or a subnet of them."),
                    field("Description", "Description", FieldKind::Textarea),
                ],
                ),
                // The Create VPC page creates the VPC's first vSwitch too, once the VPC exists.
                step(
                    "vSwitch",
                    vec![
                        field("Name", "VSwitchName", FieldKind::Text)
                            .rule("name")
                            .placeholder("Enter a name"),
                        field("Zone", "ZoneId", FieldKind::Select(OptionSource::Zones))
                            .required()
                            .placeholder("Select a zone"),
                        field("IPv4 CIDR Block", "CidrBlock", FieldKind::Cidr { suggest: false })
                            .required()
                            .rule("cidr")
                            .help("A subnet of the VPC's CIDR block, for example 192.168.1.0/24."),
                    ],
                )
                .then("CreateVSwitch", &[("VpcId", "VpcId")]),
            ],
        )
        .success("The VPC is created."),
    ];
    vpcs.search = search(&[("Instance Name", "VpcName"), ("Instance ID", "VpcId")]);
    vpcs.row_actions = vec![
        details(Inline),
        row_form(
            "Edit",
            Inline,
            form(
                "edit-vpc",
                "Edit",
                "Edit VPC",
                Container::Dialog,
                "ModifyVpcAttribute",
                vec![step(
                    "",
                    vec![
                        field("Name", "VpcName", FieldKind::Text)
                            .rule("name")
                            .prefilled_from("VpcName"),
                        field("Description", "Description", FieldKind::Textarea).prefilled_from("Description"),
                    ],
                )],
            )
            .for_row("VpcId"),
        ),
        call(
            "Delete",
            Inline,
            "DeleteVpc",
            "VpcId",
            confirm(
                "Delete VPC",
                "Are you sure you want to delete the VPC? This operation cannot be undone.",
            ),
        )
        .disabled_when(
            "VSwitchIds.VSwitchId",
            DisableWhen::NonEmpty,
            "The VPC contains vSwitches. Delete the vSwitches before you delete the VPC.",
        ),
    ];
    vpcs.tabs = vec![
        basic(&[
            ("VPC ID", "VpcId"),
            ("Name", "VpcName"),
            ("IPv4 CIDR Block", "CidrBlock"),
            ("Status", "Status"),
            ("Region", "RegionId"),
            ("vRouter ID", "VRouterId"),
            ("Resource Group", "ResourceGroupId"),
            ("Description", "Description"),
            ("Created At", "CreationTime"),
        ]),
        children("Resource Management", "vpc", "vswitches", "VpcId"),
    ];

    let mut vswitches = page(
        "vswitches",
        "vSwitch",
        "DescribeVSwitches",
        "VSwitches.VSwitch",
        "VSwitchId",
        "VSwitchName",
    );
    vswitches.columns = vec![
        col("Instance ID/Name", "VSwitchId", ColumnKind::IdName),
        col("VPC", "VpcId", ColumnKind::Mono),
        col("Status", "Status", ColumnKind::Status),
        col("IPv4 CIDR Block", "CidrBlock", ColumnKind::Mono),
        col("Zone", "ZoneId", ColumnKind::Zone),
        col("Available IP Addresses", "AvailableIpAddressCount", ColumnKind::Text),
        col("Created At", "CreationTime", ColumnKind::Time),
    ];
    vswitches.creates = vec![
        form(
            "create-vswitch",
            "Create vSwitch",
            "Create vSwitch",
            Container::Dialog,
            "CreateVSwitch",
            vec![step(
                "vSwitch",
                vec![
                    field("VPC", "VpcId", resources("vpc", "vpcs"))
                        .required()
                        .placeholder("Select a VPC"),
                    // create-vswitch.md (2025-04-25): "The IPv4 CIDR block of the selected VPC is
                    // displayed": its primary block, or a secondary one, to carve the vSwitch from.
                    field(
                        "IPv4 CIDR Block",
                        "VpcCidrBlock",
                        FieldKind::Select(OptionSource::OfChosen {
                            field: s("VpcId"),
                            paths: vec![s("CidrBlock"), s("SecondaryCidrBlocks.SecondaryCidrBlock")],
                        }),
                    )
                    .not_sent(),
                    // create-vswitch.md (2025-04-25): the VPC's IPv6 blocks, or Do Not Assign; the
                    // emulated VPCs have no IPv6 block.
                    field("IPv6 CIDR Block", "Ipv6CidrBlock", select(&[("none", "Do Not Assign")]))
                        .default("none")
                        .not_sent(),
                    field("Name", "VSwitchName", FieldKind::Text)
                        .rule("name")
                        .placeholder("Enter a name"),
                    field("Zone", "ZoneId", FieldKind::Select(OptionSource::Zones))
                        .required()
                        .placeholder("Select a zone"),
                    field("IPv4 CIDR Block", "CidrBlock", FieldKind::Cidr { suggest: false })
                        .required()
                        .rule("cidr")
                        .help("The CIDR block must be within the CIDR block of the VPC, with a mask of 16 to 29 bits."),
                    field("Description", "Description", FieldKind::Textarea),
                ],
            )],
        )
        .success("The vSwitch is created."),
    ];
    vswitches.search = search(&[("vSwitch ID", "VSwitchId"), ("VPC ID", "VpcId"), ("Zone ID", "ZoneId")]);
    vswitches.row_actions = vec![
        details(Inline),
        call(
            "Delete",
            Inline,
            "DeleteVSwitch",
            "VSwitchId",
            confirm(
                "Delete vSwitch",
                "Are you sure you want to delete the vSwitch? This operation cannot be undone.",
            ),
        ),
    ];
    vswitches.tabs = vec![basic(&[
        ("vSwitch ID", "VSwitchId"),
        ("Name", "VSwitchName"),
        ("VPC ID", "VpcId"),
        ("IPv4 CIDR Block", "CidrBlock"),
        ("Zone", "ZoneId"),
        ("Status", "Status"),
        ("Available IP Addresses", "AvailableIpAddressCount"),
        ("Description", "Description"),
        ("Created At", "CreationTime"),
    ])];

    // Elastic IP Address pages live in the VPC console (associate-eip-ecs.md): the list, and Bind
    // Resource in the Actions column, whose dialog the older page names.
    let mut eips = page(
        "eips",
        "Elastic IP Addresses",
        "DescribeEipAddresses",
        "EipAddresses.EipAddress",
        "AllocationId",
        "Name",
    );
    eips.columns = vec![
        col("Instance ID/Name", "AllocationId", ColumnKind::IdName),
        col("IP Address", "IpAddress", ColumnKind::Mono),
        col("Status", "Status", ColumnKind::Status),
        col("Bandwidth", "Bandwidth", ColumnKind::Text),
        col("Created At", "AllocationTime", ColumnKind::Time),
    ];
    eips.search = search(&[("Instance ID", "AllocationId"), ("IP Address", "EipAddress")]);
    eips.row_actions = vec![
        row_form(
            "Bind Resource",
            Inline,
            form(
                "bind-resource",
                "Bind Resource",
                "Associate EIP with Resource",
                Container::Dialog,
                "AssociateEipAddress",
                vec![step(
                    "",
                    vec![
                        field(
                            "Instance Type",
                            "InstanceType",
                            radio(&[("EcsInstance", "ECS Instance")]),
                        )
                        .required()
                        .default("EcsInstance"),
                        field(
                            "Select an instance to associate",
                            "InstanceId",
                            resources("ecs", "instances"),
                        )
                        .required(),
                    ],
                )],
            )
            .for_row("AllocationId")
            .success("The EIP is associated with the resource."),
        )
        .disabled_when(
            "Status",
            DisableWhen::IsNot(vec![s("Available")]),
            "Only an EIP in the Available state can be associated with a resource.",
        ),
        details(Inline),
    ];
    eips.tabs = vec![basic(&[
        ("Instance ID", "AllocationId"),
        ("Name", "Name"),
        ("IP Address", "IpAddress"),
        ("Status", "Status"),
        ("Associated Instance ID", "InstanceId"),
        ("Bandwidth", "Bandwidth"),
        ("Region", "RegionId"),
        ("Created At", "AllocationTime"),
    ])];

    ProductSpec {

        gate: None,
        code: s("vpc"),
        api: s("vpc"),
        name: s("Virtual Private Cloud"),
        nav: nav(&[
            ("Virtual Private Cloud", &[("VPCs", "vpcs"), ("vSwitch", "vswitches")]),
            ("Elastic IP Address", &[("Elastic IP Addresses", "eips")]),
        ]),
        pages: vec![vpcs, vswitches, eips],
    }
}

/// A CLB instance's default server group (add-backend-servers-default-server-group.md): its
/// backend servers, and Add, a panel that picks the servers and then their weights.
fn default_server_group() -> PageSpec {
    let mut backends = page(
        "default-server-group",
        "Default Server Group",
        "DescribeLoadBalancerAttribute",
        "BackendServers.BackendServer",
        "ServerId",
        "ServerId",
    )
    .under("instances", "LoadBalancerId");
    backends.regional = true;
    backends.total_path = None;
    backends.columns = vec![
        col("Server ID", "ServerId", ColumnKind::Mono),
        col("Type", "Type", ColumnKind::Text).labels(&[("ecs", "ECS/ENI"), ("eni", "ECS/ENI"), ("eci", "ECI")]),
        col("Private IP Address", "ServerIp", ColumnKind::Mono),
        col("Weight", "Weight", ColumnKind::Text),
    ];
    backends.creates = vec![servers_panel("add-backend-servers", "AddBackendServers", false).success("The backend servers are added.")];
    backends
}

/// The Servers panel that Add opens (add-backend-servers-default-server-group.md,
/// create-vserver-group.md): a server first, then its weight and, for a vServer group, the port it
/// listens on; composed as the `BackendServers` JSON array. The default server group's panel calls
/// `action`; the Create vServer Group page's (no action) adds to its Selected Servers.
fn servers_panel(id: &str, action: &str, with_port: bool) -> FormSpec {
    let mut ports_weights = Vec::new();
    if with_port {
        ports_weights.push(
            field("Port", "Port", FieldKind::Number)
                .required()
                .rule("port")
                .placeholder("1-65535")
                .not_sent(),
        );
    }
    ports_weights.push(
        field("Weight", "Weight", FieldKind::Number)
            .required()
            .default("100")
            .rule("number")
            .help("0 to 100; a server with a weight of 0 receives no requests.")
            .not_sent(),
    );
    let server = if with_port {
        r#"[{"ServerId":"{ServerId}","Port":"{Port}","Weight":"{Weight}","Type":"{ServerType}"}]"#
    } else {
        r#"[{"ServerId":"{ServerId}","Weight":"{Weight}","Type":"{ServerType}"}]"#
    };
    form(
        id,
        "Add",
        "Servers",
        Container::Drawer,
        action,
        vec![
            step(
                "Servers",
                vec![
                    field(
                        "Backend Server Type",
                        "ServerType",
                        radio(&[("ecs", "ECS/ENI"), ("eci", "ECI")]),
                    )
                    .default("ecs")
                    .not_sent(),
                    field("Instance", "ServerId", resources("ecs", "instances"))
                        .required()
                        .placeholder("Select an instance")
                        .not_sent(),
                ],
            ),
            step("Ports/Weights", ports_weights),
        ],
    )
    .compose("BackendServers", server)
    .submit("Add")
}

/// The listener wizard's Servers panel, opened by Add More: it adds to the wizard's list of servers
/// for the default server group, which the wizard adds once the listener exists.
fn wizard_servers_panel(wizard: &str) -> FormSpec {
    let mut panel = servers_panel(&format!("{wizard}-servers"), "", false);
    panel.trigger = s("Add More");
    panel
}

/// A CLB instance's vServer groups (create-vserver-group.md): the groups, and Create vServer Group,
/// a page of its own with the group's name, a tag and Selected Servers, which the Servers panel
/// fills.
fn vserver_groups() -> PageSpec {
    let mut groups = page(
        "vserver-groups",
        "vServer groups",
        "DescribeVServerGroups",
        "VServerGroups.VServerGroup",
        "VServerGroupId",
        "VServerGroupName",
    )
    .under("instances", "LoadBalancerId");
    groups.regional = true;
    groups.total_path = None;
    groups.columns = vec![
        col("vServer Group Name", "VServerGroupName", ColumnKind::Text),
        col("vServer Group ID", "VServerGroupId", ColumnKind::Mono),
        col("Servers", "ServerCount", ColumnKind::Text),
        col("Created At", "CreateTime", ColumnKind::Time),
    ];
    groups.creates = vec![
        form(
            "create-vserver-group",
            "Create vServer Group",
            "Create vServer Group",
            Container::Page,
            "CreateVServerGroup",
            vec![step(
                "",
                vec![
                    field("vServer Group Name", "VServerGroupName", FieldKind::Text)
                        .placeholder("Enter a name")
                        .help("1 to 80 characters: letters, digits, hyphens (-), forward slashes (/), periods (.) and underscores (_)."),
                    // The page names the two boxes as fields of their own.
                    field("Tag Key", "Tag.1.Key", FieldKind::Text).placeholder("Enter a tag key"),
                    field("Tag Value", "Tag.1.Value", FieldKind::Text).placeholder("Enter a tag value"),
                    field(
                        "Selected Servers",
                        "BackendServers",
                        FieldKind::Picked(Box::new(servers_panel("vserver-group-servers", "", true))),
                    ),
                ],
            )],
        )
        .submit("Create")
        .success("The vServer group is created."),
    ];
    groups.row_actions = vec![call(
        "Delete",
        Inline,
        "DeleteVServerGroup",
        "VServerGroupId",
        confirm("Delete vServer Group", "Are you sure you want to delete the vServer group?"),
    )];
    groups
}

/// The listener wizard (add-tcp-listener.md, add-http-listener.md, add-https-listener.md): the
/// protocol chosen in its first step picks the operation it calls (`CreateLoadBalancerHTTPListener`
/// for HTTP); an HTTPS listener has an SSL Certificates step with its server certificate.
fn listener_wizard(id: &str, trigger: &str) -> FormSpec {
    let protocols = [("TCP", "TCP"), ("UDP", "UDP"), ("HTTP", "HTTP"), ("HTTPS", "HTTPS")];
    // add-https-listener.md: with HTTPS, the backend protocol is HTTP.
    let backend_protocols = [("TCP", "TCP"), ("UDP", "UDP"), ("HTTP", "HTTP")];
    form(
        id,
        trigger,
        "Configure Listener",
        Container::Wizard,
        "CreateLoadBalancer{ListenerProtocol}Listener",
        vec![
            step(
                "Protocol & Listener",
                vec![
                    field("Select Listener Protocol", "ListenerProtocol", radio(&protocols))
                        .default("TCP")
                        .not_sent(),
                    field("Backend Protocol", "BackendProtocol", select(&backend_protocols))
                        .default("TCP")
                        .not_sent()
                        .help("The protocol the listener uses to reach backend servers: the listener's own."),
                    field("Listener Port", "ListenerPort", FieldKind::Number)
                        .required()
                        .rule("port")
                        .placeholder("1-65535"),
                    field("Listener Name", "Description", FieldKind::Text)
                        .help("1 to 256 characters: letters, digits, hyphens (-), forward slashes (/), periods (.) and underscores (_)."),
                    field("Tag", "Tag", FieldKind::Tag),
                ],
            )
            .folded(
                "Advanced Settings",
                "Modify",
                vec![
                    field(
                        "Scheduling Algorithm",
                        "Scheduler",
                        radio(&[("wrr", "Weighted Round-Robin (WRR)"), ("rr", "Round-Robin (RR)")]),
                    )
                    .default("rr"),
                    field(
                        "Redirection",
                        "ListenerForward",
                        radio(&[("off", "Off"), ("on", "On")]),
                    )
                    .default("off")
                    .help("HTTP listeners: redirect requests to an HTTPS listener, which must exist."),
                ],
            ),
            step(
                "SSL Certificates",
                vec![
                    field("Server Certificate", "ServerCertificateId", resources("slb", "certificates"))
                        .required()
                        .placeholder("Select a server certificate"),
                ],
            )
            .shown_when("ListenerProtocol", "HTTPS"),
            // configure-clb-instance.md (2023-09-12): "In the Backend Servers step, select Default
            // Server Group and click Add More": the Servers panel picks a server and its weight,
            // and the servers join the instance's default server group once the listener exists.
            // A vServer group is the other choice (the listener's VServerGroupId).
            step(
                "Backend Servers",
                vec![
                    field(
                        "",
                        "ServerGroup",
                        radio(&[("default", "Default Server Group"), ("vserver", "vServer Group")]),
                    )
                    .default("default")
                    .not_sent(),
                    field("Servers Added", "BackendServers", FieldKind::Picked(Box::new(wizard_servers_panel(id))))
                        .shown_when("ServerGroup", "default")
                        .not_sent(),
                    field("vServer Group", "VServerGroupId", resources("slb", "vserver-groups"))
                        .required()
                        .placeholder("Select a vServer group")
                        .shown_when("ServerGroup", "vserver"),
                    field("Backend Server Port", "BackendServerPort", FieldKind::Number)
                        .required()
                        .rule("port")
                        .shown_when("ServerGroup", "default"),
                ],
            ),
            step(
                "Health Check",
                vec![
                    field(
                        "Enable Health Check",
                        "HealthCheckSwitch",
                        radio(&[("on", "On"), ("off", "Off")]),
                    )
                    .default("on"),
                ],
            ),
            // The servers picked for the default server group are added once the listener exists.
            step("Confirm", Vec::new())
                .then("AddBackendServers", &[])
                .then_if("BackendServers")
                .then_compose("LoadBalancerId", "{LoadBalancerId}")
                .then_compose("BackendServers", "{BackendServers}"),
        ],
    )
    .submit("Submit")
    // HTTP listeners name the health check switch and session persistence themselves.
    .compose("HealthCheck", "{HealthCheckSwitch}")
    .fixed(&[("Bandwidth", "-1"), ("StickySession", "off")])
    .success("The listener is created.")
}

/// A CLB instance's Listener tab (add-tcp-listener.md, add-http-listener.md): its listeners, and
/// Add Listener opening the listener wizard.
fn listeners() -> PageSpec {
    let mut listeners = page(
        "listeners",
        "Listener",
        "DescribeLoadBalancerListeners",
        "Listeners",
        "ListenerPort",
        "Description",
    )
    .under("instances", "LoadBalancerId");
    listeners.regional = true;
    listeners.total_path = None;
    listeners.columns = vec![
        col("Frontend Protocol/Port", "ListenerPort", ColumnKind::Mono),
        col("Name", "Description", ColumnKind::Text),
        col("Protocol", "ListenerProtocol", ColumnKind::Text).labels(&[
            ("tcp", "TCP"),
            ("udp", "UDP"),
            ("http", "HTTP"),
            ("https", "HTTPS"),
        ]),
        col("Backend Port", "BackendServerPort", ColumnKind::Mono),
        col("Status", "Status", ColumnKind::Status),
    ];
    listeners.creates = vec![listener_wizard("add-listener", "Add Listener")];
    listeners
}

/// create-certificate.md: CLB > Certificates, the server certificates HTTPS listeners use, and Add
/// Certificate, a panel that takes a certificate of Certificate Management Service (Alibaba Cloud
/// Certificates) or a third-party one (its PEM certificate and private key) for a region.
fn certificates() -> PageSpec {
    let mut certs = page(
        "certificates",
        "Certificates",
        "DescribeServerCertificates",
        "ServerCertificates.ServerCertificate",
        "ServerCertificateId",
        "ServerCertificateName",
    );
    certs.total_path = None;
    certs.columns = vec![
        col("Certificate Name", "ServerCertificateName", ColumnKind::Text),
        col("Certificate ID", "ServerCertificateId", ColumnKind::Mono),
        col("Certificate Source", "IsAliCloudCertificate", ColumnKind::Text)
            .labels(&[("1", "Alibaba Cloud Certificates"), ("0", "Third-party Certificates")]),
        col("Fingerprint", "Fingerprint", ColumnKind::Mono),
        col("Created At", "CreateTime", ColumnKind::Time),
    ];
    let source = "CertificateSource";
    let (alicloud, third_party) = ("alicloud", "third-party");
    certs.creates = vec![
        form(
            "add-certificate",
            "Add Certificate",
            "Add Certificate",
            Container::Drawer,
            "UploadServerCertificate",
            vec![step(
                "",
                vec![
                    field(
                        "Certificate Source",
                        source,
                        radio(&[(alicloud, "Alibaba Cloud Certificates"), (third_party, "Third-party Certificates")]),
                    )
                    .default(alicloud)
                    .not_sent(),
                    field("Certificate", "AliCloudCertificateId", resources("slb", "alicloud-certificates"))
                        .required()
                        .placeholder("Select a certificate")
                        .shown_when(source, alicloud),
                    field("Certificate Name", "ServerCertificateName", FieldKind::Text)
                        .shown_when(source, third_party),
                    field("Public Key Certificate", "ServerCertificate", FieldKind::Content)
                        .required()
                        .placeholder("-----BEGIN CERTIFICATE-----")
                        .shown_when(source, third_party),
                    field("Private Key", "PrivateKey", FieldKind::Content)
                        .required()
                        .placeholder("-----BEGIN PRIVATE KEY-----")
                        .shown_when(source, third_party),
                    field("Region", "RegionId", FieldKind::Select(OptionSource::Regions)).required(),
                ],
            )],
        )
        .submit("Create")
        .success("The certificate is created."),
    ];
    certs.row_actions = vec![call(
        "Delete",
        Inline,
        "DeleteServerCertificate",
        "ServerCertificateId",
        confirm("Delete Certificate", "Are you sure you want to delete the certificate?"),
    )];
    certs
}

/// The certificates of Certificate Management Service that Add Certificate offers under Alibaba
/// Cloud Certificates (create-certificate.md): the service's own list, which the CLB console
/// reads; no page of the navigation pane.
fn alicloud_certificates() -> PageSpec {
    let mut certs = page(
        "alicloud-certificates",
        "Alibaba Cloud Certificates",
        "ListUserCertificateOrder",
        "CertificateOrderList",
        "CertificateId",
        "Name",
    );
    certs.api = Some(s("cas"));
    certs.regional = false;
    certs.page_param = s("CurrentPage");
    certs.list_params = pairs(&[("OrderType", "UPLOAD")]);
    certs.columns = vec![
        col("Certificate Name", "Name", ColumnKind::Text),
        col("Certificate ID", "CertificateId", ColumnKind::Mono),
    ];
    certs
}

pub fn slb() -> ProductSpec {
    let mut lbs = page(
        "instances",
        "Instances",
        "DescribeLoadBalancers",
        "LoadBalancers.LoadBalancer",
        "LoadBalancerId",
        "LoadBalancerName",
    );
    lbs.columns = vec![
        col("Instance Name/ID", "LoadBalancerId", ColumnKind::IdName),
        col("IP Address", "Address", ColumnKind::Mono),
        col("Status", "LoadBalancerStatus", ColumnKind::Status),
        col("Network Type", "AddressType", ColumnKind::Text)
            .labels(&[("internet", "Public-facing"), ("intranet", "Internal-facing")]),
        col("Specification", "LoadBalancerSpec", ColumnKind::Text),
        col("Created At", "CreateTime", ColumnKind::Time),
    ];
    lbs.creates = vec![
        form(
            "buy-clb",
            "Create CLB",
            "CLB (Pay-As-You-Go)",
            Container::BuyPage,
            "CreateLoadBalancer",
            vec![
                // create-clb-instance.md (2026-03-19); Backup Zone from the 2025-01-09 version.
                step(
                    "Basic Configurations",
                    vec![
                        field("Region", "RegionId", FieldKind::Select(OptionSource::Regions)).required(),
                        field(
                            "Zone Type",
                            "ZoneType",
                            radio(&[("multi", "Multi-zone"), ("single", "Single zone")]),
                        )
                        .default("multi")
                        .not_sent(),
                        field("Primary Zone", "MasterZoneId", FieldKind::Select(OptionSource::Zones))
                            .placeholder("Select a zone"),
                        field("Backup Zone", "SlaveZoneId", FieldKind::Select(OptionSource::Zones))
                            .placeholder("Select a zone")
                            .shown_when("ZoneType", "multi"),
                        field("Instance Name", "LoadBalancerName", FieldKind::Text).rule("name"),
                        field(
                            "Instance Type",
                            "AddressType",
                            radio(&[("internet", "Internet"), ("intranet", "Intranet")]),
                        )
                        .required()
                        .default("internet"),
                        // One version offered, as the buy page's radio buttons show it; the
                        // group carries the field's name.
                        field("IP Version", "AddressIPVersion", radio(&[("ipv4", "IPv4")])).default("ipv4"),
                        field(
                            "Instance Specification",
                            "LoadBalancerSpec",
                            select(&[
                                ("slb.s1.small", "Shared-Performance (slb.s1.small)"),
                                ("slb.s2.small", "Standard I (slb.s2.small)"),
                                ("slb.s3.small", "Higher I (slb.s3.small)"),
                            ]),
                        )
                        .default("slb.s1.small"),
                    ],
                ),
                step(
                    "Network",
                    vec![
                        field("VPC", "VpcId", resources("vpc", "vpcs")).placeholder("Select a VPC"),
                        field("vSwitch", "VSwitchId", resources("vpc", "vswitches")).placeholder("Select a vSwitch"),
                    ],
                ),
            ],
        )
        .fixed(&[("PayType", "PayOnDemand")])
        .success("The order is complete. The CLB instance is being created."),
    ];
    lbs.search = search(&[
        ("Instance Name", "LoadBalancerName"),
        ("Instance ID", "LoadBalancerId"),
        ("IP Address", "Address"),
    ]);
    lbs.row_actions = vec![
        row_form(
            "Configure Listener",
            Inline,
            listener_wizard("listener-wizard", "Configure Listener").for_row("LoadBalancerId"),
        ),
        details(Inline),
        call(
            "Release",
            More,
            "DeleteLoadBalancer",
            "LoadBalancerId",
            confirm(
                "Release",
                "Are you sure you want to release the CLB instance? Its listeners are deleted too.",
            ),
        ),
        call(
            "Stop",
            AllActions,
            "SetLoadBalancerStatus",
            "LoadBalancerId",
            confirm(
                "Stop",
                "Are you sure you want to stop the CLB instance? It stops forwarding traffic.",
            ),
        )
        .with_fixed(&[("LoadBalancerStatus", "inactive")]),
    ];
    lbs.tabs = vec![basic(&[
        ("Instance ID", "LoadBalancerId"),
        ("Instance Name", "LoadBalancerName"),
        ("Status", "LoadBalancerStatus"),
        ("IP Address", "Address"),
        ("Network Type", "AddressType"),
        ("VPC", "VpcId"),
        ("vSwitch", "VSwitchId"),
        ("Created At", "CreateTime"),
    ])];
    lbs.tabs
        .push(children("Listener", "slb", "listeners", "LoadBalancerId"));
    // add-backend-servers-default-server-group.md: the instance's Default Server Group tab.
    lbs.tabs.push(children(
        "Default Server Group",
        "slb",
        "default-server-group",
        "LoadBalancerId",
    ));
    // create-vserver-group.md: the instance's vServer groups tab.
    lbs.tabs.push(children("vServer groups", "slb", "vserver-groups", "LoadBalancerId"));
    ProductSpec {
        gate: None,
        code: s("slb"),
        api: s("slb"),
        name: s("Classic Load Balancer (CLB)"),
        nav: nav(&[(
            "CLB",
            &[
                ("Instances", "instances"),
                ("Expired Instances", "expired-instances"),
                ("Certificates", "certificates"),
            ],
        )]),
        pages: vec![
            lbs,
            expired_instances(),
            listeners(),
            default_server_group(),
            vserver_groups(),
            certificates(),
            alicloud_certificates(),
        ],
    }
}

/// release-idle-clb-instance.md: the pay-as-you-go instances the console counts as idle, each with
/// Settings (its details) and Release. Which instances have been idle for seven days is not
/// emulated: every pay-as-you-go instance is listed.
fn expired_instances() -> PageSpec {
    let mut expired = page(
        "expired-instances",
        "Expired Instances",
        "DescribeLoadBalancers",
        "LoadBalancers.LoadBalancer",
        "LoadBalancerId",
        "LoadBalancerName",
    );
    expired.list_params = pairs(&[("PayType", "PayOnDemand")]);
    expired.columns = vec![
        col("Instance Name/ID", "LoadBalancerId", ColumnKind::IdName),
        col("IP Address", "Address", ColumnKind::Mono),
        col("Status", "LoadBalancerStatus", ColumnKind::Status),
        col("Created At", "CreateTime", ColumnKind::Time),
    ];
    expired.row_actions = vec![
        RowAction {
            label: s("Settings"),
            placement: Inline,
            submenu: None,
            kind: ActionKind::Details,
            disabled: None,
        },
        call(
            "Release",
            Inline,
            "DeleteLoadBalancer",
            "LoadBalancerId",
            confirm(
                "Release",
                "Are you sure you want to release the CLB instance? Billing stops once it is released.",
            ),
        ),
    ];
    expired.tabs = vec![basic(&[
        ("Instance ID", "LoadBalancerId"),
        ("Instance Name", "LoadBalancerName"),
        ("IP Address", "Address"),
        ("Region", "RegionId"),
        ("Status", "LoadBalancerStatus"),
        ("Created At", "CreateTime"),
    ])];
    expired
}

pub fn dns() -> ProductSpec {
    let mut domains = page(
        "domains",
        "Public Authoritative Resolution",
        "DescribeDomains",
        "Domains.Domain",
        "DomainName",
        "DomainName",
    );
    domains.regional = false;
    domains.columns = vec![
        col("Domain Name", "DomainName", ColumnKind::IdName),
        col("Records", "RecordCount", ColumnKind::Text),
        col("Domain ID", "DomainId", ColumnKind::Mono),
        col("Created At", "CreateTime", ColumnKind::Time),
    ];
    domains.id_param = s("KeyWord");
    domains.creates = vec![
        form(
            "add-domain",
            "Add Domain Name",
            "Add Domain Name",
            Container::Dialog,
            "AddDomain",
            vec![step(
                "",
                vec![
                    field("Domain Name", "DomainName", FieldKind::Text)
                        .required()
                        .rule("domain")
                        .placeholder("example.com"),
                ],
            )],
        )
        .success("The domain name is added."),
    ];
    domains.search = search(&[("Domain Name", "KeyWord")]);
    domains.row_actions = vec![
        RowAction {
            label: s("DNS Settings"),
            placement: Inline,
            submenu: None,
            kind: ActionKind::Details,
            disabled: None,
        },
        row_form(
            "Add DNS Record",
            Inline,
            form(
                "add-record",
                "Add DNS Record",
                "Add DNS Record",
                Container::Drawer,
                "AddDomainRecord",
                vec![step(
                    "",
                    vec![
                        field(
                            "Record Type",
                            "Type",
                            select(&[
                                ("A", "A"),
                                ("CNAME", "CNAME"),
                                ("AAAA", "AAAA"),
                                ("TXT", "TXT"),
                                ("MX", "MX"),
                            ]),
                        )
                        .required()
                        .default("A"),
                        field("Hostname", "RR", FieldKind::Text).required().placeholder("www"),
                        field("Record Value", "Value", FieldKind::Text).required(),
                        field(
                            "TTL",
                            "TTL",
                            select(&[("600", "10 Minutes"), ("3600", "1 Hour"), ("86400", "1 Day")]),
                        )
                        .default("600"),
                    ],
                )],
            )
            .for_row("DomainName")
            .success("The DNS record is added."),
        ),
        call(
            "Delete",
            More,
            "DeleteDomain",
            "DomainName",
            confirm(
                "Delete Domain Name",
                "Are you sure you want to delete the domain name and all its DNS records?",
            ),
        ),
    ];
    domains.tabs = vec![
        basic(&[
            ("Domain Name", "DomainName"),
            ("Domain ID", "DomainId"),
            ("Records", "RecordCount"),
            ("Created At", "CreateTime"),
        ]),
        children("DNS Settings", "dns", "records", "DomainName"),
    ];

    let mut records = page(
        "records",
        "DNS Settings",
        "DescribeDomainRecords",
        "DomainRecords.Record",
        "RecordId",
        "RR",
    );
    records.regional = false;
    records.columns = vec![
        col("Hostname", "RR", ColumnKind::Text),
        col("Record Type", "Type", ColumnKind::Text),
        col("Record Value", "Value", ColumnKind::Mono),
        col("TTL", "TTL", ColumnKind::Text),
        col("Status", "Status", ColumnKind::Status),
    ];
    records.row_actions = vec![call(
        "Delete",
        Inline,
        "DeleteDomainRecord",
        "RecordId",
        confirm("Delete DNS Record", "Are you sure you want to delete the DNS record?"),
    )];
    ProductSpec {
        gate: None,
        code: s("dns"),
        api: s("dns"),
        name: s("Alibaba Cloud DNS"),
        nav: nav(&[("", &[("Public Authoritative Resolution", "domains")])]),
        pages: vec![domains, records],
    }
}
