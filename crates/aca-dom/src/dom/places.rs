//! Names of places read from the DOM: a dialog's title (and the element showing it), the current
//! step of a wizard, a table row's first cell, the trigger of a menu, a table's status column.

use aca_core::PlaceKind;
use wasm_bindgen::intern;
use web_sys::Element;

use super::js;
use super::name::referenced_text;
use crate::name::{first_name, tidy};

/// Elements that title a dialog or drawer when `aria-labelledby` does not say.
const TITLE_SELECTOR: &str = "[class*=title],[class*=Title],h1,h2,h3,h4,header";

/// A dialog's title and the element that shows it.
pub fn dialog_title(dialog: &Element) -> Option<(String, Option<Element>)> {
    if let Some(ids) = dialog.get_attribute(intern("aria-labelledby")) {
        let first = ids
            .split_ascii_whitespace()
            .next()
            .and_then(|id| js::element_by_id_near(dialog, id));
        if let Some(text) = referenced_text(dialog, "aria-labelledby")
            .map(|t| tidy(&t))
            .filter(|t| !t.is_empty())
        {
            return Some((text, first));
        }
    }
    if let Some(label) = dialog
        .get_attribute(intern("aria-label"))
        .map(|t| tidy(&t))
        .filter(|t| !t.is_empty())
    {
        return Some((label, None));
    }
    let title = dialog.query_selector(intern(TITLE_SELECTOR)).ok().flatten()?;
    let text = tidy(&js::visible_text(&title, None));
    (!text.is_empty()).then_some((text, Some(title)))
}

/// The step a wizard shows: its highlighted step title, else the panel's own heading; empty for a
/// panel of a form that is no wizard. The highlighted title is looked for around the panel, never
/// past the dialog it sits in, and only where it shows: another form's wizard elsewhere on the
/// page (a hidden dialog's) does not name it.
pub fn wizard_step_name(panel: &Element) -> String {
    const CURRENT: &str = "[aria-current=step],[class*=step][class*=current],[class*=step][class*=active],\
        [class*=step][class*=process]";
    const DIALOG: &str = "[role=dialog],[role=alertdialog],dialog,[aria-modal=true]";
    let mut ancestor = panel.parent_element();
    for _ in 0..6 {
        let Some(a) = ancestor else { break };
        let shown = a
            .query_selector_all(intern(CURRENT))
            .map(|list| js::elements_of(&list))
            .unwrap_or_default()
            .into_iter()
            .find(|current| !panel.contains(Some(current)) && super::visibility::rendered(current));
        if let Some(current) = shown {
            let text = tidy(&js::visible_text(&current, None));
            if !text.is_empty() {
                return text;
            }
        }
        if a.matches(intern(DIALOG)).unwrap_or(false) {
            break;
        }
        ancestor = a.parent_element();
    }
    panel
        .query_selector(intern("h1,h2,h3,h4,[class*=title]"))
        .ok()
        .flatten()
        .map(|h| tidy(&js::visible_text(&h, None)))
        .unwrap_or_default()
}

/// The cells of a table row (`td`/`th` or ARIA cells), in order.
pub fn row_cells(row: &Element) -> Vec<Element> {
    let children = row.children();
    (0..children.length())
        .filter_map(|i| children.item(i))
        .filter(|c| {
            matches!(c.local_name().as_str(), "td" | "th")
                || matches!(
                    c.get_attribute(intern("role")).as_deref(),
                    Some("cell" | "gridcell" | "rowheader" | "columnheader")
                )
        })
        .collect()
}

/// A data row's naming cell (its first cell with text) and all its cells; `None` for header rows.
pub fn row_name_cell(row: &Element) -> Option<(Element, Vec<Element>)> {
    let cells = row_cells(row);
    let data = cells
        .iter()
        .any(|c| c.local_name() == "td" || c.get_attribute(intern("role")).as_deref() == Some("gridcell"));
    if !data {
        return None;
    }
    let cell = cells
        .iter()
        .find(|c| c.text_content().is_some_and(|t| !t.trim().is_empty()))?
        .clone();
    Some((cell, cells))
}

/// A row's name: its naming cell's text.
pub fn row_name(name_cell: &Element) -> String {
    tidy(&js::visible_text(name_cell, None))
}

/// The position and header text of a table's status column (`Status`, `State`), if it has one.
pub fn status_column(table: &Element) -> Option<(usize, String)> {
    let headers = table.query_selector_all(intern("th,[role=columnheader]")).ok()?;
    let mut position = 0;
    let mut first_row: Option<Element> = None;
    for i in 0..headers.length() {
        let Some(header) = headers.item(i).and_then(|n| js::as_element(n.into())) else {
            continue;
        };
        let row = header.parent_element();
        if first_row.is_none() {
            first_row = row.clone();
        } else if row != first_row {
            break;
        }
        let text = tidy(&js::visible_text(&header, None));
        let lower = text.to_lowercase();
        if lower.contains("status") || lower == "state" {
            return Some((position, text));
        }
        position += 1;
    }
    None
}

/// The name a place shows: dialogs by title, rows by first cell (given by the walker), menus by
/// their trigger, frames by title, everything else by its ARIA label.
pub fn place_name(kind: PlaceKind, element: &Element) -> String {
    let attr = |name: &str| element.get_attribute(intern(name));
    let labelled = || first_name([referenced_text(element, "aria-labelledby"), attr("aria-label")]);
    match kind {
        PlaceKind::Dialog | PlaceKind::Panel => dialog_title(element).map(|(t, _)| t).unwrap_or_default(),
        PlaceKind::WizardStep => wizard_step_name(element),
        PlaceKind::Navigation => first_name([
            element
                .query_selector(intern("[class*=title]"))
                .ok()
                .flatten()
                .map(|t| js::visible_text(&t, None)),
            attr("aria-label"),
        ])
        .unwrap_or_default(),
        PlaceKind::Menu | PlaceKind::Listbox => labelled()
            .or_else(|| {
                let trigger = element.previous_element_sibling()?;
                let text = tidy(&js::visible_text(&trigger, None));
                (text.chars().count() <= 40).then_some(text)
            })
            .unwrap_or_default(),
        PlaceKind::Table => labelled()
            .or_else(|| {
                element
                    .query_selector(intern("caption"))
                    .ok()
                    .flatten()
                    .map(|c| tidy(&js::visible_text(&c, None)))
            })
            .unwrap_or_default(),
        PlaceKind::Frame => first_name([attr("title"), attr("name"), attr("src")]).unwrap_or_default(),
        _ => labelled().unwrap_or_default(),
    }
}
