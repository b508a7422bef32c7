//! Tests of VPC driven through the console.

use super::*;
use crate::dispatch::Caller;
use crate::products::testkit::{TestConsole, items, text};

/// A VPC with one vSwitch (`192.168.1.0/24` in cn-hangzhou-h).
fn vpc_and_vswitch(t: &TestConsole, caller: &Caller) -> (String, String) {
    let vpc = t.ok_as(caller, &PRODUCT, "CreateVpc", &[("CidrBlock", "192.168.0.0/16")]);
    let vpc = text(&vpc, "/VpcId").to_owned();
    let vsw = t.ok_as(
        caller,
        &PRODUCT,
        "CreateVSwitch",
        &[
            ("VpcId", &vpc),
            ("ZoneId", "cn-hangzhou-h"),
            ("CidrBlock", "192.168.1.0/24"),
        ],
    );
    (vpc, text(&vsw, "/VSwitchId").to_owned())
}

fn instance_in(t: &TestConsole, caller: &Caller, vpc: &str, vswitch: &str) -> String {
    let sg = t.ok_as(caller, &ecs::PRODUCT, "CreateSecurityGroup", &[("VpcId", vpc)]);
    let run = t.ok_as(
        caller,
        &ecs::PRODUCT,
        "RunInstances",
        &[
            ("InstanceType", "ecs.c7.large"),
            ("ImageId", "ubuntu_22_04_x64_20G_alibase_20240508.vhd"),
            ("VSwitchId", vswitch),
            ("SecurityGroupId", text(&sg, "/SecurityGroupId")),
        ],
    );
    text(&run, "/InstanceIdSets/InstanceIdSet/0").to_owned()
}

fn allocate(t: &TestConsole, caller: &Caller) -> (String, String) {
    let eip = t.ok_as(caller, &PRODUCT, "AllocateEipAddress", &[("Bandwidth", "10")]);
    (
        text(&eip, "/AllocationId").to_owned(),
        text(&eip, "/EipAddress").to_owned(),
    )
}

fn eip_status(t: &TestConsole, caller: &Caller, id: &str) -> String {
    let listed = t.ok_as(caller, &PRODUCT, "DescribeEipAddresses", &[("AllocationId", id)]);
    text(&listed, "/EipAddresses/EipAddress/0/Status").to_owned()
}

#[test]
fn vpcs_and_vswitches_still_work() {
    let t = TestConsole::new();
    let caller = t.account("alice");
    let (vpc, vsw) = vpc_and_vswitch(&t, &caller);
    let listed = t.ok_as(&caller, &PRODUCT, "DescribeVpcs", &[("VpcId", &vpc)]);
    assert_eq!(text(&listed, "/Vpcs/Vpc/0/VSwitchIds/VSwitchId/0"), vsw);
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "CreateVSwitch",
        &[
            ("VpcId", &vpc),
            ("ZoneId", "cn-hangzhou-i"),
            ("CidrBlock", "192.168.1.128/25"),
        ],
    );
    assert_eq!(e.code, "InvalidCidrBlock.Overlapped");
    let before = t.ok_as(&caller, &PRODUCT, "DescribeVSwitches", &[("VSwitchId", &vsw)]);
    assert_eq!(before["VSwitches"]["VSwitch"][0]["AvailableIpAddressCount"], 252);

    // An instance takes an address of the vSwitch and keeps the vSwitch from being deleted.
    let instance = instance_in(&t, &caller, &vpc, &vsw);
    let after = t.ok_as(&caller, &PRODUCT, "DescribeVSwitches", &[("VSwitchId", &vsw)]);
    assert_eq!(after["VSwitches"]["VSwitch"][0]["AvailableIpAddressCount"], 251);
    assert_eq!(
        t.err_as(&caller, &PRODUCT, "DeleteVSwitch", &[("VSwitchId", &vsw)])
            .code,
        "DependencyViolation"
    );
    t.ok_as(
        &caller,
        &ecs::PRODUCT,
        "DeleteInstance",
        &[("InstanceId", &instance), ("Force", "true")],
    );
    t.ok_as(&caller, &PRODUCT, "DeleteVSwitch", &[("VSwitchId", &vsw)]);
}

#[test]
fn eips_associate_with_an_instance_and_come_back() {
    let t = TestConsole::with_transition_delay(1_000);
    let caller = t.account("alice");
    let (vpc, vsw) = vpc_and_vswitch(&t, &caller);
    t.advance(1_000);
    let instance = instance_in(&t, &caller, &vpc, &vsw);
    let (eip, address) = allocate(&t, &caller);
    assert!(eip.starts_with("eip-") && address.starts_with("47."), "{eip} {address}");
    assert_eq!(eip_status(&t, &caller, &eip), "Available");

    // The instance is still Starting.
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "AssociateEipAddress",
        &[("AllocationId", &eip), ("InstanceId", &instance)],
    );
    assert_eq!(e.code, "IncorrectInstanceStatus");
    t.advance(1_000);
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "AssociateEipAddress",
        &[("AllocationId", &eip), ("InstanceId", "i-bp1nothere")],
    );
    assert_eq!(e.code, "InvalidInstanceId.NotFound");
    t.ok_as(
        &caller,
        &PRODUCT,
        "AssociateEipAddress",
        &[("AllocationId", &eip), ("InstanceId", &instance)],
    );
    assert_eq!(eip_status(&t, &caller, &eip), "Associating");
    t.advance(1_000);
    assert_eq!(eip_status(&t, &caller, &eip), "InUse");
    let event = t.last_event_of(&caller, "AssociateEipAddress");
    assert_eq!(
        event.referenced_resources.get("ACS::ECS::Instance"),
        Some(&vec![instance.clone()])
    );
    assert_eq!(event.referenced_resources.get(EIP_TYPE), Some(&vec![eip.clone()]));

    let ids = format!("[\"{instance}\"]");
    let described = t.ok_as(&caller, &ecs::PRODUCT, "DescribeInstances", &[("InstanceIds", &ids)]);
    assert_eq!(text(&described, "/Instances/Instance/0/EipAddress/IpAddress"), address);
    assert_eq!(text(&described, "/Instances/Instance/0/EipAddress/AllocationId"), eip);

    let (second, _) = allocate(&t, &caller);
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "AssociateEipAddress",
        &[("AllocationId", &second), ("InstanceId", &instance)],
    );
    assert_eq!(e.code, "InvalidAssociation.Duplicated");
    assert_eq!(
        t.err_as(&caller, &PRODUCT, "ReleaseEipAddress", &[("AllocationId", &eip)])
            .code,
        "IncorrectEipStatus"
    );
    let bound = t.ok_as(
        &caller,
        &PRODUCT,
        "DescribeEipAddresses",
        &[("AssociatedInstanceId", &instance)],
    );
    assert_eq!(bound["TotalCount"], 1);

    t.ok_as(
        &caller,
        &PRODUCT,
        "UnassociateEipAddress",
        &[("AllocationId", &eip), ("InstanceId", &instance)],
    );
    assert_eq!(eip_status(&t, &caller, &eip), "Unassociating");
    t.advance(1_000);
    assert_eq!(eip_status(&t, &caller, &eip), "Available");
    t.ok_as(&caller, &PRODUCT, "ReleaseEipAddress", &[("AllocationId", &eip)]);
    let e = t.err_as(&caller, &PRODUCT, "ReleaseEipAddress", &[("AllocationId", &eip)]);
    assert_eq!(e.code, "InvalidAllocationId.NotFound");
    assert_eq!(t.ok_as(&caller, &PRODUCT, "DescribeEipAddresses", &[])["TotalCount"], 1);
}

#[test]
fn releasing_an_instance_frees_its_eip() {
    let t = TestConsole::new();
    let caller = t.account("alice");
    let (vpc, vsw) = vpc_and_vswitch(&t, &caller);
    let instance = instance_in(&t, &caller, &vpc, &vsw);
    let (eip, _) = allocate(&t, &caller);
    t.ok_as(
        &caller,
        &PRODUCT,
        "AssociateEipAddress",
        &[("AllocationId", &eip), ("InstanceId", &instance)],
    );
    t.ok_as(
        &caller,
        &ecs::PRODUCT,
        "DeleteInstance",
        &[("InstanceId", &instance), ("Force", "true")],
    );
    let listed = t.ok_as(&caller, &PRODUCT, "DescribeEipAddresses", &[("AllocationId", &eip)]);
    assert_eq!(text(&listed, "/EipAddresses/EipAddress/0/Status"), "Available");
    assert_eq!(text(&listed, "/EipAddresses/EipAddress/0/InstanceId"), "");
}

#[test]
fn eip_parameters_are_checked() {
    let t = TestConsole::new();
    let caller = t.account("alice");
    let e = t.err_as(&caller, &PRODUCT, "AllocateEipAddress", &[("Bandwidth", "900")]);
    assert!(
        e.code == "InvalidParameter" && e.message.contains("\"Bandwidth\""),
        "{e}"
    );
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "AllocateEipAddress",
        &[("InternetChargeType", "PayByMood")],
    );
    assert!(e.message.contains("\"InternetChargeType\""), "{e}");
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "AssociateEipAddress",
        &[("AllocationId", "eip-bp1nothere")],
    );
    assert_eq!(e.code, "MissingParameter");
    assert_eq!(t.ok_as(&caller, &PRODUCT, "DescribeEipAddresses", &[])["TotalCount"], 0);
}

#[test]
fn nat_gateways_carry_snat_entries_over_their_eips() {
    let t = TestConsole::new();
    let caller = t.account("alice");
    let (vpc, vsw) = vpc_and_vswitch(&t, &caller);
    let e = t.err_as(&caller, &PRODUCT, "CreateNatGateway", &[("VpcId", &vpc)]);
    assert!(
        e.code == "MissingParameter" && e.message.contains("\"VSwitchId\""),
        "{e}"
    );
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "CreateNatGateway",
        &[("VpcId", &vpc), ("VSwitchId", &vsw), ("NatType", "Normal")],
    );
    assert!(e.message.contains("\"NatType\""), "{e}");

    let created = t.ok_as(
        &caller,
        &PRODUCT,
        "CreateNatGateway",
        &[
            ("VpcId", &vpc),
            ("VSwitchId", &vsw),
            ("NatType", "Enhanced"),
            ("Name", "egress"),
        ],
    );
    let nat = text(&created, "/NatGatewayId").to_owned();
    let table = text(&created, "/SnatTableIds/SnatTableId/0").to_owned();
    assert!(nat.starts_with("ngw-") && table.starts_with("stb-"), "{created}");
    let listed = t.ok_as(&caller, &PRODUCT, "DescribeNatGateways", &[("VpcId", &vpc)]);
    let gateway = &items(&listed, "/NatGateways/NatGateway")[0];
    assert_eq!(
        (text(gateway, "/Status"), text(gateway, "/NatType")),
        ("Available", "Enhanced")
    );
    assert_eq!(text(gateway, "/InternetChargeType"), "PayByLcu");
    assert_eq!(text(gateway, "/NatGatewayPrivateInfo/VswitchId"), vsw);
    assert_eq!(text(gateway, "/NatGatewayPrivateInfo/PrivateIpAddress"), "192.168.1.1");

    let (eip, address) = allocate(&t, &caller);
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "CreateSnatEntry",
        &[("SnatTableId", &table), ("SourceVSwitchId", &vsw), ("SnatIp", &address)],
    );
    assert_eq!(e.code, "InvalidSnatIp.NotFound");
    t.ok_as(
        &caller,
        &PRODUCT,
        "AssociateEipAddress",
        &[("AllocationId", &eip), ("InstanceId", &nat), ("InstanceType", "Nat")],
    );
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "CreateSnatEntry",
        &[("SnatTableId", "stb-bp1nothere"), ("SnatIp", &address)],
    );
    assert_eq!(e.code, "InvalidSnatTableId.NotFound");
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "CreateSnatEntry",
        &[("SnatTableId", &table), ("SnatIp", "47.1.2")],
    );
    assert_eq!(e.code, "InvalidSnatIp.Malformed");
    let entry = t.ok_as(
        &caller,
        &PRODUCT,
        "CreateSnatEntry",
        &[
            ("SnatTableId", &table),
            ("SourceVSwitchId", &vsw),
            ("SnatIp", &address),
            ("SnatEntryName", "web"),
        ],
    );
    let entry = text(&entry, "/SnatEntryId").to_owned();
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "CreateSnatEntry",
        &[("SnatTableId", &table), ("SourceVSwitchId", &vsw), ("SnatIp", &address)],
    );
    assert_eq!(e.code, "Forbidden.SourceVSwitchId.Duplicated");

    let entries = t.ok_as(
        &caller,
        &PRODUCT,
        "DescribeSnatTableEntries",
        &[("SnatTableId", &table)],
    );
    let listed = &items(&entries, "/SnatTableEntries/SnatTableEntry")[0];
    assert_eq!(
        (text(listed, "/SnatEntryId"), text(listed, "/SourceCIDR")),
        (entry.as_str(), "192.168.1.0/24")
    );
    assert_eq!(
        (text(listed, "/SnatIp"), text(listed, "/Status")),
        (address.as_str(), "Available")
    );
    let gateways = t.ok_as(&caller, &PRODUCT, "DescribeNatGateways", &[("NatGatewayId", &nat)]);
    assert_eq!(
        text(&gateways, "/NatGateways/NatGateway/0/IpLists/IpList/0/UsingStatus"),
        "UsedBySnatTable"
    );

    let e = t.err_as(
        &caller,
        &PRODUCT,
        "UnassociateEipAddress",
        &[("AllocationId", &eip), ("InstanceId", &nat)],
    );
    assert_eq!(e.code, "DependencyViolation.SnatEntry");
    let e = t.err_as(&caller, &PRODUCT, "DeleteNatGateway", &[("NatGatewayId", &nat)]);
    assert_eq!(e.code, "DependencyViolation.SnatEntry");
    assert_eq!(
        t.err_as(&caller, &PRODUCT, "DeleteVSwitch", &[("VSwitchId", &vsw)])
            .code,
        "DependencyViolation"
    );

    t.ok_as(
        &caller,
        &PRODUCT,
        "DeleteSnatEntry",
        &[("SnatTableId", &table), ("SnatEntryId", &entry)],
    );
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "DeleteSnatEntry",
        &[("SnatTableId", &table), ("SnatEntryId", &entry)],
    );
    assert_eq!(e.code, "InvalidSnatEntryId.NotFound");
    let e = t.err_as(&caller, &PRODUCT, "DeleteNatGateway", &[("NatGatewayId", &nat)]);
    assert_eq!(e.code, "DependencyViolation.EIPS");
    t.ok_as(
        &caller,
        &PRODUCT,
        "DeleteNatGateway",
        &[("NatGatewayId", &nat), ("Force", "true")],
    );
    assert_eq!(eip_status(&t, &caller, &eip), "Available");
    assert_eq!(t.ok_as(&caller, &PRODUCT, "DescribeNatGateways", &[])["TotalCount"], 0);
    t.ok_as(&caller, &PRODUCT, "DeleteVSwitch", &[("VSwitchId", &vsw)]);
}

#[test]
fn pending_snat_entries_block_deletion_and_force_cleans_up() {
    let t = TestConsole::with_transition_delay(500);
    let caller = t.account("alice");
    let (vpc, vsw) = vpc_and_vswitch(&t, &caller);
    t.advance(500);
    let created = t.ok_as(
        &caller,
        &PRODUCT,
        "CreateNatGateway",
        &[("VpcId", &vpc), ("VSwitchId", &vsw)],
    );
    let nat = text(&created, "/NatGatewayId").to_owned();
    let table = text(&created, "/SnatTableIds/SnatTableId/0").to_owned();
    let (eip, address) = allocate(&t, &caller);
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "AssociateEipAddress",
        &[("AllocationId", &eip), ("InstanceId", &nat), ("InstanceType", "Nat")],
    );
    assert_eq!(e.code, "IncorrectStatus.NatGateway");
    t.advance(500);
    t.ok_as(
        &caller,
        &PRODUCT,
        "AssociateEipAddress",
        &[("AllocationId", &eip), ("InstanceId", &nat), ("InstanceType", "Nat")],
    );
    t.advance(500);
    let entry = t.ok_as(
        &caller,
        &PRODUCT,
        "CreateSnatEntry",
        &[
            ("SnatTableId", &table),
            ("SourceCIDR", "192.168.1.0/26"),
            ("SnatIp", &address),
        ],
    );
    let entry = text(&entry, "/SnatEntryId").to_owned();
    let e = t.err_as(
        &caller,
        &PRODUCT,
        "DeleteSnatEntry",
        &[("SnatTableId", &table), ("SnatEntryId", &entry)],
    );
    assert_eq!(e.code, "IncorretSnatEntryStatus");
    t.advance(500);

    // Forcing the address off the gateway takes the SNAT entry that used only it.
    t.ok_as(
        &caller,
        &PRODUCT,
        "UnassociateEipAddress",
        &[
            ("AllocationId", &eip),
            ("InstanceId", &nat),
            ("InstanceType", "Nat"),
            ("Force", "true"),
        ],
    );
    let entries = t.ok_as(&caller, &PRODUCT, "DescribeSnatTableEntries", &[("NatGatewayId", &nat)]);
    assert_eq!(entries["TotalCount"], 0);
}

#[test]
fn other_accounts_cannot_use_an_eip_or_nat_gateway() {
    let t = TestConsole::new();
    let alice = t.account("alice");
    let bob = t.account("bob");
    let (vpc, vsw) = vpc_and_vswitch(&t, &alice);
    let nat = t.ok_as(
        &alice,
        &PRODUCT,
        "CreateNatGateway",
        &[("VpcId", &vpc), ("VSwitchId", &vsw)],
    );
    let nat = text(&nat, "/NatGatewayId").to_owned();
    let (eip, _) = allocate(&t, &alice);
    assert_eq!(t.ok_as(&bob, &PRODUCT, "DescribeEipAddresses", &[])["TotalCount"], 0);
    assert_eq!(t.ok_as(&bob, &PRODUCT, "DescribeNatGateways", &[])["TotalCount"], 0);
    let e = t.err_as(&bob, &PRODUCT, "ReleaseEipAddress", &[("AllocationId", &eip)]);
    assert_eq!(e.code, "InvalidAllocationId.NotFound");
    let (bobs_eip, _) = allocate(&t, &bob);
    let e = t.err_as(
        &bob,
        &PRODUCT,
        "AssociateEipAddress",
        &[
            ("AllocationId", &bobs_eip),
            ("InstanceId", &nat),
            ("InstanceType", "Nat"),
        ],
    );
    assert_eq!(e.code, "InvalidInstanceId.NotFound");
    assert_eq!(
        t.err_as(&bob, &PRODUCT, "DeleteNatGateway", &[("NatGatewayId", &nat)])
            .code,
        "InvalidNatGatewayId.NotFound"
    );
}
