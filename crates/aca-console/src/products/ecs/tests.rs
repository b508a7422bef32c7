//! Tests of ECS driven through the console, one operation family after another.

use super::*;
use crate::ConsoleConfig;
use crate::dispatch::Caller;
use crate::products::testkit::{TestConsole, items, text};

const IMAGE: &str = "aliyun_3_x64_20G_alibase_20240528.vhd";

/// A VPC, a vSwitch in cn-hangzhou-h and a security group: what every instance needs.
struct Network {
    vpc: String,
    vswitch: String,
    security_group: String,
}

fn network(t: &TestConsole, caller: &Caller) -> Network {
    let vpc = t.ok_as(
        caller,
        &vpc::PRODUCT,
        "CreateVpc",
        &[("CidrBlock", "192.168.0.0/16"), ("VpcName", "prod")],
    );
    let vpc = text(&vpc, "/VpcId").to_owned();
    let vsw = t.ok_as(
        caller,
        &vpc::PRODUCT,
        "CreateVSwitch",
        &[
            ("VpcId", &vpc),
            ("ZoneId", "cn-hangzhou-h"),
            ("CidrBlock", "192.168.1.0/24"),
        ],
    );
    let vswitch = text(&vsw, "/VSwitchId").to_owned();
    let sg = t.ok_as(
        caller,
        &PRODUCT,
        "CreateSecurityGroup",
        &[("VpcId", &vpc), ("SecurityGroupName", "web-sg")],
    );
    let security_group = text(&sg, "/SecurityGroupId").to_owned();
    Network {
        vpc,
        vswitch,
        security_group,
    }
}

fn run_one(t: &TestConsole, caller: &Caller, net: &Network, extra: &[(&str, &str)]) -> String {
    let mut params = vec![
        ("InstanceType", "ecs.g7.large"),
        ("ImageId", IMAGE),
        ("VSwitchId", net.vswitch.as_str()),
        ("SecurityGroupId", net.security_group.as_str()),
        ("InstanceName", "web-01"),
    ];
    params.extend_from_slice(extra);
    let body = t.ok_as(caller, &PRODUCT, "RunInstances", &params);
    let ids = items(&body, "/InstanceIdSets/InstanceIdSet");
    assert_eq!(ids.len(), 1, "{body}");
    ids[0].as_str().unwrap_or_default().to_owned()
}

fn describe_one(t: &TestConsole, caller: &Caller, id: &str) -> Value {
    let ids = format!("[\"{id}\"]");
    let body = t.ok_as(caller, &PRODUCT, "DescribeInstances", &[("InstanceIds", ids.as_str())]);
    let found = items(&body, "/Instances/Instance");
    assert_eq!(found.len(), 1, "{body}");
    found[0].clone()
}

fn status_of(t: &TestConsole, caller: &Caller, id: &str) -> String {
    text(&describe_one(t, caller, id), "/Status").to_owned()
}

#[test]
fn run_instances_creates_a_running_instance_with_a_system_disk() {
    let t = TestConsole::new();
    let caller = t.account("alice");
    let net = network(&t, &caller);
    let id = run_one(
        &t,
        &caller,
        &net,
        &[("InternetMaxBandwidthOut", "5"), ("SystemDisk.Size", "60")],
    );
    assert!(id.starts_with("i-"), "{id}");

    let instance = describe_one(&t, &caller, &id);
    assert_eq!(text(&instance, "/Status"), "Running");
    assert_eq!(text(&instance, "/InstanceName"), "web-01");
    assert_eq!(text(&instance, "/InstanceType"), "ecs.g7.large");
    assert_eq!(instance["Cpu"], 2);
    assert_eq!(instance["Memory"], 8192);
    assert_eq!(text(&instance, "/ZoneId"), "cn-hangzhou-h");
    assert_eq!(text(&instance, "/InstanceChargeType"), "PostPaid");
    assert_eq!(text(&instance, "/ExpiredTime"), NEVER_EXPIRES);
    assert_eq!(text(&instance, "/VpcAttributes/VpcId"), net.vpc);
    assert_eq!(text(&instance, "/VpcAttributes/VSwitchId"), net.vswitch);
    assert_eq!(
        text(&instance, "/VpcAttributes/PrivateIpAddress/IpAddress/0"),
        "192.168.1.1"
    );
    assert!(text(&instance, "/PublicIpAddress/IpAddress/0").starts_with("47."));
    assert_eq!(
        text(&instance, "/SecurityGroupIds/SecurityGroupId/0"),
        net.security_group
    );
    assert_eq!(text(&instance, "/CreationTime"), "2026-11-30T14:01Z");

    let disks = t.ok_as(&caller, &PRODUCT, "DescribeDisks", &[("InstanceId", id.as_str())]);
    let disks = items(&disks, "/Disks/Disk");
    assert_eq!(disks.len(), 1);
    assert_eq!(text(&disks[0], "/Type"), "system");
    assert_eq!(text(&disks[0], "/Status"), "In_use");
    assert_eq!(text(&disks[0], "/Category"), "cloud_essd");
    assert_eq!(disks[0]["Size"], 60);
    assert_eq!(text(&disks[0], "/Device"), "/dev/xvda");

    // A second instance takes the next free address of the vSwitch.
    let second = run_one(&t, &caller, &net, &[]);
    let second = describe_one(&t, &caller, &second);
    assert_eq!(
        text(&second, "/VpcAttributes/PrivateIpAddress/IpAddress/0"),
        "192.168.1.2"
    );
    assert_eq!(items(&second, "/PublicIpAddress/IpAddress").len(), 0);
}

#[test]
fn run_instances_launches_several_with_unique_suffixes() {
    let t = TestConsole::new();
    let caller = t.account("alice");
    let net = network(&t, &caller);
    let body = t.ok_as(
        &caller,
        &PRODUCT,
        "RunInstances",
        &[
            ("InstanceType", "ecs.c7.large"),
            ("ImageId", IMAGE),
            ("VSwitchId", &net.vswitch),
            ("SecurityGroupId", &net.security_group),
            ("InstanceName", "node"),
            ("UniqueSuffix", "true"),
            ("Amount", "3"),
            ("DataDisk.1.Category", "cloud_essd"),
            ("DataDisk.1.Size", "100"),
        ],
    );
    assert_eq!(items(&body, "/InstanceIdSets/InstanceIdSet").len(), 3);
    let list = t.ok_as(&caller, &PRODUCT, "DescribeInstances", &[("InstanceName", "node*")]);
    let mut names: Vec<&str> = items(&list, "/Instances/Instance")
        .iter()
        .filter_map(|i| i["InstanceName"].as_str())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["node001", "node002", "node003"]);
    let data = t.ok_as(&caller, &PRODUCT, "DescribeDisks", &[("DiskType", "data")]);
    assert_eq!(data["TotalCount"], 3);
    assert_eq!(text(&data, "/Disks/Disk/0/Device"), "/dev/xvdb");
}

#[test]
fn stop_and_start_pass_through_transitional_states() {
    let t = TestConsole::with_transition_delay(2_000);
    let caller = t.account("alice");
    let net = network(&t, &caller);
    t.advance(2_000); // the VPC and vSwitch become Available
    let id = run_one(&t, &caller, &net, &[]);
    assert_eq!(status_of(&t, &caller, &id), "Starting");
    let err = t.err_as(&caller, &PRODUCT, "StopInstance", &[("InstanceId", &id)]);
    assert_eq!(err.code, "IncorrectInstanceStatus");
    t.advance(2_000);
    assert_eq!(status_of(&t, &caller, &id), "Running");

    t.ok_as(&caller, &PRODUCT, "StopInstance", &[("InstanceId", &id)]);
    assert_eq!(status_of(&t, &caller, &id), "Stopping");
    let err = t.err_as(&caller, &PRODUCT, "StartInstance", &[("InstanceId", &id)]);
    assert_eq!(
        (err.code.as_str(), err.status.as_u16()),
        ("IncorrectInstanceStatus", 403)
    );
    t.advance(1_999);
    assert_eq!(status_of(&t, &caller, &id), "Stopping");
    t.advance(1);
    assert_eq!(status_of(&t, &caller, &id), "Stopped");
    let status = t.ok_as(&caller, &PRODUCT, "DescribeInstanceStatus", &[("InstanceId.1", &id)]);
    assert_eq!(text(&status, "/InstanceStatuses/InstanceStatus/0/Status"), "Stopped");

    t.ok_as(&caller, &PRODUCT, "StartInstance", &[("InstanceId", &id)]);
    assert_eq!(status_of(&t, &caller, &id), "Starting");
    t.advance(2_000);
    assert_eq!(status_of(&t, &caller, &id), "Running");
    let err = t.err_as(&caller, &PRODUCT, "StartInstance", &[("InstanceId", &id)]);
    assert_eq!(err.code, "IncorrectInstanceStatus");
}

#[test]
fn create_instance_leaves_a_stopped_instance_without_public_address() {
    let t = TestConsole::with_transition_delay(1_000);
    let caller = t.account("alice");
    let net = network(&t, &caller);
    t.advance(1_000);
    let body = t.ok_as(
        &caller,
        &PRODUCT,
        "CreateInstance",
        &[
            ("InstanceType", "ecs.t6-c1m1.large"),
            ("ImageId", IMAGE),
            ("VSwitchId", &net.vswitch),
            ("SecurityGroupId", &net.security_group),
            ("InternetMaxBandwidthOut", "10"),
        ],
    );
    let id = text(&body, "/InstanceId").to_owned();
    assert_eq!(status_of(&t, &caller, &id), "Pending");
    t.advance(1_000);
    let instance = describe_one(&t, &caller, &id);
    assert_eq!(text(&instance, "/Status"), "Stopped");
    assert_eq!(text(&instance, "/InstanceName"), id);
    assert_eq!(text(&instance, "/CreditSpecification"), "Standard");
    assert_eq!(items(&instance, "/PublicIpAddress/IpAddress").len(), 0);
}

#[test]
fn delete_instance_needs_a_stopped_instance_unless_forced() {
    let t = TestConsole::new();
    let caller = t.account("alice");
    let net = network(&t, &caller);
    let id = run_one(
        &t,
        &caller,
        &net,
        &[("DataDisk.1.Size", "40"), ("DataDisk.1.DeleteWithInstance", "false")],
    );
    let err = t.err_as(&caller, &PRODUCT, "DeleteInstance", &[("InstanceId", &id)]);
    assert_eq!(err.code, "IncorrectInstanceStatus");
    t.ok_as(
        &caller,
        &PRODUCT,
        "ModifyInstanceAttribute",
        &[("InstanceId", &id), ("DeletionProtection", "true")],
    );
    let err = t.err_as(
        &caller,
        &PRODUCT,
        "DeleteInstance",
        &[("InstanceId", &id), ("Force", "true")],
    );
    assert_eq!(err.code, "InvalidOperation.DeletionProtection");
    t.ok_as(
        &caller,
        &PRODUCT,
        "ModifyInstanceAttribute",
        &[("InstanceId", &id), ("DeletionProtection", "false")],
    );
    t.ok_as(
        &caller,
        &PRODUCT,
        "DeleteInstance",
        &[("InstanceId", &id), ("Force", "true")],
    );

    let list = t.ok_as(&caller, &PRODUCT, "DescribeInstances", &[]);
    assert_eq!(list["TotalCount"], 0);
    // The system disk went with the instance; the data disk kept for later is now Available.
    let disks = t.ok_as(&caller, &PRODUCT, "DescribeDisks", &[]);
    let disks = items(&disks, "/Disks/Disk");
    assert_eq!(disks.len(), 1);
    assert_eq!(
        (text(&disks[0], "/Type"), text(&disks[0], "/Status")),
        ("data", "Available")
    );
    let err = t.err_as(&caller, &PRODUCT, "StopInstance", &[("InstanceId", &id)]);
    assert_eq!(err.code, "InvalidInstanceId.NotFound");
}

#[test]
fn run_instances_validates_its_parameters_and_references() {
    let t = TestConsole::new();
    let caller = t.account("alice");
    let net = network(&t, &caller);
    let base = [
        ("ImageId", IMAGE),
        ("VSwitchId", net.vswitch.as_str()),
        ("SecurityGroupId", net.security_group.as_str()),
    ];
    let run = |extra: &[(&str, &str)], skip: &str| {
        let mut params: Vec<(&str, &str)> = base.iter().copied().filter(|(k, _)| *k != skip).collect();
        params.extend_from_slice(extra);
        t.err_as(&caller, &PRODUCT, "RunInstances", &params)
    };

    let e = run(&[], "");
    assert_eq!(e.code, "MissingParameter");
    assert!(e.message.contains("\"InstanceType\""), "{}", e.message);
    assert_eq!(
        run(&[("InstanceType", "ecs.g99.huge")], "").code,
        "InvalidInstanceType.ValueNotSupported"
    );
    assert_eq!(
        run(
            &[("InstanceType", "ecs.g7.large"), ("ImageId", "no_such_image.vhd")],
            "ImageId"
        )
        .code,
        "InvalidImageId.NotFound"
    );
    assert_eq!(
        run(&[("InstanceType", "ecs.g7.large")], "VSwitchId").code,
        "MissingParameter"
    );
    assert_eq!(
        run(
            &[
                ("InstanceType", "ecs.g7.large"),
                ("VSwitchId", "vsw-bp1doesnotexist0000")
            ],
            "VSwitchId"
        )
        .code,
        "InvalidVSwitchId.NotFound"
    );
    assert_eq!(
        run(
            &[
                ("InstanceType", "ecs.g7.large"),
                ("SecurityGroupId", "sg-bp1doesnotexist00000")
            ],
            "SecurityGroupId"
        )
        .code,
        "InvalidSecurityGroupId.NotFound"
    );
    let e = run(&[("InstanceType", "ecs.g7.large"), ("ZoneId", "cn-hangzhou-i")], "");
    assert_eq!(
        (e.code.as_str(), e.message.as_str()),
        (
            "InvalidParameter.Mismatch",
            "Specified virtual switch is not in the specified zone."
        )
    );
    assert_eq!(
        run(&[("InstanceType", "ecs.g7.large"), ("ZoneId", "cn-beijing-g")], "").code,
        "InvalidZoneId.NotFound"
    );
    assert_eq!(
        run(&[("InstanceType", "ecs.g7.large"), ("InstanceName", "1bad")], "").code,
        "InvalidInstanceName.Malformed"
    );
    assert_eq!(
        run(&[("InstanceType", "ecs.g7.large"), ("Password", "simple")], "").code,
        "InvalidPassword.Malformed"
    );
    assert_eq!(
        run(&[("InstanceType", "ecs.g7.large"), ("SystemDisk.Size", "10")], "").code,
        "InvalidSystemDiskSize.LessThanMinSize"
    );
    assert_eq!(
        run(
            &[("InstanceType", "ecs.g7.large"), ("SystemDisk.Category", "floppy")],
            ""
        )
        .code,
        "InvalidSystemDiskCategory.ValueNotSupported"
    );
    assert_eq!(
        run(
            &[("InstanceType", "ecs.g7.large"), ("InstanceChargeType", "PrePaid")],
            ""
        )
        .code,
        "MissingParameter"
    );
    assert_eq!(
        run(&[("InstanceType", "ecs.g7.large"), ("KeyPairName", "nobody")], "").code,
        "InvalidKeyPairName.NotFound"
    );
    assert_eq!(
        run(&[("InstanceType", "ecs.g7.large"), ("DryRun", "true")], "").code,
        "DryRunOperation"
    );

    // A security group of another VPC cannot guard an instance in this vSwitch.
    let other_vpc = t.ok_as(&caller, &vpc::PRODUCT, "CreateVpc", &[("CidrBlock", "10.0.0.0/8")]);
    let other_sg = t.ok_as(
        &caller,
        &PRODUCT,
        "CreateSecurityGroup",
        &[("VpcId", text(&other_vpc, "/VpcId"))],
    );
    let e = run(
        &[
            ("InstanceType", "ecs.g7.large"),
            ("SecurityGroupId", text(&other_sg, "/SecurityGroupId")),
        ],
        "SecurityGroupId",
    );
    assert_eq!(e.code, "InvalidParameter.Mismatch");
    assert_eq!(
        e.message,
        "Specified security group and virtual switch are not in the same VPC."
    );

    // Nothing was created by any of the failed calls.
    assert_eq!(t.ok_as(&caller, &PRODUCT, "DescribeInstances", &[])["TotalCount"], 0);
    assert_eq!(t.ok_as(&caller, &PRODUCT, "DescribeDisks", &[])["TotalCount"], 0);
}

#[test]
fn accounts_see_only_their_own_instances() {
    let t = TestConsole::new();
    let alice = t.account("alice");
    let bob = t.account("bob");
    let alice_net = network(&t, &alice);
    let bob_net = network(&t, &bob);
    let alice_instance = run_one(&t, &alice, &alice_net, &[]);
    let bob_instance = run_one(&t, &bob, &bob_net, &[]);

    let seen_by_bob = t.ok_as(&bob, &PRODUCT, "DescribeInstances", &[]);
    let ids: Vec<&str> = items(&seen_by_bob, "/Instances/Instance")
        .iter()
        .filter_map(|i| i["InstanceId"].as_str())
        .collect();
    assert_eq!(ids, [bob_instance.as_str()]);
    let asked = format!("[\"{alice_instance}\"]");
    assert_eq!(
        t.ok_as(&bob, &PRODUCT, "DescribeInstances", &[("InstanceIds", &asked)])["TotalCount"],
        0
    );
    assert_eq!(
        t.err_as(&bob, &PRODUCT, "StopInstance", &[("InstanceId", &alice_instance)])
            .code,
        "InvalidInstanceId.NotFound"
    );
    // Bob cannot launch into Alice's network either.
    let e = t.err_as(
        &bob,
        &PRODUCT,
        "RunInstances",
        &[
            ("InstanceType", "ecs.g7.large"),
            ("ImageId", IMAGE),
            ("VSwitchId", &alice_net.vswitch),
            ("SecurityGroupId", &bob_net.security_group),
        ],
    );
    assert_eq!(e.code, "InvalidVSwitchId.NotFound");
    assert_eq!(status_of(&t, &alice, &alice_instance), "Running");
}

#[test]
fn instances_are_regional() {
    let t = TestConsole::new();
    let caller = t.account("alice");
    let net = network(&t, &caller);
    let id = run_one(&t, &caller, &net, &[]);
    let elsewhere = t.ok_as(&caller, &PRODUCT, "DescribeInstances", &[("RegionId", "cn-beijing")]);
    assert_eq!(elsewhere["TotalCount"], 0);
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "StopInstance",
        &[("RegionId", "cn-beijing"), ("InstanceId", &id)],
    );
    assert_eq!(e.code, "InvalidInstanceId.NotFound");
}

#[test]
fn events_name_the_instance_and_record_failures() {
    let t = TestConsole::new();
    let caller = t.account("alice");
    let net = network(&t, &caller);
    let id = run_one(&t, &caller, &net, &[]);

    let event = t.last_event_of(&caller, "RunInstances");
    assert_eq!(event.service_name, "Ecs");
    assert_eq!(event.event_source, "ecs.aliyuncs.com");
    assert_eq!(event.api_version, "2014-05-26");
    assert_eq!(event.acs_region, "cn-hangzhou");
    assert_eq!(event.error_code, None);
    assert_eq!(event.referenced_resources.get(INSTANCE_REF), Some(&vec![id.clone()]));
    assert_eq!(
        event.referenced_resources.get(SECURITY_GROUP_REF),
        Some(&vec![net.security_group.clone()])
    );
    assert_eq!(event.referenced_resources.get(DISK_REF).map(Vec::len), Some(1));
    assert_eq!(
        event.request_parameters.get("InstanceType"),
        Some(&json!("ecs.g7.large"))
    );
    assert_eq!(
        event.response_elements.pointer("/InstanceIdSets/InstanceIdSet/0"),
        Some(&json!(id))
    );

    t.ok_as(&caller, &PRODUCT, "StopInstance", &[("InstanceId", &id)]);
    let stop = t.last_event_of(&caller, "StopInstance");
    assert_eq!(stop.referenced_resources.get(INSTANCE_REF), Some(&vec![id.clone()]));

    t.err_as(&caller, &PRODUCT, "StopInstance", &[("InstanceId", &id)]);
    let failed = t.last_event_of(&caller, "StopInstance");
    assert_eq!(failed.error_code.as_deref(), Some("IncorrectInstanceStatus"));
    assert!(failed.referenced_resources.is_empty());
}

#[test]
fn disks_attach_detach_resize_and_delete() {
    let t = TestConsole::new();
    let caller = t.account("alice");
    let net = network(&t, &caller);
    let instance = run_one(&t, &caller, &net, &[]);

    let e = t.err_as(
        &caller,
        &PRODUCT,
        "CreateDisk",
        &[("ZoneId", "cn-hangzhou-h"), ("DiskCategory", "cloud_essd")],
    );
    assert_eq!(
        (e.code.as_str(), e.message.contains("\"Size\"")),
        ("MissingParameter", true)
    );
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "CreateDisk",
        &[
            ("ZoneId", "cn-hangzhou-h"),
            ("DiskCategory", "cloud_essd"),
            ("Size", "5"),
        ],
    );
    assert_eq!(e.code, "InvalidDataDiskSize.ValueNotSupported");
    let disk = t.ok_as(
        &caller,
        &PRODUCT,
        "CreateDisk",
        &[
            ("ZoneId", "cn-hangzhou-h"),
            ("DiskCategory", "cloud_essd"),
            ("Size", "100"),
            ("DiskName", "data-1"),
        ],
    );
    let disk = text(&disk, "/DiskId").to_owned();
    let far = t.ok_as(
        &caller,
        &PRODUCT,
        "CreateDisk",
        &[("ZoneId", "cn-hangzhou-i"), ("Size", "20")],
    );
    let far = text(&far, "/DiskId").to_owned();

    let e = t.err_as(
        &caller,
        &PRODUCT,
        "AttachDisk",
        &[("InstanceId", &instance), ("DiskId", &far)],
    );
    assert_eq!(e.code, "InvalidParameter.Mismatch");
    t.ok_as(
        &caller,
        &PRODUCT,
        "AttachDisk",
        &[("InstanceId", &instance), ("DiskId", &disk)],
    );
    let described = t.ok_as(
        &caller,
        &PRODUCT,
        "DescribeDisks",
        &[("DiskIds", &format!("[\"{disk}\"]"))],
    );
    assert_eq!(text(&described, "/Disks/Disk/0/Status"), "In_use");
    assert_eq!(text(&described, "/Disks/Disk/0/InstanceId"), instance);
    assert_eq!(text(&described, "/Disks/Disk/0/Device"), "/dev/xvdb");

    let e = t.err_as(&caller, &PRODUCT, "DeleteDisk", &[("DiskId", &disk)]);
    assert_eq!((e.code.as_str(), e.status.as_u16()), ("IncorrectDiskStatus", 403));
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "AttachDisk",
        &[("InstanceId", &instance), ("DiskId", &disk)],
    );
    assert_eq!(e.code, "IncorrectDiskStatus");

    let e = t.err_as(&caller, &PRODUCT, "ResizeDisk", &[("DiskId", &disk), ("NewSize", "50")]);
    assert_eq!(e.code, "InvalidParameter");
    t.ok_as(
        &caller,
        &PRODUCT,
        "ResizeDisk",
        &[("DiskId", &disk), ("NewSize", "200"), ("Type", "online")],
    );

    let system_disk = t.ok_as(
        &caller,
        &PRODUCT,
        "DescribeDisks",
        &[("InstanceId", &instance), ("DiskType", "system")],
    );
    let system_disk = text(&system_disk, "/Disks/Disk/0/DiskId").to_owned();
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "DetachDisk",
        &[("InstanceId", &instance), ("DiskId", &system_disk)],
    );
    assert_eq!(e.code, "IncorrectInstanceStatus");

    t.ok_as(
        &caller,
        &PRODUCT,
        "DetachDisk",
        &[("InstanceId", &instance), ("DiskId", &disk)],
    );
    let described = t.ok_as(
        &caller,
        &PRODUCT,
        "DescribeDisks",
        &[("DiskIds", &format!("[\"{disk}\"]"))],
    );
    assert_eq!(text(&described, "/Disks/Disk/0/Status"), "Available");
    assert_eq!(described["Disks"]["Disk"][0]["Size"], 200);
    t.ok_as(&caller, &PRODUCT, "DeleteDisk", &[("DiskId", &disk)]);
    assert_eq!(
        t.last_event_of(&caller, "DeleteDisk")
            .referenced_resources
            .get(DISK_REF),
        Some(&vec![disk.clone()])
    );
    assert_eq!(
        t.err_as(&caller, &PRODUCT, "DeleteDisk", &[("DiskId", &disk)]).code,
        "InvalidDiskId.NotFound"
    );
}

#[test]
fn snapshots_progress_then_accomplish() {
    let t = TestConsole::with_transition_delay(4_000);
    let caller = t.account("alice");
    let disk = t.ok_as(
        &caller,
        &PRODUCT,
        "CreateDisk",
        &[("ZoneId", "cn-hangzhou-h"), ("Size", "40")],
    );
    let disk = text(&disk, "/DiskId").to_owned();
    assert_eq!(
        t.err_as(&caller, &PRODUCT, "CreateSnapshot", &[("DiskId", &disk)]).code,
        "IncorrectDiskStatus"
    );
    t.advance(4_000);

    let snapshot = t.ok_as(
        &caller,
        &PRODUCT,
        "CreateSnapshot",
        &[("DiskId", &disk), ("SnapshotName", "before-upgrade")],
    );
    let snapshot = text(&snapshot, "/SnapshotId").to_owned();
    assert!(snapshot.starts_with("s-"));
    let e = t.err_as(&caller, &PRODUCT, "CreateSnapshot", &[("DiskId", &disk)]);
    assert_eq!(e.code, "IncorrectDiskStatus.CreatingSnapshot");
    t.advance(1_000);
    let listed = t.ok_as(&caller, &PRODUCT, "DescribeSnapshots", &[("DiskId", &disk)]);
    assert_eq!(text(&listed, "/Snapshots/Snapshot/0/Status"), "progressing");
    assert_eq!(text(&listed, "/Snapshots/Snapshot/0/Progress"), "25%");
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "CreateDisk",
        &[("ZoneId", "cn-hangzhou-h"), ("SnapshotId", &snapshot)],
    );
    assert_eq!(e.code, "InvalidSnapshotId.NotReady");
    t.advance(3_000);
    let listed = t.ok_as(
        &caller,
        &PRODUCT,
        "DescribeSnapshots",
        &[("SnapshotIds", &format!("[\"{snapshot}\"]"))],
    );
    assert_eq!(text(&listed, "/Snapshots/Snapshot/0/Status"), "accomplished");
    assert_eq!(text(&listed, "/Snapshots/Snapshot/0/Progress"), "100%");
    assert_eq!(text(&listed, "/Snapshots/Snapshot/0/SourceDiskSize"), "40");
    assert_eq!(text(&listed, "/Snapshots/Snapshot/0/SourceDiskType"), "Data");

    let restored = t.ok_as(
        &caller,
        &PRODUCT,
        "CreateDisk",
        &[("ZoneId", "cn-hangzhou-h"), ("SnapshotId", &snapshot)],
    );
    assert!(text(&restored, "/DiskId").starts_with("d-"));
    assert_eq!(
        t.err_as(&caller, &PRODUCT, "DeleteSnapshot", &[("SnapshotId", &snapshot)])
            .code,
        "SnapshotCreatedDisk"
    );
    t.ok_as(
        &caller,
        &PRODUCT,
        "DeleteSnapshot",
        &[("SnapshotId", &snapshot), ("Force", "true")],
    );
    assert_eq!(t.ok_as(&caller, &PRODUCT, "DescribeSnapshots", &[])["TotalCount"], 0);
}

#[test]
fn automatic_snapshot_policies_apply_to_disks() {
    let t = TestConsole::new();
    let caller = t.account("alice");
    let disk = t.ok_as(
        &caller,
        &PRODUCT,
        "CreateDisk",
        &[("ZoneId", "cn-hangzhou-h"), ("Size", "40")],
    );
    let disk = text(&disk, "/DiskId").to_owned();
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "CreateAutoSnapshotPolicy",
        &[
            ("regionId", "cn-hangzhou"),
            ("timePoints", "[\"25\"]"),
            ("repeatWeekdays", "[\"1\"]"),
            ("retentionDays", "7"),
        ],
    );
    assert_eq!(e.code, "InvalidTimePoints.Malformed");
    let policy = t.ok_as(
        &caller,
        &PRODUCT,
        "CreateAutoSnapshotPolicy",
        &[
            ("regionId", "cn-hangzhou"),
            ("autoSnapshotPolicyName", "nightly"),
            ("timePoints", "[\"2\",\"14\"]"),
            ("repeatWeekdays", "[\"1\",\"7\"]"),
            ("retentionDays", "7"),
        ],
    );
    let policy = text(&policy, "/AutoSnapshotPolicyId").to_owned();
    assert!(policy.starts_with("sp-"));
    let disk_ids = format!("[\"{disk}\"]");
    t.ok_as(
        &caller,
        &PRODUCT,
        "ApplyAutoSnapshotPolicy",
        &[
            ("regionId", "cn-hangzhou"),
            ("autoSnapshotPolicyId", &policy),
            ("diskIds", &disk_ids),
        ],
    );
    let listed = t.ok_as(
        &caller,
        &PRODUCT,
        "DescribeAutoSnapshotPolicyEx",
        &[("AutoSnapshotPolicyId", &policy)],
    );
    let entry = &items(&listed, "/AutoSnapshotPolicies/AutoSnapshotPolicy")[0];
    assert_eq!(
        (text(entry, "/TimePoints"), text(entry, "/RepeatWeekdays")),
        ("[\"2\",\"14\"]", "[\"1\",\"7\"]")
    );
    assert_eq!(entry["DiskNums"], 1);
    let described = t.ok_as(&caller, &PRODUCT, "DescribeDisks", &[("AutoSnapshotPolicyId", &policy)]);
    assert_eq!(described["Disks"]["Disk"][0]["EnableAutoSnapshot"], true);

    t.ok_as(
        &caller,
        &PRODUCT,
        "CancelAutoSnapshotPolicy",
        &[("regionId", "cn-hangzhou"), ("diskIds", &disk_ids)],
    );
    assert_eq!(
        t.ok_as(&caller, &PRODUCT, "DescribeDisks", &[("AutoSnapshotPolicyId", &policy)])["TotalCount"],
        0
    );
    t.ok_as(
        &caller,
        &PRODUCT,
        "DeleteAutoSnapshotPolicy",
        &[("regionId", "cn-hangzhou"), ("autoSnapshotPolicyId", &policy)],
    );
    assert_eq!(
        t.ok_as(&caller, &PRODUCT, "DescribeAutoSnapshotPolicyEx", &[])["TotalCount"],
        0
    );
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "ApplyAutoSnapshotPolicy",
        &[
            ("regionId", "cn-hangzhou"),
            ("autoSnapshotPolicyId", &policy),
            ("diskIds", &disk_ids),
        ],
    );
    assert_eq!(e.code, "InvalidAutoSnapshotPolicyId.NotFound");
}

#[test]
fn security_group_rules_are_authorized_listed_and_revoked() {
    let t = TestConsole::new();
    let caller = t.account("alice");
    let net = network(&t, &caller);
    let sg = net.security_group.as_str();
    let ssh = [
        ("SecurityGroupId", sg),
        ("IpProtocol", "tcp"),
        ("PortRange", "22/22"),
        ("SourceCidrIp", "0.0.0.0/0"),
    ];
    t.ok_as(&caller, &PRODUCT, "AuthorizeSecurityGroup", &ssh);
    t.ok_as(&caller, &PRODUCT, "AuthorizeSecurityGroup", &ssh); // the same rule again adds nothing
    t.ok_as(
        &caller,
        &PRODUCT,
        "AuthorizeSecurityGroup",
        &[
            ("SecurityGroupId", sg),
            ("Permissions.1.IpProtocol", "TCP"),
            ("Permissions.1.PortRange", "80/80"),
            ("Permissions.1.SourceCidrIp", "10.0.0.0/8"),
            ("Permissions.1.Priority", "10"),
            ("Permissions.2.IpProtocol", "ICMP"),
            ("Permissions.2.PortRange", "-1/-1"),
            ("Permissions.2.SourceCidrIp", "192.168.0.0/16"),
            ("Permissions.2.Policy", "drop"),
        ],
    );
    t.ok_as(
        &caller,
        &PRODUCT,
        "AuthorizeSecurityGroupEgress",
        &[
            ("SecurityGroupId", sg),
            ("IpProtocol", "ALL"),
            ("PortRange", "-1/-1"),
            ("DestCidrIp", "0.0.0.0/0"),
        ],
    );
    let bad_port = t.err_as(
        &caller,
        &PRODUCT,
        "AuthorizeSecurityGroup",
        &[
            ("SecurityGroupId", sg),
            ("IpProtocol", "tcp"),
            ("PortRange", "0/70000"),
            ("SourceCidrIp", "0.0.0.0/0"),
        ],
    );
    assert_eq!(bad_port.code, "InvalidPortRange.Malformed");
    let bad_protocol = t.err_as(
        &caller,
        &PRODUCT,
        "AuthorizeSecurityGroup",
        &[
            ("SecurityGroupId", sg),
            ("IpProtocol", "sctp"),
            ("PortRange", "1/2"),
            ("SourceCidrIp", "0.0.0.0/0"),
        ],
    );
    assert_eq!(bad_protocol.code, "InvalidIpProtocol.Malformed");

    let ingress = t.ok_as(
        &caller,
        &PRODUCT,
        "DescribeSecurityGroupAttribute",
        &[("SecurityGroupId", sg), ("Direction", "ingress")],
    );
    let rules = items(&ingress, "/Permissions/Permission");
    assert_eq!(rules.len(), 3);
    assert_eq!(
        (text(&rules[0], "/IpProtocol"), text(&rules[0], "/PortRange")),
        ("TCP", "22/22")
    );
    assert_eq!(text(&rules[1], "/Priority"), "10");
    assert_eq!(text(&rules[2], "/Policy"), "Drop");
    let all = t.ok_as(
        &caller,
        &PRODUCT,
        "DescribeSecurityGroupAttribute",
        &[("SecurityGroupId", sg)],
    );
    assert_eq!(items(&all, "/Permissions/Permission").len(), 4);

    t.ok_as(&caller, &PRODUCT, "RevokeSecurityGroup", &ssh);
    let rule_id = text(&rules[1], "/SecurityGroupRuleId").to_owned();
    t.ok_as(
        &caller,
        &PRODUCT,
        "RevokeSecurityGroup",
        &[("SecurityGroupId", sg), ("SecurityGroupRuleId.1", &rule_id)],
    );
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "RevokeSecurityGroup",
        &[("SecurityGroupId", sg), ("SecurityGroupRuleId.1", &rule_id)],
    );
    assert_eq!(e.code, "InvalidSecurityGroupRuleId.NotFound");
    let ingress = t.ok_as(
        &caller,
        &PRODUCT,
        "DescribeSecurityGroupAttribute",
        &[("SecurityGroupId", sg), ("Direction", "ingress")],
    );
    assert_eq!(items(&ingress, "/Permissions/Permission").len(), 1);
    let groups = t.ok_as(&caller, &PRODUCT, "DescribeSecurityGroups", &[("VpcId", &net.vpc)]);
    assert_eq!(groups["SecurityGroups"]["SecurityGroup"][0]["RuleCount"], 2);
}

#[test]
fn security_groups_in_use_cannot_be_deleted() {
    let t = TestConsole::new();
    let caller = t.account("alice");
    let net = network(&t, &caller);
    let id = run_one(&t, &caller, &net, &[]);
    let groups = t.ok_as(&caller, &PRODUCT, "DescribeSecurityGroups", &[]);
    assert_eq!(groups["SecurityGroups"]["SecurityGroup"][0]["EcsCount"], 1);
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "DeleteSecurityGroup",
        &[("SecurityGroupId", &net.security_group)],
    );
    assert_eq!(
        (e.code.as_str(), e.message.as_str()),
        (
            "DependencyViolation",
            "There is still instance(s) in the specified security group."
        )
    );
    // The VPC cannot go while it still holds the security group.
    t.ok_as(
        &caller,
        &PRODUCT,
        "DeleteInstance",
        &[("InstanceId", &id), ("Force", "true")],
    );
    t.ok_as(&caller, &vpc::PRODUCT, "DeleteVSwitch", &[("VSwitchId", &net.vswitch)]);
    let e = t.err_as(&caller, &vpc::PRODUCT, "DeleteVpc", &[("VpcId", &net.vpc)]);
    assert_eq!(e.code, "DependencyViolation.SecurityGroup");
    t.ok_as(
        &caller,
        &PRODUCT,
        "DeleteSecurityGroup",
        &[("SecurityGroupId", &net.security_group)],
    );
    t.ok_as(&caller, &vpc::PRODUCT, "DeleteVpc", &[("VpcId", &net.vpc)]);
}

#[test]
fn key_pairs_are_created_imported_and_used() {
    let t = TestConsole::new();
    let caller = t.account("alice");
    let created = t.ok_as(&caller, &PRODUCT, "CreateKeyPair", &[("KeyPairName", "deploy")]);
    assert!(text(&created, "/PrivateKeyBody").starts_with("-----BEGIN RSA PRIVATE KEY-----\n"));
    let finger_print = text(&created, "/KeyPairFingerPrint").to_owned();
    assert_eq!(finger_print.split(':').count(), 16);
    assert_eq!(
        t.err_as(&caller, &PRODUCT, "CreateKeyPair", &[("KeyPairName", "deploy")])
            .code,
        "KeyPair.AlreadyExist"
    );
    assert_eq!(
        t.err_as(&caller, &PRODUCT, "CreateKeyPair", &[("KeyPairName", "-x")])
            .code,
        "InvalidKeyPairName.Malformed"
    );

    // An SSH key blob starts with its type as a length-prefixed string.
    let mut blob = 11u32.to_be_bytes().to_vec();
    blob.extend_from_slice(b"ssh-ed25519");
    blob.extend_from_slice(&32u32.to_be_bytes());
    blob.extend_from_slice(&[7u8; 32]);
    let public_key = format!(
        "ssh-ed25519 {} me@laptop",
        base64::engine::general_purpose::STANDARD.encode(&blob)
    );
    let imported = t.ok_as(
        &caller,
        &PRODUCT,
        "ImportKeyPair",
        &[("KeyPairName", "laptop"), ("PublicKeyBody", &public_key)],
    );
    assert_eq!(text(&imported, "/KeyPairFingerPrint"), fingerprint(&blob));
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "ImportKeyPair",
        &[("KeyPairName", "broken"), ("PublicKeyBody", "ssh-rsa not-base64!")],
    );
    assert_eq!(e.code, "InvalidPublicKeyBody.Malformed");

    let listed = t.ok_as(&caller, &PRODUCT, "DescribeKeyPairs", &[("KeyPairName", "dep*")]);
    assert_eq!(listed["TotalCount"], 1);
    assert_eq!(text(&listed, "/KeyPairs/KeyPair/0/KeyPairFingerPrint"), finger_print);

    let net = network(&t, &caller);
    let id = run_one(&t, &caller, &net, &[("KeyPairName", "deploy")]);
    assert_eq!(text(&describe_one(&t, &caller, &id), "/KeyPairName"), "deploy");
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "RunInstances",
        &[
            ("InstanceType", "ecs.g7.large"),
            ("ImageId", "win2022_21H2_x64_dtc_en-us_40G_alibase_20240515.vhd"),
            ("VSwitchId", &net.vswitch),
            ("SecurityGroupId", &net.security_group),
            ("KeyPairName", "deploy"),
        ],
    );
    assert_eq!(e.code, "DependencyViolation.WindowsInstance");

    t.ok_as(
        &caller,
        &PRODUCT,
        "DeleteKeyPairs",
        &[("KeyPairNames", "[\"deploy\",\"laptop\"]")],
    );
    assert_eq!(t.ok_as(&caller, &PRODUCT, "DescribeKeyPairs", &[])["TotalCount"], 0);
    let e = t.err_as(&caller, &PRODUCT, "DeleteKeyPairs", &[("KeyPairNames", "[\"deploy\"]")]);
    assert_eq!(e.code, "InvalidKeyPairName.NotFound");
}

#[test]
fn catalogs_list_regions_zones_types_and_images() {
    let t = TestConsole::new();
    let caller = t.account("alice");
    let regions = t.ok_as(&caller, &PRODUCT, "DescribeRegions", &[]);
    assert_eq!(items(&regions, "/Regions/Region").len(), REGIONS.len());
    assert_eq!(
        text(&regions, "/Regions/Region/0/RegionEndpoint"),
        "ecs.cn-hangzhou.aliyuncs.com"
    );

    let zones = t.ok_as(&caller, &PRODUCT, "DescribeZones", &[("RegionId", "cn-shanghai")]);
    let zones = items(&zones, "/Zones/Zone");
    assert_eq!(zones.len(), 3);
    assert_eq!(
        (text(&zones[0], "/ZoneId"), text(&zones[0], "/LocalName")),
        ("cn-shanghai-e", "Shanghai Zone E")
    );
    assert_eq!(
        t.err_as(&caller, &PRODUCT, "DescribeZones", &[("RegionId", "mars-1")])
            .code,
        "InvalidRegionId.NotFound"
    );

    let types = t.ok_as(
        &caller,
        &PRODUCT,
        "DescribeInstanceTypes",
        &[("InstanceTypeFamily", "ecs.t6")],
    );
    let types = items(&types, "/InstanceTypes/InstanceType");
    assert_eq!(types.len(), 3);
    assert!(types.iter().all(|t| t["InstanceFamilyLevel"] == "CreditEntryLevel"));
    let one = t.ok_as(
        &caller,
        &PRODUCT,
        "DescribeInstanceTypes",
        &[("InstanceTypes.1", "ecs.g7.large")],
    );
    assert_eq!(one["InstanceTypes"]["InstanceType"][0]["MemorySize"], 8.0);

    let images = t.ok_as(
        &caller,
        &PRODUCT,
        "DescribeImages",
        &[("ImageId", "ubuntu_22_04_x64_20G_alibase_20240508.vhd")],
    );
    assert_eq!(images["TotalCount"], 1);
    assert_eq!(text(&images, "/Images/Image/0/Platform"), "Ubuntu");
    let windows = t.ok_as(&caller, &PRODUCT, "DescribeImages", &[("OSType", "windows")]);
    assert_eq!(windows["TotalCount"], 1);
    assert_eq!(
        t.ok_as(&caller, &PRODUCT, "DescribeImages", &[("ImageOwnerAlias", "self")])["TotalCount"],
        0
    );
}

#[test]
fn name_errors_name_the_field() {
    assert_eq!(
        check_name("InstanceName", "-bad").unwrap_err().code,
        "InvalidInstanceName.Malformed"
    );
    assert_eq!(
        check_name("SystemDisk.DiskName", "x").unwrap_err().code,
        "InvalidDiskName.Malformed"
    );
    let e = check_name("autoSnapshotPolicyName", "9lives").unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.message.contains("\"autoSnapshotPolicyName\"")),
        ("InvalidAutoSnapshotPolicyName.Malformed", true)
    );
    assert!(check_name("InstanceName", "web-01:blue_v1.2").is_ok());
}

#[test]
fn name_patterns_match_like_the_console_search() {
    assert!(glob_match("web*", "web-01"));
    assert!(glob_match("*01", "web-01"));
    assert!(glob_match("w*-*1", "web-01"));
    assert!(!glob_match("web*", "api-01"));
    assert!(!glob_match("web", "web-01"));
    assert!(!glob_match("ab*ba", "aba"));
}

#[test]
fn quotas_are_reported_and_enforced_per_region() {
    let t = TestConsole::with_config(ConsoleConfig {
        ecs_quotas: crate::config::EcsQuotas {
            postpaid_vcpus: 4,
            security_groups: 1,
        },
        ..ConsoleConfig::for_tests()
    });
    let caller = t.account("quota");
    let net = network(&t, &caller);
    let value = |body: &Value, name: &str| {
        items(body, "/AccountAttributeItems/AccountAttributeItem")
            .iter()
            .find(|i| i["AttributeName"] == name)
            .map(|i| {
                i["AttributeValues"]["ValueItem"][0]["Value"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned()
            })
    };
    let attributes = t.ok_as(&caller, &PRODUCT, "DescribeAccountAttributes", &[]);
    assert_eq!(
        value(&attributes, "max-postpaid-instance-vcpu-count").as_deref(),
        Some("4")
    );
    assert_eq!(
        value(&attributes, "used-postpaid-instance-vcpu-count").as_deref(),
        Some("0")
    );
    assert_eq!(value(&attributes, "max-security-groups").as_deref(), Some("1"));

    // ecs.g7.large has 2 vCPUs: two fit, a third does not, and a batch that would cross is refused whole.
    run_one(&t, &caller, &net, &[]);
    let err = t.err_as(
        &caller,
        &PRODUCT,
        "RunInstances",
        &[
            ("InstanceType", "ecs.g7.large"),
            ("ImageId", IMAGE),
            ("VSwitchId", net.vswitch.as_str()),
            ("SecurityGroupId", net.security_group.as_str()),
            ("Amount", "2"),
        ],
    );
    assert_eq!(err.code, "QuotaExceed.ElasticQuota", "{err:?}");
    let attributes = t.ok_as(
        &caller,
        &PRODUCT,
        "DescribeAccountAttributes",
        &[("AttributeName.1", "used-postpaid-instance-vcpu-count")],
    );
    assert_eq!(
        value(&attributes, "used-postpaid-instance-vcpu-count").as_deref(),
        Some("2")
    );
    assert_eq!(
        items(&attributes, "/AccountAttributeItems/AccountAttributeItem").len(),
        1
    );
    // Subscription instances do not count against the pay-as-you-go quota.
    run_one(&t, &caller, &net, &[("InstanceChargeType", "PrePaid"), ("Period", "1")]);
    run_one(&t, &caller, &net, &[]);

    let err = t.err_as(&caller, &PRODUCT, "CreateSecurityGroup", &[("VpcId", net.vpc.as_str())]);
    assert_eq!(err.code, "QuotaExceed.SecurityGroup", "{err:?}");
    let err = t.err_as(
        &caller,
        &PRODUCT,
        "DescribeAccountAttributes",
        &[("AttributeName.1", "max-unicorns")],
    );
    assert!(err.message.contains("max-unicorns"), "{err:?}");
}
