//! Seeing an element as a person would: rendered and not transparent, inside the viewport and its
//! scrolling containers, and the topmost thing under the pointer (hit tests through shadow roots
//! and frames), with the label standing in for a visually hidden checkbox or radio.

use aca_core::Rect;
use wasm_bindgen::intern;
use web_sys::{Document, Element};

use super::js;
use crate::visibility::{Clip, Visibility, contains, place_box, probe_points};

/// The topmost element at a point of `document` (its own viewport coordinates), looking into
/// open shadow roots.
pub fn hit(document: &Document, x: f64, y: f64) -> Option<Element> {
    let mut found = document.element_from_point(x as f32, y as f32)?;
    for _ in 0..32 {
        let Some(shadow) = found.shadow_root() else { break };
        match shadow.element_from_point(x as f32, y as f32) {
            Some(inner) if inner != found => found = inner,
            _ => break,
        }
    }
    Some(found)
}

/// Whether a pointer landing on `hit` reaches `target`: the target, something inside it, an
/// ancestor it lets the pointer through to, or the label standing in for it.
pub fn reaches(target: &Element, proxy: Option<&Element>, hit: &Element) -> bool {
    js::composed_contains(target, hit)
        || js::composed_contains(hit, target)
        || proxy.is_some_and(|p| js::composed_contains(p, hit))
}

/// The label that a visually hidden checkbox or radio input is clicked through.
pub fn label_proxy(element: &Element) -> Option<Element> {
    if element.local_name() != "input" {
        return None;
    }
    let kind = element
        .get_attribute(intern("type"))
        .unwrap_or_default()
        .to_ascii_lowercase();
    if kind != "checkbox" && kind != "radio" {
        return None;
    }
    js::labels(element).into_iter().next()
}

/// Whether `element` has a box a person could see (size, display, visibility, opacity).
pub fn rendered(element: &Element) -> bool {
    let r = element.get_bounding_client_rect();
    r.width() >= 1.0 && r.height() >= 1.0 && js::check_visibility(element)
}

/// The element whose box stands for `element`: itself, or the label of a hidden checkbox.
pub fn geometry_element(element: &Element) -> Option<Element> {
    if rendered(element) {
        return Some(element.clone());
    }
    label_proxy(element).filter(rendered)
}

/// What covers `target` at the top-frame point (x, y), if anything: `None` when a pointer there
/// reaches it through every enclosing frame.
/// Whether the topmost element at a top-frame point is `target` itself, inside it, or inside its
/// proxy (what a pointer there would press).
pub fn lands_on(target: &Element, proxy: Option<&Element>, x: f64, y: f64) -> bool {
    let Some(document) = target.owner_document() else {
        return false;
    };
    let (dx, dy) = js::frame_offset(target);
    hit(&document, x - dx, y - dy).is_some_and(|found| {
        js::composed_contains(target, &found) || proxy.is_some_and(|p| js::composed_contains(p, &found))
    })
}

pub fn covered_at(target: &Element, proxy: Option<&Element>, x: f64, y: f64) -> Option<Element> {
    let document = target.owner_document()?;
    let (dx, dy) = js::frame_offset(target);
    let found = hit(&document, x - dx, y - dy)?;
    if !reaches(target, proxy, &found) {
        return Some(found);
    }
    let frame = document.default_view().and_then(|w| w.frame_element().ok().flatten())?;
    covered_at(&frame, None, x, y)
}

/// Probes the visible part of `target` (top-frame coordinates); `None` when one probe reaches it,
/// else a description of what covers its centre.
pub fn occlusion(target: &Element, proxy: Option<&Element>, visible: &Rect) -> Option<String> {
    let mut first_cover: Option<Element> = None;
    for (x, y) in probe_points(visible) {
        match covered_at(target, proxy, x, y) {
            None => return None,
            Some(cover) => {
                if first_cover.is_none() {
                    // A mask over all of it (a dialog's backdrop) needs no more probes.
                    if contains(&js::top_rect(&cover), visible) {
                        return Some(cover_description(&cover));
                    }
                    first_cover = Some(cover);
                }
            }
        }
    }
    first_cover.map(|cover| cover_description(&cover))
}

/// "dialog "Create VPC"" when the cover belongs to a dialog, else the cover's tag and class.
pub fn cover_description(cover: &Element) -> String {
    // The cover is part of a dialog, or a dialog's mask holding it.
    const DIALOG: &str = "[role=dialog],[role=alertdialog],dialog,[aria-modal=true]";
    let dialog = cover
        .closest(intern(DIALOG))
        .ok()
        .flatten()
        .or_else(|| cover.query_selector(intern(DIALOG)).ok().flatten());
    if let Some(dialog) = dialog {
        let title = super::places::dialog_title(&dialog)
            .map(|(name, _)| name)
            .unwrap_or_default();
        if !title.is_empty() {
            return format!("dialog {}", aca_core::observation::quote(&title));
        }
    }
    js::describe(cover)
}

/// The clipping ancestors of an element (scrolling containers and `overflow: hidden` boxes,
/// enclosing frames), combined, in top-frame coordinates.
pub fn clip_of(element: &Element) -> Option<Clip> {
    let mut clip: Option<Clip> = None;
    let mut current = js::composed_parent(element);
    let mut window = js::window_of(element);
    let mut fixed = window
        .as_ref()
        .and_then(|w| js::computed_style(w, element))
        .is_some_and(|s| js::style_value(&s, "position") == "fixed");
    let mut steps = 0;
    while let Some(ancestor) = current {
        steps += 1;
        if steps > 256 {
            break;
        }
        let Some(w) = window.as_ref() else { break };
        let style = js::computed_style(w, &ancestor);
        let tag = ancestor.local_name();
        if let Some(style) = style.as_ref() {
            let overflow = js::style_value(style, "overflow");
            if !fixed && !overflow.is_empty() && overflow != "visible" && tag != "html" && tag != "body" {
                let own = Clip {
                    rect: js::top_rect(&ancestor),
                    scrolls: overflow.contains("auto") || overflow.contains("scroll"),
                };
                clip = Some(own.within(clip.as_ref()));
            }
            if js::style_value(style, "position") == "fixed" {
                fixed = true;
            }
        }
        current = js::composed_parent(&ancestor);
        if current.is_none() {
            // Leave this frame: its iframe clips what is inside it.
            let frame = w.frame_element().ok().flatten();
            if let Some(frame) = frame {
                let mut rect = js::top_rect(&frame);
                rect.x += f64::from(frame.client_left());
                rect.y += f64::from(frame.client_top());
                rect.width = f64::from(frame.client_width());
                rect.height = f64::from(frame.client_height());
                let own = Clip { rect, scrolls: true };
                clip = Some(own.within(clip.as_ref()));
                window = js::window_of(&frame);
                fixed = window
                    .as_ref()
                    .and_then(|w| js::computed_style(w, &frame))
                    .is_some_and(|s| js::style_value(&s, "position") == "fixed");
                current = js::composed_parent(&frame);
            }
        }
    }
    clip
}

/// An element's visibility right now and its box (the part in view when shown), computed on its
/// own: what actions check before they act.
pub fn visibility_of(element: &Element) -> (Visibility, Rect) {
    let Some(geometry) = geometry_element(element) else {
        return (Visibility::Hidden, js::top_rect(element));
    };
    let proxy = (&geometry != element).then_some(geometry.clone());
    let rect = js::top_rect(&geometry);
    let Ok(top) = js::top_window() else {
        return (Visibility::Hidden, rect);
    };
    let viewport = js::viewport(&top);
    match place_box(&rect, clip_of(&geometry).as_ref(), &viewport) {
        Err(visibility) => (visibility, rect),
        Ok(visible) => match occlusion(element, proxy.as_ref(), &visible) {
            Some(cover) => (Visibility::Covered(cover), visible),
            None => (Visibility::Shown, visible),
        },
    }
}

/// Whether the node is an element of an HTML document that is still in the page.
pub fn attached(element: &Element) -> bool {
    element.is_connected() && element.owner_document().and_then(|d| d.default_view()).is_some()
}
