//! Rules inferred from every example page of aca-docs name the event the page's operation leaves,
//! with the values the page enters; a page without a recognisable operation gets no rule.

use std::path::PathBuf;

use aca_core::{EventMatcher, EventType, ParameterTest, SuccessRule};
use aca_docs::{Format, Procedure, parse, parse_markdown};
use aca_reward::infer_rule;
use serde_json::json;

fn page(name: &str) -> Procedure {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "aca-docs", "tests", "pages", name]
        .iter()
        .collect();
    parse(path.to_str().unwrap(), Format::Auto).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn inferred(name: &str) -> (SuccessRule, String) {
    let inference = infer_rule(&page(name));
    let rule = inference
        .rule
        .unwrap_or_else(|| panic!("{name}: nothing inferred: {}", inference.explanation));
    assert!(rule.inferred, "{name}: an inferred rule says so");
    (rule, inference.explanation)
}

/// (event name, service name, parameter conditions as `Name=value`) of every matcher.
fn summary(rule: &SuccessRule) -> Vec<(String, String, Vec<String>)> {
    rule.events
        .iter()
        .map(|m: &EventMatcher| {
            let params = m
                .parameters
                .iter()
                .map(|c| match &c.test {
                    ParameterTest::Equals(v) => format!("{}={}", c.name, v.as_str().unwrap_or_default()),
                    other => format!("{} {other:?}", c.name),
                })
                .collect();
            (m.event_name.clone(), m.service_name.clone().unwrap_or_default(), params)
        })
        .collect()
}

fn expect(name: &str, want: &[(&str, &str, &[&str])]) -> SuccessRule {
    let (rule, explanation) = inferred(name);
    let want: Vec<(String, String, Vec<String>)> = want
        .iter()
        .map(|(e, s, p)| (e.to_string(), s.to_string(), p.iter().map(|x| x.to_string()).collect()))
        .collect();
    assert_eq!(summary(&rule), want, "{name}\n{explanation}");
    rule
}

#[test]
fn create_vpc_pages_need_the_vpc_and_its_first_vswitch() {
    for name in ["vpc-create-vpc.md", "vpc-create-vpc.scraped.html"] {
        let rule = expect(
            name,
            &[
                ("CreateVpc", "Vpc", &["VpcName=web-vpc", "CidrBlock=192.168.0.0/16"]),
                (
                    "CreateVSwitch",
                    "Vpc",
                    &["VSwitchName=web-vsw-1", "CidrBlock=192.168.1.0/24"],
                ),
            ],
        );
        assert_eq!(rule.events[0].resource_type.as_deref(), Some("ACS::VPC::VPC"));
    }
}

#[test]
fn create_vswitch_pages_take_values_from_the_parameter_table() {
    for name in ["vpc-create-vswitch.md", "vpc-create-vswitch.html"] {
        expect(
            name,
            &[(
                "CreateVSwitch",
                "Vpc",
                &["VSwitchName=web-vsw-2", "CidrBlock=192.168.2.0/24"],
            )],
        );
    }
}

#[test]
fn a_tutorial_is_read_section_by_section() {
    expect(
        "vpc-build-network.md",
        &[
            ("CreateVpc", "Vpc", &["VpcName=app-vpc", "CidrBlock=10.0.0.0/8"]),
            ("CreateVSwitch", "Vpc", &["CidrBlock=10.1.0.0/16"]),
        ],
    );
}

#[test]
fn ecs_pages() {
    expect(
        "ecs-create-snapshot.md",
        &[("CreateSnapshot", "Ecs", &["SnapshotName=web-data-snap"])],
    );
    for name in ["ecs-stop-instance.md", "ecs-stop-instance.scraped.html"] {
        let rule = expect(name, &[("StopInstance", "Ecs", &[])]);
        assert_eq!(rule.events[0].resource_type.as_deref(), Some("ACS::ECS::Instance"));
    }
}

#[test]
fn buy_pages_are_create_console_operations_without_parameters() {
    for (name, service, resource) in [
        ("ecs-create-instance.md", "Ecs", "ACS::ECS::Instance"),
        ("rds-create-instance.md", "Rds", "ACS::RDS::DBInstance"),
    ] {
        let (rule, explanation) = inferred(name);
        assert_eq!(rule.events.len(), 1, "{name}: {explanation}");
        let m = &rule.events[0];
        assert_eq!(
            (m.event_name.as_str(), m.service_name.as_deref(), m.event_type),
            ("Create", Some(service), Some(EventType::ConsoleOperation)),
            "{name}"
        );
        assert_eq!(m.resource_type.as_deref(), Some(resource));
        assert!(
            m.parameters.is_empty(),
            "{name}: buy-page events carry no request parameters"
        );
        assert!(explanation.contains("buy page"), "{explanation}");
    }
}

#[test]
fn oss_and_ram_pages() {
    expect(
        "oss-create-bucket.md",
        &[(
            "PutBucket",
            "Oss",
            &["BucketName=docs-assets-2026", "StorageClass=Standard"],
        )],
    );
    expect(
        "ram-create-user.md",
        &[("CreateUser", "Ims", &["UserName=dev-alice", "DisplayName=Alice"])],
    );
    expect(
        "ram-add-user-to-group.md",
        &[("AddUserToGroup", "Ims", &["GroupName=developers"])],
    );
}

#[test]
fn every_example_page_gets_a_rule() {
    let dir: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "aca-docs", "tests", "pages"]
        .iter()
        .collect();
    let mut pages = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        inferred(&name);
        pages += 1;
    }
    assert!(pages >= 13, "the example corpus has {pages} pages");
}

#[test]
fn a_related_operation_the_steps_never_perform_is_left_out() {
    let procedure = parse_markdown(
        "# Virtual Private Cloud:Create a VPC\n\n## Procedure\n\n1. Log on to the **VPC console**.\n\
         2. On the **VPCs** page, click **Create VPC**.\n3. Set **Name** to `x-vpc` and click **OK**.\n\n\
         ## Related API operations\n\n- `CreateVpc`\n- `DeleteVpc`\n- `DescribeVpcs`\n",
    )
    .unwrap();
    let inference = infer_rule(&procedure);
    let rule = inference.rule.unwrap();
    assert_eq!(rule.events.len(), 1, "{}", inference.explanation);
    assert_eq!(rule.events[0].parameters[0].test, ParameterTest::Equals(json!("x-vpc")));
    assert!(inference.explanation.contains("DeleteVpc"), "{}", inference.explanation);
}

#[test]
fn a_section_naming_the_tasks_operation_loosely_adds_no_other_operation() {
    let procedure = parse_markdown(
        "# Server Load Balancer:Add an HTTP listener\n\n## Step 1: Create a listener\n\n\
         1. Log on to the CLB console.\n\
         2. On the **Instances** page, click **Configure Listener** in the **Actions** column.\n\
         3. Configure the following parameters and click **Next**.\n",
    )
    .unwrap();
    let inference = infer_rule(&procedure);
    let rule = inference.rule.unwrap_or_else(|| panic!("{}", inference.explanation));
    let events: Vec<&str> = rule.events.iter().map(|m| m.event_name.as_str()).collect();
    assert_eq!(events, ["CreateLoadBalancerHTTPListener"], "{}", inference.explanation);
}

#[test]
fn removing_a_user_from_a_group_is_not_deleting_the_user() {
    let procedure = parse_markdown(
        "# Resource Access Management:Remove a RAM user from a RAM user group\n\n## Procedure\n\n\
         1. Log on to the **RAM console**.\n\
         2. Click the **Groups** tab. In the **Actions** column of the target RAM user group, click **Remove from Group**.\n",
    )
    .unwrap();
    let inference = infer_rule(&procedure);
    let rule = inference.rule.unwrap_or_else(|| panic!("{}", inference.explanation));
    let events: Vec<&str> = rule.events.iter().map(|m| m.event_name.as_str()).collect();
    assert_eq!(events, ["RemoveUserFromGroup"], "{}", inference.explanation);
}

#[test]
fn resetting_an_instances_logon_password_modifies_its_attributes() {
    let procedure = parse_markdown(
        "# Elastic Compute Service:Reset the logon password of an ECS instance\n\n## Procedure\n\n\
         1. Log on to the **ECS console**.\n\
         2. In the **Reset Instance Password** dialog box, configure the parameters and click **OK**.\n",
    )
    .unwrap();
    let inference = infer_rule(&procedure);
    let rule = inference.rule.unwrap_or_else(|| panic!("{}", inference.explanation));
    assert_eq!(
        rule.events[0].event_name, "ModifyInstanceAttribute",
        "{}",
        inference.explanation
    );
}

#[test]
fn a_page_without_a_recognisable_operation_gets_no_rule() {
    let procedure = parse_markdown(
        "# Elastic Compute Service:Overview of instance families\n\nLast Updated: Oct 09, 2026\n\n\
         ## Procedure\n\n1. Log on to the **ECS console**.\n2. In the left-side navigation pane, choose \
         **Instances & Images** > **Instance Types**.\n3. Read the table of instance families.\n",
    )
    .unwrap();
    let inference = infer_rule(&procedure);
    assert_eq!(inference.rule, None);
    assert!(
        inference.explanation.starts_with("No success rule could be inferred"),
        "{}",
        inference.explanation
    );
    assert!(inference.explanation.contains("Overview of instance families"));
}

#[test]
fn a_dialog_name_is_the_evidence_of_last_resort() {
    let procedure = parse_markdown(
        "# Elastic Compute Service:Back up a disk before an upgrade\n\n## Procedure\n\n\
         1. Go to ECS console - Block Storage.\n\
         2. On the **Block Storage** page, find the disk and click **Create Snapshot** in the **Actions** column.\n\
         3. In the **Create Snapshot** dialog box, set **Snapshot Name** to `pre-upgrade` and click **OK**.\n",
    )
    .unwrap();
    let inference = infer_rule(&procedure);
    let rule = inference.rule.expect("the dialog names the operation");
    assert_eq!(
        summary(&rule),
        [(
            "CreateSnapshot".to_owned(),
            "Ecs".to_owned(),
            vec!["SnapshotName=pre-upgrade".to_owned()]
        )]
    );
    assert!(
        inference.explanation.contains("Create Snapshot"),
        "{}",
        inference.explanation
    );
}

/// A page of the real-page corpus (`tests/real-pages/<product>/<name>`).
fn real_page(product: &str, name: &str) -> Procedure {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "..",
        "tests",
        "real-pages",
        product,
        name,
    ]
    .iter()
    .collect();
    parse(path.to_str().unwrap(), Format::Auto).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn alb_pages_titled_server_load_balancer_are_alb_operations_not_clb_ones() {
    for (name, event) in [
        ("create-alb-instance.md", "Create"),
        ("create-server-group.md", "CreateServerGroup"),
        ("add-http-listener.md", "CreateListener"),
    ] {
        let procedure = real_page("alb", name);
        assert_eq!(procedure.product.as_deref(), Some("Server Load Balancer"), "{name}");
        let inference = infer_rule(&procedure);
        let rule = inference
            .rule
            .unwrap_or_else(|| panic!("{name}: nothing inferred: {}", inference.explanation));
        let found: Vec<(String, String)> = rule
            .events
            .iter()
            .map(|m| (m.event_name.clone(), m.service_name.clone().unwrap_or_default()))
            .collect();
        assert_eq!(
            found,
            [(event.to_owned(), "Alb".to_owned())],
            "{name}\n{}",
            inference.explanation
        );
    }
    // A CLB page with the same title's product stays CLB's.
    let clb = infer_rule(&real_page("slb", "add-tcp-listener.md"));
    let clb = clb.rule.unwrap_or_else(|| panic!("{}", clb.explanation));
    assert_eq!(
        (clb.events[0].event_name.as_str(), clb.events[0].service_name.as_deref()),
        ("CreateLoadBalancerTCPListener", Some("Slb"))
    );
}

#[test]
fn a_page_offering_several_operations_is_done_by_any_one_of_them() {
    let inference = infer_rule(&real_page("ram", "manage-policy-grants.md"));
    let rule = inference.rule.unwrap_or_else(|| panic!("{}", inference.explanation));
    assert_eq!(rule.events.len(), 1, "one operation, whichever the reader picks");
    let names: Vec<&str> = rule.events[0].event_names().collect();
    assert_eq!(
        names,
        [
            "DetachPolicyFromUser",
            "DetachPolicyFromGroup",
            "DetachPolicyFromRole",
            "AttachPolicyToUser",
            "AttachPolicyToGroup",
            "AttachPolicyToRole"
        ]
    );
    assert_eq!(rule.events[0].resource_type, None, "users, groups and roles are different resources");
    // A label named only in passing ("You can also click Enable to enable the key again") is no
    // evidence: the page disables a key.
    let kms = infer_rule(&real_page("kms", "disable-enable-key.md")).rule.unwrap();
    assert_eq!(kms.events[0].event_name, "DisableKey");
}
