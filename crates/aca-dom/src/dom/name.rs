//! Accessible names, values and hints read from the DOM: `aria-labelledby`, `aria-label`,
//! `<label for>` and wrapping labels, the label of the form item a control sits in, visible text,
//! `title` and `placeholder`.

use aca_core::Role;
use wasm_bindgen::intern;
use web_sys::Element;

use super::js;
use crate::name::{first_name, tidy};

/// Text of the elements an `aria-labelledby` (or `aria-describedby`) attribute names.
pub fn referenced_text(element: &Element, attribute: &str) -> Option<String> {
    let ids = element.get_attribute(intern(attribute))?;
    let text: Vec<String> = ids
        .split_ascii_whitespace()
        .filter_map(|id| js::element_by_id_near(element, id))
        .map(|e| js::visible_text(&e, None))
        .collect();
    Some(text.join(" "))
}

/// Controls a form item may hold; a form item's label names its control only when it holds one.
const CONTROLS: &str = "input:not([type=hidden]),select,textarea,[role=combobox],[role=textbox],[contenteditable=true]";

/// The label of the form item a control sits in: the nearest ancestor (up to four levels, across
/// a shadow root) holding one control and a label-like element before it. Console UI libraries
/// rarely tie labels with `for`.
pub fn form_item_label(element: &Element) -> Option<Element> {
    let mut current = js::composed_parent(element);
    for _ in 0..4 {
        let ancestor = current?;
        let controls = ancestor
            .query_selector_all(intern(CONTROLS))
            .map(|l| l.length())
            .unwrap_or(0);
        if controls > 1 {
            return None;
        }
        if let Ok(Some(label)) = ancestor.query_selector(intern("label,[class*=label],[class*=Label]")) {
            let precedes = label.compare_document_position(element) & web_sys::Node::DOCUMENT_POSITION_FOLLOWING != 0;
            let outside = !js::composed_contains(&label, element);
            if outside && (precedes || !ancestor.contains(Some(element))) {
                return Some(label);
            }
        }
        current = js::composed_parent(&ancestor);
    }
    None
}

/// Whether a label shows a required mark (`*`, or an element whose class says "required").
pub fn label_marks_required(label: &Element) -> bool {
    label
        .query_selector(intern("[class*=required]"))
        .ok()
        .flatten()
        .is_some()
        || label.text_content().unwrap_or_default().trim_start().starts_with('*')
}

fn takes_name_from_content(role: Role) -> bool {
    !matches!(role, Role::Textbox | Role::Combobox)
}

fn is_labelable(tag: &str) -> bool {
    matches!(
        tag,
        "input" | "select" | "textarea" | "button" | "meter" | "progress" | "output"
    )
}

/// The accessible name and, when a form item's label gave it, that label (for `required`).
pub fn accessible_name(element: &Element, tag: &str, role: Role) -> (String, Option<Element>) {
    let attr = |name: &str| element.get_attribute(intern(name));
    let mut label_element: Option<Element> = None;
    let labels = if is_labelable(tag) {
        js::labels(element)
    } else {
        Vec::new()
    };
    let from_labels = || {
        let texts: Vec<String> = labels.iter().map(|l| js::visible_text(l, Some(element))).collect();
        (!texts.is_empty()).then(|| texts.join(" "))
    };
    let early = first_name([
        referenced_text(element, "aria-labelledby"),
        attr("aria-label"),
        from_labels(),
    ]);
    if let Some(name) = early {
        return (name, labels.into_iter().next());
    }
    let wants_label = matches!(
        role,
        Role::Textbox | Role::Combobox | Role::Checkbox | Role::Radio | Role::Switch
    );
    if wants_label && let Some(label) = form_item_label(element) {
        let text = tidy(&js::visible_text(&label, Some(element)));
        let text = text.trim_start_matches('*').trim().to_owned();
        if !text.is_empty() {
            label_element = Some(label);
            return (text, label_element);
        }
    }
    let content = || {
        if tag == "input" {
            let kind = attr("type").unwrap_or_default().to_ascii_lowercase();
            if matches!(kind.as_str(), "button" | "submit" | "reset") {
                return js::prop_string(element, "value").or_else(|| Some(kind.clone()));
            }
            if kind == "image" {
                return attr("alt");
            }
            return None;
        }
        if tag == "select" || tag == "textarea" {
            return None;
        }
        takes_name_from_content(role).then(|| js::visible_text(element, None))
    };
    let content = content();
    // A glyph (↻, ×, …) names nothing when a tooltip says what the control does.
    let words = content.clone().filter(|c| c.chars().any(char::is_alphanumeric));
    let name = first_name([
        words,
        attr("title"),
        attr("placeholder"),
        attr("aria-placeholder"),
        // An unlabelled combobox shows its current choice; that is what a person calls it.
        (role == Role::Combobox && tag != "select").then(|| js::visible_text(element, None)),
        content,
        attr("name"),
    ])
    .unwrap_or_default();
    (name, label_element)
}

/// The value a person sees in a control: the field's text, the chosen option, a div select's
/// shown choice (not its placeholder). Passwords are masked.
pub fn value_of(element: &Element, tag: &str, role: Role, name: &str) -> Option<String> {
    let value = match tag {
        "input" => {
            let kind = element
                .get_attribute(intern("type"))
                .unwrap_or_default()
                .to_ascii_lowercase();
            if matches!(
                kind.as_str(),
                "checkbox" | "radio" | "button" | "submit" | "reset" | "image" | "file"
            ) {
                return None;
            }
            let value = js::prop_string(element, "value").unwrap_or_default();
            if kind == "password" && !value.is_empty() {
                return Some("********".into());
            }
            value
        }
        "textarea" => js::prop_string(element, "value").unwrap_or_default(),
        "select" => {
            let select: &web_sys::HtmlSelectElement = wasm_bindgen::JsCast::unchecked_ref(element);
            let index = select.selected_index();
            if index < 0 {
                return None;
            }
            select
                .options()
                .get_with_index(index as u32)
                .map(|o| js::visible_text(&o, None))
                .unwrap_or_default()
        }
        _ if role == Role::Combobox => {
            if shows_placeholder(element) {
                return None;
            }
            let shown = tidy(&js::visible_text(element, None));
            if shown == name {
                return None;
            }
            shown
        }
        _ if role == Role::Textbox && element.get_attribute(intern("contenteditable")).is_some() => {
            element.text_content().unwrap_or_default()
        }
        _ => return None,
    };
    let value = tidy(&value);
    (!value.is_empty()).then_some(value)
}

/// A div select shows its placeholder (`Select a VPC`) rather than a choice.
fn shows_placeholder(element: &Element) -> bool {
    element
        .query_selector(intern("[class*=placeholder]"))
        .ok()
        .flatten()
        .is_some_and(|p| !tidy(&p.text_content().unwrap_or_default()).is_empty())
}

/// The placeholder of a div select, shown as a hint while nothing is chosen.
fn placeholder_text(element: &Element) -> Option<String> {
    element
        .query_selector(intern("[class*=placeholder]"))
        .ok()
        .flatten()
        .map(|p| tidy(&p.text_content().unwrap_or_default()))
}

/// Why a disabled element is disabled (its tooltip), or the placeholder or tooltip of an enabled one.
pub fn hint_of(element: &Element, role: Role, name: &str, disabled: bool) -> Option<String> {
    let own = |attr: &str| {
        element
            .get_attribute(intern(attr))
            .map(|t| tidy(&t))
            .filter(|t| !t.is_empty() && t != name)
    };
    if disabled {
        let mut current = Some(element.clone());
        for _ in 0..4 {
            let Some(e) = current else { break };
            for attr in ["title", "data-tooltip", "data-tip", "data-title"] {
                if let Some(reason) = e
                    .get_attribute(intern(attr))
                    .map(|t| tidy(&t))
                    .filter(|t| !t.is_empty() && t != name)
                {
                    return Some(reason);
                }
            }
            current = js::composed_parent(&e);
        }
        return referenced_text(element, "aria-describedby")
            .map(|t| tidy(&t))
            .filter(|t| !t.is_empty());
    }
    match role {
        Role::Textbox => own("placeholder").or_else(|| own("title")),
        Role::Combobox => {
            if shows_placeholder(element) {
                placeholder_text(element).filter(|p| p != name)
            } else {
                own("title")
            }
        }
        _ => own("title"),
    }
}
