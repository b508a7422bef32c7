//! A fake VPC console for driving whole episodes: a page state machine that renders observations
//! the way `aca-dom` renders the emulator's pages (navigation pane, list with Actions column, the
//! Create VPC page with its sections, a confirmation dialog) and turns actions into new pages.
//! Profiles change labels and places the way the emulator's 2024 profile does.

#![allow(dead_code)]

use aca_agent::{Episode, EpisodeEnd, ModelRequest, Next, ResourceReport, Usage};
use aca_core::{
    ActRequest, ActionOutcome, Element, ElementState, Fingerprint, GuiAction, NotActionable, Observation, Place,
    PlaceKind, Role,
};

/// How the console under test differs from the documentation.
#[derive(Debug, Clone)]
pub struct Profile {
    /// The label of the confirmation buttons (`OK` in 2026, `Confirm` in 2024).
    pub confirm: &'static str,
    /// The navigation item of the vSwitch page.
    pub vswitch_nav: &'static str,
    /// Row Delete sits in a More menu instead of inline.
    pub delete_in_more: bool,
    /// A required field of the Create VPC page no documentation mentions.
    pub extra_required: Option<&'static str>,
    pub zones: Vec<&'static str>,
}

impl Profile {
    pub fn current() -> Profile {
        Profile {
            confirm: "OK",
            vswitch_nav: "vSwitch",
            delete_in_more: false,
            extra_required: None,
            zones: vec!["Hangzhou Zone H", "Hangzhou Zone I"],
        }
    }

    pub fn release_2024() -> Profile {
        Profile {
            confirm: "Confirm",
            vswitch_nav: "vSwitches",
            delete_in_more: true,
            ..Profile::current()
        }
    }
}

#[derive(Debug, Clone)]
pub struct Vpc {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    VpcName,
    VpcCidr,
    Description,
    Extra,
    VswName,
    VswCidr,
}

#[derive(Debug, Clone, Default)]
struct Form {
    vpc_name: String,
    vpc_cidr: String,
    description: String,
    extra: String,
    vsw_name: String,
    zone: Option<String>,
    zone_open: bool,
    vsw_cidr: String,
    errors: Vec<Field>,
    zone_error: bool,
}

impl Form {
    fn value(&mut self, field: Field) -> &mut String {
        match field {
            Field::VpcName => &mut self.vpc_name,
            Field::VpcCidr => &mut self.vpc_cidr,
            Field::Description => &mut self.description,
            Field::Extra => &mut self.extra,
            Field::VswName => &mut self.vsw_name,
            Field::VswCidr => &mut self.vsw_cidr,
        }
    }
}

#[derive(Debug, Clone)]
enum Screen {
    List,
    Create(Form),
    ConfirmDelete(String),
    CreateVSwitch(VSwitchForm),
}

/// The Create vSwitch dialog of the vSwitch page.
#[derive(Debug, Clone, Default)]
struct VSwitchForm {
    vpc: Option<String>,
    name: String,
    zone: Option<String>,
    zone_open: bool,
    cidr: String,
    errors: Vec<&'static str>,
}

#[derive(Debug, Clone, PartialEq)]
enum Target {
    Nav(String),
    CreateVSwitch,
    VswVpc,
    VswName,
    VswZone,
    VswZoneOption(String),
    VswCidr,
    SubmitVSwitch,
    CreateVpc,
    Search,
    RowDelete(String),
    RowMore(String),
    Field(Field),
    Zone,
    ZoneOption(String),
    SubmitCreate,
    Cancel,
    DeleteOk(String),
    Inert,
}

/// The console: its resources, what is on screen, and the audit events it wrote.
#[derive(Debug)]
pub struct FakeConsole {
    pub profile: Profile,
    pub vpcs: Vec<Vpc>,
    screen: Screen,
    toast: Option<String>,
    more_open: Option<String>,
    search: String,
    targets: Vec<(u32, Target)>,
    /// `CreateVpc:<name>`, `DeleteVpc:<id>`: what ActionTrail would record.
    pub events: Vec<String>,
    /// An extra element whose name reads like an instruction, on the list page.
    pub injected: Option<String>,
    /// The vSwitch list is shown instead of the VPC list.
    pub on_vswitches: bool,
    next_id: u32,
}

impl FakeConsole {
    pub fn new(profile: Profile) -> FakeConsole {
        FakeConsole {
            profile,
            vpcs: Vec::new(),
            screen: Screen::List,
            toast: None,
            more_open: None,
            search: String::new(),
            targets: Vec::new(),
            events: Vec::new(),
            injected: None,
            on_vswitches: false,
            next_id: 1,
        }
    }

    pub fn add_vpc(&mut self, name: &str) -> String {
        let id = format!("vpc-bp1{:04}", self.next_id);
        self.next_id += 1;
        self.vpcs.push(Vpc {
            id: id.clone(),
            name: name.into(),
        });
        id
    }

    /// What the page shows now.
    pub fn observe(&mut self) -> Observation {
        let mut page = Page::default();
        let nav = Place {
            kind: PlaceKind::Navigation,
            name: "Virtual Private Cloud".into(),
        };
        page.push(Role::Link, "VPCs", vec![nav.clone()], Target::Nav("VPCs".into()));
        page.push(
            Role::Link,
            self.profile.vswitch_nav,
            vec![nav],
            Target::Nav(self.profile.vswitch_nav.into()),
        );
        let title = match self.screen.clone() {
            Screen::List if self.on_vswitches => {
                page.push(Role::Heading, self.profile.vswitch_nav, vec![], Target::Inert);
                page.push(Role::Button, "Create vSwitch", vec![], Target::CreateVSwitch);
                "vSwitch - VPC console"
            }
            Screen::CreateVSwitch(form) => {
                page.push(Role::Heading, self.profile.vswitch_nav, vec![], Target::Inert);
                page.push(Role::Button, "Create vSwitch", vec![], Target::CreateVSwitch);
                self.vswitch_dialog(&mut page, &form);
                "vSwitch - VPC console"
            }
            Screen::List => {
                self.list(&mut page);
                "VPCs - VPC console"
            }
            Screen::ConfirmDelete(id) => {
                self.list(&mut page);
                let dialog = Place {
                    kind: PlaceKind::Dialog,
                    name: "Delete VPC".into(),
                };
                page.push(Role::DialogTitle, "Delete VPC", vec![dialog.clone()], Target::Inert);
                page.push(
                    Role::Button,
                    self.profile.confirm,
                    vec![dialog.clone()],
                    Target::DeleteOk(id),
                );
                page.push(Role::Button, "Cancel", vec![dialog], Target::Cancel);
                "VPCs - VPC console"
            }
            Screen::Create(form) => {
                self.create_page(&mut page, &form);
                "Create VPC - VPC console"
            }
        };
        self.targets = page.targets;
        Observation {
            url: "http://127.0.0.1:8080/console/vpc/vpcs".into(),
            title: title.into(),
            elements: page.elements,
            ..Observation::default()
        }
    }

    fn list(&self, page: &mut Page) {
        page.push(Role::Heading, "VPCs", vec![], Target::Inert);
        page.push(Role::Button, "Create VPC", vec![], Target::CreateVpc);
        let search = page.push(Role::Textbox, "Search", vec![], Target::Search);
        page.elements[search].hint = Some("Enter a value to search".into());
        if let Some(toast) = &self.toast {
            page.push(Role::Alert, toast, vec![], Target::Inert);
        }
        if let Some(injected) = &self.injected {
            let row = Place {
                kind: PlaceKind::Row,
                name: format!("vpc-bp19999 {injected}"),
            };
            page.push(Role::Link, injected, vec![table(), row.clone()], Target::Inert);
            page.push(Role::Cell, "Available", vec![table(), row], Target::Inert);
        }
        for vpc in self
            .vpcs
            .iter()
            .filter(|v| self.search.is_empty() || v.name.contains(&self.search))
        {
            let row = Place {
                kind: PlaceKind::Row,
                name: format!("{} {}", vpc.id, vpc.name),
            };
            let places = vec![table(), row];
            page.push(Role::Link, &vpc.name, places.clone(), Target::Inert);
            page.push(Role::Cell, "Available", places.clone(), Target::Inert);
            page.push(Role::Link, "Edit", places.clone(), Target::Inert);
            if self.profile.delete_in_more {
                let more = page.push(Role::Button, "More", places.clone(), Target::RowMore(vpc.id.clone()));
                let open = self.more_open.as_deref() == Some(vpc.id.as_str());
                page.elements[more].state.expanded = Some(open);
                if open {
                    let mut menu = places.clone();
                    menu.push(Place {
                        kind: PlaceKind::Menu,
                        name: String::new(),
                    });
                    page.push(Role::Menuitem, "Delete", menu, Target::RowDelete(vpc.id.clone()));
                }
            } else {
                page.push(Role::Link, "Delete", places, Target::RowDelete(vpc.id.clone()));
            }
        }
    }

    fn create_page(&self, page: &mut Page, form: &Form) {
        let outer = Place {
            kind: PlaceKind::Form,
            name: "Create VPC".into(),
        };
        let section = |name: &str| {
            vec![
                outer.clone(),
                Place {
                    kind: PlaceKind::Form,
                    name: name.into(),
                },
            ]
        };
        page.push(Role::Heading, "Create VPC", vec![], Target::Inert);
        let vpc = section("VPC");
        page.field("Name", &form.vpc_name, false, vpc.clone(), Field::VpcName, form);
        page.field(
            "IPv4 CIDR Block",
            &form.vpc_cidr,
            true,
            vpc.clone(),
            Field::VpcCidr,
            form,
        );
        if let Some(extra) = self.profile.extra_required {
            page.field(extra, &form.extra, true, vpc.clone(), Field::Extra, form);
        }
        page.field("Description", &form.description, false, vpc, Field::Description, form);
        let vsw = section("vSwitch");
        page.field("Name", &form.vsw_name, false, vsw.clone(), Field::VswName, form);
        let zone = page.push(Role::Combobox, "Zone", vsw.clone(), Target::Zone);
        page.elements[zone].value = form.zone.clone();
        page.elements[zone].hint = Some("Select a zone".into());
        page.elements[zone].state.required = true;
        page.elements[zone].state.expanded = Some(form.zone_open);
        let zone_index = page.elements[zone].index;
        if form.zone_error {
            page.push(Role::FieldError, "Select a zone.", vsw.clone(), Target::Inert);
        }
        page.field("IPv4 CIDR Block", &form.vsw_cidr, true, vsw, Field::VswCidr, form);
        page.push(
            Role::Button,
            self.profile.confirm,
            vec![outer.clone()],
            Target::SubmitCreate,
        );
        page.push(Role::Button, "Cancel", vec![outer], Target::Cancel);
        if form.zone_open {
            for zone in &self.profile.zones {
                let option = page.push(
                    Role::Option,
                    zone,
                    vec![Place {
                        kind: PlaceKind::Listbox,
                        name: String::new(),
                    }],
                    Target::ZoneOption(zone.to_string()),
                );
                page.elements[option].option_of = Some(zone_index);
            }
        }
    }

    fn vswitch_dialog(&self, page: &mut Page, form: &VSwitchForm) {
        let dialog = vec![Place {
            kind: PlaceKind::Dialog,
            name: "Create vSwitch".into(),
        }];
        page.push(Role::DialogTitle, "Create vSwitch", dialog.clone(), Target::Inert);
        let error = |page: &mut Page, field: &'static str| {
            if form.errors.contains(&field) {
                page.push(
                    Role::FieldError,
                    &format!("{field} is required."),
                    dialog.clone(),
                    Target::Inert,
                );
            }
        };
        let vpc = page.push(Role::Combobox, "VPC", dialog.clone(), Target::VswVpc);
        page.elements[vpc].value = form.vpc.clone();
        page.elements[vpc].hint = Some("Select a VPC".into());
        page.elements[vpc].state.required = true;
        error(page, "VPC");
        let name = page.push(Role::Textbox, "Name", dialog.clone(), Target::VswName);
        page.elements[name].value = (!form.name.is_empty()).then(|| form.name.clone());
        let zone = page.push(Role::Combobox, "Zone", dialog.clone(), Target::VswZone);
        page.elements[zone].value = form.zone.clone();
        page.elements[zone].state.required = true;
        page.elements[zone].state.expanded = Some(form.zone_open);
        let zone_index = page.elements[zone].index;
        error(page, "Zone");
        let cidr = page.push(Role::Textbox, "IPv4 CIDR Block", dialog.clone(), Target::VswCidr);
        page.elements[cidr].value = (!form.cidr.is_empty()).then(|| form.cidr.clone());
        page.elements[cidr].state.required = true;
        error(page, "IPv4 CIDR Block");
        page.push(Role::Textbox, "Description", dialog.clone(), Target::Inert);
        page.push(
            Role::Button,
            self.profile.confirm,
            dialog.clone(),
            Target::SubmitVSwitch,
        );
        page.push(Role::Button, "Cancel", dialog, Target::Cancel);
        if form.zone_open {
            for zone in &self.profile.zones {
                let listbox = vec![Place {
                    kind: PlaceKind::Listbox,
                    name: String::new(),
                }];
                let option = page.push(Role::Option, zone, listbox, Target::VswZoneOption(zone.to_string()));
                page.elements[option].option_of = Some(zone_index);
            }
        }
    }

    /// Runs one action the way the page side would.
    pub fn act(&mut self, request: &ActRequest) -> ActionOutcome {
        let target = |index: u32| self.targets.iter().find(|(i, _)| *i == index).map(|(_, t)| t.clone());
        match &request.action {
            GuiAction::Wait { .. } | GuiAction::Scroll { .. } | GuiAction::Hover { .. } => {
                ActionOutcome::Done { reresolved: false }
            }
            GuiAction::Click { index } => match target(*index) {
                Some(t) => self.click(t),
                None => ActionOutcome::ElementNotFound { index: *index },
            },
            GuiAction::Type { index, text, .. } => match (target(*index), &mut self.screen) {
                (Some(Target::Field(field)), Screen::Create(form)) => {
                    *form.value(field) = text.clone();
                    form.errors.retain(|f| *f != field);
                    ActionOutcome::Done { reresolved: false }
                }
                (Some(Target::VswName), Screen::CreateVSwitch(form)) => {
                    form.name = text.clone();
                    ActionOutcome::Done { reresolved: false }
                }
                (Some(Target::VswCidr), Screen::CreateVSwitch(form)) => {
                    form.cidr = text.clone();
                    form.errors.retain(|f| *f != "IPv4 CIDR Block");
                    ActionOutcome::Done { reresolved: false }
                }
                (Some(Target::Search), _) => {
                    self.search = text.clone();
                    ActionOutcome::Done { reresolved: false }
                }
                (Some(_), _) => ActionOutcome::NotActionable {
                    index: *index,
                    reason: NotActionable::WrongKind {
                        expected: "text field".into(),
                    },
                },
                (None, _) => ActionOutcome::ElementNotFound { index: *index },
            },
            GuiAction::Select { index, option } => match (target(*index), &mut self.screen) {
                (Some(Target::VswVpc), Screen::CreateVSwitch(form)) => {
                    if self.vpcs.iter().any(|v| v.name == *option) {
                        form.vpc = Some(option.clone());
                        form.errors.retain(|f| *f != "VPC");
                        ActionOutcome::Done { reresolved: false }
                    } else {
                        ActionOutcome::NotActionable {
                            index: *index,
                            reason: NotActionable::NoSuchOption {
                                option: option.clone(),
                                available: self.vpcs.iter().map(|v| v.name.clone()).collect(),
                            },
                        }
                    }
                }
                (Some(Target::Zone), Screen::Create(form)) => {
                    if self.profile.zones.contains(&option.as_str()) {
                        form.zone = Some(option.clone());
                        form.zone_open = false;
                        form.zone_error = false;
                        ActionOutcome::Done { reresolved: false }
                    } else {
                        ActionOutcome::NotActionable {
                            index: *index,
                            reason: NotActionable::NoSuchOption {
                                option: option.clone(),
                                available: self.profile.zones.iter().map(|z| z.to_string()).collect(),
                            },
                        }
                    }
                }
                _ => ActionOutcome::ElementNotFound { index: *index },
            },
            GuiAction::Press { .. } | GuiAction::Goto { .. } => ActionOutcome::Failed {
                message: "not supported by the fake console".into(),
            },
        }
    }

    fn click(&mut self, target: Target) -> ActionOutcome {
        let done = ActionOutcome::Done { reresolved: false };
        match target {
            Target::Nav(name) => {
                self.on_vswitches = name != "VPCs";
                self.screen = Screen::List;
                self.more_open = None;
                done
            }
            Target::CreateVpc => {
                self.toast = None;
                self.screen = Screen::Create(Form {
                    vpc_cidr: "192.168.0.0/16".into(),
                    ..Form::default()
                });
                ActionOutcome::Navigated {
                    url: "http://127.0.0.1:8080/console/vpc/vpcs/create".into(),
                }
            }
            Target::RowMore(id) => {
                self.more_open = Some(id);
                done
            }
            Target::RowDelete(id) => {
                self.more_open = None;
                self.screen = Screen::ConfirmDelete(id);
                done
            }
            Target::DeleteOk(id) => {
                self.vpcs.retain(|v| v.id != id);
                self.events.push(format!("DeleteVpc:{id}"));
                self.screen = Screen::List;
                self.toast = Some("The VPC is deleted.".into());
                done
            }
            Target::Cancel => {
                self.screen = Screen::List;
                done
            }
            Target::Zone => {
                if let Screen::Create(form) = &mut self.screen {
                    form.zone_open = !form.zone_open;
                }
                done
            }
            Target::ZoneOption(zone) => {
                if let Screen::Create(form) = &mut self.screen {
                    form.zone = Some(zone);
                    form.zone_open = false;
                    form.zone_error = false;
                }
                done
            }
            Target::SubmitCreate => {
                let Screen::Create(form) = &mut self.screen else {
                    return done;
                };
                let mut required = vec![Field::VpcCidr, Field::VswCidr];
                if self.profile.extra_required.is_some() {
                    required.push(Field::Extra);
                }
                form.errors = required
                    .into_iter()
                    .filter(|f| form.value(*f).trim().is_empty())
                    .collect();
                form.zone_error = form.zone.is_none();
                if form.errors.is_empty() && !form.zone_error {
                    let name = form.vpc_name.clone();
                    self.add_vpc(&name);
                    self.events.push(format!("CreateVpc:{name}"));
                    self.screen = Screen::List;
                    self.toast = Some("The VPC is created.".into());
                }
                done
            }
            Target::CreateVSwitch => {
                self.screen = Screen::CreateVSwitch(VSwitchForm::default());
                done
            }
            Target::VswZone => {
                if let Screen::CreateVSwitch(form) = &mut self.screen {
                    form.zone_open = !form.zone_open;
                }
                done
            }
            Target::VswZoneOption(zone) => {
                if let Screen::CreateVSwitch(form) = &mut self.screen {
                    form.zone = Some(zone);
                    form.zone_open = false;
                    form.errors.retain(|f| *f != "Zone");
                }
                done
            }
            Target::SubmitVSwitch => {
                let Screen::CreateVSwitch(form) = &mut self.screen else {
                    return done;
                };
                form.errors.clear();
                if form.vpc.is_none() {
                    form.errors.push("VPC");
                }
                if form.zone.is_none() {
                    form.errors.push("Zone");
                }
                if form.cidr.is_empty() {
                    form.errors.push("IPv4 CIDR Block");
                }
                if form.errors.is_empty() {
                    let vpc = form.vpc.clone().unwrap_or_default();
                    self.events
                        .push(format!("CreateVSwitch:{}:{}:{}", vpc, form.name, form.cidr));
                    self.screen = Screen::List;
                    self.toast = Some("The vSwitch is created.".into());
                }
                done
            }
            Target::VswVpc | Target::VswName | Target::VswCidr => done,
            Target::Search | Target::Field(_) | Target::Inert => done,
        }
    }
}

fn table() -> Place {
    Place {
        kind: PlaceKind::Table,
        name: String::new(),
    }
}

#[derive(Default)]
struct Page {
    elements: Vec<Element>,
    targets: Vec<(u32, Target)>,
}

impl Page {
    /// Adds an element and returns its position.
    fn push(&mut self, role: Role, name: &str, places: Vec<Place>, target: Target) -> usize {
        let index = self.elements.len() as u32 + 1;
        let path = places
            .iter()
            .map(|p| format!("{}[{}]", p.kind.as_str(), p.name))
            .chain(std::iter::once(format!("{}[{name}]", role.as_str())))
            .collect::<Vec<_>>()
            .join(">");
        self.elements.push(Element {
            index,
            role,
            name: name.into(),
            value: None,
            state: ElementState {
                in_viewport: true,
                ..ElementState::default()
            },
            places,
            option_of: None,
            is_new: false,
            hint: None,
            rect: None,
            fingerprint: Fingerprint {
                role: Some(role),
                name: name.into(),
                path,
                neighbours: Vec::new(),
            },
        });
        self.targets.push((index, target));
        self.elements.len() - 1
    }

    fn field(&mut self, label: &str, value: &str, required: bool, places: Vec<Place>, field: Field, form: &Form) {
        let at = self.push(Role::Textbox, label, places.clone(), Target::Field(field));
        self.elements[at].value = (!value.is_empty()).then(|| value.to_owned());
        self.elements[at].state.required = required;
        if form.errors.contains(&field) {
            self.push(
                Role::FieldError,
                &format!("{label} is required."),
                places,
                Target::Inert,
            );
        }
    }
}

/// Drives an episode against the fake console until it finishes: the runtime's loop, in small.
pub fn drive(
    episode: &mut Episode,
    console: &mut FakeConsole,
    mut provision: impl FnMut(&mut FakeConsole, &str) -> Result<ResourceReport, String>,
    mut model: impl FnMut(&ModelRequest) -> (String, Usage),
) -> EpisodeEnd {
    let mut next = episode
        .next(console.observe())
        .expect("the episode waits for an observation");
    for _ in 0..500 {
        next = match next {
            Next::Act(request) => episode.outcome(console.act(&request)),
            Next::Observe => episode.next(console.observe()),
            Next::AskModel(request) => {
                let (text, usage) = model(&request);
                episode.model_reply(&text, usage)
            }
            Next::Provision(description) => match provision(console, &description) {
                Ok(report) => episode.resource_report(report),
                Err(reason) => episode.resource_unavailable(&reason),
            },
            Next::Finished(end) => return end,
        }
        .expect("the runtime feeds what the episode waits for");
    }
    panic!("the episode did not finish in 500 exchanges: {episode:?}");
}

/// A runtime without a model.
pub fn no_model(_: &ModelRequest) -> (String, Usage) {
    panic!("the scripted policy asked a model")
}

/// A runtime without provisioning: every request is answered unavailable.
pub fn no_provisioning(_: &mut FakeConsole, _: &str) -> Result<ResourceReport, String> {
    Err("provisioning is not available in this runtime".into())
}

/// A runtime that provisions through the console itself: a VPC named `web-vpc-7f3a`.
pub fn provision_vpc(console: &mut FakeConsole, _: &str) -> Result<ResourceReport, String> {
    let id = console.add_vpc("web-vpc-7f3a");
    Ok(ResourceReport {
        text: format!("VPC {id} named web-vpc-7f3a, with no vSwitches."),
        names: vec![id, "web-vpc-7f3a".into()],
        secrets: Vec::new(),
    })
}
