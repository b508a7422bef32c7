//! Which containers are places a person names ("in the left-side navigation pane", "in the Create
//! VPC dialog box", "in the row of vpc-1"): decided from tag, ARIA role, class words and geometry.

use aca_core::{PlaceKind, Rect};

/// What the walker reads off a container (no DOM handle: testable natively).
#[derive(Debug, Clone, Copy, Default)]
pub struct ContainerFacts<'a> {
    pub tag: &'a str,
    pub aria_role: Option<&'a str>,
    /// The `class` attribute, lower-cased.
    pub class: &'a str,
    pub aria_modal: bool,
    /// Its box in its own frame's viewport.
    pub rect: Rect,
    /// That frame's viewport size.
    pub viewport: (f64, f64),
}

/// The class words that name each kind of place in console UI libraries.
const DRAWER_WORDS: &[&str] = &["drawer", "slide-panel", "slidepanel", "side-panel"];
const NAV_WORDS: &[&str] = &[
    "sidenav", "side-nav", "sidebar", "side-bar", "sider", "leftnav", "left-nav",
];
const TOPBAR_WORDS: &[&str] = &["topbar", "top-bar", "topnav", "top-nav", "console-header", "navbar"];
const DIALOG_WORDS: &[&str] = &["modal", "dialog"];
const STEP_WORDS: &[&str] = &[
    "step-panel",
    "step-content",
    "steps-content",
    "wizard-step",
    "step-pane",
];

fn class_tokens(class: &str) -> impl Iterator<Item = &str> {
    class.split_ascii_whitespace()
}

fn has_word(class: &str, words: &[&str]) -> bool {
    class_tokens(class).any(|token| words.iter().any(|w| token.contains(w)))
}

/// A class token that *is* a dialog (`modal`, `next-dialog`, `ant-modal`), not a part of one
/// (`dialog-mask`, `modal-footer`).
fn is_dialog_token(class: &str) -> bool {
    class_tokens(class).any(|token| {
        DIALOG_WORDS
            .iter()
            .any(|w| token == *w || token.ends_with(&format!("-{w}")))
    })
}

/// A left-side pane: hugs the left edge, narrow, and at least half as tall as the viewport.
pub fn is_left_pane(rect: Rect, (vw, vh): (f64, f64)) -> bool {
    rect.width > 0.0 && rect.x <= vw * 0.1 && rect.width <= vw * 0.4 && rect.height >= vh * 0.4
}

/// A top bar: at the top, most of the width, not tall.
pub fn is_top_bar(rect: Rect, (vw, _vh): (f64, f64)) -> bool {
    rect.height > 0.0 && rect.y <= 10.0 && rect.width >= vw * 0.6 && rect.height <= 150.0
}

/// A drawer: full height, against the left or right edge, not the whole width.
fn is_edge_panel(rect: Rect, (vw, vh): (f64, f64)) -> bool {
    rect.height >= vh * 0.9 && rect.width < vw * 0.85 && (rect.x <= 1.0 || (rect.x + rect.width) >= vw - 1.0)
}

/// Smaller than the viewport in both directions (a mask or backdrop fills it).
fn is_floating_box(rect: Rect, (vw, vh): (f64, f64)) -> bool {
    rect.width > 0.0 && rect.height > 0.0 && rect.width < vw * 0.95 && rect.height < vh * 0.98
}

/// The place a container opens, or `None` when it is no place of its own. Rows and frames and
/// shadow roots are recognised by the walker itself (they need more than one element's facts).
pub fn classify_container(facts: &ContainerFacts<'_>) -> Option<PlaceKind> {
    let dialog_kind = || {
        if has_word(facts.class, DRAWER_WORDS) || is_edge_panel(facts.rect, facts.viewport) {
            PlaceKind::Panel
        } else {
            PlaceKind::Dialog
        }
    };
    match facts.aria_role {
        Some("dialog" | "alertdialog") => return Some(dialog_kind()),
        Some("navigation") => return is_left_pane(facts.rect, facts.viewport).then_some(PlaceKind::Navigation),
        Some("banner") => return is_top_bar(facts.rect, facts.viewport).then_some(PlaceKind::TopBar),
        Some("menu" | "menubar") => return Some(PlaceKind::Menu),
        Some("listbox") => return Some(PlaceKind::Listbox),
        Some("tablist") => return Some(PlaceKind::Tablist),
        Some("radiogroup") => return Some(PlaceKind::RadioGroup),
        Some("table" | "grid" | "treegrid") => return Some(PlaceKind::Table),
        Some("form" | "search") => return Some(PlaceKind::Form),
        _ => {}
    }
    match facts.tag {
        "dialog" => return Some(dialog_kind()),
        "table" => return Some(PlaceKind::Table),
        "form" if facts.aria_modal => return Some(dialog_kind()),
        "form" => return Some(PlaceKind::Form),
        "nav" | "aside" if is_left_pane(facts.rect, facts.viewport) => return Some(PlaceKind::Navigation),
        "header" if is_top_bar(facts.rect, facts.viewport) => return Some(PlaceKind::TopBar),
        _ => {}
    }
    if facts.aria_modal && is_floating_box(facts.rect, facts.viewport) {
        return Some(dialog_kind());
    }
    if has_word(facts.class, NAV_WORDS) && is_left_pane(facts.rect, facts.viewport) {
        return Some(PlaceKind::Navigation);
    }
    if has_word(facts.class, TOPBAR_WORDS) && is_top_bar(facts.rect, facts.viewport) {
        return Some(PlaceKind::TopBar);
    }
    if has_word(facts.class, DRAWER_WORDS) && is_edge_panel(facts.rect, facts.viewport) {
        return Some(PlaceKind::Panel);
    }
    if is_dialog_token(facts.class) && is_floating_box(facts.rect, facts.viewport) {
        return Some(PlaceKind::Dialog);
    }
    if has_word(facts.class, STEP_WORDS) {
        return Some(PlaceKind::WizardStep);
    }
    None
}

/// A CSS selector matching every element [`classify_container`] might accept, so the walker asks
/// the browser once per element instead of reading attributes of every `<div>`.
pub const CONTAINER_SELECTOR: &str = "[role=dialog],[role=alertdialog],[role=navigation],[role=banner],[role=menu],\
    [role=menubar],[role=listbox],[role=tablist],[role=radiogroup],[role=table],[role=grid],[role=treegrid],[role=form],[role=search],\
    [aria-modal],dialog,table,form,nav,aside,header,\
    [class*=drawer],[class*=slide-panel],[class*=slidepanel],[class*=side-panel],\
    [class*=sidenav],[class*=side-nav],[class*=sidebar],[class*=side-bar],[class*=sider],[class*=leftnav],[class*=left-nav],\
    [class*=topbar],[class*=top-bar],[class*=topnav],[class*=top-nav],[class*=console-header],[class*=navbar],\
    [class*=modal],[class*=dialog],\
    [class*=step-panel],[class*=step-content],[class*=steps-content],[class*=wizard-step],[class*=step-pane]";

/// Whether places of this kind are named by a title of their own (dialogs, drawers, menus) rather
/// than left unnamed.
pub fn wants_title(kind: PlaceKind) -> bool {
    matches!(kind, PlaceKind::Dialog | PlaceKind::Panel)
}

#[cfg(test)]
mod tests {
    use super::*;

    const VIEWPORT: (f64, f64) = (1440.0, 900.0);

    fn rect(x: f64, y: f64, width: f64, height: f64) -> Rect {
        Rect { x, y, width, height }
    }

    fn container<'a>(tag: &'a str, class: &'a str, r: Rect) -> ContainerFacts<'a> {
        ContainerFacts {
            tag,
            class,
            rect: r,
            viewport: VIEWPORT,
            ..Default::default()
        }
    }

    #[test]
    fn the_left_side_navigation_pane_is_told_from_breadcrumbs_and_pagination() {
        let sidenav = container("aside", "sidenav", rect(0.0, 50.0, 208.0, 850.0));
        assert_eq!(classify_container(&sidenav), Some(PlaceKind::Navigation));
        let breadcrumb = container("nav", "breadcrumb", rect(240.0, 70.0, 900.0, 20.0));
        assert_eq!(classify_container(&breadcrumb), None);
        let by_class = container("div", "next-shell-navigation sidebar", rect(0.0, 50.0, 220.0, 850.0));
        assert_eq!(classify_container(&by_class), Some(PlaceKind::Navigation));
    }

    #[test]
    fn top_bars_sit_at_the_top_across_the_page() {
        let topbar = container("header", "topbar", rect(0.0, 0.0, 1440.0, 50.0));
        assert_eq!(classify_container(&topbar), Some(PlaceKind::TopBar));
        let card_header = container("header", "card-header", rect(300.0, 400.0, 500.0, 40.0));
        assert_eq!(classify_container(&card_header), None);
    }

    #[test]
    fn dialogs_and_drawers_are_told_apart_and_masks_are_not_dialogs() {
        let dialog = ContainerFacts {
            aria_role: Some("dialog"),
            ..container("form", "dialog", rect(420.0, 90.0, 600.0, 400.0))
        };
        assert_eq!(classify_container(&dialog), Some(PlaceKind::Dialog));
        let drawer = ContainerFacts {
            aria_role: Some("dialog"),
            ..container("form", "drawer", rect(800.0, 0.0, 640.0, 900.0))
        };
        assert_eq!(classify_container(&drawer), Some(PlaceKind::Panel));
        let mask = container("div", "dialog-mask open", rect(0.0, 0.0, 1440.0, 900.0));
        assert_eq!(classify_container(&mask), None);
        let ant = container("div", "ant-modal", rect(420.0, 90.0, 600.0, 400.0));
        assert_eq!(classify_container(&ant), Some(PlaceKind::Dialog));
        let footer = container("div", "modal-footer", rect(420.0, 400.0, 600.0, 60.0));
        assert_eq!(classify_container(&footer), None);
    }

    #[test]
    fn widgets_open_their_own_places() {
        for (role, kind) in [
            ("menu", PlaceKind::Menu),
            ("listbox", PlaceKind::Listbox),
            ("tablist", PlaceKind::Tablist),
            ("radiogroup", PlaceKind::RadioGroup),
            ("grid", PlaceKind::Table),
        ] {
            let facts = ContainerFacts {
                aria_role: Some(role),
                ..container("div", "", rect(0.0, 0.0, 10.0, 10.0))
            };
            assert_eq!(classify_container(&facts), Some(kind), "role={role}");
        }
        assert_eq!(
            classify_container(&container("section", "step-panel", rect(0.0, 0.0, 10.0, 10.0))),
            Some(PlaceKind::WizardStep)
        );
        assert_eq!(
            classify_container(&container("form", "search", rect(0.0, 0.0, 10.0, 10.0))),
            Some(PlaceKind::Form)
        );
    }
}
