//! The console's pages as data: for each product its navigation pane, list pages, create flows,
//! row actions and details tabs. The 2026 release is written out here; other releases are derived
//! from it by applying the typed changes of [`crate::profile::changes`].

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::profile::{Placement, ProfileId};

pub use billing::{TOP_MENUS, TopMenu};

mod alb;
mod apply;
mod billing;
mod compute;
mod container;
mod management;
mod network;
mod ram_mfa;
mod ram_policy;
mod security;
mod storage;

/// One product's console.
#[derive(Debug, Clone)]
pub struct ProductSpec {
    /// The URL segment: `/console/<code>/…`.
    pub code: String,
    /// The API product code the pages call (`crate::products::by_code`).
    pub api: String,
    /// The console's title, as the top bar and breadcrumbs show it.
    pub name: String,
    pub nav: Vec<NavGroup>,
    pub pages: Vec<PageSpec>,
    /// What the console asks of an account before its pages open: activating the service, then
    /// authorizing its service roles. None: the pages open at once.
    pub gate: Option<Gate>,
}

/// A console's first-use requirements, checked in order on every page.
#[derive(Debug, Clone)]
pub struct Gate {
    pub activation: Option<Activation>,
    pub roles: Option<RolesPrompt>,
}

/// The service's activation page: its heading, the terms of service to select, the button that
/// places the order, and the operation (with its fixed parameters) the order calls; the service
/// counts as activated once [`Activation::activated`] says so.
#[derive(Debug, Clone)]
pub struct Activation {
    pub heading: String,
    pub terms: String,
    pub button: String,
    pub action: String,
    pub fixed: Vec<(String, String)>,
    pub activated: fn(&crate::state::AccountState) -> bool,
}

/// The prompt a console shows while service roles it needs are missing: its message and the
/// button that opens RAM's Cloud Resource Access Authorization page for the roles the service
/// (a trust principal such as `cs.aliyuncs.com`) assumes.
#[derive(Debug, Clone)]
pub struct RolesPrompt {
    pub message: String,
    pub button: String,
    pub service: String,
}

impl ProductSpec {
    pub fn page(&self, id: &str) -> Option<&PageSpec> {
        self.pages.iter().find(|p| p.id == id)
    }

    pub fn page_mut(&mut self, id: &str) -> Option<&mut PageSpec> {
        self.pages.iter_mut().find(|p| p.id == id)
    }

    /// The first page of the navigation pane: where `/console/<code>` lands.
    pub fn home(&self) -> &str {
        self.nav
            .iter()
            .flat_map(|g| g.items.iter())
            .map(|i| i.page.as_str())
            .next()
            .unwrap_or("")
    }
}

/// A group of the left-side navigation pane. An empty label puts the items at the top level.
#[derive(Debug, Clone)]
pub struct NavGroup {
    pub label: String,
    pub items: Vec<NavItem>,
}

#[derive(Debug, Clone)]
pub struct NavItem {
    pub label: String,
    pub page: String,
}

/// A list page: a table of one resource type, filled from the product's Describe/List operation.
#[derive(Debug, Clone)]
pub struct PageSpec {
    pub id: String,
    pub title: String,
    /// The operation that lists the resources (`DescribeVpcs`).
    pub list_action: String,
    /// Where the items are in its response (`Vpcs.Vpc`).
    pub items_path: String,
    /// The response's total count field, if it pages (`TotalCount`).
    pub total_path: Option<String>,
    /// The request's page-number parameter (`PageNumber`; CloudMonitor's rules use `Page`).
    pub page_param: String,
    /// The item field that identifies a resource (`VpcId`) and the parameter that selects one.
    pub id_field: String,
    pub id_param: String,
    pub name_field: String,
    /// Whether the list depends on the selected region (RAM and DNS are global).
    pub regional: bool,
    /// Whether the table is shown inside an iframe (a separately loaded view of the page).
    pub in_frame: bool,
    pub page_size: i64,
    /// Extra parameters of the list call (`ListAll`).
    pub list_params: Vec<(String, String)>,
    pub columns: Vec<Column>,
    /// Create buttons in the toolbar above the list.
    pub creates: Vec<FormSpec>,
    pub search: Vec<SearchOption>,
    pub row_actions: Vec<RowAction>,
    pub batch_actions: Vec<BatchAction>,
    /// Tabs of the details page; none means the page has no details view.
    pub tabs: Vec<Tab>,
    /// A `Tab::Basic` shown as a section above the details page's tabs rather than as one of them
    /// (a RAM user's Basic Information); the actions placed in `Section` sit in its title.
    pub summary: Option<Tab>,
    /// The navigation pane of a resource's details page (a bucket's, a project's): the details page
    /// and the pages nested under the resource (see [`PageSpec::parent`]). The item naming this page
    /// is the details page itself; a click on the resource opens the pane's first page (a project
    /// opens on its Logstores).
    pub sub_nav: Vec<NavGroup>,
    /// For a page nested under another page's resource (a bucket's objects): that page and the
    /// parameter that carries the resource's id in every call the page makes.
    pub parent: Option<ParentRef>,
    /// What a resource's own page is called where the console names it otherwise than the list (a
    /// Logstore's Search & Analysis page); none: the list's title.
    pub details_title: Option<String>,
    /// The name of the icon that opens a row's More menu where the row shows an icon rather than
    /// the word (a Logstore's icon menu); none: "More".
    pub more_icon: Option<String>,
    /// For lists that page by marker rather than by number (OSS's ListObjects).
    pub marker: Option<MarkerPaging>,
    /// For lists whose operation returns bare ids (ListLogStores): the operation that describes one
    /// item, called with the page's `id_param`; its response is the row.
    pub item_details: Option<String>,
    /// Error codes that mean an empty list (`NoSuchLifecycle`).
    pub empty_codes: Vec<String>,
    /// For lists that are one configuration the API replaces whole (a bucket's lifecycle rules).
    pub whole_config: Option<WholeConfig>,
    /// For flat key spaces shown as folders (OSS directories): the list shows one folder at a time.
    pub folders: Option<Folders>,
    /// For a page that is one section of a resource's settings (a bucket's Lifecycle).
    pub section: Option<Section>,
    /// An area of the details page's first tab that shows the resource's status with some of its
    /// actions (RDS's Operating Status with Release Instance): its heading, the status field, and
    /// the labels of the row actions it offers.
    pub status_area: Option<StatusArea>,
    /// Tabs above the list, each a view of the page's list (KMS's **Generic Secrets**, the Renewal
    /// page's **Manual** and **Auto**); the first is the one shown. None: the list has no tabs.
    pub list_tabs: Vec<ListTab>,
    /// A drop-down list above the list that narrows it (KMS's **Instance ID**).
    pub filter: Option<ListFilter>,
    /// The API product that lists the page's items where it is not the console's own (the
    /// Certificate Management Service certificates the CLB console offers); none: the console's.
    pub api: Option<String>,
}

/// A tab above a list: its label and the list parameters that narrow the list to it (none: the
/// whole list).
#[derive(Debug, Clone)]
pub struct ListTab {
    pub label: String,
    pub params: Vec<(String, String)>,
}

/// A tab of the whole list.
pub(crate) fn list_tab(label: &str) -> ListTab {
    ListTab {
        label: s(label),
        params: Vec::new(),
    }
}

/// A tab that narrows the list with `params`.
pub(crate) fn list_tab_of(label: &str, params: &[(&str, &str)]) -> ListTab {
    ListTab {
        label: s(label),
        params: pairs(params),
    }
}

/// A drop-down list that narrows a list to the items of one resource: the field (its label and its
/// options) and the list parameters the chosen value sets (`{v}` is the value). Nothing chosen: the
/// whole list.
#[derive(Debug, Clone)]
pub struct ListFilter {
    pub field: Field,
    pub params: Vec<(String, String)>,
}

#[derive(Debug, Clone)]
pub struct StatusArea {
    pub heading: String,
    pub status_path: String,
    pub actions: Vec<String>,
    /// Actions of the area shown as switches ("turn on Automatic renewal"). A switch starts off:
    /// the list operation the page reads does not say whether the setting is on. Turned on, it
    /// opens its action.
    pub switches: Vec<String>,
}

/// One section of a resource's settings, as a bucket's pages show them: the section's heading above
/// the list and, where the list stays folded until a button opens it, that button (`Configure`).
#[derive(Debug, Clone)]
pub struct Section {
    pub heading: String,
    pub unfold: Option<String>,
}

/// Folders of a flat key space: names ending with the delimiter. The list of a folder asks for the
/// keys under its name, rolled up at the delimiter; its rows carry `Name`, the key within the
/// folder, and sub-folders carry `Directory: true`.
#[derive(Debug, Clone)]
pub struct Folders {
    /// The request's prefix parameter (`prefix`) and delimiter parameter and value (`delimiter`, `/`).
    pub prefix_param: String,
    pub delimiter_param: String,
    pub delimiter: String,
    /// Where the response lists the sub-folders (`ListBucketResult.CommonPrefixes`) and the field
    /// that names one (`Prefix`).
    pub items_path: String,
    pub field: String,
}

/// A list that is one configuration: create forms send the listed items as `<prefix>.N.<field>` and
/// their own fields (named `<prefix>.N.<field>`) as the next item; a row's confirmed call sends the
/// other rows, or calls `clear_action` when the row is the last.
#[derive(Debug, Clone)]
pub struct WholeConfig {
    /// The items' parameter prefix (`Rule`).
    pub prefix: String,
    /// The operation that removes the whole configuration (`DeleteBucketLifecycle`).
    pub clear_action: String,
}

/// The page a nested page hangs under, and the parameter naming the parent resource.
#[derive(Debug, Clone)]
pub struct ParentRef {
    pub page: String,
    pub param: String,
    /// Parameters the page's forms take from the parent resource besides its id: (parameter,
    /// field of the parent), a policy's type beside its name when a grant attaches it.
    pub carry: Vec<(String, String)>,
}

/// Marker paging: the request parameter and where the response gives the next marker.
#[derive(Debug, Clone)]
pub struct MarkerPaging {
    pub param: String,
    pub next_path: String,
    /// The request parameter for the page size (`max-keys`).
    pub size_param: String,
}

#[derive(Debug, Clone)]
pub struct Column {
    pub header: String,
    /// Dotted path into the item (`VSwitchIds.VSwitchId`, `userIdentity.userName`).
    pub path: String,
    pub kind: ColumnKind,
    /// How the console names API values (`PostPaid` → `Pay-as-you-go`); others show as they are.
    pub labels: Vec<(String, String)>,
    /// A page of the resource's own navigation pane ([`PageSpec::sub_nav`]) that a **Configure**
    /// link in the cell opens, where the column's setting is made (a bucket's Versioning).
    pub configure: Option<String>,
}

impl Column {
    pub(crate) fn labels(mut self, items: &[(&str, &str)]) -> Self {
        self.labels = pairs(items);
        self
    }

    pub(crate) fn configure(mut self, page: &str) -> Self {
        self.configure = Some(s(page));
        self
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnKind {
    Text,
    /// The resource's id as a link to its details page, with its name under it.
    IdName,
    /// A status with a coloured dot.
    Status,
    /// The length of an array.
    Count,
    /// The list's dominant value rendered in monospace (CIDR blocks, addresses).
    Mono,
    /// An ISO 8601 time, shown as `2026-01-31 08:00:00`.
    Time,
    /// A name within a folder ([`PageSpec::folders`]): a sub-folder's name links into it.
    Folder,
    /// A zone id, shown by its console name (`Hangzhou Zone H`).
    Zone,
    /// A region id, shown by its console name (`China (Hangzhou)`).
    Region,
}

/// A way to search the list: the option's label and the list parameters it sets (`{q}` is the text).
#[derive(Debug, Clone)]
pub struct SearchOption {
    pub label: String,
    pub params: Vec<(String, String)>,
}

/// A form the console submits to one API operation.
#[derive(Debug, Clone)]
pub struct FormSpec {
    /// DOM id, unique on its page (`create-vpc`).
    pub id: String,
    /// The button that opens it (`Create VPC`).
    pub trigger: String,
    /// The dialog, panel or page title.
    pub title: String,
    pub container: Container,
    /// The operation it submits to; empty for a panel that only shows values (an object's details).
    pub action: String,
    pub steps: Vec<Step>,
    pub submit: String,
    pub cancel: String,
    /// Parameters sent as they are.
    pub fixed: Vec<(String, String)>,
    /// For row forms: the parameter that receives the row's id.
    pub id_param: Option<String>,
    /// The toast shown on success.
    pub success: String,
    /// The page the console opens after success, where the one the form is on no longer exists
    /// (the Buckets list once the bucket is deleted); none reloads the page.
    pub done: Option<String>,
    /// The button of the result the dialog or panel shows once the form succeeds ("On the page that
    /// appears, click Close"); none: it closes by itself.
    pub finish: Option<String>,
    /// Parameters the console writes from the fields' values, sent or not: (parameter, template),
    /// where `{Param}` stands for a field's value, `{A|B}` for A's or else B's, `{account}` for
    /// the signed-in account's id (the trust policy of a role the Create Role page puts together
    /// from its principal), `{region}` for the console's region (a trail's Current Region), and
    /// `{row.Field}` for a field of the row a row form was opened from (the product of an instance
    /// the Renewal page renews).
    pub compose: Vec<(String, String)>,
    /// A form with nothing to fill that submits as it opens (Create AccessKey), and what its result
    /// shows of the response: (label, dotted response path), the AccessKey pair it created.
    pub submit_on_open: bool,
    pub shows: Vec<(String, String)>,
    /// A call the console makes as the form opens, whose response the form shows and sends on
    /// (the virtual MFA device the Enable dialog makes, its QR code and key shown, its serial
    /// number sent with the codes).
    pub opened_by: Option<OpeningCall>,
    /// Submitted once for each row ticked in the list ([`BatchKind::Form`]), the row's id in `id_param`.
    pub batch: bool,
    /// For a create button of a list nested under a resource: shown only while the resource has, or
    /// lacks, what an operation reads (a RAM user's login profile: Enable Console Logon without
    /// one, Modify Logon Settings with one).
    pub shown_if: Option<ResourceCheck>,
    /// For a form with a page of its own: the id of the form, on the same list, that a button at
    /// the top of this page opens with every parameter (Quickly Create Trail's "Create Trail").
    /// That form has no button of its own on the list.
    pub fuller: Option<String>,
}

/// What [`FormSpec::shown_if`] asks of the resource a page is nested under: the operation that
/// reads it, called with the resource's id in `param`, and whether it must answer (`exists`) or
/// fail for the button to be shown.
#[derive(Debug, Clone)]
pub struct ResourceCheck {
    pub action: String,
    pub param: String,
    pub exists: bool,
}

/// The call a form makes as it opens ([`FormSpec::opened_by`]).
#[derive(Debug, Clone)]
pub struct OpeningCall {
    pub action: String,
    /// Its parameters: (parameter, template), `{Param}` standing for the form's value of `Param`
    /// (what it carries for the resource it acts on included).
    pub params: Vec<(String, String)>,
    /// What the form shows of the response, tab by tab (one tab: no tab list).
    pub shows: Vec<ShownTab>,
    /// What the form's own call sends of it: (parameter, dotted response path).
    pub carry: Vec<(String, String)>,
}

/// A tab of what an opening call's form shows: its title and (label, source, how) for each value,
/// the source a dotted response path, or a template for [`Shown::Composed`].
#[derive(Debug, Clone)]
pub struct ShownTab {
    pub title: String,
    pub values: Vec<(String, String, Shown)>,
}

impl ShownTab {
    pub(crate) fn new(title: &str, values: &[(&str, &str, Shown)]) -> Self {
        ShownTab {
            title: s(title),
            values: values.iter().map(|(label, source, how)| (s(label), s(source), *how)).collect(),
        }
    }
}

/// How a value of an opening call's form is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// The response's value as text.
    Text,
    /// Text the console writes from the form's values as it opens, a template as in
    /// [`FormSpec::compose`] (an MFA device's username, `{UserName}@{account}`).
    Composed,
    /// An image of a QR code, the value a Base64 PNG.
    QrCode,
}

impl FormSpec {
    pub fn fields(&self) -> impl Iterator<Item = &Field> {
        self.steps.iter().flat_map(Step::all_fields)
    }

    /// The form's own fields, then those of the panels that fill its lists.
    pub fn fields_and_panels(&self) -> impl Iterator<Item = &Field> {
        self.fields().chain(self.panels().flat_map(|(_, panel)| panel.fields()))
    }

    /// The panels the form's [`FieldKind::Picked`] lists are filled from, with the parameter each fills.
    pub fn panels(&self) -> impl Iterator<Item = (&str, &FormSpec)> {
        self.fields().filter_map(|f| match &f.kind {
            FieldKind::Picked(panel) => Some((f.param.as_str(), panel.as_ref())),
            _ => None,
        })
    }

    /// Every operation the form may call: its action, or where the action names a field
    /// (`CreateLoadBalancer{ListenerProtocol}Listener`), one per option of that field.
    pub fn actions(&self) -> Vec<String> {
        let Some((head, rest)) = self.action.split_once('{') else {
            return vec![self.action.clone()];
        };
        let Some((param, tail)) = rest.split_once('}') else {
            return vec![self.action.clone()];
        };
        let options = self.fields().find(|f| f.param == param).map(|f| match &f.kind {
            FieldKind::Radio(items) | FieldKind::Tabs(items) | FieldKind::Select(OptionSource::Static(items)) => {
                items.iter().map(|(value, _)| value.clone()).collect()
            }
            _ => Vec::new(),
        });
        options
            .unwrap_or_default()
            .into_iter()
            .map(|value| format!("{head}{value}{tail}"))
            .collect()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Container {
    /// A modal dialog box.
    Dialog,
    /// A panel sliding in from the right.
    Drawer,
    /// A modal dialog with named steps and Next / Previous.
    Wizard,
    /// A buy page of its own, with named steps, that ends with an order (a console operation).
    BuyPage,
    /// A page of its own with sections, submitted to the API like a dialog (the Create VPC page).
    Page,
}

#[derive(Debug, Clone)]
pub struct Step {
    pub title: String,
    pub fields: Vec<Field>,
    /// A section that is its own API call, made after the form's call succeeds (the vSwitch of the
    /// Create VPC page), with parameters taken from that call's response: (parameter, response field).
    pub then: Option<(String, Vec<(String, String)>)>,
    /// The title of the dialog this last step of a page form opens in once the page's fields are
    /// filled and its submit clicked (the Create Role dialog asking for the role's name); the
    /// dialog's own submit sends the form.
    pub dialog: Option<String>,
    /// Settings folded under a heading until its button opens them (a listener's Advanced
    /// Settings, opened with Modify); sent like the step's own fields.
    pub fold: Option<Fold>,
    /// For a section that is its own call: the field of the form that must be ticked (a check box:
    /// Console Access on the Create User page) or hold a value (the servers the listener wizard
    /// picked) for the call to be made, and parameters composed from the section's fields, then the
    /// form's, as [`FormSpec::compose`] does.
    pub then_if: Option<String>,
    pub then_compose: Vec<(String, String)>,
    /// For a section that is its own call: the parameter that takes, one call each, every value of
    /// the section's field of that name (a transfer list's instances), and what each call keeps of
    /// what the item already has ([`Keep`]).
    pub then_each: Option<String>,
    pub then_keep: Option<Keep>,
    /// For a step in a dialog of its own: the dialog's message (a confirmation's question).
    pub message: String,
    /// A step a wizard shows only while a field has a value: (parameter, value), the SSL
    /// Certificates step of an HTTPS listener. Skipped, its fields are neither checked nor sent.
    pub shown_when: Option<(String, String)>,
    /// Fields the reader can add again, each copy one more call of the form (Create User's Add
    /// User, for several users at a time).
    pub repeat: Option<Repeat>,
}

/// A group of a step's fields that a button copies: its label, and the parameters of the fields
/// copied. The form is sent once for the fields as first shown, then once for every copy, each
/// copy's values in place of theirs.
#[derive(Debug, Clone)]
pub struct Repeat {
    pub button: String,
    pub params: Vec<String>,
}

/// What a call made for one item keeps: the list `action` reads for the item (called with the
/// item in the same parameter), the items of its response at `items_path`, and the `field` of
/// each, added (comma-separated) to the parameter `param` the call sends.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Keep {
    pub action: String,
    pub items_path: String,
    pub field: String,
    pub param: String,
}

/// A folded section of a step: its heading, the button that unfolds it, and its fields.
#[derive(Debug, Clone)]
pub struct Fold {
    pub heading: String,
    pub button: String,
    pub fields: Vec<Field>,
    /// The fields open in a panel of their own over the form, with this title, closed by its OK
    /// (an alert rule's Configure Rule Description); they are sent with the form.
    pub panel: Option<String>,
    /// The button opens a drop-down menu whose items open the panel, each setting the panel's
    /// field `.0` to its value (Add Rule's metric types): `(param, [(value, label)])`.
    pub menu: Option<(String, Vec<(String, String)>)>,
}

impl Step {
    /// The fields `params` can be added again with the button `button` (see [`Repeat`]).
    pub(crate) fn repeated(mut self, button: &str, params: &[&str]) -> Self {
        self.repeat = Some(Repeat {
            button: s(button),
            params: params.iter().map(|p| s(p)).collect(),
        });
        self
    }
    pub(crate) fn then(mut self, action: &str, carry: &[(&str, &str)]) -> Self {
        self.then = Some((s(action), pairs(carry)));
        self
    }
    pub(crate) fn in_dialog(mut self, title: &str) -> Self {
        self.dialog = Some(s(title));
        self
    }
    /// The section's own call is made only when its check box `param` is ticked.
    pub(crate) fn then_if(mut self, param: &str) -> Self {
        self.then_if = Some(s(param));
        self
    }
    pub(crate) fn then_compose(mut self, param: &str, template: &str) -> Self {
        self.then_compose.push((s(param), s(template)));
        self
    }
    /// A section whose call is made once for each value of its field `param`, keeping what each
    /// item already has (see [`Keep`]).
    pub(crate) fn then_each(mut self, param: &str, keep: Option<Keep>) -> Self {
        self.then_each = Some(s(param));
        self.then_keep = keep;
        self
    }
    /// A last step that is a confirmation: a dialog with `title` and `message`, whose own submit
    /// sends the form.
    pub(crate) fn confirming(mut self, title: &str, message: &str) -> Self {
        self.dialog = Some(s(title));
        self.message = s(message);
        self
    }
    /// Shown only while the field `param` has `value` (see [`Step::shown_when`]).
    pub(crate) fn shown_when(mut self, param: &str, value: &str) -> Self {
        self.shown_when = Some((s(param), s(value)));
        self
    }
    pub(crate) fn folded(mut self, heading: &str, button: &str, fields: Vec<Field>) -> Self {
        self.fold = Some(Fold {
            heading: s(heading),
            button: s(button),
            fields,
            panel: None,
            menu: None,
        });
        self
    }
    /// Fields set in a panel titled `panel` that `button` opens from the item of its drop-down
    /// menu the reader picks, the item choosing the value of the panel's field `param`.
    pub(crate) fn in_panel(
        mut self,
        heading: &str,
        button: &str,
        panel: &str,
        menu: (&str, &[(&str, &str)]),
        fields: Vec<Field>,
    ) -> Self {
        self.fold = Some(Fold {
            heading: s(heading),
            button: s(button),
            fields,
            panel: Some(s(panel)),
            menu: Some((s(menu.0), pairs(menu.1))),
        });
        self
    }
    /// The step's fields, folded ones after the others.
    pub fn all_fields(&self) -> impl Iterator<Item = &Field> {
        self.fields.iter().chain(self.fold.iter().flat_map(|f| f.fields.iter()))
    }
}

#[derive(Debug, Clone)]
pub struct Field {
    pub label: String,
    pub param: String,
    pub kind: FieldKind,
    pub required: bool,
    pub default: String,
    pub placeholder: String,
    pub help: String,
    /// Client-side check, by name: `name`, `cidr`, `password`, `domain`, `port`, `number`.
    pub rule: Option<String>,
    /// For row forms: the row field that pre-fills this one.
    pub from_row: Option<String>,
    /// Appended to the value when it does not end with it (a directory's `/`).
    pub suffix: String,
    /// Put before the value when it does not start with it (the folder a name is created in).
    pub prefix: String,
    /// Whether the value goes to the API: a choice the console only uses itself (release now or
    /// later, a password typed twice) is not sent.
    pub sent: bool,
    /// The titled section of a panel the field sits in (an alert rule's **Critical** level).
    pub section: Option<String>,
    /// A field shown only while another field has a value: (parameter, value), the fields of the
    /// certificate source chosen. Hidden, it is neither checked nor sent.
    pub shown_when: Option<(String, String)>,
    /// The label of a button beside the field that adds the address the console sees the browser
    /// at (RDS's Load Local Public IP Address).
    pub adds_client_ip: Option<String>,
}

#[derive(Debug, Clone)]
pub enum FieldKind {
    Text,
    Password,
    Textarea,
    /// A large text area without a length limit: an uploaded object's content.
    Content,
    Number,
    /// The CIDR block input component (a custom element with a shadow root), with or without the
    /// recommended private blocks offered next to it.
    Cidr {
        suggest: bool,
    },
    /// A div-based select whose options render in a portal.
    Select(OptionSource),
    Radio(Vec<(String, String)>),
    /// A choice shown as a row of tabs, each (value, label), the chosen tab's value held in a hidden
    /// input (Create Policy's Visual Editor and JSON Editor).
    Tabs(Vec<(String, String)>),
    /// A checkbox labelled beside its box; checked, it sends `true`, unchecked nothing.
    Checkbox,
    /// A link, labelled with the field's label, that switches the form to another view (Create
    /// Role's Switch to Policy Editor): clicked, it sets its hidden value to `on`, which the other
    /// view's fields follow through `shown_when`.
    Switch,
    /// A hidden value the page generates when the form opens (a rule id, a default password).
    Generated(Generate),
    /// A value shown, not edited (a details panel pre-filled from the row).
    ReadOnly,
    /// A resource tag: a Tag Key and a Tag Value box, sent as `<param>.1.Key` and `<param>.1.Value`.
    Tag,
    /// A parameter that the reader names: a name box (the field's label) and a Value box, sent as
    /// the parameter `<param><name>` (the field's param is the prefix, added where the name lacks
    /// it), lowercased. "name:value" typed in the name box alone counts as both.
    NamedParameter,
    /// A transfer list: the options under the heading `available`, each moved under `selected` by a
    /// click and back by another; the selected values are sent comma-separated.
    Transfer {
        source: OptionSource,
        available: String,
        selected: String,
    },
    /// A list filled from a panel of its own (the Selected Servers of the Create vServer Group
    /// page, filled from the Servers panel its Add button opens): the panel calls nothing; what it
    /// composes under this field's parameter (a JSON array) is added to the list, which is sent as
    /// one JSON array.
    Picked(Box<FormSpec>),
}

impl FieldKind {
    /// Where a field's options come from: a select's or a transfer list's.
    pub fn options(&self) -> Option<&OptionSource> {
        match self {
            FieldKind::Select(source) | FieldKind::Transfer { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// What a [`FieldKind::Generated`] value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generate {
    /// A unique id (`rule-…`).
    Id,
    /// A password that meets the default password policy, never shown.
    Password,
}

impl Generate {
    pub fn as_str(self) -> &'static str {
        match self {
            Generate::Id => "id",
            Generate::Password => "password",
        }
    }
}

/// Options under a heading: (heading, [(value, label)]).
pub type OptionGroup = (String, Vec<(String, String)>);

#[derive(Debug, Clone)]
pub enum OptionSource {
    Static(Vec<(String, String)>),
    /// Fixed options under headings (a metric under its dimension).
    Grouped(Vec<OptionGroup>),
    /// The zones of the selected region.
    Zones,
    /// Every region, the selected one first chosen (OSS buckets and SLS projects pick theirs).
    Regions,
    /// The resources listed by another page (`vpc`/`vpcs`): value = id, label = name (id).
    Resources {
        product: String,
        page: String,
    },
    /// What the resource chosen in another select of the form (`field`, its parameter; a
    /// `Resources` select) holds at `paths`, each value an option (the chosen VPC's IPv4 CIDR
    /// blocks): none until one is chosen.
    OfChosen {
        field: String,
        paths: Vec<String>,
    },
}

impl OptionSource {
    /// Where a [`OptionSource::OfChosen`] select's options are kept among a page's select options.
    pub fn chosen_key(field: &str, paths: &[String]) -> String {
        format!("chosen:{field}:{}", paths.join(","))
    }
}

#[derive(Debug, Clone)]
pub struct RowAction {
    pub label: String,
    pub placement: Placement,
    /// For an item of the More menu: the submenu it sits in (`Instance Status`), if any.
    pub submenu: Option<String>,
    pub kind: ActionKind,
    pub disabled: Option<DisableRule>,
}

#[derive(Debug, Clone)]
pub enum ActionKind {
    /// Opens the details page.
    Details,
    /// Opens a form pre-filled from the row.
    Form(Box<FormSpec>),
    /// Calls an operation on the row's id after a confirmation dialog.
    Call {
        action: String,
        id_param: String,
        fixed: Vec<(String, String)>,
        /// Parameters taken from the row: (parameter, row field), as a policy's type beside its name.
        from_row: Vec<(String, String)>,
        /// Where the operation depends on the row (a grant's principal is a user, a group or a
        /// role): the row field, and for each of its values the operation and its id parameter.
        by_row: Option<(String, Vec<CallVariant>)>,
        confirm: Box<Confirm>,
    },
}

/// The operation a [`ActionKind::Call`] makes on rows whose field has `value`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CallVariant {
    pub value: String,
    pub action: String,
    pub id_param: String,
}

#[derive(Debug, Clone)]
pub struct Confirm {
    pub title: String,
    pub message: String,
    pub ok: String,
    pub cancel: String,
    /// The label of a box the row's id must be typed into before the call is made ("enter the name
    /// of the RAM role"); none: a click confirms.
    pub typed: Option<String>,
}

/// When a row action is shown disabled, and the tooltip that says why.
#[derive(Debug, Clone)]
pub struct DisableRule {
    pub path: String,
    pub when: DisableWhen,
    pub reason: String,
}

#[derive(Debug, Clone)]
pub enum DisableWhen {
    /// The array at the path has items.
    NonEmpty,
    /// The value at the path equals one of these.
    Is(Vec<String>),
    /// The value at the path equals none of these.
    IsNot(Vec<String>),
}

/// A button below the list that acts on the selected rows.
#[derive(Debug, Clone)]
/// An action on the rows ticked in the list, from the bar below it.
pub struct BatchAction {
    pub label: String,
    /// The bar's menu it is an item of (`Batch Operation`, `⋯`); none: a button of its own.
    pub menu: Option<String>,
    pub kind: BatchKind,
}

#[derive(Debug, Clone)]
pub enum BatchKind {
    /// Calls `action` with each ticked row's id after one confirmation.
    Call {
        action: String,
        id_param: String,
        /// Parameters every call carries (the bucket of a bucket's objects).
        fixed: Vec<(String, String)>,
        confirm: Confirm,
    },
    /// Opens a row form once and submits it for each ticked row (Release, Reset Instance Password).
    Form(Box<FormSpec>),
}

impl BatchAction {
    /// Puts the action in the bar's menu `menu`.
    pub(crate) fn in_menu(mut self, menu: &str) -> Self {
        self.menu = Some(s(menu));
        self
    }
}

/// A batch action calling `action` with each ticked row's id in `id_param`, after `confirm`.
pub(crate) fn batch_call(label: &str, action: &str, id_param: &str, confirm: Confirm) -> BatchAction {
    BatchAction {
        label: s(label),
        menu: None,
        kind: BatchKind::Call {
            action: s(action),
            id_param: s(id_param),
            fixed: Vec::new(),
            confirm,
        },
    }
}

/// A batch action opening `form` (a row form) and submitting it for each ticked row; the form gets
/// an id of its own, as the row action's form is on the page too.
pub(crate) fn batch_form(label: &str, mut form: FormSpec) -> BatchAction {
    form.id = format!("batch-{}", form.id);
    form.batch = true;
    BatchAction {
        label: s(label),
        menu: None,
        kind: BatchKind::Form(Box::new(form)),
    }
}

#[derive(Debug, Clone)]
pub enum Tab {
    /// Label/value pairs of the resource.
    Basic {
        label: String,
        fields: Vec<(String, String)>,
    },
    /// A list of another page filtered to this resource (`vpc`/`vswitches` with `VpcId`): the
    /// resource's id in `filter_param`, or its field `filter_field` where the list's operation
    /// names the resource otherwise (a RAM user's recycled pairs, by `UserId`).
    Children {
        label: String,
        product: String,
        page: String,
        filter_param: String,
        filter_field: Option<String>,
    },
    /// A tab whose panel holds tabs of its own (a RAM user's Authentication tab, with its AccessKey
    /// and Virtual MFA Device tabs); the first is the one shown.
    Group { label: String, tabs: Vec<Tab> },
}

impl Tab {
    pub fn label(&self) -> &str {
        match self {
            Tab::Basic { label, .. } | Tab::Children { label, .. } | Tab::Group { label, .. } => label,
        }
    }

    /// The tab itself, or for a group the tabs in it, depth first: the tabs that show something.
    pub fn leaves(&self) -> Vec<&Tab> {
        match self {
            Tab::Group { tabs, .. } => tabs.iter().flat_map(Tab::leaves).collect(),
            tab => vec![tab],
        }
    }
}

/// Every product's console under a release. Built once per release.
pub fn products(profile: ProfileId) -> &'static [ProductSpec] {
    static SPECS: OnceLock<HashMap<ProfileId, Vec<ProductSpec>>> = OnceLock::new();
    let all = SPECS.get_or_init(|| {
        ProfileId::ALL
            .iter()
            .map(|&id| {
                let mut specs = base_2026();
                if id == ProfileId::Y2024 {
                    apply::to_2024(&mut specs);
                }
                (id, specs)
            })
            .collect()
    });
    all.get(&profile).map(Vec::as_slice).unwrap_or(&[])
}

pub fn product(profile: ProfileId, code: &str) -> Option<&'static ProductSpec> {
    products(profile).iter().find(|p| p.code == code)
}

/// Today's console: the base every other release is derived from.
pub fn base_2026() -> Vec<ProductSpec> {
    vec![
        network::vpc(),
        compute::ecs(),
        network::slb(),
        alb::alb(),
        compute::rds(),
        compute::tair(),
        security::ram(),
        security::kms(),
        management::actiontrail(),
        management::cms(),
        network::dns(),
        storage::oss(),
        storage::sls(),
        container::ack(),
        billing::expenses(),
    ]
}

// Builders that keep the product files short.

pub(crate) fn s(v: &str) -> String {
    v.to_owned()
}

pub(crate) fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
    items.iter().map(|(a, b)| (s(a), s(b))).collect()
}

pub(crate) fn nav(groups: &[(&str, &[(&str, &str)])]) -> Vec<NavGroup> {
    groups
        .iter()
        .map(|(label, items)| NavGroup {
            label: s(label),
            items: items
                .iter()
                .map(|(l, p)| NavItem {
                    label: s(l),
                    page: s(p),
                })
                .collect(),
        })
        .collect()
}

pub(crate) fn col(header: &str, path: &str, kind: ColumnKind) -> Column {
    Column {
        header: s(header),
        path: s(path),
        kind,
        labels: Vec::new(),
        configure: None,
    }
}

pub(crate) fn field(label: &str, param: &str, kind: FieldKind) -> Field {
    Field {
        label: s(label),
        param: s(param),
        kind,
        required: false,
        default: String::new(),
        placeholder: String::new(),
        help: String::new(),
        rule: None,
        from_row: None,
        suffix: String::new(),
        prefix: String::new(),
        sent: true,
        section: None,
        shown_when: None,
        adds_client_ip: None,
    }
}

impl Field {
    pub(crate) fn in_section(mut self, title: &str) -> Self {
        self.section = Some(s(title));
        self
    }
    pub(crate) fn required(mut self) -> Self {
        self.required = true;
        self
    }
    pub(crate) fn default(mut self, v: &str) -> Self {
        self.default = s(v);
        self
    }
    pub(crate) fn placeholder(mut self, v: &str) -> Self {
        self.placeholder = s(v);
        self
    }
    pub(crate) fn help(mut self, v: &str) -> Self {
        self.help = s(v);
        self
    }
    pub(crate) fn rule(mut self, v: &str) -> Self {
        self.rule = Some(s(v));
        self
    }
    pub(crate) fn suffix(mut self, v: &str) -> Self {
        self.suffix = s(v);
        self
    }
    pub(crate) fn not_sent(mut self) -> Self {
        self.sent = false;
        self
    }
    /// Shown only while the field `param` has `value` (see [`Field::shown_when`]).
    pub(crate) fn shown_when(mut self, param: &str, value: &str) -> Self {
        self.shown_when = Some((s(param), s(value)));
        self
    }

    pub(crate) fn prefilled_from(mut self, path: &str) -> Self {
        self.from_row = Some(s(path));
        self
    }

    /// A button labelled `label` beside the field adds the browser's address to its list.
    pub(crate) fn adds_client_ip(mut self, label: &str) -> Self {
        self.adds_client_ip = Some(s(label));
        self
    }
}

pub(crate) fn select(items: &[(&str, &str)]) -> FieldKind {
    FieldKind::Select(OptionSource::Static(pairs(items)))
}

/// A select whose options sit under headings: (heading, options).
pub(crate) fn grouped_select(groups: &[(&str, &[(&str, &str)])]) -> FieldKind {
    FieldKind::Select(OptionSource::Grouped(
        groups
            .iter()
            .map(|(heading, items)| (s(heading), pairs(items)))
            .collect(),
    ))
}

pub(crate) fn resources(product: &str, page: &str) -> FieldKind {
    FieldKind::Select(OptionSource::Resources {
        product: s(product),
        page: s(page),
    })
}

/// A transfer list of the resources another page lists (`tair`/`instances`).
pub(crate) fn transfer(product: &str, page: &str, available: &str, selected: &str) -> FieldKind {
    FieldKind::Transfer {
        source: OptionSource::Resources {
            product: s(product),
            page: s(page),
        },
        available: s(available),
        selected: s(selected),
    }
}

pub(crate) fn radio(items: &[(&str, &str)]) -> FieldKind {
    FieldKind::Radio(pairs(items))
}

pub(crate) fn tabs(items: &[(&str, &str)]) -> FieldKind {
    FieldKind::Tabs(pairs(items))
}

pub(crate) fn step(title: &str, fields: Vec<Field>) -> Step {
    Step {
        title: s(title),
        fields,
        then: None,
        dialog: None,
        fold: None,
        then_if: None,
        then_compose: Vec::new(),
        then_each: None,
        then_keep: None,
        message: String::new(),
        shown_when: None,
        repeat: None,
    }
}

pub(crate) fn form(
    id: &str,
    trigger: &str,
    title: &str,
    container: Container,
    action: &str,
    steps: Vec<Step>,
) -> FormSpec {
    FormSpec {
        id: s(id),
        trigger: s(trigger),
        title: s(title),
        container,
        action: s(action),
        steps,
        submit: s(match container {
            Container::BuyPage => "Buy Now",
            _ => "OK",
        }),
        cancel: s("Cancel"),
        fixed: Vec::new(),
        id_param: None,
        success: s("The operation is successful."),
        done: None,
        finish: None,
        compose: Vec::new(),
        submit_on_open: false,
        shows: Vec::new(),
        opened_by: None,
        batch: false,
        shown_if: None,
        fuller: None,
    }
}

impl FormSpec {
    /// A button at the top of this form's page opens the form `id` (see [`FormSpec::fuller`]).
    pub(crate) fn fuller(mut self, id: &str) -> Self {
        self.fuller = Some(s(id));
        self
    }
    pub(crate) fn cancel(mut self, label: &str) -> Self {
        self.cancel = s(label);
        self
    }
    pub(crate) fn submit(mut self, label: &str) -> Self {
        self.submit = s(label);
        self
    }
    pub(crate) fn finish(mut self, label: &str) -> Self {
        self.finish = Some(s(label));
        self
    }
    /// Submits as it opens and shows these response values in its result, closed by `finish`.
    pub(crate) fn submitted_on_open(mut self, shows: &[(&str, &str)], finish: &str) -> Self {
        self.submit_on_open = true;
        self.shows = pairs(shows);
        self.finish(finish)
    }
    /// Makes `call` as it opens (see [`FormSpec::opened_by`]).
    pub(crate) fn opened_by(mut self, call: OpeningCall) -> Self {
        self.opened_by = Some(call);
        self
    }
    pub(crate) fn fixed(mut self, items: &[(&str, &str)]) -> Self {
        self.fixed = pairs(items);
        self
    }
    pub(crate) fn then_open(mut self, page: &str) -> Self {
        self.done = Some(s(page));
        self
    }
    pub(crate) fn for_row(mut self, id_param: &str) -> Self {
        self.id_param = Some(s(id_param));
        self
    }
    /// Shown only while `action`, called with the parent resource's id in `param`, answers
    /// (`exists`) or fails (see [`FormSpec::shown_if`]).
    pub(crate) fn shown_if(mut self, action: &str, param: &str, exists: bool) -> Self {
        self.shown_if = Some(ResourceCheck {
            action: s(action),
            param: s(param),
            exists,
        });
        self
    }
    pub(crate) fn success(mut self, text: &str) -> Self {
        self.success = s(text);
        self
    }
    pub(crate) fn compose(mut self, param: &str, template: &str) -> Self {
        self.compose.push((s(param), s(template)));
        self
    }
}

pub(crate) fn confirm(title: &str, message: &str) -> Confirm {
    Confirm {
        title: s(title),
        message: s(message),
        ok: s("OK"),
        cancel: s("Cancel"),
        typed: None,
    }
}

impl Confirm {
    /// The confirming button's label where it is not "OK".
    pub(crate) fn ok(mut self, label: &str) -> Self {
        self.ok = s(label);
        self
    }
    /// Asks for the row's id to be typed into a box labelled `label` first.
    pub(crate) fn typed(mut self, label: &str) -> Self {
        self.typed = Some(s(label));
        self
    }
}

/// A details tab listing `page` of `product` for this resource, filtered by `filter_param`.
pub(crate) fn children(label: &str, product: &str, page: &str, filter_param: &str) -> Tab {
    Tab::Children {
        label: s(label),
        product: s(product),
        page: s(page),
        filter_param: s(filter_param),
        filter_field: None,
    }
}

/// A details tab listing `page` of `product` for this resource, which the list's operation names
/// by the resource's field `field` in `filter_param`.
pub(crate) fn children_by(label: &str, product: &str, page: &str, filter_param: &str, field: &str) -> Tab {
    Tab::Children {
        label: s(label),
        product: s(product),
        page: s(page),
        filter_param: s(filter_param),
        filter_field: Some(s(field)),
    }
}

/// A details tab holding `tabs` of its own.
pub(crate) fn tab_group(label: &str, tabs: Vec<Tab>) -> Tab {
    Tab::Group { label: s(label), tabs }
}

pub(crate) fn details(placement: Placement) -> RowAction {
    RowAction {
        label: s("Manage"),
        placement,
        submenu: None,
        kind: ActionKind::Details,
        disabled: None,
    }
}

pub(crate) fn call(label: &str, placement: Placement, action: &str, id_param: &str, confirm: Confirm) -> RowAction {
    RowAction {
        label: s(label),
        placement,
        submenu: None,
        kind: ActionKind::Call {
            action: s(action),
            id_param: s(id_param),
            fixed: Vec::new(),
            from_row: Vec::new(),
            by_row: None,
            confirm: Box::new(confirm),
        },
        disabled: None,
    }
}

pub(crate) fn row_form(label: &str, placement: Placement, form: FormSpec) -> RowAction {
    RowAction {
        label: s(label),
        placement,
        submenu: None,
        kind: ActionKind::Form(Box::new(form)),
        disabled: None,
    }
}

impl RowAction {
    /// Puts a More-menu item in a submenu of that menu.
    pub(crate) fn in_submenu(mut self, label: &str) -> Self {
        self.submenu = Some(s(label));
        self
    }

    pub(crate) fn with_fixed(mut self, items: &[(&str, &str)]) -> Self {
        match &mut self.kind {
            ActionKind::Call { fixed, .. } => *fixed = pairs(items),
            ActionKind::Form(form) => form.fixed = pairs(items),
            ActionKind::Details => {}
        }
        self
    }
    /// A call's parameters taken from the row: (parameter, row field).
    pub(crate) fn with_row(mut self, items: &[(&str, &str)]) -> Self {
        if let ActionKind::Call { from_row, .. } = &mut self.kind {
            *from_row = pairs(items);
        }
        self
    }
    /// A call whose operation depends on the row's `field`: (value, operation, id parameter).
    pub(crate) fn by_row(mut self, field: &str, variants: &[(&str, &str, &str)]) -> Self {
        if let ActionKind::Call { by_row, .. } = &mut self.kind {
            let variants = variants
                .iter()
                .map(|(value, action, id_param)| CallVariant {
                    value: s(value),
                    action: s(action),
                    id_param: s(id_param),
                })
                .collect();
            *by_row = Some((s(field), variants));
        }
        self
    }
    pub(crate) fn disabled_when(mut self, path: &str, when: DisableWhen, reason: &str) -> Self {
        self.disabled = Some(DisableRule {
            path: s(path),
            when,
            reason: s(reason),
        });
        self
    }
}

pub(crate) fn basic(fields: &[(&str, &str)]) -> Tab {
    Tab::Basic {
        label: s("Basic Information"),
        fields: pairs(fields),
    }
}

pub(crate) fn search(items: &[(&str, &str)]) -> Vec<SearchOption> {
    items
        .iter()
        .map(|(label, param)| SearchOption {
            label: s(label),
            params: vec![(s(param), s("{q}"))],
        })
        .collect()
}

/// A list page with the common defaults; the product files fill in the rest.
pub(crate) fn page(
    id: &str,
    title: &str,
    list_action: &str,
    items_path: &str,
    id_field: &str,
    name_field: &str,
) -> PageSpec {
    PageSpec {
        id: s(id),
        title: s(title),
        list_action: s(list_action),
        items_path: s(items_path),
        total_path: Some(s("TotalCount")),
        page_param: s("PageNumber"),
        id_field: s(id_field),
        id_param: s(id_field),
        name_field: s(name_field),
        regional: true,
        in_frame: false,
        page_size: 10,
        list_params: Vec::new(),
        columns: Vec::new(),
        creates: Vec::new(),
        search: Vec::new(),
        row_actions: Vec::new(),
        batch_actions: Vec::new(),
        tabs: Vec::new(),
        summary: None,
        sub_nav: Vec::new(),
        details_title: None,
        more_icon: None,
        section: None,
        status_area: None,
        parent: None,
        marker: None,
        item_details: None,
        empty_codes: Vec::new(),
        whole_config: None,
        folders: None,
        list_tabs: Vec::new(),
        filter: None,
        api: None,
    }
}

impl PageSpec {
    /// The page a click on one of the list's resources opens: the first page of the resource's
    /// navigation pane, or its details page.
    pub fn landing(&self) -> &str {
        self.sub_nav
            .iter()
            .flat_map(|g| g.items.iter())
            .map(|i| i.page.as_str())
            .next()
            .unwrap_or(&self.id)
    }

    /// Nests the page under a resource of `page`, named by `param` in its calls.
    pub(crate) fn under(mut self, page: &str, param: &str) -> Self {
        self.parent = Some(ParentRef {
            page: s(page),
            param: s(param),
            carry: Vec::new(),
        });
        self.regional = false;
        self
    }

    /// The page's create forms and row actions also send these fields of the parent resource:
    /// (parameter, field).
    pub(crate) fn carrying_parent(mut self, fields: &[(&str, &str)]) -> Self {
        if let Some(parent) = &mut self.parent {
            parent.carry.extend(pairs(fields));
        }
        self
    }

    /// The page as shown under `parent`, a resource as its list describes it: [`PageSpec::bound_to`]
    /// its id, with the fields of it that the page's create forms carry ([`ParentRef::carry`]).
    pub fn bound_to_resource(&self, parent_id: &str, parent: &serde_json::Value) -> PageSpec {
        let mut page = self.bound_to(parent_id);
        let carried: Vec<(String, String)> = self
            .parent
            .iter()
            .flat_map(|p| p.carry.iter())
            .filter_map(|(param, path)| {
                let value = super::render::lookup(parent, path)?;
                Some((
                    param.clone(),
                    value.as_str().map_or_else(|| value.to_string(), str::to_owned),
                ))
            })
            .collect();
        for form in &mut page.creates {
            form.fixed.extend(carried.iter().cloned());
        }
        for action in &mut page.row_actions {
            match &mut action.kind {
                ActionKind::Form(form) => form.fixed.extend(carried.iter().cloned()),
                ActionKind::Call { fixed, .. } => fixed.extend(carried.iter().cloned()),
                ActionKind::Details => {}
            }
        }
        page
    }

    /// The page as shown under the parent resource `parent_id`: every call it makes (the list, its
    /// forms, its row actions) carries the parent's id.
    pub fn bound_to(&self, parent_id: &str) -> PageSpec {
        let mut page = self.clone();
        let Some(parent) = &self.parent else {
            return page;
        };
        let pair = (parent.param.clone(), parent_id.to_owned());
        page.list_params.push(pair.clone());
        for form in &mut page.creates {
            form.fixed.push(pair.clone());
        }
        for action in &mut page.row_actions {
            match &mut action.kind {
                ActionKind::Form(form) => form.fixed.push(pair.clone()),
                ActionKind::Call { fixed, .. } => fixed.push(pair.clone()),
                ActionKind::Details => {}
            }
        }
        for batch in &mut page.batch_actions {
            match &mut batch.kind {
                BatchKind::Call { fixed, .. } => fixed.push(pair.clone()),
                BatchKind::Form(form) => form.fixed.push(pair.clone()),
            }
        }
        page
    }

    /// For a [`PageSpec::whole_config`] list showing `items`: the create forms carry the items as
    /// `<prefix>.N.<field>` and put their own fields (`<prefix>.N.<field>`) after them.
    pub fn carrying(&self, items: &[serde_json::Value]) -> PageSpec {
        let mut page = self.clone();
        let Some(prefix) = self.whole_config.as_ref().map(|c| &c.prefix) else {
            return page;
        };
        let mut carried = Vec::new();
        for (n, item) in items.iter().enumerate() {
            flatten(&format!("{prefix}.{}", n + 1), item, &mut carried);
        }
        let next = format!("{prefix}.{}.", items.len() + 1);
        let placeholder = format!("{prefix}.N.");
        for form in &mut page.creates {
            form.fixed.extend(carried.iter().cloned());
            for step in &mut form.steps {
                for field in &mut step.fields {
                    field.param = field.param.replace(&placeholder, &next);
                }
            }
        }
        page
    }
}

impl PageSpec {
    /// Whether `form` is opened from another form's page, not from a button of the list (see
    /// [`FormSpec::fuller`]).
    pub fn opened_from_another_form(&self, form: &FormSpec) -> bool {
        self.creates.iter().any(|other| other.fuller.as_deref() == Some(form.id.as_str()))
    }

    /// The page as shown in folder `dir`: names typed in its create forms are made in that folder.
    pub fn in_folder(&self, dir: &str) -> PageSpec {
        let mut page = self.clone();
        if self.folders.is_none() || dir.is_empty() {
            return page;
        }
        for form in &mut page.creates {
            for step in &mut form.steps {
                for field in step.fields.iter_mut().filter(|f| f.param == self.id_param) {
                    field.prefix = dir.to_owned();
                }
            }
        }
        page
    }
}

/// A JSON value as dotted request parameters (`Rule.1.Expiration.Days`, `Rule.1.Tag.1.Key`).
fn flatten(path: &str, value: &serde_json::Value, out: &mut Vec<(String, String)>) {
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                flatten(&format!("{path}.{k}"), v, out);
            }
        }
        serde_json::Value::Array(items) => {
            for (n, v) in items.iter().enumerate() {
                flatten(&format!("{path}.{}", n + 1), v, out);
            }
        }
        serde_json::Value::Null => {}
        serde_json::Value::String(text) => out.push((path.to_owned(), text.clone())),
        other => out.push((path.to_owned(), other.to_string())),
    }
}
