//! Every example page parses to the steps, labels, menu paths, containers and values it states.

use std::path::PathBuf;

use aca_docs::{
    CalloutKind, ContainerKind, DocError, Format, Procedure, Step, StepAction, parse, parse_html, parse_markdown,
};

fn page(name: &str) -> Procedure {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "pages", name].iter().collect();
    parse(path.to_str().unwrap(), Format::Auto).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn step<'a>(p: &'a Procedure, number: &str) -> &'a Step {
    p.steps
        .iter()
        .flat_map(|s| s.flatten())
        .find(|s| s.number == number)
        .unwrap_or_else(|| panic!("{}: no step {number}", p.title))
}

fn container(s: &Step) -> Option<(ContainerKind, &str)> {
    s.container.as_ref().map(|c| (c.kind, c.name.as_str()))
}

fn values(s: &Step) -> Vec<(Option<&str>, &str)> {
    s.values
        .iter()
        .map(|v| (v.label.as_deref(), v.value.as_str()))
        .collect()
}

#[test]
fn create_vpc_markdown() {
    let p = page("vpc-create-vpc.md");
    assert_eq!(p.title, "Virtual Private Cloud:Create a VPC");
    assert_eq!(p.product.as_deref(), Some("Virtual Private Cloud"));
    assert_eq!(p.task, "Create a VPC");
    assert_eq!(p.last_updated.as_deref(), Some("2026-03-14"));
    assert_eq!(p.prerequisites.len(), 1);
    assert_eq!(p.precautions.len(), 2);
    assert_eq!(p.steps.len(), 6);
    assert_eq!(
        p.steps.iter().map(|s| s.number.as_str()).collect::<Vec<_>>(),
        ["1", "2", "3", "4", "5", "6"]
    );

    let s1 = step(&p, "1");
    assert_eq!(s1.opens_console.as_deref(), Some("VPC"));
    assert_eq!(s1.actions, [StepAction::OpenConsole]);

    let s2 = step(&p, "2");
    assert_eq!(s2.menu_path, ["VPCs"]);
    assert_eq!(s2.labels, ["VPCs"]);
    assert_eq!(s2.actions, [StepAction::Navigate]);

    assert_eq!(step(&p, "3").actions, [StepAction::SelectRegion]);
    // The note inside step 3 is a callout, not part of the step.
    assert!(!step(&p, "3").text.contains("Note"));
    assert_eq!(p.notes.len(), 1);
    assert_eq!(p.notes[0].kind, CalloutKind::Note);
    assert!(p.notes[0].text.starts_with("The VPC and the cloud resources"));

    let s4 = step(&p, "4");
    assert_eq!(container(s4), Some((ContainerKind::Page, "VPCs")));
    assert_eq!(s4.labels, ["VPCs", "Create VPC"]);
    assert_eq!(s4.actions, [StepAction::Click]);

    let s5 = step(&p, "5");
    assert_eq!(container(s5), Some((ContainerKind::Page, "Create VPC")));
    assert_eq!(s5.substeps.len(), 3);
    let s51 = step(&p, "5.1");
    assert_eq!(s51.labels, ["VPC", "Name", "IPv4 CIDR Block"]);
    assert_eq!(
        values(s51),
        [(Some("Name"), "web-vpc"), (Some("IPv4 CIDR Block"), "192.168.0.0/16")]
    );
    let s52 = step(&p, "5.2");
    assert_eq!(values(s52), [(Some("Name"), "web-vsw-1")]);
    assert_eq!(s52.actions, [StepAction::Enter, StepAction::Select]);
    assert_eq!(values(step(&p, "5.3")), [(Some("IPv4 CIDR Block"), "192.168.1.0/24")]);

    let s6 = step(&p, "6");
    assert_eq!(s6.labels, ["OK"]);
    assert_eq!(s6.actions, [StepAction::Confirm]);

    assert_eq!(p.parameters.len(), 1);
    let t = &p.parameters[0];
    assert_eq!(t.step.as_deref(), Some("6"));
    assert_eq!(
        t.rows.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(),
        ["Name", "IPv4 CIDR Block", "Description"]
    );
    assert_eq!(t.rows[0].example.as_deref(), Some("web-vpc"));
    assert_eq!(t.rows[1].default.as_deref(), Some("192.168.0.0/16"));
    assert_eq!(t.rows[1].required, Some(true));
    assert_eq!(t.rows[2].required, Some(false));

    assert!(p.expected_result.as_deref().unwrap().contains("Available"));
    assert_eq!(p.related_api, ["CreateVpc", "CreateVSwitch"]);
}

#[test]
fn scraped_html_copy_gives_the_labels_of_its_bold_twin() {
    let md = page("vpc-create-vpc.md");
    let html = page("vpc-create-vpc.scraped.html");
    assert_eq!(md.title, html.title);
    assert_eq!(md.last_updated, html.last_updated);
    assert_eq!(md.prerequisites, html.prerequisites);
    assert_eq!(md.precautions, html.precautions);
    assert_eq!(md.notes, html.notes);
    assert_eq!(md.related_api, html.related_api);
    let flat = |p: &Procedure| p.steps.iter().flat_map(|s| s.flatten()).cloned().collect::<Vec<_>>();
    let (a, b) = (flat(&md), flat(&html));
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.number, y.number);
        assert_eq!(x.labels, y.labels, "step {}", x.number);
        assert_eq!(x.menu_path, y.menu_path, "step {}", x.number);
        assert_eq!(x.container, y.container, "step {}", x.number);
        assert_eq!(x.values, y.values, "step {}", x.number);
        assert_eq!(x.actions, y.actions, "step {}", x.number);
        assert_eq!(x.opens_console, y.opens_console, "step {}", x.number);
    }
    assert_eq!(md.parameters, html.parameters);
}

#[test]
fn create_vswitch_markdown_and_html_agree() {
    let md = page("vpc-create-vswitch.md");
    let html = page("vpc-create-vswitch.html");
    for p in [&md, &html] {
        assert_eq!(p.title, "Virtual Private Cloud:Create a vSwitch");
        assert_eq!(p.last_updated.as_deref(), Some("2026-02-02"));
        assert!(p.background.as_deref().unwrap().starts_with("A vSwitch divides a VPC"));
        assert_eq!(step(p, "2").menu_path, ["vSwitch"]);
        let s5 = step(p, "5");
        assert_eq!(container(s5), Some((ContainerKind::Dialog, "Create vSwitch")));
        assert_eq!(s5.labels, ["Create vSwitch", "OK"]);
        assert_eq!(s5.actions, [StepAction::Configure, StepAction::Confirm]);
        let t = &p.parameters[0];
        assert_eq!(t.step.as_deref(), Some("5"));
        let ex: Vec<_> = t.rows.iter().map(|r| (r.name.as_str(), r.example.as_deref())).collect();
        assert_eq!(
            ex,
            [
                ("VPC", Some("web-vpc")),
                ("Name", Some("web-vsw-2")),
                ("Zone", None),
                ("IPv4 CIDR Block", Some("192.168.2.0/24"))
            ]
        );
        assert_eq!(t.rows[2].required, Some(true));
        assert_eq!(p.notes.len(), 1);
        assert_eq!(p.notes[0].kind, CalloutKind::Important);
        assert_eq!(p.related_api, ["CreateVSwitch"]);
    }
    assert_eq!(md.steps, html.steps);
}

#[test]
fn step_sections_number_their_steps() {
    let p = page("vpc-build-network.md");
    let numbers: Vec<_> = p.steps.iter().map(|s| s.number.as_str()).collect();
    assert_eq!(
        numbers,
        [
            "Step 1 › 1",
            "Step 1 › 2",
            "Step 1 › 3",
            "Step 1 › 4",
            "Step 2 › 1",
            "Step 2 › 2",
            "Step 2 › 3"
        ]
    );
    assert_eq!(step(&p, "Step 1 › 1").section.as_deref(), Some("Step 1: Create a VPC"));
    assert_eq!(
        step(&p, "Step 2 › 1").section.as_deref(),
        Some("Step 2: Create a vSwitch")
    );
    assert_eq!(step(&p, "Step 1 › 2").menu_path, ["Virtual Private Cloud", "VPCs"]);
    assert_eq!(step(&p, "Step 2 › 1").menu_path, ["Virtual Private Cloud", "vSwitch"]);
    let s14 = step(&p, "Step 1 › 4");
    assert_eq!(
        values(s14),
        [(Some("Name"), "app-vpc"), (Some("IPv4 CIDR Block"), "10.0.0.0/8")]
    );
    assert_eq!(s14.actions, [StepAction::Enter, StepAction::Confirm]);
    let s23 = step(&p, "Step 2 › 3");
    assert_eq!(container(s23), Some((ContainerKind::Dialog, "Create vSwitch")));
    assert_eq!(
        values(s23),
        [(Some("VPC"), "app-vpc"), (Some("IPv4 CIDR Block"), "10.1.0.0/16")]
    );
    assert_eq!(
        s23.actions,
        [StepAction::Select, StepAction::Enter, StepAction::Confirm]
    );
}

#[test]
fn stop_instance_row_menu() {
    let p = page("ecs-stop-instance.md");
    assert_eq!(p.product.as_deref(), Some("Elastic Compute Service"));
    assert_eq!(step(&p, "1").opens_console.as_deref(), Some("ECS"));
    assert_eq!(step(&p, "2").menu_path, ["Instances & Images", "Instances"]);
    assert_eq!(step(&p, "3").actions, [StepAction::SelectRegion]);
    let s4 = step(&p, "4");
    assert_eq!(s4.menu_path, ["⋯", "Instance Status", "Stop"]);
    assert_eq!(s4.column.as_deref(), Some("Actions"));
    assert_eq!(container(s4), Some((ContainerKind::Page, "Instances")));
    assert_eq!(s4.labels, ["Instances", "Instance Status", "Stop", "Actions"]);
    assert_eq!(s4.actions, [StepAction::Find, StepAction::Click]);
    let s5 = step(&p, "5");
    assert_eq!(container(s5), Some((ContainerKind::Dialog, "Stop Instance")));
    assert_eq!(s5.actions, [StepAction::Confirm]);
    assert_eq!(p.precautions.len(), 2);
    assert_eq!(p.notes[0].kind, CalloutKind::Warning);
    assert_eq!(
        p.expected_result.as_deref(),
        Some("The status of the instance changes to Stopped.")
    );
    assert_eq!(p.related_api, ["StopInstance"]);
}

#[test]
fn create_instance_wizard() {
    let p = page("ecs-create-instance.md");
    assert_eq!(p.prerequisites.len(), 2);
    assert_eq!(step(&p, "3").labels, ["Instances", "Create Instance"]);
    let s4 = step(&p, "4");
    assert_eq!(container(s4), Some((ContainerKind::Tab, "Custom Launch")));
    assert_eq!(
        s4.substeps.iter().map(|s| s.number.as_str()).collect::<Vec<_>>(),
        ["4.1", "4.2", "4.3", "4.4"]
    );
    let s41 = step(&p, "4.1");
    assert_eq!(
        s41.labels,
        ["Basic Configurations", "Pay-as-you-go", "Billing Method", "Next"]
    );
    assert_eq!(values(s41), [(Some("Billing Method"), "Pay-as-you-go")]);
    assert_eq!(values(step(&p, "4.2")), [(Some("Peak Bandwidth (Mbit/s)"), "5")]);
    assert_eq!(values(step(&p, "4.3")), [(Some("Instance Name"), "web-ecs-01")]);
    let s5 = step(&p, "5");
    assert_eq!(s5.labels, ["Confirm Order"]);
    assert_eq!(s5.actions, [StepAction::Confirm]);
    let t = &p.parameters[0];
    assert_eq!(t.rows[0].example.as_deref(), Some("Pay-as-you-go"));
    assert_eq!(t.rows[0].default.as_deref(), Some("Pay-as-you-go"));
    assert_eq!(
        t.rows[1].example.as_deref(),
        Some("Alibaba Cloud Linux 3.2104 LTS 64-bit")
    );
    assert_eq!(t.rows[2].default.as_deref(), Some("ESSD"));
    assert_eq!(p.notes[0].kind, CalloutKind::Notice);
}

#[test]
fn create_ram_user_panel() {
    let p = page("ram-create-user.md");
    assert_eq!(p.product.as_deref(), Some("Resource Access Management"));
    assert_eq!(step(&p, "1").opens_console.as_deref(), Some("RAM"));
    assert_eq!(step(&p, "2").menu_path, ["Identities", "Users"]);
    let s4 = step(&p, "4");
    assert_eq!(container(s4), Some((ContainerKind::Panel, "Create User")));
    assert_eq!(s4.labels, ["Create User", "Logon Name", "Display Name"]);
    assert_eq!(
        values(s4),
        [(Some("Logon Name"), "dev-alice"), (Some("Display Name"), "Alice")]
    );
    let t = &p.parameters[0];
    assert_eq!(
        t.rows.iter().map(|r| r.required).collect::<Vec<_>>(),
        [Some(true), Some(true), Some(false)]
    );
    assert_eq!(p.next_steps, ["Add the RAM user to a user group."]);
    assert_eq!(p.related_api, ["CreateUser"]);
}

#[test]
fn add_user_to_group_row_action() {
    let p = page("ram-add-user-to-group.md");
    let s3 = step(&p, "3");
    assert_eq!(s3.labels, ["Users", "Add to Group", "Actions"]);
    assert_eq!(s3.column.as_deref(), Some("Actions"));
    assert!(s3.menu_path.is_empty());
    let s4 = step(&p, "4");
    assert_eq!(container(s4), Some((ContainerKind::Panel, "Add User to Group")));
    assert_eq!(values(s4), [(Some("User Group"), "developers")]);
    assert_eq!(step(&p, "5").actions, [StepAction::Click]);
}

#[test]
fn create_bucket_panel() {
    let p = page("oss-create-bucket.md");
    assert_eq!(step(&p, "2").menu_path, ["Buckets"]);
    assert_eq!(container(step(&p, "4")), Some((ContainerKind::Panel, "Create Bucket")));
    assert_eq!(values(step(&p, "4.1")), [(Some("Bucket Name"), "docs-assets-2026")]);
    assert_eq!(values(step(&p, "4.2")), [(Some("Region"), "China (Hangzhou)")]);
    assert_eq!(
        values(step(&p, "4.3")),
        [(Some("Storage Class"), "Standard"), (Some("ACL"), "Private")]
    );
    let defaults: Vec<_> = p.parameters[0].rows.iter().map(|r| r.default.as_deref()).collect();
    assert_eq!(defaults, [None, Some("Standard"), Some("ZRS"), Some("Private")]);
    assert_eq!(p.notes[0].kind, CalloutKind::Important);
}

#[test]
fn create_rds_instance_buy_page() {
    let p = page("rds-create-instance.md");
    assert_eq!(step(&p, "1").opens_console.as_deref(), Some("ApsaraDB RDS"));
    assert_eq!(step(&p, "2").menu_path, ["Instances"]);
    assert_eq!(container(step(&p, "5")), Some((ContainerKind::Page, "ApsaraDB RDS")));
    assert_eq!(
        values(step(&p, "5.1")),
        [
            (Some("Billing Method"), "Pay-as-you-go"),
            (Some("Database Engine"), "MySQL"),
            (Some("Engine Version"), "8.0")
        ]
    );
    assert_eq!(values(step(&p, "5.2")), [(Some("Instance Type"), "mysql.n2.medium.1")]);
    assert_eq!(step(&p, "6").actions, [StepAction::Confirm]);
    assert_eq!(p.related_api, ["CreateDBInstance"]);
}

#[test]
fn every_page_parses() {
    let dir: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "pages"].iter().collect();
    let mut n = (0, 0);
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        let p = parse(path.to_str().unwrap(), Format::Auto).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            p.product.is_some() && p.last_updated.is_some() && !p.steps.is_empty(),
            "{}",
            path.display()
        );
        if path.extension().unwrap() == "html" {
            n.1 += 1
        } else {
            n.0 += 1
        }
    }
    assert!(n.0 >= 10 && n.1 >= 3, "{n:?}");
}

#[test]
fn errors() {
    assert_eq!(parse_markdown("  \n\n"), Err(DocError::EmptyPage));
    assert_eq!(parse_html(""), Err(DocError::EmptyPage));
    assert_eq!(parse_html("<html><body>  </body></html>"), Err(DocError::EmptyPage));
    assert_eq!(
        parse_html("<html><body><script>x()</script></body></html>"),
        Err(DocError::EmptyPage)
    );
    assert!(matches!(parse_html("<h1>A\0B</h1>"), Err(DocError::UnreadableHtml(_))));
    assert!(matches!(
        parse_html("# A Markdown page\n\n1. Click OK."),
        Err(DocError::UnreadableHtml(_))
    ));
    assert_eq!(
        parse_markdown("# ECS:Overview\n\nECS is a computing service.\n\n- Fast\n- Elastic\n"),
        Err(DocError::NoSteps)
    );
    assert_eq!(
        DocError::NoSteps.to_string(),
        "the page has no Procedure section and no numbered steps"
    );
    assert_eq!(
        parse_markdown("# ECS:Stop an instance\n\n## Procedure\n\nSee the console.\n"),
        Err(DocError::EmptyProcedure("Procedure".into()))
    );
    assert!(matches!(
        parse_markdown("Just a paragraph.\n\n1. Click OK.\n"),
        Err(DocError::NotAProcedurePage(_))
    ));
    assert!(matches!(
        parse_markdown("# ECS:Stop an instance\n\nLast Updated: Smarch 40, 20x6\n\n1. Click OK.\n"),
        Err(DocError::BadDate(_))
    ));
    // Numbered steps without a Procedure section are still steps.
    let p = parse_markdown("# ECS:Stop an instance\n\n1. Log on to the ECS console.\n2. Click **OK**.\n").unwrap();
    assert_eq!(p.steps.len(), 2);
    assert_eq!(p.last_updated, None);
}

#[test]
fn parse_takes_text_too() {
    let p = parse(
        "<h1>VPC:Delete a VPC</h1><ol><li>Click <b>Delete</b>.</li></ol>",
        Format::Auto,
    )
    .unwrap();
    assert_eq!(p.steps[0].labels, ["Delete"]);
    let p = parse("# VPC:Delete a VPC\n\n1. Click **Delete**.\n", Format::Markdown).unwrap();
    assert_eq!(p.task, "Delete a VPC");
}

#[test]
fn scraped_stop_page_reads_the_stray_icon_as_the_row_menu() {
    let md = page("ecs-stop-instance.md");
    let html = page("ecs-stop-instance.scraped.html");
    assert_eq!(step(&html, "4").menu_path, ["⋯", "Instance Status", "Stop"]);
    assert_eq!(md.notes, html.notes);
    assert_eq!(md.precautions, html.precautions);
    assert_eq!(md.expected_result, html.expected_result);
    assert_eq!(md.related_api, html.related_api);
    for (x, y) in md.steps.iter().zip(&html.steps) {
        assert_eq!(
            (&x.labels, &x.menu_path, &x.container, &x.column),
            (&y.labels, &y.menu_path, &y.container, &y.column)
        );
        assert_eq!(x.actions, y.actions, "step {}", x.number);
    }
}

#[test]
fn deep_link_to_a_console_page() {
    let p = page("ecs-create-snapshot.md");
    let s1 = step(&p, "1");
    assert_eq!(s1.opens_console.as_deref(), Some("ECS"));
    assert_eq!(s1.menu_path, ["Block Storage"]);
    assert_eq!(step(&p, "2").actions, [StepAction::SelectRegion]);
    let s3 = step(&p, "3");
    assert_eq!(s3.labels, ["Block Storage", "Create Snapshot", "Actions"]);
    assert_eq!(s3.column.as_deref(), Some("Actions"));
    let s4 = step(&p, "4");
    assert_eq!(container(s4), Some((ContainerKind::Dialog, "Create Snapshot")));
    assert_eq!(values(s4), [(Some("Snapshot Name"), "web-data-snap")]);
    assert_eq!(s4.actions, [StepAction::Enter, StepAction::Confirm]);
    assert_eq!(p.notes.len(), 1);
    assert_eq!(p.notes[0].kind, CalloutKind::Important);
    assert!(p.notes[0].text.starts_with("Creating a snapshot"));
    assert_eq!(p.next_steps.len(), 2);
    assert_eq!(p.related_api, ["CreateSnapshot", "DescribeSnapshots"]);
}

#[test]
fn labels_named_only_in_passing_are_mentions() {
    let p = parse_markdown(
        "# Object Storage Service:Set the ACL of a bucket\n\n## Procedure\n\n\
         1. Choose **Redundancy for Fault Tolerance** > **Versioning**. You can also click **Buckets**. Then, click **Configure** in the **Versioning** column.\n\
         2. In the **Access Control List (ACL)** section, click **Configure**.\n\n   \
         You can set one of the following ACLs for a bucket:\n   \
         - **Private**: Only the owner of this bucket can read and write objects in the bucket.\n   \
         - **Public Read**: Only the bucket owner can perform write operations.\n",
    )
    .unwrap();
    let first = step(&p, "1");
    assert_eq!(first.mentions, ["Buckets", "Configure"]);
    assert!(first.column.is_none());
    let second = step(&p, "2");
    assert_eq!(second.mentions, ["Private", "Public Read"]);
    assert!(!second.mentions.contains(&"Configure".to_string()));
}

#[test]
fn one_of_the_following_methods_is_the_first_method_with_the_others_as_alternatives() {
    let p = parse_markdown(
        "# Classic Load Balancer:Add a TCP listener\n\n## Procedure\n\n\
         1. Log on to the **Classic Load Balancer (CLB) console**.\n\
         2. Use one of the following methods to open the listener configuration wizard:\n   \
         - On the **Instances** page, find the CLB instance and click **Configure Listener** in the **Actions** column.\n   \
         - On the **Instances** page, click the ID of the CLB instance. On the **Listener** tab, click **Add Listener**.\n\
         3. Click **Next**.\n",
    )
    .unwrap();
    let second = step(&p, "2");
    assert!(second.text.contains("Configure Listener"), "{}", second.text);
    assert!(!second.text.contains("Add Listener"), "{}", second.text);
    assert_eq!(second.alternatives.len(), 1);
    assert!(
        second.alternatives[0].contains("click Add Listener"),
        "{:?}",
        second.alternatives
    );
    assert_eq!(second.column.as_deref(), Some("Actions"));
    assert!(second.labels.iter().any(|l| l == "Add Listener"));
    assert_eq!(second.mentions, ["Listener", "Add Listener"]);
}

#[test]
fn options_described_after_one_of_the_following_are_named_in_passing() {
    let p = parse_markdown(
        "# Resource Access Management:Create a RAM role\n\n## Procedure\n\n\
         1. Log on to the **RAM console**.\n\
         2. On the **Create Role** page, set **Principal Type** to **Cloud Account**. Configure the trusted account and click **OK**.\n\n   \
         For **Principal Name**, choose one of the following:\n\n   \
         - **Current Account**: Allows all RAM users and roles within the current account to assume this role.\n   \
         - **Other Account**: Allows RAM users and roles from a different account to assume this role. Enter the ID of the trusted account.\n",
    )
    .unwrap();
    let second = step(&p, "2");
    assert_eq!(second.mentions, ["Principal Name", "Current Account", "Other Account"]);
    // What choosing an option asks for is no instruction of the step.
    assert!(
        !second.actions.contains(&aca_core::StepAction::Enter),
        "{:?}",
        second.actions
    );
    assert_eq!(second.values.len(), 1, "{:?}", second.values);
}

#[test]
fn bullets_for_cases_of_their_own_are_ways_with_the_first_followed() {
    let p = parse_markdown(
        "# Elastic Compute Service:Release an instance\n\n## Procedure\n\n\
         1. Configure the release.\n   \
         - To release only one instance, find the instance and choose **More** > **Instance Status** > **Release** in the **Actions** column.\n   \
         - If you want to release multiple instances, find them based on the **Billing Method**, select them, and click **Release** at the bottom of the list.\n",
    )
    .unwrap();
    let first = step(&p, "1");
    assert_eq!(first.menu_path, ["More", "Instance Status", "Release"]);
    assert_eq!(first.alternatives.len(), 1, "{:?}", first.alternatives);
    assert!(
        first.mentions.contains(&"Billing Method".to_string()),
        "{:?}",
        first.mentions
    );
}
