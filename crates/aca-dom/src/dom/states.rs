//! The states a person sees on an element: disabled (natively, by ARIA, or by a `disabled` class),
//! checked, selected, expanded, required, read-only, and whether it takes a password.

use aca_core::{ElementState, Role};
use wasm_bindgen::intern;
use web_sys::Element;

use super::js;
use super::name::label_marks_required;

/// Disabled natively (`:disabled`, fieldsets included), by `aria-disabled` on it or an ancestor,
/// or by a `disabled` class word on a widget that is no native control.
pub fn is_disabled(element: &Element, tag: &str) -> bool {
    if matches!(tag, "button" | "input" | "select" | "textarea" | "option" | "fieldset") {
        if element.matches(intern(":disabled")).unwrap_or(false) {
            return true;
        }
    } else if element.get_attribute(intern("class")).is_some_and(|c| {
        c.split_ascii_whitespace()
            .any(|t| t == "disabled" || t == "is-disabled" || t.ends_with("-disabled"))
    }) {
        return true;
    }
    element.closest(intern("[aria-disabled=true]")).ok().flatten().is_some()
}

/// Read-only natively or by ARIA.
pub fn is_readonly(element: &Element, tag: &str) -> bool {
    (matches!(tag, "input" | "textarea") && js::prop_bool(element, "readOnly"))
        || element.get_attribute(intern("aria-readonly")).as_deref() == Some("true")
}

fn aria_bool(element: &Element, attribute: &str) -> Option<bool> {
    match element.get_attribute(intern(attribute)).as_deref() {
        Some("true" | "mixed") => Some(true),
        Some("false") => Some(false),
        _ => None,
    }
}

/// Everything but `focused` and `in_viewport`, which the walker knows better.
pub fn state_of(element: &Element, tag: &str, role: Role, label: Option<&Element>) -> ElementState {
    let native_check = tag == "input"
        && matches!(
            element
                .get_attribute(intern("type"))
                .unwrap_or_default()
                .to_ascii_lowercase()
                .as_str(),
            "checkbox" | "radio"
        );
    let checked = if native_check {
        Some(js::prop_bool(element, "checked"))
    } else if matches!(role, Role::Checkbox | Role::Radio | Role::Switch | Role::Menuitem) {
        aria_bool(element, "aria-checked").or_else(|| {
            matches!(role, Role::Checkbox | Role::Radio | Role::Switch)
                .then(|| aria_bool(element, "aria-pressed").unwrap_or(false))
        })
    } else {
        None
    };
    let expanded = if tag == "summary" {
        element.parent_element().map(|d| d.has_attribute(intern("open")))
    } else {
        aria_bool(element, "aria-expanded")
    };
    let required = (matches!(tag, "input" | "select" | "textarea") && js::prop_bool(element, "required"))
        || element.get_attribute(intern("aria-required")).as_deref() == Some("true")
        || label.is_some_and(label_marks_required);
    ElementState {
        disabled: is_disabled(element, tag),
        checked,
        selected: element.get_attribute(intern("aria-selected")).as_deref() == Some("true")
            || (tag == "option" && js::prop_bool(element, "selected")),
        expanded,
        required,
        readonly: is_readonly(element, tag),
        focused: false,
        secret: tag == "input"
            && element
                .get_attribute(intern("type"))
                .is_some_and(|t| t.eq_ignore_ascii_case("password")),
        in_viewport: true,
    }
}
