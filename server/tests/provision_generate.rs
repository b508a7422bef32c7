//! `aca provision generate`: the META of a page that has none, written by the ResourceCoder,
//! validated in a scratch account and stored in the sidecar, then usable by `aca provision apply`.

mod common;

use common::{aca, corpus, text};

#[test]
fn a_generated_meta_is_validated_stored_once_and_applies() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(corpus("ecs/start-instance.md"), d.join("start-instance.md")).unwrap();
    let sidecar = std::fs::read_to_string(corpus("ecs/start-instance.task.toml")).unwrap();
    let without = &sidecar[..sidecar.find("[meta]").unwrap()];
    std::fs::write(d.join("start-instance.task.toml"), without).unwrap();

    let shown = aca(d, &["provision", "generate", "start-instance.md"]);
    assert!(shown.status.success(), "{}", text(&shown));
    assert!(text(&shown).contains("validated after 1 draft(s)"), "{}", text(&shown));
    assert!(text(&shown).contains("status = \"Stopped\""), "{}", text(&shown));
    assert_eq!(
        std::fs::read_to_string(d.join("start-instance.task.toml")).unwrap(),
        without,
        "without --write nothing is stored"
    );

    let written = aca(d, &["provision", "generate", "start-instance.md", "--write"]);
    assert!(written.status.success(), "{}", text(&written));
    let stored = std::fs::read_to_string(d.join("start-instance.task.toml")).unwrap();
    assert!(stored.starts_with(without.trim_end()), "the sidecar keeps what it had");
    assert!(
        stored.contains("[meta]") && stored.contains("alicloud_instance"),
        "{stored}"
    );

    let again = aca(d, &["provision", "generate", "start-instance.md", "--write"]);
    assert_eq!(again.status.code(), Some(2), "{}", text(&again));
    assert!(text(&again).contains("not overwritten"), "{}", text(&again));

    // The stored META is an ordinary one: `aca provision apply` and `destroy` use it.
    let common = ["start-instance.md", "--emulator-db", "emu.db", "--state", "state"];
    let apply = aca(d, &[&["provision", "apply"][..], &common].concat());
    assert!(apply.status.success(), "{}", text(&apply));
    assert!(text(&apply).contains("status Stopped"), "{}", text(&apply));
    let destroy = aca(d, &[&["provision", "destroy"][..], &common].concat());
    assert!(destroy.status.success(), "{}", text(&destroy));
}

#[test]
fn a_page_without_a_sidecar_gets_one_and_a_page_that_needs_nothing_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(corpus("vpc/delete-vpc.md"), d.join("delete-vpc.md")).unwrap();
    let written = aca(d, &["provision", "generate", "delete-vpc.md", "--write"]);
    assert!(written.status.success(), "{}", text(&written));
    assert!(text(&written).contains("rule inferred"), "{}", text(&written));
    let sidecar = std::fs::read_to_string(d.join("delete-vpc.task.toml")).unwrap();
    assert!(
        sidecar.contains("DeleteVpc") && sidecar.contains("alicloud_vpc"),
        "{sidecar}"
    );
    assert!(!sidecar.contains("alicloud_vswitch"), "{sidecar}");

    std::fs::copy(corpus("vpc/create-vpc.md"), d.join("create-vpc.md")).unwrap();
    let nothing = aca(d, &["provision", "generate", "create-vpc.md", "--write"]);
    assert!(nothing.status.success(), "{}", text(&nothing));
    assert!(text(&nothing).contains("no META is needed"), "{}", text(&nothing));
    assert!(!d.join("create-vpc.task.toml").exists());
}

#[test]
fn a_folder_gets_a_meta_for_each_page_that_lacks_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("vpc")).unwrap();
    for page in ["delete-vswitch", "create-vpc", "delete-vpc"] {
        std::fs::copy(corpus(&format!("vpc/{page}.md")), d.join(format!("vpc/{page}.md"))).unwrap();
    }
    // One page keeps its written META.
    std::fs::copy(corpus("vpc/delete-vpc.task.toml"), d.join("vpc/delete-vpc.task.toml")).unwrap();
    let before = std::fs::read_to_string(d.join("vpc/delete-vpc.task.toml")).unwrap();
    let output = aca(d, &["provision", "generate", "vpc", "--write"]);
    let shown = text(&output);
    assert!(output.status.success(), "{shown}");
    assert!(
        shown.contains("3 pages: 1 had a META, 1 generated and written, 1 need none, 0 failed"),
        "{shown}"
    );
    let written = std::fs::read_to_string(d.join("vpc/delete-vswitch.task.toml")).unwrap();
    assert!(written.contains("resource \"alicloud_vswitch\""), "{written}");
    assert_eq!(
        std::fs::read_to_string(d.join("vpc/delete-vpc.task.toml")).unwrap(),
        before
    );
}
