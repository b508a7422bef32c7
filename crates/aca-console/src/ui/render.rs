//! The one renderer: page specs plus data already fetched become HTML. Pure functions, no I/O, so a
//! page renders in well under a millisecond and tests can render any page under any release.

use std::collections::{BTreeMap, HashMap};

use maud::{DOCTYPE, Markup, html};
use serde_json::Value;

use super::spec::*;
use crate::products::regions::REGIONS;
use crate::profile::{Placement, ProfileId};

/// Who is looking, where, under which release.
#[derive(Debug, Clone)]
pub struct View<'a> {
    pub profile: ProfileId,
    pub product: &'a ProductSpec,
    pub account_name: &'a str,
    pub account_id: &'a str,
    pub region: &'a str,
    pub resource_group: &'a str,
    /// The resource a nested page is shown under (a bucket's name); empty elsewhere.
    pub parent_id: &'a str,
}

/// One page of a list, as the list operation returned it.
#[derive(Debug, Clone, Default)]
pub struct ListData {
    pub items: Vec<Value>,
    pub total: Option<i64>,
    pub page_number: i64,
    /// The API error, when the list call failed (`Code: Message`).
    pub error: Option<String>,
    /// For marker-paged lists: where the next page starts, when there is one.
    pub next_marker: Option<String>,
}

/// What the user asked the list for: page number and search.
#[derive(Debug, Clone, Default)]
pub struct ListQuery {
    pub page_number: i64,
    /// Index into the page's search options.
    pub search_key: usize,
    pub q: String,
    /// For marker-paged lists: where this page starts (empty: the first page).
    pub marker: String,
    /// For lists of folders: the folder shown (`docs/`; empty: the top).
    pub dir: String,
    /// The value chosen in the page's filter drop-down list (empty: none).
    pub filter: String,
    /// Index into the page's list tabs (0: the first, the one shown by default).
    pub tab: usize,
}

/// Options of resource selects, keyed `product/page`: (value, label).
pub type SelectOptions = HashMap<String, Vec<(String, String)>>;

/// The resource groups the selector offers.
pub const RESOURCE_GROUPS: &[(&str, &str)] = &[("", "All Resource Groups"), ("rg-default", "default resource group")];

/// A value at a dotted path of a JSON item.
pub fn lookup<'v>(item: &'v Value, path: &str) -> Option<&'v Value> {
    path.split('.').try_fold(item, |v, key| v.get(key))
}

/// A value as the console prints it.
pub fn display(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => items.iter().map(|v| display(Some(v))).collect::<Vec<_>>().join(", "),
        Some(other) => other.to_string(),
    }
}

fn or_dash(text: String) -> String {
    if text.is_empty() { "-".to_owned() } else { text }
}

/// `2026-01-31T08:00:00Z` → `2026-01-31 08:00:00`, as the console's tables show times.
pub fn console_time(iso: &str) -> String {
    // Simple Log Service gives Unix seconds.
    if let Ok(seconds) = iso.parse::<i64>() {
        return console_time(&crate::clock::iso8601(seconds.saturating_mul(1000)));
    }
    match iso.split_once('T') {
        Some((date, time)) => format!(
            "{date} {}",
            time.trim_end_matches('Z').split('.').next().unwrap_or(time)
        ),
        None => iso.to_owned(),
    }
}

fn product_url(view: &View<'_>, path: &str) -> String {
    format!("/console/{}/{}?region={}", view.product.code, path, view.region)
}

/// A page's path under the product: `objects` is `buckets/<bucket>/objects` under its bucket.
pub fn page_path(view: &View<'_>, page: &PageSpec) -> String {
    match &page.parent {
        Some(parent) => format!("{}/{}/{}", parent.page, view.parent_id, page.id),
        None => page.id.clone(),
    }
}

/// Where a click on resource `id` of the list leads: its details page (under the parent resource
/// for a nested list), or the first page of its own navigation pane.
fn resource_path(view: &View<'_>, page: &PageSpec, id: &str) -> String {
    let details = format!("{}/{id}", page_path(view, page));
    match page.landing() {
        landing if landing == page.id => details,
        landing => format!("{details}/{landing}"),
    }
}

fn encode(text: &str) -> String {
    percent_encoding::utf8_percent_encode(text, percent_encoding::NON_ALPHANUMERIC).to_string()
}

/// The navigation pane of a resource's details page and of the pages nested under it.
fn resource_nav(view: &View<'_>, owner: &PageSpec, id: &str, current: &str) -> Markup {
    html! {
        aside class="sidenav" aria-label="Left-side navigation pane" {
            a class="sidenav-back" href=(product_url(view, &owner.id)) { "← " (owner.title) }
            div class="sidenav-title mono" { (id) }
            @for group in &owner.sub_nav {
                div class="nav-group" {
                    @if !group.label.is_empty() {
                        button type="button" class="nav-group-label" aria-expanded="true" { (group.label) }
                    }
                    @for item in &group.items {
                        @let path = if group.label.is_empty() {
                            item.label.clone()
                        } else {
                            format!("{} > {}", group.label, item.label)
                        };
                        @let href = if item.page == owner.id {
                            format!("{}/{}", owner.id, id)
                        } else {
                            format!("{}/{}/{}", owner.id, id, item.page)
                        };
                        a class={"nav-item" @if item.page == current { " active" }}
                            href=(product_url(view, &href)) data-ui-nav=(path) { (item.label) }
                    }
                }
            }
        }
    }
}

fn json_attr<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned())
}

/// A div-based select: a hidden input carries the value; the options render in a portal when opened.
pub fn div_select(
    name: &str,
    options: &[(String, String)],
    selected: &str,
    placeholder: &str,
    extra_class: &str,
) -> Markup {
    let label = options.iter().find(|(v, _)| v == selected).map(|(_, l)| l.as_str());
    select_markup(
        name,
        &json_attr(&options),
        label,
        selected,
        placeholder,
        extra_class,
        true,
        None,
    )
}

/// A form's select: its options, or under headings each option as `[value, label, heading]`; a
/// value the console only uses itself is not sent.
fn field_select(
    field: &Field,
    items: &[(String, String)],
    groups: Option<&[OptionGroup]>,
    selected: &str,
    placeholder: &str,
) -> Markup {
    let options_json = match groups {
        Some(groups) => json_attr(
            &groups
                .iter()
                .flat_map(|(heading, items)| {
                    items
                        .iter()
                        .map(move |(v, l)| [v.as_str(), l.as_str(), heading.as_str()])
                })
                .collect::<Vec<[&str; 3]>>(),
        ),
        None => json_attr(&items),
    };
    let label = items.iter().find(|(v, _)| v == selected).map(|(_, l)| l.as_str());
    select_markup(
        &field.param,
        &options_json,
        label,
        selected,
        placeholder,
        "",
        field.sent,
        None,
    )
}

/// A form's select whose options are what the resource chosen in the select `chosen` holds: the
/// page keeps each resource's values and puts the chosen one's in place when the choice changes.
fn chosen_select(field: &Field, chosen: &str, pairs: &[(String, String)]) -> Markup {
    let mut by_resource: BTreeMap<&str, Vec<[&str; 2]>> = BTreeMap::new();
    for (id, value) in pairs {
        by_resource
            .entry(id.as_str())
            .or_default()
            .push([value.as_str(), value.as_str()]);
    }
    let follows = (chosen, json_attr(&by_resource));
    let placeholder = if field.placeholder.is_empty() {
        "-"
    } else {
        field.placeholder.as_str()
    };
    select_markup(&field.param, "[]", None, "", placeholder, "", field.sent, Some(follows))
}

#[allow(clippy::too_many_arguments)]
fn select_markup(
    name: &str,
    options_json: &str,
    label: Option<&str>,
    selected: &str,
    placeholder: &str,
    extra_class: &str,
    sent: bool,
    follows: Option<(&str, String)>,
) -> Markup {
    let (follows, follow_options) = match follows {
        Some((field, options)) => (Some(field), Some(options)),
        None => (None, None),
    };
    html! {
        div class={"ui-select " (extra_class)} data-ui-select=(name) data-options=(options_json)
            data-follows=[follows] data-follow-options=[follow_options] {
            input type="hidden" name=(name) value=(if label.is_some() { selected } else { "" }) data-not-sent[!sent];
            div class="ui-select-trigger" role="combobox" tabindex="0" aria-haspopup="listbox" aria-expanded="false" {
                span class={"ui-select-value" @if label.is_none() { " placeholder" }} { (label.unwrap_or(placeholder)) }
                span class="ui-select-arrow" aria-hidden="true" {}
            }
        }
    }
}

/// The page global the real console sets for its scripts, with the signed-in account's ids
/// (`MAIN_ACCOUNT_PK`: the Alibaba Cloud account; `CURRENT_PK`: who is signed in, the same when the
/// account itself is; `ACCOUNT_TYPE` `main`, `sub` or `sts`): what the browser extension reads to
/// know whose console a tab shows.
fn console_config(account_id: &str) -> Markup {
    let id = serde_json::Value::from(account_id).to_string().replace("</", "<\\/");
    maud::PreEscaped(format!(
        "<script>window.ALIYUN_CONSOLE_CONFIG = {{\"MAIN_ACCOUNT_PK\": {id}, \"CURRENT_PK\": {id}, \"ACCOUNT_TYPE\": \"main\"}};</script>"
    ))
}

fn document(title: &str, body_attrs: &View<'_>, content: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { (title) " - Alibaba Cloud Console" }
                (console_config(body_attrs.account_id))
                link rel="stylesheet" href="/console/assets/console.css";
                script src="/console/assets/console.js" defer {}
            }
            body data-product=(body_attrs.product.code) data-region=(body_attrs.region)
                data-profile=(body_attrs.profile.as_str())
                data-resource-group=(body_attrs.resource_group) {
                (content)
                div id="toasts" class="toasts" aria-live="polite" {}
            }
        }
    }
}

fn topbar(view: &View<'_>, regional: bool) -> Markup {
    let regions: Vec<(String, String)> = REGIONS
        .iter()
        .map(|r| (r.id.to_owned(), r.local_name.to_owned()))
        .collect();
    let groups: Vec<(String, String)> = RESOURCE_GROUPS
        .iter()
        .map(|(v, l)| ((*v).to_owned(), (*l).to_owned()))
        .collect();
    html! {
        header class="topbar" {
            a class="logo" href="/console" { span class="logo-mark" { "[-]" } " Alibaba Cloud" }
            a class="topbar-link" href="/console" { "Console home" }
            div class="topbar-selectors" {
                @if regional {
                    (div_select("region", &regions, view.region, "Select a region", "region-select"))
                } @else {
                    span class="region-global" title="This product is not region-specific." { "Global" }
                }
                (div_select("resourceGroup", &groups, view.resource_group, "All Resource Groups", "rg-select"))
            }
            div class="topbar-right" {
                input class="topbar-search" type="search" placeholder="Search..." aria-label="Search";
                @for menu in TOP_MENUS {
                    div class="hover-menu topbar-menu" data-ui-topbar=(menu.label) {
                        a class="topbar-link more-trigger" role="button" tabindex="0" aria-haspopup="menu"
                            aria-expanded="false" { (menu.label) span class="caret" {} }
                        div class="hover-menu-list" role="menu" aria-label=(menu.label) {
                            @for (label, code, page) in menu.items {
                                a class="menu-item" role="menuitem"
                                    href=(format!("/console/{code}/{page}?region={}", view.region)) { (label) }
                            }
                        }
                    }
                }
                span class="account" title=(view.account_id) { (view.account_name) }
                form method="post" action="/logout" class="logout" { button type="submit" class="link" { "Log Out" } }
            }
        }
    }
}

fn sidenav(view: &View<'_>, current: &str) -> Markup {
    html! {
        aside class="sidenav" aria-label="Left-side navigation pane" {
            div class="sidenav-title" { (view.product.name) }
            @for group in &view.product.nav {
                div class="nav-group" {
                    @if !group.label.is_empty() {
                        button type="button" class="nav-group-label" aria-expanded="true" { (group.label) }
                    }
                    @for item in &group.items {
                        @let path = if group.label.is_empty() {
                            item.label.clone()
                        } else {
                            format!("{} > {}", group.label, item.label)
                        };
                        a class={"nav-item" @if item.page == current { " active" }}
                            href=(product_url(view, &item.page)) data-ui-nav=(path) { (item.label) }
                    }
                }
            }
        }
    }
}

pub(super) fn breadcrumb(view: &View<'_>, trail: &[(&str, Option<String>)]) -> Markup {
    html! {
        nav class="breadcrumb" aria-label="Breadcrumb" {
            a href=(format!("/console/{}?region={}", view.product.code, view.region)) { (view.product.name) }
            @for (label, href) in trail {
                span class="sep" { "/" }
                @match href {
                    Some(h) => a href=(h) { (label) },
                    None => span { (label) },
                }
            }
        }
    }
}

pub(super) fn shell(view: &View<'_>, current_page: &str, regional: bool, title: &str, main: Markup) -> Markup {
    shell_with(view, sidenav(view, current_page), regional, title, main)
}

fn shell_with(view: &View<'_>, nav: Markup, regional: bool, title: &str, main: Markup) -> Markup {
    document(
        &format!("{title} - {}", view.product.name),
        view,
        html! {
            (topbar(view, regional))
            div class="layout" {
                (nav)
                main class="main" { (main) }
            }
        },
    )
}

/// The navigation pane of a page: the product's, or the parent resource's for a nested page.
fn page_nav(view: &View<'_>, page: &PageSpec) -> Markup {
    let owner = page.parent.as_ref().and_then(|p| view.product.page(&p.page));
    match owner {
        Some(owner) if !owner.sub_nav.is_empty() => resource_nav(view, owner, view.parent_id, &page.id),
        _ => sidenav(view, &page.id),
    }
}

/// The breadcrumb trail of a page: a nested page sits under its parent resource.
fn page_trail(view: &View<'_>, page: &PageSpec) -> Vec<(String, Option<String>)> {
    let mut trail = Vec::new();
    if let Some(owner) = page.parent.as_ref().and_then(|p| view.product.page(&p.page)) {
        trail.push((owner.title.clone(), Some(product_url(view, &owner.id))));
        trail.push((
            view.parent_id.to_owned(),
            Some(product_url(view, &format!("{}/{}", owner.id, view.parent_id))),
        ));
    }
    trail.push((page.title.clone(), None));
    trail
}

/// A details-page value as the console shows it: times without the `T`/`Z`, zones by name.
fn detail_value(path: &str, value: String) -> String {
    let is_time = value.len() >= 20 && value.as_bytes().get(10) == Some(&b'T') && value.ends_with('Z');
    if is_time {
        console_time(&value)
    } else if path.ends_with("ZoneId") && !value.is_empty() {
        zone_label(&value)
    } else {
        value
    }
}

/// The console's name for an API value, when the column has one.
fn labelled(column: &Column, value: String) -> String {
    column
        .labels
        .iter()
        .find(|(v, _)| *v == value)
        .map_or(value, |(_, label)| label.clone())
}

fn status_class(status: &str) -> &'static str {
    match status {
        "Available" | "Running" | "Enable" | "active" | "Active" | "Normal" | "ENABLE" | "OK" | "InUse" | "In_use" => {
            "ok"
        }
        "Pending" | "Starting" | "Stopping" | "Creating" | "Deleting" | "Restarting" | "Changing" | "Accomplished" => {
            "busy"
        }
        "Stopped" | "inactive" | "Disable" | "Disabled" | "Expired" => "off",
        _ => "neutral",
    }
}

fn cell(view: &View<'_>, page: &PageSpec, item: &Value, column: &Column) -> Markup {
    let Some(target) = &column.configure else {
        return cell_value(view, page, item, column);
    };
    let id = display(lookup(item, &page.id_field));
    let href = product_url(view, &format!("{}/{}/{}", page.id, id, target));
    html! {
        @if !column.path.is_empty() { (cell_value(view, page, item, column)) " " }
        a class="link" href=(href) data-ui-configure=(column.header) { "Configure" }
    }
}

/// What a cell shows of the item's value, by the column's kind.
fn cell_value(view: &View<'_>, page: &PageSpec, item: &Value, column: &Column) -> Markup {
    let value = lookup(item, &column.path);
    match column.kind {
        ColumnKind::IdName => {
            let id = display(value);
            let name = display(lookup(item, &page.name_field));
            html! {
                @if page.tabs.is_empty() { span class="mono" { (id) } }
                @else { a class="link mono" href=(product_url(view, &resource_path(view, page, &id))) { (id) } }
                @if !name.is_empty() && name != id { div class="sub" { (name) } }
            }
        }
        ColumnKind::Status => {
            let text = display(value);
            let class = status_class(&text);
            html! { span class={"status " (class)} { i class="dot" {} (or_dash(labelled(column, text))) } }
        }
        ColumnKind::Count => {
            let n = value.and_then(Value::as_array).map_or(0, Vec::len);
            html! { (n) }
        }
        ColumnKind::Mono => html! { span class="mono" { (or_dash(display(value))) } },
        ColumnKind::Text => html! { (or_dash(labelled(column, display(value)))) },
        ColumnKind::Region => {
            let id = display(value);
            let name = REGIONS
                .iter()
                .find(|r| r.id == id)
                .map_or(id.clone(), |r| r.local_name.to_owned());
            html! { (or_dash(name)) }
        }
        ColumnKind::Zone => {
            let zone = display(value);
            html! { (if zone.is_empty() { "-".to_owned() } else { zone_label(&zone) }) }
        }
        ColumnKind::Time => html! { (or_dash(console_time(&display(value)))) },
        ColumnKind::Folder => {
            let name = display(value);
            let id = display(lookup(item, &page.id_field));
            let is_folder = item.get("Directory").and_then(Value::as_bool).unwrap_or(false);
            html! {
                @if is_folder {
                    a class="link mono folder" href=(format!("{}&dir={}", product_url(view, &page_path(view, page)), encode(&id)))
                        data-ui-folder=(id) { (name) }
                } @else {
                    span class="mono" { (or_dash(name)) }
                }
            }
        }
    }
}

/// Why a row action is disabled for this item, if it is.
fn disabled_reason<'a>(action: &'a RowAction, item: &Value) -> Option<&'a str> {
    let rule = action.disabled.as_ref()?;
    let value = lookup(item, &rule.path);
    let text = display(value);
    let disabled = match &rule.when {
        DisableWhen::NonEmpty => value.and_then(Value::as_array).is_some_and(|a| !a.is_empty()),
        DisableWhen::Is(values) => values.contains(&text),
        DisableWhen::IsNot(values) => !values.contains(&text),
    };
    disabled.then_some(rule.reason.as_str())
}

fn confirm_id(page: &PageSpec, index: usize) -> String {
    format!("confirm-{}-{index}", page.id)
}

/// How a row action is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Look {
    /// A link: the Actions column, the details page's header and sections.
    Link,
    /// An item of a More menu, a header menu or the All Actions pane.
    MenuItem,
    /// A switch, off ("In the Instance Status section, turn on Automatic renewal"); turned on, it
    /// opens the action.
    Switch,
}

impl Look {
    fn class(self) -> &'static str {
        match self {
            Look::Link => "link action",
            Look::MenuItem => "menu-item",
            Look::Switch => "switch",
        }
    }

    fn role(self, disabled: bool) -> &'static str {
        match self {
            Look::Switch => "switch",
            Look::MenuItem if disabled => "menuitem",
            _ => "button",
        }
    }
}

/// One row action as a link, menu item or switch.
fn action_control(view: &View<'_>, page: &PageSpec, index: usize, action: &RowAction, item: &Value, look: Look) -> Markup {
    let id = display(lookup(item, &page.id_field));
    let class = look.class();
    let placement = action.placement.as_str();
    let switch = look == Look::Switch;
    let label = html! {
        @if switch { span class="switch-track" aria-hidden="true" {} }
        (action.label)
    };
    if let Some(reason) = disabled_reason(action, item) {
        return html! {
            span class="tooltip-wrap" data-tooltip=(reason) {
                a class={(class) " disabled"} aria-disabled="true" role=(look.role(true))
                    aria-checked=[switch.then_some("false")]
                    data-ui-action=(action.label) data-ui-placement=(placement) { (label) }
            }
        };
    }
    match &action.kind {
        ActionKind::Details => html! {
            a class=(class) href=(product_url(view, &resource_path(view, page, &id))) data-ui-action=(action.label)
                data-ui-placement=(placement) { (label) }
        },
        ActionKind::Form(form) => html! {
            a class=(class) role=(look.role(false)) tabindex="0" aria-checked=[switch.then_some("false")]
                data-open=(form.id) data-ui-action=(action.label) data-ui-placement=(placement) { (label) }
        },
        ActionKind::Call { .. } => html! {
            a class=(class) role=(look.role(false)) tabindex="0" aria-checked=[switch.then_some("false")]
                data-open=(confirm_id(page, index))
                data-ui-action=(action.label) data-ui-placement=(placement) { (label) }
        },
    }
}

fn actions_cell(view: &View<'_>, page: &PageSpec, item: &Value) -> Markup {
    let more: Vec<(usize, &RowAction)> = page
        .row_actions
        .iter()
        .enumerate()
        .filter(|(_, a)| a.placement == Placement::More)
        .collect();
    html! {
        div class="actions-cell" {
            @for (i, action) in page.row_actions.iter().enumerate().filter(|(_, a)| a.placement == Placement::Inline) {
                (action_control(view, page, i, action, item, Look::Link))
            }
            @if !more.is_empty() {
                div class="hover-menu" data-ui-action=(page.more_icon.as_deref().unwrap_or("More")) {
                    @if let Some(icon) = &page.more_icon {
                        a class="link more-trigger icon-more" role="button" tabindex="0" aria-haspopup="menu"
                            aria-expanded="false" aria-label=(icon) title=(icon) { "⋮" }
                    } @else {
                        a class="link more-trigger" role="button" tabindex="0" aria-haspopup="menu" aria-expanded="false" { "More" span
                            class="caret" {} }
                    }
                    div class="hover-menu-list" role="menu" { (more_menu_items(view, page, &more, item)) }
                }
            }
        }
    }
}

/// The More menu's items: those outside any submenu first, then each submenu (`Instance Status`)
/// as an item that opens its own list, in the order their first items are declared.
fn more_menu_items(view: &View<'_>, page: &PageSpec, more: &[(usize, &RowAction)], item: &Value) -> Markup {
    let mut submenus: Vec<&str> = Vec::new();
    for (_, action) in more {
        if let Some(sub) = action.submenu.as_deref()
            && !submenus.contains(&sub)
        {
            submenus.push(sub);
        }
    }
    html! {
        @for (i, action) in more.iter().filter(|(_, a)| a.submenu.is_none()) {
            (action_control(view, page, *i, action, item, Look::MenuItem))
        }
        @for sub in submenus {
            div class="submenu" data-ui-submenu=(sub) role="none" {
                a class="menu-item submenu-trigger" role="menuitem" tabindex="0" aria-haspopup="menu"
                    aria-expanded="false" { (sub) span class="submenu-arrow" aria-hidden="true" { "›" } }
                div class="submenu-list" role="menu" aria-label=(sub) {
                    @for (i, action) in more.iter().filter(|(_, a)| a.submenu.as_deref() == Some(sub)) {
                        (action_control(view, page, *i, action, item, Look::MenuItem))
                    }
                }
            }
        }
    }
}

fn row_attrs_json(item: &Value) -> String {
    json_attr(item)
}

/// The list's table (also used inside iframes and child tabs).
pub fn table(view: &View<'_>, page: &PageSpec, data: &ListData, selectable: bool) -> Markup {
    let has_actions = !page.row_actions.is_empty();
    let colspan = page.columns.len() + usize::from(has_actions) + usize::from(selectable);
    html! {
        @if let Some(error) = &data.error {
            div class="alert alert-error" role="alert" { (error) }
        }
        table class="table" data-ui-table=(page.id) {
            thead { tr {
                @if selectable { th class="check" { input type="checkbox" data-select-all aria-label="Select all"; } }
                @for column in &page.columns { th { (column.header) } }
                @if has_actions { th class="actions-head" { "Actions" } }
            } }
            tbody {
                @for item in &data.items {
                    @let id = display(lookup(item, &page.id_field));
                    tr data-row-id=(id) data-row=(row_attrs_json(item)) {
                        @if selectable { td class="check" { input type="checkbox" class="row-check" value=(id)
                            aria-label=(format!("Select {id}")); } }
                        @for column in &page.columns { td { (cell(view, page, item, column)) } }
                        @if has_actions { td class="actions" { (actions_cell(view, page, item)) } }
                    }
                }
                @if data.items.is_empty() && data.error.is_none() {
                    tr class="empty" { td colspan=(colspan) { div class="empty-state" { "No data" } } }
                }
            }
        }
    }
}

fn pagination(view: &View<'_>, page: &PageSpec, data: &ListData, query: &ListQuery) -> Markup {
    if page.marker.is_some() {
        let mut url = format!(
            "/console/{}/{}?region={}",
            view.product.code,
            page_path(view, page),
            view.region
        );
        if !query.dir.is_empty() {
            url.push_str(&format!("&dir={}", encode(&query.dir)));
        }
        if !query.q.is_empty() {
            url.push_str(&format!("&key={}&q={}", query.search_key, encode(&query.q)));
        }
        return html! {
            nav class="pagination" aria-label="Pagination" {
                span class="total" { (data.items.len()) " items on this page" }
                @if query.marker.is_empty() { span class="page-btn disabled" aria-disabled="true" { "First Page" } }
                @else { a class="page-btn" href=(url) { "First Page" } }
                @match &data.next_marker {
                    Some(next) => a class="page-btn" href=(format!("{url}&marker={}", encode(next)))
                        aria-label="Next Page" { "Next Page" },
                    None => span class="page-btn disabled" aria-disabled="true" { "Next Page" },
                }
            }
        };
    }
    let Some(total) = data.total else {
        return html! { div class="pagination" { span class="total" { (data.items.len()) " items" } } };
    };
    let pages = ((total + page.page_size - 1) / page.page_size).max(1);
    let current = data.page_number.clamp(1, pages);
    let link = |n: i64| {
        let mut url = format!(
            "/console/{}/{}?region={}&page={n}",
            view.product.code,
            page_path(view, page),
            view.region
        );
        if !query.filter.is_empty() {
            url.push_str(&format!("&filter={}", encode(&query.filter)));
        }
        if !query.q.is_empty() {
            url.push_str(&format!(
                "&key={}&q={}",
                query.search_key,
                percent_encoding::utf8_percent_encode(&query.q, percent_encoding::NON_ALPHANUMERIC)
            ));
        }
        url
    };
    html! {
        nav class="pagination" aria-label="Pagination" {
            span class="total" { "Total " (total) " items" }
            @if current > 1 { a class="page-btn" href=(link(current - 1)) aria-label="Previous Page" { "<" } }
            @else { span class="page-btn disabled" aria-disabled="true" { "<" } }
            @for n in 1..=pages {
                @if n == current { span class="page-btn current" aria-current="page" { (n) } }
                @else { a class="page-btn" href=(link(n)) { (n) } }
            }
            @if current < pages { a class="page-btn" href=(link(current + 1)) aria-label="Next Page" { ">" } }
            @else { span class="page-btn disabled" aria-disabled="true" { ">" } }
        }
    }
}

fn search_box(view: &View<'_>, page: &PageSpec, query: &ListQuery, action: &str) -> Markup {
    if page.search.is_empty() {
        return html! {};
    }
    let options: Vec<(String, String)> = page
        .search
        .iter()
        .enumerate()
        .map(|(i, o)| (i.to_string(), o.label.clone()))
        .collect();
    let client_side = page.search.iter().all(|o| o.params.is_empty());
    html! {
        form class="search" method="get" action=(action) data-client-filter[client_side] {
            input type="hidden" name="region" value=(view.region);
            @if !query.dir.is_empty() { input type="hidden" name="dir" value=(query.dir); }
            @if query.tab > 0 { input type="hidden" name="tab" value=(query.tab); }
            (div_select("key", &options, &query.search_key.to_string(), "", "search-key"))
            input class="input search-input" type="search" name="q" value=(query.q)
                placeholder="Enter a value to search" aria-label="Search";
            button class="btn btn-icon" type="submit" aria-label="Search" { "Search" }
        }
    }
}

fn field_control(view: &View<'_>, field: &Field, options: &SelectOptions) -> Markup {
    let rule = field.rule.as_deref().unwrap_or("");
    match &field.kind {
        FieldKind::Text => html! {
            input class="input" type="text" name=(field.param) value=(field.default) placeholder=(field.placeholder)
                data-rule=(rule) data-not-sent[!field.sent] data-suffix=[(!field.suffix.is_empty()).then_some(&field.suffix)]
                data-prefix=[(!field.prefix.is_empty()).then_some(&field.prefix)] autocomplete="off";
        },
        FieldKind::Password => html! {
            input class="input" type="password" name=(field.param) value=(field.default)
                placeholder=(field.placeholder) data-rule=(rule) autocomplete="new-password"
                data-not-sent[!field.sent];
        },
        FieldKind::Number => html! {
            input class="input" type="text" inputmode="numeric" name=(field.param) value=(field.default)
                placeholder=(field.placeholder) data-rule=(rule);
        },
        FieldKind::Textarea => html! {
            textarea class="input textarea" name=(field.param) placeholder=(field.placeholder)
                data-rule=(rule) maxlength="256" { (field.default) }
        },
        FieldKind::Content => html! {
            textarea class="input textarea" name=(field.param) placeholder=(field.placeholder) rows="8" data-raw {
                (field.default)
            }
        },
        FieldKind::Cidr { suggest } => html! {
            aca-cidr-input name=(field.param) value=(field.default) data-rule=(rule) no-suggestions[!suggest] {}
        },
        FieldKind::Generated(what) => html! {
            input type="hidden" name=(field.param) data-generate=(what.as_str()) data-not-sent[!field.sent];
        },
        FieldKind::Tag => html! {
            div class="tag-pair" {
                // The key box carries the field's own label: it is what "Tag" names.
                input class="input" type="text" name=(format!("{}.1.Key", field.param)) aria-label=(field.label)
                    placeholder="Tag Key" autocomplete="off";
                input class="input" type="text" name=(format!("{}.1.Value", field.param)) aria-label="Tag Value"
                    placeholder="Tag Value" autocomplete="off";
            }
        },
        FieldKind::NamedParameter => html! {
            div class="tag-pair" {
                input class="input" type="text" data-named-parameter=(field.param) aria-label=(field.label)
                    placeholder=(field.placeholder) autocomplete="off";
                input class="input" type="text" data-named-value aria-label="Value" placeholder="Value"
                    autocomplete="off";
            }
        },
        FieldKind::ReadOnly => html! {
            input class="input readonly" type="text" data-readonly=(field.param) readonly value=(field.default);
        },
        FieldKind::Radio(items) => html! {
            div class="radio-group" role="radiogroup" aria-label=(field.label) {
                @for (value, label) in items {
                    label class="radio-button" {
                        input type="radio" name=(field.param) value=(value) checked[*value == field.default]
                            data-not-sent[!field.sent];
                        span { (label) }
                    }
                }
            }
        },
        FieldKind::Tabs(items) => html! {
            div class="tabs field-tabs" role="tablist" aria-label=(field.label) {
                @for (value, label) in items {
                    button class={"tab" @if *value == field.default { " active" }} type="button" role="tab"
                        aria-selected=(*value == field.default) data-field-tab=(value) { (label) }
                }
            }
            input type="hidden" name=(field.param) value=(field.default) data-not-sent[!field.sent];
        },
        FieldKind::Switch => html! {
            button class="btn-link" type="button" data-field-switch=(field.param) { (field.label) }
            input type="hidden" name=(field.param) value=(field.default) data-not-sent[!field.sent];
        },
        FieldKind::Checkbox => html! {
            label class="checkbox" {
                input type="checkbox" name=(field.param) value="true" checked[field.default == "true"]
                    data-not-sent[!field.sent];
                span { (field.label) }
            }
        },
        FieldKind::Transfer {
            source,
            available,
            selected,
        } => {
            let items = source_items(view, source, options);
            html! {
                div class="transfer" data-transfer=(field.param) {
                    input type="hidden" name=(field.param) value=(field.default);
                    div class="transfer-list" role="group" aria-label=(available) data-transfer-side="available" {
                        div class="transfer-head" { (available) }
                        @for (value, label) in &items {
                            button class="transfer-item" type="button" data-value=(value) { (label) }
                        }
                    }
                    div class="transfer-list" role="group" aria-label=(selected) data-transfer-side="selected" {
                        div class="transfer-head" { (selected) }
                    }
                }
            }
        }
        FieldKind::Picked(panel) => html! {
            div class="picked" {
                input type="hidden" name=(field.param) value="" data-picked=(field.param);
                ul class="picked-list" data-picked-list=(field.param) {
                    li class="picked-empty" { "No data" }
                }
                button class="btn" type="button" data-open=(panel.id) { (panel.trigger) }
            }
        },
        FieldKind::Select(source) => {
            let items = source_items(view, source, options);
            let placeholder = if field.placeholder.is_empty() {
                "Select"
            } else {
                field.placeholder.as_str()
            };
            // A region select starts on the region chosen in the top navigation bar.
            let selected = match source {
                OptionSource::Regions if field.default.is_empty() => view.region,
                _ => field.default.as_str(),
            };
            match source {
                OptionSource::Grouped(groups) => field_select(field, &items, Some(groups), selected, placeholder),
                OptionSource::OfChosen { field: chosen, paths } => {
                    let pairs = options.get(&OptionSource::chosen_key(chosen, paths));
                    chosen_select(field, chosen, pairs.map_or(&[][..], Vec::as_slice))
                }
                _ => field_select(field, &items, None, selected, placeholder),
            }
        }
    }
}

/// The options a select or a transfer list offers: fixed ones, the region's zones, every region, or
/// the resources another page lists.
fn source_items(view: &View<'_>, source: &OptionSource, options: &SelectOptions) -> Vec<(String, String)> {
    match source {
        OptionSource::Static(items) => items.clone(),
        OptionSource::Grouped(groups) => groups.iter().flat_map(|(_, items)| items.iter().cloned()).collect(),
        OptionSource::Regions => REGIONS
            .iter()
            .map(|r| (r.id.to_owned(), r.local_name.to_owned()))
            .collect(),
        OptionSource::Zones => REGIONS
            .iter()
            .find(|r| r.id == view.region)
            .map(|r| r.zones.iter().map(|z| ((*z).to_owned(), zone_label(z))).collect())
            .unwrap_or_default(),
        OptionSource::Resources { product, page } => {
            options.get(&format!("{product}/{page}")).cloned().unwrap_or_default()
        }
        // Filled in by the page as the other select's choice changes.
        OptionSource::OfChosen { .. } => Vec::new(),
    }
}


/// `cn-hangzhou-h` → `Hangzhou Zone H`, as the console names zones.
pub fn zone_label(zone: &str) -> String {
    let region = REGIONS.iter().find(|r| zone.starts_with(r.id));
    let (city, suffix) = match region {
        Some(r) => {
            // "China (Hangzhou)" → "Hangzhou"; "Singapore" stays.
            let city = r
                .local_name
                .split_once('(')
                .map_or(r.local_name, |(_, inner)| inner.trim_end_matches(')'));
            (
                city.trim().to_owned(),
                zone[r.id.len()..].trim_start_matches('-').to_uppercase(),
            )
        }
        None => (zone.to_owned(), String::new()),
    };
    if suffix.is_empty() {
        city
    } else {
        format!("{city} Zone {suffix}")
    }
}

fn form_field(view: &View<'_>, field: &Field, options: &SelectOptions) -> Markup {
    if matches!(field.kind, FieldKind::Generated(_)) {
        // Nothing to show; a value made only for one choice (the password Automatically Regenerate
        // Default Password makes) is in a form item that choice shows, so it is sent only then.
        return match &field.shown_when {
            None => field_control(view, field, options),
            Some(_) => html! {
                div class="form-item" data-param=(field.param) data-shown-when=[shown_when(&field.shown_when)] hidden {
                    (field_control(view, field, options))
                }
            },
        };
    }
    html! {
        div class="form-item" data-ui-field=(field.label) data-param=(field.param) data-required=(field.required)
            data-from-row=(field.from_row.as_deref().unwrap_or("")) data-shown-when=[shown_when(&field.shown_when)]
            hidden[field.shown_when.is_some()] {
            // A checkbox carries its label beside the box, a switch on the link; a row of tabs needs none.
            @if !matches!(field.kind, FieldKind::Tabs(_) | FieldKind::Switch) {
                label class="form-label" {
                    @if field.required { span class="required-mark" aria-hidden="true" { "*" } }
                    @if !matches!(field.kind, FieldKind::Checkbox) { (field.label) }
                }
            }
            div class="form-control" {
                (field_control(view, field, options))
                @if let Some(label) = &field.adds_client_ip {
                    button class="btn btn-link" type="button" data-adds-client-ip=(field.param) { (label) }
                }
            }
            @if !field.help.is_empty() { div class="form-help" { (field.help) } }
            div class="form-error" role="alert" {}
        }
    }
}

/// A folded section whose fields open in a panel of their own over the form (see [`Fold::panel`]):
/// the heading, the button (or drop-down menu) that opens the panel, a line saying what was set,
/// and the panel with its OK and Cancel. The fields stay in the form and are sent with it.
fn fold_panel(view: &View<'_>, fold: &Fold, panel: &str, body: &str, options: &SelectOptions) -> Markup {
    let title_id = format!("{body}-title");
    html! {
        div class="fold fold-in-panel" {
            div class="fold-head" {
                span class="section-title" { (fold.heading) }
                @if let Some((param, items)) = &fold.menu {
                    div class="hover-menu fold-menu" {
                        button class="btn-link more-trigger" type="button" aria-haspopup="menu" aria-expanded="false" {
                            (fold.button) span class="caret" {}
                        }
                        div class="hover-menu-list" role="menu" aria-label=(fold.button) {
                            @for (value, label) in items {
                                a class="menu-item" role="menuitem" tabindex="0" data-open-subpanel=(body)
                                    data-set-param=(param) data-set-value=(value) { (label) }
                            }
                        }
                    }
                } @else {
                    button class="btn-link" type="button" data-open-subpanel=(body) { (fold.button) }
                }
            }
            div class="fold-summary" data-fold-summary=(body) {}
            div id=(body) class="subpanel" role="dialog" aria-modal="true" aria-labelledby=(title_id) hidden {
                div class="dialog-header" { span id=(title_id) class="dialog-title" { (panel) } }
                div class="subpanel-body" {
                    @for (i, field) in fold.fields.iter().enumerate() {
                        @if let Some(section) = field.section.as_ref()
                            .filter(|s| i == 0 || fold.fields[i - 1].section.as_ref() != Some(*s)) {
                            h4 class="section-title" { (section) }
                        }
                        (form_field(view, field, options))
                    }
                }
                div class="dialog-footer" {
                    button class="btn btn-primary" type="button" data-close-subpanel=(body) { "OK" }
                    button class="btn" type="button" data-cancel-subpanel=(body) { "Cancel" }
                }
            }
        }
    }
}

/// A field's or step's condition as its `data-shown-when` attribute: `param=value`.
fn shown_when(condition: &Option<(String, String)>) -> Option<String> {
    condition.as_ref().map(|(param, value)| format!("{param}={value}"))
}

fn steps_markup(view: &View<'_>, form: &FormSpec, options: &SelectOptions) -> Markup {
    let stepped = stepped(form);
    html! {
        @if stepped {
            ol class="steps" {
                @for (i, step) in form.steps.iter().enumerate() {
                    li class={"step-title" @if i == 0 { " current" }}
                        data-ui-step=(format!("{}:{}", form.id, step.title)) data-step-index=(i)
                        data-shown-when=[shown_when(&step.shown_when)] {
                        span class="step-no" { (i + 1) } (step.title)
                    }
                }
            }
        }
        @for (i, step) in form.steps.iter().enumerate().filter(|(_, step)| step.dialog.is_none()) {
            @let then_action = step.then.as_ref().map(|(action, _)| action.as_str());
            @let carry = step.then.as_ref().map(|(_, carry)| json_attr(carry));
            @let then_compose = (!step.then_compose.is_empty()).then(|| json_attr(&step.then_compose));
            @let keep = step.then_keep.as_ref().map(|k| serde_json::to_string(k).unwrap_or_default());
            section class="step-panel" data-step-panel=(i) hidden[stepped && i > 0] data-then=[then_action]
                data-shown-when=[shown_when(&step.shown_when)]
                data-carry=[carry] data-then-if=[step.then_if.as_deref()] data-compose=[then_compose]
                data-then-each=[step.then_each.as_deref()] data-then-keep=[keep] {
                @if !stepped && !step.title.is_empty() && form.container != Container::Dialog {
                    h3 class="section-title" { (step.title) }
                }
                @if let Some(repeat) = &step.repeat {
                    @let repeated = |field: &&Field| repeat.params.contains(&field.param);
                    div class="repeat-group" data-repeat {
                        @for field in step.fields.iter().filter(repeated) { (form_field(view, field, options)) }
                    }
                    button class="btn btn-link" type="button" data-repeat-add { (repeat.button) }
                    @for field in step.fields.iter().filter(|f| !repeated(f)) { (form_field(view, field, options)) }
                } @else {
                    @for field in &step.fields { (form_field(view, field, options)) }
                }
                @if let Some(fold) = &step.fold {
                    @let body = format!("{}-fold-{i}", form.id);
                    @if let Some(panel) = &fold.panel {
                        (fold_panel(view, fold, panel, &body, options))
                    } @else {
                        div class="fold" {
                            div class="fold-head" {
                                span class="section-title" { (fold.heading) }
                                button class="btn-link" type="button" data-unfold=(body) { (fold.button) }
                            }
                            div id=(body) class="fold-body" hidden {
                                @for field in &fold.fields { (form_field(view, field, options)) }
                            }
                        }
                    }
                }
                @if stepped && i + 1 == form.steps.len() {
                    div class="summary" data-summary {
                        "Check the configuration, then click " strong { (form.submit) } "."
                    }
                }
            }
        }
        @for step in form.steps.iter().filter(|step| step.dialog.is_some()) {
            @let title_id = format!("{}-step-dialog-title", form.id);
            div class="dialog-mask" data-step-dialog hidden {
                div class="dialog" role="dialog" aria-modal="true" aria-labelledby=(title_id) {
                    div class="dialog-header" {
                        span id=(title_id) class="dialog-title" { (step.dialog.as_deref().unwrap_or_default()) }
                        button class="icon-close" type="button" data-close aria-label="Close" { "×" }
                    }
                    div class="dialog-body" {
                        @if !step.message.is_empty() { p class="confirm-message" { (step.message) } }
                        @for field in &step.fields { (form_field(view, field, options)) }
                    }
                    div class="dialog-footer" {
                        button class="btn btn-primary" type="submit" data-submit { (form.submit) }
                        button class="btn" type="button" data-close { (form.cancel) }
                    }
                }
            }
        }
    }
}

/// Whether a form shows its steps one at a time, with Next and Previous: a wizard, a panel or a
/// buy page of several steps. Sections without a title (a call of their own under the form's
/// fields) and a last step in a dialog of its own are no steps of a wizard.
fn stepped(form: &FormSpec) -> bool {
    matches!(
        form.container,
        Container::Wizard | Container::Drawer | Container::BuyPage
    ) && form
        .steps
        .iter()
        .filter(|step| step.dialog.is_none() && !step.title.is_empty())
        .count()
        > 1
}

/// A page's create flows that open in a dialog or panel rather than on a page of their own.
fn modal_creates(page: &PageSpec) -> impl Iterator<Item = &FormSpec> {
    page.creates.iter().filter(|f| form_page_path(page, f).is_none())
}

/// Whether the form's last step opens in a dialog of its own (see [`Step::dialog`]).
fn ends_in_dialog(form: &FormSpec) -> bool {
    form.steps.iter().any(|step| step.dialog.is_some())
}

fn form_footer(form: &FormSpec, stepped: bool, picks: bool) -> Markup {
    html! {
        @if form.action.is_empty() && !picks {
            // A panel that only shows values: nothing to submit.
        } @else if stepped {
            button class="btn" type="button" data-step-prev hidden { "Previous" }
            button class="btn btn-primary" type="button" data-step-next { "Next" }
            button class="btn btn-primary" type="submit" data-submit hidden { (form.submit) }
        } @else {
            button class="btn btn-primary" type="submit" data-submit { (form.submit) }
        }
        button class="btn" type="button" data-close { (form.cancel) }
    }
}

/// A form's `data-url`, `data-fixed` and `data-compose` attributes.
fn form_attrs(form: &FormSpec, endpoint: &str) -> (String, String, Option<String>) {
    let compose = (!form.compose.is_empty()).then(|| json_attr(&form.compose));
    if form.action.is_empty() {
        return (String::new(), json_attr(&form.fixed), compose);
    }
    (format!("{endpoint}/{}", form.action), json_attr(&form.fixed), compose)
}

/// A form in a dialog, drawer or wizard dialog, hidden until opened.
pub fn modal_form(view: &View<'_>, form: &FormSpec, options: &SelectOptions) -> Markup {
    html! {
        (modal_form_into(view, form, options, None))
        (picked_panels(view, form, options))
    }
}

/// The panels that fill a form's [`FieldKind::Picked`] lists (the Servers panel), which open over it.
fn picked_panels(view: &View<'_>, form: &FormSpec, options: &SelectOptions) -> Markup {
    html! {
        @for (param, panel) in form.panels() {
            (modal_form_into(view, panel, options, Some(param)))
        }
    }
}

/// A form in a dialog or panel; with `into`, a panel that fills the [`FieldKind::Picked`] list of
/// that parameter instead of making a call.
fn modal_form_into(view: &View<'_>, form: &FormSpec, options: &SelectOptions, into: Option<&str>) -> Markup {
    let stepped = stepped(form);
    let (url, fixed, compose) = form_attrs(form, &format!("/console/api/{}", view.product.code));
    let (mask, panel) = match form.container {
        Container::Drawer => ("drawer-mask", "drawer"),
        Container::Wizard => ("dialog-mask", "dialog dialog-wide"),
        _ => ("dialog-mask", "dialog"),
    };
    let title_id = format!("{}-title", form.id);
    html! {
        div class=(mask) id=(form.id) hidden {
            form class=(panel) role="dialog" aria-modal="true" aria-labelledby=(title_id) novalidate
                data-ui-form data-url=(url) data-fixed=(fixed) data-compose=[compose]
                data-id-param=(form.id_param.as_deref().unwrap_or("")) data-batch-form[form.batch]
                data-success=(form.success) data-done=(form.done.as_deref().map(|p| product_url(view, p)).unwrap_or_default())
                data-finish=[form.finish.as_deref()] data-submit-on-open[form.submit_on_open]
                data-shows=[(!form.shows.is_empty()).then(|| json_attr(&form.shows))] data-pick-into=[into]
                data-open-call=[form.opened_by.as_ref().map(|call| call.action.as_str())]
                data-open-params=[form.opened_by.as_ref().map(|call| json_attr(&call.params))] {
                div class="dialog-header" {
                    span id=(title_id) class="dialog-title" { (form.title) }
                    button class="icon-close" type="button" data-close aria-label="Close" { "×" }
                }
                div class="dialog-body" {
                    @if let Some(call) = &form.opened_by { (opened_values(call)) }
                    (steps_markup(view, form, options))
                }
                div class="dialog-footer" { (form_footer(form, stepped, into.is_some())) }
            }
        }
    }
}

/// What a form shows of the call it makes as it opens, filled in when the response comes, tab by tab
/// (the tabs' keys a level of their own), and the hidden values it sends on.
fn opened_values(call: &OpeningCall) -> Markup {
    let tabbed = call.shows.len() > 1;
    html! {
        div class="opened-values" {
            @if tabbed {
                div class="tabs sub-tabs" role="tablist" {
                    @for (i, tab) in call.shows.iter().enumerate() {
                        button class={"tab" @if i == 0 { " active" }} type="button" role="tab"
                            data-tab=(format!("opened.{i}")) aria-selected=(i == 0) { (tab.title) }
                    }
                }
            }
            @for (i, tab) in call.shows.iter().enumerate() {
                div class="tab-panel" role=[tabbed.then_some("tabpanel")]
                    data-tab-panel=[tabbed.then(|| format!("opened.{i}"))] hidden[i > 0] {
                    @for (label, source, how) in &tab.values {
                        @match how {
                            Shown::QrCode => div class="qr-code" role="img" aria-label=(label)
                                data-opened-show=(source) data-shown="qr" {},
                            Shown::Text => div class="desc-item" {
                                dt { (label) }
                                dd class="mono" data-opened-show=(source) { "-" }
                            },
                            Shown::Composed => div class="desc-item" {
                                dt { (label) }
                                dd class="mono" data-opened-compose=(source) { "-" }
                            },
                        }
                    }
                }
            }
            @for (param, path) in &call.carry {
                input type="hidden" name=(param) data-opened-carry=(path);
            }
        }
    }
}

/// What a confirmation dialog's button calls: the operation on the row's (or the selected rows')
/// ids, with the parameters it carries.
struct CallTarget<'a> {
    action: &'a str,
    id_param: &'a str,
    fixed: &'a [(String, String)],
    from_row: &'a [(String, String)],
    by_row: Option<&'a (String, Vec<CallVariant>)>,
    batch: bool,
    config: Option<&'a WholeConfig>,
}

fn confirm_dialog(id: &str, confirm: &Confirm, call: CallTarget<'_>) -> Markup {
    let typed_id = format!("{id}-typed");
    html! {
        div class="dialog-mask" id=(id) hidden {
            div class="dialog dialog-confirm" role="alertdialog" aria-modal="true"
                aria-labelledby=(format!("{id}-title")) {
                div class="dialog-header" {
                    span id=(format!("{id}-title")) class="dialog-title" { (confirm.title) }
                    button class="icon-close" type="button" data-close aria-label="Close" { "×" }
                }
                div class="dialog-body" {
                    p { (confirm.message) }
                    p class="confirm-target mono" data-confirm-target {}
                    @if let Some(label) = &confirm.typed {
                        div class="form-item" data-ui-field=(label) {
                            label class="form-label" for=(typed_id) { (label) }
                            input class="input" id=(typed_id) type="text" autocomplete="off" data-confirm-typed;
                            div class="form-error" role="alert" {}
                        }
                    }
                }
                div class="dialog-footer" {
                    button class="btn btn-primary" type="button" data-call=(call.action) data-id-param=(call.id_param)
                        data-fixed=(json_attr(&call.fixed)) data-batch[call.batch]
                        data-from-row=[(!call.from_row.is_empty()).then(|| json_attr(&call.from_row))]
                        data-by-row=[call.by_row.map(json_attr)]
                        data-config-prefix=[call.config.map(|c| &c.prefix)]
                        data-config-clear=[call.config.map(|c| &c.clear_action)] { (confirm.ok) }
                    button class="btn" type="button" data-close { (confirm.cancel) }
                }
            }
        }
    }
}

/// The dialogs a page's row actions open (forms and confirmations).
fn row_dialogs(view: &View<'_>, page: &PageSpec, options: &SelectOptions) -> Markup {
    html! {
        @for (i, action) in page.row_actions.iter().enumerate() {
            @match &action.kind {
                ActionKind::Form(form) => (modal_form(view, form, options)),
                ActionKind::Call { action: op, id_param, fixed, from_row, by_row, confirm } => {
                    (confirm_dialog(&confirm_id(page, i), confirm, CallTarget {
                        action: op,
                        id_param,
                        fixed,
                        from_row,
                        by_row: by_row.as_ref(),
                        batch: false,
                        config: page.whole_config.as_ref(),
                    }))
                }
                ActionKind::Details => {}
            }
        }
    }
}

fn create_buttons(view: &View<'_>, page: &PageSpec) -> Markup {
    html! {
        @for form in page.creates.iter().filter(|form| !page.opened_from_another_form(form)) {
            @if let Some(path) = form_page_path(page, form) {
                a class="btn btn-primary" href=(product_url(view, &nested_path(view, page, &path)))
                    data-ui-create=(form.trigger) { (form.trigger) }
            } @else {
                (modal_create_button(form))
            }
        }
    }
}

fn modal_create_button(form: &FormSpec) -> Markup {
    html! {
        button class="btn btn-primary" type="button" data-open=(form.id) data-ui-create=(form.trigger) { (form.trigger) }
    }
}

/// The create buttons of a list shown on a details tab of the resource `parent_id`: those whose
/// form opens in a dialog or panel, and links to those with a page of their own, which acts on
/// that resource (`parent=`).
fn tab_create_buttons(view: &View<'_>, page: &PageSpec, parent_id: &str) -> Markup {
    html! {
        @for form in page.creates.iter().filter(|form| !page.opened_from_another_form(form)) {
            @if let Some(path) = form_page_path(page, form) {
                a class="btn btn-primary" href=(format!("{}&parent={}", product_url(view, &path), encode(parent_id)))
                    data-ui-create=(form.trigger) { (form.trigger) }
            } @else {
                (modal_create_button(form))
            }
        }
    }
}

/// A list page: toolbar, search, table with Actions column, batch buttons, pagination, dialogs.
pub fn list_page(
    view: &View<'_>,
    page: &PageSpec,
    data: &ListData,
    query: &ListQuery,
    options: &SelectOptions,
) -> Markup {
    let selectable = !page.batch_actions.is_empty();
    let path = page_path(view, page);
    let list_url = format!("/console/{}/{}", view.product.code, path);
    let trail = page_trail(view, page);
    let trail: Vec<(&str, Option<String>)> = trail.iter().map(|(l, h)| (l.as_str(), h.clone())).collect();
    let main = html! {
        (breadcrumb(view, &trail))
        div class="page-header" { h1 { (page.title) } }
        @if page.in_frame {
            div class="frame-wrap" {
                iframe class="console-frame" title=(page.title)
                    src=(format!("/console/{}/frame/{}?region={}", view.product.code, page.id, view.region)) {}
            }
        } @else {
            @if let Some(section) = &page.section { (section_head(page, section)) }
            div id=(format!("list-{}", page.id)) hidden[page.section.as_ref().is_some_and(|s| s.unfold.is_some())] {
                @if !page.list_tabs.is_empty() { (list_tabs(view, page, &path, query.tab)) }
                @if let Some(filter) = &page.filter { (list_filter(filter, query, options)) }
                div class="toolbar" {
                    (create_buttons(view, page))
                    (search_box(view, page, query, &list_url))
                    a class="btn btn-icon refresh" href=(product_url(view, &path)) aria-label="Refresh" { "Refresh" }
                }
                @if page.folders.is_some() { (folder_trail(view, page, query)) }
                (table(view, page, data, selectable))
                div class="table-footer" {
                    div class="batch-bar" {
                        @for (i, batch) in page.batch_actions.iter().enumerate().filter(|(_, b)| b.menu.is_none()) {
                            button class="btn" type="button" disabled data-batch-button
                                data-open=(batch_layer(page, i, batch)) data-ui-batch=(batch.label) { (batch.label) }
                        }
                        @for menu in batch_menus(page) {
                            div class="hover-menu batch-menu" data-ui-batch=(menu) {
                                button class="btn more-trigger" type="button" disabled data-batch-button
                                    aria-haspopup="menu" aria-expanded="false" { (menu) span class="caret" {} }
                                div class="hover-menu-list" role="menu" aria-label=(menu) {
                                    @for (i, batch) in page.batch_actions.iter().enumerate().filter(|(_, b)| b.menu.as_deref() == Some(menu)) {
                                        a class="menu-item" role="menuitem" tabindex="0"
                                            data-open=(batch_layer(page, i, batch)) data-ui-batch=(batch.label) { (batch.label) }
                                    }
                                }
                            }
                        }
                    }
                    (pagination(view, page, data, query))
                }
            }
            @for form in modal_creates(page) {
                (modal_form(view, form, options))
            }
            (row_dialogs(view, page, options))
            @for (i, batch) in page.batch_actions.iter().enumerate() {
                @match &batch.kind {
                    BatchKind::Call { action, id_param, fixed, confirm } => {
                        (confirm_dialog(&batch_layer(page, i, batch), confirm, CallTarget {
                            action,
                            id_param,
                            fixed,
                            from_row: &[],
                            by_row: None,
                            batch: true,
                            config: None,
                        }))
                    }
                    BatchKind::Form(form) => (modal_form(view, form, options)),
                }
            }
        }
    };
    shell_with(view, page_nav(view, page), page.regional, &page.title, main)
}

/// The id of the dialog or panel a batch action opens.
fn batch_layer(page: &PageSpec, index: usize, batch: &BatchAction) -> String {
    match &batch.kind {
        BatchKind::Form(form) => form.id.clone(),
        BatchKind::Call { .. } => format!("batch-{}-{index}", page.id),
    }
}

/// The menus of the bar below the list, in the order their first actions come.
fn batch_menus(page: &PageSpec) -> Vec<&str> {
    let mut menus: Vec<&str> = Vec::new();
    for menu in page.batch_actions.iter().filter_map(|b| b.menu.as_deref()) {
        if !menus.contains(&menu) {
            menus.push(menu);
        }
    }
    menus
}

/// The tabs above a list: each a view of it, the first the one shown unless another is chosen.
fn list_tabs(view: &View<'_>, page: &PageSpec, path: &str, shown: usize) -> Markup {
    let shown = if shown < page.list_tabs.len() { shown } else { 0 };
    html! {
        div class="tabs list-tabs" role="tablist" {
            @for (i, tab) in page.list_tabs.iter().enumerate() {
                a class={"tab" @if i == shown { " active" }} role="tab" aria-selected=(i == shown)
                    href=(format!("{}&tab={i}", product_url(view, path))) data-ui-tab=(tab.label) { (tab.label) }
            }
        }
    }
}

/// The drop-down list that narrows the list: choosing an option reloads the list narrowed to it.
fn list_filter(filter: &ListFilter, query: &ListQuery, options: &SelectOptions) -> Markup {
    let choices = match filter.field.kind.options() {
        Some(OptionSource::Static(items)) => items.clone(),
        Some(OptionSource::Resources { product, page }) => {
            options.get(&format!("{product}/{page}")).cloned().unwrap_or_default()
        }
        _ => Vec::new(),
    };
    html! {
        div class="form-item list-filter" data-ui-field=(filter.field.label) data-list-filter {
            label class="form-label" { (filter.field.label) }
            div class="form-control" { (div_select("filter", &choices, &query.filter, "Select", "list-filter-select")) }
        }
    }
}

/// A settings section's heading and, for a folded list, the button that unfolds it.
fn section_head(page: &PageSpec, section: &Section) -> Markup {
    html! {
        div class="settings-section" data-ui-section=(section.heading) {
            h2 class="section-title" { (section.heading) }
            @if let Some(label) = &section.unfold {
                button class="btn" type="button" data-unfold=(format!("list-{}", page.id))
                    data-ui-unfold=(label) { (label) }
            }
        }
    }
}

/// Where a folder list is: the top and each folder down to the one shown, as links.
fn folder_trail(view: &View<'_>, page: &PageSpec, query: &ListQuery) -> Markup {
    let base = product_url(view, &page_path(view, page));
    let mut folders = Vec::new();
    let mut end = 0;
    while let Some(at) = query.dir[end..].find('/') {
        end += at + 1;
        folders.push((
            &query.dir[folders.last().map_or(0, |(_, e): &(&str, usize)| *e)..end],
            end,
        ));
    }
    html! {
        nav class="folder-trail" aria-label="Directory" {
            a class="link" href=(base) data-ui-folder="" { (view.parent_id) }
            @for (name, end) in &folders {
                span class="sep" { "/" }
                a class="link" href=(format!("{base}&dir={}", encode(&query.dir[..*end]))) { (name.trim_end_matches('/')) }
            }
        }
    }
}

/// The list shown inside an iframe (ActionTrail's Event Query): its own document, same widgets.
pub fn frame_page(view: &View<'_>, page: &PageSpec, data: &ListData, query: &ListQuery) -> Markup {
    let action = format!("/console/{}/frame/{}", view.product.code, page.id);
    document(
        &page.title,
        view,
        html! {
            div class="frame-body" {
                div class="toolbar" {
                    (search_box(view, page, query, &action))
                    a class="btn btn-icon refresh" href=(format!("{action}?region={}", view.region))
                        aria-label="Refresh" { "Refresh" }
                }
                (table(view, page, data, false))
                div class="table-footer" { div {} (pagination(view, page, data, query)) }
            }
        },
    )
}

/// A resource's details page: tabs, and an All Actions pane when the release puts actions there.
pub fn details_page(
    view: &View<'_>,
    page: &PageSpec,
    item: &Value,
    children: &[(PageSpec, ListData)],
    options: &SelectOptions,
) -> Markup {
    let id = display(lookup(item, &page.id_field));
    let name = display(lookup(item, &page.name_field));
    // Actions only the details page offers have buttons of their own in the upper-right corner;
    // the All Actions pane beside them lists every action on the resource, with a search box.
    let header_actions: Vec<(usize, &RowAction)> = page
        .row_actions
        .iter()
        .enumerate()
        .filter(|(_, a)| a.placement == Placement::AllActions)
        .collect();
    let all_actions: Vec<(usize, &RowAction)> = page
        .row_actions
        .iter()
        .enumerate()
        .filter(|(_, a)| !matches!(a.kind, ActionKind::Details))
        .collect();
    // Header actions grouped under a menu of their own (Index Attributes > Attributes).
    let mut header_menus: Vec<&str> = Vec::new();
    for (_, action) in &header_actions {
        if let Some(menu) = action.submenu.as_deref()
            && !header_menus.contains(&menu)
        {
            header_menus.push(menu);
        }
    }
    let list = product_url(view, &page_path(view, page));
    let mut trail = page_trail(view, page);
    if let Some(last) = trail.last_mut() {
        last.1 = Some(list.clone());
    }
    trail.push((id.clone(), None));
    let trail: Vec<(&str, Option<String>)> = trail.iter().map(|(l, h)| (l.as_str(), h.clone())).collect();
    let main = html! {
        (breadcrumb(view, &trail))
        div class="page-header" data-row-id=(id) data-row=(row_attrs_json(item)) {
            a class="back" href=(list) aria-label="Back" { "←" }
            h1 { (if name.is_empty() { &id } else { &name }) }
            @if let Some(title) = &page.details_title { h2 class="page-subtitle" { (title) } }
            @if !all_actions.is_empty() {
                div class="header-actions" {
                    @for (i, action) in header_actions.iter().filter(|(_, a)| a.submenu.is_none()) {
                        (action_control(view, page, *i, action, item, Look::Link))
                    }
                    @for menu in &header_menus {
                        div class="hover-menu header-menu" data-ui-action=(menu) {
                            button class="btn more-trigger" type="button" aria-haspopup="menu" aria-expanded="false" {
                                (menu) span class="caret" {}
                            }
                            div class="hover-menu-list" role="menu" aria-label=(menu) {
                                @for (i, action) in header_actions.iter().filter(|(_, a)| a.submenu.as_deref() == Some(*menu)) {
                                    (action_control(view, page, *i, action, item, Look::MenuItem))
                                }
                            }
                        }
                    }
                    div class="all-actions-menu" {
                        button class="btn all-actions-trigger" type="button" aria-haspopup="dialog"
                            aria-expanded="false" { "All Actions" }
                        div class="all-actions-pane" role="region" aria-label="All Actions" {
                            input class="input all-actions-search" type="search" placeholder="Search for an action"
                                aria-label="Search for an action" autocomplete="off";
                            div class="all-actions-list" {
                                @for (i, action) in &all_actions {
                                    (action_control(view, page, *i, action, item, Look::MenuItem))
                                }
                            }
                        }
                    }
                }
            }
        }
        @if let Some(Tab::Basic { label, fields }) = &page.summary {
            section class="details-summary" aria-label=(label) {
                (basic_card(view, page, item, &id, label, fields, true))
            }
        }
        (tabs(view, page, item, &id, children, &page.tabs, ""))
        (row_dialogs(view, page, options))
        @for (child, _) in children {
            (row_dialogs(view, child, options))
            @for form in modal_creates(child) {
                (modal_form(view, form, options))
            }
        }
    };
    let nav = if page.parent.is_some() {
        page_nav(view, page)
    } else if page.sub_nav.is_empty() {
        sidenav(view, &page.id)
    } else {
        resource_nav(view, page, &id, &page.id)
    };
    let title = page.details_title.as_deref().unwrap_or(&page.title);
    shell_with(view, nav, page.regional, &format!("{title} {id}"), main)
}

/// A card of the resource's label/value pairs; `with_actions`: the actions placed in `Section` sit
/// in its title.
fn basic_card(
    view: &View<'_>,
    page: &PageSpec,
    item: &Value,
    id: &str,
    label: &str,
    fields: &[(String, String)],
    with_actions: bool,
) -> Markup {
    html! {
        div class="card" {
            div class="card-title" {
                (label)
                @if with_actions {
                    div class="card-actions" data-row-id=(id) data-row=(row_attrs_json(item)) {
                        @for (a, action) in page.row_actions.iter().enumerate().filter(|(_, a)| a.placement == Placement::Section) {
                            (action_control(view, page, a, action, item, Look::Link))
                        }
                    }
                }
            }
            dl class="descriptions" {
                @for (label, path) in fields {
                    div class="desc-item" {
                        dt { (label) }
                        dd { (or_dash(detail_value(path, display(lookup(item, path))))) }
                    }
                }
            }
        }
    }
}

/// A details page's tabs and their panels; `prefix` is the key of the tab they are nested in
/// (`0.` for the tabs of the first tab), so that a click switches only tabs of its own level.
fn tabs(
    view: &View<'_>,
    page: &PageSpec,
    item: &Value,
    id: &str,
    children: &[(PageSpec, ListData)],
    tabs_here: &[Tab],
    prefix: &str,
) -> Markup {
    // Actions placed in the first section: buttons in the title of the first Basic tab's card,
    // unless the page shows its basic information above the tabs.
    let first_basic = tabs_here
        .iter()
        .position(|t| matches!(t, Tab::Basic { .. }))
        .filter(|_| page.summary.is_none());
    html! {
        div class={"tabs" @if !prefix.is_empty() { " sub-tabs" }} role="tablist" {
            @for (i, tab) in tabs_here.iter().enumerate() {
                button class={"tab" @if i == 0 { " active" }} type="button" role="tab"
                    data-tab=(format!("{prefix}{i}")) aria-selected=(i == 0) { (tab.label()) }
            }
        }
        @for (i, tab) in tabs_here.iter().enumerate() {
            div class="tab-panel" role="tabpanel" data-tab-panel=(format!("{prefix}{i}")) hidden[i > 0] {
                @match tab {
                    Tab::Basic { label, fields } => {
                        (basic_card(view, page, item, id, label, fields, prefix.is_empty() && Some(i) == first_basic))
                        @if let (true, Some(area)) = (prefix.is_empty() && i == 0, &page.status_area) {
                            // Its actions act on the resource, as the page header's do.
                            div class="card" role="region" aria-label=(area.heading) data-row-id=(id)
                                data-row=(row_attrs_json(item)) {
                                div class="card-title" { (area.heading) }
                                dl class="descriptions" {
                                    div class="desc-item" {
                                        dt { "Status" }
                                        dd { (or_dash(detail_value(&area.status_path, display(lookup(item, &area.status_path))))) }
                                    }
                                }
                                div class="card-actions" {
                                    @for (at, action) in page.row_actions.iter().enumerate().filter(|(_, a)| area.actions.contains(&a.label)) {
                                        @let look = if area.switches.contains(&action.label) { Look::Switch } else { Look::Link };
                                        (action_control(view, page, at, action, item, look))
                                    }
                                }
                            }
                        }
                    }
                    Tab::Children { page: child_id, .. } => {
                        @if let Some((child, data)) = children.iter().find(|(c, _)| &c.id == child_id) {
                            div class="card" {
                                div class="card-title" {
                                    (child.title)
                                    // The list's own buttons ("Add Listener" on the Listener tab).
                                    span class="card-actions" { (tab_create_buttons(view, child, id)) }
                                }
                                (table(view, child, data, false))
                            }
                        }
                    }
                    Tab::Group { tabs: inner, .. } => {
                        (tabs(view, page, item, id, children, inner, &format!("{prefix}{i}.")))
                    }
                }
            }
        }
    }
}

/// Where a create flow that has a page of its own lives, relative to the product: buy pages under
/// `buy/`, other pages under `create/`. `None` for flows in dialogs and drawers.
pub fn form_page_path(page: &PageSpec, form: &FormSpec) -> Option<String> {
    match form.container {
        Container::BuyPage => Some(format!("{}/buy/{}", page.id, form.id)),
        Container::Page => Some(format!("{}/create/{}", page.id, form.id)),
        _ => None,
    }
}

/// A path relative to `page` (`logstores/create/…`) as seen from the resource a nested page is
/// shown under (`projects/<project>/logstores/create/…`).
fn nested_path(view: &View<'_>, page: &PageSpec, path: &str) -> String {
    match &page.parent {
        Some(parent) => format!("{}/{}/{path}", parent.page, view.parent_id),
        None => path.to_owned(),
    }
}

/// Whether a page form's options depend on the region (zones, the region's resources) while it
/// has a Region field of its own: choosing another region there reloads the page in that region,
/// as the top navigation bar's region select does.
fn lists_by_region(form: &FormSpec) -> bool {
    let fields = || form.steps.iter().flat_map(|step| &step.fields);
    let has_region = fields().any(|f| matches!(f.kind, FieldKind::Select(OptionSource::Regions)));
    let regional = fields().any(|f| {
        matches!(
            f.kind.options(),
            Some(OptionSource::Zones | OptionSource::Resources { .. })
        )
    });
    has_region && regional
}

/// A create flow on a page of its own: a buy page (steps, fee, an order recorded as a console
/// operation) or a plain page of sections submitted to the API (Create VPC).
pub fn form_page(view: &View<'_>, page: &PageSpec, form: &FormSpec, options: &SelectOptions) -> Markup {
    let buy = form.container == Container::BuyPage;
    let stepped = stepped(form);
    let endpoint = if buy { "buy" } else { "api" };
    let (url, fixed, compose) = form_attrs(form, &format!("/console/{endpoint}/{}", view.product.code));
    let list = product_url(view, &page_path(view, page));
    let mut trail = page_trail(view, page);
    if let Some(last) = trail.last_mut() {
        last.1 = Some(list.clone());
    }
    trail.push((form.title.clone(), None));
    let trail: Vec<(&str, Option<String>)> = trail.iter().map(|(l, h)| (l.as_str(), h.clone())).collect();
    let fuller = form
        .fuller
        .as_ref()
        .and_then(|id| page.creates.iter().find(|other| &other.id == id))
        .and_then(|other| Some((other, form_page_path(page, other)?)));
    let main = html! {
        (breadcrumb(view, &trail))
        div class="page-header" {
            h1 { (form.title) }
            @if let Some((other, path)) = fuller {
                a class="btn" href=(product_url(view, &nested_path(view, page, &path))) data-ui-create=(other.trigger) {
                    (other.trigger)
                }
            }
        }
        form class="buy-form card" novalidate data-ui-form data-url=(url) data-fixed=(fixed) data-compose=[compose]
            data-id-param="" data-region-reloads[lists_by_region(form)]
            data-success=(form.success) data-done=(list) {
            (steps_markup(view, form, options))
            div class="buy-bar" {
                div class="price" {
                    @if buy { span { "Fee: " } strong { "Pay-as-you-go, billed by the hour" } }
                }
                div class="buy-actions" {
                    @if stepped {
                        button class="btn" type="button" data-step-prev hidden { "Previous" }
                        button class="btn btn-primary" type="button" data-step-next { "Next" }
                        button class="btn btn-primary btn-buy" type="submit" data-submit hidden { (form.submit) }
                    } @else if ends_in_dialog(form) {
                        // Opens the dialog of the last step, whose own button sends the form.
                        button class="btn btn-primary" type="submit" { (form.submit) }
                    } @else {
                        button class={"btn btn-primary" @if buy { " btn-buy" }} type="submit" data-submit {
                            (form.submit)
                        }
                    }
                    a class="btn" href=(list) { (form.cancel) }
                }
            }
        }
        (picked_panels(view, form, options))
    };
    shell_with(view, page_nav(view, page), page.regional, &form.title, main)
}

/// The page shown when the product's API is not served by this emulator.
pub fn unavailable_page(view: &View<'_>) -> Markup {
    let main = html! {
        (breadcrumb(view, &[]))
        div class="result result-warning" role="alert" {
            h1 { (view.product.name) " is unavailable" }
            p {
                "The " (view.product.name) " console cannot be used in this environment because the product's service "
                "is not available. Try again later or choose another product."
            }
            a class="btn btn-primary" href="/console" { "Back to Console home" }
        }
    };
    shell(view, "", false, &format!("{} unavailable", view.product.name), main)
}

/// The console home: every product with a link to its console.
pub fn home_page(profile: ProfileId, account_name: &str, account_id: &str, region: &str) -> Markup {
    let products = products(profile);
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { "Alibaba Cloud Console" }
                (console_config(account_id))
                link rel="stylesheet" href="/console/assets/console.css";
                script src="/console/assets/console.js" defer {}
            }
            body data-profile=(profile.as_str()) data-region=(region) {
                header class="topbar" {
                    a class="logo" href="/console" { span class="logo-mark" { "[-]" } " Alibaba Cloud" }
                    div class="topbar-right" {
                        span class="account" title=(account_id) { (account_name) }
                        form method="post" action="/logout" class="logout" { button type="submit"
                            class="link" { "Log Out" } }
                    }
                }
                main class="home" {
                    h1 { "Products and Services" }
                    div class="product-grid" {
                        @for p in products {
                            a class="product-card" href=(format!("/console/{}?region={region}", p.code)) { (p.name) }
                        }
                    }
                }
                div id="toasts" class="toasts" {}
            }
        }
    }
}

/// The logon page.
pub fn login_page(error: Option<&str>, login: &str, next: &str) -> Markup {
    let action = if next.is_empty() {
        "/login".to_owned()
    } else {
        format!(
            "/login?next={}",
            percent_encoding::utf8_percent_encode(next, percent_encoding::NON_ALPHANUMERIC)
        )
    };
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { "RAM User Logon - Alibaba Cloud" }
                link rel="stylesheet" href="/console/assets/console.css";
            }
            body class="login-body" {
                form class="login-card" method="post" action=(action) {
                    div class="logo login-logo" { span class="logo-mark" { "[-]" } " Alibaba Cloud" }
                    h1 { "RAM User Logon" }
                    @if let Some(error) = error { div class="alert alert-error" role="alert" { (error) } }
                    label class="form-label" for="login" { "Logon Name" }
                    input class="input" id="login" name="login" type="text" value=(login)
                        placeholder="username@company-alias.onaliyun.com" autocomplete="username";
                    label class="form-label" for="password" { "Password" }
                    input class="input" id="password" name="password" type="password" autocomplete="current-password";
                    button class="btn btn-primary btn-block" type="submit" { "Log On" }
                }
            }
        }
    }
}
