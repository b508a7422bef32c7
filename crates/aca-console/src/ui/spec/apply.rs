//! Derives an earlier release's specs from today's by applying the typed changes of
//! [`crate::profile::changes`].

use super::*;
use crate::profile::{CHANGES_2024, Change};

/// Turns the 2026 specs into the 2024 ones. Structural changes come first, renames last, because
/// changes name their targets by their 2026 labels.
pub fn to_2024(specs: &mut [ProductSpec]) {
    let (renames, structural): (Vec<&Change>, Vec<&Change>) =
        CHANGES_2024.iter().partition(|c| matches!(c, Change::Rename { .. }));
    for change in structural.into_iter().chain(renames) {
        if let Some(product) = specs.iter_mut().find(|p| p.code == change.product()) {
            apply(product, change);
        }
    }
}

fn apply(product: &mut ProductSpec, change: &Change) {
    match *change {
        Change::Rename {
            page: "nav",
            in_2024,
            in_2026,
            ..
        } => {
            for group in &mut product.nav {
                rename(&mut group.label, in_2026, in_2024);
                for item in &mut group.items {
                    rename(&mut item.label, in_2026, in_2024);
                }
            }
        }
        Change::Rename {
            page: "product",
            in_2024,
            in_2026,
            ..
        } => rename(&mut product.name, in_2026, in_2024),
        Change::Rename {
            page, in_2024, in_2026, ..
        } => {
            if let Some(page) = product.page_mut(page) {
                rename_page(page, in_2026, in_2024);
            }
        }
        Change::MoveAction {
            page, action, in_2024, ..
        } => {
            if let Some(page) = product.page_mut(page) {
                for row_action in page.row_actions.iter_mut().filter(|a| a.label == action) {
                    row_action.placement = in_2024;
                }
            }
        }
        Change::NewRequiredField { page, form, field, .. } => {
            if let Some(page) = product.page_mut(page) {
                for f in forms_mut(page).into_iter().filter(|f| f.id == form) {
                    for step in &mut f.steps {
                        step.fields.retain(|x| x.label != field);
                    }
                }
            }
        }
        Change::RemovedBatchButton {
            page,
            label,
            action,
            id_param,
            ..
        } => {
            if let Some(page) = product.page_mut(page) {
                page.batch_actions.push(batch_call(
                    label,
                    action,
                    id_param,
                    confirm(
                        label,
                        "Are you sure you want to perform this operation on the selected resources?",
                    ),
                ));
            }
        }
        Change::ReorderSteps {
            page, form, in_2024, ..
        } => {
            if let Some(page) = product.page_mut(page) {
                for f in forms_mut(page).into_iter().filter(|f| f.id == form) {
                    f.steps
                        .sort_by_key(|step| in_2024.iter().position(|t| *t == step.title).unwrap_or(usize::MAX));
                }
            }
        }
        Change::RegroupMenu { item, in_2024, .. } => {
            let mut moved = None;
            for group in &mut product.nav {
                if let Some(i) = group.items.iter().position(|x| x.label == item) {
                    moved = Some(group.items.remove(i));
                }
            }
            let Some(moved) = moved else { return };
            match product.nav.iter_mut().find(|g| g.label == in_2024) {
                Some(group) => group.items.push(moved),
                None => product.nav.insert(
                    0,
                    NavGroup {
                        label: s(in_2024),
                        items: vec![moved],
                    },
                ),
            }
            product.nav.retain(|g| !g.items.is_empty());
        }
    }
}

fn rename(label: &mut String, from: &str, to: &str) {
    if label == from {
        *label = s(to);
    }
}

/// Every form of a page: its create flows and the forms its row actions open.
fn forms_mut(page: &mut PageSpec) -> Vec<&mut FormSpec> {
    let mut out: Vec<&mut FormSpec> = page.creates.iter_mut().collect();
    for action in &mut page.row_actions {
        if let ActionKind::Form(form) = &mut action.kind {
            out.push(form);
        }
    }
    for batch in &mut page.batch_actions {
        if let BatchKind::Form(form) = &mut batch.kind {
            out.push(form);
        }
    }
    out
}

fn rename_confirm(c: &mut Confirm, from: &str, to: &str) {
    for label in [&mut c.title, &mut c.ok, &mut c.cancel] {
        rename(label, from, to);
    }
}

/// Renames every label of a page that reads exactly `from`.
fn rename_page(page: &mut PageSpec, from: &str, to: &str) {
    rename(&mut page.title, from, to);
    for group in &mut page.sub_nav {
        rename(&mut group.label, from, to);
        for item in &mut group.items {
            rename(&mut item.label, from, to);
        }
    }
    for c in &mut page.columns {
        rename(&mut c.header, from, to);
    }
    for o in &mut page.search {
        rename(&mut o.label, from, to);
    }
    for b in &mut page.batch_actions {
        rename(&mut b.label, from, to);
        if let BatchKind::Call { confirm, .. } = &mut b.kind {
            rename_confirm(confirm, from, to);
        }
    }
    for a in &mut page.row_actions {
        rename(&mut a.label, from, to);
        if let ActionKind::Call { confirm, .. } = &mut a.kind {
            rename_confirm(confirm, from, to);
        }
    }
    rename_tabs(&mut page.tabs, from, to);
    rename_tabs(page.summary.as_mut_slice(), from, to);
    for f in forms_mut(page) {
        for label in [&mut f.trigger, &mut f.title, &mut f.submit, &mut f.cancel] {
            rename(label, from, to);
        }
        for step in &mut f.steps {
            rename(&mut step.title, from, to);
            for field in &mut step.fields {
                rename(&mut field.label, from, to);
                if let FieldKind::Radio(options) | FieldKind::Tabs(options) = &mut field.kind {
                    for (_, label) in options {
                        rename(label, from, to);
                    }
                }
            }
        }
    }
}

fn rename_tabs(tabs: &mut [Tab], from: &str, to: &str) {
    for tab in tabs {
        match tab {
            Tab::Basic { label, fields } => {
                rename(label, from, to);
                for (l, _) in fields {
                    rename(l, from, to);
                }
            }
            Tab::Children { label, .. } => rename(label, from, to),
            Tab::Group { label, tabs } => {
                rename(label, from, to);
                rename_tabs(tabs, from, to);
            }
        }
    }
}
