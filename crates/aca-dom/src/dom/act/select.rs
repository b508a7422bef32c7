//! Choosing an option by its visible text: a native `<select>` gets its value set with input and
//! change events; a div-based select is opened with a click, its options found in their portal
//! (tied by `aria-controls`/`aria-owns`, or the popup showing now) and the right one clicked.

use aca_core::{ActionOutcome, Fingerprint, NotActionable};
use js_sys::Reflect;
use wasm_bindgen::{JsCast, JsValue, intern};
use web_sys::{Element, Event, EventInit, HtmlSelectElement};

use super::super::{js, settle, visibility};
use super::pointer::{aim, dispatch_click};
use super::target::{Need, actionable, resolve};
use crate::name::{match_option, tidy};

/// How long to keep looking for a matching option once a popup shows options (they may still be
/// loading or filtering).
const MATCH_GRACE_MS: f64 = 1_000.0;

fn changed(element: &Element) {
    for kind in ["input", "change"] {
        let init = EventInit::new();
        init.set_bubbles(true);
        if let Ok(event) = Event::new_with_event_init_dict(kind, &init) {
            let _ = element.dispatch_event(&event);
        }
    }
}

fn native_select(element: &Element) -> Option<HtmlSelectElement> {
    if element.local_name() == "select" {
        return Some(element.clone().unchecked_into());
    }
    element
        .query_selector(intern("select"))
        .ok()
        .flatten()
        .map(|s| s.unchecked_into::<HtmlSelectElement>())
}

fn combobox(element: &Element) -> Option<Element> {
    if element
        .matches(intern("[role=combobox],[aria-haspopup=listbox],[aria-haspopup=true]"))
        .unwrap_or(false)
    {
        return Some(element.clone());
    }
    element.query_selector(intern("[role=combobox]")).ok().flatten()
}

fn choose_native(select: &HtmlSelectElement, index: u32, option: &str, reresolved: bool) -> ActionOutcome {
    let options = select.options();
    let texts: Vec<String> = (0..options.length())
        .filter_map(|i| options.get_with_index(i))
        .map(|o| tidy(&js::visible_text(&o, None)))
        .collect();
    match match_option(&texts, option) {
        Some(i) => {
            let _ = Reflect::set(select, &"selectedIndex".into(), &JsValue::from(i as u32));
            changed(select);
            ActionOutcome::Done { reresolved }
        }
        None => ActionOutcome::NotActionable {
            index,
            reason: NotActionable::NoSuchOption {
                option: option.into(),
                available: texts,
            },
        },
    }
}

/// The options the combobox's popup shows now.
fn shown_options(combobox: &Element) -> Vec<Element> {
    let mut popups: Vec<Element> = Vec::new();
    for attribute in ["aria-controls", "aria-owns"] {
        for id in combobox
            .get_attribute(intern(attribute))
            .unwrap_or_default()
            .split_ascii_whitespace()
        {
            if let Some(popup) = js::element_by_id_near(combobox, id) {
                popups.push(popup);
            }
        }
    }
    let collect = |root: &Element| -> Vec<Element> {
        let mut found = Vec::new();
        if root.get_attribute(intern("role")).as_deref() == Some("option") {
            found.push(root.clone());
        }
        if let Ok(list) = root.query_selector_all(intern("[role=option]")) {
            found.extend(js::elements_of(&list));
        }
        found
    };
    let mut options: Vec<Element> = popups.iter().flat_map(collect).collect();
    if options.is_empty()
        && let Some(root) = combobox.owner_document().and_then(|d| d.document_element())
    {
        options = collect(&root);
    }
    options
        .into_iter()
        .filter(|o| o.local_name() != "option" && visibility::rendered(o))
        .collect()
}

pub async fn select(index: u32, option: &str, wanted: Option<&Fingerprint>, timeout_ms: u32) -> ActionOutcome {
    let target = match resolve(index, wanted, timeout_ms).await {
        Ok(t) => t,
        Err(outcome) => return outcome,
    };
    if let Some(select) = native_select(&target.element) {
        if let Err(outcome) = actionable(select.as_ref(), index, Need::Pointer, timeout_ms).await {
            return outcome;
        }
        return choose_native(&select, index, option, target.reresolved);
    }
    let Some(combobox) = combobox(&target.element) else {
        return ActionOutcome::NotActionable {
            index,
            reason: NotActionable::WrongKind {
                expected: "a select".into(),
            },
        };
    };
    let start = settle::now();
    let visible = match actionable(&combobox, index, Need::Pointer, timeout_ms).await {
        Ok(rect) => rect,
        Err(outcome) => return outcome,
    };
    if combobox.get_attribute(intern("aria-expanded")).as_deref() != Some("true") || shown_options(&combobox).is_empty()
    {
        let (point, receiver) = aim(&combobox, &visible);
        dispatch_click(&receiver, point);
    }
    let mut first_seen: Option<f64> = None;
    loop {
        let options = shown_options(&combobox);
        let texts: Vec<String> = options.iter().map(|o| tidy(&js::visible_text(o, None))).collect();
        if let Some(i) = match_option(&texts, option) {
            let remaining = (f64::from(timeout_ms) - (settle::now() - start)).max(0.0) as u32;
            let visible = match actionable(&options[i], index, Need::Pointer, remaining).await {
                Ok(rect) => rect,
                Err(outcome) => return outcome,
            };
            let (point, receiver) = aim(&options[i], &visible);
            dispatch_click(&receiver, point);
            return ActionOutcome::Done {
                reresolved: target.reresolved,
            };
        }
        let now = settle::now();
        if !options.is_empty() {
            let seen = *first_seen.get_or_insert(now);
            if now - seen >= MATCH_GRACE_MS || now - start >= f64::from(timeout_ms) {
                return ActionOutcome::NotActionable {
                    index,
                    reason: NotActionable::NoSuchOption {
                        option: option.into(),
                        available: texts,
                    },
                };
            }
        } else if now - start >= f64::from(timeout_ms) {
            return ActionOutcome::Timeout {
                waited_ms: timeout_ms,
                waiting_for: "the options of the select to appear".into(),
            };
        }
        settle::sleep(50).await;
    }
}
