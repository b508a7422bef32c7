//! The scripted policy on a hand-built block-storage console whose release renamed what the page
//! names: a navigation item with no word in common (Disks → Block Storage), found by opening the
//! items the page does not name and looking for what the next steps need; the product; a dialog.

use aca_core::{ActionOutcome, DefectKind, PlaceKind, Procedure, Verdict};

use super::test_console::{Elements, FakeConsole, drive, place, report, task_with_resource};
use super::*;
use crate::grade::Report;
use crate::task::Task;

/// A console with an Instances page, a Block Storage page listing the task's disk, a Snapshots
/// page, and an attach dialog.
#[derive(Debug)]
struct StorageConsole {
    page: &'static str,
    dialog: bool,
    attached: bool,
    product: &'static str,
    dialog_title: &'static str,
    /// The name of the navigation group that holds Block Storage and Snapshots.
    group: &'static str,
    clicks: Vec<String>,
}

impl Default for StorageConsole {
    fn default() -> StorageConsole {
        StorageConsole {
            page: "Instances",
            dialog: false,
            attached: false,
            product: "Elastic Compute Service",
            dialog_title: "Attach Disk",
            group: "Storage & Snapshots",
            clicks: Vec::new(),
        }
    }
}

impl FakeConsole for StorageConsole {
    fn observe(&self) -> Observation {
        let mut elements = Elements::default();
        let nav = place(PlaceKind::Navigation, self.product);
        elements.add_at(Role::Link, "Instances", vec![nav.clone()], "aside>a[1]");
        elements
            .add_at(Role::Button, self.group, vec![nav.clone()], "aside>div[2]>button")
            .state
            .expanded = Some(true);
        elements.add_at(Role::Link, "Block Storage", vec![nav.clone()], "aside>div[2]>a[1]");
        elements.add_at(Role::Link, "Snapshots", vec![nav], "aside>div[2]>a[2]");
        elements.add_at(Role::Heading, self.page, vec![], "main>h1");
        match self.page {
            "Block Storage" => {
                let row = vec![
                    place(PlaceKind::Table, ""),
                    place(PlaceKind::Row, "d-bp1disk data-disk"),
                ];
                elements.add_at(Role::Link, "data-disk", row.clone(), "main>table>tr>td[1]>a");
                elements.add_at(Role::Button, "Attach", row, "main>table>tr>td[2]>button");
            }
            "Snapshots" => {
                elements.add_at(Role::Button, "Create Snapshot", vec![], "main>button");
            }
            _ => {}
        }
        if self.dialog {
            let dialog = vec![place(PlaceKind::Dialog, self.dialog_title)];
            elements.add_at(Role::DialogTitle, self.dialog_title, dialog.clone(), "div>h2");
            elements.add_at(Role::Button, "OK", dialog, "div>button");
        }
        Observation {
            url: format!("http://127.0.0.1:8080/console/ecs/{}", self.page),
            title: format!("{} - {} - Alibaba Cloud Console", self.page, self.product),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        let GuiAction::Click { index } = action else {
            return ActionOutcome::Done { reresolved: false };
        };
        let observation = self.observe();
        let Some(element) = observation.element(*index) else {
            return ActionOutcome::ElementNotFound { index: *index };
        };
        self.clicks.push(element.name.clone());
        match element.name.as_str() {
            "Instances" => self.page = "Instances",
            "Block Storage" => self.page = "Block Storage",
            "Snapshots" => self.page = "Snapshots",
            "Attach" => self.dialog = true,
            "OK" => {
                self.dialog = false;
                self.attached = true;
            }
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

fn attach_disk(console: &str, dialog: &str) -> Procedure {
    let page = format!(
        "# Elastic Compute Service:Attach a data disk\n\n## Procedure\n\n\
         1. Log on to the **{console} console**.\n\
         2. In the left-side navigation pane, choose **Storage & Snapshots** > **Disks**.\n\
         3. On the **Disks** page, find the disk and click **Attach** in the **Actions** column.\n\
         4. In the **{dialog}** dialog box, click **OK**.\n"
    );
    aca_docs::parse_markdown(&page).expect("the page parses")
}

/// A task on `procedure` for the console's unattached disk.
fn disk_task(procedure: Procedure) -> Task {
    task_with_resource(
        procedure,
        "ECS disk d-bp1disk named data-disk, Unattached.",
        &["d-bp1disk", "data-disk"],
    )
}

fn run(console: &mut StorageConsole, procedure: Procedure) -> Report {
    let episode = drive(console, disk_task(procedure), 60);
    assert!(episode.end().is_some(), "the episode did not finish");
    report(&episode, console.attached)
}

fn defects(report: &Report) -> Vec<(DefectKind, &str, &str, &str)> {
    report
        .defects
        .iter()
        .map(|d| (d.kind, d.step.as_str(), d.documented.as_str(), d.observed.as_str()))
        .collect()
}

#[test]
fn a_navigation_item_renamed_with_no_shared_word_is_found_by_what_the_next_steps_need() {
    let mut console = StorageConsole::default();
    let report = run(&mut console, attach_disk("ECS", "Attach Disk"));
    assert!(console.attached, "{:?}", console.clicks);
    // Both unnamed items of the group are opened; Block Storage lists the disk the next step needs.
    assert_eq!(
        console.clicks,
        vec!["Block Storage", "Snapshots", "Block Storage", "Attach", "OK"]
    );
    assert_eq!(report.verdict, Verdict::DocDefect, "{report:#?}");
    assert_eq!(
        defects(&report),
        vec![
            (DefectKind::RenamedLabel, "2", "Disks", "Block Storage"),
            // The page's later mention of the old name is the same rename, at its own step.
            (DefectKind::RenamedLabel, "3", "Disks", "Block Storage"),
        ]
    );
}

#[test]
fn a_product_renamed_in_part_is_reported_at_the_log_on_step() {
    let mut console = StorageConsole {
        product: "Elastic Compute Service",
        ..StorageConsole::default()
    };
    let report = run(&mut console, attach_disk("Elastic Cloud Server", "Attach Disk"));
    assert!(console.attached, "{:?}", console.clicks);
    let found = defects(&report);
    assert!(
        found.contains(&(
            DefectKind::RenamedLabel,
            "1",
            "Elastic Cloud Server",
            "Elastic Compute Service"
        )),
        "{found:?}"
    );
}

#[test]
fn an_acronym_for_the_product_is_no_defect() {
    let mut console = StorageConsole::default();
    let report = run(&mut console, attach_disk("ECS", "Attach Disk"));
    assert!(report.defects.iter().all(|d| d.step != "1"), "{:?}", defects(&report));
}

#[test]
fn a_dialog_under_another_title_is_a_renamed_container() {
    let mut console = StorageConsole {
        dialog_title: "Mount Disk",
        ..StorageConsole::default()
    };
    let report = run(&mut console, attach_disk("ECS", "Attach Disk"));
    assert!(console.attached, "{:?}", console.clicks);
    assert!(
        defects(&report).contains(&(DefectKind::RenamedLabel, "4", "Attach Disk", "Mount Disk")),
        "{:?}",
        defects(&report)
    );
}

#[test]
fn a_renamed_group_and_its_renamed_item_are_two_renames() {
    let mut console = StorageConsole {
        group: "Volumes",
        ..StorageConsole::default()
    };
    let report = run(&mut console, attach_disk("ECS", "Attach Disk"));
    assert!(console.attached, "{:?}", console.clicks);
    assert_eq!(
        defects(&report),
        vec![
            (DefectKind::RenamedLabel, "2", "Storage & Snapshots", "Volumes"),
            (DefectKind::RenamedLabel, "2", "Disks", "Block Storage"),
            (DefectKind::RenamedLabel, "3", "Disks", "Block Storage"),
        ]
    );
}

#[test]
fn no_candidate_showing_what_the_next_steps_need_leaves_the_item_removed() {
    let mut console = StorageConsole::default();
    let page = "# Elastic Compute Service:Resize a disk\n\n## Procedure\n\n\
                1. Log on to the **ECS console**.\n\
                2. In the left-side navigation pane, choose **Storage & Snapshots** > **Disks**.\n\
                3. On the **Disks** page, click **Resize Disk**.\n";
    let procedure = aca_docs::parse_markdown(page).expect("the page parses");
    let task = task_with_resource(
        procedure,
        "ECS disk d-bp1other named other-disk.",
        &["d-bp1other", "other-disk"],
    );
    let episode = drive(&mut console, task, 60);
    let report = report(&episode, false);
    // Neither Block Storage nor Snapshots shows "Resize Disk": no rename is claimed.
    assert!(
        report.defects.iter().all(|d| d.kind != DefectKind::RenamedLabel),
        "{:?}",
        defects(&report)
    );
    assert!(
        console
            .clicks
            .starts_with(&["Block Storage".to_string(), "Snapshots".to_string()])
    );
}

/// An instance list whose row holds Manage and a More menu with Restart; the instance's own page
/// (reached through Manage) has no Restart.
#[derive(Debug, Default)]
struct InstanceConsole {
    details: bool,
    menu: bool,
    dialog: bool,
    restarted: bool,
    clicks: Vec<String>,
}

impl FakeConsole for InstanceConsole {
    fn observe(&self) -> Observation {
        let mut elements = Elements::default();
        elements.add(
            Role::Link,
            "Instances",
            vec![place(PlaceKind::Navigation, "Elastic Compute Service")],
        );
        let url = if self.details {
            elements.add(Role::Heading, "web-server", vec![]);
            elements.add(Role::Button, "Start", vec![]);
            "http://127.0.0.1:8080/console/ecs/instances/i-bp1abc"
        } else {
            elements.add(Role::Heading, "Instances", vec![]);
            let row = vec![
                place(PlaceKind::Table, ""),
                place(PlaceKind::Row, "i-bp1abc web-server"),
            ];
            elements.add(Role::Link, "web-server", row.clone());
            elements.add(Role::Link, "Manage", row.clone());
            elements.add(Role::Button, "More", row);
            if self.menu {
                elements.add(Role::Menuitem, "Restart", vec![place(PlaceKind::Menu, "More")]);
            }
            "http://127.0.0.1:8080/console/ecs/instances"
        };
        if self.dialog {
            let dialog = vec![place(PlaceKind::Dialog, "Restart Instance")];
            elements.add(Role::DialogTitle, "Restart Instance", dialog.clone());
            elements.add(Role::Button, "OK", dialog);
        }
        Observation {
            url: url.into(),
            title: "Instances - Elastic Compute Service - Alibaba Cloud Console".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        if let GuiAction::Goto { url } = action {
            self.details = url.ends_with("i-bp1abc");
            self.menu = false;
            return ActionOutcome::Done { reresolved: false };
        }
        let GuiAction::Click { index } = action else {
            return ActionOutcome::Done { reresolved: false };
        };
        let observation = self.observe();
        let Some(element) = observation.element(*index) else {
            return ActionOutcome::ElementNotFound { index: *index };
        };
        self.clicks.push(element.name.clone());
        match element.name.as_str() {
            "Instances" => self.details = false,
            "Manage" => self.details = true,
            "More" => self.menu = true,
            "Restart" => {
                self.menu = false;
                self.dialog = true;
            }
            "OK" => {
                self.dialog = false;
                self.restarted = true;
            }
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn a_details_page_action_still_in_the_lists_row_menu_is_a_moved_control() {
    let page = "# Elastic Compute Service:Restart an instance\n\n## Procedure\n\n\
                1. Log on to the **ECS console**.\n\
                2. In the left-side navigation pane, click **Instances**.\n\
                3. On the **Instances** page, find the instance and click **Manage** in the **Actions** column.\n\
                4. On the instance details page, click **Restart** in the **All Actions** section.\n\
                5. In the **Restart Instance** dialog box, click **OK**.\n";
    let task = task_with_resource(
        aca_docs::parse_markdown(page).expect("the page parses"),
        "ECS instance i-bp1abc named web-server, Running.",
        &["i-bp1abc", "web-server"],
    );
    let mut console = InstanceConsole::default();
    let episode = drive(&mut console, task, 60);
    assert!(console.restarted, "{:?}", console.clicks);
    let report = report(&episode, true);
    let found = defects(&report);
    assert!(
        found
            .iter()
            .any(|d| d.0 == DefectKind::MovedControl && d.1 == "4" && d.2 == "Restart"),
        "{found:?}"
    );
}

/// A busy console: every click runs, but the page never settles in time.
struct Busy<'a>(&'a mut StorageConsole);

impl FakeConsole for Busy<'_> {
    fn observe(&self) -> Observation {
        self.0.observe()
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        match (action, self.0.act(action)) {
            (GuiAction::Click { .. }, ActionOutcome::Done { .. }) => ActionOutcome::Timeout {
                waited_ms: 5000,
                waiting_for: "the page to settle (1 requests in flight or the page still changing)".into(),
            },
            (_, other) => other,
        }
    }
}

#[test]
fn a_click_whose_page_did_not_settle_in_time_is_not_clicked_again() {
    let mut console = StorageConsole::default();
    drive(
        &mut Busy(&mut console),
        disk_task(attach_disk("ECS", "Attach Disk")),
        60,
    );
    assert!(console.attached, "{:?}", console.clicks);
    assert_eq!(
        console.clicks.iter().filter(|c| *c == "Attach").count(),
        1,
        "{:?}",
        console.clicks
    );
}
