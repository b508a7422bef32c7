//! The walk over the live DOM: every element once, in document order, through open shadow roots,
//! slots and same-origin frames, carrying what encloses it (places, clipping, the pointer cursor,
//! the row and dialog it is in) and collecting [`Candidate`]s with their element handles.

use std::rc::Rc;

use aca_core::{Place, PlaceKind, Rect, Role, ScrollExtent};
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlIFrameElement, Window};

use super::{js, name, places, states, visibility};
use crate::assemble::{Candidate, PageFacts, PopupLink};
use crate::fingerprint::{MAX_SEGMENTS, join_path};
use crate::name::tidy;
use crate::places::{CONTAINER_SELECTOR, ContainerFacts, classify_container};
use crate::role::{Classified, ElementFacts, Strength, classify};
use crate::visibility::{Clip, Visibility, place_box};

/// The id of the set-of-marks overlay, which the walk never enters.
pub const MARKS_ID: &str = "aca-dom-marks";

/// Elements that may be more than a plain box; anything else is only checked for a pointer cursor.
const INTERESTING: &str = "a,button,input,select,textarea,summary,h1,h2,h3,iframe,tr,td,th,\
    [role],[tabindex],[onclick],[contenteditable],[aria-modal],[aria-expanded],\
    [class*=error],[class*=explain],[class*=feedback]";

/// Class words of a field's validation message.
const ERROR_WORDS: &[&str] = &["error", "explain", "feedback", "invalid"];

/// Walks stop collecting past this many candidates (a runaway page must not hang the agent).
const MAX_CANDIDATES: usize = 5_000;

/// What the walk found.
pub struct Walked {
    pub candidates: Vec<Candidate>,
    pub handles: Vec<Element>,
    pub page: PageFacts,
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
    unwalked: Vec<String>,
    places: Vec<Place>,
    segments: Vec<Segment>,
    viewport: Rect,
    active: Option<Element>,
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
        unwalked: Vec::new(),
        places: Vec::new(),
        segments: Vec::new(),
        viewport,
        active: js::deep_active_element(),
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
        if element.id() == MARKS_ID {
            return;
        }
        let Some(style) = js::computed_style(&scope.frame.window, element) else {
            return;
        };
        if js::style_value(&style, "display") == "none" {
            return;
        }
        let pointer = js::style_value(&style, "cursor") == "pointer";
        let fixed = js::style_value(&style, "position") == "fixed";
        let overflow = js::style_value(&style, "overflow");
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

        let interesting = element.matches(INTERESTING).unwrap_or(false)
            || element.matches(CONTAINER_SELECTOR).unwrap_or(false);
        let mut local_rect: Option<Rect> = None;
        let mut facts_role: Option<String> = None;
        let mut class = String::new();
        if interesting {
            facts_role = first_token(element.get_attribute("role"));
            class = element.get_attribute("class").unwrap_or_default().to_ascii_lowercase();
            self.open_places(element, &tag, facts_role.as_deref(), &class, scope, &mut child, &mut local_rect);
        }

        let classified = self.classify(element, &tag, interesting, facts_role.as_deref(), &class, pointer, scope);
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
        } else if let Some(shadow) = element.shadow_root() {
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
        } else if !matches!(tag.as_str(), "svg" | "select" | "textarea" | "input" | "img" | "canvas" | "video") {
            self.children(child_elements(element), &child);
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
            if let Some((row_name, name_cell, cells)) = places::row_name(element) {
                let status_cell = scope
                    .table_status
                    .as_ref()
                    .and_then(|s| s.as_ref().clone())
                    .and_then(|(position, header)| cells.get(position).map(|c| (c.clone(), header)))
                    .filter(|(c, _)| c != &name_cell);
                self.places.push(Place {
                    kind: PlaceKind::Row,
                    name: row_name,
                });
                child.row = Some(Rc::new(RowScope { name_cell, status_cell }));
            }
            return;
        }
        if !element.matches(CONTAINER_SELECTOR).unwrap_or(false) {
            return;
        }
        let rect = js::local_rect(element);
        *local_rect = Some(rect);
        let facts = ContainerFacts {
            tag,
            aria_role,
            class,
            aria_modal: element.get_attribute("aria-modal").as_deref() == Some("true"),
            rect,
            viewport: scope.frame.size,
        };
        let Some(kind) = classify_container(&facts) else { return };
        // A class-named dialog around an ARIA dialog is its frame, not a second dialog.
        if aria_role.is_none()
            && matches!(kind, PlaceKind::Dialog | PlaceKind::Panel)
            && element
                .query_selector("[role=dialog],[role=alertdialog],dialog")
                .ok()
                .flatten()
                .is_some()
        {
            return;
        }
        if self.places.last().is_some_and(|p| p.kind == kind && kind != PlaceKind::Row) && kind != PlaceKind::Dialog {
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
                    element.get_attribute("id"),
                    ids(element.get_attribute("aria-labelledby")),
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
        if let Some(row) = &scope.row {
            if &row.name_cell == element || row.status_cell.as_ref().is_some_and(|(c, _)| c == element) {
                return readable(Role::Cell);
            }
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
                .get_attribute("type")
                .unwrap_or_else(|| "text".into())
                .to_ascii_lowercase()
        });
        let tabbable = element
            .get_attribute("tabindex")
            .and_then(|t| t.trim().parse::<i32>().ok())
            .is_some_and(|t| t >= 0);
        let facts = ElementFacts {
            tag,
            input_type: input_type.as_deref(),
            aria_role,
            has_href: tag == "a" && element.has_attribute("href"),
            tabbable: tabbable && !scope.in_control,
            has_onclick: element.has_attribute("onclick"),
            contenteditable: element
                .get_attribute("contenteditable")
                .is_some_and(|v| v.is_empty() || v == "true" || v == "plaintext-only"),
            pointer_starts_here,
        };
        let field_error = !scope.in_field_error
            && class
                .split_ascii_whitespace()
                .any(|t| ERROR_WORDS.iter().any(|w| t.contains(w)))
            && element
                .closest("[class*=form-item],[class*=form-group],[class*=field],form")
                .ok()
                .flatten()
                .is_some()
            && element
                .query_selector("input,select,textarea,[role=combobox],[role=textbox]")
                .ok()
                .flatten()
                .is_none();
        match classify(&facts) {
            Some(found) if found.role == Role::Alert => {
                if scope.in_field_error {
                    None
                } else if field_error
                    || element
                        .closest("[class*=form-item],[class*=form-group]")
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
        let (name, label) = match role {
            Role::DialogTitle | Role::Cell | Role::FieldError | Role::Alert | Role::Heading => {
                let mut text = tidy(&js::visible_text(element, None));
                if role == Role::Cell {
                    if let Some((_, header)) = scope
                        .row
                        .as_ref()
                        .and_then(|r| r.status_cell.as_ref())
                        .filter(|(c, _)| c == element)
                    {
                        text = format!("{header}: {text}");
                    }
                }
                (text, None)
            }
            _ => name::accessible_name(element, tag, role),
        };
        let mut state = states::state_of(element, tag, role, label.as_ref());
        state.focused = self.active.as_ref().is_some_and(|a| a == element);
        let value = name::value_of(element, tag, role, &name);
        let hint = name::hint_of(element, role, &name, state.disabled);

        let geometry = visibility::geometry_element(element);
        let proxy = geometry.as_ref().filter(|g| *g != element).cloned();
        let rect = self.to_top(
            &js::local_rect(geometry.as_ref().unwrap_or(element)),
            &scope.frame,
        );
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

        let popup = match role {
            Role::Combobox => PopupLink {
                dom_id: element.get_attribute("id"),
                controls: ids(element.get_attribute("aria-controls"))
                    .into_iter()
                    .chain(ids(element.get_attribute("aria-owns")))
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
                    Some(e) => (e.get_attribute("id"), e.get_attribute("class")),
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
                        .get_attribute("src")
                        .filter(|s| !s.is_empty())
                        .unwrap_or(name),
                );
            }
            return;
        };
        let Some(root) = document.document_element() else { return };
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
    let kids = element.children();
    (0..kids.length()).filter_map(|i| kids.item(i)).collect()
}
