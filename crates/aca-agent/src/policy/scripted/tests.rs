//! The scripted policy on hand-built ECS pages: a collapsed navigation group, a row's ⋯ menu with a
//! sub-menu, and a confirmation dialog.

use aca_core::{ActionOutcome, NotActionable, PlaceKind, Procedure, StepStatus, Verdict};

use super::test_console::{Elements, FakeConsole, drive, element, place, report, task_with_resource};
use super::*;
use crate::episode::{EndReason, Episode, Next};
use crate::task::Task;

/// The ECS Instances page, with what the agent opened.
#[derive(Debug, Default)]
struct EcsPage {
    group_open: bool,
    on_instances: bool,
    /// 0: closed, 1: the ⋯ menu, 2: its Instance Status sub-menu.
    menu: u8,
    dialog: bool,
    stopped: bool,
    /// The release puts Stop straight into the ⋯ menu, without the Instance Status sub-menu.
    flat_menu: bool,
    /// The release shows Stop in the row itself, with no ⋯ menu.
    stop_in_row: bool,
    /// The release shows Stop in the row itself, beside a ⋯ menu that no longer holds it.
    stop_beside_menu: bool,
    /// The release lists Instances at the top of the navigation pane, in no group.
    no_group: bool,
    /// The release calls the Instances & Images group this.
    group_name: Option<&'static str>,
    /// The release names the row's overflow menu this rather than showing the ⋯ icon.
    trigger_name: Option<&'static str>,
    /// A "⋯" menu below the list for the ticked rows, disabled while none is ticked.
    batch_menu: bool,
    clicks: Vec<String>,
}

impl FakeConsole for EcsPage {
    fn observe(&self) -> Observation {
        let mut elements = Elements::default();
        let nav = place(PlaceKind::Navigation, "Elastic Compute Service");
        elements.add(Role::Link, "Overview", vec![nav.clone()]);
        if self.no_group {
            elements.add(Role::Link, "Instances", vec![nav.clone()]);
        }
        let group_name = match (self.no_group, self.group_name) {
            (true, _) => "Images",
            (false, Some(name)) => name,
            (false, None) => "Instances & Images",
        };
        // Structural paths: the group's header and its items share their container.
        elements
            .add_at(Role::Clickable, group_name, vec![nav.clone()], "aside>div[2]>button")
            .state
            .expanded = Some(self.group_open);
        if self.group_open && !self.no_group {
            elements.add_at(Role::Link, "Instances", vec![nav.clone()], "aside>div[2]>a[1]");
            elements.add_at(Role::Link, "Images", vec![nav], "aside>div[2]>a[2]");
        }
        if self.on_instances {
            elements.add(Role::Heading, "Instances", vec![]);
            let row = vec![
                place(PlaceKind::Table, ""),
                place(PlaceKind::Row, "i-bp1abc web-server"),
            ];
            elements.add(Role::Link, "web-server", row.clone());
            elements.add(
                Role::Cell,
                if self.stopped { "Stopped" } else { "Running" },
                row.clone(),
            );
            elements.add(Role::Link, "Connect", row.clone());
            if self.stop_in_row || self.stop_beside_menu {
                elements.add(Role::Button, "Stop", row.clone());
            }
            if self.stop_in_row {
                elements.add(Role::Link, "Monitor", row);
            } else {
                elements
                    .add(Role::Button, self.trigger_name.unwrap_or("⋯"), row)
                    .state
                    .expanded = Some(self.menu > 0);
            }
            if self.batch_menu {
                elements
                    .add(Role::Button, "⋯", vec![place(PlaceKind::Form, "batch")])
                    .state
                    .disabled = true;
            }
            let menu = vec![place(PlaceKind::Menu, "")];
            if self.menu >= 1 && self.flat_menu {
                elements.add(Role::Menuitem, "Start", menu.clone());
                elements.add(Role::Menuitem, "Stop", menu.clone());
            } else if self.menu >= 1 {
                elements.add(Role::Menuitem, "Instance Status", menu.clone());
                elements.add(Role::Menuitem, "Instance Settings", menu);
            }
            if self.menu == 2 {
                let sub = vec![place(PlaceKind::Menu, ""), place(PlaceKind::Menu, "Instance Status")];
                elements.add(Role::Menuitem, "Start", sub.clone());
                if !self.stop_beside_menu {
                    elements.add(Role::Menuitem, "Stop", sub.clone());
                }
                elements.add(Role::Menuitem, "Restart", sub);
            }
            if self.dialog {
                let dialog = vec![place(PlaceKind::Dialog, "Stop Instance")];
                elements.add(Role::DialogTitle, "Stop Instance", dialog.clone());
                elements.add(Role::Button, "OK", dialog.clone());
                elements.add(Role::Button, "Cancel", dialog);
            }
        }
        Observation {
            url: "http://127.0.0.1:8080/console/ecs/instances".into(),
            title: "ECS console".into(),
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
            "Instances & Images" | "Compute" => self.group_open = !self.group_open,
            "Instances" => self.on_instances = true,
            name if name == "⋯" || name == "More" || Some(name) == self.trigger_name => self.menu = 1,
            "Instance Status" => self.menu = 2,
            "Stop" => {
                self.menu = 0;
                self.dialog = true;
            }
            "OK" => {
                self.dialog = false;
                self.stopped = true;
            }
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

fn stop_instance() -> Procedure {
    aca_docs::parse_markdown(include_str!("../../../../aca-docs/tests/pages/ecs-stop-instance.md"))
        .expect("the example page parses")
}

fn run(page: &mut EcsPage) -> Episode {
    let task = task_with_resource(
        stop_instance(),
        "ECS instance i-bp1abc named web-server, Running.",
        &["i-bp1abc", "web-server"],
    );
    let episode = drive(page, task, 50);
    assert!(episode.end().is_some(), "the episode did not finish");
    episode
}

#[test]
fn a_collapsed_group_a_row_menu_and_its_sub_menu_are_followed_as_written() {
    let mut page = EcsPage::default();
    let episode = run(&mut page);
    assert!(matches!(
        episode.end().map(|e| &e.reason),
        Some(EndReason::Completed { .. })
    ));
    assert!(page.stopped);
    assert_eq!(
        page.clicks,
        vec!["Instances & Images", "Instances", "⋯", "Instance Status", "Stop", "OK"]
    );
    let report = report(&episode, true);
    assert_eq!(report.verdict, Verdict::Pass, "{report:#?}");
    assert!(report.grades.iter().all(|g| g.status == StepStatus::Pass));
}

#[test]
fn the_documented_menu_icon_is_the_rows_more_menu_whatever_its_name() {
    // "More", or a name of its own, as SLS calls a Logstore's menu icon "Modify a Logstore".
    for trigger in ["More", "Manage Instance"] {
        let mut page = EcsPage {
            trigger_name: Some(trigger),
            ..EcsPage::default()
        };
        let episode = run(&mut page);
        assert!(page.stopped);
        assert_eq!(
            page.clicks,
            vec!["Instances & Images", "Instances", trigger, "Instance Status", "Stop", "OK"]
        );
        let report = report(&episode, true);
        assert_eq!(report.verdict, Verdict::Pass, "{report:#?}");
        assert!(report.defects.is_empty(), "{:?}", report.defects);
    }
}

#[test]
fn the_rows_menu_icon_is_not_the_one_below_the_list_for_ticked_rows() {
    let mut page = EcsPage {
        trigger_name: Some("More"),
        batch_menu: true,
        ..EcsPage::default()
    };
    let episode = run(&mut page);
    assert!(page.stopped);
    assert_eq!(
        page.clicks,
        vec!["Instances & Images", "Instances", "More", "Instance Status", "Stop", "OK"]
    );
    let report = report(&episode, true);
    assert_eq!(report.verdict, Verdict::Pass, "{report:#?}");
    assert!(report.defects.is_empty(), "{:?}", report.defects);
}

#[test]
fn an_open_navigation_group_is_not_clicked_closed() {
    let mut page = EcsPage {
        group_open: true,
        ..EcsPage::default()
    };
    run(&mut page);
    assert_eq!(page.clicks[0], "Instances");
    assert!(page.stopped);
}

#[test]
fn a_missing_sub_menu_fails_first_then_is_skipped_as_obsolete() {
    let mut page = EcsPage {
        flat_menu: true,
        ..EcsPage::default()
    };
    let episode = run(&mut page);
    assert!(page.stopped, "{:?}", page.clicks);
    assert_eq!(page.clicks, vec!["Instances & Images", "Instances", "⋯", "Stop", "OK"]);
    let record = episode.records().iter().find(|r| r.number == "4").unwrap();
    // Looked again once before concluding the sub-menu is gone.
    assert!(record.attempts >= 1, "{record:?}");
    assert!(record.actions.contains(&"wait()".to_string()), "{record:?}");
    let report = report(&episode, true);
    assert_eq!(report.verdict, Verdict::DocDefect);
    let kinds: Vec<_> = report.defects.iter().map(|d| (d.kind, d.documented.as_str())).collect();
    // The defect quotes the page's label, not the sentence about it.
    assert_eq!(kinds, vec![(aca_core::DefectKind::ObsoleteStep, "Instance Status")]);
}

#[test]
fn a_menu_item_shown_in_the_row_itself_is_a_moved_control() {
    let mut page = EcsPage {
        stop_in_row: true,
        ..EcsPage::default()
    };
    let episode = run(&mut page);
    assert!(page.stopped, "{:?}", page.clicks);
    assert_eq!(page.clicks, vec!["Instances & Images", "Instances", "Stop", "OK"]);
    let report = report(&episode, true);
    assert_eq!(report.verdict, Verdict::DocDefect);
    let defects: Vec<_> = report
        .defects
        .iter()
        .map(|d| (d.kind, d.step.as_str(), d.documented.as_str()))
        .collect();
    assert_eq!(
        defects,
        vec![(aca_core::DefectKind::MovedControl, "4", "⋯ > Instance Status > Stop")]
    );
}

/// The Create VPC page of a console that fills the VPC's CIDR block with a default: two sections,
/// each with a `Name` and an `IPv4 CIDR Block`.
#[derive(Debug, Default)]
struct CreateVpcPage {
    on_form: bool,
    /// Values by element name and section.
    values: std::collections::BTreeMap<(String, String), String>,
    submitted: bool,
    /// The release calls the Zone drop-down list this instead.
    zone_label: Option<&'static str>,
}

impl CreateVpcPage {
    const FIELDS: [(&str, &str, Role); 5] = [
        ("VPC", "Name", Role::Textbox),
        ("VPC", "IPv4 CIDR Block", Role::Textbox),
        ("vSwitch", "Name", Role::Textbox),
        ("vSwitch", "Zone", Role::Combobox),
        ("vSwitch", "IPv4 CIDR Block", Role::Textbox),
    ];
}

impl FakeConsole for CreateVpcPage {
    fn observe(&self) -> Observation {
        let mut elements = Elements::default();
        elements.add(Role::Link, "VPCs", vec![place(PlaceKind::Navigation, "VPC")]);
        if !self.on_form {
            elements.add(Role::Heading, "VPCs", vec![]);
            elements.add(Role::Button, "Create VPC", vec![]);
        } else {
            elements.add(Role::Heading, "Create VPC", vec![]);
            for (section, name, role) in Self::FIELDS {
                let name = if name == "Zone" {
                    self.zone_label.unwrap_or(name)
                } else {
                    name
                };
                let places = vec![place(PlaceKind::Form, ""), place(PlaceKind::WizardStep, section)];
                elements.add(role, name, places).value = self.values.get(&(section.into(), name.into())).cloned();
            }
            elements.add(Role::Button, "Confirm", vec![place(PlaceKind::Form, "")]);
        }
        Observation {
            url: "http://127.0.0.1:8080/console/vpc/vpcs".into(),
            title: if self.on_form { "Create VPC" } else { "VPCs" }.into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        let observation = self.observe();
        let index = action.index().unwrap_or_default();
        let Some(element) = observation.element(index) else {
            return ActionOutcome::ElementNotFound { index };
        };
        let section = element
            .places
            .iter()
            .find(|p| p.kind == PlaceKind::WizardStep)
            .map(|p| p.name.clone())
            .unwrap_or_default();
        match action {
            GuiAction::Type { text, .. } | GuiAction::Select { option: text, .. } => {
                self.values.insert((section, element.name.clone()), text.clone());
            }
            GuiAction::Click { .. } if element.name == "Create VPC" => {
                self.on_form = true;
                self.values
                    .insert(("VPC".into(), "IPv4 CIDR Block".into()), "192.168.0.0/16".into());
            }
            GuiAction::Click { .. } if element.name == "Confirm" => self.submitted = true,
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

fn create_vpc(page: &mut CreateVpcPage) -> Episode {
    let procedure = aca_docs::parse_markdown(include_str!("../../../../../tests/corpus/vpc/create-vpc-2024.md"))
        .expect("the example page parses");
    let episode = drive(page, Task::new(procedure), 40);
    assert!(episode.end().is_some(), "the episode did not finish: {:?}", page.values);
    episode
}

#[test]
fn a_renamed_drop_down_list_takes_the_tables_value_and_is_reported() {
    let mut page = CreateVpcPage {
        zone_label: Some("Zone ID"),
        ..CreateVpcPage::default()
    };
    let episode = create_vpc(&mut page);
    assert_eq!(
        page.values
            .get(&("vSwitch".into(), "Zone ID".into()))
            .map(String::as_str),
        Some("Hangzhou Zone I")
    );
    let report = report(&episode, true);
    let defects: Vec<_> = report
        .defects
        .iter()
        .map(|d| (d.kind, d.step.as_str(), d.documented.as_str(), d.observed.as_str()))
        .collect();
    assert_eq!(
        defects,
        vec![(aca_core::DefectKind::RenamedLabel, "6", "Zone", "Zone ID")]
    );
}

#[test]
fn parameter_tables_fill_their_own_sections_fields() {
    let mut page = CreateVpcPage::default();
    create_vpc(&mut page);
    assert!(page.submitted);
    let value = |section: &str, name: &str| page.values.get(&(section.into(), name.into())).cloned();
    assert_eq!(value("VPC", "Name").as_deref(), Some("app-vpc"));
    // The default is replaced by the table's example, in the VPC's section, not the vSwitch's.
    assert_eq!(value("VPC", "IPv4 CIDR Block").as_deref(), Some("172.16.0.0/12"));
    assert_eq!(value("vSwitch", "Name").as_deref(), Some("app-vsw"));
    assert_eq!(value("vSwitch", "Zone").as_deref(), Some("Hangzhou Zone I"));
    assert_eq!(value("vSwitch", "IPv4 CIDR Block").as_deref(), Some("172.16.1.0/24"));
}

#[test]
fn a_row_that_shows_only_the_resources_id_is_the_resources_row() {
    let mut page = EcsPage::default();
    let mut task = task_with_resource(stop_instance(), "ECS instance named web-01, Running.", &["web-01"]);
    task.bindings.insert("instance_id".into(), "i-bp1abc".into());
    drive(&mut page, task, 50);
    assert!(page.stopped, "{:?}", page.clicks);
}

#[test]
fn a_menu_item_found_beside_its_menu_is_a_moved_control() {
    let mut page = EcsPage {
        stop_beside_menu: true,
        ..EcsPage::default()
    };
    let episode = run(&mut page);
    assert!(page.stopped, "{:?}", page.clicks);
    let report = report(&episode, true);
    let defects: Vec<_> = report.defects.iter().map(|d| (d.kind, d.step.as_str())).collect();
    assert_eq!(defects, vec![(aca_core::DefectKind::MovedControl, "4")], "{report:#?}");
}

#[test]
fn a_wizard_showing_another_step_than_the_page_names_is_a_moved_control() {
    let procedure = aca_docs::parse_markdown(
        "# Configure a listener\n\n## Procedure\n\n1. In the **Backend Servers** step, enter `8080` in the **Backend Server Port** field and click **Next**.\n",
    )
    .expect("the page parses");
    let steps: Vec<Step> = procedure.steps.clone();
    let task = Task::new(procedure);
    let wizard = vec![
        place(PlaceKind::Form, ""),
        place(PlaceKind::WizardStep, "2 Health Check"),
    ];
    let observation = Observation {
        title: "Configure Listener".into(),
        elements: vec![element(1, Role::Switch, "Enable Health Check", wizard)],
        ..Observation::default()
    };
    let trajectory = aca_core::Trajectory::default();
    let mut policy = ScriptedPolicy::new();
    let mut decide = |attempts: u32| {
        let attempts = [attempts];
        let ctx = Context {
            task: &task,
            steps: &steps,
            observation: &observation,
            trajectory: &trajectory,
            current_step: Some(0),
            attempts: &attempts,
            unix_ms: None,
        };
        match policy.propose(&ctx) {
            Proposal::Act(decision) => *decision,
            other => panic!("unexpected {other:?}"),
        }
    };
    // First it looks again: the wizard may not have moved on yet.
    let first = decide(0);
    assert!(matches!(first.action, Action::Gui(GuiAction::Wait { .. })));
    assert!(first.failed_attempt.is_some());
    // Then the wizard's own step is taken for the documented one, and the move is recorded.
    let second = decide(1);
    let finding = second
        .grounding
        .and_then(|g| g.finding)
        .expect("the second decision records the move");
    assert_eq!(finding.kind, FindingKind::Moved);
    assert_eq!(
        (finding.documented.as_str(), finding.observed.as_str()),
        ("Backend Servers", "Health Check")
    );
}

#[test]
fn a_documented_navigation_group_that_is_gone_is_a_moved_control() {
    let mut page = EcsPage {
        no_group: true,
        ..EcsPage::default()
    };
    let episode = run(&mut page);
    assert!(page.stopped, "{:?}", page.clicks);
    assert_eq!(page.clicks[0], "Instances");
    let report = report(&episode, true);
    let defects: Vec<_> = report
        .defects
        .iter()
        .map(|d| (d.kind, d.step.as_str(), d.documented.as_str()))
        .collect();
    assert_eq!(
        defects,
        vec![(
            aca_core::DefectKind::MovedControl,
            "2",
            "Instances & Images > Instances"
        )]
    );
}

#[test]
fn a_renamed_navigation_group_is_found_by_the_item_it_holds() {
    let mut page = EcsPage {
        group_name: Some("Compute"),
        group_open: true,
        ..EcsPage::default()
    };
    let episode = run(&mut page);
    assert!(page.stopped, "{:?}", page.clicks);
    let report = report(&episode, true);
    let defects: Vec<_> = report
        .defects
        .iter()
        .map(|d| (d.kind, d.step.as_str(), d.documented.as_str(), d.observed.as_str()))
        .collect();
    assert_eq!(
        defects,
        vec![(aca_core::DefectKind::RenamedLabel, "2", "Instances & Images", "Compute")]
    );
}

/// A procedure of one page, and the scripted policy's first decision on `elements`.
fn first_decision(page: &str, elements: Vec<Element>) -> Decision {
    match crate::policy::first_proposal(&mut ScriptedPolicy::new(), page, elements) {
        Proposal::Act(decision) => *decision,
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn selecting_a_label_that_is_a_radio_button_clicks_it() {
    let panel = vec![place(PlaceKind::Panel, "Bucket ACL")];
    let decision = first_decision(
        "# Set the ACL\n\n## Procedure\n\n1. In the **Bucket ACL** panel, select **Public Read**.\n",
        vec![
            element(1, Role::Radio, "Private", panel.clone()),
            element(2, Role::Radio, "Public Read", panel.clone()),
            element(3, Role::Button, "Save", panel),
        ],
    );
    assert_eq!(decision.action, Action::Gui(GuiAction::Click { index: 2 }));
}

#[test]
fn a_click_after_a_parameter_table_submits_its_form() {
    let page = "# Upload\n\n## Procedure\n\n1. In the **Upload Object** panel, configure the following parameters.\n\n   | Parameter | Description |\n   |---|---|\n   | Object Name | In this example, `a.txt` is used. |\n\n2. Click **Upload Object**.\n";
    let procedure = aca_docs::parse_markdown(page).expect("the page parses");
    let task = Task::new(procedure.clone());
    let derived = intent::intents(&procedure.steps[1], &task);
    assert!(
        matches!(derived.as_slice(), [Intent::Click { confirm: true, .. }]),
        "{derived:?}"
    );
}

#[test]
fn an_object_in_a_directory_is_looked_for_inside_it() {
    let procedure = aca_docs::parse_markdown(
        "# Delete an object\n\n## Procedure\n\n1. On the **Objects** page, find the object and click **Delete** in the **Actions** column.\n",
    )
    .expect("the page parses");
    let steps: Vec<Step> = procedure.steps.clone();
    let task = task_with_resource(procedure, "OSS object reports/q3.txt", &["reports/q3.txt"]);
    let row = vec![place(PlaceKind::Table, ""), place(PlaceKind::Row, "reports/")];
    let observation = Observation {
        title: "Objects".into(),
        elements: vec![
            element(1, Role::Heading, "Objects", vec![]),
            element(2, Role::Link, "reports/", row.clone()),
            element(3, Role::Button, "More", row),
        ],
        ..Observation::default()
    };
    let trajectory = aca_core::Trajectory::default();
    let mut policy = ScriptedPolicy::new();
    let mut decide = |attempts: u32| {
        let attempts = [attempts];
        let ctx = Context {
            task: &task,
            steps: &steps,
            observation: &observation,
            trajectory: &trajectory,
            current_step: Some(0),
            attempts: &attempts,
            unix_ms: None,
        };
        match policy.propose(&ctx) {
            Proposal::Act(decision) => *decision,
            other => panic!("unexpected {other:?}"),
        }
    };
    assert!(matches!(decide(0).action, Action::Gui(GuiAction::Wait { .. })));
    assert_eq!(decide(1).action, Action::Gui(GuiAction::Click { index: 2 }));

    // Inside the directory the object is listed by its own name.
    let row = vec![place(PlaceKind::Table, ""), place(PlaceKind::Row, "q3.txt")];
    let inside = Observation {
        title: "Objects".into(),
        elements: vec![
            element(1, Role::Heading, "Objects", vec![]),
            element(2, Role::Cell, "q3.txt", row.clone()),
            element(3, Role::Button, "Delete", row),
        ],
        ..Observation::default()
    };
    let attempts = [2];
    let ctx = Context {
        task: &task,
        steps: &steps,
        observation: &inside,
        trajectory: &trajectory,
        current_step: Some(0),
        attempts: &attempts,
        unix_ms: None,
    };
    match ScriptedPolicy::new().propose(&ctx) {
        Proposal::Act(decision) => assert_eq!(decision.action, Action::Gui(GuiAction::Click { index: 3 })),
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn a_group_and_its_item_of_the_same_name_are_told_apart() {
    let nav = vec![place(PlaceKind::Navigation, "bucket")];
    let mut group = element(1, Role::Button, "Files", nav.clone());
    group.state.expanded = Some(true);
    let decision = first_decision(
        "# Files\n\n## Procedure\n\n1. In the left-side navigation pane, choose **Files** > **Files**.\n",
        vec![group, element(2, Role::Link, "Files", nav)],
    );
    assert_eq!(decision.action, Action::Gui(GuiAction::Click { index: 2 }));
}

#[test]
fn a_row_action_in_neither_the_row_nor_its_menu_is_looked_for_on_the_details_page() {
    let procedure = aca_docs::parse_markdown(
        "# Restart\n\n## Procedure\n\n1. On the **Instances** page, find the instance and click **Restart** in the **Actions** column.\n",
    )
    .expect("the page parses");
    let steps: Vec<Step> = procedure.steps.clone();
    let task = task_with_resource(procedure, "ECS instance web-01", &["web-01"]);
    let row = vec![place(PlaceKind::Table, ""), place(PlaceKind::Row, "i-1 web-01")];
    let mut more = element(4, Role::Button, "More", row.clone());
    more.state.expanded = Some(true);
    let list = Observation {
        title: "Instances".into(),
        elements: vec![
            element(1, Role::Heading, "Instances", vec![]),
            element(2, Role::Link, "i-1", row.clone()),
            element(3, Role::Link, "Manage", row),
            more,
        ],
        ..Observation::default()
    };
    let trajectory = aca_core::Trajectory::default();
    let mut policy = ScriptedPolicy::new();
    let mut decide = |observation: &Observation, attempts: u32| {
        propose_on_first_step(&mut policy, &task, &steps, observation, &trajectory, attempts, None)
    };
    assert!(matches!(decide(&list, 0).action, Action::Gui(GuiAction::Wait { .. })));
    assert_eq!(decide(&list, 1).action, Action::Gui(GuiAction::Click { index: 3 }));
    // On the details page the action is found in its All Actions, and the move is recorded.
    let details = Observation {
        title: "i-1".into(),
        elements: vec![
            element(1, Role::Heading, "i-1", vec![]),
            element(2, Role::Button, "Restart", vec![]),
        ],
        ..Observation::default()
    };
    let found = decide(&details, 2);
    assert_eq!(found.action, Action::Gui(GuiAction::Click { index: 2 }));
    let finding = found.grounding.and_then(|g| g.finding).expect("the move is recorded");
    assert_eq!(finding.kind, FindingKind::Moved);
}

/// The Create vSwitch dialog, whose VPC list shows the account's VPCs: none until one is made.
struct VSwitchDialog {
    vpcs: Vec<&'static str>,
    list_open: bool,
    chosen: Option<&'static str>,
    submitted: bool,
}

impl FakeConsole for VSwitchDialog {
    fn observe(&self) -> Observation {
        let dialog = vec![place(PlaceKind::Dialog, "Create vSwitch")];
        let mut elements = Elements::default();
        elements.add(Role::DialogTitle, "Create vSwitch", dialog.clone());
        let select = elements.add(Role::Combobox, "VPC", dialog.clone());
        select.value = self.chosen.map(str::to_owned);
        if self.list_open {
            for vpc in &self.vpcs {
                elements.add(Role::Option, vpc, dialog.clone()).option_of = Some(2);
            }
        }
        elements.add(Role::Button, "OK", dialog);
        Observation {
            title: "vSwitches".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        match action {
            GuiAction::Click { index: 2 } => self.list_open = true,
            GuiAction::Click { index } if !self.list_open && *index == 3 => self.submitted = true,
            GuiAction::Click { index } if self.list_open && (*index as usize) < 3 + self.vpcs.len() => {
                self.chosen = Some(self.vpcs[*index as usize - 3]);
                self.list_open = false;
            }
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn a_drop_down_list_of_resources_with_none_asks_for_one_and_the_step_starts_over_with_it() {
    let procedure = aca_docs::parse_markdown(
        "# Create a vSwitch\n\n## Procedure\n\n1. In the **Create vSwitch** dialog box, select a VPC from the **VPC** drop-down list.\n",
    )
    .expect("the page parses");
    let mut console = VSwitchDialog {
        vpcs: vec![],
        list_open: false,
        chosen: None,
        submitted: false,
    };
    let mut episode = Episode::new(Task::new(procedure), Box::new(ScriptedPolicy::new()));
    let mut next = episode.next(console.observe()).unwrap();
    let mut asked = None;
    for _ in 0..20 {
        next = match next {
            Next::Act(request) => episode.outcome(console.act(&request.action)).unwrap(),
            Next::Observe => episode.next(console.observe()).unwrap(),
            Next::Provision(description) => {
                asked = Some(description);
                // The VPC is made and the page loaded again: the list is closed and now has it,
                // after one the account had already (which the run must leave alone).
                console.vpcs = vec!["prod-vpc (vpc-bp0)", "doc-vpc-1 (vpc-bp1)"];
                console.list_open = false;
                episode
                    .resource_report(crate::task::ResourceReport {
                        text: "VPC doc-vpc-1 (vpc-bp1)".into(),
                        names: vec!["doc-vpc-1".into()],
                        secrets: Vec::new(),
                    })
                    .unwrap()
            }
            Next::Finished(_) => break,
            other => panic!("unexpected {other:?}"),
        };
    }
    let asked = asked.expect("the empty list is the environment's: a VPC is asked for");
    assert!(asked.contains("\"VPC\""), "{asked}");
    assert_eq!(console.chosen, Some("doc-vpc-1 (vpc-bp1)"), "the resource made for the run is chosen");
    assert!(console.submitted, "the filled dialog the page ends in is submitted");
}

#[test]
fn the_resources_details_page_is_the_page_a_step_calls_its_details_page() {
    let decision = first_decision(
        "# Disable an AccessKey\n\n## Procedure\n\n1. On the user details page, click the **Authentication** tab.\n",
        vec![
            element(1, Role::Heading, "Doc user 7k2", vec![]),
            element(2, Role::Tab, "Basic Information", vec![]),
            element(3, Role::Tab, "Authentication", vec![]),
        ],
    );
    assert_eq!(decision.action, Action::Gui(GuiAction::Click { index: 3 }));
    assert!(
        decision.grounding.is_none_or(|g| g.finding.is_none()),
        "no renamed page"
    );
}

/// The Reset Instance Password dialog: OK with empty passwords shows an error under each.
#[derive(Default)]
struct PasswordDialog {
    tried_empty: bool,
    typed: Vec<String>,
    submitted: bool,
}

impl FakeConsole for PasswordDialog {
    fn observe(&self) -> Observation {
        let dialog = vec![place(PlaceKind::Dialog, "Reset Instance Password")];
        let mut elements = Elements::default();
        elements.add(Role::DialogTitle, "Reset Instance Password", dialog.clone());
        for name in ["New Password", "Confirm Password"] {
            let field = elements.add(Role::Textbox, name, dialog.clone());
            field.value = self.typed.iter().any(|t| t == name).then(|| "********".to_owned());
            field.state.secret = true;
            if self.tried_empty && !self.typed.iter().any(|t| t == name) {
                elements.add(Role::FieldError, "Enter a password.", dialog.clone());
            }
        }
        elements.add(Role::Button, "OK", dialog);
        Observation {
            title: "Instances".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        let observation = self.observe();
        let name = |index: &u32| observation.element(*index).map(|e| e.name.clone()).unwrap_or_default();
        match action {
            GuiAction::Type { index, .. } => self.typed.push(name(index)),
            GuiAction::Click { index } if name(index) == "OK" => {
                if self.typed.len() == 2 {
                    self.submitted = true;
                } else {
                    self.tried_empty = true;
                }
            }
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn a_parameter_row_naming_two_fields_documents_both() {
    let procedure = aca_docs::parse_markdown(
        "# Reset the password\n\n## Procedure\n\n1. In the **Reset Instance Password** dialog box, configure the parameters and click **OK**.\n\n   | Parameter | Description |\n   |---|---|\n   | **New Password** and **Confirm Password** | The password must be 8 to 30 characters long. |\n",
    )
    .expect("the page parses");
    let mut console = PasswordDialog::default();
    let episode = drive(&mut console, Task::new(procedure), 30);
    assert!(console.submitted, "both passwords were typed and OK clicked");
    let report = report(&episode, true);
    assert!(
        report.defects.is_empty(),
        "no field went undocumented: {:?}",
        report.defects
    );
    // The passwords typed are in no record: the trajectory and the step's actions show a mask.
    let recorded = serde_json::to_string(episode.trajectory()).unwrap() + &format!("{:?}", report.grades);
    assert!(!recorded.contains("Aca#"), "{recorded}");
    assert!(
        report.grades[0].actions.contains(&"type(2, \"******\")".to_string()),
        "{:?}",
        report.grades
    );
}

/// The Grants page: a row per grant with Revoke Permission, and its confirmation dialog.
struct GrantsPage {
    rows: Vec<&'static str>,
    dialog: bool,
    revoked: usize,
}

impl FakeConsole for GrantsPage {
    fn observe(&self) -> Observation {
        let mut elements = Elements::default();
        // An open dialog is all the page offers, as the observation shows a modal.
        if self.dialog {
            let dialog = vec![place(PlaceKind::Dialog, "Revoke Permission")];
            elements.add(Role::DialogTitle, "Revoke Permission", dialog.clone());
            elements.add(Role::Button, "Revoke Permission", dialog);
        } else {
            elements.add(Role::Heading, "Grants", vec![]);
            for name in &self.rows {
                let row = vec![place(PlaceKind::Table, ""), place(PlaceKind::Row, name)];
                elements.add(Role::Cell, name, row.clone());
                elements.add(Role::Link, "Revoke Permission", row);
            }
        }
        Observation {
            title: "Grants".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        let GuiAction::Click { index } = action else {
            return ActionOutcome::Done { reresolved: false };
        };
        if self.dialog && *index == 2 {
            self.rows.retain(|r| *r != "doc-user");
            self.dialog = false;
            self.revoked += 1;
        } else if !self.dialog {
            // Each row's link follows its cell.
            let link_of = |i: usize| 2 + 2 * i as u32 + 1;
            if let Some(i) = (0..self.rows.len()).find(|i| link_of(*i) == *index)
                && self.rows[i] == "doc-user"
            {
                self.dialog = true;
            }
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn a_later_method_asks_again_for_what_an_earlier_one_revoked() {
    let method = "1. On the **Grants** page, find the RAM user and click **Revoke Permission** in the **Actions** column.\n\
                  2. In the **Revoke Permission** dialog box, click **Revoke Permission**.\n";
    let procedure = aca_docs::parse_markdown(&format!(
        "# RAM:Revoke permissions from a RAM user\n\n## Method 1: On the Users page\n\n{method}\n## Method 2: On the Grants page\n\n{method}"
    ))
    .expect("the page parses");
    let mut console = GrantsPage {
        rows: vec!["provisioner"],
        dialog: false,
        revoked: 0,
    };
    let mut episode = Episode::new(Task::new(procedure), Box::new(ScriptedPolicy::new()));
    let mut next = episode.next(console.observe()).unwrap();
    let mut asked = 0;
    for _ in 0..40 {
        next = match next {
            Next::Act(request) => episode.outcome(console.act(&request.action)).unwrap(),
            Next::Observe => episode.next(console.observe()).unwrap(),
            Next::Provision(_) => {
                asked += 1;
                console.rows.push("doc-user");
                episode
                    .resource_report(crate::task::ResourceReport {
                        text: "RAM user doc-user with AliyunOSSReadOnlyAccess".into(),
                        names: vec!["doc-user".into()],
                        secrets: Vec::new(),
                    })
                    .unwrap()
            }
            Next::Finished(_) => break,
            other => panic!("unexpected {other:?}"),
        };
    }
    assert_eq!(asked, 2, "once before Method 1, once more for Method 2");
    assert_eq!(console.revoked, 2, "each method revoked the grant");
}

/// An instance's whitelists: rows `default` and `app`, each with Modify.
#[derive(Default)]
struct Whitelists {
    modified: Option<&'static str>,
}

impl FakeConsole for Whitelists {
    fn observe(&self) -> Observation {
        let mut elements = Elements::default();
        elements.add(Role::Heading, "Whitelist Settings", vec![]);
        for name in ["app", "default"] {
            let row = vec![place(PlaceKind::Table, ""), place(PlaceKind::Row, name)];
            elements.add(Role::Cell, name, row.clone());
            elements.add(Role::Link, "Modify", row);
        }
        Observation {
            title: "Whitelist Settings".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        match action {
            GuiAction::Click { index: 3 } => self.modified = Some("app"),
            GuiAction::Click { index: 5 } => self.modified = Some("default"),
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn a_row_the_step_names_is_the_one_acted_on() {
    let procedure = aca_docs::parse_markdown(
        "# Configure whitelists\n\n## Procedure\n\n\
         1. Find the **default** whitelist and click **Modify** in the **Actions** column.\n",
    )
    .expect("the page parses");
    let task = task_with_resource(procedure, "Tair instance r-bp1", &["r-bp1"]);
    let mut console = Whitelists::default();
    drive(&mut console, task, 10);
    assert_eq!(console.modified, Some("default"));

    // Without bold the row's name is a lower-case word of the "find" clause.
    let procedure = aca_docs::parse_markdown(
        "# Configure whitelists\n\n## Procedure\n\n\
         1. Find the default whitelist and click Modify in the Actions column.\n",
    )
    .expect("the page parses");
    let task = task_with_resource(procedure, "Tair instance r-bp1", &["r-bp1"]);
    let mut console = Whitelists::default();
    drive(&mut console, task, 10);
    assert_eq!(console.modified, Some("default"));
}

/// The VPCs list with its Create VPC link, which opens the Create VPC page.
#[derive(Default)]
struct VpcList {
    on_create_page: bool,
}

impl FakeConsole for VpcList {
    fn observe(&self) -> Observation {
        let mut elements = Elements::default();
        let nav = place(PlaceKind::Navigation, "Virtual Private Cloud");
        elements.add(Role::Link, "VPCs", vec![nav]);
        let title = if self.on_create_page { "Create VPC" } else { "VPCs" };
        elements.add(Role::Heading, title, vec![]);
        if !self.on_create_page {
            elements.add(Role::Link, "Create VPC", vec![]);
        }
        Observation {
            title: format!("{title} - Virtual Private Cloud - Alibaba Cloud Console"),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        if *action == (GuiAction::Click { index: 3 }) {
            self.on_create_page = true;
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn going_to_a_page_a_list_opens_clicks_what_opens_it() {
    let procedure = aca_docs::parse_markdown(
        "# Create a VPC\n\n## Procedure\n\n1. Go to the **Create VPC** page in the VPC console.\n",
    )
    .expect("the page parses");
    let mut console = VpcList::default();
    drive(&mut console, Task::new(procedure), 10);
    assert!(console.on_create_page);
}

#[test]
fn a_step_that_only_opens_a_tab_the_page_lacks_is_not_verified() {
    let grades = |md: &str| {
        let procedure = aca_docs::parse_markdown(md).expect("the page parses");
        let mut console = VpcList::default();
        let episode = drive(&mut console, Task::new(procedure), 10);
        assert!(console.on_create_page, "the procedure went on");
        report(&episode, true).grades.into_iter().map(|g| (g.status, g.verified)).collect::<Vec<_>>()
    };
    let alone = grades("# VPC\n\n## Procedure\n\n1. Click the **Default VPCs** tab.\n2. Click **Create VPC**.\n");
    assert_eq!(alone, [(StepStatus::Warning, false), (StepStatus::Pass, true)]);
    let with_more = grades("# VPC\n\n## Procedure\n\n1. Click the **Default VPCs** tab and click **Create VPC**.\n");
    assert_eq!(with_more, [(StepStatus::Pass, true)]);
}

/// Manage DNS: Add Domain Name opens a dialog whose OK lists the domain typed, with Configure.
#[derive(Default)]
struct ManageDns {
    dialog: bool,
    typed: Option<String>,
    domains: Vec<String>,
    configured: Option<String>,
}

impl FakeConsole for ManageDns {
    fn observe(&self) -> Observation {
        let mut elements = Elements::default();
        elements.add(Role::Heading, "Manage DNS", vec![]);
        if self.dialog {
            let dialog = vec![place(PlaceKind::Dialog, "Add Domain Name")];
            elements.add(Role::DialogTitle, "Add Domain Name", dialog.clone());
            elements.add(Role::Textbox, "Domain Name", dialog.clone()).value = self.typed.clone();
            elements.add(Role::Button, "OK", dialog);
        } else {
            elements.add(Role::Button, "Add Domain Name", vec![]);
            for name in &self.domains {
                let row = vec![place(PlaceKind::Table, ""), place(PlaceKind::Row, name)];
                elements.add(Role::Cell, name, row.clone());
                elements.add(Role::Link, "Configure", row);
            }
        }
        Observation {
            title: "Manage DNS".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        match (self.dialog, action) {
            (false, GuiAction::Click { index: 2 }) => self.dialog = true,
            (true, GuiAction::Type { index: 3, text, .. }) => self.typed = Some(text.clone()),
            (true, GuiAction::Click { index: 4 }) => {
                self.domains.extend(self.typed.take());
                self.dialog = false;
            }
            (false, GuiAction::Click { index: 4 }) => self.configured = self.domains.first().cloned(),
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn a_row_the_procedure_made_itself_is_found_without_asking_for_a_resource() {
    let procedure = aca_docs::parse_markdown(
        "# Add a record\n\n## Procedure\n\n\
         1. On the **Manage DNS** page, click **Add Domain Name**.\n\
         2. In the **Add Domain Name** dialog box, enter `docs-example.com` in the **Domain Name** field and click **OK**.\n\
         3. On the **Manage DNS** page, find the domain name and click **Configure** in the **Actions** column.\n",
    )
    .expect("the page parses");
    let mut console = ManageDns::default();
    let episode = drive(&mut console, Task::new(procedure), 20);
    assert_eq!(console.configured.as_deref(), Some("docs-example.com"));
    assert!(
        !episode
            .trajectory()
            .turns
            .iter()
            .any(|t| matches!(t.action, Action::Control(ControlAction::RequestResource { .. }))),
        "nothing asked for"
    );
}

/// The Create User page: a required Logon Name, an optional Tag box, and OK.
#[derive(Default)]
struct CreateUserPage {
    logon_name: Option<String>,
    created: bool,
}

impl FakeConsole for CreateUserPage {
    fn observe(&self) -> Observation {
        let mut elements = Elements::default();
        elements.add(Role::Heading, "Create User", vec![]);
        let form = vec![place(PlaceKind::Form, "")];
        let name = elements.add(Role::Textbox, "Logon Name", form.clone());
        name.value = self.logon_name.clone();
        name.state.required = true;
        elements.add(Role::Textbox, "Tag", form.clone());
        elements.add(Role::Button, "OK", form);
        Observation {
            title: "Create User".into(),
            url: "https://ram.console.example/users/new".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        match action {
            GuiAction::Type { index: 2, text, .. } => self.logon_name = Some(text.clone()),
            GuiAction::Click { index: 4 } => self.created = self.logon_name.is_some(),
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn a_field_a_step_names_as_if_clicked_is_given_a_value_where_required() {
    let procedure = aca_docs::parse_markdown(
        "# Create a RAM user\n\n## Procedure\n\n\
         1. On the **Create User** page, configure the following parameters:\n   \
         - **Logon Name**: The logon name can be up to 64 characters in length.\n   \
         - **Tag**: Click the edit icon and enter a tag key and a tag value.\n",
    )
    .expect("the page parses");
    let mut console = CreateUserPage::default();
    let episode = drive(&mut console, Task::new(procedure), 20);
    let goals: Vec<String> = episode
        .trajectory()
        .turns
        .iter()
        .map(|t| format!("{:?}", t.thought))
        .collect();
    assert!(
        console.logon_name.is_some(),
        "the required Logon Name got a value: {goals:#?}"
    );
    assert!(console.created, "the page's OK, which it leaves implicit, was clicked");
    let report = report(&episode, true);
    assert!(report.defects.is_empty(), "{:?}", report.defects);
}

/// The CLB Instances list, whose Create CLB opens the buy page.
#[derive(Default)]
struct ClbList {
    group_clicked: bool,
    on_buy_page: bool,
}

impl FakeConsole for ClbList {
    fn observe(&self) -> Observation {
        let mut elements = Elements::default();
        let nav = place(PlaceKind::Navigation, "Classic Load Balancer (CLB)");
        elements.add(Role::Button, "CLB", vec![nav]);
        if self.on_buy_page {
            elements.add(Role::Heading, "CLB (Pay-As-You-Go)", vec![]);
            elements.add(Role::Button, "Buy Now", vec![]);
        } else {
            elements.add(Role::Heading, "Instances", vec![]);
            elements.add(Role::Link, "Create CLB", vec![]);
        }
        Observation {
            title: "Instances - Classic Load Balancer (CLB) - Alibaba Cloud Console".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        match action {
            GuiAction::Click { index: 1 } => self.group_clicked = true,
            GuiAction::Click { index: 3 } if !self.on_buy_page => self.on_buy_page = true,
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn going_to_a_products_buy_page_clicks_the_lists_button_that_buys_one() {
    let procedure = aca_docs::parse_markdown(
        "# Create a CLB instance\n\n## Procedure\n\n1. Go to the **CLB buy page** and configure the following settings.\n",
    )
    .expect("the page parses");
    let mut console = ClbList::default();
    drive(&mut console, Task::new(procedure), 10);
    assert!(console.on_buy_page && !console.group_clicked);
}

/// A user's AccessKey list: Delete opens a dialog asking for the AccessKey ID.
#[derive(Default)]
struct AccessKeyList {
    dialog: bool,
    typed: Option<String>,
}

impl FakeConsole for AccessKeyList {
    fn observe(&self) -> Observation {
        let mut elements = Elements::default();
        if self.dialog {
            let dialog = vec![place(PlaceKind::Dialog, "Delete")];
            elements.add(Role::DialogTitle, "Delete", dialog.clone());
            elements
                .add(Role::Textbox, "Enter the AccessKey ID", dialog.clone())
                .value = self.typed.clone();
            elements.add(Role::Button, "Move to Recycle Bin", dialog);
        } else {
            let row = vec![
                place(PlaceKind::Table, ""),
                place(PlaceKind::Row, "LTAI5tKp9dQzX1 Inactive"),
            ];
            elements.add(Role::Cell, "LTAI5tKp9dQzX1", row.clone());
            elements.add(Role::Link, "Delete", row);
        }
        Observation {
            title: "doc-user-1".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        match (self.dialog, action) {
            (false, GuiAction::Click { index: 2 }) => self.dialog = true,
            (true, GuiAction::Type { index: 2, text, .. }) => self.typed = Some(text.clone()),
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn the_id_a_dialog_asks_for_is_the_one_of_the_row_it_was_opened_from() {
    let procedure = aca_docs::parse_markdown(
        "# Delete an AccessKey\n\n## Procedure\n\n\
         1. Find the target AccessKey pair and click **Delete** in the **Actions** column.\n\
         2. In the **Delete** dialog box, enter the AccessKey ID and click **Move to Recycle Bin**.\n",
    )
    .expect("the page parses");
    let task = task_with_resource(
        procedure,
        "RAM user doc-user-1 with an AccessKey pair",
        &["doc-user-1", "LTAI5tKp9dQzX1"],
    );
    let mut console = AccessKeyList::default();
    drive(&mut console, task, 10);
    assert_eq!(console.typed.as_deref(), Some("LTAI5tKp9dQzX1"));
}

/// A Change Password panel whose OK is refused: the panel stays open with the console's error.
#[derive(Default)]
struct RefusingPanel {
    clicked: u32,
}

impl FakeConsole for RefusingPanel {
    fn observe(&self) -> Observation {
        let panel = vec![place(PlaceKind::Panel, "Change Password")];
        let mut elements = Elements::default();
        elements.add(Role::DialogTitle, "Change Password", panel.clone());
        elements.add(Role::Button, "OK", panel);
        if self.clicked > 0 {
            elements.add(
                Role::Alert,
                "InvalidOldAccountPassword: The current password of the account is incorrect.",
                vec![],
            );
        }
        Observation {
            title: "Account Management".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        if *action == (GuiAction::Click { index: 2 }) {
            self.clicked += 1;
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn a_confirmation_the_console_refuses_ends_the_step_with_the_consoles_words() {
    let procedure = aca_docs::parse_markdown(
        "# Change the password\n\n## Procedure\n\n1. In the **Change Password** panel, click **OK**.\n",
    )
    .expect("the page parses");
    let mut console = RefusingPanel::default();
    let episode = drive(&mut console, Task::new(procedure), 10);
    assert_eq!(console.clicked, 1, "OK is not clicked again and again");
    match episode.end().map(|end| &end.reason) {
        Some(EndReason::Unachievable { reason }) => assert!(reason.contains("is incorrect"), "{reason}"),
        other => panic!("unexpected end {other:?}"),
    }
}

/// A dialog that, once its OK succeeded, shows the console's success message and stays open a
/// moment before the page moves on; a second OK is refused as a duplicate.
#[derive(Default)]
struct LingeringDialog {
    clicks: u32,
}

impl FakeConsole for LingeringDialog {
    fn observe(&self) -> Observation {
        let dialog = vec![place(PlaceKind::Dialog, "Create Role")];
        let mut elements = Elements::default();
        elements.add(Role::DialogTitle, "Create Role", dialog.clone());
        elements.add(Role::Button, "OK", dialog);
        if self.clicks >= 1 {
            elements.add(Role::Alert, "The RAM role is created.", vec![]);
        }
        if self.clicks >= 2 {
            elements.add(
                Role::Alert,
                "EntityAlreadyExists.Role: The role does already EXIST.",
                vec![],
            );
        }
        Observation {
            title: "Create Role".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        if *action == (GuiAction::Click { index: 2 }) {
            self.clicks += 1;
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn a_dialog_still_closing_after_its_ok_is_not_submitted_again() {
    let procedure = aca_docs::parse_markdown(
        "# Create a role\n\n## Procedure\n\n1. In the **Create Role** dialog box, click **OK**.\n",
    )
    .expect("the page parses");
    let mut console = LingeringDialog::default();
    let episode = drive(&mut console, Task::new(procedure), 10);
    assert_eq!(console.clicks, 1, "OK once");
    assert!(
        matches!(episode.end().map(|e| &e.reason), Some(EndReason::Completed { .. })),
        "{:?}",
        episode.end()
    );
}

/// A dialog with one button that closes it.
struct OneButtonDialog {
    clicked: bool,
}

impl FakeConsole for OneButtonDialog {
    fn observe(&self) -> Observation {
        let mut elements = Elements::default();
        elements.add(Role::Heading, "Create Role", vec![]);
        if !self.clicked {
            elements.add(Role::Button, "OK", vec![]);
        }
        Observation {
            title: "Create Role".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        if *action == (GuiAction::Click { index: 2 }) {
            self.clicked = true;
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn an_optional_step_that_cannot_be_done_is_left_out_unverified() {
    let procedure = aca_docs::parse_markdown(
        "# Create a RAM role\n\n## Procedure\n\n\
         1. (Optional) To refine the trust policy, click **Switch to Policy Editor**.\n\
         2. Click **OK**.\n",
    )
    .expect("the page parses");
    assert!(procedure.steps[0].optional && !procedure.steps[1].optional);
    let mut console = OneButtonDialog { clicked: false };
    let episode = drive(&mut console, Task::new(procedure), 20);
    assert!(console.clicked, "the run goes on past the optional step");
    let report = report(&episode, true);
    assert_eq!(report.verdict, Verdict::Pass, "{report:?}");
    assert!(report.defects.is_empty(), "{:?}", report.defects);
    assert_eq!(report.grades[0].status, StepStatus::Warning);
    assert!(!report.grades[0].verified);
}

/// The Delete Role dialog: the role's name must be typed before Delete Role deletes it.
#[derive(Default)]
struct DeleteRoleDialog {
    typed: String,
    deleted: bool,
    refused: bool,
}

impl FakeConsole for DeleteRoleDialog {
    fn observe(&self) -> Observation {
        let dialog = vec![place(PlaceKind::Dialog, "Delete Role")];
        let mut elements = Elements::default();
        if !self.deleted {
            elements.add(Role::DialogTitle, "Delete Role", dialog.clone());
            elements
                .add(Role::Textbox, "Enter the name of the RAM role", dialog.clone())
                .value = Some(self.typed.clone()).filter(|t| !t.is_empty());
            if self.refused {
                elements.add(Role::FieldError, "Enter doc-role-1 to confirm.", dialog.clone());
            }
            elements.add(Role::Button, "Delete Role", dialog);
        }
        Observation {
            title: "Roles".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        match action {
            GuiAction::Type { index: 2, text, .. } => self.typed = text.clone(),
            GuiAction::Click { .. } if self.typed == "doc-role-1" => self.deleted = true,
            GuiAction::Click { .. } => self.refused = true,
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn a_deletion_confirmed_by_typing_the_name_gets_the_resources_name() {
    let procedure = aca_docs::parse_markdown(
        "# Delete a RAM role\n\n## Procedure\n\n\
         1. In the **Delete Role** dialog box, enter the name of the RAM role and click **Delete Role**.\n",
    )
    .expect("the page parses");
    let task = task_with_resource(procedure, "RAM role doc-role-1", &["doc-role-1"]);
    let mut console = DeleteRoleDialog::default();
    drive(&mut console, task, 20);
    assert!(
        console.deleted,
        "typed {:?}, refused {}",
        console.typed, console.refused
    );
    assert!(!console.refused, "the name was typed before the click");
}

/// A two-step wizard in a dialog: a name, Next, then OK.
#[derive(Default)]
struct TwoStepWizard {
    name: Option<String>,
    second: bool,
    submitted: bool,
}

impl FakeConsole for TwoStepWizard {
    fn observe(&self) -> Observation {
        let dialog = vec![place(PlaceKind::Dialog, "Configure Listener")];
        let mut elements = Elements::default();
        if !self.submitted {
            elements.add(Role::DialogTitle, "Configure Listener", dialog.clone());
            if self.second {
                elements.add(Role::Heading, "Backend Servers", dialog.clone());
                elements.add(Role::Button, "OK", dialog);
            } else {
                elements.add(Role::Textbox, "Listener Name", dialog.clone()).value = self.name.clone();
                elements.add(Role::Button, "Next", dialog);
            }
        }
        Observation {
            title: "Instances".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        match action {
            GuiAction::Type { index: 2, text, .. } => self.name = Some(text.clone()),
            GuiAction::Click { index: 3 } if !self.second => self.second = true,
            GuiAction::Click { index: 3 } => self.submitted = true,
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn a_page_that_ends_inside_a_wizard_is_taken_through_its_next_to_its_ok() {
    let procedure = aca_docs::parse_markdown(
        "# Add a listener\n\n## Procedure\n\n\
         1. In the **Configure Listener** dialog box, enter `web` in the **Listener Name** field.\n",
    )
    .expect("the page parses");
    let mut console = TwoStepWizard::default();
    let episode = drive(&mut console, Task::new(procedure), 20);
    assert_eq!(console.name.as_deref(), Some("web"));
    assert!(console.submitted, "Next, then OK");
    let report = report(&episode, true);
    let note = report.grades[0].note.clone().unwrap_or_default();
    assert!(note.contains("\"Next\"") && note.contains("\"OK\""), "{note}");
}

/// A wizard whose last step, which the page never reaches, requires a port before Submit.
#[derive(Default)]
struct WizardAskingPastThePage {
    name: Option<String>,
    second: bool,
    port: Option<String>,
    refused: bool,
    submitted: bool,
}

impl FakeConsole for WizardAskingPastThePage {
    fn observe(&self) -> Observation {
        let dialog = vec![place(PlaceKind::Dialog, "Configure Listener")];
        let mut elements = Elements::default();
        if !self.submitted {
            elements.add(Role::DialogTitle, "Configure Listener", dialog.clone());
            if self.second {
                let mut step = dialog.clone();
                step.push(place(PlaceKind::WizardStep, "2 Backend Servers"));
                let port = elements.add(Role::Textbox, "Backend Server Port", step.clone());
                port.value = self.port.clone();
                port.state.required = true;
                if self.refused && self.port.is_none() {
                    elements.add(Role::FieldError, "This field is required.", step);
                }
                elements.add(Role::Button, "Submit", dialog);
            } else {
                elements.add(Role::Textbox, "Listener Name", dialog.clone()).value = self.name.clone();
                elements.add(Role::Button, "Next", dialog);
            }
        }
        Observation {
            title: "Instances".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        let submit = if self.refused && self.port.is_none() { 4 } else { 3 };
        match action {
            GuiAction::Type { index: 2, text, .. } if !self.second => self.name = Some(text.clone()),
            GuiAction::Type { index: 2, text, .. } => self.port = Some(text.clone()),
            GuiAction::Click { index: 3 } if !self.second => self.second = true,
            GuiAction::Click { index } if *index == submit && self.port.is_some() => self.submitted = true,
            GuiAction::Click { index } if *index == submit => self.refused = true,
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn what_a_wizard_asks_for_after_the_page_ends_is_noted_not_a_defect() {
    let procedure = aca_docs::parse_markdown(
        "# Add a listener\n\n## Procedure\n\n\
         1. In the **Configure Listener** dialog box, enter `web` in the **Listener Name** field and click **Next**.\n",
    )
    .expect("the page parses");
    let mut console = WizardAskingPastThePage::default();
    let episode = drive(&mut console, Task::new(procedure), 20);
    assert!(console.refused && console.submitted, "Submit, refused, a port, Submit");
    let report = report(&episode, true);
    assert!(report.defects.is_empty(), "{:?}", report.defects);
    let note = report.grades[0].note.clone().unwrap_or_default();
    assert!(
        note.contains("\"Backend Server Port\"; the page does not mention it"),
        "{note}"
    );
}

/// A buy page with one required field, refusing Buy Now until it is filled.
#[derive(Default)]
struct BuyPageWithARequiredField {
    vpc: Option<String>,
    refused: bool,
    bought: bool,
}

impl FakeConsole for BuyPageWithARequiredField {
    fn observe(&self) -> Observation {
        let form = vec![place(PlaceKind::Form, "")];
        let mut elements = Elements::default();
        if !self.bought {
            let vpc = elements.add(Role::Textbox, "VPC Name", form.clone());
            vpc.value = self.vpc.clone();
            vpc.state.required = true;
            if self.refused && self.vpc.is_none() {
                elements.add(Role::FieldError, "This field is required.", form.clone());
            }
            elements.add(Role::Button, "Buy Now", form);
        }
        Observation {
            title: "Buy".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        let buy = if self.refused && self.vpc.is_none() { 3 } else { 2 };
        match action {
            GuiAction::Type { index: 1, text, .. } => self.vpc = Some(text.clone()),
            GuiAction::Click { index } if *index == buy && self.vpc.is_some() => self.bought = true,
            GuiAction::Click { index } if *index == buy => self.refused = true,
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn a_page_cut_short_before_its_parameters_is_not_held_to_them() {
    let procedure = aca_docs::parse_markdown(
        "# Create an instance\n\n## Procedure\n\n\
         1. On the buy page, configure the following parameters and click **Buy Now**.\n",
    )
    .expect("the page parses");
    let mut console = BuyPageWithARequiredField::default();
    let episode = drive(&mut console, Task::new(procedure), 20);
    assert!(console.refused && console.bought, "Buy Now, refused, a name, Buy Now");
    let report = report(&episode, true);
    assert!(report.defects.is_empty(), "{:?}", report.defects);
    let note = report.grades[0].note.clone().unwrap_or_default();
    assert!(note.contains("promises a list of parameters it does not hold"), "{note}");
}

/// An instance page whose Automatic renewal button (or switch) is disabled, with the console's reason.
struct RenewalDisabled(Role);

impl FakeConsole for RenewalDisabled {
    fn observe(&self) -> Observation {
        let mut elements = Elements::default();
        let renew = elements.add(self.0, "Automatic renewal", vec![]);
        renew.state.disabled = true;
        if self.0 == Role::Switch {
            renew.state.checked = Some(false);
        }
        renew.hint = Some("Pay-as-you-go instances do not require renewal.".into());
        Observation {
            title: "Instance".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, _: &GuiAction) -> ActionOutcome {
        ActionOutcome::NotActionable {
            index: 1,
            reason: NotActionable::Disabled { reason: None },
        }
    }
}

#[test]
fn a_control_the_console_disables_for_the_resource_at_hand_is_the_environments() {
    let procedure = aca_docs::parse_markdown(
        "# Enable auto-renewal\n\n## Procedure\n\n\
         1. In the **Instance Status** section, turn on **Automatic renewal**.\n",
    )
    .expect("the page parses");
    for role in [Role::Button, Role::Switch] {
        let episode = drive(&mut RenewalDisabled(role), Task::new(procedure.clone()), 20);
        let asked = episode.trajectory().turns.iter().find_map(|t| match &t.action {
            Action::Control(ControlAction::RequestResource { description }) => Some(description.clone()),
            _ => None,
        });
        let asked = asked.unwrap_or_else(|| panic!("the resource is asked for ({role:?})"));
        assert!(asked.contains("Pay-as-you-go instances do not require renewal."), "{asked}");
        let report = report(&episode, false);
        assert!(report.defects.is_empty(), "{:?}", report.defects);
        assert!(
            matches!(episode.end().map(|e| &e.reason), Some(EndReason::Environment { .. })),
            "{role:?}: {:?}",
            episode.end()
        );
    }
}

/// An instance page of one console whose top bar holds a Billing menu; its Renewals item opens
/// another console's Renewal page.
#[derive(Default)]
struct TopBarMenu {
    open: bool,
    on_renewal: bool,
}

impl FakeConsole for TopBarMenu {
    fn observe(&self) -> Observation {
        let mut elements = Elements::default();
        let top = || vec![place(PlaceKind::TopBar, "")];
        elements.add(Role::Link, "Console home", top());
        elements.add(Role::Button, "Billing", top()).state.expanded = Some(self.open);
        if self.open {
            elements.add(Role::Menuitem, "Renewals", top());
        }
        let title = if self.on_renewal { "Renewal" } else { "Instance" };
        elements.add(Role::Heading, title, vec![]);
        Observation {
            title: format!("{title} - Console"),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        match action {
            GuiAction::Click { index: 2 } => self.open = !self.open,
            GuiAction::Click { index: 3 } if self.open => {
                self.open = false;
                self.on_renewal = true;
            }
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn a_page_of_another_console_is_found_in_a_menu_of_the_top_bar() {
    let procedure = aca_docs::parse_markdown("# Renewal\n\n## Procedure\n\n1. Go to the Renewal page.\n")
        .expect("the page parses");
    let mut console = TopBarMenu::default();
    let episode = drive(&mut console, Task::new(procedure), 20);
    assert!(console.on_renewal, "Billing > Renewals opened the Renewal page");
    let report = report(&episode, true);
    assert!(report.defects.is_empty(), "{:?}", report.defects);
}

/// A user's Authentication tab offering Enable Console Logon, the user having no password yet.
#[derive(Default)]
struct LogonSettings {
    opened: bool,
}

impl FakeConsole for LogonSettings {
    fn observe(&self) -> Observation {
        let mut elements = Elements::default();
        elements.add(Role::Tab, "Authentication", vec![]).state.selected = true;
        elements.add(Role::Button, "Enable Console Logon", vec![]);
        if self.opened {
            let panel = vec![place(PlaceKind::Panel, "Modify Logon Settings")];
            elements.add(Role::DialogTitle, "Modify Logon Settings", panel);
        }
        Observation {
            title: "Users".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        if let GuiAction::Click { index: 2 } = action {
            self.opened = true;
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn of_two_buttons_a_step_offers_with_or_the_one_the_page_shows_is_clicked() {
    let procedure = aca_docs::parse_markdown(
        "# Reset a password\n\n## Procedure\n\n\
         1. On the **Authentication** tab, click **Enable Console Logon** or **Modify Logon Settings**.\n",
    )
    .expect("the page parses");
    let mut console = LogonSettings::default();
    let episode = drive(&mut console, Task::new(procedure), 20);
    assert!(console.opened, "Enable Console Logon clicked");
    let report = report(&episode, true);
    assert!(report.defects.is_empty(), "{:?}", report.defects);
}

#[test]
fn setting_a_text_box_to_a_value_types_it() {
    let procedure = aca_docs::parse_markdown(
        "# Add a listener\n\n## Procedure\n\n\
         1. In the **Configure Listener** dialog box, set **Listener Name** to **web**.\n",
    )
    .expect("the page parses");
    let mut console = TwoStepWizard::default();
    drive(&mut console, Task::new(procedure), 20);
    assert_eq!(console.name.as_deref(), Some("web"));
}

/// The Trails page: Create Trail opens a panel whose Trail Name is required, submitted by Create.
#[derive(Default)]
struct TrailPanel {
    open: bool,
    name: Option<String>,
    created: Option<String>,
}

impl FakeConsole for TrailPanel {
    fn observe(&self) -> Observation {
        let mut elements = Elements::default();
        if self.open {
            let panel = vec![place(PlaceKind::Panel, "Create Trail")];
            elements.add(Role::DialogTitle, "Create Trail", panel.clone());
            let name = elements.add(Role::Textbox, "Trail Name", panel.clone());
            name.value = self.name.clone();
            name.state.required = true;
            elements.add(Role::Textbox, "OSS Bucket", panel.clone());
            elements.add(Role::Button, "Create", panel);
        } else {
            elements.add(Role::Heading, "Trails", vec![]);
            elements.add(Role::Button, "Create Trail", vec![]);
        }
        Observation {
            title: "Trails".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        match (self.open, action) {
            (false, GuiAction::Click { index: 2 }) => self.open = true,
            (true, GuiAction::Type { index: 2, text, .. }) => self.name = Some(text.clone()),
            (true, GuiAction::Click { index: 4 }) if self.name.is_some() => {
                self.created = self.name.clone();
                self.open = false;
            }
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn a_required_field_a_parameter_table_describes_gets_a_value_and_the_panel_left_open_is_submitted() {
    let procedure = aca_docs::parse_markdown(
        "# Create a trail\n\n## Procedure\n\n\
         1. On the **Trails** page, click **Create Trail**.\n\
         2. On the **Create Trail** page, configure the following parameters.\n\n   \
         | Parameter | Description |\n   |---|---|\n   | Trail Name | The name of the trail. |\n   | OSS Bucket | The bucket that receives the events. |\n",
    )
    .expect("the page parses");
    let mut console = TrailPanel::default();
    let episode = drive(&mut console, Task::new(procedure), 30);
    assert!(console.created.is_some(), "{:?}", episode.trajectory());
    let report = report(&episode, true);
    assert_eq!(report.verdict, Verdict::Pass, "{report:#?}");
    assert!(report.defects.is_empty());
}

/// The Trails page as today's console has it: Create Trail opens the Quickly Create Trail page,
/// whose Create Trail link at the top opens the Create Trail page with the Trail Region too.
#[derive(Default)]
struct QuickTrailPages {
    page: &'static str,
    name: Option<String>,
    region: &'static str,
    created: Option<(String, &'static str, &'static str)>,
}

impl FakeConsole for QuickTrailPages {
    fn observe(&self) -> Observation {
        let mut elements = Elements::default();
        let title = match self.page {
            "" => {
                elements.add(Role::Heading, "Trails", vec![]);
                elements.add(Role::Button, "Create Trail", vec![]);
                "Trails"
            }
            page => {
                elements.add(Role::Heading, page, vec![]);
                elements.add(Role::Textbox, "Trail Name", vec![]).value = self.name.clone();
                if page == "Quickly Create Trail" {
                    elements.add(Role::Link, "Create Trail", vec![]);
                } else {
                    for region in ["All Regions", "Current Region"] {
                        elements.add(Role::Radio, region, vec![place(PlaceKind::RadioGroup, "Trail Region")]).state.checked =
                            Some(self.region == region);
                    }
                }
                elements.add(Role::Button, "Create", vec![]);
                page
            }
        };
        Observation {
            title: title.into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        let create = if self.page == "Quickly Create Trail" { 4 } else { 5 };
        match (self.page, action) {
            ("", GuiAction::Click { index: 2 }) => self.page = "Quickly Create Trail",
            ("Quickly Create Trail", GuiAction::Click { index: 3 }) => {
                // The page with every parameter: what was typed on the quick page is gone.
                (self.page, self.name) = ("Create Trail", None);
            }
            (_, GuiAction::Type { index: 2, text, .. }) => self.name = Some(text.clone()),
            ("Create Trail", GuiAction::Click { index: 3 }) => self.region = "All Regions",
            ("Create Trail", GuiAction::Click { index: 4 }) => self.region = "Current Region",
            (page, GuiAction::Click { index }) if *index == create && self.name.is_some() => {
                self.created = Some((self.name.clone().unwrap_or_default(), page, self.region));
                self.page = "";
            }
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

/// The trail the procedure `steps` makes on [`QuickTrailPages`] (its name, the page it was created
/// on, its region), and the report's verdict.
fn trail_created_by(steps: &str) -> (Option<(String, &'static str, &'static str)>, Verdict) {
    let procedure = aca_docs::parse_markdown(&format!("# Create a trail\n\n## Procedure\n\n{steps}"))
        .expect("the page parses");
    let mut console = QuickTrailPages {
        region: "All Regions",
        ..QuickTrailPages::default()
    };
    let episode = drive(&mut console, Task::new(procedure), 30);
    (console.created, report(&episode, true).verdict)
}

#[test]
fn a_step_in_the_create_trail_panel_opens_it_from_the_quick_page_it_is_a_variant_of() {
    let made = trail_created_by(
        "1. On the **Trails** page, click **Create Trail**.\n\
         2. In the **Create Trail** panel, enter audit_trail in the **Trail Name** field and set **Trail Region** to **Current Region**.\n\
         3. Click **Create**.\n",
    );
    assert_eq!(
        made,
        (Some(("audit_trail".into(), "Create Trail", "Current Region")), Verdict::Pass)
    );
}

#[test]
fn a_step_on_the_quick_page_it_names_stays_there() {
    let made = trail_created_by(
        "1. On the **Trails** page, click **Create Trail**.\n\
         2. On the **Quickly Create Trail** page, enter audit_trail in the **Trail Name** field.\n\
         3. Click **Create**.\n",
    );
    assert_eq!(
        made,
        (Some(("audit_trail".into(), "Quickly Create Trail", "All Regions")), Verdict::Pass)
    );
}

/// The Restart Instance panel: the Restart Mode is a pair of radio buttons with no box of its own.
#[derive(Default)]
struct RestartPanel {
    mode: Option<&'static str>,
}

impl FakeConsole for RestartPanel {
    fn observe(&self) -> Observation {
        let panel = vec![place(PlaceKind::Panel, "Restart Instance")];
        let mut elements = Elements::default();
        elements.add(Role::DialogTitle, "Restart Instance", panel.clone());
        for mode in ["Restart Now", "Restart Within Maintenance Window"] {
            elements.add(Role::Radio, mode, panel.clone()).state.checked = Some(self.mode == Some(mode));
        }
        Observation {
            title: "Instances".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        match action {
            GuiAction::Click { index: 2 } => self.mode = Some("Restart Now"),
            GuiAction::Click { index: 3 } => self.mode = Some("Restart Within Maintenance Window"),
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn setting_a_group_of_described_options_chooses_one() {
    let procedure = aca_docs::parse_markdown(
        "# Restart an instance\n\n## Procedure\n\n\
         1. In the panel that appears, set the **Restart Mode**:\n   \
         - **Restart Now**: The instance restarts immediately.\n   \
         - **Restart Within Maintenance Window**: The instance restarts during the maintenance window.\n",
    )
    .expect("the page parses");
    let mut console = RestartPanel::default();
    let episode = drive(&mut console, Task::new(procedure), 10);
    assert_eq!(console.mode, Some("Restart Now"));
    let report = report(&episode, true);
    assert!(report.defects.is_empty(), "{:?}", report.defects);
}

/// A panel whose OK needs the risk notice's check box ticked first.
#[derive(Default)]
struct RiskNotice {
    ticked: bool,
    refused: bool,
    submitted: bool,
}

impl FakeConsole for RiskNotice {
    fn observe(&self) -> Observation {
        let panel = vec![place(PlaceKind::Panel, "Restart Instance")];
        let mut elements = Elements::default();
        if !self.submitted {
            elements.add(Role::DialogTitle, "Restart Instance", panel.clone());
            elements
                .add(Role::Checkbox, "I have read the risk notice", panel.clone())
                .state
                .checked = Some(self.ticked);
            if self.refused && !self.ticked {
                elements.add(Role::FieldError, "This field is required.", panel.clone());
            }
            elements.add(Role::Button, "OK", panel);
        }
        Observation {
            title: "Instances".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        let ok = if self.refused && !self.ticked { 4 } else { 3 };
        match action {
            GuiAction::Click { index: 2 } => self.ticked = !self.ticked,
            GuiAction::Click { index } if *index == ok && self.ticked => self.submitted = true,
            GuiAction::Click { index } if *index == ok => self.refused = true,
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn a_required_check_box_the_console_asks_for_is_ticked() {
    let procedure = aca_docs::parse_markdown(
        "# Restart an instance\n\n## Procedure\n\n\
         1. Read the risk notice, select the confirmation checkbox, and click **OK**.\n",
    )
    .expect("the page parses");
    let mut console = RiskNotice::default();
    let episode = drive(&mut console, Task::new(procedure), 20);
    assert!(
        console.submitted,
        "ticked {}, refused {}",
        console.ticked, console.refused
    );
    // "the confirmation checkbox" documents it, though not by its label.
    let report = report(&episode, true);
    assert!(report.defects.is_empty(), "{:?}", report.defects);
}

/// A panel whose OK needs a section filled in through a button the page never names.
#[derive(Default)]
struct RequiredSection {
    name: Option<String>,
    refused: bool,
}

impl FakeConsole for RequiredSection {
    fn observe(&self) -> Observation {
        let panel = vec![place(PlaceKind::Panel, "Create Alert Rule")];
        let mut elements = Elements::default();
        elements.add(Role::DialogTitle, "Create Alert Rule", panel.clone());
        let name = elements.add(Role::Textbox, "Rule Name", panel.clone());
        name.value = self.name.clone();
        elements
            .add(Role::Button, "Add Rule", panel.clone())
            .state
            .expanded = Some(false);
        if self.refused {
            elements.add(Role::FieldError, "This section is required.", panel.clone());
        }
        elements.add(Role::Button, "OK", panel);
        Observation {
            title: "Alert Rules".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        let ok = if self.refused { 5 } else { 4 };
        match action {
            GuiAction::Type { index: 2, text, .. } => self.name = Some(text.clone()),
            GuiAction::Click { index } if *index == ok => self.refused = true,
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn a_required_section_the_page_never_names_is_a_missing_step_not_a_retry_loop() {
    let procedure = aca_docs::parse_markdown(
        "# Create an alert rule\n\n## Procedure\n\n\
         1. In the **Create Alert Rule** panel, enter **cpu-high** in the **Rule Name** field.\n\
         2. Click **OK**.\n",
    )
    .expect("the page parses");
    let mut console = RequiredSection::default();
    let episode = drive(&mut console, Task::new(procedure), 30);
    assert!(episode.end().is_some(), "the run ends rather than retrying");
    let findings: Vec<_> = episode.records().iter().flat_map(|r| r.findings.iter()).collect();
    assert!(
        findings
            .iter()
            .any(|f| f.kind == FindingKind::Undocumented && f.observed.contains("Add Rule")),
        "{findings:?}"
    );
}

/// A dialog whose required port field the page's table knows under an older name.
#[derive(Default)]
struct RenamedPort {
    port: Option<String>,
    submitted: bool,
}

impl FakeConsole for RenamedPort {
    fn observe(&self) -> Observation {
        let dialog = vec![place(PlaceKind::Dialog, "Configure Listener")];
        let mut elements = Elements::default();
        if !self.submitted {
            elements.add(Role::DialogTitle, "Configure Listener", dialog.clone());
            let port = elements.add(Role::Textbox, "Listener Port", dialog.clone());
            port.state.required = true;
            port.value = self.port.clone();
            elements.add(Role::Button, "OK", dialog);
        }
        Observation {
            title: "Instances".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        match action {
            GuiAction::Type { index: 2, text, .. } => self.port = Some(text.clone()),
            GuiAction::Click { index: 3 } if self.port.is_some() => self.submitted = true,
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn a_table_row_whose_required_field_reads_otherwise_is_filled_and_the_rename_recorded() {
    let procedure = aca_docs::parse_markdown(
        "# Add a listener\n\n## Procedure\n\n\
         1. Set the following parameters.\n\n   \
         | Parameter | Description |\n   |---|---|\n   \
         | **Listening Port** | The port that receives requests. |\n\n\
         2. Click **OK**.\n",
    )
    .expect("the page parses");
    let mut console = RenamedPort::default();
    let episode = drive(&mut console, Task::new(procedure), 20);
    assert!(console.submitted, "the form went through: {:?}", episode.records());
    let findings: Vec<_> = episode.records().iter().flat_map(|r| r.findings.iter()).collect();
    assert!(
        findings.iter().any(|f| f.kind == FindingKind::Renamed
            && f.documented == "Listening Port"
            && f.observed == "Listener Port"),
        "{findings:?}"
    );
}

#[test]
fn a_required_field_the_table_names_itself_is_no_other_row_renamed() {
    let procedure = aca_docs::parse_markdown(
        "# Add a listener\n\n## Procedure\n\n\
         1. Set the following parameters.\n\n   \
         | Parameter | Description |\n   |---|---|\n   \
         | **Listener Protocol** | The protocol. |\n   \
         | **Listener Port** | The port that receives requests. |\n\n\
         2. Click **OK**.\n",
    )
    .expect("the page parses");
    let mut console = RenamedPort::default();
    let episode = drive(&mut console, Task::new(procedure), 20);
    let findings: Vec<_> = episode.records().iter().flat_map(|r| r.findings.iter()).collect();
    assert!(
        !findings.iter().any(|f| f.kind == FindingKind::Renamed),
        "{findings:?}"
    );
}

#[test]
fn what_a_step_does_in_an_app_on_the_phone_is_not_looked_for_in_the_console() {
    use super::intent::in_another_app;
    let text = "Select a method: Tap Scan barcode in the Google Authenticator app and scan the QR code that is displayed on the Scan the code. tab in the RAM console. This option is recommended. Tap Manual entry, enter the username and key, and then tap the √ icon in the Google Authenticator app.";
    assert!(in_another_app(text, "Scan barcode"));
    assert!(!in_another_app(text, "Scan the code."));
    assert!(in_another_app(text, "Manual entry"));
    assert!(in_another_app(text, "√"));
    let console = "Click Create Application in the Enterprise Distributed Application Service console.";
    assert!(!in_another_app(console, "Create Application"));
    assert!(!in_another_app("Click Create VPC.", "Create VPC"));
}

/// A dialog that shows a virtual MFA device's setup key and asks for two codes.
fn mfa_dialog(key: Option<&str>) -> Observation {
    let dialog = vec![place(PlaceKind::Dialog, "Enable the Virtual MFA Device")];
    let mut elements = vec![element(1, Role::DialogTitle, "Enable the Virtual MFA Device", dialog.clone())];
    if let Some(key) = key {
        elements.push(element(2, Role::Cell, &format!("Key: {key}"), dialog.clone()));
    }
    elements.extend([
        element(3, Role::Textbox, "Verification Code 1", dialog.clone()),
        element(4, Role::Textbox, "Verification Code 2", dialog.clone()),
        element(5, Role::Button, "Enable", dialog),
    ]);
    Observation {
        title: "Users".into(),
        elements,
        ..Observation::default()
    }
}

fn mfa_decision(observation: &Observation, unix_ms: Option<u64>, policy: &mut ScriptedPolicy) -> Decision {
    let procedure = aca_docs::parse_markdown(
        "# Enable an MFA device\n\n## Procedure\n\n1. Enter the two consecutive verification codes that are displayed on the Google Authenticator app. Then, click **Enable**.\n",
    )
    .expect("the page parses");
    let steps: Vec<Step> = procedure.steps.clone();
    let task = Task::new(procedure);
    let trajectory = aca_core::Trajectory::default();
    propose_on_first_step(policy, &task, &steps, observation, &trajectory, 0, unix_ms)
}

/// What the policy proposes on the page's first step, which must be an action.
fn propose_on_first_step(
    policy: &mut ScriptedPolicy,
    task: &Task,
    steps: &[Step],
    observation: &Observation,
    trajectory: &aca_core::Trajectory,
    attempts: u32,
    unix_ms: Option<u64>,
) -> Decision {
    let attempts = [attempts];
    let ctx = Context {
        task,
        steps,
        observation,
        trajectory,
        current_step: Some(0),
        attempts: &attempts,
        unix_ms,
    };
    match policy.propose(&ctx) {
        Proposal::Act(decision) => *decision,
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn verification_codes_are_computed_from_the_setup_key_the_console_shows() {
    const KEY: &str = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
    let observation = mfa_dialog(Some(KEY));
    let mut policy = ScriptedPolicy::new();
    let decision = mfa_decision(&observation, Some(59_000), &mut policy);
    let key = aca_otp::decode_key(KEY).unwrap();
    // The first field takes the last step's code; RFC 6238's key gives 287082 at 59 s.
    match &decision.action {
        Action::Gui(GuiAction::Type { index, text, .. }) => {
            assert_eq!((*index, text.as_str()), (3, aca_otp::code_at_step(&key, 0).as_str()));
        }
        other => panic!("expected the first code typed, got {other:?}"),
    }
    assert!(!format!("{decision:?}").contains(KEY), "the key stays out of the decision");
}

#[test]
fn without_a_setup_key_the_codes_are_asked_of_the_environment() {
    let observation = mfa_dialog(None);
    let mut policy = ScriptedPolicy::new();
    let decision = mfa_decision(&observation, Some(59_000), &mut policy);
    match &decision.action {
        Action::Control(ControlAction::RequestResource { description }) => {
            assert!(description.contains("authenticator app the run does not have"), "{description}");
        }
        other => panic!("expected a request for what the run lacks, got {other:?}"),
    }
}

/// The key on a tab of its own beside the QR code's (as the RAM console shows it): the tab is
/// opened once, and the codes come from the key it shows.
#[test]
fn a_setup_key_on_a_tab_of_its_own_is_read_after_opening_the_tab() {
    const KEY: &str = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
    let tabbed = |key: Option<&str>| {
        let mut observation = mfa_dialog(key);
        let dialog = observation.elements[0].places.clone();
        let mut scan = element(6, Role::Tab, "Scan the code.", dialog.clone());
        scan.state.selected = key.is_none();
        let mut manual = element(7, Role::Tab, "Retrieve manually enter information.", dialog);
        manual.state.selected = key.is_some();
        observation.elements.insert(1, manual);
        observation.elements.insert(1, scan);
        observation
    };
    let mut policy = ScriptedPolicy::new();
    let decision = mfa_decision(&tabbed(None), Some(59_000), &mut policy);
    assert!(
        matches!(decision.action, Action::Gui(GuiAction::Click { index: 7 })),
        "{decision:?}"
    );
    let decision = mfa_decision(&tabbed(Some(KEY)), Some(59_000), &mut policy);
    let key = aca_otp::decode_key(KEY).unwrap();
    match &decision.action {
        Action::Gui(GuiAction::Type { index, text, .. }) => {
            assert_eq!((*index, text.as_str()), (3, aca_otp::code_at_step(&key, 0).as_str()));
        }
        other => panic!("expected the first code typed, got {other:?}"),
    }
    // Opened once: a tab that shows no key either leaves the codes to the environment.
    let mut policy = ScriptedPolicy::new();
    mfa_decision(&tabbed(None), Some(59_000), &mut policy);
    let decision = mfa_decision(&tabbed(None), Some(59_000), &mut policy);
    assert!(
        matches!(decision.action, Action::Control(ControlAction::RequestResource { .. })),
        "{decision:?}"
    );
}

/// A Reset Password panel, open from the start, whose New Password field is named in no bold.
#[derive(Default)]
struct ResetPasswordPanel {
    password: Option<String>,
    reset: bool,
}

impl FakeConsole for ResetPasswordPanel {
    fn observe(&self) -> Observation {
        let mut elements = Elements::default();
        let panel = vec![place(PlaceKind::Panel, "Reset Password")];
        elements.add(Role::DialogTitle, "Reset Password", panel.clone());
        let field = elements.add(Role::Textbox, "New Password", panel.clone());
        field.value = self.password.clone();
        field.state.required = true;
        elements.add(Role::Button, "OK", panel);
        Observation {
            title: "Account Management".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        match action {
            GuiAction::Type { index: 2, text, .. } => self.password = Some(text.clone()),
            GuiAction::Click { index: 3 } => self.reset = self.password.is_some(),
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn a_field_a_step_names_without_bold_is_filled_in_that_step_where_the_page_shows_it() {
    // change-password.md (tair, 2026-03-11), "Reset the password", steps 4 and 5.
    let page = |wording: &str| {
        aca_docs::parse_markdown(&format!(
            "# Reset the password\n\n## Procedure\n\n1. In the panel that appears, {wording}\n2. Click **OK**.\n"
        ))
        .expect("the page parses")
    };
    let mut console = ResetPasswordPanel::default();
    let episode = drive(
        &mut console,
        Task::new(page("enter a new password. You do not need to enter the old password.")),
        20,
    );
    assert!(console.reset, "{:?}", episode.trajectory());
    let graded = report(&episode, true);
    assert_eq!(graded.grades[0].status, StepStatus::Pass, "{graded:#?}");
    assert!(!graded.grades[0].actions.is_empty(), "{graded:#?}");
    // Words that name no field on the page leave the step unverified, never failed.
    let mut console = ResetPasswordPanel::default();
    let episode = drive(&mut console, Task::new(page("enter a recovery phrase.")), 20);
    let graded = report(&episode, true);
    assert_eq!(graded.grades[0].status, StepStatus::Warning, "{graded:#?}");
    assert!(graded.defects.is_empty(), "{graded:#?}");
}

/// A Create Instance page with a name box, a check box, a group of options and OK.
#[derive(Default)]
struct ChoicesPage {
    name: Option<String>,
    created: bool,
}

impl FakeConsole for ChoicesPage {
    fn observe(&self) -> Observation {
        let mut elements = Elements::default();
        elements.add(Role::Heading, "Create Instance", vec![]);
        let name = elements.add(Role::Textbox, "Instance Name", vec![]);
        name.value = self.name.clone();
        name.state.required = true;
        elements.add(Role::Checkbox, "Upload Acceleration", vec![]);
        elements
            .add(Role::Radio, "IPv4", vec![place(PlaceKind::RadioGroup, "IP Version")])
            .state
            .checked = Some(true);
        elements.add(Role::Button, "OK", vec![]);
        Observation {
            title: "Create Instance".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        match action {
            GuiAction::Type { index: 2, text, .. } => self.name = Some(text.clone()),
            GuiAction::Click { index: 5 } => self.created = self.name.is_some(),
            _ => {}
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn a_check_box_or_a_group_of_options_a_parameter_table_describes_is_on_the_page() {
    let procedure = aca_docs::parse_markdown(
        "# Create an instance\n\n## Procedure\n\n\
         1. On the **Create Instance** page, configure the following parameters.\n\n   \
         | Parameter | Description |\n   |---|---|\n   | Instance Name | The name. |\n   \
         | Upload Acceleration | Turn it on to upload faster. |\n   | IP Version | IPv4 only. |\n   \
         | Backup Policy | How often the instance is backed up. |\n\
         2. Click **OK**.\n",
    )
    .expect("the page parses");
    let mut console = ChoicesPage::default();
    let episode = drive(&mut console, Task::new(procedure), 30);
    assert!(console.created, "{:?}", episode.trajectory());
    let graded = report(&episode, true);
    let note = graded.grades[0].note.clone().unwrap_or_default();
    assert!(!note.contains("Upload Acceleration") && !note.contains("IP Version"), "{note}");
    assert!(note.contains("Backup Policy"), "{note}");
}

/// The domain list under today's name, with the button the older page names.
#[derive(Default)]
struct RenamedDomainList {
    clicked: bool,
}

impl FakeConsole for RenamedDomainList {
    fn observe(&self) -> Observation {
        let mut elements = Elements::default();
        elements.add(Role::Heading, "Public Authoritative Resolution", vec![]);
        elements.add(Role::Button, "Add Domain Name", vec![]);
        Observation {
            title: "Public Authoritative Resolution - Alibaba Cloud DNS".into(),
            elements: elements.into_vec(),
            ..Observation::default()
        }
    }

    fn act(&mut self, action: &GuiAction) -> ActionOutcome {
        if matches!(action, GuiAction::Click { index: 2 }) {
            self.clicked = true;
        }
        ActionOutcome::Done { reresolved: false }
    }
}

#[test]
fn a_page_under_another_name_is_noted_with_the_name_it_has() {
    let procedure = aca_docs::parse_markdown(
        "# Add a domain name\n\n## Procedure\n\n1. On the **Manage DNS** page, click **Add Domain Name**.\n",
    )
    .expect("the page parses");
    let mut console = RenamedDomainList::default();
    let episode = drive(&mut console, Task::new(procedure), 20);
    assert!(console.clicked, "{:?}", episode.trajectory());
    let graded = report(&episode, true);
    let note = graded.grades[0].note.clone().unwrap_or_default();
    assert!(
        note.contains("\"Manage DNS\"") && note.contains("the page shown is \"Public Authoritative Resolution\""),
        "{note}"
    );
}
