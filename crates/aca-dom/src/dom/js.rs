//! Small bindings and helpers over `web-sys`: DOM methods it does not expose as stable API
//! (`checkVisibility`, `labels`, `assignedElements`), property reads by name, boxes in top-frame
//! coordinates, and text content with hidden parts left out.

use aca_core::Rect;
use js_sys::{JsString, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, intern};
use web_sys::{CssStyleDeclaration, Document, Element, Node, ShadowRoot, Window};

#[wasm_bindgen]
extern "C" {
    /// An element seen through methods `web-sys` has no stable binding for.
    type NewerElement;

    #[wasm_bindgen(method, js_name = checkVisibility)]
    fn check_visibility_with(this: &NewerElement, options: &JsValue) -> bool;

    #[wasm_bindgen(method, js_name = assignedElements)]
    fn assigned_elements_with(this: &NewerElement, options: &JsValue) -> js_sys::Array;

    #[wasm_bindgen(method, catch, js_name = matches)]
    fn matches_js(this: &NewerElement, selector: &JsString) -> Result<bool, JsValue>;

    /// `CSSStyleDeclaration`, read with property names kept as JS strings.
    type StyleValues;

    #[wasm_bindgen(method, js_name = getPropertyValue)]
    fn value_js(this: &StyleValues, property: &JsString) -> String;

    #[wasm_bindgen(method, js_name = getPropertyValue)]
    fn raw_value_js(this: &StyleValues, property: &JsString) -> JsValue;
}

/// Whether a computed style property has a value, compared as JS strings (nothing decoded).
pub fn style_is(style: &CssStyleDeclaration, property: &JsString, value: &JsValue) -> bool {
    style.unchecked_ref::<StyleValues>().raw_value_js(property) == *value
}

/// `element.matches(selector)` with a selector made into a JS string once, not on every call.
pub fn matches(element: &Element, selector: &JsString) -> bool {
    element
        .unchecked_ref::<NewerElement>()
        .matches_js(selector)
        .unwrap_or(false)
}

/// A computed style property, with the property name made into a JS string once.
pub fn style_of(style: &CssStyleDeclaration, property: &JsString) -> String {
    style.unchecked_ref::<StyleValues>().value_js(property)
}

thread_local! {
    /// `{opacityProperty: true, visibilityProperty: true}`, or `None` where `checkVisibility`
    /// does not exist (before Chromium 105): then size checks alone decide.
    static CHECK_OPTIONS: Option<JsValue> = {
        let supported = web_sys::window()
            .and_then(|w| Reflect::get(&w, &"Element".into()).ok())
            .and_then(|c| Reflect::get(&c, &"prototype".into()).ok())
            .is_some_and(|p| Reflect::has(&p, &"checkVisibility".into()).unwrap_or(false));
        supported.then(|| {
            let options = Object::new();
            let _ = Reflect::set(&options, &"opacityProperty".into(), &JsValue::TRUE);
            let _ = Reflect::set(&options, &"visibilityProperty".into(), &JsValue::TRUE);
            options.into()
        })
    };
}

/// `value` as an element, from whichever frame it comes (`instanceof` checks fail across frames).
pub fn as_element(value: JsValue) -> Option<Element> {
    if !value.is_object() {
        return None;
    }
    let node: Node = value.unchecked_into();
    (node.node_type() == Node::ELEMENT_NODE).then(|| node.unchecked_into())
}

/// `value` as a function, from whichever frame it comes.
pub fn as_function(value: JsValue) -> Option<js_sys::Function> {
    value.is_function().then(|| value.unchecked_into())
}

/// A method of `target` by name, if it has one.
pub fn method(target: &JsValue, name: &str) -> Option<js_sys::Function> {
    as_function(prop(target, name))
}

/// The elements of a `NodeList` (or any array-like of nodes).
pub fn elements_of(list: &web_sys::NodeList) -> Vec<Element> {
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| as_element(n.into()))
        .collect()
}

/// The element's own window (its frame's), falling back to the top one.
pub fn window_of(element: &Element) -> Option<Window> {
    element
        .owner_document()
        .and_then(|d| d.default_view())
        .or_else(web_sys::window)
}

pub fn top_window() -> Result<Window, String> {
    web_sys::window().ok_or_else(|| "no window: aca-dom runs in a page".to_owned())
}

pub fn top_document() -> Result<Document, String> {
    top_window()?
        .document()
        .ok_or_else(|| "the window has no document".to_owned())
}

pub fn computed_style(window: &Window, element: &Element) -> Option<CssStyleDeclaration> {
    window.get_computed_style(element).ok().flatten()
}

pub fn style_value(style: &CssStyleDeclaration, property: &str) -> String {
    style.get_property_value(property).unwrap_or_default()
}

/// `checkVisibility` with opacity and `visibility` checked: false when the element or an
/// ancestor is `display: none`, `visibility: hidden` or fully transparent.
pub fn check_visibility(element: &Element) -> bool {
    CHECK_OPTIONS.with(|options| match options {
        Some(options) => element.unchecked_ref::<NewerElement>().check_visibility_with(options),
        None => true,
    })
}

/// The elements a `<slot>` shows (flattened), in order.
pub fn assigned_elements(slot: &Element) -> Vec<Element> {
    let options = Object::new();
    let _ = Reflect::set(&options, &"flatten".into(), &JsValue::TRUE);
    slot.unchecked_ref::<NewerElement>()
        .assigned_elements_with(&options)
        .iter()
        .filter_map(as_element)
        .collect()
}

/// A property read by name (`checked`, `disabled`, `value`), as JS would read it.
pub fn prop(element: &JsValue, name: &str) -> JsValue {
    Reflect::get(element, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

pub fn prop_bool(element: &JsValue, name: &str) -> bool {
    prop(element, name).as_bool().unwrap_or(false)
}

pub fn prop_string(element: &JsValue, name: &str) -> Option<String> {
    prop(element, name).as_string()
}

/// The `<label>`s of a labelable control (`<label for>` and wrapping labels).
pub fn labels(element: &Element) -> Vec<Element> {
    let list = prop(element, "labels");
    if !list.is_object() {
        return Vec::new();
    }
    elements_of(list.unchecked_ref())
}

/// Where the element's own frame sits in the top frame's viewport: the sum of the enclosing
/// iframes' content boxes.
pub fn frame_offset(element: &Element) -> (f64, f64) {
    let mut offset = (0.0, 0.0);
    let mut window = window_of(element);
    while let Some(w) = window {
        let Ok(Some(frame)) = w.frame_element() else { break };
        let r = frame.get_bounding_client_rect();
        offset.0 += r.left() + f64::from(frame.client_left());
        offset.1 += r.top() + f64::from(frame.client_top());
        window = window_of(&frame);
        if window.as_ref().is_some_and(|parent| parent == &w) {
            break;
        }
    }
    offset
}

/// The element's border box in its own frame's coordinates.
pub fn local_rect(element: &Element) -> Rect {
    let r = element.get_bounding_client_rect();
    Rect {
        x: r.left(),
        y: r.top(),
        width: r.width(),
        height: r.height(),
    }
}

/// The element's border box relative to the top frame's viewport.
pub fn top_rect(element: &Element) -> Rect {
    let mut rect = local_rect(element);
    let (dx, dy) = frame_offset(element);
    rect.x += dx;
    rect.y += dy;
    rect
}

/// The viewport of a window, without scrollbars.
pub fn viewport(window: &Window) -> Rect {
    let inner = |v: Result<JsValue, JsValue>| v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
    let (inner_width, inner_height) = (inner(window.inner_width()), inner(window.inner_height()));
    // The root element's client size leaves the scrollbars out; in quirks mode it is the whole
    // document's size instead, which the window's inner size bounds.
    let (width, height) = window
        .document()
        .and_then(|d| d.document_element())
        .map(|e| (f64::from(e.client_width()), f64::from(e.client_height())))
        .filter(|(w, h)| *w > 0.0 && *h > 0.0)
        .map(|(w, h)| {
            let bound = |client: f64, outer: f64| if outer > 0.0 { client.min(outer) } else { client };
            (bound(w, inner_width), bound(h, inner_height))
        })
        .unwrap_or((inner_width, inner_height));
    Rect {
        x: 0.0,
        y: 0.0,
        width,
        height,
    }
}

/// The text a person reads in `element`: its text content with scripts, `aria-hidden` and
/// `hidden` parts left out, images by their `alt`, icons by their `aria-label`. `skip` leaves out
/// one descendant (a label's own control).
pub fn visible_text(element: &Element, skip: Option<&Element>) -> String {
    // Text content runs the words of neighbouring elements together ("1" + "Basic
    // Configurations"), so only an element without element children uses it.
    if skip.is_none() && element.child_element_count() == 0 {
        return element.text_content().unwrap_or_default();
    }
    let mut out = String::new();
    collect_text(element.as_ref(), skip, &mut out);
    out
}

fn collect_text(node: &Node, skip: Option<&Element>, out: &mut String) {
    const LIMIT: usize = 2_000;
    let mut child = node.first_child();
    while let Some(current) = child {
        if out.len() > LIMIT {
            return;
        }
        match current.node_type() {
            Node::TEXT_NODE => {
                if let Some(text) = current.node_value() {
                    out.push_str(&text);
                }
            }
            Node::ELEMENT_NODE => {
                if let Some(element) = as_element(current.clone().into()).as_ref() {
                    if skip.is_some_and(|s| s == element) {
                        child = current.next_sibling();
                        continue;
                    }
                    let tag = element.local_name();
                    let hidden = element.get_attribute(intern("aria-hidden")).as_deref() == Some("true")
                        || element.has_attribute(intern("hidden"));
                    // Controls are named things, not text (a row's checkbox does not name the row).
                    let silent = matches!(
                        tag.as_str(),
                        "script" | "style" | "template" | "noscript" | "select" | "input" | "textarea"
                    );
                    if !hidden && !silent {
                        out.push(' ');
                        if let Some(label) = element
                            .get_attribute(intern("aria-label"))
                            .filter(|l| !l.trim().is_empty())
                        {
                            out.push_str(&label);
                        } else if tag == "img" {
                            out.push_str(&element.get_attribute(intern("alt")).unwrap_or_default());
                        } else if tag == "svg" {
                            if let Ok(Some(title)) = element.query_selector(intern("title")) {
                                out.push_str(&title.text_content().unwrap_or_default());
                            }
                        } else {
                            collect_text(&current, skip, out);
                        }
                        out.push(' ');
                    }
                }
            }
            _ => {}
        }
        child = current.next_sibling();
    }
}

/// The document or shadow root an element lives in, to look ids up where they mean something.
pub fn element_by_id_near(element: &Element, id: &str) -> Option<Element> {
    let root = element.get_root_node();
    match root.node_type() {
        Node::DOCUMENT_FRAGMENT_NODE => root.unchecked_ref::<ShadowRoot>().get_element_by_id(id),
        Node::DOCUMENT_NODE => root.unchecked_ref::<Document>().get_element_by_id(id),
        _ => None,
    }
}

/// The element's parent, stepping from a shadow root to its host.
pub fn composed_parent(element: &Element) -> Option<Element> {
    if let Some(parent) = element.parent_element() {
        return Some(parent);
    }
    element
        .parent_node()
        .filter(|n| n.node_type() == Node::DOCUMENT_FRAGMENT_NODE)
        .map(|n| n.unchecked_into::<ShadowRoot>().host())
}

/// Whether `ancestor` is `element` or contains it, across shadow roots (not across frames).
pub fn composed_contains(ancestor: &Element, element: &Element) -> bool {
    let mut current = Some(element.clone());
    let mut steps = 0;
    while let Some(e) = current {
        if &e == ancestor {
            return true;
        }
        steps += 1;
        if steps > 512 {
            return false;
        }
        current = composed_parent(&e);
    }
    false
}

/// The focused element, looking inside shadow roots and same-origin frames.
pub fn deep_active_element() -> Option<Element> {
    let mut active = top_document().ok()?.active_element()?;
    for _ in 0..32 {
        if let Some(shadow) = active.shadow_root() {
            match shadow.active_element() {
                Some(inner) if inner != active => {
                    active = inner;
                    continue;
                }
                _ => {}
            }
        }
        if active.local_name() == "iframe" {
            let frame: &web_sys::HtmlIFrameElement = active.unchecked_ref();
            if let Some(inner) = frame.content_document().and_then(|d| d.active_element()) {
                active = inner;
                continue;
            }
        }
        break;
    }
    Some(active)
}

/// A short description of an element for messages: `div.dialog-mask`, `button#ok`.
pub fn describe(element: &Element) -> String {
    let tag = element.local_name();
    let id = element.get_attribute(intern("id"));
    let class = element.get_attribute(intern("class"));
    crate::fingerprint::segment(&tag, id.as_deref(), class.as_deref(), None)
}
