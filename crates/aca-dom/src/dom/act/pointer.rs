//! Pointer input as a person's mouse produces it: pointerover/mouseover/enter/move, then
//! pointerdown, mousedown (focusing what it lands on), pointerup, mouseup, click, dispatched to
//! the topmost element at a point of the target. `click` and `hover` actions.

use aca_core::{ActionOutcome, Aim, Fingerprint, Rect};
use wasm_bindgen::{JsCast, intern};
use web_sys::{Element, Event, HtmlElement, MouseEvent, MouseEventInit, PointerEvent, PointerEventInit};

use super::super::{js, visibility};
use super::target::{Need, actionable, resolve};
use crate::visibility::probe_points;

/// A point of `element` (top-frame coordinates) where the pointer reaches it, and the element
/// there that receives the events.
pub fn aim(element: &Element, visible: &Rect) -> ((f64, f64), Element) {
    let proxy = visibility::geometry_element(element).filter(|g| g != element);
    // The centre of each line box first: a link that wraps has none at its bounding box's centre.
    let mut points = line_centres(element, visible);
    points.extend(probe_points(visible));
    // A point on the element itself before one where only what holds it is hit.
    for on_itself in [true, false] {
        for &(x, y) in &points {
            let reached = if on_itself {
                visibility::lands_on(element, proxy.as_ref(), x, y)
            } else {
                visibility::covered_at(element, proxy.as_ref(), x, y).is_none()
            };
            if reached {
                let receiver = receiver_at(element, x, y).unwrap_or_else(|| element.clone());
                return ((x, y), receiver);
            }
        }
    }
    let centre = probe_points(visible)[0];
    (centre, element.clone())
}

/// The centres of an element's line boxes (one per line an inline element wraps onto) that lie in
/// its visible part, in top-frame coordinates; none for a single box.
fn line_centres(element: &Element, visible: &Rect) -> Vec<(f64, f64)> {
    let rects = element.get_client_rects();
    if rects.length() < 2 {
        return Vec::new();
    }
    let (dx, dy) = js::frame_offset(element);
    (0..rects.length())
        .filter_map(|i| rects.get(i))
        .filter(|r| r.width() > 0.0 && r.height() > 0.0)
        .map(|r| (dx + r.left() + r.width() / 2.0, dy + r.top() + r.height() / 2.0))
        .filter(|(x, y)| {
            *x >= visible.x && *x <= visible.x + visible.width && *y >= visible.y && *y <= visible.y + visible.height
        })
        .collect()
}

/// The element under the pointer at a top-frame point, inside `element`'s own frame.
fn receiver_at(element: &Element, x: f64, y: f64) -> Option<Element> {
    let document = element.owner_document()?;
    let (dx, dy) = js::frame_offset(element);
    visibility::hit(&document, x - dx, y - dy)
}

struct Pointer {
    x: f64,
    y: f64,
    window: Option<web_sys::Window>,
}

impl Pointer {
    fn at(element: &Element, (x, y): (f64, f64)) -> Self {
        let (dx, dy) = js::frame_offset(element);
        Pointer {
            x: x - dx,
            y: y - dy,
            window: js::window_of(element),
        }
    }

    fn mouse_init(&self, init: &MouseEventInit, buttons: u16, detail: i32) {
        init.set_bubbles(true);
        init.set_cancelable(true);
        init.set_composed(true);
        init.set_view(self.window.as_ref());
        init.set_client_x(self.x.round() as i32);
        init.set_client_y(self.y.round() as i32);
        init.set_screen_x(self.x.round() as i32);
        init.set_screen_y(self.y.round() as i32);
        init.set_button(0);
        init.set_buttons(buttons);
        init.set_detail(detail);
    }

    /// Dispatches a mouse event; false when a listener cancelled it.
    fn mouse(&self, target: &Element, kind: &str, buttons: u16, detail: i32) -> bool {
        let init = MouseEventInit::new();
        self.mouse_init(&init, buttons, detail);
        if matches!(kind, "mouseenter" | "mouseleave") {
            init.set_bubbles(false);
        }
        match MouseEvent::new_with_mouse_event_init_dict(kind, &init) {
            Ok(event) => target.dispatch_event(&event).unwrap_or(true),
            Err(_) => true,
        }
    }

    fn pointer(&self, target: &Element, kind: &str, buttons: u16) -> bool {
        let init = PointerEventInit::new();
        init.set_bubbles(!matches!(kind, "pointerenter" | "pointerleave"));
        init.set_cancelable(!matches!(kind, "pointerenter" | "pointerleave"));
        init.set_composed(true);
        init.set_view(self.window.as_ref());
        init.set_client_x(self.x.round() as i32);
        init.set_client_y(self.y.round() as i32);
        init.set_button(if kind == "pointermove" || kind == "pointerover" {
            -1
        } else {
            0
        });
        init.set_buttons(buttons);
        init.set_pointer_id(1);
        init.set_pointer_type("mouse");
        init.set_is_primary(true);
        init.set_width(1);
        init.set_height(1);
        init.set_pressure(if buttons == 0 { 0.0 } else { 0.5 });
        match PointerEvent::new_with_event_init_dict(kind, &init) {
            Ok(event) => {
                let event: &Event = event.as_ref();
                target.dispatch_event(event).unwrap_or(true)
            }
            Err(_) => true,
        }
    }
}

/// Moves the pointer onto `receiver`: the events that open hover menus and tooltips built on
/// listeners (CSS `:hover` needs real input, which only the runtime can give).
pub fn dispatch_hover(receiver: &Element, point: (f64, f64)) {
    let pointer = Pointer::at(receiver, point);
    pointer.pointer(receiver, "pointerover", 0);
    pointer.pointer(receiver, "pointerenter", 0);
    pointer.mouse(receiver, "mouseover", 0, 0);
    pointer.mouse(receiver, "mouseenter", 0, 0);
    pointer.pointer(receiver, "pointermove", 0);
    pointer.mouse(receiver, "mousemove", 0, 0);
}

/// A whole click on `receiver` at `point`; returns false when the click's default action was
/// cancelled by the page.
pub fn dispatch_click(receiver: &Element, point: (f64, f64)) -> bool {
    let pointer = Pointer::at(receiver, point);
    dispatch_hover(receiver, point);
    pointer.pointer(receiver, "pointerdown", 1);
    if pointer.mouse(receiver, "mousedown", 1, 1) {
        focus_from(receiver);
    }
    pointer.pointer(receiver, "pointerup", 0);
    pointer.mouse(receiver, "mouseup", 0, 1);
    pointer.mouse(receiver, "click", 0, 1)
}

/// What a mousedown focuses: the nearest focusable element at or above where it landed.
fn focus_from(receiver: &Element) {
    const FOCUSABLE: &str = "a[href],button,input,select,textarea,summary,[tabindex],[contenteditable=true],\
        [contenteditable='']";
    let mut current = Some(receiver.clone());
    while let Some(element) = current {
        if element.matches(intern(FOCUSABLE)).unwrap_or(false) {
            let _ = element.unchecked_ref::<HtmlElement>().focus();
            return;
        }
        current = js::composed_parent(&element);
    }
}

/// Where following a link clicked at `receiver` leads, when it leaves the current document.
fn link_destination(receiver: &Element) -> Option<String> {
    let mut current = Some(receiver.clone());
    while let Some(element) = current {
        if element.local_name() == "a" && element.has_attribute(intern("href")) {
            let href = js::prop_string(&element, "href")?;
            let target = element.get_attribute(intern("target")).unwrap_or_default();
            let here = element.owner_document().and_then(|d| d.url().ok()).unwrap_or_default();
            let strip = |u: &str| u.split('#').next().unwrap_or(u).to_owned();
            let leaves = !href.starts_with("javascript:") && strip(&href) != strip(&here);
            return (leaves && (target.is_empty() || target == "_self")).then_some(href);
        }
        current = js::composed_parent(&element);
    }
    None
}

pub async fn click(index: u32, wanted: Option<&Fingerprint>, timeout_ms: u32) -> ActionOutcome {
    let target = match resolve(index, wanted, timeout_ms).await {
        Ok(t) => t,
        Err(outcome) => return outcome,
    };
    let visible = match actionable(&target.element, index, Need::Pointer, timeout_ms).await {
        Ok(rect) => rect,
        Err(outcome) => return outcome,
    };
    let (point, receiver) = aim(&target.element, &visible);
    let followed = dispatch_click(&receiver, point);
    if followed && let Some(url) = link_destination(&receiver) {
        return ActionOutcome::Navigated { url };
    }
    ActionOutcome::Done {
        reresolved: target.reresolved,
    }
}

pub async fn hover(index: u32, wanted: Option<&Fingerprint>, timeout_ms: u32) -> ActionOutcome {
    let target = match resolve(index, wanted, timeout_ms).await {
        Ok(t) => t,
        Err(outcome) => return outcome,
    };
    let visible = match actionable(&target.element, index, Need::Hover, timeout_ms).await {
        Ok(rect) => rect,
        Err(outcome) => return outcome,
    };
    let (point, receiver) = aim(&target.element, &visible);
    dispatch_hover(&receiver, point);
    ActionOutcome::Done {
        reresolved: target.reresolved,
    }
}

/// Where a real pointer should click or hover `index`: found, actionable, and a point a hit test
/// reaches. Runtimes with trusted input (CDP) use it instead of the synthetic events above.
pub async fn aim_at(index: u32, wanted: Option<&Fingerprint>, hover: bool, timeout_ms: u32) -> Aim {
    let target = match resolve(index, wanted, timeout_ms).await {
        Ok(t) => t,
        Err(because) => return Aim::Refused { because },
    };
    let need = if hover { Need::Hover } else { Need::Pointer };
    let visible = match actionable(&target.element, index, need, timeout_ms).await {
        Ok(rect) => rect,
        Err(because) => return Aim::Refused { because },
    };
    let ((x, y), _) = aim(&target.element, &visible);
    Aim::At {
        x,
        y,
        reresolved: target.reresolved,
    }
}
