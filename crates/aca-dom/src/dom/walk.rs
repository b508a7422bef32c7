//! The walk over the live DOM: every element once, in document order, through open shadow roots,
//! slots and same-origin frames, carrying what encloses it (places, clipping, the pointer cursor,
//! the row and dialog it is in) and collecting [`Candidate`]s with their element handles.

use std::rc::Rc;

use aca_core::{ElementState, Place, PlaceKind, Rect, Role, ScrollDirection, ScrollExtent};
use js_sys::JsString;
use wasm_bindgen::{JsCast, JsValue, intern};
use web_sys::{Element, HtmlIFrameElement, Window};

use super::describe::{Details, PendingDetails, describe_name, details_of};
use super::{js, places, visibility};
use crate::assemble::{Candidate, PageFacts, PopupLink};
use crate::fingerprint::{MAX_SEGMENTS, join_path};
use crate::name::tidy;
use crate::places::{CONTAINER_SELECTOR, ContainerFacts, classify_container};
use crate::role::{Classified, ElementFacts, Strength, classify};
use crate::visibility::{Clip, Visibility, direction_outside, place_box};

/// The id of the set-of-marks overlay, which the walk never enters.
pub const MARKS_ID: &str = "aca-dom-marks";

/// Elements that may be more than a plain box; anything else is only checked for a pointer cursor.
const INTERESTING: &str = "a,button,input,select,textarea,summary,h1,h2,h3,iframe,tr,dd,\
    [role],[tabindex],[onclick],[contenteditable],[aria-modal],[aria-expanded],[title],[aria-label],\
    [class*=error],[class*=explain],[class*=feedback]";

/// Elements whose `position` and `overflow` the walk does not read.
const INLINE_TAGS: &[&str] = &[
    "a", "span", "label", "b", "i", "em", "strong", "small", "code", "button", "p", "li", "dt", "dd", "h1", "h2", "h3",
    "h4", "h5", "h6", "tr", "td", "th", "tbody", "thead", "tfoot",
];

/// Tags that may be interesting without any attribute (everything else needs one to match).
const INTERESTING_TAGS: &[&str] = &[
    "a", "button", "input", "select", "textarea", "summary", "h1", "h2", "h3", "iframe", "tr", "dialog", "table",
    "form", "nav", "aside", "header", "dd",
];

/// The selectors and property names the walk uses on every element, as JS strings made once.
struct Strings {
    any: JsString,
    container: JsString,
    display: JsString,
    cursor: JsString,
    position: JsString,
    overflow: JsString,
    none: JsValue,
    pointer: JsValue,
    fixed: JsValue,
    visible: JsValue,
}

impl Strings {
    fn new() -> Self {
        Strings {
            any: JsString::from(format!("{INTERESTING},{CONTAINER_SELECTOR}").as_str()),
            container: JsString::from(CONTAINER_SELECTOR),
            display: JsString::from("display"),
            cursor: JsString::from("cursor"),
            position: JsString::from("position"),
            overflow: JsString::from("overflow"),
            none: JsValue::from_str("none"),
            pointer: JsValue::from_str("pointer"),
            fixed: JsValue::from_str("fixed"),
            visible: JsValue::from_str("visible"),
        }
    }
}

/// Class words of a field's validation message.
const ERROR_WORDS: &[&str] = &["error", "explain", "feedback", "invalid"];

/// Walks stop collecting past this many candidates (a runaway page must not hang the agent).
const MAX_CANDIDATES: usize = 5_000;

/// What the walk found.
pub struct Walked {
    pub candidates: Vec<Candidate>,
    pub handles: Vec<Element>,
    /// For candidates described only in part (out of view): what `complete` needs.
    pub pending: Vec<Option<PendingDetails>>,
    pub page: PageFacts,
}

/// The label a cell's text is read with: its column's header for a row's status cell, the term
/// of a description (`<dt>`) for its details (`<dd>`).
fn text_label(element: &Element, tag: &str, scope: &Scope) -> Option<String> {
    if tag == "dd" {
        return element
            .previous_element_sibling()
            .filter(|dt| dt.local_name() == "dt")
            .map(|dt| tidy(&js::visible_text(&dt, None)))
            .filter(|t| !t.is_empty());
    }
    scope
        .row
        .as_ref()
        .and_then(|r| r.status_cell.as_ref())
        .filter(|(c, _)| c == element)
        .map(|(_, header)| header.clone())
}

/// One document being walked: the top one or a same-origin frame's.
struct FrameScope {
    window: Window,
    /// Its viewport's origin in top-frame coordinates.
    offset: (f64, f64),
    /// Its own viewport size, for geometry-based place decisions.
    size: (f64, f64),
    /// The frame's box in top-frame coordinates (none for the top document).
    clip: Option<Clip>,
}

struct RowScope {
    name_cell: Element,
    status_cell: Option<(Element, String)>,
    /// The Row place carries its name already.
    named: bool,
}

/// What encloses the element being walked.
#[derive(Clone)]
struct Scope {
    frame: Rc<FrameScope>,
    clip: Option<Clip>,
    pointer: bool,
    in_control: bool,
    in_field_error: bool,
    wrapper: Option<usize>,
    combobox: Option<usize>,
    listbox: Option<Rc<(Option<String>, Vec<String>)>>,
    table_status: Option<Rc<Option<(usize, String)>>>,
    row: Option<Rc<RowScope>>,
    dialog_title: Option<Rc<Element>>,
    /// Inside a table row wholly out of view: everything in it is off-screen that way, and the
    /// row's box stands for theirs until they are described.
    beyond: Option<(ScrollDirection, Rect)>,
}

struct Segment {
    element: Option<Element>,
    tag: String,
    nth: Option<u32>,
    text: Option<String>,
}

struct Walker {
    candidates: Vec<Candidate>,
    handles: Vec<Element>,
    pending: Vec<Option<PendingDetails>>,
    unwalked: Vec<String>,
    places: Vec<Place>,
    segments: Vec<Segment>,
    viewport: Rect,
    active: Option<Element>,
    strings: Strings,
}

/// Walks the top document.
pub fn walk() -> Result<Walked, String> {
    let window = js::top_window()?;
    let document = js::top_document()?;
    let root = document
        .document_element()
        .ok_or_else(|| "the document has no root element".to_owned())?;
    let viewport = js::viewport(&window);
    let mut walker = Walker {
        candidates: Vec::new(),
        handles: Vec::new(),
        pending: Vec::new(),
        unwalked: Vec::new(),
        places: Vec::new(),
        segments: Vec::new(),
        viewport,
        active: js::deep_active_element(),
        strings: Strings::new(),
    };
    let scope = Scope {
        frame: Rc::new(FrameScope {
            window: window.clone(),
            offset: (0.0, 0.0),
            size: (viewport.width, viewport.height),
            clip: None,
        }),
        clip: None,
        pointer: false,
        in_control: false,
        in_field_error: false,
        wrapper: None,
        combobox: None,
        listbox: None,
        table_status: None,
        beyond: None,
        row: None,
        dialog_title: None,
    };
    let tag = root.local_name();
    walker.element(&root, tag, None, &scope);

    let scroll = document.scrolling_element().map(|s| {
        let top = f64::from(s.scroll_top());
        let height = f64::from(s.scroll_height());
        let vh = viewport.height.max(1.0);
        ScrollExtent {
            above: round1(top / vh),
            below: round1(((height - top - vh) / vh).max(0.0)),
        }
    });
    Ok(Walked {
        candidates: walker.candidates,
        handles: walker.handles,
        pending: walker.pending,
        page: PageFacts {
            url: document.url().unwrap_or_default(),
            title: tidy(&document.title()),
            scroll: scroll.unwrap_or_default(),
            unwalked_frames: walker.unwalked,
        },
    })
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn first_token(value: Option<String>) -> Option<String> {
    value.and_then(|v| v.split_ascii_whitespace().next().map(|t| t.to_ascii_lowercase()))
}

fn ids(value: Option<String>) -> Vec<String> {
    value
        .map(|v| v.split_ascii_whitespace().map(str::to_owned).collect())
        .unwrap_or_default()
}

impl Walker {
    fn element(&mut self, element: &Element, tag: String, nth: Option<u32>, scope: &Scope) {
        if self.candidates.len() >= MAX_CANDIDATES {
            return;
        }
        if matches!(
            tag.as_str(),
            "script" | "style" | "template" | "noscript" | "head" | "meta" | "link" | "title" | "option" | "optgroup"
        ) {
            return;
        }
        // Only what has children can clip them or hide a subtree; a fixed leaf is rare enough to
        // treat as in flow, and a hidden leaf is caught when it is a candidate.
        let first_child = element.first_element_child();
        let has_children = first_child.is_some() || tag.contains('-') || tag == "iframe" || tag == "slot";
        let interesting = (element.has_attributes() || INTERESTING_TAGS.contains(&tag.as_str()))
            && js::matches(element, &self.strings.any);
        // Inside a control nothing starts a pointer cursor of its own, and an empty leaf without
        // attributes that name it could not be named: such leaves need no style.
        let empty_leaf = !has_children && !interesting && element.first_child().is_none();
        // Table cells and row groups are laid out by their table: they neither hide a subtree
        // in practice nor start a pointer of their own unless marked up as interesting.
        let table_part = !interesting && matches!(tag.as_str(), "td" | "th" | "tbody" | "thead" | "tfoot");
        // In a row wholly out of view only interesting elements count (as off-screen, by markup):
        // nothing there is worth a style read.
        let needs_style = scope.beyond.is_none() && !table_part && (has_children || (!scope.in_control && !empty_leaf));
        let style = if needs_style {
            match js::computed_style(&scope.frame.window, element) {
                Some(style) => Some(style),
                None => return,
            }
        } else {
            None
        };
        let strings = &self.strings;
        if has_children
            && style
                .as_ref()
                .is_some_and(|s| js::style_is(s, &strings.display, &strings.none))
        {
            return;
        }
        let pointer = match &style {
            Some(s) if !scope.in_control => js::style_is(s, &strings.cursor, &strings.pointer),
            _ => scope.pointer,
        };
        // Inline and table elements rarely scroll or fix what they hold; boxes that do are blocks.
        let may_clip = has_children && !INLINE_TAGS.contains(&tag.as_str());
        let (fixed, overflow) = if let (true, Some(style)) = (may_clip, style.as_ref()) {
            (
                js::style_is(style, &strings.position, &strings.fixed),
                if js::style_is(style, &strings.overflow, &strings.visible) {
                    String::new()
                } else {
                    js::style_of(style, &strings.overflow)
                },
            )
        } else {
            (false, String::new())
        };
        let own_clip = if fixed { scope.frame.clip } else { scope.clip };

        let mut child = scope.clone();
        child.pointer = pointer;
        child.clip = own_clip;
        self.segments.push(Segment {
            element: Some(element.clone()),
            tag: tag.clone(),
            nth,
            text: None,
        });
        let places_before = self.places.len();

        // A list item wholly out of view, like a table row: what it holds is off-screen that way.
        if tag == "li" && scope.beyond.is_none() && scope.clip.is_none() && has_children {
            let rect = self.to_top(&js::local_rect(element), &scope.frame);
            if rect.width >= 1.0 && rect.height >= 1.0 {
                child.beyond = direction_outside(&rect, &self.viewport).map(|d| (d, rect));
            }
        }
        let mut local_rect: Option<Rect> = None;
        let mut facts_role: Option<String> = None;
        let mut class = String::new();
        if interesting {
            facts_role = first_token(element.get_attribute(intern("role")));
            class = element
                .get_attribute(intern("class"))
                .unwrap_or_default()
                .to_ascii_lowercase();
            self.open_places(
                element,
                &tag,
                facts_role.as_deref(),
                &class,
                scope,
                &mut child,
                &mut local_rect,
            );
        }

        let classified = self.classify(
            element,
            &tag,
            interesting,
            facts_role.as_deref(),
            &class,
            pointer,
            scope,
        );
        if let Some(classified) = classified {
            let index = self.candidate(element, &tag, classified, own_clip, scope);
            match classified.strength {
                Strength::Heuristic => child.wrapper = Some(index),
                Strength::Control => child.in_control = true,
                Strength::Readable if classified.role == Role::Cell => child.wrapper = Some(index),
                Strength::Readable => {}
            }
            if classified.role == Role::Combobox {
                child.combobox = Some(index);
            }
            if classified.role == Role::FieldError {
                child.in_field_error = true;
            }
        }

        if !overflow.is_empty() && overflow != "visible" && tag != "html" && tag != "body" {
            let rect = local_rect.unwrap_or_else(|| js::local_rect(element));
            let own = Clip {
                rect: self.to_top(&rect, &scope.frame),
                scrolls: overflow.contains("auto") || overflow.contains("scroll"),
            };
            child.clip = Some(own.within(own_clip.as_ref()));
        }

        if tag == "iframe" {
            self.frame(element, &child);
        } else if let Some(shadow) = has_children.then(|| element.shadow_root()).flatten() {
            self.places.push(Place {
                kind: PlaceKind::Shadow,
                name: tag.clone(),
            });
            self.segments.push(Segment {
                element: None,
                tag: "::shadow".into(),
                nth: None,
                text: Some("::shadow".into()),
            });
            let kids = shadow.children();
            let list: Vec<Element> = (0..kids.length()).filter_map(|i| kids.item(i)).collect();
            self.children(list, &child);
            self.segments.pop();
            self.places.pop();
        } else if tag == "slot" {
            let assigned = js::assigned_elements(element);
            if assigned.is_empty() {
                self.children(child_elements(element), &child);
            } else {
                self.children(assigned, &child);
            }
        } else if tag == "html" {
            // The overlay hangs off the root element; it is never part of what the page shows.
            let kids = siblings_from(first_child)
                .into_iter()
                .filter(|c| c.id() != MARKS_ID)
                .collect();
            self.children(kids, &child);
        } else if has_children
            && !matches!(
                tag.as_str(),
                "svg" | "select" | "textarea" | "input" | "img" | "canvas" | "video"
            )
        {
            self.children(siblings_from(first_child), &child);
        }

        self.places.truncate(places_before);
        self.segments.pop();
    }

    fn children(&mut self, children: Vec<Element>, scope: &Scope) {
        let tags: Vec<String> = children.iter().map(|c| c.local_name()).collect();
        let mut seen: Vec<(&str, u32, u32)> = Vec::new();
        for tag in &tags {
            match seen.iter_mut().find(|(t, _, _)| t == tag) {
                Some(entry) => entry.1 += 1,
                None => seen.push((tag, 1, 0)),
            }
        }
        let mut positions: Vec<Option<u32>> = Vec::with_capacity(tags.len());
        for tag in &tags {
            let entry = seen.iter_mut().find(|(t, _, _)| t == tag);
            positions.push(entry.and_then(|e| {
                e.2 += 1;
                (e.1 > 1).then_some(e.2)
            }));
        }
        for ((child, tag), nth) in children.iter().zip(tags).zip(positions) {
            self.element(child, tag, nth, scope);
        }
    }

    fn to_top(&self, rect: &Rect, frame: &FrameScope) -> Rect {
        Rect {
            x: rect.x + frame.offset.0,
            y: rect.y + frame.offset.1,
            ..*rect
        }
    }

    /// Opens the places this element starts (dialog, row, listbox …) and records what the walk
    /// must know inside them.
    #[allow(clippy::too_many_arguments)]
    fn open_places(
        &mut self,
        element: &Element,
        tag: &str,
        aria_role: Option<&str>,
        class: &str,
        scope: &Scope,
        child: &mut Scope,
        local_rect: &mut Option<Rect>,
    ) {
        if (tag == "tr" || aria_role == Some("row")) && scope.table_status.is_some() {
            if let Some((name_cell, cells)) = places::row_name_cell(element) {
                let status_cell = scope
                    .table_status
                    .as_ref()
                    .and_then(|s| s.as_ref().clone())
                    .and_then(|(position, header)| cells.get(position).map(|c| (c.clone(), header)))
                    .filter(|(c, _)| c != &name_cell);
                // Rows out of view are named when something in them is described (`complete`).
                let rect = self.to_top(&js::local_rect(element), &scope.frame);
                let in_view = crate::visibility::intersect(&rect, &self.viewport).is_some();
                if scope.clip.is_none() && rect.width >= 1.0 && rect.height >= 1.0 {
                    child.beyond = direction_outside(&rect, &self.viewport).map(|d| (d, rect));
                }
                self.places.push(Place {
                    kind: PlaceKind::Row,
                    name: if in_view {
                        places::row_name(&name_cell)
                    } else {
                        String::new()
                    },
                });
                child.row = Some(Rc::new(RowScope {
                    name_cell,
                    status_cell,
                    named: in_view,
                }));
            }
            return;
        }
        if !js::matches(element, &self.strings.container) {
            return;
        }
        let rect = js::local_rect(element);
        *local_rect = Some(rect);
        let facts = ContainerFacts {
            tag,
            aria_role,
            class,
            aria_modal: element.get_attribute(intern("aria-modal")).as_deref() == Some("true"),
            rect,
            viewport: scope.frame.size,
        };
        let Some(kind) = classify_container(&facts) else { return };
        // A class-named dialog around an ARIA dialog is its frame, not a second dialog.
        if aria_role.is_none()
            && matches!(kind, PlaceKind::Dialog | PlaceKind::Panel)
            && element
                .query_selector(intern("[role=dialog],[role=alertdialog],dialog"))
                .ok()
                .flatten()
                .is_some()
        {
            return;
        }
        if self
            .places
            .last()
            .is_some_and(|p| p.kind == kind && kind != PlaceKind::Row)
            && kind != PlaceKind::Dialog
        {
            return;
        }
        match kind {
            PlaceKind::Dialog | PlaceKind::Panel => {
                let (title, title_element) = places::dialog_title(element).unwrap_or_default();
                child.dialog_title = title_element.map(Rc::new);
                self.places.push(Place { kind, name: title });
            }
            PlaceKind::Listbox => {
                child.listbox = Some(Rc::new((
                    element.get_attribute(intern("id")),
                    ids(element.get_attribute(intern("aria-labelledby"))),
                )));
                self.places.push(Place {
                    kind,
                    name: places::place_name(kind, element),
                });
            }
            PlaceKind::Table => {
                child.table_status = Some(Rc::new(places::status_column(element)));
                self.places.push(Place {
                    kind,
                    name: places::place_name(kind, element),
                });
            }
            // The panel of a form that is no wizard (one step, no step list around it) is no place.
            PlaceKind::WizardStep => {
                let name = places::wizard_step_name(element);
                if !name.is_empty() {
                    self.places.push(Place { kind, name });
                }
            }
            _ => self.places.push(Place {
                kind,
                name: places::place_name(kind, element),
            }),
        }
    }

    /// The element's role, from the context it is in (a dialog's title, a row's name or status
    /// cell, a field's error) or from its own tag and attributes.
    #[allow(clippy::too_many_arguments)]
    fn classify(
        &self,
        element: &Element,
        tag: &str,
        interesting: bool,
        aria_role: Option<&str>,
        class: &str,
        pointer: bool,
        scope: &Scope,
    ) -> Option<Classified> {
        let readable = |role| {
            Some(Classified {
                role,
                strength: Strength::Readable,
            })
        };
        if scope.dialog_title.as_deref().is_some_and(|t| t == element) {
            return readable(Role::DialogTitle);
        }
        // A description's details (`<dd>`) read like a cell: "Status: Available".
        if tag == "dd" {
            return readable(Role::Cell);
        }
        if let Some(row) = &scope.row
            && (&row.name_cell == element || row.status_cell.as_ref().is_some_and(|(c, _)| c == element))
        {
            return readable(Role::Cell);
        }
        let pointer_starts_here = pointer && !scope.pointer && !scope.in_control;
        if !interesting {
            return classify(&ElementFacts {
                tag,
                pointer_starts_here,
                ..Default::default()
            });
        }
        let input_type = (tag == "input").then(|| {
            element
                .get_attribute(intern("type"))
                .unwrap_or_else(|| "text".into())
                .to_ascii_lowercase()
        });
        let tabbable = element
            .get_attribute(intern("tabindex"))
            .and_then(|t| t.trim().parse::<i32>().ok())
            .is_some_and(|t| t >= 0);
        let facts = ElementFacts {
            tag,
            input_type: input_type.as_deref(),
            aria_role,
            has_href: tag == "a" && element.has_attribute(intern("href")),
            tabbable: tabbable && !scope.in_control,
            has_onclick: element.has_attribute(intern("onclick")),
            contenteditable: element
                .get_attribute(intern("contenteditable"))
                .is_some_and(|v| v.is_empty() || v == "true" || v == "plaintext-only"),
            pointer_starts_here,
        };
        let field_error = !scope.in_field_error
            && class
                .split_ascii_whitespace()
                .any(|t| ERROR_WORDS.iter().any(|w| t.contains(w)))
            && element
                .closest(intern("[class*=form-item],[class*=form-group],[class*=field],form"))
                .ok()
                .flatten()
                .is_some()
            && element
                .query_selector(intern("input,select,textarea,[role=combobox],[role=textbox]"))
                .ok()
                .flatten()
                .is_none();
        match classify(&facts) {
            Some(found) if found.role == Role::Alert => {
                if scope.in_field_error {
                    None
                } else if field_error
                    || element
                        .closest(intern("[class*=form-item],[class*=form-group]"))
                        .ok()
                        .flatten()
                        .is_some()
                {
                    readable(Role::FieldError)
                } else {
                    Some(found)
                }
            }
            None if field_error => readable(Role::FieldError),
            other => other,
        }
    }

    /// Records one candidate; returns its position.
    fn candidate(
        &mut self,
        element: &Element,
        tag: &str,
        classified: Classified,
        clip: Option<Clip>,
        scope: &Scope,
    ) -> usize {
        let role = classified.role;
        if let Some((direction, rect)) = scope.beyond {
            return self.push_beyond(element, tag, classified, direction, rect, scope);
        }
        let own = js::local_rect(element);
        let (geometry, local) = if own.width >= 1.0 && own.height >= 1.0 && js::check_visibility(element) {
            (Some(element.clone()), own)
        } else {
            match visibility::label_proxy(element).filter(visibility::rendered) {
                Some(label) => {
                    let rect = js::local_rect(&label);
                    (Some(label), rect)
                }
                None => (None, own),
            }
        };
        let proxy = geometry.as_ref().filter(|g| *g != element).cloned();
        let rect = self.to_top(&local, &scope.frame);
        let visibility = match geometry {
            None => Visibility::Hidden,
            Some(_) => match place_box(&rect, clip.as_ref(), &self.viewport) {
                Err(v) => v,
                Ok(visible) => match visibility::occlusion(element, proxy.as_ref(), &visible) {
                    Some(cover) => Visibility::Covered(cover),
                    None => Visibility::Shown,
                },
            },
        };
        // What is out of view is described only if the observation lists it (see `complete`).
        let defer = matches!(visibility, Visibility::Offscreen(_));
        let details = if defer {
            Details::default()
        } else if matches!(visibility, Visibility::Hidden | Visibility::Covered(_)) && role != Role::Cell {
            // Not listed, but still found again by name when an action's index goes stale.
            Details {
                name: describe_name(element, tag, role, None),
                ..Details::default()
            }
        } else {
            let label = text_label(element, tag, scope);
            details_of(element, tag, role, label.as_deref(), self.active.as_ref())
        };
        let Details {
            name,
            value,
            state,
            hint,
        } = details;
        self.pending.push(defer.then(|| PendingDetails {
            tag: tag.to_owned(),
            status_header: text_label(element, tag, scope),
            row_name_cell: scope.row.as_ref().filter(|r| !r.named).map(|r| r.name_cell.clone()),
        }));

        let popup = match role {
            Role::Combobox => PopupLink {
                dom_id: element.get_attribute(intern("id")),
                controls: ids(element.get_attribute(intern("aria-controls")))
                    .into_iter()
                    .chain(ids(element.get_attribute(intern("aria-owns"))))
                    .collect(),
                ..Default::default()
            },
            Role::Option => PopupLink {
                listbox_id: scope.listbox.as_ref().and_then(|l| l.0.clone()),
                listbox_labelled_by: scope.listbox.as_ref().map(|l| l.1.clone()).unwrap_or_default(),
                inside_combobox: scope.combobox,
                ..Default::default()
            },
            _ => PopupLink::default(),
        };
        let path = self.path();
        self.candidates.push(Candidate {
            role,
            strength: classified.strength,
            name,
            value,
            state,
            hint,
            rect,
            places: self.places.clone(),
            visibility,
            path,
            popup,
            wrapper: scope.wrapper,
            described: !defer,
        });
        self.handles.push(element.clone());
        self.candidates.len() - 1
    }

    /// Records a candidate in a row wholly out of view, without asking the browser about it.
    fn push_beyond(
        &mut self,
        element: &Element,
        tag: &str,
        classified: Classified,
        direction: ScrollDirection,
        rect: Rect,
        scope: &Scope,
    ) -> usize {
        self.pending.push(Some(PendingDetails {
            tag: tag.to_owned(),
            status_header: text_label(element, tag, scope),
            row_name_cell: scope.row.as_ref().filter(|r| !r.named).map(|r| r.name_cell.clone()),
        }));
        // Its path is read upward from it if it is ever described (`complete`).
        let path = String::new();
        self.candidates.push(Candidate {
            role: classified.role,
            strength: classified.strength,
            name: String::new(),
            value: None,
            state: ElementState::default(),
            hint: None,
            rect,
            places: self.places.clone(),
            visibility: Visibility::Offscreen(direction),
            path,
            popup: PopupLink::default(),
            wrapper: scope.wrapper,
            described: false,
        });
        self.handles.push(element.clone());
        self.candidates.len() - 1
    }

    /// The structural path of the element being walked (segments computed once, on demand).
    fn path(&mut self) -> String {
        let mut used = 0;
        for segment in self.segments.iter_mut().rev() {
            if segment.text.is_none() {
                let (id, class) = match &segment.element {
                    Some(e) => (e.get_attribute(intern("id")), e.get_attribute(intern("class"))),
                    None => (None, None),
                };
                segment.text = Some(crate::fingerprint::segment(
                    &segment.tag,
                    id.as_deref(),
                    class.as_deref(),
                    segment.nth,
                ));
            }
            used += 1;
            if used >= MAX_SEGMENTS || segment.text.as_deref().is_some_and(|t| t.contains('#')) {
                break;
            }
        }
        let start = self.segments.len() - used;
        let texts: Vec<String> = self.segments[start..]
            .iter()
            .map(|s| s.text.clone().unwrap_or_default())
            .collect();
        join_path(&texts)
    }

    /// Walks a same-origin frame's document; a cross-origin one is listed as not walked.
    fn frame(&mut self, element: &Element, scope: &Scope) {
        let frame: &HtmlIFrameElement = element.unchecked_ref();
        let name = places::place_name(PlaceKind::Frame, element);
        let document = frame.content_document();
        let window = frame.content_window();
        let (Some(document), Some(window)) = (document, window.map(|w| w.unchecked_into::<Window>())) else {
            if visibility::rendered(element) {
                self.unwalked.push(
                    element
                        .get_attribute(intern("src"))
                        .filter(|s| !s.is_empty())
                        .unwrap_or(name),
                );
            }
            return;
        };
        let Some(root) = document.document_element() else {
            return;
        };
        let local = js::local_rect(element);
        let top = self.to_top(&local, &scope.frame);
        let content = Rect {
            x: top.x + f64::from(element.client_left()),
            y: top.y + f64::from(element.client_top()),
            width: f64::from(element.client_width()),
            height: f64::from(element.client_height()),
        };
        let clip = Clip {
            rect: content,
            scrolls: true,
        }
        .within(scope.clip.as_ref());
        let mut inner = scope.clone();
        inner.frame = Rc::new(FrameScope {
            window,
            offset: (content.x, content.y),
            size: (content.width, content.height),
            clip: Some(clip),
        });
        inner.clip = Some(clip);
        inner.pointer = false;
        self.places.push(Place {
            kind: PlaceKind::Frame,
            name,
        });
        let tag = root.local_name();
        self.element(&root, tag, None, &inner);
        self.places.pop();
    }
}

fn child_elements(element: &Element) -> Vec<Element> {
    siblings_from(element.first_element_child())
}

/// An element and the element siblings after it.
fn siblings_from(first: Option<Element>) -> Vec<Element> {
    let mut out = Vec::new();
    let mut child = first;
    while let Some(c) = child {
        child = c.next_element_sibling();
        out.push(c);
    }
    out
}
