//! Grounding of navigation items, table rows and clickable controls, with their fallbacks.

use aca_core::{Element, GuiAction, PlaceKind, Role};

use super::alternative::{Alternative, place_path, scroll_alternative};
use super::ground::{
    CLICKABLE, Preference, evidence, in_place, is_more_trigger, labelled, list_is_empty, open_modal,
    page_is, renamed, row_of, same_place, search_box, search_term,
};
use super::{Effect, Intent, Move, ScriptedPolicy, intent};
use crate::label::{LabelMatch, is_confirm_label, is_more_label, mentions, normalise};
use crate::policy::{Context, FindingKind};

impl ScriptedPolicy {
    /// "In the Access Control List (ACL) section, click Configure" on a page without that section:
    /// the page of the navigation pane named like it (`ACL`) is where the section is.
    fn section_page_alternative(&self, ctx: &Context<'_>) -> Option<Alternative> {
        let step = self.step(ctx)?;
        let lower = step.text.to_lowercase();
        let obs = ctx.observation;
        step.labels
            .iter()
            .filter(|section| lower.contains(&format!("the {} section", section.to_lowercase())))
            .filter(|section| {
                !obs.elements
                    .iter()
                    .any(|e| e.role == Role::Heading && crate::label::same_name(section, &e.name))
            })
            .find_map(|section| {
                let names = section_names(section);
                let link = obs.elements.iter().find(|e| {
                    CLICKABLE.contains(&e.role)
                        && in_place(e, PlaceKind::Navigation)
                        && names
                            .iter()
                            .any(|n| crate::label::match_label(n, &e.name) == Some(LabelMatch::Exact))
                })?;
                Some(Alternative::path(
                    &format!("section page {section}"),
                    GuiAction::Click { index: link.index },
                    format!("open \"{}\", the page of the {section} section", link.name),
                ))
            })
    }

    pub(super) fn ground_navigate(&mut self, ctx: &Context<'_>, segments: &[String], at: usize) -> Move {
        let obs = ctx.observation;
        let Some(segment) = segments.get(at) else {
            return Move::Done(None);
        };
        let last = at + 1 == segments.len();
        let effect = if last { Effect::Complete } else { Effect::NextSegment };
        let in_nav = |label: &str, accept: &dyn Fn(LabelMatch) -> bool| -> Vec<&Element> {
            labelled(obs, label, CLICKABLE, accept)
                .into_iter()
                .filter(|e| in_place(e, PlaceKind::Navigation))
                .collect()
        };
        // A group and its item may share a name (`Files > Files`): a segment before the last is a
        // group (a control that folds), the last one an item.
        let mut candidates = in_nav(segment, &|m| m == LabelMatch::Exact);
        candidates.sort_by_key(|e| e.state.expanded.is_some() == last);
        if let Some(target) = candidates.first() {
            if !last && target.state.expanded == Some(true) {
                // An open group: clicking it again would close it.
                if let Some(Intent::Navigate { at, .. }) = self.intents.get_mut(self.intent) {
                    *at += 1;
                }
                return self.ground_navigate(ctx, segments, at + 1);
            }
            return Move::Act {
                action: GuiAction::Click { index: target.index },
                goal: format!("open \"{segment}\" in the navigation pane"),
                grounding: self.as_written(),
                effect,
                failed: None,
            };
        }
        // "On the Search & Analysis page, choose Index Attributes > Attributes": a path the step
        // does not put in the navigation pane is a menu of the page's own.
        let in_pane = self
            .step(ctx)
            .is_some_and(|s| s.text.to_lowercase().contains("navigation"));
        if !in_pane
            && let Some(target) = labelled(obs, segment, CLICKABLE, |m| m == LabelMatch::Exact)
                .into_iter()
                .find(|e| !in_place(e, PlaceKind::Navigation) && row_of(e).is_none())
        {
            return Move::Act {
                action: GuiAction::Click { index: target.index },
                goal: format!("choose \"{segment}\""),
                grounding: self.as_written(),
                effect,
                failed: None,
            };
        }
        // The documented group is nowhere, but its last item is in the pane: the item moved out of
        // the group (after one more look).
        if at + 2 == segments.len()
            && labelled(obs, segment, CLICKABLE, |m| m == LabelMatch::Exact).is_empty()
            && let Some(item) = in_nav(&segments[at + 1], &|m| m == LabelMatch::Exact).first()
            && group_header(obs, item).is_none()
        {
            let alternative = Alternative::finding(
                "moved out of the group",
                GuiAction::Click { index: item.index },
                format!(
                    "open \"{}\", which the navigation pane shows outside \"{segment}\"",
                    item.name
                ),
                Effect::Complete,
                FindingKind::Moved,
                &segments.join(" > "),
                &item.name,
                item,
            );
            return self.fallback(
                ctx,
                &format!("the navigation item \"{segment}\""),
                segment,
                vec![alternative],
            );
        }
        // The path's item sits in a group under another name: the group was renamed (judged with
        // the alternatives below, after one more look).
        let regrouped = segments.last().is_some_and(|final_label| {
            in_nav(final_label, &|m| m == LabelMatch::Exact)
                .first()
                .and_then(|item| group_header(obs, item))
                .is_some_and(|header| normalise(&header.name) != normalise(segment))
        });
        // A group that is already open, or a page already shown, needs no click.
        if let Some(later) = (at + 1..segments.len())
            .find(|i| !in_nav(&segments[*i], &|m| m == LabelMatch::Exact).is_empty())
            .filter(|_| !regrouped)
        {
            if let Some(Intent::Navigate { at, .. }) = self.intents.get_mut(self.intent) {
                *at = later;
            }
            return self.ground_navigate(ctx, segments, later);
        }
        if last && page_is(obs, segment) {
            return Move::Done(Some(format!("the {segment} page was already open")));
        }
        if let Some(entering) = self.enter_resource(ctx, segment) {
            return entering;
        }
        if let Some(probing) = self.probe_navigation(ctx, segments) {
            return probing;
        }
        let mut alternatives = Vec::new();
        if let Some(known) = self.learned_alternative(obs, segment, CLICKABLE, effect) {
            alternatives.push(known);
        }
        let exclude = Self::other_labels(ctx, segment);
        let nav: Vec<&Element> = obs
            .elements
            .iter()
            .filter(|e| CLICKABLE.contains(&e.role) && in_place(e, PlaceKind::Navigation))
            .collect();
        if !last {
            // A group the page names is not there under its name: the group that holds the path's
            // item (as written, or renamed) is the group renamed.
            let final_label = &segments[segments.len() - 1];
            let item = in_nav(final_label, &|m| m == LabelMatch::Exact)
                .first()
                .copied()
                .or_else(|| renamed(final_label, &nav, &Self::other_labels(ctx, final_label)));
            if let Some(header) = item.and_then(|item| group_header(obs, item))
                && normalise(&header.name) != normalise(segment)
            {
                let action = if header.state.expanded == Some(false) {
                    GuiAction::Click { index: header.index }
                } else {
                    GuiAction::Wait { ms: Some(100) }
                };
                alternatives.push(Alternative::finding(
                    "renamed group",
                    action,
                    format!("take \"{}\", the group that holds \"{final_label}\"", header.name),
                    Effect::NextSegment,
                    FindingKind::Renamed,
                    segment,
                    &header.name,
                    header,
                ));
            }
        }
        if let Some(other) = renamed(segment, &nav, &exclude) {
            alternatives.push(Alternative::finding(
                "renamed",
                GuiAction::Click { index: other.index },
                format!(
                    "open \"{}\", the navigation item that reads like \"{segment}\"",
                    other.name
                ),
                effect,
                FindingKind::Renamed,
                segment,
                &other.name,
                other,
            ));
        }
        if let Some(elsewhere) = labelled(obs, segment, CLICKABLE, |m| m == LabelMatch::Exact).first() {
            alternatives.push(Alternative::finding(
                "elsewhere",
                GuiAction::Click { index: elsewhere.index },
                format!("open \"{segment}\" outside the navigation pane"),
                effect,
                FindingKind::Moved,
                &format!("navigation pane > {}", segments.join(" > ")),
                &place_path(elsewhere),
                elsewhere,
            ));
        }
        for group in nav.iter().filter(|e| e.state.expanded == Some(false)) {
            alternatives.push(Alternative::path(
                &format!("expand {}", group.index),
                GuiAction::Click { index: group.index },
                format!("expand the navigation group \"{}\"", group.name),
            ));
        }
        alternatives.extend(scroll_alternative(obs, segment));
        self.fallback(
            ctx,
            &format!("the navigation item \"{segment}\""),
            segment,
            alternatives,
        )
    }

    /// "Choose Log Storage > Logstores" on the list of projects: a path the step does not put in
    /// the console's navigation pane, shown nowhere on a list that holds the task's resource, is the
    /// pane of that resource's own page (the project that holds the Logstore), where the page
    /// leaves its reader. The resource is opened from its row, once, and that is no finding: the
    /// path is then looked for there as written.
    fn enter_resource(&mut self, ctx: &Context<'_>, segment: &str) -> Option<Move> {
        let obs = ctx.observation;
        let step = self.step(ctx)?;
        let entered = self.tried.iter().any(|t| t == "enter resource");
        if entered
            || step.text.to_lowercase().contains("navigation")
            || open_modal(obs).is_some()
            || !labelled(obs, segment, CLICKABLE, |m| m != LabelMatch::Overlap).is_empty()
        {
            return None;
        }
        if list_is_empty(obs) {
            return Some(self.empty_list(ctx));
        }
        if ctx.task.resource_report.is_none() && !self.asked_resource {
            return Some(Move::Provision(self.resource_description(ctx)));
        }
        let names = Self::resource_names(ctx);
        let link = obs.elements.iter().find(|e| {
            e.role == Role::Link
                && row_of(e).is_some()
                && names.iter().any(|n| normalise(&e.name) == normalise(n))
        })?;
        self.tried.push("enter resource".into());
        Some(Move::Act {
            action: GuiAction::Click { index: link.index },
            goal: format!(
                "open \"{}\", whose own page holds \"{segment}\" (the page leaves its reader inside it)",
                link.name
            ),
            grounding: None,
            effect: Effect::Nothing,
            failed: None,
        })
    }

    /// The rows a step acts on: the one it names ("find the **default** whitelist") or one the
    /// procedure itself created (the domain name an earlier step typed) when the list shows exactly
    /// one row so named, else the task's resources'.
    fn row_names(&self, ctx: &Context<'_>) -> Vec<String> {
        let rows: Vec<&str> = ctx
            .observation
            .elements
            .iter()
            .filter_map(row_of)
            .map(|r| r.name.as_str())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let named: Vec<String> = self
            .step(ctx)
            .map(|step| step.mentions)
            .unwrap_or_default()
            .into_iter()
            .chain(self.typed.iter().cloned())
            .filter(|m| rows.iter().filter(|r| mentions(r, m)).count() == 1)
            .collect();
        if !named.is_empty() {
            return named;
        }
        // A row named in lower case and not marked: "Find the default whitelist".
        let by_word: Vec<String> = self
            .step(ctx)
            .map(|step| find_clause(&step.text))
            .unwrap_or_default()
            .into_iter()
            .filter(|word| rows.iter().filter(|r| r.eq_ignore_ascii_case(word)).count() == 1)
            .collect();
        if by_word.is_empty() {
            Self::resource_names(ctx)
        } else {
            by_word
        }
    }

    /// Whether the rows looked for are what the procedure made itself (a name it typed).
    fn made_here(&self, names: &[String]) -> bool {
        self.typed.iter().any(|t| names.contains(t))
    }

    pub(super) fn ground_row(&mut self, ctx: &Context<'_>) -> Move {
        let obs = ctx.observation;
        let names = self.row_names(ctx);
        let rows: Vec<&Element> = obs.elements.iter().filter(|e| row_of(e).is_some()).collect();
        let ours = rows
            .iter()
            .any(|e| row_of(e).is_some_and(|r| names.iter().any(|n| mentions(&r.name, n))));
        // Without a resource report nothing says which row is the task's, unless the procedure
        // made it: ask for the resource.
        if ctx.task.resource_report.is_none() && !self.asked_resource && !(ours && self.made_here(&names)) {
            return Move::Provision(self.resource_description(ctx));
        }
        if ours || (names.is_empty() && !rows.is_empty()) {
            return Move::Done(None);
        }
        if list_is_empty(obs) {
            // An empty list on one tab of a page whose tabs split the list (the Renewal page's
            // Manual and Auto): the row may be on another tab before the resource is missing.
            let tabs = other_tabs(obs, "the resource's row");
            if tabs.iter().any(|tab| !self.tried.contains(&tab.key)) {
                return match self.fallback(ctx, "the resource's row", "", tabs) {
                    Move::GiveUp { .. } => self.empty_list(ctx),
                    other => other,
                };
            }
            return self.empty_list(ctx);
        }
        // "Method 2" starts where Method 1 left the account: the resource it revoked or deleted is
        // missing again, the environment's doing. Asked for once.
        if self.asked_in_step != Some(self.step) && in_later_method(ctx, self.step) {
            self.asked_in_step = Some(self.step);
            self.asked_resource = true;
            // The page is loaded again once it exists: the step starts over (its tab opened again).
            self.redo_step_when_provided = true;
            return Move::Provision(self.resource_description(ctx));
        }
        let mut alternatives = Vec::new();
        // An object inside a directory (`reports/q3.txt` under `reports/`): open the directory.
        let directory = rows.iter().find(|e| {
            CLICKABLE.contains(&e.role)
                && e.name.ends_with('/')
                && names
                    .iter()
                    .any(|n| n.len() > e.name.len() && n.starts_with(e.name.as_str()))
        });
        if let Some(directory) = directory {
            alternatives.push(Alternative::path(
                "open directory",
                GuiAction::Click { index: directory.index },
                format!("open the directory \"{}\" that holds the resource", directory.name),
            ));
        }
        if let Some(search) = search_box(obs)
            && let Some(name) = search_term(obs, search, &names)
        {
            alternatives.push(Alternative::path(
                "search",
                GuiAction::Type {
                    index: search.index,
                    text: name.clone(),
                    submit: true,
                },
                format!("search for \"{name}\""),
            ));
        }
        if let Some(name) = names.first() {
            alternatives.extend(scroll_alternative(obs, name));
        }
        // The list on a tab the page does not open (a group's members on Group Members): the rows
        // moved there.
        alternatives.extend(other_tabs(obs, "the resource's row"));
        match self.fallback(ctx, "the resource's row", "", alternatives) {
            // A resource that is not listed is the environment's problem, not the page's.
            Move::GiveUp { reason, .. } => Move::GiveUp { reason, finding: None },
            other => other,
        }
    }

    /// Opens the task's resource from its row: its row first (searched for, or asked for when the
    /// list is empty), then the link in it that names the resource.
    pub(super) fn ground_open_row(&mut self, ctx: &Context<'_>) -> Move {
        match self.ground_row(ctx) {
            Move::Done(_) => {}
            other => return other,
        }
        let names = self.row_names(ctx);
        let ours = |e: &&Element| {
            e.role == Role::Link
                && row_of(e).is_some_and(|r| names.is_empty() || names.iter().any(|n| mentions(&r.name, n)))
        };
        let links: Vec<&Element> = ctx.observation.elements.iter().filter(ours).collect();
        // The names come newest first: a resource provided for this run is preferred to one it
        // had before.
        let link = names
            .iter()
            .find_map(|n| links.iter().find(|e| mentions(&e.name, n)))
            .or(links.first());
        if link.is_some() {
            self.list_page = Some(ctx.observation.url.clone());
        }
        match link {
            Some(link) => Move::Act {
                action: GuiAction::Click { index: link.index },
                goal: format!("open \"{}\" from its row", link.name),
                grounding: self.as_written(),
                effect: Effect::Complete,
                failed: None,
            },
            None => Move::GiveUp {
                reason: "the resource's row has no link that opens it".into(),
                finding: None,
            },
        }
    }

    /// Ticks the check boxes of the rows of the task's resources, one per action, until all are.
    pub(super) fn ground_select_rows(&mut self, ctx: &Context<'_>) -> Move {
        let obs = ctx.observation;
        if ctx.task.resource_report.is_none() && !self.asked_resource {
            return Move::Provision(self.resource_description(ctx));
        }
        let names = Self::resource_names(ctx);
        let boxes: Vec<&Element> = obs
            .elements
            .iter()
            .filter(|e| e.role == Role::Checkbox && !e.state.disabled)
            .filter(|e| row_of(e).is_some_and(|r| names.is_empty() || names.iter().any(|n| mentions(&r.name, n))))
            .collect();
        if let Some(unticked) = boxes.iter().find(|e| e.state.checked != Some(true)) {
            return Move::Act {
                action: GuiAction::Click { index: unticked.index },
                goal: format!(
                    "select the row \"{}\"",
                    row_of(unticked).map_or("", |r| r.name.as_str())
                ),
                grounding: self.as_written(),
                effect: Effect::Nothing,
                failed: None,
            };
        }
        if !boxes.is_empty() {
            return Move::Done(None);
        }
        let mut alternatives = Vec::new();
        if let Some(search) = search_box(obs)
            && let Some(name) = search_term(obs, search, &names)
        {
            alternatives.push(Alternative::path(
                "search",
                GuiAction::Type {
                    index: search.index,
                    text: name.clone(),
                    submit: true,
                },
                format!("search for \"{name}\""),
            ));
        }
        match self.fallback(ctx, "the check boxes of the resources' rows", "", alternatives) {
            // Resources that are not listed are the environment's problem, not the page's.
            Move::GiveUp { reason, .. } => Move::GiveUp { reason, finding: None },
            other => other,
        }
    }

    /// "On the VPCs page": the page is shown when its title or a heading says so; a heading that
    /// reads like the name is the page under another name; a page the navigation pane offers is
    /// opened. A page that shows no name like it is left for the step's own targets to judge.
    pub(super) fn ground_on_page(&mut self, ctx: &Context<'_>, name: &str) -> Move {
        let obs = ctx.observation;
        if let Some(switch) = self.open_named_variant(ctx, name) {
            return switch;
        }
        // A top-bar menu's item that could not be clicked (a reload closed the menu under it), or
        // whose click a reload overtook: looked for again.
        if self.tried.iter().any(|key| key == "open page from a top menu")
            && matches!(
                ctx.last_outcome(),
                Some(aca_core::ActionOutcome::NotActionable { .. } | aca_core::ActionOutcome::Navigated { .. })
            )
        {
            self.tried.retain(|key| !key.starts_with("open page") && !key.starts_with("top menu "));
        }
        let text = self.step(ctx).map(|s| s.text.to_lowercase()).unwrap_or_default();
        let goes_there = intent::sends_to_page(&text, name, false).is_some();
        let buys = intent::sends_to_page(&text, &format!("{name} buy"), false).is_some();
        // A buy page is one that ends with an order, or is headed by the product it buys ("CLB
        // (Pay-As-You-Go)").
        let on_buy_page = obs.elements.iter().any(|e| {
            (e.role == Role::Button
                && ["buy now", "confirm order", "create order"].contains(&normalise(&e.name).as_str()))
                || (e.role == Role::Heading && normalise(&e.name).starts_with(&format!("{} ", normalise(name))))
        });
        if (if buys { on_buy_page } else { page_is(obs, name) }) || open_modal(obs).is_some() {
            return Move::Done(None);
        }
        // "On the user details page": a resource's own page, headed by the resource's name and
        // showing its tabs, whatever the resource is called.
        let describes_details = normalise(name).split_whitespace().last() == Some("details");
        if describes_details && obs.elements.iter().any(|e| e.role == Role::Tab) {
            return Move::Done(None);
        }
        if !self.tried.iter().any(|t| t == "open page") {
            // "Go to the Create VPC page": where the step goes, a control named like the page
            // (the list's Create VPC button) opens it; a step that only starts on a page ("On the
            // Users page, …") takes the navigation pane's link alone.
            let mut links = if buys {
                Vec::new()
            } else {
                labelled(obs, name, CLICKABLE, |m| m == LabelMatch::Exact)
            };
            // "Go to the CLB buy page": the list's own button that buys one (Create CLB, Buy Now).
            if buys {
                let buttons: Vec<&Element> = obs
                    .elements
                    .iter()
                    .filter(|e| CLICKABLE.contains(&e.role) && row_of(e).is_none())
                    .filter(|e| !in_place(e, PlaceKind::TopBar) && !in_place(e, PlaceKind::Navigation))
                    .filter(|e| {
                        let label = normalise(&e.name);
                        label.starts_with("create ") || label.starts_with("buy ")
                    })
                    .collect();
                if buttons.len() == 1 {
                    links = buttons;
                }
            }
            // A page of another console, in a menu of the top bar opened to look for it (Billing >
            // Renewals for the Renewal page): its item names the page, or the page's plural.
            links.extend(top_menu_items(obs, name));
            let link = links
                .iter()
                .find(|e| in_place(e, PlaceKind::Navigation) || top_menu_item(e))
                .or_else(|| {
                    links
                        .iter()
                        .find(|e| (goes_there || buys) && row_of(e).is_none() && !in_place(e, PlaceKind::TopBar))
                })
                .copied();
            if let Some(link) = link {
                self.tried.push("open page".into());
                if top_menu_item(link) {
                    self.tried.push("open page from a top menu".into());
                }
                return Move::Act {
                    action: GuiAction::Click { index: link.index },
                    goal: format!("open the {name} page, where the step starts"),
                    grounding: None,
                    effect: Effect::Nothing,
                    failed: None,
                };
            }
        }
        let headings: Vec<&Element> = obs
            .elements
            .iter()
            .filter(|e| e.role == Role::Heading && !in_place(e, PlaceKind::Navigation))
            .collect();
        let mut alternatives = Vec::new();
        if let Some(known) = self.learned_alternative(obs, name, &[Role::Heading], Effect::Complete) {
            alternatives.push(Alternative {
                action: GuiAction::Wait { ms: Some(100) },
                ..known
            });
        }
        // The page may belong to another console, which a menu of the top bar opens: each closed
        // menu is looked into once, and again where the page loaded anew since (a reload closes it).
        if matches!(ctx.last_outcome(), Some(aca_core::ActionOutcome::Navigated { .. })) {
            self.tried.retain(|key| !key.starts_with("top menu "));
        }
        alternatives.extend(closed_top_menus(obs).map(|menu| {
            Alternative::path(
                &format!("top menu {}", menu.name),
                GuiAction::Click { index: menu.index },
                format!("look for the {name} page in the top bar's \"{}\" menu", menu.name),
            )
        }));
        if let Some(heading) = renamed(name, &headings, &Self::other_labels(ctx, name)) {
            alternatives.push(Alternative::finding(
                "renamed page",
                GuiAction::Wait { ms: Some(100) },
                format!("take \"{}\", the page that reads like \"{name}\"", heading.name),
                Effect::Complete,
                FindingKind::Renamed,
                name,
                &heading.name,
                heading,
            ));
        }
        match self.fallback(ctx, &format!("the {name} page"), name, alternatives) {
            Move::GiveUp { .. } => {
                // The page shown instead, by its heading or its title's first part, for the writer
                // to compare with the name the documentation uses.
                let shown = headings
                    .first()
                    .map(|h| h.name.as_str())
                    .or_else(|| obs.title.split(" - ").next())
                    .filter(|shown| !shown.trim().is_empty());
                Move::Done(Some(match shown {
                    Some(shown) => format!("no page title reads like \"{name}\"; the page shown is \"{shown}\""),
                    None => format!("no page title reads like \"{name}\""),
                }))
            }
            other => other,
        }
    }

    /// "On the DNS Settings tab": selects the tab when another one is shown; a tab that reads like
    /// the name is the tab under another name. A page without such a tab is left for the step's own
    /// targets to judge.
    pub(super) fn ground_on_tab(&mut self, ctx: &Context<'_>, name: &str) -> Move {
        let obs = ctx.observation;
        let tabs: Vec<&Element> = obs.elements.iter().filter(|e| e.role == Role::Tab).collect();
        if let Some(tab) = tabs
            .iter()
            .find(|t| crate::label::match_label(name, &t.name) == Some(LabelMatch::Exact))
        {
            if tab.state.selected {
                return Move::Done(None);
            }
            return Move::Act {
                action: GuiAction::Click { index: tab.index },
                goal: format!("open the \"{name}\" tab"),
                grounding: self.as_written(),
                effect: Effect::Complete,
                failed: None,
            };
        }
        // "click the Files tab" where the console lists Files in its navigation pane: the same page.
        let item = labelled(obs, name, CLICKABLE, |m| m == LabelMatch::Exact)
            .into_iter()
            .filter(|e| in_place(e, PlaceKind::Navigation))
            .min_by_key(|e| e.state.expanded.is_some());
        if let Some(item) = item.filter(|_| !page_is(obs, name)) {
            return Move::Act {
                action: GuiAction::Click { index: item.index },
                goal: format!("open \"{name}\", which the navigation pane lists where the page says tab"),
                grounding: self.as_written(),
                effect: Effect::Complete,
                failed: None,
            };
        }
        if item.is_some() {
            return Move::Done(None);
        }
        if tabs.is_empty() {
            let reason = format!("the page has no tabs; \"{name}\" is taken to be the page shown");
            // A step that only opens the tab acted on nothing: not verified. With more to do, the
            // step goes on on the page shown.
            return if self.intents.len() == 1 {
                Move::Unverified(reason)
            } else {
                Move::Done(Some(reason))
            };
        }
        let mut alternatives = Vec::new();
        if let Some(other) = renamed(name, &tabs, &Self::other_labels(ctx, name)) {
            alternatives.push(Alternative::finding(
                "renamed tab",
                GuiAction::Click { index: other.index },
                format!("open \"{}\", the tab that reads like \"{name}\"", other.name),
                Effect::Complete,
                FindingKind::Renamed,
                name,
                &other.name,
                other,
            ));
        }
        self.fallback(ctx, &format!("the tab \"{name}\""), name, alternatives)
    }

    /// "In the Grant Permission panel": the open dialog box or drawer should carry that title; one
    /// under another title is the container renamed. No open one is left for the step's targets to
    /// judge (the step may open it).
    pub(super) fn ground_in_modal(&mut self, ctx: &Context<'_>, name: &str) -> Move {
        let obs = ctx.observation;
        let Some(modal) = open_modal(obs) else {
            return self.open_named_variant(ctx, name).unwrap_or(Move::Done(None));
        };
        let title = modal.name.clone();
        if title.trim().is_empty() || crate::label::match_label(name, &title) == Some(LabelMatch::Exact) {
            return Move::Done(None);
        }
        let heading = obs
            .elements
            .iter()
            .find(|e| e.role == Role::DialogTitle && normalise(&e.name) == normalise(&title))
            .or_else(|| obs.elements.iter().find(|e| super::ground::modal_of(e) == Some(modal)));
        let Some(heading) = heading else {
            return Move::Done(None);
        };
        let alternative = Alternative::finding(
            "renamed container",
            GuiAction::Wait { ms: Some(100) },
            format!("go on in \"{title}\", the open container the page calls \"{name}\""),
            Effect::Complete,
            FindingKind::Renamed,
            name,
            &title,
            heading,
        );
        self.fallback(
            ctx,
            &format!("the \"{name}\" dialog box or panel"),
            name,
            vec![alternative],
        )
    }

    /// "In the Create Trail panel" on the Quickly Create Trail page: the open page is a variant of
    /// the one the step names (its heading holds that name), and its own control of that name (at
    /// the top of the page, outside rows and menus) opens the named one: it is clicked, once.
    fn open_named_variant(&mut self, ctx: &Context<'_>, name: &str) -> Option<Move> {
        const KEY: &str = "open the named variant";
        let obs = ctx.observation;
        if open_modal(obs).is_some() || self.tried.iter().any(|t| t == KEY) {
            return None;
        }
        let wanted = normalise(name);
        let on_variant = obs.elements.iter().any(|e| {
            let heading = normalise(&e.name);
            e.role == Role::Heading
                && !in_place(e, PlaceKind::Navigation)
                && heading != wanted
                && format!(" {heading} ").contains(&format!(" {wanted} "))
        });
        if !on_variant {
            return None;
        }
        let mut switches = labelled(obs, name, CLICKABLE, |m| m == LabelMatch::Exact)
            .into_iter()
            .filter(|e| row_of(e).is_none() && !in_place(e, PlaceKind::Navigation) && !in_place(e, PlaceKind::TopBar));
        let switch = switches.next()?;
        if switches.next().is_some() {
            return None;
        }
        self.tried.push(KEY.into());
        Some(Move::Act {
            action: GuiAction::Click { index: switch.index },
            goal: format!("open the {name} page from the page it is a variant of"),
            grounding: None,
            effect: Effect::Nothing,
            failed: None,
        })
    }

    /// "In the Backend Servers step": the wizard's current step (its named wizard-step place) must
    /// be that one; another step there means the wizard's steps moved. A wizard that names no step
    /// is left for the step's own targets to judge.
    pub(super) fn ground_in_wizard_step(&mut self, ctx: &Context<'_>, name: &str) -> Move {
        let obs = ctx.observation;
        let shown: Vec<(&aca_core::Place, &Element)> = obs
            .elements
            .iter()
            .filter_map(|e| {
                e.places
                    .iter()
                    .find(|p| p.kind == PlaceKind::WizardStep && !p.name.trim().is_empty())
                    .map(|p| (p, e))
            })
            .collect();
        let step_name = |place: &aca_core::Place| {
            place
                .name
                .trim_start_matches(|c: char| c.is_ascii_digit() || c.is_whitespace() || c == '.')
                .to_owned()
        };
        if shown.is_empty()
            || shown
                .iter()
                .any(|(p, _)| crate::label::match_label(name, &step_name(p)) == Some(LabelMatch::Exact))
        {
            return Move::Done(None);
        }
        let (place, element) = shown[0];
        let current = step_name(place);
        let alternative = Alternative::finding(
            "another wizard step",
            GuiAction::Wait { ms: Some(100) },
            format!("go on in the \"{current}\" step the wizard shows instead of \"{name}\""),
            Effect::Complete,
            FindingKind::Moved,
            name,
            &current,
            element,
        );
        self.fallback(ctx, &format!("the wizard step \"{name}\""), name, vec![alternative])
    }

    /// The step acts on a row of a list that has none: the account lacks the resource, which is the
    /// environment's problem, never the page's. Asked for once per step; still empty after, the
    /// step gives up without a finding.
    fn empty_list(&mut self, ctx: &Context<'_>) -> Move {
        if self.asked_in_step != Some(self.step) {
            self.asked_in_step = Some(self.step);
            self.asked_resource = true;
            self.redo_step_when_provided = true;
            return Move::Provision(self.resource_description(ctx));
        }
        Move::GiveUp {
            reason: format!(
                "the list on \"{}\" is empty even after the resource the step acts on was asked for",
                ctx.observation.title
            ),
            finding: None,
        }
    }

    pub(super) fn resource_description(&self, ctx: &Context<'_>) -> String {
        let step = self.step(ctx).unwrap_or_default();
        let mut description = format!("Step {} acts on an existing resource: {}", step.number, step.text);
        if !ctx.task.procedure.prerequisites.is_empty() {
            description.push_str(" Prerequisites: ");
            description.push_str(&ctx.task.procedure.prerequisites.join(" "));
        }
        description
    }

    pub(super) fn ground_click(
        &mut self,
        ctx: &Context<'_>,
        label: &str,
        row: bool,
        confirm: bool,
        batch: bool,
    ) -> Move {
        let obs = ctx.observation;
        let step = self.step(ctx).unwrap_or_default();
        let names = self.row_names(ctx);
        if row && ctx.task.resource_report.is_none() && !self.asked_resource && !self.made_here(&names) {
            return Move::Provision(self.resource_description(ctx));
        }
        if row && open_modal(obs).is_none() && list_is_empty(obs) {
            return self.empty_list(ctx);
        }
        let container = step
            .container
            .as_ref()
            .filter(|c| c.kind != aca_core::ContainerKind::Page)
            .map(|c| c.name.clone());
        let preference = Preference {
            container: container.as_deref(),
            sections: &[],
            avoid: &[],
            rows: &names,
            want_row: row,
        };
        if let Some(page) = step
            .container
            .as_ref()
            .filter(|c| c.kind == aca_core::ContainerKind::Page)
            && !page_is(obs, &page.name)
            && open_modal(obs).is_none()
            && !self.tried.iter().any(|t| t == "open page")
        {
            // "On the X page": go there first when the navigation pane offers it.
            let link = labelled(obs, &page.name, CLICKABLE, |m| m == LabelMatch::Exact)
                .into_iter()
                .find(|e| in_place(e, PlaceKind::Navigation));
            if let Some(link) = link {
                self.tried.push("open page".into());
                return Move::Act {
                    action: GuiAction::Click { index: link.index },
                    goal: format!("open the {} page, where the step starts", page.name),
                    grounding: None,
                    effect: Effect::Nothing,
                    failed: None,
                };
            }
        }
        let exact = labelled(obs, label, CLICKABLE, |m| m == LabelMatch::Exact);
        // A list nested under the resource (a bucket's ACL, its objects) has rows of its own, none
        // of them named like the resource: there the step means the list's row, not the resource's.
        let names_a_row = obs
            .elements
            .iter()
            .filter_map(row_of)
            .any(|r| names.iter().any(|n| mentions(&r.name, n)));
        let ours = |r: &aca_core::Place| names.is_empty() || !names_a_row || names.iter().any(|n| mentions(&r.name, n));
        // Gone to the resource's details page to look for a row action there: its controls are
        // the resource's own.
        let on_details =
            self.tried.iter().any(|t| t == "details page") && !obs.elements.iter().any(|e| row_of(e).is_some());
        let in_its_place = |mut candidates: Vec<_>| {
            if row {
                // The row's own controls, or a menu one of them opened (rendered in the row or a portal).
                candidates.retain(|e: &&Element| match row_of(e) {
                    Some(r) => ours(r),
                    None => in_place(e, PlaceKind::Menu) || (on_details && !in_place(e, PlaceKind::Navigation)),
                });
            }
            if batch {
                // A button for the selected rows is never one row's own.
                candidates.retain(|e| row_of(e).is_none());
            }
            candidates
        };
        let mut exact = in_its_place(exact);
        if exact.is_empty() && is_more_label(label) {
            // "choose ⋯ > Instance Status": the icon is the overflow menu's trigger, whatever the
            // console calls it (the "⋯" below the list, for the ticked rows, is not a row's).
            exact = in_its_place(
                obs.elements
                    .iter()
                    .filter(|e| CLICKABLE.contains(&e.role) && is_more_trigger(e))
                    .collect(),
            );
            // An icon whose name the page cannot give ("choose ![…] > Delete"): the row's one menu
            // trigger, whatever the console calls it ("Modify a Logstore").
            let triggers = in_its_place(
                obs.elements
                    .iter()
                    .filter(|e| CLICKABLE.contains(&e.role) && e.state.expanded.is_some() && row_of(e).is_some())
                    .collect(),
            );
            if exact.is_empty() && row && triggers.len() == 1 {
                exact = triggers;
            }
        }
        preference.sort(obs, &mut exact);
        // "choose More > X": X belongs in the menu the previous segment opened. Found only in the
        // row itself, it moved out of the menu (after one more look).
        let after_more = row
            && self.intent > 0
            && matches!(self.intents.get(self.intent - 1), Some(Intent::Click { row: true, .. }));
        if after_more && !exact.is_empty() && !exact.iter().any(|e| in_place(e, PlaceKind::Menu)) {
            let direct = exact[0];
            let more = match self.intents.get(self.intent - 1) {
                Some(Intent::Click { label, .. }) => label.clone(),
                _ => String::new(),
            };
            let alternative = Alternative::finding(
                "outside the menu",
                GuiAction::Click { index: direct.index },
                format!("click \"{label}\", which the row shows outside the \"{more}\" menu"),
                if confirm {
                    Effect::ConfirmClicked
                } else {
                    Effect::Complete
                },
                FindingKind::Moved,
                &format!("{more} > {label}"),
                &format!("{label} (in the Actions column)"),
                direct,
            );
            return self.fallback(
                ctx,
                &format!("\"{label}\" in the \"{more}\" menu"),
                label,
                vec![alternative],
            );
        }
        if let Some(target) = exact.iter().find(|e| !e.state.disabled).or(exact.first()) {
            if confirm && let Some(prefill) = self.prefill_documented(ctx, target) {
                return prefill;
            }
            if let Some(row) = row_of(target) {
                // A row's control may lead to the resource's own page: the list stays one step back.
                self.list_page = Some(obs.url.clone());
                self.acted_row = Some(row.name.clone());
            }
            return Move::Act {
                action: GuiAction::Click { index: target.index },
                goal: format!("click \"{label}\""),
                grounding: self.as_written(),
                effect: if confirm {
                    Effect::ConfirmClicked
                } else {
                    Effect::Complete
                },
                failed: None,
            };
        }
        // "Tag: Click the edit icon and enter a tag key": the label is a field's, not a button's;
        // the field is given a value where the page requires one.
        if !row
            && !confirm
            && !labelled(obs, label, &[Role::Textbox, Role::Combobox], |m| m == LabelMatch::Exact).is_empty()
        {
            return self.ground_set_if_required(ctx, label);
        }
        let our_row = if row {
            obs.elements
                .iter()
                .filter_map(row_of)
                .find(|r| ours(r))
                .map(|r| r.name.clone())
        } else {
            None
        };
        let place = same_place(obs, CLICKABLE, our_row.as_deref());
        let exclude = Self::other_labels(ctx, label);
        let effect = if confirm {
            Effect::ConfirmClicked
        } else {
            Effect::Complete
        };
        let mut alternatives = Vec::new();
        if let Some(known) = self.learned_alternative(obs, label, CLICKABLE, effect) {
            alternatives.push(known);
        }
        alternatives.extend(self.section_page_alternative(ctx));
        if row && is_more_label(label) {
            // "choose More > Delete", and Delete sits in the row itself: the item moved out of the
            // menu. The path's later segments are tried from its end (the item itself first).
            let path: Vec<&str> = self.intents[self.intent + 1..]
                .iter()
                .map_while(|i| match i {
                    Intent::Click { label, row: true, .. } => Some(label.as_str()),
                    _ => None,
                })
                .collect();
            let direct = path.iter().enumerate().rev().find_map(|(at, item)| {
                place
                    .iter()
                    .find(|e| {
                        e.role != Role::Menuitem && crate::label::match_label(item, &e.name) == Some(LabelMatch::Exact)
                    })
                    .map(|e| (at, *item, *e))
            });
            if let Some((at, item, direct)) = direct {
                let documented: Vec<&str> = std::iter::once(label).chain(path[..=at].iter().copied()).collect();
                alternatives.push(Alternative::finding(
                    "moved out of the menu",
                    GuiAction::Click { index: direct.index },
                    format!("click \"{item}\", which the row shows outside the \"{label}\" menu"),
                    Effect::CompleteWithNext(at + 1),
                    FindingKind::Moved,
                    &documented.join(" > "),
                    &format!("{item} (in the Actions column)"),
                    direct,
                ));
            }
        }
        if let Some(other) = renamed(label, &place, &exclude) {
            alternatives.push(Alternative::finding(
                "renamed",
                GuiAction::Click { index: other.index },
                format!(
                    "click \"{}\", which reads like \"{label}\" in the same place",
                    other.name
                ),
                effect,
                FindingKind::Renamed,
                label,
                &other.name,
                other,
            ));
        }
        if confirm {
            let synonym = place.iter().find(|e| {
                e.role == Role::Button
                    && is_confirm_label(&e.name)
                    && !matches!(normalise(&e.name).as_str(), "close" | "cancel")
                    && !e.state.disabled
            });
            if let Some(other) = synonym {
                alternatives.push(Alternative::finding(
                    "confirm",
                    GuiAction::Click { index: other.index },
                    format!("click \"{}\", the confirmation button in the same place", other.name),
                    effect,
                    FindingKind::Renamed,
                    label,
                    &other.name,
                    other,
                ));
            }
        }
        let more = place
            .iter()
            .find(|e| is_more_trigger(e) && e.state.expanded != Some(true));
        if let Some(more) = more {
            let documented = if row {
                format!("{label} (in the Actions column)")
            } else {
                label.to_owned()
            };
            alternatives.push(Alternative::towards(
                "more",
                GuiAction::Click { index: more.index },
                format!("open the \"{}\" menu to look for \"{label}\"", more.name),
                documented,
                format!("{} > {label}", more.name),
                evidence(more),
            ));
        }
        alternatives.extend(self.submenu_alternatives(obs, label, our_row.as_deref()));
        alternatives.extend(scroll_alternative(obs, label));
        let ours_listed = obs
            .elements
            .iter()
            .filter_map(row_of)
            .any(|r| names.iter().any(|n| mentions(&r.name, n)));
        // Rows ticked by an earlier step: a button after that acts on the selection.
        let selection = batch
            || ctx.steps.iter().take(self.step + 1).any(|s| {
                intent::intents(s, ctx.task)
                    .iter()
                    .any(|i| matches!(i, Intent::SelectRows))
            });
        if !row && !selection && ours_listed {
            // Not on the page outside the list: perhaps in the menu of the resource's own row (a
            // button for the selected rows is never one row's own: it stays missing).
            let row_more = obs.elements.iter().find(|e| {
                is_more_trigger(e)
                    && e.state.expanded != Some(true)
                    && row_of(e).is_some_and(|r| names.iter().any(|n| mentions(&r.name, n)))
            });
            if let Some(more) = row_more {
                alternatives.push(Alternative::towards(
                    "row more",
                    GuiAction::Click { index: more.index },
                    format!("open the resource's \"{}\" menu to look for \"{label}\"", more.name),
                    label.to_owned(),
                    format!("{} > {label} (in the Actions column)", more.name),
                    evidence(more),
                ));
            }
        }
        if !row
            && !ours_listed
            && let Some(list) = self.list_page.clone().filter(|url| *url != obs.url)
        {
            // On the resource's own page, and the control is not there: perhaps it is still in the
            // list's Actions column, where the row's control came from.
            alternatives.push(Alternative::towards(
                "back to the list",
                GuiAction::Goto { url: list },
                format!("go back to the list to look for \"{label}\" in the resource's row"),
                label.to_owned(),
                format!("{label} (in the Actions column of the list)"),
                vec![format!("URL: {}", obs.url)],
            ));
        }
        if row && let Some(row_name) = &our_row {
            // Neither in the row nor in its menu: perhaps on the resource's details page (its All
            // Actions).
            let details = obs.elements.iter().find(|e| {
                CLICKABLE.contains(&e.role)
                    && row_of(e).is_some_and(|r| &r.name == row_name)
                    && matches!(normalise(&e.name).as_str(), "manage" | "details" | "view details")
            });
            if let Some(details) = details {
                let documented = match self.intent.checked_sub(1).and_then(|i| self.intents.get(i)) {
                    Some(Intent::Click {
                        label: menu, row: true, ..
                    }) => format!("{menu} > {label}"),
                    _ => format!("{label} (in the Actions column)"),
                };
                alternatives.push(Alternative::towards(
                    "details page",
                    GuiAction::Click { index: details.index },
                    format!(
                        "look for \"{label}\" on the resource's details page (\"{}\")",
                        details.name
                    ),
                    documented,
                    format!("{} > {label}", details.name),
                    evidence(details),
                ));
            }
        }
        // The list's search, for a row the page does not show (one already shown is found).
        if row
            && our_row.is_none()
            && let Some(search) = search_box(obs)
            && let Some(name) = search_term(obs, search, &names)
        {
            alternatives.push(Alternative::path(
                "search",
                GuiAction::Type {
                    index: search.index,
                    text: name.clone(),
                    submit: true,
                },
                format!("search for \"{name}\""),
            ));
        }
        alternatives.extend(other_tabs(obs, &format!("\"{label}\"")));
        self.fallback(ctx, &format!("\"{label}\""), label, alternatives)
    }
}

impl ScriptedPolicy {
    /// `label` was found renamed earlier in the episode: the element under its new name, if the
    /// page shows one of the given roles, as an alternative reported as the same rename.
    pub(super) fn learned_alternative(
        &self,
        obs: &aca_core::Observation,
        label: &str,
        roles: &[Role],
        effect: Effect,
    ) -> Option<Alternative> {
        let known = self.learned_name(label)?;
        let element = labelled(obs, known, roles, |m| m == LabelMatch::Exact)
            .into_iter()
            .next()?;
        Some(Alternative::finding(
            "learned rename",
            GuiAction::Click { index: element.index },
            format!(
                "take \"{}\", the name \"{label}\" was found under earlier",
                element.name
            ),
            effect,
            FindingKind::Renamed,
            label,
            &element.name,
            element,
        ))
    }
}

impl ScriptedPolicy {
    /// The submenus of an open menu (More > Instance Status), each a place `label` may sit one level
    /// down: opening one is a path whose finding says where the item really is. `row` keeps them to
    /// the resource's own row.
    pub(super) fn submenu_alternatives(
        &self,
        obs: &aca_core::Observation,
        label: &str,
        row: Option<&str>,
    ) -> Vec<Alternative> {
        let in_row = |e: &Element| row.is_none_or(|r| row_of(e).is_some_and(|p| p.name == r));
        let open_more = obs
            .elements
            .iter()
            .find(|e| is_more_trigger(e) && e.state.expanded == Some(true) && in_row(e));
        let documented = match &self.via {
            Some(via) => via.documented.clone(),
            None => match self.intent.checked_sub(1).and_then(|i| self.intents.get(i)) {
                Some(Intent::Click {
                    label: menu, row: true, ..
                }) if row.is_some() => format!("{menu} > {label}"),
                _ if row.is_some() => format!("{label} (in the Actions column)"),
                _ => label.to_owned(),
            },
        };
        obs.elements
            .iter()
            .filter(|e| {
                e.role == Role::Menuitem && e.state.expanded == Some(false) && in_place(e, PlaceKind::Menu) && in_row(e)
            })
            .map(|sub| {
                let observed = match open_more {
                    Some(more) => format!("{} > {} > {label}", more.name, sub.name),
                    None => format!("{} > {label}", sub.name),
                };
                Alternative::towards(
                    format!("submenu {}", sub.name),
                    GuiAction::Click { index: sub.index },
                    format!("open the \"{}\" submenu to look for \"{label}\"", sub.name),
                    documented.clone(),
                    observed,
                    evidence(sub),
                )
            })
            .collect()
    }
}

/// The navigation group an item sits in: the foldable header (a control with an expanded state) of
/// the same container. `None` when the item is in no group, or the page does not say (no
/// structural path).
pub(super) fn group_header<'o>(obs: &'o aca_core::Observation, item: &Element) -> Option<&'o Element> {
    let parent = |e: &Element| e.fingerprint.path.rsplit_once('>').map(|(p, _)| p.to_owned());
    let container = parent(item).filter(|p| !p.is_empty())?;
    obs.elements.iter().find(|e| {
        e.index != item.index
            && e.state.expanded.is_some()
            && in_place(e, PlaceKind::Navigation)
            && parent(e).as_deref() == Some(container.as_str())
    })
}

/// The names a section goes by: `Access Control List (ACL)` is also `Access Control List` and
/// `ACL`.
fn section_names(section: &str) -> Vec<String> {
    let mut names = vec![section.to_owned()];
    if let Some((full, rest)) = section.split_once('(')
        && let Some((short, _)) = rest.split_once(')')
    {
        names.push(full.trim().to_owned());
        names.push(short.trim().to_owned());
    }
    names
}

/// Whether step `at` belongs to a section of the procedure after its first one (the page's "Method
/// 2", done after Method 1 in the same account).
fn in_later_method(ctx: &Context<'_>, at: usize) -> bool {
    let first = ctx.steps.first().and_then(|s| s.section.as_ref());
    ctx.steps
        .get(at)
        .and_then(|s| s.section.as_ref())
        .is_some_and(|section| first.is_some_and(|f| f != section))
}

/// Each tab the page shows besides the selected one, as a place `what` may have moved to.
/// The closed menus of the top bar: buttons there that open a menu (not the region or resource
/// group selects, which are lists of values).
fn closed_top_menus(obs: &aca_core::Observation) -> impl Iterator<Item = &Element> {
    obs.elements.iter().filter(|e| {
        e.role == Role::Button && e.state.expanded == Some(false) && in_place(e, PlaceKind::TopBar)
    })
}

/// An item of an open menu of the top bar.
fn top_menu_item(e: &Element) -> bool {
    e.role == Role::Menuitem && in_place(e, PlaceKind::TopBar)
}

/// The items of the top bar's open menus that name the page `name`, as written or in the plural.
fn top_menu_items<'o>(obs: &'o aca_core::Observation, name: &str) -> Vec<&'o Element> {
    let page = normalise(name);
    obs.elements
        .iter()
        .filter(|e| top_menu_item(e))
        .filter(|e| {
            let item = normalise(&e.name);
            item == page || item == format!("{page}s") || item == format!("{page}es")
        })
        .collect()
}

fn other_tabs(obs: &aca_core::Observation, what: &str) -> Vec<Alternative> {
    let documented = what.trim_matches('"');
    obs.elements
        .iter()
        .filter(|e| e.role == Role::Tab && !e.state.selected && !e.state.disabled)
        .map(|tab| {
            Alternative::towards(
                format!("tab {}", tab.name),
                GuiAction::Click { index: tab.index },
                format!("look for {what} on the \"{}\" tab", tab.name),
                documented.to_owned(),
                format!("{} tab > {documented}", tab.name),
                evidence(tab),
            )
        })
        .collect()
}

/// The words of a step's "find the …" clause, to its first comma, full stop or "and".
fn find_clause(text: &str) -> Vec<String> {
    let Some(at) = text.to_ascii_lowercase().find("find ") else {
        return Vec::new();
    };
    let clause = &text[at + "find ".len()..];
    let end = [", ", ". ", " and "]
        .iter()
        .filter_map(|stop| clause.find(stop))
        .min()
        .unwrap_or(clause.len());
    clause[..end]
        .split_whitespace()
        .map(|word| word.trim_end_matches(['.', ',']).to_owned())
        .collect()
}
